//! `cuprite run`: simulates a kernel launch on the CPU (see the `cuprite_sim` crate) at
//! the `cuda`, `nvvm` or `ptx` level, or runs another compiler's PTX (`--ptx`), and prints
//! a summary of the output buffers (checksums and first elements) or writes them out.
//!
//! Exit codes: 0 the kernel ran, 1 the source did not compile or the run stopped with an
//! error (out-of-bounds access, divergent barrier, ...), 2 usage or I/O errors.

use cuprite_sim::spec::{self, ArgSpec, LaunchSpec};
use cuprite_sim::{Level, Schedule};
use std::io::Write;
use std::path::PathBuf;

/// The usage text, with the floating-point flags of [`crate::float_flags`].
fn usage() -> String {
    USAGE.replace("{float flags}\n", crate::float_flags::USAGE)
}

const USAGE: &str = "\
Usage: cuprite run [options] <file.cu>

Runs a kernel on cuprite's SIMT simulator and prints its output buffers.

Launch:
  --kernel <name>              The kernel (its C++ name, or the mangled one)
  --grid <x[,y[,z]]>           Blocks in the grid (default 1)
  --block <x[,y[,z]]>          Threads per block (default 1)
  --shared <bytes>             Dynamic shared memory per block (default 0)
  --arg <name:type=value>      A scalar argument (i8..i64, u8..u64, f32, f64), in order
  --arg <name:type[N]=init>    A buffer of N elements: zeros, iota, fill:V,
                               random:SEED[:LO:HI], [v0, v1, ...]
  --arg <name:{types}=[v, ...]> A struct by value: its field types ({f32, i32[2], {u8,
                               f64}}, laid out as C does) and one value per scalar;
                               a u64 field's value @buf is buffer buf's address
  --buffer <name:type[N]=init> A buffer that is no argument (a struct points to it)
  --texture '<name:T[W,H]=init> [filter=linear] [address=wrap] [coords=normalized]
            [read=normalized] [layers=N]'
                               A texture (T: f32, u8x4, i16x2, ...); the argument
                               t:u64=@name is a texture object for it
  --global <name:type[N]=init> Sets a module global before the launch (__constant__ data)
  --spec <file.toml>           Launches from a spec file ([[launch]] tables); with
                               --kernel, only that kernel's
Simulation:
  --level <cuda|nvvm|ptx>      The IR level to run (default ptx)
  --ptx <file.ptx>             Run this PTX (cuprite's, NVRTC's, clang's) instead of
                               compiling the .cu (which may then be omitted)
  --schedule <inorder|random:SEED>
                               Warp interleaving (default inorder: deterministic)
  --max-instructions <N>       Stop after N warp instructions (default 2^32)
Output:
  --show <N>                   Elements shown per buffer (default 8)
  --out <dir>                  Also write each buffer to <dir>/<name>.bin (little-endian)
  --save-inputs <dir>          Write each buffer's initial contents to <dir>/<name>.bin
  --stats                      Print instruction counts and simulation speed
Compilation (as `cuprite compile`):
  -O0 .. -O3, -fno-unroll-loops, --rewrite-driver=eqsat|greedy|off, --remat-iv=N, --do-remat=N, -I <dir>, -D <name>[=<value>], --arch=sm_<N>, and the flags:
{float flags}
";

/// The command line of `cuprite run`.
struct Args {
    /// Preprocessor, `-O` and float flags for compiling a `.cu` input.
    opts: crate::levels::LevelOptions,
    /// The `.cu` file.
    input: Option<PathBuf>,
    /// `--kernel`.
    kernel: Option<String>,
    /// `--grid`.
    grid: [u32; 3],
    /// `--block`.
    block: [u32; 3],
    /// `--shared` (dynamic shared memory bytes).
    shared: u64,
    /// `--arg`s.
    cli_args: Vec<ArgSpec>,
    /// `--global`s.
    cli_globals: Vec<ArgSpec>,
    /// `--buffer`s.
    cli_buffers: Vec<ArgSpec>,
    /// `--texture`s.
    cli_textures: Vec<cuprite_sim::texture::Texture>,
    /// `--spec`.
    spec_file: Option<PathBuf>,
    /// `--level`.
    level: Level,
    /// `--ptx`.
    ptx_file: Option<PathBuf>,
    /// `--schedule`.
    schedule: Schedule,
    /// `--max-instructions`.
    max_instructions: u64,
    /// `--show`.
    show: usize,
    /// `--out`.
    out_dir: Option<PathBuf>,
    /// `--save-inputs`.
    inputs_dir: Option<PathBuf>,
    /// `--stats`.
    stats: bool,
}

/// Parses the command line: `Ok(None)` for `--help`, `Err` with the message on bad usage.
fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut out = Args {
        opts: crate::levels::LevelOptions::default(),
        input: None,
        kernel: None,
        grid: [1, 1, 1],
        block: [1, 1, 1],
        shared: 0u64,
        cli_args: Vec::new(),
        cli_globals: Vec::new(),
        cli_buffers: Vec::new(),
        cli_textures: Vec::new(),
        spec_file: None,
        level: Level::Ptx,
        ptx_file: None,
        schedule: Schedule::InOrder,
        max_instructions: 1u64 << 32,
        show: 8usize,
        out_dir: None,
        inputs_dir: None,
        stats: false,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a, None),
        };
        let mut value = || -> Option<String> {
            if inline.is_some() {
                return inline.clone();
            }
            i += 1;
            args.get(i).cloned()
        };
        let r: Result<(), String> = (|| {
            if let Some(r) = out.opts.float.parse(a) {
                return r;
            }
            match flag {
                "-h" | "--help" => return Err(String::new()),
                "--kernel" => out.kernel = Some(value().ok_or("--kernel needs a name")?),
                "--grid" => out.grid = spec::parse_dims(&value().ok_or("--grid needs dimensions")?)?,
                "--block" => out.block = spec::parse_dims(&value().ok_or("--block needs dimensions")?)?,
                "--shared" => out.shared = value().and_then(|v| v.parse().ok()).ok_or("--shared needs a number of bytes")?,
                "--arg" => out.cli_args.push(ArgSpec::parse(&value().ok_or("--arg needs name:type=value")?)?),
                "--texture" => {
                    out.cli_textures.push(spec::parse_texture(&value().ok_or("--texture needs name:type[W,H]=init [options]")?)?)
                }
                "--buffer" => out.cli_buffers.push(ArgSpec::parse(&value().ok_or("--buffer needs name:type[N]=init")?)?),
                "--global" => out.cli_globals.push(ArgSpec::parse(&value().ok_or("--global needs name:type[N]=init")?)?),
                "--spec" => out.spec_file = Some(PathBuf::from(value().ok_or("--spec needs a file")?)),
                "--level" => {
                    let v = value().unwrap_or_default();
                    out.level = Level::parse(&v).ok_or(format!("unknown level '{v}' (cuda, nvvm or ptx)"))?;
                }
                "--ptx" => out.ptx_file = Some(PathBuf::from(value().ok_or("--ptx needs a file")?)),
                "--schedule" => {
                    let v = value().unwrap_or_default();
                    out.schedule = match v.as_str() {
                        "inorder" => Schedule::InOrder,
                        _ => match v.strip_prefix("random:").and_then(|s| s.parse().ok()) {
                            Some(seed) => Schedule::Random(seed),
                            None => return Err(format!("unknown schedule '{v}' (inorder or random:SEED)")),
                        },
                    }
                }
                "--max-instructions" => {
                    out.max_instructions = value().and_then(|v| v.parse().ok()).ok_or("--max-instructions needs a number")?
                }
                "--show" => out.show = value().and_then(|v| v.parse().ok()).ok_or("--show needs a number")?,
                "--out" => out.out_dir = Some(PathBuf::from(value().ok_or("--out needs a directory")?)),
                "--save-inputs" => out.inputs_dir = Some(PathBuf::from(value().ok_or("--save-inputs needs a directory")?)),
                "--stats" => out.stats = true,
                "-O0" | "-O1" | "-O2" | "-O3" => out.opts.level = a.as_bytes()[2] - b'0',
                "-fno-unroll-loops" => out.opts.opt.unroll = false,
                _ if a.starts_with("--do-remat=") => {
                    out.opts.opt.remat = a[11..]
                        .parse::<u32>()
                        .ok()
                        .filter(|l| *l <= 3)
                        .ok_or_else(|| format!("--do-remat takes a level from 0 (off) to 3, got '{}'", &a[11..]))?
                }
                _ if a.starts_with("--remat-iv=") => {
                    out.opts.opt.remat_iv = a[11..]
                        .parse::<u32>()
                        .ok()
                        .filter(|l| *l <= 5)
                        .ok_or_else(|| format!("--remat-iv takes a level from 0 (off) to 5, got '{}'", &a[11..]))?
                }
                _ if a.starts_with("--rewrite-driver=") => {
                    out.opts.opt.rewrite_driver = cuprite_lowering::eqsat::Driver::parse(&a[17..])
                        .ok_or_else(|| format!("unknown rewrite driver in '{a}' (eqsat, greedy or off)"))?
                }
                _ if a.starts_with("-I") => {
                    let v = if a.len() > 2 { a[2..].to_string() } else { value().ok_or("-I needs a directory")? };
                    out.opts.config.include_dirs.push(PathBuf::from(v));
                }
                _ if a.starts_with("-D") => {
                    let v = if a.len() > 2 { a[2..].to_string() } else { value().ok_or("-D needs a macro")? };
                    match v.split_once('=') {
                        Some((n, val)) => out.opts.config.defines.push((n.to_string(), Some(val.to_string()))),
                        None => out.opts.config.defines.push((v, None)),
                    }
                }
                _ if a.starts_with("--arch") || a.starts_with("-arch") => {
                    let v = if let Some(v) = inline.clone() { v } else { value().unwrap_or_default() };
                    out.opts.config.sm = v.strip_prefix("sm_").and_then(|n| n.parse().ok()).ok_or(format!("invalid target '{v}'"))?;
                }
                _ if a.starts_with('-') => return Err(format!("unknown option '{a}'")),
                _ => {
                    if out.input.is_some() {
                        return Err("more than one input file".into());
                    }
                    out.input = Some(PathBuf::from(a));
                }
            }
            Ok(())
        })();
        if let Err(m) = r {
            return if m.is_empty() { Ok(None) } else { Err(m) };
        }
        i += 1;
    }
    Ok(Some(out))
}

pub fn main(args: &[String], stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let usage_err = |stderr: &mut dyn Write, msg: String| {
        let _ = writeln!(stderr, "error: {msg}\n\n{}", usage());
        2
    };
    let args = match parse_args(args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            let _ = write!(stdout, "{}", usage());
            return 0;
        }
        Err(msg) => return usage_err(stderr, msg),
    };
    let Args {
        opts,
        input,
        kernel,
        grid,
        block,
        shared,
        cli_args,
        cli_globals,
        cli_buffers,
        cli_textures,
        spec_file,
        level,
        ptx_file,
        schedule,
        max_instructions,
        show,
        out_dir,
        inputs_dir,
        stats,
    } = args;
    // The launches.
    let launches: Vec<LaunchSpec> = match &spec_file {
        Some(p) => {
            let text = match std::fs::read_to_string(p) {
                Ok(t) => t,
                Err(e) => {
                    let _ = writeln!(stderr, "error: cannot read '{}': {e}", p.display());
                    return 2;
                }
            };
            match spec::parse_toml(&text) {
                Ok(ls) => ls.into_iter().filter(|l| kernel.as_ref().is_none_or(|k| &l.kernel == k)).collect(),
                Err(e) => {
                    let _ = writeln!(stderr, "error: {}: {e}", p.display());
                    return 2;
                }
            }
        }
        None => match &kernel {
            Some(k) => {
                vec![LaunchSpec {
                    kernel: k.clone(),
                    grid,
                    block,
                    shared,
                    args: cli_args,
                    globals: cli_globals,
                    buffers: cli_buffers,
                    textures: cli_textures,
                    tolerance_ulp: 0,
                    tolerance_reason: None,
                }]
            }
            None => return usage_err(stderr, "--kernel or --spec is needed".into()),
        },
    };
    if launches.is_empty() {
        let _ = writeln!(stderr, "error: the spec has no launch of kernel '{}'", kernel.unwrap_or_default());
        return 2;
    }
    // The module to run.
    let read = |p: &PathBuf, stderr: &mut dyn Write| -> Option<String> {
        match std::fs::read(p) {
            Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
            Err(e) => {
                let _ = writeln!(stderr, "error: cannot read '{}': {e}", p.display());
                None
            }
        }
    };
    let (ctx, module, level) = if let Some(p) = &ptx_file {
        let Some(text) = read(p, stderr) else { return 2 };
        let name = p.display().to_string();
        let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
        match cuprite_lowering::ptx_read::read_ptx(&mut ctx, &text, &name) {
            Ok(m) => (ctx, m, Level::Ptx),
            Err(d) => {
                let _ = write!(stderr, "{}", cuprite_lowering::ptx_read::render(&name, &text, &d));
                return 1;
            }
        }
    } else {
        let Some(p) = &input else { return usage_err(stderr, "no input file".into()) };
        let Some(text) = read(p, stderr) else { return 2 };
        match crate::levels::compile_levels(&p.display().to_string(), &text, &opts) {
            Ok(l) => {
                let m = match level {
                    Level::Cuda => l.cuda,
                    Level::Nvvm => l.nvvm,
                    Level::Ptx => l.ptx,
                };
                // Inline asm is PTX text: at the ptx level the printed PTX, read back, runs
                // it as the instructions it is (the IR levels cannot).
                let has_asm =
                    level == Level::Ptx && cuprite_ir::walk::collect_preorder(&l.ctx, m).iter().any(|&o| l.ctx.is_op(o, "ptx.asm"));
                if has_asm {
                    let mut ctx = cuprite_ir::Context::new(cuprite_dialects::registry());
                    match cuprite_lowering::ptx_read::read_ptx(&mut ctx, &l.ptx_text, "cuprite.ptx") {
                        Ok(m) => (ctx, m, level),
                        Err(d) => {
                            let _ = write!(stderr, "{}", cuprite_lowering::ptx_read::render("cuprite.ptx", &l.ptx_text, &d));
                            return 1;
                        }
                    }
                } else {
                    (l.ctx, m, level)
                }
            }
            Err(d) => {
                let _ = write!(stderr, "{d}");
                return 1;
            }
        }
    };
    let mut status = 0;
    for l in &launches {
        let _ = writeln!(
            stdout,
            "kernel {} at the {} level: grid ({}, {}, {}) block ({}, {}, {})",
            l.kernel,
            level.name(),
            l.grid[0],
            l.grid[1],
            l.grid[2],
            l.block[0],
            l.block[1],
            l.block[2]
        );
        if let Some(dir) = &inputs_dir {
            let _ = std::fs::create_dir_all(dir);
            for a in l.args.iter().filter(|a| a.len.is_some()) {
                let p = dir.join(format!("{}.bin", a.name));
                match a.data() {
                    Ok(d) => {
                        if let Err(e) = std::fs::write(&p, d) {
                            let _ = writeln!(stderr, "error: cannot write '{}': {e}", p.display());
                            return 2;
                        }
                    }
                    Err(e) => {
                        let _ = writeln!(stderr, "error: {e}");
                        return 2;
                    }
                }
            }
        }
        let start = std::time::Instant::now();
        match cuprite_sim::run_spec(&ctx, module, level, l, schedule, max_instructions) {
            Ok(r) => {
                let secs = start.elapsed().as_secs_f64();
                // What the kernel printed, then its buffers.
                let _ = write!(stdout, "{}", r.stats.output);
                let _ = write!(stdout, "{}", spec::summary(&r.outputs, show));
                for w in &r.stats.warnings {
                    let _ = writeln!(stderr, "warning: {w}");
                }
                if stats {
                    let _ = writeln!(
                        stdout,
                        "{} warp instructions, {} thread instructions in {:.3} s ({:.1} M thread instructions/s)",
                        r.stats.warp_instructions,
                        r.stats.thread_instructions,
                        secs,
                        r.stats.thread_instructions as f64 / secs.max(1e-9) / 1e6
                    );
                }
                if let Some(dir) = &out_dir {
                    if let Err(e) = std::fs::create_dir_all(dir) {
                        let _ = writeln!(stderr, "error: cannot create '{}': {e}", dir.display());
                        return 2;
                    }
                    for o in &r.outputs {
                        let p = dir.join(format!("{}.bin", o.name));
                        if let Err(e) = std::fs::write(&p, &o.data) {
                            let _ = writeln!(stderr, "error: cannot write '{}': {e}", p.display());
                            return 2;
                        }
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(stderr, "error: {e}");
                status = 1;
            }
        }
    }
    status
}
