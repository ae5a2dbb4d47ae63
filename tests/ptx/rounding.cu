// CUDA's intrinsics with an explicit rounding mode, as an interval library uses them:
// each bound of a sum, product or quotient rounded outward, conversions rounded each way.
#define ALL_MODES(F) F(rn) F(rz) F(rd) F(ru)

struct Interval {
  float lo, hi;
};

__device__ Interval add(Interval a, Interval b) { return {__fadd_rd(a.lo, b.lo), __fadd_ru(a.hi, b.hi)}; }
__device__ Interval mul_pos(Interval a, Interval b) { return {__fmul_rd(a.lo, b.lo), __fmul_ru(a.hi, b.hi)}; }

// One output slot per intrinsic and thread: out[i * n + t].
__global__ void float_ops(const float *x, const float *y, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float a = x[t], b = y[t];
  int i = 0;
#define F_OPS(R)                                                   \
  out[i++ * n + t] = __fadd_##R(a, b);                             \
  out[i++ * n + t] = __fsub_##R(a, b);                             \
  out[i++ * n + t] = __fmul_##R(a, b);                             \
  out[i++ * n + t] = __fdiv_##R(a, b);                             \
  out[i++ * n + t] = __fmaf_##R(a, b, 0.1f);                       \
  out[i++ * n + t] = __fmaf_ieee_##R(a, a, -b);                    \
  out[i++ * n + t] = __frcp_##R(b);                                \
  out[i++ * n + t] = __fsqrt_##R(fabsf(a));                        \
  out[i++ * n + t] = __double2float_##R((double)a * (double)b);    \
  out[i++ * n + t] = __int2float_##R(__float_as_int(a));           \
  out[i++ * n + t] = __uint2float_##R(__float_as_uint(b));         \
  out[i++ * n + t] = __ll2float_##R((long long)__float_as_int(a) * 977); \
  out[i++ * n + t] = __ull2float_##R((unsigned long long)__float_as_uint(b) << 20);
  ALL_MODES(F_OPS)
  Interval s = add({a, a}, {b, b});
  Interval p = mul_pos({fabsf(a), fabsf(a)}, {fabsf(b), fabsf(b)});
  out[i++ * n + t] = s.hi - s.lo;
  out[i++ * n + t] = p.hi - p.lo;
}

__global__ void double_ops(const double *x, const double *y, double *out, long long *iout, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double a = x[t], b = y[t];
  int i = 0, j = 0;
#define D_OPS(R)                                             \
  out[i++ * n + t] = __dadd_##R(a, b);                       \
  out[i++ * n + t] = __dsub_##R(a, b);                       \
  out[i++ * n + t] = __dmul_##R(a, b);                       \
  out[i++ * n + t] = __ddiv_##R(a, b);                       \
  out[i++ * n + t] = __fma_##R(a, b, 1e-17);                 \
  out[i++ * n + t] = __drcp_##R(b);                          \
  out[i++ * n + t] = __dsqrt_##R(fabs(a));                   \
  out[i++ * n + t] = __ll2double_##R(__double_as_longlong(a)); \
  out[i++ * n + t] = __ull2double_##R((unsigned long long)__double_as_longlong(b)); \
  iout[j++ * n + t] = __double2int_##R(a * 1e5);             \
  iout[j++ * n + t] = __double2uint_##R(fabs(b) * 1e5);      \
  iout[j++ * n + t] = __double2ll_##R(a * 1e12);             \
  iout[j++ * n + t] = (long long)__double2ull_##R(fabs(b) * 1e12); \
  iout[j++ * n + t] = __float2int_##R((float)a * 1000.0f);   \
  iout[j++ * n + t] = __float2uint_##R((float)b * 1000.0f);  \
  iout[j++ * n + t] = __float2ll_##R((float)a * 1e9f);       \
  iout[j++ * n + t] = (long long)__float2ull_##R((float)b * 1e9f);
  ALL_MODES(D_OPS)
  out[i++ * n + t] = __int2double_rn(__double2hiint(a)) + __uint2double_rn((unsigned)__double2loint(b));
  out[i++ * n + t] = __hiloint2double(__double2hiint(a), __double2loint(b));
}
