// Structs by pointer, vector-type members, non-inlined device calls, histogram atomics,
// __constant__ memory.
struct Particle {
  float3 pos;
  float3 vel;
  float mass;
};

__global__ void step(Particle *p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle *q = &p[i];
  q->vel.y -= 9.81f * dt;
  q->pos.x += q->vel.x * dt;
  q->pos.y += q->vel.y * dt;
  q->pos.z += q->vel.z * dt;
}

__device__ __noinline__ int bucket(float x, int bins) {
  int b = (int)(x * bins);
  return b < 0 ? 0 : (b >= bins ? bins - 1 : b);
}

__global__ void histogram(const float *x, unsigned *hist, int n, int bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&hist[bucket(x[i], bins)], 1u);
}

__constant__ float coeffs[4];

__global__ void poly(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(fmaf(fmaf(coeffs[3], x[i], coeffs[2]), x[i], coeffs[1]), x[i], coeffs[0]);
}

// An empty struct with an alignment is as big as its alignment: element strides and the
// offsets of members after it follow.
struct __align__(16) Empty {};
struct AfterEmpty { Empty e; int x; };
__global__ void empty_aligned(unsigned *out) {
  Empty e[3];
  AfterEmpty h[2];
  unsigned i = threadIdx.x;
  out[4 * i + 0] = (unsigned)((char *)&e[2] - (char *)&e[0]);
  out[4 * i + 1] = sizeof(e);
  out[4 * i + 2] = (unsigned)((char *)&h[1].x - (char *)&h[0]) + i;
  out[4 * i + 3] = sizeof(AfterEmpty) + alignof(Empty);
}

// Unnamed classes and enums: C-style typedefs, a member of unnamed union type, and
// anonymous unions and structs whose members are the enclosing class's.
typedef struct {
  float x, y;
} Pair;
typedef enum { RED, GREEN = 5, BLUE } Colour;
struct Packet {
  union {
    float4 v;
    float a[4];
    struct {
      float lo, mid, hi, top;
    };
  };
  union {
    int i;
    float f;
  } bits;
  Colour c;
};
__global__ void unnamed_types(const float *in, float *out, Pair *pairs) {
  unsigned t = threadIdx.x;
  Packet p;
  p.v = make_float4(in[4 * t], in[4 * t + 1], in[4 * t + 2], in[4 * t + 3]);
  p.bits.f = in[4 * t];
  p.c = t % 2 ? BLUE : GREEN;
  Pair q = {p.a[1] + p.hi, p.v.w * p.lo};
  pairs[t] = q;
  out[2 * t] = p.mid + p.top + (float)p.c;
  out[2 * t + 1] = (float)(p.bits.i & 0xffff) + sizeof(Packet);
}

// A typedef names an unnamed class for linkage, members and nested types included
// (`P::twice` is _ZNK1P5twiceEv, `P::E` is N1P1EE); each instance of a class template has
// its own unnamed member class.
typedef struct {
  float v;
  enum E { X, Y } e;
  __device__ float twice() const { return 2.0f * v; }
} Named;
template <class T> __device__ __noinline__ float as_float(T t) { return (float)t + 0.25f; }
template <class T> struct Other { T w; };
template <class T> struct Holder {
  struct {
    T v;
    Other<int> *other;
  } s;
};
__global__ void typedef_names(const Named *in, float *out) {
  unsigned t = threadIdx.x;
  Holder<float> h;
  h.s.v = 0.5f * t;
  out[t] = in[t].twice() + as_float(in[t].e == Named::Y ? Named::Y : Named::X) + h.s.v;
}

// Brace elision: an aggregate member or element given no braces of its own takes its
// scalars one item each from the enclosing list (and an unsized array counts them).
struct Pair3 { int a[2]; int b; };
struct Tagged { int t; union { int i; float f; }; };
struct Point { float x, y; };
struct Segment { Point from, to; };
__global__ void brace_elision(const float *in, int *o, float *f) {
  unsigned t = threadIdx.x;
  float v = in[t];
  Pair3 x = {1, (int)t, 3};
  Tagged y = {4, 5};
  Segment s = {v, 2.0f, 3.0f, v + 1.0f};
  Point pts[] = {10.0f, 20.0f, 30.0f, 40.0f, v};
  Point p = {7.0f, v};
  Point copies[2] = {p, {9.0f, 6.0f}};
  int m[2][3] = {1, 2, 3, 4};
  o[4 * t] = x.a[1] + x.b + y.i;
  o[4 * t + 1] = sizeof(pts) / sizeof(pts[0]);
  o[4 * t + 2] = m[1][0] + m[1][2];
  o[4 * t + 3] = s.from.x > 0.5f;
  f[4 * t] = s.to.x + s.to.y;
  f[4 * t + 1] = pts[2].x + pts[2].y;
  f[4 * t + 2] = copies[0].y + copies[1].x;
  f[4 * t + 3] = m[0][2] + y.t;
}

// A self-referential struct whose first use is a local of a function before the kernel:
// the struct's IR type is built then, and the `ChainNode *` inside it must not stand for
// `ChainNode *` afterwards (it names the struct without its members, so `p->next` could
// not be reached).
struct ChainNode {
  struct ChainNode *next;
  int value;
};
__device__ int chain_value(void *buffer) {
  struct ChainNode node;
  node.next = (struct ChainNode *)buffer;
  node.value = 1;
  return node.value;
}
__global__ void chase(struct ChainNode *nodes, int *out, int steps) {
  unsigned t = threadIdx.x;
  nodes[t].next = &nodes[(t * 7 + 3) % blockDim.x];
  nodes[t].value = (int)t * 3 * chain_value(nodes);
  __syncthreads();
  struct ChainNode *p = &nodes[t];
  int sum = 0;
  for (auto i = 0; i < steps; ++i) {
    sum += p->value;
    p = p->next;
  }
  out[t] = sum + p->next->value;
}
