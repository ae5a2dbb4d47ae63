//! The rules, written once in a small s-expression language and read by both drivers
//! (the e-graph's searcher and applier in [`super::egraph`], the greedy patterns in
//! [`super::greedy`]).
//!
//! ```text
//! name: LHS => RHS [if COND ...]
//! ```
//!
//! * A pattern is `?x` (any value; the same name twice is the same value), an integer
//!   literal (a constant of that value), `(op child ...)` with `op` one of
//!   [`Op::parse`]'s names (`add`, `add.nsw`, `icmp.ult`, `umulhi`, `zext`, ...), or on the
//!   right side `{f arg ...}`: a constant computed from the matched constants (see
//!   [`Meta`]).
//! * `op:W` fixes the width: `W` is a number of bits or a variable (`zext:?x` has `?x`'s
//!   type). On the left side it restricts the match; on the right it gives the type, which
//!   otherwise comes from the parent (a binary op's operands have its type, the right
//!   side's root has the matched root's). Operands of comparisons and casts have no type
//!   from their parent: give their constants a width.
//! * `?m=(pattern)` on the left side binds the value the pattern matches to `?m`, for
//!   conditions about it.
//! * Conditions (see [`Pred`]) are read on the facts of the matched values ([`Facts`]):
//!   constants, ranges and known bits; `one-use` and `not-fusable` ask the driver how the
//!   code around uses a value ([`MatchEnv`]). `?_` names the matched root.
//!
//! A rule is `simplify` (each application makes the code no worse, so a greedy driver may
//! apply it whenever it matches) or `explore` (an equality that is only worth having among
//! the alternatives an e-graph keeps: commutativity, narrowing to 32 bits through `trunc`
//! and `zext`; a greedy driver that applied them would cycle or make the code worse). The
//! greedy driver runs the `simplify` rules; equality saturation runs all of them.

use super::facts::Facts;
use super::lang::{sext_bits, zext_bits, Op};

/// Whether a greedy driver may run a rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Simplify,
    Explore,
}

/// A width on a pattern node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Width {
    Any,
    Bits(u32),
    /// The type of variable `n`.
    Of(usize),
    /// `?_`: the matched root's type.
    Root,
}

/// A constant computed from matched constants on a rule's right side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Meta {
    /// `{log2 c}`: `k` for `c = 2^k`.
    Log2,
    /// `{sub1 c}`: `c - 1`.
    Sub1,
    /// `{neg c}`: `-c`.
    Neg,
    /// `{pow2 k}`: `2^k`.
    Pow2,
    /// `{add a b}`, `{mul a b}`: the sum and product, wrapped to the width.
    Add,
    Mul,
    /// `{trunc c}`: `c` at the node's width.
    Trunc,
    /// `{top x}`: the width of `x` less one (the sign bit's index).
    Top,
    /// `{bias-shift c}`: the width less `log2 c` (the shift that makes the rounding bias of a
    /// signed division by `c = 2^k` from the sign).
    BiasShift,
    /// `{smagic c}` and `{sshift c}`: the multiplier (a signed number of the width) and
    /// shift of signed division by the constant `c` ([`smagic`]).
    SMagic,
    SShift,
    /// `{umagic c x}` and `{ushift c x}`: the multiplier and shift of unsigned division of
    /// `x` by the constant `c` ([`umagic`]; for the add variant, the multiplier less `2^w`
    /// and the shift less one).
    UMagic,
    UShift,
    /// `{sign-low c}`: the sign bit and the bits below `c = 2^k` (`0x80000003` for 4 at 32
    /// bits): what decides `x % c == d` for `0 < d < c` (a negative `x` has a negative
    /// remainder).
    SignLow,
}

impl Meta {
    fn parse(s: &str) -> Option<Meta> {
        Some(match s {
            "log2" => Meta::Log2,
            "sub1" => Meta::Sub1,
            "neg" => Meta::Neg,
            "pow2" => Meta::Pow2,
            "add" => Meta::Add,
            "mul" => Meta::Mul,
            "trunc" => Meta::Trunc,
            "top" => Meta::Top,
            "bias-shift" => Meta::BiasShift,
            "umagic" => Meta::UMagic,
            "smagic" => Meta::SMagic,
            "sshift" => Meta::SShift,
            "ushift" => Meta::UShift,
            "sign-low" => Meta::SignLow,
            _ => return None,
        })
    }
}

/// A condition's predicate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pred {
    /// `(const a)`: a known constant.
    Const,
    /// `(pow2 a)`: a constant power of two greater than 1.
    Pow2,
    /// `(divisor a)`: a constant greater than 1 and not a power of two.
    Divisor,
    /// `(pos a)`: greater than zero (signed).
    Pos,
    /// `(nonneg a)`: at least zero (signed).
    Nonneg,
    /// `(ult a b)`, `(ule a b)`, `(slt a b)`, `(sle a b)`: for every value in the ranges.
    Ult,
    Ule,
    Slt,
    Sle,
    /// `(same-type a b)`.
    SameType,
    /// `(covers m x)`: constant mask `m` keeps every bit `x` can have set (by its known
    /// bits, [`Facts::zeros`]).
    Covers,
    /// `(fits-u a N)`, `(fits-s a N)`: the value fits `N` bits unsigned / signed (`N` a
    /// number or a variable, whose width it is).
    FitsU,
    FitsS,
    /// `(magic c x)`: `x / c` is `umulhi(x, m) >> s` with `m < 2^w`; `(magic-add c x)`:
    /// it needs the 33-bit multiplier (the add-and-halve variant).
    Magic,
    MagicAdd,
    /// `(smagic-pos c)`, `(smagic-neg c)`: `c` is a signed divisor greater than 1, not a
    /// power of two, whose multiplier ([`smagic`]) is non-negative / negative as a signed
    /// number (the negative one needs `x` added back after `mulhi`).
    SMagicPos,
    SMagicNeg,
    /// `(shift-sum a b)`: `a + b` is less than the width of `?_`.
    ShiftSum,
    /// `(disjoint a b)`: no bit can be set in both (by their known bits).
    Disjoint,
    /// `(carry-free x c k)`: the low `k` bits of `x` are known zero and the constant `c` is
    /// below `2^k` (`x + c` carries nothing out of those bits).
    CarryFree,
    /// `(clear-below x m)`: the bits of `x` up to the highest bit of the constant `m` are
    /// known zero (so `(x + c) & m` is `c & m`).
    ClearBelow,
    /// `(one-use m)`: one operation reads `m` (instruction selection's condition for
    /// fusing it: a value others read too would be computed twice).
    OneUse,
    /// `(not-fusable c)`: `c` is not a one-use contractible product (of two products, the
    /// first operand's is the one fused, as instruction selection and NVRTC choose).
    NotFusable,
}

impl Pred {
    fn parse(s: &str) -> Option<(Pred, usize)> {
        Some(match s {
            "const" => (Pred::Const, 1),
            "pow2" => (Pred::Pow2, 1),
            "divisor" => (Pred::Divisor, 1),
            "pos" => (Pred::Pos, 1),
            "nonneg" => (Pred::Nonneg, 1),
            "ult" => (Pred::Ult, 2),
            "ule" => (Pred::Ule, 2),
            "slt" => (Pred::Slt, 2),
            "sle" => (Pred::Sle, 2),
            "same-type" => (Pred::SameType, 2),
            "covers" => (Pred::Covers, 2),
            "fits-u" => (Pred::FitsU, 2),
            "fits-s" => (Pred::FitsS, 2),
            "magic" => (Pred::Magic, 2),
            "magic-add" => (Pred::MagicAdd, 2),
            "shift-sum" => (Pred::ShiftSum, 2),
            "disjoint" => (Pred::Disjoint, 2),
            "one-use" => (Pred::OneUse, 1),
            "carry-free" => (Pred::CarryFree, 3),
            "clear-below" => (Pred::ClearBelow, 2),
            "not-fusable" => (Pred::NotFusable, 1),
            "smagic-pos" => (Pred::SMagicPos, 1),
            "smagic-neg" => (Pred::SMagicNeg, 1),
            _ => return None,
        })
    }
}

/// An argument of a condition or a computed constant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Var(usize),
    /// `?_`: the matched root.
    Root,
    Int(i128),
}

/// A node of a pattern; children are indices into the same arena, which lists children
/// before parents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Var(usize),
    Lit(i128, Width),
    Node {
        op: Op,
        width: Width,
        args: Vec<usize>,
    },
    Meta {
        f: Meta,
        width: Width,
        args: Vec<Arg>,
    },
    /// `?m=(pattern)` on the left side: the pattern, its value bound to variable `var`
    /// (for conditions such as `one-use`).
    Bind {
        var: usize,
        pat: usize,
    },
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    pub pred: Pred,
    pub args: Vec<Arg>,
}

/// A rule: `lhs` rewrites to `rhs` when every condition holds.
#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub kind: Kind,
    pub vars: Vec<String>,
    /// Arena of the left side; the root is the last node.
    pub lhs: Vec<Pat>,
    /// Arena of the right side; the root is the last node.
    pub rhs: Vec<Pat>,
    pub conds: Vec<Cond>,
    /// The source text, for `--list-rules` and errors.
    pub text: String,
}

/// A rule text's parse error.
#[derive(Debug)]
pub struct RuleError(pub String);

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | ')' | '{' | '}' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(ch.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

struct Parser<'a> {
    toks: Vec<String>,
    pos: usize,
    vars: &'a mut Vec<String>,
    rhs: bool,
}

impl Parser<'_> {
    fn next(&mut self) -> Result<String, RuleError> {
        let t = self.toks.get(self.pos).cloned().ok_or_else(|| RuleError("unexpected end of pattern".into()))?;
        self.pos += 1;
        Ok(t)
    }
    fn var(&mut self, name: &str, define: bool) -> Result<usize, RuleError> {
        if let Some(i) = self.vars.iter().position(|v| v == name) {
            return Ok(i);
        }
        if !define {
            return Err(RuleError(format!("variable {name} is not bound by the left side")));
        }
        self.vars.push(name.to_string());
        Ok(self.vars.len() - 1)
    }
    fn width(&mut self, s: &str) -> Result<Width, RuleError> {
        if s == "?_" {
            return Ok(Width::Root);
        }
        if s.starts_with('?') {
            return Ok(Width::Of(self.var(s, false)?));
        }
        s.parse::<u32>().ok().filter(|w| (1..=64).contains(w)).map(Width::Bits).ok_or_else(|| RuleError(format!("bad width '{s}'")))
    }
    fn split<'s>(&mut self, head: &'s str) -> Result<(&'s str, Width), RuleError> {
        match head.split_once(':') {
            Some((n, w)) => Ok((n, self.width(w)?)),
            None => Ok((head, Width::Any)),
        }
    }
    fn arg(&mut self, t: &str) -> Result<Arg, RuleError> {
        if t == "?_" {
            Ok(Arg::Root)
        } else if t.starts_with('?') {
            Ok(Arg::Var(self.var(t, false)?))
        } else {
            t.parse::<i128>().map(Arg::Int).map_err(|_| RuleError(format!("bad argument '{t}'")))
        }
    }
    /// Parses one pattern into `arena`, returning its index.
    fn pat(&mut self, arena: &mut Vec<Pat>) -> Result<usize, RuleError> {
        let t = self.next()?;
        let p = match t.as_str() {
            "(" => {
                let head = self.next()?;
                let (name, width) = self.split(&head)?;
                let op = Op::parse(name).ok_or_else(|| RuleError(format!("unknown operator '{name}'")))?;
                let mut args = Vec::new();
                while self.toks.get(self.pos).map(String::as_str) != Some(")") {
                    args.push(self.pat(arena)?);
                }
                self.pos += 1;
                if args.len() != op.arity() {
                    return Err(RuleError(format!("'{name}' takes {} operands, got {}", op.arity(), args.len())));
                }
                Pat::Node { op, width, args }
            }
            "{" => {
                if !self.rhs {
                    return Err(RuleError("computed constants {...} belong on the right side".into()));
                }
                let head = self.next()?;
                let (name, width) = self.split(&head)?;
                let f = Meta::parse(name).ok_or_else(|| RuleError(format!("unknown constant function '{name}'")))?;
                let mut args = Vec::new();
                loop {
                    let t = self.next()?;
                    if t == "}" {
                        break;
                    }
                    args.push(self.arg(&t)?);
                }
                Pat::Meta { f, width, args }
            }
            t if t.starts_with('?') && t.ends_with('=') && t.len() > 2 => {
                if self.rhs {
                    return Err(RuleError(format!("'{t}' binds a pattern: only on the left side")));
                }
                let var = self.var(&t[..t.len() - 1], true)?;
                let pat = self.pat(arena)?;
                Pat::Bind { var, pat }
            }
            t if t.starts_with('?') => Pat::Var(self.var(t, !self.rhs)?),
            t => {
                let (n, width) = self.split(t)?;
                Pat::Lit(n.parse::<i128>().map_err(|_| RuleError(format!("bad token '{t}'")))?, width)
            }
        };
        arena.push(p);
        Ok(arena.len() - 1)
    }
}

impl Rule {
    /// Parses `name: LHS => RHS [if COND ...]`.
    pub fn parse(text: &str, kind: Kind) -> Result<Rule, RuleError> {
        let err = |m: String| RuleError(format!("rule '{text}': {m}"));
        let (name, body) = text.split_once(':').ok_or_else(|| err("expected 'name: lhs => rhs'".into()))?;
        let (lhs_text, rest) = body.split_once("=>").ok_or_else(|| err("expected '=>'".into()))?;
        let (rhs_text, cond_text) = match rest.split_once(" if ") {
            Some((r, c)) => (r, c),
            None => (rest, ""),
        };
        let mut vars = Vec::new();
        let mut lhs = Vec::new();
        let mut p = Parser { toks: tokens(lhs_text), pos: 0, vars: &mut vars, rhs: false };
        p.pat(&mut lhs).map_err(|e| err(e.0))?;
        if p.pos != p.toks.len() || !matches!(lhs.last(), Some(Pat::Node { .. })) {
            return Err(err("the left side must be one operator pattern".into()));
        }
        let mut rhs = Vec::new();
        let mut p = Parser { toks: tokens(rhs_text), pos: 0, vars: &mut vars, rhs: true };
        p.pat(&mut rhs).map_err(|e| err(e.0))?;
        if p.pos != p.toks.len() {
            return Err(err("trailing tokens after the right side".into()));
        }
        let mut conds = Vec::new();
        let mut p = Parser { toks: tokens(cond_text), pos: 0, vars: &mut vars, rhs: true };
        while p.pos < p.toks.len() {
            if p.next().map_err(|e| err(e.0))? != "(" {
                return Err(err("a condition is '(pred arg ...)'".into()));
            }
            let name = p.next().map_err(|e| err(e.0))?;
            let (pred, n) = Pred::parse(&name).ok_or_else(|| err(format!("unknown condition '{name}'")))?;
            let mut args = Vec::new();
            loop {
                let t = p.next().map_err(|e| err(e.0))?;
                if t == ")" {
                    break;
                }
                args.push(p.arg(&t).map_err(|e| err(e.0))?);
            }
            if args.len() != n {
                return Err(err(format!("condition '{name}' takes {n} arguments")));
            }
            conds.push(Cond { pred, args });
        }
        Ok(Rule { name: name.trim().to_string(), kind, vars, lhs, rhs, conds, text: text.to_string() })
    }

    /// Whether every condition holds, given the facts of the variables and of the root,
    /// and what the driver knows of the code around the match (`env`).
    pub fn check(&self, vars: &[Facts], root: &Facts, env: &dyn MatchEnv) -> bool {
        self.conds.iter().all(|c| match (c.pred, c.args.first()) {
            (Pred::OneUse, Some(Arg::Var(i))) => env.uses(*i) == 1,
            (Pred::NotFusable, Some(Arg::Var(i))) => !(env.uses(*i) == 1 && env.is_product(*i)),
            (Pred::OneUse | Pred::NotFusable, _) => false,
            _ => holds(c, vars, root),
        })
    }
}

/// What a driver knows of a match beyond the facts of its values: how the code around it
/// uses them.
pub trait MatchEnv {
    /// How many operations read variable `i`'s value (`u32::MAX`: unknown, or read where
    /// the rule's right side cannot reach).
    fn uses(&self, i: usize) -> u32;
    /// Whether variable `i`'s value is a float product that may contract
    /// (`fmul.contract`).
    fn is_product(&self, i: usize) -> bool;
}

/// A [`MatchEnv`] that knows nothing (every use count unknown): rules that ask fail.
pub struct NoEnv;

impl MatchEnv for NoEnv {
    fn uses(&self, _: usize) -> u32 {
        u32::MAX
    }
    fn is_product(&self, _: usize) -> bool {
        false
    }
}

fn facts<'a>(a: &Arg, vars: &'a [Facts], root: &'a Facts) -> Option<&'a Facts> {
    match a {
        Arg::Var(i) => vars.get(*i),
        Arg::Root => Some(root),
        Arg::Int(_) => None,
    }
}

fn int(a: &Arg, vars: &[Facts], root: &Facts) -> Option<i128> {
    match a {
        Arg::Int(n) => Some(*n),
        _ => facts(a, vars, root)?.konst(),
    }
}

fn holds(c: &Cond, vars: &[Facts], root: &Facts) -> bool {
    let f = |i: usize| facts(&c.args[i], vars, root);
    let k = |i: usize| int(&c.args[i], vars, root);
    let uk = |i: usize| Some(zext_bits(k(i)?, f(i)?.width));
    (|| -> Option<bool> {
        Some(match c.pred {
            Pred::Const => k(0).is_some(),
            Pred::Pow2 => {
                let v = uk(0)?;
                v > 1 && (v & (v - 1)) == 0 && v.trailing_zeros() < f(0)?.width
            }
            Pred::Divisor => {
                let v = uk(0)?;
                v > 1 && (v & (v - 1)) != 0
            }
            Pred::Pos => f(0)?.s.0 > 0,
            Pred::Nonneg => f(0)?.nonneg(),
            Pred::Ult => f(0)?.u.1 < f(1)?.u.0,
            Pred::Ule => f(0)?.u.1 <= f(1)?.u.0,
            Pred::Slt => f(0)?.s.1 < f(1)?.s.0,
            Pred::Sle => f(0)?.s.1 <= f(1)?.s.0,
            Pred::SameType => f(0)?.ty == f(1)?.ty,
            Pred::Covers => {
                // The bits `x` may have set: those not known zero (which include the bits
                // above its unsigned range's top).
                let (m, x) = (uk(0)? as u128, f(1)?);
                let maybe = !x.zeros & super::bits::mask(x.width);
                maybe & !m == 0
            }
            Pred::FitsU | Pred::FitsS => {
                // A number of bits, or the width of a variable.
                let n = match c.args[1] {
                    Arg::Int(n) => n as u32,
                    _ => f(1)?.width,
                };
                let x = f(0)?;
                (1..=64).contains(&n)
                    && x.width > 0
                    && if c.pred == Pred::FitsU { x.u.1 < (1i128 << n) } else { x.s.0 >= -(1i128 << (n - 1)) && x.s.1 < (1i128 << (n - 1)) }
            }
            Pred::Magic | Pred::MagicAdd => {
                let (d, x) = (uk(0)?, f(1)?);
                let m = umagic(d, x.width, x.u.1)?;
                m.add == (c.pred == Pred::MagicAdd)
            }
            Pred::SMagicPos | Pred::SMagicNeg => {
                let (d, w) = (k(0)?, f(0)?.width);
                let v = zext_bits(d, w);
                if d < 2 || v & (v - 1) == 0 {
                    return Some(false);
                }
                let (m, _) = smagic(d, w)?;
                (m >= 0) == (c.pred == Pred::SMagicPos)
            }
            Pred::OneUse | Pred::NotFusable => false,
            Pred::CarryFree => {
                let (x, c, k) = (f(0)?, uk(1)?, uk(2)?);
                let low = super::bits::mask(k.try_into().ok()?);
                x.width > 0 && k < x.width as i128 && c < (1i128 << k) && x.zeros & low == low
            }
            Pred::ClearBelow => {
                let (x, m) = (f(0)?, uk(1)? as u128);
                let low = super::bits::mask(128 - m.leading_zeros());
                x.width > 0 && x.zeros & low == low
            }
            Pred::Disjoint => {
                let (a, b) = (f(0)?, f(1)?);
                let m = super::bits::mask(a.width);
                a.width > 0 && (!a.zeros & m) & (!b.zeros & m) == 0
            }
            Pred::ShiftSum => {
                let s = uk(0)?.checked_add(uk(1)?)?;
                s < root.width as i128
            }
        })
    })()
    .unwrap_or(false)
}

/// The multiplier and shift of unsigned division by a constant (Granlund and Montgomery;
/// Hacker's Delight 10-8): `floor(x / d) == (x * m) >> (w + s)` for every `x <= xmax`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The multiplier; for `add`, less `2^w` (it needs `w + 1` bits).
    pub m: i128,
    pub s: u32,
    /// `q = (((x - t) >> 1) + t) >> (s - 1)` with `t = umulhi(x, m)`, else
    /// `q = umulhi(x, m) >> s`.
    pub add: bool,
}

/// The magic numbers for dividing `w`-bit values up to `xmax` by `d` (`1 < d < 2^w`).
/// With `m = ceil(2^(w+s) / d)` and `e = m*d - 2^(w+s)`, `x*m / 2^(w+s) = x/d + x*e/(d*2^(w+s))`,
/// so the floors agree when `x*e < 2^(w+s)` (the error stays below `1/d`). The smallest such
/// `s` with `m < 2^w` gives the short form; failing that, the smallest with `m < 2^(w+1)`
/// (which always exists for `s = ceil(log2 d)`) the add form.
pub fn umagic(d: i128, w: u32, xmax: i128) -> Option<Magic> {
    if !(2..=64).contains(&w) || d < 2 || d >= (1i128 << w) || xmax < 0 {
        return None;
    }
    let ok = |s: u32| -> Option<i128> {
        let k = w + s;
        if k > 126 {
            return None;
        }
        let p = 1i128 << k;
        let m = (p + d - 1) / d;
        let e = m * d - p;
        (e.checked_mul(xmax)? < p).then_some(m)
    };
    for s in 0..=w {
        if let Some(m) = ok(s) {
            if m < (1i128 << w) {
                return Some(Magic { m, s, add: false });
            }
        }
    }
    for s in 1..=w {
        if let Some(m) = ok(s) {
            if m < (1i128 << (w + 1)) {
                return Some(Magic { m: m - (1i128 << w), s: s - 1, add: true });
            }
        }
    }
    None
}

/// The multiplier `m` (a signed `w`-bit number) and shift `s` of signed division by the
/// constant `d` (`2 <= |d|`, Hacker's Delight 10-1): with `q = mulhi(x, m)` (plus `x` when
/// `d > 0` and `m < 0`), `q >> s` (arithmetic) plus its sign bit is `x / d` rounded toward
/// zero, for every `w`-bit `x`.
pub fn smagic(d: i128, w: u32) -> Option<(i128, u32)> {
    if !(2..=64).contains(&w) || d.unsigned_abs() < 2 || d >= (1i128 << (w - 1)) || d < -(1i128 << (w - 1)) {
        return None;
    }
    let mask: u128 = (1u128 << w) - 1;
    let two = 1u128 << (w - 1);
    let ad = d.unsigned_abs();
    let t = two + (zext_bits(d, w) as u128 >> (w - 1));
    let anc = t - 1 - t % ad;
    let mut p = w - 1;
    let (mut q1, mut r1) = (two / anc, two - (two / anc) * anc);
    let (mut q2, mut r2) = (two / ad, two - (two / ad) * ad);
    loop {
        p += 1;
        q1 = (2 * q1) & mask;
        r1 = (2 * r1) & mask;
        if r1 >= anc {
            q1 = (q1 + 1) & mask;
            r1 = (r1 - anc) & mask;
        }
        q2 = (2 * q2) & mask;
        r2 = (2 * r2) & mask;
        if r2 >= ad {
            q2 = (q2 + 1) & mask;
            r2 = (r2 - ad) & mask;
        }
        let delta = (ad - r2) & mask;
        if !(q1 < delta || (q1 == delta && r1 == 0)) || p > 2 * w {
            break;
        }
    }
    let m = sext_bits(((q2 + 1) & mask) as i128, w);
    let m = if d < 0 { sext_bits(-m, w) } else { m };
    Some((m, p - w))
}

/// The value of computed constant `f` on `args` at width `w`.
pub fn meta(f: Meta, args: &[Arg], w: u32, vars: &[Facts], root: &Facts) -> Option<i128> {
    let k = |i: usize| int(args.get(i)?, vars, root);
    let fw = |i: usize| facts(args.get(i)?, vars, root).map(|f| f.width);
    let uk = |i: usize| Some(zext_bits(k(i)?, fw(i).unwrap_or(w)));
    let r = match f {
        Meta::Log2 => {
            let v = uk(0)?;
            (v > 0 && v & (v - 1) == 0).then(|| v.trailing_zeros() as i128)?
        }
        Meta::Sub1 => k(0)? - 1,
        Meta::Neg => -k(0)?,
        Meta::Pow2 => {
            let s = uk(0)?;
            (s < 64).then(|| 1i128 << s)?
        }
        Meta::Add => k(0)?.wrapping_add(k(1)?),
        Meta::Mul => zext_bits(uk(0)?.wrapping_mul(uk(1)?), w),
        Meta::Trunc => k(0)?,
        Meta::SignLow => {
            let v = uk(0)?;
            (v > 1 && v & (v - 1) == 0 && w >= 2).then(|| sext_bits((1i128 << (w - 1)) | (v - 1), w))?
        }
        Meta::Top => fw(0)? as i128 - 1,
        Meta::BiasShift => {
            let v = uk(0)?;
            (v > 0 && v & (v - 1) == 0).then(|| fw(0).unwrap_or(w) as i128 - v.trailing_zeros() as i128)?
        }
        Meta::SMagic | Meta::SShift => {
            let (m, sh) = smagic(k(0)?, fw(0)?)?;
            if f == Meta::SMagic {
                m
            } else {
                sh as i128
            }
        }
        Meta::UMagic | Meta::UShift => {
            let x = facts(args.get(1)?, vars, root)?;
            let m = umagic(uk(0)?, x.width, x.u.1)?;
            if f == Meta::UMagic {
                m.m
            } else {
                m.s as i128
            }
        }
    };
    Some(sext_bits(r, w))
}

/// The rule table: every rule both drivers know, in one place.
pub fn rules() -> Vec<Rule> {
    use Kind::*;
    let mut texts: Vec<(String, Kind)> = [
        // Identities.
        ("add-zero: (add ?x 0) => ?x", Simplify),
        ("sub-zero: (sub ?x 0) => ?x", Simplify),
        ("sub-self: (sub ?x ?x) => 0", Simplify),
        ("mul-zero: (mul ?x 0) => 0", Simplify),
        ("mul-one: (mul ?x 1) => ?x", Simplify),
        ("shl-zero: (shl ?x 0) => ?x", Simplify),
        ("lshr-zero: (lshr ?x 0) => ?x", Simplify),
        ("ashr-zero: (ashr ?x 0) => ?x", Simplify),
        ("and-self: (and ?x ?x) => ?x", Simplify),
        ("or-self: (or ?x ?x) => ?x", Simplify),
        ("xor-self: (xor ?x ?x) => 0", Simplify),
        ("and-zero: (and ?x 0) => 0", Simplify),
        ("or-zero: (or ?x 0) => ?x", Simplify),
        ("xor-zero: (xor ?x 0) => ?x", Simplify),
        ("select-same: (select ?c ?x ?x) => ?x", Simplify),
        ("select-true: (select 1 ?x ?y) => ?x", Simplify),
        ("select-false: (select 0 ?x ?y) => ?y", Simplify),
        // A predicate compared with a constant is the predicate (or its negation's user).
        ("icmp-ne-false: (icmp.ne ?p 0) => ?p if (same-type ?p ?_)", Simplify),
        ("icmp-eq-true: (icmp.eq ?p 1) => ?p if (same-type ?p ?_)", Simplify),
        // Constants combine.
        ("add-add-const: (add (add ?x ?a) ?b) => (add ?x {add ?a ?b}) if (const ?a) (const ?b)", Simplify),
        ("mul-mul-const: (mul (mul ?x ?a) ?b) => (mul ?x {mul ?a ?b}) if (const ?a) (const ?b)", Simplify),
        ("shl-shl-const: (shl (shl ?x ?a) ?b) => (shl ?x {add ?a ?b}) if (const ?a) (const ?b) (shift-sum ?a ?b)", Simplify),
        ("lshr-lshr-const: (lshr (lshr ?x ?a) ?b) => (lshr ?x {add ?a ?b}) if (const ?a) (const ?b) (shift-sum ?a ?b)", Simplify),
        // Strength reduction by constants.
        ("mul-pow2-to-shl: (mul ?x ?c) => (shl ?x {log2 ?c}) if (pow2 ?c)", Simplify),
        ("udiv-pow2-to-lshr: (udiv ?x ?c) => (lshr ?x {log2 ?c}) if (pow2 ?c)", Simplify),
        ("urem-pow2-to-and: (urem ?x ?c) => (and ?x {sub1 ?c}) if (pow2 ?c)", Simplify),
        ("udiv-const-to-mulhi: (udiv ?x ?c) => (lshr (umulhi ?x {umagic ?c ?x}) {ushift ?c ?x}) if (divisor ?c) (magic ?c ?x)", Simplify),
        (
            "udiv-const-to-mulhi-add: (udiv ?x ?c) => (lshr (add (lshr (sub ?x (umulhi ?x {umagic ?c ?x})) 1) (umulhi ?x {umagic ?c ?x})) {ushift ?c ?x}) if (divisor ?c) (magic-add ?c ?x)",
            Simplify,
        ),
        ("urem-const-to-mul-sub: (urem ?x ?c) => (sub ?x (mul (udiv ?x ?c) ?c)) if (divisor ?c)", Simplify),
        // Signed to unsigned where the ranges say the signs do not matter (cheaper in SASS).
        ("sdiv-nonneg-to-udiv: (sdiv ?x ?y) => (udiv ?x ?y) if (nonneg ?x) (pos ?y)", Simplify),
        ("srem-nonneg-to-urem: (srem ?x ?y) => (urem ?x ?y) if (nonneg ?x) (pos ?y)", Simplify),
        // The same in one step to the unsigned magic number (the two-step way may not finish
        // in the e-graph's iteration budget, and the signed one would win meanwhile).
        (
            "sdiv-nonneg-const-to-mulhi: (sdiv ?x ?c) => (lshr (umulhi ?x {umagic ?c ?x}) {ushift ?c ?x}) if (nonneg ?x) (pos ?c) (divisor ?c) (magic ?c ?x)",
            Simplify,
        ),
        (
            "srem-nonneg-const-to-mul-sub: (srem ?x ?c) => (sub ?x (mul (lshr (umulhi ?x {umagic ?c ?x}) {ushift ?c ?x}) ?c)) if (nonneg ?x) (pos ?c) (divisor ?c) (magic ?c ?x)",
            Simplify,
        ),
        ("sdiv-nonneg-pow2-to-lshr: (sdiv ?x ?c) => (lshr ?x {log2 ?c}) if (nonneg ?x) (pos ?c) (pow2 ?c)", Simplify),
        ("srem-nonneg-pow2-to-and: (srem ?x ?c) => (and ?x {sub1 ?c}) if (nonneg ?x) (pos ?c) (pow2 ?c)", Simplify),
        // A remainder by 2^k compared with a constant (InstCombine's): zero is the low bits
        // being zero, whatever the sign; a positive d < 2^k needs x non-negative too, so the
        // sign bit joins the mask. `i % 4 == 2` is one `and` and one compare.
        ("srem-pow2-eq-zero: (icmp.eq (srem ?x ?c) 0) => (icmp.eq (and ?x {sub1 ?c}) 0) if (pow2 ?c) (pos ?c)", Simplify),
        ("srem-pow2-ne-zero: (icmp.ne (srem ?x ?c) 0) => (icmp.ne (and ?x {sub1 ?c}) 0) if (pow2 ?c) (pos ?c)", Simplify),
        (
            "srem-pow2-eq-const: (icmp.eq (srem ?x ?c) ?d) => (icmp.eq (and ?x {sign-low:?x ?c}) ?d) if (pow2 ?c) (pos ?c) (pos ?d) (ult ?d ?c)",
            Simplify,
        ),
        (
            "srem-pow2-ne-const: (icmp.ne (srem ?x ?c) ?d) => (icmp.ne (and ?x {sign-low:?x ?c}) ?d) if (pow2 ?c) (pos ?c) (pos ?d) (ult ?d ?c)",
            Simplify,
        ),
        ("ashr-nonneg-to-lshr: (ashr ?x ?k) => (lshr ?x ?k) if (nonneg ?x)", Simplify),
        ("sext-nonneg-to-zext: (sext ?x) => (zext ?x) if (nonneg ?x)", Simplify),
        // Signed division by 2^k rounds toward zero: a negative x gets 2^k - 1 added first
        // (the sign, shifted down: the bias), as NVRTC and canonicalize do.
        (
            "sdiv-pow2-to-shifts: (sdiv ?x ?c) => (ashr (add ?x (lshr (ashr ?x {top ?x}) {bias-shift ?c})) {log2 ?c}) if (pow2 ?c) (pos ?c)",
            Simplify,
        ),
        (
            "srem-pow2-to-mask: (srem ?x ?c) => (sub ?x (and (add ?x (lshr (ashr ?x {top ?x}) {bias-shift ?c})) {neg ?c})) if (pow2 ?c) (pos ?c)",
            Simplify,
        ),
        // Signed division by other constants: after the unsigned forms above, which a greedy
        // driver should try first (they are cheaper where they apply).
        (
            "sdiv-const-to-mulhi: (sdiv ?x ?c) => (add (ashr (mulhi ?x {smagic ?c}) {sshift ?c}) (lshr (ashr (mulhi ?x {smagic ?c}) {sshift ?c}) {top ?x})) if (smagic-pos ?c)",
            Simplify,
        ),
        (
            "sdiv-const-to-mulhi-add: (sdiv ?x ?c) => (add (ashr (add (mulhi ?x {smagic ?c}) ?x) {sshift ?c}) (lshr (ashr (add (mulhi ?x {smagic ?c}) ?x) {sshift ?c}) {top ?x})) if (smagic-neg ?c)",
            Simplify,
        ),
        ("srem-const-to-mul-sub: (srem ?x ?c) => (sub ?x (mul (sdiv ?x ?c) ?c)) if (smagic-pos ?c)", Simplify),
        ("srem-const-to-mul-sub-add: (srem ?x ?c) => (sub ?x (mul (sdiv ?x ?c) ?c)) if (smagic-neg ?c)", Simplify),
        // Ranges decide.
        ("udiv-small: (udiv ?x ?y) => 0 if (ult ?x ?y)", Simplify),
        ("urem-small: (urem ?x ?y) => ?x if (ult ?x ?y)", Simplify),
        ("and-mask-covers: (and ?x ?m) => ?x if (covers ?m ?x)", Simplify),
        // Known low zeros: an offset that stays below them (a counter stepping in fours plus
        // 0..3, as an unrolled loop's copies make) leaves the high part and gives the low.
        ("lshr-add-carry-free: (lshr (add ?x ?c) ?k) => (lshr ?x ?k) if (const ?c) (const ?k) (carry-free ?x ?c ?k)", Simplify),
        ("and-add-clear-below: (and (add ?x ?c) ?m) => (and ?c ?m) if (const ?c) (const ?m) (clear-below ?x ?m)", Simplify),
        // An `or` of values with no set bit in common is their sum (LLVM's `or disjoint`),
        // which the address rules can move into `[reg+imm]` and reassociate.
        ("or-disjoint-add: (or ?x ?y) => (add ?x ?y) if (disjoint ?x ?y)", Explore),
        // Contraction (`-fmad=true`, nvcc's default): an add of a product, both allowed to
        // contract, is one `fma.rn`: only a product nothing else reads (fusing a shared one
        // computes it twice and rounds the uses differently). No subtraction: NVRTC
        // contracts one only where a constant takes the negation (`p - C`, `x - K * a`),
        // which instruction selection does after this pass; any other would need a `neg`.
        ("fma-fadd: (fadd.contract ?m=(fmul.contract ?a ?b) ?c) => (fma ?a ?b ?c) if (one-use ?m)", Simplify),
        ("fma-fadd-rhs: (fadd.contract ?c ?m=(fmul.contract ?a ?b)) => (fma ?a ?b ?c) if (one-use ?m) (not-fusable ?c)", Simplify),
        ("fneg-fneg: (fneg (fneg ?x)) => ?x", Simplify),
        ("umin-range: (umin ?a ?b) => ?a if (ule ?a ?b)", Simplify),
        ("umin-range-rhs: (umin ?a ?b) => ?b if (ule ?b ?a)", Simplify),
        ("umax-range: (umax ?a ?b) => ?b if (ule ?a ?b)", Simplify),
        ("umax-range-rhs: (umax ?a ?b) => ?a if (ule ?b ?a)", Simplify),
        ("smin-range: (smin ?a ?b) => ?a if (sle ?a ?b)", Simplify),
        ("smin-range-rhs: (smin ?a ?b) => ?b if (sle ?b ?a)", Simplify),
        ("smax-range: (smax ?a ?b) => ?b if (sle ?a ?b)", Simplify),
        ("smax-range-rhs: (smax ?a ?b) => ?a if (sle ?b ?a)", Simplify),
        // Casts.
        ("trunc-zext: (trunc (zext ?x)) => ?x if (same-type ?x ?_)", Simplify),
        ("trunc-sext: (trunc (sext ?x)) => ?x if (same-type ?x ?_)", Simplify),
        // Algebra an e-graph explores.
        ("add-comm: (add ?a ?b) => (add ?b ?a)", Explore),
        ("mul-comm: (mul ?a ?b) => (mul ?b ?a)", Explore),
        ("and-comm: (and ?a ?b) => (and ?b ?a)", Explore),
        ("or-comm: (or ?a ?b) => (or ?b ?a)", Explore),
        ("xor-comm: (xor ?a ?b) => (xor ?b ?a)", Explore),
        ("add-assoc: (add (add ?a ?b) ?c) => (add ?a (add ?b ?c))", Explore),
        ("add-assoc-rev: (add ?a (add ?b ?c)) => (add (add ?a ?b) ?c)", Explore),
        ("mul-add-distribute: (mul (add ?a ?b) ?c) => (add (mul ?a ?c) (mul ?b ?c)) if (const ?c)", Explore),
        ("shl-to-mul: (shl ?x ?k) => (mul ?x {pow2 ?k}) if (const ?k)", Explore),
        ("sext-add-nsw: (sext (add.nsw ?a ?b)) => (add (sext ?a) (sext ?b))", Explore),
        // A constant byte offset moves outward, to be an access's `[reg+imm]`.
        ("ptradd-const-outward: (ptradd ?p (add ?x ?c)) => (ptradd (ptradd ?p ?x) ?c) if (const ?c)", Explore),
    ]
    .into_iter()
    .map(|(t, k)| (t.to_string(), k))
    .collect();
    // 64-bit arithmetic in 32 bits where the ranges prove the operands and the result fit:
    // through zext for unsigned ranges, through sext for signed ones.
    for op in ["add", "sub", "mul", "and", "or", "xor", "udiv", "urem", "lshr", "shl"] {
        texts.push((
            format!("narrow-{op}-u32: ({op}:64 ?a ?b) => (zext:64 ({op}:32 (trunc:32 ?a) (trunc:32 ?b))) if (fits-u ?a 32) (fits-u ?b 32) (fits-u ?_ 32)"),
            Explore,
        ));
    }
    for op in ["add", "sub", "mul"] {
        texts.push((
            format!("narrow-{op}-s32: ({op}:64 ?a ?b) => (sext:64 ({op}:32 (trunc:32 ?a) (trunc:32 ?b))) if (fits-s ?a 32) (fits-s ?b 32) (fits-s ?_ 32)"),
            Explore,
        ));
    }
    // trunc moves into wrapping arithmetic (the low bits depend on the low bits only).
    for op in ["add", "sub", "mul", "and", "or", "xor"] {
        texts.push((format!("trunc-{op}: (trunc:?_ ({op} ?a ?b)) => ({op} (trunc:?_ ?a) (trunc:?_ ?b))"), Explore));
    }
    // Comparisons of two extended values compare the narrow ones; eq/ne and the unsigned
    // predicates through zext, eq/ne and the signed ones through sext.
    for (p, exts) in [
        ("eq", &["zext", "sext"][..]),
        ("ne", &["zext", "sext"]),
        ("ult", &["zext"]),
        ("ule", &["zext"]),
        ("ugt", &["zext"]),
        ("uge", &["zext"]),
        ("slt", &["sext"]),
        ("sle", &["sext"]),
        ("sgt", &["sext"]),
        ("sge", &["sext"]),
    ] {
        for e in exts {
            texts.push((format!("icmp-{p}-{e}-narrow: (icmp.{p} ({e} ?a) ({e} ?b)) => (icmp.{p} ?a ?b) if (same-type ?a ?b)"), Simplify));
            let fits = if *e == "zext" { "fits-u" } else { "fits-s" };
            texts.push((
                format!("icmp-{p}-{e}-const-narrow: (icmp.{p} ({e} ?a) ?c) => (icmp.{p} ?a {{trunc:?a ?c}}) if (const ?c) ({fits} ?c ?a)"),
                Simplify,
            ));
        }
    }
    texts.into_iter().map(|(t, k)| Rule::parse(&t, k).unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// The integer types a run can make, by width (interned in the function's `Context`
/// before the run, since an e-graph applier has no `Context`).
#[derive(Clone, Debug, Default)]
pub struct IntTypes {
    by_width: Vec<(u32, cuprite_ir::TypeId)>,
}

impl IntTypes {
    /// The types of widths 1, 8, 16, 32 and 64 in `ctx`.
    pub fn new(ctx: &mut cuprite_ir::Context) -> IntTypes {
        IntTypes { by_width: [1, 8, 16, 32, 64].into_iter().map(|w| (w, ctx.int_type(w))).collect() }
    }
    /// The type of width `w`.
    pub fn get(&self, w: u32) -> Option<cuprite_ir::TypeId> {
        self.by_width.iter().find(|p| p.0 == w).map(|p| p.1)
    }
    /// The width of `t`, if it is one of them.
    pub fn width(&self, t: cuprite_ir::TypeId) -> Option<u32> {
        self.by_width.iter().find(|p| p.1 == t).map(|p| p.0)
    }
}

/// Where a rule's right side is built: the e-graph or the IR.
pub trait Sink {
    type Val: Copy;
    /// The value bound to variable `i`.
    fn var(&mut self, i: usize) -> Self::Val;
    /// A node of operator `op` and type `ty` on `args` (a constant has none).
    fn node(&mut self, op: Op, ty: cuprite_ir::TypeId, args: &[Self::Val]) -> Self::Val;
}

/// Builds `rule`'s right side into `sink`, given the facts of the bound variables and of
/// the matched root; `None` when a type or a computed constant cannot be had (the rule then
/// does not apply).
pub fn instantiate<S: Sink>(rule: &Rule, sink: &mut S, vars: &[Facts], root: &Facts, types: &IntTypes) -> Option<S::Val> {
    use cuprite_ir::TypeId;
    let rhs = &rule.rhs;
    let explicit = |w: &Width| -> Option<TypeId> {
        match w {
            Width::Any => None,
            Width::Bits(b) => types.get(*b),
            Width::Of(v) => vars.get(*v).map(|f| f.ty),
            Width::Root => Some(root.ty),
        }
    };
    // Bottom-up: the type a node has on its own (variables, explicit widths, and ops whose
    // result has their operands' type).
    let mut own: Vec<Option<TypeId>> = vec![None; rhs.len()];
    for (i, p) in rhs.iter().enumerate() {
        own[i] = match p {
            Pat::Var(v) => vars.get(*v).map(|f| f.ty),
            Pat::Bind { .. } => None,
            Pat::Lit(_, w) | Pat::Meta { width: w, .. } => explicit(w),
            Pat::Node { op, width, args } => explicit(width).or_else(|| match op {
                Op::ICmp(_) => types.get(1),
                Op::Sext | Op::Zext | Op::Trunc => None,
                Op::Select => own[args[1]].or(own[args[2]]),
                Op::PtrAdd => own[args[0]],
                _ => args.iter().find_map(|&a| own[a]),
            }),
        };
    }
    // Top-down: the root has the matched root's type; operands take their parent's.
    let mut ty: Vec<Option<TypeId>> = vec![None; rhs.len()];
    let last = rhs.len() - 1;
    ty[last] = own[last].or(Some(root.ty));
    for i in (0..rhs.len()).rev() {
        let t = ty[i].or(own[i]);
        ty[i] = t;
        if let Pat::Node { op, args, .. } = &rhs[i] {
            let ctx_of = |k: usize| -> Option<TypeId> {
                match op {
                    Op::ICmp(_) => args.iter().find_map(|&a| own[a]),
                    Op::Sext | Op::Zext | Op::Trunc => None,
                    Op::Select if k == 0 => types.get(1),
                    Op::PtrAdd if k == 1 => None,
                    _ => t,
                }
            };
            for (k, &a) in args.iter().enumerate() {
                if ty[a].is_none() {
                    ty[a] = own[a].or(ctx_of(k));
                }
            }
        }
    }
    let mut vals: Vec<Option<S::Val>> = vec![None; rhs.len()];
    for (i, p) in rhs.iter().enumerate() {
        vals[i] = Some(match p {
            Pat::Var(v) => sink.var(*v),
            Pat::Bind { .. } => return None,
            Pat::Lit(c, _) => {
                let t = ty[i]?;
                let w = types.width(t)?;
                sink.node(Op::Const(sext_bits(*c, w)), t, &[])
            }
            Pat::Meta { f, args, .. } => {
                let t = ty[i]?;
                let w = types.width(t)?;
                let c = meta(*f, args, w, vars, root)?;
                sink.node(Op::Const(c), t, &[])
            }
            Pat::Node { op, args, .. } => {
                let t = ty[i]?;
                let a: Option<Vec<S::Val>> = args.iter().map(|&k| vals[k]).collect();
                sink.node(*op, t, &a?)
            }
        });
    }
    vals[last]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x / d` by the magic numbers, as the rules build it.
    fn divide(x: u128, d: i128, w: u32, xmax: i128) -> u128 {
        let m = umagic(d, w, xmax).expect("magic numbers exist");
        let t = (x * m.m as u128) >> w;
        if m.add {
            (((x - t) >> 1) + t) >> m.s
        } else {
            t >> m.s
        }
    }

    #[test]
    fn magic_numbers_divide_exactly_at_8_bits() {
        for d in 2..256i128 {
            for xmax in [255i128, 200, 100, 17, 3] {
                for x in 0..=xmax {
                    assert_eq!(divide(x as u128, d, 8, xmax), (x / d) as u128, "{x} / {d} (x <= {xmax})");
                }
            }
        }
    }

    /// Dividends at the edges (around multiples of `d`, the top of the range) and spread
    /// over it.
    fn samples(d: i128, xmax: i128, seed: &mut u64) -> Vec<i128> {
        let mut xs = vec![0, 1, xmax, xmax - 1, d - 1, d, d + 1];
        for k in [1i128, 2, 3, 1000, xmax / d, xmax / d - 1] {
            xs.extend([k * d - 1, k * d, k * d + 1]);
        }
        for _ in 0..64 {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            xs.push((*seed >> 11) as i128 % (xmax + 1));
        }
        xs.into_iter().filter(|&x| (0..=xmax).contains(&x)).collect()
    }

    #[test]
    fn magic_numbers_divide_exactly_at_16_and_32_bits() {
        let mut seed = 7u64;
        for d in 2..65536i128 {
            for x in samples(d, 65535, &mut seed) {
                assert_eq!(divide(x as u128, d, 16, 65535), (x / d) as u128, "{x} / {d} at 16 bits");
            }
        }
        let mut ds: Vec<i128> = vec![3, 5, 6, 7, 10, 12, 24, 100, 641, 1000, 6700417, 0x7fff_ffff, 0xffff_fffe, 0xffff_ffff];
        for _ in 0..3000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ds.push(2 + (seed >> 33) as i128 % 0xffff_fffe);
        }
        for d in ds {
            for xmax in [0xffff_ffffi128, 1023, 0x7fff_ffff, 65535 * 1024] {
                for x in samples(d, xmax, &mut seed) {
                    assert_eq!(divide(x as u128, d, 32, xmax), (x / d) as u128, "{x} / {d} at 32 bits (x <= {xmax})");
                }
            }
        }
    }

    /// `x / d` by the signed magic numbers, as the rules build it, at width `w`.
    fn sdivide(x: i128, d: i128, w: u32) -> i128 {
        let (m, s) = smagic(d, w).expect("magic numbers exist");
        let mut q = (x * m) >> w;
        if d > 0 && m < 0 {
            q += x;
        }
        let q = sext_bits(q, w) >> s;
        sext_bits(q + ((zext_bits(q, w)) >> (w - 1)), w)
    }

    #[test]
    fn signed_magic_numbers_divide_exactly() {
        // The rules divide by constants of at least 2 only.
        for d in 2i128..128 {
            for x in -128i128..128 {
                assert_eq!(sdivide(x, d, 8), x / d, "{x} / {d} at 8 bits");
            }
        }
        let mut seed = 11u64;
        let mut ds: Vec<i128> = vec![3, 5, 6, 7, 10, 24, 120, 641, 1000, 0x7fff_ffff];
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let d = sext_bits((seed >> 32) as i128, 32);
            if d >= 2 {
                ds.push(d);
            }
        }
        for d in ds {
            let mut xs = vec![0i128, 1, -1, i32::MAX as i128, i32::MIN as i128, d, -d, d - 1, d + 1, 2 * d, -2 * d + 1];
            for _ in 0..64 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                xs.push(sext_bits((seed >> 32) as i128, 32));
            }
            for x in xs.into_iter().filter(|x| i32::try_from(*x).is_ok()) {
                assert_eq!(sdivide(x, d, 32), x / d, "{x} / {d} at 32 bits");
            }
        }
    }

    #[test]
    fn remainders_by_powers_of_two_compare_as_masks_at_8_bits() {
        // srem-pow2-eq-zero and srem-pow2-eq-const, on every i8 and every 2^k and d.
        for k in 1..7 {
            let c = 1i128 << k;
            let root = Facts::full(cuprite_ir::TypeId::from_index(0), 8);
            let mask = meta(Meta::SignLow, &[Arg::Int(c)], 8, &[], &root).expect("a mask");
            for x in -128i128..128 {
                let r = x % c;
                assert_eq!(r == 0, x & (c - 1) == 0, "{x} % {c} == 0");
                for d in 1..c {
                    assert_eq!(r == d, sext_bits(x & mask, 8) == d, "{x} % {c} == {d} (mask {mask})");
                }
            }
        }
    }

    #[test]
    fn the_rule_table_parses_and_names_are_unique() {
        let rules = rules();
        let mut names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
        names.sort();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate rule names");
        assert!(rules.iter().any(|r| r.kind == Kind::Explore) && rules.iter().any(|r| r.kind == Kind::Simplify));
    }

    #[test]
    fn bad_rules_are_errors() {
        for (text, want) in [
            ("r: (add ?x) => ?x", "takes 2 operands"),
            ("r: (frob ?x ?y) => ?x", "unknown operator"),
            ("r: (add ?x ?y) => ?z", "not bound"),
            ("r: (add ?x ?y) => ?x if (wibble ?x)", "unknown condition"),
            ("r: (add ?x ?y) ?x", "expected '=>'"),
            ("r: ?x => ?x", "one operator pattern"),
            ("r: (fadd ?x ?y) => ?m=(fneg ?x)", "only on the left side"),
            ("r: (fadd ?m=(fmul ?a ?b) ?c) => ?c if (one-use ?z)", "not bound"),
        ] {
            let e = Rule::parse(text, Kind::Simplify).expect_err(text);
            assert!(e.0.contains(want), "{text}: {e}");
        }
    }
}
