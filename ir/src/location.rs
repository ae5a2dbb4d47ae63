//! Source locations attached to operations and block arguments.
//!
//! Locations follow MLIR's builtin location attributes and print in its syntax:
//! `loc("k.cu":3:5 to 3:9)`, `loc("name"(child))`, `loc(fused[a, b])`,
//! `loc(callsite(callee at caller))`, `loc(unknown)`. A file location may also carry the byte
//! span it came from: the frontend and the IR parser fill it in so diagnostics can point at the
//! exact bytes; it is not printed (MLIR has no syntax for it), so it does not affect
//! round-tripping.

crate::arena::id_type!(
    /// An interned location, or (top bit set) a byte offset into the context's offset file
    /// (see [`crate::Context::set_offset_file`]): the parser gives every op such a location,
    /// which costs no interning and no memory beyond the id.
    LocId,
    "loc"
);

const OFFSET_BIT: u32 = 1 << 31;

impl LocId {
    /// A location at byte `off` of the context's offset file (`None` if `off` does not fit).
    pub fn offset(off: u32) -> Option<LocId> {
        (off < OFFSET_BIT).then_some(LocId(off | OFFSET_BIT))
    }
    /// The byte offset, if this is an offset location.
    pub fn offset_value(self) -> Option<u32> {
        (self.0 & OFFSET_BIT != 0).then_some(self.0 & !OFFSET_BIT)
    }
}

use crate::{attrs::AttrId, symbol::Symbol};

/// A line/column position (1-based, as MLIR prints them).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// The structure of a location.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Location {
    Unknown,
    File {
        file: Symbol,
        start: LineCol,
        /// End of a range (`to L:C`), if any.
        end: Option<LineCol>,
        /// Byte range in the file (not printed).
        bytes: Option<(u32, u32)>,
    },
    Name {
        name: Symbol,
        child: Option<LocId>,
    },
    Fused {
        locs: Vec<LocId>,
        metadata: Option<AttrId>,
    },
    CallSite {
        callee: LocId,
        caller: LocId,
    },
}
