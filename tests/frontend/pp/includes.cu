// RUN: -E -I frontend/pp/sys
// Quoted includes relative to the file, -I directories, include guards, #pragma once,
// cuprite's built-in headers and their macros, and an unknown system header (a warning).
#include "include/guarded.h"
#include "include/guarded.h"
#include "include/once.h"
#include "include/once.h"
#include <vendor.h>
#include <limits.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <vector>
#define HEADER <limits.h>
#include HEADER
int v = VENDOR_VALUE;
int limits[] = {INT_MAX, INT_MIN, CHAR_BIT};
float eps = FLT_EPSILON, big = FLT_MAX;
double pi = M_PI;
unsigned long long u = UINT64_MAX;
