// The CUDA runtime surface the kernel corpus uses, for clang's CUDA mode without any CUDA
// installation (`clang -x cuda -nocudainc -nocudalib -include clang_cuda_prelude.h`).
// bench/compare.py passes it to clang-22; nothing else includes it.
//
// Every definition follows the semantics CUDA documents (and nvcc/NVRTC implement), so
// that the code clang generates is comparable with NVRTC's and cuprite's:
//   * atomics are relaxed read-modify-writes at device (gpu) scope, which is what a plain
//     PTX `atom` without .sem/.scope means. (clang 22 does not pass the scope on to the
//     NVPTX backend: read-modify-writes still print as plain `atom.add` etc., which is gpu
//     scope, but a compare-and-swap prints as `atom.relaxed.sys.cas`. The seq_cst
//     __nvvm_atom_* builtins clang's own CUDA headers use would add a `fence.sc.sys`.);
//   * shuffles pass the same `c` operand (clamp / segment mask) as CUDA's headers;
//   * warpSize is the constant 32 (every NVIDIA target so far), as in clang's own headers.
// Only the device side matters: host code is parsed (so `<<<...>>>` launches and host
// declarations must type-check) but never code-generated with --cuda-device-only.
#pragma once

// ---------------------------------------------------------------- execution-space keywords
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __CUPRITE_BENCH_DEV static __device__ __forceinline__

typedef __SIZE_TYPE__ size_t;

// ---------------------------------------------------------------- built-in variables
// threadIdx.x etc. read the PTX special registers. Each variable is an object with
// read-only `x`, `y`, `z` properties whose getters call clang's NVVM builtins, so an
// unused component costs nothing and every read is a plain `mov.u32 %r, %tid.x`.
#define __CUPRITE_BENCH_SREG3(TYPE, VAR, SREG)                                       \
  struct TYPE {                                                                      \
    __declspec(property(get = get_x)) unsigned x;                                    \
    __declspec(property(get = get_y)) unsigned y;                                    \
    __declspec(property(get = get_z)) unsigned z;                                    \
    __CUPRITE_BENCH_DEV unsigned get_x() { return __nvvm_read_ptx_sreg_##SREG##_x(); } \
    __CUPRITE_BENCH_DEV unsigned get_y() { return __nvvm_read_ptx_sreg_##SREG##_y(); } \
    __CUPRITE_BENCH_DEV unsigned get_z() { return __nvvm_read_ptx_sreg_##SREG##_z(); } \
  };                                                                                 \
  extern const __device__ __attribute__((weak)) TYPE VAR;
__CUPRITE_BENCH_SREG3(__cuprite_bench_tid_t, threadIdx, tid)
__CUPRITE_BENCH_SREG3(__cuprite_bench_ctaid_t, blockIdx, ctaid)
__CUPRITE_BENCH_SREG3(__cuprite_bench_ntid_t, blockDim, ntid)
__CUPRITE_BENCH_SREG3(__cuprite_bench_nctaid_t, gridDim, nctaid)
#undef __CUPRITE_BENCH_SREG3

static __device__ const int warpSize = 32;

// ---------------------------------------------------------------- vector types
// Same sizes and alignments as CUDA's vector_types.h (3-element types are not over-aligned).
struct float2 { float x, y; } __attribute__((aligned(8)));
struct float3 { float x, y, z; };
struct float4 { float x, y, z, w; } __attribute__((aligned(16)));
struct int2 { int x, y; } __attribute__((aligned(8)));
struct int3 { int x, y, z; };
struct int4 { int x, y, z, w; } __attribute__((aligned(16)));
struct uint3 { unsigned x, y, z; };
struct double2 { double x, y; } __attribute__((aligned(16)));

__CUPRITE_BENCH_DEV float3 make_float3(float x, float y, float z) { return {x, y, z}; }
__CUPRITE_BENCH_DEV float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }

// ---------------------------------------------------------------- host side of a launch
// `k<<<grid, block>>>(...)` in host code type-checks against these. Without a CUDA SDK
// version clang uses the pre-9.2 launch API, i.e. it looks up cudaConfigureCall.
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
extern "C" __host__ int cudaConfigureCall(dim3 grid, dim3 block, size_t shared_bytes = 0,
                                          cudaStream_t stream = 0);

// ---------------------------------------------------------------- synchronisation and votes
// __syncthreads() itself is a clang builtin (bar.sync 0).
__CUPRITE_BENCH_DEV int __syncthreads_or(int pred) { return __nvvm_bar0_or(pred); }
__CUPRITE_BENCH_DEV int __syncthreads_and(int pred) { return __nvvm_bar0_and(pred); }
__CUPRITE_BENCH_DEV int __syncthreads_count(int pred) { return __nvvm_bar0_popc(pred); }
__CUPRITE_BENCH_DEV unsigned __ballot_sync(unsigned mask, int pred) {
  return __nvvm_vote_ballot_sync(mask, pred);
}
__CUPRITE_BENCH_DEV int __any_sync(unsigned mask, int pred) { return __nvvm_vote_any_sync(mask, pred); }
__CUPRITE_BENCH_DEV int __all_sync(unsigned mask, int pred) { return __nvvm_vote_all_sync(mask, pred); }

// ---------------------------------------------------------------- warp shuffles
// CUDA packs the sub-warp width into the `c` operand: bits 8..12 hold 32 - width (the
// segment mask); bits 0..4 the clamp lane, 31 for down/xor/idx and 0 for up.
#define __CUPRITE_BENCH_SHFL(NAME, KIND, CLAMP)                                              \
  __CUPRITE_BENCH_DEV int NAME(unsigned mask, int v, int lane, int width = 32) {             \
    return __nvvm_shfl_sync_##KIND##_i32(mask, v, lane, ((32 - width) << 8) | (CLAMP));      \
  }                                                                                          \
  __CUPRITE_BENCH_DEV unsigned NAME(unsigned mask, unsigned v, int lane, int width = 32) {   \
    return (unsigned)NAME(mask, (int)v, lane, width);                                        \
  }                                                                                          \
  __CUPRITE_BENCH_DEV float NAME(unsigned mask, float v, int lane, int width = 32) {         \
    return __nvvm_shfl_sync_##KIND##_f32(mask, v, lane, ((32 - width) << 8) | (CLAMP));      \
  }
__CUPRITE_BENCH_SHFL(__shfl_sync, idx, 0x1f)
__CUPRITE_BENCH_SHFL(__shfl_up_sync, up, 0)
__CUPRITE_BENCH_SHFL(__shfl_down_sync, down, 0x1f)
__CUPRITE_BENCH_SHFL(__shfl_xor_sync, bfly, 0x1f)
#undef __CUPRITE_BENCH_SHFL

// ---------------------------------------------------------------- atomics
// Relaxed, device scope: CUDA's atomicXxx (not the seq_cst of __nvvm_atom_*_gen_*; see the
// top of this file for the scope clang 22 actually emits).
#define __CUPRITE_BENCH_RMW(NAME, OP, T)                                          \
  __CUPRITE_BENCH_DEV T NAME(T *p, T v) {                                          \
    return __scoped_atomic_fetch_##OP(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
  }
__CUPRITE_BENCH_RMW(atomicAdd, add, int)
__CUPRITE_BENCH_RMW(atomicAdd, add, unsigned)
__CUPRITE_BENCH_RMW(atomicAdd, add, unsigned long long)
__CUPRITE_BENCH_RMW(atomicAdd, add, float)
__CUPRITE_BENCH_RMW(atomicAdd, add, double)
__CUPRITE_BENCH_RMW(atomicSub, sub, int)
__CUPRITE_BENCH_RMW(atomicSub, sub, unsigned)
__CUPRITE_BENCH_RMW(atomicMax, max, int)
__CUPRITE_BENCH_RMW(atomicMax, max, unsigned)
__CUPRITE_BENCH_RMW(atomicMax, max, unsigned long long)
__CUPRITE_BENCH_RMW(atomicMin, min, int)
__CUPRITE_BENCH_RMW(atomicMin, min, unsigned)
__CUPRITE_BENCH_RMW(atomicMin, min, unsigned long long)
__CUPRITE_BENCH_RMW(atomicAnd, and, int)
__CUPRITE_BENCH_RMW(atomicAnd, and, unsigned)
__CUPRITE_BENCH_RMW(atomicOr, or, int)
__CUPRITE_BENCH_RMW(atomicOr, or, unsigned)
__CUPRITE_BENCH_RMW(atomicXor, xor, int)
__CUPRITE_BENCH_RMW(atomicXor, xor, unsigned)
#undef __CUPRITE_BENCH_RMW

#define __CUPRITE_BENCH_XCHG(T)                                                    \
  __CUPRITE_BENCH_DEV T atomicExch(T *p, T v) {                                     \
    return __scoped_atomic_exchange_n(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE); \
  }                                                                                 \
  __CUPRITE_BENCH_DEV T atomicCAS(T *p, T expected, T desired) {                    \
    __scoped_atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, \
                                       __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);     \
    return expected; /* the old value, whether or not the swap happened */          \
  }
__CUPRITE_BENCH_XCHG(int)
__CUPRITE_BENCH_XCHG(unsigned)
__CUPRITE_BENCH_XCHG(unsigned long long)
#undef __CUPRITE_BENCH_XCHG

// ---------------------------------------------------------------- integer and float intrinsics
__CUPRITE_BENCH_DEV int __popc(unsigned x) { return __builtin_popcount(x); }
__CUPRITE_BENCH_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__CUPRITE_BENCH_DEV int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__CUPRITE_BENCH_DEV int __ffs(int x) { return __builtin_ffs(x); }
__CUPRITE_BENCH_DEV unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
__CUPRITE_BENCH_DEV int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
__CUPRITE_BENCH_DEV unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
__CUPRITE_BENCH_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__CUPRITE_BENCH_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__CUPRITE_BENCH_DEV float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__CUPRITE_BENCH_DEV unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__CUPRITE_BENCH_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__CUPRITE_BENCH_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }

// Math: the IEEE operations map to LLVM intrinsics (fma.rn, sqrt.rn, abs, min/max); this is
// what libdevice's __nv_fmaf & co. reduce to, so no libdevice is needed for them.
__CUPRITE_BENCH_DEV float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
__CUPRITE_BENCH_DEV double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
__CUPRITE_BENCH_DEV float sqrtf(float x) { return __builtin_sqrtf(x); }
__CUPRITE_BENCH_DEV double sqrt(double x) { return __builtin_sqrt(x); }
__CUPRITE_BENCH_DEV float fabsf(float x) { return __builtin_fabsf(x); }
__CUPRITE_BENCH_DEV double fabs(double x) { return __builtin_fabs(x); }
__CUPRITE_BENCH_DEV float fminf(float a, float b) { return __builtin_fminf(a, b); }
__CUPRITE_BENCH_DEV float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__CUPRITE_BENCH_DEV int min(int a, int b) { return a < b ? a : b; }
__CUPRITE_BENCH_DEV int max(int a, int b) { return a > b ? a : b; }
