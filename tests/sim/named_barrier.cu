// The C meaning of named_barrier.ptx: warps 0 and 1 produce a tile in shared memory and
// signal named barrier 1 with bar.arrive (128 threads expected) without waiting; warps 2
// and 3 wait there (bar.sync 1, 128) and consume the tile; the producers then meet at
// named barrier 2 among themselves (bar.sync 2, 64) and read each other's elements.
__global__ void named_barrier(const int *in, int *out) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  int base = blockIdx.x * 128;
  if (t < 64) tile[t] = in[base + t] * 3 + 1;
  __syncthreads();
  if (t >= 64) out[base + t] = tile[t - 64] - in[base + t];
  else out[base + t] = tile[(t + 1) % 64] ^ t;
}
