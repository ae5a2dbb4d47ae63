// RUN: --emit=cuda
// Templates, classes and namespaces: function templates with deduced and explicit type
// and value arguments, a class template with member functions, a constructor, operator
// overloading, explicit instantiation, namespaces and using.
namespace geo {
struct Vec2 {
  float x, y;
  __device__ Vec2(float a, float b) : x(a), y(b) {}
  __device__ float dot(const Vec2 &o) const { return x * o.x + y * o.y; }
};
__device__ Vec2 operator+(Vec2 a, Vec2 b) { return Vec2(a.x + b.x, a.y + b.y); }
} // namespace geo

template <typename T, int N>
struct Buffer {
  T data[N];
  __device__ T sum() const {
    T s = 0;
    for (int i = 0; i < N; ++i) s += data[i];
    return s;
  }
};

template <typename T>
__device__ T square(T v) { return v * v; }

template <typename T, int Scale>
__global__ void scale(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = square(p[i]) * Scale;
}

template __global__ void scale<float, 2>(float *, int);

using namespace geo;

__global__ void classes(float *out) {
  Vec2 a(1.0f, 2.0f);
  Vec2 b = a + Vec2(3.0f, 4.0f);
  Buffer<float, 4> buf;
  for (int i = 0; i < 4; ++i) buf.data[i] = square<float>(i);
  out[threadIdx.x] = a.dot(b) + buf.sum() + square(2);
}
