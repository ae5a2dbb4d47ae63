// cuprite's declarations of the CUDA runtime API's host side: the types and functions that
// host code around kernels uses (memory, copies, events, streams, device properties,
// launches, occupancy). cuprite reads host code for the kernels it launches and names; it
// never compiles it, so these are declarations only, and device code cannot call them.
#pragma once

enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 4, cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevice = 101, cudaErrorNotReady = 600
};
typedef cudaError cudaError_t;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
// Graphics interop (OpenGL, Direct3D, EGL): opaque handles host code passes around.
struct cudaGraphicsResource;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
// A conditional node of a CUDA graph: kernels set its value for the next launch of the
// graph (cudaGraphSetConditional, the device runtime's, see sema's extern_calls).
typedef unsigned long long cudaGraphConditionalHandle;
enum cudaGraphConditionalNodeType { cudaGraphCondTypeIf = 0, cudaGraphCondTypeWhile = 1, cudaGraphCondTypeSwitch = 2 };
#define cudaGraphCondAssignDefault 1
__device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76 };
#define cudaHostAllocDefault 0
#define cudaHostAllocMapped 2
#define cudaMemAttachGlobal 1
#define cudaStreamNonBlocking 1
#define cudaEventDefault 0
#define cudaEventBlockingSync 1
#define cudaEventDisableTiming 2

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory;
  int computeMode, concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, asyncEngineCount;
  int unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize;
  int maxThreadsPerMultiProcessor, sharedMemPerMultiprocessor, regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int managedMemory, cooperativeLaunch;
};

__host__ cudaError_t cudaMalloc(void **p, size_t bytes);
template <class T> __host__ cudaError_t cudaMalloc(T **p, size_t bytes);
__host__ cudaError_t cudaMallocManaged(void **p, size_t bytes, unsigned flags = 1);
template <class T> __host__ cudaError_t cudaMallocManaged(T **p, size_t bytes, unsigned flags = 1);
__host__ cudaError_t cudaMallocHost(void **p, size_t bytes);
template <class T> __host__ cudaError_t cudaMallocHost(T **p, size_t bytes);
__host__ cudaError_t cudaHostAlloc(void **p, size_t bytes, unsigned flags);
__host__ cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
__host__ cudaError_t cudaFree(void *p);
__host__ cudaError_t cudaFreeHost(void *p);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s = 0);
__host__ cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *p, int value, size_t bytes);
__host__ cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t s = 0);
template <class T> __host__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t bytes, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t bytes, size_t offset = 0, cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> __host__ cudaError_t cudaGetSymbolAddress(void **p, const T &symbol);
__host__ cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__host__ cudaError_t cudaDeviceSynchronize();
__host__ cudaError_t cudaDeviceReset();
__host__ cudaError_t cudaThreadSynchronize();
__host__ cudaError_t cudaGetLastError();
__host__ cudaError_t cudaPeekAtLastError();
__host__ const char *cudaGetErrorString(cudaError_t e);
__host__ const char *cudaGetErrorName(cudaError_t e);
__host__ cudaError_t cudaSetDevice(int d);
__host__ cudaError_t cudaGetDevice(int *d);
__host__ cudaError_t cudaGetDeviceCount(int *n);
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d);
__host__ cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d);
__host__ cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache c);
__host__ cudaError_t cudaEventCreate(cudaEvent_t *e);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
__host__ cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t e);
__host__ cudaError_t cudaEventQuery(cudaEvent_t e);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t e);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *s);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t s);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t s);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0);
__host__ cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared = 0, cudaStream_t s = 0);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shared = 0, cudaStream_t s = 0);
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T *f, cudaFuncAttribute a, int v);
template <class T> __host__ cudaError_t cudaFuncSetCacheConfig(T *f, cudaFuncCache c);
template <class T> __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, T f, size_t shared = 0, int limit = 0);
template <class T> __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T f, int block, size_t shared);
