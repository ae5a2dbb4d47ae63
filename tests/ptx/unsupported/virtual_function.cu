// A class hierarchy with virtual functions, as an object-oriented particle code might
// write it: dynamic dispatch is not compiled yet, so the call is a diagnostic at the
// virtual function rather than PTX that calls the wrong function.
struct Shape {
  __device__ virtual float area() const { return 0.0f; }
};
struct Square : Shape {
  float side;
  __device__ float area() const override { return side * side; }
};

__global__ void areas(const Square *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const Shape &s = in[i];
    out[i] = s.area();
  }
}
