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

// ----- parameter syntax ------------------------------------------------------------------
//
// MLIR reads a dialect type it knows only from IRDL (`irdl.type @ptr`) in parameter syntax:
// `!cuda.ptr<f32, "global">`, `!cuda.array<4 : i64, f32>`, `!cuda.struct<"s", [f32], 0 : i64>`,
// `!cuda.struct_ref<"s">`. These two functions translate a type's body between that and the
// canonical spelling, nested `cuda` types included (see `ops.td`'s `TypeDef`s).

/// A component type's text in parameter syntax (nested `cuda` types translated).
fn component_to_params(t: &str) -> String {
    match t.strip_prefix("!cuda") {
        Some(body) => format!("!cuda{}", type_to_params(body)),
        None => t.to_string(),
    }
}

/// A component type's canonical text.
fn component_from_params(t: &str) -> String {
    match t.strip_prefix("!cuda") {
        Some(body) => format!("!cuda{}", type_from_params(body).unwrap_or_else(|| body.to_string())),
        None => t.to_string(),
    }
}

/// The body of a `cuda` type (`.ptr<f32, global>`) in parameter syntax (`.ptr<f32, "global">`).
pub fn type_to_params(body: &str) -> String {
    let Some(b) = body.strip_prefix('.') else { return body.to_string() };
    if let Some(inner) = b.strip_prefix("ptr<").and_then(|r| r.strip_suffix('>')) {
        let parts = split_top(inner);
        let space = parts.get(1).copied().unwrap_or("generic");
        return format!(".ptr<{}, \"{space}\">", component_to_params(parts.first().copied().unwrap_or_default()));
    }
    if let Some((n, elem)) = b.strip_prefix("array<").and_then(|r| r.strip_suffix('>')).and_then(|i| i.split_once(" x ")) {
        return format!(".array<{} : i64, {}>", n.trim(), component_to_params(elem.trim()));
    }
    if let Some(inner) = b.strip_prefix("struct<\"").and_then(|r| r.strip_suffix('>')) {
        if let Some((name, rest)) = inner.split_once('"') {
            let rest = rest.trim_start_matches(',').trim();
            if rest.is_empty() {
                return format!(".struct_ref<\"{name}\">");
            }
            if let Some(close) = rest.rfind('}') {
                let fields: Vec<String> = split_top(&rest[1..close]).into_iter().map(component_to_params).collect();
                let align = rest[close + 1..].trim().strip_prefix("align ").map_or("0", str::trim);
                return format!(".struct<\"{name}\", [{}], {align} : i64>", fields.join(", "));
            }
        }
    }
    body.to_string()
}

/// The canonical body of a `cuda` type written in parameter syntax; `None` if `body` is
/// not in parameter syntax.
pub fn type_from_params(body: &str) -> Option<String> {
    let b = body.strip_prefix('.')?;
    if let Some(inner) = b.strip_prefix("ptr<").and_then(|r| r.strip_suffix('>')) {
        let parts = split_top(inner);
        let [pointee, space] = parts.as_slice() else { return None };
        let space = space.strip_prefix('"')?.strip_suffix('"')?;
        let pointee = component_from_params(pointee);
        return Some(match space {
            "generic" => format!(".ptr<{pointee}>"),
            s => format!(".ptr<{pointee}, {s}>"),
        });
    }
    if let Some(inner) = b.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
        let parts = split_top(inner);
        let [n, elem] = parts.as_slice() else { return None };
        let n = n.strip_suffix(": i64")?.trim();
        return Some(format!(".array<{n} x {}>", component_from_params(elem)));
    }
    if let Some(inner) = b.strip_prefix("struct_ref<").and_then(|r| r.strip_suffix('>')) {
        return Some(format!(".struct<{}>", inner.trim()));
    }
    let inner = b.strip_prefix("struct<").and_then(|r| r.strip_suffix('>'))?;
    let parts = split_top(inner);
    let [name, fields, align] = parts.as_slice() else { return None };
    let fields = fields.strip_prefix('[')?.strip_suffix(']')?;
    let fields: Vec<String> = split_top(fields).into_iter().map(component_from_params).collect();
    let align = align.strip_suffix(": i64")?.trim();
    let align = if align == "0" { String::new() } else { format!(" align {align}") };
    Some(format!(".struct<{name}, {{{}}}{align}>", fields.join(", ")))
}

/// The canonical body of a `cuda` type as written (canonical or parameter syntax), or why
/// it is not a `cuda` type: the parser reports that at the type.
pub fn canonical_type(body: &str) -> Result<String, String> {
    let canon = type_from_params(body).unwrap_or_else(|| body.to_string());
    check(&canon)?;
    Ok(canon)
}

/// Checks a component type: a nested `cuda` type is checked in turn.
fn check_component(t: &str, what: &str) -> Result<(), String> {
    match t.strip_prefix("!cuda") {
        Some(body) => check(body),
        None if t.is_empty() => Err(format!("{what} has no type")),
        None => Ok(()),
    }
}

/// Checks a canonical `cuda` type body (`.ptr<f32, global>`).
fn check(body: &str) -> Result<(), String> {
    let unknown = || {
        format!(
            "unknown cuda type '!cuda{body}' (expected !cuda.ptr<T[, space]>, !cuda.array<N x T> or !cuda.struct<\"name\", {{T, ...}}>)"
        )
    };
    let b = body.strip_prefix('.').ok_or_else(unknown)?;
    if let Some(inner) = b.strip_prefix("ptr<").and_then(|r| r.strip_suffix('>')) {
        let parts = split_top(inner);
        if parts.is_empty() || parts.len() > 2 {
            return Err(format!("!cuda.ptr takes a pointee type and an optional address space, found '{inner}'"));
        }
        if let Some(s) = parts.get(1) {
            if AddrSpace::from_keyword(s).is_none() {
                return Err(format!("unknown address space '{s}' (global, shared, constant or local; none for generic)"));
            }
        }
        return check_component(parts[0], "the pointer");
    }
    if let Some(inner) = b.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
        let Some((n, elem)) = inner.split_once(" x ") else { return Err(format!("!cuda.array needs 'N x T', found '{inner}'")) };
        if n.trim().parse::<u64>().is_err() {
            return Err(format!("the length of a !cuda.array must be a number, found '{}'", n.trim()));
        }
        return check_component(elem.trim(), "the array");
    }
    if let Some(inner) = b.strip_prefix("struct<").and_then(|r| r.strip_suffix('>')) {
        let Some((name, rest)) = inner.strip_prefix('"').and_then(|r| r.split_once('"')) else {
            return Err(format!("a !cuda.struct starts with its quoted name, found '{inner}'"));
        };
        let rest = rest.trim_start().strip_prefix(',').unwrap_or(rest).trim();
        if rest.is_empty() {
            return Ok(());
        }
        let Some(close) = rest.rfind('}').filter(|_| rest.starts_with('{')) else {
            return Err(format!("the fields of !cuda.struct \"{name}\" go in braces, found '{rest}'"));
        };
        for f in split_top(&rest[1..close]) {
            check_component(f, "a field")?;
        }
        let tail = rest[close + 1..].trim();
        if !tail.is_empty() && tail.strip_prefix("align ").and_then(|a| a.trim().parse::<u32>().ok()).is_none() {
            return Err(format!("after the fields of !cuda.struct \"{name}\" only 'align N' may follow, found '{tail}'"));
        }
        return Ok(());
    }
    Err(unknown())
}
