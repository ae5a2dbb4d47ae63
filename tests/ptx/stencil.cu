// Stencils: neighbours through a shared-memory tile with halo cells.
#define RADIUS 3
#define BLOCK 256

__constant__ float weights[2 * RADIUS + 1];

__global__ void stencil_1d(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    tile[l - RADIUS] = left >= 0 ? in[left] : 0.0f;
    tile[l + BLOCK] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g >= n) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k) acc += weights[k + RADIUS] * tile[l + k];
  out[g] = acc;
}

// One Jacobi sweep of the 2D Laplace equation; the border is copied.
__global__ void jacobi_2d(const float *u, float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    v[i] = u[i];
    return;
  }
  v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx]);
}

// A 7-point 3D stencil walking z in registers (the previous, current and next plane).
__global__ void stencil_3d(const double *in, double *out, int nx, int ny, int nz, double c0, double c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  long plane = (long)nx * ny;
  long i = (long)y * nx + x;
  double below = in[i], here = in[i + plane];
  for (int z = 1; z < nz - 1; ++z) {
    double above = in[i + (z + 1) * plane];
    long c = i + z * plane;
    out[c] = c0 * here + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + below + above);
    below = here;
    here = above;
  }
}
