// cuprite's time.h: the C library's time types (nvcc's runtime headers bring them into every
// file). `clock()` is the device clock (device_functions.h); the rest is host code's.
#pragma once
typedef long clock_t;
typedef long time_t;
#define CLOCKS_PER_SEC 1000000l
struct timespec {
  time_t tv_sec;
  long tv_nsec;
};
struct tm {
  int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};
__host__ time_t time(time_t *t);
__host__ double difftime(time_t a, time_t b);
__host__ int clock_gettime(int clk, struct timespec *ts);
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
