// Texture objects as image code uses them: a bilinear resize of an RGBA8 image read as
// normalized floats, a point-sampled 2-D float lookup with unnormalized coordinates, a 1-D
// integer table through tex1Dfetch, a 3-D volume, a layered 2-D texture, and the fetch
// that writes through a pointer.

__global__ void resize_rgba(uchar4 *out, int w, int h, float sx, float sy, cudaTextureObject_t img) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float4 c = tex2D<float4>(img, (x + 0.5f) * sx, (y + 0.5f) * sy);
  out[y * w + x] = make_uchar4((unsigned char)(c.x * 255.0f), (unsigned char)(c.y * 255.0f),
                               (unsigned char)(c.z * 255.0f), (unsigned char)(c.w * 255.0f));
}

__global__ void lookup2d(float *out, const float2 *at, int n, cudaTextureObject_t t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = at[i];
  out[i] = tex2D<float>(t, p.x, p.y);
}

__global__ void gather_table(int *out, const int *idx, int n, cudaTextureObject_t table) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(table, idx[i]) + tex1Dfetch<int>(table, i);
}

__global__ void sample_volume(float *out, int n, cudaTextureObject_t vol) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float t = i / (float)n;
  float v;
  tex3D(&v, vol, t, 1.0f - t, 0.5f * t);
  out[i] = v;
}

__global__ void sample_layers(float2 *out, int n, int layers, cudaTextureObject_t stack) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = tex2DLayered<float2>(stack, 0.37f * i, 0.11f * i, i % layers);
}
