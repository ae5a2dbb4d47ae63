// C++ that newer CUDA code is written in: `auto` return types (plain and in templates),
// `auto *` and `const auto &` locals, the alternative tokens (`and`, `or`, `not`), and a
// free `operator+=` on a vector type, in the style of small physics and series kernels.

typedef unsigned long size_type;

// A term of an alternating harmonic series: its type is deduced (double).
__device__ auto term(size_type n) { return ((n & 1) ? 1 : -1) / (double)n; }

template <typename T>
__device__ auto dot3(const T *a, const T *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

__device__ __forceinline__ void operator+=(float4 &acc, const float4 v) {
    acc.x += v.x;
    acc.y += v.y;
    acc.z += v.z;
    acc.w += v.w;
}

__global__ void series(double *partial, size_type terms) {
    size_type i = blockIdx.x * (size_type)blockDim.x + threadIdx.x + 1;
    double sum = 0;
    for (size_type n = i; n <= terms; n += gridDim.x * (size_type)blockDim.x) sum += term(n);
    partial[i - 1] = sum;
}

template <typename T>
__global__ void cross(int n, T *out, const T *x1, const T *x2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (not(i < n)) return;
    auto *o = out + 3 * i;
    const auto *a = x1 + 3 * i;
    const auto *b = x2 + 3 * i;
    const auto &ax = a[0];
    auto d = dot3(a, b);
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - ax * b[2];
    o[2] = ax * b[1] - a[1] * b[0] + (d > 0 and d < 1 or d == 2 ? T(0) : T(0));
}
template __global__ void cross<float>(int, float *, const float *, const float *);
template __global__ void cross<double>(int, double *, const double *, const double *);

__global__ void accumulate(float4 *acc, const float4 *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = acc[i];
    a += v[i];
    a += v[(i + 1) % n];
    acc[i] = a;
}

// Static locals in device code: constant scalars are plain constants; a table is one
// statically initialized global (nvcc's `_ZZ8chebyshevdE6coeffs`).
__device__ double chebyshev(double x) {
    static double const coeffs[] = {1.5, -0.25, 0.125, 0.0625, -0.03125};
    static const int degree = sizeof(coeffs) / sizeof(double) - 1;
    static const double midpoint = 0.5;
    double t = x - midpoint, r = coeffs[degree];
    for (int i = degree - 1; i >= 0; --i) r = r * t + coeffs[i];
    return r;
}

__global__ void expand(double *v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = chebyshev(v[i]);
}

// Unified memory: `__managed__` globals the host reads back without a copy.
__managed__ int positives;
__managed__ __device__ int histogram[8];

__global__ void tally(const float *x, int n, int *out) {
    int i = threadIdx.x;  // one block
    if (i < n) {
        if (x[i] > 0) atomicAdd(&positives, 1);
        atomicAdd(&histogram[(int)((x[i] + 1.0f) * 4.0f) & 7], 1);
    }
    __syncthreads();
    if (i < 9) out[i] = i == 0 ? positives : histogram[i - 1];
}
