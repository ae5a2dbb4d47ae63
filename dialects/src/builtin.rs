//! The `builtin` dialect: `builtin.module` (with MLIR's custom form
//! `module @name attributes {...} { ... }`) and `builtin.unrealized_conversion_cast`.

use cuprite_ir::{
    parse::{lexer::Tok, OpParser},
    print::OpPrinter,
    Context, Diagnostic, DialectInfo, OpId, OpInfo, OperationState, Registry, Traits,
};

/// Registers the dialect.
pub fn register(reg: &mut Registry) {
    reg.register(
        DialectInfo { name: "builtin", materialize_constant: None },
        vec![
            OpInfo {
                summary: "A top-level container of ops (a symbol table)",
                traits: Traits::ISOLATED_FROM_ABOVE
                    | Traits::SYMBOL_TABLE
                    | Traits::NO_TERMINATOR
                    | Traits::GRAPH_REGION
                    | Traits::SINGLE_BLOCK,
                verify: Some(verify_module),
                print: Some(print_module),
                parse: Some(parse_module),
                ..OpInfo::new("builtin.module")
            },
            OpInfo {
                summary: "A cast between types of two dialects during a conversion",
                traits: Traits::PURE,
                verify: Some(|ctx, op| if ctx.num_results(op) == 0 { Err("expects at least one result".into()) } else { Ok(()) }),
                ..OpInfo::new("builtin.unrealized_conversion_cast")
            },
        ],
    );
}

fn verify_module(ctx: &Context, op: OpId) -> Result<(), String> {
    if ctx.num_operands(op) != 0 || ctx.num_results(op) != 0 {
        return Err("expects no operands and no results".into());
    }
    if ctx.regions(op).len() != 1 {
        return Err("expects one region".into());
    }
    Ok(())
}

fn print_module(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    if let Some(name) = ctx.get_attr(op, "sym_name") {
        if let cuprite_ir::AttrKind::String(s) = ctx.attr_kind(name) {
            p.write(" ");
            p.symbol_name(s);
        }
    }
    p.attr_dict(op, &["sym_name"], Some(" attributes"));
    p.write(" ");
    let r = ctx.region(op, 0);
    // The parser recreates a missing body block, so an empty one is not printed.
    p.region_with(r, true);
    Ok(())
}

fn parse_module(p: &mut OpParser<'_, '_>, st: &mut OperationState) -> Result<(), Diagnostic> {
    if p.at(Tok::AtId) {
        let name = p.parse_symbol_name()?;
        let a = p.ctx().str_attr(&name);
        let k = p.ctx().sym("sym_name");
        st.attrs.push((k, a));
    }
    if p.eat_keyword("attributes") {
        p.parse_optional_attr_dict(&mut st.attrs)?;
    }
    let r = p.parse_region(&[])?;
    if p.ctx().region_blocks(r).is_empty() {
        let b = p.ctx().create_block(&[]);
        p.ctx().append_block(r, b);
    }
    st.regions.push(r);
    Ok(())
}
