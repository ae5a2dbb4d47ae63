//! Fuzzes the TableGen reader and the ODS model: any text, with `OpBase.td` includable,
//! must give records or a diagnostic (rendered), never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let include = vec![PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../tablegen/include"))];
    match cuprite_tablegen::read_str(Path::new("fuzz.td"), text, &include) {
        Ok(rk) => {
            let _ = cuprite_tablegen::record::print_defs(&rk);
            if let Ok(model) = cuprite_tablegen::ods::build(&rk) {
                let _ = cuprite_tablegen::rust_gen::generate(&model, "fuzz.td");
                let _ = cuprite_tablegen::docs::generate(&model, "fuzz.td");
                let _ = cuprite_tablegen::irdl::generate(&model, "fuzz.td");
            }
        }
        Err(e) => {
            let _ = e.render();
        }
    }
});
