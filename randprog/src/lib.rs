//! Random differential testing of cuprite (Csmith's and YARPGen's idea, for CUDA).
//!
//! - [`gen`]: a seed becomes a [`ast::Program`]: one kernel with nested loops and branches,
//!   `switch`, integer arithmetic of every width, `float` and `double`, the math library and
//!   integer intrinsics, local arrays and structs, `size_t` indices, `__constant__` data,
//!   device functions (some `__noinline__`), shared memory with barriers, warp shuffles,
//!   votes, reductions and matches, `__dp4a`, `__byte_perm`, funnel shifts, and atomics. The
//!   model makes undefined behaviour unrepresentable (see [`ast`]).
//! - [`print`](mod@print): the program as a `.cu` file and its launch spec.
//! - [`check`]: the program at every level of cuprite and from NVRTC's PTX, on the
//!   simulator, compared bit for bit with the `cuda` level (both compilers `-fmad=false`).
//! - [`reduce`]: a failing program made small, edit by edit on the AST.
//! - [`run`] (a [`Campaign`]): many programs, NVRTC called once per batch, failures
//!   reduced and saved as `.cu` + `.toml` pairs; `tests/random/` keeps the ones found so
//!   far as regression tests.
//!
//! The command line is `cuprite-randprog` (`src/main.rs`).

pub mod ast;
pub mod check;
pub mod gen;
pub mod print;
pub mod reduce;

use check::Outcome;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// A campaign's settings.
#[derive(Clone, Debug)]
pub struct Campaign {
    pub first_seed: u64,
    pub count: u64,
    /// Programs per NVRTC call.
    pub batch: u64,
    pub jobs: usize,
    /// Where failures are written (reduced and original); None: nowhere.
    pub out: Option<PathBuf>,
    /// Compare with NVRTC's PTX (needs `scripts/install-cuda-ref.sh`).
    pub nvrtc: Option<PathBuf>,
    /// Reduce at most this many failures per kind (0: none).
    pub reduce_per_kind: usize,
    pub gen: gen::Config,
    pub mode: check::Mode,
}

/// A failure the campaign found.
#[derive(Clone, Debug)]
pub struct Finding {
    pub program: ast::Program,
    pub outcome: Outcome,
    /// The reduced program and its outcome, when it was reduced.
    pub reduced: Option<(ast::Program, Outcome)>,
}

/// What a campaign found.
#[derive(Debug, Default)]
pub struct Summary {
    pub programs: u64,
    pub agree: u64,
    /// Failures by [`Outcome::key`].
    pub by_kind: BTreeMap<String, u64>,
    pub findings: Vec<Finding>,
    /// Programs NVRTC could not compile (the generator's bug): their seeds.
    pub nvrtc_rejects: Vec<u64>,
    /// Programs NVRTC did not compile in its time (they agree at cuprite's levels).
    pub nvrtc_timeouts: Vec<u64>,
    pub seconds: f64,
    /// The contraction mode's well-conditioned channel, over the programs that agree.
    pub channel: ChannelStats,
}

/// What the contraction mode measured over a campaign (see [`check::Measure`]).
#[derive(Debug, Default)]
pub struct ChannelStats {
    /// Programs measured.
    pub measured: u64,
    /// Programs with the channel, and those whose `out_wf` or `out_wd` moved (a distance
    /// above zero ulps).
    pub with_channel: u64,
    pub moved: u64,
    /// Programs where NVRTC's contracted PTX computes other bits than cuprite's, and the
    /// first few seeds.
    pub nvrtc_differs: u64,
    pub nvrtc_differs_seeds: Vec<u64>,
    /// The largest distances seen (ulps), `out_wf` and `out_wd`.
    pub worst: (u64, u64),
    /// The largest share of its stated bound a program used, and that program's seed.
    pub worst_share: f64,
    pub worst_seed: u64,
}

impl ChannelStats {
    fn add(&mut self, seed: u64, m: &check::Measure) {
        self.measured += 1;
        if m.nvrtc_differs.is_some() {
            self.nvrtc_differs += 1;
            if self.nvrtc_differs_seeds.len() < 10 {
                self.nvrtc_differs_seeds.push(seed);
            }
        }
        let Some(bound) = m.bound else { return };
        self.with_channel += 1;
        self.moved += (m.worst != (0, 0)) as u64;
        self.worst = (self.worst.0.max(m.worst.0), self.worst.1.max(m.worst.1));
        let share = (m.worst.0 as f64 / bound.0.max(1) as f64).max(m.worst.1 as f64 / bound.1.max(1) as f64);
        if share > self.worst_share {
            self.worst_share = share;
            self.worst_seed = seed;
        }
    }
}

fn nvrtc_read(text: &str) -> Option<check::Nvrtc> {
    let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
    let module = cuprite_lowering::ptx_read::read_ptx(&mut ctx, text, "nvrtc.ptx").ok()?;
    Some(check::Nvrtc { ctx, module })
}

/// The PTX text NVRTC makes of `programs` (one file), if NVRTC takes it and the simulator
/// reads it.
fn nvrtc_batch(
    cuda: &std::path::Path,
    programs: &[ast::Program],
    dir: &std::path::Path,
    stem: &str,
    mode: check::Mode,
) -> Result<String, Outcome> {
    let src: String = programs.iter().map(print::source).collect::<Vec<_>>().join("\n");
    // A batch takes NVRTC 5 to 20 s; a program that stalls it is found alone.
    check::nvrtc(cuda, &src, dir, stem, mode, std::time::Duration::from_secs(120)).map(|(_, text)| text)
}

/// Checks `p` alone (NVRTC compiled for it alone when `cuda` is given).
pub fn check_alone(p: &ast::Program, cuda: Option<&std::path::Path>, dir: &std::path::Path, mode: check::Mode) -> Outcome {
    check_alone_measured(p, cuda, dir, mode).0
}

/// [`check_alone`] with the contraction mode's measure (see [`check::check_measured`]).
pub fn check_alone_measured(
    p: &ast::Program,
    cuda: Option<&std::path::Path>,
    dir: &std::path::Path,
    mode: check::Mode,
) -> (Outcome, Option<check::Measure>) {
    let nv = match cuda {
        Some(c) => match check::nvrtc(c, &print::source(p), dir, &format!("reduce{}", p.seed), mode, std::time::Duration::from_secs(40)) {
            Ok((n, _)) => Some(n),
            // NVRTC's problem: cuprite's levels are still checked.
            Err(Outcome::NvrtcTimeout(m)) => {
                let o = check::check(p, None, mode);
                return (if o.is_agree() { Outcome::NvrtcTimeout(m) } else { o }, None);
            }
            Err(o) => return (o, None),
        },
        None => None,
    };
    check::check_measured(p, nv.as_ref(), mode)
}

/// Runs the campaign, logging progress and each failure to `log`.
pub fn run(c: &Campaign, log: &mut dyn Write) -> Summary {
    let start = std::time::Instant::now();
    let mut s = Summary::default();
    let dir = c.out.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("cuprite-randprog-{}", std::process::id())));
    let _ = std::fs::create_dir_all(&dir);
    let mut reduced_per_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut seed = c.first_seed;
    let end = c.first_seed + c.count;
    while seed < end {
        let n = c.batch.min(end - seed);
        let programs: Vec<ast::Program> = (seed..seed + n).map(|k| gen::generate(k, &c.gen)).collect();
        let nv_text = c.nvrtc.as_ref().map(|cuda| match nvrtc_batch(cuda, &programs, &dir, "batch", c.mode) {
            Ok(t) => Some(t),
            Err(e) => {
                let first = e.to_string().lines().next().unwrap_or("").to_string();
                let _ = writeln!(log, "batch from seed {seed}: {first}; checking its programs one by one");
                None
            }
        });
        // A rejected batch: each program alone, to name the ones NVRTC rejects.
        let alone = matches!(nv_text, Some(None));
        let outcomes: Vec<(Outcome, Option<check::Measure>)> = {
            let next = std::sync::atomic::AtomicUsize::new(0);
            let results = std::sync::Mutex::new(vec![(Outcome::Agree, None); programs.len()]);
            std::thread::scope(|sc| {
                for _ in 0..c.jobs.max(1) {
                    sc.spawn(|| {
                        let nv = nv_text.as_ref().and_then(|t| t.as_deref()).and_then(nvrtc_read);
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(p) = programs.get(i) else { break };
                            let o = if alone {
                                check_alone_measured(p, c.nvrtc.as_deref(), &dir, c.mode)
                            } else {
                                check::check_measured(p, nv.as_ref(), c.mode)
                            };
                            results.lock().unwrap_or_else(|e| e.into_inner())[i] = o;
                        }
                    });
                }
            });
            results.into_inner().unwrap_or_else(|e| e.into_inner())
        };
        for (p, (o, m)) in programs.iter().zip(outcomes) {
            s.programs += 1;
            if o.is_agree() {
                s.agree += 1;
                if let Some(m) = m {
                    s.channel.add(p.seed, &m);
                }
                continue;
            }
            if matches!(&o, Outcome::NvrtcRejects(_)) {
                s.nvrtc_rejects.push(p.seed);
            }
            if matches!(&o, Outcome::NvrtcTimeout(_)) {
                s.nvrtc_timeouts.push(p.seed);
            }
            let key = o.key();
            *s.by_kind.entry(key.clone()).or_default() += 1;
            let _ = writeln!(log, "seed {}: {}", p.seed, o.to_string().lines().take(4).collect::<Vec<_>>().join("\n    "));
            let mut f = Finding { program: p.clone(), outcome: o, reduced: None };
            let done = reduced_per_kind.entry(key.clone()).or_default();
            let reducible = !matches!(f.outcome, Outcome::ReferenceFails(_) | Outcome::NvrtcRejects(_) | Outcome::NvrtcTimeout(_));
            if *done < c.reduce_per_kind && reducible {
                *done += 1;
                let with_nvrtc = key.contains("NVRTC");
                let cuda = if with_nvrtc { c.nvrtc.as_deref() } else { None };
                let (small, checks) = reduce::reduce(p, 2000, &mut |cand| check_alone(cand, cuda, &dir, c.mode).key() == key);
                let so = check_alone(&small, cuda, &dir, c.mode);
                let _ = writeln!(log, "  reduced in {checks} checks to {} lines", print::source(&small).lines().count());
                f.reduced = Some((small, so));
            }
            if let Some(out) = &c.out {
                save(out, &f);
            }
            s.findings.push(f);
        }
        seed += n;
        let _ = writeln!(log, "{} programs, {} agree, {:.0} s", s.programs, s.agree, start.elapsed().as_secs_f64());
    }
    if c.out.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    s.seconds = start.elapsed().as_secs_f64();
    s
}

/// Writes a finding as `<slug>-<seed>.cu`/`.toml` (the original) and, when reduced,
/// `<slug>-<seed>-reduced.cu`/`.toml`, each with the outcome in a leading comment.
pub fn save(dir: &std::path::Path, f: &Finding) {
    let slug: String = f.outcome.key().chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let slug: String = slug.split('-').filter(|s| !s.is_empty()).take(6).collect::<Vec<_>>().join("-");
    let seed = f.program.seed;
    let write = |stem: String, p: &ast::Program, o: &Outcome| {
        let comment: String = o.to_string().lines().take(12).map(|l| format!("// {l}\n")).collect();
        let _ = std::fs::write(dir.join(format!("{stem}.cu")), format!("{comment}{}", print::source(p)));
        let _ = std::fs::write(dir.join(format!("{stem}.toml")), print::spec(p));
    };
    write(format!("{slug}-{seed}"), &f.program, &f.outcome);
    if let Some((r, o)) = &f.reduced {
        write(format!("{slug}-{seed}-reduced"), r, o);
    }
}
