// RUN: -E
// This file starts with a UTF-8 byte order mark (as some editors save files): it is not
// text, and the directives and tokens after it read as without it.
#ifdef __CUDACC__
#define SCALE 2.0f
#endif
__global__ void scale(float *x) { x[threadIdx.x] *= SCALE; }
