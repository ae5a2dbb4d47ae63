// The CUDA source of tests/ir/passes/load_forward.mlir: the nvvm IR the -O3 pipeline has
// just before load-forward (`cuprite compile load_forward.cu --emit=nvvm
// --print-ir-before=load-forward`), one kernel per case.
#include <cuda_runtime.h>

struct Ring {
    int items[4];
    int head;
    __device__ Ring() : head(0) {
        for (int i = 0; i < 4; ++i) items[i] = 0;
    }
    __device__ void push(int v) {
        items[head] = v;
        head = (head + 1) % 4;
    }
    __device__ int sum() const {
        int s = 0;
        for (int i = 0; i < 4; ++i) s += items[i];
        return s;
    }
};

// Forwarded: every index becomes a constant along the unrolled chain.
__global__ void ring(const int *in, int *out) {
    Ring r;
    for (int k = 0; k < 6; ++k) r.push(in[threadIdx.x] + k);
    out[threadIdx.x] = r.sum();
}

__device__ __noinline__ void fill(int *p, int v) { p[1] = v; }

// Kept: the array's address escapes into a call.
__global__ void escapes(int *out) {
    int a[2];
    a[0] = 1;
    fill(a, (int)threadIdx.x);
    a[0] += 1;
    out[threadIdx.x] = a[0] + a[1];
}

// Kept: a store at an index only known at run time may overwrite what was stored.
__global__ void dynamic_index(int *out, int k) {
    int a[4];
    a[0] = 7;
    a[k & 3] = (int)threadIdx.x;
    out[threadIdx.x] = a[0] + a[k & 3];
}

// Kept: volatile memory is read every time.
__global__ void volatiles(int *out) {
    volatile int v[2];
    v[0] = (int)threadIdx.x;
    out[threadIdx.x] = v[0] + v[0];
}
