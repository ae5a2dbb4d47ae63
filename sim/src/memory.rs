//! Memory: global buffers, per-block shared, per-thread local, the constant bank and
//! the kernel's parameter space, with exact byte layout (little-endian, as on the GPU).
//!
//! Addresses are 64-bit. A state-space address (what `ld.shared`, `ld.local`,
//! `ld.const`, `ld.param` take) is an offset into that space; a generic address is the
//! offset plus the space's window base below, so `cvta` adds or subtracts the base.
//! Global addresses are the same in both forms: buffers live at [`GLOBAL_BASE`] and up,
//! 256-byte aligned with a 256-byte gap after each, so that an access just past the end of
//! one buffer hits no buffer and is reported.
//!
//! Every access is checked: it must fall inside one buffer (or inside the block's shared
//! memory, the thread's local memory, the constant bank, the parameters) and be aligned to
//! its size (or to the vector's size). Reads of shared or local bytes that were never
//! written are recorded as warnings (like compute-sanitizer's initcheck).

use crate::code::Space;

pub const SHARED_BASE: u64 = 0x0000_1000_0000_0000;
pub const LOCAL_BASE: u64 = 0x0000_2000_0000_0000;
pub const CONST_BASE: u64 = 0x0000_3000_0000_0000;
pub const PARAM_BASE: u64 = 0x0000_4000_0000_0000;
pub const WINDOW: u64 = 0x0000_1000_0000_0000;
/// Functions' addresses (as values: vtable entries, indirect call targets); no memory.
pub const FUNC_BASE: u64 = 0x0000_5000_0000_0000;
pub const GLOBAL_BASE: u64 = 0x0000_7f00_0000_0000;

/// A global buffer.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub name: String,
    pub base: u64,
    pub data: Vec<u8>,
    pub read_only: bool,
}

/// The device's global memory: buffers sorted by base address.
#[derive(Clone, Debug, Default)]
pub struct Global {
    pub buffers: Vec<Buffer>,
    next: u64,
    /// Index of the buffer the last access hit (most accesses repeat it).
    last: usize,
}

/// The name of a block `malloc` allocated on the device heap.
pub const HEAP_BLOCK: &str = "<device heap block>";

impl Global {
    /// Frees heap block `base` (made by device `malloc`).
    pub fn free(&mut self, base: u64) -> Result<(), String> {
        match self.buffers.iter().position(|b| b.base == base && b.name == HEAP_BLOCK) {
            Some(i) => {
                self.buffers.remove(i);
                self.last = 0;
                Ok(())
            }
            None => Err(format!("free({base:#x}): not a block device malloc returned (or freed twice)")),
        }
    }

    /// Allocates `bytes` (zeroed) named `name`; returns its address.
    pub fn alloc(&mut self, name: &str, bytes: usize, align: u64) -> u64 {
        if self.next == 0 {
            self.next = GLOBAL_BASE;
        }
        let align = align.max(256);
        let base = self.next.div_ceil(align) * align;
        self.next = base + (bytes as u64).max(1) + 256;
        self.buffers.push(Buffer { name: name.to_string(), base, data: vec![0; bytes], read_only: false });
        base
    }

    pub fn buffer(&self, base: u64) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.base == base)
    }

    /// The buffer holding [addr, addr+size) and the offset in it.
    fn find(&mut self, addr: u64, size: u64) -> Result<(usize, usize), String> {
        // Checked: a wild address near 2^64 plus the access size must not wrap.
        let hit = |b: &Buffer| addr >= b.base && addr.checked_add(size).is_some_and(|e| e <= b.base + b.data.len() as u64);
        if let Some(b) = self.buffers.get(self.last) {
            if hit(b) {
                return Ok((self.last, (addr - b.base) as usize));
            }
        }
        let i = self.buffers.partition_point(|b| b.base <= addr);
        if i > 0 && hit(&self.buffers[i - 1]) {
            self.last = i - 1;
            return Ok((i - 1, (addr - self.buffers[i - 1].base) as usize));
        }
        Err(match i.checked_sub(1).map(|j| &self.buffers[j]) {
            Some(b) if addr < b.base + b.data.len() as u64 + 4096 => {
                let end = b.base + b.data.len() as u64;
                if addr >= end {
                    format!(
                        "{} bytes past the end of buffer '{}' ({} bytes at {:#x})",
                        addr.saturating_add(size) - end,
                        b.name,
                        b.data.len(),
                        b.base
                    )
                } else {
                    format!("straddling the end of buffer '{}' ({} bytes at {:#x})", b.name, b.data.len(), b.base)
                }
            }
            _ if addr == 0 || addr < 4096 => "a null pointer".to_string(),
            _ => "no allocation".to_string(),
        })
    }
}

/// Where a checked access goes.
pub enum Target {
    Global(usize, usize),
    Shared(usize),
    Local(usize),
    Const(usize),
    Param(usize),
}

/// Resolves `addr` in `space` for an access of `size` bytes aligned to `align`.
/// `shared_len`, `local_len`, `const_len`, `param_len` bound the per-block, per-thread and
/// module spaces.
pub fn resolve(global: &mut Global, space: Space, addr: u64, size: u64, align: u64, lens: [u64; 4], write: bool) -> Result<Target, String> {
    let what = if write { "write" } else { "read" };
    if align > 1 && !addr.is_multiple_of(align) {
        return Err(format!("misaligned {} {what} of {size} bytes at {addr:#x} (needs {align}-byte alignment)", space.name()));
    }
    let (space, off) = match space {
        Space::Generic => match addr {
            a if (SHARED_BASE..SHARED_BASE + WINDOW).contains(&a) => (Space::Shared, a - SHARED_BASE),
            a if (LOCAL_BASE..LOCAL_BASE + WINDOW).contains(&a) => (Space::Local, a - LOCAL_BASE),
            a if (CONST_BASE..CONST_BASE + WINDOW).contains(&a) => (Space::Const, a - CONST_BASE),
            a if (PARAM_BASE..PARAM_BASE + WINDOW).contains(&a) => (Space::Param, a - PARAM_BASE),
            a => (Space::Global, a),
        },
        // `ld.param` also reads a `.func`'s parameters, which live in the thread's frame.
        Space::Param if (LOCAL_BASE..LOCAL_BASE + WINDOW).contains(&addr) => (Space::Local, addr - LOCAL_BASE),
        Space::Param if (PARAM_BASE..PARAM_BASE + WINDOW).contains(&addr) => (Space::Param, addr - PARAM_BASE),
        s => (s, addr),
    };
    let bound = |len: u64, name: &str| -> Result<usize, String> {
        if off.checked_add(size).is_some_and(|e| e <= len) {
            Ok(off as usize)
        } else {
            Err(format!("out-of-bounds {name} {what} of {size} bytes at offset {off} ({name} memory is {len} bytes)"))
        }
    };
    match space {
        Space::Global | Space::Generic => match global.find(off, size) {
            Ok((b, o)) => {
                if write && global.buffers[b].read_only {
                    return Err(format!("write to read-only buffer '{}'", global.buffers[b].name));
                }
                Ok(Target::Global(b, o))
            }
            Err(why) => Err(format!("out-of-bounds global {what} of {size} bytes at {off:#x}: {why}")),
        },
        Space::Shared => bound(lens[0], "shared").map(Target::Shared),
        Space::Local => bound(lens[1], "local").map(Target::Local),
        Space::Const => {
            if write {
                return Err(format!("write to constant memory at offset {off}"));
            }
            bound(lens[2], "constant").map(Target::Const)
        }
        Space::Param => {
            if write {
                return Err(format!("write to kernel parameter space at offset {off}"));
            }
            bound(lens[3], "param").map(Target::Param)
        }
    }
}

pub fn read_le(b: &[u8]) -> u64 {
    let mut v = 0u64;
    for (i, &x) in b.iter().enumerate() {
        v |= (x as u64) << (8 * i);
    }
    v
}

pub fn write_le(b: &mut [u8], v: u64) {
    for (i, x) in b.iter_mut().enumerate() {
        *x = (v >> (8 * i)) as u8;
    }
}
