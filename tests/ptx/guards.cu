// What control flow and bit patterns prove, as the e-graph's facts see them: a guard
// bounds the index it tests, a counting loop's counter never goes below its start, and
// shifted-in constants fix low bits.

#define BUCKETS 16

// Buckets of a histogram-like pass: the guard makes `i` non-negative, so its divisions are
// unsigned ones; the loaded values may be negative and keep the signed forms.
__global__ void bucket(const int *in, int *out, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 0 && i < n) {
        out[i] = in[i] / 8 + in[i] % 3 + i / BUCKETS + i % 5 + k;
    }
}

// A row sum over a 4-wide tile layout; the counter starts at 0 and counts up.
__global__ void rows(const float *a, float *out, int n, int cols) {
    float acc = 0.0f;
    for (int r = 0; r < n; ++r) {
        acc += a[(r / 4) * cols + (r % 4)];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A packed tag: the low three bits are the constant 5.
__global__ void packed(unsigned *out, int n) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (unsigned)n) {
        unsigned v = (t << 3) | 5;
        out[t] = (v & 7) + ((v >> 3) & 0x3ff) + (v | 2) % 4 + (v >> 3) / 3;
    }
}

// A countdown with a signed step: `j` is only bounded by the guard of each trip.
__global__ void countdown(const int *in, int *out, int n) {
    int acc = 0;
    for (int j = n - 1; j >= 0; j -= 3) {
        acc += in[j] / 2 + j % 7;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
