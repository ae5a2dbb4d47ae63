// Library headers and C++ corners of real kernels: cuComplex.h arithmetic, a char table
// initialized from a string literal (a base64 alphabet), an unscoped enum's enumerators
// named `E::A`, and a parameter named like a type in scope.
#include <cuComplex.h>

enum face { xmin, xmax, ymin, ymax };

__global__ void mandel_step(const cuFloatComplex *c, cuFloatComplex *z, float *mag, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    cuFloatComplex w = z[i];
    for (int k = 0; k < 2; ++k) w = cuCaddf(cuCmulf(w, w), c[i]);
    z[i] = cuCdivf(w, make_cuFloatComplex(1.0f + cuCrealf(c[i]) * cuCrealf(c[i]), 2.0f));
    mag[i] = cuCabsf(z[i]) + cuCabsf(cuConjf(c[i]));
}

__global__ void zfma(const cuDoubleComplex *a, const cuDoubleComplex *b, cuDoubleComplex *acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) acc[i] = cuCfma(a[i], b[i], cuCsub(acc[i], cuComplexFloatToDouble(make_cuComplex(0.5f, -0.5f))));
}

__global__ void encode(const unsigned int *in, unsigned char *out, unsigned long groups) {
    const unsigned char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned long g = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x;
    if (g >= groups) return;
    unsigned int v = in[g] & 0xffffff;  // one 24-bit group per word
    for (int k = 0; k < 4; ++k) out[4 * g + k] = alphabet[(v >> (18 - 6 * k)) & 63];
}

typedef char flag_type;
__global__ void mark(flag_type *flags, flag_type face, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = face == face::xmax ? 2 : (i % 4 == ymin ? 1 : 0);
}
