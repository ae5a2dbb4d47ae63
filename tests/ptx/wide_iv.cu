// Loops with 64-bit induction variables, as code written with `long` and `size_t` indices
// has them: IV demotion (`iv-demote`, cicc's remat-iv) makes those whose range provably
// fits 32 bits 32-bit, and must leave the others alone.

typedef unsigned long size_type;

// A `long` column index bounded by an `int`: demoted (0 <= j < cols <= INT_MAX).
__global__ void row_sums(const float *a, float *out, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    float acc = 0.0f;
    for (long j = 0; j < cols; ++j) acc += a[(long)row * cols + j];
    out[row] = acc;
}

// A constant-bound `long` loop that is not unrolled: demoted.
__global__ void polynomial(const double *coef, double *y, const double *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double acc = 0.0, p = 1.0;
#pragma unroll 1
    for (long k = 0; k < 24; ++k) {
        acc += coef[k] * p;
        p *= x[i];
    }
    y[i] = acc;
}

// A grid-stride `size_t` loop to a `size_t` length: the range is unknown, it stays 64-bit.
__global__ void fill(float *x, size_type n, float v) {
    for (size_type i = blockIdx.x * (size_type)blockDim.x + threadIdx.x; i < n; i += (size_type)blockDim.x * gridDim.x)
        x[i] = v + (float)(i & 7);
}

// A warp-strided `long` loop to an `int`: with a step of 32 the last increment may pass
// INT_MAX, so it stays 64-bit.
__global__ void warp_strided(const int *in, int *out, int n) {
    int acc = 0;
    for (long k = threadIdx.x; k < n; k += 32) acc += in[k];
    out[threadIdx.x] = acc;
}

// A loop that really runs past 2^31: 8 trips of 2^30 up to 2^33. It must stay 64-bit.
__global__ void beyond_int(long long *out) {
    long long trips = 0, last = 0;
    for (long long i = threadIdx.x; i < (1LL << 33); i += (1LL << 30)) {
        trips++;
        last = i;
    }
    out[2 * threadIdx.x] = trips;
    out[2 * threadIdx.x + 1] = last;
}
