// RUN: --emit=cuda
// What host-code tolerance must not hide: a declaration cuprite cannot read is dropped as
// host code only when it holds no device code. A kernel inside it keeps the error (rather
// than going missing from the PTX), and device code's own unsupported forms are errors.
#include <cstdio>

namespace kern : v2 {
__global__ void scale(float *x) { x[0] *= 2.0f; }
}

__global__ void wide(const void **out) { out[0] = L"wide"; }

__global__ void fine(int *p) { printf("fine %d\n", p[0]); }

struct Pair { int a, b, c; };
__global__ void by_struct(int *p) { Pair q = {p[0], 1, 2}; printf("%d\n", q); }
