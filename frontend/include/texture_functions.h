// Texture objects: the host API that creates them (declarations only, as cuda_host.h) and
// the device fetch functions. A fetch is one `cuda.tex` op (PTX `tex.<geometry>.v4`) by
// way of the built-in __cuprite_tex_<geometry>_<f|s|u>, which returns the four channels as
// float4, int4 or uint4; the templates convert them to the type asked for, as CUDA's
// headers do. Legacy texture references (texture<T, dim, mode>, removed in CUDA 12, which
// nvcc 13 rejects too) are not declared.
#pragma once

enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

struct cudaChannelFormatDesc { int x, y, z, w; cudaChannelFormatKind f; };
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
struct cudaMipmappedArray;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
  cudaArray_t srcArray; cudaPos srcPos; cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; cudaPos dstPos; cudaPitchedPtr dstPtr;
  cudaExtent extent; cudaMemcpyKind kind;
};
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; } pitch2D;
  } res;
};
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
struct cudaResourceViewDesc;

__host__ cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f);
template <class T> __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void);
__host__ cudaError_t cudaMallocArray(cudaArray_t *a, const cudaChannelFormatDesc *d, size_t width, size_t height = 0, unsigned flags = 0);
__host__ cudaError_t cudaMalloc3DArray(cudaArray_t *a, const cudaChannelFormatDesc *d, cudaExtent e, unsigned flags = 0);
__host__ cudaError_t cudaFreeArray(cudaArray_t a);
__host__ cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p);
__host__ cudaExtent make_cudaExtent(size_t w, size_t h, size_t d);
__host__ cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz);
__host__ cudaPos make_cudaPos(size_t x, size_t y, size_t z);
__host__ cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t, const cudaResourceDesc *r, const cudaTextureDesc *d, const cudaResourceViewDesc *v);
__host__ cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t);
__host__ cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *s, const cudaResourceDesc *r);
__host__ cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t s);

// The fetches: each returns the four channels of the texel (filtered, in the read mode).
#define __CUPRITE_TEX_GEOMS(K, R)                                                                                         \
  __device__ R __cuprite_tex_1dfetch_##K(cudaTextureObject_t t, int x);                                                \
  __device__ R __cuprite_tex_1d_##K(cudaTextureObject_t t, float x);                                                   \
  __device__ R __cuprite_tex_2d_##K(cudaTextureObject_t t, float x, float y);                                          \
  __device__ R __cuprite_tex_3d_##K(cudaTextureObject_t t, float x, float y, float z);                                 \
  __device__ R __cuprite_tex_a1d_##K(cudaTextureObject_t t, int layer, float x);                                       \
  __device__ R __cuprite_tex_a2d_##K(cudaTextureObject_t t, int layer, float x, float y);                              \
  __device__ R __cuprite_tex_cube_##K(cudaTextureObject_t t, float x, float y, float z);                               \
  __device__ R __cuprite_tex_level_1d_##K(cudaTextureObject_t t, float x, float level);                                \
  __device__ R __cuprite_tex_level_2d_##K(cudaTextureObject_t t, float x, float y, float level);                       \
  __device__ R __cuprite_tex_level_3d_##K(cudaTextureObject_t t, float x, float y, float z, float level);
__CUPRITE_TEX_GEOMS(f, float4)
__CUPRITE_TEX_GEOMS(s, int4)
__CUPRITE_TEX_GEOMS(u, uint4)

// One overload per result type: the channels it has, converted.
#define __CUPRITE_TEX_SET1(T) r->x = (T)v.x;
#define __CUPRITE_TEX_SET2(T) r->x = (T)v.x; r->y = (T)v.y;
#define __CUPRITE_TEX_SET4(T) r->x = (T)v.x; r->y = (T)v.y; r->z = (T)v.z; r->w = (T)v.w;
#define __CUPRITE_UNPAREN(...) __VA_ARGS__
#define __CUPRITE_TEX_ONE(G, PARAMS, ARGS, T, K, SET)                                                                     \
  static __device__ __forceinline__ void __cuprite_tex_##G(T *r, cudaTextureObject_t t, __CUPRITE_UNPAREN PARAMS) {     \
    auto v = __cuprite_tex_##G##_##K(t, __CUPRITE_UNPAREN ARGS); SET }
#define __CUPRITE_TEX_TYPES(G, PARAMS, ARGS)                                                                              \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, char, s, *r = (char)v.x;)                                                           \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, signed char, s, *r = (signed char)v.x;)                                             \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, unsigned char, u, *r = (unsigned char)v.x;)                                         \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, short, s, *r = (short)v.x;)                                                         \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, unsigned short, u, *r = (unsigned short)v.x;)                                       \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, int, s, *r = v.x;)                                                                  \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, unsigned int, u, *r = v.x;)                                                         \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, float, f, *r = v.x;)                                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, char1, s, __CUPRITE_TEX_SET1(signed char))                                           \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, char2, s, __CUPRITE_TEX_SET2(signed char))                                           \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, char4, s, __CUPRITE_TEX_SET4(signed char))                                           \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uchar1, u, __CUPRITE_TEX_SET1(unsigned char))                                        \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uchar2, u, __CUPRITE_TEX_SET2(unsigned char))                                        \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uchar4, u, __CUPRITE_TEX_SET4(unsigned char))                                        \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, short1, s, __CUPRITE_TEX_SET1(short))                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, short2, s, __CUPRITE_TEX_SET2(short))                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, short4, s, __CUPRITE_TEX_SET4(short))                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, ushort1, u, __CUPRITE_TEX_SET1(unsigned short))                                      \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, ushort2, u, __CUPRITE_TEX_SET2(unsigned short))                                      \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, ushort4, u, __CUPRITE_TEX_SET4(unsigned short))                                      \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, int1, s, __CUPRITE_TEX_SET1(int))                                                    \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, int2, s, __CUPRITE_TEX_SET2(int))                                                    \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, int4, s, __CUPRITE_TEX_SET4(int))                                                    \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uint1, u, __CUPRITE_TEX_SET1(unsigned int))                                          \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uint2, u, __CUPRITE_TEX_SET2(unsigned int))                                          \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, uint4, u, __CUPRITE_TEX_SET4(unsigned int))                                          \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, float1, f, __CUPRITE_TEX_SET1(float))                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, float2, f, __CUPRITE_TEX_SET2(float))                                                \
  __CUPRITE_TEX_ONE(G, PARAMS, ARGS, float4, f, __CUPRITE_TEX_SET4(float))
__CUPRITE_TEX_TYPES(1dfetch, (int x), (x))
__CUPRITE_TEX_TYPES(1d, (float x), (x))
__CUPRITE_TEX_TYPES(2d, (float x , float y), (x , y))
__CUPRITE_TEX_TYPES(3d, (float x , float y , float z), (x , y , z))
__CUPRITE_TEX_TYPES(a1d, (int l , float x), (l , x))
__CUPRITE_TEX_TYPES(a2d, (int l , float x , float y), (l , x , y))
__CUPRITE_TEX_TYPES(cube, (float x , float y , float z), (x , y , z))
__CUPRITE_TEX_TYPES(level_1d, (float x , float v), (x , v))
__CUPRITE_TEX_TYPES(level_2d, (float x , float y , float v), (x , y , v))
__CUPRITE_TEX_TYPES(level_3d, (float x , float y , float z , float v), (x , y , z , v))

template <class T> static __device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t t, int x) { T r; __cuprite_tex_1dfetch(&r, t, x); return r; }
template <class T> static __device__ __forceinline__ T tex1D(cudaTextureObject_t t, float x) { T r; __cuprite_tex_1d(&r, t, x); return r; }
template <class T> static __device__ __forceinline__ T tex2D(cudaTextureObject_t t, float x, float y) { T r; __cuprite_tex_2d(&r, t, x, y); return r; }
template <class T> static __device__ __forceinline__ T tex3D(cudaTextureObject_t t, float x, float y, float z) { T r; __cuprite_tex_3d(&r, t, x, y, z); return r; }
template <class T> static __device__ __forceinline__ T tex1DLayered(cudaTextureObject_t t, float x, int layer) { T r; __cuprite_tex_a1d(&r, t, layer, x); return r; }
template <class T> static __device__ __forceinline__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) { T r; __cuprite_tex_a2d(&r, t, layer, x, y); return r; }
template <class T> static __device__ __forceinline__ T texCubemap(cudaTextureObject_t t, float x, float y, float z) { T r; __cuprite_tex_cube(&r, t, x, y, z); return r; }
template <class T> static __device__ __forceinline__ T tex1DLod(cudaTextureObject_t t, float x, float level) { T r; __cuprite_tex_level_1d(&r, t, x, level); return r; }
template <class T> static __device__ __forceinline__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level) { T r; __cuprite_tex_level_2d(&r, t, x, y, level); return r; }
template <class T> static __device__ __forceinline__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) { T r; __cuprite_tex_level_3d(&r, t, x, y, z, level); return r; }
// The forms that write through a pointer.
template <class T> static __device__ __forceinline__ void tex1Dfetch(T *r, cudaTextureObject_t t, int x) { __cuprite_tex_1dfetch(r, t, x); }
template <class T> static __device__ __forceinline__ void tex1D(T *r, cudaTextureObject_t t, float x) { __cuprite_tex_1d(r, t, x); }
template <class T> static __device__ __forceinline__ void tex2D(T *r, cudaTextureObject_t t, float x, float y) { __cuprite_tex_2d(r, t, x, y); }
template <class T> static __device__ __forceinline__ void tex3D(T *r, cudaTextureObject_t t, float x, float y, float z) { __cuprite_tex_3d(r, t, x, y, z); }
