//! The dialect registry: what the IR core knows about each registered op and dialect.
//!
//! An op name maps to an [`OpInfo`]: trait flags plus plain function pointers for the
//! verifier, folder, canonicalization patterns, custom assembly form and interfaces. There
//! is no trait object per op instance and no dynamic cast in hot loops: an op stores the
//! index of its `OpInfo` when it is created. The registry is built once, then shared
//! read-only (`Arc<Registry>`) by every [`crate::Context`]; layers above the core (the
//! simulator, the e-graph bridge) keep their own tables keyed by op name.

use crate::{
    attrs::AttrId,
    context::{Context, OpId, RegionId},
    location::LocId,
    parse::OpParser,
    print::OpPrinter,
    rewrite::PatternSet,
    symbol::Symbol,
    types::TypeId,
};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// Op trait flags, queried by passes without knowing the dialect.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Traits(pub u32);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// Ends a block; may have successors.
    pub const TERMINATOR: Traits = Traits(1 << 0);
    /// Regions cannot use values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 1);
    /// No memory effects, no undefined behaviour: removable when unused, speculatable.
    pub const PURE: Traits = Traits(1 << 2);
    /// The first two operands can be swapped.
    pub const COMMUTATIVE: Traits = Traits(1 << 3);
    /// All operands and results have one type.
    pub const SAME_OPERANDS_AND_RESULT_TYPE: Traits = Traits(1 << 4);
    /// Produces a constant from its attributes (folds to its `value` attribute).
    pub const CONSTANT_LIKE: Traits = Traits(1 << 5);
    /// Defines a symbol (`sym_name` attribute).
    pub const SYMBOL: Traits = Traits(1 << 6);
    /// Its region holds a symbol table.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 7);
    /// Blocks of its regions need no terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 8);
    /// Returns control to the parent op (func.return, scf.yield).
    pub const RETURN_LIKE: Traits = Traits(1 << 9);
    /// Each region has at most one block.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 10);
    /// Its regions are graph regions: no dominance, no terminators needed.
    pub const GRAPH_REGION: Traits = Traits(1 << 11);
    /// Memory effects are those of the ops nested in its regions.
    pub const RECURSIVE_MEMORY_EFFECTS: Traits = Traits(1 << 12);
    /// Operands and results are all the same shape (scalar ops: always true).
    pub const ELEMENTWISE: Traits = Traits(1 << 13);

    /// Whether all flags of `other` are set.
    pub fn contains(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, rhs: Traits) -> Traits {
        Traits(self.0 | rhs.0)
    }
}

/// What an op does to memory (the memory-effects interface).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EffectKind {
    Read,
    Write,
    Allocate,
    Free,
}

/// One memory effect; `on` is the operand index of the affected pointer, if known.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MemoryEffect {
    pub kind: EffectKind,
    pub on: Option<u32>,
}

/// Where control can go from a point of a region-holding op (region-branch interface):
/// `Some(i)` is region `i` of the op, `None` is the op's parent (after the op).
pub type RegionSuccessor = Option<usize>;

/// The result of folding an op.
#[derive(Clone, Debug, PartialEq)]
pub enum FoldResult {
    /// A constant: the driver materializes it with the dialect's constant hook.
    Attr(AttrId),
    /// An existing value.
    Value(crate::context::ValueId),
}

/// What a folder did.
#[derive(Clone, Debug, PartialEq)]
pub enum FoldOutcome {
    /// Nothing.
    None,
    /// Updated the op in place (e.g. swapped operands).
    InPlace,
    /// Replace each result with this (inline for one or two results: folding allocates
    /// nothing).
    Replace(smallvec::SmallVec<[FoldResult; 2]>),
}

pub type VerifyFn = fn(&Context, OpId) -> Result<(), String>;
pub type FoldFn = fn(&mut Context, OpId, &[Option<AttrId>]) -> FoldOutcome;
pub type PrintFn = fn(&mut OpPrinter<'_, '_>, OpId) -> std::fmt::Result;
pub type ParseFn = fn(&mut OpParser<'_, '_>, &mut crate::context::OperationState) -> Result<(), crate::diag::Diagnostic>;
pub type EffectsFn = fn(&Context, OpId, &mut Vec<MemoryEffect>);
pub type SuccessorOperandsFn = fn(&Context, OpId, usize) -> Range<usize>;
pub type RegionSuccessorsFn = fn(&Context, OpId, Option<usize>) -> Vec<RegionSuccessor>;
pub type MaterializeConstantFn = fn(&mut Context, AttrId, TypeId, LocId) -> Option<OpId>;

/// Everything the core knows about one registered op.
#[derive(Clone, Default)]
pub struct OpInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub traits: Traits,
    /// Op-specific verifier; the message is attached to the op's location.
    pub verify: Option<VerifyFn>,
    pub fold: Option<FoldFn>,
    /// Adds the op's canonicalization patterns.
    pub canonicalize: Option<fn(&mut PatternSet)>,
    /// Memory-effects interface; `None` on an op that is not `PURE` means "unknown effects".
    pub memory_effects: Option<EffectsFn>,
    /// Branch interface: the operand range forwarded to successor `i`.
    pub successor_operands: Option<SuccessorOperandsFn>,
    /// Region-branch interface: successors of the op itself (`None`) or of region `i`'s end.
    pub region_successors: Option<RegionSuccessorsFn>,
    /// Call interface: the callee symbol.
    pub callee: Option<fn(&Context, OpId) -> Option<Symbol>>,
    /// Callable interface: the body region.
    pub callable_region: Option<fn(&Context, OpId) -> Option<RegionId>>,
    /// The printer's names for the op's results, in order (MLIR's `getAsmResultNames`:
    /// `%c0_i32` for `arith.constant 0 : i32`, `%sum, %overflow` for
    /// `arith.addui_extended`); results past the last name share it (`%name#1`); none: the
    /// results are numbered.
    pub result_names: Option<fn(&Context, OpId) -> Vec<String>>,
    /// Custom assembly form.
    pub print: Option<PrintFn>,
    /// Whether `print` can print this op: an op whose operands, results, regions or
    /// successors do not have the shape its custom form assumes (IR that does not verify)
    /// is printed in generic form instead, as MLIR does.
    pub print_guard: Option<fn(&Context, OpId) -> bool>,
    pub parse: Option<ParseFn>,
    /// Ops in this op's regions may leave out this dialect prefix in custom forms (MLIR's
    /// `OpAsmOpInterface::getDefaultDialect`).
    pub default_dialect: Option<&'static str>,
    /// The op's declaration (operands, results, inherent attributes, ...), for ops
    /// generated from ODS.
    pub spec: Option<&'static crate::ods::OpSpec>,
}

impl OpInfo {
    /// Whether `name` is one of the op's inherent attributes (a property): attributes the
    /// declaration lists, and `operandSegmentSizes` of ops with segmented operands.
    pub fn is_inherent(&self, name: &str) -> bool {
        self.spec.is_some_and(|s| s.attrs.iter().any(|a| a.name == name) || (s.segmented_operands && name == "operandSegmentSizes"))
    }
}

impl OpInfo {
    /// An op with no traits and no hooks.
    pub fn new(name: &'static str) -> Self {
        Self { name, ..Default::default() }
    }
    /// Sets the trait flags.
    pub fn traits(mut self, t: Traits) -> Self {
        self.traits = t;
        self
    }
}

/// Hooks of a dialect as a whole.
#[derive(Clone, Default)]
pub struct DialectInfo {
    pub name: &'static str,
    /// Builds a constant op of type `ty` holding `attr` (used by folding drivers).
    pub materialize_constant: Option<MaterializeConstantFn>,
    /// A dialect type in MLIR's parameter syntax (`.ptr<f32, "global">`), from its canonical
    /// body (the text after `!dialect`, from the `.`): what `irdl_compatible` printing writes,
    /// as mlir-opt reads it with the dialect loaded from IRDL (`irdl.type`s).
    pub type_to_params: Option<fn(&str) -> String>,
    /// The canonical body of a type as written (in either spelling), or why it is not one of
    /// the dialect's types: the parser keeps the first and reports the second at the type.
    pub canonical_type: Option<CanonicalTypeFn>,
    /// Verifies a discardable attribute named after the dialect (`cuda.kernel` on a
    /// `func.func`): MLIR's `Dialect::verifyOperationAttribute`.
    pub verify_attribute: Option<VerifyAttributeFn>,
}

/// A dialect type's body as written to its canonical body, or why it is not one.
pub type CanonicalTypeFn = fn(&str) -> Result<String, String>;

/// `(ctx, op, attribute name, value)`; the message is attached to the op's location.
pub type VerifyAttributeFn = fn(&Context, OpId, &str, AttrId) -> Result<(), String>;

/// The read-only table of dialects and ops.
#[derive(Clone, Default)]
pub struct Registry {
    dialects: Vec<DialectInfo>,
    ops: Vec<OpInfo>,
    by_name: FxHashMap<&'static str, u32>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a dialect and its ops. Re-registering a name replaces it.
    pub fn register(&mut self, dialect: DialectInfo, ops: Vec<OpInfo>) {
        if let Some(d) = self.dialects.iter_mut().find(|d| d.name == dialect.name) {
            *d = dialect;
        } else {
            self.dialects.push(dialect);
        }
        for op in ops {
            if let Some(&i) = self.by_name.get(op.name) {
                self.ops[i as usize] = op;
            } else {
                self.by_name.insert(op.name, self.ops.len() as u32);
                self.ops.push(op);
            }
        }
    }

    /// The index of op `name`.
    pub fn lookup(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// The op at `index`.
    pub fn op(&self, index: u32) -> &OpInfo {
        &self.ops[index as usize]
    }

    /// All registered ops.
    pub fn ops(&self) -> &[OpInfo] {
        &self.ops
    }

    /// The dialect called `name`.
    pub fn dialect(&self, name: &str) -> Option<&DialectInfo> {
        self.dialects.iter().find(|d| d.name == name)
    }

    /// Whether a dialect called `name` is registered.
    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialect(name).is_some()
    }
}
