//! The e-graph's language: the `nvvm` level's integer and address arithmetic as egg terms,
//! and the two directions between terms and ops ([`op_of`] reads an op, [`build`] makes
//! one).
//!
//! A [`Term`] is an operator ([`Op`]), the result type (a [`TypeId`] of the function's
//! `Context`: each e-graph lives inside one function's compile) and its children.
//! Values the language cannot see into (block arguments, loads, calls, floats, values of
//! other blocks) are [`Op::Leaf`]s numbered in the order the builder meets them; constants
//! are [`Op::Const`] with the value sign-extended from the type's width.

use cuprite_dialects::nvvm::{self as nv, ICmpPredicate};
use cuprite_ir::{rewrite::Rewriter, Context, LocId, OpId, TypeId, TypeKind, ValueId};
use egg::{Id, Language};
use smallvec::SmallVec;

/// An operator of the language. `nsw`: the op's `nsw` flag (signed overflow is undefined),
/// which rules that widen need; a term with the flag and one without are different terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Op {
    Add {
        nsw: bool,
    },
    Sub {
        nsw: bool,
    },
    Mul {
        nsw: bool,
    },
    Shl {
        nsw: bool,
    },
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
    Sdiv,
    Udiv,
    Srem,
    Urem,
    /// The high half of the signed product (`mul.hi.s32`).
    MulHi,
    /// The high half of the unsigned product (`mul.hi.u32`).
    UMulHi,
    Smin,
    Smax,
    Umin,
    Umax,
    Sext,
    Zext,
    Trunc,
    /// An integer comparison, by [`ICmpPredicate`] value.
    ICmp(u8),
    /// `select(c, t, f)`.
    Select,
    /// A pointer plus a byte offset.
    PtrAdd,
    /// Float arithmetic (`f32`, `f64`); `contract`: the op may be fused into an `fma`
    /// (C's default `-ffp-contract=fast` on the GPU).
    Fadd {
        contract: bool,
    },
    Fsub {
        contract: bool,
    },
    Fmul {
        contract: bool,
    },
    Fneg,
    /// `fma.rn`: `a * b + c` rounded once.
    Fma,
    /// An integer constant, sign-extended from its type's width.
    Const(i128),
    /// An opaque value: index into the builder's leaf table.
    Leaf(u32),
}

impl Op {
    /// The operator's name in rules and remarks (`add`, `icmp.ult`, ...).
    pub fn name(self) -> String {
        match self {
            Op::ICmp(p) => format!("icmp.{}", pred_name(p)),
            Op::Const(c) => c.to_string(),
            Op::Leaf(i) => format!("v{i}"),
            Op::Add { nsw } | Op::Sub { nsw } | Op::Mul { nsw } | Op::Shl { nsw } => {
                format!("{}{}", self.base_name(), if nsw { ".nsw" } else { "" })
            }
            Op::Fadd { contract } | Op::Fsub { contract } | Op::Fmul { contract } => {
                format!("{}{}", self.base_name(), if contract { ".contract" } else { "" })
            }
            _ => self.base_name().to_string(),
        }
    }

    /// The name without flags or predicate.
    pub fn base_name(self) -> &'static str {
        match self {
            Op::Add { .. } => "add",
            Op::Sub { .. } => "sub",
            Op::Mul { .. } => "mul",
            Op::Shl { .. } => "shl",
            Op::Lshr => "lshr",
            Op::Ashr => "ashr",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::Sdiv => "sdiv",
            Op::Udiv => "udiv",
            Op::Srem => "srem",
            Op::Urem => "urem",
            Op::MulHi => "mulhi",
            Op::UMulHi => "umulhi",
            Op::Smin => "smin",
            Op::Smax => "smax",
            Op::Umin => "umin",
            Op::Umax => "umax",
            Op::Sext => "sext",
            Op::Zext => "zext",
            Op::Trunc => "trunc",
            Op::ICmp(_) => "icmp",
            Op::Select => "select",
            Op::PtrAdd => "ptradd",
            Op::Fadd { .. } => "fadd",
            Op::Fsub { .. } => "fsub",
            Op::Fmul { .. } => "fmul",
            Op::Fneg => "fneg",
            Op::Fma => "fma",
            Op::Const(_) => "const",
            Op::Leaf(_) => "leaf",
        }
    }

    /// The operator of rule syntax `name` (without the width), if it is one; constants and
    /// leaves are not named.
    pub fn parse(name: &str) -> Option<Op> {
        let (base, flag) = match name.split_once('.') {
            Some((b, f)) => (b, Some(f)),
            None => (name, None),
        };
        let nsw = match flag {
            None => false,
            Some("nsw") if matches!(base, "add" | "sub" | "mul" | "shl") => true,
            Some("contract") if matches!(base, "fadd" | "fsub" | "fmul") => true,
            Some(p) if base == "icmp" => return pred_value(p).map(Op::ICmp),
            Some(_) => return None,
        };
        Some(match base {
            "add" => Op::Add { nsw },
            "sub" => Op::Sub { nsw },
            "mul" => Op::Mul { nsw },
            "shl" => Op::Shl { nsw },
            "lshr" => Op::Lshr,
            "ashr" => Op::Ashr,
            "and" => Op::And,
            "or" => Op::Or,
            "xor" => Op::Xor,
            "sdiv" => Op::Sdiv,
            "udiv" => Op::Udiv,
            "srem" => Op::Srem,
            "urem" => Op::Urem,
            "mulhi" => Op::MulHi,
            "umulhi" => Op::UMulHi,
            "smin" => Op::Smin,
            "smax" => Op::Smax,
            "umin" => Op::Umin,
            "umax" => Op::Umax,
            "sext" => Op::Sext,
            "zext" => Op::Zext,
            "trunc" => Op::Trunc,
            "select" => Op::Select,
            "ptradd" => Op::PtrAdd,
            "fadd" => Op::Fadd { contract: nsw },
            "fsub" => Op::Fsub { contract: nsw },
            "fmul" => Op::Fmul { contract: nsw },
            "fneg" => Op::Fneg,
            "fma" => Op::Fma,
            _ => return None,
        })
    }

    /// Whether the operator is float arithmetic.
    pub fn is_float(self) -> bool {
        matches!(self, Op::Fadd { .. } | Op::Fsub { .. } | Op::Fmul { .. } | Op::Fneg | Op::Fma)
    }

    /// Number of children.
    pub fn arity(self) -> usize {
        match self {
            Op::Const(_) | Op::Leaf(_) => 0,
            Op::Sext | Op::Zext | Op::Trunc | Op::Fneg => 1,
            Op::Select | Op::Fma => 3,
            _ => 2,
        }
    }

    /// Whether `self` (of a rule's left side) matches `other` (of a term): the same
    /// operator, where a rule's op without `nsw` matches a term's with it.
    pub fn matches(self, other: Op) -> bool {
        match (self, other) {
            (Op::Add { nsw: a }, Op::Add { nsw: b })
            | (Op::Sub { nsw: a }, Op::Sub { nsw: b })
            | (Op::Mul { nsw: a }, Op::Mul { nsw: b })
            | (Op::Shl { nsw: a }, Op::Shl { nsw: b })
            | (Op::Fadd { contract: a }, Op::Fadd { contract: b })
            | (Op::Fsub { contract: a }, Op::Fsub { contract: b })
            | (Op::Fmul { contract: a }, Op::Fmul { contract: b }) => !a || b,
            _ => self == other,
        }
    }
}

/// The keyword of predicate value `p`.
pub fn pred_name(p: u8) -> &'static str {
    ICmpPredicate::CASES.iter().find(|c| c.1 == p as i64).map_or("?", |c| c.0)
}

/// The value of predicate keyword `s`.
pub fn pred_value(s: &str) -> Option<u8> {
    ICmpPredicate::CASES.iter().find(|c| c.0 == s).map(|c| c.1 as u8)
}

/// A node of the e-graph: operator, result type, children.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Term {
    pub op: Op,
    pub ty: TypeId,
    pub args: SmallVec<[Id; 3]>,
}

impl Op {
    /// The operator without its flags and values: what a searcher indexes classes by (a
    /// rule's `add` matches `add.nsw` too, a comparison's predicate is kept).
    pub fn kind(self) -> Op {
        match self {
            Op::Add { .. } => Op::Add { nsw: false },
            Op::Sub { .. } => Op::Sub { nsw: false },
            Op::Mul { .. } => Op::Mul { nsw: false },
            Op::Shl { .. } => Op::Shl { nsw: false },
            Op::Fadd { .. } => Op::Fadd { contract: false },
            Op::Fsub { .. } => Op::Fsub { contract: false },
            Op::Fmul { .. } => Op::Fmul { contract: false },
            Op::Const(_) => Op::Const(0),
            Op::Leaf(_) => Op::Leaf(0),
            op => op,
        }
    }
}

impl Language for Term {
    /// The operator's kind ([`Op::kind`]): egg keeps the classes holding each kind, which
    /// the searchers visit instead of every class.
    type Discriminant = Op;

    fn discriminant(&self) -> Self::Discriminant {
        self.op.kind()
    }
    fn matches(&self, other: &Self) -> bool {
        self.op == other.op && self.ty == other.ty && self.args.len() == other.args.len()
    }
    fn children(&self) -> &[Id] {
        &self.args
    }
    fn children_mut(&mut self) -> &mut [Id] {
        &mut self.args
    }
}

/// The width of integer type `t` (`None` for pointers and everything else).
pub fn int_width(ctx: &Context, t: TypeId) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } if (1..=64).contains(width) => Some(*width),
        _ => None,
    }
}

/// Whether `t` is a pointer type.
pub fn is_ptr(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Pointer { .. })
}

/// The operator of `op` and its operands, when `op` is in the language (integer results of
/// at most 64 bits, or a `ptradd`).
pub fn op_of(ctx: &Context, op: OpId) -> Option<Op> {
    if ctx.num_results(op) != 1 {
        return None;
    }
    let ty = ctx.value_type(ctx.result(op, 0));
    let name = ctx.op_name_str(op);
    if name == nv::PtrAddOp::NAME {
        return Some(Op::PtrAdd);
    }
    if is_float(ctx, ty) {
        return float_op_of(ctx, op, ty);
    }
    int_width(ctx, ty)?;
    let nsw = |n: bool| n;
    Some(match name {
        nv::ConstantOp::NAME => Op::Const(nv::int_constant(ctx, op)?),
        nv::AddOp::NAME => Op::Add { nsw: nsw(nv::AddOp(op).nsw(ctx)) },
        nv::SubOp::NAME => Op::Sub { nsw: nsw(nv::SubOp(op).nsw(ctx)) },
        nv::MulOp::NAME => Op::Mul { nsw: nsw(nv::MulOp(op).nsw(ctx)) },
        nv::ShlOp::NAME => Op::Shl { nsw: nsw(nv::ShlOp(op).nsw(ctx)) },
        nv::LshrOp::NAME => Op::Lshr,
        nv::AshrOp::NAME => Op::Ashr,
        nv::AndOp::NAME => Op::And,
        nv::OrOp::NAME => Op::Or,
        nv::XorOp::NAME => Op::Xor,
        nv::SdivOp::NAME => Op::Sdiv,
        nv::UdivOp::NAME => Op::Udiv,
        nv::SremOp::NAME => Op::Srem,
        nv::UremOp::NAME => Op::Urem,
        nv::SextOp::NAME => Op::Sext,
        nv::ZextOp::NAME => Op::Zext,
        nv::TruncOp::NAME => Op::Trunc,
        nv::SelectOp::NAME => Op::Select,
        nv::ICmpOp::NAME => Op::ICmp(nv::ICmpOp(op).predicate(ctx)? as u8),
        nv::IntrOp::NAME => match nv::IntrOp(op).name(ctx)? {
            "mulhi" => Op::MulHi,
            "umulhi" => Op::UMulHi,
            "smin" => Op::Smin,
            "smax" => Op::Smax,
            "umin" => Op::Umin,
            "umax" => Op::Umax,
            _ => return None,
        },
        _ => return None,
    })
    .filter(|o| o.arity() == ctx.num_operands(op))
    .filter(|o| {
        // Operands must be integers or, for a select's arms, of the result's type.
        let operand_types: Vec<TypeId> = ctx.operand_vec(op).iter().map(|&v| ctx.value_type(v)).collect();
        match o {
            Op::Select => operand_types[1] == ty && operand_types[2] == ty,
            _ => operand_types.iter().all(|&t| int_width(ctx, t).is_some()),
        }
    })
}

/// Whether `t` is `f32` or `f64` (the float types whose arithmetic the language holds).
pub fn is_float(ctx: &Context, t: TypeId) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(cuprite_ir::FloatKind::F32 | cuprite_ir::FloatKind::F64))
}

/// The operator of a float op: `fadd`/`fsub`/`fmul` rounded to nearest (no `approx` or
/// `full`), `fneg`, and `fma.rn`, all operands of the result's type.
fn float_op_of(ctx: &Context, op: OpId, ty: TypeId) -> Option<Op> {
    let flags = nv::float_flags(ctx, op);
    if flags.approx || flags.full {
        return None;
    }
    let contract = flags.contract;
    let o = match ctx.op_name_str(op) {
        nv::FaddOp::NAME => Op::Fadd { contract },
        nv::FsubOp::NAME => Op::Fsub { contract },
        nv::FmulOp::NAME => Op::Fmul { contract },
        nv::FNegOp::NAME => Op::Fneg,
        nv::IntrOp::NAME if nv::IntrOp(op).name(ctx)? == "fma.rn" => Op::Fma,
        _ => return None,
    };
    (o.arity() == ctx.num_operands(op) && ctx.operand_vec(op).iter().all(|&v| ctx.value_type(v) == ty)).then_some(o)
}

/// Creates the op of `op` with result type `ty` on `args` at the rewriter's insertion
/// point, returning its result.
pub fn build(rw: &mut Rewriter<'_>, op: Op, ty: TypeId, args: &[ValueId], loc: LocId) -> ValueId {
    let ctx = &mut *rw.ctx;
    let unit = |ctx: &mut Context, f: bool| f.then(|| ctx.unit_attr());
    let st = match op {
        Op::Add { nsw } | Op::Sub { nsw } | Op::Mul { nsw } | Op::Shl { nsw } => {
            type Build = fn(&mut Context, LocId, TypeId, ValueId, ValueId, Option<cuprite_ir::AttrId>) -> cuprite_ir::OperationState;
            let make: Build = match op {
                Op::Add { .. } => nv::AddOp::build,
                Op::Sub { .. } => nv::SubOp::build,
                Op::Mul { .. } => nv::MulOp::build,
                _ => nv::ShlOp::build,
            };
            let n = unit(ctx, nsw);
            make(ctx, loc, ty, args[0], args[1], n)
        }
        Op::Lshr => nv::LshrOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Ashr => nv::AshrOp::build(ctx, loc, ty, args[0], args[1]),
        Op::And => nv::AndOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Or => nv::OrOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Xor => nv::XorOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Sdiv => nv::SdivOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Udiv => nv::UdivOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Srem => nv::SremOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Urem => nv::UremOp::build(ctx, loc, ty, args[0], args[1]),
        Op::MulHi | Op::UMulHi | Op::Smin | Op::Smax | Op::Umin | Op::Umax => {
            let name = ctx.str_attr(op.base_name());
            nv::IntrOp::build(ctx, loc, ty, args, name)
        }
        Op::Sext => nv::SextOp::build(ctx, loc, ty, args[0]),
        Op::Zext => nv::ZextOp::build(ctx, loc, ty, args[0]),
        Op::Trunc => nv::TruncOp::build(ctx, loc, ty, args[0]),
        Op::ICmp(p) => {
            let i32t = ctx.i32();
            let a = ctx.int_attr(p as i128, i32t);
            nv::ICmpOp::build(ctx, loc, ty, args[0], args[1], a)
        }
        Op::Select => nv::SelectOp::build(ctx, loc, ty, args[0], args[1], args[2]),
        Op::PtrAdd => nv::PtrAddOp::build(ctx, loc, ty, args[0], args[1]),
        Op::Fadd { contract } | Op::Fsub { contract } | Op::Fmul { contract } => {
            type Build = fn(
                &mut Context,
                LocId,
                TypeId,
                ValueId,
                ValueId,
                Option<cuprite_ir::AttrId>,
                Option<cuprite_ir::AttrId>,
                Option<cuprite_ir::AttrId>,
            ) -> cuprite_ir::OperationState;
            let make: Build = match op {
                Op::Fadd { .. } => nv::FaddOp::build,
                Op::Fsub { .. } => nv::FsubOp::build,
                _ => nv::FmulOp::build,
            };
            let c = unit(ctx, contract);
            make(ctx, loc, ty, args[0], args[1], c, None, None)
        }
        Op::Fneg => nv::FNegOp::build(ctx, loc, ty, args[0]),
        Op::Fma => {
            let name = ctx.str_attr("fma.rn");
            nv::IntrOp::build(ctx, loc, ty, args, name)
        }
        Op::Const(c) => {
            let a = ctx.int_attr(c, ty);
            nv::ConstantOp::build(ctx, loc, ty, a)
        }
        Op::Leaf(_) => unreachable!("leaves are values, never built"),
    };
    let new = rw.create(st);
    rw.ctx.result(new, 0)
}

/// `v` truncated to `width` bits and sign-extended back (the canonical form of constants).
pub fn sext_bits(v: i128, width: u32) -> i128 {
    if width >= 128 {
        return v;
    }
    let s = 128 - width;
    (v << s) >> s
}

/// `v` truncated to `width` bits, as an unsigned number.
pub fn zext_bits(v: i128, width: u32) -> i128 {
    if width >= 127 {
        return v;
    }
    v & ((1i128 << width) - 1)
}
