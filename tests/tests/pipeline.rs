//! The compiler as one textual pass pipeline (`driver/src/pipeline.rs`):
//!
//! - `cuprite compile --print-pipeline`, run by `cuprite opt --emit=ptx` on the
//!   `--emit=cuda` output, gives byte-for-byte the PTX `cuprite compile` writes, for every
//!   corpus file (`tests/ptx`, `examples/cuda`, `tests/programs`);
//! - every prefix of that pipeline leaves IR that prints, parses back, verifies and runs on
//!   the simulator with the cuda level's results, on every corpus launch (exactly at the
//!   nvvm level; within the spec's stated tolerance at the ptx level, as `tests/sim.rs`);
//! - every subset of the conversions (`convert-scf-to-cf`, `lower-cuda-control-flow`,
//!   `convert-cuda-gpu-to-nvvm`, `convert-arith-to-nvvm`, `convert-math-to-nvvm`,
//!   `convert-cuda-intrinsics-to-nvvm`, `convert-cuda-pointers-to-nvvm`,
//!   `convert-cuda-to-nvvm`, `convert-func-to-nvvm`: 511 subsets), run in
//!   pipeline order after the math library is linked, leave mixed-dialect IR that prints,
//!   parses back, verifies and runs every corpus launch with the cuda level's results;
//! - a conversion that cannot lower an op fails with a diagnostic at the op, naming the
//!   pass, and the module stays printable.

use cuprite::pipeline::{compile_pipeline, registry, PipelineConfig};
use cuprite_sim::spec::{compare, parse_toml, LaunchSpec, Output};
use cuprite_sim::{run_spec, Level, Schedule};
use cuprite_tests::run_cli;
use std::path::{Path, PathBuf};

/// Every corpus `.cu` file.
fn corpus() -> Vec<PathBuf> {
    cuprite_tests::corpus_files(false)
}

/// The cuda level of corpus file `file` as the frontend makes it, with its launches (none
/// without a launch spec).
fn frontend_module(file: &Path) -> (String, Vec<LaunchSpec>, cuprite_ir::Context, cuprite_ir::OpId) {
    let name = file.display().to_string();
    let spec = file.with_extension("toml");
    let launches = if spec.is_file() { parse_toml(&std::fs::read_to_string(&spec).unwrap()).unwrap() } else { Vec::new() };
    let text = std::fs::read_to_string(file).unwrap();
    let opts = cuprite_frontend::sema::SemaOptions { arch: 90 };
    let (_, (ctx, module, diags)) =
        cuprite::compile::big_stack(|| cuprite_frontend::parse_and_lower(&name, Some(file), &text, Default::default(), opts));
    assert!(diags.iter().all(|d| d.severity != cuprite_frontend::diag::Severity::Error), "{name} does not compile");
    (name, launches, ctx, module)
}

#[test]
fn the_printed_pipeline_run_by_opt_gives_the_same_ptx() {
    let dir = std::env::temp_dir().join(format!("cuprite-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for file in corpus() {
        let f = file.to_string_lossy().to_string();
        for extra in [&[][..], &["-O0"][..], &["--use_fast_math", "-arch=sm_75"][..]] {
            let with = |args: &[&str]| {
                let mut a = vec!["compile", f.as_str()];
                a.extend_from_slice(extra);
                a.extend_from_slice(args);
                run_cli(&a, "")
            };
            let (rc, pipeline, err) = with(&["--print-pipeline"]);
            assert_eq!(rc, 0, "{f}: {err}");
            let (rc, cuda, err) = with(&["--emit=cuda"]);
            assert_eq!(rc, 0, "{f}: {err}");
            let (rc, ptx, err) = with(&[]);
            assert_eq!(rc, 0, "{f}: {err}");
            let input = dir.join("in.cuda.mlir");
            std::fs::write(&input, &cuda).unwrap();
            let sm = extra.iter().find_map(|a| a.strip_prefix("-arch=")).unwrap_or("sm_90");
            let (rc, opt_ptx, err) = run_cli(
                &["opt", &input.to_string_lossy(), &format!("--pass-pipeline={}", pipeline.trim()), "--emit=ptx", &format!("-arch={sm}")],
                "",
            );
            assert_eq!(rc, 0, "{f} {extra:?}: cuprite opt fails on the printed pipeline:\n{err}");
            assert!(opt_ptx == ptx, "{f} {extra:?}: cuprite opt's PTX differs from cuprite compile's");
            n += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(n >= 90, "only {n} compiles compared");
}

/// The steps of `pipeline` one pass each, in order: a pass of a nested pipeline is a
/// pipeline of its own nested the same way (`nvvm.func(sccp)`).
fn steps(pipeline: &str) -> Vec<String> {
    let inner = pipeline.trim().strip_prefix("builtin.module(").and_then(|s| s.strip_suffix(')')).expect("a module pipeline");
    let mut out = Vec::new();
    for el in cuprite_lowering::passes::split_top_level(inner) {
        match el.split_once('(') {
            Some((anchor, rest)) if !anchor.contains('{') => {
                for p in cuprite_lowering::passes::split_top_level(rest.strip_suffix(')').unwrap()) {
                    out.push(format!("{anchor}({p})"));
                }
            }
            _ => out.push(el),
        }
    }
    out
}

/// The level of a module, from its functions: ptx, nvvm when every function is an
/// `nvvm.func`, else the cuda level (whose translator runs mixed modules).
fn level_of(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId) -> Level {
    let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
    let ops: Vec<&str> = ctx.block_ops(body).map(|o| ctx.op_name_str(o)).collect();
    if ops.iter().any(|o| o.starts_with("ptx.")) {
        Level::Ptx
    } else if ops.contains(&"func.func") || !ops.contains(&"nvvm.func") {
        Level::Cuda
    } else {
        Level::Nvvm
    }
}

fn run(ctx: &cuprite_ir::Context, m: cuprite_ir::OpId, level: Level, l: &LaunchSpec, what: &str) -> Vec<Output> {
    let r = run_spec(ctx, m, level, l, Schedule::InOrder, 1 << 28).unwrap_or_else(|e| panic!("{what}: {}: {e}", l.kernel));
    assert!(r.stats.warnings.is_empty(), "{what}: {}: {:?}", l.kernel, r.stats.warnings);
    let mut outs = r.outputs;
    let ty = cuprite_sim::spec::ArgTy::parse("u8").expect("u8");
    outs.push(Output { name: "printf".into(), ty, data: r.stats.output.into_bytes() });
    outs
}

#[test]
fn every_prefix_of_the_pipeline_prints_parses_and_runs_like_the_cuda_level() {
    let reg = registry();
    let lowering = cuprite_lowering::FloatOptions::default();
    let pipeline = compile_pipeline(&PipelineConfig {
        sm: 90,
        fast_math: false,
        lowering: &lowering,
        level: 3,
        opt: Default::default(),
        max_registers: None,
        select: true,
    });
    let steps = steps(&pipeline);
    assert!(steps.len() >= 10, "{steps:?}");
    let mut runs = 0;
    for file in cuprite_tests::corpus_files(true) {
        let (name, launches, mut ctx, mut module) = frontend_module(&file);
        // The reference: the cuda level once the math library is linked (the first step;
        // the simulator runs library functions only as the library's own code).
        let mut reference: Vec<Vec<Output>> = Vec::new();
        for step in &steps {
            let pm = cuprite_ir::pass::parse_pipeline(&format!("builtin.module({step})"), "builtin.module", &reg).unwrap();
            let popts = cuprite_ir::pass::PassOptions::default();
            if let Err(out) = cuprite::compile::big_stack(|| cuprite_ir::pass::run_pipeline(&mut ctx, module, &pm, &popts, None)) {
                panic!("{name}: {step} fails: {:?}", out.diagnostics);
            }
            // Printed, parsed back into a fresh context, verified: what runs is the text.
            let printed = cuprite_ir::print::print_op(&ctx, module, Default::default());
            let mut fresh = cuprite_tests::context(false);
            let m = cuprite_tests::parse_verified(&mut fresh, &printed, &format!("{name} after {step}"))
                .unwrap_or_else(|e| panic!("{name}: the IR after {step} does not parse back:\n{e}"));
            let level = level_of(&fresh, m);
            if reference.is_empty() {
                assert!(step.starts_with("link-math-library"), "{step}");
                reference = launches.iter().map(|l| run(&fresh, m, Level::Cuda, l, &name)).collect();
            }
            for (l, want) in launches.iter().zip(&reference) {
                let got = run(&fresh, m, level, l, &format!("{name} after {step}"));
                let tol = if level == Level::Ptx { l.tolerance_ulp } else { 0 };
                if let Err(e) = compare(want, &got, tol) {
                    panic!("{name}: kernel {} after {step} differs from the cuda level:\n{e}", l.kernel);
                }
                runs += 1;
            }
            ctx = fresh;
            module = m;
        }
    }
    eprintln!("{runs} launches agree after every step of {pipeline}");
    assert!(runs >= 36 * steps.len());
}

#[test]
fn every_subset_of_the_conversions_leaves_ir_that_runs_like_the_cuda_level() {
    let reg = registry();
    let lowering = cuprite_lowering::FloatOptions::default();
    let link = steps(&compile_pipeline(&PipelineConfig {
        sm: 90,
        fast_math: false,
        lowering: &lowering,
        level: 3,
        opt: Default::default(),
        max_registers: None,
        select: false,
    }))[0]
        .clone();
    assert!(link.starts_with("link-math-library"), "{link}");
    let convs = cuprite_lowering::passes::conversions(&lowering);
    assert_eq!(convs.len(), 9, "{convs:?}");
    let mut runs = 0;
    for file in cuprite_tests::corpus_files(true) {
        let (name, launches, mut ctx, module) = frontend_module(&file);
        let popts = cuprite_ir::pass::PassOptions::default();
        let pm = cuprite_ir::pass::parse_pipeline(&format!("builtin.module({link})"), "builtin.module", &reg).unwrap();
        cuprite::compile::big_stack(|| cuprite_ir::pass::run_pipeline(&mut ctx, module, &pm, &popts, None)).unwrap_or_else(|o| {
            panic!("{name}: {link}: {:?}", o.diagnostics);
        });
        let linked = cuprite_ir::print::print_op(&ctx, module, Default::default());
        let reference: Vec<Vec<Output>> = launches.iter().map(|l| run(&ctx, module, Level::Cuda, l, &name)).collect();
        // Every subset while there are few passes (2^9 - 1 = 511 runs of the corpus); beyond,
        // each pass alone, each left out, and all of them, so the test stays linear.
        let n = convs.len() as u32;
        let full = (1u32 << n) - 1;
        let masks: Vec<u32> = if n <= 9 {
            (1..=full).collect()
        } else {
            (0..n).map(|i| 1 << i).chain((0..n).map(|i| full & !(1 << i))).chain([full]).collect()
        };
        for mask in masks {
            let subset: Vec<&str> = convs.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| c.as_str()).collect();
            let what = format!("{name} after {}", subset.join(","));
            let mut c = cuprite_tests::context(false);
            let m = cuprite_tests::parse_verified(&mut c, &linked, &name).unwrap();
            let pm = cuprite_ir::pass::parse_pipeline(&format!("builtin.module({})", subset.join(",")), "builtin.module", &reg).unwrap();
            if let Err(out) = cuprite::compile::big_stack(|| cuprite_ir::pass::run_pipeline(&mut c, m, &pm, &popts, None)) {
                panic!("{what}: fails: {:?}", out.diagnostics);
            }
            let printed = cuprite_ir::print::print_op(&c, m, Default::default());
            let mut fresh = cuprite_tests::context(false);
            let m2 = cuprite_tests::parse_verified(&mut fresh, &printed, &what)
                .unwrap_or_else(|e| panic!("{what}: the IR does not parse back:\n{e}"));
            for (l, want) in launches.iter().zip(&reference) {
                let got = run(&fresh, m2, Level::Cuda, l, &what);
                if let Err(e) = compare(want, &got, 0) {
                    panic!("{what}: kernel {} differs from the cuda level:\n{e}", l.kernel);
                }
                runs += 1;
            }
        }
    }
    eprintln!("{runs} launches agree after every subset of the conversions");
    assert!(runs >= 511 * 36);
}

#[test]
fn a_conversion_that_cannot_lower_an_op_names_it_and_the_pass() {
    // A math library call with the library never linked: no conversion lowers it.
    let cuda = r#"module {
  func.func @k(%arg0: !cuda.ptr<f32, global>) attributes {cuda.kernel} {
    %0 = cuda.load %arg0 : !cuda.ptr<f32, global> -> f32
    %1 = cuda.intrinsic "fmodf"(%0, %0) : (f32, f32) -> f32
    cuda.store %1, %arg0 : f32, !cuda.ptr<f32, global>
    return
  }
}
"#;
    // The conversions are partial: each leaves what it does not lower. `check-nvvm-level`
    // (where `cuprite compile`'s pipeline requires the nvvm level) names what is left, at
    // the op, and the pass that lowers it.
    let (rc, out, err) = run_cli(&["opt", "-", "--convert-cuda-to-nvvm", "--convert-func-to-nvvm"], cuda);
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("nvvm.func kernel @k") && out.contains("cuda.intrinsic \"fmodf\""), "{out}");
    let (rc, out, err) = run_cli(&["opt", "-", "--convert-cuda-to-nvvm", "--convert-func-to-nvvm", "--check-nvvm-level"], cuda);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("'fmodf' is not supported yet") && err.contains("in pass 'check-nvvm-level'"), "{err}");
    assert!(err.contains("<stdin>:4:"), "the error is at the op: {err}");
    // The library linked first (its code then needs the other conversions), the same
    // module lowers.
    let (rc, out, err) = run_cli(
        &[
            "opt",
            "-",
            "--link-math-library",
            "--convert-scf-to-cf",
            "--lower-cuda-control-flow",
            "--convert-cuda-gpu-to-nvvm",
            "--convert-arith-to-nvvm",
            "--convert-math-to-nvvm",
            "--convert-cuda-intrinsics-to-nvvm",
            "--convert-cuda-pointers-to-nvvm",
            "--convert-cuda-to-nvvm",
            "--convert-func-to-nvvm",
            "--check-nvvm-level",
        ],
        cuda,
    );
    assert_eq!(rc, 0, "{err}");
    assert!(out.contains("nvvm.func kernel @k") && !out.contains("cuda.") && !out.contains("arith."), "{out}");
    // Without them, what they lower is an error naming the pass that lowers it.
    let (rc, _, err) =
        run_cli(&["opt", "-", "--link-math-library", "--convert-cuda-to-nvvm", "--convert-func-to-nvvm", "--check-nvvm-level"], cuda);
    assert_eq!(rc, 1);
    assert!(err.contains("is lowered by 'lower-cuda-control-flow', which did not run or could not convert it"), "{err}");
    let (rc, _, err) = run_cli(
        &["opt", "-", "--convert-func-to-nvvm", "--check-nvvm-level"],
        "module {\n  func.func @k() attributes {cuda.kernel} {\n    %0 = cuda.special tid_x : i32\n    return\n  }\n}\n",
    );
    assert_eq!(rc, 1);
    assert!(err.contains("'cuda.special' is lowered by 'convert-cuda-gpu-to-nvvm'") && err.contains("<stdin>:3:"), "{err}");
    // Instruction selection has no float remainder instruction.
    let nvvm = r#"module {
  nvvm.func kernel @k(%arg0: !llvm.ptr<1>) {
    %0 = nvvm.load %arg0 {align = 4 : i32} : !llvm.ptr<1> -> f32
    %1 = nvvm.frem %0, %0 : f32
    nvvm.store %1, %arg0 {align = 4 : i32} : f32, !llvm.ptr<1>
    nvvm.return
  }
}
"#;
    let (rc, out, err) = run_cli(&["opt", "-", "--convert-nvvm-to-ptx"], nvvm);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(err.contains("float remainder") && err.contains("in pass 'convert-nvvm-to-ptx'"), "{err}");
    // --emit=ptx on a module that is not at the ptx level is an error, not a panic.
    let (rc, _, err) = run_cli(&["opt", "-", "--emit=ptx"], nvvm);
    assert_eq!(rc, 1);
    assert!(err.contains("--emit=ptx needs a module of the ptx level"), "{err}");
    // Bad pass options are reported.
    let (rc, _, err) = run_cli(&["opt", "-", "--pass-pipeline=builtin.module(convert-arith-to-nvvm{div=fast})"], cuda);
    assert_eq!(rc, 2);
    assert!(err.contains("precise, full or approx"), "{err}");
    // A float flag given to the pass that no longer implements it says where it went.
    let (rc, _, err) = run_cli(&["opt", "-", "--pass-pipeline=builtin.module(convert-cuda-to-nvvm{approx-sqrt=true})"], cuda);
    assert_eq!(rc, 2);
    assert!(err.contains("moved to 'convert-math-to-nvvm'"), "{err}");
    let (rc, _, err) = run_cli(&["opt", "-", "--pass-pipeline=builtin.module(nvvm-max-registers{max=0})"], nvvm);
    assert_eq!(rc, 2);
    assert!(err.contains("positive number of registers"), "{err}");
}

/// `--print-pipeline=cicc` lists every pass of the pipeline, in order, each with what does
/// its job in cicc: a pass added to the pipeline without a counterpart fails here.
#[test]
fn the_explained_pipeline_names_cicc_s_counterpart_of_every_pass() {
    let file = cuprite_tests::ir_dir().join("../../examples/cuda/reduce.cu");
    let file = file.to_string_lossy();
    for flags in [&["-O3"][..], &["-O0"], &["-O2", "-fno-unroll-loops", "-maxrregcount=32"]] {
        let mut args = vec!["compile", "--print-pipeline=cicc", &file];
        args.extend(flags);
        let (rc, out, err) = run_cli(&args, "");
        assert_eq!(rc, 0, "{flags:?}: {err}");
        let (_, plain, _) = run_cli(&[&["compile", "--print-pipeline", &file][..], flags].concat(), "");
        let passes: Vec<&str> = out.lines().filter(|l| !l.trim_end().ends_with(':')).collect();
        // As many passes as the plain pipeline names (options and nesting aside).
        let names = plain.split([',', '(', ')']).filter(|s| !s.is_empty() && !s.trim().is_empty()).count();
        assert!(passes.len() >= 10, "{flags:?}:\n{out}");
        for l in &passes {
            let mut parts = l.trim().splitn(2, char::is_whitespace);
            let (name, what) = (parts.next().unwrap_or(""), parts.next().unwrap_or("").trim());
            assert!(!what.is_empty(), "{flags:?}: pass '{name}' has no cicc counterpart:\n{out}");
            assert!(plain.contains(name), "{flags:?}: '{name}' is not in the pipeline {plain}");
        }
        assert!(names >= passes.len(), "{flags:?}: {names} names in {plain}, {} lines in\n{out}", passes.len());
    }
}
