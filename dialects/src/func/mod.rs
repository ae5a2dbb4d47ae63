//! The `func` dialect: `func.func`, `func.return`, `func.call`. Declared in `ops.td`; this
//! module holds the verifiers and `func.func`'s custom form (MLIR's
//! `function_interface_impl`: `func.func private @f(%arg0: i32 {attrs}) -> (i32) attributes {..} {..}`).

use cuprite_ir::{
    parse::{lexer::Tok, Argument, OpParser},
    print::{OpPrinter, RegionStyle},
    AttrId, AttrKind, Context, Diagnostic, OpId, OperationState, TypeId, TypeKind,
};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/func.rs"));
}
pub use ops::{register, CallOp, FuncOp, ReturnOp};

/// The `(inputs, results)` of a `func.func`'s `function_type`.
pub fn function_type(ctx: &Context, op: OpId) -> Option<(Vec<cuprite_ir::TypeId>, Vec<cuprite_ir::TypeId>)> {
    let a = ctx.get_attr(op, "function_type")?;
    let AttrKind::Type(t) = ctx.attr_kind(a) else { return None };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
        _ => None,
    }
}

fn str_prop<'c>(ctx: &'c Context, op: OpId, name: &str) -> Option<&'c str> {
    match ctx.attr_kind(ctx.get_attr(op, name)?) {
        AttrKind::String(s) => Some(s),
        _ => None,
    }
}

fn verify_func(ctx: &Context, op: OpId) -> Result<(), String> {
    verify_function_like(ctx, op)
}

/// The checks of `func.func`, for any op with its attributes (`cuda.func` too).
pub fn verify_function_like(ctx: &Context, op: OpId) -> Result<(), String> {
    let Some((inputs, results)) = function_type(ctx, op) else {
        return Err("requires a 'function_type' attribute of function type".into());
    };
    for (what, name, n) in [("argument", "arg_attrs", inputs.len()), ("result", "res_attrs", results.len())] {
        if let Some(AttrKind::Array(l)) = ctx.get_attr(op, name).map(|a| ctx.attr_kind(a)) {
            if l.len() != n {
                return Err(format!("expects {name} to have one dictionary per {what} ({n}), found {}", l.len()));
            }
        }
    }
    if let Some(v) = str_prop(ctx, op, "sym_visibility") {
        if !["public", "private", "nested"].contains(&v) {
            return Err(format!("visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{v}\""));
        }
    }
    if ctx.region_blocks(ctx.region(op, 0)).is_empty() && str_prop(ctx, op, "sym_visibility").is_none_or(|v| v == "public") {
        return Err("symbol declaration cannot have public visibility".into());
    }
    if let Some(entry) = ctx.entry_block(ctx.region(op, 0)) {
        let args = ctx.block_args(entry);
        if args.len() != inputs.len() {
            return Err(format!("entry block must have {} arguments to match function signature", inputs.len()));
        }
        for (i, (&a, &t)) in args.iter().zip(&inputs).enumerate() {
            if ctx.value_type(a) != t {
                return Err(format!(
                    "type of entry block argument #{i} must match the type of the corresponding argument in function signature"
                ));
            }
        }
    }
    Ok(())
}

fn verify_return(ctx: &Context, op: OpId) -> Result<(), String> {
    let Some(f) = ctx.parent_op(op) else { return Err("must be nested in 'func.func'".into()) };
    let Some((_, results)) = function_type(ctx, f) else { return Ok(()) };
    if results.len() != ctx.num_operands(op) {
        return Err(format!("has {} operands, but enclosing function returns {}", ctx.num_operands(op), results.len()));
    }
    for (i, (v, &t)) in ctx.operands(op).zip(&results).enumerate() {
        if ctx.value_type(v) != t {
            return Err(format!("type of return operand {i} doesn't match function result type"));
        }
    }
    Ok(())
}

/// The custom form shows the visibility as a keyword and the arguments from
/// `function_type` and the entry block: it needs them to agree.
fn can_print_func(ctx: &Context, op: OpId) -> bool {
    can_print_function_like(ctx, op)
}

/// Whether [`print_function_like`] can print `op`.
pub fn can_print_function_like(ctx: &Context, op: OpId) -> bool {
    let Some((inputs, _)) = function_type(ctx, op) else { return false };
    let vis_ok = str_prop(ctx, op, "sym_visibility").is_none_or(|v| ["public", "private", "nested"].contains(&v));
    let args_ok = ctx.entry_block(ctx.region(op, 0)).is_none_or(|b| ctx.block_args(b).len() == inputs.len());
    vis_ok && args_ok && str_prop(ctx, op, "sym_name").is_some()
}

/// One dictionary per argument/result, or `None` if they are all empty.
fn dicts(ctx: &Context, a: Option<AttrId>) -> Vec<Option<AttrId>> {
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(l)) => {
            l.iter().map(|&d| matches!(ctx.attr_kind(d), AttrKind::Dict(e) if !e.is_empty()).then_some(d)).collect()
        }
        _ => Vec::new(),
    }
}

fn print_func(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    print_function_like(p, op, &[])
}

/// The custom form of a function op whose `kind` property is an enum written as a
/// keyword before the name (`cuda.func kernel @k(...)`, `nvvm.func device @f(...)`):
/// `keywords[i]` spells kind `i`.
pub fn print_kind_function(p: &mut OpPrinter<'_, '_>, op: OpId, keywords: &[&str]) -> std::fmt::Result {
    let kind = match p.ctx().get_attr(op, "kind").map(|a| p.ctx().attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => *value as usize,
        _ => 0,
    };
    p.write(" ");
    p.write(keywords.get(kind).copied().unwrap_or(keywords[0]));
    print_function_like(p, op, &["kind"])
}

/// Parses what [`print_kind_function`] prints; `props` as for [`parse_function_like`].
pub fn parse_kind_function<'a>(
    p: &mut OpParser<'a, '_>,
    st: &mut OperationState,
    keywords: &[&str],
    props: &[&str],
) -> Result<(), Diagnostic> {
    let Some(kind) = keywords.iter().position(|k| p.eat_keyword(k)) else {
        let expected: Vec<String> = keywords.iter().map(|k| format!("'{k}'")).collect();
        return Err(p.error_here(format!("expected {}", expected.join(" or "))));
    };
    let ctx = p.ctx();
    let i32t = ctx.i32();
    let a = ctx.int_attr(kind as i128, i32t);
    let k = ctx.sym("kind");
    st.props.push((k, a));
    parse_function_like(p, st, props)
}

/// Verifies a function op with a `kind` property: [`verify_function_like`], and a kernel
/// (kind `kernel_kind`) returns nothing.
pub fn verify_kind_function(ctx: &Context, op: OpId, kernel_kind: i128) -> Result<(), String> {
    verify_function_like(ctx, op)?;
    let is_kernel =
        matches!(ctx.get_attr(op, "kind").map(|a| ctx.attr_kind(a)), Some(AttrKind::Integer { value, .. }) if *value == kernel_kind);
    if is_kernel && function_type(ctx, op).is_some_and(|(_, results)| !results.is_empty()) {
        return Err("a kernel returns no value".into());
    }
    Ok(())
}

/// `func.func`'s custom form after the op name, for any op with its attributes (its body
/// the first region); `elided` are further attributes the caller printed itself.
pub fn print_function_like(p: &mut OpPrinter<'_, '_>, op: OpId, elided: &[&str]) -> std::fmt::Result {
    let ctx = p.ctx();
    p.write(" ");
    if let Some(v) = str_prop(ctx, op, "sym_visibility") {
        p.write(v);
        p.write(" ");
    }
    p.symbol_name(str_prop(ctx, op, "sym_name").unwrap_or(""));
    let (inputs, results) = function_type(ctx, op).unwrap_or_default();
    let arg_attrs = dicts(ctx, ctx.get_attr(op, "arg_attrs"));
    let res_attrs = dicts(ctx, ctx.get_attr(op, "res_attrs"));
    let body = ctx.region(op, 0);
    let entry = ctx.entry_block(body);
    p.write("(");
    for (i, &t) in inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if let Some(a) = entry.and_then(|b| ctx.block_args(b).get(i).copied()) {
            p.operand(a);
            p.write(": ");
        }
        p.ty(t);
        if let Some(Some(d)) = arg_attrs.get(i) {
            p.write(" ");
            p.attr(*d);
        }
    }
    p.write(")");
    if !results.is_empty() {
        p.write(" -> ");
        let bare = results.len() == 1
            && res_attrs.first().is_none_or(|d| d.is_none())
            && !matches!(ctx.type_kind(results[0]), TypeKind::Function { .. });
        if !bare {
            p.write("(");
        }
        for (i, &t) in results.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.ty(t);
            if let Some(Some(d)) = res_attrs.get(i) {
                p.write(" ");
                p.attr(*d);
            }
        }
        if !bare {
            p.write(")");
        }
    }
    let mut skip = vec!["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"];
    skip.extend_from_slice(elided);
    p.attr_dict(op, &skip, Some(" attributes"));
    if !ctx.region_blocks(body).is_empty() {
        p.write(" ");
        p.region_styled(body, RegionStyle { entry_args: false, ..RegionStyle::default() });
    }
    Ok(())
}

/// `type {attrs}?` lists: `(` ... `)` with an optional dictionary after each type.
fn parse_types_with_attrs(p: &mut OpParser<'_, '_>, tys: &mut Vec<TypeId>, attrs: &mut Vec<AttrId>) -> Result<(), Diagnostic> {
    loop {
        tys.push(p.parse_type()?);
        attrs.push(if p.at(Tok::LBrace) { p.parse_attr()? } else { p.ctx().attr(AttrKind::Dict(Vec::new())) });
        if !p.eat(Tok::Comma) {
            return Ok(());
        }
    }
}

fn parse_func(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    parse_function_like(p, st, &["no_inline"])
}

/// Parses what [`print_function_like`] prints; `props` are the attributes of the
/// `attributes {...}` dictionary that are properties of the op.
pub fn parse_function_like<'a>(p: &mut OpParser<'a, '_>, st: &mut OperationState, props: &[&str]) -> Result<(), Diagnostic> {
    for vis in ["private", "public", "nested"] {
        if p.eat_keyword(vis) {
            let a = p.ctx().str_attr(vis);
            let k = p.ctx().sym("sym_visibility");
            st.props.push((k, a));
            break;
        }
    }
    let name = p.parse_symbol_name()?;
    let a = p.ctx().str_attr(&name);
    let k = p.ctx().sym("sym_name");
    st.props.push((k, a));
    // Arguments: all named (`%a: i32`) for a definition, or all bare types for a declaration.
    p.expect(Tok::LParen)?;
    let mut args: Vec<Argument<'a>> = Vec::new();
    let mut inputs = Vec::new();
    let mut arg_attrs = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            if p.at(Tok::PercentId) {
                let a = p.parse_argument()?;
                inputs.push(a.ty);
                args.push(a);
                arg_attrs.push(if p.at(Tok::LBrace) { p.parse_attr()? } else { p.ctx().attr(AttrKind::Dict(Vec::new())) });
            } else {
                if !args.is_empty() {
                    return Err(p.error_here("expected SSA identifier: arguments are either all named or all types"));
                }
                inputs.push(p.parse_type()?);
                arg_attrs.push(if p.at(Tok::LBrace) { p.parse_attr()? } else { p.ctx().attr(AttrKind::Dict(Vec::new())) });
            }
            if p.eat(Tok::RParen) {
                break;
            }
            p.expect(Tok::Comma)?;
        }
        if !args.is_empty() && args.len() != inputs.len() {
            return Err(p.error_here("arguments are either all named or all types"));
        }
    }
    let mut results = Vec::new();
    let mut res_attrs = Vec::new();
    if p.eat(Tok::Arrow) {
        if p.eat(Tok::LParen) {
            if !p.eat(Tok::RParen) {
                parse_types_with_attrs(p, &mut results, &mut res_attrs)?;
                p.expect(Tok::RParen)?;
            }
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(p.ctx().attr(AttrKind::Dict(Vec::new())));
        }
    }
    if p.eat_keyword("attributes") {
        let mut extra = Vec::new();
        p.parse_optional_attr_dict(&mut extra)?;
        for (k, v) in extra {
            let name = p.ctx().str(k).to_string();
            if ["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"].contains(&name.as_str()) {
                return Err(p.error_here(format!(
                    "'{name}' is an inferred attribute and should not be specified in the explicit attribute dictionary"
                )));
            }
            if props.contains(&name.as_str()) {
                st.props.push((k, v));
            } else {
                st.attrs.push((k, v));
            }
        }
    }
    let ctx = p.ctx();
    let ft = ctx.function_type(inputs, results);
    let fta = ctx.type_attr(ft);
    let k = ctx.sym("function_type");
    st.props.push((k, fta));
    for (name, list) in [("arg_attrs", arg_attrs), ("res_attrs", res_attrs)] {
        let nonempty = list.iter().any(|&d| matches!(ctx.attr_kind(d), AttrKind::Dict(e) if !e.is_empty()));
        if nonempty {
            let a = ctx.attr(AttrKind::Array(list));
            let k = ctx.sym(name);
            st.props.push((k, a));
        }
    }
    let r = if p.at(Tok::LBrace) { p.parse_region(&args)? } else { p.ctx().create_region() };
    st.regions.push(r);
    Ok(())
}
