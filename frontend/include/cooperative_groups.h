// cuprite's cooperative_groups.h: thread_block, sync, thread_rank, tiled_partition with
// shuffles and reductions are declared with the frontend's semantic analysis.
#pragma once
