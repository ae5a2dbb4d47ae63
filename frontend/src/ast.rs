//! The syntax tree of CUDA C++ device code, as the parser builds it: declarations,
//! statements and expressions in arenas indexed by `u32` ids, every node with its span.
//! Nothing here is resolved yet (names are atoms, types are as written); semantic analysis
//! turns it into typed IR.

use crate::append::AppendVec;
use crate::intern::Atom;
use crate::source::Span;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

macro_rules! id {
    ($name:ident) => {
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
    };
}
id!(ExprId);
id!(StmtId);
id!(DeclId);
id!(TypeId);
id!(NameId);

/// The parts of a qualified name: most names have one or two, stored inline.
pub type NameParts = smallvec::SmallVec<[Atom; 4]>;

/// A possibly qualified name (`a::b::c`), with template arguments on its last part.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// `::x` (global scope).
    pub global: bool,
    pub parts: NameParts,
    pub template_args: Option<Vec<TemplateArg>>,
    /// Template arguments of a part before the last (`X<T, 4>::f`): the part's index and them.
    pub scope_args: Vec<(usize, Vec<TemplateArg>)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg {
    Type(TypeId),
    Expr(ExprId),
}

/// Builtin type keywords, as written (`unsigned long long`, `signed char`, ...).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Void,
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Float,
    /// `_Float16`: IEEE binary16 (cuda_fp16.h's `__half`).
    Half,
    Double,
    LongDouble,
    /// `__int128`, ...: parsed, reported by sema.
    Int128,
    UInt128,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    Builtin(Builtin),
    /// A named type: a typedef, struct/class, template parameter or template-id.
    Named(Name),
    /// `struct S` / `class S` / `union U` / `enum E` used as a type.
    Elaborated {
        keyword: Atom,
        name: Name,
    },
    Pointer(TypeId),
    /// `T&` (`rvalue`: `T&&`).
    Reference {
        to: TypeId,
        rvalue: bool,
    },
    /// `T[n]` (`None`: `T[]`).
    Array {
        elem: TypeId,
        size: Option<ExprId>,
    },
    Function {
        ret: TypeId,
        params: Vec<TypeId>,
        variadic: bool,
    },
    /// `decltype(e)`.
    Decltype(ExprId),
    /// GNU `__typeof__(e)`: `e`'s type, without a reference.
    Typeof(ExprId),
    /// The unnamed class, union or enum this declaration defines (`typedef struct {...} P;`,
    /// `union {...} u;`).
    Defined(DeclId),
    /// `auto`.
    Auto,
    /// `T...` in a template argument list: the pattern once per element of the packs it
    /// names.
    Expand(TypeId),
}

/// Qualifiers written on a type.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: TypeKind,
    pub quals: Quals,
    pub span: Span,
}

/// `__attribute__((name(args)))`, `[[name]]`, `__launch_bounds__(...)` (through the
/// header's macro) and friends.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The name as spelled: `__aligned__` and `aligned` are the same attribute (see
    /// [`Attribute::is`]).
    pub name: Atom,
    pub args: Vec<ExprId>,
    pub span: Span,
}

impl Attribute {
    /// The name without the underscores GNU allows around it (`__aligned__` is `aligned`).
    pub fn bare_name(name: &str) -> &str {
        name.trim_matches('_')
    }
    /// Whether this is attribute `bare` (given without underscores).
    pub fn is(&self, names: &impl crate::intern::Spell, bare: &str) -> bool {
        Attribute::bare_name(names.spell(self.name)) == bare
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Minus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    Comma,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// `(T)e`
    CStyle,
    /// `T(e)`
    Functional,
    Static,
    Reinterpret,
    Const,
    Dynamic,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal as written (value and suffix parsed by sema).
    Int(Atom),
    Float(Atom),
    Char(Atom),
    /// Adjacent string literals, concatenated.
    Str(Vec<Atom>),
    Bool(bool),
    Nullptr,
    This,
    /// A name, in [`Ast::names`] (the side table keeps [`Expr`] small).
    Name(NameId),
    Unary(UnaryOp, ExprId),
    Binary(BinaryOp, ExprId, ExprId),
    /// `a = b`, `a += b` (`op`: the compound operator).
    Assign {
        op: Option<BinaryOp>,
        lhs: ExprId,
        rhs: ExprId,
    },
    Cond(ExprId, ExprId, ExprId),
    Call {
        callee: ExprId,
        args: Vec<ExprId>,
    },
    /// `callee<<<config>>>(args)`: a kernel launch (host code).
    Launch {
        callee: ExprId,
        config: Vec<ExprId>,
        args: Vec<ExprId>,
    },
    Index(ExprId, ExprId),
    Member {
        base: ExprId,
        arrow: bool,
        name: NameId,
    },
    Cast {
        kind: CastKind,
        ty: TypeId,
        expr: ExprId,
    },
    /// `T(a, b)` / `T{a, b}` with several or no arguments (a constructor call).
    Construct {
        ty: TypeId,
        args: Vec<ExprId>,
        braces: bool,
    },
    SizeofType(TypeId),
    SizeofExpr(ExprId),
    Alignof(TypeId),
    /// `{a, b, .c = d}`
    InitList(Vec<(Option<Atom>, ExprId)>),
    /// `new T`, `new T(args)`, `new T{args}`, `new T[count]`, `new (place) T(args)`.
    New {
        placement: Option<ExprId>,
        ty: TypeId,
        count: Option<ExprId>,
        args: Option<Vec<ExprId>>,
        braces: bool,
    },
    /// `delete p`, `delete[] p`.
    Delete {
        array: bool,
        expr: ExprId,
    },
    /// A construct the parser recognized but the frontend does not support yet; sema
    /// reports it by name.
    /// A GNU statement expression `({ stmts; e; })`: the block runs, and its value is its
    /// last statement's, when that is an expression (as real code's `max` macros write it).
    StmtExpr(StmtId),
    Unsupported(&'static str),
    /// A lambda expression (see the parser's `parse_lambda`).
    Lambda(Box<Lambda>),
    /// A pack expansion `pattern...` (in call arguments, braced lists and template
    /// arguments): the pattern once per element of the packs it names; `exprs`: the ids of
    /// the pattern's expressions, `[from, to)`, where sema finds those packs.
    Expand {
        pattern: ExprId,
        exprs: (u32, u32),
    },
    /// `sizeof...(pack)`.
    SizeofPack(Atom),
    /// A fold expression: `(lhs op ...)` (a right fold), `(... op rhs)` (a left fold), or
    /// `(lhs op ... op rhs)` (the side that names a pack is the pattern, the other the
    /// initial value). Each side with the ids of its expressions, as [`ExprKind::Expand`].
    Fold {
        op: BinaryOp,
        lhs: Option<(ExprId, (u32, u32))>,
        rhs: Option<(ExprId, (u32, u32))>,
    },
    /// Where an expression failed to parse (an error was reported).
    Error,
}

impl TemplateParam {
    pub fn name(&self) -> Option<Atom> {
        match self {
            TemplateParam::Type { name, .. } | TemplateParam::Value { name, .. } => *name,
        }
    }
    pub fn is_pack(&self) -> bool {
        match self {
            TemplateParam::Type { pack, .. } | TemplateParam::Value { pack, .. } => *pack,
        }
    }
}

impl ExprKind {
    /// The expressions directly inside this one (template arguments and types excluded).
    pub fn children(&self) -> Vec<ExprId> {
        match self {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Nullptr
            | ExprKind::This
            | ExprKind::Name(_)
            | ExprKind::SizeofType(_)
            | ExprKind::Alignof(_)
            | ExprKind::StmtExpr(_)
            | ExprKind::Unsupported(_)
            | ExprKind::Lambda(_)
            | ExprKind::SizeofPack(_)
            | ExprKind::Error => Vec::new(),
            ExprKind::Expand { pattern, .. } => vec![*pattern],
            ExprKind::Fold { lhs, rhs, .. } => lhs.iter().chain(rhs).map(|(e, _)| *e).collect(),
            ExprKind::Unary(_, a) | ExprKind::SizeofExpr(a) | ExprKind::Cast { expr: a, .. } | ExprKind::Member { base: a, .. } => {
                vec![*a]
            }
            ExprKind::Binary(_, a, b) | ExprKind::Assign { lhs: a, rhs: b, .. } | ExprKind::Index(a, b) => vec![*a, *b],
            ExprKind::Cond(a, b, c) => vec![*a, *b, *c],
            ExprKind::Call { callee, args } => std::iter::once(*callee).chain(args.iter().copied()).collect(),
            ExprKind::Launch { callee, config, args } => {
                std::iter::once(*callee).chain(config.iter().copied()).chain(args.iter().copied()).collect()
            }
            ExprKind::Construct { args, .. } => args.clone(),
            ExprKind::InitList(items) => items.iter().map(|(_, e)| *e).collect(),
            ExprKind::New { placement, count, args, .. } => {
                placement.iter().chain(count.iter()).chain(args.iter().flatten()).copied().collect()
            }
            ExprKind::Delete { expr, .. } => vec![*expr],
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// A loop hint from `#pragma unroll [N]` (0: unroll fully).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Unroll(pub u32);

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Compound(Vec<StmtId>),
    Decl(Vec<DeclId>),
    Expr(ExprId),
    If {
        cond: ExprId,
        then: StmtId,
        els: Option<StmtId>,
        init: Option<StmtId>,
    },
    For {
        init: Option<StmtId>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: StmtId,
        unroll: Option<Unroll>,
    },
    /// `for (decl : range) body`, as C++ defines it (see the parser's `parse_range_for`):
    /// `range` declares the range, `range_name` names it; `iters` declare the iterators
    /// for an array range and for a class range; `body` declares the variable first.
    RangeFor {
        range: StmtId,
        range_name: ExprId,
        iters: [StmtId; 2],
        cond: ExprId,
        step: ExprId,
        body: StmtId,
        unroll: Option<Unroll>,
    },
    While {
        cond: ExprId,
        body: StmtId,
        unroll: Option<Unroll>,
    },
    DoWhile {
        body: StmtId,
        cond: ExprId,
        unroll: Option<Unroll>,
    },
    Switch {
        cond: ExprId,
        body: StmtId,
    },
    Case(ExprId, StmtId),
    Default(StmtId),
    Break,
    Continue,
    Return(Option<ExprId>),
    Goto(Atom),
    Label(Atom, StmtId),
    /// `asm volatile ("template" : outputs : inputs : clobbers)` (boxed: rare and large).
    Asm(Box<AsmStmt>),
    Null,
    Error,
    /// A kernel's body the parser did not read: an earlier compile's result stands for it
    /// (see [`crate::sema::bodies`]).
    Known,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AsmStmt {
    pub volatile: bool,
    pub template: Vec<Atom>,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<Atom>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AsmOperand {
    pub constraint: Atom,
    pub expr: ExprId,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// How a lambda captures a variable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LambdaCapture {
    Copy,
    Ref,
}

/// `[captures](params) -> ret { body }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    /// `[=]` or `[&]`.
    pub default: Option<LambdaCapture>,
    /// Named captures: the name, how, an initializer (`[n = e]`) and where.
    pub captures: Vec<(Atom, LambdaCapture, Option<ExprId>, Span)>,
    /// `this` (by reference) or `*this` (a copy) captured, where.
    pub this_capture: Option<(Span, LambdaCapture)>,
    /// The call operator: a `DeclKind::Function` named `operator()`.
    pub op: DeclId,
    /// The ids of the expressions of the body: `[from, to)`.
    pub body_exprs: (u32, u32),
}

/// Storage and CUDA space of a declaration.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Specifiers {
    pub is_static: bool,
    pub is_extern: bool,
    /// `extern "C"` on the declaration itself.
    pub extern_c: bool,
    pub is_inline: bool,
    pub is_constexpr: bool,
    pub is_typedef: bool,
    pub is_register: bool,
    pub is_virtual: bool,
    pub is_explicit: bool,
    /// `__global__`
    pub global: bool,
    /// `__device__`
    pub device: bool,
    /// `__host__`
    pub host: bool,
    /// `__shared__`
    pub shared: bool,
    /// `__constant__`
    pub constant: bool,
    /// `__managed__`
    pub managed: bool,
    /// A function declared `= default` (its implicit definition; host and device code).
    pub is_defaulted: bool,
    /// A pure virtual function (`= 0`).
    pub is_pure: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Option<Atom>,
    pub ty: TypeId,
    pub default: Option<ExprId>,
    pub span: Span,
    /// A function parameter pack (`Ts... args`): `ty` is the pattern.
    pub pack: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TemplateParam {
    /// `typename T = D` / `class T` (`pack`: `typename... Ts`)
    Type { name: Option<Atom>, default: Option<TypeId>, span: Span, pack: bool },
    /// `int N = 4` (`pack`: `int... Ns`)
    Value { name: Option<Atom>, ty: TypeId, default: Option<ExprId>, span: Span, pack: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeclKind {
    Var {
        specs: Specifiers,
        name: Name,
        ty: TypeId,
        init: Option<ExprId>,
        attrs: Vec<Attribute>,
    },
    Function {
        specs: Specifiers,
        name: Name,
        ret: TypeId,
        params: Vec<Param>,
        variadic: bool,
        /// `const` member function.
        is_const: bool,
        /// `None`: a declaration.
        body: Option<StmtId>,
        /// The body is host code: read for the kernels it launches or names, not compiled,
        /// its errors tolerated (`None` if it could not be read at all).
        host_body: bool,
        attrs: Vec<Attribute>,
        /// Constructor member initializers `: a(x), b(y)`.
        inits: Vec<(Atom, Vec<ExprId>)>,
    },
    Typedef {
        name: Atom,
        ty: TypeId,
    },
    /// `struct`/`class`/`union` with members (`None`: a forward declaration).
    Record {
        keyword: Atom,
        name: Option<Atom>,
        /// `struct X<int>` of an explicit or partial specialization (`template <> struct X<int>`).
        targs: Option<Vec<TemplateArg>>,
        bases: Vec<TypeId>,
        /// Where a base is declared `virtual` (not supported).
        virtual_base: Option<Span>,
        members: Option<Vec<DeclId>>,
        attrs: Vec<Attribute>,
    },
    Enum {
        name: Option<Atom>,
        scoped: bool,
        underlying: Option<TypeId>,
        enumerators: Vec<(Atom, Option<ExprId>, Span)>,
    },
    Namespace {
        name: Option<Atom>,
        decls: Vec<DeclId>,
    },
    Template {
        params: Vec<TemplateParam>,
        decl: DeclId,
    },
    /// `template struct S<int>;` / `template __global__ void k<float>(float*);`
    ExplicitInstantiation(DeclId),
    /// `using namespace x;`
    UsingDirective(Name),
    /// `namespace a = b::c;`
    NamespaceAlias {
        name: Atom,
        target: Name,
    },
    /// `using x::y;`
    UsingDecl(Name),
    /// `static_assert(e, "msg")`
    StaticAssert {
        cond: ExprId,
        message: Option<Atom>,
    },
    /// Top-level `extern "C" { ... }`.
    LinkageSpec(Vec<DeclId>),
    /// Access specifiers in classes (`public:`) are dropped; this marks a construct the
    /// parser skipped, with why.
    Skipped(&'static str),
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

/// One translation unit's tree.
///
/// The arenas only grow and their nodes never move ([`AppendVec`]), so a tree can be read
/// on one thread while the parser adds to it on another, through its one [`AstWriter`]
/// ([`crate::parse_and_lower`] runs sema on each top-level declaration as soon as it is parsed).
#[derive(Debug, Default)]
pub struct Ast {
    pub exprs: AppendVec<Expr>,
    pub stmts: AppendVec<Stmt>,
    pub decls: AppendVec<Decl>,
    pub types: AppendVec<Type>,
    pub names: AppendVec<Name>,
    /// The top-level declarations, in order.
    pub top: AppendVec<DeclId>,
    /// The key of each top-level declaration's tokens, by its index in `top`.
    pub top_keys: AppendVec<TopKey>,
    /// Whether an [`AstWriter`] exists.
    writing: AtomicBool,
}

/// What the tokens of a top-level construct (a declaration, a namespace, an `extern "C"`
/// block) were: hashes of their kinds, spellings and places (each relative to the
/// construct's first token when in its file), split where the first function body
/// begins. Equal keys: the same tokens, laid out alike, wherever the construct moved
/// (what lets a compile reuse a kernel body's result from an earlier one, see
/// [`crate::sema::bodies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TopKey {
    /// The tokens before the first function body (all of them if there is none).
    pub head: u128,
    /// The tokens from the first function body's `{` on (0: no body).
    pub body: u128,
    /// Whether the construct declares more than this declaration (the key is the
    /// construct's, given to each of its declarations).
    pub shared: bool,
}

/// A syntax tree's nodes, frozen to be shared: [`Ast::on`] starts trees that begin with
/// them (a preamble's nodes under each compile's, without copying them).
#[derive(Clone, Debug)]
pub struct AstBase {
    exprs: Arc<AppendVec<Expr>>,
    stmts: Arc<AppendVec<Stmt>>,
    decls: Arc<AppendVec<Decl>>,
    types: Arc<AppendVec<Type>>,
    names: Arc<AppendVec<Name>>,
    top: Arc<AppendVec<DeclId>>,
    top_keys: Arc<AppendVec<TopKey>>,
}

impl Ast {
    /// Freezes the tree (which must have no writer) to share it.
    pub fn freeze(self) -> AstBase {
        assert!(!self.writing.load(Ordering::Acquire), "a tree being written is frozen");
        AstBase {
            exprs: Arc::new(self.exprs),
            stmts: Arc::new(self.stmts),
            decls: Arc::new(self.decls),
            types: Arc::new(self.types),
            names: Arc::new(self.names),
            top: Arc::new(self.top),
            top_keys: Arc::new(self.top_keys),
        }
    }
    /// A tree whose first nodes are `base`'s: the same ids, read in place.
    pub fn on(base: &AstBase) -> Ast {
        Ast {
            exprs: AppendVec::on(base.exprs.clone()),
            stmts: AppendVec::on(base.stmts.clone()),
            decls: AppendVec::on(base.decls.clone()),
            types: AppendVec::on(base.types.clone()),
            names: AppendVec::on(base.names.clone()),
            top: AppendVec::on(base.top.clone()),
            top_keys: AppendVec::on(base.top_keys.clone()),
            writing: AtomicBool::new(false),
        }
    }
}

/// A copy to add to: every node (a base's shared), and no writer.
impl Clone for Ast {
    fn clone(&self) -> Self {
        Ast {
            exprs: self.exprs.clone(),
            stmts: self.stmts.clone(),
            decls: self.decls.clone(),
            types: self.types.clone(),
            names: self.names.clone(),
            top: self.top.clone(),
            top_keys: self.top_keys.clone(),
            writing: AtomicBool::new(false),
        }
    }
}

impl Ast {
    #[inline]
    pub fn expr(&self, e: ExprId) -> &Expr {
        &self.exprs[e.0 as usize]
    }
    #[inline]
    pub fn stmt(&self, s: StmtId) -> &Stmt {
        &self.stmts[s.0 as usize]
    }
    #[inline]
    pub fn decl(&self, d: DeclId) -> &Decl {
        &self.decls[d.0 as usize]
    }
    #[inline]
    pub fn ty(&self, t: TypeId) -> &Type {
        &self.types[t.0 as usize]
    }
    #[inline]
    pub fn name(&self, n: NameId) -> &Name {
        &self.names[n.0 as usize]
    }
    /// The tree's writer: there is one at a time (a second while the first lives panics).
    pub fn writer(&self) -> AstWriter<'_> {
        assert!(!self.writing.swap(true, Ordering::Acquire), "a syntax tree has one writer at a time");
        AstWriter { ast: self, _one_thread: std::marker::PhantomData }
    }
}

/// Adds nodes to an [`Ast`] that other threads may be reading (see [`Ast::writer`]).
/// It stays on the thread that made it, so that pushes never race.
pub struct AstWriter<'a> {
    ast: &'a Ast,
    _one_thread: std::marker::PhantomData<*mut ()>,
}

impl Drop for AstWriter<'_> {
    fn drop(&mut self) {
        self.ast.writing.store(false, Ordering::Release);
    }
}

impl<'a> std::ops::Deref for AstWriter<'a> {
    type Target = Ast;
    fn deref(&self) -> &Ast {
        self.ast
    }
}

// SAFETY (of every push below): `Ast::writer` hands out one writer at a time, and a writer
// is neither `Send` nor `Sync`, so the pushes of one tree come from one thread.
impl AstWriter<'_> {
    /// The tree being written, for as long as it lives.
    pub fn tree(&self) -> &Ast {
        self.ast
    }
    #[inline]
    pub fn add_name(&self, name: Name) -> NameId {
        NameId(unsafe { self.ast.names.push(name) } as u32)
    }
    #[inline]
    pub fn add_expr(&self, kind: ExprKind, span: Span) -> ExprId {
        ExprId(unsafe { self.ast.exprs.push(Expr { kind, span }) } as u32)
    }
    #[inline]
    pub fn add_stmt(&self, kind: StmtKind, span: Span) -> StmtId {
        StmtId(unsafe { self.ast.stmts.push(Stmt { kind, span }) } as u32)
    }
    #[inline]
    pub fn add_decl(&self, kind: DeclKind, span: Span) -> DeclId {
        DeclId(unsafe { self.ast.decls.push(Decl { kind, span }) } as u32)
    }
    #[inline]
    pub fn add_type(&self, kind: TypeKind, quals: Quals, span: Span) -> TypeId {
        TypeId(unsafe { self.ast.types.push(Type { kind, quals, span }) } as u32)
    }
    /// Appends a top-level declaration with its construct's key (after its nodes and
    /// key: a reader that sees it in [`Ast::top`] sees all of them).
    pub fn add_top(&self, d: DeclId, key: TopKey) {
        unsafe { self.ast.top_keys.push(key) };
        unsafe { self.ast.top.push(d) };
    }
}
