// The fast-math intrinsics that are more than one PTX instruction (the one-instruction ones,
// __sinf, __cosf, __log2f, __expf's ex2, __fdividef, __saturatef, ..., are lowered
// directly). These use the approximate instructions on purpose: CUDA documents their error
// as a function of the hardware's, not in ulp.
#include <__cuprite_libm.h>

CL_EXPORT float __cuprite___exp10f(float x) { return __exp2f(x * 3.32192802f); }
CL_EXPORT float __cuprite___log10f(float x) { return __log2f(x) * 0.301029995f; }
CL_EXPORT float __cuprite___tanf(float x) { return __fdividef(__sinf(x), __cosf(x)); }
CL_EXPORT void __cuprite___sincosf(float x, float *s, float *c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
CL_EXPORT float __cuprite___powf(float x, float y) { return __exp2f(y * __log2f(x)); }
