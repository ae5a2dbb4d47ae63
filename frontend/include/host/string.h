// cuprite's <string.h> / <cstring>: the C library's string and memory functions, as host
// code calls them. Declarations only.
#ifndef __CUPRITE_HOST_STRING_H
#define __CUPRITE_HOST_STRING_H
#include <stddef.h>
__host__ void *memcpy(void *dst, const void *src, size_t n);
__host__ void *memmove(void *dst, const void *src, size_t n);
__host__ void *memset(void *p, int v, size_t n);
__host__ int memcmp(const void *a, const void *b, size_t n);
__host__ size_t strlen(const char *s);
__host__ int strcmp(const char *a, const char *b);
__host__ int strncmp(const char *a, const char *b, size_t n);
__host__ char *strcpy(char *dst, const char *src);
__host__ char *strncpy(char *dst, const char *src, size_t n);
__host__ char *strcat(char *dst, const char *src);
__host__ char *strchr(const char *s, int c);
__host__ char *strstr(const char *s, const char *t);
__host__ char *strdup(const char *s);
namespace std {
using ::memcmp;
using ::memcpy;
using ::memmove;
using ::memset;
using ::strcmp;
using ::strcpy;
using ::strlen;
using ::strncmp;
} // namespace std
#endif // __CUPRITE_HOST_STRING_H
