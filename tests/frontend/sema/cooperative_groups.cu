// RUN: --emit=cuda
// Cooperative groups: the block, 32- and 8-thread tiles, shuffles, votes and reductions.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_sum(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank()];
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) atomicAdd(out, v);
  block.sync();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int x = tile.shfl_down((int)tile.thread_rank(), 1u);
  if (tile.any(x > 3)) out[1] = (float)tile.meta_group_rank();
}
