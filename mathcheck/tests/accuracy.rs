//! Every function of the library meets CUDA's documented bound on the
//! special values (which must come out exactly: NaN, infinities, signed zeros), the
//! overflow and underflow thresholds and random inputs. `math-accuracy` measures with more
//! samples; its table is in `mathcheck/RESULTS.md`.
use cuprite_mathcheck::*;

#[test]
fn every_function_meets_its_bound() {
    let funcs = functions();
    let c = Compiled::new(&funcs, 90).expect("the library compiles");
    let mut bad = Vec::new();
    for f in &funcs {
        let m = measure(&c, f, 1 << 14, 3).expect("runs");
        if m.max_ulp > f.bound.max(0.5) {
            bad.push(format!("{}: {:.3} ulp (bound {}) at {:?} -> {:?}", f.name, m.max_ulp, f.bound, m.worst, m.worst_got));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_library_compiles_for_every_target() {
    for sm in [75, 80, 90] {
        if let Err(e) = cuprite_frontend::libm::compile_library(sm) {
            panic!("sm_{sm}: {e}");
        }
    }
}

#[test]
fn ulp_error_of_special_results_is_exact_or_infinite() {
    let f = |v: f64| rug::Float::with_val(PREC, v);
    assert_eq!(ulp_error_f32(0.0, &f(0.0)), 0.0);
    assert!(ulp_error_f32(-0.0, &f(0.0)).is_infinite());
    assert!(ulp_error_f32(f32::NAN, &f(1.0)).is_infinite());
    assert_eq!(ulp_error_f32(f32::INFINITY, &f(1e39)), 0.0);
    assert!((ulp_error_f32(1.0 + f32::EPSILON, &f(1.0)) - 1.0).abs() < 1e-12);
    assert!((ulp_error_f32(f32::from_bits(2), &f(f32::from_bits(1) as f64)) - 1.0).abs() < 1e-12);
}
