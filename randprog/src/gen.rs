//! The generator: a seed to a [`Program`]. Deterministic (its own PRNG), bounded (statement
//! and loop-iteration budgets, expression depth), and it tracks two facts per point: which
//! variables are in scope with their types, and whether the block is converged there (only
//! then may it place warp collectives and barriers).

use crate::ast::*;

/// The simulator's SplitMix64 (small, fast, the same on every machine), with the picks the
/// generator makes.
#[derive(Clone, Debug)]
pub struct Rng(cuprite_sim::machine::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(cuprite_sim::machine::Rng(seed ^ 0x5851_f42d_4c95_7f2d))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    /// True with probability `pct` percent.
    pub fn chance(&mut self, pct: u32) -> bool {
        self.below(100) < pct as usize
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// What the generator may use (the campaign's knobs).
#[derive(Clone, Debug)]
pub struct Config {
    /// Transcendental functions (`expf`, `sinf`, ...). Off by default: cuprite's math library
    /// is within its documented ulp bounds of libdevice but not bit-identical to it, and
    /// the comparison is bit for bit.
    pub transcendentals: bool,
    /// Kernel statements (top level and nested together).
    pub statements: u32,
    /// The contraction mode: float expressions lean to `a * b + c`, and the kernel gets
    /// the well-conditioned channel ([`Stmt::Accum`], outputs `out_wf`/`out_wd`) with its
    /// ulp bound ([`Program::ulp_bound`]).
    pub contraction: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config { transcendentals: false, statements: 28, contraction: false }
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Scalar(Ty),
    Array(Ty, u32),
    Struct(usize),
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    kind: Kind,
    mutable: bool,
}

struct Gen<'c> {
    rng: Rng,
    cfg: &'c Config,
    p: Program,
    scopes: Vec<Vec<Var>>,
    counter: usize,
    /// Generating the kernel (not a device function).
    in_kernel: bool,
    /// Functions the current one may call (those defined before it).
    callable: usize,
    /// The whole block is converged here.
    converged: bool,
    /// Inside a loop (`continue` allowed) / a loop or switch (`break` allowed).
    in_loop: bool,
    in_breakable: bool,
    /// Product of the enclosing loops' maximum trip counts.
    iterations: u32,
    budget: i32,
    /// The error bounds of `wf` and `wd` so far, in units of their type's `u` (see
    /// [`Program::ulp_bound`]).
    werr: [u64; 2],
    /// Generating an [`Stmt::Accum`] with a `wk` loop.
    in_wk: bool,
}

/// Generates the program for `seed`.
pub fn generate(seed: u64, cfg: &Config) -> Program {
    let mut rng = Rng::new(seed);
    let block = 32 * (1 + rng.below(4) as u32);
    let grid = 1 + rng.below(3) as u32;
    let p = Program {
        seed,
        prefix: format!("p{seed}_"),
        structs: Vec::new(),
        constants: Vec::new(),
        funcs: Vec::new(),
        body: Vec::new(),
        block,
        grid,
        ulp_bound: None,
    };
    let mut g = Gen {
        rng,
        cfg,
        p,
        scopes: Vec::new(),
        counter: 0,
        in_kernel: false,
        callable: 0,
        converged: true,
        in_loop: false,
        in_breakable: false,
        iterations: 1,
        budget: 0,
        werr: [0, 0],
        in_wk: false,
    };
    for _ in 0..g.rng.below(3) {
        let n = 1 + g.rng.below(4);
        let fields = (0..n).map(|_| g.any_ty()).collect();
        g.p.structs.push(StructDef { fields });
    }
    if g.rng.chance(50) {
        g.p.constants = (0..16).map(|_| g.int_lit(Ty::I32) as i32).collect();
    }
    for i in 0..g.rng.below(4) {
        g.callable = i;
        let f = g.func();
        g.p.funcs.push(f);
    }
    g.callable = g.p.funcs.len();
    g.in_kernel = true;
    g.budget = cfg.statements as i32;
    g.scopes.push(Vec::new());
    let mut body = Vec::new();
    while g.budget > 0 {
        g.budget -= 1;
        let s = g.stmt(0);
        body.extend(s);
    }
    g.scopes.pop();
    g.p.body = body;
    if cfg.contraction {
        g.p.ulp_bound = Some((2 * g.werr[0] + 2, 2 * g.werr[1] + 2));
    }
    g.p
}

impl Gen<'_> {
    fn name(&mut self, stem: &str) -> String {
        self.counter += 1;
        format!("{stem}{}", self.counter)
    }

    fn any_ty(&mut self) -> Ty {
        // Ints twice as likely as the rest.
        let r = self.rng.below(14);
        if r < 8 {
            Ty::INTS[r]
        } else if r < 10 {
            Ty::I32
        } else if r < 12 {
            Ty::F32
        } else if r == 12 {
            Ty::F64
        } else {
            Ty::Bool
        }
    }

    fn int_lit(&mut self, t: Ty) -> i128 {
        let bits = t.bits();
        let (min, max): (i128, i128) =
            if t.signed() { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
        let v = match self.rng.below(10) {
            0 => 0,
            1 => 1,
            2 => -1,
            3 => min,
            4 => max,
            5 | 6 => self.rng.below(33) as i128 - 16,
            7 => 1i128 << self.rng.below(bits as usize),
            _ => self.rng.next_u64() as i128,
        };
        // Into the type's range, as C's conversion does.
        let m = 1i128 << bits;
        let mut v = v.rem_euclid(m);
        if t.signed() && v > max {
            v -= m;
        }
        v.clamp(min, max)
    }

    fn float_lit(&mut self) -> f64 {
        match self.rng.below(8) {
            0 => 0.0,
            1 => 1.0,
            2 => -0.5,
            3 => 1e10,
            4 => 3.0e-5,
            _ => ((self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 64.0,
        }
    }

    fn lit(&mut self, t: Ty) -> Expr {
        match t {
            Ty::Bool => Expr::Int(Ty::Bool, self.rng.below(2) as i128),
            Ty::F32 => Expr::Float(t, self.float_lit() as f32 as f64),
            Ty::F64 => Expr::Float(t, self.float_lit()),
            _ => Expr::Int(t, self.int_lit(t)),
        }
    }

    fn vars(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    /// A readable place of type `t`, if any.
    fn place(&mut self, t: Ty, depth: u32) -> Option<Expr> {
        let mut cands = Vec::new();
        for v in self.vars() {
            match &v.kind {
                Kind::Scalar(vt) if *vt == t => cands.push(Expr::Var(v.name.clone(), t)),
                Kind::Array(vt, n) if *vt == t => cands.push(Expr::Elem(v.name.clone(), t, *n, Box::new(Expr::Int(Ty::I32, 0)))),
                Kind::Struct(s) => {
                    for (k, ft) in self.p.structs[*s].fields.iter().enumerate() {
                        if *ft == t {
                            cands.push(Expr::Field(v.name.clone(), k, t));
                        }
                    }
                }
                _ => {}
            }
        }
        if cands.is_empty() {
            return None;
        }
        let mut e = cands.swap_remove(self.rng.below(cands.len()));
        if let Expr::Elem(_, _, _, idx) = &mut e {
            **idx = self.index(depth);
        }
        Some(e)
    }

    /// An index expression (any integer type; the printer masks it).
    fn index(&mut self, depth: u32) -> Expr {
        let t = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::U64, Ty::I16]);
        if depth == 0 || self.rng.chance(40) {
            return self.leaf(t);
        }
        self.expr(t, depth - 1)
    }

    fn leaf(&mut self, t: Ty) -> Expr {
        if self.rng.chance(60) {
            if let Some(e) = self.place(t, 0) {
                return e;
            }
            // No variable of this type: one of another type, converted (so that values
            // flow between variables rather than being constants to fold).
            if self.rng.chance(60) {
                let from = self.any_ty();
                if from != t {
                    if let Some(e) = self.place(from, 0) {
                        return Expr::Cast(t, Box::new(e));
                    }
                }
            }
        }
        if t == Ty::U32 && self.rng.chance(50) {
            let s = *self.rng.pick(&[Special::Tid, Special::Lane, Special::ThreadIdx, Special::BlockIdx, Special::BlockDim]);
            return Expr::Special(s);
        }
        if t == Ty::I32 && self.in_kernel && self.rng.chance(20) {
            return Expr::Special(Special::ParamN);
        }
        if t == Ty::F32 && self.in_kernel && self.rng.chance(20) {
            return Expr::Special(Special::ParamF);
        }
        if self.in_kernel && self.rng.chance(40) {
            let b = match t {
                Ty::F32 => Some(Buf::F32),
                Ty::F64 => Some(Buf::F64),
                Ty::I32 => Some(*self.rng.pick(&[Buf::Wide, Buf::Small, Buf::Small])),
                _ => None,
            };
            if let Some(b) = b {
                let idx = self.index(0);
                return Expr::Load(b, Box::new(idx));
            }
        }
        if t == Ty::I32 && !self.p.constants.is_empty() && self.rng.chance(30) {
            let idx = self.index(0);
            return Expr::Load(Buf::Const, Box::new(idx));
        }
        self.lit(t)
    }

    fn expr(&mut self, t: Ty, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(t);
        }
        let d = depth - 1;
        let b = |e: Expr| Box::new(e);
        match t {
            Ty::Bool => match self.rng.below(6) {
                0..=2 => {
                    let ot = self.any_ty();
                    let ot = if ot == Ty::Bool { Ty::I32 } else { ot };
                    let op = *self.rng.pick(&[CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne]);
                    Expr::Cmp(op, b(self.expr(ot, d)), b(self.expr(ot, d)))
                }
                3 => Expr::Logic(self.rng.chance(50), b(self.expr(Ty::Bool, d)), b(self.expr(Ty::Bool, d))),
                4 => Expr::Un(UnOp::Not, Ty::Bool, b(self.expr(Ty::Bool, d))),
                _ => {
                    let ot = self.any_ty();
                    Expr::Cast(Ty::Bool, b(self.expr(ot, d)))
                }
            },
            _ => {
                let r = self.rng.below(20);
                match r {
                    0..=8 if t.is_float() && self.cfg.contraction && self.rng.chance(40) => {
                        let m = Expr::Bin(BinOp::Mul, t, b(self.expr(t, d)), b(self.expr(t, d)));
                        let c = self.expr(t, d);
                        if self.rng.chance(50) {
                            Expr::Bin(BinOp::Add, t, b(m), b(c))
                        } else {
                            Expr::Bin(*self.rng.pick(&[BinOp::Add, BinOp::Sub]), t, b(c), b(m))
                        }
                    }
                    0..=8 => {
                        let ops: &[BinOp] = if t.is_float() {
                            &[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Min, BinOp::Max]
                        } else {
                            &[
                                BinOp::Add,
                                BinOp::Sub,
                                BinOp::Mul,
                                BinOp::Div,
                                BinOp::Rem,
                                BinOp::Shl,
                                BinOp::Shr,
                                BinOp::And,
                                BinOp::Or,
                                BinOp::Xor,
                                BinOp::Min,
                                BinOp::Max,
                            ]
                        };
                        let op = *self.rng.pick(ops);
                        Expr::Bin(op, t, b(self.expr(t, d)), b(self.expr(t, d)))
                    }
                    9 => Expr::Un(if t.is_float() || self.rng.chance(50) { UnOp::Neg } else { UnOp::Not }, t, b(self.expr(t, d))),
                    10 | 11 => {
                        let from = self.any_ty();
                        Expr::Cast(t, b(self.expr(from, d)))
                    }
                    12 => Expr::Select(b(self.expr(Ty::Bool, d)), b(self.expr(t, d)), b(self.expr(t, d))),
                    13 | 14 => {
                        let fs: Vec<usize> = (0..self.callable).filter(|&f| self.p.funcs[f].ret == t).collect();
                        if fs.is_empty() {
                            return self.leaf(t);
                        }
                        let f = *self.rng.pick(&fs);
                        let args = self.p.funcs[f].params.clone().iter().map(|(_, pt)| self.expr(*pt, d)).collect();
                        Expr::Call(f, args)
                    }
                    15..=17 => {
                        use Intrinsic::*;
                        let cands: Vec<Intrinsic> = if t.is_float() {
                            let mut v = vec![Sqrt, Fabs, Fmin, Fmax, Floor, Ceil, Trunc, Rint, Copysign, Fma];
                            if self.cfg.transcendentals {
                                v.extend([Exp, Log, Sin, Cos, Tanh]);
                            }
                            v
                        } else if t == Ty::I32 {
                            // Not __mul24: NVRTC treats its 32-bit overflow as undefined
                            // (it zero-extends a product it assumes non-negative), which
                            // CUDA's documentation does not.
                            vec![Popc, Clz, Ffs, Mulhi, Dp4a]
                        } else if t == Ty::U32 {
                            vec![Brev, BytePerm, FunnelShiftL, Umulhi, Dp4a]
                        } else {
                            return Expr::Cast(t, b(self.expr(Ty::I32, d)));
                        };
                        let i = *self.rng.pick(&cands);
                        let args = i.signature(t).1.iter().map(|at| self.expr(*at, d)).collect();
                        Expr::Intrinsic(i, t, args)
                    }
                    _ => self.leaf(t),
                }
            }
        }
    }

    fn declare(&mut self, name: &str, kind: Kind, mutable: bool) {
        self.scopes.last_mut().expect("a scope").push(Var { name: name.to_string(), kind, mutable });
    }

    /// A block of statements in a new scope.
    fn block(&mut self, depth: u32, max: usize) -> Vec<Stmt> {
        self.scopes.push(Vec::new());
        let mut out = Vec::new();
        let n = 1 + self.rng.below(max);
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.budget -= 1;
            out.extend(self.stmt(depth));
        }
        self.scopes.pop();
        out
    }

    /// Runs `f` with the converged flag cleared (a data-dependent branch).
    fn divergent<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let c = std::mem::replace(&mut self.converged, false);
        let r = f(self);
        self.converged = c;
        r
    }

    fn assignable(&mut self, depth: u32) -> Option<LVal> {
        let vars: Vec<Var> = self.vars().filter(|v| v.mutable).cloned().collect();
        if vars.is_empty() {
            return None;
        }
        let v = self.rng.pick(&vars).clone();
        Some(match v.kind {
            Kind::Scalar(t) => LVal::Var(v.name, t),
            Kind::Array(t, n) => LVal::Elem(v.name, t, n, self.index(depth)),
            Kind::Struct(s) => {
                let k = self.rng.below(self.p.structs[s].fields.len());
                LVal::Field(v.name, k, self.p.structs[s].fields[k])
            }
        })
    }

    /// A statement of the well-conditioned channel: `w = w * P + Q` (as a multiply-add,
    /// an `fma` call, or `Q + P * w`) with `P` and `Q` from [`Gen::positive`]; `w`'s
    /// error bound grows by `E(P) + E(Q) + 2` per execution.
    fn accum(&mut self) -> Stmt {
        let ty = if self.rng.chance(60) { Ty::F32 } else { Ty::F64 };
        let trips = if self.rng.chance(50) { 1 } else { 2 + self.rng.below(15) as u32 };
        self.in_wk = trips > 1;
        let w = Expr::Var(if ty == Ty::F32 { "wf" } else { "wd" }.into(), ty);
        let (p, ep) = self.positive(ty, 2);
        let (q, eq) = self.positive(ty, 2);
        let b = Box::new;
        let value = match self.rng.below(3) {
            0 => Expr::Bin(BinOp::Add, ty, b(Expr::Bin(BinOp::Mul, ty, b(w), b(p))), b(q)),
            1 => Expr::Intrinsic(Intrinsic::Fma, ty, vec![w, p, q]),
            _ => Expr::Bin(BinOp::Add, ty, b(q), b(Expr::Bin(BinOp::Mul, ty, b(p), b(w)))),
        };
        self.werr[(ty == Ty::F64) as usize] += (ep + eq + 2) * trips as u64;
        self.in_wk = false;
        Stmt::Accum { ty, value, trips }
    }

    /// An integer the contraction cannot change: a thread index, or `wk`.
    fn channel_int(&mut self) -> Expr {
        if self.in_wk && self.rng.chance(50) {
            let k = Expr::Cast(Ty::U32, Box::new(Expr::Var("wk".into(), Ty::I32)));
            let s = Expr::Special(*self.rng.pick(&[Special::Tid, Special::Lane, Special::ThreadIdx]));
            return Expr::Bin(BinOp::Add, Ty::U32, Box::new(k), Box::new(s));
        }
        Expr::Special(*self.rng.pick(&[Special::Tid, Special::Lane, Special::ThreadIdx, Special::BlockIdx]))
    }

    /// A non-negative expression of type `t` (at least 1/16, at most about 10^8) that does
    /// not read `wf` or `wd` of its own type, with its error bound in units of `u`.
    fn positive(&mut self, t: Ty, depth: u32) -> (Expr, u64) {
        let b = Box::new;
        if depth == 0 || self.rng.chance(30) {
            return match self.rng.below(5) {
                0 | 1 => (Expr::Float(t, *self.rng.pick(&[0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0])), 0),
                2 => {
                    let buf = if t == Ty::F32 { Buf::F32 } else { Buf::F64 };
                    let load = Expr::Load(buf, b(self.channel_int()));
                    (Expr::Bin(BinOp::Add, t, b(Expr::Intrinsic(Intrinsic::Fabs, t, vec![load])), b(Expr::Float(t, 0.5))), 1)
                }
                // `wd` rounded to float: one rounding, plus `wd`'s own error, which is
                // 2^29 times smaller in float's units (below one while `wd`'s bound is
                // under 2^29).
                3 if t == Ty::F32 => (Expr::Cast(Ty::F32, b(Expr::Var("wd".into(), Ty::F64))), 2),
                // 0..15 from an integer contraction cannot change, plus 0.5.
                _ => {
                    let i = self.channel_int();
                    let small = Expr::Bin(BinOp::And, Ty::U32, b(i), b(Expr::Int(Ty::U32, 15)));
                    (Expr::Bin(BinOp::Add, t, b(Expr::Cast(t, b(small))), b(Expr::Float(t, 0.5))), 1)
                }
            };
        }
        let d = depth - 1;
        let (x, ex) = self.positive(t, d);
        let (y, ey) = self.positive(t, d);
        match self.rng.below(7) {
            0 => (Expr::Bin(BinOp::Mul, t, b(x), b(y)), ex + ey + 1),
            1 => (Expr::Bin(BinOp::Add, t, b(x), b(y)), ex.max(ey) + 1),
            2 => {
                let (z, ez) = self.positive(t, 0);
                (Expr::Bin(BinOp::Add, t, b(Expr::Bin(BinOp::Mul, t, b(x), b(y))), b(z)), (ex + ey + 1).max(ez) + 1)
            }
            3 => {
                let (z, ez) = self.positive(t, 0);
                (Expr::Intrinsic(Intrinsic::Fma, t, vec![x, y, z]), (ex + ey).max(ez) + 1)
            }
            4 => (Expr::Intrinsic(Intrinsic::Sqrt, t, vec![x]), ex.div_ceil(2) + 1),
            5 => (Expr::Intrinsic(Intrinsic::Fmin, t, vec![x, y]), ex.max(ey)),
            _ => (Expr::Intrinsic(Intrinsic::Fmax, t, vec![x, y]), ex.max(ey)),
        }
    }

    fn stmt(&mut self, depth: u32) -> Vec<Stmt> {
        if self.cfg.contraction && self.in_kernel && depth == 0 && self.rng.chance(25) {
            return vec![self.accum()];
        }
        let ed = 2 + self.rng.below(2) as u32;
        let nested = depth < 3 && self.budget > 2;
        loop {
            match self.rng.below(24) {
                0..=3 => {
                    let t = self.any_ty();
                    let name = self.name("v");
                    let e = self.expr(t, ed);
                    self.declare(&name, Kind::Scalar(t), true);
                    return vec![Stmt::Decl(name, t, e)];
                }
                4 => {
                    let t = self.any_ty();
                    let n = *self.rng.pick(&[2u32, 4, 8]);
                    let name = self.name("a");
                    let init = (0..n).map(|_| self.expr(t, 1)).collect();
                    self.declare(&name, Kind::Array(t, n), true);
                    return vec![Stmt::Array(name, t, init)];
                }
                5 if !self.p.structs.is_empty() => {
                    let s = self.rng.below(self.p.structs.len());
                    let name = self.name("s");
                    let init = self.p.structs[s].fields.clone().iter().map(|t| self.expr(*t, 1)).collect();
                    self.declare(&name, Kind::Struct(s), true);
                    return vec![Stmt::Struct(name, s, init)];
                }
                6..=9 => {
                    if let Some(lv) = self.assignable(1) {
                        let e = self.expr(lv.ty(), ed);
                        return vec![Stmt::Assign(lv, e)];
                    }
                }
                10 | 11 if nested => {
                    let c = self.expr(Ty::Bool, 2);
                    let (t, e) = self.divergent(|g| {
                        let t = g.block(depth + 1, 4);
                        let e = if g.rng.chance(50) { g.block(depth + 1, 3) } else { Vec::new() };
                        (t, e)
                    });
                    return vec![Stmt::If(c, t, e)];
                }
                12 | 13 if nested && self.iterations <= 64 => return vec![self.for_loop(depth)],
                14 if nested && self.iterations <= 64 => {
                    let var = self.name("w");
                    let bound = 1 + self.rng.below(6) as u32;
                    let do_while = self.rng.chance(40);
                    let body = self.loop_body(depth, bound, &var, Ty::I32);
                    return vec![Stmt::While { var, bound, do_while, body }];
                }
                15 if nested => {
                    let st = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::U8]);
                    let e = self.expr(st, 1);
                    let brk = std::mem::replace(&mut self.in_breakable, true);
                    let (cases, default) = self.divergent(|g| {
                        let cases = (0..4).map(|_| (g.block(depth + 1, 2), g.rng.chance(70))).collect();
                        (cases, g.block(depth + 1, 2))
                    });
                    self.in_breakable = brk;
                    return vec![Stmt::Switch(e, cases, default)];
                }
                16 if self.in_breakable || self.in_loop => {
                    let c = self.expr(Ty::Bool, 1);
                    let s = if self.in_loop && self.rng.chance(50) { Stmt::Continue } else { Stmt::Break };
                    if !self.in_breakable && s == Stmt::Break {
                        continue;
                    }
                    return vec![Stmt::If(c, vec![s], Vec::new())];
                }
                17 | 18 if self.in_kernel => {
                    let t = self.any_ty();
                    return vec![Stmt::Observe(self.expr(t, ed))];
                }
                19 if self.in_kernel => {
                    let t = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::U8, Ty::I64]);
                    let slot = self.rng.below(ACC_LEN as usize) as u32;
                    // One operation per word: different ones on a word do not commute.
                    let op = [AtomicOp::Add, AtomicOp::Or, AtomicOp::And, AtomicOp::Xor, AtomicOp::Min, AtomicOp::Max][slot as usize % 6];
                    return vec![Stmt::Atomic(op, slot, self.expr(t, ed))];
                }
                20 | 21 if self.in_kernel && self.converged => {
                    let reduce = WarpOp::Reduce(*self.rng.pick(&[
                        AtomicOp::Add,
                        AtomicOp::Min,
                        AtomicOp::Max,
                        AtomicOp::And,
                        AtomicOp::Or,
                        AtomicOp::Xor,
                    ]));
                    let op = *self.rng.pick(&[
                        WarpOp::Shfl,
                        WarpOp::ShflXor,
                        WarpOp::ShflDown,
                        WarpOp::ShflUp,
                        WarpOp::Ballot,
                        WarpOp::Any,
                        WarpOp::All,
                        reduce,
                        WarpOp::MatchAny,
                        WarpOp::MatchAll,
                    ]);
                    let (ty, value) = match op {
                        WarpOp::Ballot => (Ty::U32, self.expr(Ty::Bool, ed)),
                        WarpOp::Any | WarpOp::All => (Ty::Bool, self.expr(Ty::Bool, ed)),
                        WarpOp::Reduce(k) => {
                            let signed_ok = matches!(k, AtomicOp::Add | AtomicOp::Min | AtomicOp::Max);
                            let t = if signed_ok && self.rng.chance(50) { Ty::I32 } else { Ty::U32 };
                            (t, self.expr(t, ed))
                        }
                        // The matched value of any type (its cast says which overload).
                        WarpOp::MatchAny | WarpOp::MatchAll => {
                            let t = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::F64]);
                            let v = self.expr(t, ed);
                            (Ty::U32, Expr::Cast(t, Box::new(v)))
                        }
                        _ => {
                            let t = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::I64, Ty::U64, Ty::F32, Ty::F64]);
                            (t, self.expr(t, ed))
                        }
                    };
                    // Declared after its value is made: the value must not read it.
                    let name = self.name("x");
                    let decl = Stmt::Decl(name.clone(), ty, self.lit(ty));
                    self.declare(&name, Kind::Scalar(ty), true);
                    let arg = match op {
                        WarpOp::Shfl => self.rng.below(32) as u32,
                        WarpOp::ShflXor => 1 << self.rng.below(5),
                        _ => 1 + self.rng.below(31) as u32,
                    };
                    return vec![decl, Stmt::Warp { dst: name, ty, op, value, arg }];
                }
                22 if self.in_kernel && self.converged => {
                    let t = *self.rng.pick(&[Ty::I32, Ty::U32, Ty::F32, Ty::I64, Ty::F64, Ty::U8]);
                    let value = self.expr(t, ed);
                    let name = self.name("x");
                    let init = self.lit(t);
                    let offset = 1 + self.rng.below(self.p.block as usize - 1) as u32;
                    self.declare(&name, Kind::Scalar(t), true);
                    return vec![Stmt::Decl(name.clone(), t, init), Stmt::Shared { dst: name, ty: t, value, offset }];
                }
                _ => {}
            }
        }
    }

    fn for_loop(&mut self, depth: u32) -> Stmt {
        let var = self.name("i");
        let (ty, size_t) = match self.rng.below(4) {
            0 => (Ty::U32, false),
            1 => (Ty::U64, true),
            _ => (Ty::I32, false),
        };
        let lo = self.rng.below(3) as i64;
        let step = if self.rng.chance(80) { 1 } else { 2 };
        // A constant bound keeps the block converged; a data-dependent one (masked to 0..7
        // by the printer) does not.
        let constant = self.rng.chance(60);
        let hi = if constant { Expr::Int(ty, lo as i128 + 1 + self.rng.below(7) as i128) } else { self.expr(Ty::I32, 1) };
        let body = if constant { self.loop_body(depth, 8, &var, ty) } else { self.divergent(|g| g.loop_body(depth, 8, &var, ty)) };
        Stmt::For { var, ty, size_t, lo, hi, masked: !constant, step, body }
    }

    /// A loop body: the loop variable in scope (read-only); `break`/`continue` make the rest
    /// of the body (and later iterations) divergent, so the body is generated converged only
    /// if it has none.
    fn loop_body(&mut self, depth: u32, trips: u32, var: &str, ty: Ty) -> Vec<Stmt> {
        let saved = (self.in_loop, self.in_breakable, self.iterations, self.converged);
        let exits = self.rng.chance(30);
        self.in_loop = exits;
        self.in_breakable = exits;
        if exits {
            self.converged = false;
        }
        self.iterations *= trips;
        self.scopes.push(Vec::new());
        self.declare(var, Kind::Scalar(ty), false);
        let body = self.block(depth + 1, 5);
        self.scopes.pop();
        (self.in_loop, self.in_breakable, self.iterations, self.converged) = saved;
        body
    }

    fn func(&mut self) -> Func {
        let ret = {
            let t = self.any_ty();
            if t == Ty::Bool {
                Ty::I32
            } else {
                t
            }
        };
        let params: Vec<(String, Ty)> = (0..1 + self.rng.below(3)).map(|k| (format!("q{k}"), self.any_ty())).collect();
        self.scopes.push(Vec::new());
        for (n, t) in &params {
            self.declare(n, Kind::Scalar(*t), true);
        }
        self.budget = 6;
        self.converged = false;
        let mut body = self.block(0, 5);
        body.push(Stmt::Return(self.expr(ret, 3)));
        self.scopes.pop();
        self.converged = true;
        Func { ret, params, body, noinline: self.rng.chance(25) }
    }
}
