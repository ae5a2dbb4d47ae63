// A kernel parameter of struct type passed by value is not lowered yet (its PTX .param
// layout is the host's): the diagnostic points at the kernel and no PTX is written.
struct Params {
  float scale;
  int n;
};

__global__ void scaled(float *out, const float *in, Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) out[i] = in[i] * p.scale;
}
