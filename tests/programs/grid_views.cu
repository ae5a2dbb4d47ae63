// A small stencil application in the style of real ones: views over device buffers as class
// templates (in a namespace), kernels templated on the element type and the tile size,
// taking the views by pointer and their scalars by const value, launched from host code.
// The kernels' names mangle template-ids written in terms of the template parameters
// (`grid::View<T, R>`, `Pair<Pair<T>>`), top-level const parameters and repeated templates.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t err_ = (call);                                                          \
    if (err_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

namespace grid {
template <typename T, int R>
struct View {
  T *data;
  int nx, ny;
  T halo[R];
};
}  // namespace grid

template <typename T>
struct Pair {
  T lo, hi;
};

template <typename T, int R>
__global__ void smooth(const grid::View<T, R> *in, grid::View<T, R> *out, const T weight, Pair<T> *range) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= R && y >= R && x < in->nx - R && y < in->ny - R) {
    T acc = 0;
    for (int d = -R; d <= R; ++d) acc += in->data[(y + d) * in->nx + x] + in->data[y * in->nx + x + d];
    T v = weight * acc;
    out->data[y * out->nx + x] = v < range->lo ? range->lo : (v > range->hi ? range->hi : v);
  }
}

template <typename T>
__global__ void bounds(const T *data, int n, Pair<Pair<T>> *stats, Pair<int> *where) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] < stats->lo.lo) where->lo = i;
  if (i < n && data[i] > stats->hi.hi) where->hi = i;
}

template <typename T, int R>
void run_smooth(int nx, int ny, T w) {
  grid::View<T, R> *in, *out;
  Pair<T> *range;
  CHECK(cudaMalloc(&in, sizeof(*in)));
  CHECK(cudaMalloc(&out, sizeof(*out)));
  CHECK(cudaMalloc(&range, sizeof(*range)));
  dim3 block(16, 16), blocks((nx + 15) / 16, (ny + 15) / 16);
  smooth<<<blocks, block>>>(in, out, w, range);
  CHECK(cudaGetLastError());
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(range));
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? atoi(argv[1]) : 512, ny = argc > 2 ? atoi(argv[2]) : 512;
  run_smooth<float, 1>(nx, ny, 0.25f);
  run_smooth<double, 2>(nx, ny, 0.125);
  float *d;
  Pair<Pair<float>> *stats;
  Pair<int> *where;
  CHECK(cudaMalloc(&d, nx * sizeof(float)));
  CHECK(cudaMalloc(&stats, sizeof(*stats)));
  CHECK(cudaMalloc(&where, sizeof(*where)));
  bounds<<<(nx + 255) / 256, 256>>>(d, nx, stats, where);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
