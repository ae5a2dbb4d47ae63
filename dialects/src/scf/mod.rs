//! The `scf` dialect, declared in `ops.td`: this module holds the verifiers and the custom
//! forms of `scf.for`, `scf.if`, `scf.while` and `scf.execute_region`, which MLIR writes by
//! hand too (the printed text is mlir-opt's, spaces included).

use cuprite_ir::{
    ods::format::ensure_terminator,
    parse::{lexer::Tok, Argument, OpParser, OperandRef},
    print::{OpPrinter, RegionStyle},
    Context, Diagnostic, OpId, OperationState, TypeId, TypeKind, ValueId,
};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/scf.rs"));
}
pub use ops::{register, ConditionOp, ExecuteRegionOp, ForOp, IfOp, WhileOp, YieldOp};

fn types(ctx: &Context, vals: &[ValueId]) -> Vec<TypeId> {
    vals.iter().map(|&v| ctx.value_type(v)).collect()
}

fn ty_list(ctx: &Context, tys: &[TypeId]) -> String {
    tys.iter().map(|&t| cuprite_ir::print::type_to_string(ctx, t)).collect::<Vec<_>>().join(", ")
}

/// The operands of the terminator of `region`'s single block.
fn yielded(ctx: &Context, region: cuprite_ir::RegionId) -> Option<Vec<TypeId>> {
    let b = *ctx.region_blocks(region).first()?;
    let t = ctx.terminator(b)?;
    Some(ctx.operands(t).map(|v| ctx.value_type(v)).collect())
}

fn check_yield(ctx: &Context, region: cuprite_ir::RegionId, expected: &[TypeId], what: &str) -> Result<(), String> {
    if let Some(got) = yielded(ctx, region) {
        if got != expected {
            return Err(format!("{what} yields ({}) but the op expects ({})", ty_list(ctx, &got), ty_list(ctx, expected)));
        }
    }
    Ok(())
}

// ----- scf.for ---------------------------------------------------------------------------

fn verify_for(ctx: &Context, op: OpId) -> Result<(), String> {
    let f = ForOp(op);
    let inits = f.init_args(ctx);
    let results = ctx.results(op);
    if inits.len() != results.len() {
        return Err(format!("has {} iter_args but {} results", inits.len(), results.len()));
    }
    let init_tys = types(ctx, &inits);
    if init_tys != types(ctx, results) {
        return Err("result types must match the iter_args' types".into());
    }
    let r = f.region(ctx);
    let Some(&b) = ctx.region_blocks(r).first() else { return Err("requires a body block".into()) };
    let args = ctx.block_args(b);
    if args.len() != inits.len() + 1 {
        return Err(format!("the body must have {} arguments (the induction variable and the iter_args)", inits.len() + 1));
    }
    if ctx.value_type(args[0]) != ctx.value_type(f.lower_bound(ctx)) {
        return Err("the induction variable must have the type of the bounds".into());
    }
    if types(ctx, &args[1..]) != init_tys {
        return Err("the body's loop-carried arguments must have the iter_args' types".into());
    }
    check_yield(ctx, r, &init_tys, "the body")
}

fn print_for(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let f = ForOp(op);
    let r = f.region(ctx);
    let args = ctx.region_blocks(r).first().map(|&b| ctx.block_args(b).to_vec()).unwrap_or_default();
    if f.unsigned_cmp(ctx) {
        p.write(" unsigned");
    }
    p.write(" ");
    if let Some(&iv) = args.first() {
        p.operand(iv);
    }
    p.write(" = ");
    p.operand(f.lower_bound(ctx));
    p.write(" to ");
    p.operand(f.upper_bound(ctx));
    p.write(" step ");
    p.operand(f.step(ctx));
    let inits = f.init_args(ctx);
    if !inits.is_empty() {
        p.write(" iter_args(");
        for (i, (&a, &v)) in args.iter().skip(1).zip(&inits).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.operand(a);
            p.write(" = ");
            p.operand(v);
        }
        p.write(") -> (");
        p.type_list(&types(ctx, &inits));
        p.write(")");
    }
    p.write(" ");
    let ivt = ctx.value_type(f.lower_bound(ctx));
    if !matches!(ctx.type_kind(ivt), TypeKind::Index) {
        p.write(" : ");
        p.ty(ivt);
        p.write(" ");
    }
    p.region_styled(r, RegionStyle { entry_args: false, terminators: !inits.is_empty(), ..RegionStyle::default() });
    p.attr_dict(op, &["unsignedCmp"], None);
    Ok(())
}

fn parse_for<'a>(p: &mut OpParser<'a, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    if p.eat_keyword("unsigned") {
        let u = p.ctx().unit_attr();
        let k = p.ctx().sym("unsignedCmp");
        st.props.push((k, u));
    }
    let iv = p.parse_operand()?;
    p.expect(Tok::Equal)?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let mut iter: Vec<(OperandRef<'a>, OperandRef<'a>)> = Vec::new();
    let mut iter_tys = Vec::new();
    if p.eat_keyword("iter_args") {
        p.expect(Tok::LParen)?;
        loop {
            let a = p.parse_operand()?;
            p.expect(Tok::Equal)?;
            let v = p.parse_operand()?;
            iter.push((a, v));
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen)?;
        p.expect(Tok::Arrow)?;
        iter_tys = parse_type_list_maybe_paren(p)?;
        if iter_tys.len() != iter.len() {
            return Err(p.error_here(format!("{} iter_args but {} types", iter.len(), iter_tys.len())));
        }
    }
    let ivt = if p.eat(Tok::Colon) { p.parse_type()? } else { p.ctx().index_type() };
    for r in [lb, ub, step] {
        let v = p.resolve_operand(r, ivt)?;
        st.operands.push(v);
    }
    for (&(_, v), &t) in iter.iter().zip(&iter_tys) {
        let v = p.resolve_operand(v, t)?;
        st.operands.push(v);
    }
    let mut args = vec![Argument { name: iv, ty: ivt, loc: None }];
    args.extend(iter.iter().zip(&iter_tys).map(|(&(a, _), &t)| Argument { name: a, ty: t, loc: None }));
    let r = p.parse_region(&args)?;
    ensure_terminator(p.ctx(), r, "scf.yield", st.loc);
    st.regions.push(r);
    st.result_types = iter_tys;
    p.parse_optional_attr_dict(&mut st.attrs)?;
    Ok(())
}

/// `type` or `(type, ...)`.
fn parse_type_list_maybe_paren(p: &mut OpParser<'_, '_>) -> Result<Vec<TypeId>, Diagnostic> {
    if p.eat(Tok::LParen) {
        let mut v = Vec::new();
        if p.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            v.push(p.parse_type()?);
            if p.eat(Tok::RParen) {
                return Ok(v);
            }
            p.expect(Tok::Comma)?;
        }
    }
    Ok(vec![p.parse_type()?])
}

// ----- scf.if ----------------------------------------------------------------------------

fn verify_if(ctx: &Context, op: OpId) -> Result<(), String> {
    let f = IfOp(op);
    let res = types(ctx, ctx.results(op));
    check_yield(ctx, f.then_region(ctx), &res, "the then region")?;
    let els = f.else_region(ctx);
    if ctx.region_blocks(els).is_empty() {
        if !res.is_empty() {
            return Err("must have an else region when it has results".into());
        }
    } else {
        check_yield(ctx, els, &res, "the else region")?;
    }
    Ok(())
}

fn print_if(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let f = IfOp(op);
    p.write(" ");
    p.operand(f.condition(ctx));
    let res = types(ctx, ctx.results(op));
    if !res.is_empty() {
        p.write(" -> (");
        p.type_list(&res);
        p.write(")");
    }
    p.write(" ");
    let style = RegionStyle { entry_args: false, terminators: !res.is_empty(), ..RegionStyle::default() };
    p.region_styled(f.then_region(ctx), style);
    let els = f.else_region(ctx);
    if !ctx.region_blocks(els).is_empty() {
        p.write(" else ");
        p.region_styled(els, style);
    }
    p.attr_dict(op, &[], None);
    Ok(())
}

fn parse_if(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    let c = p.parse_operand()?;
    let i1 = p.ctx().i1();
    let c = p.resolve_operand(c, i1)?;
    st.operands.push(c);
    if p.eat(Tok::Arrow) {
        st.result_types = parse_type_list_maybe_paren(p)?;
    }
    let then = p.parse_region(&[])?;
    ensure_terminator(p.ctx(), then, "scf.yield", st.loc);
    let els = if p.eat_keyword("else") {
        let r = p.parse_region(&[])?;
        ensure_terminator(p.ctx(), r, "scf.yield", st.loc);
        r
    } else {
        p.ctx().create_region()
    };
    st.regions.push(then);
    st.regions.push(els);
    p.parse_optional_attr_dict(&mut st.attrs)?;
    Ok(())
}

// ----- scf.while -------------------------------------------------------------------------

fn verify_while(ctx: &Context, op: OpId) -> Result<(), String> {
    let w = WhileOp(op);
    let init_tys = types(ctx, &w.inits(ctx));
    let before = w.before(ctx);
    let Some(&bb) = ctx.region_blocks(before).first() else { return Err("requires a 'before' block".into()) };
    if types(ctx, ctx.block_args(bb)) != init_tys {
        return Err("the 'before' region's arguments must have the types of the inits".into());
    }
    let Some(cond) = ctx.terminator(bb).filter(|&t| ctx.is_op(t, ConditionOp::NAME)) else {
        return Err("the 'before' region must end with 'scf.condition'".into());
    };
    let passed = types(ctx, &ConditionOp(cond).args(ctx));
    if passed != types(ctx, ctx.results(op)) {
        return Err("'scf.condition' must pass values of the result types".into());
    }
    if let Some(&ab) = ctx.region_blocks(w.after(ctx)).first() {
        if types(ctx, ctx.block_args(ab)) != passed {
            return Err("the 'after' region's arguments must have the types 'scf.condition' passes".into());
        }
        check_yield(ctx, w.after(ctx), &init_tys, "the 'after' region")?;
    }
    Ok(())
}

fn print_while(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let w = WhileOp(op);
    let inits = w.inits(ctx);
    let before = w.before(ctx);
    let bargs = ctx.region_blocks(before).first().map(|&b| ctx.block_args(b).to_vec()).unwrap_or_default();
    if !inits.is_empty() {
        p.write(" (");
        for (i, (&a, &v)) in bargs.iter().zip(&inits).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.operand(a);
            p.write(" = ");
            p.operand(v);
        }
        p.write(")");
    }
    p.write(" : (");
    p.type_list(&types(ctx, &inits));
    p.write(") -> ");
    let res = types(ctx, ctx.results(op));
    if res.len() == 1 && !matches!(ctx.type_kind(res[0]), TypeKind::Function { .. }) {
        p.ty(res[0]);
    } else {
        p.write("(");
        p.type_list(&res);
        p.write(")");
    }
    p.write(" ");
    p.region_styled(before, RegionStyle { entry_args: false, ..RegionStyle::default() });
    p.write(" do ");
    p.region(w.after(ctx));
    p.attr_dict(op, &[], Some(" attributes"));
    Ok(())
}

fn parse_while<'a>(p: &mut OpParser<'a, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    let mut pairs: Vec<(OperandRef<'a>, OperandRef<'a>)> = Vec::new();
    if p.eat(Tok::LParen) {
        loop {
            let a = p.parse_operand()?;
            p.expect(Tok::Equal)?;
            let v = p.parse_operand()?;
            pairs.push((a, v));
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen)?;
    }
    p.expect(Tok::Colon)?;
    p.expect(Tok::LParen)?;
    let ins = if p.eat(Tok::RParen) {
        Vec::new()
    } else {
        let mut v = vec![p.parse_type()?];
        while p.eat(Tok::Comma) {
            v.push(p.parse_type()?);
        }
        p.expect(Tok::RParen)?;
        v
    };
    p.expect(Tok::Arrow)?;
    st.result_types = parse_type_list_maybe_paren(p)?;
    if ins.len() != pairs.len() {
        return Err(p.error_here(format!("{} initial values but {} types", pairs.len(), ins.len())));
    }
    for (&(_, v), &t) in pairs.iter().zip(&ins) {
        let v = p.resolve_operand(v, t)?;
        st.operands.push(v);
    }
    let args: Vec<Argument<'a>> = pairs.iter().zip(&ins).map(|(&(a, _), &t)| Argument { name: a, ty: t, loc: None }).collect();
    let before = p.parse_region(&args)?;
    p.expect_keyword("do")?;
    let after = p.parse_region(&[])?;
    if p.ctx().region_blocks(after).is_empty() {
        let b = p.ctx().create_block(&[]);
        p.ctx().append_block(after, b);
    }
    st.regions.push(before);
    st.regions.push(after);
    if p.eat_keyword("attributes") {
        p.parse_optional_attr_dict(&mut st.attrs)?;
    }
    Ok(())
}

// ----- scf.execute_region ----------------------------------------------------------------

fn print_execute_region(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    let e = ExecuteRegionOp(op);
    let res = types(ctx, ctx.results(op));
    if !res.is_empty() {
        p.write(" -> ");
        if res.len() == 1 && !matches!(ctx.type_kind(res[0]), TypeKind::Function { .. }) {
            p.ty(res[0]);
        } else {
            p.write("(");
            p.type_list(&res);
            p.write(")");
        }
    }
    p.write(" ");
    if e.no_inline(ctx) {
        p.write("no_inline ");
    }
    p.region_styled(e.region(ctx), RegionStyle { entry_args: false, ..RegionStyle::default() });
    p.attr_dict(op, &["no_inline"], None);
    Ok(())
}

fn parse_execute_region(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    if p.eat(Tok::Arrow) {
        st.result_types = parse_type_list_maybe_paren(p)?;
    }
    if p.eat_keyword("no_inline") {
        let u = p.ctx().unit_attr();
        let k = p.ctx().sym("no_inline");
        st.props.push((k, u));
    }
    let r = p.parse_region(&[])?;
    st.regions.push(r);
    p.parse_optional_attr_dict(&mut st.attrs)?;
    Ok(())
}
