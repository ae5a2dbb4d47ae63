// Parse errors: each case gets a diagnostic with the exact span.
"demo.op"() {s = "unterminated} : () -> ()
