//! Calls of the functions cuprite's built-in headers declare without a body: the GPU
//! operations become their `cuda` ops (barriers, fences, atomics, shuffles, votes, clocks);
//! the C math functions an op states exactly are standard ops (`sqrtf` is `math.sqrt`,
//! `fminf` `arith.minnumf`: [`standard_op`]); everything else (the rest of the math library,
//! integer and conversion intrinsics) is a `cuda.intrinsic` call by name, after overload
//! resolution picked the declaration (so its operand types say which overload it is).

use super::expr::{Place, Value};
use super::ty::{IntKind, TyKind};
use super::*;

impl Sema<'_> {
    pub(crate) fn builtin_call(&mut self, f: FuncId, args: &[ValueId], span: Span) -> Option<Value> {
        let info = self.funcs[f.0 as usize].clone();
        let name = self.name_str(info.name);
        let ret = info.ret;
        let ret_ir: Vec<TypeId> = self.types.ir(&mut self.ctx, ret).into_iter().collect();
        const ATOMICS: [&str; 10] = [
            "atomicAdd",
            "atomicSub",
            "atomicExch",
            "atomicMin",
            "atomicMax",
            "atomicInc",
            "atomicDec",
            "atomicAnd",
            "atomicOr",
            "atomicXor",
        ];
        // `atomicAdd_block`, `atomicCAS_system`: the scope is a suffix of the name (absent:
        // the device).
        use cuprite_dialects::cuda::FenceScope;
        let (name, scope) = match name.strip_suffix("_block").or_else(|| name.strip_suffix("_system")) {
            Some(base) if base.starts_with("atomic") => {
                (base, Some(if name.ends_with("_block") { FenceScope::Block } else { FenceScope::System }))
            }
            _ => (name, None),
        };
        let scope_attr = scope.map(|s| self.enum_attr(s as i64));
        let scope_prop: Vec<(&str, _)> = scope_attr.into_iter().map(|a| ("scope", a)).collect();
        let op = match name {
            _ if ATOMICS.contains(&name) => {
                let half = args.get(1).is_some_and(|&v| {
                    matches!(self.ctx.type_kind(self.ctx.value_type(v)), cuprite_ir::TypeKind::Float(cuprite_ir::FloatKind::F16))
                });
                if half && self.options.arch != 0 && self.options.arch < 70 {
                    let msg = format!("{name} on __half needs sm_70 or later (this compiles for sm_{})", self.options.arch);
                    self.error(span, msg);
                    return None;
                }
                use cuprite_dialects::cuda::AtomicKind;
                let mut k = ATOMICS.iter().position(|&a| a == name).expect("listed") as i64;
                // Unsigned min and max are their own kinds (the IR types are signless).
                let unsigned = info.params.get(1).and_then(|&t| self.types.int_kind(t.unqual())).is_some_and(|k| !k.signed());
                if unsigned && k == AtomicKind::Min as i64 {
                    k = AtomicKind::Umin as i64;
                } else if unsigned && k == AtomicKind::Max as i64 {
                    k = AtomicKind::Umax as i64;
                }
                let ka = self.enum_attr(k);
                let props: Vec<_> = std::iter::once(("kind", ka)).chain(scope_prop).collect();
                self.op("cuda.atomic", args, &ret_ir, &props, 0, span)
            }
            "__syncthreads" => {
                let k = self.enum_attr(0);
                self.op("cuda.barrier", &[], &[], &[("kind", k)], 0, span)
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                let kind = match name {
                    "__syncthreads_count" => 1,
                    "__syncthreads_and" => 2,
                    _ => 3,
                };
                let pred = self.int_to_pred(args[0], span)?;
                let k = self.enum_attr(kind);
                self.op("cuda.barrier", &[pred], &ret_ir, &[("kind", k)], 0, span)
            }
            "__syncwarp" => {
                let k = self.enum_attr(4);
                self.op("cuda.barrier", args, &[], &[("kind", k)], 0, span)
            }
            "__threadfence_block" | "__threadfence" | "__threadfence_system" => {
                let scope = match name {
                    "__threadfence_block" => 0,
                    "__threadfence" => 1,
                    _ => 2,
                };
                let s = self.enum_attr(scope);
                self.op("cuda.fence", &[], &[], &[("scope", s)], 0, span)
            }
            "atomicCAS" => self.op("cuda.atomic_cas", args, &ret_ir, &scope_prop, 0, span),
            "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => {
                let mode = match name {
                    "__shfl_sync" => 0,
                    "__shfl_up_sync" => 1,
                    "__shfl_down_sync" => 2,
                    _ => 3,
                };
                // The lane operand is `int` (up/down take an `unsigned` delta).
                let mut args = args.to_vec();
                let (u, i) = (self.types.int(IntKind::UInt), self.types.int(IntKind::Int));
                if self.ctx.value_type(args[2]) == self.types.ir(&mut self.ctx, u)? {
                    args[2] = self.convert(args[2], u, i, span, true)?;
                }
                let m = self.enum_attr(mode);
                self.op("cuda.shfl", &args, &ret_ir, &[("mode", m)], 0, span)
            }
            "__all_sync" | "__any_sync" | "__uni_sync" | "__ballot_sync" => {
                let mode = match name {
                    "__all_sync" => 0,
                    "__any_sync" => 1,
                    "__uni_sync" => 2,
                    _ => 3,
                };
                let pred = self.int_to_pred(args[1], span)?;
                let m = self.enum_attr(mode);
                self.op("cuda.vote", &[args[0], pred], &ret_ir, &[("mode", m)], 0, span)
            }
            "__reduce_add_sync" | "__reduce_min_sync" | "__reduce_max_sync" | "__reduce_and_sync" | "__reduce_or_sync"
            | "__reduce_xor_sync" => {
                if self.options.arch != 0 && self.options.arch < 80 {
                    self.error(span, format!("{name} needs sm_80 or later (this compiles for sm_{})", self.options.arch));
                    return None;
                }
                use cuprite_dialects::cuda::ReduxKind as K;
                let signed = info.params.get(1).and_then(|&t| self.types.int_kind(t.unqual())).is_some_and(|k| k.signed());
                let k = match (name, signed) {
                    ("__reduce_add_sync", _) => K::Add,
                    ("__reduce_min_sync", true) => K::Smin,
                    ("__reduce_min_sync", false) => K::Umin,
                    ("__reduce_max_sync", true) => K::Smax,
                    ("__reduce_max_sync", false) => K::Umax,
                    ("__reduce_and_sync", _) => K::And,
                    ("__reduce_or_sync", _) => K::Or,
                    _ => K::Xor,
                };
                let ka = self.enum_attr(k as i64);
                self.op(cuprite_dialects::cuda::ReduxOp::NAME, args, &ret_ir, &[("kind", ka)], 0, span)
            }
            "__match_any_sync" | "__cuprite_match_all_sync" => {
                if self.options.arch != 0 && self.options.arch < 70 {
                    let n = if name == "__match_any_sync" { name } else { "__match_all_sync" };
                    self.error(span, format!("{n} needs sm_70 or later (this compiles for sm_{})", self.options.arch));
                    return None;
                }
                let m = self.enum_attr(i64::from(name != "__match_any_sync"));
                self.op(cuprite_dialects::cuda::MatchOp::NAME, args, &ret_ir, &[("mode", m)], 0, span)
            }
            "clock" | "clock64" | "__cuprite_laneid" => {
                use cuprite_dialects::cuda::SpecialReg;
                let (reg, k) = match name {
                    "clock" => (SpecialReg::Clock, IntKind::UInt),
                    "clock64" => (SpecialReg::Clock64, IntKind::ULongLong),
                    _ => (SpecialReg::Laneid, IntKind::UInt),
                };
                let t = self.types.int(k);
                let ir = self.types.ir(&mut self.ctx, t)?;
                let r = self.enum_attr(reg as i64);
                let v = self.op1("cuda.special", &[], ir, &[("reg", r)], span);
                let v = self.convert(v, t, ret, span, true)?;
                return Some(Value::val(v, ret));
            }
            // Loads and stores with a cache operator: `cuda.load`/`cuda.store` with `cache`.
            "__ldg" | "__ldcg" | "__ldca" | "__ldcs" | "__ldlu" | "__ldcv" => {
                let cache = if name == "__ldg" { "nc" } else { &name[4..] };
                let c = self.ctx.str_attr(cache);
                let t = self.types.ir_mem(&mut self.ctx, ret);
                let v = self.op1("cuda.load", &args[..1], t, &[("cache", c)], span);
                return Some(Value::val(v, ret));
            }
            "__stwb" | "__stcg" | "__stcs" | "__stwt" => {
                let c = self.ctx.str_attr(&name[4..]);
                self.op("cuda.store", &[args[1], args[0]], &[], &[("cache", c)], 0, span);
                return Some(Value { place: Place::Void, ty: ret });
            }
            _ if name.starts_with("__cuprite_tex_") => return self.tex_fetch(name, args, ret, span),
            "printf" => return self.device_printf(args, ret, span),
            "malloc" | "free" => return Some(self.heap_call(name == "malloc", args.first().copied(), span)),
            "__assert_fail" => return self.device_assert_fail(args, span),
            "cudaGraphSetConditional" => return self.graph_set_conditional(args, span),
            "__trap" | "__brkpt" | "__nanosleep" | "assert" => {
                let n = self.name_attr(name);
                self.op("cuda.intrinsic", args, &ret_ir, &[("name", n)], 0, span)
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax"
                if info.intrinsic.is_none() && args.len() == 2 && self.types.is_integral(info.ret.unqual()) =>
            {
                let v = self.int_min_max(name.ends_with("max"), args[0], args[1], info.ret, span)?;
                return Some(Value::val(v, ret));
            }
            _ => {
                let iname = info.intrinsic.clone().unwrap_or_else(|| name.to_string());
                if let Some(op) = standard_op(&iname) {
                    let float = ret_ir.first().is_some_and(|&t| matches!(self.ctx.type_kind(t), cuprite_ir::TypeKind::Float(_)));
                    if float && args.iter().all(|&a| Some(&self.ctx.value_type(a)) == ret_ir.first()) {
                        return Some(Value::val(self.op1(op, args, ret_ir[0], &[], span), ret));
                    }
                }
                let n = self.name_attr(&iname);
                self.op("cuda.intrinsic", args, &ret_ir, &[("name", n)], 0, span)
            }
        };
        if matches!(self.types.kind(ret), TyKind::Void) {
            return Some(Value { place: Place::Void, ty: ret });
        }
        Some(Value::val(self.ctx.result(op, 0), ret))
    }

    /// `__cuprite_tex_<geom>_<f|s|u>(t, coords...)`: one `cuda.tex`, its four channels
    /// gathered into the float4/int4/uint4 the built-in returns.
    fn tex_fetch(&mut self, name: &str, args: &[ValueId], ret: Ty, span: Span) -> Option<Value> {
        let rest = name.trim_start_matches("__cuprite_tex_");
        let (geom, kind) = rest.rsplit_once('_')?;
        let (geom, level) = match geom.strip_prefix("level_") {
            Some(g) => (g, true),
            None => (geom.trim_end_matches("fetch"), false),
        };
        let r = self.types.record(ret.unqual())?;
        let fields: Vec<Ty> = self.types.rec(r).fields.iter().map(|f| f.ty).collect();
        let elem = self.types.ir_mem(&mut self.ctx, *fields.first()?);
        let g = self.ctx.str_attr(geom);
        // The texture object, a layered texture's layer (first in PTX's order), the
        // coordinates.
        let layered = geom.starts_with('a');
        let i32t = self.ctx.int_type(32);
        let segs = vec![1, i64::from(layered), args.len() as i64 - 1 - i64::from(layered)];
        let segs = self.ctx.attr(cuprite_ir::AttrKind::DenseArray { elem: i32t, values: segs });
        let mut props = vec![("geom", g), ("operandSegmentSizes", segs)];
        if level {
            props.push(("level", self.ctx.unit_attr()));
        }
        if kind == "s" {
            props.push(("signed", self.ctx.unit_attr()));
        }
        let op = self.op("cuda.tex", args, &[elem; 4], &props, 0, span);
        let var = self.new_var("texel", ret, AddrSpace::Local, span);
        for (i, &ft) in fields.iter().enumerate().take(4) {
            let a = self.member_addr(var, AddrSpace::Local, ret, i, span);
            let v = self.ctx.result(op, i);
            self.store(v, a, ft, span);
        }
        let v = self.load(var, ret, span);
        Some(Value::val(v, ret))
    }

    /// An `int` predicate argument as `i1` (non-zero).
    fn int_to_pred(&mut self, v: ValueId, span: Span) -> Option<ValueId> {
        let t = self.ctx.value_type(v);
        if self.ctx.int_width(t) == Some(1) {
            return Some(v);
        }
        let i = self.types.int(IntKind::Int);
        let b = self.types.bool();
        self.convert(v, i, b, span, true)
    }
}

/// The standard-dialect op of a C math function whose meaning it is exactly (IEEE
/// semantics, correctly rounded): `sqrtf` is `math.sqrt`, `fmaf` `math.fma`, `fminf`
/// `arith.minnumf` (a NaN operand gives the other), `rintf` `math.roundeven`. The rest
/// of the math library stays `cuda.intrinsic` by name (linked from the device math library
/// or lowered to an approximate instruction).
fn standard_op(name: &str) -> Option<&'static str> {
    Some(match name {
        "sqrtf" | "sqrt" => "math.sqrt",
        "fabsf" | "fabs" => "math.absf",
        "fmaf" | "fma" => "math.fma",
        "copysignf" | "copysign" => "math.copysign",
        "truncf" | "trunc" => "math.trunc",
        "floorf" | "floor" => "math.floor",
        "ceilf" | "ceil" => "math.ceil",
        "rintf" | "rint" | "nearbyintf" | "nearbyint" => "math.roundeven",
        "fminf" | "fmin" => "arith.minnumf",
        "fmaxf" | "fmax" => "arith.maxnumf",
        _ => return None,
    })
}
