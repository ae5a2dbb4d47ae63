//! Every input the fuzzer ever failed on (`fuzz/regressions/*.mlir`) parses and
//! round-trips in every print mode, whether or not it verifies.

use cuprite_ir::{parse::parse_module, print::print_op};
use cuprite_tests::{context, PRINT_MODES};

#[test]
fn fuzz_regressions_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "mlir") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut ctx = context(true);
        let m = parse_module(&mut ctx, &text, "regression.mlir").unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        for mode in PRINT_MODES {
            let once = print_op(&ctx, m, mode);
            let mut ctx2 = context(true);
            let m2 =
                parse_module(&mut ctx2, &once, "printed.mlir").unwrap_or_else(|d| panic!("{} ({mode:?}): {d}\n{once}", path.display()));
            assert_eq!(print_op(&ctx2, m2, mode), once, "{} ({mode:?})", path.display());
        }
        n += 1;
    }
    assert!(n >= 1);
}

/// Every input the `parse_ptx` target failed on (`fuzz/regressions/parse_ptx/*.ptx`) reads
/// (or is refused with diagnostics), translates and runs without a panic, in bounded
/// time and memory, as the target runs it.
#[test]
fn ptx_fuzz_regressions_do_not_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions/parse_ptx");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "ptx") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        n += 1;
        let Ok(m) = cuprite_lowering::ptx_read::read_ptx(&mut ctx, &text, "regression.ptx") else { continue };
        cuprite_sim::run_every_function_once(&ctx, m, 100_000);
    }
    assert!(n >= 1);
}
