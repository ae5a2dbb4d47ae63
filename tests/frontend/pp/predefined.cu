// RUN: -E --arch=sm_80 -DWIDTH=64 -DFLAG -UNOT_DEFINED -D__CUDACC_RTC__
// The predefined macros nvcc sets for device compilation, and -D/-U.
int arch = __CUDA_ARCH__;
int list = __CUDA_ARCH_LIST__;
int cudacc = __CUDACC__ + __NVCC__;
int version = __CUDACC_VER_MAJOR__ * 10 + __CUDACC_VER_MINOR__;
long cplusplus = __cplusplus;
int width = WIDTH;
int flag = FLAG;
#ifdef NOT_DEFINED
int wrong;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
int pre_hopper;
#endif
const char *file = __FILE__;
int counter[] = {__COUNTER__, __COUNTER__};
