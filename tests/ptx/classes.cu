// Class features real CUDA code leans on: inheritance (a loader/IO hierarchy in the style
// of wavelet codecs), static member functions, explicit specializations of class and
// function templates (a shared-memory accessor per type, an end case of a recursive
// template), member function templates called with explicit arguments, and qualified calls
// through a template-id (`Op<N>::apply(x)`).

#define WARP 32

// ----- a small IO hierarchy -------------------------------------------------------------

struct Empty {
    __device__ static int clamp(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
};

template <typename T>
class StridedIO : protected Empty {
  protected:
    int index;
    int stride;
    int end;

    __device__ void setup(int first, int s, int n) {
        index = first;
        stride = s;
        end = n;
    }

  public:
    __device__ bool more() const { return index < end; }
};

template <typename T, bool CHECKED>
class Loader : public StridedIO<const T> {
    const T *data;

  public:
    __device__ Loader(const T *d, int first, int s, int n) : StridedIO<const T>(), data(d) { this->setup(first, s, n); }
    __device__ T next() {
        T v = CHECKED && this->index >= this->end ? T(0) : data[this->index];
        this->index += this->stride;
        return v;
    }
    __device__ int position() const { return Empty::clamp(this->index, 0, this->end); }
};

template <typename T>
class Writer : public StridedIO<T> {
    T *data;

  public:
    __device__ Writer(T *d, int first, int s, int n) : data(d) { StridedIO<T>::setup(first, s, n); }
    __device__ void put(T v) {
        if (this->more()) data[this->index] = v;
        this->index += this->stride;
    }
};

// Each thread walks its column: loads with or without bound checks, scales, stores.
template <typename T, bool CHECKED>
__global__ void column_scale(const T *in, T *out, int rows, int cols, T factor) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    Loader<T, CHECKED> ld(in, col, cols, rows * cols);
    Writer<T> wr(out, col, cols, rows * cols);
    for (int r = 0; r < rows; ++r) wr.put(ld.next() * factor);
    if (col == 0) out[0] += T(ld.position() > 0);
}

template __global__ void column_scale<float, true>(const float *, float *, int, int, float);
template __global__ void column_scale<int, false>(const int *, int *, int, int, int);

// ----- explicit specializations ---------------------------------------------------------

template <typename T> struct Shared;  // only its specializations are defined
template <> struct Shared<float> {
    __device__ float *get() { extern __shared__ float s_float[]; return s_float; }
};
template <> struct Shared<int> {
    __device__ int *get() { extern __shared__ int s_int[]; return s_int; }
};

template <typename T> struct Traits {
    static const int bits = 8 * sizeof(T);
    __device__ static T one() { return T(1); }
};
template <> struct Traits<double> {
    static const int bits = -1;
    __device__ static double one() { return 1.0; }
};

template <typename T>
__global__ void block_sum(const T *in, T *out, int n) {
    T *buf = Shared<T>().get();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0] + Traits<T>::one() * Traits<T>::bits;
}
template __global__ void block_sum<float>(const float *, float *, int);
template __global__ void block_sum<int>(const int *, int *, int);

// A recursive function template whose end case is a specialization.
template <int I> __device__ float tap(const float *x, int i) { return x[i + I] * (I + 1) + tap<I - 1>(x, i); }
template <> __device__ float tap<-1>(const float *, int) { return 0.0f; }

// A static member function through a template-id, and a member template.
template <int N> struct Op {
    __device__ static float apply(float v) { return v * N; }
};
struct Stepper {
    float acc;
    template <int STEPS> __device__ void run(float v) {
#pragma unroll
        for (int s = 0; s < STEPS; ++s) acc += Op<STEPS>::apply(v);
    }
};

__global__ void filter(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 3 >= n) return;
    Stepper st = {0.0f};
    st.run<2>(x[i]);
    y[i] = tap<3>(x, i) + st.acc + Traits<double>::bits;
}

// ----- partial specializations (a small vector and type traits) -------------------------

template <typename T, int N> struct Small {
    T v[N];
    __device__ T dot(const Small &o) const {
        T s = 0;
        for (int i = 0; i < N; ++i) s += v[i] * o.v[i];
        return s;
    }
};
template <typename T> struct Small<T, 1> {
    T v;
    __device__ T dot(const Small &o) const { return v * o.v; }
};
template <typename T> struct Rank { static const int value = 0; };
template <typename T> struct Rank<T *> { static const int value = 1 + Rank<T>::value; };
template <typename T> struct Rank<const T *> { static const int value = 10 + Rank<T>::value; };
template <typename A, typename B> struct IsSame { static const bool value = false; };
template <typename A> struct IsSame<A, A> { static const bool value = true; };

template <typename T>
__global__ void traits(const T *x, int *out, T *dots) {
    out[0] = Rank<T>::value;
    out[1] = Rank<T **>::value;
    out[2] = Rank<const T *>::value;
    out[3] = IsSame<T, float>::value + 2 * IsSame<T *, const T *>::value;
    Small<T, 3> a = {{x[0], x[1], x[2]}};
    Small<T, 1> b = {x[3]};
    dots[0] = a.dot(a);
    dots[1] = b.dot(b);
}
template __global__ void traits<float>(const float *, int *, float *);

// ----- conversions: converting constructors, derived to base ---------------------------

struct Cplx {
    float re, im;
    __device__ Cplx(float r) : re(r), im(0) {}
    __device__ Cplx(float r, float i) : re(r), im(i) {}
};
__device__ Cplx cmul(const Cplx &a, const Cplx &b) { return Cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }

struct Tag {};
struct Particle {
    float mass;
    __device__ float weight() const { return mass * 9.81f; }
};
struct Charged : Tag, Particle {
    float charge;
};
__device__ float weight_of(const Particle &p) { return p.weight(); }
__device__ float mass_of(const Particle *p) { return p->mass; }

__global__ void conversions(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Cplx z = cmul(2.0f, Cplx(in[i], 1.0f));  // 2.0f converts to Cplx
    Charged c;
    c.mass = in[i];
    c.charge = -1;
    Particle p = c;  // the base subobject
    out[i] = z.re + z.im + weight_of(c) + mass_of(&c) + p.mass + c.charge;
}

// Members defined outside their class, as libraries split declaration and definition: a
// constructor with its initializer list, a static member (defined without `static`), a
// const and a non-const overload, and the members of a class template, whose definitions
// may name the template's parameters their own way.
struct Accumulator {
  float total;
  int count;
  __device__ Accumulator();
  __device__ explicit Accumulator(float first);
  __device__ void add(float x);
  __device__ float &last();
  __device__ float last() const;
  static __device__ float mean_of(const Accumulator &a);

private:
  float last_;
};
__device__ Accumulator::Accumulator() : total(0.0f), count(0), last_(0.0f) {}
__device__ Accumulator::Accumulator(float first) : total(first), count(1), last_(first) {}
__device__ void Accumulator::add(float x) {
  total += x;
  ++count;
  last_ = x;
}
__device__ float &Accumulator::last() { return last_; }
__device__ float Accumulator::last() const { return last_ * 2.0f; }
__device__ float Accumulator::mean_of(const Accumulator &a) { return a.count ? a.total / a.count : 0.0f; }

template <class T, int N> class Ring {
public:
  __device__ Ring();
  __device__ void push(T v);
  __device__ T sum() const;
  __device__ static int capacity();
  __device__ Ring<T, N> doubled() const;

private:
  T items[N];
  int head;
};
template <class T, int N> __device__ Ring<T, N>::Ring() : head(0) {
  for (int i = 0; i < N; ++i) items[i] = T(0);
}
template <class U, int M> __device__ void Ring<U, M>::push(U v) {
  items[head] = v;
  head = (head + 1) % M;
}
template <class T, int N> __device__ T Ring<T, N>::sum() const {
  T s = T(0);
  for (int i = 0; i < N; ++i) s += items[i];
  return s;
}
template <class T, int N> __device__ int Ring<T, N>::capacity() { return N; }
template <class T, int N> __device__ Ring<T, N> Ring<T, N>::doubled() const {
  Ring<T, N> r;
  for (int i = 0; i < N; ++i) r.push(items[(head + i) % N] * T(2));
  return r;
}

struct Span2 {
  float lo, hi;
};
__device__ Span2 widen(Span2 s, float by) { return {s.lo - by, s.hi + by}; }
__device__ float width(const Span2 &s) { return s.hi - s.lo; }

__global__ void out_of_line(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Accumulator a;
  Accumulator b(in[i]);
  a.add(in[i]);
  a.add(2.0f);
  b.add(a.total);
  a.last() = 5.0f;
  const Accumulator &c = a;
  Ring<int, 4> r;
  for (int k = 0; k < 6; ++k) r.push(i + k);
  Ring<float, 3> f;
  f.push(in[i]);
  Ring<float, 3> g = f.doubled();
  out[4 * i] = Accumulator::mean_of(a) + Accumulator::mean_of(b) + c.last();
  out[4 * i + 1] = (float)(r.sum() + Ring<int, 4>::capacity() + Ring<double, 7>::capacity());
  out[4 * i + 2] = g.sum() + width(widen({in[i], 2.0f * in[i]}, 0.5f));
  out[4 * i + 3] = width({1.0f, in[i]});
}
