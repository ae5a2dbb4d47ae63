//! `cuprite run`: the command line, its output, its errors.

use cuprite_tests::run_cli;

#[test]
fn runs_a_kernel_and_summarizes_buffers() {
    let (code, out, err) = run_cli(
        &[
            "run",
            "../tests/ptx/vector.cu",
            "--kernel",
            "vadd",
            "--grid",
            "2",
            "--block",
            "64",
            "--arg",
            "a:f32[100]=iota",
            "--arg",
            "b:f32[100]=fill:0.5",
            "--arg",
            "c:f32[100]=zeros",
            "--arg",
            "n:i32=100",
            "--show",
            "4",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
}

#[test]
fn runs_a_spec_at_each_level_and_reports_bad_input() {
    for level in ["cuda", "nvvm", "ptx"] {
        let (code, out, err) = run_cli(
            &["run", "../tests/ptx/scan.cu", "--spec", "../tests/ptx/scan.toml", "--kernel", "warp_scan", "--level", level, "--show", "3"],
            "",
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("out: i32[300] checksum"), "{out}");
    }
    let (code, _, err) = run_cli(&["run", "../tests/ptx/vector.cu", "--kernel", "nope"], "");
    assert_eq!(code, 1);
    assert!(err.contains("no kernel named 'nope' (kernels: clamp_int, conversions, int_math, saxpy, scale_size_t, vadd)"), "{err}");
    let (code, _, err) = run_cli(&["run", "../tests/ptx/vector.cu", "--kernel", "vadd", "--arg", "n:i33=1"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown type 'i33'"), "{err}");
    let (code, _, err) = run_cli(&["run", "../tests/ptx/vector.cu", "--kernel", "vadd", "--arg", "n:i32=1"], "");
    assert_eq!(code, 1);
    assert!(err.contains("takes 4 arguments, the launch gives 1"), "{err}");
}

#[test]
fn unknown_ptx_instructions_get_a_spanned_diagnostic() {
    let dir = std::env::temp_dir().join(format!("cuprite-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bad.ptx");
    std::fs::write(&p, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.b32 %r1;\n\tret;\n}\n")
        .unwrap();
    let (code, _, err) = run_cli(&["run", "--ptx", p.to_str().unwrap(), "--kernel", "k"], "");
    assert_eq!(code, 1);
    assert!(err.contains("unknown or unsupported PTX instruction 'frobnicate.b32'") && err.contains("bad.ptx:6:2"), "{err}");
}

/// What NVRTC's libdevice needs of the PTX reader and the simulator: `mov.b64 {lo, hi}, d`
/// and its inverse, the carry chain (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo.cc`,
/// `madc.hi`), a nested block's `.reg` shadowing the function's register of the same name
/// until the block ends, and a `.func` returning an aggregate (`.b8 func_retval0[16]`).
#[test]
fn vector_moves_carry_chains_scoped_registers_and_aggregate_returns_run() {
    let dir = std::env::temp_dir().join(format!("cuprite-run-agg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("k.ptx");
    std::fs::write(&p, HAND_PTX).unwrap();
    let (code, out, err) =
        run_cli(&["run", "--ptx", p.to_str().unwrap(), "--kernel", "k", "--arg", "out:u32[14]=zeros", "--show", "14"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "no warnings (the aggregate's padding is not read unwritten): {err}");
    // [hi(1.5), -, the halves swapped (lo = hi(1.5), hi = 0), -1 + 2 = 1 (carry), -1 + 5 + 1 = 5,
    //  the outer %r1 = 5, 5 - 0 - borrow(1 - 5) = 4, (2^32-1)^2 + 2^32-1 in halves: 0 and 2^32-1,
    //  the aggregate: pointer + 1 - pointer = 1 (64-bit) and 7]
    let want = "1073217536 0 1073217536 0 1 5 5 4 0 4294967295 1 0 7 0";
    assert!(out.lines().any(|l| l.trim_end().ends_with(want)), "{out}");
}

const HAND_PTX: &str = r#".version 8.0
.target sm_90
.address_size 64
.func (.param .align 8 .b8 func_retval0[16]) pair(.param .b64 pair_param_0)
{
	.reg .b64 %rd<3>;
	.reg .b32 %r<3>;
	ld.param.u64 %rd1, [pair_param_0];
	add.s64 %rd2, %rd1, 1;
	st.param.b64 [func_retval0+0], %rd2;
	mov.u32 %r1, 7;
	st.param.b32 [func_retval0+8], %r1;
	ret;
}
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<10>;
	.reg .f64 %fd<3>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.f64 %fd1, 0d3FF8000000000000;
	mov.b64 {%r1, %r2}, %fd1;
	st.global.u32 [%rd2], %r2;
	mov.b64 %fd2, {%r2, %r1};
	st.global.f64 [%rd2+8], %fd2;
	mov.u32 %r1, 5;
	{
	.reg .u32 %r1, %r2;
	mov.u32 %r1, -1;
	add.cc.u32 %r3, %r1, 2;
	addc.u32 %r4, %r1, 5;
	}
	st.global.u32 [%rd2+16], %r3;
	st.global.u32 [%rd2+20], %r4;
	st.global.u32 [%rd2+24], %r1;
	sub.cc.u32 %r5, %r3, %r4;
	subc.u32 %r6, %r1, 0;
	st.global.u32 [%rd2+28], %r6;
	mov.u32 %r7, -1;
	mad.lo.cc.u32 %r8, %r7, %r7, %r7;
	madc.hi.u32 %r9, %r7, %r7, 0;
	st.global.u32 [%rd2+32], %r8;
	st.global.u32 [%rd2+36], %r9;
	{
	.param .b64 param0;
	st.param.b64 [param0+0], %rd2;
	.param .align 8 .b8 retval0[16];
	call.uni (retval0), pair, (param0);
	ld.param.b64 %rd3, [retval0+0];
	ld.param.b32 %r1, [retval0+8];
	}
	sub.s64 %rd4, %rd3, %rd2;
	st.global.u64 [%rd2+40], %rd4;
	st.global.u32 [%rd2+48], %r1;
	ret;
}
"#;

/// Designated initializers reach members of anonymous unions and structs, with the rest of
/// the object zeroed, the same at every level.
#[test]
fn designated_initializers_reach_anonymous_members() {
    for level in ["cuda", "nvvm", "ptx"] {
        let args = [
            "run",
            "../tests/frontend/sema/anonymous_members.cu",
            "--kernel",
            "designated",
            "--block",
            "2",
            "--arg",
            "out:f32[8]=fill:9",
            "--level",
            level,
        ];
        let (code, out, err) = run_cli(&args, "");
        assert_eq!(code, 0, "{level}: {err}");
        assert!(out.contains("1.5 0.0 7.0 0.0 2.5 0.0 7.0 0.0"), "{level}: {out}");
    }
}

/// Packed half and bfloat instructions the simulator does not model are errors with the
/// instruction's span, not 32-bit integer arithmetic.
#[test]
fn fp8_instructions_are_refused_not_run_as_integers() {
    let dir = std::env::temp_dir().join(format!("cuprite-run-packed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("packed.ptx");
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.b32 %r1, 1006648320;\n\tcvt.rn.satfinite.e4m3x2.f16x2 %r2, %r1;\n\tret;\n}\n";
    std::fs::write(&p, ptx).unwrap();
    let (code, _, err) = run_cli(&["run", "--ptx", p.to_str().unwrap(), "--kernel", "k"], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the type .e4m3x2 is not simulated yet") && err.contains("packed.ptx:8:2"), "{err}");
}

/// Without the `mlir` feature, each flag that needs the bridge says so (exit 2), and
/// nothing is written.
#[cfg(not(feature = "mlir"))]
#[test]
fn the_bridge_flags_say_when_the_mlir_feature_is_not_built() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/cuda/reduce.cu");
    let out = std::env::temp_dir().join(format!("cuprite-no-mlir-{}.ptx", std::process::id()));
    let (rc, _, err) = cuprite_tests::run_cli(&["compile", &f.to_string_lossy(), "--backend=llvm", "-o", &out.to_string_lossy()], "");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("built without the `mlir` feature") && err.contains("scripts/install-mlir.sh"), "{err}");
    assert!(!out.exists());
    let (rc, _, err) = cuprite_tests::run_cli(&["opt", "-", "--mlir-pass-pipeline=builtin.module(cse)"], "module {}");
    assert_eq!(rc, 2, "{err}");
    assert!(err.contains("built without the `mlir` feature"), "{err}");
}

/// IR given to `cuprite compile` is an error that points at `cuprite opt` (and its
/// `--import-upstream` for upstream MLIR), not a flood of C++ syntax errors.
#[test]
fn compile_points_ir_inputs_at_opt() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("upstream/saxpy_gpu.mlir");
    let (rc, out, err) = cuprite_tests::run_cli(&["compile", &f.to_string_lossy()], "");
    assert_eq!(rc, 2, "{out}{err}");
    assert!(err.contains("is IR, not CUDA") && err.contains("--import-upstream") && !err.contains("expected"), "{err}");
}
