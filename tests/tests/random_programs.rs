//! Random differential testing (`randprog/`): generated programs, UB-free by construction,
//! run at every level of cuprite and from NVRTC's PTX on the simulator, and compared bit for
//! bit (`-fmad=false` on both sides).
//!
//! - `fresh_programs_agree`: a fixed range of seeds, checked as the campaign checks them
//!   (NVRTC compiles them in one file). A failure names the seed; `cargo run --release -p
//!   cuprite-randprog -- reduce SEED --nvrtc -o small.cu` reduces it.
//! - `regressions_agree`: the programs the campaigns found failures with (`tests/random/`,
//!   each `.cu` with its `.toml`), reduced, after the fix.
//!
//! NVRTC comes from `scripts/install-cuda-ref.sh`; CI requires it (`CUPRITE_REQUIRE_NVRTC=1`).

use cuprite_randprog::{check, gen, print};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn nvrtc_root() -> Option<PathBuf> {
    let r = check::cuda_root();
    if r.is_none() {
        assert!(std::env::var_os("CUPRITE_REQUIRE_NVRTC").is_none(), "NVRTC not found: run scripts/install-cuda-ref.sh");
        eprintln!("NVRTC not found: comparing cuprite's levels only");
    }
    r
}

/// The `.cu` files of directory `sub` (of the repository), sorted.
fn cu_files(sub: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(sub))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    files.sort();
    files
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cuprite-random-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Seeds CI checks (about 10 s with NVRTC); the campaigns run many more (see the README).
const SEEDS: std::ops::Range<u64> = 1..301;

#[test]
fn fresh_programs_agree() {
    let cfg = gen::Config::default();
    let programs: Vec<_> = SEEDS.map(|s| gen::generate(s, &cfg)).collect();
    let dir = scratch("fresh");
    let nvrtc = nvrtc_root().map(|cuda| {
        let src: String = programs.iter().map(print::source).collect::<Vec<_>>().join("\n");
        match check::nvrtc(&cuda, &src, &dir, "fresh", check::Mode::default(), std::time::Duration::from_secs(900)) {
            Ok((n, _)) => n,
            Err(o) => panic!("NVRTC's side of the random programs: {o}"),
        }
    });
    let mut failures = Vec::new();
    for p in &programs {
        let o = check::check(p, nvrtc.as_ref(), check::Mode::default());
        if !o.is_agree() {
            failures.push(format!("seed {}: {o}", p.seed));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {} random programs fail:\n{}", failures.len(), programs.len(), failures.join("\n"));
}

/// Seeds of the contraction mode CI checks (NVRTC compiles each batch in seconds).
const CONTRACTION_SEEDS: std::ops::Range<u64> = 2001..2101;

/// The contraction mode (`--fmad`): both compilers contract. Every program agrees (the
/// uncontracted levels bit for bit, the well-conditioned channel within the ulp bound
/// the program states, from cuprite's PTX and from NVRTC's); the channel moves in some
/// programs (contraction happened); and cuprite's PTX computes NVRTC's bits in at least
/// 90% of them (94.8% of seeds 1-1000 when written; the rest are operand orders of LLVM's
/// DAG combiner that cuprite does not reproduce).
#[test]
fn contracted_programs_agree_within_their_bound() {
    let cfg = gen::Config { contraction: true, ..gen::Config::default() };
    let mode = check::Mode { fmad: true };
    let programs: Vec<_> = CONTRACTION_SEEDS.map(|s| gen::generate(s, &cfg)).collect();
    let dir = scratch("contracted");
    let nvrtc = nvrtc_root().map(|cuda| {
        let src: String = programs.iter().map(print::source).collect::<Vec<_>>().join("\n");
        match check::nvrtc(&cuda, &src, &dir, "contracted", mode, std::time::Duration::from_secs(900)) {
            Ok((n, _)) => n,
            Err(o) => panic!("NVRTC's side of the contracted programs: {o}"),
        }
    });
    let (mut failures, mut moved, mut same) = (Vec::new(), 0, 0);
    for p in &programs {
        let (o, m) = check::check_measured(p, nvrtc.as_ref(), mode);
        if !o.is_agree() {
            failures.push(format!("seed {}: {o}", p.seed));
        }
        let m = m.expect("the contraction mode measures");
        assert!(m.bound.is_some(), "seed {}: a contraction-mode program states its bound", p.seed);
        moved += (m.worst != (0, 0)) as usize;
        same += m.nvrtc_differs.is_none() as usize;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} of {} contracted programs fail:\n{}", failures.len(), programs.len(), failures.join("\n"));
    assert!(moved > 0, "contraction moved no program's channel: nothing was contracted");
    if nvrtc.is_some() {
        assert!(same * 10 >= programs.len() * 9, "only {same} of {} programs compute NVRTC's bits under contraction", programs.len());
    }
}

#[test]
fn regressions_agree() {
    let cuda = nvrtc_root();
    let dir = scratch("regressions");
    let files = cu_files("tests/random");
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let spec = std::fs::read_to_string(f.with_extension("toml")).unwrap_or_else(|_| panic!("{} has no .toml", f.display()));
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        let nv = cuda.as_ref().map(|c| {
            check::nvrtc(c, &src, &dir, &stem, check::Mode::default(), std::time::Duration::from_secs(300))
                .unwrap_or_else(|o| panic!("{}: {o}", f.display()))
                .0
        });
        let o = check::check_source(&f.display().to_string(), &src, &spec, nv.as_ref(), check::Mode::default());
        if !o.is_agree() {
            failures.push(format!("{}: {o}", f.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Programs NVRTC miscompiles (`tests/random/nvrtc_bugs/`, each with what NVRTC does
/// wrong): cuprite's levels agree with the cuda level, and NVRTC's PTX still differs (a
/// fixed NVRTC makes this fail: then the program moves to `tests/random/`).
#[test]
fn nvrtc_miscompilations_stay_correct_in_cuprite() {
    let cuda = nvrtc_root();
    let dir = scratch("nvrtc-bugs");
    let files = cu_files("tests/random/nvrtc_bugs");
    assert!(!files.is_empty());
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let spec = std::fs::read_to_string(f.with_extension("toml")).unwrap();
        let name = f.display().to_string();
        let o = check::check_source(&name, &src, &spec, None, check::Mode::default());
        assert!(o.is_agree(), "{name}: cuprite's levels: {o}");
        if let Some(c) = &cuda {
            let stem = f.file_stem().unwrap().to_string_lossy().to_string();
            let (nv, _) = check::nvrtc(c, &src, &dir, &stem, check::Mode::default(), std::time::Duration::from_secs(300))
                .unwrap_or_else(|o| panic!("{name}: {o}"));
            let o = check::check_source(&name, &src, &spec, Some(&nv), check::Mode::default());
            assert!(
                matches!(&o, check::Outcome::Differs { what, .. } if what == "NVRTC's PTX"),
                "{name}: NVRTC's PTX no longer differs (fixed?): {o}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The generator is deterministic (a seed names a program on every machine) and its
/// programs are well-typed C++ that cuprite compiles.
#[test]
fn generation_is_deterministic_and_compiles() {
    let cfg = gen::Config::default();
    for seed in [7, 123_456_789, u64::MAX] {
        let a = print::source(&gen::generate(seed, &cfg));
        assert_eq!(a, print::source(&gen::generate(seed, &cfg)));
        cuprite::levels::compile_levels("g.cu", &a, &check::level_options(check::Mode::default()))
            .unwrap_or_else(|e| panic!("seed {seed}:\n{e}"));
    }
}

/// The reducer keeps what its predicate asks for and removes the rest.
#[test]
fn reducer_shrinks_to_the_interesting_part() {
    let p = gen::generate(42, &gen::Config::default());
    // Interesting: the program still has an atomic anywhere (a stand-in for a failure).
    fn has_atomic(s: &[cuprite_randprog::ast::Stmt]) -> bool {
        use cuprite_randprog::ast::Stmt::*;
        s.iter().any(|s| match s {
            Atomic(..) => true,
            If(_, a, b) => has_atomic(a) || has_atomic(b),
            For { body, .. } | While { body, .. } => has_atomic(body),
            Switch(_, cs, d) => cs.iter().any(|(c, _)| has_atomic(c)) || has_atomic(d),
            _ => false,
        })
    }
    assert!(has_atomic(&p.body), "seed 42 has an atomic");
    let (small, _) = cuprite_randprog::reduce::reduce(&p, 10_000, &mut |c| has_atomic(&c.body));
    assert!(has_atomic(&small.body));
    assert_eq!(small.body.len(), 1, "only the atomic is left:\n{}", print::source(&small));
    assert!(print::source(&small).lines().count() < print::source(&p).lines().count() / 2);
}
