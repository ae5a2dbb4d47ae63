//! Sizes, alignments and field offsets of `cuda` types, with NVPTX's data layout (pointers
//! 8 bytes, `bool` 1, natural alignment of scalars, C struct layout).

use super::types::{decode, Decoded};
use cuprite_ir::{parse::Parser, Context, TypeId, TypeKind};

/// Size and alignment in bytes (`None`: an incomplete type such as a struct named only).
pub fn size_align(ctx: &mut Context, t: TypeId) -> Option<(u64, u64)> {
    if let Some(b) = scalar_size(ctx, t) {
        return Some((b, b));
    }
    match decode(ctx, t)? {
        Decoded::Ptr { .. } => Some((8, 8)),
        Decoded::Array { n, elem } => {
            let e = parse_ty(ctx, &elem)?;
            let (s, a) = size_align(ctx, e)?;
            Some((s * n, a))
        }
        Decoded::Struct { fields, align, .. } => {
            let (_, size, a) = struct_layout(ctx, &fields?, align)?;
            Some((size, a))
        }
    }
}

/// The size in bytes of a builtin scalar type (an integer, a float, an `!llvm.ptr`), which
/// is also its alignment; `None` for anything else. The one definition of scalar sizes,
/// for the `cuda` and `nvvm` levels both (mem2reg and the simulator use it).
pub fn scalar_size(ctx: &Context, t: TypeId) -> Option<u64> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(width.div_ceil(8).max(1) as u64),
        TypeKind::Float(k) => Some((k.width() / 8) as u64),
        TypeKind::Pointer { .. } => Some(8),
        _ => None,
    }
}

/// The field offsets, size and alignment of a struct with `fields` (type texts).
fn struct_layout(ctx: &mut Context, fields: &[String], align: Option<u32>) -> Option<(Vec<u64>, u64, u64)> {
    let mut off = 0u64;
    let mut max_align = align.unwrap_or(1) as u64;
    let mut offsets = Vec::with_capacity(fields.len());
    for f in fields {
        let t = parse_ty(ctx, f)?;
        let (s, a) = size_align(ctx, t)?;
        off = off.div_ceil(a) * a;
        offsets.push(off);
        off += s;
        max_align = max_align.max(a);
    }
    // An empty struct still takes a byte (C++), then rounds up to its alignment like any
    // other: `struct __align__(16) E {}` is 16 bytes.
    let size = off.max(u64::from(fields.is_empty())).div_ceil(max_align) * max_align;
    Some((offsets, size, max_align))
}

/// The byte offset of field `index` of the struct `t` points to, and the field's type.
pub fn field(ctx: &mut Context, struct_ty: TypeId, index: usize) -> Option<(u64, TypeId)> {
    let Decoded::Struct { fields: Some(fields), align, .. } = decode(ctx, struct_ty)? else { return None };
    let (offsets, _, _) = struct_layout(ctx, &fields, align)?;
    let t = parse_ty(ctx, fields.get(index)?)?;
    Some((*offsets.get(index)?, t))
}

/// What a `!cuda.ptr` points to.
pub fn pointee(ctx: &mut Context, ptr: TypeId) -> Option<TypeId> {
    match decode(ctx, ptr)? {
        Decoded::Ptr { pointee, .. } => parse_ty(ctx, &pointee),
        _ => None,
    }
}

/// A type from its text (the `cuda` types keep their components as text).
pub fn parse_ty(ctx: &mut Context, text: &str) -> Option<TypeId> {
    Parser::new(ctx, text, "<type>").parse_type().ok()
}

/// Most scalars an aggregate passed or copied by value may have (the copy is one load and
/// one store per scalar).
pub const MAX_LEAVES: usize = 256;

/// The scalars a struct or array is made of, in memory order: each one's byte offset and
/// (cuda) type; nested structs and arrays are flattened, padding is left out. `None` for a
/// scalar, an incomplete type, or an aggregate of more than [`MAX_LEAVES`] scalars.
pub fn leaves(ctx: &mut Context, t: TypeId) -> Option<Vec<(u64, TypeId)>> {
    if !is_aggregate(ctx, t) {
        return None;
    }
    let mut out = Vec::new();
    push_leaves(ctx, t, 0, &mut out).then_some(out)
}

/// Whether `t` is a struct or an array (a value of it is copied member by member).
pub fn is_aggregate(ctx: &Context, t: TypeId) -> bool {
    matches!(decode(ctx, t), Some(Decoded::Struct { .. } | Decoded::Array { .. }))
}

fn push_leaves(ctx: &mut Context, t: TypeId, base: u64, out: &mut Vec<(u64, TypeId)>) -> bool {
    match decode(ctx, t) {
        None | Some(Decoded::Ptr { .. }) => {
            if out.len() >= MAX_LEAVES {
                return false;
            }
            out.push((base, t));
            true
        }
        Some(Decoded::Array { n, elem }) => {
            let Some(e) = parse_ty(ctx, &elem) else { return false };
            let Some((size, _)) = size_align(ctx, e) else { return false };
            (0..n).all(|k| push_leaves(ctx, e, base + k * size, out))
        }
        Some(Decoded::Struct { fields: Some(fields), align, .. }) => {
            let Some((offsets, _, _)) = struct_layout(ctx, &fields, align) else { return false };
            fields.iter().zip(offsets).all(|(f, off)| parse_ty(ctx, f).is_some_and(|ft| push_leaves(ctx, ft, base + off, out)))
        }
        Some(Decoded::Struct { fields: None, .. }) => false,
    }
}
