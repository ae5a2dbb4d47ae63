//! A [`Program`] as CUDA C++ and its launch spec (the simulator's TOML). Every expression is
//! fully parenthesized and carries the casts that keep it in its type; the helpers that
//! guard division and float-to-integer conversion are written once per program, only those
//! it uses.

use crate::ast::*;
use std::collections::BTreeSet;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Helper {
    Div(TyKey),
    Rem(TyKey),
    Min(TyKey),
    Max(TyKey),
    /// Float to integer: (to, from).
    Cvt(TyKey, TyKey),
}

/// `Ty` with an order, for the helper set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TyKey(u8);

impl TyKey {
    fn of(t: Ty) -> TyKey {
        TyKey(Ty::ALL.iter().position(|x| *x == t).expect("a type") as u8)
    }
    fn ty(self) -> Ty {
        Ty::ALL[self.0 as usize]
    }
}

struct Printer<'p> {
    p: &'p Program,
    helpers: BTreeSet<Helper>,
    in_kernel: bool,
}

/// The largest and smallest value of an integer type, as C source.
fn min_lit(t: Ty) -> String {
    match t {
        Ty::I8 => "(-127 - 1)".into(),
        Ty::I16 => "(-32767 - 1)".into(),
        Ty::I32 => "(-2147483647 - 1)".into(),
        Ty::I64 => "(-9223372036854775807ll - 1)".into(),
        _ => "0".into(),
    }
}

fn int_lit(t: Ty, v: i128) -> String {
    match t {
        Ty::Bool => if v != 0 { "true" } else { "false" }.into(),
        Ty::I32 if v == i32::MIN as i128 => min_lit(t),
        Ty::I64 if v == i64::MIN as i128 => min_lit(t),
        Ty::I32 => {
            if v < 0 {
                format!("({v})")
            } else {
                v.to_string()
            }
        }
        Ty::U32 => format!("{v}u"),
        Ty::I64 => {
            if v < 0 {
                format!("({v}ll)")
            } else {
                format!("{v}ll")
            }
        }
        Ty::U64 => format!("{v}ull"),
        _ => format!("(({})({v}))", t.c()),
    }
}

fn float_lit(t: Ty, v: f64) -> String {
    let s = if t == Ty::F32 { format!("{:?}", v as f32) } else { format!("{v:?}") };
    let s = if s.contains(['.', 'e']) { s } else { format!("{s}.0") };
    let s = if t == Ty::F32 { format!("{s}f") } else { s };
    if v < 0.0 || s.starts_with('-') {
        format!("({s})")
    } else {
        s
    }
}

impl Printer<'_> {
    fn helper(&mut self, h: Helper) -> String {
        self.helpers.insert(h);
        let pre = &self.p.prefix;
        match h {
            Helper::Div(t) => format!("{pre}div_{}", t.ty().tag()),
            Helper::Rem(t) => format!("{pre}rem_{}", t.ty().tag()),
            Helper::Min(t) => format!("{pre}min_{}", t.ty().tag()),
            Helper::Max(t) => format!("{pre}max_{}", t.ty().tag()),
            Helper::Cvt(to, from) => format!("{pre}cvt_{}_{}", to.ty().tag(), from.ty().tag()),
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        let p = self.p;
        match e {
            Expr::Var(n, _) => n.clone(),
            Expr::Int(t, v) => int_lit(*t, *v),
            Expr::Float(t, v) => float_lit(*t, *v),
            Expr::Bin(op, t, a, b) => {
                let (x, y) = (self.expr(a), self.expr(b));
                let (tc, u) = (t.c(), t.arith_unsigned());
                let k = TyKey::of(*t);
                if t.is_float() {
                    return match op {
                        BinOp::Add => format!("({x} + {y})"),
                        BinOp::Sub => format!("({x} - {y})"),
                        BinOp::Mul => format!("({x} * {y})"),
                        // Through a helper: C++ leaves division by zero undefined, floats
                        // included, and NVRTC's front end folds a constant zero divisor with
                        // that (`(0.0f / 0.0f) == ...` as if the quotient were a number); in a
                        // function the division is IEEE's.
                        BinOp::Div => format!("{}({x}, {y})", self.helper(Helper::Div(k))),
                        BinOp::Min => format!("{}({x}, {y})", self.helper(Helper::Min(k))),
                        _ => format!("{}({x}, {y})", self.helper(Helper::Max(k))),
                    };
                }
                let w = t.shift_width() - 1;
                match op {
                    BinOp::Add => format!("(({tc})(({u})({x}) + ({u})({y})))"),
                    BinOp::Sub => format!("(({tc})(({u})({x}) - ({u})({y})))"),
                    BinOp::Mul => format!("(({tc})(({u})({x}) * ({u})({y})))"),
                    BinOp::Shl => format!("(({tc})(({u})({x}) << ((unsigned)({y}) & {w}u)))"),
                    BinOp::Shr => format!("(({tc})(({x}) >> ((unsigned)({y}) & {w}u)))"),
                    BinOp::And => format!("(({tc})(({x}) & ({y})))"),
                    BinOp::Or => format!("(({tc})(({x}) | ({y})))"),
                    BinOp::Xor => format!("(({tc})(({x}) ^ ({y})))"),
                    BinOp::Div => format!("{}({x}, {y})", self.helper(Helper::Div(k))),
                    BinOp::Rem => format!("{}({x}, {y})", self.helper(Helper::Rem(k))),
                    BinOp::Min => format!("{}({x}, {y})", self.helper(Helper::Min(k))),
                    BinOp::Max => format!("{}({x}, {y})", self.helper(Helper::Max(k))),
                }
            }
            Expr::Un(op, t, a) => {
                let x = self.expr(a);
                match (op, t) {
                    (UnOp::Neg, t) if t.is_float() => format!("(-{x})"),
                    (UnOp::Neg, t) => format!("(({})(({u})0 - ({u})({x})))", t.c(), u = t.arith_unsigned()),
                    (UnOp::Not, Ty::Bool) => format!("(!{x})"),
                    (UnOp::Not, t) => format!("(({})(~({})({x})))", t.c(), t.arith_unsigned()),
                }
            }
            Expr::Cast(t, a) => {
                let from = a.ty(p);
                let x = self.expr(a);
                if *t == Ty::Bool {
                    format!("(({x}) != 0)")
                } else if from.is_float() && !t.is_float() {
                    format!("{}({x})", self.helper(Helper::Cvt(TyKey::of(*t), TyKey::of(from))))
                } else {
                    format!("(({})({x}))", t.c())
                }
            }
            Expr::Cmp(op, a, b) => format!("({} {} {})", self.expr(a), op.c(), self.expr(b)),
            Expr::Logic(and, a, b) => format!("({} {} {})", self.expr(a), if *and { "&&" } else { "||" }, self.expr(b)),
            Expr::Select(c, a, b) => {
                // Both arms in the result's type (promotions would widen `?:` otherwise).
                let t = a.ty(p).c();
                format!("({} ? ({t})({}) : ({t})({}))", self.expr(c), self.expr(a), self.expr(b))
            }
            Expr::Call(f, args) => {
                let xs: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{}f{f}({})", p.prefix, xs.join(", "))
            }
            Expr::Intrinsic(i, t, args) => {
                let mut xs: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                if matches!(i, Intrinsic::Fmin | Intrinsic::Fmax) {
                    // fmin(+0, -0) may be either zero (NVRTC's constant folding and its min
                    // instruction disagree): adding +0 makes it +0 either way.
                    let zero = if *t == Ty::F32 { "0.0f" } else { "0.0" };
                    return format!("({}({}) + {zero})", i.c(*t), xs.join(", "));
                }
                if *i == Intrinsic::Copysign {
                    // A NaN's sign is not specified: never copy it.
                    let nan = if *t == Ty::F32 {
                        format!("(__float_as_uint({y}) & 0x7fffffffu) > 0x7f800000u", y = xs[1])
                    } else {
                        format!("(unsigned long long)(__double_as_longlong({y}) & 0x7fffffffffffffffll) > 0x7ff0000000000000ull", y = xs[1])
                    };
                    let one = if *t == Ty::F32 { "1.0f" } else { "1.0" };
                    xs[1] = format!("({nan} ? {one} : {y})", y = xs[1]);
                }
                format!("{}({})", i.c(*t), xs.join(", "))
            }
            Expr::Load(b, idx) => {
                let i = self.index(idx);
                match b {
                    Buf::Const => format!("{}c[{i} & 15u]", p.prefix),
                    _ => format!("{}[{i} & {}u]", b.name(), BUF_LEN - 1),
                }
            }
            Expr::Elem(a, _, n, idx) => format!("{a}[{} & {}u]", self.index(idx), n - 1),
            Expr::Field(v, k, _) => format!("{v}.f{k}"),
            Expr::Special(s) => match s {
                Special::Tid => "(blockIdx.x * blockDim.x + threadIdx.x)".into(),
                Special::Lane => "(threadIdx.x & 31u)".into(),
                Special::ThreadIdx => "threadIdx.x".into(),
                Special::BlockIdx => "blockIdx.x".into(),
                Special::BlockDim => "blockDim.x".into(),
                Special::ParamN => "n".into(),
                Special::ParamF => "fs".into(),
            },
        }
    }

    /// An index: `size_t` arithmetic for 64-bit indices, `unsigned` otherwise.
    fn index(&mut self, idx: &Expr) -> String {
        let x = self.expr(idx);
        if idx.ty(self.p).bits() > 32 {
            format!("(size_t)({x})")
        } else {
            format!("(unsigned)({x})")
        }
    }

    fn lval(&mut self, l: &LVal) -> String {
        match l {
            LVal::Var(n, _) => n.clone(),
            LVal::Elem(a, _, n, idx) => format!("{a}[{} & {}u]", self.index(idx), n - 1),
            LVal::Field(v, k, _) => format!("{v}.f{k}"),
        }
    }

    /// The bits of a value of type `t`, as `unsigned long long` (for the hash). A NaN hashes
    /// as one value: its sign and payload are not specified (the hardware and a compiler's
    /// constant folding make different ones); so does a zero, whose sign NVRTC does not
    /// keep (it selects `a < b ? a : b` as a `min`, which orders -0 below +0). The tests
    /// are on the bits: NVRTC drops a float `x == x` test of some NaNs it computes.
    fn bits(t: Ty, x: &str) -> String {
        match t {
            Ty::F32 => format!(
                "((__float_as_uint({x}) & 0x7fffffffu) > 0x7f800000u ? 1ull : \
                 (__float_as_uint({x}) & 0x7fffffffu) == 0u ? 0ull : (unsigned long long)__float_as_uint({x}))"
            ),
            Ty::F64 => format!(
                "((unsigned long long)(__double_as_longlong({x}) & 0x7fffffffffffffffll) > 0x7ff0000000000000ull ? 1ull : \
                 (__double_as_longlong({x}) & 0x7fffffffffffffffll) == 0ll ? 0ull : (unsigned long long)__double_as_longlong({x}))"
            ),
            _ => format!("(unsigned long long)({x})"),
        }
    }

    fn block(&mut self, out: &mut String, body: &[Stmt], ind: usize) {
        for s in body {
            self.stmt(out, s, ind);
        }
    }

    fn stmt(&mut self, out: &mut String, s: &Stmt, ind: usize) {
        let pad = "  ".repeat(ind);
        let p = self.p;
        match s {
            Stmt::Decl(n, t, e) => {
                let x = self.expr(e);
                let _ = writeln!(out, "{pad}{} {n} = {x};", t.c());
            }
            Stmt::Array(n, t, init) => {
                let xs: Vec<String> = init.iter().map(|e| format!("({})({})", t.c(), self.expr(e))).collect();
                let _ = writeln!(out, "{pad}{} {n}[{}] = {{{}}};", t.c(), init.len(), xs.join(", "));
            }
            Stmt::Struct(n, si, init) => {
                let fs = &p.structs[*si].fields;
                let xs: Vec<String> = init.iter().zip(fs).map(|(e, t)| format!("({})({})", t.c(), self.expr(e))).collect();
                let _ = writeln!(out, "{pad}{}S{si} {n} = {{{}}};", p.prefix, xs.join(", "));
            }
            Stmt::Assign(l, e) => {
                let (x, y) = (self.lval(l), self.expr(e));
                let _ = writeln!(out, "{pad}{x} = {y};");
            }
            Stmt::If(c, t, e) => {
                let x = self.expr(c);
                if let ([Stmt::Break], true) | ([Stmt::Continue], true) = (t.as_slice(), e.is_empty()) {
                    let kw = if t[0] == Stmt::Break { "break" } else { "continue" };
                    let _ = writeln!(out, "{pad}if ({x}) {kw};");
                    return;
                }
                let _ = writeln!(out, "{pad}if ({x}) {{");
                self.block(out, t, ind + 1);
                if e.is_empty() {
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    let _ = writeln!(out, "{pad}}} else {{");
                    self.block(out, e, ind + 1);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            Stmt::For { var, ty, size_t, lo, hi, masked, step, body } => {
                let tc = if *size_t { "size_t" } else { ty.c() };
                let bound = match hi {
                    Expr::Int(_, v) if !masked => format!("({tc}){v}"),
                    e => format!("({tc})((unsigned)({}) & 7u)", self.expr(e)),
                };
                let _ = writeln!(out, "{pad}for ({tc} {var} = {lo}; {var} < {bound}; {var} += {step}) {{");
                self.block(out, body, ind + 1);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::While { var, bound, do_while, body } => {
                let _ = writeln!(out, "{pad}int {var} = 0;");
                if *do_while {
                    let _ = writeln!(out, "{pad}do {{");
                } else {
                    let _ = writeln!(out, "{pad}while ({var} < {bound}) {{");
                }
                // The counter steps first, so that `continue` cannot skip it.
                let _ = writeln!(out, "{pad}  {var}++;");
                self.block(out, body, ind + 1);
                if *do_while {
                    let _ = writeln!(out, "{pad}}} while ({var} < {bound});");
                } else {
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            Stmt::Switch(e, cases, default) => {
                let x = self.expr(e);
                let _ = writeln!(out, "{pad}switch ((unsigned)({x}) & 3u) {{");
                for (k, (body, brk)) in cases.iter().enumerate() {
                    let _ = writeln!(out, "{pad}case {k}: {{");
                    self.block(out, body, ind + 1);
                    let _ = writeln!(out, "{pad}}}{}", if *brk { " break;" } else { "" });
                }
                let _ = writeln!(out, "{pad}default: {{");
                self.block(out, default, ind + 1);
                let _ = writeln!(out, "{pad}}}");
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::Break => {
                let _ = writeln!(out, "{pad}break;");
            }
            Stmt::Continue => {
                let _ = writeln!(out, "{pad}continue;");
            }
            Stmt::Observe(e) => {
                let x = Self::bits(e.ty(p), &self.expr(e));
                let _ = writeln!(out, "{pad}h = (h ^ {x}) * 1099511628211ull;");
            }
            Stmt::Atomic(op, slot, e) => {
                let name = match op {
                    AtomicOp::Add => "atomicAdd",
                    AtomicOp::Or => "atomicOr",
                    AtomicOp::And => "atomicAnd",
                    AtomicOp::Xor => "atomicXor",
                    AtomicOp::Min => "atomicMin",
                    AtomicOp::Max => "atomicMax",
                };
                let x = self.expr(e);
                let _ = writeln!(out, "{pad}{name}(&acc[{slot}], (unsigned)({x}));");
            }
            Stmt::Shared { dst, ty, value, offset } => {
                let sh = format!("sh_{}", ty.tag());
                let x = self.expr(value);
                let _ = writeln!(out, "{pad}{sh}[threadIdx.x] = {x};");
                let _ = writeln!(out, "{pad}__syncthreads();");
                let _ = writeln!(out, "{pad}{dst} = {sh}[(threadIdx.x + {offset}u) % blockDim.x];");
                let _ = writeln!(out, "{pad}__syncthreads();");
            }
            Stmt::Warp { dst, ty, op, value, arg } => {
                let x = self.expr(value);
                let call = match op {
                    WarpOp::Shfl => format!("__shfl_sync(0xffffffffu, ({})({x}), (int)((threadIdx.x + {arg}u) & 31u))", ty.c()),
                    WarpOp::ShflXor => format!("__shfl_xor_sync(0xffffffffu, ({})({x}), {arg})", ty.c()),
                    WarpOp::ShflDown => format!("__shfl_down_sync(0xffffffffu, ({})({x}), {arg}u)", ty.c()),
                    WarpOp::ShflUp => format!("__shfl_up_sync(0xffffffffu, ({})({x}), {arg}u)", ty.c()),
                    WarpOp::Ballot => format!("__ballot_sync(0xffffffffu, {x})"),
                    WarpOp::Any => format!("(__any_sync(0xffffffffu, {x}) != 0)"),
                    WarpOp::All => format!("(__all_sync(0xffffffffu, {x}) != 0)"),
                    WarpOp::Reduce(k) => {
                        let name = match k {
                            AtomicOp::Add => "add",
                            AtomicOp::Min => "min",
                            AtomicOp::Max => "max",
                            AtomicOp::And => "and",
                            AtomicOp::Or => "or",
                            AtomicOp::Xor => "xor",
                        };
                        format!("__reduce_{name}_sync(0xffffffffu, ({})({x}))", ty.c())
                    }
                    WarpOp::MatchAny => format!("__match_any_sync(0xffffffffu, {x})"),
                    WarpOp::MatchAll => {
                        let _ = writeln!(out, "{pad}{dst} = __match_all_sync(0xffffffffu, {x}, &mp);");
                        let _ = writeln!(out, "{pad}h = (h ^ (unsigned long long)mp) * 1099511628211ull;");
                        return;
                    }
                };
                let _ = writeln!(out, "{pad}{dst} = {call};");
            }
            Stmt::Return(e) => {
                let x = self.expr(e);
                let _ = writeln!(out, "{pad}return {x};");
            }
            Stmt::Accum { ty, value, trips } => {
                let x = self.expr(value);
                let set = if *ty == Ty::F32 { format!("wf = fminf({x}, 1e30f);") } else { format!("wd = fmin({x}, 1e300);") };
                if *trips > 1 {
                    let _ = writeln!(out, "{pad}for (int wk = 0; wk < {trips}; ++wk) {set}");
                } else {
                    let _ = writeln!(out, "{pad}{set}");
                }
            }
        }
    }

    /// The shared-memory element types the kernel exchanges.
    fn shared_types(body: &[Stmt], out: &mut BTreeSet<TyKey>) {
        for s in body {
            match s {
                Stmt::Shared { ty, .. } => {
                    out.insert(TyKey::of(*ty));
                }
                Stmt::If(_, a, b) => {
                    Self::shared_types(a, out);
                    Self::shared_types(b, out);
                }
                Stmt::For { body, .. } | Stmt::While { body, .. } => Self::shared_types(body, out),
                Stmt::Switch(_, cases, d) => {
                    for (c, _) in cases {
                        Self::shared_types(c, out);
                    }
                    Self::shared_types(d, out);
                }
                _ => {}
            }
        }
    }

    fn helper_text(&self, h: Helper) -> String {
        let pre = &self.p.prefix;
        let dev = "__device__ __forceinline__";
        match h {
            Helper::Div(k) if k.ty().is_float() => {
                let (t, tc) = (k.ty().tag(), k.ty().c());
                format!("{dev} {tc} {pre}div_{t}({tc} a, {tc} b) {{ return a / b; }}\n")
            }
            Helper::Div(k) | Helper::Rem(k) => {
                let t = k.ty();
                let (name, op) = if matches!(h, Helper::Div(_)) { ("div", "/") } else { ("rem", "%") };
                let tc = t.c();
                let guard = if t.signed() { format!("b == 0 || (a == {} && b == ({tc})-1)", min_lit(t)) } else { "b == 0".into() };
                format!("{dev} {tc} {pre}{name}_{}({tc} a, {tc} b) {{ return ({guard}) ? a : ({tc})(a {op} b); }}\n", t.tag())
            }
            Helper::Min(k) | Helper::Max(k) => {
                let t = k.ty();
                let (name, op) = if matches!(h, Helper::Min(_)) { ("min", "<") } else { ("max", ">") };
                let tc = t.c();
                format!("{dev} {tc} {pre}{name}_{}({tc} a, {tc} b) {{ return a {op} b ? a : b; }}\n", t.tag())
            }
            Helper::Cvt(to, from) => {
                let (t, f) = (to.ty(), from.ty());
                let (lo, hi, via) = match t {
                    Ty::I8 | Ty::I16 | Ty::I32 => ("-2147483649.0", "2147483648.0", "int"),
                    Ty::U8 | Ty::U16 | Ty::U32 => ("-1.0", "4294967296.0", "unsigned"),
                    Ty::I64 => ("-9223372036854775808.0", "9223372036854775808.0", "long long"),
                    _ => ("-1.0", "18446744073709551616.0", "unsigned long long"),
                };
                format!(
                    "{dev} {tc} {pre}cvt_{}_{}({fc} x) {{ return (x > {lo} && x < {hi}) ? ({tc})({via})x : ({tc})0; }}\n",
                    t.tag(),
                    f.tag(),
                    tc = t.c(),
                    fc = f.c()
                )
            }
        }
    }
}

/// The program as a standalone `.cu` file.
pub fn source(p: &Program) -> String {
    let mut pr = Printer { p, helpers: BTreeSet::new(), in_kernel: false };
    let pre = &p.prefix;
    let mut funcs = String::new();
    for (i, f) in p.funcs.iter().enumerate() {
        let ps: Vec<String> = f.params.iter().map(|(n, t)| format!("{} {n}", t.c())).collect();
        let inl = if f.noinline { "__noinline__ " } else { "" };
        let _ = writeln!(funcs, "__device__ {inl}{} {pre}f{i}({}) {{", f.ret.c(), ps.join(", "));
        pr.block(&mut funcs, &f.body, 1);
        funcs.push_str("}\n\n");
    }
    pr.in_kernel = true;
    let mut kernel = String::new();
    let channel = if p.ulp_bound.is_some() { ", float *out_wf, double *out_wd" } else { "" };
    let _ = writeln!(
        kernel,
        "__global__ void {pre}kernel(const int *in_i, const int *in_s, const float *in_f, const double *in_d,\n    \
         unsigned long long *out_h, float *out_f, double *out_d, unsigned *acc, int n, float fs{channel}) {{"
    );
    kernel.push_str("  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;\n");
    if p.ulp_bound.is_some() {
        kernel.push_str("  float wf = 1.0f;\n  double wd = 1.0;\n");
    }
    kernel.push_str("  unsigned long long h = 14695981039346656037ull;\n");
    kernel.push_str("  int mp = 0;\n");
    let mut shared = BTreeSet::new();
    Printer::shared_types(&p.body, &mut shared);
    for k in shared {
        let t = k.ty();
        let _ = writeln!(kernel, "  __shared__ {} sh_{}[{}];", t.c(), t.tag(), p.block);
    }
    pr.block(&mut kernel, &p.body, 1);
    // Every variable of the kernel's top level goes into the result: floats and doubles
    // (the first few) to their own outputs, everything into the hash.
    let (mut nf, mut nd) = (0, 0);
    for s in &p.body {
        let vals: Vec<(String, Ty)> = match s {
            Stmt::Decl(n, t, _) => vec![(n.clone(), *t)],
            Stmt::Array(n, t, init) => (0..init.len()).map(|i| (format!("{n}[{i}]"), *t)).collect(),
            Stmt::Struct(n, si, _) => p.structs[*si].fields.iter().enumerate().map(|(k, t)| (format!("{n}.f{k}"), *t)).collect(),
            _ => vec![],
        };
        for (x, t) in vals {
            let _ = writeln!(kernel, "  h = (h ^ {}) * 1099511628211ull;", Printer::bits(t, &x));
            // Zeros written as +0 (see `bits`).
            if t == Ty::F32 && nf < OUT_F {
                let _ = writeln!(kernel, "  out_f[tid * {OUT_F} + {nf}] = (__float_as_uint({x}) & 0x7fffffffu) == 0u ? 0.0f : {x};");
                nf += 1;
            } else if t == Ty::F64 && nd < OUT_F {
                let _ = writeln!(
                    kernel,
                    "  out_d[tid * {OUT_F} + {nd}] = (__double_as_longlong({x}) & 0x7fffffffffffffffll) == 0ll ? 0.0 : {x};"
                );
                nd += 1;
            }
        }
    }
    if p.ulp_bound.is_some() {
        kernel.push_str("  out_wf[tid] = wf;\n  out_wd[tid] = wd;\n");
    }
    kernel.push_str("  out_h[tid] = h;\n}\n");

    let mut out = String::new();
    let _ = writeln!(out, "// Random program {} (cuprite-randprog): UB-free by construction.", p.seed);
    if let Some((f, d)) = p.ulp_bound {
        let _ = writeln!(out, "{ULP_BOUND_LINE}out_wf {f}, out_wd {d}");
    }
    for (i, s) in p.structs.iter().enumerate() {
        let fs: Vec<String> = s.fields.iter().enumerate().map(|(k, t)| format!("{} f{k};", t.c())).collect();
        let _ = writeln!(out, "struct {pre}S{i} {{ {} }};", fs.join(" "));
    }
    if !p.constants.is_empty() {
        let cs: Vec<String> = p.constants.iter().map(|c| int_lit(Ty::I32, *c as i128)).collect();
        let _ = writeln!(out, "__constant__ int {pre}c[16] = {{{}}};", cs.join(", "));
    }
    let helpers: Vec<Helper> = pr.helpers.iter().copied().collect();
    for h in helpers {
        out.push_str(&pr.helper_text(h));
    }
    out.push('\n');
    out.push_str(&funcs);
    out.push_str(&kernel);
    out
}

/// How a program states its contraction bound (see [`Program::ulp_bound`]) in its text, so
/// that a saved program (a regression test) is checked with it.
const ULP_BOUND_LINE: &str = "// ulp bound under contraction: ";

/// The bound a program's text states: `(out_wf, out_wd)` in ulps.
pub fn ulp_bound(src: &str) -> Option<(u64, u64)> {
    let rest = src.lines().find_map(|l| l.strip_prefix(ULP_BOUND_LINE))?;
    let mut it = rest.split(", ").map(|kv| kv.rsplit(' ').next().and_then(|v| v.parse().ok()));
    Some((it.next()??, it.next()??))
}

/// The launch spec (one `[[launch]]` table).
pub fn spec(p: &Program) -> String {
    let t = p.threads();
    let channel =
        if p.ulp_bound.is_some() { format!("  \"out_wf:f32[{t}]=zeros\",\n  \"out_wd:f64[{t}]=zeros\",\n") } else { String::new() };
    let s = p.seed.wrapping_mul(4) % 1_000_000_007;
    format!(
        "[[launch]]\nkernel = \"{k}\"\ngrid = {g}\nblock = {b}\nargs = [\n  \"in_i:i32[{n}]=random:{s}:-2147483648:2147483648\",\n  \
         \"in_s:i32[{n}]=random:{s1}:-8:9\",\n  \"in_f:f32[{n}]=random:{s2}:-100:100\",\n  \"in_d:f64[{n}]=random:{s3}:-100:100\",\n  \
         \"out_h:u64[{t}]=zeros\",\n  \"out_f:f32[{tf}]=zeros\",\n  \"out_d:f64[{tf}]=zeros\",\n  \"acc:u32[{a}]=random:{s4}:0:4294967296\",\n  \
         \"n:i32={nv}\",\n  \"fs:f32={fv}\",\n{channel}]\n",
        k = p.kernel_name(),
        g = p.grid,
        b = p.block,
        n = BUF_LEN,
        s1 = s + 1,
        s2 = s + 2,
        s3 = s + 3,
        s4 = s + 4,
        tf = t as usize * OUT_F,
        a = ACC_LEN,
        nv = (p.seed % 13) as i64 - 3,
        fv = ((p.seed % 7) as f64 - 2.5) * 1.25,
    )
}
