//! Fuzz target `parse_ir`: the parser and the printer must never panic, and printing must
//! round-trip.
//!
//! For input bytes that are valid UTF-8, with `allow_unregistered` both false and true:
//! parse; if that succeeds, verify, then print in all four modes (generic / custom, with /
//! without locations). Every printed text must parse again (in a fresh context with the
//! same settings) and print to the identical text. When the input verified, the reparsed
//! module must verify too. When it did not, printing in every mode must still not panic,
//! and the generic form must still round-trip (the custom forms may rely on verified IR).
//! `CUPRITE_FUZZ_LENIENT=1` lets invalid IR's generic form fail to parse again (mlir-opt's
//! does in some cases; cuprite's did for an entry block with predecessors, see
//! `regressions/`, now fixed).
#![no_main]

use cuprite_ir::{
    parse::parse_module,
    print::{print_op, PrintOptions},
    verify::verify,
    Context,
};
use libfuzzer_sys::fuzz_target;

fn context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new(cuprite_dialects::registry());
    ctx.allow_unregistered = allow_unregistered;
    ctx
}

fn strict() -> bool {
    static STRICT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("CUPRITE_FUZZ_LENIENT").is_none_or(|v| v == "0"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    for allow_unregistered in [false, true] {
        let mut ctx = context(allow_unregistered);
        let Ok(module) = parse_module(&mut ctx, src, "fuzz.mlir") else { continue };
        let verified = verify(&ctx, module, None).is_ok();
        for generic in [true, false] {
            for locations in [false, true] {
                let opts = PrintOptions { generic, locations, ..Default::default() };
                let printed = print_op(&ctx, module, opts);
                if !verified && !generic {
                    continue; // printed without panicking: enough for invalid IR
                }
                let mut ctx2 = context(allow_unregistered);
                let module2 = match parse_module(&mut ctx2, &printed, "printed.mlir") {
                    Ok(m) => m,
                    // Only with CUPRITE_FUZZ_LENIENT=1: invalid IR need not print parseably.
                    Err(_) if !verified && !strict() => continue,
                    Err(e) => panic!(
                        "printed IR does not parse again (allow_unregistered={allow_unregistered}, {opts:?}, \
                         verified={verified}): {e:?}\n--- input ---\n{src}\n--- printed ---\n{printed}"
                    ),
                };
                if verified {
                    if let Err(errs) = verify(&ctx2, module2, None) {
                        panic!(
                            "printed IR of a verified module does not verify (allow_unregistered={allow_unregistered}, \
                             {opts:?}): {errs:?}\n--- input ---\n{src}\n--- printed ---\n{printed}"
                        );
                    }
                }
                let reprinted = print_op(&ctx2, module2, opts);
                assert!(
                    printed == reprinted,
                    "print -> parse -> print is not the identity (allow_unregistered={allow_unregistered}, {opts:?}, \
                     verified={verified})\n--- input ---\n{src}\n--- printed ---\n{printed}\n--- reprinted ---\n{reprinted}"
                );
            }
        }
    }
});
