// RUN: --emit=cuda
// Parameter packs misused: each gets a diagnostic.
template <typename... Ts> __device__ int unexpanded(Ts... xs) { return xs + 1; }
template <typename... Ts> __device__ int no_pack_in_fold(Ts... xs) { int y = 1; return (y + ...); }
template <typename... Ts> __device__ int empty_sum(Ts... xs) { return (xs + ...); }
template <typename... Ts> __device__ int not_a_pack(Ts... xs) { int y = 0; return sizeof...(y); }
template <typename T> __device__ int bad_expansion(T x) { return unexpanded(x...); }

__global__ void misuse(int *out, int a) {
  out[0] = unexpanded(a, a);
  out[1] = no_pack_in_fold(a);
  out[2] = empty_sum();
  out[3] = not_a_pack(a);
  out[4] = bad_expansion(a);
}
