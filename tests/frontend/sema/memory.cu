// RUN: --emit=cuda
// Memory: static and dynamic __shared__ arrays, __constant__ and __device__ globals,
// structs by value and by pointer, vector types with make_float4, pointer punning,
// per-thread arrays with initializers, volatile, references, __restrict__.
struct Particle {
  float3 pos;
  float mass;
  int id;
};

__constant__ float weights[4] = {0.25f, 0.5f, 0.75f, 1.0f};
__device__ unsigned int counter;

__device__ void nudge(Particle &p, float dx) { p.pos.x += dx; }

__global__ void particles(Particle *ps, float4 *__restrict__ out, const float *__restrict__ raw, int n) {
  __shared__ float tile[2][32];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  Particle p = ps[t];
  nudge(p, weights[t & 3]);
  ps[t] = p;
  tile[t / 32][t % 32] = p.mass;
  dyn[t] = ps[t].pos.y;
  float local[4] = {1.0f, 2.0f};
  volatile int flag = 1;
  float4 v = make_float4(local[0], local[1], tile[0][t % 32], dyn[t]);
  const float4 *vp = (const float4 *)raw;
  float4 w = vp[t];
  out[t] = make_float4(v.x + w.x, v.y * w.y, v.z, (float)flag);
  counter = counter + 1;
}
