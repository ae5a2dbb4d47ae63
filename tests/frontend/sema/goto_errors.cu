// RUN: --emit=cuda
// goto that the structured cuda level cannot express, and labels that do not exist.

__global__ void into_loop(int *out, int n) {
  int i = threadIdx.x;
  if (i > n) goto inside;
  for (int k = 0; k < n; ++k) {
  inside:
    out[k] = i;
  }
}

__global__ void no_label(int *out) {
  if (threadIdx.x == 0) goto nowhere;
  out[0] = 1;
}

// Jumping forward into the middle of a backward goto's loop: the wrappers would cross.
__global__ void crossing(int *out, int n) {
  int i = threadIdx.x;
  if (i > n) goto b;
a:
  i += 2;
b:
  if (i < 3 * n) goto a;
  out[i] = i;
}
