//! The `func` dialect: `func.func`, `func.return`, `func.call` (generic form only until the
//! tablegen issue generates their custom forms).

use cuprite_ir::{AttrKind, Context, DialectInfo, OpId, OpInfo, Registry, Traits, TypeKind};

/// Registers the dialect.
pub fn register(reg: &mut Registry) {
    reg.register(
        DialectInfo { name: "func", materialize_constant: None },
        vec![
            OpInfo {
                summary: "A function with a body (or a declaration without one)",
                traits: Traits::ISOLATED_FROM_ABOVE | Traits::SYMBOL,
                verify: Some(verify_func),
                callable_region: Some(|ctx, op| ctx.regions(op).first().copied()),
                ..OpInfo::new("func.func")
            },
            OpInfo {
                summary: "Returns from a function",
                traits: Traits::TERMINATOR | Traits::RETURN_LIKE | Traits::PURE,
                verify: Some(verify_return),
                ..OpInfo::new("func.return")
            },
            OpInfo { summary: "Calls a function by symbol", verify: Some(verify_call), callee: Some(callee), ..OpInfo::new("func.call") },
        ],
    );
}

/// The `(inputs, results)` of a `func.func`'s `function_type`.
pub fn function_type(ctx: &Context, op: OpId) -> Option<(Vec<cuprite_ir::TypeId>, Vec<cuprite_ir::TypeId>)> {
    let a = ctx.get_attr(op, "function_type")?;
    let AttrKind::Type(t) = ctx.attr_kind(a) else { return None };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
        _ => None,
    }
}

fn verify_func(ctx: &Context, op: OpId) -> Result<(), String> {
    let Some((inputs, _)) = function_type(ctx, op) else { return Err("requires a 'function_type' attribute of function type".into()) };
    match ctx.get_attr(op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(_)) => {}
        _ => return Err("requires a 'sym_name' string attribute".into()),
    }
    if ctx.regions(op).len() != 1 {
        return Err("expects one region".into());
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
    if !ctx.is_op(f, "func.func") {
        return Err("expects parent op 'func.func'".into());
    }
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

fn callee(ctx: &Context, op: OpId) -> Option<cuprite_ir::Symbol> {
    match ctx.attr_kind(ctx.get_attr(op, "callee")?) {
        AttrKind::SymbolRef { root, nested } if nested.is_empty() => Some(*root),
        _ => None,
    }
}

fn verify_call(ctx: &Context, op: OpId) -> Result<(), String> {
    match ctx.get_attr(op, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef { .. }) => Ok(()),
        _ => Err("requires a 'callee' symbol reference attribute".into()),
    }
}
