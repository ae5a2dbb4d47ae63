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
