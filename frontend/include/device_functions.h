// cuprite's device functions: what the compiler implements for device code, declared
// without bodies (semantic analysis turns calls into cuda dialect ops or intrinsics).
#pragma once

// Thread indices (read as cuda.special).
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// Synchronization.
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence_block(void);
__device__ void __threadfence(void);
__device__ void __threadfence_system(void);
__device__ void __trap(void);
__device__ void __nanosleep(unsigned int ns);
__device__ long clock(void);
__device__ long long clock64(void);
__device__ unsigned int __activemask(void);
// The thread's lane in its warp (PTX's %laneid), and the masks of the lanes below, at or
// below, ... it.
__device__ unsigned int __cuprite_laneid(void);
static __device__ __forceinline__ unsigned int __lanemask_lt(void) { return (1u << __cuprite_laneid()) - 1u; }
static __device__ __forceinline__ unsigned int __lanemask_le(void) { return (2u << __cuprite_laneid()) - 1u; }
static __device__ __forceinline__ unsigned int __lanemask_eq(void) { return 1u << __cuprite_laneid(); }
static __device__ __forceinline__ unsigned int __lanemask_ge(void) { return ~__lanemask_lt(); }
static __device__ __forceinline__ unsigned int __lanemask_gt(void) { return ~__lanemask_le(); }

// Atomics: each family device-wide, and with `_block` (atomic within the block) and
// `_system` (atomic with respect to the host and peer GPUs too) scopes.
#define __CUPRITE_ATOMIC(NAME, T) __device__ T NAME(T *address, T val);
#define __CUPRITE_ATOMIC_INTS(NAME) __CUPRITE_ATOMIC(NAME, int) __CUPRITE_ATOMIC(NAME, unsigned int) __CUPRITE_ATOMIC(NAME, unsigned long long)
#define __CUPRITE_ATOMIC_CAS(NAME, T) __device__ T NAME(T *address, T compare, T val);
#define __CUPRITE_ATOMICS(S) \
  __CUPRITE_ATOMIC_INTS(atomicAdd##S) \
  __CUPRITE_ATOMIC(atomicAdd##S, float) \
  __CUPRITE_ATOMIC(atomicAdd##S, double) \
  __CUPRITE_ATOMIC(atomicSub##S, int) \
  __CUPRITE_ATOMIC(atomicSub##S, unsigned int) \
  __CUPRITE_ATOMIC_INTS(atomicExch##S) \
  __CUPRITE_ATOMIC(atomicExch##S, float) \
  __CUPRITE_ATOMIC_INTS(atomicMin##S) \
  __CUPRITE_ATOMIC(atomicMin##S, long long) \
  __CUPRITE_ATOMIC_INTS(atomicMax##S) \
  __CUPRITE_ATOMIC(atomicMax##S, long long) \
  __CUPRITE_ATOMIC(atomicInc##S, unsigned int) \
  __CUPRITE_ATOMIC(atomicDec##S, unsigned int) \
  __CUPRITE_ATOMIC_INTS(atomicAnd##S) \
  __CUPRITE_ATOMIC_INTS(atomicOr##S) \
  __CUPRITE_ATOMIC_INTS(atomicXor##S) \
  __CUPRITE_ATOMIC_CAS(atomicCAS##S, int) \
  __CUPRITE_ATOMIC_CAS(atomicCAS##S, unsigned int) \
  __CUPRITE_ATOMIC_CAS(atomicCAS##S, unsigned long long) \
  __CUPRITE_ATOMIC_CAS(atomicCAS##S, unsigned short)
__CUPRITE_ATOMICS()
__CUPRITE_ATOMICS(_block)
__CUPRITE_ATOMICS(_system)

// Warp shuffles and votes.
#define __CUPRITE_SHFL(T) \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32); \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32); \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
__CUPRITE_SHFL(int)
__CUPRITE_SHFL(unsigned int)
__CUPRITE_SHFL(long)
__CUPRITE_SHFL(unsigned long)
__CUPRITE_SHFL(long long)
__CUPRITE_SHFL(unsigned long long)
__CUPRITE_SHFL(float)
__CUPRITE_SHFL(double)
__device__ int __all_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __uni_sync(unsigned int mask, int predicate);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);

// Warp reductions (sm_80) and matches (sm_70). __match_all_sync's predicate is whether the
// result is non-zero (it is the member mask when all lanes agree, 0 otherwise).
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
#define __CUPRITE_MATCH(T) \
  __device__ unsigned int __match_any_sync(unsigned int mask, T value); \
  __device__ unsigned int __cuprite_match_all_sync(unsigned int mask, T value); \
  __device__ __forceinline__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred) { \
    unsigned int r = __cuprite_match_all_sync(mask, value); \
    *pred = r != 0u; \
    return r; \
  }
__CUPRITE_MATCH(int)
__CUPRITE_MATCH(unsigned int)
__CUPRITE_MATCH(long)
__CUPRITE_MATCH(unsigned long)
__CUPRITE_MATCH(long long)
__CUPRITE_MATCH(unsigned long long)
__CUPRITE_MATCH(float)
__CUPRITE_MATCH(double)

// Global loads and stores with a cache operator: __ldg (the read-only path, ld.global.nc),
// __ldcg/__ldca/__ldcs/__ldlu/__ldcv and __stwb/__stcg/__stcs/__stwt, for the types CUDA
// declares them for (a load of a struct is one load per member, each with the operator).
#define __CUPRITE_LDST(T) \
  __device__ T __ldg(const T *ptr); __device__ T __ldcg(const T *ptr); __device__ T __ldca(const T *ptr); \
  __device__ T __ldcs(const T *ptr); __device__ T __ldlu(const T *ptr); __device__ T __ldcv(const T *ptr); \
  __device__ void __stwb(T *ptr, T value); __device__ void __stcg(T *ptr, T value); \
  __device__ void __stcs(T *ptr, T value); __device__ void __stwt(T *ptr, T value);
__CUPRITE_LDST(char) __CUPRITE_LDST(signed char) __CUPRITE_LDST(short) __CUPRITE_LDST(int) __CUPRITE_LDST(long)
__CUPRITE_LDST(long long) __CUPRITE_LDST(unsigned char) __CUPRITE_LDST(unsigned short) __CUPRITE_LDST(unsigned int)
__CUPRITE_LDST(unsigned long) __CUPRITE_LDST(unsigned long long) __CUPRITE_LDST(float) __CUPRITE_LDST(double)
__CUPRITE_LDST(char2) __CUPRITE_LDST(char4) __CUPRITE_LDST(short2) __CUPRITE_LDST(short4) __CUPRITE_LDST(int2)
__CUPRITE_LDST(int4) __CUPRITE_LDST(longlong2) __CUPRITE_LDST(uchar2) __CUPRITE_LDST(uchar4) __CUPRITE_LDST(ushort2)
__CUPRITE_LDST(ushort4) __CUPRITE_LDST(uint2) __CUPRITE_LDST(uint4) __CUPRITE_LDST(ulonglong2) __CUPRITE_LDST(float2)
__CUPRITE_LDST(float4) __CUPRITE_LDST(double2)

// Integer intrinsics.
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
// Four-way byte dot product with accumulate (dp4a); the unsigned form is its own intrinsic.
__device__ int __dp4a(int srcA, int srcB, int c);
__device__ unsigned int __cuprite_udp4a(unsigned int srcA, unsigned int srcB, unsigned int c);
__device__ __forceinline__ unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c) {
  return __cuprite_udp4a(srcA, srcB, c);
}
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);

// Conversions and reinterpretations.
__device__ int __float_as_int(float x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __int_as_float(int x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
// Conversions with a rounding mode: _rn (to nearest even), _rz (toward zero), _rd
// (down), _ru (up).
#define __CUPRITE_ROUNDED(DECL) DECL(rn) DECL(rz) DECL(rd) DECL(ru)
#define __CUPRITE_CONVERSIONS(R) \
  __device__ int __float2int_##R(float x); \
  __device__ unsigned int __float2uint_##R(float x); \
  __device__ long long __float2ll_##R(float x); \
  __device__ unsigned long long __float2ull_##R(float x); \
  __device__ int __double2int_##R(double x); \
  __device__ unsigned int __double2uint_##R(double x); \
  __device__ long long __double2ll_##R(double x); \
  __device__ unsigned long long __double2ull_##R(double x); \
  __device__ float __double2float_##R(double x); \
  __device__ float __int2float_##R(int x); \
  __device__ float __uint2float_##R(unsigned int x); \
  __device__ float __ll2float_##R(long long x); \
  __device__ float __ull2float_##R(unsigned long long x); \
  __device__ double __ll2double_##R(long long x); \
  __device__ double __ull2double_##R(unsigned long long x);
__CUPRITE_ROUNDED(__CUPRITE_CONVERSIONS)
// int and unsigned int convert to double exactly.
__device__ double __int2double_rn(int x);
__device__ double __uint2double_rn(unsigned int x);
// A double's high and low 32 bits, and a double from them.
static __device__ __forceinline__ int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static __device__ __forceinline__ int __double2loint(double x) { return (int)__double_as_longlong(x); }
static __device__ __forceinline__ double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo));
}

// Fast-math intrinsics.
__device__ float __fdividef(float x, float y);
__device__ float __expf(float x);
__device__ float __exp10f(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ void __sincosf(float x, float *s, float *c);
__device__ float __powf(float x, float y);
__device__ float __saturatef(float x);
__device__ float __frsqrt_rn(float x);
// Arithmetic with a rounding mode, never contracted into an fma.
#define __CUPRITE_ROUNDED_ARITH(R) \
  __device__ float __fadd_##R(float x, float y); \
  __device__ float __fsub_##R(float x, float y); \
  __device__ float __fmul_##R(float x, float y); \
  __device__ float __fdiv_##R(float x, float y); \
  __device__ float __fmaf_##R(float x, float y, float z); \
  __device__ float __fmaf_ieee_##R(float x, float y, float z); \
  __device__ float __frcp_##R(float x); \
  __device__ float __fsqrt_##R(float x); \
  __device__ double __dadd_##R(double x, double y); \
  __device__ double __dsub_##R(double x, double y); \
  __device__ double __dmul_##R(double x, double y); \
  __device__ double __ddiv_##R(double x, double y); \
  __device__ double __fma_##R(double x, double y, double z); \
  __device__ double __drcp_##R(double x); \
  __device__ double __dsqrt_##R(double x);
__CUPRITE_ROUNDED(__CUPRITE_ROUNDED_ARITH)
