// A whole program as object-oriented simulation codes write it: host helpers first (the
// host's malloc, before any device function), a polymorphic particle hierarchy built on
// the device heap by one kernel, stepped through virtual calls by another, and freed by a
// third; the host drives it with error checks.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(EXIT_FAILURE);                                                  \
        }                                                                        \
    } while (0)

static float *host_buffer(int n) {
    float *p = (float *)malloc(n * sizeof(float));
    if (!p) exit(EXIT_FAILURE);
    for (int i = 0; i < n; ++i) p[i] = 0.01f * (float)i;
    return p;
}

class Particle {
public:
    __device__ Particle(float x, float v) : x_(x), v_(v) {}
    __device__ virtual ~Particle() {}
    __device__ virtual float force(float t) const = 0;
    __device__ void step(float dt, float t) {
        v_ += force(t) * dt;
        x_ += v_ * dt;
    }
    __device__ float position() const { return x_; }

protected:
    float x_, v_;
};

class Spring : public Particle {
public:
    __device__ Spring(float x, float k) : Particle(x, 0.0f), k_(k) {}
    __device__ float force(float) const override { return -k_ * x_; }

private:
    float k_;
};

class Driven final : public Particle {
public:
    __device__ Driven(float x, float a) : Particle(x, 1.0f), a_(a) {}
    __device__ float force(float t) const override { return a_ * __sinf(t); }

private:
    float a_;
};

__global__ void create(Particle **world, const float *x0, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i % 2 == 0) world[i] = new Spring(x0[i], 4.0f);
    else world[i] = new Driven(x0[i], 0.5f);
}

__global__ void advance(Particle **world, float *pos, int n, int steps, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle *p = world[i];
    for (int s = 0; s < steps; ++s) p->step(dt, s * dt);
    pos[i] = p->position();
}

__global__ void destroy(Particle **world, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) delete world[i];
}

int main() {
    const int n = 1024;
    float *h = host_buffer(n);
    float *d_x, *d_pos;
    Particle **d_world;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_pos, n * sizeof(float)));
    CHECK(cudaMalloc(&d_world, n * sizeof(Particle *)));
    CHECK(cudaMemcpy(d_x, h, n * sizeof(float), cudaMemcpyHostToDevice));
    create<<<(n + 255) / 256, 256>>>(d_world, d_x, n);
    advance<<<(n + 255) / 256, 256>>>(d_world, d_pos, n, 100, 0.01f);
    destroy<<<(n + 255) / 256, 256>>>(d_world, n);
    CHECK(cudaMemcpy(h, d_pos, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("pos[1] = %f\n", h[1]);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_pos));
    CHECK(cudaFree(d_world));
    free(h);
    return 0;
}
