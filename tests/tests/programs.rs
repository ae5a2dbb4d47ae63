//! Whole programs of our own, host code and all (`tests/programs/*.cu`), compiled as a user
//! hands them to `nvcc -ptx`: cuprite must compile each with no error, emit PTX that ptxas
//! accepts, and emit exactly the kernels nvcc emits (the `.entry` set), including the
//! template instances that only host code names (launches with explicit and deduced
//! arguments, host function templates that launch, `cudaLaunchKernel`, tables of kernel
//! pointers, `cudaFuncSetAttribute`, the occupancy API).
//!
//! nvcc comes from the CUDA 13.0 wheels (`scripts/install-cuda-ref.sh`, with a host g++);
//! CI sets `CUPRITE_REQUIRE_NVRTC=1`, so that a missing nvcc fails instead of skipping the
//! comparison. The entry sets are also snapshotted, so the check runs without nvcc too.

use cuprite_tests::run_cli;
use std::path::{Path, PathBuf};

fn cuda_root() -> Option<PathBuf> {
    let cands: Vec<PathBuf> = match std::env::var_os("CUPRITE_CUDA_ROOT") {
        Some(p) => vec![PathBuf::from(p)],
        None => {
            let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
            vec![home.join(".cache/cuprite-cuda-ref/site/nvidia/cu13"), home.join(".cache/cuda-ref/site/nvidia/cu13")]
        }
    };
    let found = cands.into_iter().find(|c| c.join("bin/nvcc").is_file());
    if found.is_none() {
        assert!(std::env::var_os("CUPRITE_REQUIRE_NVRTC").is_none(), "nvcc not found: run scripts/install-cuda-ref.sh");
        eprintln!("nvcc not found: skipping the comparison with nvcc -ptx (run scripts/install-cuda-ref.sh)");
    }
    found
}

/// The `.entry` names of a PTX text, sorted.
fn entries(ptx: &str) -> Vec<String> {
    let mut v: Vec<String> = ptx
        .lines()
        .filter_map(|l| l.trim().strip_prefix(".visible .entry ").or_else(|| l.trim().strip_prefix(".entry ")))
        .map(|l| l.trim_end_matches('(').trim().to_string())
        .collect();
    v.sort();
    v
}

fn run(cmd: &mut std::process::Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed:\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
    }
}

fn nvcc_entries(root: &Path, cu: &Path, dir: &Path) -> Vec<String> {
    let out = dir.join("nvcc.ptx");
    run(std::process::Command::new(root.join("bin/nvcc")).args(["-ptx", "-arch=sm_90", "-w"]).arg(cu).arg("-o").arg(&out))
        .unwrap_or_else(|e| panic!("nvcc -ptx (it needs a host g++: apt-get install g++): {e}"));
    entries(&std::fs::read_to_string(out).unwrap())
}

#[test]
fn whole_programs_emit_the_kernels_nvcc_emits() {
    let root = cuda_root();
    let dir = std::env::temp_dir().join(format!("cuprite-programs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    insta::glob!("../programs", "*.cu", |path| {
        let rel = format!("programs/{}", path.file_name().unwrap().to_string_lossy());
        let ptx = dir.join("cuprite.ptx");
        let (code, _, err) = run_cli(&["compile", "--arch=sm_90", &rel, "-o", ptx.to_str().unwrap()], "");
        assert_eq!(code, 0, "{rel}: cuprite failed:\n{err}");
        assert!(err.is_empty(), "{rel}: cuprite printed diagnostics:\n{err}");
        let text = std::fs::read_to_string(&ptx).unwrap();
        let ours = entries(&text);
        if let Some(root) = &root {
            run(std::process::Command::new(root.join("bin/ptxas")).args(["-arch=sm_90", "-o", "/dev/null"]).arg(&ptx))
                .unwrap_or_else(|e| panic!("{rel}: ptxas rejects cuprite's PTX: {e}"));
            let theirs = nvcc_entries(root, path, &dir);
            assert_eq!(ours, theirs, "{rel}: cuprite's kernels (left) differ from nvcc -ptx's (right)");
        }
        insta::assert_snapshot!(ours.join("\n"));
    });
    let _ = std::fs::remove_dir_all(&dir);
}
