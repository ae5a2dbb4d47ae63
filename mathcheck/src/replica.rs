//! A bit-exact native replica of cuprite's PTX: each kernel translated to C, compiled with
//! the system C compiler and run on the CPU, for the exhaustive single-precision run
//! (`math-exhaustive`), which needs some hundred times the simulator's speed.
//!
//! Why this is honest: the library uses only correctly rounded instructions (`add.rn`,
//! `mul.rn`, `fma.rn`, `div.rn`, `sqrt.rn`, `cvt` with exact or round-to-nearest
//! semantics) and integer instructions, all of which IEEE 754 C on x86-64 computes
//! identically, given `-ffp-contract=off` (no fusing a PTX `mul` and `add` that were kept
//! apart) and `fma`/`fmaf` for `fma.rn`. Every other instruction is translated to a helper
//! that follows the simulator's semantics (saturating float-to-integer conversion with NaN
//! to 0, shifts by the width or more, `clz` of 0, `copysign`'s operand order). An
//! instruction outside that set (the approximate ones, `.ftz`, `.sat`, rounding modes other
//! than `rn`, atomics, shared memory) is refused with its line, never approximated. The
//! replica is then checked against the simulator on the sampled inputs: every result must
//! be bit-identical (NaNs: any payload), else the exhaustive run stops
//! ([`crate::exhaustive`]).
//!
//! The translation is line by line over the PTX text that ptxas gets:
//! - each `.reg .T %x<N>` becomes C variables `x0..x{N-1}` of the C type of `T`
//!   (`.pred` is `int`, `.b32/.u32/.s32` `uint32_t`, `.b64/.u64/.s64` `uint64_t`, `.f32`
//!   `float`, `.f64` `double`); an operand read or written as a type of the same width but
//!   another class is bit-cast (`mov.b32 %f1, %r2`);
//! - the kernel becomes `void NAME(const uint64_t *param, uint32_t tid, uint32_t ctaid,
//!   uint32_t ntid)`: `ld.param` reads `param[i]`, global memory is the process's memory
//!   (pointers are real addresses, `cvta` is the identity), a `.local` depot is a local
//!   array;
//! - labels and branches become C labels and `goto`, a guard `@%p` / `@!%p` an `if`.

use std::collections::HashMap;
use std::fmt::Write;

/// A register class: the C type a PTX register type is kept in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Pred,
    I32,
    I64,
    F32,
    F64,
}

impl Class {
    fn c_type(self) -> &'static str {
        match self {
            Class::Pred => "int",
            Class::I32 => "uint32_t",
            Class::I64 => "uint64_t",
            Class::F32 => "float",
            Class::F64 => "double",
        }
    }
    fn width(self) -> u32 {
        match self {
            Class::Pred => 1,
            Class::I32 | Class::F32 => 32,
            Class::I64 | Class::F64 => 64,
        }
    }
    fn short(self) -> &'static str {
        match self {
            Class::Pred => "p",
            Class::I32 => "u32",
            Class::I64 => "u64",
            Class::F32 => "f32",
            Class::F64 => "f64",
        }
    }
}

/// The class and signedness of a PTX type suffix (`s32`, `f64`, `pred`, ...).
fn type_of(t: &str) -> Option<(Class, bool)> {
    Some(match t {
        "pred" => (Class::Pred, false),
        "b32" | "u32" => (Class::I32, false),
        "s32" => (Class::I32, true),
        "b64" | "u64" => (Class::I64, false),
        "s64" => (Class::I64, true),
        "f32" => (Class::F32, false),
        "f64" => (Class::F64, false),
        _ => return None,
    })
}

/// The C helpers the translation uses; semantics as the simulator's (`sim/src/machine.rs`,
/// `sim/src/fp.rs`).
const PRELUDE: &str = r#"#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
static inline float bc_u32_f32(uint32_t x) { float f; memcpy(&f, &x, 4); return f; }
static inline uint32_t bc_f32_u32(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline double bc_u64_f64(uint64_t x) { double f; memcpy(&f, &x, 8); return f; }
static inline uint64_t bc_f64_u64(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static inline uint32_t shl_u32(uint32_t a, uint32_t b) { return b >= 32 ? 0 : a << b; }
static inline uint64_t shl_u64(uint64_t a, uint32_t b) { return b >= 64 ? 0 : a << b; }
static inline uint32_t lshr_u32(uint32_t a, uint32_t b) { return b >= 32 ? 0 : a >> b; }
static inline uint64_t lshr_u64(uint64_t a, uint32_t b) { return b >= 64 ? 0 : a >> b; }
static inline uint32_t ashr_u32(uint32_t a, uint32_t b) { return (uint32_t)((int32_t)a >> (b >= 31 ? 31 : b)); }
static inline uint64_t ashr_u64(uint64_t a, uint32_t b) { return (uint64_t)((int64_t)a >> (b >= 63 ? 63 : b)); }
static void div0(void) { fprintf(stderr, "integer division by zero\n"); exit(3); }
static inline uint32_t sdiv_u32(uint32_t a, uint32_t b) { if (!b) div0(); if ((int32_t)a == INT32_MIN && (int32_t)b == -1) return a; return (uint32_t)((int32_t)a / (int32_t)b); }
static inline uint64_t sdiv_u64(uint64_t a, uint64_t b) { if (!b) div0(); if ((int64_t)a == INT64_MIN && (int64_t)b == -1) return a; return (uint64_t)((int64_t)a / (int64_t)b); }
static inline uint32_t srem_u32(uint32_t a, uint32_t b) { if (!b) div0(); if ((int32_t)b == -1) return 0; return (uint32_t)((int32_t)a % (int32_t)b); }
static inline uint64_t srem_u64(uint64_t a, uint64_t b) { if (!b) div0(); if ((int64_t)b == -1) return 0; return (uint64_t)((int64_t)a % (int64_t)b); }
static inline uint32_t udiv_u32(uint32_t a, uint32_t b) { if (!b) div0(); return a / b; }
static inline uint64_t udiv_u64(uint64_t a, uint64_t b) { if (!b) div0(); return a / b; }
static inline uint32_t urem_u32(uint32_t a, uint32_t b) { if (!b) div0(); return a % b; }
static inline uint64_t urem_u64(uint64_t a, uint64_t b) { if (!b) div0(); return a % b; }
static inline uint32_t clz_u32(uint32_t a) { return a ? (uint32_t)__builtin_clz(a) : 32; }
static inline uint32_t clz_u64(uint64_t a) { return a ? (uint32_t)__builtin_clzll(a) : 64; }
static inline uint32_t popc_u32(uint32_t a) { return (uint32_t)__builtin_popcount(a); }
static inline uint32_t popc_u64(uint64_t a) { return (uint32_t)__builtin_popcountll(a); }
/* float to integer: already rounded to an integral value; NaN gives 0, out of range saturates */
static inline uint32_t f2s32(double r) { if (r != r) return 0; if (r <= -2147483648.0) return 0x80000000u; if (r >= 2147483647.0) return 0x7fffffffu; return (uint32_t)(int32_t)r; }
static inline uint32_t f2u32(double r) { if (r != r || r <= 0) return 0; if (r >= 4294967295.0) return 0xffffffffu; return (uint32_t)r; }
static inline uint64_t f2s64(double r) { if (r != r) return 0; if (r <= -9223372036854775808.0) return 0x8000000000000000ull; if (r >= 9223372036854775808.0) return 0x7fffffffffffffffull; return (uint64_t)(int64_t)r; }
static inline uint64_t f2u64(double r) { if (r != r || r <= 0) return 0; if (r >= 18446744073709551616.0) return 0xffffffffffffffffull; return (uint64_t)r; }
/* min/max: a NaN operand gives the other; -0 is below +0 */
static inline double fminmax(double a, double b, int max) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) { int neg = max ? (signbit(a) && signbit(b)) : (signbit(a) || signbit(b)); return neg ? -fabs(a) : fabs(a); }
  return ((a < b) != max) ? a : b;
}
static inline float ld_f32(uint64_t a) { float v; memcpy(&v, (const void *)(uintptr_t)a, 4); return v; }
static inline double ld_f64(uint64_t a) { double v; memcpy(&v, (const void *)(uintptr_t)a, 8); return v; }
static inline uint32_t ld_u32(uint64_t a) { uint32_t v; memcpy(&v, (const void *)(uintptr_t)a, 4); return v; }
static inline uint64_t ld_u64(uint64_t a) { uint64_t v; memcpy(&v, (const void *)(uintptr_t)a, 8); return v; }
static inline void st_f32(uint64_t a, float v) { memcpy((void *)(uintptr_t)a, &v, 4); }
static inline void st_f64(uint64_t a, double v) { memcpy((void *)(uintptr_t)a, &v, 8); }
static inline void st_u32(uint64_t a, uint32_t v) { memcpy((void *)(uintptr_t)a, &v, 4); }
static inline void st_u64(uint64_t a, uint64_t v) { memcpy((void *)(uintptr_t)a, &v, 8); }
"#;

/// One operand of an instruction.
#[derive(Debug)]
enum Operand {
    Reg(String),
    Int(i128),
    F32(u32),
    F64(u64),
    Special(String),
    /// `[base+offset]`: base a register or symbol.
    Mem(String, i64),
    Sym(String),
}

fn parse_operand(s: &str) -> Result<Operand, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (base, off) = match inner.find('+') {
            Some(k) => (&inner[..k], inner[k + 1..].trim().parse::<i64>().map_err(|_| format!("bad offset in '{s}'"))?),
            None => (inner, 0),
        };
        return Ok(Operand::Mem(base.trim().to_string(), off));
    }
    if let Some(h) = s.strip_prefix("0f") {
        return u32::from_str_radix(h, 16).map(Operand::F32).map_err(|_| format!("bad float '{s}'"));
    }
    if let Some(h) = s.strip_prefix("0d") {
        return u64::from_str_radix(h, 16).map(Operand::F64).map_err(|_| format!("bad double '{s}'"));
    }
    if let Some(r) = s.strip_prefix('%') {
        return Ok(if r.contains('.') { Operand::Special(r.to_string()) } else { Operand::Reg(r.to_string()) });
    }
    if s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let (neg, body) = match s.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, s),
        };
        let body = body.trim_end_matches('U');
        let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            i128::from_str_radix(h, 16)
        } else {
            body.parse::<i128>()
        }
        .map_err(|_| format!("bad integer '{s}'"))?;
        return Ok(Operand::Int(if neg { -v } else { v }));
    }
    Ok(Operand::Sym(s.to_string()))
}

fn c_ident(s: &str) -> String {
    s.replace('$', "_D_")
}

/// One kernel being translated.
struct Kernel<'a> {
    name: &'a str,
    regs: HashMap<String, Class>,
    params: Vec<String>,
    depots: Vec<String>,
}

impl Kernel<'_> {
    fn reg_class(&self, r: &str) -> Result<Class, String> {
        // %rd12 -> prefix rd
        let prefix: String = r.chars().take_while(|c| !c.is_ascii_digit()).collect();
        self.regs.get(&prefix).copied().ok_or_else(|| format!("register %{r} is not declared"))
    }

    /// A C expression of class `c` for `o` (signed: read as a signed C integer).
    fn read(&self, o: &Operand, c: Class, signed: bool) -> Result<String, String> {
        let e = match o {
            Operand::Reg(r) => {
                let rc = self.reg_class(r)?;
                if rc == c {
                    format!("R_{r}")
                } else if rc.width() == c.width() && c != Class::Pred && rc != Class::Pred {
                    format!("bc_{}_{}(R_{r})", rc.short(), c.short())
                } else {
                    return Err(format!("%{r} ({}) read as {}", rc.short(), c.short()));
                }
            }
            Operand::Int(v) => match c {
                Class::Pred => (if *v != 0 { "1" } else { "0" }).to_string(),
                Class::I32 => format!("((uint32_t){}u)", *v as u32),
                Class::I64 => format!("((uint64_t){}ull)", *v as u64),
                Class::F32 | Class::F64 => return Err(format!("integer {v} as a float operand")),
            },
            Operand::F32(b) => match c {
                Class::F32 => format!("bc_u32_f32({b:#x}u)"),
                Class::I32 => format!("((uint32_t){b:#x}u)"),
                _ => return Err("0f immediate of the wrong width".into()),
            },
            Operand::F64(b) => match c {
                Class::F64 => format!("bc_u64_f64({b:#x}ull)"),
                Class::I64 => format!("((uint64_t){b:#x}ull)"),
                _ => return Err("0d immediate of the wrong width".into()),
            },
            Operand::Special(s) => match s.as_str() {
                "tid.x" => "tid".to_string(),
                "ctaid.x" => "ctaid".to_string(),
                "ntid.x" => "ntid".to_string(),
                "tid.y" | "tid.z" | "ctaid.y" | "ctaid.z" => "0u".to_string(),
                "ntid.y" | "ntid.z" | "nctaid.y" | "nctaid.z" => "1u".to_string(),
                _ => return Err(format!("special register %{s} is not replicated")),
            },
            Operand::Sym(s) if self.depots.contains(s) => format!("((uint64_t)(uintptr_t){})", c_ident(s)),
            Operand::Sym(s) => return Err(format!("symbol {s} is not replicated")),
            Operand::Mem(..) => return Err("memory operand where a value is expected".into()),
        };
        Ok(if signed {
            match c {
                Class::I32 => format!("((int32_t){e})"),
                Class::I64 => format!("((int64_t){e})"),
                _ => e,
            }
        } else {
            e
        })
    }

    /// `R_d = expr;` with `expr` of class `c`, bit-cast to the register's class.
    fn write(&self, d: &Operand, c: Class, expr: &str) -> Result<String, String> {
        let Operand::Reg(r) = d else { return Err("destination is not a register".into()) };
        let rc = self.reg_class(r)?;
        if rc == c {
            Ok(format!("R_{r} = ({})({expr});", c.c_type()))
        } else if rc.width() == c.width() && c != Class::Pred && rc != Class::Pred {
            Ok(format!("R_{r} = bc_{}_{}(({})({expr}));", c.short(), rc.short(), c.c_type()))
        } else {
            Err(format!("%{r} ({}) written as {}", rc.short(), c.short()))
        }
    }

    fn address(&self, o: &Operand) -> Result<String, String> {
        let Operand::Mem(base, off) = o else { return Err("expected a memory operand".into()) };
        let b = if let Some(r) = base.strip_prefix('%') {
            self.read(&Operand::Reg(r.to_string()), Class::I64, false)?
        } else if self.depots.contains(base) {
            format!("((uint64_t)(uintptr_t){})", c_ident(base))
        } else {
            return Err(format!("address {base} is not replicated"));
        };
        Ok(format!("({b} + (uint64_t){off}ll)"))
    }

    /// The C statement of one instruction (without its guard).
    fn instruction(&self, opcode: &str, ops: &[Operand]) -> Result<String, String> {
        let parts: Vec<&str> = opcode.split('.').collect();
        let op = parts[0];
        let mods = &parts[1..];
        for m in mods {
            if matches!(*m, "ftz" | "sat" | "approx" | "full" | "rz" | "rm" | "rp" | "relu") {
                return Err(format!("'{opcode}': the .{m} form is not replicated"));
            }
        }
        let types: Vec<(Class, bool)> = mods.iter().filter_map(|m| type_of(m)).collect();
        let ty = types.last().copied();
        let need = |n: usize| if ops.len() == n { Ok(()) } else { Err(format!("'{opcode}' expects {n} operands")) };
        let (c, s) = ty.ok_or_else(|| format!("'{opcode}' has no type"))?;
        let float = matches!(c, Class::F32 | Class::F64);
        let fsuf = if c == Class::F32 { "f" } else { "" };
        let rd = |o: &Operand| self.read(o, c, false);
        Ok(match op {
            "mov" => {
                need(2)?;
                self.write(&ops[0], c, &rd(&ops[1])?)?
            }
            "add" | "sub" | "mul" if float => {
                need(3)?;
                let sym = match op {
                    "add" => "+",
                    "sub" => "-",
                    _ => "*",
                };
                self.write(&ops[0], c, &format!("{} {sym} {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "fma" | "mad" if float => {
                need(4)?;
                self.write(&ops[0], c, &format!("fma{fsuf}({}, {}, {})", rd(&ops[1])?, rd(&ops[2])?, rd(&ops[3])?))?
            }
            "div" if float => {
                need(3)?;
                self.write(&ops[0], c, &format!("{} / {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "sqrt" => {
                need(2)?;
                self.write(&ops[0], c, &format!("sqrt{fsuf}({})", rd(&ops[1])?))?
            }
            "abs" if float => {
                need(2)?;
                self.write(&ops[0], c, &format!("fabs{fsuf}({})", rd(&ops[1])?))?
            }
            "neg" if float => {
                need(2)?;
                self.write(&ops[0], c, &format!("-{}", rd(&ops[1])?))?
            }
            "copysign" => {
                // copysign d, a, b: b's magnitude with a's sign.
                need(3)?;
                self.write(&ops[0], c, &format!("copysign{fsuf}({}, {})", rd(&ops[2])?, rd(&ops[1])?))?
            }
            "neg" if c != Class::Pred => {
                need(2)?;
                self.write(&ops[0], c, &format!("0u - {}", rd(&ops[1])?))?
            }
            "abs" if c != Class::Pred => {
                need(2)?;
                let a = self.read(&ops[1], c, true)?;
                self.write(&ops[0], c, &format!("{a} < 0 ? 0u - {} : {}", rd(&ops[1])?, rd(&ops[1])?))?
            }
            "min" | "max" if float => {
                need(3)?;
                let max = i32::from(op == "max");
                self.write(&ops[0], c, &format!("fminmax({}, {}, {max})", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "min" | "max" if c != Class::Pred => {
                need(3)?;
                let a = self.read(&ops[1], c, s)?;
                let b = self.read(&ops[2], c, s)?;
                let sym = if op == "min" { "<" } else { ">" };
                self.write(&ops[0], c, &format!("{a} {sym} {b} ? {a} : {b}"))?
            }
            "add" | "sub" if c != Class::Pred => {
                need(3)?;
                let sym = if op == "add" { "+" } else { "-" };
                self.write(&ops[0], c, &format!("{} {sym} {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "mul" if mods.contains(&"wide") => {
                need(3)?;
                let (w, cast) = if s { (Class::I64, "(int64_t)") } else { (Class::I64, "(uint64_t)") };
                let a = self.read(&ops[1], c, s)?;
                let b = self.read(&ops[2], c, s)?;
                self.write(&ops[0], w, &format!("{cast}{a} * {cast}{b}"))?
            }
            "mul" if mods.contains(&"hi") => {
                need(3)?;
                let (t, n) = match (c, s) {
                    (Class::I32, true) => ("int64_t", 32),
                    (Class::I32, false) => ("uint64_t", 32),
                    (Class::I64, true) => ("__int128", 64),
                    _ => ("unsigned __int128", 64),
                };
                let a = self.read(&ops[1], c, s)?;
                let b = self.read(&ops[2], c, s)?;
                self.write(&ops[0], c, &format!("(({t}){a} * ({t}){b}) >> {n}"))?
            }
            "mul" => {
                need(3)?;
                self.write(&ops[0], c, &format!("{} * {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "mad" if mods.contains(&"lo") => {
                need(4)?;
                self.write(&ops[0], c, &format!("{} * {} + {}", rd(&ops[1])?, rd(&ops[2])?, rd(&ops[3])?))?
            }
            "div" | "rem" => {
                need(3)?;
                let f = format!("{}{}_{}", if s { "s" } else { "u" }, if op == "div" { "div" } else { "rem" }, c.short());
                self.write(&ops[0], c, &format!("{f}({}, {})", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "and" | "or" | "xor" => {
                need(3)?;
                let sym = match (op, c) {
                    ("and", Class::Pred) => "&&",
                    ("or", Class::Pred) => "||",
                    ("xor", Class::Pred) => "!=",
                    ("and", _) => "&",
                    ("or", _) => "|",
                    _ => "^",
                };
                self.write(&ops[0], c, &format!("{} {sym} {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "not" => {
                need(2)?;
                let sym = if c == Class::Pred { "!" } else { "~" };
                self.write(&ops[0], c, &format!("{sym}{}", rd(&ops[1])?))?
            }
            "shl" | "shr" => {
                need(3)?;
                let f = match (op, s) {
                    ("shl", _) => "shl",
                    (_, true) => "ashr",
                    _ => "lshr",
                };
                let amt = self.read(&ops[2], Class::I32, false)?;
                self.write(&ops[0], c, &format!("{f}_{}({}, {amt})", c.short(), rd(&ops[1])?))?
            }
            "clz" | "popc" => {
                need(2)?;
                self.write(&ops[0], Class::I32, &format!("{op}_{}({})", c.short(), rd(&ops[1])?))?
            }
            "selp" => {
                need(4)?;
                let p = self.read(&ops[3], Class::Pred, false)?;
                self.write(&ops[0], c, &format!("{p} ? {} : {}", rd(&ops[1])?, rd(&ops[2])?))?
            }
            "setp" => {
                need(3)?;
                let cmp = mods.first().copied().unwrap_or("");
                let a = self.read(&ops[1], c, s)?;
                let b = self.read(&ops[2], c, s)?;
                let e = if float {
                    match cmp {
                        "eq" => format!("{a} == {b}"),
                        "ne" => format!("({a} < {b} || {a} > {b})"),
                        "lt" => format!("{a} < {b}"),
                        "le" => format!("{a} <= {b}"),
                        "gt" => format!("{a} > {b}"),
                        "ge" => format!("{a} >= {b}"),
                        "equ" => format!("!({a} < {b} || {a} > {b})"),
                        "neu" => format!("{a} != {b}"),
                        "ltu" => format!("!({a} >= {b})"),
                        "leu" => format!("!({a} > {b})"),
                        "gtu" => format!("!({a} <= {b})"),
                        "geu" => format!("!({a} < {b})"),
                        "num" => format!("({a} == {a} && {b} == {b})"),
                        "nan" => format!("({a} != {a} || {b} != {b})"),
                        _ => return Err(format!("'{opcode}': unknown comparison")),
                    }
                } else {
                    let sym = match cmp {
                        "eq" => "==",
                        "ne" => "!=",
                        "lt" | "lo" => "<",
                        "le" | "ls" => "<=",
                        "gt" | "hi" => ">",
                        "ge" | "hs" => ">=",
                        _ => return Err(format!("'{opcode}': unknown comparison")),
                    };
                    if matches!(cmp, "lo" | "ls" | "hi" | "hs") && s {
                        return Err(format!("'{opcode}': unsigned comparison of a signed type"));
                    }
                    format!("{a} {sym} {b}")
                };
                self.write(&ops[0], Class::Pred, &e)?
            }
            "cvt" => {
                need(2)?;
                let [(tc, ts), (fc, fs)] = types[..] else { return Err(format!("'{opcode}' needs two types")) };
                let rnd = mods.iter().find(|m| matches!(**m, "rn" | "rni" | "rzi" | "rmi" | "rpi")).copied();
                let tf = matches!(tc, Class::F32 | Class::F64);
                let ff = matches!(fc, Class::F32 | Class::F64);
                let a = self.read(&ops[1], fc, fs)?;
                let round = |a: &str, f: &str| -> Result<String, String> {
                    Ok(match rnd {
                        Some("rni") => format!("rint{f}({a})"),
                        Some("rzi") => format!("trunc{f}({a})"),
                        Some("rmi") => format!("floor{f}({a})"),
                        Some("rpi") => format!("ceil{f}({a})"),
                        _ => return Err(format!("'{opcode}': float to integer needs an integer rounding")),
                    })
                };
                let e = match (tf, ff) {
                    (true, true) if tc == fc => round(&a, if fc == Class::F32 { "f" } else { "" })?,
                    (true, true) => {
                        if tc == Class::F32 && rnd != Some("rn") {
                            return Err(format!("'{opcode}': narrowing needs .rn"));
                        }
                        a
                    }
                    (true, false) => {
                        if rnd != Some("rn") {
                            return Err(format!("'{opcode}': integer to float needs .rn"));
                        }
                        a
                    }
                    (false, true) => {
                        let r = round(&a, "")?;
                        let r = if fc == Class::F32 { format!("(double){r}") } else { r };
                        format!("f2{}{}({r})", if ts { "s" } else { "u" }, tc.width())
                    }
                    (false, false) => match (tc, fc) {
                        // widening extends by the source's signedness, narrowing truncates
                        (Class::I64, Class::I32) if fs => format!("(int64_t){a}"),
                        _ => a,
                    },
                };
                self.write(&ops[0], tc, &e)?
            }
            "cvta" => {
                need(2)?;
                self.write(&ops[0], c, &rd(&ops[1])?)?
            }
            "ld" => {
                need(2)?;
                if mods.contains(&"param") {
                    let Operand::Mem(p, 0) = &ops[1] else { return Err(format!("'{opcode}': unexpected operand")) };
                    let k = self.params.iter().position(|x| x == p).ok_or_else(|| format!("unknown parameter {p}"))?;
                    let mask = if c.width() == 32 { "(uint32_t)" } else { "" };
                    let v = format!("{mask}param[{k}]");
                    let v = if float { format!("bc_{}_{}({v})", if c == Class::F32 { "u32" } else { "u64" }, c.short()) } else { v };
                    return self.write(&ops[0], c, &v);
                }
                if !(mods.contains(&"global") || mods.contains(&"local")) {
                    return Err(format!("'{opcode}': only global and local memory are replicated"));
                }
                self.write(&ops[0], c, &format!("ld_{}({})", c.short(), self.address(&ops[1])?))?
            }
            "st" => {
                need(2)?;
                if !(mods.contains(&"global") || mods.contains(&"local")) {
                    return Err(format!("'{opcode}': only global and local memory are replicated"));
                }
                format!("st_{}({}, {});", c.short(), self.address(&ops[0])?, rd(&ops[1])?)
            }
            _ => return Err(format!("'{opcode}' is not replicated")),
        })
    }
}

/// Translates kernel `name` of `ptx` to a C function of the same name (see the module
/// docs); errors name the PTX line.
pub fn translate_kernel(ptx: &str, name: &str) -> Result<String, String> {
    let head = format!(".entry {name}(");
    let start = ptx.find(&head).ok_or_else(|| format!("no kernel {name} in the PTX"))?;
    let body_start = start + ptx[start..].find("\n{").ok_or("kernel without a body")?;
    let body_end = body_start + ptx[body_start..].find("\n}").ok_or("unterminated kernel")?;
    let header = &ptx[start..body_start];
    let body = &ptx[body_start + 2..body_end];
    let line0 = ptx[..body_start].lines().count() + 1;
    let mut k = Kernel { name, regs: HashMap::new(), params: Vec::new(), depots: Vec::new() };
    for l in header.lines() {
        let l = l.trim().trim_end_matches([',', ')']);
        if let Some(p) = l.strip_prefix(".param") {
            k.params.push(p.split_whitespace().last().unwrap_or("").to_string());
        }
    }
    let mut decls = String::new();
    let mut code = String::new();
    for (i, raw) in body.lines().enumerate() {
        let at = |e: String| format!("{name}, PTX line {}: {e}: `{}`", line0 + i, raw.trim());
        let l = raw.split("//").next().unwrap_or("").trim();
        if l.is_empty() || l == "{" || l == "}" {
            if l == "{" || l == "}" {
                return Err(at("nested blocks are not replicated".into()));
            }
            continue;
        }
        if let Some(r) = l.strip_prefix(".reg") {
            // .reg .f32 %f<35>;
            let mut w = r.split_whitespace();
            let t = w.next().unwrap_or("").trim_start_matches('.');
            let v = w.next().unwrap_or("").trim_end_matches(';');
            let (class, _) = type_of(t).ok_or_else(|| at(format!("register type .{t} is not replicated")))?;
            let (prefix, n) = v
                .strip_prefix('%')
                .and_then(|v| v.split_once('<'))
                .and_then(|(p, n)| Some((p.to_string(), n.trim_end_matches('>').parse::<usize>().ok()?)))
                .ok_or_else(|| at("unexpected .reg form".into()))?;
            k.regs.insert(prefix.clone(), class);
            let names: Vec<String> = (0..n).map(|j| format!("R_{prefix}{j} = 0")).collect();
            for chunk in names.chunks(16) {
                let _ = writeln!(decls, "  {} {};", class.c_type(), chunk.join(", "));
            }
            continue;
        }
        if let Some(r) = l.strip_prefix(".local") {
            // .local .align 8 .b8 __local_depot0[24];
            let decl = r.split_whitespace().last().unwrap_or("").trim_end_matches(';');
            let (sym, size) = decl.split_once('[').ok_or_else(|| at("unexpected .local form".into()))?;
            let size: usize = size.trim_end_matches(']').parse().map_err(|_| at("bad depot size".into()))?;
            k.depots.push(sym.to_string());
            let _ = writeln!(decls, "  uint8_t {}[{}] __attribute__((aligned(16)));", c_ident(sym), size.max(1));
            continue;
        }
        if l.starts_with('.') {
            return Err(at("directive is not replicated".into()));
        }
        if let Some(label) = l.strip_suffix(':') {
            let _ = writeln!(code, "{}:;", c_ident(label));
            continue;
        }
        let l = l.trim_end_matches(';');
        let (guard, rest) = match l.strip_prefix('@') {
            Some(g) => {
                let (p, rest) = g.split_once(char::is_whitespace).ok_or_else(|| at("guard without instruction".into()))?;
                let (neg, p) = match p.strip_prefix('!') {
                    Some(p) => (true, p),
                    None => (false, p),
                };
                let pe = k.read(&parse_operand(p).map_err(at)?, Class::Pred, false).map_err(at)?;
                (Some(format!("if ({}{pe}) ", if neg { "!" } else { "" })), rest.trim())
            }
            None => (None, l),
        };
        let (opcode, args) = match rest.split_once(char::is_whitespace) {
            Some((o, a)) => (o, a.trim()),
            None => (rest, ""),
        };
        let stmt = match opcode.split('.').next().unwrap_or("") {
            "bra" => format!("goto {};", c_ident(args)),
            "ret" | "exit" => "return;".to_string(),
            _ => {
                let ops: Vec<Operand> =
                    if args.is_empty() { Vec::new() } else { args.split(',').map(parse_operand).collect::<Result<_, _>>().map_err(at)? };
                k.instruction(opcode, &ops).map_err(at)?
            }
        };
        let _ = writeln!(code, "  {}{stmt}", guard.unwrap_or_default());
    }
    Ok(format!(
        "static void {}(const uint64_t *param, uint32_t tid, uint32_t ctaid, uint32_t ntid) {{\n  (void)tid; (void)ctaid; (void)ntid;\n{decls}{code}}}\n",
        c_ident(k.name)
    ))
}

/// A C program running the translated unary kernel `name` (inputs and outputs of `width`
/// bytes) over `count` inputs `start, start + stride, ...` (bit patterns, wrapping), writing
/// the outputs' bits to stdout: `prog START COUNT STRIDE`; with `-` as START it reads the
/// input bits from stdin instead, until end of file.
pub fn unary_program(ptx: &str, name: &str, width: usize) -> Result<String, String> {
    let f = translate_kernel(ptx, name)?;
    let t = if width == 4 { "uint32_t" } else { "uint64_t" };
    Ok(format!(
        r#"{PRELUDE}
{f}
enum {{ BATCH = 1 << 16, BLOCK = 256 }};
static {t} xs[BATCH], ys[BATCH];
static void run(long n) {{
  uint64_t param[3] = {{ (uint64_t)(uintptr_t)xs, (uint64_t)(uintptr_t)ys, (uint64_t)n }};
  for (long j = 0; j < n; j++) {name}(param, (uint32_t)(j % BLOCK), (uint32_t)(j / BLOCK), BLOCK);
  if (fwrite(ys, sizeof ys[0], (size_t)n, stdout) != (size_t)n) exit(2);
}}
int main(int argc, char **argv) {{
  if (argc == 2 && argv[1][0] == '-') {{
    size_t n;
    while ((n = fread(xs, sizeof xs[0], BATCH, stdin)) > 0) run((long)n);
    return 0;
  }}
  if (argc != 4) {{ fprintf(stderr, "usage: %s START COUNT STRIDE | -\n", argv[0]); return 2; }}
  {t} x = ({t})strtoull(argv[1], 0, 0);
  unsigned long long count = strtoull(argv[2], 0, 0), stride = strtoull(argv[3], 0, 0);
  while (count > 0) {{
    long n = count < BATCH ? (long)count : BATCH;
    for (long j = 0; j < n; j++) {{ xs[j] = x; x += ({t})stride; }}
    run(n);
    count -= (unsigned long long)n;
  }}
  return 0;
}}
"#
    ))
}
