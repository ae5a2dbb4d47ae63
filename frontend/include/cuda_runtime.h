// cuprite's cuda_runtime.h: what device code takes from the CUDA runtime header. nvcc
// includes it in every .cu file; so does cuprite: the CUDA keywords, the vector types,
// the thread-index builtins, synchronization, atomics, warp operations, intrinsics and the
// math library.
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __inline__ inline
// A const kernel parameter read in place (its address may be taken): a const parameter.
#define __grid_constant__ __attribute__((grid_constant))

#include <stddef.h>
#include <vector_types.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <math.h>
#include <cuda_host.h>
#include <texture_functions.h>
// What nvcc's runtime headers (crt/common_functions.h) bring into every file: real code
// uses printf, malloc, memcpy, assert, clock_t, the fixed-width integers and the integer
// limits (INT_MAX, from <limits.h>, which nvcc's math headers include) unincluded.
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <assert.h>
