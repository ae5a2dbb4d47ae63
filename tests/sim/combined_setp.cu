// The C meaning of combined_setp.ptx: comparisons combined with a predicate in one setp
// (setp.lt.and, setp.ge.or with both results p|q, setp.ne.xor) and mul24.hi, which
// NVIDIA's compilers emit and cuprite does not.
__global__ void combined_setp(const int *a, const int *b, int *o_and, int *o_or, int *o_or_q, int *o_xor, int *o_hi,
                              unsigned *o_uhi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  bool c = (x & 1) != 0;
  o_and[i] = (x < y) && c;
  o_or[i] = (x >= y) || c;
  o_or_q[i] = !(x >= y) || c;
  o_xor[i] = (x != y) != c;
  long long sx = (long long)((x << 8) >> 8), sy = (long long)((y << 8) >> 8);
  o_hi[i] = (int)((sx * sy) >> 16);
  unsigned long long ux = (unsigned)x & 0xffffffu, uy = (unsigned)y & 0xffffffu;
  o_uhi[i] = (unsigned)((ux * uy) >> 16);
}
