// RUN: -fsyntax-only
// A body left open at the end of the file: the error points at the end of this file,
// not at its first line, and names what was expected.
#define SCALE 2.0f
__global__ void k(float *p, int n) {
  int i = threadIdx.x;
  if (i < n) {
    p[i] *= SCALE;
  }
