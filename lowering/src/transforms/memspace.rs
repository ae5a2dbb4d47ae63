//! `memory-space-opt`: gives loads, stores and atomics the state space of the memory they
//! reach, instead of generic addressing (cicc's pass of the same name, in a simple form).
//!
//! 1. Pointer parameters of kernels point to global memory (CUDA passes kernels global
//!    or managed allocations; nvcc makes the same assumption and emits
//!    `cvta.to.global`): each generic pointer parameter `p` becomes
//!    `addrspacecast(addrspacecast(p) : ptr<1>) : ptr` for all its uses.
//! 2. A cast from a specific space to generic, `c = addrspacecast x : ptr<N> to ptr`, is
//!    pushed towards the memory accesses: `ptradd(c, o)` becomes
//!    `addrspacecast(ptradd(x, o))`, and a load, store, `atomicrmw` or `cmpxchg` through
//!    `c` uses `x` directly (so it is selected as `ld.global`, `st.shared`, ...).
//!    Other uses (calls, stores of the pointer itself, comparisons, block arguments) keep
//!    the generic value.
//!
//! A worklist of casts, no recursion. A cast left without uses is erased here, so that an
//! alloca whose accesses all went through a cast (an inlined out-parameter `&e`) is left
//! with only direct loads and stores, and the `mem2reg` that follows in the pipeline
//! promotes it.

use cuprite_ir::{Context, InsertPoint, OpId, TypeKind, ValueId};

fn space(ctx: &Context, v: ValueId) -> Option<u32> {
    match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::Pointer { addr_space } => Some(*addr_space),
        _ => None,
    }
}

fn cast(ctx: &mut Context, v: ValueId, to_space: u32, ip: InsertPoint, loc: cuprite_ir::LocId) -> OpId {
    let t = ctx.ty(TypeKind::Pointer { addr_space: to_space });
    let st = cuprite_dialects::nvvm::AddrspacecastOp::build(ctx, loc, t, v);
    let op = ctx.create_op(st);
    ctx.insert_op(op, ip);
    op
}

/// Runs the pass on function `func`; returns how many accesses got a specific space.
pub fn memory_space_opt(ctx: &mut Context, func: OpId) -> u64 {
    let Some(&r) = ctx.regions(func).first() else { return 0 };
    let Some(entry) = ctx.entry_block(r) else { return 0 };
    let kernel = cuprite_dialects::nvvm::is_kernel(ctx, func);
    let loc = ctx.op_loc(func);
    let mut work: Vec<OpId> = Vec::new();
    if kernel {
        for p in ctx.block_args(entry).to_vec() {
            if space(ctx, p) != Some(0) || !ctx.has_uses(p) {
                continue;
            }
            let uses: Vec<(OpId, u32)> = ctx.uses(p).collect();
            let ip = InsertPoint { block: entry, before: ctx.first_op(entry) };
            let g = cast(ctx, p, 1, ip, loc);
            let gv = ctx.result(g, 0);
            let ip = InsertPoint { block: entry, before: ctx.next_op(g) };
            let back = cast(ctx, gv, 0, ip, loc);
            let bv = ctx.result(back, 0);
            for (u, k) in uses {
                ctx.set_operand(u, k as usize, bv);
            }
            work.push(back);
        }
    }
    // Casts to generic already in the function (shared variables, explicit casts).
    for b in ctx.region_blocks(r).to_vec() {
        for o in ctx.block_ops(b) {
            if ctx.op_name_str(o) == "nvvm.addrspacecast"
                && space(ctx, ctx.result(o, 0)) == Some(0)
                && space(ctx, ctx.operand(o, 0)).is_some_and(|s| s != 0)
                && !work.contains(&o)
            {
                work.push(o);
            }
        }
    }
    let mut n = 0;
    while let Some(c) = work.pop() {
        if !ctx.op_is_live(c) {
            continue;
        }
        let (x, cv) = (ctx.operand(c, 0), ctx.result(c, 0));
        if space(ctx, x).is_none() {
            continue;
        }
        let uses: Vec<(OpId, u32)> = ctx.uses(cv).collect();
        for (u, k) in uses {
            match (ctx.op_name_str(u), k) {
                ("nvvm.load", 0) | ("nvvm.store", 1) | ("nvvm.atomicrmw", 0) | ("nvvm.cmpxchg", 0) => {
                    ctx.set_operand(u, k as usize, x);
                    n += 1;
                }
                ("nvvm.ptradd", 0) => {
                    let block = ctx.op_block(u).expect("op in a block");
                    let off = ctx.operand(u, 1);
                    let l = ctx.op_loc(u);
                    let xt = ctx.value_type(x);
                    let st = cuprite_dialects::nvvm::PtrAddOp::build(ctx, l, xt, x, off);
                    let np = ctx.create_op(st);
                    ctx.insert_op(np, InsertPoint { block, before: Some(u) });
                    let npv = ctx.result(np, 0);
                    let back = cast(ctx, npv, 0, InsertPoint { block, before: Some(u) }, l);
                    let old = ctx.result(u, 0);
                    let bv = ctx.result(back, 0);
                    ctx.replace_all_uses_with(old, bv);
                    ctx.erase_op(u);
                    work.push(back);
                }
                _ => {}
            }
        }
        if !ctx.has_uses(cv) {
            ctx.erase_op(c);
        }
    }
    n
}
