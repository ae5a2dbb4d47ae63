//! `gen-cu --lines N`: a deterministic CUDA file of about N lines of device code for the
//! frontend throughput benchmark: kernels and device functions with macros, loops with
//! `#pragma unroll`, shared memory, structs, templates and math calls, plus a host `main`
//! (whose body the frontend skips).
use std::fmt::Write;

fn main() {
    let mut lines = 100_000usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--lines" => lines = args.next().and_then(|v| v.parse().ok()).unwrap_or(lines),
            _ => {
                eprintln!("usage: gen-cu [--lines N]");
                std::process::exit(2);
            }
        }
    }
    let mut s = String::new();
    s.push_str("#include <math.h>\n#include <stdint.h>\n#define IDX(i, j, n) ((i) * (n) + (j))\n");
    s.push_str("#define CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : ((x) > (hi) ? (hi) : (x)))\n#define TILE 128\n");
    s.push_str("struct Pair { float a; float b; __device__ float sum() const { return a + b; } };\n");
    s.push_str("template <typename T, int N>\n__device__ T dot(const T *x, const T *y) {\n  T acc = T(0);\n#pragma unroll\n  for (int i = 0; i < N; ++i) acc += x[i] * y[i];\n  return acc;\n}\n");
    let mut k = 0usize;
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut rnd = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    while s.lines().count() < lines {
        k += 1;
        let unroll = 1 << rnd(4);
        let _ = write!(
            s,
            "__global__ void __launch_bounds__(TILE) kernel_{k}(float *out, const float *in, const Pair *p, int n) {{\n\
             \x20 __shared__ float tile[TILE];\n\
             \x20 int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             \x20 if (i >= n) return;\n\
             \x20 tile[threadIdx.x] = in[i];\n\
             \x20 __syncthreads();\n\
             \x20 float acc = 0.0f;\n\
             #pragma unroll {unroll}\n\
             \x20 for (int j = 0; j < {}; ++j) {{\n\
             \x20   acc += tile[(threadIdx.x + j) % TILE] * 0.5f + sqrtf((float)j) + p[j].sum();\n\
             \x20 }}\n\
             \x20 uint32_t bits = (uint32_t)IDX(i, {}, n) ^ 0x9e3779b9u;\n\
             \x20 out[i] = CLAMP(acc, -1.0f, 1.0f) * (float)M_PI + dot<float, 4>(in, in) + (float)(bits & 7u);\n\
             }}\n",
            4 + rnd(60),
            rnd(16)
        );
    }
    s.push_str("int main() {\n  float *x = 0;\n  kernel_1<<<1, 128>>>(x, x, 0, 0);\n  return 0;\n}\n");
    print!("{s}");
}
