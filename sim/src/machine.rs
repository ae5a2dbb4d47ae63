//! The SIMT machine: blocks of warps of 32 lanes running a [`Program`].
//!
//! **Convergence.** Each lane has its own program counter. A warp runs the group of
//! its running lanes with the smallest program counter, all together, one instruction
//! at a time ("min-PC" scheduling). With code laid out in reverse post-order (as every
//! translator does), lanes that took different sides of a branch run one side, then the
//! other, and meet again at the join, where they run together: the reconvergence real
//! GPUs give at the immediate post-dominator for structured code. Shuffles, votes and
//! `__activemask` see exactly the lanes running together. A shuffle, vote or `redux.sync`
//! whose member mask names lanes running elsewhere waits for them, as sm_70 and later do
//! (independent thread scheduling): the lanes park at it until the others arrive at the
//! same instruction. When they cannot (they exited, or wait at a barrier or at another
//! collective), it is an error, as compute-sanitizer's synccheck reports it.
//!
//! **Barriers.** A lane reaching `__syncthreads` waits. When no lane of the block can
//! run, the barrier releases if every thread that has not exited waits at the same
//! barrier instruction; otherwise the run stops with an error: a divergent barrier
//! (threads wait at different barriers) or threads that exited while others wait.
//! `__syncwarp(mask)` waits the same way for the lanes of its mask.
//!
//! **Schedules.** [`Schedule::InOrder`] runs the blocks in order and, in a block, each
//! warp until it waits or exits, then the next: deterministic. [`Schedule::Random`]
//! shuffles the block order and interleaves warps in random slices of 1 to 16
//! instructions from a seeded generator, so that a missing barrier or a race gives
//! different results under different seeds.
//!
//! Blocks run one after another: CUDA guarantees nothing about blocks running together,
//! so a kernel that waits for another block (a spin lock across blocks) never finishes
//! and stops at the instruction limit.

use crate::code::*;
use crate::fp;
use crate::memory::{self, read_le, resolve, write_le, Global, Target};
use std::fmt;

/// How warps are interleaved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    InOrder,
    Random(u64),
}

/// One kernel launch.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u64,
    /// Each parameter's bytes, little-endian (a pointer is its global address; a struct
    /// passed by value is its bytes in C layout).
    pub args: Vec<Vec<u8>>,
    pub schedule: Schedule,
    /// Stop after this many warp instructions (an infinite loop, a spin lock).
    pub max_instructions: u64,
    /// Initial contents of module globals by name (`cudaMemcpyToSymbol` before the launch).
    pub global_inits: Vec<(String, Vec<u8>)>,
    /// The textures texture objects refer to (object `i` is `textures[i - 1]`).
    pub textures: Vec<crate::texture::Texture>,
}

impl Launch {
    pub fn new(grid: [u32; 3], block: [u32; 3], args: Vec<Vec<u8>>) -> Self {
        Launch {
            grid,
            block,
            dynamic_shared: 0,
            args,
            schedule: Schedule::InOrder,
            max_instructions: 1 << 32,
            global_inits: Vec::new(),
            textures: Vec::new(),
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Instructions issued per warp (all lanes together count once).
    pub warp_instructions: u64,
    /// Instructions times the lanes that ran them.
    pub thread_instructions: u64,
    /// Reads of never-written shared or local memory, once per instruction.
    pub warnings: Vec<String>,
    /// What the kernel printed (`printf`), in the order the threads ran.
    pub output: String,
}

/// A run stopped: what happened, where in the source, in which thread.
#[derive(Clone, Debug, PartialEq)]
pub struct SimError {
    pub message: String,
    pub loc: String,
    pub kernel: String,
    pub block: Option<[u32; 3]>,
    pub thread: Option<[u32; 3]>,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  at {} in kernel {}", self.message, self.loc, self.kernel)?;
        if let Some(b) = self.block {
            write!(f, ", block ({}, {}, {})", b[0], b[1], b[2])?;
        }
        if let Some(t) = self.thread {
            write!(f, " thread ({}, {}, {})", t[0], t[1], t[2])?;
        }
        Ok(())
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum St {
    Run,
    /// Waiting at the block barrier at its pc.
    Bar,
    /// Waiting at `__syncwarp` at its pc.
    WarpBar,
    /// Waiting at a named barrier (`bar.sync id, count`) at its pc.
    NamedBar,
    /// Waiting at a shuffle, vote or `redux.sync` at its pc for lanes of its member mask
    /// that still run elsewhere (sm_70's independent thread scheduling).
    SyncWait,
    Done,
    /// No thread (the last warp of a block whose size is not a multiple of 32).
    Absent,
}

struct Warp {
    base: u32,
    pc: [u32; 32],
    st: [St; 32],
    cur: u32,
    active: u32,
    regs: Vec<u64>,
    local: Vec<u8>,
    local_init: Vec<bool>,
}

struct Block {
    id: [u32; 3],
    shared: Vec<u8>,
    shared_init: Vec<bool>,
    warps: Vec<Warp>,
    /// Threads arrived at each named barrier since it last completed.
    arrivals: [u32; 16],
}

/// A small, fast, seeded generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);
impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

struct Machine<'a> {
    prog: &'a Program,
    global: &'a mut Global,
    consts: Vec<u8>,
    params: Vec<u8>,
    global_addrs: Vec<u64>,
    launch: &'a Launch,
    stats: Stats,
    warned: rustc_hash::FxHashSet<u32>,
    rng: Rng,
}

/// One lane's view of memory, for the device runtime's calls (byte reads at generic
/// addresses).
struct Mem<'m> {
    global: &'m mut Global,
    shared: &'m [u8],
    local: &'m [u8],
    consts: &'m [u8],
    params: &'m [u8],
    lens: [u64; 4],
}

impl Mem<'_> {
    fn bytes(&mut self, addr: u64, n: u64) -> Result<Vec<u8>, String> {
        (0..n).map(|i| self.byte(addr.wrapping_add(i))).collect()
    }

    fn byte(&mut self, a: u64) -> Result<u8, String> {
        Ok(match memory::resolve(self.global, Space::Generic, a, 1, 1, self.lens, false)? {
            Target::Global(bi, o) => self.global.buffers[bi].data[o],
            Target::Shared(o) => self.shared[o],
            Target::Local(o) => self.local[o],
            Target::Const(o) => self.consts[o],
            Target::Param(o) => self.params[o],
        })
    }

    /// The NUL-terminated string at `a` (at most 64 KiB).
    fn cstr(&mut self, a: u64) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        for i in 0..65536 {
            match self.byte(a + i)? {
                0 => return Ok(out),
                c => out.push(c),
            }
        }
        Err("a string longer than 64 KiB (no terminating NUL?)".into())
    }
}

/// A fault inside an instruction, before the machine adds where it happened.
struct Fault {
    msg: String,
    lane: Option<u32>,
}

fn fault<T>(msg: impl Into<String>, lane: u32) -> Result<T, Fault> {
    Err(Fault { msg: msg.into(), lane: Some(lane) })
}

/// Runs `prog` once with `launch` on the device memory `global`.
pub fn run(prog: &Program, global: &mut Global, launch: &Launch) -> Result<Stats, SimError> {
    let err = |message: String| SimError { message, loc: "<launch>".into(), kernel: prog.kernel.clone(), block: None, thread: None };
    let threads = launch.block.iter().map(|&d| d as u64).product::<u64>();
    if launch.grid.contains(&0) || launch.block.contains(&0) {
        return Err(err("the grid and the block must not be empty".into()));
    }
    if threads > 1024 {
        return Err(err(format!("{threads} threads per block; CUDA allows at most 1024")));
    }
    if let Some(m) = prog.max_threads {
        if threads > m as u64 {
            return Err(err(format!("{threads} threads per block exceed the kernel's __launch_bounds__ ({m})")));
        }
    }
    let shared = prog.dynamic_shared_offset + launch.dynamic_shared;
    if shared > 227 * 1024 {
        return Err(err(format!("{shared} bytes of shared memory per block; a block can have at most 227 KB")));
    }
    if prog.local_size > 512 * 1024 {
        return Err(err(format!("{} bytes of local memory per thread; CUDA allows at most 512 KB", prog.local_size)));
    }
    let global_bytes: u64 = prog.globals.iter().map(|g| g.size).sum();
    if global_bytes > 1 << 32 {
        return Err(err(format!("{global_bytes} bytes of module globals: more than the simulator's 4 GiB")));
    }
    if launch.args.len() != prog.params.len() {
        return Err(err(format!("kernel {} takes {} arguments, the launch gives {}", prog.kernel, prog.params.len(), launch.args.len())));
    }
    // Module globals: `__device__` ones in global memory, `__constant__` in the bank.
    let mut consts = Vec::new();
    let mut global_addrs = Vec::with_capacity(prog.globals.len());
    for (name, bytes) in &launch.global_inits {
        match prog.globals.iter().find(|g| &g.name == name) {
            Some(g) if bytes.len() as u64 <= g.size => {}
            Some(g) => return Err(err(format!("{} bytes for global '{name}' of {} bytes", bytes.len(), g.size))),
            None => return Err(err(format!("the kernel's module has no global '{name}'"))),
        }
    }
    let mut buffer_of = Vec::with_capacity(prog.globals.len());
    for g in &prog.globals {
        buffer_of.push(global.buffers.len());
        let init = launch.global_inits.iter().find(|(n, _)| n == &g.name).map_or(&g.init, |(_, b)| b);
        match g.space {
            Space::Const => {
                let end = (g.offset + g.size) as usize;
                if consts.len() < end {
                    consts.resize(end, 0);
                }
                let n = init.len().min(g.size as usize);
                consts[g.offset as usize..g.offset as usize + n].copy_from_slice(&init[..n]);
                global_addrs.push(memory::CONST_BASE + g.offset);
            }
            _ => {
                let a = global.alloc(&g.name, g.size as usize, g.align);
                let b = global.buffers.last_mut().expect("just allocated");
                let n = init.len().min(g.size as usize);
                b.data[..n].copy_from_slice(&init[..n]);
                global_addrs.push(a);
            }
        }
    }
    // Globals whose initializers hold other globals' addresses.
    for (g, &bi) in prog.globals.iter().zip(&buffer_of) {
        for &(off, target) in &g.relocs {
            let a = global_addrs[target as usize].to_le_bytes();
            let o = off as usize;
            match g.space {
                Space::Const => consts[g.offset as usize + o..g.offset as usize + o + 8].copy_from_slice(&a),
                _ => global.buffers[bi].data[o..o + 8].copy_from_slice(&a),
            }
        }
    }
    let mut params = Vec::new();
    for (i, (p, v)) in prog.params.iter().zip(&launch.args).enumerate() {
        // A scalar may be given wider or narrower than the kernel takes it (truncated or
        // zero-extended, as a C cast of the bits); a struct must be given whole.
        if v.len() != p.size as usize && (v.len() > 8 || p.size > 8) {
            return Err(err(format!("argument {} of kernel {} is {} bytes; the parameter takes {}", i + 1, prog.kernel, v.len(), p.size)));
        }
        if p.reg.is_none() {
            let end = (p.offset + p.size as u64) as usize;
            if params.len() < end {
                params.resize(end, 0);
            }
            let n = v.len().min(p.size as usize);
            params[p.offset as usize..p.offset as usize + n].copy_from_slice(&v[..n]);
        }
    }
    let seed = match launch.schedule {
        Schedule::Random(s) => s,
        Schedule::InOrder => 0,
    };
    let mut m = Machine {
        prog,
        global,
        consts,
        params,
        global_addrs,
        launch,
        stats: Stats::default(),
        warned: prog.quiet_loads.iter().copied().collect(),
        rng: Rng(seed),
    };
    let [gx, gy, gz] = launch.grid;
    let mut order: Vec<[u32; 3]> = (0..gz).flat_map(|z| (0..gy).flat_map(move |y| (0..gx).map(move |x| [x, y, z]))).collect();
    if let Schedule::Random(_) = launch.schedule {
        for i in (1..order.len()).rev() {
            let j = m.rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
    }
    for id in order {
        m.run_block(id)?;
    }
    Ok(m.stats)
}

impl Machine<'_> {
    fn new_block(&self, id: [u32; 3]) -> Block {
        let threads: u32 = self.launch.block.iter().product();
        let nwarps = threads.div_ceil(32);
        let p = self.prog;
        let shared_len = (p.dynamic_shared_offset + self.launch.dynamic_shared) as usize;
        let warps = (0..nwarps)
            .map(|w| {
                let mut st = [St::Absent; 32];
                for (l, s) in st.iter_mut().enumerate() {
                    if w * 32 + (l as u32) < threads {
                        *s = St::Run;
                    }
                }
                let mut regs = vec![0u64; p.num_regs as usize * 32];
                for (prm, v) in p.params.iter().zip(&self.launch.args) {
                    if let Some(r) = prm.reg {
                        let n = v.len().min(prm.size as usize);
                        regs[r as usize * 32..r as usize * 32 + 32].fill(read_le(&v[..n]));
                    }
                }
                let active = st.iter().enumerate().fold(0u32, |m, (l, s)| if *s == St::Run { m | 1 << l } else { m });
                Warp {
                    base: w * 32,
                    pc: [0; 32],
                    st,
                    cur: 0,
                    active,
                    regs,
                    local: vec![0; p.local_size as usize * 32],
                    local_init: vec![false; p.local_size as usize * 32],
                }
            })
            .collect();
        Block { id, shared: vec![0; shared_len], shared_init: vec![false; shared_len], warps, arrivals: [0; 16] }
    }

    fn thread_of(&self, tid: u32) -> [u32; 3] {
        let [bx, by, _] = self.launch.block;
        [tid % bx, (tid / bx) % by, tid / (bx * by)]
    }

    fn error(&self, b: &Block, w: usize, pc: u32, f: Fault) -> SimError {
        SimError {
            message: f.msg,
            loc: self.prog.loc(pc as usize).to_string(),
            kernel: self.prog.kernel.clone(),
            block: Some(b.id),
            thread: f.lane.map(|l| self.thread_of(b.warps[w].base + l)),
        }
    }

    fn run_block(&mut self, id: [u32; 3]) -> Result<(), SimError> {
        let mut b = self.new_block(id);
        let n = b.warps.len();
        let random = matches!(self.launch.schedule, Schedule::Random(_));
        loop {
            let mut progressed = false;
            if random {
                let runnable: Vec<usize> = (0..n).filter(|&w| b.warps[w].st.contains(&St::Run)).collect();
                if !runnable.is_empty() {
                    let w = runnable[self.rng.below(runnable.len() as u64) as usize];
                    let q = 1 + self.rng.below(16);
                    self.run_warp(&mut b, w, q)?;
                    progressed = true;
                }
            } else {
                for w in 0..n {
                    if b.warps[w].st.contains(&St::Run) {
                        self.run_warp(&mut b, w, u64::MAX)?;
                        progressed = true;
                    }
                }
            }
            if progressed {
                continue;
            }
            // Nothing can run: finished, or a barrier to release (or a deadlock).
            if !self.release_barrier(&mut b)? {
                return Ok(());
            }
        }
    }

    /// With no lane able to run: releases the block barrier (true), reports a divergent
    /// barrier, or says the block is done (false).
    fn release_barrier(&mut self, b: &mut Block) -> Result<bool, SimError> {
        // Named barriers first: one whose count has arrived releases its waiting lanes; one
        // that cannot complete (nothing else runs) is an error.
        let mut waiting_named = None;
        let mut named = None;
        'scan: for (wi, w) in b.warps.iter().enumerate() {
            for l in 0..32 {
                if let (St::NamedBar, Inst::NamedBarrier { id, count, .. }) = (w.st[l], &self.prog.code[w.pc[l] as usize]) {
                    let (id, count) = (w.regs[*id as usize * 32 + l] as usize & 15, w.regs[*count as usize * 32 + l] as u32);
                    waiting_named.get_or_insert((wi, l, w.pc[l], id));
                    if b.arrivals[id] >= count {
                        named = Some((id, count));
                        break 'scan;
                    }
                }
            }
        }
        if let (None, Some((wi, l, pc, id))) = (named, waiting_named) {
            let f = Fault {
                msg: format!("named barrier {id} never completes: {} threads arrived, and no other thread can run", b.arrivals[id]),
                lane: Some(l as u32),
            };
            return Err(self.error(b, wi, pc, f));
        }
        if let Some((id, count)) = named {
            b.arrivals[id] -= count;
            for w in &mut b.warps {
                for l in 0..32 {
                    if w.st[l] == St::NamedBar {
                        if let Inst::NamedBarrier { id: r, .. } = self.prog.code[w.pc[l] as usize] {
                            if w.regs[r as usize * 32 + l] as usize & 15 == id {
                                w.st[l] = St::Run;
                                w.pc[l] += 1;
                            }
                        }
                    }
                }
                w.active = 0;
            }
            return Ok(true);
        }
        let mut bar_pc = None;
        let mut waiting = 0u32;
        let mut exited = 0u32;
        for (wi, w) in b.warps.iter().enumerate() {
            for l in 0..32 {
                match w.st[l] {
                    St::Bar => {
                        waiting += 1;
                        match bar_pc {
                            None => bar_pc = Some((w.pc[l], wi, l as u32)),
                            Some((pc, _, _)) if pc != w.pc[l] => {
                                let f = Fault {
                                    msg: format!(
                                        "divergent barrier: threads wait at different __syncthreads ({} and {})",
                                        self.prog.loc(pc as usize),
                                        self.prog.loc(w.pc[l] as usize)
                                    ),
                                    lane: Some(l as u32),
                                };
                                return Err(self.error(b, wi, w.pc[l], f));
                            }
                            _ => {}
                        }
                    }
                    St::WarpBar | St::SyncWait => {
                        let f = Fault {
                            msg: "__syncwarp never completes: lanes of its mask exited or wait at a block barrier".into(),
                            lane: Some(l as u32),
                        };
                        return Err(self.error(b, wi, w.pc[l], f));
                    }
                    St::Done => exited += 1,
                    _ => {}
                }
            }
        }
        let Some((pc, wi, lane)) = bar_pc else { return Ok(false) };
        if exited > 0 {
            let f = Fault {
                msg: format!("barrier reached by only part of the block: {waiting} threads wait while {exited} have exited"),
                lane: Some(lane),
            };
            return Err(self.error(b, wi, pc, f));
        }
        // Release, with bar.red's reduction.
        if let Inst::Barrier { red: Some(red), dst, pred } = self.prog.code[pc as usize] {
            let (mut count, mut all, mut any) = (0u64, true, false);
            for w in &b.warps {
                for l in 0..32 {
                    if w.st[l] == St::Bar {
                        let p = w.regs[pred as usize * 32 + l] & 1 != 0;
                        count += p as u64;
                        all &= p;
                        any |= p;
                    }
                }
            }
            let v = match red {
                BarRed::Popc => count,
                BarRed::And => all as u64,
                BarRed::Or => any as u64,
            };
            for w in &mut b.warps {
                for l in 0..32 {
                    if w.st[l] == St::Bar {
                        w.regs[dst as usize * 32 + l] = v;
                    }
                }
            }
        }
        for w in &mut b.warps {
            for l in 0..32 {
                if w.st[l] == St::Bar {
                    w.st[l] = St::Run;
                    w.pc[l] += 1;
                }
            }
            w.active = 0;
        }
        Ok(true)
    }

    /// Picks the lanes to run together: those with the smallest pc. False if none can run.
    fn reschedule(w: &mut Warp) -> bool {
        let mut min = u32::MAX;
        for l in 0..32 {
            if w.st[l] == St::Run && w.pc[l] < min {
                min = w.pc[l];
            }
        }
        if min == u32::MAX {
            // Lanes waiting at a collective for lanes that can no longer come: the ones at
            // the smallest pc run it now (and fail there if their mask names lanes waiting
            // elsewhere).
            if let Some(pc) = (0..32).filter(|&l| w.st[l] == St::SyncWait).map(|l| w.pc[l]).min() {
                for l in 0..32 {
                    if w.st[l] == St::SyncWait && w.pc[l] == pc {
                        w.st[l] = St::Run;
                    }
                }
                return Self::reschedule(w);
            }
            // Lanes parked at __syncwarp with nothing else running: release them if they
            // all wait at the same one.
            let parked: Vec<usize> = (0..32).filter(|&l| w.st[l] == St::WarpBar).collect();
            if let Some(&first) = parked.first() {
                if parked.iter().all(|&l| w.pc[l] == w.pc[first]) {
                    for &l in &parked {
                        w.st[l] = St::Run;
                        w.pc[l] += 1;
                    }
                    return Self::reschedule(w);
                }
            }
            w.active = 0;
            return false;
        }
        let mut active = 0;
        for l in 0..32 {
            if w.st[l] == St::Run && w.pc[l] == min {
                active |= 1 << l;
            }
        }
        w.cur = min;
        w.active = active;
        true
    }

    fn run_warp(&mut self, b: &mut Block, wi: usize, budget: u64) -> Result<(), SimError> {
        let mut left = budget;
        loop {
            if b.warps[wi].active == 0 && !Self::reschedule(&mut b.warps[wi]) {
                return Ok(());
            }
            if left == 0 {
                return Ok(());
            }
            left -= 1;
            self.stats.warp_instructions += 1;
            if self.stats.warp_instructions > self.launch.max_instructions {
                let pc = b.warps[wi].cur;
                let f = Fault {
                    msg: format!(
                        "the kernel did not finish within {} warp instructions (an endless loop, or a wait for another block?)",
                        self.launch.max_instructions
                    ),
                    lane: None,
                };
                return Err(self.error(b, wi, pc, f));
            }
            let pc = b.warps[wi].cur;
            if let Err(f) = self.exec(b, wi) {
                return Err(self.error(b, wi, pc, f));
            }
        }
    }

    fn warn(&mut self, pc: u32, msg: String) {
        if self.warned.insert(pc) {
            self.stats.warnings.push(format!("{msg}\n  at {} in kernel {}", self.prog.loc(pc as usize), self.prog.kernel));
        }
    }

    /// Runs one instruction for the warp's active lanes.
    fn exec(&mut self, b: &mut Block, wi: usize) -> Result<(), Fault> {
        let prog = self.prog;
        let block_id = b.id;
        let nwarps = b.warps.len() as u32;
        let w = &mut b.warps[wi];
        let pc = w.cur;
        let inst = &prog.code[pc as usize];
        if let Inst::Shfl { mask, .. } | Inst::Vote { mask, .. } | Inst::Redux { mask, .. } | Inst::Match { mask, .. } = *inst {
            // As on sm_70 and later, a collective waits for the lanes of its member mask:
            // those waiting here join, and if others still run elsewhere, these wait.
            let m = w.regs[mask as usize * 32 + w.active.trailing_zeros().min(31) as usize] as u32;
            for l in 0..32 {
                if m & (1 << l) != 0 && w.st[l] == St::SyncWait && w.pc[l] == pc {
                    w.st[l] = St::Run;
                    w.active |= 1 << l;
                }
            }
            if (0..32).any(|l| m & (1 << l) != 0 && w.active & (1 << l) == 0 && w.st[l] == St::Run) {
                for l in 0..32 {
                    if w.active & (1 << l) != 0 {
                        w.st[l] = St::SyncWait;
                        w.pc[l] = pc;
                    }
                }
                w.active = 0;
                return Ok(());
            }
        }
        // Lanes of the mask that wait at another copy of this collective (a compiler may
        // duplicate one: NVRTC unswitches a loop around a reduction) join it with their own
        // operands and results, as sm_70's collectives meet across program points: their
        // sources are copied into this instruction's registers for the run and the results
        // back to theirs, and they go on after their own copy.
        let mut guests: Vec<Guest> = Vec::new();
        let parts = collective_parts(inst);
        if let Some((shape, srcs, dsts)) = &parts {
            // The member mask is the last source.
            let mask = srcs[srcs.len() - 1];
            let m = w.regs[mask as usize * 32 + w.active.trailing_zeros().min(31) as usize] as u32;
            for l in 0..32 {
                if m & (1 << l) == 0 || w.st[l] != St::SyncWait || w.pc[l] == pc {
                    continue;
                }
                let gpc = w.pc[l];
                let Some((gshape, gsrcs, gdsts)) = collective_parts(&prog.code[gpc as usize]) else { continue };
                if gshape != *shape {
                    continue;
                }
                let saved: Vec<(Reg, u64)> = srcs.iter().chain(dsts).map(|&r| (r, w.regs[r as usize * 32 + l])).collect();
                let vals: Vec<u64> = gsrcs.iter().map(|&g| w.regs[g as usize * 32 + l]).collect();
                for (&h, v) in srcs.iter().zip(vals) {
                    w.regs[h as usize * 32 + l] = v;
                }
                w.st[l] = St::Run;
                w.active |= 1 << l;
                guests.push(Guest { lane: l, pc: gpc, dsts: gdsts, saved });
            }
        }
        let active = w.active;
        self.stats.thread_instructions += active.count_ones() as u64;
        macro_rules! lanes {
            (|$l:ident| $body:expr) => {{
                let mut m = active;
                while m != 0 {
                    let $l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    $body;
                }
            }};
        }
        macro_rules! r {
            ($reg:expr, $l:expr) => {
                w.regs[$reg as usize * 32 + $l]
            };
        }
        let mut next = pc + 1;
        match *inst {
            Inst::Const { dst, bits } => lanes!(|l| r!(dst, l) = bits),
            Inst::Mov { dst, src } => lanes!(|l| r!(dst, l) = r!(src, l)),
            Inst::Bin { op, ty, dst, a, b } => {
                if ty.is_float() {
                    lanes!(|l| r!(dst, l) = fp::fbin(op, ty, r!(a, l), r!(b, l)).unwrap_or(0))
                } else {
                    let mut m = active;
                    while m != 0 {
                        let l = m.trailing_zeros() as usize;
                        m &= m - 1;
                        match ibin(op, ty, r!(a, l), r!(b, l)) {
                            Ok(v) => r!(dst, l) = v,
                            Err(e) => return fault(e, l as u32),
                        }
                    }
                }
            }
            Inst::Un { op, ty, dst, a } => {
                if ty.is_float() || matches!(op, UnOp::IsNan | UnOp::IsInf | UnOp::IsFinite | UnOp::IsNormal | UnOp::IsSubnormal) {
                    lanes!(|l| r!(dst, l) = fp::fun(op, ty, r!(a, l)).unwrap_or(0))
                } else {
                    lanes!(|l| r!(dst, l) = iun(op, ty, r!(a, l)))
                }
            }
            Inst::Tern { op, dst, a, b, c } => lanes!(|l| r!(dst, l) = op.eval(r!(a, l), r!(b, l), r!(c, l))),
            Inst::Fma { ty, mode, dst, a, b, c } => lanes!(|l| r!(dst, l) = fp::fma(ty, mode, r!(a, l), r!(b, l), r!(c, l))),
            Inst::Cmp { cmp, ty, ftz, dst, a, b } => {
                if ty.is_float() {
                    lanes!(|l| r!(dst, l) = fp::fcmp(cmp, ty, ftz, r!(a, l), r!(b, l)) as u64)
                } else {
                    lanes!(|l| r!(dst, l) = icmp(cmp, ty, r!(a, l), r!(b, l)) as u64)
                }
            }
            Inst::Select { dst, cond, a, b } => lanes!(|l| r!(dst, l) = if r!(cond, l) & 1 != 0 { r!(a, l) } else { r!(b, l) }),
            Inst::Cvt { cvt, dst, src } => lanes!(|l| r!(dst, l) = fp::cvt(cvt, r!(src, l))),
            Inst::Cvta { space, to_generic, dst, src } => {
                let base = match space {
                    Space::Shared => memory::SHARED_BASE,
                    Space::Local => memory::LOCAL_BASE,
                    Space::Const => memory::CONST_BASE,
                    Space::Param => memory::PARAM_BASE,
                    Space::Global | Space::Generic => 0,
                };
                if to_generic {
                    lanes!(|l| r!(dst, l) = r!(src, l).wrapping_add(base))
                } else {
                    lanes!(|l| r!(dst, l) = r!(src, l).wrapping_sub(base))
                }
            }
            Inst::Sreg { dst, sreg } => {
                let bd = self.launch.block;
                let gd = self.launch.grid;
                let steps = self.stats.warp_instructions;
                lanes!(|l| {
                    let t = w.base + l as u32;
                    let tid = [t % bd[0], (t / bd[0]) % bd[1], t / (bd[0] * bd[1])];
                    r!(dst, l) = match sreg {
                        Sreg::Tid(d) => tid[d as usize] as u64,
                        Sreg::Ntid(d) => bd[d as usize] as u64,
                        Sreg::Ctaid(d) => block_id[d as usize] as u64,
                        Sreg::Nctaid(d) => gd[d as usize] as u64,
                        Sreg::WarpSize => 32,
                        Sreg::LaneId => l as u64,
                        Sreg::WarpId => (wi as u32 % nwarps) as u64,
                        Sreg::Clock => steps & 0xffff_ffff,
                        Sreg::Clock64 => steps,
                        Sreg::LaneMaskLt => (1u64 << l) - 1,
                        Sreg::LaneMaskLe => ((1u64 << l) << 1) - 1,
                        Sreg::LaneMaskEq => 1u64 << l,
                        Sreg::LaneMaskGe => (!((1u64 << l) - 1)) & 0xffff_ffff,
                        Sreg::LaneMaskGt => (!(((1u64 << l) << 1) - 1)) & 0xffff_ffff,
                    }
                })
            }
            Inst::GlobalAddr { dst, index } => {
                let a = self.global_addrs[index as usize];
                lanes!(|l| r!(dst, l) = a)
            }
            Inst::Load { space, ty, dst, addr, offset, align } => {
                let size = ty.bytes() as u64;
                let align = (align as u64).max(size);
                let lens = [b.shared.len() as u64, prog.local_size, self.consts.len() as u64, self.params.len() as u64];
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let a = w.regs[addr as usize * 32 + l].wrapping_add(offset as u64);
                    let t = match resolve(self.global, space, a, size, align, lens, false) {
                        Ok(t) => t,
                        Err(e) => return fault(e, l as u32),
                    };
                    let s = size as usize;
                    let v = match t {
                        Target::Global(bi, o) => read_le(&self.global.buffers[bi].data[o..o + s]),
                        Target::Shared(o) => {
                            if !b.shared_init[o..o + s].iter().all(|&x| x) && !self.warned.contains(&pc) {
                                let tid = self.thread_of(w.base + l as u32);
                                let msg = format!(
                                    "read of never-written shared memory ({s} bytes at offset {o}) by thread ({}, {}, {}) of block ({}, {}, {})",
                                    tid[0], tid[1], tid[2], block_id[0], block_id[1], block_id[2]
                                );
                                self.warn(pc, msg);
                            }
                            read_le(&b.shared[o..o + s])
                        }
                        Target::Local(o) => {
                            let base = l * prog.local_size as usize;
                            if !w.local_init[base + o..base + o + s].iter().all(|&x| x) && !self.warned.contains(&pc) {
                                let msg = format!("read of never-written local memory ({s} bytes at offset {o})");
                                self.warn(pc, msg);
                            }
                            read_le(&w.local[base + o..base + o + s])
                        }
                        Target::Const(o) => read_le(&self.consts[o..o + s]),
                        Target::Param(o) => read_le(&self.params[o..o + s]),
                    };
                    w.regs[dst as usize * 32 + l] = if ty == Ty::I1 { (v != 0) as u64 } else { v };
                }
            }
            Inst::Store { space, ty, src, addr, offset, align } => {
                let size = ty.bytes() as u64;
                let align = (align as u64).max(size);
                let lens = [b.shared.len() as u64, prog.local_size, self.consts.len() as u64, self.params.len() as u64];
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let a = w.regs[addr as usize * 32 + l].wrapping_add(offset as u64);
                    let v = w.regs[src as usize * 32 + l];
                    let s = size as usize;
                    match resolve(self.global, space, a, size, align, lens, true) {
                        Ok(Target::Global(bi, o)) => write_le(&mut self.global.buffers[bi].data[o..o + s], v),
                        Ok(Target::Shared(o)) => {
                            write_le(&mut b.shared[o..o + s], v);
                            b.shared_init[o..o + s].fill(true);
                        }
                        Ok(Target::Local(o)) => {
                            let base = l * prog.local_size as usize;
                            write_le(&mut w.local[base + o..base + o + s], v);
                            w.local_init[base + o..base + o + s].fill(true);
                        }
                        Ok(_) => return fault("write to read-only memory", l as u32),
                        Err(e) => return fault(e, l as u32),
                    }
                }
            }
            Inst::Atom { op, space, ty, dst, addr, offset, a, b: bv } => {
                let size = ty.bytes() as u64;
                let lens = [b.shared.len() as u64, prog.local_size, self.consts.len() as u64, self.params.len() as u64];
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let ad = w.regs[addr as usize * 32 + l].wrapping_add(offset as u64);
                    let s = size as usize;
                    let bytes: &mut [u8] = match resolve(self.global, space, ad, size, size, lens, true) {
                        Ok(Target::Global(bi, o)) => &mut self.global.buffers[bi].data[o..o + s],
                        Ok(Target::Shared(o)) => {
                            b.shared_init[o..o + s].fill(true);
                            &mut b.shared[o..o + s]
                        }
                        Ok(Target::Local(o)) => {
                            let base = l * prog.local_size as usize;
                            &mut w.local[base + o..base + o + s]
                        }
                        Ok(_) => return fault("atomic on read-only memory", l as u32),
                        Err(e) => return fault(e, l as u32),
                    };
                    let old = read_le(bytes);
                    let x = w.regs[a as usize * 32 + l] & ty.mask();
                    let new = match op {
                        AtomOp::Add => old.wrapping_add(x),
                        AtomOp::FAdd => fp::fbin(BinOp::FAdd(FMode::RN), ty, old, x).unwrap_or(old),
                        AtomOp::FAdd2 => {
                            let half = |v: u64, sh: u32| (v >> sh) & 0xffff;
                            let add =
                                |sh: u32| fp::fbin(BinOp::FAdd(FMode::RN), Ty::F16, half(old, sh), half(x, sh)).unwrap_or(half(old, sh));
                            add(0) | (add(16) << 16)
                        }
                        AtomOp::Exch => x,
                        AtomOp::SMin => {
                            if ty.sext(x) < ty.sext(old) {
                                x
                            } else {
                                old
                            }
                        }
                        AtomOp::SMax => {
                            if ty.sext(x) > ty.sext(old) {
                                x
                            } else {
                                old
                            }
                        }
                        AtomOp::UMin => old.min(x),
                        AtomOp::UMax => old.max(x),
                        AtomOp::Inc => {
                            if old >= x {
                                0
                            } else {
                                old + 1
                            }
                        }
                        AtomOp::Dec => {
                            if old == 0 || old > x {
                                x
                            } else {
                                old - 1
                            }
                        }
                        AtomOp::And => old & x,
                        AtomOp::Or => old | x,
                        AtomOp::Xor => old ^ x,
                        AtomOp::Cas => {
                            if old == x {
                                w.regs[bv as usize * 32 + l] & ty.mask()
                            } else {
                                old
                            }
                        }
                    };
                    write_le(bytes, new & ty.mask());
                    w.regs[dst as usize * 32 + l] = old;
                }
            }
            Inst::Jump { target } => {
                lanes!(|l| w.pc[l] = target);
                next = target;
                // Stay together unless lanes elsewhere are behind.
                Self::continue_at(w, next);
                return Ok(());
            }
            Inst::Branch { cond, neg, t, f } => {
                let mut tm = 0u32;
                lanes!(|l| {
                    let c = (r!(cond, l) & 1 != 0) != neg;
                    w.pc[l] = if c { t } else { f };
                    if c {
                        tm |= 1 << l;
                    }
                });
                match tm {
                    t_all if t_all == active => Self::continue_at(w, t),
                    0 => Self::continue_at(w, f),
                    _ => w.active = 0,
                }
                return Ok(());
            }
            Inst::Exit => {
                lanes!(|l| w.st[l] = St::Done);
                w.active = 0;
                return Ok(());
            }
            Inst::Trap => return fault("the kernel trapped (__trap or unreachable code)", active.trailing_zeros()),
            Inst::Printf { dst, fmt, args } => {
                let lens = [b.shared.len() as u64, prog.local_size, self.consts.len() as u64, self.params.len() as u64];
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let local = &w.local[l * prog.local_size as usize..(l + 1) * prog.local_size as usize];
                    let mem = std::cell::RefCell::new(Mem {
                        global: &mut *self.global,
                        shared: &b.shared,
                        local,
                        consts: &self.consts,
                        params: &self.params,
                        lens,
                    });
                    let f = match mem.borrow_mut().cstr(w.regs[fmt as usize * 32 + l]) {
                        Ok(f) => f,
                        Err(e) => return fault(format!("printf's format: {e}"), l as u32),
                    };
                    let base = w.regs[args as usize * 32 + l];
                    let res = crate::printf::format(
                        &f,
                        |off, n| {
                            let bytes = mem.borrow_mut().bytes(base + off, n)?;
                            let mut w8 = [0u8; 8];
                            w8[..n as usize].copy_from_slice(&bytes);
                            Ok(u64::from_le_bytes(w8))
                        },
                        |p| mem.borrow_mut().cstr(p),
                    );
                    match res {
                        Ok((text, n)) => {
                            self.stats.output.push_str(&text);
                            w.regs[dst as usize * 32 + l] = n as u64;
                        }
                        Err(e) => return fault(format!("printf's arguments: {e}"), l as u32),
                    }
                }
            }
            Inst::Malloc { dst, size } => {
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let n = w.regs[size as usize * 32 + l];
                    if n > 1 << 32 {
                        return fault(format!("malloc of {n} bytes: more than the device heap holds"), l as u32);
                    }
                    w.regs[dst as usize * 32 + l] = if n == 0 { 0 } else { self.global.alloc(crate::memory::HEAP_BLOCK, n as usize, 16) };
                }
            }
            Inst::Free { ptr } => {
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let p = w.regs[ptr as usize * 32 + l];
                    if p != 0 {
                        if let Err(e) = self.global.free(p) {
                            return fault(e, l as u32);
                        }
                    }
                }
            }
            Inst::AssertFail { msg, file, line, func } => {
                let l = active.trailing_zeros() as usize;
                let lens = [b.shared.len() as u64, prog.local_size, self.consts.len() as u64, self.params.len() as u64];
                let local = &w.local[l * prog.local_size as usize..(l + 1) * prog.local_size as usize];
                let mut mem = Mem { global: &mut *self.global, shared: &b.shared, local, consts: &self.consts, params: &self.params, lens };
                let text = |r: Reg, mem: &mut Mem| {
                    mem.cstr(w.regs[r as usize * 32 + l]).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
                };
                let (m, f, fu) = (text(msg, &mut mem), text(file, &mut mem), text(func, &mut mem));
                let ln = w.regs[line as usize * 32 + l] as u32;
                let at = if fu.is_empty() { String::new() } else { format!(" in {fu}") };
                return fault(format!("assertion `{m}` failed ({f}:{ln}{at})"), l as u32);
            }
            Inst::Barrier { .. } => {
                lanes!(|l| {
                    w.st[l] = St::Bar;
                    w.pc[l] = pc;
                });
                w.active = 0;
                return Ok(());
            }
            Inst::NamedBarrier { id, count: _, arrive } => {
                // Arrivals count whole warps, as PTX's barriers do.
                let i = r!(id, active.trailing_zeros() as usize) as usize;
                if i > 15 {
                    return fault(format!("named barrier {i}: the ids are 0 to 15"), active.trailing_zeros());
                }
                b.arrivals[i] += 32;
                if !arrive {
                    let w = &mut b.warps[wi];
                    lanes!(|l| {
                        w.st[l] = St::NamedBar;
                        w.pc[l] = pc;
                    });
                    w.active = 0;
                    return Ok(());
                }
            }
            Inst::WarpSync { mask } => {
                let m = r!(mask, active.trailing_zeros() as usize) as u32;
                let missing = (0..32)
                    .filter(|&l| {
                        m & (1 << l) != 0 && active & (1 << l) == 0 && matches!(w.st[l], St::Run | St::WarpBar | St::Bar | St::NamedBar)
                    })
                    .count();
                if missing > 0 {
                    lanes!(|l| {
                        w.st[l] = St::WarpBar;
                        w.pc[l] = pc;
                    });
                    w.active = 0;
                    return Ok(());
                }
            }
            Inst::Shfl { mode, dst, pred_dst, val, lane, clamp, mask } => {
                self.check_converged(w, r!(mask, active.trailing_zeros() as usize) as u32, "shfl.sync")?;
                let mut vals = [0u64; 32];
                vals.copy_from_slice(&w.regs[val as usize * 32..val as usize * 32 + 32]);
                lanes!(|l| {
                    let bsrc = r!(lane, l) as u32 & 0x1f;
                    let c = r!(clamp, l) as u32;
                    let seg = (c >> 8) & 0x1f;
                    let cl = c & 0x1f;
                    let id = l as u32;
                    let max_lane = (id & seg) | (cl & !seg);
                    let min_lane = id & seg;
                    let (j, ok) = match mode {
                        ShflMode::Up => {
                            let j = id as i32 - bsrc as i32;
                            (j, j >= max_lane as i32)
                        }
                        ShflMode::Down => {
                            let j = (id + bsrc) as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Bfly => {
                            let j = (id ^ bsrc) as i32;
                            (j, j <= max_lane as i32)
                        }
                        ShflMode::Idx => {
                            let j = (min_lane | (bsrc & !seg)) as i32;
                            (j, j <= max_lane as i32)
                        }
                    };
                    let src = if ok { j as usize } else { l };
                    r!(dst, l) = vals[src];
                    if let Some(p) = pred_dst {
                        r!(p, l) = ok as u64;
                    }
                })
            }
            Inst::Vote { mode, dst, pred, neg, mask } => {
                let m = r!(mask, active.trailing_zeros() as usize) as u32;
                self.check_converged(w, m, "vote.sync")?;
                let members = active & m;
                let mut ballot = 0u32;
                lanes!(|l| {
                    if members & (1 << l) != 0 && ((r!(pred, l) & 1 != 0) != neg) {
                        ballot |= 1 << l;
                    }
                });
                let v = match mode {
                    VoteMode::Ballot => ballot as u64,
                    VoteMode::All => (ballot == members) as u64,
                    VoteMode::Any => (ballot != 0) as u64,
                    VoteMode::Uni => (ballot == 0 || ballot == members) as u64,
                };
                lanes!(|l| r!(dst, l) = v)
            }
            Inst::Match { all, ty, dst, pred, val, mask } => {
                let m = r!(mask, active.trailing_zeros() as usize) as u32;
                self.check_converged(w, m, "match.sync")?;
                let members = active & m;
                let bits = ty.mask();
                let mut vals = [0u64; 32];
                vals.copy_from_slice(&w.regs[val as usize * 32..val as usize * 32 + 32]);
                let same = |l: usize| {
                    (0..32).filter(|&j| members & (1 << j) != 0 && vals[j] & bits == vals[l] & bits).fold(0u32, |a, j| a | 1 << j)
                };
                let first = members.trailing_zeros().min(31) as usize;
                let uniform = same(first) == members;
                lanes!(|l| {
                    r!(dst, l) = if !all {
                        same(l) as u64
                    } else if uniform {
                        members as u64
                    } else {
                        0
                    };
                    if let Some(p) = pred {
                        r!(p, l) = uniform as u64;
                    }
                })
            }
            Inst::Activemask { dst } => lanes!(|l| r!(dst, l) = active as u64),
            Inst::Redux { op, dst, val, mask } => {
                let m = r!(mask, active.trailing_zeros() as usize) as u32;
                self.check_converged(w, m, "redux.sync")?;
                let mut acc: Option<u32> = None;
                lanes!(|l| if m & (1 << l) != 0 {
                    let x = r!(val, l) as u32;
                    acc = Some(match acc {
                        None => x,
                        Some(a) => match op {
                            AtomOp::Add => a.wrapping_add(x),
                            AtomOp::SMin => (a as i32).min(x as i32) as u32,
                            AtomOp::SMax => (a as i32).max(x as i32) as u32,
                            AtomOp::UMin => a.min(x),
                            AtomOp::UMax => a.max(x),
                            AtomOp::And => a & x,
                            AtomOp::Or => a | x,
                            _ => a ^ x,
                        },
                    })
                });
                let v = acc.unwrap_or(0) as u64;
                lanes!(|l| r!(dst, l) = v)
            }
            Inst::Fns { dst, mask, base, offset } => lanes!(|l| {
                let (m, b, off) = (r!(mask, l) as u32, r!(base, l) as u32, r!(offset, l) as u32 as i32);
                r!(dst, l) = fns(m, b, off) as u64
            }),
            Inst::Tex { geom, float_out, int_coords, dst, handle, coords, ncoords } => {
                let mut m = active;
                while m != 0 {
                    let l = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let h = r!(handle, l);
                    let Some(t) = (h as usize).checked_sub(1).and_then(|i| self.launch.textures.get(i)) else {
                        return fault(format!("texture fetch through {h:#x}, which is no texture object of the launch"), l as u32);
                    };
                    let cs: Vec<u64> = coords[..ncoords as usize].iter().map(|&c| r!(c, l)).collect();
                    match t.fetch(geom, &cs, int_coords, float_out) {
                        Ok(v) => {
                            for (d, x) in dst.iter().zip(v) {
                                r!(*d, l) = x as u64;
                            }
                        }
                        Err(e) => return fault(e, l as u32),
                    }
                }
            }
            Inst::Fence => {}
        }
        if let Some((_, _, dsts)) = &parts {
            for Guest { lane: l, pc: gpc, dsts: gdsts, saved } in guests {
                let vals: Vec<u64> = dsts.iter().map(|&d| w.regs[d as usize * 32 + l]).collect();
                for (r, v) in saved {
                    w.regs[r as usize * 32 + l] = v;
                }
                for (&g, v) in gdsts.iter().zip(vals) {
                    w.regs[g as usize * 32 + l] = v;
                }
                w.active &= !(1 << l);
                w.pc[l] = gpc + 1;
            }
        }
        w.cur = next;
        Ok(())
    }

    /// After a jump of all active lanes to `target`: keep running them together unless
    /// other running lanes are behind (then reschedule).
    fn continue_at(w: &mut Warp, target: u32) {
        let active = w.active;
        let behind = (0..32).any(|l| active & (1 << l) == 0 && w.st[l] == St::Run && w.pc[l] <= target);
        if behind {
            w.active = 0;
        } else {
            w.cur = target;
        }
    }

    /// Lanes named in a `.sync` instruction's member mask must run here together (exited
    /// and absent lanes do not count).
    fn check_converged(&self, w: &Warp, mask: u32, what: &str) -> Result<(), Fault> {
        let elsewhere = (0..32)
            .filter(|&l| matches!(w.st[l], St::Run | St::Bar | St::WarpBar | St::SyncWait | St::NamedBar))
            .fold(0u32, |m, l| m | 1 << l)
            & !w.active;
        let bad = mask & elsewhere;
        if bad != 0 {
            let lanes: Vec<u32> = (0..32).filter(|l| bad & (1 << l) != 0).collect();
            return Err(Fault {
                msg: format!("{what} with member mask {mask:#010x}: lanes {lanes:?} are not converged with the calling lanes"),
                lane: Some(w.active.trailing_zeros().min(31)),
            });
        }
        Ok(())
    }
}

/// A lane that runs a collective at another copy of it: its lane, the copy's pc and
/// destinations, and the values of the running copy's registers it borrows.
struct Guest {
    lane: usize,
    pc: u32,
    dsts: Vec<Reg>,
    saved: Vec<(Reg, u64)>,
}

/// A collective's operation (the instruction with its registers zeroed: two copies of one
/// collective compare equal), its source registers (the member mask last) and its
/// destinations.
fn collective_parts(inst: &Inst) -> Option<(Inst, Vec<Reg>, Vec<Reg>)> {
    Some(match *inst {
        Inst::Shfl { mode, dst, pred_dst, val, lane, clamp, mask } => (
            Inst::Shfl { mode, dst: 0, pred_dst: pred_dst.map(|_| 0), val: 0, lane: 0, clamp: 0, mask: 0 },
            vec![val, lane, clamp, mask],
            [Some(dst), pred_dst].into_iter().flatten().collect(),
        ),
        Inst::Vote { mode, dst, pred, neg, mask } => (Inst::Vote { mode, dst: 0, pred: 0, neg, mask: 0 }, vec![pred, mask], vec![dst]),
        Inst::Match { all, ty, dst, pred, val, mask } => (
            Inst::Match { all, ty, dst: 0, pred: pred.map(|_| 0), val: 0, mask: 0 },
            vec![val, mask],
            [Some(dst), pred].into_iter().flatten().collect(),
        ),
        Inst::Redux { op, dst, val, mask } => (Inst::Redux { op, dst: 0, val: 0, mask: 0 }, vec![val, mask], vec![dst]),
        _ => return None,
    })
}

/// Integer binary operations; `Err` for division by zero.
pub fn ibin(op: BinOp, ty: Ty, a: u64, b: u64) -> Result<u64, String> {
    let m = ty.mask();
    let bits = ty.bits();
    let (amt, a, b) = (b, a & m, b & m);
    let (sa, sb) = (ty.sext(a), ty.sext(b));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::MulHiS => ((sa as i128 * sb as i128) >> bits) as u64,
        BinOp::MulHiU => ((a as u128 * b as u128) >> bits) as u64,
        BinOp::Mul24S => {
            let x = (a << 40) as i64 >> 40;
            let y = (b << 40) as i64 >> 40;
            x.wrapping_mul(y) as u64
        }
        BinOp::Mul24U => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff),
        BinOp::Mul24HiS => {
            let x = (a << 40) as i64 >> 40;
            let y = (b << 40) as i64 >> 40;
            (x.wrapping_mul(y) >> 16) as u64
        }
        BinOp::Mul24HiU => ((a & 0xff_ffff) * (b & 0xff_ffff)) >> 16,
        BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem if b == 0 => return Err("integer division by zero".into()),
        BinOp::PtxDiv { .. } if b == 0 => u64::MAX,
        BinOp::PtxRem { .. } if b == 0 => a,
        BinOp::PtxDiv { signed: true } => sa.wrapping_div(sb) as u64,
        BinOp::PtxDiv { signed: false } => a / b,
        BinOp::PtxRem { signed: true } => sa.wrapping_rem(sb) as u64,
        BinOp::PtxRem { signed: false } => a % b,
        BinOp::SDiv => sa.wrapping_div(sb) as u64,
        BinOp::UDiv => a / b,
        BinOp::SRem => sa.wrapping_rem(sb) as u64,
        BinOp::URem => a % b,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if amt >= bits as u64 {
                0
            } else {
                a << amt
            }
        }
        BinOp::LShr => {
            if amt >= bits as u64 {
                0
            } else {
                a >> amt
            }
        }
        BinOp::AShr => (sa >> amt.min(63)) as u64,
        BinOp::SMin => sa.min(sb) as u64,
        BinOp::SMax => sa.max(sb) as u64,
        BinOp::UMin => a.min(b),
        BinOp::UMax => a.max(b),
        _ => return Err(format!("internal: {op:?} on an integer type")),
    };
    Ok(r & m)
}

pub fn iun(op: UnOp, ty: Ty, a: u64) -> u64 {
    let m = ty.mask();
    let a = a & m;
    let bits = ty.bits();
    let r = match op {
        UnOp::Neg => a.wrapping_neg(),
        UnOp::Not => !a,
        UnOp::Abs => ty.sext(a).unsigned_abs(),
        UnOp::Popc => a.count_ones() as u64,
        UnOp::Clz => (a.leading_zeros() - (64 - bits)) as u64,
        UnOp::Brev => a.reverse_bits() >> (64 - bits),
        UnOp::Bfind { signed, shiftamt } => {
            // A negative signed value: look for its most significant 0 instead.
            let v = if signed && ty.sext(a) < 0 { !a & m } else { a };
            if v == 0 {
                0xffff_ffff
            } else {
                let pos = 63 - v.leading_zeros() as u64;
                if shiftamt {
                    bits as u64 - 1 - pos
                } else {
                    pos
                }
            }
        }
        _ => 0,
    };
    r & if matches!(op, UnOp::Popc | UnOp::Clz | UnOp::Bfind { .. }) { u64::MAX } else { m }
}

pub fn icmp(c: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    let m = ty.mask();
    let (a, b) = (a & m, b & m);
    let (sa, sb) = (ty.sext(a), ty.sext(b));
    match c {
        Cmp::Eq | Cmp::FOeq | Cmp::FUeq => a == b,
        Cmp::Ne | Cmp::FOne | Cmp::FUne => a != b,
        Cmp::SLt => sa < sb,
        Cmp::SLe => sa <= sb,
        Cmp::SGt => sa > sb,
        Cmp::SGe => sa >= sb,
        Cmp::ULt => a < b,
        Cmp::ULe => a <= b,
        Cmp::UGt => a > b,
        Cmp::UGe => a >= b,
        _ => false,
    }
}

/// PTX's `fns.b32 d, mask, base, offset`, as the ISA defines it.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if offset == 0 {
        return if base < 32 && mask >> base & 1 != 0 { base } else { u32::MAX };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base as i64;
    let step = if offset > 0 { 1 } else { -1 };
    while (0..32).contains(&pos) {
        if mask >> pos & 1 != 0 {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += step;
    }
    u32::MAX
}
