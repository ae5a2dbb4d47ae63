//! The `remat` pass (lowering/src/transforms/remat.rs), NVIDIA's IR-level
//! rematerialization: on every corpus launch the nvvm level before the pass and after it
//! agrees on the simulator, bit for bit, with the default knobs and with knobs that make it
//! pull in as much as it can (a ceiling of 16 registers, no per-value cost limit), which
//! must change many functions; the pass's target follows the occupancy steps.

use cuprite_lowering::transforms::{remat, OptFlags, RematPass};
use cuprite_sim::spec::{compare, LaunchSpec, Output};
use std::path::Path;

/// The nvvm level of `file` after the -O3 pipeline with `remat` off, printed.
fn nvvm_before_remat(file: &Path) -> (String, Vec<LaunchSpec>) {
    cuprite_tests::nvvm_after_pipeline(file, OptFlags { remat: 0, ..Default::default() }, |p| {
        assert!(p.contains("remat{do-remat=0}"), "{p}");
        p
    })
}

fn run(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, l: &LaunchSpec, what: &str) -> Vec<Output> {
    cuprite_tests::run_nvvm(ctx, m, l, what)
}

/// Runs `remat` with `opts` on the printed nvvm module `text` (verifying after it); the
/// module printed, parsed back and verified, and the pass's statistics.
fn apply(text: &str, opts: remat::Options, what: &str) -> (cuprite_ir::Context, cuprite_ir::OpId, Vec<(String, u64)>) {
    cuprite_tests::apply_function_pass(text, Box::new(RematPass(opts)), what)
}

fn stat(stats: &[(String, u64)], name: &str) -> u64 {
    stats.iter().filter(|s| s.0 == name).map(|s| s.1).sum()
}

#[test]
fn every_corpus_launch_agrees_before_and_after_remat() {
    let aggressive = remat::Options { maxreg_ceiling: 16, ignore_single_cost: true, for_occ: 0, ..Default::default() };
    let (mut runs, mut pulled, mut remat_copies, mut uclone_copies, mut functions) = (0, 0, 0, 0, 0);
    for file in cuprite_tests::corpus_files(true) {
        let (text, launches) = nvvm_before_remat(&file);
        let name = file.display().to_string();
        let mut ctx = cuprite_tests::context(false);
        let m = cuprite_tests::parse_verified(&mut ctx, &text, &name).unwrap();
        let reference: Vec<Vec<Output>> = launches.iter().map(|l| run(&ctx, m, l, &name)).collect();
        for (label, opts) in [("default", remat::Options::default()), ("aggressive", aggressive.clone())] {
            let what = format!("{name} after remat ({label})");
            let (c, m2, stats) = apply(&text, opts, &what);
            if label == "aggressive" {
                pulled += stat(&stats, "values rematerialized");
                remat_copies += stat(&stats, "remat_ copies");
                uclone_copies += stat(&stats, "uclone_ copies");
                functions += stat(&stats, "functions above their register target");
            }
            for (l, want) in launches.iter().zip(&reference) {
                let got = run(&c, m2, l, &what);
                if let Err(e) = compare(want, &got, 0) {
                    panic!("{what}: kernel {} differs from before the pass:\n{e}", l.kernel);
                }
                runs += 1;
            }
        }
    }
    eprintln!("{runs} launches agree; aggressive remat: {functions} functions above 16 registers, {pulled} values, {remat_copies} remat_ and {uclone_copies} uclone_ copies");
    assert!(runs >= 2 * 140, "{runs}");
    assert!(
        functions >= 30 && pulled >= 100 && remat_copies >= 100 && uclone_copies >= 20,
        "{functions} {pulled} {remat_copies} {uclone_copies}"
    );
}

#[test]
fn the_target_is_the_next_occupancy_step_within_reach() {
    let o = remat::Options::default();
    // sm_90: 64 warps up to 32 registers, 51 at 40, 42 at 48.
    assert_eq!(remat::warps_per_sm(90, 32), 64);
    assert_eq!(remat::warps_per_sm(90, 40), 51);
    assert_eq!(remat::warps_per_sm(90, 43), 42);
    assert_eq!(remat::warps_per_sm(75, 24), 32);
    assert_eq!(remat::warps_per_sm(86, 32), 48);
    assert_eq!(remat::target_registers(&o, 43, None), Some(40));
    assert_eq!(remat::target_registers(&o, 36, None), Some(32));
    // Full occupancy already, or the next step more than 20% away: nothing to gain.
    assert_eq!(remat::target_registers(&o, 30, None), None);
    assert_eq!(remat::target_registers(&o, 41, None), Some(40));
    assert_eq!(remat::target_registers(&remat::Options { sm: 75, ..o.clone() }, 30, None), None);
    // Above remat-for-occ: no occupancy target; with remat-for-occ=0, 80%.
    assert_eq!(remat::target_registers(&remat::Options { for_occ: 32, ..o.clone() }, 40, None), None);
    assert_eq!(remat::target_registers(&remat::Options { for_occ: 0, ..o.clone() }, 40, None), Some(32));
    // A ceiling below the pressure wins.
    assert_eq!(remat::target_registers(&o, 43, Some(24)), Some(24));
}
