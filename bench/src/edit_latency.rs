//! `edit-latency [--kernels N] [--edits M] [--pause-ms P]`: edit-to-PTX latency of the
//! incremental database (`cuprite::incremental`), the figure `cuprite lsp` and `cuprite
//! watch` live by.
//!
//! A generated file of N kernels (`gen-cu`'s generator, default 50) is compiled cold,
//! then M times (default 200) one kernel's body is edited (a loop bound changed, kernels
//! taken in turn) and the PTX brought up to date, twice: back to back, and with P ms
//! (default 30) of idle time between edits, as an editor's typing and debouncing leave
//! (caches cool down meanwhile). It prints a table:
//! the cold compile through the database and through `cuprite compile`'s batch path in
//! this process, the edit latency's p50, p90, p99 and worst both ways, a comment edit's
//! latency, the functions recompiled per edit, and the process's resident memory after
//! the edits. Only the time from the edit to the PTX is measured, never the pauses. At
//! the end the edited database's PTX must be what a fresh database gives for the text.

use cuprite::incremental::{self, Database};
use std::time::{Duration, Instant};

fn main() {
    let (mut kernels, mut edits, mut pause) = (50usize, 200usize, 30usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |d: usize| args.next().and_then(|v| v.parse().ok()).unwrap_or(d);
        match a.as_str() {
            "--kernels" => kernels = num(kernels),
            "--edits" => edits = num(edits),
            "--pause-ms" => pause = num(pause),
            _ => {
                eprintln!("usage: edit-latency [--kernels N] [--edits M] [--pause-ms P]");
                std::process::exit(2);
            }
        }
    }
    // Sema and the lowering recurse: a large stack, as `cuprite lsp` gives its compiles.
    let h = std::thread::Builder::new().stack_size(256 << 20).spawn(move || run(kernels, edits, pause)).expect("a thread");
    h.join().expect("the benchmark ran");
}

/// A generated file with `kernels` kernels.
fn source(kernels: usize) -> String {
    let mut lines = kernels * 14;
    loop {
        let text = cuprite_bench::generate_cu(lines);
        let n = text.matches("__global__").count();
        if n >= kernels {
            // Cut after the `kernels`-th kernel, keeping what precedes the first.
            let mut at = 0;
            let mut count = 0;
            for (i, _) in text.match_indices("__global__") {
                count += 1;
                if count == kernels + 1 {
                    at = i;
                    break;
                }
            }
            return if at == 0 { text } else { text[..at].to_string() };
        }
        lines += lines / 4 + 10;
    }
}

/// The byte range of kernel `k`'s text (its `__global__` to the next).
fn kernel_range(text: &str, k: usize) -> (usize, usize) {
    let starts: Vec<usize> = text.match_indices("__global__").map(|(i, _)| i).collect();
    let s = starts[k % starts.len()];
    let e = starts.get(k % starts.len() + 1).copied().unwrap_or(text.len());
    (s, e)
}

/// Changes the first loop bound (`< N;`) in kernel `k` to `value`.
fn edit_kernel(text: &str, k: usize, value: usize) -> String {
    let (s, e) = kernel_range(text, k);
    let body = &text[s..e];
    let Some(lt) = body.find("j < ") else { return format!("{text}\n") };
    let num_start = s + lt + 4;
    let num_end = num_start + text[num_start..].bytes().take_while(|b| b.is_ascii_digit()).count();
    format!("{}{}{}", &text[..num_start], value, &text[num_end..])
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run(kernels: usize, edits: usize, pause: usize) {
    let dir = std::env::temp_dir().join(format!("cuprite-edit-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join("kernels.cu");
    let mut text = source(kernels);
    std::fs::write(&path, &text).expect("the source written");
    let n = text.matches("__global__").count();
    let rss0 = rss_kib();

    // Batch: `cuprite compile` in this process.
    let p = path.to_string_lossy().to_string();
    let t = Instant::now();
    let args = ["compile".to_string(), p.clone(), "-o".into(), dir.join("batch.ptx").to_string_lossy().to_string()];
    let rc = cuprite::run(&args, &mut std::io::empty(), &mut std::io::sink(), &mut std::io::sink());
    let batch = t.elapsed();
    assert_eq!(rc, 0, "the generated file compiles");

    // Cold through the database: on one thread, then (a fresh database) with the
    // functions on every core first, as `cuprite lsp` and `cuprite watch` do.
    let one = Database::default();
    let unit1 = one.unit(&path, Vec::new());
    let t = Instant::now();
    let _ = incremental::module_ptx(&one, unit1).clone().expect("PTX");
    let cold1 = t.elapsed();
    drop(one);
    let mut db = Database::default();
    let unit = db.unit(&path, Vec::new());
    let t = Instant::now();
    incremental::prime(&db, unit, 0).expect("not cancelled");
    let cold_ptx = incremental::module_ptx(&db, unit).clone().expect("PTX");
    let cold = t.elapsed();
    assert_eq!(Some(cold_ptx), std::fs::read_to_string(dir.join("batch.ptx")).ok(), "the database's PTX is the batch compiler's");
    db.take_recompiled();
    db.take_frontend_runs();

    let mut recompiled = 0usize;
    let mut edit_run = |text: &mut String, gap: Duration, first: usize| {
        let mut lat = Vec::with_capacity(edits);
        for i in first..first + edits {
            *text = edit_kernel(text, i * 7 % n, 100 + i);
            std::thread::sleep(gap);
            let t = Instant::now();
            db.set_file_text(&path, Some(text.clone()));
            let ok = incremental::module_ptx(&db, unit).is_some();
            lat.push(t.elapsed());
            assert!(ok, "edit {i} compiles");
            recompiled += db.take_recompiled().len();
        }
        lat.sort();
        lat
    };
    let lat = edit_run(&mut text, Duration::ZERO, 0);
    let paused = edit_run(&mut text, Duration::from_millis(pause as u64), edits);
    let runs = db.take_frontend_runs();
    let reused = runs.iter().map(|r| r.reused).sum::<usize>() as f64 / (2 * edits) as f64;
    let unparsed = runs.iter().map(|r| r.unparsed).sum::<usize>() as f64 / (2 * edits) as f64;
    let frontends = runs.len() as f64 / (2 * edits) as f64;
    // A comment edit: nothing past the module stage.
    let mut comment = Vec::new();
    for i in 0..20 {
        text = format!("// edit {i}\n{text}");
        let t = Instant::now();
        db.set_file_text(&path, Some(text.clone()));
        let _ = incremental::module_ptx(&db, unit);
        comment.push(t.elapsed());
    }
    let comment_recompiled = db.take_recompiled().len();
    let comment_reused = db.take_frontend_runs().iter().map(|r| r.reused).sum::<usize>() as f64 / 20.0;
    let rss1 = rss_kib();
    // (After the memory is read: a second database would count.)
    // The edited database's PTX is a fresh one's.
    std::fs::write(&path, &text).expect("the source written");
    let fresh = Database::default();
    let fresh_unit = fresh.unit(&path, Vec::new());
    let (want, got) = (incremental::module_ptx(&fresh, fresh_unit).clone(), incremental::module_ptx(&db, unit).clone());
    if want != got {
        // Kept for a look (the directory stays).
        let _ = std::fs::write(dir.join("fresh.ptx"), want.unwrap_or_default());
        let _ = std::fs::write(dir.join("edited.ptx"), got.unwrap_or_default());
        panic!("the PTX after the edits is not a fresh compile's: {}", dir.display());
    }
    comment.sort();
    let pct = |v: &[Duration], p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];

    println!("edit-to-PTX latency, {n} kernels ({} bytes of source), {edits} one-kernel edits", text.len());
    println!("| measure | value |");
    println!("|---|---:|");
    println!("| cold compile, batch (`cuprite compile`, in process) | {:.1} ms |", ms(batch));
    println!("| cold compile through the database, one thread | {:.1} ms |", ms(cold1));
    println!("| cold compile through the database, functions on every core | {:.1} ms |", ms(cold));
    for (how, lat) in [("back to back", &lat), (&*format!("{pause} ms apart"), &paused)] {
        println!("| one-kernel edit, {how}, p50 | {:.2} ms |", ms(pct(lat, 0.5)));
        println!("| one-kernel edit, {how}, p90 | {:.2} ms |", ms(pct(lat, 0.9)));
        println!("| one-kernel edit, {how}, p99 | {:.2} ms |", ms(pct(lat, 0.99)));
        println!("| one-kernel edit, {how}, worst | {:.2} ms |", ms(*lat.last().expect("edits")));
    }
    println!("| functions recompiled per edit | {:.2} |", recompiled as f64 / (2 * edits) as f64);
    println!("| kernel bodies the frontend took as known per edit (of {n}), of them not parsed either; frontend runs per edit | {reused:.2}, {unparsed:.2}; {frontends:.2} |");
    println!("| kernel bodies taken as known per comment edit | {comment_reused:.2} |");
    println!("| comment edit, p50 ({comment_recompiled} functions recompiled in 20) | {:.2} ms |", ms(pct(&comment, 0.5)));
    println!("| p50 edit ({pause} ms apart) / cold batch | {:.3} |", pct(&paused, 0.5).as_secs_f64() / batch.as_secs_f64());
    println!(
        "| resident memory after the edits (process) | {:.1} MiB (+{:.1} MiB over the start) |",
        rss1 as f64 / 1024.0,
        (rss1.saturating_sub(rss0)) as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(&dir);
}
