//! Op semantics, one module per dialect: each translates a kernel of its level, with the
//! functions it calls, into the machine's [`Program`](crate::code::Program).
//!
//! - [`cuda`]: structured control flow (`cuda.if`, `cuda.loop`, `cuda.switch` with
//!   `break`/`continue`/`return` at any depth), variables in memory, struct layout, the
//!   built-in functions by their C names;
//! - [`arith`]: the standard dialect's scalar arithmetic, wherever a level uses it;
//! - [`math`]: the standard dialect's exact float functions (`sqrt`, `fma`, `floor`, ...);
//! - [`scf`]: `scf.if` and `scf.while` inside `cuda` functions;
//! - [`cf`]: branches between the blocks of a `cuda` function's regions;
//! - [`nvvm`]: a CFG with block arguments, signless integers, typed pointers in address
//!   spaces, intrinsics by PTX name;
//! - [`ptx`]: PTX instructions on virtual registers, with their modifiers read from the
//!   `mods` string, param space, predicates, the call ABI.
//!
//! The three are written independently from the C and PTX semantics: none reuses
//! another's lowering, so that a lowering bug shows up as a difference between levels.

pub mod arith;
pub mod cf;
pub mod cuda;
pub mod func;
pub mod math;
pub mod mixed;
pub mod nvvm;
pub mod ptx;
pub mod scf;

use crate::code::{BinOp, Cvt, FMode, Inst, Reg, Rnd, Ty, UnOp};
use cuprite_dialects::nvvm::rounding::{Mode, Num, Rounded};
use cuprite_ir::{AttrKind, Context, LocId, Location, OpId, TypeKind};

/// The instruction of an operation with an explicit rounding mode (`__fadd_rz` at the
/// `cuda` level, `add.rz` at the `nvvm` level: the names are read by the lowering's
/// decoder, what they do is written here), on operands of type `from` giving a `to`.
/// `ftz`: f32 operands and results flush subnormals (the function's `-ftz=true`).
pub(crate) fn rounded_inst(r: Rounded, from: Ty, to: Ty, dst: Reg, o: &[Reg], ftz: bool) -> Result<Inst, String> {
    let ftz = ftz && (from == Ty::F32 || to == Ty::F32);
    let rnd = |m: Mode| match m {
        Mode::Rn => Rnd::Rn,
        Mode::Rz => Rnd::Rz,
        Mode::Rm => Rnd::Rm,
        Mode::Rp => Rnd::Rp,
    };
    let need = |n: usize| if o.len() < n { Err(format!("{r:?} needs {n} operands, has {}", o.len())) } else { Ok(()) };
    Ok(match r {
        Rounded::Arith(op, mode) => {
            let m = FMode { rnd: rnd(mode), ftz, sat: false };
            let bin = |op: BinOp| Inst::Bin { op, ty: to, dst, a: o[0], b: o[1] };
            match op {
                "add" | "sub" | "mul" | "div" => need(2)?,
                "fma" => need(3)?,
                _ => need(1)?,
            }
            match op {
                "add" => bin(BinOp::FAdd(m)),
                "sub" => bin(BinOp::FSub(m)),
                "mul" => bin(BinOp::FMul(m)),
                "div" => bin(BinOp::FDiv(m)),
                "fma" => Inst::Fma { ty: to, mode: m, dst, a: o[0], b: o[1], c: o[2] },
                "sqrt" => Inst::Un { op: UnOp::Sqrt(m), ty: to, dst, a: o[0] },
                "rcp" => Inst::Un { op: UnOp::Rcp(m), ty: to, dst, a: o[0] },
                other => return Err(format!("no rounded operation '{other}'")),
            }
        }
        Rounded::Convert { from: f, to: t, mode } => {
            need(1)?;
            let cvt =
                Cvt { from, from_signed: f != Num::Unsigned, to, to_signed: t != Num::Unsigned, rnd: rnd(mode), ftz: false, sat: false };
            Inst::Cvt { cvt, dst, src: o[0] }
        }
    })
}

/// The machine operation of a warp reduction kind, as the `cuda` and `nvvm` dialects number
/// it alike (`add umin umax smin smax and or xor`).
/// The bfloat16 instructions (`cvt.<rn|rz|rm|rp>.bf16.<f32|f64|s32|u32|s64|u64>`,
/// `cvt.f32.bf16`, `add.rn.bf16`, `sub.rn.bf16`, `mul.rn.bf16`, `fma.rn.bf16`, `max.bf16`,
/// `min.bf16`) by their PTX name, on bfloat16 bits in
/// 16-bit registers: `cuda_bf16.h`'s built-ins (`__cuprite_cvt_rn_bf16_f32`, ...) at the
/// `cuda` level and the `nvvm.intr` they lower to. `None`: not one of them.
pub(crate) fn bf16_inst(name: &str, dst: Reg, o: &[Reg]) -> Option<Result<Inst, String>> {
    let need = |n: usize| if o.len() == n { Ok(()) } else { Err(format!("'{name}' needs {n} operands")) };
    let bin = |op: BinOp| need(2).map(|()| Inst::Bin { op, ty: Ty::BF16, dst, a: o[0], b: o[1] });
    let cvt = |from: Ty, to: Ty| {
        need(1).map(|()| Inst::Cvt {
            cvt: Cvt { from, from_signed: false, to, to_signed: false, rnd: Rnd::Rn, ftz: false, sat: false },
            dst,
            src: o[0],
        })
    };
    // `cvt.<rounding>.bf16.<source>`: from a float or an integer, with its rounding.
    if let Some(rest) = name.strip_prefix("cvt.") {
        let parts: Vec<&str> = rest.split('.').collect();
        if let [r, "bf16", src] = parts.as_slice() {
            let rnd = match *r {
                "rn" => Rnd::Rn,
                "rz" => Rnd::Rz,
                "rm" => Rnd::Rm,
                "rp" => Rnd::Rp,
                _ => return None,
            };
            let (from, from_signed) = match *src {
                "f32" => (Ty::F32, false),
                "f64" => (Ty::F64, false),
                "s32" => (Ty::I32, true),
                "u32" => (Ty::I32, false),
                "s64" => (Ty::I64, true),
                "u64" => (Ty::I64, false),
                _ => return None,
            };
            return Some(need(1).map(|()| Inst::Cvt {
                cvt: Cvt { from, from_signed, to: Ty::BF16, to_signed: false, rnd, ftz: false, sat: false },
                dst,
                src: o[0],
            }));
        }
    }
    Some(match name {
        "cvt.f32.bf16" => cvt(Ty::BF16, Ty::F32),
        "max.bf16" => bin(BinOp::FMax(false)),
        "min.bf16" => bin(BinOp::FMin(false)),
        "add.rn.bf16" => bin(BinOp::FAdd(FMode::RN)),
        "sub.rn.bf16" => bin(BinOp::FSub(FMode::RN)),
        "mul.rn.bf16" => bin(BinOp::FMul(FMode::RN)),
        "fma.rn.bf16" => need(3).map(|()| Inst::Fma { ty: Ty::BF16, mode: FMode::RN, dst, a: o[0], b: o[1], c: o[2] }),
        _ => return None,
    })
}

/// The PTX name of `cuda_bf16.h`'s built-in `n` (`__cuprite_add_rn_bf16` is `add.rn.bf16`).
pub fn bf16_builtin(n: &str) -> Option<&'static str> {
    Some(match n {
        "__cuprite_cvt_rn_bf16_f32" => "cvt.rn.bf16.f32",
        "__cuprite_cvt_f32_bf16" => "cvt.f32.bf16",
        "__cuprite_add_rn_bf16" => "add.rn.bf16",
        "__cuprite_sub_rn_bf16" => "sub.rn.bf16",
        "__cuprite_mul_rn_bf16" => "mul.rn.bf16",
        "__cuprite_fma_rn_bf16" => "fma.rn.bf16",
        "__cuprite_cvt_rz_bf16_f32" => "cvt.rz.bf16.f32",
        "__cuprite_cvt_rm_bf16_f32" => "cvt.rm.bf16.f32",
        "__cuprite_cvt_rp_bf16_f32" => "cvt.rp.bf16.f32",
        "__cuprite_cvt_rn_bf16_f64" => "cvt.rn.bf16.f64",
        "__cuprite_cvt_rn_bf16_s32" => "cvt.rn.bf16.s32",
        "__cuprite_cvt_rn_bf16_u32" => "cvt.rn.bf16.u32",
        "__cuprite_cvt_rn_bf16_s64" => "cvt.rn.bf16.s64",
        "__cuprite_cvt_rn_bf16_u64" => "cvt.rn.bf16.u64",
        "__cuprite_cvt_rz_bf16_f64" => "cvt.rz.bf16.f64",
        "__cuprite_cvt_rz_bf16_s32" => "cvt.rz.bf16.s32",
        "__cuprite_cvt_rz_bf16_u32" => "cvt.rz.bf16.u32",
        "__cuprite_cvt_rz_bf16_s64" => "cvt.rz.bf16.s64",
        "__cuprite_cvt_rz_bf16_u64" => "cvt.rz.bf16.u64",
        "__cuprite_cvt_rm_bf16_f64" => "cvt.rm.bf16.f64",
        "__cuprite_cvt_rm_bf16_s32" => "cvt.rm.bf16.s32",
        "__cuprite_cvt_rm_bf16_u32" => "cvt.rm.bf16.u32",
        "__cuprite_cvt_rm_bf16_s64" => "cvt.rm.bf16.s64",
        "__cuprite_cvt_rm_bf16_u64" => "cvt.rm.bf16.u64",
        "__cuprite_cvt_rp_bf16_f64" => "cvt.rp.bf16.f64",
        "__cuprite_cvt_rp_bf16_s32" => "cvt.rp.bf16.s32",
        "__cuprite_cvt_rp_bf16_u32" => "cvt.rp.bf16.u32",
        "__cuprite_cvt_rp_bf16_s64" => "cvt.rp.bf16.s64",
        "__cuprite_cvt_rp_bf16_u64" => "cvt.rp.bf16.u64",
        "__cuprite_max_bf16" => "max.bf16",
        "__cuprite_min_bf16" => "min.bf16",
        _ => return None,
    })
}

pub(crate) fn redux_op(kind: i64) -> crate::code::AtomOp {
    use crate::code::AtomOp::*;
    [Add, UMin, UMax, SMin, SMax, And, Or, Xor][kind.clamp(0, 7) as usize]
}

/// The machine comparison of an integer predicate as `arith.cmpi` and `nvvm.icmp` spell it.
pub(crate) fn int_cmp(keyword: &str) -> Option<crate::code::Cmp> {
    use crate::code::Cmp::*;
    Some(match keyword {
        "eq" => Eq,
        "ne" => Ne,
        "slt" => SLt,
        "sle" => SLe,
        "sgt" => SGt,
        "sge" => SGe,
        "ult" => ULt,
        "ule" => ULe,
        "ugt" => UGt,
        "uge" => UGe,
        _ => return None,
    })
}

/// The machine comparison of a float predicate as `arith.cmpf` and `nvvm.fcmp` spell it
/// (`o`: ordered, false on NaN; `u`: unordered, true on NaN); `None` for `false`/`true`.
pub(crate) fn float_cmp(keyword: &str) -> Option<crate::code::Cmp> {
    use crate::code::Cmp::*;
    Some(match keyword {
        "oeq" => FOeq,
        "one" => FOne,
        "olt" => FOlt,
        "ole" => FOle,
        "ogt" => FOgt,
        "oge" => FOge,
        "ueq" => FUeq,
        "une" => FUne,
        "ult" => FUlt,
        "ule" => FUle,
        "ugt" => FUgt,
        "uge" => FUge,
        "ord" => FOrd,
        "uno" => FUno,
        _ => return None,
    })
}

/// Whether function `f` has a body (a declaration, `vprintf`, is a runtime call).
pub(crate) fn has_body(ctx: &Context, f: OpId) -> bool {
    ctx.regions(f).first().is_some_and(|&r| ctx.entry_block(r).is_some())
}

/// The values of a dense array attribute (`maxntid = array<i32: 256>`).
pub(crate) fn dense_values(ctx: &Context, a: Option<cuprite_ir::AttrId>) -> Option<Vec<i64>> {
    match ctx.attr_kind(a?) {
        AttrKind::DenseArray { values, .. } => Some(values.clone()),
        _ => None,
    }
}

/// Bytes of an `array<i8: ...>` initializer.
pub(crate) fn init_bytes(ctx: &Context, init: Option<cuprite_ir::AttrId>) -> Vec<u8> {
    dense_values(ctx, init).map(|v| v.iter().map(|&b| b as u8).collect()).unwrap_or_default()
}

/// `file:line:col` for an op's location, as diagnostics print it.
pub fn loc_string(ctx: &Context, l: LocId) -> String {
    let mut l = l;
    for _ in 0..16 {
        match ctx.location(l) {
            Location::File { file, start, .. } => return format!("{}:{}:{}", ctx.str(file), start.line, start.col),
            Location::Name { child: Some(c), .. } => l = c,
            Location::CallSite { caller, .. } => l = caller,
            Location::Fused { locs, .. } if !locs.is_empty() => l = locs[0],
            _ => break,
        }
    }
    "<unknown location>".to_string()
}

/// Whether symbol `name` is kernel `want`: the same name, or a C++ mangled name
/// (`_Z5saxpyifPKfPf`) whose identifier is `want`.
pub fn kernel_matches(name: &str, want: &str) -> bool {
    name == want || demangled_base(name) == Some(want)
}

/// The identifier of a mangled `_Z<len><name>...` symbol.
pub fn demangled_base(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    rest.get(digits..digits + len)
}

/// The machine type of a scalar IR type (pointers are 64-bit integers).
pub(crate) fn ty_of(ctx: &Context, t: cuprite_ir::TypeId) -> Option<crate::code::Ty> {
    use crate::code::Ty;
    Some(match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Ty::int(*width)?,
        TypeKind::Index | TypeKind::Pointer { .. } => Ty::I64,
        TypeKind::Float(cuprite_ir::FloatKind::BF16) => Ty::BF16,
        TypeKind::Float(k) => match k.width() {
            16 => Ty::F16,
            32 => Ty::F32,
            64 => Ty::F64,
            _ => return None,
        },
        TypeKind::Opaque { dialect, body } if ctx.str(*dialect) == "cuda" && body.starts_with(".ptr<") => Ty::I64,
        _ => return None,
    })
}

/// The functions and globals of a module by name.
pub(crate) struct Symbols {
    pub funcs: rustc_hash::FxHashMap<String, OpId>,
    pub globals: rustc_hash::FxHashMap<String, OpId>,
    pub order: Vec<OpId>,
}

pub(crate) fn symbols(ctx: &Context, module: OpId, func: &str, global: &str) -> Symbols {
    symbols_of(ctx, module, &[func], &[global])
}

/// The functions (ops named in `funcs`) and globals (in `globals`) of a module by name.
pub(crate) fn symbols_of(ctx: &Context, module: OpId, funcs: &[&str], globals: &[&str]) -> Symbols {
    let mut s = Symbols { funcs: Default::default(), globals: Default::default(), order: Vec::new() };
    if let Some(body) = ctx.regions(module).first().and_then(|&r| ctx.entry_block(r)) {
        for op in ctx.block_ops(body) {
            let name = ctx.symbol_name(op).unwrap_or_default().to_string();
            let op_name = ctx.op_name_str(op);
            if funcs.contains(&op_name) {
                s.funcs.insert(name, op);
            } else if globals.contains(&op_name) {
                s.globals.insert(name, op);
                s.order.push(op);
            }
        }
    }
    s
}

/// Finds the kernel named `want` among `funcs` whose `is_kernel` holds.
pub(crate) fn find_kernel(ctx: &Context, syms: &Symbols, want: &str, is_kernel: impl Fn(OpId) -> bool) -> Result<(String, OpId), String> {
    let mut kernels: Vec<(&String, &OpId)> = syms.funcs.iter().filter(|(_, &f)| is_kernel(f)).collect();
    kernels.sort();
    let hits: Vec<_> = kernels.iter().filter(|(n, _)| kernel_matches(n, want)).collect();
    match hits.as_slice() {
        [(n, &f)] => Ok(((*n).clone(), f)),
        [] => {
            let mut names: Vec<String> = kernels.iter().map(|(n, _)| demangled_base(n).unwrap_or(n).to_string()).collect();
            names.sort();
            Err(format!("no kernel named '{want}' (kernels: {})", if names.is_empty() { "none".into() } else { names.join(", ") }))
        }
        many => {
            let _ = ctx;
            let names: Vec<&str> = many.iter().map(|(n, _)| n.as_str()).collect();
            Err(format!("'{want}' names several kernels ({}); give the mangled name", names.join(", ")))
        }
    }
}

/// A call of an external function (one with no body): the device runtime's functions are
/// the machine's own (`vprintf`, `__assertfail`, `cudaGraphSetConditional`); any other
/// cannot run.
pub(crate) fn runtime_call(
    b: &mut crate::code::Builder,
    callee: &str,
    args: &[crate::code::Reg],
    result: Option<crate::code::Reg>,
) -> Result<(), String> {
    use crate::code::Inst;
    match (callee, args) {
        ("vprintf", &[fmt, a]) => {
            let dst = result.unwrap_or_else(|| b.reg());
            b.emit(Inst::Printf { dst, fmt, args: a });
            Ok(())
        }
        ("malloc", &[size]) => {
            let dst = result.unwrap_or_else(|| b.reg());
            b.emit(Inst::Malloc { dst, size });
            Ok(())
        }
        ("free", &[ptr]) => {
            b.emit(Inst::Free { ptr });
            Ok(())
        }
        ("__assertfail", &[msg, file, line, func, _]) => {
            b.emit(Inst::AssertFail { msg, file, line, func });
            Ok(())
        }
        // It sets a graph node's condition for the graph's next step: nothing a launch of
        // one kernel sees.
        ("cudaGraphSetConditional", &[_, _]) => Ok(()),
        _ => Err(format!("call to @{callee}, an external function the simulator does not provide")),
    }
}

/// A texture fetch (`cuda.tex`, `nvvm.tex`, PTX `tex`): `coords` start with the layer for
/// an array; extra ones (PTX's padding to four, a mipmap level) are ignored: one level is
/// modelled.
pub(crate) fn tex_inst(
    geom: &str,
    float_out: bool,
    int_coords: bool,
    dst: &[crate::code::Reg],
    handle: crate::code::Reg,
    coords: &[crate::code::Reg],
) -> Result<crate::code::Inst, String> {
    let g = crate::texture::Geom::parse(geom).ok_or_else(|| format!("unknown texture geometry '{geom}'"))?;
    let n = g.dims() + usize::from(g.layered());
    if dst.len() != 4 || coords.len() < n {
        return Err(format!("a {geom} texture fetch needs 4 results and {n} coordinates"));
    }
    let mut cs = [0; 4];
    cs[..n].copy_from_slice(&coords[..n]);
    Ok(crate::code::Inst::Tex {
        geom: g,
        float_out,
        int_coords,
        dst: [dst[0], dst[1], dst[2], dst[3]],
        handle,
        coords: cs,
        ncoords: n as u8,
    })
}

/// The blocks of `region` that control can reach, in the region's order, for code
/// layout. The order matters: divergent lanes of a warp run lowest address first and
/// reconverge where they meet (see `machine.rs`), which models the hardware's
/// reconvergence only when a loop's blocks come before its exit and an `if`'s branches
/// before their merge, as PTX is written and as cuprite's lowering places them. (Reverse
/// post-order would not do: it may put a loop's exit path before the loop's body.)
pub(crate) fn layout(ctx: &cuprite_ir::Context, region: cuprite_ir::RegionId) -> Vec<cuprite_ir::BlockId> {
    let reachable: rustc_hash::FxHashSet<cuprite_ir::BlockId> = cuprite_ir::dominance::rpo(ctx, region).into_iter().collect();
    ctx.region_blocks(region).iter().copied().filter(|b| reachable.contains(b)).collect()
}
