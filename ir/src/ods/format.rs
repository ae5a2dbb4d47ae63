//! MLIR's declarative assembly format, interpreted from the element list the tablegen
//! backend generates for an op.
//!
//! Printing follows MLIR's `OpFormatGen` spacing exactly, so our custom form is the text
//! mlir-opt prints: a space goes before each element except after `(`, `[`, `{`, `<` and
//! before `)`, `]`, `}`, `>`, `,` (and `` ` ` ``/``` `` ``` literals force or suppress one).
//! The spacing state is threaded through the format statically, optional groups included,
//! as MLIR's generator does at build time.
//!
//! Parsing:
//! 1. Walk the elements, collecting operand references, types, attributes, regions and
//!    successors. An optional group is parsed when its first element is next.
//! 2. Infer missing types: type-equality traits (`AllTypesMatch`,
//!    `SameOperandsAndResultType`, `SameTypeOperands`), then buildable constraints (`I1`).
//! 3. Resolve operands, fill default-valued attributes and `operandSegmentSizes`.

use super::{Arity, AttrFormat, OpSpec, TypeRef};
use crate::parse::{lexer::Tok, OpParser, OperandRef};
use crate::print::OpPrinter;
use crate::{AttrKind, Diagnostic, OpId, OperationState, TypeId, TypeKind};

/// One element of an assembly format.
#[derive(Copy, Clone, Debug)]
pub enum Fmt {
    /// A literal: a keyword, punctuation, `" "` (a space) or `""` (no space).
    Lit(&'static str),
    Operand(u8),
    /// `operands`: every operand (ops with one operand group).
    Operands,
    Attr(u8),
    Successor(u8),
    Region(u8),
    /// `attr-dict` / `attr-dict-with-keyword`.
    AttrDict {
        keyword: bool,
    },
    Type(TypeRef),
    FunctionalType(TypeRef, TypeRef),
    /// `( ... )?`: printed when the anchor (an index into `elems`) is present.
    Optional {
        elems: &'static [Fmt],
        anchor: u8,
    },
}

// ----- printing ------------------------------------------------------------------------------

struct PrintState {
    should_emit_space: bool,
    last_was_punctuation: bool,
}

fn should_emit_space_before(value: &str, last_was_punctuation: bool) -> bool {
    if value.len() != 1 && value != "->" {
        return true;
    }
    let c = value.as_bytes()[0];
    if last_was_punctuation {
        !b">)}],".contains(&c)
    } else {
        !b"<>(){}[],".contains(&c)
    }
}

/// Prints `op`'s custom form (after the op name) by `spec`'s format.
pub fn print(spec: &OpSpec, p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let Some(format) = spec.format else { return Ok(()) };
    let mut st = PrintState { should_emit_space: true, last_was_punctuation: false };
    print_elems(spec, p, op, format, &mut st, true);
    Ok(())
}

fn print_elems(spec: &OpSpec, p: &mut OpPrinter<'_, '_>, op: OpId, elems: &[Fmt], st: &mut PrintState, emit: bool) {
    for e in elems {
        print_elem(spec, p, op, e, st, emit);
    }
}

fn anchor_present(spec: &OpSpec, p: &OpPrinter<'_, '_>, op: OpId, e: &Fmt) -> bool {
    let ctx = p.ctx();
    match *e {
        Fmt::Operand(i) => !super::operand_range(spec, ctx, op, i as usize).is_empty(),
        Fmt::Operands => ctx.num_operands(op) > 0,
        Fmt::Attr(i) => {
            let a = &spec.attrs[i as usize];
            match ctx.get_attr(op, a.name) {
                None => false,
                Some(v) => !is_default(spec, ctx, i as usize, v),
            }
        }
        Fmt::Successor(i) => !super::successor_range(spec, ctx, op, i as usize).is_empty(),
        Fmt::Region(i) => super::region_range(spec, ctx, op, i as usize).any(|k| !ctx.region_blocks(ctx.region(op, k)).is_empty()),
        Fmt::Type(r) => !super::types_of(spec, ctx, op, r).is_empty(),
        _ => true,
    }
}

fn is_default(spec: &OpSpec, ctx: &crate::Context, i: usize, v: crate::AttrId) -> bool {
    let a = &spec.attrs[i];
    let Some(d) = a.default else { return false };
    match (a.format, ctx.attr_kind(v)) {
        (AttrFormat::Flags { .. }, AttrKind::Opaque { dialect, body }) => {
            let default_body = d.strip_prefix('#').and_then(|r| r.strip_prefix(ctx.str(*dialect))).and_then(|r| r.strip_prefix('.'));
            // Fast path: the stored text is the default's; else compare canonical forms.
            default_body
                .is_some_and(|db| body.strip_prefix('.') == Some(db) || super::canonical_flags_of(ctx, v, a.format).as_deref() == Some(db))
        }
        _ => crate::print::attr_to_string(ctx, v) == d,
    }
}

fn print_elem(spec: &OpSpec, p: &mut OpPrinter<'_, '_>, op: OpId, e: &Fmt, st: &mut PrintState, emit: bool) {
    let ctx = p.ctx();
    match *e {
        Fmt::Lit(" ") => {
            if emit {
                p.write(" ");
            }
            st.last_was_punctuation = false;
            st.should_emit_space = false;
        }
        Fmt::Lit("") => {
            st.last_was_punctuation = true;
            st.should_emit_space = false;
        }
        Fmt::Lit(v) => {
            if emit {
                if st.should_emit_space && should_emit_space_before(v, st.last_was_punctuation) {
                    p.write(" ");
                }
                p.write(v);
            }
            st.should_emit_space = v.len() != 1 || !b"<({[".contains(&v.as_bytes()[0]);
            st.last_was_punctuation = v.as_bytes()[0] != b'_' && !v.as_bytes()[0].is_ascii_alphabetic();
        }
        Fmt::AttrDict { keyword } => {
            if emit && !(ctx.props(op).is_empty() && ctx.attrs(op).is_empty()) {
                let elided = elided_attrs(spec, spec.format.unwrap_or(&[]), ctx, op);
                p.attr_dict(op, &elided, keyword.then_some(" attributes"));
            }
            st.last_was_punctuation = false;
        }
        Fmt::Optional { elems, anchor } => {
            let present = emit && anchor_present(spec, p, op, &elems[anchor as usize]);
            for (i, e) in elems.iter().enumerate() {
                // A unit attribute anchor is not printed: the group's literals stand for it.
                if i == anchor as usize && matches!(e, Fmt::Attr(a) if matches!(spec.attrs[*a as usize].format, AttrFormat::Unit)) {
                    continue;
                }
                print_elem(spec, p, op, e, st, present);
            }
        }
        _ => {
            if emit {
                if st.should_emit_space {
                    p.write(" ");
                }
                print_value_elem(spec, p, op, e);
            }
            st.should_emit_space = true;
            st.last_was_punctuation = false;
        }
    }
}

fn print_value_elem(spec: &OpSpec, p: &mut OpPrinter<'_, '_>, op: OpId, e: &Fmt) {
    let ctx = p.ctx();
    match *e {
        Fmt::Operand(i) => {
            let vals: Vec<_> = super::operand_range(spec, ctx, op, i as usize).map(|k| ctx.operand(op, k)).collect();
            p.operand_list(&vals);
        }
        Fmt::Operands => {
            let vals = ctx.operand_vec(op);
            p.operand_list(&vals);
        }
        Fmt::Attr(i) => {
            let a = &spec.attrs[i as usize];
            let Some(v) = ctx.get_attr(op, a.name) else { return };
            match (a.format, ctx.attr_kind(v)) {
                (AttrFormat::Unit, _) => {}
                (AttrFormat::SymbolName, AttrKind::String(s)) => p.symbol_name(s),
                (AttrFormat::DenseI32, AttrKind::DenseArray { values, .. }) => {
                    let text = values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
                    p.write(&format!("[{text}]"));
                }
                (AttrFormat::Enum { cases, .. }, AttrKind::Integer { value, .. }) => match cases.iter().find(|c| c.1 as i128 == *value) {
                    Some(c) => p.write(c.0),
                    None => p.attr(v),
                },
                // The stripped canonical form: `<nsw, nuw>` (the format's literal spells the
                // mnemonic), whatever order or spelling the generic form had.
                (AttrFormat::Flags { mnemonic, .. }, AttrKind::Opaque { body, .. }) => {
                    let text = super::canonical_flags_of(ctx, v, a.format).unwrap_or_else(|| body.trim_start_matches('.').to_string());
                    p.write(text.strip_prefix(mnemonic).unwrap_or(&text))
                }
                _ => p.attr(v),
            }
        }
        Fmt::Successor(i) => {
            for (n, k) in super::successor_range(spec, ctx, op, i as usize).enumerate() {
                if n > 0 {
                    p.write(", ");
                }
                p.block_ref(ctx.successor(op, k));
            }
        }
        Fmt::Region(i) => {
            for (n, k) in super::region_range(spec, ctx, op, i as usize).enumerate() {
                if n > 0 {
                    p.write(", ");
                }
                let r = ctx.region(op, k);
                let style = crate::print::RegionStyle { terminators: spec.implicit_terminator.is_none(), ..Default::default() };
                p.region_styled(r, style);
            }
        }
        Fmt::Type(r) => {
            let tys = super::types_of(spec, ctx, op, r);
            p.type_list(&tys);
        }
        Fmt::FunctionalType(a, b) => {
            let ins = super::types_of(spec, ctx, op, a);
            let outs = super::types_of(spec, ctx, op, b);
            p.write("(");
            p.type_list(&ins);
            p.write(") -> ");
            if outs.len() == 1 && !matches!(ctx.type_kind(outs[0]), TypeKind::Function { .. }) {
                p.ty(outs[0]);
            } else {
                p.write("(");
                p.type_list(&outs);
                p.write(")");
            }
        }
        _ => {}
    }
}

/// Attributes the `attr-dict` leaves out: those the format prints, `operandSegmentSizes`,
/// and default-valued ones holding their default.
fn elided_attrs(spec: &OpSpec, format: &[Fmt], ctx: &crate::Context, op: OpId) -> smallvec::SmallVec<[&'static str; 8]> {
    let mut out = smallvec::smallvec!["operandSegmentSizes"];
    fn walk(spec: &OpSpec, elems: &[Fmt], out: &mut smallvec::SmallVec<[&'static str; 8]>) {
        for e in elems {
            match *e {
                Fmt::Attr(i) => out.push(spec.attrs[i as usize].name),
                Fmt::Optional { elems, .. } => walk(spec, elems, out),
                _ => {}
            }
        }
    }
    walk(spec, format, &mut out);
    for (i, a) in spec.attrs.iter().enumerate() {
        if ctx.get_attr(op, a.name).is_some_and(|v| is_default(spec, ctx, i, v)) {
            out.push(a.name);
        }
    }
    out
}

// ----- parsing -------------------------------------------------------------------------------

struct Parsed<'a> {
    operands: Vec<Vec<OperandRef<'a>>>,
    operand_types: Vec<Option<Vec<TypeId>>>,
    result_types: Vec<Option<Vec<TypeId>>>,
    regions: Vec<Vec<crate::RegionId>>,
    successors: Vec<Vec<crate::BlockId>>,
}

fn punct_tok(s: &str) -> Option<Tok> {
    Some(match s {
        "(" => Tok::LParen,
        ")" => Tok::RParen,
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        "[" => Tok::LSquare,
        "]" => Tok::RSquare,
        "<" => Tok::Less,
        ">" => Tok::Greater,
        "," => Tok::Comma,
        ":" => Tok::Colon,
        "=" => Tok::Equal,
        "->" => Tok::Arrow,
        "?" => Tok::Question,
        "*" => Tok::Star,
        "+" => Tok::Plus,
        "-" => Tok::Minus,
        _ => return None,
    })
}

/// Parses `op`'s custom form (after the op name) by `spec`'s format into `st`.
pub fn parse<'a>(spec: &OpSpec, p: &mut OpParser<'a, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    let Some(format) = spec.format else { return Err(p.error_here("op has no assembly format")) };
    let mut parsed = Parsed {
        operands: vec![Vec::new(); spec.operands.len()],
        operand_types: vec![None; spec.operands.len()],
        result_types: vec![None; spec.results.len()],
        regions: vec![Vec::new(); spec.regions.len()],
        successors: vec![Vec::new(); spec.successors.len()],
    };
    // 1. The elements.
    parse_elems(spec, p, format, &mut parsed, st)?;
    // 2. Types the format does not spell out.
    infer_types(spec, p, &mut parsed)?;
    // 3. Operands, results, regions, successors, attributes.
    for (i, refs) in parsed.operands.iter().enumerate() {
        let tys = parsed.operand_types[i].clone().unwrap_or_default();
        if tys.len() != refs.len() {
            return Err(p.error_here(format!(
                "{} operands present, but expected {} types for '{}'",
                refs.len(),
                tys.len(),
                spec.operands[i].name
            )));
        }
        for (r, t) in refs.iter().zip(tys) {
            let v = p.resolve_operand(*r, t)?;
            st.operands.push(v);
        }
    }
    for (i, tys) in parsed.result_types.iter().enumerate() {
        match tys {
            Some(t) => st.result_types.extend_from_slice(t),
            None if spec.results[i].arity == Arity::Single => {
                return Err(p.error_here(format!("cannot infer the type of result '{}'", spec.results[i].name)))
            }
            None => {}
        }
    }
    for rs in &parsed.regions {
        for &r in rs {
            if let Some(term) = spec.implicit_terminator {
                ensure_terminator(p.ctx(), r, term, st.loc);
            }
            st.regions.push(r);
        }
    }
    for ss in &parsed.successors {
        st.successors.extend_from_slice(ss);
    }
    if spec.segmented_operands {
        let sizes: Vec<i64> = parsed.operands.iter().map(|g| g.len() as i64).collect();
        let ctx = p.ctx();
        let elem = ctx.int_type(32);
        let a = ctx.attr(AttrKind::DenseArray { elem, values: sizes });
        let k = ctx.sym("operandSegmentSizes");
        st.props.push((k, a));
    }
    for a in spec.attrs {
        let ctx = p.ctx();
        let k = ctx.sym(a.name);
        if st.props.iter().chain(&st.attrs).any(|(n, _)| *n == k) {
            continue;
        }
        if let Some(d) = a.default {
            if let Some(v) = super::attr_from_text(ctx, d) {
                st.props.push((k, v));
            }
        }
    }
    Ok(())
}

/// Appends terminator `term` to each block of `r` that lacks one (and a block to an empty
/// region), as MLIR's `SingleBlockImplicitTerminator` parsers do.
pub fn ensure_terminator(ctx: &mut crate::Context, r: crate::RegionId, term: &str, loc: crate::LocId) {
    if ctx.region_blocks(r).is_empty() {
        let b = ctx.create_block(&[]);
        ctx.append_block(r, b);
    }
    for b in ctx.region_blocks(r).to_vec() {
        if ctx.last_op(b).is_some_and(|t| ctx.has_trait(t, crate::Traits::TERMINATOR)) {
            continue;
        }
        let st = OperationState::new(ctx, term, loc);
        let t = ctx.create_op(st);
        ctx.insert_op(t, crate::InsertPoint::end(b));
    }
}

/// Whether the optional group starting with `e` is next in the input.
fn group_starts(spec: &OpSpec, p: &OpParser<'_, '_>, elems: &[Fmt]) -> bool {
    let Some(e) = elems.iter().find(|e| !matches!(e, Fmt::Lit(" ") | Fmt::Lit(""))) else { return false };
    match *e {
        Fmt::Lit(s) => match punct_tok(s) {
            Some(t) => p.at(t),
            None => p.at_keyword(s),
        },
        Fmt::Operand(_) | Fmt::Operands => p.at(Tok::PercentId),
        Fmt::Attr(i) => match spec.attrs[i as usize].format {
            AttrFormat::Flags { .. } => p.at(Tok::Less),
            AttrFormat::Enum { cases, .. } => p.peek_keyword().is_some_and(|k| cases.iter().any(|c| c.0 == k)),
            AttrFormat::Unit => false,
            AttrFormat::DenseI32 => p.at(Tok::LSquare),
            AttrFormat::SymbolName => p.at(Tok::AtId),
            AttrFormat::Plain => {
                [Tok::AtId, Tok::Int, Tok::Float, Tok::Str, Tok::HashId, Tok::LSquare].into_iter().any(|t| p.at(t))
                    || p.at_keyword("true")
                    || p.at_keyword("false")
            }
        },
        Fmt::Region(_) => p.at(Tok::LBrace),
        Fmt::Successor(_) => p.at(Tok::CaretId),
        Fmt::AttrDict { .. } => p.at(Tok::LBrace),
        Fmt::Type(_) | Fmt::FunctionalType(..) | Fmt::Optional { .. } => false,
    }
}

fn parse_elems<'a>(
    spec: &OpSpec,
    p: &mut OpParser<'a, '_>,
    elems: &[Fmt],
    out: &mut Parsed<'a>,
    st: &mut OperationState,
) -> Result<(), Diagnostic> {
    for e in elems {
        parse_elem(spec, p, e, out, st)?;
    }
    Ok(())
}

fn parse_type_list(p: &mut OpParser<'_, '_>) -> Result<Vec<TypeId>, Diagnostic> {
    let mut v = vec![p.parse_type()?];
    while p.eat(Tok::Comma) {
        v.push(p.parse_type()?);
    }
    Ok(v)
}

/// Splits `tys` over the groups `r` names (by the operand counts parsed so far, or the
/// result arities).
fn assign_types(spec: &OpSpec, p: &OpParser<'_, '_>, out: &mut Parsed<'_>, r: TypeRef, tys: Vec<TypeId>) -> Result<(), Diagnostic> {
    match r {
        TypeRef::Operand(i) => out.operand_types[i as usize] = Some(tys),
        TypeRef::Result(i) => out.result_types[i as usize] = Some(tys),
        TypeRef::Operands => {
            let mut at = 0;
            for (i, g) in out.operands.iter().enumerate() {
                let n = g.len();
                let Some(part) = tys.get(at..at + n) else {
                    return Err(p.error_here(format!(
                        "expected {} operand types, found {}",
                        out.operands.iter().map(Vec::len).sum::<usize>(),
                        tys.len()
                    )));
                };
                out.operand_types[i] = Some(part.to_vec());
                at += n;
            }
            if at != tys.len() {
                return Err(p.error_here(format!("expected {at} operand types, found {}", tys.len())));
            }
        }
        TypeRef::Results => {
            let Some(sizes) = super::group_sizes(spec.results, tys.len()) else {
                return Err(p.error_here(format!("{} result types do not fit the op's results", tys.len())));
            };
            let mut at = 0;
            for (i, n) in sizes.into_iter().enumerate() {
                out.result_types[i] = Some(tys[at..at + n].to_vec());
                at += n;
            }
        }
    }
    Ok(())
}

fn parse_elem<'a>(
    spec: &OpSpec,
    p: &mut OpParser<'a, '_>,
    e: &Fmt,
    out: &mut Parsed<'a>,
    st: &mut OperationState,
) -> Result<(), Diagnostic> {
    match *e {
        Fmt::Lit(" ") | Fmt::Lit("") => {}
        Fmt::Lit(s) => match punct_tok(s) {
            Some(t) => {
                p.expect(t)?;
            }
            None => p.expect_keyword(s)?,
        },
        Fmt::Operand(i) => {
            let g = &mut out.operands[i as usize];
            match spec.operands[i as usize].arity {
                Arity::Single => g.push(p.parse_operand()?),
                Arity::Optional => {
                    if p.at(Tok::PercentId) {
                        g.push(p.parse_operand()?);
                    }
                }
                Arity::Variadic => {
                    if p.at(Tok::PercentId) {
                        g.push(p.parse_operand()?);
                        while p.eat(Tok::Comma) {
                            g.push(p.parse_operand()?);
                        }
                    }
                }
            }
        }
        Fmt::Operands => {
            let g = &mut out.operands[0];
            if p.at(Tok::PercentId) {
                g.push(p.parse_operand()?);
                while p.eat(Tok::Comma) {
                    g.push(p.parse_operand()?);
                }
            }
        }
        Fmt::Attr(i) => {
            let a = &spec.attrs[i as usize];
            let v = match a.format {
                AttrFormat::Plain => p.parse_attr()?,
                AttrFormat::Unit => p.ctx().unit_attr(),
                AttrFormat::SymbolName => {
                    let name = p.parse_symbol_name()?;
                    p.ctx().str_attr(&name)
                }
                AttrFormat::DenseI32 => {
                    p.expect(Tok::LSquare)?;
                    let mut values = Vec::new();
                    if !p.eat(Tok::RSquare) {
                        loop {
                            let neg = p.eat(Tok::Minus);
                            let a = p.parse_attr()?;
                            let v = match p.ctx().attr_kind(a) {
                                AttrKind::Integer { value, .. } => *value,
                                _ => return Err(p.error_here("expected an integer in the i32 array")),
                            };
                            let v = if neg { -v } else { v };
                            if i32::try_from(v).is_err() {
                                return Err(p.error_here(format!("{v} does not fit in i32")));
                            }
                            values.push(v as i64);
                            if p.eat(Tok::RSquare) {
                                break;
                            }
                            p.expect(Tok::Comma)?;
                        }
                    }
                    let ctx = p.ctx();
                    let elem = ctx.int_type(32);
                    ctx.attr(AttrKind::DenseArray { elem, values })
                }
                AttrFormat::Enum { cases, width } => {
                    let Some(k) = p.peek_keyword() else { return Err(p.error_here(format!("expected a {} keyword", a.summary))) };
                    let Some(&(_, val)) = cases.iter().find(|c| c.0 == k) else {
                        let names: Vec<_> = cases.iter().map(|c| c.0).collect();
                        return Err(p.error_here(format!("'{k}' is not a {}: expected one of {}", a.summary, names.join(", "))));
                    };
                    p.expect(Tok::BareId)?;
                    let ctx = p.ctx();
                    let t = ctx.int_type(width);
                    ctx.int_attr(val as i128, t)
                }
                AttrFormat::Flags { dialect, mnemonic, flags, separator, none, all } => {
                    let body = p.parse_angle_body()?;
                    let inner = &body[1..body.len() - 1];
                    let names: Vec<&str> = inner.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
                    let body = super::canonical_flags(&names, mnemonic, flags, separator, none, all).map_err(|bad| {
                        p.error_here(format!("'{bad}' is not a {mnemonic} flag: expected one of {}, {none}", flags.join(", ")))
                    })?;
                    let ctx = p.ctx();
                    let d = ctx.sym(dialect);
                    ctx.attr(AttrKind::Opaque { dialect: d, body: format!(".{body}") })
                }
            };
            let ctx = p.ctx();
            let k = ctx.sym(a.name);
            st.props.push((k, v));
        }
        Fmt::Successor(i) => {
            let g = &mut out.successors[i as usize];
            g.push(p.parse_successor()?);
            if spec.successors[i as usize].variadic {
                while p.eat(Tok::Comma) {
                    let b = p.parse_successor()?;
                    out.successors[i as usize].push(b);
                }
            }
        }
        Fmt::Region(i) => {
            // A variadic group is a comma-separated list of regions, possibly empty.
            if spec.regions[i as usize].variadic {
                if p.at(Tok::LBrace) {
                    loop {
                        let r = p.parse_region(&[])?;
                        out.regions[i as usize].push(r);
                        if !p.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
            } else {
                let r = p.parse_region(&[])?;
                out.regions[i as usize].push(r);
            }
        }
        Fmt::AttrDict { keyword } => {
            if keyword && !p.eat_keyword("attributes") {
                return Ok(());
            }
            let mut attrs = Vec::new();
            p.parse_optional_attr_dict(&mut attrs)?;
            let ctx = p.ctx();
            for (k, v) in attrs {
                // Inherent attributes written in the dictionary are properties.
                if spec.attrs.iter().any(|a| a.name == ctx.str(k)) || ctx.str(k) == "operandSegmentSizes" {
                    st.props.push((k, v));
                } else {
                    st.attrs.push((k, v));
                }
            }
        }
        Fmt::Type(r) => {
            let variadic = match r {
                TypeRef::Operand(i) => spec.operands[i as usize].arity != Arity::Single,
                TypeRef::Result(i) => spec.results[i as usize].arity != Arity::Single,
                _ => true,
            };
            let tys = if variadic { parse_type_list(p)? } else { vec![p.parse_type()?] };
            assign_types(spec, p, out, r, tys)?;
        }
        Fmt::FunctionalType(a, b) => {
            p.expect(Tok::LParen)?;
            let ins = if p.eat(Tok::RParen) {
                Vec::new()
            } else {
                let v = parse_type_list(p)?;
                p.expect(Tok::RParen)?;
                v
            };
            p.expect(Tok::Arrow)?;
            let outs = if p.eat(Tok::LParen) {
                if p.eat(Tok::RParen) {
                    Vec::new()
                } else {
                    let v = parse_type_list(p)?;
                    p.expect(Tok::RParen)?;
                    v
                }
            } else {
                vec![p.parse_type()?]
            };
            assign_types(spec, p, out, a, ins)?;
            assign_types(spec, p, out, b, outs)?;
        }
        Fmt::Optional { elems, .. } => {
            if group_starts(spec, p, elems) {
                parse_elems(spec, p, elems, out, st)?;
            }
        }
    }
    Ok(())
}

fn infer_types(spec: &OpSpec, p: &mut OpParser<'_, '_>, out: &mut Parsed<'_>) -> Result<(), Diagnostic> {
    // Operand groups whose values all share one type take it from any known member.
    let get = |out: &Parsed<'_>, r: TypeRef| -> Option<TypeId> {
        match r {
            TypeRef::Operand(i) => out.operand_types[i as usize].as_ref().and_then(|v| v.first().copied()),
            TypeRef::Result(i) => out.result_types[i as usize].as_ref().and_then(|v| v.first().copied()),
            _ => None,
        }
    };
    for _ in 0..2 {
        for group in spec.type_groups {
            let known = group.iter().find_map(|&r| get(out, r));
            let Some(t) = known else { continue };
            for &r in group.iter() {
                match r {
                    TypeRef::Operand(i) => {
                        let n = out.operands[i as usize].len();
                        out.operand_types[i as usize].get_or_insert_with(|| vec![t; n]);
                    }
                    TypeRef::Result(i) => {
                        let n = if spec.results[i as usize].arity == Arity::Single { 1 } else { 0 };
                        out.result_types[i as usize].get_or_insert_with(|| vec![t; n]);
                    }
                    TypeRef::Operands => {
                        for (k, g) in out.operands.iter().enumerate() {
                            let n = g.len();
                            out.operand_types[k].get_or_insert_with(|| vec![t; n]);
                        }
                    }
                    TypeRef::Results => {
                        for (k, s) in spec.results.iter().enumerate() {
                            let n = if s.arity == Arity::Single { 1 } else { 0 };
                            out.result_types[k].get_or_insert_with(|| vec![t; n]);
                        }
                    }
                }
            }
        }
        if spec.same_type_operands {
            if let Some(t) = (0..spec.operands.len()).find_map(|i| get(out, TypeRef::Operand(i as u8))) {
                for (k, g) in out.operands.iter().enumerate() {
                    let n = g.len();
                    out.operand_types[k].get_or_insert_with(|| vec![t; n]);
                }
            }
        }
    }
    for (i, s) in spec.operands.iter().enumerate() {
        if out.operand_types[i].is_none() {
            let n = out.operands[i].len();
            match s.builder {
                Some(b) => {
                    let t = b(p.ctx());
                    out.operand_types[i] = Some(vec![t; n]);
                }
                None if n == 0 => out.operand_types[i] = Some(Vec::new()),
                None => return Err(p.error_here(format!("cannot infer the type of operand '{}'", s.name))),
            }
        }
    }
    for (i, s) in spec.results.iter().enumerate() {
        if out.result_types[i].is_none() {
            if let Some(b) = s.builder {
                let t = b(p.ctx());
                out.result_types[i] = Some(if s.arity == Arity::Single { vec![t] } else { Vec::new() });
            } else if s.arity != Arity::Single {
                out.result_types[i] = Some(Vec::new());
            }
        }
    }
    Ok(())
}
