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
    // Inputs of odd length are preprocessed on a thread of their own (as large files are).
    let threads = if data.len() % 2 == 1 { cuprite_frontend::Threads::Two } else { cuprite_frontend::Threads::One };
    let mut pre = cuprite_frontend::parse_source_on("fuzz.cu", None, &text, config, threads);
    let mut diags = std::mem::take(&mut pre.diags);
    let ast = &pre.ast;
    let _ = cuprite_frontend::dump::dump(ast, &pre.interner, &pre.sm);
    let (ctx, module, sema_diags) = cuprite_frontend::sema::lower(ast, &pre.interner, &pre.sm, Default::default());
    diags.extend(sema_diags);
    let _ = cuprite_ir::print::print_op(&ctx, module, Default::default());
    for d in &diags {
        let _ = d.render(&pre.sm);
        let _ = d.to_json(&pre.sm);
    }
});
