//! Accuracy of cuprite's device math library (`frontend/libm/`).
//!
//! Each function is compiled by cuprite into a kernel `y[i] = f(x[i])` (or `f(x[i], x2[i])`),
//! lowered to PTX and run on the simulator at the `ptx` level (bit-exact: the library uses
//! only correctly rounded instructions). The reference is MPFR (through `rug`) at 256 bits,
//! rounded to nearest for the special-value checks. The error of a result is
//! `|result - exact| / ulp(exact)`, with the ulp of the format at the exact value
//! (subnormal spacing below the normal range); a result that should be NaN, an infinity or
//! a zero must be that exactly (NaN any payload, zero with the right sign).
//!
//! Inputs ([`inputs_f32`]): the special values and thresholds, then random bit patterns
//! (every exponent equally likely) and random values in the function's interesting range.

use rug::{float::Round, ops::Pow, Float};

/// Bits of the reference.
pub const PREC: u32 = 256;

/// One function of the table.
#[derive(Clone, Copy)]
pub struct Func {
    pub name: &'static str,
    pub arity: usize,
    /// CUDA's documented maximum error in ulp (CUDA Math API, "Single Precision
    /// Mathematical Functions"); 0 means correctly rounded / exact.
    pub bound: f64,
    /// The range the random inputs of the second kind are drawn from.
    pub range: (f64, f64),
    pub reference: fn(&[Float]) -> Float,
}

fn f(v: f64) -> Float {
    Float::with_val(PREC, v)
}

macro_rules! unary {
    ($name:literal, $bound:expr, $range:expr, |$x:ident| $body:expr) => {
        Func {
            name: $name,
            arity: 1,
            bound: $bound,
            range: $range,
            reference: |a: &[Float]| {
                let $x = a[0].clone();
                $body
            },
        }
    };
}

/// sin(pi x) or cos(pi x), with x reduced modulo 2 exactly first (pi x itself is inexact
/// for large x); signed zeros as IEEE 754's sinPi/cosPi.
fn sinpi_ref(x: &Float, cos: bool) -> Float {
    if !x.is_finite() {
        return Float::with_val(PREC, f64::NAN);
    }
    let mut r = x.clone();
    r.set_prec(PREC + 1024);
    let two = Float::with_val(PREC + 1024, 2);
    let q = Float::with_val(PREC + 1024, &r / &two).round();
    r -= q * two;
    let v = Float::with_val(PREC, &r * pi());
    let v = if cos { v.cos() } else { v.sin() };
    if !cos && v.is_zero() {
        return Float::with_val(PREC, 0.0) * x.clone().signum();
    }
    if !cos && r.is_zero() {
        return if x.is_sign_negative() { f(-0.0) } else { f(0.0) };
    }
    if cos && (r.clone().abs() == 0.5 || r.clone().abs() == 1.5) {
        return f(0.0);
    }
    v
}

fn pi() -> Float {
    Float::with_val(PREC, rug::float::Constant::Pi)
}

/// The single-precision functions and their bounds.
pub fn functions_f32() -> Vec<Func> {
    vec![
        unary!("expf", 2.0, (-104.0, 89.0), |x| x.exp()),
        unary!("exp2f", 2.0, (-151.0, 128.0), |x| x.exp2()),
        unary!("exp10f", 2.0, (-46.0, 39.0), |x| x.exp10()),
        unary!("expm1f", 1.0, (-18.0, 89.0), |x| x.exp_m1()),
        unary!("logf", 1.0, (0.0, 4.0), |x| x.ln()),
        unary!("log2f", 1.0, (0.0, 4.0), |x| x.log2()),
        unary!("log10f", 1.0, (0.0, 4.0), |x| x.log10()),
        unary!("log1pf", 1.0, (-1.0, 4.0), |x| x.ln_1p()),
        unary!("sinf", 2.0, (-10.0, 10.0), |x| x.sin()),
        unary!("cosf", 2.0, (-10.0, 10.0), |x| x.cos()),
        unary!("tanf", 4.0, (-10.0, 10.0), |x| x.tan()),
        unary!("sinpif", 1.0, (-4.0, 4.0), |x| sinpi_ref(&x, false)),
        unary!("cospif", 1.0, (-4.0, 4.0), |x| sinpi_ref(&x, true)),
        unary!("asinf", 2.0, (-1.0, 1.0), |x| x.asin()),
        unary!("acosf", 2.0, (-1.0, 1.0), |x| x.acos()),
        unary!("atanf", 2.0, (-4.0, 4.0), |x| x.atan()),
        unary!("sinhf", 3.0, (-90.0, 90.0), |x| x.sinh()),
        unary!("coshf", 2.0, (-90.0, 90.0), |x| x.cosh()),
        unary!("tanhf", 2.0, (-10.0, 10.0), |x| x.tanh()),
        unary!("asinhf", 3.0, (-10.0, 10.0), |x| x.asinh()),
        unary!("acoshf", 4.0, (1.0, 10.0), |x| x.acosh()),
        unary!("atanhf", 3.0, (-1.0, 1.0), |x| x.atanh()),
        unary!("cbrtf", 1.0, (-10.0, 10.0), |x| x.cbrt()),
        unary!("rcbrtf", 1.0, (-10.0, 10.0), |x| x.cbrt().recip()),
        unary!("rsqrtf", 2.0, (0.0, 10.0), |x| x.sqrt().recip()),
        unary!("sqrtf", 0.0, (0.0, 10.0), |x| x.sqrt()),
        Func { name: "powf", arity: 2, bound: 4.0, range: (0.0, 4.0), reference: |a| pow_ref(&a[0], &a[1]) },
        Func { name: "atan2f", arity: 2, bound: 3.0, range: (-4.0, 4.0), reference: |a| a[0].clone().atan2(&a[1]) },
        Func { name: "hypotf", arity: 2, bound: 3.0, range: (-4.0, 4.0), reference: |a| a[0].clone().hypot(&a[1]) },
        Func {
            name: "fmodf",
            arity: 2,
            bound: 0.0,
            range: (-100.0, 100.0),
            reference: |a| {
                let mut r = a[0].clone();
                r.rem_assign_round(&a[1], Round::Nearest);
                r
            },
        },
        Func { name: "remainderf", arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: |a| a[0].clone().remainder(&a[1]) },
        Func { name: "fdimf", arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: |a| fdim_ref(&a[0], &a[1]) },
    ]
}

use rug::ops::RemAssignRound;

fn fdim_ref(x: &Float, y: &Float) -> Float {
    if x.is_nan() || y.is_nan() {
        return Float::with_val(PREC, f64::NAN);
    }
    if x > y {
        Float::with_val(PREC, x - y)
    } else {
        f(0.0)
    }
}

/// C99 F.9.4.4 special cases, else MPFR's pow (which follows them too, except pow(-1, +-inf)).
fn pow_ref(x: &Float, y: &Float) -> Float {
    if y.is_zero() {
        return f(1.0);
    }
    if *x == 1.0 {
        return f(1.0);
    }
    if *x == -1.0 && y.is_infinite() {
        return f(1.0);
    }
    Float::with_val(PREC, x.pow(y))
}

/// The float nearest `v` (MPFR's rounding to 24 bits with the float exponent range).
pub fn round_f32(v: &Float) -> f32 {
    v.to_f32()
}

/// The error of `got` against the exact `r`, in ulp of float at `r`. Special results
/// (NaN, infinities, zeros) must match exactly: 0 or infinity.
pub fn ulp_error_f32(got: f32, r: &Float) -> f64 {
    let cr = round_f32(r);
    if cr.is_nan() || got.is_nan() {
        return if cr.is_nan() && got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if cr.is_infinite() || got.is_infinite() {
        return if cr == got { 0.0 } else { f64::INFINITY };
    }
    if r.is_zero() {
        return if got == 0.0 && got.is_sign_negative() == r.is_sign_negative() { 0.0 } else { f64::INFINITY };
    }
    // ulp(r): 2^(e - 24) with e the exponent of |r| in [2^(e-1), 2^e), at least 2^-149.
    let e = r.get_exp().unwrap_or(-200);
    let ulp_exp = (e - 24).max(-149);
    let diff = Float::with_val(PREC, Float::with_val(PREC, got) - r).abs();
    let ulps = diff >> ulp_exp;
    ulps.to_f64()
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Special and edge values of float.
pub fn specials_f32() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -2.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::MAX,
        f32::MIN,
        f32::EPSILON,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::FRAC_PI_4,
        88.72283,
        88.72284,
        -103.97208,
        -87.33655,
        38.53184,
        -45.154,
        127.99999,
        128.0,
        -150.0,
        -149.0,
        -126.0,
        1e-8,
        -1e-8,
        1e30,
        -1e30,
        131072.0,
        105615.0,
        8388608.0,
        16777216.0,
        0.99999994,
        1.0000001,
        9.0,
        0.55,
        0.25,
        -0.25,
        0.75,
    ];
    let more: Vec<f32> = v
        .iter()
        .flat_map(|&x: &f32| [f32::from_bits(x.to_bits().wrapping_add(1)), f32::from_bits(x.to_bits().wrapping_sub(1))])
        .filter(|x| !x.is_nan())
        .collect();
    v.extend(more);
    v
}

/// `n` inputs for a unary function: the specials, random bit patterns and random values in
/// `range`.
pub fn inputs_f32(n: usize, range: (f64, f64), seed: u64) -> Vec<f32> {
    let mut v = specials_f32();
    let mut rng = Rng::new(seed);
    while v.len() < n {
        if v.len().is_multiple_of(2) {
            v.push(f32::from_bits(rng.next_u64() as u32));
        } else {
            v.push((range.0 + (range.1 - range.0) * rng.unit()) as f32);
        }
    }
    v.truncate(n);
    v
}

/// The CUDA source of the test kernels: `k_<name>(const float* x, [const float* x2,] float* y, int n)`.
pub fn kernel_source(funcs: &[Func]) -> String {
    let mut s = String::new();
    for f in funcs {
        let (params, args) = if f.arity == 1 { ("", "x[i]") } else { ("const float* x2, ", "x[i], x2[i]") };
        s.push_str(&format!(
            "extern \"C\" __global__ void k_{0}(const float* x, {params}float* y, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = {0}({args});\n}}\n",
            f.name
        ));
    }
    s
}

/// The library compiled into test kernels, lowered to `level`.
pub struct Compiled {
    pub levels: cuprite::levels::Levels,
}

impl Compiled {
    pub fn new(funcs: &[Func], sm: u32) -> Result<Compiled, String> {
        let src = kernel_source(funcs);
        let mut opts = cuprite::levels::LevelOptions::default();
        opts.config.sm = sm;
        let levels = cuprite::levels::compile_levels("mathcheck.cu", &src, &opts)?;
        Ok(Compiled { levels })
    }

    /// Runs `k_<name>` on the inputs at `level`; returns the outputs.
    pub fn run(&self, name: &str, level: cuprite_sim::Level, xs: &[&[f32]]) -> Result<Vec<f32>, String> {
        let l = &self.levels;
        let module = match level {
            cuprite_sim::Level::Cuda => l.cuda,
            cuprite_sim::Level::Nvvm => l.nvvm,
            cuprite_sim::Level::Ptx => l.ptx,
        };
        let prog = cuprite_sim::translate(level, &l.ctx, module, &format!("k_{name}"))?;
        let n = xs[0].len();
        let mut global = cuprite_sim::Global::default();
        let mut args = Vec::new();
        for (j, x) in xs.iter().enumerate() {
            let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
            let a = global.alloc(&format!("x{j}"), bytes.len().max(4), 256);
            global.buffers.last_mut().expect("allocated").data[..bytes.len()].copy_from_slice(&bytes);
            args.push(a);
        }
        let y = global.alloc("y", (n * 4).max(4), 256);
        args.push(y);
        args.push(n as u64);
        let block = 256u32;
        let grid = (n as u32).div_ceil(block).max(1);
        let launch = cuprite_sim::Launch {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_shared: 0,
            args,
            schedule: cuprite_sim::Schedule::InOrder,
            max_instructions: u64::MAX / 4,
            global_inits: Vec::new(),
        };
        cuprite_sim::run(&prog, &mut global, &launch).map_err(|e| e.to_string())?;
        let data = &global.buffer(y).ok_or("no output buffer")?.data;
        Ok(data[..n * 4].chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

/// The measured error of one function.
#[derive(Clone, Debug)]
pub struct Measured {
    pub name: &'static str,
    pub bound: f64,
    pub samples: usize,
    pub max_ulp: f64,
    /// The input of the largest error.
    pub worst: Vec<f32>,
    pub worst_got: f32,
}

/// Measures `f` on `n` inputs (pairs for binary functions).
pub fn measure(c: &Compiled, f: &Func, n: usize, seed: u64) -> Result<Measured, String> {
    let x = inputs_f32(n, f.range, seed);
    let mut xs = vec![x.clone()];
    if f.arity == 2 {
        // All pairs of specials, then random pairs.
        let sp = specials_f32();
        let mut a = Vec::new();
        let mut b = Vec::new();
        for &p in &sp {
            for &q in &sp {
                a.push(p);
                b.push(q);
            }
        }
        let mut rng = Rng::new(seed ^ 0x55);
        while a.len() < n {
            a.push(x[a.len() % x.len()]);
            b.push(if rng.next_u64().is_multiple_of(2) {
                f32::from_bits(rng.next_u64() as u32)
            } else {
                (f.range.0 + (f.range.1 - f.range.0) * rng.unit()) as f32
            });
        }
        xs = vec![a, b];
    }
    let refs: Vec<&[f32]> = xs.iter().map(|v| v.as_slice()).collect();
    let got = c.run(f.name, cuprite_sim::Level::Ptx, &refs)?;
    let mut m = Measured { name: f.name, bound: f.bound, samples: got.len(), max_ulp: 0.0, worst: Vec::new(), worst_got: 0.0 };
    for i in 0..got.len() {
        let args: Vec<Float> = xs.iter().map(|v| Float::with_val(PREC, v[i])).collect();
        let r = (f.reference)(&args);
        let e = ulp_error_f32(got[i], &r);
        if e > m.max_ulp || (m.worst.is_empty() && e >= m.max_ulp) {
            m.max_ulp = e;
            m.worst = xs.iter().map(|v| v[i]).collect();
            m.worst_got = got[i];
        }
    }
    Ok(m)
}
