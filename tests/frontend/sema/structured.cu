// RUN: --emit=cuda
// Which ifs and loops become scf: each construct nothing leaves early (scf.if, scf.while
// for while/for/do-while and for ?: with a result); the ones left through return, break,
// continue or goto stay cuda.if/cuda.loop, and so does every construct such an exit
// crosses.
__device__ int clamp_sum(const int *v, int n, int cap) {
  int s = 0;
  for (int i = 0; i < n; ++i) {      // scf.while: nothing leaves it
    s += v[i] > cap ? cap : v[i];    // scf.if with a result
    if (s < 0) s = 0;                // scf.if
  }
  return s;
}

__device__ int first_over(const int *v, int n, int limit) {
  for (int i = 0; i < n; i++) {      // cuda.loop: the return leaves it
    if (v[i] > limit) return i;      // cuda.if: the return leaves it
  }
  return -1;
}

__device__ int count_until_zero(const int *v, int n) {
  int c = 0;
  while (c < n) {                    // cuda.loop: break targets it
    if (v[c] == 0) break;            // cuda.if: the break crosses it
    int k = 0;
    do {                             // scf.while (do-while): nothing leaves it
      k++;
    } while (k < 3);
    c++;
  }
  return c;
}

__device__ int odd_cases(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {      // cuda.loop: the continue targets it
    switch (v[i] & 3) {              // the break only leaves the switch
      case 0: s += 1; break;
      case 1: continue;
      default: s += 2;
    }
    for (int j = 0; j < 2; j++) {    // cuda.loop: its own break
      if (j == v[i]) break;          // cuda.if
      s += j;
    }
  }
  return s;
}

__global__ void shapes(const int *v, int *out, int n) {
  int t = threadIdx.x;
  out[t] = clamp_sum(v, n, 10) + first_over(v, n, 5) + count_until_zero(v, n) + odd_cases(v, n);
  if (t == 0) goto done;             // cuda.if: the goto leaves it
  out[t] += 1;
done:
  out[t] *= 2;
}
