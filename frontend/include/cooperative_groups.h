// cuprite's cooperative_groups.h: thread blocks and warp tiles with their
// synchronization, ranks, shuffles, votes and reductions, written in CUDA C++ on top of
// the device functions (so they compile like user code).
#pragma once

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

// The tile-wide reduction: every thread of the tile gets the result.
template <unsigned int Size, typename T, typename Op>
static __device__ __forceinline__ T reduce(const thread_block_tile<Size> &g, T val, Op op) {
  for (unsigned int i = Size / 2; i > 0; i /= 2) val = op(val, g.shfl_xor(val, i));
  return val;
}

} // namespace cooperative_groups
