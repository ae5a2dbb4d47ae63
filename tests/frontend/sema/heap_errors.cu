// RUN: --emit=cuda
// new and delete used wrongly, and the forms cuprite does not take yet.
struct Counter {
  int n;
  __device__ Counter() : n(1) {}
};
struct Incomplete;

__global__ void heap_errors(float *out, int k) {
  float *a = new void;
  Counter *many = new Counter[k];
  float x = 1.0f;
  delete x;
  int *p = new (x) int(3);
  Incomplete *i = new Incomplete;
  float *b = new float[1.5f];
  out[0] = *a + (float)many->n + (float)*p + *b;
}
