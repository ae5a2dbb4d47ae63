//! The simulator catches each class of bug it is there for, at every level: an
//! out-of-bounds write, a divergent barrier (and threads exiting before a barrier), a
//! race from a missing barrier (results differ across random schedules), reads of
//! never-written shared memory, and a wrong rewrite (a pass that swaps the operands of a
//! subtraction), caught by the before/after helper that pass tests use.

use cuprite_sim::spec::{parse_toml, LaunchSpec};
use cuprite_sim::{check_pipeline, check_rewrite, run_spec, Level, Schedule};

fn levels(name: &str, src: &str) -> cuprite::levels::Levels {
    cuprite::levels::compile_levels(name, src, &Default::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn spec(toml: &str) -> LaunchSpec {
    parse_toml(toml).unwrap().remove(0)
}

/// Runs `s` at every level, expecting an error containing each of `needles`.
fn expect_error(lv: &cuprite::levels::Levels, s: &LaunchSpec, needles: &[&str]) {
    for (level, m) in [(Level::Cuda, lv.cuda), (Level::Nvvm, lv.nvvm_o0), (Level::Nvvm, lv.nvvm), (Level::Ptx, lv.ptx)] {
        match run_spec(&lv.ctx, m, level, s, Schedule::InOrder, 1 << 24) {
            Ok(_) => panic!("{}: the bug went unnoticed at the {} level", s.kernel, level.name()),
            Err(e) => {
                for n in needles {
                    assert!(e.contains(n), "{} level: expected '{n}' in:\n{e}", level.name());
                }
            }
        }
    }
}

#[test]
fn out_of_bounds_write_stops_with_its_source_location() {
    let lv = levels("oob.cu", "__global__ void fill(int *a) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] = i;\n}\n");
    let s = spec("[[launch]]\nkernel = \"fill\"\ngrid = 1\nblock = 128\nargs = [\"a:i32[100]=zeros\"]\n");
    expect_error(&lv, &s, &["out-of-bounds global write of 4 bytes", "past the end of buffer 'a'", "oob.cu:3:", "thread (100, 0, 0)"]);
}

#[test]
fn misaligned_access_is_reported() {
    let lv = levels("align.cu", "__global__ void k(char *p) {\n  *(int *)(p + 1) = 7;\n}\n");
    let s = spec("[[launch]]\nkernel = \"k\"\ngrid = 1\nblock = 1\nargs = [\"p:u8[16]=zeros\"]\n");
    expect_error(&lv, &s, &["misaligned", "align.cu:2:"]);
}

#[test]
fn divergent_barriers_are_errors() {
    let lv = levels(
        "bar.cu",
        "__global__ void half(int *a) {\n  if (threadIdx.x < 16) __syncthreads();\n  a[threadIdx.x] = 1;\n}\n\
         __global__ void two(int *a) {\n  if (threadIdx.x < 64) { a[threadIdx.x] = 1; __syncthreads(); }\n  else { __syncthreads(); a[threadIdx.x] = 2; }\n}\n\
         __global__ void early(int *a, int n) {\n  if (threadIdx.x >= n) return;\n  __syncthreads();\n  a[threadIdx.x] = 3;\n}\n",
    );
    let s = |k: &str, extra: &str| {
        spec(&format!("[[launch]]\nkernel = \"{k}\"\ngrid = 1\nblock = 128\nargs = [\"a:i32[128]=zeros\"{extra}]\n"))
    };
    expect_error(&lv, &s("half", ""), &["barrier reached by only part of the block", "bar.cu:2:"]);
    expect_error(&lv, &s("two", ""), &["divergent barrier"]);
    expect_error(&lv, &s("early", ", \"n:i32=100\""), &["100 threads wait while 28 have exited"]);
    // The same kernel is fine when every thread reaches the barrier.
    let ok = s("early", ", \"n:i32=128\"");
    for (level, m) in [(Level::Cuda, lv.cuda), (Level::Nvvm, lv.nvvm), (Level::Ptx, lv.ptx)] {
        run_spec(&lv.ctx, m, level, &ok, Schedule::InOrder, 1 << 24).unwrap();
    }
}

/// A shuffle waits for the lanes of its member mask that run elsewhere, as on sm_70 and
/// later: lanes that exit do not count, so half a warp shuffling while the other half
/// leaves is fine. Lanes that wait at a block barrier instead never come: an error.
#[test]
fn collectives_wait_for_member_lanes_and_report_those_that_never_come() {
    let lv = levels(
        "coll.cu",
        "__global__ void leave(int *a) {\n  int v = threadIdx.x;\n  if (threadIdx.x >= 16) { a[threadIdx.x] = -1; return; }\n  \
         a[threadIdx.x] = __shfl_sync(0xffffffffu, v * 3, (threadIdx.x + 1) & 15);\n}\n\
         __global__ void stuck(int *a) {\n  int v = threadIdx.x;\n  if (threadIdx.x < 16) v = __shfl_sync(0xffffffffu, v, 0);\n  \
         else __syncthreads();\n  a[threadIdx.x] = v;\n}\n",
    );
    let s = |k: &str| spec(&format!("[[launch]]\nkernel = \"{k}\"\ngrid = 1\nblock = 32\nargs = [\"a:i32[32]=zeros\"]\n"));
    for (level, m) in [(Level::Cuda, lv.cuda), (Level::Nvvm, lv.nvvm), (Level::Ptx, lv.ptx)] {
        let r = run_spec(&lv.ctx, m, level, &s("leave"), Schedule::InOrder, 1 << 24).unwrap_or_else(|e| panic!("{}: {e}", level.name()));
        let a: Vec<i32> = r.outputs[0].data.chunks(4).map(|c| i32::from_le_bytes(c.try_into().unwrap())).collect();
        let want: Vec<i32> = (0..32).map(|i| if i < 16 { ((i + 1) % 16) * 3 } else { -1 }).collect();
        assert_eq!(a, want, "{} level", level.name());
    }
    expect_error(&lv, &s("stuck"), &["shfl.sync with member mask 0xffffffff", "not converged", "coll.cu:8:"]);
}

const RACE: &str = "\
__global__ void race(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  s[t] = in[t];
#ifdef FIXED
  __syncthreads();
#endif
  out[t] = s[127 - t];
}
";

#[test]
fn a_missing_barrier_shows_up_under_random_schedules() {
    let s = spec("[[launch]]\nkernel = \"race\"\ngrid = 2\nblock = 128\nargs = [\"in:i32[128]=iota\", \"out:i32[128]=zeros\"]\n");
    let outcomes = |lv: &cuprite::levels::Levels, level: Level, m| {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 1..=24 {
            let r = run_spec(&lv.ctx, m, level, &s, Schedule::Random(seed), 1 << 24).unwrap();
            seen.insert(cuprite_sim::spec::checksum(&r.outputs[1].data));
        }
        seen.len()
    };
    let racy = levels("race.cu", RACE);
    let mut opts = cuprite::levels::LevelOptions::default();
    opts.config.defines.push(("FIXED".into(), None));
    let fixed = cuprite::levels::compile_levels("race.cu", RACE, &opts).unwrap();
    for level in [Level::Cuda, Level::Nvvm, Level::Ptx] {
        let pick = |lv: &cuprite::levels::Levels| match level {
            Level::Cuda => lv.cuda,
            Level::Nvvm => lv.nvvm,
            Level::Ptx => lv.ptx,
        };
        assert!(outcomes(&racy, level, pick(&racy)) > 1, "{}: the race gave one result under 24 schedules", level.name());
        assert_eq!(outcomes(&fixed, level, pick(&fixed)), 1, "{}: the fixed kernel must not depend on the schedule", level.name());
    }
}

#[test]
fn reads_of_never_written_shared_memory_are_reported() {
    let lv = levels("uninit.cu", "__global__ void k(float *out) {\n  __shared__ float s[64];\n  if (threadIdx.x < 32) s[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = s[threadIdx.x];\n}\n");
    let s = spec("[[launch]]\nkernel = \"k\"\ngrid = 1\nblock = 64\nargs = [\"out:f32[64]=zeros\"]\n");
    for (level, m) in [(Level::Cuda, lv.cuda), (Level::Nvvm, lv.nvvm), (Level::Ptx, lv.ptx)] {
        let r = run_spec(&lv.ctx, m, level, &s, Schedule::InOrder, 1 << 24).unwrap();
        assert_eq!(r.stats.warnings.len(), 1, "{}: {:?}", level.name(), r.stats.warnings);
        assert!(
            r.stats.warnings[0].contains("never-written shared memory") && r.stats.warnings[0].contains("thread (32, 0, 0)"),
            "{:?}",
            r.stats.warnings
        );
    }
}

/// A deliberately wrong "pass": swaps the operands of every `nvvm.sub`.
fn swap_sub_operands(ctx: &mut cuprite_ir::Context, module: cuprite_ir::OpId) -> Result<(), String> {
    let subs: Vec<_> = cuprite_ir::walk::collect_preorder(ctx, module).into_iter().filter(|&o| ctx.is_op(o, "nvvm.sub")).collect();
    for op in &subs {
        let (a, b) = (ctx.operand(*op, 0), ctx.operand(*op, 1));
        ctx.set_operands(*op, &[b, a]);
    }
    if subs.is_empty() {
        return Err("no subtraction to break".into());
    }
    Ok(())
}

#[test]
fn the_before_after_helper_catches_a_wrong_rewrite_and_passes_real_passes() {
    let src = "__global__ void diff(const int *a, const int *b, int *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = a[i] - b[i];\n}\n";
    let s = spec("[[launch]]\nkernel = \"diff\"\ngrid = 2\nblock = 64\nargs = [\"a:i32[100]=random:1\", \"b:i32[100]=random:2\", \"out:i32[100]=zeros\", \"n:i32=100\"]\n");
    let mut lv = levels("diff.cu", src);
    let err = check_rewrite(&mut lv.ctx, lv.nvvm, Level::Nvvm, std::slice::from_ref(&s), swap_sub_operands).unwrap_err();
    assert!(err.contains("kernel diff: the rewrite changed the results") && err.contains("out:"), "{err}");
    // The real -O3 pipeline, pass by pass on the unoptimized nvvm, changes nothing.
    let reg = cuprite_lowering::transforms::registry();
    let o3 = cuprite_lowering::transforms::pipeline_text(3, &Default::default());
    for p in ["builtin.module(nvvm-inline)", "builtin.module(nvvm.func(mem2reg))", "builtin.module(nvvm.func(mem2reg,sccp))", &o3] {
        let mut lv = levels("diff.cu", src);
        check_pipeline(&mut lv.ctx, lv.nvvm_o0, Level::Nvvm, std::slice::from_ref(&s), p, &reg).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
}

/// A virtual call on an object device code did not construct (here: objects copied from
/// host memory, whose vptr slots hold what the host put there) traps, as nvcc's indirect
/// call through a host vtable address faults; it never calls some function.
#[test]
fn virtual_call_on_an_object_made_by_host_code_traps() {
    let src = "struct Shape {\n  __device__ virtual float area() const { return 0.0f; }\n};\n\
               struct Square : Shape {\n  float side;\n  __device__ float area() const override { return side * side; }\n};\n\
               __global__ void areas(const Square *in, float *out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
               if (i < n) {\n    const Shape &s = in[i];\n    out[i] = s.area();\n  }\n}\n";
    let lv = levels("host_objects.cu", src);
    let s = spec(
        "[[launch]]\nkernel = \"areas\"\ngrid = 1\nblock = 32\nargs = [\"in:u64[64]=random:1:0:1000\", \"out:f32[32]=zeros\", \"n:i32=32\"]\n",
    );
    expect_error(&lv, &s, &["trapped"]);
}
