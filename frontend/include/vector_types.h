// cuprite's vector_types.h: CUDA's built-in vector types (char1..double4, dim3) with the
// alignments nvcc gives them, and their make_<type> constructors.
#pragma once

#define __CUPRITE_VEC1(T, N) struct N##1 { T x; };
#define __CUPRITE_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; };
#define __CUPRITE_VEC3(T, N) struct N##3 { T x, y, z; };
#define __CUPRITE_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; };
#define __CUPRITE_VECS(T, N, A2, A4) __CUPRITE_VEC1(T, N) __CUPRITE_VEC2(T, N, A2) __CUPRITE_VEC3(T, N) __CUPRITE_VEC4(T, N, A4)

__CUPRITE_VECS(signed char, char, 2, 4)
__CUPRITE_VECS(unsigned char, uchar, 2, 4)
__CUPRITE_VECS(short, short, 4, 8)
__CUPRITE_VECS(unsigned short, ushort, 4, 8)
__CUPRITE_VECS(int, int, 8, 16)
__CUPRITE_VECS(unsigned int, uint, 8, 16)
__CUPRITE_VECS(long, long, 16, 16)
__CUPRITE_VECS(unsigned long, ulong, 16, 16)
__CUPRITE_VECS(long long, longlong, 16, 16)
__CUPRITE_VECS(unsigned long long, ulonglong, 16, 16)
__CUPRITE_VECS(float, float, 8, 16)
__CUPRITE_VECS(double, double, 16, 16)

struct dim3 { unsigned int x, y, z; };

#define __CUPRITE_MAKE1(T, N) static __device__ __forceinline__ N##1 make_##N##1(T x) { N##1 t; t.x = x; return t; }
#define __CUPRITE_MAKE2(T, N) static __device__ __forceinline__ N##2 make_##N##2(T x, T y) { N##2 t; t.x = x; t.y = y; return t; }
#define __CUPRITE_MAKE3(T, N) static __device__ __forceinline__ N##3 make_##N##3(T x, T y, T z) { N##3 t; t.x = x; t.y = y; t.z = z; return t; }
#define __CUPRITE_MAKE4(T, N) static __device__ __forceinline__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
#define __CUPRITE_MAKES(T, N) __CUPRITE_MAKE1(T, N) __CUPRITE_MAKE2(T, N) __CUPRITE_MAKE3(T, N) __CUPRITE_MAKE4(T, N)

__CUPRITE_MAKES(signed char, char)
__CUPRITE_MAKES(unsigned char, uchar)
__CUPRITE_MAKES(short, short)
__CUPRITE_MAKES(unsigned short, ushort)
__CUPRITE_MAKES(int, int)
__CUPRITE_MAKES(unsigned int, uint)
__CUPRITE_MAKES(long, long)
__CUPRITE_MAKES(unsigned long, ulong)
__CUPRITE_MAKES(long long, longlong)
__CUPRITE_MAKES(unsigned long long, ulonglong)
__CUPRITE_MAKES(float, float)
__CUPRITE_MAKES(double, double)
