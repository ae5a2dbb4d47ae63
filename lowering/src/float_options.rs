//! nvcc's floating-point code-generation flags, shared by the conversions that implement
//! them (see [`FloatOptions`]).

/// How single-precision division is lowered (nvcc's `-prec-div` and `--use_fast_math`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DivMode {
    /// IEEE division, correctly rounded (`div.rn.f32`): the default.
    #[default]
    Precise,
    /// `-prec-div=false`: `div.full.f32` (2 ulp, full range).
    Full,
    /// `--use_fast_math`: `div.approx.f32` (2 ulp for divisors below 2^126).
    Approx,
}

/// The floating-point code-generation flags, as nvcc's. Each conversion pass takes its part:
/// `convert-arith-to-nvvm` the division mode and `fmad`, `convert-math-to-nvvm`
/// `approx-sqrt`, `convert-func-to-nvvm` `ftz`.
///
/// | flag | effect |
/// |---|---|
/// | `-ftz=true` | [`ftz`](Self::ftz): `.ftz` on every f32 instruction that has it |
/// | `-prec-div=false` | [`div`](Self::div) = [`DivMode::Full`] |
/// | `-prec-sqrt=false` | [`approx_sqrt`](Self::approx_sqrt) |
/// | `-fmad=false` | [`no_fma_contraction`](Self::no_fma_contraction) |
/// | `--use_fast_math` | ftz, [`DivMode::Approx`], approx_sqrt (and, at link time, the standard functions become their `__` intrinsics) |
#[derive(Clone, Debug, Default)]
pub struct FloatOptions {
    /// Single-precision division.
    pub div: DivMode,
    /// Single-precision `sqrtf` (`math.sqrt` on f32) with `sqrt.approx.f32` instead of
    /// `sqrt.rn.f32`.
    pub approx_sqrt: bool,
    /// Flush f32 subnormal inputs and results to zero: every `nvvm.func` carries [`crate::FTZ`],
    /// which the PTX emitter and the simulator read (the `cuda` level stays IEEE, so with
    /// this flag the levels agree from `nvvm` down).
    pub ftz: bool,
    /// Never contract a multiplication and an addition into an fma (nvcc's `-fmad=false`).
    /// Functions marked [`cuprite_dialects::hints::NO_CONTRACT`] (the device math library's, whose compensated
    /// arithmetic needs every product rounded as written) are lowered this way always.
    pub no_fma_contraction: bool,
}

impl FloatOptions {
    /// What `--use_fast_math` implies.
    pub fn fast_math() -> Self {
        FloatOptions { div: DivMode::Approx, approx_sqrt: true, ftz: true, no_fma_contraction: false }
    }
    /// `convert-arith-to-nvvm`'s part.
    pub fn arith(&self) -> crate::conversions::arith_to_nvvm::ArithToNvvmOptions {
        crate::conversions::arith_to_nvvm::ArithToNvvmOptions { div: self.div, no_fma_contraction: self.no_fma_contraction }
    }
    /// `convert-math-to-nvvm`'s part.
    pub fn math(&self) -> crate::conversions::math_to_nvvm::MathToNvvmOptions {
        crate::conversions::math_to_nvvm::MathToNvvmOptions { approx_sqrt: self.approx_sqrt }
    }
}
