// Loop-invariant code, as kernels carry it: a row stride and a scale factor recomputed
// in the loop, loads of a parameter block through a pointer, __ldg of a coefficient, and
// the loops where such loads must stay (a store that may alias, a barrier, a volatile
// flag, a load under a condition, a division by a value that may be zero).
#include <cuda_runtime.h>

struct Params {
    int stride;
    float scale;
};

#define IDX(r, c, w) ((r) * (w) + (c))

// Hoisted: the stride and scale loads (nothing in the loop writes memory), the address
// arithmetic of the row base, the float conversion.
__global__ void column_sum(const float *m, const Params *p, float *out, int rows) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += m[IDX(r, c, p->stride)] * p->scale * (float)rows;
    out[c] = s;
}

// Hoisted: the __ldg coefficient (read-only) although the loop stores; kept: the load of
// `*bias`, which the store to `out` may change.
__global__ void axpy_rows(const float *x, float *out, const float *coef, const float *bias, int n, int w) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < n; ++i) {
        out[IDX(i, t, w)] = __ldg(coef) * x[IDX(i, t, w)] + *bias;
    }
}

// Kept: the shared load after the barrier (other threads write it between trips); the
// volatile flag; the guarded load (only some trips read it); the division by `d`, which may
// be zero when the loop does not run it.
__global__ void must_stay(const int *in, volatile int *flag, int *out, int n, int d) {
    __shared__ int cell;
    int t = threadIdx.x;
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        if (t == 0) cell = i * 3;
        __syncthreads();
        acc += cell;
        __syncthreads();
    }
    for (int i = 0; i < n; ++i) acc += *flag;
    for (int i = 0; i < n; ++i) {
        if (i > 2) acc += in[0];
        if (d != 0 && i == n - 1) acc += n / d;
    }
    out[t] = acc;
}

// Strength reduction of addresses (loop-reduce): a 64-bit counter's addresses become a
// pointer that advances (do-lsr-64-bit); an unsigned index (its zero extension may not be
// distributed) and a step only known at run time keep their arithmetic.
__global__ void strides(const float *in, float *out, unsigned n, int w) {
    unsigned t = threadIdx.x;
    float s = 0.0f;
    for (unsigned i = 0; i < n; ++i) s += in[i * w + t];
    for (int j = 0; j < (int)n; j += blockDim.x) s += in[j * w + 1];
    for (long k = 0; k < n; ++k) s += in[k * w + t] * 0.5f;
    out[t] = s;
}

// Redundant loads (load-cse): a[i] read three times is one load until the store to b,
// which may alias it; the shared value stored is forwarded to the load after it; a load
// after the barrier and the volatile reads stay.
__global__ void reloads(const float *a, float *b, volatile int *flag, float *out, int n) {
    __shared__ float s[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i] + a[i] * a[i];
    b[i] = x;
    float y = a[i] + x;
    s[threadIdx.x] = y;
    float z = s[threadIdx.x] * 2.0f;
    __syncthreads();
    float w = s[threadIdx.x ^ 1];
    out[i] = z + w + (float)(*flag + *flag);
}
