//! The floating-point code-generation flags, as nvcc's: `-ftz`, `-prec-div`, `-prec-sqrt`,
//! `-fmad` (each `=true` or `=false`) and `--use_fast_math`, which implies `-ftz=true
//! -prec-div=false -prec-sqrt=false -fmad=true`, approximate division (`div.approx`, where
//! `-prec-div=false` alone gives `div.full`), and maps the standard single-precision
//! functions to their intrinsics at link time. An explicit flag wins over what
//! `--use_fast_math` implies, in either order. `compile` and `run` share them.

use cuprite_lowering::{DivMode, FloatOptions};

/// The flags as given.
#[derive(Clone, Debug, Default)]
pub struct FloatFlags {
    pub fast_math: bool,
    pub ftz: Option<bool>,
    pub prec_div: Option<bool>,
    pub prec_sqrt: Option<bool>,
    pub fmad: Option<bool>,
}

/// The usage text of the flags (for `compile` and `run`).
pub const USAGE: &str = "  --use_fast_math              As nvcc: -ftz=true -prec-div=false -prec-sqrt=false,
                               div.approx for f32 division, and the standard functions
                               with a fast intrinsic use it (expf is __expf, sinf is
                               __sinf, powf is __powf, ...)
  -ftz=<true|false>            Flush f32 subnormals to zero (.ftz; default false)
  -prec-div=<true|false>       IEEE f32 division (default true; false: div.full.f32)
  -prec-sqrt=<true|false>      IEEE f32 square root (default true; false: sqrt.approx)
  -fmad=<true|false>           Contract a*b+c into fma (default true); the math
                               library's own code is never contracted
";

impl FloatFlags {
    /// Takes `arg` if it is one of these flags (with one or two leading dashes): `None` if
    /// it is not, `Some(Err(message))` for a value other than true or false.
    pub fn parse(&mut self, arg: &str) -> Option<Result<(), String>> {
        let a = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
        if a == "use_fast_math" {
            self.fast_math = true;
            return Some(Ok(()));
        }
        let (name, v) = a.split_once('=')?;
        let slot = match name {
            "ftz" => &mut self.ftz,
            "prec-div" => &mut self.prec_div,
            "prec-sqrt" => &mut self.prec_sqrt,
            "fmad" => &mut self.fmad,
            _ => return None,
        };
        *slot = Some(match v {
            "true" => true,
            "false" => false,
            _ => return Some(Err(format!("-{name} takes true or false, not '{v}'"))),
        });
        Some(Ok(()))
    }

    /// The lowering's options.
    pub fn lowering(&self) -> FloatOptions {
        let fm = self.fast_math;
        let div = match (self.prec_div, fm) {
            (Some(true), _) => DivMode::Precise,
            (_, true) => DivMode::Approx,
            (Some(false), false) => DivMode::Full,
            (None, false) => DivMode::Precise,
        };
        FloatOptions {
            div,
            approx_sqrt: !self.prec_sqrt.unwrap_or(!fm),
            ftz: self.ftz.unwrap_or(fm),
            no_fma_contraction: !self.fmad.unwrap_or(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_flags_win_over_fast_math_in_either_order() {
        let mut f = FloatFlags::default();
        assert!(f.parse("-ftz=false").is_some());
        assert!(f.parse("--use_fast_math").is_some());
        let l = f.lowering();
        assert!(!l.ftz && l.approx_sqrt && l.div == DivMode::Approx);
        assert!(f.parse("-prec-div=true").is_some());
        assert_eq!(f.lowering().div, DivMode::Precise);
    }

    #[test]
    fn prec_div_false_alone_is_div_full() {
        let mut f = FloatFlags::default();
        assert_eq!(f.lowering().div, DivMode::Precise);
        f.parse("-prec-div=false");
        assert_eq!(f.lowering().div, DivMode::Full);
        assert!(!f.lowering().ftz);
    }

    #[test]
    fn bad_values_and_other_flags() {
        let mut f = FloatFlags::default();
        assert!(matches!(f.parse("-ftz=maybe"), Some(Err(_))));
        assert!(f.parse("-O3").is_none());
        assert!(f.parse("--emit=ptx").is_none());
    }
}
