//! The library gives bit-identical results at the cuda, nvvm and ptx levels (the lowering
//! of library code is checked like any other kernel's).
use cuprite_mathcheck::*;
use cuprite_sim::Level;

#[test]
fn every_level_agrees_bit_for_bit() {
    let funcs = functions();
    let c = Compiled::new(&funcs, 90).expect("the library compiles");
    let mut bad = Vec::new();
    for f in &funcs {
        let fmt = f.format;
        let x = inputs(fmt, 2048, f.range, 7);
        let y: Vec<f64> = inputs(fmt, 2048 + 17, f.range, 8).into_iter().rev().take(2048).collect();
        let xs: Vec<&[f64]> = if f.arity == 1 { vec![&x] } else { vec![&x, &y] };
        let cuda = c.run_fmt(f.name, fmt, Level::Cuda, &xs).expect("cuda level runs");
        for level in [Level::Nvvm, Level::Ptx] {
            let got = c.run_fmt(f.name, fmt, level, &xs).expect("runs");
            for i in 0..got.len() {
                if fmt.bits(got[i]) != fmt.bits(cuda[i]) && !(got[i].is_nan() && cuda[i].is_nan()) {
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
