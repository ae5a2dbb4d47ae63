//! Runs one program at every level of cuprite and from NVRTC's PTX, on the simulator, and
//! says whether they agree.
//!
//! The `cuda` level (the frontend's output, interpreted) is the reference. Against it, bit
//! for bit: `nvvm` before and after the `-O3` pipeline, the selected `ptx`, cuprite's PTX
//! printed and read back, and NVRTC 13.0's PTX for the same source. Both compilers run with
//! `-fmad=false`, so no contraction makes a legitimate difference.

use crate::ast::Program;
use crate::print;
use cuprite_sim::spec::{compare, parse_toml, LaunchSpec, Output};
use cuprite_sim::{run_spec, Level, Schedule};
use std::path::{Path, PathBuf};

/// How both compilers compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// Both contract `a * b + c` into `fma` (their default). Then only `nvvm -O0` (before
    /// any contraction) is compared with the `cuda` level; the later levels must run, and
    /// cuprite's PTX is the reference of the PTX read back and of NVRTC's: a difference
    /// there says the two compilers contracted differently (a measurement, not a
    /// miscompilation).
    pub fmad: bool,
}

/// Simulated instructions one run may take before it counts as a hang.
pub const MAX_INSTRUCTIONS: u64 = 1 << 27;

/// What checking a program found.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Agree,
    /// cuprite rejects the program: a gap in what it accepts (NVRTC takes it).
    Rejected(String),
    /// A panic (cuprite's or the simulator's), with its message.
    Ice(String),
    /// The reference (`cuda` level) run fails: the generator's bug or the simulator's.
    ReferenceFails(String),
    /// NVRTC's PTX does not read or run on the simulator (the simulator's gap): the
    /// instruction.
    NvrtcUnsimulated(String),
    /// NVRTC rejects the program (the generator's bug).
    NvrtcRejects(String),
    /// Another run (`what`) fails or differs from the reference.
    Differs {
        what: String,
        detail: String,
    },
}

impl Outcome {
    /// What a reduction must keep: the kind and, for a difference, which run.
    pub fn key(&self) -> String {
        match self {
            Outcome::Agree => "agree".into(),
            Outcome::Rejected(_) => "rejected".into(),
            Outcome::Ice(m) => format!("ice: {}", m.lines().next().unwrap_or("")),
            Outcome::ReferenceFails(_) => "reference fails".into(),
            Outcome::NvrtcUnsimulated(m) => format!("NVRTC's PTX unsimulated: {m}"),
            Outcome::NvrtcRejects(_) => "NVRTC rejects".into(),
            Outcome::Differs { what, .. } => format!("differs: {what}"),
        }
    }
    pub fn is_agree(&self) -> bool {
        *self == Outcome::Agree
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Outcome::Agree => write!(f, "agree"),
            Outcome::Rejected(m) => write!(f, "cuprite rejects it:\n{m}"),
            Outcome::Ice(m) => write!(f, "{m}"),
            Outcome::ReferenceFails(m) => write!(f, "the cuda level's run fails: {m}"),
            Outcome::NvrtcUnsimulated(m) => write!(f, "NVRTC's PTX does not run on the simulator: {m}"),
            Outcome::NvrtcRejects(m) => write!(f, "{m}"),
            Outcome::Differs { what, detail } => write!(f, "{what} differs from its reference: {detail}"),
        }
    }
}

/// NVRTC's PTX for a program set, read into a context.
pub struct Nvrtc {
    pub ctx: cuprite_ir::Context,
    pub module: cuprite_ir::OpId,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The CUDA root with NVRTC (`scripts/install-cuda-ref.sh`), if installed: `CUPRITE_CUDA_ROOT`
/// or the default install place.
pub fn cuda_root() -> Option<PathBuf> {
    let cands: Vec<PathBuf> = match std::env::var_os("CUPRITE_CUDA_ROOT") {
        Some(p) => vec![PathBuf::from(p)],
        None => {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
            vec![home.join(".cache/cuprite-cuda-ref/site/nvidia/cu13")]
        }
    };
    cands.into_iter().find(|c| c.join("lib/libnvrtc.so.13").is_file())
}

/// Compiles `source` with NVRTC (`-fmad=false`, sm_90) through `bench/nvrtc_compile.py`,
/// in `dir`, and reads the PTX (returned with its text). `Err`: NVRTC's log or the
/// reader's errors.
pub fn nvrtc(cuda: &Path, source: &str, dir: &Path, stem: &str, mode: Mode) -> Result<(Nvrtc, String), Outcome> {
    let cu = dir.join(format!("{stem}.cu"));
    let ptx = dir.join(format!("{stem}.nvrtc.ptx"));
    let io = |e: std::io::Error| Outcome::NvrtcRejects(format!("{}: {e}", cu.display()));
    std::fs::write(&cu, source).map_err(io)?;
    let r = std::process::Command::new("python3")
        .arg(repo_root().join("bench/nvrtc_compile.py"))
        .arg(&cu)
        .arg("--cuda-root")
        .arg(cuda)
        .args(["--arch", "sm_90", if mode.fmad { "-fmad=true" } else { "-fmad=false" }, "-o"])
        .arg(&ptx)
        .output()
        .map_err(|e| Outcome::NvrtcRejects(format!("python3: {e}")))?;
    if !r.status.success() {
        return Err(Outcome::NvrtcRejects(format!("NVRTC rejects {}:\n{}", cu.display(), String::from_utf8_lossy(&r.stderr))));
    }
    let text = std::fs::read_to_string(&ptx).map_err(io)?;
    let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
    let module = cuprite_lowering::ptx_read::read_ptx(&mut ctx, &text, "nvrtc.ptx")
        .map_err(|e| Outcome::NvrtcUnsimulated(e.first().map_or_else(|| "unreadable".to_string(), |e| e.message.clone())))?;
    Ok((Nvrtc { ctx, module }, text))
}

/// The options both compilers use: `-O3 -fmad=false` (`-fmad=true` in the contraction mode).
pub fn level_options(mode: Mode) -> cuprite::levels::LevelOptions {
    let mut o = cuprite::levels::LevelOptions::default();
    o.float.fmad = Some(mode.fmad);
    o
}

fn run(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, level: Level, l: &LaunchSpec) -> Result<Vec<Output>, String> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_spec(ctx, m, level, l, Schedule::InOrder, MAX_INSTRUCTIONS)))
        .map_err(|e| format!("simulator {}", cuprite::ice_message(&*e)))??;
    if !r.stats.warnings.is_empty() {
        return Err(format!("warnings: {:?}", r.stats.warnings));
    }
    Ok(r.outputs)
}

/// Checks `p` at every level of cuprite and, when given, against NVRTC's PTX (which may hold
/// other programs too: the kernel is found by name).
pub fn check(p: &Program, nvrtc: Option<&Nvrtc>, mode: Mode) -> Outcome {
    check_source(&format!("random{}.cu", p.seed), &print::source(p), &print::spec(p), nvrtc, mode)
}

/// [`check`] for a program as text: the source (file `name`) and its launch spec (TOML, one
/// launch or more, each checked).
pub fn check_source(name: &str, src: &str, spec_toml: &str, nvrtc: Option<&Nvrtc>, mode: Mode) -> Outcome {
    let specs = match parse_toml(spec_toml) {
        Ok(v) => v,
        Err(e) => return Outcome::ReferenceFails(format!("launch spec: {e}")),
    };
    let opts = level_options(mode);
    let lv = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cuprite::levels::compile_levels(name, src, &opts))) {
        Ok(Ok(lv)) => lv,
        Ok(Err(diags)) => return Outcome::Rejected(diags),
        Err(e) => return Outcome::Ice(cuprite::ice_message(&*e)),
    };
    for spec in &specs {
        let o = check_launch(name, &lv, spec, nvrtc, mode);
        if !o.is_agree() {
            return o;
        }
    }
    Outcome::Agree
}

fn check_launch(name: &str, lv: &cuprite::levels::Levels, spec: &LaunchSpec, nvrtc: Option<&Nvrtc>, mode: Mode) -> Outcome {
    let mut reference = match run(&lv.ctx, lv.cuda, Level::Cuda, spec) {
        Ok(r) => r,
        Err(e) => return Outcome::ReferenceFails(e),
    };
    let differs = |reference: &[Output], what: &str, r: Result<Vec<Output>, String>| -> Option<Outcome> {
        let detail = match r {
            Ok(outs) => compare(reference, &outs, 0).err()?,
            Err(e) => format!("the run fails: {e}"),
        };
        Some(Outcome::Differs { what: what.into(), detail })
    };
    for (what, m, level) in [("nvvm -O0", lv.nvvm_o0, Level::Nvvm), ("nvvm -O3", lv.nvvm, Level::Nvvm), ("ptx", lv.ptx, Level::Ptx)] {
        let r = run(&lv.ctx, m, level, spec);
        // Contraction happens in the -O pipeline and in instruction selection: the levels
        // after it run, and the PTX becomes the reference.
        if mode.fmad && what != "nvvm -O0" {
            match r {
                Ok(outs) if what == "ptx" => reference = outs,
                Ok(_) => {}
                Err(e) => return Outcome::Differs { what: what.into(), detail: format!("the run fails: {e}") },
            }
            continue;
        }
        if let Some(o) = differs(&reference, what, r) {
            return o;
        }
    }
    let mut rctx = cuprite_ir::Context::new(cuprite_dialects::registry());
    match cuprite_lowering::ptx_read::read_ptx(&mut rctx, &lv.ptx_text, name) {
        Ok(m) => {
            if let Some(o) = differs(&reference, "ptx read back", run(&rctx, m, Level::Ptx, spec)) {
                return o;
            }
        }
        Err(e) => {
            let detail = cuprite_lowering::ptx_read::render(name, &lv.ptx_text, &e);
            return Outcome::Differs { what: "ptx read back".into(), detail: format!("cuprite's PTX does not read back:\n{detail}") };
        }
    }
    if let Some(n) = nvrtc {
        let r = run(&n.ctx, n.module, Level::Ptx, spec);
        if let Err(e) = r.as_ref() {
            if e.contains("no semantics") || e.contains("not simulated") {
                return Outcome::NvrtcUnsimulated(e.lines().next().unwrap_or("").to_string());
            }
        }
        let what = if mode.fmad { "NVRTC's contracted PTX (against cuprite's)" } else { "NVRTC's PTX" };
        if let Some(o) = differs(&reference, what, r) {
            return o;
        }
    }
    Outcome::Agree
}
