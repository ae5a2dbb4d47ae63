// Structs and arrays by value: vector loads and stores, make_<vector>, device functions
// taking and returning structs (calls at -O0, where a struct result comes back through a
// caller's temporary; inlined at -O3), struct assignment, a conditional of structs, a struct
// with an array member; and cuda_fp16.h's half and half2.
#include <cuda_fp16.h>

struct Body {
  float3 pos;
  float mass;
  int tag[2];
};

__device__ float3 add3(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 scale3(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }

__device__ Body drift(Body b, float3 v, float dt) {
  b.pos = add3(b.pos, scale3(v, dt));
  b.tag[1] = b.tag[0] + 1;
  return b;
}

__global__ void bodies(Body *out, const Body *in, const float4 *vel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 v4 = vel[i];
  float3 v = make_float3(v4.x, v4.y, v4.z);
  Body b = in[i];
  Body c = v4.w > 0.0f ? drift(b, v, dt) : b;
  c.mass = b.mass * v4.w;
  out[i] = c;
}

__global__ void swizzle(float4 *out, const float4 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 a = in[i];
  float4 b = in[(i + 1) % n];
  float4 r = make_float4(a.y + b.x, a.z - b.w, a.w * b.y, a.x);
  out[i] = r;
}

// half: arithmetic, comparisons, fma and the functions done in f32.
__global__ void half_ops(float *out, const float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half a = __float2half(x[i]);
  half b = __float2half(y[i]);
  half s = a + b;
  half p = __hmul(a, b);
  half q = __hdiv(s, __hadd(b, __float2half(3.0f)));
  half f = __hfma(a, b, s);
  half m = __hlt(a, b) ? __hneg(a) : __habs(b);
  half r = hsqrt(__habs(s)) + hfloor(p * __float2half(10.0f));
  out[4 * i] = __half2float(q);
  out[4 * i + 1] = __half2float(f) + __half2float(m);
  out[4 * i + 2] = __half2float(r) + (float)__half2int_rn(a * __float2half(100.0f));
  out[4 * i + 3] = __half2float(__hmax(a, b) - __hmin(a, b));
}

// half2: pairs, their operators and a shuffle of a pair.
__global__ void half2_ops(float2 *out, const float2 *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half2 a = __float22half2_rn(x[i]);
  half2 b = __halves2half2(__high2half(a), __float2half(0.5f));
  half2 c = __hfma2(a, b, __float2half2_rn(1.0f));
  c += a;
  c *= b;
  half2 d = __shfl_xor_sync(0xffffffffu, c, 1);
  out[i] = __half22float2(__h2div(d - a, __hadd2(b, __float2half2_rn(2.0f))));
}

// Unions: every member at offset 0 (type punning through a union, as CUDA code does to
// get a float's bits), a union with members of different sizes and alignments, and a
// union copied by value.
union Bits {
  float f;
  unsigned int u;
};
union Wide {
  double d;
  unsigned short h[5];
  char c;
};
__global__ void unions(unsigned int *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Bits b;
  b.f = in[i];
  Bits copy = b;
  Wide w;
  w.d = (double)in[i];
  w.h[4] = (unsigned short)i;
  Wide wc = w;
  out[4 * i] = b.u;
  out[4 * i + 1] = copy.u ^ 0x80000000u;
  out[4 * i + 2] = (unsigned int)wc.h[3] << 16 | wc.h[4];
  out[4 * i + 3] = sizeof(Wide) * 100 + alignof(Wide) * 10 + (unsigned char)wc.c;
}

// Half atomics (atom.add.noftz.f16; a half2's halves one by one): small integer values, so
// that the sums are exact whatever the order of the additions.
__global__ void half_atomics(__half *bins, __half2 *pairs, const int *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = keys[i];
    atomicAdd(&bins[k & 7], __int2half_rn(1 + (k & 3)));
    atomicAdd(&pairs[k & 3], __halves2half2(__int2half_rn(1), __int2half_rn(k & 1)));
  }
}
