// cuprite's <stdlib.h> / <cstdlib>: the C library's host functions and macros, and the
// glibc type names (`uint`, `ushort`, `ulong`, from <sys/types.h>) that it brings in and
// real code uses without thinking. Host functions are declarations only.
#ifndef __CUPRITE_HOST_STDLIB_H
#define __CUPRITE_HOST_STDLIB_H
#include <stddef.h>
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
// The device runtime's heap too (`cudaLimitMallocHeapSize`): device code calls them.
__host__ __device__ void *malloc(size_t n);
__host__ void *calloc(size_t n, size_t size);
__host__ void *realloc(void *p, size_t n);
__host__ __device__ void free(void *p);
__host__ void exit(int code);
__host__ void abort();
__host__ int atoi(const char *s);
__host__ long atol(const char *s);
__host__ double atof(const char *s);
__host__ long strtol(const char *s, char **end, int base);
__host__ unsigned long strtoul(const char *s, char **end, int base);
__host__ double strtod(const char *s, char **end);
__host__ float strtof(const char *s, char **end);
__host__ int rand();
__host__ void srand(unsigned seed);
__host__ char *getenv(const char *name);
__host__ int system(const char *cmd);
namespace std {
using ::atof;
using ::atoi;
using ::atol;
using ::calloc;
using ::exit;
using ::free;
using ::getenv;
using ::malloc;
using ::rand;
using ::realloc;
using ::srand;
using ::strtod;
using ::strtol;
} // namespace std
#endif // __CUPRITE_HOST_STDLIB_H
