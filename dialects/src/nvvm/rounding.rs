//! CUDA's intrinsics with an explicit rounding mode, read from their names: the arithmetic
//! ones (`__fadd_rz`, `__dmul_ru`, `__fmaf_rd`, `__fsqrt_rn`, `__drcp_rz`, ...) and the
//! conversions (`__int2float_rd`, `__double2float_ru`, `__float2ll_rn`, `__ull2double_rz`,
//! ...). CUDA spells the modes `rn`, `rz`, `rd`, `ru`; PTX `rn`, `rz`, `rm`, `rp`.
//!
//! One decoder for every consumer: the cuda-to-nvvm lowering turns each into an
//! `nvvm.intr` ([`Rounded::nvvm_name`]), which the verifier accepts beside the fixed
//! [`super::INTRINSICS`] and instruction selection prints as the PTX instruction with that
//! mode, and the simulator's `cuda` and `nvvm` levels run both forms with the same
//! rounding. The explicit mode also keeps them from being contracted into an `fma`, as
//! CUDA documents.

/// A rounding mode, by PTX's name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Rn,
    Rz,
    Rm,
    Rp,
}

impl Mode {
    /// PTX's modifier (`rn`, `rz`, `rm`, `rp`).
    pub fn ptx(self) -> &'static str {
        match self {
            Mode::Rn => "rn",
            Mode::Rz => "rz",
            Mode::Rm => "rm",
            Mode::Rp => "rp",
        }
    }

    fn from_ptx(s: &str) -> Option<Mode> {
        Some(match s {
            "rn" => Mode::Rn,
            "rz" => Mode::Rz,
            "rm" => Mode::Rm,
            "rp" => Mode::Rp,
            _ => return None,
        })
    }

    fn from_cuda(s: &str) -> Option<Mode> {
        Some(match s {
            "rn" => Mode::Rn,
            "rz" => Mode::Rz,
            "rd" => Mode::Rm,
            "ru" => Mode::Rp,
            _ => return None,
        })
    }
}

/// What a conversion's operand or result is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Num {
    Signed,
    Unsigned,
    Float,
}

impl Num {
    fn letter(self) -> char {
        match self {
            Num::Signed => 's',
            Num::Unsigned => 'u',
            Num::Float => 'f',
        }
    }

    fn from_letter(c: &str) -> Option<Num> {
        Some(match c {
            "s" => Num::Signed,
            "u" => Num::Unsigned,
            "f" => Num::Float,
            _ => return None,
        })
    }

    /// A CUDA type name in an intrinsic's name (`int`, `ull`, `float`, ...).
    fn from_cuda(s: &str) -> Option<Num> {
        Some(match s {
            "int" | "ll" => Num::Signed,
            "uint" | "ull" => Num::Unsigned,
            "float" | "double" => Num::Float,
            _ => return None,
        })
    }
}

/// An operation with an explicit rounding mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rounded {
    /// `add`, `sub`, `mul`, `div`, `fma`, `sqrt` or `rcp`, in the operands' float type.
    Arith(&'static str, Mode),
    /// A conversion between a float and an integer or between floats; the widths are the
    /// operand's and the result's types. A float to an integer rounds to an integer in the
    /// mode (then saturates, as PTX's `cvt.rni`/`rzi`/`rmi`/`rpi`).
    Convert { from: Num, to: Num, mode: Mode },
}

const ARITH: [&str; 7] = ["add", "sub", "mul", "div", "fma", "sqrt", "rcp"];

impl Rounded {
    /// The CUDA intrinsic `name` (`__fadd_rz`, `__float2uint_rd`, ...), if it is one.
    pub fn from_cuda(name: &str) -> Option<Rounded> {
        let (stem, mode) = name.strip_prefix("__")?.rsplit_once('_')?;
        let mode = Mode::from_cuda(mode)?;
        if let Some((from, to)) = stem.split_once('2') {
            let (from, to) = (Num::from_cuda(from)?, Num::from_cuda(to)?);
            if from != Num::Float && to != Num::Float {
                return None;
            }
            return Some(Rounded::Convert { from, to, mode });
        }
        let op = match stem {
            "fmaf" | "fmaf_ieee" | "fma" => "fma",
            _ => {
                // `f` or `d` and the operation: `fadd`, `dsqrt`.
                let op = stem.strip_prefix('f').or_else(|| stem.strip_prefix('d'))?;
                *ARITH.iter().find(|&&a| a == op && a != "fma")?
            }
        };
        Some(Rounded::Arith(op, mode))
    }

    /// How many operands it takes.
    pub fn operands(self) -> usize {
        match self {
            Rounded::Arith("fma", _) => 3,
            Rounded::Arith("add" | "sub" | "mul" | "div", _) => 2,
            _ => 1,
        }
    }

    /// The `nvvm.intr` name: `add.rz`, `sqrt.rn`; `cvt.rm.f.s` (float to signed).
    pub fn nvvm_name(self) -> String {
        match self {
            Rounded::Arith(op, mode) => format!("{op}.{}", mode.ptx()),
            Rounded::Convert { from, to, mode } => format!("cvt.{}.{}.{}", mode.ptx(), from.letter(), to.letter()),
        }
    }

    /// Reads an `nvvm.intr` name back (`None` for the other intrinsics).
    pub fn from_nvvm(name: &str) -> Option<Rounded> {
        let mut parts = name.split('.');
        let op = parts.next()?;
        let mode = Mode::from_ptx(parts.next()?)?;
        if op == "cvt" {
            let from = Num::from_letter(parts.next()?)?;
            let to = Num::from_letter(parts.next()?)?;
            return parts.next().is_none().then_some(Rounded::Convert { from, to, mode });
        }
        let op = ARITH.iter().find(|&&a| a == op)?;
        parts.next().is_none().then_some(Rounded::Arith(op, mode))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_cuda_names() {
        assert_eq!(Rounded::from_cuda("__fadd_rz"), Some(Rounded::Arith("add", Mode::Rz)));
        assert_eq!(Rounded::from_cuda("__dmul_ru"), Some(Rounded::Arith("mul", Mode::Rp)));
        assert_eq!(Rounded::from_cuda("__fmaf_ieee_rd"), Some(Rounded::Arith("fma", Mode::Rm)));
        assert_eq!(Rounded::from_cuda("__fma_rn"), Some(Rounded::Arith("fma", Mode::Rn)));
        assert_eq!(Rounded::from_cuda("__dsqrt_rz"), Some(Rounded::Arith("sqrt", Mode::Rz)));
        assert_eq!(Rounded::from_cuda("__frcp_ru"), Some(Rounded::Arith("rcp", Mode::Rp)));
        assert_eq!(Rounded::from_cuda("__float2uint_rd"), Some(Rounded::Convert { from: Num::Float, to: Num::Unsigned, mode: Mode::Rm }));
        assert_eq!(Rounded::from_cuda("__ll2double_rz"), Some(Rounded::Convert { from: Num::Signed, to: Num::Float, mode: Mode::Rz }));
        // Not rounded ones, and integer-to-integer names.
        for n in ["__frsqrt_rn", "__fdividef", "__int2uint_rn", "__float2half_rn", "__fadd", "fadd_rz", "__fma_rx"] {
            assert_eq!(Rounded::from_cuda(n), None, "{n}");
        }
    }

    #[test]
    fn nvvm_names_round_trip() {
        for n in ["__fadd_rz", "__dsub_rd", "__fmaf_ru", "__drcp_rn", "__double2float_rd", "__uint2float_rz", "__float2ll_ru"] {
            let r = Rounded::from_cuda(n).expect(n);
            assert_eq!(Rounded::from_nvvm(&r.nvvm_name()), Some(r), "{n}");
        }
        assert_eq!(Rounded::from_nvvm("sqrt.approx"), None);
        assert_eq!(Rounded::from_nvvm("fma.rn.extra"), None);
    }
}
