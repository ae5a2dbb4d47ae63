// The CUDA twin of block_sum_gpu.mlir: the same tree of additions in shared memory.
#define THREADS 128

extern "C" __global__ void block_sum(const float *in, float *out) {
    __shared__ float sh[THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    sh[tid] = in[i];
    __syncthreads();
    for (unsigned s = THREADS / 2; s > 0; s /= 2) {
        if (tid < s) sh[tid] = sh[tid] + sh[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sh[0];
}
