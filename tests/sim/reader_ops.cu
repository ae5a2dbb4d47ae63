// The C meaning of the PTX in reader_ops.ptx (instructions cuprite does not emit but NVIDIA's
// compilers do: bfe, testp, cnot, red, exit), for tests/tests/sim.rs to compare the two on
// the simulator.
__global__ void reader_ops(const unsigned *u, const unsigned *bits, unsigned *o_bfe, int *o_sbfe, int *o_test, int *o_cnot,
                           unsigned *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned w = u[i];
  o_bfe[i] = (w >> 7) & 0x1ff;
  o_sbfe[i] = ((int)w << 13) >> 20;
  float x = __uint_as_float(bits[i]);
  o_test[i] = (isnan(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (isfinite(x) ? 4 : 0);
  o_cnot[i] = !(w & 7);
  atomicAdd(counter, 1u);
}
