//! The library gives bit-identical results at the cuda, nvvm and ptx levels (the lowering
//! of library code is checked like any other kernel's).
use cuprite_mathcheck::*;
use cuprite_sim::Level;

#[test]
fn every_level_agrees_bit_for_bit() {
    let funcs = functions_f32();
    let c = Compiled::new(&funcs, 90).expect("the library compiles");
    let mut bad = Vec::new();
    for f in &funcs {
        let x = inputs_f32(4096, f.range, 7);
        let y: Vec<f32> = inputs_f32(4096 + 17, f.range, 8).into_iter().rev().take(4096).collect();
        let xs: Vec<&[f32]> = if f.arity == 1 { vec![&x] } else { vec![&x, &y] };
        let cuda = c.run(f.name, Level::Cuda, &xs).expect("cuda level runs");
        for level in [Level::Nvvm, Level::Ptx] {
            let got = c.run(f.name, level, &xs).expect("runs");
            for i in 0..got.len() {
                if got[i].to_bits() != cuda[i].to_bits() && !(got[i].is_nan() && cuda[i].is_nan()) {
                    bad.push(format!(
                        "{} at {level:?}: f({:?}{}) = {:?}, cuda level {:?}",
                        f.name,
                        x[i],
                        if f.arity == 2 { format!(", {:?}", y[i]) } else { String::new() },
                        got[i],
                        cuda[i]
                    ));
                    break;
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
