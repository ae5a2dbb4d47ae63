// cuprite's cuda.h: the CUDA driver API's types, for host code around kernels and for
// kernels that take driver API handles (a CUtexObject is a texture object, as a
// cudaTextureObject_t is). Host code is read, never compiled: the functions are declared
// only as far as host code needs them to parse.
#pragma once
#include <cuda_runtime.h>

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUarray_st *CUarray;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2 } CUresult;

// CUDA_VERSION is left undefined: code testing it takes its path for older toolkits, which
// does not use the built-ins cuprite lacks (__nv_atomic_load_n, ...).

CUresult cuInit(unsigned int flags);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetCount(int *count);
CUresult cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUresult cuMemAlloc(CUdeviceptr *dptr, unsigned long bytesize);
CUresult cuMemFree(CUdeviceptr dptr);
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, unsigned long bytes);
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, unsigned long bytes);
CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
                        unsigned int bz, unsigned int shared, CUstream stream, void **params, void **extra);
CUresult cuCtxSynchronize(void);
CUresult cuGetErrorString(CUresult error, const char **str);
