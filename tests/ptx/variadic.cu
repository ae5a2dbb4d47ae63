// Variadic templates as device code uses them: recursive packs, printf wrappers,
// sizeof..., fold expressions, forwarding a pack to a functor, explicit pack arguments and
// value packs. (printf without an include, as nvcc and NVRTC make it visible.)

template <typename T> __device__ T sum_all(T x) { return x; }
template <typename T, typename... Rest> __device__ T sum_all(T x, Rest... rest) { return x + sum_all(rest...); }

#define LOG_IF(cond, ...) log_if((cond), __VA_ARGS__)
template <typename... Args> __device__ void log_if(bool on, const char *fmt, Args... args) {
  if (on) printf(fmt, args...);
}

template <typename... Ts> __device__ int count_of(Ts... xs) { return (int)(sizeof...(Ts) * 10 + sizeof...(xs)); }
template <typename... Ts> __device__ float fold_sum(Ts... xs) { return (xs + ... + 0.0f); }
template <typename... Ts> __device__ float fold_left_sub(Ts... xs) { return (100.0f - ... - xs); }
template <typename... Ts> __device__ bool all_positive(const Ts &...xs) { return (... && (xs > 0)); }
template <typename... Ts> __device__ int max_of(Ts... xs) {
  int m = -2147483647;
  ((m = xs > m ? xs : m), ...);
  return m;
}

template <typename F, typename... Args> __device__ auto invoke(F f, Args &&...args) { return f(args...); }
struct Mul3 {
  __device__ float operator()(float a, float b, float c) const { return a * b * c; }
};

template <int... Ns> __device__ int sum_of_values() { return (Ns + ... + 0); }
template <typename T, typename... Ts> __device__ T first_of(T x, Ts...) { return x; }

template <typename... Ts> struct Count {
  static constexpr int value = sizeof...(Ts);
};

__global__ void variadic(const float *x, const int *k, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], b = x[(i + 1) % n], c = x[(i + 2) % n];
  out[8 * i] = sum_all(a, b, c, 1.0f);
  out[8 * i + 1] = (float)count_of(a, b, i) + fold_sum(a, b, c);
  out[8 * i + 2] = all_positive(a, b - 0.5f, i) ? invoke(Mul3(), a, b, c) : -1.0f;
  out[8 * i + 3] = fold_left_sub(a, b, c);
  out[8 * i + 4] = (float)max_of(k[i], k[(i + 3) % n], k[(i + 5) % n], 7);
  out[8 * i + 5] = (float)(sum_of_values<1, 2, 3, 4>() + Count<int, float, char>::value + count_of());
  out[8 * i + 6] = first_of<float, int>(c, i) + sum_all<double>(1.5) + (float)sum_all(i, 2, 3);
  out[8 * i + 7] = sum_all(a);
  LOG_IF(i == 3, "i=%d a=%.3f k=%d\n", i, a, k[i]);
  LOG_IF(i == 5, "no arguments\n");
}
