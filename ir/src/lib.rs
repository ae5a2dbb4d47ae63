//! cuprite's core IR, in the style of MLIR: a [`Context`] of operations, blocks, regions
//! and values in index-typed arenas; interned types, attributes and locations; a registry of
//! op traits and interfaces; the textual IR (generic and custom forms); the verifier;
//! rewriting (a [`rewrite::Rewriter`], patterns, greedy/walk/conversion drivers); the pass
//! manager; and generic passes (canonicalize, cse, dce, symbol-dce, inline).
//!
//! This crate knows nothing about CUDA, PTX, salsa, egg or LSP (DESIGN.md, invariant 1).

pub mod arena;
pub mod attrs;
pub mod clone;
pub mod context;
pub mod diag;
pub mod dominance;
pub mod fingerprint;
pub mod location;
pub mod ods;
pub mod parse;
pub mod pass;
pub mod print;
pub mod registry;
pub mod rewrite;
pub mod symbol;
pub mod transforms;
pub mod types;
pub mod verify;
pub mod walk;

pub use attrs::{AttrId, AttrKind, NamedAttr};
pub use context::{BlockId, Context, InsertPoint, OpId, OperationState, RegionId, UseId, ValueDef, ValueId};
pub use diag::{Diagnostic, Severity, SourceMap, Span};
pub use location::{LineCol, LocId, Location};
pub use registry::{DialectInfo, FoldOutcome, FoldResult, OpInfo, Registry, Traits};
pub use symbol::Symbol;
pub use types::{FloatKind, Signedness, TypeId, TypeKind};
