// Loops as kernels write them, for loop-unroll: fully unrolled, a filter tap loop under
// #pragma unroll, small fixed loops without a pragma (counting up, counting down, an
// unsigned loop ending at !=) and a pragma'd loop nested in a runtime loop; unrolled by a
// factor, with the loop itself running what is left, a loop of too many trips to unroll
// fully, a #pragma unroll 4 loop and loops with runtime trip counts; kept rolled, an outer
// loop (runtime trip count, an inner loop) and a #pragma unroll 1 loop.
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
    for (int j = 0; j < cols; j += 8) {                      // not innermost: rolled
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
    for (int k = 0; k < 200; ++k) h += (a ^ k) & 7;          // too many trips: by four
#pragma unroll 4
    for (int k = 0; k < 64; ++k) h -= k & a;                  // by four
    out[i] = h;
}

// Runtime trip counts, unrolled by four with the loop itself running what is left: each
// thread its own count (the warp diverges between the two loops), counting up and down,
// unsigned, `!=`, `<=` with a step of five, and bounds next to INT_MAX.
__global__ void runtime_trips(const int *in, int *out, int lo, int n, unsigned un, int hi_lo, int hi_n) {
    int t = threadIdx.x;
    int m = n + (t & 7);
    int s = 0;
    for (int i = lo; i < m; ++i) s += in[(i + t) & 63];
    for (int i = m; i >= lo; i -= 3) s ^= in[(i * 7 + t) & 63];
    for (unsigned u = 0; u < un + (unsigned)t; u += 2) s += (int)u;
    for (int i = lo; i != m; ++i) s -= i;
    for (int i = lo; i <= m - 5; i += 5) s += i & t;
    for (int i = hi_lo - t; i < hi_n; ++i) s += i >> 20;
    out[t] = s;
}

// While loops with no trip count: each thread walks until a running sum passes its
// threshold; what the loop's test reads (the sum and the position) is used after it, and
// a do-while, already tested at the bottom.
__global__ void walk(const int *in, int *out, int n, int limit) {
    int t = threadIdx.x;
    int i = t, s = 0;
    while (s < limit + t) {
        s += in[i % n];
        i += 3;
    }
    int j = 0;
    do {
        j += s & 3;
        s >>= 1;
    } while (s > 0);
    out[t] = i * 1000 + j;
}
