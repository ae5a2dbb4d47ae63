//! Simulator throughput: simulated thread-instructions per second at each level (`cuda`,
//! `nvvm` after -O3, `ptx`) for three corpus kernels with launches larger than the tests',
//! on one core. Prints a Markdown table; exits 1 if the ptx level runs under the target
//! (50 million thread-instructions per second).
//!
//!     cargo run --release -p cuprite-bench --bin sim-throughput [-- --runs N]
//!
//! Time is the launch only (the kernel is translated once before); the best of `--runs`
//! (default 5) runs is reported.

use cuprite_sim::spec::parse_toml;
use cuprite_sim::{run_program, translate, Level, Schedule};
use std::time::Instant;

const TARGET: f64 = 50e6;

struct Case {
    file: &'static str,
    what: &'static str,
    spec: &'static str,
}

const CASES: &[Case] = &[
    Case {
        file: "tests/ptx/vector.cu",
        what: "saxpy (grid-stride loop, 2M elements)",
        spec: "[[launch]]\nkernel = \"saxpy\"\ngrid = 1024\nblock = 256\nargs = [\"n:i32=2097152\", \"a:f32=2.5\", \"x:f32[2097152]=random:1\", \"y:f32[2097152]=random:2\"]\n",
    },
    Case {
        file: "tests/ptx/matmul.cu",
        what: "matmul (shared tiles, barriers, 128x128)",
        spec: "[[launch]]\nkernel = \"matmul\"\ngrid = [8, 8]\nblock = [16, 16]\nargs = [\"A:f32[16384]=random:1\", \"B:f32[16384]=random:2\", \"C:f32[16384]=zeros\", \"n:i32=128\"]\n",
    },
    Case {
        file: "tests/ptx/scan.cu",
        what: "warp_scan (shuffles, divergence, 1M elements)",
        spec: "[[launch]]\nkernel = \"warp_scan\"\ngrid = 4096\nblock = 256\nargs = [\"in:i32[1048576]=random:1\", \"out:i32[1048576]=zeros\", \"n:i32=1048576\"]\n",
    },
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.iter().position(|a| a == "--runs").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(5);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    println!("| kernel | level | thread instructions | best time | M thread-instr/s |");
    println!("|---|---|---:|---:|---:|");
    let mut ptx_rates = Vec::new();
    for c in CASES {
        let path = format!("{root}/{}", c.file);
        let text = std::fs::read_to_string(&path).expect("corpus file");
        let lv = cuprite::levels::compile_levels(c.file, &text, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
        let spec = parse_toml(c.spec).expect("spec").remove(0);
        for (level, m, name) in [(Level::Cuda, lv.cuda, "cuda"), (Level::Nvvm, lv.nvvm, "nvvm"), (Level::Ptx, lv.ptx, "ptx")] {
            let prog = translate(level, &lv.ctx, m, &spec.kernel).expect("translates");
            let mut best = f64::MAX;
            let mut instrs = 0;
            for _ in 0..runs {
                let t = Instant::now();
                let r = run_program(&prog, &spec, Schedule::InOrder, u64::MAX).expect("runs");
                best = best.min(t.elapsed().as_secs_f64());
                instrs = r.stats.thread_instructions;
            }
            let rate = instrs as f64 / best;
            if level == Level::Ptx {
                ptx_rates.push(rate);
            }
            println!("| {} | {name} | {instrs} | {:.1} ms | {:.1} |", c.what, best * 1e3, rate / 1e6);
        }
    }
    let min = ptx_rates.iter().copied().fold(f64::MAX, f64::min);
    println!(
        "\nptx level: at least {:.1} M thread-instructions/s (target {:.0} M): {}",
        min / 1e6,
        TARGET / 1e6,
        if min >= TARGET { "met" } else { "NOT met" }
    );
    std::process::exit(if min >= TARGET { 0 } else { 1 });
}
