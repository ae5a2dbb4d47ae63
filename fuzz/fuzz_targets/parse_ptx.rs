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
    cuprite_sim::run_every_function_once(&ctx, m, 100_000);
});
