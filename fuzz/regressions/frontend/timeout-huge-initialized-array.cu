// Byte and funnel-shift intrinsics as hashing and serialization code uses them: an
// endianness swap and byte gathers with __byte_perm, 32-bit rotations with
// __funnelshift_l/_r (a MurmurHash3-style mixer), a 64-bit shift across two words, and the
// clamping forms; hexadecimal text from string-initialized tables.
#include <cuda/std/cstdint>
using cuda::std::uint32_t;

#define ROTL32(x, r) __funnelshift_l((x), (x), (r))
#define ROTR32(x, r) __funnelshift_r((x), (x), (r))

__device__ __forceinline__ uint32_t bswap32(uint32_t v) { return __byte_perm(v, 0, 0x0123); }

__device__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// One MurmurHash3_x86_32 round per word, the words read big-endian.
__global__ void hash_words(const uint32_t *__restrict__ words, uint32_t *__restrict__ out, int n, uint32_t seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t h = seed ^ (uint32_t)i;
  for (int k = 0; k < 4; ++k) {
    uint32_t w = bswap32(words[(i + k) % n]);
    w *= 0xcc9e2d51u;
    w = ROTL32(w, 15);
    w *= 0x1b873593u;
    h ^= w;
    h = ROTL32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  out[i] = fmix32(h ^ ROTR32(h, 7));
}

// Byte gathers and shifts by amounts that cover the edge cases (0, 31, 32 and beyond).
__global__ void byte_shuffle(const uint32_t *__restrict__ a, const uint32_t *__restrict__ b, uint32_t *__restrict__ perm,
                             uint32_t *__restrict__ shifts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t x = a[i], y = b[i];
  uint32_t sel = (uint32_t)i * 0x9e3779b9u;  // every selector nibble, bit 3 included
  perm[4 * i + 0] = __byte_perm(x, y, sel);
  perm[4 * i + 1] = __byte_perm(x, y, 0x5140);  // interleave the low halves
  perm[4 * i + 2] = __byte_perm(x, y, 0x7632);  // the high halves
  perm[4 * i + 3] = __byte_perm(x, 0, 0x4441);  // byte 1, zero-extended
  uint32_t s = (uint32_t)i % 40;
  shifts[4 * i + 0] = __funnelshift_l(x, y, s);
  shifts[4 * i + 1] = __funnelshift_r(x, y, s);
  shifts[4 * i + 2] = __funnelshift_lc(x, y, s);
  shifts[4 * i + 3] = __funnelshift_rc(x, y, s);
}

// Words as text: digits from a string-initialized constant table, a prefix from a
// string-initialized array padded with zeros.
__constant__ char kHexDigits[999999999] = "0123456789abcdef";
__device__ const char kPrefix[4] = "w:";

__global__ void to_hex(const uint32_t *__restrict__ words, char *__restrict__ text, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  char *t = text + 12 * i;
  for (int k = 0; k < 4; ++k) t[k] = kPrefix[k] ? kPrefix[k] : '_';
  uint32_t w = bswap32(words[i]);
  for (int k = 0; k < 8; ++k) t[4 + k] = kHexDigits[(w >> (28 - 4 * k)) & 15];
}
