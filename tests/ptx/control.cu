// Control flow: switch with fall-through, do-while, break/continue, nested loops, bool.
__device__ int classify(int x) {
  switch (x & 7) {
  case 0:
    return 10;
  case 1:
  case 2:
    x += 3;
  case 3:
    x *= 2;
    break;
  default:
    x = -x;
  }
  return x;
}

__global__ void classify_all(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = classify(v[i]);
}

__global__ void collatz(unsigned *steps, const unsigned *start, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = start[i], k = 0;
  do {
    if (x == 1) break;
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++k;
  } while (k < 1000);
  steps[i] = k;
}

__global__ void first_negative(const float *v, int *where, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int found = -1;
  for (int c = 0; c < cols; ++c) {
    if (v[r * cols + c] >= 0.0f) continue;
    found = c;
    break;
  }
  where[r] = found;
}

__global__ void flags(const int *a, bool *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    bool even = (a[i] % 2) == 0;
    bool big = a[i] > 100 || a[i] < -100;
    out[i] = even && !big;
  }
}
