// Cooperative groups as real kernels use them: block and warp-tile reductions, tile
// shuffles and votes, and coalesced groups (the threads that are active together in a
// divergent branch) with their ranks, shuffles and reductions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define BLOCK 128

// Sum of a vector: each warp reduces with cg::reduce, warp leaders add to the total.
__global__ void vector_sum(const int *in, int *total, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(warp, v, cg::plus<int>());
  int m = cg::reduce(warp, v, cg::greater<int>());
  if (warp.thread_rank() == 0) {
    atomicAdd(&total[0], s);
    atomicMax(&total[1], m);
  }
}

// Float partial sums over 8-thread tiles, by shfl_down as hand-written reductions do.
__global__ void tile_partials(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = tile.size() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
  if (tile.thread_rank() == 0) out[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = v;
  block.sync();
  unsigned int votes = tile.ballot(in[threadIdx.x] > 0.5f);
  bool finite = tile.all(v == v);
  if (tile.thread_rank() == 1 && finite) out[64 + tile.meta_group_rank()] = (float)votes;
}

// Warp-aggregated atomics: the threads that take the branch together elect a leader that
// counts all of them with one atomic, and each packs its value at its rank in the warp's
// slice of the output.
__global__ void compact_positive(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int before = 0;
    if (active.thread_rank() == 0) before = atomicAdd(count, (int)active.size());
    before = active.shfl(before, 0);
    out[(i & ~31) + active.thread_rank()] = in[i] + (before >= 0 ? 0 : 1);
  }
}

// Reductions, scans by shuffles and votes within a coalesced group of odd size.
__global__ void coalesced_math(const float *x, const int *keys, float *sums, int *info) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (keys[t] % 3 != 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    float s = cg::reduce(g, x[t], cg::plus<float>());
    int k = cg::reduce(g, keys[t], cg::plus<int>());
    float up = g.shfl_up(x[t], 1);
    float down = g.shfl_down(x[t], 2);
    sums[t] = s + 0.5f * up - down;
    info[3 * t] = k;
    info[3 * t + 1] = (int)g.num_threads() * 100 + (int)g.thread_rank();
    info[3 * t + 2] = g.any(keys[t] > 90) + 2 * g.all(keys[t] > 0) + 4 * (int)g.meta_group_size();
    g.sync();
  }
}
