// Float contraction (-fmad=true, nvcc's default) the way numeric code meets it: which
// multiply-adds become one fma.rn and which stay a mul and an add or sub decides the
// result's last bits. cuprite contracts where NVRTC does (tests/tests/contraction.rs
// checks the bits against NVRTC's PTX on the simulator).

#include <cuda_runtime.h>

#define GRID_STRIDE(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
#define DAMPING 0.995f
#define FULL_SCALE 1000.0f

struct Particle {
    float x, y, vx, vy;
};

// Horner's rule: each step is p * x + c, one fma.
__device__ __forceinline__ float poly5(float x, const float *__restrict__ c) {
    float p = c[5];
#pragma unroll
    for (int k = 4; k >= 0; --k) p = p * x + c[k];
    return p;
}

__global__ void eval_poly(const float *__restrict__ xs, const float *__restrict__ coef, float *__restrict__ out, int n) {
    GRID_STRIDE(i, n) { out[i] = poly5(xs[i], coef); }
}

// Complex multiply: the real part subtracts two products (a mul and a sub each: no
// contraction of a subtraction of registers), the imaginary part adds them (one fma).
__global__ void cmul(const float2 *__restrict__ a, const float2 *__restrict__ b, float2 *__restrict__ c, int n) {
    GRID_STRIDE(i, n) {
        float2 p = a[i], q = b[i];
        c[i] = make_float2(p.x * q.x - p.y * q.y, p.x * q.y + p.y * q.x);
    }
}

// Linear interpolation, a - t * b with a runtime and a constant t, x * x - 1.
__global__ void blend(const float *__restrict__ a, const float *__restrict__ b, float t, float *__restrict__ out, int n) {
    GRID_STRIDE(i, n) {
        float lo = a[i], hi = b[i];
        float mixed = lo + t * (hi - lo);
        float damped = hi - t * lo;     // t is a parameter: mul and sub
        float halved = hi - 0.5f * lo;  // a constant: fma with -0.5
        float shifted = hi * hi - 1.0f; // fma with -1
        out[4 * i + 0] = mixed;
        out[4 * i + 1] = damped;
        out[4 * i + 2] = halved;
        out[4 * i + 3] = shifted;
    }
}

// One product feeding two sums fuses into both; a product that is also stored does not.
__global__ void shared_products(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, int n) {
    GRID_STRIDE(i, n) {
        float ab = a[i] * b[i];
        out[3 * i + 0] = ab + a[i];
        out[3 * i + 1] = ab + b[i];
        float sq = a[i] * a[i];
        out[3 * i + 2] = sq + 1.0f;
        if (i == 0) out[3 * n] = sq;
    }
}

// Negations: -a * b + c is c - a * b (no fma); c - (-a) * b is c + a * b (an fma); a
// constant expression folds before anything contracts; FULL_SCALE - x * FULL_SCALE shares
// its constant and stays a mul and a sub.
__global__ void signs(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ out, int n) {
    GRID_STRIDE(i, n) {
        float x = a[i], y = b[i];
        out[4 * i + 0] = -x * y + 1.5f;
        out[4 * i + 1] = x - (-y) * (x + 1.0f);
        out[4 * i + 2] = x + 2.0f * 3.3f;
        out[4 * i + 3] = FULL_SCALE - x * FULL_SCALE;
    }
}

// A particle step in double and float: velocity and position updates are multiply-adds.
__global__ void step(Particle *__restrict__ ps, const double *__restrict__ force, double dt, int n) {
    GRID_STRIDE(i, n) {
        Particle p = ps[i];
        double fx = force[2 * i], fy = force[2 * i + 1];
        double vx = (double)p.vx * DAMPING + fx * dt;
        double vy = (double)p.vy * DAMPING + fy * dt - 9.81 * dt;
        p.vx = (float)vx;
        p.vy = (float)vy;
        p.x = p.x + p.vx * (float)dt;
        p.y = p.y + p.vy * (float)dt;
        ps[i] = p;
    }
}
