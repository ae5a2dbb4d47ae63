// Histograms with atomics: straight to global memory, and privatized per block in
// shared memory.
#define BINS 64

__global__ void histogram_global(const unsigned char *data, unsigned *bins, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i] % BINS], 1u);
}

__global__ void histogram_shared(const int *keys, unsigned *bins, int n) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int k = keys[i];
    int b = k < 0 ? 0 : (k >= BINS ? BINS - 1 : k);
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

// Weighted: float atomics, and the largest key seen with atomicMax.
__global__ void histogram_weighted(const int *keys, const float *w, float *bins, int *max_key, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i] & (BINS - 1);
  atomicAdd(&bins[k], w[i]);
  atomicMax(max_key, keys[i]);
}

// Scoped atomics: `_block` ones on shared memory, `_system` ones on global memory.
__global__ void histogram_scoped(const int *keys, unsigned *bins, unsigned long long *total, float *sum, int n) {
  __shared__ unsigned local[BINS];
  __shared__ unsigned top;
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  if (threadIdx.x == 0) top = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd_block(&local[keys[i] & (BINS - 1)], 1u);
    atomicMax_block(&top, (unsigned)keys[i]);
    atomicAdd_system(total, (unsigned long long)keys[i]);
    atomicAdd_system(sum, 0.5f);
    atomicCAS_system(&bins[BINS + 1], 0u, 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd_system(&bins[b], local[b]);
  if (threadIdx.x == 0) atomicMax_system(&bins[BINS], top);
}
