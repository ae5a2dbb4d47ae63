// RUN: --emit=cuda
// Semantic errors: each is reported with its span, and nothing is emitted.
int host_only(int x) { return x + 1; }
int host_global = 3;

template <typename T>
__device__ T twice(T v) { return v.missing * 2; }

__global__ int returns_value(int *p) { return p[0]; }

__global__ void bad(int *p, float *f) {
  int a = undeclared + 1;
  p[0] = host_only(1);
  p[1] = host_global;
  float *q = p;
  break;
  goto out;
  p[2] = twice(3);
  __shared__ int s = 0;
  f[0] = no_such_function(1.0f);
  sqrtf(1.0f, 2.0f);
  for (int x : p) a += x;
  for (float x : f[0]) a += x;
  auto uncaptured = [](int v) { return v + a; };
  p[3] = uncaptured(1);
  auto no_object = [this] { return 1; };
}
