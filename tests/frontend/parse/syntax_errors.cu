// RUN: --emit=ast
// Syntax errors are reported with spans and parsing recovers at the next statement or
// declaration; unsupported constructs are named.
__global__ void k(float *p) {
  int a = 1 +;
  p[0] = (a * 2;
  float b = 3.0f
  p[1] = b;
  for (auto x : p) {}
  auto f = [](int v) { return v; };
  return;
}
__device__ int ok(int x) { return x * 2; }
__device__ int missing_paren(int x { return x; }
__device__ int after(int y) { return y; }

// A goto without a label name.
__device__ void no_label_name(int *p) {
  goto;
  goto 5;
}

// new without a type.
__device__ int *new_without_type() { return new; }
