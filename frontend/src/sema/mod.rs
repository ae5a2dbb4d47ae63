//! Semantic analysis and emission of the `cuda` dialect and the standard `arith` dialect
//! beside it, in one pass over the syntax tree.
//!
//! # Design
//!
//! Sema checks and emits at once (as clang's CodeGen would on a typed tree, without
//! building the typed tree): each expression is analysed into a `Value` (`expr`) that is either
//! an SSA value or an address (an lvalue), with its C++ type; every conversion the C++
//! rules imply is emitted explicitly (an `arith` cast between arithmetic types, a
//! `cuda.cast` where a pointer is involved). IR types are signless: the C type picks the
//! signed or unsigned `arith` op (module `arith`).
//!
//! 1. **Declarations** (`decl`), one top-level declaration at a time ([`Sema::top_decl`]),
//!    in source order: each is entered into its namespace scope (functions with their
//!    signatures, records with their layouts, enums, typedefs, globals, templates), then the
//!    kernels and device functions it defines in the user's files are emitted at once. A
//!    body sees what is declared above it, as in C++ (a function called before its
//!    definition needs a prototype); this is what lets sema run while the parser is still
//!    parsing ([`crate::parse_and_lower`]).
//! 2. **Functions** a body needs and that are not emitted yet (built-in header functions,
//!    template instances, functions defined further down) wait on a worklist, emitted each
//!    once after the last declaration. A function template is instantiated when a call
//!    deduces its arguments or names them; a class template when its type is named. Errors
//!    inside an instance carry "in instantiation of template" notes. A call of a function
//!    that never gets a body is an error, reported then.
//!
//!    The module lists the globals first (in declaration order), then the functions in the
//!    order they were emitted.
//! 3. **Bodies** (`stmt`, `expr`): local variables are `cuda.var`s (per thread, or per
//!    block for `__shared__`), read and written by `cuda.load`/`cuda.store`; control flow
//!    is structured (`cuda.if`, `cuda.loop`, `cuda.switch`) with `cuda.break`,
//!    `cuda.continue` and `cuda.return` as region terminators; `&&`, `||` and `?:` are
//!    `cuda.if`s with results.
//! 4. **Built-ins**: functions declared without a body in cuprite's built-in headers are
//!    the compiler's: the GPU operations among them (barriers, atomics, shuffles, votes,
//!    fences) become their ops (`builtins`), the rest (math library, integer intrinsics)
//!    `cuda.intrinsic` calls by name (or the name an `intrinsic("...")` attribute gives).
//!    `threadIdx`, `blockIdx`, `blockDim`, `gridDim` and `warpSize` are declared in
//!    `cuda_runtime.h` and read as `cuda.special`.
//!
//! 5. **Host code** is read, never compiled: a host function's body is emitted like any
//!    other (a kernel launch `k<<<g, b>>>(args)` resolves the kernel as a call does, with
//!    template arguments deduced from the arguments; a kernel template named with its
//!    arguments, `&k<int>`, is instantiated), then its op is erased, so the kernel
//!    instances host code names are emitted as nvcc emits them. Errors in host code, and
//!    in host-only declarations (`Sema::declare_tolerant`), are demoted to
//!    [`crate::Severity::Host`]; an outermost host expression that fails is searched for
//!    the launches and calls inside it, each analysed on its own.
//!
//! **Classes** lay out their base classes first, as subobjects (`Field::is_base`; an empty
//! base takes no space), and their namespace *uses* the bases' namespaces, so that member
//! lookup finds inherited members; `this` for an inherited member function, a derived-to-base
//! pointer or reference conversion and slicing all go through `Sema::base_path`. A class
//! template's instance comes from an explicit specialization for exactly its arguments,
//! else from the one matching partial specialization (the most specialized by how much of
//! its pattern is fixed), else from the primary template. A class whose declaration had an
//! error (a member or base dropped, a virtual function) is `broken`: host code may name it,
//! device code may not, since its layout is not the program's.
//!
//! Names of kernels and device functions are mangled as nvcc mangles them (Itanium C++
//! ABI, `mangle`) unless declared `extern "C"`.
//!
//! One [`Context`] holds the translation unit's module (DESIGN.md's per-function contexts
//! are the incremental driver's concern: it can split the module by function).
//!
//! Recursion over expressions and statements is bounded by the parser's nesting limit
//! (256); the driver runs the frontend on a thread with a large enough stack.

mod arith;
pub mod bodies;
mod builtins;
mod call;
mod decl;
mod expr;
mod extern_calls;
mod goto;
mod heap;
mod lambda;
mod mangle;
mod packs;
mod stmt;
mod templates;
pub mod ty;
mod virtuals;

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::intern::{Atom, Interner, Names};
use crate::source::{FileInfo, FileKind, SourceMap, Span};
use cuprite_dialects::cuda::types::AddrSpace;
use cuprite_ir::{AttrId, BlockId, Context, InsertPoint, LocId, OpId, OperationState, RegionId, TypeId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use ty::{RecId, Ty, TyKind, Types};

/// A compile-time constant.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Konst {
    Int(i128),
    Float(f64),
}

/// The thread-index builtins.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BuiltinVar {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
    WarpSize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TplId(u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NsId(u32);

/// What a name denotes.
#[derive(Clone, Debug)]
pub enum Entity {
    /// A variable in memory: `addr` in `space`, holding a `ty` (for a reference, the
    /// referenced object). `konst`: its value, when it is a constant.
    Var {
        addr: ValueId,
        ty: Ty,
        space: AddrSpace,
        konst: Option<Konst>,
    },
    /// A namespace-scope variable: a `cuda.global` in device spaces, or a host variable
    /// (usable in device code only as a constant).
    Global {
        sym: String,
        ty: Ty,
        space: Option<AddrSpace>,
        konst: Option<Konst>,
        span: Span,
    },
    /// `extern __shared__ T x[];` at namespace scope: the dynamic shared memory of whichever
    /// kernel uses it (each use is that kernel's `cuda.var` with `dynamic`).
    DynShared {
        name: String,
        ty: Ty,
    },
    Builtin(BuiltinVar),
    Func(FuncId),
    Type(Ty),
    Template(TplId),
    Const(Konst, Ty),
    Namespace(NsId),
    /// A template parameter pack (`typename... Ts`: its types or values) or a function
    /// parameter pack (`Ts... args`: its parameters). A name bound to one denotes element
    /// `i` inside the `i`-th instance of a pack expansion's pattern (`Sema::pack_index`).
    Pack(Vec<Entity>),
}

/// Where a function runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exec {
    Kernel,
    Device,
    HostDevice,
    Host,
}

/// Template parameter bindings.
pub type Env = Vec<(Atom, Entity)>;

#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub name: Atom,
    /// Readable name for diagnostics (`ns::f`, `S::m`).
    pub display: String,
    pub decl: DeclId,
    pub ret: Ty,
    pub params: Vec<Ty>,
    pub param_names: Vec<Option<Atom>>,
    pub defaults: Vec<Option<ExprId>>,
    pub variadic: bool,
    pub exec: Exec,
    pub body: Option<StmtId>,
    /// Declared in one of cuprite's built-in headers.
    pub builtin_header: bool,
    pub extern_c: bool,
    /// Member function of this record (the object is an implicit first argument).
    pub record: Option<RecId>,
    pub is_const_method: bool,
    pub is_ctor: bool,
    /// Template bindings the body is analysed with.
    pub env: Vec<(Atom, Entity)>,
    /// Template arguments, for mangling and diagnostics.
    pub tpl_args: Option<Vec<TArg>>,
    /// The namespace the function was declared in (its body's enclosing scope).
    pub ns: NsId,
    pub span: Span,
    /// Its symbol, once its emission has been queued.
    pub symbol: Option<String>,
    /// The `@symbol` reference attribute of `symbol`.
    pub symbol_ref: Option<AttrId>,
    pub launch_bounds: Vec<ExprId>,
    /// `__noinline__` (`Some(false)`) or `__forceinline__` (`Some(true)`).
    pub inline: Option<bool>,
    /// Where a template instance was first needed (for "in instantiation of" notes).
    pub inst_site: Option<Span>,
    /// A function parameter pack: its name and the parameters it expanded to
    /// (`params[start..start + len]`).
    pub param_pack: Option<(Option<Atom>, usize, usize)>,
    /// Whether its `func.func` has been emitted.
    pub emitted: bool,
    /// The intrinsic a built-in declaration stands for (`intrinsic("sinf")`), if not its name.
    pub intrinsic: Option<String>,
    /// A virtual member function (declared `virtual`, or overriding one).
    pub is_virtual: bool,
    /// The virtual function this is the dispatcher of (see `virtuals`).
    pub dispatch_of: Option<FuncId>,
}

/// A template argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TArg {
    Type(Ty),
    Value(i128, Ty),
    /// The arguments of a template parameter pack.
    Pack(Vec<TArg>),
}

impl TArg {
    /// What a template parameter bound to this argument denotes.
    pub(crate) fn entity(&self) -> Entity {
        match self {
            TArg::Type(t) => Entity::Type(*t),
            TArg::Value(v, t) => Entity::Const(Konst::Int(*v), *t),
            TArg::Pack(v) => Entity::Pack(v.iter().map(TArg::entity).collect()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct TemplateInfo {
    pub params: Vec<TemplateParam>,
    pub decl: DeclId,
    pub ns: NsId,
    pub record: Option<RecId>,
    pub instances: FxHashMap<Vec<TArg>, Entity>,
    pub name: Atom,
    /// Explicit specializations (`template <> struct X<int> {...}`, `template <> float
    /// f<-1>(float)`): the declaration an instance for exactly these arguments comes from.
    pub specializations: Vec<(Vec<TArg>, DeclId)>,
    /// Partial specializations of a class template (`template <class T> struct X<T *>`):
    /// their parameters and declaration.
    pub partials: Vec<(Vec<TemplateParam>, DeclId)>,
    /// Member functions of a class template defined outside it (`template <class T> void
    /// X<T>::f() {...}`): their parameters (standing for the class's, by position) and
    /// definition, given to each instance of the primary template.
    pub out_of_line: Vec<(Vec<TemplateParam>, DeclId)>,
}

#[derive(Clone, Debug, Default)]
pub struct Namespace {
    pub name: Option<Atom>,
    pub parent: Option<NsId>,
    pub names: FxHashMap<Atom, Vec<Entity>>,
    pub usings: Vec<NsId>,
    /// The record this scope belongs to (member lookup).
    pub record: Option<RecId>,
}

/// Per-function emission state.
#[derive(Clone)]
pub(crate) struct FnState {
    pub func: FuncId,
    pub ret: Ty,
    pub block: BlockId,
    /// The current block ended with a terminator: what follows is unreachable.
    pub terminated: bool,
    pub loops: u32,
    pub switches: u32,
    /// The loops, switches and `goto` wrappers the current statement is in, innermost last.
    pub constructs: Vec<goto::Construct>,
    /// The `goto` wrappers being emitted: (first, last statement, kind).
    pub open_wrappers: Vec<(usize, usize, goto::Construct)>,
    /// Labels whose `goto`s were reported as crossing others.
    pub crossed_labels: Vec<Atom>,
    /// The object of a member function: its address and record.
    pub this: Option<(ValueId, RecId)>,
    pub exec: Exec,
}

/// Options of semantic analysis.
#[derive(Clone, Debug, Default)]
pub struct SemaOptions {
    /// `sm_XX` as a number (for diagnostics about target features).
    pub arch: u32,
}

/// Verifies the emitted IR at `roots` (the module, or some of its ops) unless `diags`
/// already has an error: IR that does not verify is a compiler bug, reported as such
/// rather than handed on.
pub fn verify_emitted(ctx: &Context, roots: impl IntoIterator<Item = OpId>, diags: &mut Vec<Diagnostic>) {
    if diags.iter().any(|d| d.severity == crate::Severity::Error) {
        return;
    }
    for root in roots {
        if let Err(errs) = cuprite_ir::verify::verify(ctx, root, None) {
            for e in errs.into_iter().take(5) {
                diags.push(Diagnostic {
                    severity: crate::Severity::Error,
                    message: format!("internal compiler error: the emitted cuda IR does not verify: {}", e.message),
                    span: None,
                    notes: Vec::new(),
                });
            }
            return;
        }
    }
}

suspendable! {
pub struct Sema<'a> {
    refs {
        pub ast: &'a Ast,
        pub names: &'a Names,
    }
    /// Atoms by spelling, for the few names sema looks up by text (operators, `uint3`):
    /// indexed from `names` when first needed, and again as new atoms arrive.
    atom_index: std::cell::RefCell<AtomIndex>,
    /// The files the declarations so far come from, by [`crate::source::FileId`].
    files: Vec<FileInfo>,
    pub diags: Vec<Diagnostic>,
    pub ctx: Context,
    pub module: OpId,
    module_block: BlockId,
    pub types: Types,
    pub namespaces: Vec<Namespace>,
    pub cur_ns: NsId,
    /// Block scopes of the function being emitted, innermost last.
    scopes: Vec<FxHashMap<Atom, Entity>>,
    /// Shared with the preamble's other copies ([`crate::cow`]).
    pub funcs: crate::cow::CowVec<FuncInfo>,
    pub templates: Vec<TemplateInfo>,
    /// Record scopes, by record.
    pub rec_ns: Vec<NsId>,
    /// Records by their declaration (class templates have one per instance).
    worklist: VecDeque<FuncId>,
    /// Functions given a body by the declaration being declared ([`Sema::top_decl`]).
    pub(crate) defined: Vec<FuncId>,
    /// Whether a top-level declaration is being declared: the globals it emits go before
    /// the first function, so that the module lists its globals first.
    declaring: bool,
    /// Device string literals emitted, by their bytes: their globals' names.
    strings: FxHashMap<Vec<u8>, String>,
    /// External functions declared (`vprintf`, `__assertfail`).
    extern_funcs: FxHashSet<String>,
    /// The module's first `func.func`.
    first_func: Option<OpId>,
    /// Calls of functions with no body yet: the callee, the caller (none outside a
    /// function), and the error to report if no body follows and the caller is compiled.
    undefined_calls: Vec<(FuncId, Option<FuncId>, Diagnostic)>,
    /// The functions each function names (calls, addresses), and those named outside any
    /// function (initializers of globals): the edges [`Sema::used_functions`] follows.
    refs: Vec<(Option<FuncId>, FuncId)>,
    /// Each lambda's class, per lambda expression and function instance.
    closures: FxHashMap<(ExprId, FuncId), RecId>,
    /// What each closure class captured (its call operators bind these names).
    closure_captures: FxHashMap<RecId, Vec<lambda::Capture>>,
    /// A closure class capturing `this`: its field and the enclosing object's record.
    closure_this: FxHashMap<RecId, lambda::ThisCapture>,
    /// Virtual functions: the dynamic classes, slot ids and dispatchers (see `virtuals`).
    pub(crate) vt: virtuals::VirtualTables,
    /// Unnamed classes and enums by their definition and the scope it was declared in (a
    /// class template instance's members are declared, and their types resolved, in the
    /// instance's scope).
    pub(crate) unnamed_types: FxHashMap<(DeclId, NsId), Ty>,
    /// The unnamed class or enum declared last, and its scope (see `name_unnamed`).
    last_unnamed: Option<(NsId, Ty)>,
    /// Member functions of unnamed classes waiting for the next declaration (see
    /// [`Sema::end_decl`]).
    unnamed_members: Vec<FuncId>,
    /// Unnamed classes and enums so far, per scope (for their mangled names).
    unnamed_count: FxHashMap<NsId, u32>,
    /// "use of undeclared identifier" errors of unqualified names (their index in `diags`,
    /// the name, the namespace of the use), checked at the end for a declaration below.
    undeclared: Vec<(usize, Atom, NsId)>,
    /// While deducing an `auto` return type: the function and its first `return`'s type.
    pub(crate) deducing: Option<(FuncId, Option<Ty>)>,
    pub(crate) fs: Option<FnState>,
    /// Inside the `i`-th instance of a pack expansion's pattern: `Some(i)`.
    pub(crate) pack_index: Option<usize>,
    /// "in instantiation of" context: (what, where).
    inst_stack: Vec<(String, Span)>,
    /// Pure kernel bodies, and those reused from an earlier compile ([`bodies`]).
    bodies: bodies::Tracker,
    file_syms: FxHashMap<u32, cuprite_ir::Symbol>,
    /// The main file: its locations are offsets (no interning per op).
    main_file: Option<crate::source::FileId>,
    /// Op and attribute names, interned once.
    /// Keyed by the static string's address and length: hashing two words, not the text
    /// (equal literals at different addresses just get separate entries for one symbol).
    syms: FxHashMap<(usize, usize), cuprite_ir::Symbol>,
    /// In front of `syms`: the last symbol found per slot of the string's address (an op
    /// name is looked up for every op; a compare beats a hash lookup).
    sym_slots: [(usize, usize, cuprite_ir::Symbol); 64],
    emitted_globals: rustc_hash::FxHashSet<String>,
    pub options: SemaOptions,
    type_depth: u32,
    /// Memoized substitution keys of the mangler ([`mangle`]).
    pub(crate) mangle_keys: std::cell::RefCell<FxHashMap<Ty, String>>,
    /// `i32` attributes of small enum values (predicates, cast kinds), by value: most ops
    /// carry one, and interning it each time was a twentieth of sema's time.
    enum_attrs: [Option<AttrId>; 64],
    /// `#arith.overflow<nsw>`, once made.
    nsw: Option<AttrId>,
    /// `"name"` attributes of local variables, by name (each local has one).
    name_attrs: FxHashMap<Box<str>, AttrId>,
    /// The call being analysed is a kernel launch (`k<<<...>>>(...)`).
    /// How deep the expression being analysed in host code is nested (see `expr`).
    host_expr_depth: u32,
    launching: bool,
}
/// Sema's state at the end of the implicit headers (see [`crate::preamble`]).
pub struct SemaState;
}

impl SemaState {
    /// Makes the functions declared so far shared by the copies of this state (the
    /// preamble's, made once and copied for every compile).
    pub fn share(&mut self) {
        self.funcs.share();
    }

    /// The options sema runs with.
    pub fn options(&self) -> &SemaOptions {
        &self.options
    }
}

/// Runs semantic analysis on `ast`, returning the `cuda` dialect module and diagnostics.
pub fn lower(ast: &Ast, interner: &Interner, sm: &SourceMap, options: SemaOptions) -> (Context, OpId, Vec<Diagnostic>) {
    let names = interner.names();
    let mut s = Sema::new(ast, &names, sm.infos_from(0), options, ast.exprs.len() + 2 * ast.stmts.len());
    for i in 0..ast.top.len() {
        s.top_decl(ast.top[i]);
    }
    s.finish()
}

#[derive(Clone, Default)]
struct AtomIndex {
    /// How many atoms of each tier are indexed.
    seen: (usize, usize),
    map: FxHashMap<std::sync::Arc<str>, Atom>,
}

impl<'a> Sema<'a> {
    /// Emits the functions still waiting (what bodies required) and verifies the module.
    pub fn finish(self) -> (Context, OpId, Vec<Diagnostic>) {
        self.finish_with(true)
    }

    /// [`Sema::finish`], or [`Sema::finish_unverified`] when not `verify`.
    pub fn finish_with(self, verify: bool) -> (Context, OpId, Vec<Diagnostic>) {
        let (ctx, module, mut diags) = self.finish_unverified();
        if verify {
            verify_emitted(&ctx, [module], &mut diags);
        }
        (ctx, module, diags)
    }

    /// [`Sema::finish`] without verifying the emitted IR: the caller verifies it (or the
    /// parts of it it has not verified before) with [`verify_emitted`].
    pub fn finish_unverified(mut self) -> (Context, OpId, Vec<Diagnostic>) {
        self.finish_worklist();
        self.warn_if_no_kernel();
        let Sema { mut ctx, module, diags, .. } = self;
        // Structured C control flow as the standard scf dialect, where nothing leaves it early.
        crate::structured::raise_to_scf(&mut ctx, module);
        cuprite_dialects::cuda::returns_to_func_return(&mut ctx, module);
        (ctx, module, diags)
    }

    /// Sema for the declarations of `ast`, whose spellings `names` gives; `files` are the
    /// files so far (the main one first among the user's), `ops` about how many ops the
    /// module will have (about one per expression plus two per statement: reserving up
    /// front keeps the arenas from growing and copying; capacity never touched costs no
    /// memory). Declarations are given one at a time ([`Sema::top_decl`]), then
    /// [`Sema::finish`].
    pub fn new(ast: &'a Ast, names: &'a Names, files: Vec<FileInfo>, options: SemaOptions, ops: usize) -> Self {
        let mut ctx = Context::new(cuprite_dialects::registry());
        ctx.reserve(ops);
        let loc = ctx.unknown_loc();
        let st = OperationState::new(&mut ctx, "builtin.module", loc);
        let mut st = st;
        let r = ctx.create_region();
        st.regions.push(r);
        let module = ctx.create_op(st);
        let module_block = ctx.create_block(&[]);
        ctx.append_block(r, module_block);
        let main_file = files.iter().position(|f| f.kind == FileKind::User).map(|i| crate::source::FileId(i as u32));
        if let Some(f) = main_file {
            let file = &files[f.0 as usize];
            // A preamble's main file has no name yet (see `Sema::resume`).
            if !file.name.is_empty() {
                let sym = ctx.sym(&file.name);
                ctx.set_offset_file(sym, file.line_starts.iter().copied().collect());
            }
        }
        Sema {
            ast,
            names,
            atom_index: Default::default(),
            files,
            diags: Vec::new(),
            ctx,
            module,
            module_block,
            types: Types::new(),
            namespaces: vec![Namespace::default()],
            cur_ns: NsId(0),
            scopes: Vec::new(),
            funcs: crate::cow::CowVec::new(),
            templates: Vec::new(),
            rec_ns: Vec::new(),
            worklist: VecDeque::new(),
            defined: Vec::new(),
            declaring: false,
            strings: FxHashMap::default(),
            extern_funcs: FxHashSet::default(),
            first_func: None,
            undefined_calls: Vec::new(),
            refs: Vec::new(),
            closures: FxHashMap::default(),
            closure_captures: FxHashMap::default(),
            closure_this: FxHashMap::default(),
            vt: Default::default(),
            unnamed_types: FxHashMap::default(),
            last_unnamed: None,
            unnamed_members: Vec::new(),
            unnamed_count: FxHashMap::default(),
            undeclared: Vec::new(),
            deducing: None,
            fs: None,
            pack_index: None,
            inst_stack: Vec::new(),
            bodies: Default::default(),
            file_syms: FxHashMap::default(),
            main_file,
            syms: FxHashMap::default(),
            sym_slots: [(0, 0, cuprite_ir::Symbol::from_index(0)); 64],
            emitted_globals: Default::default(),
            options,
            type_depth: 0,
            mangle_keys: Default::default(),
            enum_attrs: [None; 64],
            nsw: None,
            name_attrs: FxHashMap::default(),
            launching: false,
            host_expr_depth: 0,
        }
    }

    /// Goes on from the state of a sema that read the implicit headers (see
    /// [`crate::preamble`]), now that the main file is known: `files` are the files so
    /// far, the main file's in the place the preamble's unnamed one had.
    pub fn resume(ast: &'a Ast, names: &'a Names, state: SemaState, files: Vec<FileInfo>, ops: usize) -> Self {
        let mut s = Sema::from_state(ast, names, state);
        s.ctx.reserve(ops);
        s.files = files;
        if let Some(f) = s.main_file {
            let file = &s.files[f.0 as usize];
            let sym = s.ctx.sym(&file.name);
            s.ctx.reset_offset_file(sym, file.line_starts.iter().copied().collect());
        }
        s
    }

    /// Declares top-level declaration `d`, then emits the kernels and device functions it
    /// defines in the user's files (even when nothing calls them: their errors are the
    /// user's). A body sees what is declared above it, as in C++; what it calls that has no
    /// body yet, and every template instance and built-in header function it needs, waits
    /// for [`Sema::finish`].
    pub fn top_decl(&mut self, d: DeclId) {
        let outer = self.begin_decl();
        self.declare_tolerant(d);
        self.end_decl(outer);
    }

    /// Demotes the errors and warnings reported since `from` to host-code diagnostics
    /// ([`crate::Severity::Host`]).
    pub(crate) fn demote_to_host(&mut self, from: usize) {
        for d in &mut self.diags[from..] {
            if d.severity > crate::Severity::Note {
                d.severity = crate::Severity::Host;
            }
        }
    }

    /// Whether the function being emitted is host code (read for the kernels it launches
    /// and names, then dropped).
    pub(crate) fn in_host_code(&self) -> bool {
        self.fs.as_ref().is_some_and(|f| f.exec == Exec::Host)
    }

    /// Starts declaring a declaration at namespace scope (see [`Sema::top_decl`]); gives
    /// what to hand [`Sema::end_decl`]. The members of a namespace or `extern "C"` block
    /// are declarations of their own: each is declared and its functions emitted before
    /// the next (so a body sees only what is above it there too).
    pub(crate) fn begin_decl(&mut self) -> bool {
        std::mem::replace(&mut self.declaring, true)
    }

    /// Emits the kernels and device functions the declaration begun by
    /// [`Sema::begin_decl`] defined.
    pub(crate) fn end_decl(&mut self, outer: bool) {
        self.declaring = false;
        // Members of an unnamed class wait one declaration: a typedef that follows names the
        // class, and so their symbols (`typedef struct { void f(); } P;` is `P::f`).
        let waited = std::mem::take(&mut self.unnamed_members);
        let mut defined = std::mem::take(&mut self.defined);
        defined.retain(|&f| {
            let unnamed = self.funcs[f.0 as usize].record.is_some_and(|r| self.types.rec(r).name == decl::UNNAMED);
            if unnamed {
                self.unnamed_members.push(f);
            }
            !unnamed
        });
        // A top-level definition's one function may be a kernel whose body is known.
        let alone = waited.is_empty() && defined.len() == 1;
        for f in waited.into_iter().chain(defined) {
            let info = &self.funcs[f.0 as usize];
            if info.body.is_some()
                && !info.emitted
                && !info.builtin_header
                && info.tpl_args.is_none()
                && matches!(info.exec, Exec::Kernel | Exec::Device | Exec::HostDevice | Exec::Host)
            {
                self.func_symbol(f);
                if !(alone && self.emit_kernel_tracked(f)) {
                    self.emit_function(f);
                }
            }
        }
        // Functions instantiated while emitting are emitted when something requires them.
        self.defined.clear();
        self.declaring = outer;
    }

    /// A file whose kernels are all templates that nothing instantiated gives an empty PTX
    /// module: say so, per template (nvcc emits a template's instances only where code
    /// names them).
    fn warn_if_no_kernel(&mut self) {
        if self.funcs.iter().any(|f| f.exec == Exec::Kernel && f.emitted) {
            return;
        }
        for i in 0..self.templates.len() {
            let t = &self.templates[i];
            let d = self.ast.decl(t.decl);
            let DeclKind::Function { specs, name, .. } = &d.kind else { continue };
            if !specs.global || !t.instances.is_empty() || self.is_builtin_file(name.span) {
                continue;
            }
            let n = self.name_str(t.name);
            let d = Diagnostic::warning(name.span, format!("no kernel is emitted: kernel template '{n}' is never instantiated"))
                .note(
                    None,
                    format!("a template's instances are emitted where code names them: a launch '{n}<...><<<grid, block>>>(...)' in host code, '&{n}<...>', or an explicit instantiation 'template __global__ void {n}<...>(...);'"),
                );
            self.diags.push(d);
        }
    }

    /// Emits every required function not emitted yet, and what they require in turn.
    pub(crate) fn finish_worklist(&mut self) {
        if !self.unnamed_members.is_empty() {
            self.end_decl(false);
        }
        loop {
            while let Some(f) = self.worklist.pop_front() {
                if !self.funcs[f.0 as usize].emitted {
                    self.emit_function(f);
                }
            }
            // Virtual calls' dispatchers, once every class they may reach is known.
            if !self.emit_dispatchers() {
                break;
            }
        }
        // Whole-program compilation keeps only what the kernels use: a `__host__ __device__`
        // function that only host code calls may call what only the host defines.
        // A function no kernel uses is not compiled (whole-program compilation): one that
        // calls an undefined function, or such a function, is dropped instead of reported.
        let used = self.used_functions();
        let mut dropped: FxHashSet<FuncId> = FxHashSet::default();
        for (f, caller, d) in std::mem::take(&mut self.undefined_calls) {
            if self.funcs[f.0 as usize].body.is_some() {
                continue;
            }
            match caller {
                Some(c) if !used.contains(&c) => {
                    dropped.insert(c);
                }
                _ => self.diags.push(d),
            }
        }
        loop {
            let more: Vec<FuncId> = self
                .refs
                .iter()
                .filter_map(|&(from, to)| from.filter(|g| dropped.contains(&to) && !used.contains(g) && !dropped.contains(g)))
                .collect();
            if more.is_empty() {
                break;
            }
            dropped.extend(more);
        }
        let dropped: FxHashSet<AttrId> = dropped
            .into_iter()
            .map(|f| {
                let sym = self.funcs[f.0 as usize].symbol.clone().unwrap_or_default();
                self.ctx.str_attr(&sym)
            })
            .collect();
        if !dropped.is_empty() {
            self.drop_functions(&dropped);
        }
        // A name used above its declaration: say where the declaration is.
        for (i, name, ns) in std::mem::take(&mut self.undeclared) {
            let mut at = Some(ns);
            let span = loop {
                let Some(n) = at else { break None };
                let found = self.lookup_in_ns(n, name, 0).into_iter().find_map(|e| match e {
                    Entity::Func(f) => Some(self.funcs[f.0 as usize].span),
                    Entity::Global { span, .. } => Some(span),
                    Entity::Template(t) => Some(self.ast.decl(self.templates[t.0 as usize].decl).span),
                    _ => None,
                });
                if found.is_some() {
                    break found;
                }
                at = self.namespaces[n.0 as usize].parent;
            };
            // Below the use (not, say, above it but made visible by a using-directive below).
            let use_span = self.diags[i].span;
            if let Some(span) = span.filter(|d| use_span.is_some_and(|u| u.file == d.file && u.lo < d.lo)) {
                let msg = format!("'{}' is declared here, below its use: C++ needs a declaration before the use", self.name_str(name));
                self.diags[i].notes.push(crate::diag::Note { span: Some(span), message: msg });
            }
        }
    }

    // ----- diagnostics -------------------------------------------------------------------

    pub(crate) fn error(&mut self, span: Span, msg: impl Into<String>) {
        let mut d = Diagnostic::error(span, msg);
        self.add_context_notes(&mut d);
        self.diags.push(d);
    }
    pub(crate) fn warning(&mut self, span: Span, msg: impl Into<String>) {
        let mut d = Diagnostic::warning(span, msg);
        self.add_context_notes(&mut d);
        self.diags.push(d);
    }
    pub(crate) fn error_with(&mut self, mut d: Diagnostic) {
        self.add_context_notes(&mut d);
        self.diags.push(d);
    }
    pub(crate) fn add_context_notes(&self, d: &mut Diagnostic) {
        for (what, span) in self.inst_stack.iter().rev() {
            d.notes.push(crate::diag::Note { span: Some(*span), message: format!("in instantiation of {what}") });
        }
    }
    /// "use of undeclared identifier" (see `undeclared`).
    pub(crate) fn undeclared(&mut self, span: Span, n: &Name) {
        let t = self.name_text(n);
        self.error(span, format!("use of undeclared identifier '{t}'"));
        if n.parts.len() == 1 && !n.global {
            self.undeclared.push((self.diags.len() - 1, n.parts[0], self.cur_ns));
        }
    }
    pub(crate) fn unsupported(&mut self, span: Span, what: &str) {
        self.error(span, format!("{what} is not supported by cuprite yet"));
    }

    pub(crate) fn name_str(&self, a: Atom) -> &'a str {
        self.names.str(a)
    }
    /// The atom spelled `s`, if any token (or the parser) has spelled it so far.
    pub(crate) fn atom(&self, s: &str) -> Option<Atom> {
        let mut ix = self.atom_index.borrow_mut();
        let now = self.names.lens();
        if ix.seen != now {
            let AtomIndex { seen, map } = &mut *ix;
            for (text, a) in self.names.between((seen.0, now.0), (seen.1, now.1)) {
                map.entry(text.clone()).or_insert(a);
            }
            *seen = now;
        }
        ix.map.get(s).copied()
    }
    /// Files the parser has read since sema was made (or last given files).
    pub fn add_files(&mut self, files: impl IntoIterator<Item = FileInfo>) {
        self.files.extend(files);
    }
    /// How many files sema knows.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }
    pub(crate) fn is_builtin_file(&self, span: Span) -> bool {
        self.files[span.file.0 as usize].kind == FileKind::Builtin
    }

    // ----- IR building -------------------------------------------------------------------

    pub(crate) fn loc(&mut self, span: Span) -> LocId {
        if Some(span.file) == self.main_file {
            if let Some(l) = LocId::offset(span.lo) {
                return l;
            }
        }
        let f = &self.files[span.file.0 as usize];
        let sym = match self.file_syms.get(&span.file.0) {
            Some(&s) => s,
            None => {
                let s = self.ctx.sym(&f.name);
                self.file_syms.insert(span.file.0, s);
                s
            }
        };
        let (line, col) = f.line_col(span.lo);
        self.ctx.loc(cuprite_ir::Location::File {
            file: sym,
            start: cuprite_ir::LineCol { line, col },
            end: None,
            bytes: Some((span.lo, span.hi)),
        })
    }

    /// Creates op `name` at the end of the current block (or the module for globals).
    pub(crate) fn op(
        &mut self,
        name: &'static str,
        operands: &[ValueId],
        results: &[TypeId],
        props: &[(&'static str, AttrId)],
        regions: usize,
        span: Span,
    ) -> OpId {
        let loc = self.loc(span);
        let name = self.sym(name);
        // No intermediate operation state: most ops have at most one property, whose
        // dictionary the context caches.
        let prop_dict = match props {
            [] => self.ctx.empty_dict(),
            [(k, v)] => {
                let k = self.sym(k);
                self.ctx.dict1(k, *v)
            }
            _ => {
                let entries = props.iter().map(|(k, v)| (self.sym(k), *v)).collect();
                self.ctx.attr(cuprite_ir::AttrKind::Dict(entries))
            }
        };
        let regions: smallvec::SmallVec<[RegionId; 3]> = (0..regions)
            .map(|_| {
                let r = self.ctx.create_region();
                let b = self.ctx.create_block(&[]);
                self.ctx.append_block(r, b);
                r
            })
            .collect();
        let no_attrs = self.ctx.empty_dict();
        let op = self.ctx.create_op_parts(name, loc, operands, results, prop_dict, no_attrs, &regions, &[]);
        let func_sym = if self.fs.is_none() { Some(self.sym("func.func")) } else { None };
        let at = match &self.fs {
            Some(fs) => InsertPoint::end(fs.block),
            None if Some(name) == func_sym => {
                self.first_func.get_or_insert(op);
                InsertPoint::end(self.module_block)
            }
            None if self.declaring => InsertPoint { block: self.module_block, before: self.first_func },
            None => InsertPoint::end(self.module_block),
        };
        self.ctx.insert_op(op, at);
        op
    }

    fn sym(&mut self, s: &'static str) -> cuprite_ir::Symbol {
        let key = (s.as_ptr() as usize, s.len());
        let slot = (key.0 >> 3) % self.sym_slots.len();
        let (p, n, x) = self.sym_slots[slot];
        if (p, n) == key {
            return x;
        }
        let x = match self.syms.get(&key) {
            Some(&x) => x,
            None => {
                let x = self.ctx.sym(s);
                self.syms.insert(key, x);
                x
            }
        };
        self.sym_slots[slot] = (key.0, key.1, x);
        x
    }

    /// An op with one result.
    pub(crate) fn op1(
        &mut self,
        name: &'static str,
        operands: &[ValueId],
        result: TypeId,
        props: &[(&'static str, AttrId)],
        span: Span,
    ) -> ValueId {
        let op = self.op(name, operands, &[result], props, 0, span);
        self.ctx.result(op, 0)
    }

    /// The string attribute `"name"` (cached: variable names repeat from function to function).
    pub(crate) fn name_attr(&mut self, name: &str) -> AttrId {
        if let Some(&a) = self.name_attrs.get(name) {
            return a;
        }
        let a = self.ctx.str_attr(name);
        self.name_attrs.insert(name.into(), a);
        a
    }

    pub(crate) fn enum_attr(&mut self, v: i64) -> AttrId {
        let slot = usize::try_from(v).ok().filter(|&i| i < self.enum_attrs.len());
        if let Some(a) = slot.and_then(|i| self.enum_attrs[i]) {
            return a;
        }
        let t = self.ctx.i32();
        let a = self.ctx.int_attr(v as i128, t);
        if let Some(i) = slot {
            self.enum_attrs[i] = Some(a);
        }
        a
    }

    pub(crate) fn region_block(&self, op: OpId, i: usize) -> BlockId {
        let r: RegionId = self.ctx.region(op, i);
        self.ctx.entry_block(r).expect("sema creates every region with a block")
    }

    /// Runs `f` with the insertion point at the end of `block`; returns whether that
    /// block ended with a terminator.
    pub(crate) fn in_block<R>(&mut self, block: BlockId, f: impl FnOnce(&mut Self) -> R) -> (R, bool) {
        let fs = self.fs.as_mut().expect("in a function");
        let saved = (fs.block, fs.terminated);
        fs.block = block;
        fs.terminated = false;
        let r = f(self);
        let fs = self.fs.as_mut().expect("in a function");
        let term = fs.terminated;
        fs.block = saved.0;
        fs.terminated = saved.1;
        (r, term)
    }

    /// Ends the current block with `name` (a terminator) and marks it terminated.
    pub(crate) fn terminate(&mut self, name: &'static str, operands: &[ValueId], span: Span) {
        self.op(name, operands, &[], &[], 0, span);
        if let Some(fs) = self.fs.as_mut() {
            fs.terminated = true;
        }
    }

    pub(crate) fn terminated(&self) -> bool {
        self.fs.as_ref().is_some_and(|f| f.terminated)
    }

    // ----- scopes ------------------------------------------------------------------------

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(FxHashMap::default());
    }
    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }
    pub(crate) fn bind_local(&mut self, name: Atom, e: Entity) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, e);
        }
    }
    pub(crate) fn bind_ns(&mut self, ns: NsId, name: Atom, e: Entity) {
        let entry = self.namespaces[ns.0 as usize].names.entry(name).or_default();
        match e {
            Entity::Func(_) => entry.push(e),
            _ => {
                entry.clear();
                entry.push(e)
            }
        }
    }

    /// Unqualified lookup: block scopes, then the enclosing namespaces (with their
    /// `using namespace`s) from `cur_ns` outwards.
    pub(crate) fn lookup(&self, name: Atom) -> Vec<Entity> {
        for s in self.scopes.iter().rev() {
            if let Some(e) = s.get(&name) {
                // A pack, in an expansion's pattern: the element of this instance.
                if let (Entity::Pack(v), Some(i)) = (e, self.pack_index) {
                    if let Some(x) = v.get(i) {
                        return vec![x.clone()];
                    }
                }
                return vec![e.clone()];
            }
        }
        let mut ns = Some(self.cur_ns);
        while let Some(n) = ns {
            let found = self.lookup_in_ns(n, name, 0);
            if let ([Entity::Pack(v)], Some(i)) = (found.as_slice(), self.pack_index) {
                if let Some(x) = v.get(i) {
                    return vec![x.clone()];
                }
            }
            if !found.is_empty() {
                return found;
            }
            ns = self.namespaces[n.0 as usize].parent;
        }
        Vec::new()
    }

    /// Lookup in one namespace (and the namespaces it uses).
    pub(crate) fn lookup_in_ns(&self, ns: NsId, name: Atom, depth: u32) -> Vec<Entity> {
        let n = &self.namespaces[ns.0 as usize];
        if let Some(e) = n.names.get(&name) {
            if !e.is_empty() {
                return e.clone();
            }
        }
        let mut out = Vec::new();
        if depth < 8 {
            for &u in &n.usings {
                out.extend(self.lookup_in_ns(u, name, depth + 1));
            }
        }
        out
    }

    /// Looks up a possibly qualified name (without its template arguments).
    pub(crate) fn lookup_name(&mut self, name: &Name) -> Vec<Entity> {
        if name.parts.len() == 1 && !name.global {
            return self.lookup(name.parts[0]);
        }
        // A scope: a namespace or a class. A scoped enum's name is its type and, after it,
        // the namespace of its enumerators (`E::A`).
        // `X<A>::f`: part `i` names the instance of class template `X`.
        let scope_of = |this: &mut Self, found: Vec<Entity>, i: usize| {
            if let Some((_, args)) = name.scope_args.iter().find(|(j, _)| *j == i) {
                let tpl = this.template_of(&found)?;
                let args = this.template_args(args)?;
                let t = this.instantiate_record(tpl, args, name.span)?;
                return this.types.record(t).map(|r| this.rec_ns[r.0 as usize]);
            }
            found.into_iter().find_map(|e| match e {
                Entity::Namespace(n) => Some(n),
                Entity::Type(t) => this.types.record(t).map(|r| this.rec_ns[r.0 as usize]),
                _ => None,
            })
        };
        let mut ns = if name.global {
            NsId(0)
        } else {
            // The first part is found by unqualified lookup, of namespaces and types only
            // (a variable of that name does not hide them: `dir::x` beside a parameter `dir`).
            let found = self.lookup(name.parts[0]);
            match scope_of(self, found, 0) {
                Some(n) => n,
                None => {
                    let mut ns = Some(self.cur_ns);
                    let mut got = None;
                    while let (Some(n), None) = (ns, got) {
                        let found = self.lookup_in_ns(n, name.parts[0], 0);
                        got = scope_of(self, found, 0);
                        ns = self.namespaces[n.0 as usize].parent;
                    }
                    match got {
                        Some(n) => n,
                        None => return Vec::new(),
                    }
                }
            }
        };
        let first = if name.global { 0 } else { 1 };
        for i in first..name.parts.len() {
            let found = self.lookup_in_ns(ns, name.parts[i], 0);
            if i + 1 == name.parts.len() {
                return found;
            }
            ns = match scope_of(self, found, i) {
                Some(n) => n,
                None => return Vec::new(),
            };
        }
        Vec::new()
    }

    /// The class or function template that `found` names: a template, or the injected class
    /// name of a class template's instance (`X` inside `X<int>`'s members).
    pub(crate) fn template_of(&self, found: &[Entity]) -> Option<TplId> {
        found.iter().find_map(|e| match e {
            Entity::Template(t) => Some(*t),
            Entity::Type(t) => self.types.record(*t).and_then(|r| self.types.rec(r).inst_of.as_ref()).map(|(t, _)| TplId(*t)),
            _ => None,
        })
    }

    pub(crate) fn name_text(&self, name: &Name) -> String {
        let mut s = String::new();
        if name.global {
            s.push_str("::");
        }
        for (i, p) in name.parts.iter().enumerate() {
            if i > 0 {
                s.push_str("::");
            }
            s.push_str(self.name_str(*p));
        }
        s
    }

    // ----- functions ---------------------------------------------------------------------

    /// Queues function `f` for emission (once) and returns the reference to its symbol.
    pub(crate) fn require_func(&mut self, f: FuncId) -> AttrId {
        self.refs.push((self.fs.as_ref().map(|s| s.func), f));
        self.func_symbol(f)
    }

    /// [`Sema::require_func`] without naming `f` from where sema stands: a definition
    /// emitted as it is read.
    fn func_symbol(&mut self, f: FuncId) -> AttrId {
        if let Some(r) = self.funcs[f.0 as usize].symbol_ref {
            return r;
        }
        let sym = mangle::function_symbol(self, f);
        let r = self.ctx.symbol_ref(&sym);
        let info = &mut self.funcs[f.0 as usize];
        info.symbol = Some(sym);
        info.symbol_ref = Some(r);
        self.worklist.push_back(f);
        r
    }

    /// Erases the functions named `dropped` (their `sym_name`s), and the static locals of
    /// theirs that nothing else uses.
    fn drop_functions(&mut self, dropped: &FxHashSet<AttrId>) {
        let ops: Vec<OpId> = self.ctx.block_ops(self.module_block).collect();
        let mut statics = Vec::new();
        for o in ops {
            let Some(name) = self.ctx.get_attr(o, "sym_name") else { continue };
            if dropped.contains(&name) {
                if self.first_func == Some(o) {
                    self.first_func = self.ctx.next_op(o);
                }
                self.ctx.erase_op(o);
            } else if self.ctx.op_name_str(o) == "cuda.global" {
                // A function's static local: mangled `_ZZ<function>E<name>`.
                if let cuprite_ir::AttrKind::String(sym) = self.ctx.attr_kind(name) {
                    if sym.starts_with("_ZZ") {
                        let r = self.ctx.symbol_ref(&sym.clone());
                        statics.push((o, r));
                    }
                }
            }
        }
        if statics.is_empty() {
            return;
        }
        let mut used = FxHashSet::default();
        let top: Vec<OpId> = self.ctx.block_ops(self.module_block).collect();
        for t in top {
            for o in cuprite_ir::walk::collect_preorder(&self.ctx, t) {
                used.extend(self.ctx.get_attr(o, "name"));
            }
        }
        for (o, r) in statics {
            if !used.contains(&r) {
                self.ctx.erase_op(o);
            }
        }
    }

    /// The functions a kernel, or a global's initializer, reaches through the functions
    /// they name.
    fn used_functions(&self) -> FxHashSet<FuncId> {
        let mut edges: FxHashMap<FuncId, Vec<FuncId>> = FxHashMap::default();
        let mut todo: Vec<FuncId> =
            (0..self.funcs.len()).filter(|&i| self.funcs[i].exec == Exec::Kernel).map(|i| FuncId(i as u32)).collect();
        for &(from, to) in &self.refs {
            match from {
                Some(g) => edges.entry(g).or_default().push(to),
                None => todo.push(to),
            }
        }
        let mut used = FxHashSet::default();
        while let Some(f) = todo.pop() {
            if used.insert(f) {
                todo.extend(edges.get(&f).into_iter().flatten().copied());
            }
        }
        used
    }

    /// Emits function `f`. A host function is read as any other (in it, a kernel launch or
    /// a kernel template's name instantiates and requires the kernel), then dropped: its
    /// op is erased, its diagnostics demoted to host code, and the calls it made of
    /// functions that have no body are not errors (they are the host's).
    fn emit_function(&mut self, f: FuncId) {
        if self.funcs[f.0 as usize].exec != Exec::Host {
            return self.emit_function_body(f);
        }
        let (diags, undefined, undeclared) = (self.diags.len(), self.undefined_calls.len(), self.undeclared.len());
        let last = self.ctx.last_op(self.module_block);
        self.emit_function_body(f);
        self.demote_to_host(diags);
        self.undefined_calls.truncate(undefined);
        self.undeclared.truncate(undeclared);
        self.erase_func_after(last);
    }

    /// Runs `f` in namespace `ns` with only `env`'s bindings in scope (a template's
    /// parameters), then restores the scopes and namespace.
    pub(crate) fn in_env<R>(&mut self, ns: NsId, env: &[(Atom, Entity)], f: impl FnOnce(&mut Self) -> R) -> R {
        let saved_scopes = std::mem::take(&mut self.scopes);
        let saved_ns = std::mem::replace(&mut self.cur_ns, ns);
        self.push_scope();
        for (n, e) in env {
            self.bind_local(*n, e.clone());
        }
        let r = f(self);
        self.scopes = saved_scopes;
        self.cur_ns = saved_ns;
        r
    }

    /// Erases the function op emitted after module op `last` (a host function's, or a dry
    /// run's), if one was.
    fn erase_func_after(&mut self, last: Option<OpId>) {
        let fop = self.ctx.last_op(self.module_block);
        if fop != last {
            if let Some(fop) = fop {
                if self.first_func == Some(fop) {
                    // It was the only function: globals go at the end again.
                    self.first_func = None;
                }
                self.ctx.erase_op(fop);
            }
        }
    }

    /// Deduces the return type of `auto` function `f` (declared with an error type): its
    /// body is analysed once, its first `return e;` giving `e`'s type (decayed, without
    /// qualifiers; `void` if it has none), and what that made is discarded (the op and the
    /// diagnostics, which the body's real emission gives again).
    pub(crate) fn deduce_return_type(&mut self, f: FuncId) {
        let (diags, undefined, undeclared) = (self.diags.len(), self.undefined_calls.len(), self.undeclared.len());
        let last = self.ctx.last_op(self.module_block);
        let saved_fs = self.fs.take();
        let saved = self.deducing.replace((f, None));
        self.emit_function_body(f);
        let (_, got) = std::mem::replace(&mut self.deducing, saved).expect("deducing");
        self.fs = saved_fs;
        self.diags.truncate(diags);
        self.undefined_calls.truncate(undefined);
        self.undeclared.truncate(undeclared);
        self.erase_func_after(last);
        let info = &mut self.funcs[f.0 as usize];
        info.emitted = false;
        info.ret = got.unwrap_or(self.types.void());
    }

    fn emit_function_body(&mut self, f: FuncId) {
        let info = self.funcs[f.0 as usize].clone();
        let Some(body) = info.body else { return };
        self.funcs[f.0 as usize].emitted = true;
        let sym = info.symbol.clone().unwrap_or_default();
        if info.exec == Exec::Kernel && !self.types.is_void(info.ret) && !self.types.is_error(info.ret) {
            self.error(
                info.span,
                format!("a __global__ function must return void, '{}' returns '{}'", info.display, self.types.show(info.ret)),
            );
        }
        // Signature.
        let mut inputs = Vec::new();
        let mut this_rec = None;
        if let Some(r) = info.record {
            let rt = self.types.intern(TyKind::Record(r));
            let pt = self.types.ptr(rt);
            inputs.push(self.types.ir(&mut self.ctx, pt).expect("pointer"));
            this_rec = Some(r);
        }
        for &p in &info.params {
            match self.types.ir(&mut self.ctx, p) {
                Some(t) => inputs.push(t),
                None => self.error(info.span, "a parameter cannot have type 'void'"),
            }
        }
        let results: Vec<TypeId> = self.types.ir(&mut self.ctx, info.ret).into_iter().collect();
        let fty = self.ctx.function_type(inputs.clone(), results);
        let name_a = self.ctx.str_attr(&sym);
        let fty_a = self.ctx.type_attr(fty);
        let props = [("sym_name", name_a), ("function_type", fty_a)];
        let mut bounds = None;
        if !info.launch_bounds.is_empty() {
            let mut vals = Vec::new();
            // Evaluated where the function is: its template parameters bound (`BLOCK`).
            self.in_env(info.ns, &info.env, |s| {
                for &e in &info.launch_bounds {
                    match s.const_eval(e) {
                        Some(Konst::Int(v)) if v > 0 && v <= i32::MAX as i128 => vals.push(v as i32),
                        _ => s.error(s.ast.expr(e).span, "__launch_bounds__ arguments must be positive integer constants"),
                    }
                }
            });
            if info.exec != Exec::Kernel {
                self.warning(info.span, "__launch_bounds__ is ignored on a function that is not a __global__ kernel");
            } else if !vals.is_empty() {
                let i32t = self.ctx.i32();
                let a = self.ctx.attr(cuprite_ir::AttrKind::DenseArray { elem: i32t, values: vals.iter().map(|&v| v as i64).collect() });
                bounds = Some(a);
            }
        }
        let saved_fs = self.fs.take();
        let fop = self.op("func.func", &[], &[], &props, 1, info.span);
        if info.exec == Exec::Kernel {
            let u = self.ctx.unit_attr();
            self.ctx.set_attr(fop, cuprite_dialects::cuda::KERNEL, u);
        }
        if let Some(a) = bounds {
            self.ctx.set_attr(fop, cuprite_dialects::cuda::LAUNCH_BOUNDS, a);
        }
        if let Some(always) = info.inline {
            use cuprite_dialects::hints::{set_inline_hint, InlineHint};
            set_inline_hint(&mut self.ctx, fop, if always { InlineHint::Always } else { InlineHint::Never });
        }
        let entry = self.region_block(fop, 0);
        let args: Vec<ValueId> = inputs.iter().map(|&t| self.ctx.add_block_arg(entry, t)).collect();
        let saved_scopes = std::mem::take(&mut self.scopes);
        let saved_ns = self.cur_ns;
        self.cur_ns = info.ns;
        if let (Some(tpl), Some(site)) = (&info.tpl_args, info.inst_site) {
            let what = format!("'{}{}' requested here", info.display, self.show_targs(tpl));
            self.inst_stack.push((what, site));
        }
        self.fs = Some(FnState {
            func: f,
            ret: info.ret,
            block: entry,
            terminated: false,
            loops: 0,
            switches: 0,
            constructs: Vec::new(),
            open_wrappers: Vec::new(),
            crossed_labels: Vec::new(),
            this: this_rec.map(|r| (args[0], r)),
            exec: info.exec,
        });
        self.push_scope();
        for (n, e) in &info.env {
            self.bind_local(*n, e.clone());
        }
        self.push_scope();
        let first = usize::from(this_rec.is_some());
        let mut param_vars = Vec::new();
        for (i, (&pty, name)) in info.params.iter().zip(&info.param_names).enumerate() {
            let Some(&arg) = args.get(first + i) else { continue };
            let span = self.decl_param_span(info.decl, i).unwrap_or(info.span);
            let var = if let TyKind::Ref(to) = *self.types.kind(pty) {
                Entity::Var { addr: arg, ty: to, space: AddrSpace::Generic, konst: None }
            } else {
                let pname = name.map(|n| self.name_str(n).to_string()).unwrap_or_default();
                let addr = self.new_var(&pname, pty, AddrSpace::Local, span);
                self.store(arg, addr, pty, span);
                if info.exec == Exec::Kernel && self.has_vptrs(pty) {
                    self.error(span, format!("a __global__ function's parameter cannot have a type with virtual functions ('{}'): its vptr would be the host's", self.types.show(pty)));
                }
                self.fix_vptrs(addr, AddrSpace::Local, pty, span);
                Entity::Var { addr, ty: pty, space: AddrSpace::Local, konst: None }
            };
            if let Some(n) = name {
                self.bind_local(*n, var.clone());
            }
            param_vars.push(var);
        }
        // A function parameter pack: its name denotes its parameters.
        if let Some((Some(n), start, len)) = info.param_pack {
            let vars = param_vars.get(start..start + len).map(<[Entity]>::to_vec).unwrap_or_default();
            self.bind_local(n, Entity::Pack(vars));
        }
        if info.is_ctor {
            self.emit_ctor_inits(f);
        }
        if let Some(r) = this_rec.filter(|r| self.closure_captures.contains_key(r)) {
            self.bind_captures(f, args[0], r, info.span);
        }
        self.stmt(body);
        if !self.terminated() {
            let end = Span { lo: self.ast.stmt(body).span.hi.saturating_sub(1), ..self.ast.stmt(body).span };
            if self.types.is_void(info.ret) || self.types.is_error(info.ret) {
                self.terminate("cuda.return", &[], end);
            } else {
                if info.exec != Exec::Kernel {
                    self.warning(end, format!("control reaches the end of non-void function '{}'", info.display));
                }
                // Undefined behaviour in C++: return an indeterminate value.
                let tmp = self.new_var("", info.ret, AddrSpace::Local, end);
                let v = self.load(tmp, info.ret, end);
                self.terminate("cuda.return", &[v], end);
            }
        }
        self.pop_scope();
        self.pop_scope();
        if info.tpl_args.is_some() && info.inst_site.is_some() {
            self.inst_stack.pop();
        }
        self.scopes = saved_scopes;
        self.cur_ns = saved_ns;
        self.fs = saved_fs;
    }

    fn decl_param_span(&self, d: DeclId, i: usize) -> Option<Span> {
        match &self.ast.decl(d).kind {
            DeclKind::Function { params, .. } => params.get(i).map(|p| p.span),
            _ => None,
        }
    }

    pub(crate) fn show_targs(&self, args: &[TArg]) -> String {
        format!("<{}>", self.show_targ_list(args))
    }

    fn show_targ_list(&self, args: &[TArg]) -> String {
        let parts: Vec<String> = args
            .iter()
            .map(|a| match a {
                TArg::Type(t) => self.types.show(*t),
                TArg::Value(v, _) => v.to_string(),
                TArg::Pack(v) => self.show_targ_list(v),
            })
            .collect();
        parts.join(", ")
    }

    // ----- memory ------------------------------------------------------------------------

    /// A new variable of type `ty` in `space` (`cuda.var`), at the function's current
    /// insertion point.
    pub(crate) fn new_var(&mut self, name: &str, ty: Ty, space: AddrSpace, span: Span) -> ValueId {
        let pt = self.types.ir_ptr(&mut self.ctx, ty, space);
        let n = self.name_attr(name);
        self.op1("cuda.var", &[], pt, &[("name", n)], span)
    }

    pub(crate) fn load(&mut self, addr: ValueId, ty: Ty, span: Span) -> ValueId {
        let t = self.types.ir_mem(&mut self.ctx, ty);
        let mut props = Vec::new();
        if ty.is_volatile() {
            props.push(("volatile", self.ctx.unit_attr()));
        }
        self.op1("cuda.load", &[addr], t, &props, span)
    }

    pub(crate) fn store(&mut self, v: ValueId, addr: ValueId, ty: Ty, span: Span) {
        let mut props = Vec::new();
        if ty.is_volatile() {
            props.push(("volatile", self.ctx.unit_attr()));
        }
        self.op("cuda.store", &[v, addr], &[], &props, 0, span);
    }

    pub(crate) fn constant_int(&mut self, v: i128, ty: Ty, span: Span) -> ValueId {
        let t = self.types.ir_mem(&mut self.ctx, ty);
        let a = self.ctx.int_attr(v, t);
        self.op1("arith.constant", &[], t, &[("value", a)], span)
    }

    pub(crate) fn constant_float(&mut self, v: f64, ty: Ty, span: Span) -> ValueId {
        let t = self.types.ir_mem(&mut self.ctx, ty);
        let bits = match self.types.float_ty(ty) {
            Some(ty::FloatTy::Float) => cuprite_ir::print::f64_to_float_bits(v, cuprite_ir::FloatKind::F32),
            Some(ty::FloatTy::Half) => cuprite_ir::print::f64_to_float_bits(v, cuprite_ir::FloatKind::F16),
            _ => cuprite_ir::print::f64_to_float_bits(v, cuprite_ir::FloatKind::F64),
        };
        let a = self.ctx.attr(cuprite_ir::AttrKind::Float { bits, ty: t });
        self.op1("arith.constant", &[], t, &[("value", a)], span)
    }

    /// The record type `r`.
    pub(crate) fn rec_ty(&mut self, r: RecId) -> Ty {
        self.types.intern(TyKind::Record(r))
    }
}
