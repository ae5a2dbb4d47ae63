// cuprite's assert.h: device-side assert.
#pragma once
// The device runtime's __assertfail, called with the failed expression, file, line and
// function (see sema's extern_calls).
__host__ __device__ void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func);
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, ""))
#endif
