// The CUDA source of tests/ir/passes/convert_nvvm_to_ptx.mlir (`cuprite compile convert_nvvm_to_ptx.cu --emit=nvvm -O1`, with
// each op written with its `nvvm.` prefix): one kernel per group of nvvm ops the selector has a pattern for.
#include <cuda_runtime.h>

__device__ __noinline__ float scale_by(float x, float s) { return x * s; }

__device__ __noinline__ void fail_if(bool bad) {
    if (bad) __trap();
}

__global__ void int_ops(int *out, unsigned *uout, long long *wide, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = in[i], b = in[i + 1] | 1;
    unsigned ua = (unsigned)a, ub = (unsigned)b | 1u;
    out[i] = a + b - (a * b) / b % 7 + (a & b) + (a ^ b) + (a << 3) + (a >> 2);
    uout[i] = ua / ub + ua % ub + (ua >> 5);
    wide[i] = (long long)a * (long long)b + (long long)(short)a + (unsigned char)b;
    out[i + n] = a < b ? a : b;
    out[i + 2 * n] = __ffs(a);
}

__global__ void float_ops(float *f, double *d, int *iout, unsigned *uout, int n) {
    int i = threadIdx.x;
    float x = f[i], y = f[i + n];
    float z = x * y + x - y * 2.0f;
    z = z / (y + 1.0f);
    z = -z;
    d[i] = (double)z * 3.0;
    f[i] = -sqrtf(x) + (float)d[i + n] + __int_as_float(__float_as_int(y) & 0x7fffffff);
    iout[i] = (int)x + (x > y) + (x != x);
    uout[i] = (unsigned)y + (unsigned)(float)(unsigned)iout[i] + __popc(iout[i]);
    f[i + 2 * n] = scale_by(x, (float)i);
    f[i + 3 * n] = x - y;
}

struct Pair {
    float x, y;
};

__shared__ float tile[64];

__global__ void gpu_ops(float *f, int *counts, unsigned long long *addrs, cudaTextureObject_t tex, const Pair *pairs, int n) {
    int t = threadIdx.x;
    tile[t] = f[t];
    __syncthreads();
    __threadfence();
    float v = tile[(t + 1) % 64];
    v += __shfl_down_sync(0xffffffffu, v, 1);
    unsigned mask = __activemask();
    unsigned top = __reduce_max_sync(mask, (unsigned)(v > 0.0f));
    unsigned groups = __match_any_sync(mask, top) & __match_all_sync(mask, v, (int *)&counts[2]);
    if (__all_sync(mask, v > 0.0f) | groups) atomicAdd(&counts[0], 1);
    atomicCAS(&counts[1], 0, t);
    float *p = &tile[t];
    addrs[t] = (unsigned long long)p;
    float *q = (float *)addrs[t];
    if (q == nullptr) return;
    f[t] = v + tex1Dfetch<float>(tex, t);
    int lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    counts[2 + t] = lane;
    fail_if(n < 0);
    float local[4];
    for (int k = 0; k < 4; ++k) local[k] = f[k * n + t];
    f[t + n] = local[t & 3] + pairs[t].y;
}
