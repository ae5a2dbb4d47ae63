//! The exhaustive single-precision run: every one of the 2^32 float inputs of a unary
//! function, on the native replica of cuprite's PTX ([`crate::replica`]).
//!
//! MPFR for four billion inputs per function is out of reach (microseconds a call), so the
//! error of each result is first estimated against a double-precision reference (the C
//! library's `exp`, `sin`, `erfc`, ... on the exact float argument, each within a few
//! double ulps, that is within about 2^-28 float ulps), and MPFR decides every case that
//! matters:
//! - every input whose estimated error is within [`MARGIN`] ulp of the largest error MPFR
//!   has confirmed so far (so the reported maximum and its input are MPFR's),
//! - every input the estimate calls a special-value mismatch or puts above the bound,
//! - every input whose double reference lies near the overflow threshold or half the
//!   smallest subnormal (where rounding the double reference to float could decide
//!   between a finite result and infinity or zero),
//! - and every 2^20-th input regardless, to measure how far the estimate strays from MPFR
//!   (reported; the run fails if it is more than [`MARGIN`] / 10).
//!
//! Before the run, the replica must agree bit for bit with the simulator's PTX-level
//! result on the sampled inputs of [`crate::measure`]; the run stops otherwise.

use crate::{ulp_error, Float, Fmt, Func, PREC};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Ulps of slack in deciding which inputs MPFR rechecks.
pub const MARGIN: f64 = 1e-3;

mod libm {
    extern "C" {
        pub fn exp10(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
    }
}

/// sin(pi r) for |r| <= 1 with the argument of sin kept exact near the zeros.
fn sinpi_reduced(r: f64) -> f64 {
    let r = if r > 0.5 {
        1.0 - r
    } else if r < -0.5 {
        -1.0 - r
    } else {
        r
    };
    (std::f64::consts::PI * r).sin()
}

fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x - 2.0 * (x / 2.0).round();
    if r == r.trunc() {
        return if x.is_sign_negative() { -0.0 } else { 0.0 };
    }
    sinpi_reduced(r)
}

fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x - 2.0 * (x / 2.0).round();
    if r.abs() == 0.5 {
        return 0.0;
    }
    sinpi_reduced(0.5 - r.abs())
}

/// The double-precision reference of a unary float function, if it has one.
pub fn fast_reference(name: &str) -> Option<fn(f64) -> f64> {
    // SAFETY (the `unsafe` blocks): C library functions of one double, no other effects.
    Some(match name {
        "expf" => f64::exp,
        "exp2f" => f64::exp2,
        "exp10f" => |x| unsafe { libm::exp10(x) },
        "expm1f" => f64::exp_m1,
        "logf" => f64::ln,
        "log2f" => f64::log2,
        "log10f" => f64::log10,
        "log1pf" => f64::ln_1p,
        "sinf" => f64::sin,
        "cosf" => f64::cos,
        "tanf" => f64::tan,
        "sinpif" => sinpi,
        "cospif" => cospi,
        "asinf" => f64::asin,
        "acosf" => f64::acos,
        "atanf" => f64::atan,
        "sinhf" => f64::sinh,
        "coshf" => f64::cosh,
        "tanhf" => f64::tanh,
        "asinhf" => |x| unsafe { libm::asinh(x) },
        "acoshf" => |x| unsafe { libm::acosh(x) },
        "atanhf" => |x| unsafe { libm::atanh(x) },
        "cbrtf" => f64::cbrt,
        "rcbrtf" => |x| 1.0 / x.cbrt(),
        "rsqrtf" => |x| 1.0 / x.sqrt(),
        "sqrtf" => f64::sqrt,
        "erff" => |x| unsafe { libm::erf(x) },
        "erfcf" => |x| unsafe { libm::erfc(x) },
        _ => return None,
    })
}

/// The estimated float ulp error of `got` against the double reference `r`, and whether
/// the estimate is in doubt (see the module docs).
pub fn estimate(got: f32, r: f64) -> (f64, bool) {
    if r.is_nan() || got.is_nan() {
        return (if r.is_nan() && got.is_nan() { 0.0 } else { f64::INFINITY }, false);
    }
    let a = r.abs();
    // float's overflow threshold (FLT_MAX + half an ulp) and half the smallest subnormal
    let ovf = (2.0 - f64::powi(2.0, -24)) * f64::powi(2.0, 127);
    let unf = f64::powi(2.0, -150);
    let doubt = a.is_finite() && (a - ovf).abs() <= a * f64::powi(2.0, -40) || (a - unf).abs() <= unf * f64::powi(2.0, -40);
    let cr = r as f32;
    if cr.is_infinite() || got.is_infinite() {
        return (if cr == got { 0.0 } else { f64::INFINITY }, doubt);
    }
    if r == 0.0 {
        let ok = got == 0.0 && got.is_sign_negative() == r.is_sign_negative();
        return (if ok { 0.0 } else { f64::INFINITY }, doubt);
    }
    // ulp(r) = 2^(e - 24), e the exponent with |r| in [2^(e-1), 2^e), at least 2^-149
    let e = ((a.to_bits() >> 52) as i32) - 1022;
    let ulp = f64::powi(2.0, (e - 24).max(-149));
    ((got as f64 - r).abs() / ulp, doubt)
}

/// What the exhaustive run of one function found.
#[derive(Debug, Clone)]
pub struct Exhaustive {
    pub name: &'static str,
    pub bound: f64,
    pub inputs: u64,
    /// The largest error, as MPFR measures it, and its input and result.
    pub max_ulp: f64,
    pub worst: f32,
    pub worst_got: f32,
    /// Inputs MPFR confirmed above the bound (at most the first 8 kept).
    pub over_bound: u64,
    pub over_examples: Vec<f32>,
    /// Inputs rechecked with MPFR.
    pub rechecked: u64,
    /// The largest difference between the estimate and MPFR on the spot checks.
    pub estimate_drift: f64,
}

/// Compiles the replica of `k_<name>` from `ptx` into `dir`; returns the program's path.
pub fn build_replica(ptx: &str, name: &str, dir: &Path) -> Result<PathBuf, String> {
    let src = crate::replica::unary_program(ptx, &format!("k_{name}"), 4)?;
    compile_program(&src, name, dir)
}

/// Compiles the C program `src` as `dir/name` with the flags the replica needs (`$CC`, else
/// `cc`); returns its path.
pub fn compile_program(src: &str, name: &str, dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let c = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&c, src).map_err(|e| format!("{}: {e}", c.display()))?;
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    // -ffp-contract=off: a PTX mul and add stay two roundings; -march=native: fma and
    // rint in hardware (glibc's are exact too, only slower).
    let out = Command::new(&cc)
        .args(["-O2", "-march=native", "-ffp-contract=off", "-fno-math-errno", "-o"])
        .arg(&exe)
        .arg(&c)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run the C compiler '{cc}': {e}"))?;
    if !out.status.success() {
        return Err(format!("{cc} failed on {}:\n{}", c.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(exe)
}

/// Runs the replica `exe` on the given input bits; returns the output bits.
pub fn run_replica(exe: &Path, xs: &[u32]) -> Result<Vec<u32>, String> {
    let mut child =
        Command::new(exe).arg("-").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().map_err(|e| format!("{}: {e}", exe.display()))?;
    let bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&bytes)
    });
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    writer.join().map_err(|_| "writer panicked")?.map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("{} failed: {}", exe.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(out.stdout.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// The replica against the simulator on `n` sampled inputs: `Err` names the first input
/// whose results differ (NaNs agree with any payload).
pub fn check_replica(c: &crate::Compiled, f: &Func, exe: &Path, n: usize) -> Result<usize, String> {
    let xs = crate::arguments(f, n, 1).remove(0);
    let sim = c.run_fmt(f.name, Fmt::F32, cuprite_sim::Level::Ptx, &[&xs])?;
    let bits: Vec<u32> = xs.iter().map(|&x| (x as f32).to_bits()).collect();
    let nat = run_replica(exe, &bits)?;
    for ((&x, &s), &r) in xs.iter().zip(&sim).zip(&nat) {
        let (s, r) = (s as f32, f32::from_bits(r));
        if !(s.to_bits() == r.to_bits() || (s.is_nan() && r.is_nan())) {
            return Err(format!(
                "{}: the replica gives {r:e} ({:#x}) for {x:e}, the simulator {s:e} ({:#x})",
                f.name,
                r.to_bits(),
                s.to_bits()
            ));
        }
    }
    Ok(xs.len())
}

/// The exhaustive (or, with `stride` > 1, every stride-th) run of unary float function `f`
/// on its replica `exe`, in `threads` parts.
pub fn run(f: &Func, exe: &Path, stride: u64, threads: usize) -> Result<Exhaustive, String> {
    let fast = fast_reference(f.name).ok_or_else(|| format!("{} has no double-precision reference", f.name))?;
    let total = (1u64 << 32) / stride;
    let threads = threads.max(1) as u64;
    let parts: Vec<(u64, u64)> = (0..threads).map(|t| (t * total / threads, (t + 1) * total / threads - t * total / threads)).collect();
    let results: Vec<Result<Exhaustive, String>> = std::thread::scope(|s| {
        let hs: Vec<_> =
            parts.iter().map(|&(first, count)| s.spawn(move || run_part(f, fast, exe, first * stride, count, stride))).collect();
        hs.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a worker panicked".into()))).collect()
    });
    let mut all: Option<Exhaustive> = None;
    for r in results {
        let r = r?;
        all = Some(match all {
            None => r,
            Some(mut a) => {
                if r.max_ulp > a.max_ulp {
                    (a.max_ulp, a.worst, a.worst_got) = (r.max_ulp, r.worst, r.worst_got);
                }
                a.inputs += r.inputs;
                a.over_bound += r.over_bound;
                a.over_examples.extend(r.over_examples);
                a.over_examples.truncate(8);
                a.rechecked += r.rechecked;
                a.estimate_drift = a.estimate_drift.max(r.estimate_drift);
                a
            }
        });
    }
    all.ok_or_else(|| "no work".into())
}

fn run_part(f: &Func, fast: fn(f64) -> f64, exe: &Path, start: u64, count: u64, stride: u64) -> Result<Exhaustive, String> {
    let mut child = Command::new(exe)
        .args([start.to_string(), count.to_string(), stride.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let bound = f.bound.max(0.5);
    // Phase 1, the estimate over every input: the candidates for the maximum (within
    // MARGIN of the largest estimate, at most CAP of the largest kept), the inputs in
    // doubt or near the bound, and the spot checks.
    const CAP: usize = 1 << 17;
    let mut top: Vec<(f64, u32, u32)> = Vec::new();
    let (mut est_max, mut floor) = (0.0f64, 0.0f64);
    let mut must: Vec<(f64, u32, u32, bool)> = Vec::new();
    let mut over_est = 0u64;
    let mut buf = vec![0u8; 4 << 20];
    let mut k = 0u64;
    while k < count {
        let n = ((count - k) as usize).min(buf.len() / 4);
        out.read_exact(&mut buf[..n * 4]).map_err(|e| format!("{}: reading the replica's output: {e}", f.name))?;
        for j in 0..n {
            let xb = (start + (k + j as u64) * stride) as u32;
            let x = f32::from_bits(xb);
            let gb = u32::from_le_bytes([buf[j * 4], buf[j * 4 + 1], buf[j * 4 + 2], buf[j * 4 + 3]]);
            let (est, doubt) = estimate(f32::from_bits(gb), fast(x as f64));
            if est > bound + MARGIN {
                // over the bound whatever MPFR's last digits: counted, the first few confirmed
                over_est += 1;
                if over_est <= 64 {
                    must.push((est, xb, gb, false));
                }
            } else if doubt || est > bound - MARGIN / 10.0 || xb.is_multiple_of(1 << 20) {
                must.push((est, xb, gb, xb.is_multiple_of(1 << 20)));
            }
            if est.is_finite() && est >= MARGIN && est >= floor.max(est_max - MARGIN) {
                est_max = est_max.max(est);
                top.push((est, xb, gb));
                if top.len() > 2 * CAP {
                    top.retain(|t| t.0 >= est_max - MARGIN);
                    if top.len() > CAP {
                        top.sort_by(|a, b| b.0.total_cmp(&a.0));
                        top.truncate(CAP);
                        floor = top[CAP - 1].0;
                    }
                }
            }
        }
        k += n as u64;
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{}: the replica failed ({status})", f.name));
    }
    // Phase 2, MPFR on the candidates.
    let mut m = Exhaustive {
        name: f.name,
        bound: f.bound,
        inputs: count,
        max_ulp: 0.0,
        worst: f32::NAN,
        worst_got: f32::NAN,
        over_bound: over_est,
        over_examples: Vec::new(),
        rechecked: 0,
        estimate_drift: 0.0,
    };
    let exact = |x: f32, got: f32| ulp_error(Fmt::F32, got as f64, &(f.reference)(&[Float::with_val(PREC, x)]));
    top.retain(|t| t.0 >= est_max - MARGIN);
    let cands = top.iter().map(|&(e, x, g)| (e, x, g, false)).chain(must);
    for (est, xb, gb, spot) in cands {
        let (x, got) = (f32::from_bits(xb), f32::from_bits(gb));
        let e = exact(x, got);
        m.rechecked += 1;
        if spot && e.is_finite() && est.is_finite() {
            m.estimate_drift = m.estimate_drift.max((e - est).abs());
        }
        if e > m.max_ulp || m.worst.is_nan() {
            (m.max_ulp, m.worst, m.worst_got) = (e, x, got);
        }
        if e > bound {
            if est <= bound + MARGIN {
                m.over_bound += 1;
            }
            if m.over_examples.len() < 8 {
                m.over_examples.push(x);
            }
        }
    }
    if m.estimate_drift > MARGIN / 10.0 {
        return Err(format!("{}: the double reference strays {:.2e} ulp from MPFR", f.name, m.estimate_drift));
    }
    Ok(m)
}
