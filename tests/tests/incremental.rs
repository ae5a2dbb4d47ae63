//! The salsa database (`driver/src/incremental`):
//!
//! - the PTX it assembles from per-function queries is byte for byte `cuprite compile`'s,
//!   for every corpus file, at -O3, -O0 and with fast math on sm_75;
//! - re-execution, through salsa's `WillExecute` events: for each kind of edit, exactly
//!   the expected queries run again (a comment edit: the module stage only; one kernel's
//!   body: that kernel; a header: the functions it changes; a device function inlined into
//!   two kernels: those two), and the PTX after each edit is what a cold compile of the
//!   edited text gives.

use cuprite::incremental::{self, reuse::ModuleStage, Database};
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

#[test]
fn the_keys_name_every_function_the_text_calls() {
    on_big_stack(the_keys_name_every_function_the_text_calls_body)
}

/// A function's key is its structural fingerprint, whose symbols decide its callees and
/// the tables sent with it: they must cover every function its printed text names, and
/// the same file must give the same keys in a fresh database.
fn the_keys_name_every_function_the_text_calls_body() {
    let mut checked = 0;
    for file in cuprite_tests::corpus_files(false) {
        let db = Database::default();
        let unit = db.unit(&file, Vec::new());
        let parts = incremental::module_parts(&db, unit).clone();
        let functions: std::collections::HashSet<&str> = parts.funcs.iter().map(|f| f.symbol.as_str()).collect();
        for f in &parts.funcs {
            let mut named: Vec<&str> = incremental::symbols_named(&f.nvvm).into_iter().filter(|n| functions.contains(n)).collect();
            named.sort();
            let callees: Vec<&str> = f.callees.iter().map(|c| c.0.as_str()).collect();
            assert_eq!(named, callees, "{}: {}: the callees are not what its text names", file.display(), f.symbol);
            checked += 1;
        }
        let again = Database::default();
        let unit2 = again.unit(&file, Vec::new());
        let keys = |p: &incremental::ModuleParts| p.funcs.iter().map(|f| (f.symbol.clone(), f.key)).collect::<Vec<_>>();
        assert_eq!(keys(&parts), keys(incremental::module_parts(&again, unit2)), "{}: keys differ between databases", file.display());
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn fingerprints_ignore_interning_order_and_locations_but_not_content() {
    let f = r#"nvvm.func device @f(%arg0: i32, %arg1: f32) -> f32 {
    %0 = constant 3 : i32
    %1 = mul %arg0, %0 : i32
    %2 = sitofp %1 : i32 to f32
    %3 = fadd %2, %arg1 : f32
    return %3 : f32
  }"#;
    let print = |prefix: &str, body: &str| format!("module {{\n{prefix}  {body}\n}}\n");
    let fp = |text: &str| {
        let mut ctx = cuprite_tests::context(false);
        let m = cuprite_tests::parse_verified(&mut ctx, text, "fingerprint").unwrap();
        let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
        let f = ctx.block_ops(body).last().unwrap();
        cuprite_ir::fingerprint::Fingerprinter::default().op(&ctx, f)
    };
    let alone = fp(&print("", f));
    // Another function first interns other types and attributes before `f`'s.
    let other = "nvvm.func device @g(%arg0: i64, %arg1: f64) -> f64 {\n    %0 = constant 7 : i64\n    return %arg1 : f64\n  }\n";
    let after = fp(&print(other, f));
    assert_eq!(alone, after, "the interning order changed the fingerprint");
    let located = fp(&print("", &f.replace("fadd %2, %arg1 : f32", r#"fadd %2, %arg1 : f32 loc("k.cu":3:4)"#)));
    assert_eq!(alone, located, "a location changed the fingerprint");
    for (from, to) in [
        ("constant 3", "constant 4"),
        ("mul %arg0", "add %arg0"),
        ("fadd %2, %arg1", "fadd %arg1, %2"),
        ("-> f32 {", "-> f32 attributes {cuprite.x} {"),
    ] {
        assert_ne!(alone.hash, fp(&print("", &f.replace(from, to))).hash, "{from} -> {to} kept the fingerprint");
    }
}

/// A header and a main file the way a project splits them: a macro and an inline device
/// function in the header, a device function shared by two kernels in the main file.
const HEADER: &str = r#"#pragma once
#define SCALE 2.0f
__device__ inline float scaled(float x) { return x * SCALE; }
"#;

const MAIN: &str = r#"#include "util.h"

// Shared by two kernels; inlined into both.
__device__ float shared_helper(float a) { return a * a + 1.0f; }

__global__ void k_a(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = shared_helper(in[t]);
}

__global__ void k_b(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = shared_helper(in[t]) + 1.0f;
}

__global__ void k_c(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = scaled(in[t]);
}

__global__ void k_d(int *out, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += i * 3;
  out[threadIdx.x] = acc;
}
"#;

/// The short names (`k_a`, ...) in `symbols`, sorted.
fn short(symbols: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> =
        symbols.iter().map(|s| ["k_a", "k_b", "k_c", "k_d"].iter().find(|k| s.contains(*k)).map_or(s.clone(), |k| k.to_string())).collect();
    out.sort();
    out
}

fn queries(q: &[(&str, usize)]) -> std::collections::BTreeMap<String, usize> {
    q.iter().map(|(n, k)| (n.to_string(), *k)).collect()
}

/// How many of each query ran, by salsa's name for the query.
fn executed(db: &Database) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for e in db.take_executed() {
        *m.entry(e.split('(').next().unwrap_or("").to_string()).or_default() += 1;
    }
    m
}

#[test]
fn each_edit_reruns_exactly_the_expected_queries() {
    on_big_stack(each_edit_body)
}

fn each_edit_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-incremental-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (main, header) = (dir.join("main.cu"), dir.join("util.h"));
    std::fs::write(&main, MAIN).unwrap();
    std::fs::write(&header, HEADER).unwrap();
    let mut db = Database::new(true);
    let unit = db.unit(&main, Vec::new());
    // Checks the PTX against a cold compile of the files as they are now.
    let check = |db: &Database, what: &str| {
        let ptx = incremental::module_ptx(db, unit).clone().unwrap_or_else(|| panic!("{what}: no PTX"));
        let (rc, cold, err) = run_cli(&["compile", &main.to_string_lossy()], "");
        assert_eq!(rc, 0, "{what}: {err}");
        assert!(ptx == cold, "{what}: the incremental PTX is not the cold compile's");
    };
    // Cold: every function once.
    check(&db, "cold");
    assert_eq!(db.take_module_stages(), [ModuleStage::Whole]);
    assert_eq!(short(db.take_recompiled()), ["k_a", "k_b", "k_c", "k_d"]);
    let cold = executed(&db);
    assert_eq!(cold.get("module_parts"), Some(&1));
    assert_eq!(cold.get("function_ptx"), Some(&4));

    // Nothing changed: nothing runs.
    check(&db, "no edit");
    assert_eq!(executed(&db), Default::default());

    let edit = |db: &mut Database, path: &std::path::Path, text: String, what: &str| {
        std::fs::write(path, &text).unwrap();
        db.set_file_text(path, Some(text));
        check(db, what);
        (short(db.take_recompiled()), executed(db))
    };

    // A comment and whitespace: the module stage runs, no function is recompiled.
    let text =
        MAIN.replace("// Shared by two kernels", "// A comment\n\n// Shared by   two kernels").replace("acc += i * 3;", "acc  +=  i * 3 ;");
    let (re, ex) = edit(&mut db, &main, text.clone(), "comment and whitespace");
    assert_eq!(re, Vec::<String>::new());
    // Each function's key is checked (and found equal); the file is reassembled because
    // the places of the functions moved.
    assert_eq!(ex, queries(&[("module_parts", 1), ("function_unit", 4), ("module_ptx", 1)]));
    // No function's IR changed: the module stage reuses every result.
    assert_eq!(db.take_module_stages(), [ModuleStage::Unchanged]);

    // One kernel's body: that kernel.
    let text = text.replace("i * 3", "i * 5");
    let (re, ex) = edit(&mut db, &main, text.clone(), "one kernel's body");
    assert_eq!(re, ["k_d"]);
    assert_eq!(ex, queries(&[("module_parts", 1), ("function_unit", 4), ("function_ptx", 1), ("module_ptx", 1)]));
    // Only that kernel is converted and inlined.
    assert_eq!(db.take_module_stages(), [ModuleStage::Kernels]);

    // A device function inlined into two kernels: those two.
    let text = text.replace("a * a + 1.0f", "a * a - 1.0f");
    let (re, ex) = edit(&mut db, &main, text.clone(), "a shared device function");
    assert_eq!(re, ["k_a", "k_b"]);
    assert_eq!(ex, queries(&[("module_parts", 1), ("function_unit", 4), ("function_ptx", 2), ("module_ptx", 1)]));
    // A device function changed: the whole module stage.
    assert_eq!(db.take_module_stages(), [ModuleStage::Whole]);

    // A header: the kernel that uses what changed.
    let (re, ex) = edit(&mut db, &header, HEADER.replace("2.0f", "3.0f"), "a header's macro");
    assert_eq!(re, ["k_c"]);
    assert_eq!(ex, queries(&[("module_parts", 1), ("function_unit", 4), ("function_ptx", 1), ("module_ptx", 1)]));
    // (It changes a device function, `scaled`: the whole module stage.)
    assert_eq!(db.take_module_stages(), [ModuleStage::Whole]);

    // A comment in the header: nothing.
    let (re, ex) = edit(&mut db, &header, format!("// util\n{}", HEADER.replace("2.0f", "3.0f")), "a header's comment");
    assert_eq!(re, Vec::<String>::new());
    // Nothing in the main file moved: the module stage's result is equal, and nothing
    // after it runs.
    assert_eq!(ex, queries(&[("module_parts", 1)]));

    // An error: no PTX, a diagnostic at its place; fixing it brings back the same PTX
    // without recompiling anything.
    let broken = text.replace("acc  +=  i * 5 ;", "acc  +=  i * 5");
    db.set_file_text(&main, Some(broken));
    assert!(incremental::module_ptx(&db, unit).is_none());
    let diags = incremental::diagnostics(&db, unit).clone();
    let e = diags.iter().find(|d| d.severity == cuprite_frontend::Severity::Error).expect("an error");
    assert_eq!(e.place.as_ref().map(|p| p.start.0), Some(26), "{e:?}");
    db.take_recompiled();
    let (re, _) = edit(&mut db, &main, text, "the error fixed");
    assert_eq!(re, Vec::<String>::new());
    // The error stopped before the module stage; the fixed text is the one compiled last.
    assert_eq!(db.take_module_stages(), [ModuleStage::Unchanged, ModuleStage::Unchanged]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The PTX of `path` with the text `text`, from a database that has seen nothing else.
fn fresh_ptx(path: &Path, text: &str, flags: &[&str]) -> Option<String> {
    fresh(path, text, flags).0
}

/// A fresh database's PTX and outline (items, types and variables at places, as the
/// editor shows them) of `text` at `path`.
fn fresh(path: &Path, text: &str, flags: &[&str]) -> (Option<String>, String) {
    let mut db = Database::default();
    db.set_file_text(path, Some(text.to_string()));
    let unit = db.unit(path, flags.iter().map(|s| s.to_string()).collect());
    (incremental::module_ptx(&db, unit).clone(), outline(&db, unit))
}

fn outline(db: &Database, unit: incremental::Unit) -> String {
    let p = incremental::module_parts(db, unit);
    format!("{:?}\n{:?}\n{:?}", p.items, p.types, p.vars)
}

/// Where kernel `k`'s body starts in `text`: after the first `{` that follows its name at
/// `place` (1-based line and column).
fn body_start(text: &str, line: u32, col: u32) -> Option<usize> {
    let at = text.split_inclusive('\n').take(line as usize - 1).map(str::len).sum::<usize>() + col as usize - 1;
    text.get(at..)?.find('{').map(|i| at + i + 1)
}

/// An edit inside kernels reuses the module stage for everything else (only the edited
/// kernels are converted and inlined, [`incremental::reuse`]): on every corpus file, at
/// -O3, -O0 and with fast math, a statement put into each kernel's body (up to four per
/// file), and then taken out again, gives the PTX a database that never saw the file
/// before gives for the same text (the first test ties that one to `cuprite compile`).
#[test]
fn edits_inside_kernels_give_a_fresh_compiles_ptx() {
    on_big_stack(edits_inside_kernels_body)
}

fn edits_inside_kernels_body() {
    let (mut partial, mut edits, mut reused, mut unparsed, mut read_again) = (0, 0, 0, 0, 0);
    for file in cuprite_tests::corpus_files(false) {
        let text = std::fs::read_to_string(&file).unwrap();
        for flags in [&[][..], &["-O0"][..], &["--use_fast_math", "-arch=sm_75"][..]] {
            let mut db = Database::default();
            let unit = db.unit(&file, flags.iter().map(|s| s.to_string()).collect());
            if incremental::module_ptx(&db, unit).is_none() {
                continue;
            }
            let kernels: Vec<(u32, u32)> = incremental::module_parts(&db, unit)
                .items
                .iter()
                .filter(|i| i.kind == incremental::ItemKind::Kernel)
                .map(|i| i.place.start)
                .collect();
            let mut starts: Vec<usize> = kernels.iter().filter_map(|&(l, c)| body_start(&text, l, c)).collect();
            starts.sort_unstable();
            starts.dedup();
            db.take_module_stages();
            db.take_frontend_runs();
            let mut steps: Vec<(String, String)> = Vec::new();
            for (k, &at) in starts.iter().take(4).enumerate() {
                let edited = format!("{} volatile int cuprite_edit_{k} = {}; (void)cuprite_edit_{k};{}", &text[..at], 7 + k, &text[at..]);
                steps.push(("edited".into(), edited));
                steps.push(("restored".into(), text.clone()));
            }
            // Lines added above everything, and inside the first kernel: the kernels move.
            if let Some(&at) = starts.first() {
                let moved = format!("// moved\n\n{}\n int cuprite_moved = 1; (void)cuprite_moved;{}", &text[..at], &text[at..]);
                steps.push(("moved down".into(), moved));
                steps.push(("restored".into(), text.clone()));
            }
            for (what, t) in &steps {
                let at = 0;
                {
                    db.set_file_text(&file, Some(t.clone()));
                    let got = incremental::module_ptx(&db, unit).clone();
                    let stages = db.take_module_stages();
                    partial += stages.iter().filter(|&&s| s == ModuleStage::Kernels).count();
                    let runs = db.take_frontend_runs();
                    reused += runs.iter().map(|r| r.reused).sum::<usize>();
                    unparsed += runs.iter().map(|r| r.unparsed).sum::<usize>();
                    read_again += runs.len().saturating_sub(1);
                    edits += 1;
                    let (want, want_outline) = fresh(&file, t, flags);
                    assert_eq!(
                        outline(&db, unit),
                        want_outline,
                        "{} {flags:?}: {what}: the outline differs from a fresh compile's",
                        file.display()
                    );
                    if got != want {
                        let (g, w) = (got.unwrap_or_default(), want.unwrap_or_default());
                        let first = g.lines().zip(w.lines()).position(|(a, b)| a != b).unwrap_or(0);
                        let show = |t: &str| t.lines().skip(first.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n");
                        panic!(
                            "{} {flags:?}: {what} ({stages:?}, at {at}): the PTX differs from a fresh compile's at line {}:\n{}\n--- fresh:\n{}",
                            file.display(),
                            first + 1,
                            show(&g),
                            show(&w)
                        );
                    }
                }
            }
        }
    }
    // Most such edits convert only the edited kernels, and the frontend reads only what
    // changed.
    eprintln!("{partial} of {edits} edits converted only the edited kernels; {reused} kernel bodies taken as known ({unparsed} not parsed either), {read_again} frontends run again");
    assert!(edits > 200 && partial * 10 > edits * 9, "{partial} of {edits} edits converted only the edited kernels");
    assert!(reused > edits, "{reused} kernel bodies taken as known in {edits} edits");
    assert!(unparsed * 10 > reused * 9, "{unparsed} of {reused} kernel bodies taken as known were not parsed");
}

/// The big device function's body: enough statements that the inliner inlines it only
/// where it is called once.
fn big_body() -> String {
    (0..90).map(|i| format!("    x = x * {}.5f + y; y = y * 0.5f - x;\n", i + 1)).collect()
}

/// What keeps an edited kernel from being compiled on its own, or does not: a new call
/// (one of a large function can change another kernel's inlining: called once it is
/// inlined, twice it is not), a new `__shared__` variable or math function (module-level
/// globals and library functions, placed by the whole module), an edit of a device
/// function; against edits of a kernel's arithmetic and control flow, its calls kept.
/// After each, the PTX is a fresh compile's.
#[test]
fn what_an_edited_kernel_changes_elsewhere_decides_how_much_is_recompiled() {
    on_big_stack(what_an_edited_kernel_changes_body)
}

fn what_an_edited_kernel_changes_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-reuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("reuse.cu");
    let base = format!(
        "__device__ __noinline__ float tiny(float v) {{ return v * 3.0f; }}\n\
         __device__ float small(float v) {{ return v + 1.0f; }}\n\
         __device__ float big(float x, float y) {{\n{}    return x + y;\n}}\n\
         __global__ void k_one(float *o, const float *a, int n) {{\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             if (i < n) o[i] = big(a[i], small(a[i]));\n\
         }}\n\
         __global__ void k_two(float *o, const float *a, int n) {{\n\
             __shared__ float tile[128];\n\
             int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
             tile[threadIdx.x] = i < n ? a[i] : 0.0f;\n\
             __syncthreads();\n\
             float acc = 0.0f;\n\
             for (int j = 0; j < 8; ++j) acc += small(tile[(threadIdx.x + j) % 128]);\n\
             if (i < n) o[i] = acc;\n\
         }}\n\
         __global__ void k_three(float *o, int n) {{\n\
             int i = threadIdx.x;\n\
             if (i < n) o[i] = tiny((float)i);\n\
         }}\n",
        big_body()
    );
    let mut db = Database::default();
    let unit = db.unit(&main, Vec::new());
    let mut text = base.clone();
    let step = |db: &mut Database, text: &str, what: &str| -> Vec<ModuleStage> {
        db.set_file_text(&main, Some(text.to_string()));
        let got = incremental::module_ptx(db, unit).clone();
        assert!(got.is_some(), "{what}: no PTX: {:?}", incremental::diagnostics(db, unit));
        assert!(got == fresh_ptx(&main, text, &[]), "{what}: the PTX is not a fresh compile's");
        db.take_module_stages()
    };
    assert_eq!(step(&mut db, &text, "cold"), [ModuleStage::Whole]);
    // Arithmetic and control flow in one kernel: that kernel.
    text = text.replace("j < 8", "j < 12").replace("acc += small", "acc -= small");
    assert_eq!(step(&mut db, &text, "k_two's loop"), [ModuleStage::Kernels]);
    // New calls, even of small functions: the whole module (a kernel's calls count in
    // every callee's inlining).
    text = text.replace("o[i] = acc;", "o[i] = acc + small(acc) + tiny(acc);");
    assert_eq!(step(&mut db, &text, "calls of small and tiny in k_two"), [ModuleStage::Whole]);
    text = text.replace("o[i] = acc + small(acc) + tiny(acc);", "o[i] = acc * small(acc) + tiny(acc);");
    assert_eq!(step(&mut db, &text, "k_two's arithmetic around its calls"), [ModuleStage::Kernels]);
    // A second call of `big`: it stops being inlined into k_one.
    text = text.replace("if (i < n) o[i] = acc * small", "if (i < n) o[i] = big(acc, 1.0f) * small");
    assert_eq!(step(&mut db, &text, "a call of big in k_two"), [ModuleStage::Whole]);
    let ptx = incremental::module_ptx(&db, unit).clone().unwrap();
    assert!(ptx.contains("call.uni") || ptx.contains("call "), "big is called, not inlined, once it has two callers");
    // A new __shared__ variable, and a new math function, in k_three.
    text = text.replace("int i = threadIdx.x;", "__shared__ int seen[32]; int i = threadIdx.x; seen[i % 32] = i;");
    assert_eq!(step(&mut db, &text, "a __shared__ variable in k_three"), [ModuleStage::Whole]);
    text = text.replace("tiny((float)i)", "tiny(sinf((float)i))");
    assert_eq!(step(&mut db, &text, "sinf in k_three"), [ModuleStage::Whole]);
    text = text.replace("tiny(sinf((float)i))", "tiny(sinf((float)i + 1.0f))");
    assert_eq!(step(&mut db, &text, "k_three's arithmetic"), [ModuleStage::Kernels]);
    // A device function: the whole module.
    text = text.replace("v + 1.0f", "v + 2.0f");
    assert_eq!(step(&mut db, &text, "small's body"), [ModuleStage::Whole]);
    // Two kernels at once.
    text = text.replace("j < 12", "j < 6").replace("(float)i + 1.0f", "(float)i + 3.0f");
    assert_eq!(step(&mut db, &text, "k_two and k_three"), [ModuleStage::Kernels]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The database keeps the frontend's state after the implicit headers (the preamble) by
/// flags and by what the preprocessor found looking for headers: a header that appears in
/// an include directory and shadows a built-in one that `cuda_runtime.h` includes takes
/// effect, and so does its removal; `-include` files are read after the kept preamble.
#[test]
fn a_kept_preamble_sees_headers_that_shadow_built_in_ones() {
    on_big_stack(kept_preamble_body)
}

fn kept_preamble_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-preamble-{}", std::process::id()));
    let inc = dir.join("include");
    std::fs::create_dir_all(&inc).unwrap();
    let (main, pre, shadow) = (dir.join("main.cu"), dir.join("pre.h"), inc.join("stdio.h"));
    std::fs::write(
        &main,
        "#ifndef SHADOW_VALUE\n#define SHADOW_VALUE 3\n#endif\n__global__ void k(int *o) { o[0] = SHADOW_VALUE; o[1] = PRE_VALUE; }\n",
    )
    .unwrap();
    std::fs::write(&pre, "#define PRE_VALUE 11\n").unwrap();
    let (inc_s, pre_s, main_s) = (inc.to_string_lossy().to_string(), pre.to_string_lossy().to_string(), main.to_string_lossy().to_string());
    let flags = ["-I", inc_s.as_str(), "-include", pre_s.as_str()];
    let mut db = Database::new(false);
    let check = |db: &Database, what: &str, value: &str| {
        let ptx = incremental_ptx(db, &main, &flags).unwrap_or_else(|| panic!("{what}: no PTX"));
        let mut args = vec!["compile", main_s.as_str()];
        args.extend_from_slice(&flags);
        let (rc, cold, err) = run_cli(&args, "");
        assert_eq!(rc, 0, "{what}: {err}");
        assert!(ptx == cold, "{what}: the incremental PTX is not the cold compile's:\n{ptx}\n---\n{cold}");
        assert!(ptx.contains(&format!(", {value};")), "{what}: {value} not stored:\n{ptx}");
        assert!(ptx.contains(", 11;"), "{what}: the -include file's value not stored:\n{ptx}");
    };
    check(&db, "no shadowing header", "3");
    let text = "#define SHADOW_VALUE 7\n".to_string();
    std::fs::write(&shadow, &text).unwrap();
    db.set_file_text(&shadow, Some(text));
    check(&db, "a header shadowing <stdio.h> added", "7");
    std::fs::remove_file(&shadow).unwrap();
    db.set_file_text(&shadow, None);
    check(&db, "the shadowing header removed", "3");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two units of one file with different flags (an editor's file and the same file built
/// with a define) keep a memo each: an edit inside a kernel converts only that kernel in
/// both, and each gives a fresh compile's PTX.
#[test]
fn two_units_of_one_file_keep_a_memo_each() {
    on_big_stack(two_units_body)
}

fn two_units_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-two-units-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("units.cu");
    let text = "#ifndef SCALE\n#define SCALE 1.0f\n#endif\n\
                __global__ void k_a(float *o, int n) { int i = threadIdx.x; if (i < n) o[i] = SCALE * i; }\n\
                __global__ void k_b(float *o, int n) { int i = threadIdx.x; if (i < n) o[i] = SCALE + i; }\n";
    let mut db = Database::default();
    db.set_file_text(&main, Some(text.to_string()));
    let flags = [vec![], vec!["-DSCALE=2.0f".to_string()]];
    let units: Vec<_> = flags.iter().map(|f| db.unit(&main, f.clone())).collect();
    for &u in &units {
        assert!(incremental::module_ptx(&db, u).is_some());
    }
    assert_eq!(db.take_module_stages(), [ModuleStage::Whole, ModuleStage::Whole]);
    let edited = text.replace("SCALE + i", "SCALE - i");
    db.set_file_text(&main, Some(edited.clone()));
    for (u, f) in units.iter().zip(&flags) {
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        assert!(incremental::module_ptx(&db, *u) == &fresh_ptx(&main, &edited, &f), "{f:?}: the PTX is not a fresh compile's");
    }
    assert_eq!(db.take_module_stages(), [ModuleStage::Kernels, ModuleStage::Kernels]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The frontend takes a kernel's body as known only when nothing that could change what it
/// means changed ([`cuprite_frontend::sema::bodies`]): a macro it uses, a device
/// function's signature, a struct's layout, a constant, a body above it that now has side
/// effects (a template instance, a string, a new type). After each edit the PTX and the
/// outline are a fresh compile's, and the kernels below the edit are read again or not, as
/// expected.
#[test]
fn kernel_bodies_are_read_again_when_what_they_mean_changes() {
    on_big_stack(kernel_bodies_read_again_body)
}

fn kernel_bodies_read_again_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-bodies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("bodies.cu");
    let mut text = String::from(
        "#include <cstdio>\n\
         #define SCALE 2.0f\n\
         struct P { float a; float b; };\n\
         __constant__ float bias[4];\n\
         const int K = 3;\n\
         template <typename T> __device__ T twice(T v) { return v + v; }\n\
         __device__ float f(float x) { return x * SCALE; }\n\
         __global__ void k_first(float *o, int n) {\n\
             int i = threadIdx.x;\n\
             if (i < n) o[i] = (float)i;\n\
         }\n\
         __global__ void k_macro(float *o, int n) {\n\
             int i = threadIdx.x;\n\
             if (i < n) o[i] = SCALE * o[i] + bias[i % 4];\n\
         }\n\
         __global__ void k_call(float *o, int n) {\n\
             int i = threadIdx.x;\n\
             if (i < n) o[i] = f(o[i]) + K;\n\
         }\n\
         __global__ void k_struct(const P *p, float *o, int n) {\n\
             int i = threadIdx.x;\n\
             if (i < n) o[i] = p[i].a * p[i].b;\n\
         }\n",
    );
    let mut db = Database::default();
    let unit = db.unit(&main, Vec::new());
    // Each edit: what the frontend must have read again at least, and at most.
    let mut step = |text: &str, what: &str, reused: std::ops::RangeInclusive<usize>| {
        db.set_file_text(&main, Some(text.to_string()));
        let got = incremental::module_ptx(&db, unit).clone();
        let (want, want_outline) = fresh(&main, text, &[]);
        assert!(got.is_some(), "{what}: no PTX: {:?}", incremental::diagnostics(&db, unit));
        assert!(got == want, "{what}: the PTX is not a fresh compile's");
        assert_eq!(outline(&db, unit), want_outline, "{what}: the outline is not a fresh compile's");
        let runs = db.take_frontend_runs();
        let n: usize = runs.iter().map(|r| r.reused).sum();
        assert!(reused.contains(&n), "{what}: {n} kernel bodies taken as known ({runs:?}), expected {reused:?}");
        runs.len()
    };
    step(&text, "cold", 0..=0);
    step(&format!("// a comment\n\n{text}"), "lines added above", 4..=4);
    text = text.replace("o[i] = (float)i;", "o[i] = (float)i + 1.0f;");
    step(&text, "k_first's body", 3..=3);
    // k_macro's first line indented: the parser skips its body (its tokens are the
    // same), but it is not the same outline; the frontend runs again, reading it.
    text = text.replace("__global__ void k_macro", "  __global__ void k_macro");
    assert_eq!(step(&text, "k_macro indented", 3..=3), 2, "the frontend runs again");
    text.push('\n');
    step(&text, "a line added at the end", 4..=4);
    text = text.replace("#define SCALE 2.0f", "#define SCALE 3.0f");
    step(&text, "the macro k_macro uses (f uses it too: a device function, read again)", 0..=2);
    text.push('\n');
    step(&text, "a line added at the end", 4..=4);
    text = text.replace("__device__ float f(float x)", "__device__ float f(double x)");
    step(&text, "f's signature", 0..=2);
    text = text.replace("struct P { float a; float b; };", "struct P { float b; float a; };");
    step(&text, "the struct's layout", 0..=0);
    text = text.replace("const int K = 3;", "const int K = 4;");
    step(&text, "a constant", 0..=1);
    text.push('\n');
    step(&text, "a line added at the end", 4..=4);
    // k_first's body instantiates a template, then prints: side effects, so every kernel
    // below it is read again; and again when they are gone.
    text = text.replace("o[i] = (float)i + 1.0f;", "o[i] = twice((float)i);");
    step(&text, "a template instance in k_first", 0..=0);
    text = text.replace("o[i] = twice((float)i);", "o[i] = twice((float)i); printf(\"%d\\n\", i);");
    step(&text, "a string in k_first", 0..=0);
    text = text.replace("o[i] = twice((float)i); printf(\"%d\\n\", i);", "o[i] = (float)i;");
    step(&text, "k_first without them", 0..=0);
    text.push('\n');
    step(&text, "a line added at the end", 4..=4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file large enough that a compile with nothing to reuse runs the parser on a thread
/// of its own (`cuprite_frontend::PIPELINE_MIN_BYTES`): its kernels' bodies are still
/// taken as known after an edit (and then not parsed), and the PTX is a fresh compile's.
#[test]
fn kernel_bodies_are_reused_in_large_files() {
    on_big_stack(kernel_bodies_large_body)
}

fn kernel_bodies_large_body() {
    let dir = std::env::temp_dir().join(format!("cuprite-bodies-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let main = dir.join("large.cu");
    let kernel = |i: usize, bound: usize| {
        format!(
            "// Kernel {i}: a strided sum over a tile, written out the long way so that the\n\
             // file is large.\n\
             __global__ void scale_{i}(float *out, const float *in, int n) {{\n\
                 __shared__ float tile[64];\n\
                 int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
                 tile[threadIdx.x % 64] = i < n ? in[i] : 0.0f;\n\
                 __syncthreads();\n\
                 float acc = 0.0f;\n\
                 for (int j = 0; j < {bound}; ++j) {{\n\
                     acc += tile[(threadIdx.x + j) % 64] * {i}.5f;\n\
                 }}\n\
                 if (i < n) out[i] = acc;\n\
             }}\n"
        )
    };
    let text = |bounds: &[usize]| bounds.iter().enumerate().map(|(i, &b)| kernel(i, b)).collect::<String>();
    let mut bounds: Vec<usize> = (0..160).map(|i| 8 + i % 5).collect();
    let first = text(&bounds);
    assert!(first.len() >= cuprite_frontend::PIPELINE_MIN_BYTES, "{} bytes", first.len());
    let mut db = Database::default();
    let unit = db.unit(&main, Vec::new());
    for (step, k) in [None, Some(3), Some(100), Some(159)].into_iter().enumerate() {
        if let Some(k) = k {
            bounds[k] += 7;
        }
        let t = text(&bounds);
        db.set_file_text(&main, Some(t.clone()));
        let got = incremental::module_ptx(&db, unit).clone();
        assert!(got.is_some(), "step {step}: no PTX");
        assert!(got == fresh_ptx(&main, &t, &[]), "step {step}: the PTX is not a fresh compile's");
        let runs = db.take_frontend_runs();
        assert_eq!(runs.len(), 1, "step {step}: {runs:?}");
        if step > 0 {
            // All but the edited kernel and the first (whose body is the first to need
            // some types: a side effect, so it is read every time).
            assert_eq!((runs[0].reused, runs[0].unparsed), (158, 158), "step {step}: {runs:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
