// RUN: --emit=cuda
// Members of anonymous unions and structs are found as the enclosing class's: in member
// access and in designated initializers (a C++20 form nvcc's default C++17 rejects), where
// the anonymous member is zeroed, then the named member of it initialized.
// tests/run_cli.rs runs `designated` at every level.
struct Packet {
  union {
    float4 v;
    struct {
      float lo, mid, hi, top;
    };
  };
  union {
    int i;
    float f;
  } bits;
  int c;
};

__global__ void designated(float *out) {
  unsigned t = threadIdx.x;
  Packet d = {.lo = 1.5f + t, .bits = {7}};
  out[4 * t] = d.lo;
  out[4 * t + 1] = d.mid + d.top + d.v.y;
  out[4 * t + 2] = (float)d.bits.i;
  out[4 * t + 3] = (float)d.c;
}
