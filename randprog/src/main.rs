//! `cuprite-randprog`: random CUDA programs and the differential campaign.

use cuprite_randprog::{check, gen, print, reduce, Campaign};
use std::path::PathBuf;

const USAGE: &str = "usage:
  cuprite-randprog gen SEED [-o FILE.cu]     the program for SEED (its launch spec in FILE.toml)
  cuprite-randprog check SEED [--nvrtc]      check one program; print the outcome
  cuprite-randprog reduce SEED [--nvrtc] [-o FILE.cu]
                                             reduce a failing program, keeping its failure
  cuprite-randprog campaign [options]        many programs, each at every level and against
                                             NVRTC's PTX; failures reduced and saved
options of campaign:
  --seed S          first seed (default 1)
  --count N         programs (default 1000)
  --batch B         programs per NVRTC call (default 50)
  --jobs J          threads (default: the machine's cores)
  --out DIR         where failures go (.cu and .toml, original and reduced)
  --no-nvrtc        compare cuprite's levels only
  --reduce-per-kind K   reduce at most K failures of each kind (default 2)
  --transcendentals  use expf, logf, sinf, cosf, tanhf (and the double versions): cuprite's
                    math library is within its ulp bounds of libdevice, not bit-identical
  --statements M    statements per kernel (default 28)
  --fmad            the contraction mode: both compilers contract a*b+c into fma (their
                    default), and programs lean to multiply-adds. nvvm -O0 is checked
                    against the cuda level bit for bit; the well-conditioned channel
                    (out_wf, out_wd) of every later run and of NVRTC's PTX within the ulp
                    bound the program states (a failure beyond it); the PTX read back
                    against cuprite's PTX bit for bit; whether NVRTC's PTX gives the same
                    bits as cuprite's is counted (where not, they contracted differently)
(gen, check and reduce take --fmad, --nvrtc and --transcendentals too)
NVRTC: CUPRITE_CUDA_ROOT, or the place scripts/install-cuda-ref.sh installs to.";

fn main() {
    cuprite::quiet_panics();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(match real_main(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            2
        }
    });
}

fn flag_value<'a>(args: &'a [String], name: &str) -> Result<Option<&'a str>, String> {
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).map(|s| Some(s.as_str())).ok_or(format!("{name} needs a value")),
        None => Ok(None),
    }
}

fn num<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> Result<T, String> {
    match flag_value(args, name)? {
        Some(v) => v.parse().map_err(|_| format!("{name}: '{v}' is not a number")),
        None => Ok(default),
    }
}

fn seed_arg(args: &[String]) -> Result<u64, String> {
    args.get(1).and_then(|s| s.parse().ok()).ok_or_else(|| "a SEED (a number) is needed".to_string())
}

fn gen_config(args: &[String]) -> Result<gen::Config, String> {
    Ok(gen::Config {
        transcendentals: args.iter().any(|a| a == "--transcendentals"),
        statements: num(args, "--statements", gen::Config::default().statements)?,
        contraction: args.iter().any(|a| a == "--fmad"),
    })
}

fn mode(args: &[String]) -> check::Mode {
    check::Mode { fmad: args.iter().any(|a| a == "--fmad") }
}

fn cuda(args: &[String]) -> Result<Option<PathBuf>, String> {
    if !args.iter().any(|a| a == "--nvrtc") {
        return Ok(None);
    }
    check::cuda_root().map(Some).ok_or_else(|| "NVRTC not found: run scripts/install-cuda-ref.sh or set CUPRITE_CUDA_ROOT".into())
}

fn write_program(p: &cuprite_randprog::ast::Program, out: Option<&str>) -> Result<(), String> {
    match out {
        Some(f) => {
            let path = PathBuf::from(f);
            std::fs::write(&path, print::source(p)).map_err(|e| format!("{f}: {e}"))?;
            std::fs::write(path.with_extension("toml"), print::spec(p)).map_err(|e| format!("{f}: {e}"))?;
        }
        None => {
            print!("{}\n// launch spec:\n{}", print::source(p), print::spec(p).lines().map(|l| format!("// {l}\n")).collect::<String>())
        }
    }
    Ok(())
}

fn real_main(args: &[String]) -> Result<i32, String> {
    let tmp = std::env::temp_dir();
    match args.first().map(String::as_str) {
        Some("gen") => {
            let p = gen::generate(seed_arg(args)?, &gen_config(args)?);
            write_program(&p, flag_value(args, "-o")?)?;
            Ok(0)
        }
        Some("check") => {
            let p = gen::generate(seed_arg(args)?, &gen_config(args)?);
            let o = cuprite_randprog::check_alone(&p, cuda(args)?.as_deref(), &tmp, mode(args));
            println!("{o}");
            Ok(i32::from(!o.is_agree()))
        }
        Some("reduce") => {
            let p = gen::generate(seed_arg(args)?, &gen_config(args)?);
            let cuda = cuda(args)?;
            let o = cuprite_randprog::check_alone(&p, cuda.as_deref(), &tmp, mode(args));
            if o.is_agree() {
                println!("seed {}: agree; nothing to reduce", p.seed);
                return Ok(0);
            }
            let key = o.key();
            eprintln!("reducing: {key}");
            let (small, checks) =
                reduce::reduce(&p, 5000, &mut |c| cuprite_randprog::check_alone(c, cuda.as_deref(), &tmp, mode(args)).key() == key);
            eprintln!("{checks} checks; {}", cuprite_randprog::check_alone(&small, cuda.as_deref(), &tmp, mode(args)));
            write_program(&small, flag_value(args, "-o")?)?;
            Ok(1)
        }
        Some("campaign") => {
            let c = Campaign {
                first_seed: num(args, "--seed", 1)?,
                count: num(args, "--count", 1000)?,
                batch: num(args, "--batch", 50)?,
                jobs: num(args, "--jobs", std::thread::available_parallelism().map_or(1, |n| n.get()))?,
                out: flag_value(args, "--out")?.map(PathBuf::from),
                nvrtc: if args.iter().any(|a| a == "--no-nvrtc") {
                    None
                } else {
                    Some(check::cuda_root().ok_or("NVRTC not found: run scripts/install-cuda-ref.sh, or pass --no-nvrtc")?)
                },
                reduce_per_kind: num(args, "--reduce-per-kind", 2)?,
                gen: gen_config(args)?,
                mode: mode(args),
            };
            if let Some(o) = &c.out {
                std::fs::create_dir_all(o).map_err(|e| format!("{}: {e}", o.display()))?;
            }
            let s = cuprite_randprog::run(&c, &mut std::io::stderr());
            println!("programs: {}", s.programs);
            println!("agree:    {}", s.agree);
            for (k, n) in &s.by_kind {
                println!("{k}: {n}");
            }
            if !s.nvrtc_rejects.is_empty() {
                println!("NVRTC rejects (generator bugs): seeds {:?}", s.nvrtc_rejects);
            }
            if !s.nvrtc_timeouts.is_empty() {
                println!("NVRTC times out (cuprite's levels agree): seeds {:?}", s.nvrtc_timeouts);
            }
            let ch = &s.channel;
            if ch.measured > 0 {
                println!(
                    "contracted like NVRTC (the same bits): {} of {}{}",
                    ch.measured - ch.nvrtc_differs,
                    ch.measured,
                    if ch.nvrtc_differs_seeds.is_empty() { String::new() } else { format!("; differ: seeds {:?}", ch.nvrtc_differs_seeds) }
                );
                println!(
                    "contracted channel: {} programs, {} moved; worst {} ulps (out_wf), {} ulps (out_wd); \
                     at most {:.0}% of a stated bound (seed {})",
                    ch.with_channel,
                    ch.moved,
                    ch.worst.0,
                    ch.worst.1,
                    ch.worst_share * 100.0,
                    ch.worst_seed
                );
            }
            println!("seconds:  {:.0} ({:.1} programs/s)", s.seconds, s.programs as f64 / s.seconds.max(1e-9));
            Ok(i32::from(s.agree + s.nvrtc_timeouts.len() as u64 != s.programs))
        }
        _ => Err("no command".into()),
    }
}
