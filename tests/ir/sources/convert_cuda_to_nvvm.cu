// The CUDA source of tests/ir/passes/convert_cuda_to_nvvm.mlir and convert_func_to_nvvm.mlir:
// kernels written to use every op those two passes lower. The first file is this source's
// IR after the conversions that run before convert-cuda-to-nvvm, the second after it:
//   cuprite compile convert_cuda_to_nvvm.cu --emit=cuda -o k.mlir
//   cuprite opt k.mlir --link-math-library --convert-scf-to-cf --lower-cuda-control-flow \
//     --convert-cuda-gpu-to-nvvm --convert-arith-to-nvvm --convert-math-to-nvvm \
//     --convert-cuda-intrinsics-to-nvvm --convert-cuda-pointers-to-nvvm [--convert-cuda-to-nvvm]
#include <cuda_runtime.h>

struct Particle {
    float3 pos;
    float mass;
    int id;
};

struct Bounds {
    float lo, hi;
};

__constant__ float weights[4] = {0.5f, 0.25f, 0.125f, 0.125f};
__device__ int hits;

// A struct by value in and out: its scalars as parameters, the result through sret.
__device__ __noinline__ Particle advance(Particle p, float3 v, float dt) {
    p.pos.x += v.x * dt;
    p.pos.y += v.y * dt;
    p.pos.z += v.z * dt;
    return p;
}

__device__ __noinline__ Bounds widen(Bounds b, float by) {
    if (by < 0.0f) __trap();
    return Bounds{b.lo - by, b.hi + by};
}

// Both branches return: what follows the if cannot be reached.
__device__ __noinline__ int sign_of(int x) {
    if (x < 0) {
        return -1;
    } else {
        return x > 0;
    }
}

__global__ void step(Particle *ps, const float3 *vel, Bounds box, float dt, int n) {
    __shared__ Particle tile[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle p = ps[i];
    tile[threadIdx.x % 32] = p;
    __syncthreads();
    Particle q = advance(tile[threadIdx.x % 32], vel[i], dt * weights[i & 3]);
    Bounds b = widen(box, 0.5f);
    q.pos.x = fminf(fmaxf(q.pos.x, b.lo), b.hi);
    if (q.pos.x == b.hi && sign_of(q.id) >= 0) atomicAdd(&hits, sign_of(q.id) + 1);
    volatile float *vp = &ps[i].mass;
    *vp = q.mass;
    ps[i] = q;
}

__global__ void scaled(float *out, const float *__restrict__ in, int n) {
    extern __shared__ float buf[];
    int i = threadIdx.x;
    buf[i] = __ldg(&in[i]);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += buf[(i + k) % n];
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    out[i] = acc + (float)lane;
}

__global__ void sample(float *out, cudaTextureObject_t t, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, i + 0.5f, 0.5f);
}
