// A kernel parameter passed by value travels as its scalars; one of more than 256 scalars
// (a 2 KB table by value) is not lowered yet: the diagnostic points at the kernel and no
// PTX is written.
struct Table {
  float weights[512];
  int n;
};

__global__ void weigh(float *out, const float *in, Table t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t.n) out[i] = in[i] * t.weights[i % 512];
}
