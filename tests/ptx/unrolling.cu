// Loops as kernels write them, for loop-unroll: a filter tap loop under #pragma unroll,
// a small fixed loop without a pragma, a count-down loop, an unsigned loop ending at !=,
// a pragma'd loop nested in a runtime loop, and the loops that must stay rolled: a
// runtime trip count, #pragma unroll 1, too many trips, and a partial #pragma unroll 4.
#include <cuda_runtime.h>

#define TAPS 9
#define RADIUS (TAPS / 2)

__constant__ float taps[TAPS];

__global__ void fir(const float *__restrict__ in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < RADIUS || i >= n - RADIUS) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k) acc += taps[k + RADIUS] * in[i + k];
    out[i] = acc;
}

struct Pixel { unsigned char r, g, b, a; };

__global__ void channels(const Pixel *px, unsigned *sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned char *c = &px[i].r;
    unsigned s = 0;
    for (int k = 0; k < 4; ++k) s = s * 31u + c[k];        // small: unrolled without a pragma
    for (int k = 3; k >= 0; --k) s ^= (unsigned)c[k] << (8 * k);   // counting down
    for (unsigned k = 0; k != 6u; k += 2u) s += k * c[k / 2];       // unsigned, ends at !=
    sums[i] = s;
}

__global__ void rows(const float *m, float *out, int rows_, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows_) return;
    float best = -1e30f;
    for (int j = 0; j < cols; j += 8) {                      // runtime trips: rolled
        float local = 0.0f;
#pragma unroll
        for (int q = 0; q < 8; ++q) local += m[r * cols + j + q];   // nested: unrolled
        best = fmaxf(best, local);
    }
    out[r] = best;
}

__global__ void kept(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = in[i], h = 0;
#pragma unroll 1
    for (int k = 0; k < 4; ++k) h = h * 33 + (a >> k);        // nounroll
    for (int k = 0; k < 200; ++k) h += (a ^ k) & 7;          // too many trips
#pragma unroll 4
    for (int k = 0; k < 64; ++k) h -= k & a;                  // partial: not built yet
    out[i] = h;
}
