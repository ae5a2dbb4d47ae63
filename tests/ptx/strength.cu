// Integer arithmetic that equality saturation rewrites: division and remainder by
// constants (image tiles, histogram bins, base-10 digits), signed values the ranges prove
// non-negative, and 64-bit index arithmetic that fits 32 bits.

#define TILE_W 24
#define TILE_H 5
#define NBINS 12

// Each thread owns one pixel of a row-major image of TILE_W-wide tiles and writes the
// index of its tile and its offset inside it.
__global__ void tile_coords(const int *__restrict__ pixels, int2 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int tile = i / (TILE_W * TILE_H);
    int in_tile = i % (TILE_W * TILE_H);
    out[i] = make_int2(tile * 1000 + in_tile / TILE_W, in_tile % TILE_W + pixels[i]);
}

// Histogram of unsigned values into NBINS bins per block, in shared memory.
__global__ void bin_values(const unsigned *values, unsigned *bins, int n) {
    __shared__ unsigned local[NBINS];
    if (threadIdx.x < NBINS) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[values[i] % NBINS], 1u);
    __syncthreads();
    if (threadIdx.x < NBINS) atomicAdd(&bins[blockIdx.x * NBINS + threadIdx.x], local[threadIdx.x]);
}

// The sum of the decimal digits of each value (the loop divides by ten until nothing is left).
__device__ unsigned digit_sum(unsigned v) {
    unsigned s = 0;
    while (v) {
        s += v % 10;
        v /= 10;
    }
    return s;
}

__global__ void digits(const unsigned *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = digit_sum(in[i]) + threadIdx.x / 7;
}

// Signed arithmetic on thread indices, which are never negative: a signed division by a
// constant, a remainder and an arithmetic shift that are unsigned ones.
__global__ void lanes(int *out, int stride) {
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    int q = (t * 5) / 3;
    out[blockIdx.x * blockDim.x + t] = warp * 100 + lane + (q >> 1) + stride / 4;
}

// 64-bit index arithmetic from 32-bit thread coordinates (a `long` offset, a `size_t`
// row), with comparisons of widened values.
__global__ void wide_index(const float *src, float *dst, int rows, int cols) {
    long r = blockIdx.y;
    long c = (long)threadIdx.x + 2;
    size_t row = (size_t)blockIdx.y * (unsigned)cols;
    if ((unsigned long long)threadIdx.x < (unsigned long long)(unsigned)cols && r < rows) {
        long k = (c * 3) / 2;
        dst[row + threadIdx.x] = src[row + threadIdx.x] * (float)k;
    }
}
