//! The `builtin` dialect: `builtin.module` (with MLIR's custom form
//! `module @name attributes {...} { ... }`) and `builtin.unrealized_conversion_cast`.
//! Declared in `ops.td`; the module's custom form is hand-written here.

use cuprite_ir::{
    parse::{lexer::Tok, OpParser},
    print::OpPrinter,
    Context, Diagnostic, OpId, OperationState,
};

/// Generated from `ops.td`.
#[allow(clippy::all, dead_code)]
pub mod ops {
    include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
}
pub use ops::{register, ModuleOp, UnrealizedConversionCastOp};

fn verify_unrealized_conversion_cast(ctx: &Context, op: OpId) -> Result<(), String> {
    if ctx.num_results(op) == 0 {
        Err("expects at least one result".into())
    } else {
        Ok(())
    }
}

fn print_module(p: &mut OpPrinter<'_, '_>, op: OpId) -> std::fmt::Result {
    let ctx = p.ctx();
    if let Some(name) = ModuleOp(op).sym_name(ctx) {
        p.write(" ");
        p.symbol_name(name);
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
        st.props.push((k, a));
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
