// A numerical program written the C way, as older scientific codes are: compound literals
// for small vector values, a GNU statement-expression `max` macro with __typeof__, a
// factorial table in constant memory sized by its initializer, 2-D arrays passed to
// `const double B[][8]` parameters, and a pointer to rows cast with decltype.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

typedef double Real_t;
typedef double2 Complex_t;

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t e = (call);                                                \
    if (e != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__constant__ static Real_t inv_fact[] = {1.0, 1.0, 0.5, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320};
#define NTERMS ((int)(sizeof(inv_fact) / sizeof(inv_fact[0])))

__host__ __device__ Complex_t cmul(Complex_t a, Complex_t b) { return (Complex_t){a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x}; }
__host__ __device__ Complex_t cadd(Complex_t a, Complex_t b) { return (Complex_t){a.x + b.x, a.y + b.y}; }

// exp(i t) by its series.
__device__ Complex_t cexp_i(Real_t t) {
  Complex_t term = (Complex_t){1.0, 0.0}, sum = (Complex_t){0.0, 0.0};
  Complex_t it = (Complex_t){0.0, t};
  for (int k = 0; k < NTERMS; ++k) {
    sum = cadd(sum, (Complex_t){term.x * inv_fact[k], term.y * inv_fact[k]});
    term = cmul(term, it);
  }
  return sum;
}

__device__ Real_t row_norms(const Real_t B[][8], int rows) {
  Real_t best = 0.0;
  for (int r = 0; r < rows; ++r) {
    Real_t s = 0.0;
    for (int c = 0; c < 8; ++c) s += B[r][c] * B[r][c];
    best = MAX(best, s);
  }
  return best;
}

__global__ void phases(const Real_t *t, Complex_t *out, Real_t *norms, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = cexp_i(t[i]);
  Real_t B[3][8];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 8; ++c) B[r][c] = t[i] * (r + 1) - c;
  norms[i] = row_norms(B, 3);
}

__global__ void clamp_rows(Real_t *data, int rows, int lo) {
  Real_t (*grid)[8] = reinterpret_cast<decltype(grid)>(data);
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int c = 0; c < 8; ++c) grid[r][c] = MAX(grid[r][c], (Real_t)lo) + MAX(c, r % 3);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  Real_t *t, *norms;
  Complex_t *out;
  CHECK(cudaMalloc(&t, n * sizeof(Real_t)));
  CHECK(cudaMalloc(&out, n * sizeof(Complex_t)));
  CHECK(cudaMalloc(&norms, n * sizeof(Real_t)));
  phases<<<(n + 127) / 128, 128>>>(t, out, norms, n);
  clamp_rows<<<(n / 8 + 63) / 64, 64>>>(t, n / 8, 0);
  CHECK(cudaDeviceSynchronize());
  Complex_t z = cmul((Complex_t){0.0, 1.0}, (Complex_t){0.0, 1.0});
  printf("i*i = %g%+gi\n", z.x, z.y);
  cudaFree(t);
  cudaFree(out);
  cudaFree(norms);
  return 0;
}
