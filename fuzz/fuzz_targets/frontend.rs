//! Fuzzes the whole frontend on arbitrary bytes (lossily decoded as UTF-8): preprocessor,
//! parser, sema and the cuda dialect printer. No panic, and bounded work per input (a
//! small macro-expansion budget).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let config = cuprite_frontend::pp::PpConfig { max_expanded_tokens: 200_000, ..Default::default() };
    let tokens = cuprite_frontend::preprocess("fuzz.cu", None, &text, config.clone());
    let _ = cuprite_frontend::pp::print_tokens(&tokens.tokens, &tokens.interner, &tokens.sm, &tokens.expansions);
    // Large files take other paths, picked here by the input's length: a multiple of 3 runs
    // sema while the parser parses on a thread of its own; otherwise an odd length
    // preprocesses on a thread of its own.
    let overlapped = (data.len() % 3 == 0)
        .then(|| cuprite_frontend::parse_and_lower_overlapped("fuzz.cu", None, &text, config.clone(), Default::default()));
    let (mut pre, (ctx, module, sema_diags)) = match overlapped {
        Some(r) => r,
        None => {
            let threads = if data.len() % 2 == 1 { cuprite_frontend::Threads::Two } else { cuprite_frontend::Threads::One };
            let pre = cuprite_frontend::parse_source_on("fuzz.cu", None, &text, config, threads);
            let lowered = cuprite_frontend::sema::lower(&pre.ast, &pre.interner, &pre.sm, Default::default());
            (pre, lowered)
        }
    };
    let mut diags = std::mem::take(&mut pre.diags);
    let _ = cuprite_frontend::dump::dump(&pre.ast, &pre.interner, &pre.sm);
    diags.extend(sema_diags);
    let _ = cuprite_ir::print::print_op(&ctx, module, Default::default());
    for d in &diags {
        let _ = d.render(&pre.sm);
        let _ = d.to_json(&pre.sm);
    }
});
