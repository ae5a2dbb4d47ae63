//! Interned attributes: compile-time constant data attached to operations.

crate::arena::id_type!(
    /// An interned attribute, valid in the [`crate::Context`] that made it.
    AttrId,
    "attr"
);

use crate::{symbol::Symbol, types::TypeId};

/// A named attribute (`name = value`).
pub type NamedAttr = (Symbol, AttrId);

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    /// `unit`: presence is the information.
    Unit,
    /// An integer of type `ty` (integer or index); `i1` values print as `true`/`false`. `value` holds the value normalized to the
    /// type: sign-extended for signless and signed types, zero-extended for unsigned.
    Integer {
        value: i128,
        ty: TypeId,
    },
    /// A float of type `ty`; `bits` is the IEEE encoding in that format.
    Float {
        bits: u64,
        ty: TypeId,
    },
    String(String),
    Type(TypeId),
    Array(Vec<AttrId>),
    /// Sorted by name, no duplicates (as MLIR's DictionaryAttr).
    Dict(Vec<NamedAttr>),
    /// `@root::@nested...`
    SymbolRef {
        root: Symbol,
        nested: Vec<Symbol>,
    },
    /// `array<i32: 1, 2>`; float elements are stored as their bit patterns.
    DenseArray {
        elem: TypeId,
        values: Vec<i64>,
    },
    /// A builtin attribute we keep as text: `dense<...>`, `affine_map<...>`, `strided<...>`,
    /// `sparse<...>`, `distinct[...]<...>`. `body` includes the brackets (and the trailing
    /// `: type` is kept separately when present).
    BuiltinOpaque {
        keyword: Symbol,
        body: String,
        ty: Option<TypeId>,
    },
    /// An attribute of a dialect without an attribute hook: `#dialect.body`, verbatim.
    Opaque {
        dialect: Symbol,
        body: String,
    },
}
