// RUN: --emit=cuda
// Control flow and arithmetic: thread indices, if/else, for/while/do-while, break and
// continue, switch with fall-through, ?:, && and ||, compound assignment, ++/--, integer
// division and remainder, bit operations, 64-bit integers, int<->float conversions.
__global__ void control(int *out, const float *in, int n, long long big) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = 0;
  for (int k = 0; k < 8; ++k) {
    if (k == 3) continue;
    if (acc > 100) break;
    acc += k * i % 7;
  }
  unsigned u = i;
  while (u > 1) u >>= 1;
  do { acc--; } while (acc > 50);
  switch (i & 3) {
  case 0:
    acc += 1;
  case 1:
    acc += 2;
    break;
  default:
    acc = -acc;
  }
  int sel = (i > 2 && in[i] > 0.5f) || n == 0 ? 1 : 2;
  size_t off = (size_t)i * 4u;
  long long wide = big / 3 + (long long)off;
  double d = in[i] * 2.0;
  out[i] = acc + sel + (int)(wide & 0xff) + (int)d + (u ^ 0x5) + (~i | 3);
}
