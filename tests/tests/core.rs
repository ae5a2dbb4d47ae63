//! Unit tests of the core IR: use lists, RAUW, block splitting, region inlining, cloning,
//! the verifier's structural rules, and each rewrite driver's budget.

use cuprite_ir::{
    parse::parse_module,
    print::{print_op, PrintOptions},
    rewrite::{
        conversion::{
            apply_conversion, ConversionMode, ConversionPattern, ConversionRewriter, ConversionTarget, FnConversionPattern, TypeConverter,
        },
        greedy::{apply_patterns_greedily, GreedyConfig, StopReason},
        walk::apply_patterns_walk,
        PatternSet, Rewriter,
    },
    verify::verify,
    Context, FloatKind, InsertPoint, OpId, OperationState, TypeKind, ValueId,
};
use cuprite_tests::context;

fn unknown(ctx: &Context) -> cuprite_ir::LocId {
    ctx.unknown_loc()
}

/// A module with one block, returned with that block.
fn module(ctx: &mut Context) -> (OpId, cuprite_ir::BlockId) {
    let loc = unknown(ctx);
    let r = ctx.create_region();
    let b = ctx.create_block(&[]);
    ctx.append_block(r, b);
    let mut st = OperationState::new(ctx, "builtin.module", loc);
    st.regions.push(r);
    (ctx.create_op(st), b)
}

fn op(ctx: &mut Context, block: cuprite_ir::BlockId, name: &str, operands: &[ValueId], results: usize) -> OpId {
    let loc = unknown(ctx);
    let i32t = ctx.i32();
    let mut st = OperationState::new(ctx, name, loc);
    st.operands = operands.to_vec();
    st.result_types = vec![i32t; results];
    let o = ctx.create_op(st);
    ctx.insert_op(o, InsertPoint::end(block));
    o
}

#[test]
fn use_lists_add_and_remove_in_place() {
    let mut ctx = context(true);
    let (_, b) = module(&mut ctx);
    let a = op(&mut ctx, b, "demo.def", &[], 1);
    let av = ctx.result(a, 0);
    let u1 = op(&mut ctx, b, "demo.use", &[av, av], 0);
    let u2 = op(&mut ctx, b, "demo.use", &[av], 0);
    let mut uses: Vec<_> = ctx.uses(av).collect();
    uses.sort();
    assert_eq!(uses, vec![(u1, 0), (u1, 1), (u2, 0)]);
    assert!(!ctx.has_one_use(av));
    // Re-pointing an operand removes exactly that use.
    let c = op(&mut ctx, b, "demo.def", &[], 1);
    let cv = ctx.result(c, 0);
    ctx.set_operand(u1, 1, cv);
    let mut uses: Vec<_> = ctx.uses(av).collect();
    uses.sort();
    assert_eq!(uses, vec![(u1, 0), (u2, 0)]);
    assert!(ctx.has_one_use(cv));
    // Erasing a user drops its uses.
    ctx.erase_op(u2);
    assert_eq!(ctx.uses(av).collect::<Vec<_>>(), vec![(u1, 0)]);
    ctx.drop_operands(u1);
    assert!(!ctx.has_uses(av) && !ctx.has_uses(cv));
}

#[test]
fn replace_all_uses_with_moves_every_use() {
    let mut ctx = context(true);
    let (_, b) = module(&mut ctx);
    let a = op(&mut ctx, b, "demo.def", &[], 1);
    let n = op(&mut ctx, b, "demo.def", &[], 1);
    let (av, nv) = (ctx.result(a, 0), ctx.result(n, 0));
    let users: Vec<OpId> = (0..100).map(|_| op(&mut ctx, b, "demo.use", &[av, nv, av], 0)).collect();
    ctx.replace_all_uses_with(av, nv);
    assert!(!ctx.has_uses(av));
    assert_eq!(ctx.uses(nv).count(), 300);
    for &u in &users {
        assert_eq!(ctx.operand_vec(u), vec![nv, nv, nv]);
    }
    // Conditional replacement: only operand #1 of the first user.
    ctx.replace_uses_with_if(nv, av, |_, o, i| o == users[0] && i == 1);
    assert_eq!(ctx.operand_vec(users[0]), vec![nv, av, nv]);
    assert_eq!(ctx.uses(nv).count(), 299);
}

#[test]
fn split_block_moves_the_tail() {
    let mut ctx = context(true);
    let (m, b) = module(&mut ctx);
    let ops: Vec<OpId> = (0..5).map(|i| op(&mut ctx, b, &format!("demo.op{i}"), &[], 1)).collect();
    let r1 = ctx.result(ops[1], 0);
    let user = op(&mut ctx, b, "demo.use", &[r1], 0);
    let nb = ctx.split_block(b, ops[3]);
    assert_eq!(ctx.block_ops(b).collect::<Vec<_>>(), ops[..3].to_vec());
    assert_eq!(ctx.block_ops(nb).collect::<Vec<_>>(), vec![ops[3], ops[4], user]);
    assert_eq!(ctx.op_block(ops[4]), Some(nb));
    let r = ctx.region(m, 0);
    assert_eq!(ctx.region_blocks(r), &[b, nb]);
    assert_eq!(ctx.last_op(b), Some(ops[2]));
    assert_eq!(ctx.prev_op(ops[3]), None);
    // Uses across the split are unaffected.
    assert_eq!(ctx.operand(user, 0), ctx.result(ops[1], 0));
}

#[test]
fn inline_region_moves_blocks_and_parents() {
    let mut ctx = context(true);
    let text = r#""demo.outer"() ({
  "demo.a"() : () -> ()
}) : () -> ()
"demo.inner"() ({
  "demo.b"() : () -> ()
^bb1:
  "demo.c"() : () -> ()
}) : () -> ()"#;
    let m = parse_module(&mut ctx, text, "t.mlir").unwrap();
    let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
    let tops: Vec<OpId> = ctx.block_ops(body).collect();
    let (outer, inner) = (tops[0], tops[1]);
    let (dst, src) = (ctx.region(outer, 0), ctx.region(inner, 0));
    let moved = ctx.region_blocks(src).to_vec();
    ctx.inline_region_before(src, dst, 1);
    assert!(ctx.region_blocks(src).is_empty());
    assert_eq!(&ctx.region_blocks(dst)[1..], &moved[..]);
    for &b in &moved {
        assert_eq!(ctx.block_parent_op(b), Some(outer));
    }
    let c = ctx.first_op(moved[1]).unwrap();
    assert_eq!(ctx.parent_op(c), Some(outer));
    ctx.erase_op(inner);
    let printed = print_op(&ctx, m, PrintOptions::default());
    assert!(printed.contains("\"demo.b\"") && printed.contains("^bb2:"), "{printed}");
}

#[test]
fn clone_and_transplant_preserve_text() {
    let mut ctx = context(true);
    let text = std::fs::read_to_string(cuprite_tests::ir_dir().join("roundtrip/generic_syntax.mlir")).unwrap();
    let m = parse_module(&mut ctx, &text, "g.mlir").unwrap();
    let before = print_op(&ctx, m, PrintOptions { generic: true, locations: true, ..Default::default() });
    let mut map = cuprite_ir::clone::CloneMap::default();
    let copy = cuprite_ir::clone::clone_op(&mut ctx, m, &mut map);
    assert_eq!(print_op(&ctx, copy, PrintOptions { generic: true, locations: true, ..Default::default() }), before);
    let mut other = context(true);
    let t = cuprite_ir::clone::transplant(&ctx, m, &mut other);
    assert_eq!(print_op(&other, t, PrintOptions { generic: true, locations: true, ..Default::default() }), before);
    verify(&other, t, None).unwrap();
}

#[test]
fn streaming_printer_matches_string_printer() {
    let mut ctx = context(true);
    let text = std::fs::read_to_string(cuprite_tests::ir_dir().join("roundtrip/locations.mlir")).unwrap();
    let m = parse_module(&mut ctx, &text, "l.mlir").unwrap();
    for mode in cuprite_tests::PRINT_MODES {
        let mut buf = Vec::new();
        cuprite_ir::print::write_op(&ctx, m, mode, &mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), print_op(&ctx, m, mode));
    }
}

#[test]
fn verifier_rejects_use_across_isolated_region() {
    // The parser cannot produce this (names do not resolve across isolation), so build it.
    let mut ctx = context(true);
    let (_, b) = module(&mut ctx);
    let outer = op(&mut ctx, b, "demo.def", &[], 1);
    let ov = ctx.result(outer, 0);
    let loc = ctx.unknown_loc();
    let r = ctx.create_region();
    let fb = ctx.create_block(&[]);
    ctx.append_block(r, fb);
    let fty = ctx.function_type(vec![], vec![]);
    let fta = ctx.type_attr(fty);
    let name = ctx.str_attr("f");
    let mut st = OperationState::new(&mut ctx, "func.func", loc);
    st.regions.push(r);
    st.props = vec![(ctx.sym("function_type"), fta), (ctx.sym("sym_name"), name)];
    let f = ctx.create_op(st);
    ctx.insert_op(f, InsertPoint::end(b));
    op(&mut ctx, fb, "demo.use", &[ov], 0);
    let mut st = OperationState::new(&mut ctx, "func.return", loc);
    st.operands.clear();
    let ret = ctx.create_op(st);
    ctx.insert_op(ret, InsertPoint::end(fb));
    let root = ctx.op_block(outer).and_then(|b| ctx.block_parent_op(b)).unwrap();
    let errs = verify(&ctx, root, None).unwrap_err();
    assert!(errs[0].message.contains("isolated-from-above region of 'func.func'"), "{:?}", errs);
}

/// Two patterns that undo each other: the greedy driver must stop on a budget and say so.
fn flip_patterns() -> PatternSet {
    let mut set = PatternSet::new();
    set.add_fn("demo.flip-on", "demo.flip", 1, |op, rw| {
        if rw.ctx.get_attr(op, "on").is_some() {
            return false;
        }
        let u = rw.ctx.unit_attr();
        rw.modify_op_in_place(op, |c| c.set_attr(op, "on", u));
        true
    });
    set.add_fn("demo.flip-off", "demo.flip", 1, |op, rw| {
        if rw.ctx.get_attr(op, "on").is_none() {
            return false;
        }
        rw.modify_op_in_place(op, |c| c.remove_attr(op, "on"));
        true
    });
    set
}

#[test]
fn greedy_driver_stops_on_rewrite_budget() {
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, r#""demo.flip"() : () -> ()"#, "t.mlir").unwrap();
    let cfg = GreedyConfig { max_rewrites: Some(25), ..Default::default() };
    let r = apply_patterns_greedily(&mut ctx, m, &flip_patterns(), &cfg);
    assert_eq!(r.stop, StopReason::RewriteBudget(25));
    assert_eq!(r.rewrites, 25);
    let applied: u64 = r.stats.iter().map(|s| s.applied).sum();
    assert_eq!(applied, 25);
    assert!(r.stats.iter().all(|s| s.tried >= s.applied && s.applied > 0), "{:?}", r.stats);
}

#[test]
fn greedy_driver_stops_on_iteration_budget() {
    // A pattern that changes something once per sweep (never re-queues itself) converges
    // only after `n` sweeps; with max_iterations below that, the iteration budget stops it.
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, r#""demo.count"() {n = 0 : i64} : () -> ()"#, "t.mlir").unwrap();
    let mut set = PatternSet::new();
    set.add(CountOncePerSweep);
    let cfg = GreedyConfig { max_iterations: 3, ..Default::default() };
    let r = apply_patterns_greedily(&mut ctx, m, &set, &cfg);
    assert_eq!(r.stop, StopReason::IterationBudget(3));
    assert_eq!(r.iterations, 3);
}

/// Bumps `n` on an op without reporting the modification (so the op is not requeued).
struct CountOncePerSweep;
impl cuprite_ir::rewrite::RewritePattern for CountOncePerSweep {
    fn name(&self) -> &str {
        "demo.count-bump"
    }
    fn root(&self) -> Option<&str> {
        Some("demo.count")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let n = rw.ctx.get_attr(op, "n").and_then(|a| cuprite_dialects::arith::int_value(rw.ctx, a)).unwrap_or(0);
        if n >= 100 {
            return false;
        }
        let t = rw.ctx.i64();
        let v = rw.ctx.int_attr(n + 1, t);
        rw.ctx.set_attr(op, "n", v);
        true
    }
}

#[test]
fn greedy_driver_converges_and_counts() {
    let mut ctx = context(false);
    let text = std::fs::read_to_string(cuprite_tests::ir_dir().join("mlir-generated/scalar_math.generic.mlir")).unwrap();
    let m = parse_module(&mut ctx, &text, "s.mlir").unwrap();
    let set = PatternSet::canonicalization(ctx.registry());
    let r = apply_patterns_greedily(&mut ctx, m, &set, &GreedyConfig::default());
    assert!(r.converged() && r.changed);
    assert!(r.folds > 0 && r.erased_dead > 0);
    verify(&ctx, m, None).unwrap();
    // A second run changes nothing.
    let r2 = apply_patterns_greedily(&mut ctx, m, &set, &GreedyConfig::default());
    assert!(r2.converged() && !r2.changed && r2.iterations == 1);
}

#[test]
fn walk_driver_visits_once_and_stops_on_budget() {
    let mut ctx = context(true);
    let text = (0..10).map(|_| "\"demo.flip\"() : () -> ()\n").collect::<String>();
    let m = parse_module(&mut ctx, &text, "t.mlir").unwrap();
    let set = flip_patterns();
    let r = apply_patterns_walk(&mut ctx, m, &set, None);
    assert_eq!((r.rewrites, r.hit_budget), (10, None), "each op rewritten exactly once");
    let r = apply_patterns_walk(&mut ctx, m, &set, Some(4));
    assert_eq!((r.rewrites, r.hit_budget), (4, Some(4)));
}

/// Converts `arith` on i32 to i64: function signatures, constants and adds.
#[test]
fn one_shot_conversion_with_type_converter_and_casts() {
    let mut ctx = context(false);
    let text = r#""func.func"() <{function_type = (i32, i32) -> i32, sym_name = "f"}> ({
^bb0(%a: i32, %b: i32):
  %c = "arith.constant"() <{value = 5 : i32}> : () -> i32
  %s = "arith.addi"(%a, %c) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %t = "arith.addi"(%s, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  "func.return"(%t) : (i32) -> ()
}) : () -> ()"#;
    let m = parse_module(&mut ctx, text, "t.mlir").unwrap();
    let mut types = TypeConverter::new();
    types.add(|ctx, t| (ctx.int_width(t) == Some(32)).then(|| ctx.i64()));
    fn widen(op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let ctx = rw.ctx();
        let name = ctx.op_name_str(op).to_string();
        let loc = ctx.op_loc(op);
        let i64t = ctx.i64();
        let new = match name.as_str() {
            "arith.constant" => {
                let v = cuprite_dialects::arith::int_value(ctx, ctx.get_attr(op, "value").unwrap()).unwrap();
                let a = ctx.int_attr(v, i64t);
                rw.rw.set_insertion_point_before(op);
                cuprite_dialects::arith::build_constant(&mut rw.rw, a, i64t, loc)
            }
            _ => {
                rw.rw.set_insertion_point_before(op);
                cuprite_dialects::arith::build_int_binary(&mut rw.rw, &name, operands[0], operands[1], loc)
            }
        };
        let v = rw.ctx().result(new, 0);
        rw.replace_op(op, &[v]);
        true
    }
    fn func_sig(op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let i64t = rw.ctx().i64();
        let fty = rw.ctx().function_type(vec![i64t, i64t], vec![i64t]);
        let a = rw.ctx().type_attr(fty);
        let r = rw.ctx().region(op, 0);
        rw.rw.modify_op_in_place(op, |c| c.set_prop(op, "function_type", a));
        rw.convert_region_types(r);
        true
    }
    fn ret(op: OpId, operands: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let ops = operands.to_vec();
        rw.rw.modify_op_in_place(op, |c| c.set_operands(op, &ops));
        true
    }
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![
        Box::new(FnConversionPattern { name: "widen-constant", root: Some("arith.constant"), benefit: 1, f: widen }),
        Box::new(FnConversionPattern { name: "widen-addi", root: Some("arith.addi"), benefit: 1, f: widen }),
        Box::new(FnConversionPattern { name: "func-signature", root: Some("func.func"), benefit: 1, f: func_sig }),
        Box::new(FnConversionPattern { name: "return-operands", root: Some("func.return"), benefit: 1, f: ret }),
    ];
    let is_i64 = |ctx: &Context, op: OpId| {
        ctx.operands(op).chain(ctx.results(op).iter().copied()).all(|v| ctx.int_width(ctx.value_type(v)) == Some(64))
    };
    let target = ConversionTarget::new()
        .legal_dialect("builtin")
        .dynamic_op("arith.constant", is_i64)
        .dynamic_op("arith.addi", is_i64)
        .dynamic_op("func.return", is_i64)
        .dynamic_op("func.func", |ctx, op| {
            cuprite_dialects::func::function_type(ctx, op).is_some_and(|(i, _)| i.iter().all(|&t| ctx.int_width(t) == Some(64)))
        });
    let r = apply_conversion(&mut ctx, m, &target, &types, &patterns, ConversionMode::Full, None);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    assert_eq!(r.rewrites, 5);
    verify(&ctx, m, None).unwrap();
    let out = print_op(&ctx, m, PrintOptions::default());
    assert!(!out.contains("i32") && !out.contains("unrealized_conversion_cast"), "{out}");
}

/// A pattern over grouped operands (1:N conversions).
struct GroupPattern {
    name: &'static str,
    root: &'static str,
    f: fn(OpId, &[Vec<ValueId>], &mut ConversionRewriter<'_, '_>) -> bool,
}

impl ConversionPattern for GroupPattern {
    fn name(&self) -> &str {
        self.name
    }
    fn root(&self) -> Option<&str> {
        Some(self.root)
    }
    fn match_and_rewrite(&self, _: OpId, _: &[ValueId], _: &mut ConversionRewriter<'_, '_>) -> bool {
        false
    }
    fn match_and_rewrite_groups(&self, op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        (self.f)(op, operands, rw)
    }
}

/// A 1:N conversion: `!test.pair` values become an (i32, f32) pair of values, through a
/// function's signature and entry block, the ops that make and take pairs, and an op the
/// conversion leaves alone (which reads the pair joined back by a materialization).
#[test]
fn one_to_n_conversion_splits_values_and_block_arguments() {
    let mut ctx = context(true);
    let text = r#""func.func"() <{function_type = (!test.pair, i32) -> i32, sym_name = "f"}> ({
^bb0(%p: !test.pair, %k: i32):
  %a = "test.first"(%p) : (!test.pair) -> i32
  %x = "test.second"(%p) : (!test.pair) -> f32
  %q = "test.make"(%a, %x) : (i32, f32) -> !test.pair
  %b = "test.first"(%q) : (!test.pair) -> i32
  "test.keep"(%q) : (!test.pair) -> ()
  "func.return"(%b) : (i32) -> ()
}) : () -> ()"#;
    let m = parse_module(&mut ctx, text, "t.mlir").unwrap();
    let mut types = TypeConverter::new();
    types.add_many(|ctx, t| {
        (cuprite_ir::print::type_to_string(ctx, t) == "!test.pair").then(|| vec![ctx.i32(), ctx.ty(TypeKind::Float(FloatKind::F32))])
    });
    fn take(op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let i = usize::from(rw.ctx().is_op(op, "test.second"));
        let v = operands[0][i];
        rw.replace_op(op, &[v]);
        true
    }
    fn make(op: OpId, operands: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let g: Vec<ValueId> = operands.concat();
        rw.replace_op_with_groups(op, &[g]);
        true
    }
    fn sig(op: OpId, _: &[Vec<ValueId>], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let (i32t, f32t) = (rw.ctx().i32(), rw.ctx().ty(TypeKind::Float(FloatKind::F32)));
        let fty = rw.ctx().function_type(vec![i32t, f32t, i32t], vec![i32t]);
        let a = rw.ctx().type_attr(fty);
        let r = rw.ctx().region(op, 0);
        rw.rw.modify_op_in_place(op, |c| c.set_prop(op, "function_type", a));
        rw.convert_region_types(r);
        true
    }
    let patterns: Vec<Box<dyn ConversionPattern>> = vec![
        Box::new(GroupPattern { name: "first", root: "test.first", f: take }),
        Box::new(GroupPattern { name: "second", root: "test.second", f: take }),
        Box::new(GroupPattern { name: "make", root: "test.make", f: make }),
        Box::new(GroupPattern { name: "signature", root: "func.func", f: sig }),
    ];
    let target = ConversionTarget::new()
        .illegal_op("test.first")
        .illegal_op("test.second")
        .illegal_op("test.make")
        .dynamic_op("func.func", |ctx, op| cuprite_dialects::func::function_type(ctx, op).is_some_and(|(i, _)| i.len() == 3));
    let r = apply_conversion(&mut ctx, m, &target, &types, &patterns, ConversionMode::Partial, None);
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let out = print_op(&ctx, m, PrintOptions { generic: true, ..Default::default() });
    // The function takes the pair's two values; `test.first` of the made pair is its first
    // input; only `test.keep` still sees a pair, joined from the two values.
    assert!(out.contains("^bb0(%arg0: i32, %arg1: f32, %arg2: i32)"), "{out}");
    assert!(!out.contains("test.first") && !out.contains("test.second") && !out.contains("test.make"), "{out}");
    assert!(out.contains(r#""func.return"(%arg0)"#), "{out}");
    let joins = out.matches("unrealized_conversion_cast").count();
    assert_eq!(joins, 1, "one join, for test.keep:\n{out}");
    assert!(out.contains(r#""builtin.unrealized_conversion_cast"(%arg0, %arg1) : (i32, f32) -> !test.pair"#), "{out}");
    verify(&ctx, m, None).unwrap();
}

#[test]
fn conversion_reports_ops_it_cannot_legalize_and_its_depth_budget() {
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, "\"demo.grow\"() : () -> ()\n\"demo.stuck\"() : () -> ()", "t.mlir").unwrap();
    // A pattern that replaces `demo.grow` by a new `demo.grow`: legalization must stop.
    fn regrow(op: OpId, _: &[ValueId], rw: &mut ConversionRewriter<'_, '_>) -> bool {
        let loc = rw.ctx().op_loc(op);
        let st = OperationState::new(rw.ctx(), "demo.grow", loc);
        rw.rw.set_insertion_point_before(op);
        rw.rw.create(st);
        rw.erase_op(op);
        true
    }
    let patterns: Vec<Box<dyn ConversionPattern>> =
        vec![Box::new(FnConversionPattern { name: "regrow", root: Some("demo.grow"), benefit: 1, f: regrow })];
    let target = ConversionTarget::new().illegal_dialect("demo");
    let r = apply_conversion(&mut ctx, m, &target, &TypeConverter::new(), &patterns, ConversionMode::Partial, None);
    let msgs: Vec<_> = r.errors.iter().map(|e| e.message.clone()).collect();
    assert!(msgs.contains(&"failed to legalize operation 'demo.stuck'".to_string()), "{msgs:?}");
    assert!(msgs.contains(&"failed to legalize operation 'demo.grow'".to_string()), "{msgs:?}");
    assert_eq!(r.rewrites as u32, cuprite_ir::rewrite::conversion::MAX_LEGALIZATION_DEPTH + 1);
}

#[test]
fn dominance_on_a_diamond_with_an_unreachable_block() {
    let mut ctx = context(true);
    let text = r#""demo.f"() ({
^bb0(%c: i1):
  "demo.cond"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1:
  "demo.br"()[^bb3] : () -> ()
^bb2:
  "demo.br"()[^bb3] : () -> ()
^bb3:
  "demo.ret"() : () -> ()
^bb4:
  "demo.br"()[^bb3] : () -> ()
}) : () -> ()"#;
    let m = parse_module(&mut ctx, text, "d.mlir").unwrap();
    let f = ctx.first_op(ctx.entry_block(ctx.region(m, 0)).unwrap()).unwrap();
    let b = ctx.region_blocks(ctx.region(f, 0)).to_vec();
    let mut dom = cuprite_ir::dominance::DominanceInfo::default();
    assert_eq!(dom.idom(&ctx, b[3]), Some(b[0]), "the join's idom is the entry, not a branch");
    assert_eq!(dom.idom(&ctx, b[1]), Some(b[0]));
    assert!(dom.block_dominates(&ctx, b[0], b[3]));
    assert!(!dom.block_dominates(&ctx, b[1], b[3]));
    // As in MLIR, an unreachable block is dominated by everything.
    assert!(dom.block_dominates(&ctx, b[1], b[4]));
    assert_eq!(dom.idom(&ctx, b[4]), None);
    let children = cuprite_ir::dominance::dom_children(&ctx, ctx.region(f, 0));
    let mut c = children[&b[0]].clone();
    c.sort();
    let mut want = vec![b[1], b[2], b[3]];
    want.sort();
    assert_eq!(c, want);
}

#[test]
fn contexts_move_between_threads() {
    // DESIGN invariant: a Context is Send (per-function contexts are compiled in parallel).
    fn assert_send<T: Send>() {}
    assert_send::<Context>();
    let mut ctx = context(true);
    let m = parse_module(&mut ctx, r#""demo.op"() : () -> ()"#, "t.mlir").unwrap();
    let printed = std::thread::spawn(move || print_op(&ctx, m, PrintOptions::default())).join().unwrap();
    assert!(printed.contains("demo.op"));
}
