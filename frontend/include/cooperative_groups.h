// cuprite's cooperative_groups.h: thread blocks, warp tiles and coalesced groups with their
// synchronization, ranks, shuffles, votes, reductions and scans, written in CUDA C++ on top
// of the device functions (so they compile like user code). Reductions and scans combine
// the values in the order CUDA's own implementation does, so float results are the same.
// An include guard, not `#pragma once`: the file is also <cooperative_groups/reduce.h>
// and <cooperative_groups/scan.h>.
#ifndef __CUPRITE_COOPERATIVE_GROUPS_H
#define __CUPRITE_COOPERATIVE_GROUPS_H

namespace cooperative_groups {

struct thread_block {
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned int size() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ unsigned int num_threads() const { return blockDim.x * blockDim.y * blockDim.z; }
  __device__ dim3 group_index() const { dim3 d; d.x = blockIdx.x; d.y = blockIdx.y; d.z = blockIdx.z; return d; }
  __device__ dim3 thread_index() const { dim3 d; d.x = threadIdx.x; d.y = threadIdx.y; d.z = threadIdx.z; return d; }
  __device__ dim3 group_dim() const { return blockDim; }
};

static __device__ __forceinline__ thread_block this_thread_block() {
  thread_block b;
  return b;
}

static __device__ __forceinline__ void sync(const thread_block &b) { __syncthreads(); }

// A tile of `Size` consecutive threads of the block (a power of two, at most 32).
template <unsigned int Size>
struct thread_block_tile {
  __device__ unsigned int linear_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  __device__ unsigned int mask() const {
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << (linear_rank() & 31u & ~(Size - 1u));
  }
  __device__ void sync() const { __syncwarp(mask()); }
  __device__ unsigned int thread_rank() const { return linear_rank() & (Size - 1u); }
  __device__ unsigned int size() const { return Size; }
  __device__ unsigned int num_threads() const { return Size; }
  __device__ unsigned int meta_group_rank() const { return linear_rank() / Size; }
  __device__ unsigned int meta_group_size() const {
    return (blockDim.x * blockDim.y * blockDim.z + Size - 1u) / Size;
  }
  template <typename T> __device__ T shfl(T var, int src) const { return __shfl_sync(mask(), var, src, Size); }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(mask(), var, delta, Size);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(mask(), var, delta, Size);
  }
  template <typename T> __device__ T shfl_xor(T var, int lane_mask) const {
    return __shfl_xor_sync(mask(), var, lane_mask, Size);
  }
  __device__ int any(int predicate) const { return (__ballot_sync(mask(), predicate) & mask()) != 0; }
  __device__ int all(int predicate) const { return (__ballot_sync(mask(), predicate) & mask()) == mask(); }
  __device__ unsigned int ballot(int predicate) const {
    return (__ballot_sync(mask(), predicate) & mask()) >> (linear_rank() & 31u & ~(Size - 1u));
  }
};

// The position of the `offset`-th set bit of `mask` counted from bit `base` (up for a
// positive offset, down for a negative one), or ~0u: PTX's `fns`.
static __device__ __forceinline__ unsigned int __cg_fns(unsigned int mask, unsigned int base, int offset) {
  unsigned int m;
  if (offset > 0) {
    m = base < 32u ? mask >> base << base : 0u;
    for (int k = 1; k < offset && m != 0u; ++k) m &= m - 1u;
    return m != 0u ? (unsigned int)(__ffs((int)m) - 1) : ~0u;
  }
  m = base >= 31u ? mask : mask & ((2u << base) - 1u);
  for (int k = 1; k < -offset && m != 0u; ++k) m &= ~(0x80000000u >> __clz((int)m));
  return m != 0u ? 31u - (unsigned int)__clz((int)m) : ~0u;
}

// The threads of a warp that are active together where `coalesced_threads()` is called
// (a divergent branch), ranked in lane order.
struct coalesced_group {
  unsigned int __mask;
  __device__ unsigned int __lane() const { return (unsigned int)__popc(__lanemask_lt()); }
  __device__ void sync() const { __syncwarp(__mask); }
  __device__ unsigned int thread_rank() const { return (unsigned int)__popc(__mask & __lanemask_lt()); }
  __device__ unsigned int size() const { return (unsigned int)__popc(__mask); }
  __device__ unsigned int num_threads() const { return (unsigned int)__popc(__mask); }
  __device__ unsigned int meta_group_rank() const { return 0u; }
  __device__ unsigned int meta_group_size() const { return 1u; }
  template <typename T> __device__ T shfl(T var, int src_rank) const {
    unsigned int lane = src_rank == 0 ? (unsigned int)(__ffs((int)__mask) - 1)
                        : size() == 32u ? (unsigned int)src_rank : __cg_fns(__mask, 0u, src_rank + 1);
    return __shfl_sync(__mask, var, (int)lane, 32);
  }
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const {
    if (size() == 32u) return __shfl_down_sync(0xffffffffu, var, delta, 32);
    unsigned int lane = __cg_fns(__mask, __lane(), (int)delta + 1);
    if (lane >= 32u) lane = __lane();
    return __shfl_sync(__mask, var, (int)lane, 32);
  }
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const {
    if (size() == 32u) return __shfl_up_sync(0xffffffffu, var, delta, 32);
    unsigned int lane = __cg_fns(__mask, __lane(), -((int)delta + 1));
    if (lane >= 32u) lane = __lane();
    return __shfl_sync(__mask, var, (int)lane, 32);
  }
  __device__ int any(int predicate) const { return __ballot_sync(__mask, predicate) != 0u; }
  __device__ int all(int predicate) const { return __ballot_sync(__mask, predicate) == __mask; }
  // The votes packed by rank.
  __device__ unsigned int ballot(int predicate) const {
    unsigned int lanes = __ballot_sync(__mask, predicate);
    if (size() == 32u) return lanes;
    unsigned int packed = 0u, bit = 1u;
    for (unsigned int m = __mask; m != 0u; m &= m - 1u, bit <<= 1) {
      if (lanes & m & (0u - m)) packed |= bit;
    }
    return packed;
  }
};

static __device__ __forceinline__ coalesced_group coalesced_threads() {
  coalesced_group g;
  g.__mask = __activemask();
  return g;
}

template <unsigned int Size>
static __device__ __forceinline__ thread_block_tile<Size> tiled_partition(const thread_block &parent) {
  thread_block_tile<Size> t;
  return t;
}

template <typename T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
  __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};
template <typename T> struct greater {
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
template <typename T> struct bit_and {
  __device__ T operator()(T a, T b) const { return a & b; }
};
template <typename T> struct bit_or {
  __device__ T operator()(T a, T b) const { return a | b; }
};
template <typename T> struct bit_xor {
  __device__ T operator()(T a, T b) const { return a ^ b; }
};

// sm_80's redux.sync for 32-bit integers with plus, less, greater and the bitwise ops (as
// NVIDIA's cooperative groups use it): `val` reduced over the lanes of `m`, true; false for
// the other types and operations (the fallback template), which reduce by shuffles.
template <typename T, typename Op>
static __device__ __forceinline__ bool __cg_redux(unsigned int, T &, Op) { return false; }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define __CG_REDUX(T, OP, F) \
  static __device__ __forceinline__ bool __cg_redux(unsigned int m, T &v, OP<T>) { v = F(m, v); return true; }
__CG_REDUX(int, plus, __reduce_add_sync)
__CG_REDUX(unsigned int, plus, __reduce_add_sync)
__CG_REDUX(int, less, __reduce_min_sync)
__CG_REDUX(unsigned int, less, __reduce_min_sync)
__CG_REDUX(int, greater, __reduce_max_sync)
__CG_REDUX(unsigned int, greater, __reduce_max_sync)
__CG_REDUX(unsigned int, bit_and, __reduce_and_sync)
__CG_REDUX(unsigned int, bit_or, __reduce_or_sync)
__CG_REDUX(unsigned int, bit_xor, __reduce_xor_sync)
#undef __CG_REDUX
#endif

// The tile-wide reduction: every thread of the tile gets the result.
template <unsigned int Size, typename T, typename Op>
static __device__ __forceinline__ T reduce(const thread_block_tile<Size> &g, T val, Op op) {
  if (__cg_redux(g.mask(), val, op)) return val;
  for (unsigned int i = Size / 2; i > 0; i /= 2) val = op(val, g.shfl_xor(val, i));
  return val;
}

// Inclusive scan over ranks: rank r gets op(...op(v0, v1)..., vr), combining with the
// value `i` ranks down at step i = 1, 2, 4, ...
template <unsigned int Size, typename T, typename Op>
static __device__ __forceinline__ T inclusive_scan(const thread_block_tile<Size> &g, T val, Op op) {
  for (unsigned int i = 1; i < Size; i <<= 1) {
    T lower = g.shfl_up(val, i);
    if (i <= g.thread_rank()) val = op(val, lower);
  }
  return val;
}

static __device__ __forceinline__ unsigned int __cg_rank_lane(const coalesced_group &g, unsigned int i) {
  unsigned int lane = __cg_fns(g.__mask, g.__lane(), -(int)(i + 1u));
  return lane >= 32u ? g.__lane() : lane;
}

template <typename T, typename Op>
static __device__ __forceinline__ T inclusive_scan(const coalesced_group &g, T val, Op op) {
  unsigned int n = g.size(), rank = g.thread_rank();
  for (unsigned int i = 1; i < n; i <<= 1) {
    T lower = n == 32u ? __shfl_up_sync(0xffffffffu, val, i, 32) : __shfl_sync(g.__mask, val, (int)__cg_rank_lane(g, i), 32);
    if (i <= rank) val = op(val, lower);
  }
  return val;
}

template <typename T, typename Op>
static __device__ __forceinline__ T reduce(const coalesced_group &g, T val, Op op) {
  if (__cg_redux(g.__mask, val, op)) return val;
  if (g.size() == 32u) {
    for (unsigned int i = 16; i > 0; i /= 2) val = op(val, __shfl_xor_sync(0xffffffffu, val, i, 32));
    return val;
  }
  T scan = inclusive_scan(g, val, op);
  return __shfl_sync(g.__mask, scan, 31 - __clz((int)g.__mask), 32);
}

// Exclusive scans: the inclusive scan of the rank below (rank 0 gets T()).
template <typename Group, typename T, typename Op>
static __device__ __forceinline__ T exclusive_scan(const Group &g, T val, Op op) {
  T incl = inclusive_scan(g, val, op);
  T below = g.shfl_up(incl, 1u);
  return g.thread_rank() == 0u ? T() : below;
}
template <typename Group, typename T>
static __device__ __forceinline__ T inclusive_scan(const Group &g, T val) { return inclusive_scan(g, val, plus<T>()); }
template <typename Group, typename T>
static __device__ __forceinline__ T exclusive_scan(const Group &g, T val) { return exclusive_scan(g, val, plus<T>()); }

} // namespace cooperative_groups

#endif
