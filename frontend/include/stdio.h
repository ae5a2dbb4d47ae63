// cuprite's stdio.h: device code may call printf; host I/O is not compiled.
#pragma once
#include <stddef.h>
// Host code's stdio (declarations only: host code is not compiled).
struct _IO_FILE;
typedef struct _IO_FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
// Device code's printf is the device runtime's vprintf (see sema's extern_calls).
__host__ __device__ int printf(const char *fmt, ...);
__host__ int fprintf(FILE *f, const char *fmt, ...);
__host__ int sprintf(char *s, const char *fmt, ...);
__host__ int snprintf(char *s, size_t n, const char *fmt, ...);
__host__ int fflush(FILE *f);
__host__ FILE *fopen(const char *path, const char *mode);
__host__ int fclose(FILE *f);
__host__ size_t fread(void *p, size_t size, size_t n, FILE *f);
__host__ size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
__host__ int puts(const char *s);
__host__ int scanf(const char *fmt, ...);
__host__ int sscanf(const char *s, const char *fmt, ...);
__host__ int fscanf(FILE *f, const char *fmt, ...);
__host__ void perror(const char *s);
