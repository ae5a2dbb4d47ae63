//! Interned types.
//!
//! Builtin types are structured ([`TypeKind`]); types of other dialects are either
//! [`TypeKind::Opaque`] (the text after `!dialect.`, kept verbatim so it round-trips) or,
//! when a dialect registers a type hook, whatever structured form that dialect parses them
//! into. A [`TypeId`] compares equal exactly when the types are equal.

crate::arena::id_type!(
    /// An interned type, valid in the [`crate::Context`] that made it.
    TypeId,
    "ty"
);

use crate::symbol::Symbol;

/// Signedness of an integer type (`i32`, `si32`, `ui32`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

/// Floating-point formats.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
}

impl FloatKind {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }
    /// Significand precision in bits, the implicit bit included (LLVM's `semantics.precision`).
    pub fn mantissa_bits(self) -> u32 {
        match self {
            FloatKind::F16 => 11,
            FloatKind::BF16 => 8,
            FloatKind::F32 => 24,
            FloatKind::F64 => 53,
        }
    }
    /// The keyword (`f32`).
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
}

/// Maximum integer width; values are held in an `i128` (see [`crate::AttrKind::Integer`]).
pub const MAX_INT_WIDTH: u32 = 128;

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    Integer {
        width: u32,
        signedness: Signedness,
    },
    Float(FloatKind),
    Index,
    None,
    Function {
        inputs: Vec<TypeId>,
        results: Vec<TypeId>,
    },
    /// A pointer in an address space (printed as `!llvm.ptr` / `!llvm.ptr<N>`, the
    /// spelling upstream MLIR's LLVM dialect uses).
    Pointer {
        addr_space: u32,
    },
    /// A builtin type with a body we keep as text: `vector<4xf32>`, `tensor<?xf32>`,
    /// `memref<...>`, `complex<f32>`, `tuple<...>`. `body` includes the angle brackets.
    BuiltinOpaque {
        keyword: Symbol,
        body: String,
    },
    /// A type of a dialect without a type hook: `!dialect.body`, body kept verbatim.
    Opaque {
        dialect: Symbol,
        body: String,
    },
}
