// Kernels tuned for occupancy the way projects tune them: __launch_bounds__ with a
// minimum of resident blocks (which caps the registers a thread may use; ptxas meets the
// cap), over loops that keep many loop-invariant values (filter taps derived from runtime
// parameters, scaled strides) live across every trip. LICM hoists the eight taps and the
// seven strides `k * stride * 4` (64 bits each); `slsr` then makes the loads' addresses a
// chain of adds of one stride, so that one register holds what seven did (ptxas: 32
// registers for plain_taps, as NVRTC's PTX, where the hoisted strides took 40). The
// `remat` pass (its pass tests start from this file's IR before that chain) finds the
// estimate, 31 registers, at full occupancy and has nothing to do.
#include <cuda_runtime.h>

#define THREADS 256
#define MIN_BLOCKS 4   // 65536 / (4 * 256) = 64 registers a thread; 1024 threads (sm_75's most)

struct Taps {
    float w, s;
};

// Eight taps from two parameters, four accumulators, eight strided loads a trip.
template <int BOUNDED>
__device__ __forceinline__ void filter8(const float *__restrict__ in, float *__restrict__ out, Taps k, int stride, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f, acc3 = 0.f;
    for (int j = i; j < n; j += gridDim.x * blockDim.x) {
        const float *p = in + j;
        float t0 = k.w * 0.5f + k.s, t1 = k.w * 0.25f - k.s;
        float t2 = k.w * 0.125f + 2.f * k.s, t3 = k.w * 0.0625f - 2.f * k.s;
        float t4 = k.w * 0.75f + k.s * 3.f, t5 = k.w * 1.5f - k.s * 3.f;
        float t6 = k.w * 2.5f + k.s, t7 = k.w * 3.5f - k.s;
        float v0 = p[0], v1 = p[stride], v2 = p[2 * stride], v3 = p[3 * stride];
        float v4 = p[4 * stride], v5 = p[5 * stride], v6 = p[6 * stride], v7 = p[7 * stride];
        acc0 += t0 * v0 + t1 * v1 + t2 * v2 + t3 * v3;
        acc1 += t4 * v4 + t5 * v5 + t6 * v6 + t7 * v7;
        acc2 += t0 * v7 + t7 * v0 + t3 * v4 + t4 * v3;
        acc3 += t1 * v6 + t6 * v1 + t2 * v5 + t5 * v2;
    }
    if (i < n) {
        out[i] = acc0;
        out[i + n] = acc1;
        out[i + 2 * n] = acc2;
        out[i + 3 * n] = acc3;
    }
}

__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
bounded_taps(const float *__restrict__ in, float *__restrict__ out, Taps k, int stride, int n) {
    filter8<1>(in, out, k, stride, n);
}

__global__ void plain_taps(const float *__restrict__ in, float *__restrict__ out, Taps k, int stride, int n) {
    filter8<0>(in, out, k, stride, n);
}

// A structure-of-arrays update with `size_t` plane offsets: `slsr` makes the rows' addresses
// a chain of adds of one stride, as NVRTC's PTX has it.
__global__ void __launch_bounds__(128, 8)
soa_mix(const float *__restrict__ in, float *__restrict__ out, float a, float b, int plane, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = in + i;
    size_t sp = (size_t)plane;
    float x0 = p[0], x1 = p[sp], x2 = p[2 * sp], x3 = p[3 * sp];
    float x4 = p[4 * sp], x5 = p[5 * sp], x6 = p[6 * sp], x7 = p[7 * sp];
    float r0 = a * x0 * x1 + x2, r1 = b * x3 * x4 + x5;
    float r2 = a * x6 * x7 + x0, r3 = b * x1 * x2 + x3, r4 = x4 * x5 + x6;
    float *q = out + i;
    q[0] = r0 + r1;
    q[sp] = r2 + r3;
    q[2 * sp] = r4 + r0;
    q[3 * sp] = r1 * r4 + x7;
}

// The host side (left out under NVRTC, which compiles device code only).
#ifndef __CUDACC_RTC__
int main() {
    float *in, *out;
    cudaMalloc(&in, 8 * 4096 * sizeof(float));
    cudaMalloc(&out, 4 * 4096 * sizeof(float));
    bounded_taps<<<16, THREADS>>>(in, out, Taps{1.5f, 0.25f}, 4096, 4096);
    plain_taps<<<16, THREADS>>>(in, out, Taps{1.5f, 0.25f}, 4096, 4096);
    soa_mix<<<32, 128>>>(in, out, 0.5f, 2.0f, 4096, 4096);
    cudaDeviceSynchronize();
    return 0;
}
#endif
