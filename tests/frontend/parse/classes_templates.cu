// RUN: --emit=ast
// Structs and classes with members, constructors and operators, namespaces, class and
// function templates with type and value parameters, explicit instantiation, typedef and
// using aliases, enums, constants in __constant__ and __device__ globals.
namespace geo {
struct Vec2 {
  float x, y;
  __device__ Vec2() : x(0), y(0) {}
  __device__ Vec2(float a, float b) : x(a), y(b) {}
  __device__ Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }
  __device__ float dot(const Vec2 &o) const { return x * o.x + y * o.y; }
  float host_only() { return x; }
};
}
using geo::Vec2;
typedef unsigned int u32;
using index_t = long long;
enum class Mode : int { Add = 1, Mul, Max = 10 };
enum Color { Red, Green };
__constant__ float coeffs[16];
__device__ int counter = 0;

template <typename T, int Size = 4>
struct Buffer {
  T data[Size];
  __device__ T &operator[](int i) { return data[i]; }
};

template <typename T>
__device__ __forceinline__ T clamp(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

template __device__ float clamp<float>(float, float, float);

__global__ void use(Vec2 *out, const index_t n, Mode m) {
  Buffer<float, 8> buf;
  u32 i = threadIdx.x;
  buf[i % 8] = clamp<float>(coeffs[i % 16], -1.0f, 1.0f);
  Vec2 a(1.0f, 2.0f), b{3.0f, 4.0f};
  out[i] = a + b;
  if (m == Mode::Mul) atomicAdd(&counter, 1);
  static_cast<void>(n);
}
