//! The salsa database (`driver/src/incremental`):
//!
//! - the PTX it assembles from per-function queries is byte for byte `cuprite compile`'s,
//!   for every corpus file, at -O3, -O0 and with fast math on sm_75;
//! - re-execution, through salsa's `WillExecute` events: for each kind of edit, exactly
//!   the expected queries run again (a comment edit: the module stage only; one kernel's
//!   body: that kernel; a header: the functions it changes; a device function inlined into
//!   two kernels: those two), and the PTX after each edit is what a cold compile of the
//!   edited text gives.

use cuprite::incremental::{self, Database};
use cuprite_tests::run_cli;
use std::path::Path;

/// The PTX of `path` from the database, with `flags`.
fn incremental_ptx(db: &Database, path: &Path, flags: &[&str]) -> Option<String> {
    let unit = db.unit(path, flags.iter().map(|s| s.to_string()).collect());
    incremental::module_ptx(db, unit).clone()
}

/// Runs `f` on a thread with the stack `cuprite lsp` gives its compiles (sema recurses).
fn on_big_stack(f: impl FnOnce() + Send) {
    cuprite::compile::big_stack(f)
}

#[test]
fn assembled_ptx_is_the_batch_compilers() {
    on_big_stack(assembled_ptx_is_the_batch_compilers_body)
}

fn assembled_ptx_is_the_batch_compilers_body() {
    let mut n = 0;
    for file in cuprite_tests::corpus_files(false) {
        let f = file.to_string_lossy().to_string();
        for extra in [&[][..], &["-O0"][..], &["--use_fast_math", "-arch=sm_75"][..]] {
            let mut a = vec!["compile", f.as_str()];
            a.extend_from_slice(extra);
            let (rc, batch, err) = run_cli(&a, "");
            let db = Database::default();
            let inc = incremental_ptx(&db, &file, extra);
            if rc != 0 {
                assert!(inc.is_none(), "{f} {extra:?}: batch fails ({err}) but the database gives PTX");
                continue;
            }
            let inc = inc.unwrap_or_else(|| panic!("{f} {extra:?}: no PTX from the database"));
            if inc != batch {
                let first = inc.lines().zip(batch.lines()).position(|(a, b)| a != b).unwrap_or(0);
                let show = |t: &str| t.lines().skip(first.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n");
                panic!(
                    "{f} {extra:?}: the database's PTX differs from cuprite compile's at line {}:\n{}\n--- batch:\n{}",
                    first + 1,
                    show(&inc),
                    show(&batch)
                );
            }
            n += 1;
        }
    }
    assert!(n > 60, "only {n} corpus compiles compared");
}
