//! The simulator's code: one flat, register-based instruction list per kernel.
//!
//! Each level's semantics (`sem::cuda`, `sem::nvvm`, `sem::ptx`) translates a kernel and
//! every function it calls into a [`Program`]: calls are inlined (each call site gets its
//! own registers and frame), structured control flow and block arguments become jumps and
//! copies, and blocks are laid out in reverse post-order, so that a join point comes after
//! every path that reaches it without a back edge. The machine relies on that layout for
//! reconvergence (it runs the lanes with the smallest program counter first).
//!
//! A register holds 64 bits; an instruction's [`Ty`] says how many of them it reads and
//! writes (results are stored zero-extended), and its opcode says how to interpret them
//! (signed or unsigned, which rounding).

/// A register: a slot in each lane's register file.
pub type Reg = u32;

/// The width and kind of a value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    /// bfloat16: `f32`'s exponent with an 8-bit significand.
    BF16,
    F32,
    F64,
}

impl Ty {
    pub fn bits(self) -> u32 {
        match self {
            Ty::I1 => 1,
            Ty::I8 => 8,
            Ty::I16 | Ty::F16 | Ty::BF16 => 16,
            Ty::I32 | Ty::F32 => 32,
            Ty::I64 | Ty::F64 => 64,
        }
    }
    /// Bytes in memory (`I1` is a byte).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }
    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }
    /// The 16-bit float formats (`f16`, `bf16`).
    pub fn is_half(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64)
    }
    /// The integer type of `bits` bits.
    pub fn int(bits: u32) -> Option<Ty> {
        Some(match bits {
            1 => Ty::I1,
            8 => Ty::I8,
            16 => Ty::I16,
            32 => Ty::I32,
            64 => Ty::I64,
            _ => return None,
        })
    }
    /// Sign-extends `v` (of this width) to 64 bits.
    pub fn sext(self, v: u64) -> i64 {
        let b = self.bits();
        if b == 64 {
            v as i64
        } else {
            ((v << (64 - b)) as i64) >> (64 - b)
        }
    }
}

/// Rounding of a float result (PTX `.rn`, `.rz`, `.rm`, `.rp`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rnd {
    Rn,
    Rz,
    Rm,
    Rp,
}

/// How a float instruction rounds and flushes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FMode {
    pub rnd: Rnd,
    /// `.ftz`: subnormal inputs and results are flushed to sign-preserving zero.
    pub ftz: bool,
    /// `.sat`: the result is clamped to [0, 1] (NaN gives 0).
    pub sat: bool,
}

impl FMode {
    pub const RN: FMode = FMode { rnd: Rnd::Rn, ftz: false, sat: false };
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    MulHiS,
    MulHiU,
    Mul24S,
    Mul24U,
    /// `mul24.hi`: bits 16..48 of the 48-bit product of the low 24 bits.
    Mul24HiS,
    Mul24HiU,
    SDiv,
    UDiv,
    SRem,
    URem,
    /// PTX's `div` and `rem`: a zero divisor is no fault (C's undefined behaviour, which the
    /// other levels report, is PTX's "unspecified value", so a compiler may compute it
    /// speculatively and discard it). The value is the hardware's: all ones for the
    /// quotient, the dividend for the remainder.
    PtxDiv {
        signed: bool,
    },
    PtxRem {
        signed: bool,
    },
    And,
    Or,
    Xor,
    /// Shifts: the amount is an unsigned 32-bit operand, clamped to the width (PTX).
    Shl,
    LShr,
    AShr,
    SMin,
    SMax,
    UMin,
    UMax,
    FAdd(FMode),
    FSub(FMode),
    FMul(FMode),
    FDiv(FMode),
    /// `div.approx.f32`: `a * (1/b)` with the reciprocal approximated.
    FDivApprox(FMode),
    /// `div.full.f32`: approximate division with 2 ulp, as `__fdividef`.
    FDivFull(FMode),
    /// C `fmod`.
    FRem,
    FMin(bool),
    FMax(bool),
    Copysign,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
    Abs,
    Popc,
    Clz,
    Brev,
    /// `bfind`: the position of the most significant non-sign bit (`signed`), or with
    /// `.shiftamt` the shift that brings it to the top; all ones if there is none.
    Bfind {
        signed: bool,
        shiftamt: bool,
    },
    FNeg(bool),
    FAbs(bool),
    Sqrt(FMode),
    SqrtApprox(FMode),
    Rsqrt(FMode),
    Rcp(FMode),
    RcpApprox(FMode),
    Ex2(FMode),
    Lg2(FMode),
    Sin(FMode),
    Cos(FMode),
    Tanh(FMode),
    /// Round to an integral value in the same format: `rzi`, `rmi`, `rpi`, `rni`.
    RoundInt(Rnd, bool),
    Saturate(bool),
    /// `testp.*`
    IsNan,
    IsInf,
    IsFinite,
    IsNormal,
    IsSubnormal,
}

/// Comparisons. Float ones are ordered (`false` with a NaN) unless marked `U` (true).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    SLt,
    SLe,
    SGt,
    SGe,
    ULt,
    ULe,
    UGt,
    UGe,
    FOeq,
    FOne,
    FOlt,
    FOle,
    FOgt,
    FOge,
    FUeq,
    FUne,
    FUlt,
    FUle,
    FUgt,
    FUge,
    FOrd,
    FUno,
}

/// A conversion's kind and rounding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cvt {
    pub from: Ty,
    pub from_signed: bool,
    pub to: Ty,
    pub to_signed: bool,
    /// Float results: the rounding; float to integer: the integer rounding (`rzi` by
    /// default), saturating as PTX does (NaN gives 0).
    pub rnd: Rnd,
    pub ftz: bool,
    /// Integer to integer with `.sat`: clamps to the destination's range.
    pub sat: bool,
}

/// Memory state spaces. `Generic` addresses carry their space in their high bits
/// (see `memory`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Generic,
    Global,
    Shared,
    Const,
    Local,
    Param,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Generic => "generic",
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Const => "constant",
            Space::Local => "local",
            Space::Param => "param",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    FAdd,
    /// `atom.add.noftz.f16x2`: each half of the 32-bit word added on its own.
    FAdd2,
    Exch,
    SMin,
    SMax,
    UMin,
    UMax,
    /// `atomicInc`: `old >= v ? 0 : old + 1`.
    Inc,
    /// `atomicDec`: `old == 0 || old > v ? v : old - 1`.
    Dec,
    And,
    Or,
    Xor,
    Cas,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    WarpSize,
    LaneId,
    WarpId,
    Clock,
    Clock64,
    LaneMaskLt,
    LaneMaskLe,
    LaneMaskEq,
    LaneMaskGe,
    LaneMaskGt,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

/// Three-operand 32-bit integer operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TernOp {
    /// `prmt.b32 d, a, b, c` (the default mode): byte `i` of `d` is byte `c[4i+2:4i]` of
    /// the 64-bit `{b, a}`, or its sign replicated when `c[4i+3]` is set.
    Prmt,
    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: the high (`l`) or low (`r`) word of the
    /// 64-bit `{b, a}` shifted by `c` (mod 32, or at most 32).
    Shf { left: bool, clamp: bool },
    /// `dp4a.{s,u}32.{s,u}32 d, a, b, c`: `c` plus the sum of the products of the four
    /// byte pairs of `a` and `b` (each byte signed or not as its operand's type).
    Dp4a { a_signed: bool, b_signed: bool },
}

impl TernOp {
    pub fn eval(self, a: u64, b: u64, c: u64) -> u64 {
        let (a, b, c) = (a as u32, b as u32, c as u32);
        let both = (b as u64) << 32 | a as u64;
        (match self {
            TernOp::Prmt => {
                let mut d = 0u32;
                for i in 0..4 {
                    let sel = (c >> (4 * i)) & 0xf;
                    let byte = ((both >> (8 * (sel & 7))) & 0xff) as u32;
                    let byte = if sel & 8 != 0 {
                        if byte & 0x80 != 0 {
                            0xff
                        } else {
                            0
                        }
                    } else {
                        byte
                    };
                    d |= byte << (8 * i);
                }
                d
            }
            TernOp::Dp4a { a_signed, b_signed } => {
                let byte = |w: u32, i: u32, s: bool| -> i32 {
                    let v = (w >> (8 * i)) & 0xff;
                    if s {
                        v as u8 as i8 as i32
                    } else {
                        v as i32
                    }
                };
                (0..4).fold(c as i32, |acc, i| acc.wrapping_add(byte(a, i, a_signed).wrapping_mul(byte(b, i, b_signed)))) as u32
            }
            TernOp::Shf { left, clamp } => {
                let n = if clamp { c.min(32) } else { c & 31 };
                if left {
                    ((both << n) >> 32) as u32
                } else {
                    (both >> n) as u32
                }
            }
        }) as u64
    }
}

/// `bar.red`'s reduction (the `__syncthreads_count/and/or` forms).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BarRed {
    Popc,
    And,
    Or,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    Const {
        dst: Reg,
        bits: u64,
    },
    Mov {
        dst: Reg,
        src: Reg,
    },
    Bin {
        op: BinOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Un {
        op: UnOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
    },
    /// A [`TernOp`] on 32-bit operands.
    Tern {
        op: TernOp,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    /// Fused multiply-add (one rounding).
    Fma {
        ty: Ty,
        mode: FMode,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    Cmp {
        cmp: Cmp,
        ty: Ty,
        ftz: bool,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Select {
        dst: Reg,
        cond: Reg,
        a: Reg,
        b: Reg,
    },
    Cvt {
        cvt: Cvt,
        dst: Reg,
        src: Reg,
    },
    /// Generic address from a space's address (`to_generic`) or back.
    Cvta {
        space: Space,
        to_generic: bool,
        dst: Reg,
        src: Reg,
    },
    /// A load of `ty` from `addr + offset` in `space`.
    Load {
        space: Space,
        ty: Ty,
        dst: Reg,
        addr: Reg,
        offset: i64,
        align: u32,
    },
    Store {
        space: Space,
        ty: Ty,
        src: Reg,
        addr: Reg,
        offset: i64,
        align: u32,
    },
    /// Returns the old value in `dst`; `b` is CAS's new value.
    Atom {
        op: AtomOp,
        space: Space,
        ty: Ty,
        dst: Reg,
        addr: Reg,
        offset: i64,
        a: Reg,
        b: Reg,
    },
    Sreg {
        dst: Reg,
        sreg: Sreg,
    },
    /// The address of module global `index` (placed in global memory at launch).
    GlobalAddr {
        dst: Reg,
        index: u32,
    },
    Jump {
        target: u32,
    },
    /// Goes to `t` if `cond` is set (or clear, with `neg`), else to `f`.
    Branch {
        cond: Reg,
        neg: bool,
        t: u32,
        f: u32,
    },
    /// The thread exits.
    Exit,
    Trap,
    /// The device runtime's `vprintf(fmt, args)` (generic addresses): what each lane prints
    /// is appended to the run's output; `dst` gets the number of arguments read.
    Printf {
        dst: Reg,
        fmt: Reg,
        args: Reg,
    },
    /// The device runtime's `malloc(size)`: each lane gets a fresh zeroed global block of
    /// its own (null for size 0), in lane order.
    Malloc {
        dst: Reg,
        size: Reg,
    },
    /// The device runtime's `free(p)`: a block `Malloc` returned (null: nothing); using it
    /// afterwards, or freeing anything else, is reported.
    Free {
        ptr: Reg,
    },
    /// The device runtime's `__assertfail(message, file, line, function, charSize)`: the
    /// kernel stops with the failed assertion.
    AssertFail {
        msg: Reg,
        file: Reg,
        line: Reg,
        func: Reg,
    },
    /// `__syncthreads` (with `red`, its reduction of `pred` into `dst`).
    Barrier {
        red: Option<BarRed>,
        dst: Reg,
        pred: Reg,
    },
    /// `bar.sync id, count` / `bar.arrive id, count`: named barrier `id` (0..15) completes
    /// when `count` threads (whole warps) have arrived; `arrive` counts without waiting.
    NamedBarrier {
        id: Reg,
        count: Reg,
        arrive: bool,
    },
    /// `__syncwarp(mask)`.
    WarpSync {
        mask: Reg,
    },
    /// `pred_dst` gets whether the source lane was in range.
    Shfl {
        mode: ShflMode,
        dst: Reg,
        pred_dst: Option<Reg>,
        val: Reg,
        lane: Reg,
        clamp: Reg,
        mask: Reg,
    },
    Vote {
        mode: VoteMode,
        dst: Reg,
        pred: Reg,
        neg: bool,
        mask: Reg,
    },
    /// `match.{any,all}.sync`: the lanes of the member mask whose `val` (of `ty`) equals
    /// this lane's (`any`); or the member mask if all are equal, else 0, with `pred` set
    /// accordingly (`all`).
    Match {
        all: bool,
        ty: Ty,
        dst: Reg,
        pred: Option<Reg>,
        val: Reg,
        mask: Reg,
    },
    Activemask {
        dst: Reg,
    },
    /// `redux.sync`: `op` (add, signed or unsigned min/max, and, or, xor) over the 32-bit
    /// `val` of the lanes in `mask`, to each of them.
    Redux {
        op: AtomOp,
        dst: Reg,
        val: Reg,
        mask: Reg,
    },
    /// `fns.b32`: the position of the `offset`-th set bit of `mask` from bit `base` (up
    /// for a positive offset, down for a negative one; `base` itself for 0), or all ones.
    Fns {
        dst: Reg,
        mask: Reg,
        base: Reg,
        offset: Reg,
    },
    /// A texture fetch: `dst` gets the four channels (f32 bits with `float_out`, else
    /// 32-bit integers); `coords` (the layer first for an array) are f32 bits, or integers
    /// with `int_coords` (`tex1Dfetch`).
    Tex {
        geom: crate::texture::Geom,
        float_out: bool,
        int_coords: bool,
        dst: [Reg; 4],
        handle: Reg,
        coords: [Reg; 4],
        ncoords: u8,
    },
    /// Memory fences: a sequential machine needs nothing.
    Fence,
}

/// Where an instruction came from, for error messages: `file:line:col` or a PTX line.
pub type Loc = std::sync::Arc<str>;

/// A translated kernel.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub kernel: String,
    pub code: Vec<Inst>,
    /// `locs[i]`: the source location of `code[i]` (an index into `loc_names`).
    pub locs: Vec<u32>,
    pub loc_names: Vec<Loc>,
    pub num_regs: u32,
    /// The kernel's parameters: their registers (for `cuda` and `nvvm`), or their
    /// offsets in param space (for `ptx`, read with `ld.param`), and types.
    pub params: Vec<Param>,
    /// Per-thread local memory (frames of every inlined call and the local depots).
    pub local_size: u64,
    /// Static shared memory per block; dynamic shared memory starts at
    /// `dynamic_shared_offset`.
    pub shared_size: u64,
    pub dynamic_shared_offset: u64,
    /// Module globals (`__device__` and `__constant__`), with their initial bytes.
    pub globals: Vec<GlobalVar>,
    /// The kernel's `__launch_bounds__` maximum threads per block, if any.
    pub max_threads: Option<u32>,
    /// Loads whose bytes NVIDIA's `used_bytes_mask` pragma calls unused: they load, but a
    /// read of never-written memory there is no warning.
    pub quiet_loads: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// Size in bytes (8 for pointers).
    pub size: u32,
    /// Register receiving the value (cuda, nvvm), or `None` (ptx: param space at `offset`).
    pub reg: Option<Reg>,
    pub offset: u64,
}

#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    pub space: Space,
    pub size: u64,
    pub align: u64,
    pub init: Vec<u8>,
    /// Address: for `Global`, an offset in the module's global segment; for `Const`, in
    /// the constant bank. Filled in by the translators.
    pub offset: u64,
    /// Bytes of `init` (their offsets) that hold the generic address of another device
    /// global (its index): filled in at launch, where the globals are placed.
    pub relocs: Vec<(u64, u32)>,
}

impl Program {
    pub fn loc(&self, pc: usize) -> &str {
        self.locs.get(pc).and_then(|&l| self.loc_names.get(l as usize)).map_or("<unknown>", |s| &**s)
    }
}

/// Helps translators build a [`Program`]: registers, labels patched once placed,
/// locations, frames.
pub struct Builder {
    pub prog: Program,
    cur_loc: u32,
    loc_ids: rustc_hash::FxHashMap<Loc, u32>,
    /// Label id to code position (u32::MAX until placed).
    labels: Vec<u32>,
    /// (code index, which target: 0 `Jump.target`/`Branch.t`, 1 `Branch.f`, label).
    fixups: Vec<(usize, u8, u32)>,
    /// `Const`s that get the dynamic shared memory's address (generic if true).
    dyn_fixups: Vec<(usize, bool)>,
    /// Bytes of the constant bank placed so far.
    const_size: u64,
}

/// Where a module global lives (see [`Builder::place_global`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    /// `__device__`: index into the program's globals (placed in global memory at launch).
    Device(u32),
    /// Offset in the constant bank.
    Const(u64),
    /// Offset in the block's static shared memory.
    Shared(u64),
    /// `extern __shared__`: the block's dynamic shared memory.
    DynShared,
}

impl Placement {
    /// The state space the global is in.
    pub fn space(self) -> Space {
        match self {
            Placement::Device(_) => Space::Global,
            Placement::Const(_) => Space::Const,
            Placement::Shared(_) | Placement::DynShared => Space::Shared,
        }
    }
}

/// A label: a jump target placed later.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Label(pub u32);

impl Builder {
    pub fn new(kernel: &str) -> Self {
        Builder {
            prog: Program { kernel: kernel.to_string(), ..Default::default() },
            cur_loc: 0,
            loc_ids: Default::default(),
            labels: Vec::new(),
            fixups: Vec::new(),
            dyn_fixups: Vec::new(),
            const_size: 0,
        }
    }
    pub fn reg(&mut self) -> Reg {
        let r = self.prog.num_regs;
        self.prog.num_regs += 1;
        r
    }
    pub fn set_loc(&mut self, loc: &str) {
        if let Some(&id) = self.loc_ids.get(loc) {
            self.cur_loc = id;
            return;
        }
        let id = self.prog.loc_names.len() as u32;
        let l: Loc = loc.into();
        self.prog.loc_names.push(l.clone());
        self.loc_ids.insert(l, id);
        self.cur_loc = id;
    }
    pub fn emit(&mut self, i: Inst) {
        self.prog.code.push(i);
        self.prog.locs.push(self.cur_loc);
    }
    pub fn konst(&mut self, bits: u64) -> Reg {
        let r = self.reg();
        self.emit(Inst::Const { dst: r, bits });
        r
    }
    /// A register holding the address of dynamic shared memory (`extern __shared__`),
    /// which starts after all static shared memory (known when the program is finished).
    pub fn dyn_shared(&mut self, generic: bool) -> Reg {
        let r = self.reg();
        self.dyn_fixups.push((self.prog.code.len(), generic));
        self.emit(Inst::Const { dst: r, bits: 0 });
        r
    }
    /// Places a module global in `space` (`Global`, `Const` or `Shared`; `dynamic`: an
    /// `extern __shared__` array) with its initial bytes.
    pub fn place_global(&mut self, name: &str, space: Space, dynamic: bool, size: u64, align: u64, init: Vec<u8>) -> Placement {
        let align = align.max(1);
        match space {
            Space::Shared if dynamic => Placement::DynShared,
            Space::Shared => Placement::Shared(self.alloc_shared(size, align)),
            Space::Const => {
                let offset = self.const_size.div_ceil(align) * align;
                self.const_size = offset + size;
                self.prog.globals.push(GlobalVar { name: name.to_string(), space, size, align, init, offset, relocs: Vec::new() });
                Placement::Const(offset)
            }
            _ => {
                self.prog.globals.push(GlobalVar {
                    name: name.to_string(),
                    space: Space::Global,
                    size,
                    align,
                    init,
                    offset: 0,
                    relocs: Vec::new(),
                });
                Placement::Device(self.prog.globals.len() as u32 - 1)
            }
        }
    }

    /// Puts a placed global's address in `dst`, as a pointer into `to`: its own state space
    /// (an offset there) or `Generic`.
    pub fn global_addr(&mut self, place: Placement, to: Space, dst: Reg) {
        use crate::memory::{CONST_BASE, SHARED_BASE};
        match place {
            Placement::Device(i) => self.emit(Inst::GlobalAddr { dst, index: i }),
            Placement::Const(off) => self.emit(Inst::Const { dst, bits: off + if to == Space::Const { 0 } else { CONST_BASE } }),
            Placement::Shared(off) => self.emit(Inst::Const { dst, bits: off + if to == Space::Shared { 0 } else { SHARED_BASE } }),
            Placement::DynShared => {
                let r = self.dyn_shared(to != Space::Shared);
                self.emit(Inst::Mov { dst, src: r });
            }
        }
    }

    /// A pointer from address space `from` to `to` (`cvta`, through generic if neither is).
    pub fn space_cast(&mut self, from: Space, to: Space, dst: Reg, src: Reg) {
        match (from, to) {
            (a, b) if a == b => self.emit(Inst::Mov { dst, src }),
            (Space::Generic, s) => self.emit(Inst::Cvta { space: s, to_generic: false, dst, src }),
            (s, Space::Generic) => self.emit(Inst::Cvta { space: s, to_generic: true, dst, src }),
            (a, b) => {
                let t = self.reg();
                self.emit(Inst::Cvta { space: a, to_generic: true, dst: t, src });
                self.emit(Inst::Cvta { space: b, to_generic: false, dst, src: t });
            }
        }
    }

    /// Fresh registers holding copies of `srcs` (a call's arguments: the callee's parameters
    /// are its own registers).
    pub fn fresh_copies(&mut self, srcs: &[Reg]) -> Vec<Reg> {
        srcs.iter()
            .map(|&src| {
                let dst = self.reg();
                self.emit(Inst::Mov { dst, src });
                dst
            })
            .collect()
    }

    /// The parallel copy of `srcs` into `dsts` (through temporaries when a destination is
    /// also a source).
    pub fn copies(&mut self, dsts: &[Reg], srcs: &[Reg]) {
        if dsts.iter().any(|d| srcs.contains(d)) {
            let tmps: Vec<Reg> = srcs
                .iter()
                .map(|&s| {
                    let t = self.reg();
                    self.emit(Inst::Mov { dst: t, src: s });
                    t
                })
                .collect();
            for (&d, &t) in dsts.iter().zip(&tmps) {
                self.emit(Inst::Mov { dst: d, src: t });
            }
        } else {
            for (&d, &s) in dsts.iter().zip(srcs) {
                if d != s {
                    self.emit(Inst::Mov { dst: d, src: s });
                }
            }
        }
    }

    pub fn label(&mut self) -> Label {
        self.labels.push(u32::MAX);
        Label(self.labels.len() as u32 - 1)
    }
    pub fn place(&mut self, l: Label) {
        self.labels[l.0 as usize] = self.prog.code.len() as u32;
    }
    pub fn jump(&mut self, l: Label) {
        self.fixups.push((self.prog.code.len(), 0, l.0));
        self.emit(Inst::Jump { target: 0 });
    }
    pub fn branch(&mut self, cond: Reg, neg: bool, t: Label, f: Label) {
        let at = self.prog.code.len();
        self.fixups.push((at, 0, t.0));
        self.fixups.push((at, 1, f.0));
        self.emit(Inst::Branch { cond, neg, t: 0, f: 0 });
    }
    /// Bytes of per-thread local memory for a frame of `size` aligned to `align`.
    /// A kernel parameter that arrives as bytes in param space (a struct by value): its
    /// offset there, after the parameters placed so far.
    pub fn param_in_memory(&mut self, name: String, size: u64, align: u64) -> u64 {
        let end = self.prog.params.iter().filter(|p| p.reg.is_none()).map(|p| p.offset + p.size as u64).max().unwrap_or(0);
        let off = end.div_ceil(align.max(1)) * align.max(1);
        self.prog.params.push(Param { name, size: size as u32, reg: None, offset: off });
        off
    }

    pub fn alloc_local(&mut self, size: u64, align: u64) -> u64 {
        let off = self.prog.local_size.div_ceil(align.max(1)) * align.max(1);
        self.prog.local_size = off + size;
        off
    }
    pub fn alloc_shared(&mut self, size: u64, align: u64) -> u64 {
        let off = self.prog.shared_size.div_ceil(align.max(1)) * align.max(1);
        self.prog.shared_size = off + size;
        off
    }
    /// Resolves the labels; an unplaced label is a translator bug, reported as an error.
    pub fn finish(mut self) -> Result<Program, String> {
        // Code must not fall off the end, nor jump past it.
        let end = self.prog.code.len() as u32;
        if self.labels.contains(&end) || !matches!(self.prog.code.last(), Some(Inst::Exit | Inst::Jump { .. } | Inst::Trap)) {
            self.emit(Inst::Exit);
        }
        for &(at, which, l) in &self.fixups {
            let target = self.labels[l as usize];
            if target == u32::MAX {
                return Err(format!("internal: label {l} never placed"));
            }
            match (&mut self.prog.code[at], which) {
                (Inst::Jump { target: t }, _) | (Inst::Branch { t, .. }, 0) => *t = target,
                (Inst::Branch { f, .. }, _) => *f = target,
                _ => unreachable!("fixups name jumps and branches only"),
            }
        }
        self.prog.dynamic_shared_offset = self.prog.shared_size.div_ceil(16) * 16;
        for &(at, generic) in &self.dyn_fixups {
            if let Inst::Const { bits, .. } = &mut self.prog.code[at] {
                *bits = self.prog.dynamic_shared_offset + if generic { crate::memory::SHARED_BASE } else { 0 };
            }
        }
        Ok(self.prog)
    }
}
