// The CUDA twin of saxpy_gpu.mlir: the same arithmetic in the same order, so cuprite's
// PTX for the two agrees bit for bit (compiled with -fmad=false: the MLIR kernel's
// multiply and add carry no contraction flag).
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
