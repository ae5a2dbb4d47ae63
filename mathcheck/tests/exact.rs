//! The exact functions of the library (C99 Annex F: no rounding error allowed, special
//! values as specified) against references written here, bit for bit, at every level:
//! frexp, modf, ldexp, round, rint, floor, ceil, trunc, fmin, fmax, copysign, nextafter,
//! ilogb, logb, the classification macros, llround and fma, in single and double
//! precision; and sincos against sin and cos.
use cuprite_mathcheck::*;
use cuprite_sim::Level;

/// (kernel name, CUDA statements setting `y[i]` from `x[i]` and `x2[i]`) for one
/// precision: `$f` is the function suffix (`f` or nothing), `T` the type.
fn kernels(t: &str, f: &str) -> Vec<(String, String)> {
    let k = |n: &str, e: &str| (format!("{n}{f}"), e.replace("$f", f).replace('T', t));
    let v = |n: &str, e: &str| k(n, &format!("y[i] = {e};"));
    vec![
        k("frexp_m", "int e; y[i] = frexp$f(x[i], &e);"),
        k("frexp_e", "int e; frexp$f(x[i], &e); y[i] = (T)e;"),
        k("modf_f", "T ip; y[i] = modf$f(x[i], &ip);"),
        k("modf_i", "T ip; modf$f(x[i], &ip); y[i] = ip;"),
        v("ldexp", "ldexp$f(x[i], (int)x2[i])"),
        v("round", "round$f(x[i])"),
        v("rint", "rint$f(x[i])"),
        v("floor", "floor$f(x[i])"),
        v("ceil", "ceil$f(x[i])"),
        v("trunc", "trunc$f(x[i])"),
        v("fmin", "fmin$f(x[i], x2[i])"),
        v("fmax", "fmax$f(x[i], x2[i])"),
        v("copysign", "copysign$f(x[i], x2[i])"),
        v("nextafter", "nextafter$f(x[i], x2[i])"),
        v("ilogb", "(T)ilogb$f(x[i])"),
        v("logb", "logb$f(x[i])"),
        v("classify", "(T)((isnan(x[i]) ? 1 : 0) + (isinf(x[i]) ? 2 : 0) + (isfinite(x[i]) ? 4 : 0) + (signbit(x[i]) ? 8 : 0))"),
        v("llround", "(fabs$f(x[i]) < (T)4e18 ? (T)llround$f(x[i]) : (T)0)"),
        v("fma", "fma$f(x[i], x2[i], (T)1.5)"),
        k("sincos_s", "T s, c; sincos$f(x[i], &s, &c); y[i] = s;"),
        k("sincos_c", "T s, c; sincos$f(x[i], &s, &c); y[i] = c;"),
        v("sin", "sin$f(x[i])"),
        v("cos", "cos$f(x[i])"),
    ]
}

fn source() -> String {
    let mut s = String::new();
    for (t, f) in [("float", "f"), ("double", "")] {
        for (name, body) in kernels(t, f) {
            s.push_str(&format!(
                "extern \"C\" __global__ void k_{name}(const {t}* x, const {t}* x2, {t}* y, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) {{ {body} }}\n}}\n"
            ));
        }
    }
    s
}

macro_rules! reference {
    ($name:ident, $t:ty, $u:ty, $mant:expr, $bias:expr, $emask:expr) => {
        fn $name(name: &str, x: $t, y: $t) -> Option<$t> {
            let bits = |v: $t| v.to_bits();
            let frexp = |v: $t| -> ($t, i32) {
                if v == 0.0 || !v.is_finite() {
                    return (v, 0);
                }
                let (v2, adj) = if v.abs() < <$t>::MIN_POSITIVE { (v * (2.0 as $t).powi(64), -64) } else { (v, 0) };
                let e = ((bits(v2) >> $mant) & ((1 << (<$t>::MAX_EXP.ilog2() + 1)) - 1) as $u) as i32 - $bias + 1;
                let m = <$t>::from_bits(
                    (bits(v2) & !((((1 << (<$t>::MAX_EXP.ilog2() + 1)) - 1) as $u) << $mant)) | ((($bias - 1) as $u) << $mant),
                );
                (m, e + adj)
            };
            let minmax = |a: $t, b: $t, max: bool| -> $t {
                if a.is_nan() {
                    return b;
                }
                if b.is_nan() {
                    return a;
                }
                if a == 0.0 && b == 0.0 {
                    let neg = if max { a.is_sign_negative() && b.is_sign_negative() } else { a.is_sign_negative() || b.is_sign_negative() };
                    return if neg { -0.0 } else { 0.0 };
                }
                if max {
                    a.max(b)
                } else {
                    a.min(b)
                }
            };
            Some(match name {
                "frexp_m" => frexp(x).0,
                "frexp_e" => frexp(x).1 as $t,
                "modf_f" => {
                    if x.is_infinite() {
                        (0.0 as $t).copysign(x)
                    } else {
                        (x - x.trunc()).copysign(x)
                    }
                }
                "modf_i" => x.trunc(),
                "ldexp" => {
                    let v = rug::Float::with_val(64, x) << (y as i32);
                    if stringify!($t) == "f32" {
                        v.to_f32() as $t
                    } else {
                        v.to_f64() as $t
                    }
                }
                "round" => x.round(),
                "rint" => x.round_ties_even(),
                "floor" => x.floor(),
                "ceil" => x.ceil(),
                "trunc" => x.trunc(),
                "fmin" => minmax(x, y, false),
                "fmax" => minmax(x, y, true),
                "copysign" => x.copysign(y),
                "nextafter" => {
                    if x.is_nan() || y.is_nan() {
                        <$t>::NAN
                    } else if x == y {
                        y
                    } else if x == 0.0 {
                        <$t>::from_bits(1).copysign(y)
                    } else if (x < y) == (x > 0.0) {
                        <$t>::from_bits(bits(x) + 1)
                    } else {
                        <$t>::from_bits(bits(x) - 1)
                    }
                }
                "ilogb" => {
                    if x == 0.0 || x.is_nan() {
                        i32::MIN as $t
                    } else if x.is_infinite() {
                        i32::MAX as $t
                    } else {
                        (frexp(x).1 - 1) as $t
                    }
                }
                "logb" => {
                    if x == 0.0 {
                        <$t>::NEG_INFINITY
                    } else if !x.is_finite() {
                        x * x
                    } else {
                        (frexp(x).1 - 1) as $t
                    }
                }
                "classify" => {
                    (u8::from(x.is_nan())
                        + 2 * u8::from(x.is_infinite())
                        + 4 * u8::from(x.is_finite())
                        + 8 * u8::from(x.is_sign_negative())) as $t
                }
                "llround" => {
                    if x.abs() < 4e18 {
                        (x.round() as i64) as $t
                    } else {
                        0.0
                    }
                }
                "fma" => x.mul_add(y, 1.5),
                _ => return None,
            })
        }
    };
}
reference!(reference_f32, f32, u32, 23, 127, 0xff);
reference!(reference_f64, f64, u64, 52, 1023, 0x7ff);

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn exact_functions_match_their_definitions_at_every_level() {
    let src = source();
    let levels = cuprite::levels::compile_levels("exact.cu", &src, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let c = Compiled::Cuprite(levels);
    let mut bad = Vec::new();
    let mut checked = 0;
    for (fmt, f) in [(Fmt::F32, "f"), (Fmt::F64, "")] {
        // all pairs of specials, then random bit patterns and values
        let sp = specials(fmt);
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for &p in &sp {
            for &q in &sp {
                xs.push(p);
                ys.push(q);
            }
        }
        let mut rng = Rng::new(11);
        while xs.len() < sp.len() * sp.len() + 8192 {
            xs.push(if rng.next_u64().is_multiple_of(2) { rng.bits(fmt) } else { fmt.narrow((rng.unit() - 0.5) * 200.0) });
            ys.push(if rng.next_u64().is_multiple_of(2) { rng.bits(fmt) } else { fmt.narrow((rng.unit() - 0.5) * 200.0) });
        }
        let lim = if fmt == Fmt::F32 { 330.0 } else { 2200.0 };
        for (name, _) in kernels(if f == "f" { "float" } else { "double" }, f) {
            let base = name.strip_suffix(f).filter(|_| !f.is_empty()).unwrap_or(&name).to_string();
            // ldexp's exponent: an integer in range
            let ys_k: Vec<f64> =
                if base == "ldexp" { ys.iter().map(|y| if y.is_finite() { (y % lim).trunc() } else { 7.0 }).collect() } else { ys.clone() };
            for level in [Level::Cuda, Level::Nvvm, Level::Ptx] {
                let got = c.run_fmt(&name, fmt, level, &[&xs, &ys_k]).unwrap_or_else(|e| panic!("{name}: {e}"));
                let want: Vec<f64> = match base.as_str() {
                    "sincos_s" | "sincos_c" => {
                        let other = if base == "sincos_s" { format!("sin{f}") } else { format!("cos{f}") };
                        c.run_fmt(&other, fmt, level, &[&xs, &ys_k]).unwrap()
                    }
                    "sin" | "cos" => continue,
                    _ => xs
                        .iter()
                        .zip(&ys_k)
                        .map(|(&x, &y)| match fmt {
                            Fmt::F32 => reference_f32(&base, x as f32, y as f32).expect("a reference") as f64,
                            Fmt::F64 => reference_f64(&base, x, y).expect("a reference"),
                        })
                        .collect(),
                };
                for i in 0..xs.len() {
                    checked += 1;
                    if !same(got[i], want[i]) && bad.len() < 40 {
                        bad.push(format!("{name} {level:?}: ({:e}, {:e}) -> {:e}, expected {:e}", xs[i], ys_k[i], got[i], want[i]));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} mismatches, first:\n{}", bad.len(), bad.join("\n"));
    assert!(checked > 500_000, "{checked}");
}
