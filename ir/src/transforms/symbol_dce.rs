//! `symbol-dce`: erases symbol-defining ops (the `SYMBOL` trait, named by `sym_name`) that
//! are private (`sym_visibility = "private"`) and referenced by no `@symbol` attribute
//! anywhere under the root, repeating until nothing more dies.

use crate::{
    attrs::AttrKind,
    context::{Context, OpId},
    pass::{Pass, PassState},
    registry::Traits,
    symbol::Symbol,
};
use rustc_hash::FxHashSet;

/// The symbol-dce pass.
pub struct SymbolDce;

fn collect_refs(ctx: &Context, attr: crate::attrs::AttrId, out: &mut FxHashSet<Symbol>) {
    let mut stack = vec![attr];
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef { root, nested } => {
                out.insert(*root);
                out.extend(nested.iter().copied());
            }
            AttrKind::Array(items) => stack.extend(items.iter().copied()),
            AttrKind::Dict(e) => stack.extend(e.iter().map(|x| x.1)),
            _ => {}
        }
    }
}

/// Runs symbol DCE under `root`; returns the number of symbols erased.
pub fn run_symbol_dce(ctx: &mut Context, root: OpId) -> u64 {
    let mut erased = 0;
    loop {
        let ops = crate::walk::collect_preorder(ctx, root);
        let mut refs = FxHashSet::default();
        for &o in &ops {
            for &(_, a) in ctx.props(o).iter().chain(ctx.attrs(o)) {
                collect_refs(ctx, a, &mut refs);
            }
        }
        let mut dead = Vec::new();
        for &o in &ops {
            if o == root || !ctx.has_trait(o, Traits::SYMBOL) {
                continue;
            }
            let private =
                ctx.get_attr(o, "sym_visibility").is_some_and(|v| matches!(ctx.attr_kind(v), AttrKind::String(s) if s == "private"));
            let name = ctx.get_attr(o, "sym_name").and_then(|a| match ctx.attr_kind(a) {
                AttrKind::String(s) => ctx.lookup_sym(s),
                _ => None,
            });
            let referenced = name.is_some_and(|n| refs.contains(&n));
            if private && !referenced && !ctx.results(o).iter().any(|&r| ctx.has_uses(r)) {
                dead.push(o);
            }
        }
        if dead.is_empty() {
            return erased;
        }
        for o in dead {
            if ctx.op_is_live(o) {
                ctx.erase_op(o);
                erased += 1;
            }
        }
    }
}

impl Pass for SymbolDce {
    fn name(&self) -> &str {
        "symbol-dce"
    }
    fn run(&self, ctx: &mut Context, op: OpId, state: &mut PassState<'_>) -> Result<(), crate::pass::PassFailure> {
        if run_symbol_dce(ctx, op) == 0 {
            state.preserved = crate::pass::Preserved::All;
        }
        Ok(())
    }
}
