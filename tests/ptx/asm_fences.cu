// Inline PTX and memory fences, the way reduction and device-side bookkeeping code uses
// them: a "last block finishes" sum (each block publishes its partial, fences, and takes a
// ticket; the block that draws the last ticket adds the partials), lane ids read with asm,
// a volatile asm fence, and pointers kept as integers in a table and rebuilt.
#define THREADS 128

__device__ unsigned int blocks_done = 0;

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ int add_sat(int a, int b) {
  int r;
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__global__ void last_block_sum(const float *in, float *partials, float *total, int n) {
  __shared__ float sh[THREADS];
  __shared__ bool is_last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sh[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sh[0];
    __threadfence();
    unsigned ticket = atomicInc(&blocks_done, gridDim.x);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
    *total = sum;
    blocks_done = 0;
  }
}

__global__ void lanes_and_saturation(const int *a, const int *b, int *sum, unsigned *lanes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  lanes[i] = lane_id();
  sum[i] = add_sat(a[i], b[i]);
  asm volatile("membar.cta;" ::: "memory");
  __threadfence_block();
}

// Rows addressed through a table of integer addresses, as allocators and graph code do.
typedef unsigned long long address_t;

__global__ void gather_rows(const float *base, address_t *table, float *out, int rows, int cols) {
  int r = blockIdx.x;
  if (threadIdx.x == 0) table[r] = reinterpret_cast<address_t>(base + (size_t)(rows - 1 - r) * cols);
  __syncthreads();
  __threadfence_system();
  const float *row = reinterpret_cast<const float *>(table[r]);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[r * cols + c] = row[c] * 2.0f;
}
