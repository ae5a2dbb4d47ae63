//! The generator's program model. It is small on purpose: just what the printer needs to
//! write UB-free CUDA, and what the reducer needs to take a program apart.
//!
//! Undefined behaviour is ruled out by the model, not by the generator's care:
//! - integer `+ - * << neg ~` compute in the unsigned type of the operands' width and convert
//!   back (modular in CUDA), so nothing overflows; shift counts are masked to the width;
//! - integer `/` and `%` go through helpers that return the dividend for a zero divisor and
//!   for `MIN / -1`; float division goes through a helper too (C++ leaves even float
//!   division by zero undefined, and NVRTC's front end folds a constant zero divisor with
//!   that; in a function it is IEEE's division);
//! - a float converted to an integer is range-checked first (NaN and out-of-range give 0);
//! - every buffer and array index is masked to the buffer's length (a power of two);
//! - warp collectives, shared-memory exchanges and barriers are statements that the generator
//!   places only where the whole block is converged (see [`Stmt::Warp`]);
//! - atomics are commutative (`add or and xor min max`, one operation per `acc` word) and
//!   their results are not read, so the outputs do not depend on the order threads run in.

/// A scalar type of the generated C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Ty {
    pub const INTS: [Ty; 8] = [Ty::I8, Ty::U8, Ty::I16, Ty::U16, Ty::I32, Ty::U32, Ty::I64, Ty::U64];
    pub const ALL: [Ty; 11] = [Ty::Bool, Ty::I8, Ty::U8, Ty::I16, Ty::U16, Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::F64];

    pub fn c(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::I8 => "signed char",
            Ty::U8 => "unsigned char",
            Ty::I16 => "short",
            Ty::U16 => "unsigned short",
            Ty::I32 => "int",
            Ty::U32 => "unsigned",
            Ty::I64 => "long long",
            Ty::U64 => "unsigned long long",
            Ty::F32 => "float",
            Ty::F64 => "double",
        }
    }
    /// A short name for helper functions (`div_i32`).
    pub fn tag(self) -> &'static str {
        match self {
            Ty::Bool => "b",
            Ty::I8 => "i8",
            Ty::U8 => "u8",
            Ty::I16 => "i16",
            Ty::U16 => "u16",
            Ty::I32 => "i32",
            Ty::U32 => "u32",
            Ty::I64 => "i64",
            Ty::U64 => "u64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Bool
    }
    pub fn signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::I8 | Ty::U8 => 8,
            Ty::I16 | Ty::U16 => 16,
            Ty::I32 | Ty::U32 | Ty::F32 => 32,
            Ty::I64 | Ty::U64 | Ty::F64 => 64,
        }
    }
    /// The unsigned type integer arithmetic of this type is done in (after C's promotions).
    pub fn arith_unsigned(self) -> &'static str {
        if self.bits() > 32 {
            "unsigned long long"
        } else {
            "unsigned"
        }
    }
    /// The width shift counts are masked to (the promoted width).
    pub fn shift_width(self) -> u32 {
        if self.bits() > 32 {
            64
        } else {
            32
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    pub fn c(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    /// `~` on integers, `!` on bool.
    Not,
}

/// Math library and integer intrinsic calls, each with a fixed signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    /// Float (the operand type decides `sqrtf` or `sqrt`).
    Sqrt,
    Fabs,
    Fmin,
    Fmax,
    Floor,
    Ceil,
    Trunc,
    Rint,
    Copysign,
    Fma,
    Exp,
    Log,
    Sin,
    Cos,
    Tanh,
    /// `unsigned -> int`.
    Popc,
    /// `int -> int`.
    Clz,
    Ffs,
    /// `unsigned -> unsigned`.
    Brev,
    /// `(unsigned, unsigned, unsigned) -> unsigned`.
    BytePerm,
    FunnelShiftL,
    /// `(unsigned, unsigned) -> unsigned`.
    Umulhi,
    /// `(int, int) -> int`.
    Mulhi,
    Mul24,
    /// `__dp4a` on `int` or on `unsigned` (the result type picks the overload).
    Dp4a,
}

impl Intrinsic {
    /// Result type and operand types (`t` is the float type for the float functions).
    pub fn signature(self, t: Ty) -> (Ty, Vec<Ty>) {
        use Intrinsic::*;
        match self {
            Sqrt | Fabs | Floor | Ceil | Trunc | Rint | Exp | Log | Sin | Cos | Tanh => (t, vec![t]),
            Fmin | Fmax | Copysign => (t, vec![t, t]),
            Fma => (t, vec![t, t, t]),
            Popc => (Ty::I32, vec![Ty::U32]),
            Clz | Ffs => (Ty::I32, vec![Ty::I32]),
            Brev => (Ty::U32, vec![Ty::U32]),
            BytePerm | FunnelShiftL => (Ty::U32, vec![Ty::U32, Ty::U32, Ty::U32]),
            Umulhi => (Ty::U32, vec![Ty::U32, Ty::U32]),
            Mulhi | Mul24 => (Ty::I32, vec![Ty::I32, Ty::I32]),
            Dp4a => (t, vec![t, t, t]),
        }
    }
    pub fn is_float(self) -> bool {
        use Intrinsic::*;
        matches!(self, Sqrt | Fabs | Fmin | Fmax | Floor | Ceil | Trunc | Rint | Copysign | Fma | Exp | Log | Sin | Cos | Tanh)
    }
    /// The C name (`t` picks the float or double function).
    pub fn c(self, t: Ty) -> &'static str {
        use Intrinsic::*;
        let f = t == Ty::F32;
        match self {
            Sqrt => {
                if f {
                    "sqrtf"
                } else {
                    "sqrt"
                }
            }
            Fabs => {
                if f {
                    "fabsf"
                } else {
                    "fabs"
                }
            }
            Fmin => {
                if f {
                    "fminf"
                } else {
                    "fmin"
                }
            }
            Fmax => {
                if f {
                    "fmaxf"
                } else {
                    "fmax"
                }
            }
            Floor => {
                if f {
                    "floorf"
                } else {
                    "floor"
                }
            }
            Ceil => {
                if f {
                    "ceilf"
                } else {
                    "ceil"
                }
            }
            Trunc => {
                if f {
                    "truncf"
                } else {
                    "trunc"
                }
            }
            Rint => {
                if f {
                    "rintf"
                } else {
                    "rint"
                }
            }
            Copysign => {
                if f {
                    "copysignf"
                } else {
                    "copysign"
                }
            }
            Fma => {
                if f {
                    "fmaf"
                } else {
                    "fma"
                }
            }
            Exp => {
                if f {
                    "expf"
                } else {
                    "exp"
                }
            }
            Log => {
                if f {
                    "logf"
                } else {
                    "log"
                }
            }
            Sin => {
                if f {
                    "sinf"
                } else {
                    "sin"
                }
            }
            Cos => {
                if f {
                    "cosf"
                } else {
                    "cos"
                }
            }
            Tanh => {
                if f {
                    "tanhf"
                } else {
                    "tanh"
                }
            }
            Popc => "__popc",
            Clz => "__clz",
            Ffs => "__ffs",
            Brev => "__brev",
            BytePerm => "__byte_perm",
            FunnelShiftL => "__funnelshift_l",
            Umulhi => "__umulhi",
            Mulhi => "__mulhi",
            Mul24 => "__mul24",
            Dp4a => "__dp4a",
        }
    }
}

/// Values every thread can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `tid` (the global thread index, `unsigned`).
    Tid,
    /// `lane` (`threadIdx.x & 31`, `unsigned`).
    Lane,
    ThreadIdx,
    BlockIdx,
    BlockDim,
    /// The kernel's `int n` and `float fs` parameters.
    ParamN,
    ParamF,
}

impl Special {
    pub fn ty(self) -> Ty {
        match self {
            Special::ParamN => Ty::I32,
            Special::ParamF => Ty::F32,
            _ => Ty::U32,
        }
    }
}

/// The kernel's input buffers (each [`BUF_LEN`] elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buf {
    /// `const int *in_i`: any 32-bit values.
    Wide,
    /// `const int *in_s`: small values, -8..8.
    Small,
    /// `const float *in_f`, -100..100.
    F32,
    /// `const double *in_d`, -100..100.
    F64,
    /// The program's `__constant__ int <prefix>c[16]`.
    Const,
}

impl Buf {
    pub fn ty(self) -> Ty {
        match self {
            Buf::Wide | Buf::Small | Buf::Const => Ty::I32,
            Buf::F32 => Ty::F32,
            Buf::F64 => Ty::F64,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Buf::Wide => "in_i",
            Buf::Small => "in_s",
            Buf::F32 => "in_f",
            Buf::F64 => "in_d",
            Buf::Const => "c",
        }
    }
}

/// Elements in each input buffer.
pub const BUF_LEN: u32 = 256;
/// Float and double outputs per thread.
pub const OUT_F: usize = 4;
/// `acc` words (the atomics' targets).
pub const ACC_LEN: u32 = 8;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Var(String, Ty),
    Int(Ty, i128),
    Float(Ty, f64),
    Bin(BinOp, Ty, Box<Expr>, Box<Expr>),
    Un(UnOp, Ty, Box<Expr>),
    /// Conversion to the type (float to integer range-checked).
    Cast(Ty, Box<Expr>),
    /// Operands of one type; the result is bool.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `&&` (true) or `||` (false) on bools.
    Logic(bool, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A device function of the program, by index.
    Call(usize, Vec<Expr>),
    Intrinsic(Intrinsic, Ty, Vec<Expr>),
    /// An input buffer element; the index is any integer, masked.
    Load(Buf, Box<Expr>),
    /// A local array's element (array name, element type, length), index masked.
    Elem(String, Ty, u32, Box<Expr>),
    /// A struct variable's field: variable, field index, field type.
    Field(String, usize, Ty),
    Special(Special),
}

impl Expr {
    pub fn ty(&self, p: &Program) -> Ty {
        let rets: Vec<Ty> = p.funcs.iter().map(|f| f.ret).collect();
        self.ty_with(&rets)
    }
    /// The type, given the functions' return types.
    pub fn ty_with(&self, rets: &[Ty]) -> Ty {
        match self {
            Expr::Var(_, t) | Expr::Int(t, _) | Expr::Float(t, _) | Expr::Bin(_, t, ..) | Expr::Un(_, t, _) | Expr::Cast(t, _) => *t,
            Expr::Cmp(..) | Expr::Logic(..) => Ty::Bool,
            Expr::Select(_, a, _) => a.ty_with(rets),
            Expr::Call(f, _) => rets[*f],
            Expr::Intrinsic(i, t, _) => i.signature(*t).0,
            Expr::Load(b, _) => b.ty(),
            Expr::Elem(_, t, ..) | Expr::Field(_, _, t) => *t,
            Expr::Special(s) => s.ty(),
        }
    }
    /// The direct subexpressions.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Expr::Bin(_, _, a, b) | Expr::Cmp(_, a, b) | Expr::Logic(_, a, b) => vec![a, b],
            Expr::Un(_, _, a) | Expr::Cast(_, a) | Expr::Load(_, a) | Expr::Elem(_, _, _, a) => vec![a],
            Expr::Select(c, a, b) => vec![c, a, b],
            Expr::Call(_, xs) | Expr::Intrinsic(_, _, xs) => xs.iter_mut().collect(),
            _ => vec![],
        }
    }
}

/// An assignable place.
#[derive(Clone, Debug, PartialEq)]
pub enum LVal {
    Var(String, Ty),
    Elem(String, Ty, u32, Expr),
    Field(String, usize, Ty),
}

impl LVal {
    pub fn ty(&self) -> Ty {
        match self {
            LVal::Var(_, t) | LVal::Elem(_, t, ..) | LVal::Field(_, _, t) => *t,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Or,
    And,
    Xor,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `__shfl_sync(full, v, lane_expr)` (source lane masked to 0..31).
    Shfl,
    /// `__shfl_xor_sync(full, v, mask)`.
    ShflXor,
    /// `__shfl_down_sync(full, v, delta)`.
    ShflDown,
    /// `__shfl_up_sync(full, v, delta)`.
    ShflUp,
    /// `__ballot_sync(full, cond)`: the value is a bool, the result `unsigned`.
    Ballot,
    /// `__any_sync` / `__all_sync`: bool to bool (as int).
    Any,
    All,
    /// `__reduce_<op>_sync(full, v)` on `int`/`unsigned` (sm_80): add, min, max, and, or,
    /// xor by [`AtomicOp`] (`and`/`or`/`xor` on `unsigned` only).
    Reduce(AtomicOp),
    /// `__match_any_sync(full, v)`: the value any type, the result `unsigned`.
    MatchAny,
    /// `__match_all_sync(full, v, &mp)` (`mp` hashed after).
    MatchAll,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Decl(String, Ty, Expr),
    /// A local array with its initial elements.
    Array(String, Ty, Vec<Expr>),
    /// A local struct variable: name, struct index, field initializers.
    Struct(String, usize, Vec<Expr>),
    Assign(LVal, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `for (T v = lo; v < hi; v += step)`: type (an integer type or `size_t` as U64 with
    /// `size_t` spelled), bounds, body. `hi` is a literal, or with `masked` any integer
    /// expression, masked to 0..7.
    For {
        var: String,
        ty: Ty,
        size_t: bool,
        lo: i64,
        hi: Expr,
        masked: bool,
        step: i64,
        body: Vec<Stmt>,
    },
    /// `int v = 0; while (v < n) { body; v++; }` (or `do ... while` when `do_while`).
    While {
        var: String,
        bound: u32,
        do_while: bool,
        body: Vec<Stmt>,
    },
    /// `switch ((unsigned)e & 3u)`: the cases 0..3 (each body, and whether it breaks), default.
    Switch(Expr, Vec<(Vec<Stmt>, bool)>, Vec<Stmt>),
    /// Only inside loops, always under an `if`.
    Break,
    Continue,
    /// Folds the value into the thread's hash `h` (kernel only).
    Observe(Expr),
    /// `atomicOp(&acc[slot], (unsigned)e)` (kernel only).
    Atomic(AtomicOp, u32, Expr),
    /// The block writes `e` to shared memory at its thread index, synchronizes, reads the
    /// element `offset` threads on into the variable, and synchronizes again. Converged only.
    Shared {
        dst: String,
        ty: Ty,
        value: Expr,
        offset: u32,
    },
    /// `dst = warp-op(value, arg)`. Converged only.
    Warp {
        dst: String,
        ty: Ty,
        op: WarpOp,
        value: Expr,
        arg: u32,
    },
    /// Device functions only: the last statement.
    Return(Expr),
    /// The contraction mode's well-conditioned channel (the kernel's top level only):
    /// `wf = fminf(value, 1e30f)` for `F32`, `wd = fmin(value, 1e300)` for `F64`, run
    /// `trips` times (`for (int wk = 0; wk < trips; ++wk)` when more than once). `value`
    /// is made of non-negative operands (literals, `fabs(input) + 0.5`, small integers
    /// from thread indices and `wk`, `wf`, `wd`) and `+ * fma sqrt fmin fmax` only; nothing
    /// else reads `wf` or `wd`, and nothing that contraction may change (the program's
    /// other floats, and so its branches) reaches it. So no cancellation and no branch:
    /// contracting `a * b + c` moves the result by a bounded relative error (see
    /// [`Program::ulp_bound`]). The reducer deletes these statements but never edits them.
    Accum {
        ty: Ty,
        value: Expr,
        trips: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub fields: Vec<Ty>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub ret: Ty,
    /// Parameters: name and type.
    pub params: Vec<(String, Ty)>,
    /// `__noinline__`: a real call (the ABI of `.param` arguments).
    pub noinline: bool,
    pub body: Vec<Stmt>,
}

/// A whole random program: one kernel, its helpers, and its launch.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The seed it was generated from (names and files carry it).
    pub seed: u64,
    /// Prefix of every global name (`p<seed>_`), so that many programs share one file.
    pub prefix: String,
    pub structs: Vec<StructDef>,
    /// `__constant__ int <prefix>c[16]`'s values (empty: none).
    pub constants: Vec<i32>,
    pub funcs: Vec<Func>,
    pub body: Vec<Stmt>,
    /// Threads per block (a multiple of 32) and blocks.
    pub block: u32,
    pub grid: u32,
    /// The contraction mode (`None` otherwise): how many ulps `wf` and `wd` (the outputs
    /// `out_wf` and `out_wd`) may move when `a * b + c` is contracted, from the generator's
    /// error analysis of the [`Stmt::Accum`] statements. For non-negative operands, each
    /// rounding adds at most `u` (half an ulp, relative) to a value's relative error: an
    /// add or `fmin`/`fmax` keeps the larger of its operands' errors, a multiply adds them,
    /// a square root halves them. A statement `w = w * P + Q` adds at most `E(P) + E(Q) + 2`
    /// to `w`'s error, counted once per execution (the enclosing loops' trip bounds). Two
    /// results within `E` units each of the exact value are within `2E + 2` ulps of each
    /// other (the printed bound).
    pub ulp_bound: Option<(u64, u64)>,
}

impl Program {
    pub fn kernel_name(&self) -> String {
        format!("{}kernel", self.prefix)
    }
    pub fn threads(&self) -> u32 {
        self.block * self.grid
    }
}
