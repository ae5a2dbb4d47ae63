//! `cuprite watch` as a user runs it: a first compile, then a save of one kernel's body
//! (only that kernel is recompiled, and the output is the cold compile's), then a save
//! with an error (diagnostics; the last good PTX stays in place).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const MAIN: &str = r#"#include "scale.h"
__global__ void first(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * SCALE;
}
__global__ void second(int *out, int n) {
  int acc = 0;
  for (int i = 0; i < n; ++i) acc += i * 3;
  out[threadIdx.x] = acc;
}
"#;

fn cold(path: &std::path::Path) -> String {
    let mut out = Vec::new();
    let args = vec!["compile".to_string(), path.display().to_string()];
    assert_eq!(cuprite::run(&args, &mut std::io::empty(), &mut out, &mut std::io::sink()), 0);
    String::from_utf8(out).unwrap()
}

#[test]
fn watch_recompiles_what_a_save_changes() {
    let dir = std::env::temp_dir().join(format!("cuprite-watch-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (main, header, out) = (dir.join("k.cu"), dir.join("scale.h"), dir.join("k.ptx"));
    std::fs::write(&header, "#define SCALE 2.0f\n").unwrap();
    std::fs::write(&main, MAIN).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cuprite"))
        .args(["watch", "--rounds=4", "--debounce=100"])
        .arg(&main)
        .arg("-o")
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = BufReader::new(child.stderr.take().unwrap());
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Kill(child);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in err.lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    let mut log = Vec::new();
    let mut round = |n: u32| -> String {
        loop {
            let l = rx.recv_timeout(Duration::from_secs(120)).unwrap_or_else(|_| panic!("no round {n}; stderr so far: {log:#?}"));
            log.push(l.clone());
            if l.starts_with(&format!("[watch] round {n}")) {
                return l;
            }
        }
    };
    let r1 = round(1);
    assert!(r1.contains(": ok in ") && r1.contains("recompiled 2 of 2 functions: first, second"), "{r1}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), cold(&main));

    // Saves are seen from the next change on: give the watcher a moment to start.
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&main, MAIN.replace("i * 3", "i * 7")).unwrap();
    let r2 = round(2);
    assert!(r2.contains("recompiled 1 of 2 functions: second"), "{r2}");
    let good = std::fs::read_to_string(&out).unwrap();
    assert_eq!(good, cold(&main));

    // A header the file includes.
    std::fs::write(&header, "#define SCALE 4.0f\n").unwrap();
    let r3 = round(3);
    assert!(r3.contains("after a change to") && r3.contains("scale.h") && r3.contains("recompiled 1 of 2 functions: first"), "{r3}");
    let good = std::fs::read_to_string(&out).unwrap();
    assert_eq!(good, cold(&main));

    std::fs::write(&main, MAIN.replace("i * 3", "i * 7").replace("acc = 0;", "acc = 0")).unwrap();
    let r4 = round(4);
    assert!(r4.contains(": errors in "), "{r4}");
    assert!(log.iter().any(|l| l.contains("expected ';'")), "{log:#?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), good, "the last good PTX stays");
    let status = child.0.wait().unwrap();
    assert_eq!(status.code(), Some(1), "the last round failed");
    let _ = std::fs::remove_dir_all(&dir);
}
