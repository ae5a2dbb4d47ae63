// RUN: --emit=cuda
// Virtual functions used as the CUDA programming guide forbids, or as C++ does.
struct Base {
  float v;
  __device__ virtual float get() const { return v; }
};
struct Derived : Base {
  __device__ float get() const override { return 2.0f * v; }
};

// An object with virtual functions passed by value to a kernel: its vptr is the host's.
__global__ void by_value(Derived d, float *out) { out[0] = d.get(); }

union U {
  __device__ virtual int f() { return 1; }
  int i;
};

struct NotAggregate {
  int a, b;
  __device__ virtual int sum() const { return a + b; }
};

struct Ctor {
  __device__ virtual Ctor() {}
};

__global__ void uses(float *out) {
  NotAggregate n{1, 2};
  out[0] = (float)n.sum();
  Ctor c;
}
