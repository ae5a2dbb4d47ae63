//! Runs one program at every level of cuprite and from NVRTC's PTX, on the simulator, and
//! says whether they agree.
//!
//! The `cuda` level (the frontend's output, interpreted) is the reference. Against it, bit
//! for bit: `nvvm` before and after the `-O3` pipeline, the selected `ptx`, cuprite's PTX
//! printed and read back, and NVRTC 13.0's PTX for the same source. Both compilers run with
//! `-fmad=false`, so no contraction makes a legitimate difference.
//!
//! In the contraction mode ([`Mode::fmad`]) both compilers contract `a * b + c`. Then the
//! `cuda` level (which rounds the product) is the reference of `nvvm -O0` (bit for bit, as
//! before contraction) and of the well-conditioned channel (`out_wf`, `out_wd`, see
//! [`crate::ast::Stmt::Accum`]) of every later run, within the ulp bound the program states;
//! cuprite's contracted PTX is the bit-for-bit reference of its PTX read back and of NVRTC's
//! (where they differ, the two compilers contracted differently).

use crate::ast::Program;
use crate::print;
use cuprite_sim::spec::{compare, parse_toml, LaunchSpec, Output};
use cuprite_sim::{run_spec, Level, Schedule};
use std::path::{Path, PathBuf};

/// How both compilers compile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// Both contract `a * b + c` into `fma` (their default). Then only `nvvm -O0` (before
    /// any contraction) is compared with the `cuda` level bit for bit; the well-conditioned
    /// channel of every later run (NVRTC's too) must be within the program's stated ulp
    /// bound of it; cuprite's PTX is the bit-for-bit reference of the PTX read back. Whether
    /// NVRTC's PTX computes the same bits as cuprite's is measured ([`Measure`]): where not,
    /// the two compilers contracted differently, which is no miscompilation.
    pub fmad: bool,
}

/// Simulated instructions one run may take before it counts as a hang.
pub const MAX_INSTRUCTIONS: u64 = 1 << 27;

/// What the contraction mode measured on one program: the largest distance, in ulps, of
/// `out_wf` and of `out_wd` from the uncontracted reference (over cuprite's levels and
/// NVRTC's PTX), the bound the program states (if it has the channel), and where NVRTC's
/// PTX computes other bits than cuprite's, the first difference.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    pub worst: (u64, u64),
    pub bound: Option<(u64, u64)>,
    pub nvrtc_differs: Option<String>,
}

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
    /// NVRTC did not finish in its time (its problem, not cuprite's: a few generated
    /// programs make it run for minutes); the program agrees at cuprite's levels.
    NvrtcTimeout(String),
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
            Outcome::NvrtcTimeout(_) => "NVRTC times out".into(),
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
            Outcome::NvrtcTimeout(m) => write!(f, "{m} (cuprite's levels agree)"),
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
pub fn nvrtc(
    cuda: &Path,
    source: &str,
    dir: &Path,
    stem: &str,
    mode: Mode,
    timeout: std::time::Duration,
) -> Result<(Nvrtc, String), Outcome> {
    let cu = dir.join(format!("{stem}.cu"));
    let ptx = dir.join(format!("{stem}.nvrtc.ptx"));
    let io = |e: std::io::Error| Outcome::NvrtcRejects(format!("{}: {e}", cu.display()));
    std::fs::write(&cu, source).map_err(io)?;
    let _ = std::fs::remove_file(&ptx);
    let mut child = std::process::Command::new("python3")
        .arg(repo_root().join("bench/nvrtc_compile.py"))
        .arg(&cu)
        .arg("--cuda-root")
        .arg(cuda)
        .args(["--arch", "sm_90", if mode.fmad { "-fmad=true" } else { "-fmad=false" }, "-o"])
        .arg(&ptx)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Outcome::NvrtcRejects(format!("python3: {e}")))?;
    // Its diagnostics are read on a thread, so that a full pipe cannot stall it.
    let mut pipe = child.stderr.take();
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = pipe.as_mut() {
            let _ = std::io::Read::read_to_string(p, &mut s);
        }
        s
    });
    let start = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(std::time::Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Outcome::NvrtcTimeout(format!("NVRTC took more than {} s on {}", timeout.as_secs(), cu.display())));
            }
            Err(e) => return Err(Outcome::NvrtcRejects(format!("python3: {e}"))),
        }
    };
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        return Err(Outcome::NvrtcRejects(format!("NVRTC rejects {}:\n{err}", cu.display())));
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
    check_measured(p, nvrtc, mode).0
}

/// [`check`], with what the contraction mode measured (`None` in the exact mode, and for a
/// program that states no bound).
pub fn check_measured(p: &Program, nvrtc: Option<&Nvrtc>, mode: Mode) -> (Outcome, Option<Measure>) {
    check_source_measured(&format!("random{}.cu", p.seed), &print::source(p), &print::spec(p), nvrtc, mode)
}

/// [`check`] for a program as text: the source (file `name`) and its launch spec (TOML, one
/// launch or more, each checked).
pub fn check_source(name: &str, src: &str, spec_toml: &str, nvrtc: Option<&Nvrtc>, mode: Mode) -> Outcome {
    check_source_measured(name, src, spec_toml, nvrtc, mode).0
}

/// [`check_source`] with the contraction mode's measure (see [`check_measured`]).
pub fn check_source_measured(name: &str, src: &str, spec_toml: &str, nvrtc: Option<&Nvrtc>, mode: Mode) -> (Outcome, Option<Measure>) {
    let specs = match parse_toml(spec_toml) {
        Ok(v) => v,
        Err(e) => return (Outcome::ReferenceFails(format!("launch spec: {e}")), None),
    };
    let opts = level_options(mode);
    let lv = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cuprite::levels::compile_levels(name, src, &opts))) {
        Ok(Ok(lv)) => lv,
        Ok(Err(diags)) => return (Outcome::Rejected(diags), None),
        Err(e) => return (Outcome::Ice(cuprite::ice_message(&*e)), None),
    };
    let mut measure = mode.fmad.then(|| Measure { bound: print::ulp_bound(src), ..Measure::default() });
    for spec in &specs {
        let o = check_launch(name, &lv, spec, nvrtc, mode, measure.as_mut());
        if !o.is_agree() {
            return (o, measure);
        }
    }
    (Outcome::Agree, measure)
}

/// The contraction mode's check of the well-conditioned channel: `out_wf` and `out_wd` of
/// `outs` within the stated bound of the uncontracted reference's; the worst distances
/// seen go into `m`.
fn channel(reference: &[Output], outs: &[Output], m: &mut Measure) -> Result<(), String> {
    let Some(b) = m.bound else { return Ok(()) };
    for (name, bound, worst) in [("out_wf", b.0, &mut m.worst.0), ("out_wd", b.1, &mut m.worst.1)] {
        let find = |v: &[Output]| v.iter().find(|o| o.name == name).cloned();
        let (Some(r), Some(o)) = (find(reference), find(outs)) else {
            return Err(format!("no output {name}"));
        };
        match compare(&[r], &[o], bound) {
            Ok(w) => *worst = (*worst).max(w),
            Err(e) => return Err(format!("beyond the stated bound of {bound} ulps: {e}")),
        }
    }
    Ok(())
}

fn check_launch(
    name: &str,
    lv: &cuprite::levels::Levels,
    spec: &LaunchSpec,
    nvrtc: Option<&Nvrtc>,
    mode: Mode,
    mut measure: Option<&mut Measure>,
) -> Outcome {
    let mut reference = match run(&lv.ctx, lv.cuda, Level::Cuda, spec) {
        Ok(r) => r,
        Err(e) => return Outcome::ReferenceFails(e),
    };
    let uncontracted = reference.clone();
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
            let outs = match r {
                Ok(outs) => outs,
                Err(e) => return Outcome::Differs { what: what.into(), detail: format!("the run fails: {e}") },
            };
            if let Some(m) = measure.as_deref_mut() {
                if let Err(detail) = channel(&uncontracted, &outs, m) {
                    return Outcome::Differs { what: format!("{what} (the contracted channel)"), detail };
                }
            }
            if what == "ptx" {
                reference = outs;
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
        if let (Some(m), Ok(outs)) = (measure.as_deref_mut(), r.as_ref()) {
            if let Err(detail) = channel(&uncontracted, outs, m) {
                return Outcome::Differs { what: "NVRTC's PTX (the contracted channel)".into(), detail };
            }
        }
        if let (Some(m), Ok(outs)) = (measure, r.as_ref()) {
            m.nvrtc_differs = m.nvrtc_differs.take().or_else(|| compare(&reference, outs, 0).err());
            return Outcome::Agree;
        }
        if let Some(o) = differs(&reference, "NVRTC's PTX", r) {
            return o;
        }
    }
    Outcome::Agree
}
