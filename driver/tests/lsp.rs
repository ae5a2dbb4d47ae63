//! `cuprite lsp` driven over stdio as an editor drives it: initialize, open a file that
//! includes a header, several incremental edits (one breaks the file, one mends it),
//! hover, document symbols, go to definition, code lenses, `cuprite/ptx`, `cuprite/ir`,
//! shutdown and exit. The replies are snapshot; the figures in lenses and hovers are
//! checked against the PTX the server returns. A second test types a corpus file into
//! the server one character at a time (compiles of the half-typed file run along the
//! way): the server never dies, and ends with the file's diagnostics empty.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A `cuprite lsp` process and the messages it sent.
struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<Value>,
    next_id: u64,
    /// Notifications received while waiting for something else.
    pending: Vec<Value>,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Self::start_with(args, &[])
    }

    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .envs(env.iter().copied())
            .arg("lsp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cuprite lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || loop {
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if out.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse().unwrap();
                }
            }
            let mut buf = vec![0; len];
            if out.read_exact(&mut buf).is_err() {
                return;
            }
            if tx.send(serde_json::from_slice::<Value>(&buf).unwrap()).is_err() {
                return;
            }
        });
        Server { child, stdin, rx, next_id: 1, pending: Vec::new() }
    }

    fn send(&mut self, v: Value) {
        let text = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{text}", text.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response (notifications meanwhile are kept).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.rx.recv_timeout(Duration::from_secs(120)).expect("a response");
            if m["id"] == json!(id) && m.get("method").is_none() {
                return m;
            }
            self.pending.push(m);
        }
    }

    /// Waits for the next `publishDiagnostics` for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        if let Some(i) = self.pending.iter().position(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri) {
            return self.pending.remove(i)["params"]["diagnostics"].clone();
        }
        loop {
            let m = self.rx.recv_timeout(Duration::from_secs(120)).expect("diagnostics");
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].clone();
            }
            self.pending.push(m);
        }
    }

    fn finish(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "cuprite lsp exited with {status}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uri(p: &Path) -> String {
    cuprite::lsp::path_to_uri(p)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cuprite-lsp-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const HEADER: &str = "#pragma once\n#define BLOCK 128\n__device__ inline float square(float x) { return x * x; }\n";

const MAIN: &str = r#"#include "ops.h"

// Sums of squares, one block at a time.
__global__ void __launch_bounds__(BLOCK) sum_squares(float *out, const float *in, int n) {
  __shared__ float part[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? square(in[i]) : 0.0f;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

__global__ void scale(float *v, float k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * k;
}
"#;

/// Replaces the temporary directory in a reply with `<dir>`.
fn clean(v: &Value, dir: &Path) -> Value {
    let d = uri(dir);
    serde_json::from_str(&v.to_string().replace(&d, "<dir>").replace(&dir.display().to_string(), "<dir>")).unwrap()
}

fn pos(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

#[test]
fn an_editor_session() {
    let dir = temp_dir("session");
    let (main, header) = (dir.join("kernels.cu"), dir.join("ops.h"));
    std::fs::write(&header, HEADER).unwrap();
    std::fs::write(&main, MAIN).unwrap();
    let u = uri(&main);
    let mut s = Server::start(&["--debounce=20"]);
    let init = s.request("initialize", json!({ "processId": null, "rootUri": uri(&dir), "capabilities": {} }));
    insta::assert_json_snapshot!("initialize", init["result"]);
    s.notify("initialized", json!({}));
    s.notify("textDocument/didOpen", json!({ "textDocument": { "uri": u, "languageId": "cuda", "version": 1, "text": MAIN } }));
    assert_eq!(s.diagnostics(&u), json!([]), "the file compiles");

    // Several edits in one change, each on the text the one before left: `k` becomes
    // `(k + 0.0f)`, and the `;` after it goes.
    let edits = json!([
        { "range": { "start": pos(17, 27), "end": pos(17, 28) }, "text": "(k + 0.0f)" },
        { "range": { "start": pos(17, 37), "end": pos(17, 38) }, "text": "" },
    ]);
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": u, "version": 2 }, "contentChanges": edits }));
    let broken = s.diagnostics(&u);
    insta::assert_json_snapshot!("broken", clean(&broken, &dir));

    // Mend it.
    let mend = json!([{ "range": { "start": pos(17, 37), "end": pos(17, 37) }, "text": ";" }]);
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": u, "version": 3 }, "contentChanges": mend }));
    assert_eq!(s.diagnostics(&u), json!([]), "mended");

    let ptx = s.request("cuprite/ptx", json!({ "textDocument": { "uri": u }, "position": pos(6, 10) }));
    let text = ptx["result"]["text"].as_str().expect("PTX text").to_string();
    assert!(text.starts_with(".visible .entry _Z11sum_squaresPfPKfi("), "{text}");
    assert!(text.contains("bar.sync"), "{text}");
    assert_eq!(ptx["result"]["function"], "sum_squares");

    let hover = s.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": pos(3, 45) }));
    let h = hover["result"]["contents"]["value"].as_str().expect("a hover").to_string();
    let instrs = count_instructions(&text);
    assert!(h.contains(&format!("PTX: {instrs} instructions")), "hover {h} vs {instrs} instructions in the PTX");
    insta::assert_snapshot!(
        "hover_kernel",
        h.replace(&format!("{instrs} instructions"), "N instructions").split(", ").next().unwrap().to_string()
    );

    // The type at `blockIdx.x * blockDim.x + threadIdx.x`'s first operand's load, and at `i`.
    let ty = s.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": pos(16, 6) }));
    insta::assert_json_snapshot!("hover_variable", ty["result"]);

    let symbols = s.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": u } }));
    insta::assert_json_snapshot!("symbols", symbols["result"]);

    // `square` is inlined: its definition is in the header... as a function of the unit, the
    // definition request finds the kernels by name.
    let def = s.request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": pos(3, 45) }));
    insta::assert_json_snapshot!("definition", clean(&def["result"], &dir));

    // `n` in `if (i < n)` of `scale` (line 17): its parameter, on line 15.
    let def = s.request("textDocument/definition", json!({ "textDocument": { "uri": u }, "position": pos(17, 10) }));
    insta::assert_json_snapshot!("definition_parameter", clean(&def["result"], &dir));

    let lenses = s.request("textDocument/codeLens", json!({ "textDocument": { "uri": u } }));
    let titles: Vec<String> =
        lenses["result"].as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap().to_string()).collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles[0].starts_with(&format!("PTX {instrs} instrs, ")), "{titles:?}");
    // With ptxas installed (as CI has it), the lenses and hovers come to show its register
    // counts, computed off the main thread after the compile.
    let ptxas = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".cache/cuprite-ptxas/site/nvidia/cu13/bin/ptxas");
    if ptxas.is_file() || std::env::var_os("CUPRITE_REQUIRE_PTXAS").is_some() {
        let mut machine = None;
        for _ in 0..600 {
            let l = s.request("textDocument/codeLens", json!({ "textDocument": { "uri": u } }));
            let t = l["result"][0]["command"]["title"].as_str().unwrap().to_string();
            if !t.contains("virtual") {
                machine = Some(t);
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let machine = machine.expect("ptxas's register counts in the lenses");
        let n: u32 = machine.rsplit(", ").next().unwrap().trim_end_matches(" regs").parse().unwrap();
        assert!((8..=64).contains(&n), "{machine}");
        let hover = s.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": pos(3, 45) }));
        assert!(hover["result"]["contents"]["value"].as_str().unwrap().contains(&format!("ptxas: {n} registers")), "{hover}");
    }

    let ir = s.request("cuprite/ir", json!({ "textDocument": { "uri": u }, "position": pos(17, 3), "level": "cuda" }));
    let ir_text = ir["result"]["text"].as_str().expect("IR text");
    assert!(ir_text.starts_with("func.func @_Z5scalePffi("), "{ir_text}");
    insta::assert_snapshot!("ir_cuda_scale", ir_text);
    let bad = s.request("cuprite/ir", json!({ "textDocument": { "uri": u }, "position": pos(17, 3), "level": "llvm" }));
    assert!(bad["error"]["message"].as_str().unwrap().contains("unknown level"), "{bad}");

    // A header edit (unsaved, through the editor) reaches the file that includes it.
    let hu = uri(&header);
    s.notify("textDocument/didOpen", json!({ "textDocument": { "uri": hu, "languageId": "cuda", "version": 1, "text": HEADER } }));
    let edit = json!([{ "range": { "start": pos(2, 50), "end": pos(2, 51) }, "text": "y" }]);
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": hu, "version": 2 }, "contentChanges": edit }));
    let d = loop {
        // The header's own (empty) diagnostics may come first.
        let d = s.diagnostics(&hu);
        if d != json!([]) {
            break d;
        }
    };
    insta::assert_json_snapshot!("header_error", clean(&d, &dir));
    s.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Instructions in a function's PTX, counted as the server counts them.
fn count_instructions(ptx: &str) -> usize {
    let mut in_body = false;
    let mut n = 0;
    for l in ptx.lines() {
        let t = l.trim();
        if t == "{" {
            in_body = true;
            continue;
        }
        if in_body
            && !t.is_empty()
            && t != "}"
            && !t.starts_with('.')
            && !t.starts_with("//")
            && !t.ends_with(':')
            && !t.starts_with('(')
            && !t.starts_with(')')
        {
            n += 1;
        }
    }
    n
}

#[test]
fn typing_a_file_character_by_character() {
    let dir = temp_dir("typing");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = std::fs::read_to_string(root.join("tests/ptx/reduce.cu")).unwrap();
    let main = dir.join("reduce.cu");
    std::fs::write(&main, "").unwrap();
    let u = uri(&main);
    let mut s = Server::start(&["--debounce=0"]);
    s.request("initialize", json!({ "processId": null, "capabilities": {} }));
    s.notify("initialized", json!({}));
    s.notify("textDocument/didOpen", json!({ "textDocument": { "uri": u, "languageId": "cuda", "version": 1, "text": "" } }));
    s.diagnostics(&u);
    let (mut line, mut col) = (0u32, 0u32);
    let mut compiles = 0;
    for (k, c) in corpus.chars().enumerate() {
        let change = json!([{ "range": { "start": pos(line, col), "end": pos(line, col) }, "text": c.to_string() }]);
        s.notify("textDocument/didChange", json!({ "textDocument": { "uri": u, "version": k + 2 }, "contentChanges": change }));
        if c == '\n' {
            line += 1;
            col = 0;
        } else {
            col += c.len_utf16() as u32;
        }
        // Every so often, let a compile of the half-typed text finish.
        if k % 37 == 36 {
            s.diagnostics(&u);
            compiles += 1;
        }
    }
    // The whole file typed: it compiles cleanly, and the server still answers.
    while s.diagnostics(&u) != json!([]) {}
    let ptx = s.request("cuprite/ptx", json!({ "textDocument": { "uri": u }, "position": pos(20, 0) }));
    assert!(ptx.get("result").is_some() || ptx.get("error").is_some(), "{ptx}");
    assert!(compiles > 50, "{compiles} compiles of half-typed text");
    let symbols = s.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": u } }));
    assert!(!symbols["result"].as_array().unwrap().is_empty(), "{symbols}");
    s.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_internal_compiler_error_is_a_diagnostic_and_the_server_goes_on() {
    let dir = temp_dir("ice");
    let main = dir.join("k.cu");
    let text = "__global__ void k_crash(int *p) { p[0] = 1; }\n";
    std::fs::write(&main, text).unwrap();
    let u = uri(&main);
    let mut s = Server::start_with(&["--debounce=0"], &[("CUPRITE_TEST_ICE", "k_crash")]);
    s.request("initialize", json!({ "processId": null, "capabilities": {} }));
    s.notify("initialized", json!({}));
    s.notify("textDocument/didOpen", json!({ "textDocument": { "uri": u, "languageId": "cuda", "version": 1, "text": text } }));
    let d = s.diagnostics(&u);
    let m = d[0]["message"].as_str().unwrap_or_default().to_string();
    assert!(m.starts_with("internal compiler error: deliberate internal compiler error in '_Z7k_crashPi'"), "{d}");
    assert!(m.contains("unit.rs:"), "the place of the panic: {m}");
    // The server is alive: a renamed kernel compiles.
    let change = json!([{ "range": { "start": pos(0, 16), "end": pos(0, 23) }, "text": "k_fine" }]);
    s.notify("textDocument/didChange", json!({ "textDocument": { "uri": u, "version": 2 }, "contentChanges": change }));
    assert_eq!(s.diagnostics(&u), json!([]));
    let ptx = s.request("cuprite/ptx", json!({ "textDocument": { "uri": u }, "position": pos(0, 20) }));
    assert!(ptx["result"]["text"].as_str().unwrap().contains("_Z6k_finePi"), "{ptx}");
    s.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_header_created_in_the_editor_reaches_the_file_that_looked_for_it() {
    let dir = temp_dir("later");
    let main = dir.join("k.cu");
    let text = "#include \"later.h\"\n__global__ void k(int *p) { p[0] = LATER; }\n";
    std::fs::write(&main, text).unwrap();
    let u = uri(&main);
    let mut s = Server::start(&["--debounce=0"]);
    s.request("initialize", json!({ "processId": null, "capabilities": {} }));
    s.notify("initialized", json!({}));
    s.notify("textDocument/didOpen", json!({ "textDocument": { "uri": u, "languageId": "cuda", "version": 1, "text": text } }));
    let d = s.diagnostics(&u);
    assert!(d[0]["message"].as_str().unwrap().contains("'later.h' file not found"), "{d}");
    // The header, not on disk yet: an unsaved buffer.
    let hu = uri(&dir.join("later.h"));
    s.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": hu, "languageId": "cuda", "version": 1, "text": "#define LATER 7\n" } }),
    );
    assert_eq!(s.diagnostics(&u), json!([]));
    let ptx = s.request("cuprite/ptx", json!({ "textDocument": { "uri": u }, "position": pos(1, 20) }));
    assert!(ptx["result"]["text"].as_str().unwrap().contains(", 7;"), "{ptx}");
    s.finish();
    let _ = std::fs::remove_dir_all(&dir);
}
