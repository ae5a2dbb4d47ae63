// An iterative smoother driven by a CUDA graph: a conditional WHILE node relaunches the
// step kernel until the kernel says the residual is small enough
// (cudaGraphSetConditional, a call into the device runtime). The host-side helpers
// are __host__ __device__, as shared numeric code often is, and one of them calls a
// routine only the host links in: no kernel uses it, so the device never compiles it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                      \
  do {                                                                        \
    cudaError_t err_ = (expr);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(err_)); \
      std::exit(EXIT_FAILURE);                                                \
    }                                                                         \
  } while (0)

extern "C" __host__ __device__ double host_reference_norm(const float *v, int n);

__host__ __device__ inline float relax(float left, float mid, float right, float w) {
  return (1.0f - w) * mid + w * 0.5f * (left + right);
}

// Only main() calls it: the device never needs host_reference_norm.
__host__ __device__ double report_norm(const float *v, int n) { return host_reference_norm(v, n); }

struct SolverState {
  float *cur;
  float *next;
  unsigned int *changed;  // elements that moved more than tol in this step
  int n;
  float tol;
};

__global__ void smooth_step(SolverState s, cudaGraphConditionalHandle keep_going) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) {
    float left = i > 0 ? s.cur[i - 1] : s.cur[i];
    float right = i + 1 < s.n ? s.cur[i + 1] : s.cur[i];
    float v = relax(left, s.cur[i], right, 0.8f);
    s.next[i] = v;
    if (fabsf(v - s.cur[i]) > s.tol) atomicAdd(s.changed, 1u);
  }
  __syncthreads();
  // One thread decides for the graph; the value matters only for the graph's next step.
  if (i == 0) cudaGraphSetConditional(keep_going, *s.changed > 0 ? 1u : 0u);
}

__global__ void swap_and_reset(SolverState s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) s.cur[i] = s.next[i];
  if (i == 0) *s.changed = 0;
}

int main() {
  const int n = 1 << 12;
  SolverState s;
  s.n = n;
  s.tol = 1e-4f;
  CUDA_CHECK(cudaMalloc(&s.cur, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&s.next, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&s.changed, sizeof(unsigned int)));

  cudaGraph_t graph;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cond = {cudaGraphNodeTypeConditional};
  cond.conditional.handle = handle;
  cond.conditional.type = cudaGraphCondTypeWhile;
  cond.conditional.size = 1;
  cudaGraphNode_t node;
  CUDA_CHECK(cudaGraphAddNode(&node, graph, NULL, NULL, 0, &cond));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  CUDA_CHECK(cudaStreamBeginCaptureToGraph(stream, cond.conditional.phGraph_out[0], NULL, NULL, 0,
                                           cudaStreamCaptureModeRelaxed));
  smooth_step<<<(n + 255) / 256, 256, 0, stream>>>(s, handle);
  swap_and_reset<<<(n + 255) / 256, 256, 0, stream>>>(s);
  CUDA_CHECK(cudaStreamEndCapture(stream, NULL));

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));

  float *h = (float *)std::malloc(n * sizeof(float));
  CUDA_CHECK(cudaMemcpy(h, s.cur, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("norm %f\n", report_norm(h, n));
  std::free(h);
  return 0;
}
