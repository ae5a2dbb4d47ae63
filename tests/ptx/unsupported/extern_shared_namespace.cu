// Dynamic shared memory declared once at namespace scope, for several kernels to use, as
// some programs do: cuprite says so instead of emitting PTX that names an undeclared symbol.
typedef int data;
__shared__ extern data sdata[];

__global__ void row_min(const data *m, data *out, int n) {
    sdata[threadIdx.x] = threadIdx.x < n ? m[threadIdx.x] : 0x7fffffff;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}
