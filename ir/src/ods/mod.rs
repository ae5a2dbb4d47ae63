//! Runtime support for ops declared in ODS (`.td` files read by `cuprite-tablegen`).
//!
//! The tablegen Rust backend turns each op into a static [`OpSpec`]: its operand, result,
//! attribute, region and successor groups with their constraints (generated predicate
//! functions), the type-equality traits, and its declarative assembly format as a list of
//! [`format::Fmt`] elements. This module interprets those tables:
//! - [`verify`]: the generated part of an op's verifier (counts, constraints, required
//!   attributes, type equalities, parents), run before the hand-written one;
//! - [`operand_range`]/[`result_range`]: the value groups, variadic ones included, that the
//!   generated wrappers' accessors return;
//! - [`format::print`]/[`format::parse`]: the custom form.
//!
//! The predicates named by `OpBase.td`'s constraints live here too (`is_signless_int`, ...).

pub mod format;

use crate::{AttrId, AttrKind, Context, FloatKind, OpId, RegionId, Signedness, TypeId, TypeKind};
use std::ops::Range;

/// Whether a value group is one value, zero or one, or any number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    Single,
    Optional,
    Variadic,
}

/// An operand or result group.
#[derive(Copy, Clone, Debug)]
pub struct ValueSpec {
    pub name: &'static str,
    pub arity: Arity,
    pub pred: fn(&Context, TypeId) -> bool,
    pub summary: &'static str,
    /// The one type the constraint allows, if it is buildable (the format infers it).
    pub builder: Option<fn(&mut Context) -> TypeId>,
}

/// How an attribute is written in a custom form.
#[derive(Copy, Clone, Debug)]
pub enum AttrFormat {
    /// As in the generic form.
    Plain,
    /// An integer enum (an integer attribute of `width` bits) written as the case keyword.
    Enum { cases: &'static [(&'static str, i64)], width: u32 },
    /// `#dialect.mnemonic<flag, ...>` written without `#dialect.`; `flags` in bit order,
    /// `none` for the empty set, `all` for all flags.
    Flags {
        dialect: &'static str,
        mnemonic: &'static str,
        flags: &'static [&'static str],
        separator: &'static str,
        none: &'static str,
        all: Option<&'static str>,
    },
    /// A unit attribute anchoring an optional group: present iff the group is written.
    Unit,
    /// An `array<i32: 1, 2>` written `[1, 2]`.
    DenseI32,
    /// A string attribute written as a symbol name (`@name`), as MLIR's `SymbolNameAttr`.
    SymbolName,
}

/// An attribute (property) declared by the op.
#[derive(Copy, Clone, Debug)]
pub struct AttrSpec {
    pub name: &'static str,
    pub optional: bool,
    pub pred: fn(&Context, AttrId) -> bool,
    pub summary: &'static str,
    /// Generic-form text of the value that an absent attribute stands for.
    pub default: Option<&'static str>,
    pub format: AttrFormat,
}

/// A region group.
#[derive(Copy, Clone, Debug)]
pub struct RegionSpec {
    pub name: &'static str,
    pub variadic: bool,
    pub pred: fn(&Context, RegionId) -> bool,
    pub summary: &'static str,
}

/// A successor group.
#[derive(Copy, Clone, Debug)]
pub struct SuccessorSpec {
    pub name: &'static str,
    pub variadic: bool,
}

/// A reference to the type(s) of a value group, in type-equality traits and formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeRef {
    Operand(u8),
    Result(u8),
    /// All operands / all results.
    Operands,
    Results,
}

/// Everything ODS says about an op that the runtime checks or uses.
#[derive(Debug)]
pub struct OpSpec {
    pub name: &'static str,
    pub operands: &'static [ValueSpec],
    pub results: &'static [ValueSpec],
    pub attrs: &'static [AttrSpec],
    pub regions: &'static [RegionSpec],
    pub successors: &'static [SuccessorSpec],
    /// `AttrSizedOperandSegments`: group sizes are in `operandSegmentSizes`.
    pub segmented_operands: bool,
    pub same_type_operands: bool,
    /// Groups of value groups that must all have one type (`AllTypesMatch`, then
    /// `SameOperandsAndResultType`), for the verifier and the format's type inference.
    pub type_groups: &'static [&'static [TypeRef]],
    /// How many of `type_groups` the generated verifier checks: the last one comes from the
    /// `SameOperandsAndResultType` trait, which the core verifier checks already.
    pub verified_type_groups: usize,
    /// `HasParent`/`ParentOneOf`.
    pub parent_ops: &'static [&'static str],
    /// `SingleBlockImplicitTerminator`.
    pub implicit_terminator: Option<&'static str>,
    pub format: Option<&'static [format::Fmt]>,
}

impl OpSpec {
    pub fn attr_index(&self, name: &str) -> Option<usize> {
        self.attrs.iter().position(|a| a.name == name)
    }
}

/// Sizes of value groups given the total count: single groups take one value, the one
/// variadic or optional group (at most one without segment sizes) the rest. `None` if the
/// count does not fit.
pub(crate) fn group_sizes(specs: &[ValueSpec], total: usize) -> Option<GroupSizes> {
    let fixed = specs.iter().filter(|s| s.arity == Arity::Single).count();
    let mut flexible = specs.iter().filter(|s| s.arity != Arity::Single);
    match (flexible.next(), flexible.next()) {
        (None, _) => (total == fixed).then(|| specs.iter().map(|_| 1).collect()),
        (Some(one), None) => {
            let rest = total.checked_sub(fixed)?;
            if one.arity == Arity::Optional && rest > 1 {
                return None;
            }
            Some(specs.iter().map(|s| if s.arity == Arity::Single { 1 } else { rest }).collect())
        }
        _ => None,
    }
}

/// Group sizes, inline for the usual handful of groups (the verifier runs on every op).
pub(crate) type GroupSizes = smallvec::SmallVec<[usize; 6]>;

/// `operandSegmentSizes` of an op, if present and well-formed.
pub fn segment_sizes(ctx: &Context, op: OpId) -> Option<GroupSizes> {
    match ctx.attr_kind(ctx.get_attr(op, "operandSegmentSizes")?) {
        AttrKind::DenseArray { values, .. } if values.iter().all(|&v| v >= 0) => Some(values.iter().map(|&v| v as usize).collect()),
        _ => None,
    }
}

/// The range of group `i` given the sizes of all groups.
fn range_at(sizes: &[usize], i: usize) -> Range<usize> {
    let start: usize = sizes[..i.min(sizes.len())].iter().sum();
    start..start + sizes.get(i).copied().unwrap_or(0)
}

fn operand_sizes(spec: &OpSpec, ctx: &Context, op: OpId) -> Option<GroupSizes> {
    if spec.segmented_operands {
        let s = segment_sizes(ctx, op)?;
        (s.len() == spec.operands.len() && s.iter().sum::<usize>() == ctx.num_operands(op)).then_some(s)
    } else {
        group_sizes(spec.operands, ctx.num_operands(op))
    }
}

/// The operand indices of group `i` (empty if the op does not match its spec; the verifier
/// reports that).
pub fn operand_range(spec: &OpSpec, ctx: &Context, op: OpId, i: usize) -> Range<usize> {
    // The common case, all groups single: group `i` is operand `i`.
    if !spec.segmented_operands && spec.operands.iter().all(|s| s.arity == Arity::Single) {
        return if ctx.num_operands(op) == spec.operands.len() { i..i + 1 } else { 0..0 };
    }
    operand_sizes(spec, ctx, op).map(|s| range_at(&s, i)).unwrap_or(0..0)
}

/// The result indices of group `i`.
pub fn result_range(spec: &OpSpec, ctx: &Context, op: OpId, i: usize) -> Range<usize> {
    if spec.results.iter().all(|s| s.arity == Arity::Single) {
        return if ctx.num_results(op) == spec.results.len() { i..i + 1 } else { 0..0 };
    }
    group_sizes(spec.results, ctx.num_results(op)).map(|s| range_at(&s, i)).unwrap_or(0..0)
}

/// The region indices of group `i`.
pub fn region_range(spec: &OpSpec, ctx: &Context, op: OpId, i: usize) -> Range<usize> {
    let fixed = spec.regions.iter().filter(|r| !r.variadic).count();
    let rest = ctx.regions(op).len().saturating_sub(fixed);
    let sizes: GroupSizes = spec.regions.iter().map(|r| if r.variadic { rest } else { 1 }).collect();
    range_at(&sizes, i)
}

/// The successor indices of group `i`.
pub fn successor_range(spec: &OpSpec, ctx: &Context, op: OpId, i: usize) -> Range<usize> {
    let fixed = spec.successors.iter().filter(|r| !r.variadic).count();
    let rest = ctx.num_successors(op).saturating_sub(fixed);
    let sizes: GroupSizes = spec.successors.iter().map(|r| if r.variadic { rest } else { 1 }).collect();
    range_at(&sizes, i)
}

/// The types of the values `r` names (inline up to a few values).
pub(crate) fn types_of(spec: &OpSpec, ctx: &Context, op: OpId, r: TypeRef) -> smallvec::SmallVec<[TypeId; 4]> {
    match r {
        TypeRef::Operand(i) => operand_range(spec, ctx, op, i as usize).map(|k| ctx.value_type(ctx.operand(op, k))).collect(),
        TypeRef::Result(i) => result_range(spec, ctx, op, i as usize).map(|k| ctx.value_type(ctx.result(op, k))).collect(),
        TypeRef::Operands => ctx.operands(op).map(|v| ctx.value_type(v)).collect(),
        TypeRef::Results => ctx.results(op).iter().map(|&v| ctx.value_type(v)).collect(),
    }
}

fn type_ref_name(spec: &OpSpec, r: TypeRef) -> String {
    match r {
        TypeRef::Operand(i) => format!("'{}'", spec.operands[i as usize].name),
        TypeRef::Result(i) => format!("'{}'", spec.results[i as usize].name),
        TypeRef::Operands => "the operands".into(),
        TypeRef::Results => "the results".into(),
    }
}

/// Whether `op` has the shape `spec` describes: group sizes that add up for operands and
/// results, the region and successor counts, the required attributes. Custom forms (ODS
/// ones and hand-written ones) rely on it; an op without it prints in generic form.
pub fn has_spec_shape(spec: &OpSpec, ctx: &Context, op: OpId) -> bool {
    let all_single = |v: &[ValueSpec]| v.iter().all(|s| s.arity == Arity::Single);
    let operands_ok = if !spec.segmented_operands && all_single(spec.operands) {
        ctx.num_operands(op) == spec.operands.len()
    } else {
        operand_sizes(spec, ctx, op).is_some()
    };
    let results_ok = if all_single(spec.results) {
        ctx.num_results(op) == spec.results.len()
    } else {
        group_sizes(spec.results, ctx.num_results(op)).is_some()
    };
    let count_ok = |n: usize, fixed: usize, variadic: bool| n == fixed || (variadic && n > fixed);
    operands_ok
        && results_ok
        && count_ok(ctx.regions(op).len(), spec.regions.iter().filter(|r| !r.variadic).count(), spec.regions.iter().any(|r| r.variadic))
        && count_ok(
            ctx.num_successors(op),
            spec.successors.iter().filter(|r| !r.variadic).count(),
            spec.successors.iter().any(|r| r.variadic),
        )
        && spec.attrs.iter().all(|a| match ctx.get_attr(op, a.name) {
            None => a.optional,
            Some(v) => attr_printable(ctx, v, a.format),
        })
}

/// Whether a custom form can print (and read back) attribute `v` the way `f` says.
fn attr_printable(ctx: &Context, v: AttrId, f: AttrFormat) -> bool {
    match (f, ctx.attr_kind(v)) {
        (AttrFormat::Plain | AttrFormat::Unit, _) => true,
        (AttrFormat::Enum { cases, .. }, AttrKind::Integer { value, .. }) => cases.iter().any(|c| c.1 as i128 == *value),
        (AttrFormat::Flags { .. }, _) => canonical_flags_of(ctx, v, f).is_some(),
        (AttrFormat::DenseI32, AttrKind::DenseArray { elem, .. }) => is_signless_int(ctx, *elem, 32),
        (AttrFormat::SymbolName, AttrKind::String(_)) => true,
        _ => false,
    }
}

/// The generated part of the verifier: group counts, type and attribute constraints,
/// required attributes, region and successor counts, type-equality traits and parents.
pub fn verify(spec: &OpSpec, ctx: &Context, op: OpId) -> Result<(), String> {
    // 1. Operand groups and their constraints (all-single groups need no size computation).
    if !spec.segmented_operands && spec.operands.iter().all(|s| s.arity == Arity::Single) {
        if ctx.num_operands(op) != spec.operands.len() {
            return Err(format!("expected {} operands, but found {}", spec.operands.len(), ctx.num_operands(op)));
        }
        for (k, s) in spec.operands.iter().enumerate() {
            check_value(ctx, ctx.operand(op, k), k, s, "operand")?;
        }
    } else {
        let Some(sizes) = operand_sizes(spec, ctx, op) else {
            if spec.segmented_operands {
                return Err(format!(
                    "requires 'operandSegmentSizes' with {} non-negative sizes summing to the {} operands",
                    spec.operands.len(),
                    ctx.num_operands(op)
                ));
            }
            return Err(format!("expected {} operands, but found {}", count_text(spec.operands), ctx.num_operands(op)));
        };
        for (i, s) in spec.operands.iter().enumerate() {
            let r = range_at(&sizes, i);
            if s.arity == Arity::Single && r.len() != 1 || s.arity == Arity::Optional && r.len() > 1 {
                return Err(format!("operand group '{}' must have {} value(s), found {}", s.name, arity_text(s.arity), r.len()));
            }
            for k in r {
                check_value(ctx, ctx.operand(op, k), k, s, "operand")?;
            }
        }
    }
    // 2. Results.
    if spec.results.iter().all(|s| s.arity == Arity::Single) {
        if ctx.num_results(op) != spec.results.len() {
            return Err(format!("expected {} results, but found {}", spec.results.len(), ctx.num_results(op)));
        }
        for (k, s) in spec.results.iter().enumerate() {
            check_value(ctx, ctx.result(op, k), k, s, "result")?;
        }
    } else {
        let Some(rsizes) = group_sizes(spec.results, ctx.num_results(op)) else {
            return Err(format!("expected {} results, but found {}", count_text(spec.results), ctx.num_results(op)));
        };
        for (i, s) in spec.results.iter().enumerate() {
            for k in range_at(&rsizes, i) {
                check_value(ctx, ctx.result(op, k), k, s, "result")?;
            }
        }
    }
    // 3. Attributes: the declared ones, and no undeclared property.
    for &(name, _) in ctx.props(op) {
        let n = ctx.str(name);
        if n != "operandSegmentSizes" && !spec.attrs.iter().any(|a| a.name == n) {
            return Err(format!("'{n}' is not a property of '{}' (discardable attributes go in the {{...}} dictionary)", spec.name));
        }
    }
    for a in spec.attrs {
        match ctx.get_attr(op, a.name) {
            None if !a.optional => return Err(format!("requires attribute '{}'", a.name)),
            None => {}
            Some(v) => {
                if !(a.pred)(ctx, v) {
                    return Err(format!("attribute '{}' failed to satisfy constraint: {}", a.name, a.summary));
                }
                if let AttrFormat::Enum { cases, .. } = a.format {
                    let ok = matches!(ctx.attr_kind(v), AttrKind::Integer { value, .. } if cases.iter().any(|c| c.1 as i128 == *value));
                    if !ok {
                        return Err(format!("attribute '{}' is not a valid case of {}", a.name, a.summary));
                    }
                }
                if let AttrFormat::Flags { dialect, mnemonic, flags, none, all, .. } = a.format {
                    let ok_flag = |f: &str| flags.contains(&f) || f == none || Some(f) == all;
                    if flags_of(ctx, v, dialect, mnemonic).is_none_or(|fs| fs.iter().any(|f| !ok_flag(f))) {
                        return Err(format!(
                            "attribute '{}' must be #{dialect}.{mnemonic}<...> with flags among {}",
                            a.name,
                            flags.join(", ")
                        ));
                    }
                }
            }
        }
    }
    // 4. Regions and successors.
    let fixed = spec.regions.iter().filter(|r| !r.variadic).count();
    let n = ctx.regions(op).len();
    if n < fixed || (n != fixed && !spec.regions.iter().any(|r| r.variadic)) {
        return Err(format!("requires {fixed} region(s), found {n}"));
    }
    for (i, s) in spec.regions.iter().enumerate() {
        for k in region_range(spec, ctx, op, i) {
            if !(s.pred)(ctx, ctx.region(op, k)) {
                return Err(format!("region #{k} ('{}') failed to verify constraint: {}", s.name, s.summary));
            }
        }
    }
    let fixed = spec.successors.iter().filter(|r| !r.variadic).count();
    let n = ctx.num_successors(op);
    if n < fixed || (n != fixed && !spec.successors.iter().any(|r| r.variadic)) {
        return Err(format!("requires {fixed} successor(s), found {n}"));
    }
    // 5. Traits.
    if spec.same_type_operands {
        let mut ops = ctx.operands(op);
        if let Some(first) = ops.next() {
            let t = ctx.value_type(first);
            if ops.any(|v| ctx.value_type(v) != t) {
                return Err("requires all operands to have the same type".into());
            }
        }
    }
    for group in &spec.type_groups[..spec.verified_type_groups.min(spec.type_groups.len())] {
        let mut seen: Option<(TypeId, TypeRef)> = None;
        for &r in group.iter() {
            for t in types_of(spec, ctx, op, r) {
                match seen {
                    None => seen = Some((t, r)),
                    Some((s, first)) if s != t => {
                        return Err(format!(
                            "failed to verify that all of {{{}}} have same type ({} is '{}', {} is '{}')",
                            group.iter().map(|&g| type_ref_name(spec, g)).collect::<Vec<_>>().join(", "),
                            type_ref_name(spec, first),
                            crate::print::type_to_string(ctx, s),
                            type_ref_name(spec, r),
                            crate::print::type_to_string(ctx, t)
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    if !spec.parent_ops.is_empty() {
        let parent = ctx.parent_op(op).map(|p| ctx.op_name_str(p));
        if !parent.is_some_and(|p| spec.parent_ops.contains(&p)) {
            let names: Vec<String> = spec.parent_ops.iter().map(|p| format!("'{p}'")).collect();
            return Err(format!("expects parent op {}{}", if names.len() > 1 { "to be one of " } else { "" }, names.join(", ")));
        }
    }
    if let Some(term) = spec.implicit_terminator {
        for &r in ctx.regions(op) {
            for &b in ctx.region_blocks(r) {
                if !ctx.terminator(b).is_some_and(|t| ctx.is_op(t, term)) {
                    return Err(format!("expects regions to end with '{term}'"));
                }
            }
        }
    }
    Ok(())
}

fn check_value(ctx: &Context, v: crate::ValueId, k: usize, s: &ValueSpec, what: &str) -> Result<(), String> {
    let t = ctx.value_type(v);
    if (s.pred)(ctx, t) {
        Ok(())
    } else {
        Err(format!("{what} #{k} ('{}') must be {}, but got '{}'", s.name, s.summary, crate::print::type_to_string(ctx, t)))
    }
}

fn arity_text(a: Arity) -> &'static str {
    match a {
        Arity::Single => "exactly one",
        Arity::Optional => "zero or one",
        Arity::Variadic => "any number of",
    }
}

fn count_text(specs: &[ValueSpec]) -> String {
    let fixed = specs.iter().filter(|s| s.arity == Arity::Single).count();
    if specs.iter().any(|s| s.arity != Arity::Single) {
        format!("at least {fixed}")
    } else {
        fixed.to_string()
    }
}

/// The flags of a `#dialect.mnemonic<a, b>` attribute (its opaque body is `.mnemonic<a, b>`).
pub fn flags_of(ctx: &Context, a: AttrId, dialect: &str, mnemonic: &str) -> Option<Vec<String>> {
    let AttrKind::Opaque { dialect: d, body } = ctx.attr_kind(a) else { return None };
    if ctx.str(*d) != dialect {
        return None;
    }
    let inner = body.strip_prefix('.')?.strip_prefix(mnemonic)?.trim().strip_prefix('<')?.strip_suffix('>')?;
    let flags: Vec<String> = inner.split(',').map(|s| s.trim().to_string()).collect();
    // `<,nsw>` or `<>` are not flag lists.
    (!flags.iter().any(String::is_empty)).then_some(flags)
}

/// The canonical body `mnemonic<a, b>` of a flags attribute: flags in bit order, `all` when
/// every flag is set, `none` when none is. `None` if a flag is unknown (returned as `Err`).
pub fn canonical_flags(
    names: &[&str],
    mnemonic: &str,
    flags: &[&str],
    separator: &str,
    none: &str,
    all: Option<&str>,
) -> Result<String, String> {
    let mut set = vec![false; flags.len()];
    for n in names {
        if *n == none {
            continue;
        }
        if Some(*n) == all {
            set.iter_mut().for_each(|s| *s = true);
            continue;
        }
        match flags.iter().position(|f| f == n) {
            Some(i) => set[i] = true,
            None => return Err(n.to_string()),
        }
    }
    let inner = if set.iter().all(|s| !s) {
        none.to_string()
    } else if all.is_some() && set.iter().all(|s| *s) {
        all.unwrap_or_default().to_string()
    } else {
        flags.iter().zip(&set).filter(|(_, s)| **s).map(|(f, _)| *f).collect::<Vec<_>>().join(separator)
    };
    Ok(format!("{mnemonic}<{inner}>"))
}

/// The canonical `mnemonic<...>` text of flags attribute `a` under format `f` (flags in bit
/// order, `none`/`all` spelled as such), if `a` is such an attribute with known flags.
pub fn canonical_flags_of(ctx: &Context, a: AttrId, f: AttrFormat) -> Option<String> {
    let AttrFormat::Flags { dialect, mnemonic, flags, separator, none, all } = f else { return None };
    let names = flags_of(ctx, a, dialect, mnemonic)?;
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    canonical_flags(&names, mnemonic, flags, separator, none, all).ok()
}

/// Makes an attribute from the generic-form text ODS writes for defaults: `#dialect.body`,
/// `N : iK`, `true`/`false`, or a string in quotes.
pub fn attr_from_text(ctx: &mut Context, text: &str) -> Option<AttrId> {
    if let Some(rest) = text.strip_prefix('#') {
        let dot = rest.find('.')?;
        let dialect = ctx.sym(&rest[..dot]);
        return Some(ctx.attr(AttrKind::Opaque { dialect, body: rest[dot..].to_string() }));
    }
    if text == "true" || text == "false" {
        let t = ctx.int_type(1);
        return Some(ctx.int_attr(i128::from(text == "true"), t));
    }
    if let Some(s) = text.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return Some(ctx.str_attr(s));
    }
    let (v, ty) = text.split_once(':')?;
    let v: i128 = v.trim().parse().ok()?;
    let ty = ty.trim();
    let t = if ty == "index" { ctx.index_type() } else { ctx.int_type(ty.strip_prefix('i')?.parse().ok()?) };
    Some(ctx.int_attr(v, t))
}

// ----- predicates used by OpBase.td's constraints ------------------------------------------

pub fn is_signless_int(ctx: &Context, t: TypeId, width: u32) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { width: w, signedness: Signedness::Signless } if *w == width)
}
pub fn is_signless_int_any(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { signedness: Signedness::Signless, .. })
}
pub fn is_int(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. })
}
pub fn is_index(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Index)
}
pub fn is_signless_int_or_index(ctx: &Context, t: TypeId) -> bool {
    is_signless_int_any(ctx, t) || is_index(ctx, t)
}
pub fn is_float(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(_))
}
pub fn is_float_kind(ctx: &Context, t: TypeId, k: FloatKind) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(f) if *f == k)
}
pub fn is_pointer(ctx: &Context, t: TypeId, space: Option<u32>) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Pointer { addr_space } if space.is_none_or(|s| s == *addr_space))
}
/// Classes of types for [`is_type_attr`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Function,
}
pub fn is_type_attr(ctx: &Context, a: AttrId, class: Option<TypeClass>) -> bool {
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => match class {
            None => true,
            Some(TypeClass::Function) => matches!(ctx.type_kind(*t), TypeKind::Function { .. }),
        },
        _ => false,
    }
}
pub fn is_unit_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Unit)
}
pub fn is_str_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::String(_))
}
pub fn is_flat_symbol_ref(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::SymbolRef { nested, .. } if nested.is_empty())
}
pub fn is_array_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Array(_))
}
pub fn is_dict_array_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Array(l) if l.iter().all(|&e| matches!(ctx.attr_kind(e), AttrKind::Dict(_))))
}
pub fn is_int_attr(ctx: &Context, a: AttrId, width: Option<u32>) -> bool {
    match ctx.attr_kind(a) {
        AttrKind::Integer { ty, .. } => width.is_none_or(|w| ctx.int_width(*ty) == Some(w) && !is_index(ctx, *ty)),
        _ => false,
    }
}
pub fn is_index_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { ty, .. } if is_index(ctx, *ty))
}
pub fn is_dense_i32_array(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::DenseArray { elem, .. } if is_signless_int(ctx, *elem, 32))
}
pub fn is_typed_scalar_attr(ctx: &Context, a: AttrId) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. } | AttrKind::Float { .. })
}
pub fn is_flags_attr(ctx: &Context, a: AttrId, dialect: &str, mnemonic: &str) -> bool {
    flags_of(ctx, a, dialect, mnemonic).is_some()
}
