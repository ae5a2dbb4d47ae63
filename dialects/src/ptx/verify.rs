//! What each PTX instruction takes: the modifiers and type suffixes of its `mods` string,
//! per mnemonic, from the PTX ISA (version 8.x, the instructions sm_75..sm_90 have). One
//! table: the verifier of every instruction op checks its `mods` against it, and the PTX
//! reader takes the mnemonics it knows from it.
//!
//! A `mods` string is the instruction's dot-separated suffixes after the mnemonic
//! (`"global.nc.v4.f32"` of `ld.global.nc.v4.f32`). Each must be a modifier of the
//! mnemonic's row or a type of the row's type class; a row that needs a type suffix
//! rejects a `mods` without one. Cache-eviction qualifiers (`L1::no_allocate`,
//! `L2::cache_hint`, `L2::256B`) are accepted where the row allows them.

use cuprite_ir::{Context, OpId};

/// The rounding modifiers of float arithmetic.
const RND: &[&str] = &["rn", "rz", "rm", "rp"];

/// Which type suffixes a mnemonic takes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Types {
    /// None (`trap`, `membar.gl`).
    None,
    /// Any fundamental type (`mov`, `ld`, `st`, `setp`, `cvt`, ...).
    Any,
    /// Integers and bit types only (`rem`, `shl`, `popc`, ...).
    Int,
    /// Floats only (`sqrt`, `ex2`, `copysign`, ...).
    Float,
}

/// One mnemonic: its modifiers, its type class, whether a type suffix is required, and
/// whether cache-eviction qualifiers (`L1::`, `L2::`) may appear.
#[derive(Debug)]
pub struct Mnemonic {
    pub name: &'static str,
    pub mods: &'static [&'static [&'static str]],
    pub types: Types,
    pub needs_type: bool,
    pub eviction: bool,
}

const fn m(name: &'static str, mods: &'static [&'static [&'static str]], types: Types, needs_type: bool) -> Mnemonic {
    Mnemonic { name, mods, types, needs_type, eviction: false }
}

const fn mem(name: &'static str, mods: &'static [&'static [&'static str]]) -> Mnemonic {
    Mnemonic { name, mods, types: Types::Any, needs_type: true, eviction: true }
}

const SPACES: &[&str] = &["global", "shared", "local", "const", "param", "cluster"];
const SCOPES: &[&str] = &["cta", "cluster", "gpu", "sys"];
const VECTORS: &[&str] = &["v2", "v4", "v8"];
const ORDER: &[&str] = &["weak", "relaxed", "acquire", "release", "acq_rel", "volatile", "mmio"];
const INT_MUL: &[&str] = &["lo", "hi", "wide", "sat", "cc"];
const CMP: &[&str] = &[
    "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan", "and", "or", "xor",
];
const ATOMIC_OPS: &[&str] = &["add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas", "noftz"];

/// Every instruction the `ptx` dialect has (besides `bra`, `ret`, `exit`, `call`).
pub static MNEMONICS: &[Mnemonic] = &[
    m("mov", &[], Types::Any, true),
    m("add", &[RND, &["ftz", "sat", "cc", "relu"]], Types::Any, true),
    m("sub", &[RND, &["ftz", "sat", "cc", "relu"]], Types::Any, true),
    m("addc", &[&["cc"]], Types::Int, true),
    m("subc", &[&["cc"]], Types::Int, true),
    m("mul", &[RND, INT_MUL, &["ftz", "relu"]], Types::Any, true),
    m("mad", &[RND, INT_MUL, &["ftz", "relu"]], Types::Any, true),
    m("madc", &[INT_MUL], Types::Int, true),
    m("mul24", &[&["lo", "hi"]], Types::Int, true),
    m("fma", &[RND, &["ftz", "sat", "relu", "oob"]], Types::Float, true),
    m("div", &[RND, &["approx", "full", "ftz"]], Types::Any, true),
    m("rem", &[], Types::Int, true),
    m("and", &[], Types::Int, true),
    m("or", &[], Types::Int, true),
    m("xor", &[], Types::Int, true),
    m("not", &[], Types::Int, true),
    m("cnot", &[], Types::Int, true),
    m("shl", &[], Types::Int, true),
    m("shr", &[], Types::Int, true),
    m("neg", &[&["ftz", "relu"]], Types::Any, true),
    m("abs", &[&["ftz", "relu"]], Types::Any, true),
    m("min", &[&["ftz", "NaN", "xorsign", "abs", "relu"]], Types::Any, true),
    m("max", &[&["ftz", "NaN", "xorsign", "abs", "relu"]], Types::Any, true),
    m("copysign", &[], Types::Float, true),
    m("setp", &[CMP, &["ftz"]], Types::Any, true),
    m("selp", &[], Types::Any, true),
    m("cvt", &[RND, &["rni", "rzi", "rmi", "rpi", "ftz", "sat", "relu", "satfinite"]], Types::Any, true),
    m("cvta", &[&["to"], SPACES], Types::Int, true),
    mem("ld", &[SPACES, &["nc", "ca", "cg", "cs", "lu", "cv"], SCOPES, VECTORS, ORDER]),
    mem("st", &[SPACES, &["wb", "cg", "cs", "wt"], SCOPES, VECTORS, ORDER]),
    mem("atom", &[SPACES, ATOMIC_OPS, SCOPES, VECTORS, ORDER]),
    mem("red", &[SPACES, ATOMIC_OPS, SCOPES, VECTORS, ORDER]),
    m("bar", &[&["sync", "arrive", "red", "popc", "and", "or", "warp", "aligned", "cta"]], Types::Int, false),
    m("barrier", &[&["sync", "arrive", "red", "popc", "and", "or", "aligned", "cta"]], Types::Int, false),
    m("membar", &[&["cta", "gl", "sys"]], Types::None, false),
    m("shfl", &[&["sync", "up", "down", "bfly", "idx"]], Types::Int, true),
    m("vote", &[&["sync", "all", "any", "uni", "ballot"]], Types::Int, true),
    m("redux", &[&["sync", "add", "min", "max", "and", "or", "xor", "abs", "NaN"]], Types::Any, true),
    m("match", &[&["any", "all", "sync"]], Types::Int, true),
    m("dp4a", &[], Types::Int, true),
    m("activemask", &[], Types::Int, true),
    m("sqrt", &[RND, &["approx", "ftz"]], Types::Float, true),
    m("rcp", &[RND, &["approx", "ftz"]], Types::Float, true),
    m("rsqrt", &[&["approx", "ftz"]], Types::Float, true),
    m("ex2", &[&["approx", "ftz"]], Types::Float, true),
    m("lg2", &[&["approx", "ftz"]], Types::Float, true),
    m("sin", &[&["approx", "ftz"]], Types::Float, true),
    m("cos", &[&["approx", "ftz"]], Types::Float, true),
    m("tanh", &[&["approx"]], Types::Float, true),
    m("popc", &[], Types::Int, true),
    m("clz", &[], Types::Int, true),
    m("brev", &[], Types::Int, true),
    m("bfind", &[&["shiftamt"]], Types::Int, true),
    m("bfe", &[], Types::Int, true),
    m("bfi", &[], Types::Int, true),
    m("prmt", &[&["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]], Types::Int, true),
    m("shf", &[&["l", "r", "wrap", "clamp"]], Types::Int, true),
    m("fns", &[], Types::Int, true),
    m("testp", &[&["finite", "infinite", "number", "notanumber", "normal", "subnormal"]], Types::Float, true),
    m("tex", &[&["1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms", "level", "grad", "base"], VECTORS], Types::Any, true),
    m("trap", &[], Types::None, false),
    // sm_80's asynchronous copy global -> shared and its group fences.
    m("cp", &[&["async", "ca", "cg", "shared", "global", "cta", "commit_group", "wait_group", "wait_all"]], Types::None, false),
];

/// The row of mnemonic `name`.
pub fn mnemonic(name: &str) -> Option<&'static Mnemonic> {
    MNEMONICS.iter().find(|m| m.name == name)
}

/// The type class of a PTX type suffix, if `t` is one.
fn type_class(t: &str) -> Option<Types> {
    match t {
        "pred" | "b8" | "b16" | "b32" | "b64" | "b128" | "s8" | "s16" | "s32" | "s64" | "u8" | "u16" | "u32" | "u64" => Some(Types::Int),
        "f16" | "f16x2" | "bf16" | "bf16x2" | "f32" | "f64" | "tf32" | "e4m3" | "e5m2" | "e4m3x2" | "e5m2x2" => Some(Types::Float),
        _ => None,
    }
}

/// Checks `mods` against the row of `mnemonic`.
pub fn check_mods(mnemonic_name: &str, mods: &str) -> Result<(), String> {
    let row = mnemonic(mnemonic_name).ok_or_else(|| format!("'{mnemonic_name}' is not a PTX instruction this dialect has"))?;
    let mut typed = false;
    for t in mods.split('.').filter(|t| !t.is_empty()) {
        if row.mods.iter().any(|set| set.contains(&t)) {
            continue;
        }
        if row.eviction && (t.starts_with("L1::") || t.starts_with("L2::")) {
            continue;
        }
        match type_class(t) {
            Some(c) if row.types == Types::Any || (row.types == c) => typed = true,
            Some(_) => return Err(format!("'{mnemonic_name}' takes no '.{t}' type")),
            None => return Err(format!("'{mnemonic_name}' has no modifier '.{t}'")),
        }
    }
    if row.needs_type && !typed {
        return Err(format!("'{mnemonic_name}.{mods}' needs a type suffix"));
    }
    Ok(())
}

/// The verifier of every instruction op: its `mods` string is one its mnemonic takes.
pub fn verify_inst(ctx: &Context, op: OpId) -> Result<(), String> {
    let name = ctx.op_name_str(op);
    let mnemonic = name.strip_prefix("ptx.").unwrap_or(name);
    let mods = super::inst_mods(ctx, op).unwrap_or("");
    check_mods(mnemonic, mods)
}

#[cfg(test)]
mod tests {
    use super::check_mods;

    #[test]
    fn what_nvrtc_and_cuprite_write_is_accepted_and_nonsense_is_not() {
        for (m, mods) in [
            ("ld", "global.nc.L1::no_allocate.v4.f32"),
            ("st", "volatile.shared.u8"),
            ("atom", "global.cas.b32"),
            ("atom", "relaxed.gpu.global.add.noftz.f16"),
            ("setp", "ltu.and.ftz.f32"),
            ("cvt", "rni.sat.s32.f64"),
            ("mad", "wide.u32"),
            ("bar", "sync"),
            ("bar", "red.popc.u32"),
            ("membar", "gl"),
            ("tex", "2d.v4.f32.f32"),
            ("vote", "sync.ballot.b32"),
            ("trap", ""),
        ] {
            assert_eq!(check_mods(m, mods), Ok(()), "{m}.{mods}");
        }
        for (m, mods) in [("add", "approx.s32"), ("ld", "global"), ("sqrt", "rn.s32"), ("membar", "f32"), ("nosuch", "u32")] {
            assert!(check_mods(m, mods).is_err(), "{m}.{mods}");
        }
    }
}
