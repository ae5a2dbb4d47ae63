//! The native replica of cuprite's PTX (`cuprite_mathcheck::replica`) and the exhaustive
//! run built on it: the replica must agree with the simulator bit for bit, refuse what it
//! cannot replicate exactly, and a strided sweep (every 4096th float, about a million
//! inputs per function) must meet every bound. `math-exhaustive` does all 2^32 inputs;
//! its table is in `mathcheck/RESULTS.md`.
use cuprite_mathcheck::*;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("cuprite-replica-test-{tag}-{}", std::process::id()))
}

#[test]
fn a_strided_sweep_on_the_replica_meets_every_bound() {
    let funcs: Vec<Func> = functions_f32().into_iter().filter(|f| f.arity == 1 && exhaustive::fast_reference(f.name).is_some()).collect();
    assert_eq!(funcs.len(), 28, "every unary float function has a double reference");
    let c = Compiled::new(&funcs, 90).expect("the library compiles");
    let Compiled::Cuprite(levels) = &c else { unreachable!() };
    let dir = temp_dir("sweep");
    let mut bad = Vec::new();
    for f in &funcs {
        let exe = exhaustive::build_replica(&levels.ptx_text, f.name, &dir).expect("the replica builds");
        let n = exhaustive::check_replica(&c, f, &exe, 2048).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(n, 2048);
        let m = exhaustive::run(f, &exe, 1 << 12, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.inputs, 1 << 20);
        assert!(m.rechecked > 0 && m.estimate_drift < exhaustive::MARGIN / 10.0, "{m:?}");
        if m.over_bound > 0 || m.max_ulp > f.bound.max(0.5) {
            bad.push(format!("{}: {:.3} ulp at {:e}, {} inputs over the bound", f.name, m.max_ulp, m.worst, m.over_bound));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The instructions whose PTX semantics differ from C's (saturating conversions, shifts by
/// the width or more, clz of 0, copysign's operand order) agree with the simulator.
#[test]
fn the_replica_follows_the_simulator_on_the_irregular_instructions() {
    let src = r#"
extern "C" __global__ void k_t(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    unsigned u = __float_as_uint(v);
    int s = (int)v;
    long long l = (long long)(v * 1e10f);
    unsigned sh = (u >> (u & 63)) ^ (u << (u & 47));
    long long w = (long long)u * -3;
    int c = __clz(u) + __popc(u) + __clzll(w);
    float r = copysignf(v * 0.5f, -v) + (float)s + (float)(l & 0xff) + (float)(sh & 0xffff) + (float)c;
    r += rintf(v) + truncf(v) + floorf(v) + ceilf(v) + (float)(w % 7) + (float)(u / 5u);
    double d = (double)v;
    r += (float)(d / 3.0) + sqrtf(fabsf(v)) + __fmaf_rn(v, v, -1.0f) + fminf(v, 2.0f) + (float)max((int)u, -5);
    y[i] = r;
  }
}
"#;
    let levels = cuprite::levels::compile_levels("irregular.cu", src, &Default::default()).expect("compiles");
    let prog = replica::unary_program(&levels.ptx_text, "k_t", 4).unwrap_or_else(|e| panic!("{e}\n{}", levels.ptx_text));
    let exe = exhaustive::compile_program(&prog, "t", &temp_dir("irregular")).expect("the replica builds");
    let mut xs: Vec<f64> = specials_f32().into_iter().map(|x| x as f64).collect();
    let mut rng = Rng::new(7);
    while xs.len() < 8192 {
        xs.push(rng.bits(Fmt::F32));
    }
    let c = Compiled::Cuprite(levels);
    let sim = c.run_fmt("t", Fmt::F32, cuprite_sim::Level::Ptx, &[&xs]).expect("simulates");
    let bits: Vec<u32> = xs.iter().map(|&x| (x as f32).to_bits()).collect();
    let nat = exhaustive::run_replica(&exe, &bits).expect("runs");
    for ((x, s), r) in xs.iter().zip(&sim).zip(&nat) {
        let (s, r) = (*s as f32, f32::from_bits(*r));
        assert!(s.to_bits() == r.to_bits() || (s.is_nan() && r.is_nan()), "x = {x:e}: simulator {s:e}, replica {r:e}");
    }
    let _ = std::fs::remove_dir_all(exe.parent().unwrap());
}

#[test]
fn the_replica_refuses_what_it_cannot_reproduce_exactly() {
    let ptx = ".visible .entry k_a(\n\t.param .u64 k_a_param_0\n)\n{\n\t.reg .f32 \t%f<3>;\n\tex2.approx.ftz.f32 \t%f2, %f1;\n\tret;\n}\n";
    let e = replica::translate_kernel(ptx, "k_a").unwrap_err();
    assert!(e.contains("line 6") && e.contains("ex2.approx.ftz.f32") && e.contains(".approx"), "{e}");
    let ptx = ".visible .entry k_s(\n)\n{\n\t.reg .b64 \t%rd<3>;\n\t.reg .f32 \t%f<3>;\n\tld.shared.f32 \t%f1, [%rd1];\n\tret;\n}\n";
    let e = replica::translate_kernel(ptx, "k_s").unwrap_err();
    assert!(e.contains("only global and local memory"), "{e}");
    let e = replica::translate_kernel(ptx, "k_missing").unwrap_err();
    assert!(e.contains("no kernel k_missing"), "{e}");
}

#[test]
fn the_estimate_flags_special_mismatches_and_threshold_doubts() {
    use exhaustive::estimate;
    assert_eq!(estimate(f32::NAN, f64::NAN), (0.0, false));
    assert!(estimate(1.0, f64::NAN).0.is_infinite());
    assert_eq!(estimate(f32::INFINITY, f64::INFINITY).0, 0.0);
    assert!(estimate(f32::MAX, 1e39).0.is_infinite());
    assert!(estimate(-0.0, 0.0).0.is_infinite());
    assert!((estimate(1.0 + f32::EPSILON, 1.0).0 - 1.0).abs() < 1e-12);
    // just above FLT_MAX + half an ulp: rounding the double decides inf, so MPFR must
    let ovf = (2.0 - f64::powi(2.0, -24)) * f64::powi(2.0, 127);
    assert!(estimate(f32::INFINITY, ovf * (1.0 + f64::EPSILON)).1);
    assert!(!estimate(f32::INFINITY, f64::INFINITY).1);
}
