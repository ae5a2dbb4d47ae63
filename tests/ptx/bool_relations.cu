// Relational operators on bools (promoted to int in C, narrowed back to 1-bit
// comparisons by the optimizer): every relation in both orders, signed and unsigned,
// over all four pairs of flags a predicate table gives.
struct Flags {
  bool valid, dirty;
};

__device__ __forceinline__ unsigned relations(bool a, bool b) {
  unsigned r = 0;
  r |= (unsigned)(a < b) << 0;
  r |= (unsigned)(a <= b) << 1;
  r |= (unsigned)(a > b) << 2;
  r |= (unsigned)(a >= b) << 3;
  r |= (unsigned)(a == b) << 4;
  r |= (unsigned)(a != b) << 5;
  // As unsigned wide values and as signed ones (true is 1 either way in C).
  r |= (unsigned)((unsigned long long)a >= 1ull) << 6;
  r |= (unsigned)((long long)b < (long long)a) << 7;
  r |= (unsigned)((unsigned)a <= (unsigned)b) << 8;
  return r;
}

__global__ void bool_relations(const int *__restrict__ x, const int *__restrict__ y, unsigned *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Flags f = {x[i] > 0, y[i] > 0};
  unsigned r = relations(f.valid, f.dirty) | relations(f.dirty, f.valid) << 9;
  // A vote's result compared as a flag (the case the random campaign found).
  bool all = __all_sync(__activemask(), f.valid);
  r |= (unsigned)((unsigned long long)all >= 1ull) << 18;
  out[i] = r;
}
