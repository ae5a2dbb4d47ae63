// Virtual functions in device code, written as real code writes them: an abstract base
// with pure virtual functions, overriders marked override/final, calls through base
// pointers and references and from member functions, multiple inheritance with a
// second dynamic base, a covariant return, a class template deriving from an interface,
// and slicing (a copy into a base object keeps the base's class).
#include <cuda_runtime.h>

#define HD __host__ __device__

struct Shape {
    float scale;
    HD Shape(float s) : scale(s) {}
    HD virtual ~Shape() {}
    HD virtual float area() const = 0;
    HD virtual float perimeter() const { return 0.0f; }
    HD virtual int sides() const { return 0; }
    // A non-virtual member calling virtual ones.
    HD float weighted() const { return area() * scale + perimeter(); }
};

struct Rect : Shape {
    float w, h;
    HD Rect(float s, float w_, float h_) : Shape(s), w(w_), h(h_) {}
    HD float area() const override { return w * h; }
    HD float perimeter() const override { return 2.0f * (w + h); }
    HD int sides() const override { return 4; }
};

struct Square final : Rect {
    HD explicit Square(float s, float a) : Rect(s, a, a) {}
    HD int sides() const override { return 40; } // marks squares apart from rectangles
};

struct Circle : Shape {
    float r;
    HD Circle(float s, float r_) : Shape(s), r(r_) {}
    HD float area() const override { return 3.14159265f * r * r; }
    HD float perimeter() const override { return 2.0f * 3.14159265f * r; }
};

__device__ float describe(const Shape &s) { return s.weighted() + (float)s.sides(); }

__global__ void shapes(const float *in, float *out, int *kinds, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    Rect rect(0.5f, x, x + 1.0f);
    Square sq(2.0f, x);
    Circle ci(1.5f, x);
    const Shape *s;
    switch (i % 3) {
    case 0: s = &rect; break;
    case 1: s = &sq; break;
    default: s = &ci; break;
    }
    out[i] = describe(*s) + s->area();
    kinds[i] = s->sides();
}

// Multiple inheritance: the second dynamic base has a vptr of its own at a nonzero offset,
// so a call through it adjusts `this`.
struct Named {
    int id;
    __device__ virtual int tag() const { return id; }
};
struct Weighted {
    float weight;
    __device__ virtual ~Weighted() {}
    __device__ virtual float mass() const { return weight; }
    __device__ virtual Weighted *self() { return this; }
};
struct Body : Named, Weighted {
    float density;
    __device__ Body(int i, float w, float d) : density(d) { id = i; weight = w; }
    __device__ int tag() const override { return id * 100; }
    __device__ float mass() const override { return weight * density; }
    __device__ Body *self() override { return this; } // covariant
};

__global__ void bodies(const float *in, float *out, int *tags, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Body b(i, in[i], 2.5f);
    Weighted plain;
    plain.weight = in[i] * 3.0f;
    Weighted *w = (i & 1) ? (Weighted *)&b : &plain;
    Named *nm = &b;
    out[i] = w->self()->mass() + w->mass();
    tags[i] = nm->tag();
}

// A class template implementing an interface; a virtual call from a constructor calls the
// constructor's own class's function (the object is not a derived one yet).
struct Op {
    int made_as;
    __device__ Op() { made_as = kind(); }
    __device__ virtual int kind() const { return 1; }
    __device__ virtual float apply(float a, float b) const = 0;
};
template <int K> struct Scaled : Op {
    __device__ int kind() const override { return 10 + K; }
    __device__ float apply(float a, float b) const override { return fmaf(K, a, b); }
};
struct Maxer : Op {
    __device__ float apply(float a, float b) const override { return fmaxf(a, b); }
};

__device__ float fold(const Op &op, const float *v, int n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc = op.apply(v[k], acc);
    return acc;
}

__global__ void fold_rows(const float *in, float *out, int *made, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    Scaled<2> two;
    Scaled<3> three;
    Maxer mx;
    const Op *ops[3] = {&two, &three, &mx};
    const Op *op = ops[r % 3];
    out[r] = fold(*op, in + r * cols, cols);
    made[r] = op->made_as * 1000 + op->kind();
    // Slicing: a copy of a Square as a Rect is a Rect.
    Square sq(1.0f, (float)r);
    Rect copy = sq;
    Rect assigned(0.0f, 1.0f, 1.0f);
    assigned = sq;
    Shape &ref = copy;
    made[r] += ref.sides() + assigned.sides() * 100;
}

// The device heap: a list of shapes made with new, used through base pointers and deleted
// through them (the virtual destructor frees the whole object, also through a second
// base at a nonzero offset), new of scalars, arrays and aggregates, malloc/free, and
// placement new into local storage.
struct Particle : Named, Weighted {
    float charge;
    __device__ Particle(int i, float w, float q) : charge(q) { id = i; weight = w; }
    __device__ virtual ~Particle() {}
    __device__ float mass() const override { return weight + charge; }
};
struct Vec2 { float x, y; };

__global__ void world(const float *in, float *out, int *live, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int count = 3 + i % 4;
    Shape **list = new Shape *[count];
    for (int k = 0; k < count; ++k) {
        float x = in[(i + k) % n];
        if (k % 3 == 0) list[k] = new Rect(1.0f, x, 2.0f);
        else if (k % 3 == 1) list[k] = new Square(1.0f, x);
        else list[k] = new Circle(1.0f, x);
    }
    float total = 0.0f;
    int sides = 0;
    for (int k = 0; k < count; ++k) {
        total += list[k]->area();
        sides += list[k]->sides();
    }
    for (int k = 0; k < count; ++k) delete list[k];
    delete[] list;

    Particle *pa = new Particle(i, in[i], 0.5f);
    Weighted *w = pa;
    total += w->mass();
    delete w; // frees the Particle, 16 bytes before w

    Vec2 *v = new Vec2{in[i], 2.0f};
    int *cnt = new int(7);
    int *zero = new int();
    float *scratch = (float *)malloc(2 * sizeof(float));
    scratch[0] = v->x * v->y;
    scratch[1] = (float)(*cnt + *zero);
    total += scratch[0] + scratch[1];
    free(scratch);
    delete v;
    delete cnt;
    delete zero;

    double storage[4];
    Shape *local = new (storage) Circle(2.0f, in[i]);
    total += local->perimeter();
    out[i] = total;
    live[i] = sides;
}
