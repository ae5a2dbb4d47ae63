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
//! Inputs ([`inputs`]): the special values and thresholds, then random bit patterns
//! (every exponent equally likely) and random values in the function's interesting range.
//! The unary float functions are also measured on every float input ([`exhaustive`], on a
//! native replica of the PTX: [`replica`]).

use rug::{float::Round, ops::Pow, Float};

/// Bits of the reference.
pub const PREC: u32 = 256;

/// A floating-point format of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    F32,
    F64,
}

impl Fmt {
    /// The C type.
    pub fn c_type(self) -> &'static str {
        match self {
            Fmt::F32 => "float",
            Fmt::F64 => "double",
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            Fmt::F32 => 4,
            Fmt::F64 => 8,
        }
    }
    /// Significand bits and the exponent of the smallest subnormal.
    fn precision(self) -> (i32, i32) {
        match self {
            Fmt::F32 => (24, -149),
            Fmt::F64 => (53, -1074),
        }
    }
    /// `v` rounded to this format (to nearest), as an f64.
    pub fn round(self, v: &Float) -> f64 {
        match self {
            Fmt::F32 => v.to_f32() as f64,
            Fmt::F64 => v.to_f64(),
        }
    }
    /// `v` (an f64) rounded to this format.
    pub fn narrow(self, v: f64) -> f64 {
        match self {
            Fmt::F32 => v as f32 as f64,
            Fmt::F64 => v,
        }
    }
    pub fn to_le_bytes(self, v: f64) -> Vec<u8> {
        match self {
            Fmt::F32 => (v as f32).to_le_bytes().to_vec(),
            Fmt::F64 => v.to_le_bytes().to_vec(),
        }
    }
    pub fn from_le_bytes(self, b: &[u8]) -> f64 {
        match self {
            Fmt::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Fmt::F64 => f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        }
    }
    /// The bits of `v` in this format (for bit-for-bit comparisons).
    pub fn bits(self, v: f64) -> u64 {
        match self {
            Fmt::F32 => (v as f32).to_bits() as u64,
            Fmt::F64 => v.to_bits(),
        }
    }
}

/// One function of the table.
#[derive(Clone, Copy)]
pub struct Func {
    pub name: &'static str,
    pub format: Fmt,
    pub arity: usize,
    /// CUDA's documented maximum error in ulp (CUDA Math API, "Single Precision
    /// Mathematical Functions" and "Double Precision Mathematical Functions"); 0 means
    /// correctly rounded / exact.
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
        unary!($name, F32, $bound, $range, |$x| $body)
    };
    ($name:literal, $fmt:ident, $bound:expr, $range:expr, |$x:ident| $body:expr) => {
        Func {
            name: $name,
            format: Fmt::$fmt,
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
    if !cos && r.is_integer() {
        // sin(pi n) is exactly zero: +0 for positive n, -0 for negative n
        return if x.is_sign_negative() { f(-0.0) } else { f(0.0) };
    }
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
        unary!("erff", 2.0, (-4.0, 4.0), |x| x.erf()),
        unary!("erfcf", 4.0, (-4.0, 11.0), |x| x.erfc()),
        Func { name: "powf", format: Fmt::F32, arity: 2, bound: 4.0, range: (0.0, 4.0), reference: |a| pow_ref(&a[0], &a[1]) },
        Func { name: "atan2f", format: Fmt::F32, arity: 2, bound: 3.0, range: (-4.0, 4.0), reference: |a| a[0].clone().atan2(&a[1]) },
        Func { name: "hypotf", format: Fmt::F32, arity: 2, bound: 3.0, range: (-4.0, 4.0), reference: |a| a[0].clone().hypot(&a[1]) },
        Func { name: "fmodf", format: Fmt::F32, arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: fmod_ref },
        Func {
            name: "remainderf",
            format: Fmt::F32,
            arity: 2,
            bound: 0.0,
            range: (-100.0, 100.0),
            reference: |a| a[0].clone().remainder(&a[1]),
        },
        Func { name: "fdimf", format: Fmt::F32, arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: |a| fdim_ref(&a[0], &a[1]) },
    ]
}

/// The double-precision functions and their bounds.
pub fn functions_f64() -> Vec<Func> {
    vec![
        unary!("exp", F64, 1.0, (-746.0, 710.0), |x| x.exp()),
        unary!("exp2", F64, 1.0, (-1076.0, 1024.0), |x| x.exp2()),
        unary!("exp10", F64, 1.0, (-324.0, 309.0), |x| x.exp10()),
        unary!("expm1", F64, 1.0, (-40.0, 710.0), |x| x.exp_m1()),
        unary!("log", F64, 1.0, (0.0, 4.0), |x| x.ln()),
        unary!("log2", F64, 1.0, (0.0, 4.0), |x| x.log2()),
        unary!("log10", F64, 1.0, (0.0, 4.0), |x| x.log10()),
        unary!("log1p", F64, 1.0, (-1.0, 4.0), |x| x.ln_1p()),
        unary!("sin", F64, 2.0, (-10.0, 10.0), |x| x.sin()),
        unary!("cos", F64, 2.0, (-10.0, 10.0), |x| x.cos()),
        unary!("tan", F64, 2.0, (-10.0, 10.0), |x| x.tan()),
        unary!("sinpi", F64, 2.0, (-4.0, 4.0), |x| sinpi_ref(&x, false)),
        unary!("cospi", F64, 2.0, (-4.0, 4.0), |x| sinpi_ref(&x, true)),
        unary!("asin", F64, 2.0, (-1.0, 1.0), |x| x.asin()),
        unary!("acos", F64, 2.0, (-1.0, 1.0), |x| x.acos()),
        unary!("atan", F64, 2.0, (-4.0, 4.0), |x| x.atan()),
        unary!("sinh", F64, 2.0, (-711.0, 711.0), |x| x.sinh()),
        unary!("cosh", F64, 1.0, (-711.0, 711.0), |x| x.cosh()),
        unary!("tanh", F64, 1.0, (-20.0, 20.0), |x| x.tanh()),
        unary!("asinh", F64, 3.0, (-10.0, 10.0), |x| x.asinh()),
        unary!("acosh", F64, 3.0, (1.0, 10.0), |x| x.acosh()),
        unary!("atanh", F64, 2.0, (-1.0, 1.0), |x| x.atanh()),
        unary!("cbrt", F64, 1.0, (-10.0, 10.0), |x| x.cbrt()),
        unary!("rcbrt", F64, 1.0, (-10.0, 10.0), |x| x.cbrt().recip()),
        unary!("rsqrt", F64, 1.0, (0.0, 10.0), |x| x.sqrt().recip()),
        unary!("sqrt", F64, 0.0, (0.0, 10.0), |x| x.sqrt()),
        unary!("erf", F64, 2.0, (-6.0, 6.0), |x| x.erf()),
        unary!("erfc", F64, 5.0, (-6.0, 28.0), |x| x.erfc()),
        Func { name: "pow", format: Fmt::F64, arity: 2, bound: 2.0, range: (0.0, 4.0), reference: |a| pow_ref(&a[0], &a[1]) },
        Func { name: "atan2", format: Fmt::F64, arity: 2, bound: 2.0, range: (-4.0, 4.0), reference: |a| a[0].clone().atan2(&a[1]) },
        Func { name: "hypot", format: Fmt::F64, arity: 2, bound: 2.0, range: (-4.0, 4.0), reference: |a| a[0].clone().hypot(&a[1]) },
        Func { name: "fmod", format: Fmt::F64, arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: fmod_ref },
        Func {
            name: "remainder",
            format: Fmt::F64,
            arity: 2,
            bound: 0.0,
            range: (-100.0, 100.0),
            reference: |a| a[0].clone().remainder(&a[1]),
        },
        Func { name: "fdim", format: Fmt::F64, arity: 2, bound: 0.0, range: (-100.0, 100.0), reference: |a| fdim_ref(&a[0], &a[1]) },
    ]
}

/// Every function of the library, single precision first.
pub fn functions() -> Vec<Func> {
    let mut v = functions_f32();
    v.extend(functions_f64());
    v
}

fn fmod_ref(a: &[Float]) -> Float {
    let mut r = a[0].clone();
    r.rem_assign_round(&a[1], Round::Nearest);
    r
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

/// The error of `got` against the exact `r`, in ulp of `fmt` at `r`. Special results
/// (NaN, infinities, zeros) must match exactly: 0 or infinity.
pub fn ulp_error(fmt: Fmt, got: f64, r: &Float) -> f64 {
    let cr = fmt.round(r);
    if cr.is_nan() || got.is_nan() {
        return if cr.is_nan() && got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if cr.is_infinite() || got.is_infinite() {
        return if cr == got { 0.0 } else { f64::INFINITY };
    }
    if r.is_zero() {
        return if got == 0.0 && got.is_sign_negative() == r.is_sign_negative() { 0.0 } else { f64::INFINITY };
    }
    // ulp(r): 2^(e - p) with e the exponent of |r| in [2^(e-1), 2^e), at least the
    // subnormal spacing.
    let (p, min) = fmt.precision();
    let e = r.get_exp().unwrap_or(-2000);
    let ulp_exp = (e - p).max(min);
    let diff = Float::with_val(PREC, Float::with_val(PREC, got) - r).abs();
    let ulps = diff >> ulp_exp;
    ulps.to_f64()
}

/// [`ulp_error`] for float.
pub fn ulp_error_f32(got: f32, r: &Float) -> f64 {
    ulp_error(Fmt::F32, got as f64, r)
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
    /// A random value of `fmt`: every bit pattern equally likely.
    pub fn bits(&mut self, fmt: Fmt) -> f64 {
        match fmt {
            Fmt::F32 => f32::from_bits(self.next_u64() as u32) as f64,
            Fmt::F64 => f64::from_bits(self.next_u64()),
        }
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
        10.0,
        10.05,
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

/// Special and edge values of double: the float ones, the double thresholds and
/// arguments known to be hard for trigonometric reduction.
pub fn specials_f64() -> Vec<f64> {
    let mut v: Vec<f64> =
        specials_f32().into_iter().map(|x| x as f64).filter(|x| x.is_nan() || x.fract() == 0.0 || x.abs() < 1e3).collect();
    v.extend([
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::FRAC_PI_4,
        709.782712893384,
        -745.1332191019411,
        -708.3964185322641,
        710.4758600739439,
        1023.9999999999999,
        1024.0,
        -1074.0,
        -1075.0,
        -1022.0,
        308.2547155599167,
        -323.3062153431158,
        1e-300,
        1e300,
        1e22,
        5.319372648326541e255,
        1073741824.0,
        2147483648.0,
        4503599627370496.0,
        9007199254740992.0,
        0.9999999999999999,
        1.0000000000000002,
        22.0,
        20.0,
        27.2,
        26.5,
        5.9,
        0.5 * std::f64::consts::LN_2,
        std::f64::consts::LN_2,
    ]);
    let more: Vec<f64> = v
        .iter()
        .flat_map(|&x: &f64| [f64::from_bits(x.to_bits().wrapping_add(1)), f64::from_bits(x.to_bits().wrapping_sub(1))])
        .filter(|x| !x.is_nan())
        .collect();
    v.extend(more);
    v
}

/// The special values of `fmt`.
pub fn specials(fmt: Fmt) -> Vec<f64> {
    match fmt {
        Fmt::F32 => specials_f32().into_iter().map(|x| x as f64).collect(),
        Fmt::F64 => specials_f64(),
    }
}

/// `n` inputs for a unary function: the specials, random bit patterns and random values in
/// `range`.
pub fn inputs(fmt: Fmt, n: usize, range: (f64, f64), seed: u64) -> Vec<f64> {
    let mut v = specials(fmt);
    let mut rng = Rng::new(seed);
    while v.len() < n {
        if v.len().is_multiple_of(2) {
            v.push(rng.bits(fmt));
        } else {
            v.push(fmt.narrow(range.0 + (range.1 - range.0) * rng.unit()));
        }
    }
    v.truncate(n);
    v
}

/// The CUDA source of the test kernels: `k_<name>(const T* x, [const T* x2,] T* y, int n)`.
pub fn kernel_source(funcs: &[Func]) -> String {
    let mut s = String::new();
    for f in funcs {
        let t = f.format.c_type();
        let (params, args) = if f.arity == 1 { (String::new(), "x[i]") } else { (format!("const {t}* x2, "), "x[i], x2[i]") };
        s.push_str(&format!(
            "extern \"C\" __global__ void k_{0}(const {t}* x, {params}{t}* y, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = {0}({args});\n}}\n",
            f.name
        ));
    }
    s
}

/// The test kernels: compiled by cuprite to every level, or another compiler's PTX
/// ([`Compiled::from_ptx`]: NVRTC's, to measure libdevice the same way).
pub enum Compiled {
    Cuprite(cuprite::levels::Levels),
    Ptx(cuprite_ir::Context, cuprite_ir::OpId),
}

impl Compiled {
    pub fn new(funcs: &[Func], sm: u32) -> Result<Compiled, String> {
        let src = kernel_source(funcs);
        let mut opts = cuprite::levels::LevelOptions::default();
        opts.config.sm = sm;
        let levels = cuprite::levels::compile_levels("mathcheck.cu", &src, &opts)?;
        Ok(Compiled::Cuprite(levels))
    }

    /// PTX text with the kernels of [`kernel_source`] (runs at the ptx level only).
    pub fn from_ptx(text: &str, name: &str) -> Result<Compiled, String> {
        let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        match cuprite_lowering::ptx_read::read_ptx(&mut ctx, text, name) {
            Ok(m) => Ok(Compiled::Ptx(ctx, m)),
            Err(d) => Err(cuprite_lowering::ptx_read::render(name, text, &d)),
        }
    }

    /// Runs `k_<name>` on inputs of `fmt` (held as f64) at `level`; returns the outputs.
    pub fn run_fmt(&self, name: &str, fmt: Fmt, level: cuprite_sim::Level, xs: &[&[f64]]) -> Result<Vec<f64>, String> {
        let (ctx, module) = match (self, level) {
            (Compiled::Cuprite(l), cuprite_sim::Level::Cuda) => (&l.ctx, l.cuda),
            (Compiled::Cuprite(l), cuprite_sim::Level::Nvvm) => (&l.ctx, l.nvvm),
            (Compiled::Cuprite(l), cuprite_sim::Level::Ptx) => (&l.ctx, l.ptx),
            (Compiled::Ptx(c, m), cuprite_sim::Level::Ptx) => (c, *m),
            (Compiled::Ptx(..), _) => return Err("external PTX runs at the ptx level only".into()),
        };
        let prog = cuprite_sim::translate(level, ctx, module, &format!("k_{name}"))?;
        let n = xs[0].len();
        let w = fmt.bytes();
        let mut global = cuprite_sim::Global::default();
        let mut args = Vec::new();
        for (j, x) in xs.iter().enumerate() {
            let bytes: Vec<u8> = x.iter().flat_map(|&v| fmt.to_le_bytes(v)).collect();
            let a = global.alloc(&format!("x{j}"), bytes.len().max(8), 256);
            global.buffers.last_mut().expect("allocated").data[..bytes.len()].copy_from_slice(&bytes);
            args.push(a.to_le_bytes().to_vec());
        }
        let y = global.alloc("y", (n * w).max(8), 256);
        args.push(y.to_le_bytes().to_vec());
        args.push((n as u64).to_le_bytes().to_vec());
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
            textures: Vec::new(),
        };
        cuprite_sim::run(&prog, &mut global, &launch).map_err(|e| e.to_string())?;
        let data = &global.buffer(y).ok_or("no output buffer")?.data;
        Ok(data[..n * w].chunks(w).map(|c| fmt.from_le_bytes(c)).collect())
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
    pub worst: Vec<f64>,
    pub worst_got: f64,
}

/// The inputs [`measure`] uses for `f`: one vector per argument.
pub fn arguments(f: &Func, n: usize, seed: u64) -> Vec<Vec<f64>> {
    let fmt = f.format;
    let x = inputs(fmt, n, f.range, seed);
    if f.arity == 1 {
        return vec![x];
    }
    // All pairs of specials, then random pairs.
    let sp = specials(fmt);
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
        b.push(if rng.next_u64().is_multiple_of(2) { rng.bits(fmt) } else { fmt.narrow(f.range.0 + (f.range.1 - f.range.0) * rng.unit()) });
    }
    vec![a, b]
}

/// Measures `f` on `n` inputs (pairs for binary functions).
pub fn measure(c: &Compiled, f: &Func, n: usize, seed: u64) -> Result<Measured, String> {
    let xs = arguments(f, n, seed);
    let refs: Vec<&[f64]> = xs.iter().map(|v| v.as_slice()).collect();
    let got = c.run_fmt(f.name, f.format, cuprite_sim::Level::Ptx, &refs)?;
    let mut m = Measured { name: f.name, bound: f.bound, samples: got.len(), max_ulp: 0.0, worst: Vec::new(), worst_got: 0.0 };
    for i in 0..got.len() {
        let args: Vec<Float> = xs.iter().map(|v| Float::with_val(PREC, v[i])).collect();
        let r = (f.reference)(&args);
        let e = ulp_error(f.format, got[i], &r);
        if e > m.max_ulp || (m.worst.is_empty() && e >= m.max_ulp) {
            m.max_ulp = e;
            m.worst = xs.iter().map(|v| v[i]).collect();
            m.worst_got = got[i];
        }
    }
    Ok(m)
}

pub mod exhaustive;
pub mod replica;
