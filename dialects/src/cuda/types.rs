//! The `cuda` dialect's types. They are dialect types the core IR keeps as text
//! (`!cuda.ptr<f32, global>`), written in one canonical spelling by the builders here, so
//! that equal types are equal [`TypeId`]s; [`decode`] reads them back.
//!
//! - `!cuda.ptr<T>` (generic) and `!cuda.ptr<T, global|shared|constant|local>`;
//! - `!cuda.array<N x T>`;
//! - `!cuda.struct<"name", {T1, T2}>`, with ` align N` after the fields when the struct
//!   was declared with a larger alignment than its fields give, and `!cuda.struct<"name">`
//!   for a reference to a struct inside its own fields.
//!
//! Scalars are builtin signless types: `i1` (`bool`), `i8`..`i64`, `bf16`, `f16`, `f32`,
//! `f64`; signedness is in the `arith` ops.

use cuprite_ir::{print::type_to_string, Context, Signedness, TypeId, TypeKind};

/// Address spaces, numbered as NVPTX numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Generic,
    Global,
    Shared,
    Constant,
    Local,
}

impl AddrSpace {
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            AddrSpace::Generic => None,
            AddrSpace::Global => Some("global"),
            AddrSpace::Shared => Some("shared"),
            AddrSpace::Constant => Some("constant"),
            AddrSpace::Local => Some("local"),
        }
    }
    pub fn from_keyword(s: &str) -> Option<Self> {
        Some(match s {
            "global" => AddrSpace::Global,
            "shared" => AddrSpace::Shared,
            "constant" => AddrSpace::Constant,
            "local" => AddrSpace::Local,
            _ => return None,
        })
    }
}

fn opaque(ctx: &mut Context, body: String) -> TypeId {
    let dialect = ctx.sym("cuda");
    ctx.ty(TypeKind::Opaque { dialect, body: format!(".{body}") })
}

fn body(ctx: &Context, t: TypeId) -> Option<&str> {
    match ctx.type_kind(t) {
        TypeKind::Opaque { dialect, body } if ctx.str(*dialect) == "cuda" => body.strip_prefix('.'),
        _ => None,
    }
}

/// `!cuda.ptr<pointee[, space]>`.
pub fn ptr(ctx: &mut Context, pointee: TypeId, space: AddrSpace) -> TypeId {
    let p = type_to_string(ctx, pointee);
    let b = match space.keyword() {
        Some(s) => format!("ptr<{p}, {s}>"),
        None => format!("ptr<{p}>"),
    };
    opaque(ctx, b)
}

/// `!cuda.array<n x elem>`.
pub fn array(ctx: &mut Context, elem: TypeId, n: u64) -> TypeId {
    let e = type_to_string(ctx, elem);
    opaque(ctx, format!("array<{n} x {e}>"))
}

/// `!cuda.struct<"name", {fields}[ align N]>` (`fields: None`: a reference by name).
pub fn structure(ctx: &mut Context, name: &str, fields: Option<&[TypeId]>, align: Option<u32>) -> TypeId {
    let mut b = format!("struct<\"{name}\"");
    if let Some(fields) = fields {
        b.push_str(", {");
        for (i, &f) in fields.iter().enumerate() {
            if i > 0 {
                b.push_str(", ");
            }
            b.push_str(&type_to_string(ctx, f));
        }
        b.push('}');
        if let Some(a) = align {
            b.push_str(&format!(" align {a}"));
        }
    }
    b.push('>');
    opaque(ctx, b)
}

/// `iN`: C's integers are signless at every level; the ops that care (`arith.divsi`,
/// `arith.extui`, `arith.cmpi ult`) carry the signedness.
pub fn int(ctx: &mut Context, width: u32) -> TypeId {
    ctx.ty(TypeKind::Integer { width, signedness: Signedness::Signless })
}

/// Whether `t` is a `!cuda.ptr`.
pub fn is_ptr(ctx: &Context, t: TypeId) -> bool {
    body(ctx, t).is_some_and(|b| b.starts_with("ptr<"))
}

/// Whether `t` is an integer, a float or a `!cuda.ptr`.
pub fn is_scalar(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. } | TypeKind::Float(_)) || is_ptr(ctx, t)
}

/// A `cuda` type, read back from its text.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    Ptr { pointee: String, space: AddrSpace },
    Array { n: u64, elem: String },
    Struct { name: String, fields: Option<Vec<String>>, align: Option<u32> },
}

/// Splits `s` at top-level commas (outside `<>`, `{}`, `()` and quotes).
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut quoted) = (0i32, 0, false);
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '<' | '{' | '(' | '[' if !quoted => depth += 1,
            '>' | '}' | ')' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// Reads a `cuda` type's structure (component types as text, to parse with the IR
/// parser); `None` if `t` is not one.
pub fn decode(ctx: &Context, t: TypeId) -> Option<Decoded> {
    let b = body(ctx, t)?;
    if let Some(inner) = b.strip_prefix("ptr<").and_then(|r| r.strip_suffix('>')) {
        let parts = split_top(inner);
        let space = match parts.get(1) {
            Some(s) => AddrSpace::from_keyword(s)?,
            None => AddrSpace::Generic,
        };
        return Some(Decoded::Ptr { pointee: parts.first()?.to_string(), space });
    }
    if let Some(inner) = b.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
        let (n, elem) = inner.split_once(" x ")?;
        return Some(Decoded::Array { n: n.trim().parse().ok()?, elem: elem.trim().to_string() });
    }
    let inner = b.strip_prefix("struct<\"").and_then(|r| r.strip_suffix('>'))?;
    let (name, rest) = inner.split_once('"')?;
    let rest = rest.trim_start_matches(',').trim();
    if rest.is_empty() {
        return Some(Decoded::Struct { name: name.to_string(), fields: None, align: None });
    }
    let close = rest.rfind('}')?;
    let fields = split_top(rest.get(1..close)?).into_iter().map(str::to_string).collect();
    let align = rest[close + 1..].trim().strip_prefix("align ").and_then(|a| a.trim().parse().ok());
    Some(Decoded::Struct { name: name.to_string(), fields: Some(fields), align })
}
