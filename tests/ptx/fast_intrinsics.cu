// CUDA's fast intrinsics, as signal code writes them: oscillators with __sinf/__cosf,
// 24-bit index arithmetic with __mul24/__umul24, and a sanity check that traps on a
// corrupted header (never taken here).
#define TWO_PI 6.2831853f

struct Header {
  int magic;
  int length;
};

__global__ void oscillators(const Header *hdr, const float *freq, const float *phase, float2 *out, int samples) {
  if (hdr->magic != 0x5157) __trap();
  int osc = blockIdx.y;
  int t = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  if (t >= samples || t >= hdr->length) return;
  float w = TWO_PI * freq[osc] * (float)t / (float)samples + phase[osc];
  float2 v;
  v.x = __cosf(w);
  v.y = __sinf(w);
  out[__umul24(osc, samples) + t] = v;
}
