//! Every IR file in the corpus round-trips (print -> parse -> print is the identity) in
//! generic and custom form, with and without locations; the custom form is snapshotted.

use cuprite_tests::{check_roundtrip, ir_dir};

#[test]
fn roundtrip_corpus() {
    insta::glob!("../ir", "roundtrip/*.mlir", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        match check_roundtrip(&text, &name, true) {
            Ok(printed) => insta::assert_snapshot!(printed),
            Err(e) => panic!("{name}: {e}"),
        }
    });
}

#[test]
fn upstream_generated_files_roundtrip() {
    // Files printed by mlir-opt-22 (generic form, with and without debug info): registered
    // dialects only, so they must parse without --allow-unregistered.
    let dir = ir_dir().join("mlir-generated");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = check_roundtrip(&text, &path.file_name().unwrap().to_string_lossy(), false) {
            panic!("{}: {e}", path.display());
        }
        n += 1;
    }
    assert!(n >= 6, "expected the generated corpus in {}", dir.display());
}

#[test]
fn pass_test_inputs_roundtrip() {
    for e in std::fs::read_dir(ir_dir().join("passes")).unwrap() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if let Err(e) = check_roundtrip(&text, &path.file_name().unwrap().to_string_lossy(), true) {
            panic!("{}: {e}", path.display());
        }
    }
}
