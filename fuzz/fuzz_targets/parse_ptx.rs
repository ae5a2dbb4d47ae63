//! Fuzzes the PTX reader and the simulator on arbitrary bytes (lossily decoded as UTF-8):
//! read the text as PTX (what `cuprite run --ptx` and the differential tests do with
//! NVIDIA's PTX), render the diagnostics, and for a module that reads, translate each
//! function for the simulator and run each kernel once with zeroed arguments under a small
//! instruction budget. Nothing may panic; errors are diagnostics or reported run errors.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
    let m = match cuprite_lowering::ptx_read::read_ptx(&mut ctx, &text, "fuzz.ptx") {
        Ok(m) => m,
        Err(errs) => {
            let _ = cuprite_lowering::ptx_read::render("fuzz.ptx", &text, &errs);
            return;
        }
    };
    let _ = cuprite_ir::print::print_op(&ctx, m, Default::default());
    let Some(body) = ctx.entry_block(ctx.region(m, 0)) else { return };
    let funcs: Vec<String> = ctx.block_ops(body).filter(|&o| ctx.is_op(o, "ptx.func")).filter_map(|o| ctx.symbol_name(o).map(str::to_string)).collect();
    for k in funcs {
        if let Ok(prog) = cuprite_sim::translate(cuprite_sim::Level::Ptx, &ctx, m, &k) {
            let mut g = cuprite_sim::Global::default();
            let args: Vec<Vec<u8>> = prog.params.iter().map(|p| vec![0; (p.size as usize).min(4096)]).collect();
            let mut launch = cuprite_sim::Launch::new([1, 1, 1], [64, 1, 1], args);
            launch.max_instructions = 100_000;
            let _ = cuprite_sim::run(&prog, &mut g, &launch);
        }
    }
});
