//! Semantic types: C/C++ types as sema sees them (integers by kind, so that `int` and
//! `long` stay distinct for overloads and mangling; qualifiers in the low bits of [`Ty`]),
//! their sizes and alignments (the NVPTX data layout: `long` and pointers are 64-bit), the
//! conversion ranks of the usual arithmetic conversions, and their `cuda` dialect types.

use crate::intern::Atom;
use crate::source::Span;
use cuprite_dialects::cuda::types::{self as ct, AddrSpace};
use cuprite_ir::{Context, FloatKind, TypeId};
use rustc_hash::FxHashMap;

/// An interned type with its cv-qualifiers (bit 0: const, bit 1: volatile).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Ty(u32);

impl Ty {
    pub const CONST: u32 = 1;
    pub const VOLATILE: u32 = 2;
    pub fn unqual(self) -> Ty {
        Ty(self.0 & !3)
    }
    pub fn is_const(self) -> bool {
        self.0 & Self::CONST != 0
    }
    pub fn is_volatile(self) -> bool {
        self.0 & Self::VOLATILE != 0
    }
    pub fn quals(self) -> u32 {
        self.0 & 3
    }
    pub fn with_quals(self, q: u32) -> Ty {
        Ty(self.0 | (q & 3))
    }
    fn index(self) -> usize {
        (self.0 >> 2) as usize
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum IntKind {
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
}

impl IntKind {
    pub fn bits(self) -> u32 {
        match self {
            IntKind::Bool => 1,
            IntKind::Char | IntKind::SChar | IntKind::UChar => 8,
            IntKind::Short | IntKind::UShort => 16,
            IntKind::Int | IntKind::UInt => 32,
            _ => 64,
        }
    }
    /// `char` is signed on NVPTX, as on x86-64 Linux.
    pub fn signed(self) -> bool {
        matches!(self, IntKind::Char | IntKind::SChar | IntKind::Short | IntKind::Int | IntKind::Long | IntKind::LongLong)
    }
    /// Integer conversion rank.
    pub fn rank(self) -> u32 {
        match self {
            IntKind::Bool => 0,
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LongLong | IntKind::ULongLong => 5,
        }
    }
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar => IntKind::UChar,
            IntKind::Short => IntKind::UShort,
            IntKind::Int => IntKind::UInt,
            IntKind::Long => IntKind::ULong,
            IntKind::LongLong => IntKind::ULongLong,
            k => k,
        }
    }
    pub fn spelling(self) -> &'static str {
        match self {
            IntKind::Bool => "bool",
            IntKind::Char => "char",
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::ULongLong => "unsigned long long",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum FloatTy {
    Half,
    Float,
    Double,
}

impl FloatTy {
    pub fn bytes(self) -> u64 {
        match self {
            FloatTy::Half => 2,
            FloatTy::Float => 4,
            FloatTy::Double => 8,
        }
    }
}

/// A record (struct/class/union) or enum, by index into [`super::Sema`]'s tables.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct RecId(pub u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct EnumId(pub u32);

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TyKind {
    /// The type of an expression that had an error (converts to anything silently).
    Error,
    Void,
    Int(IntKind),
    Float(FloatTy),
    Ptr(Ty),
    Ref(Ty),
    /// `T[n]`; `None`: `T[]` (`extern __shared__` arrays).
    Array(Ty, Option<u64>),
    Record(RecId),
    Enum(EnumId),
    Func {
        ret: Ty,
        params: Vec<Ty>,
        variadic: bool,
    },
    Nullptr,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// A member's name; a base class subobject's: the base's name as written.
    pub name: Atom,
    pub ty: Ty,
    pub offset: u64,
    /// A base class subobject (found by its members' names, not its own).
    pub is_base: bool,
}

/// A base class (non-virtual, public or not: access is not checked).
#[derive(Clone, Debug)]
pub struct BaseInfo {
    pub rec: RecId,
    /// The base's name as written (`Base` in `Base<T>`): constructors initialize it by it.
    pub name: Atom,
    /// Its subobject's field; `None` for an empty base, which takes no space (at offset 0).
    pub field: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// For the IR and diagnostics (`Vec<float, 4>` for template instances).
    pub name: String,
    /// The name's Itanium mangling (`6float4`, `3VecIfLi4EE`).
    pub mangled: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    pub complete: bool,
    /// Whether any field is itself declared in a user file (for diagnostics only).
    pub explicit_align: Option<u64>,
    /// For a class template's instance: the template (its index) and the arguments.
    pub inst_of: Option<(u32, Vec<super::TArg>)>,
    pub bases: Vec<BaseInfo>,
    /// Where its declaration had an error (a member or base dropped): a class that host
    /// code may still name but device code may not (its layout is not the program's).
    pub broken: Option<Span>,
    /// A dynamic class (it declares or inherits a virtual function): it holds a vptr slot
    /// at offset 0, its own or its primary base's (see `virtuals`).
    pub dynamic: bool,
    /// Whether any subobject or member (array elements included) is dynamic: objects of
    /// the type have vptr slots that constructors and copies must set.
    pub has_vptrs: bool,
    /// The virtual functions it declares (introducing or overriding).
    pub virtuals: Vec<super::FuncId>,
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub name: String,
    pub mangled: String,
    pub underlying: Ty,
}

/// The type table.
#[derive(Clone, Default)]
pub struct Types {
    kinds: Vec<TyKind>,
    map: FxHashMap<TyKind, Ty>,
    pub records: Vec<RecordInfo>,
    pub enums: Vec<EnumInfo>,
    ir_cache: FxHashMap<Ty, TypeId>,
    /// Records whose IR type is being built: while one is, a type that reaches it again
    /// sees its by-name placeholder, so nothing built meanwhile is cached (a cached
    /// `ptr<struct<"S">>` would later stand for `S *` everywhere, and members could not be
    /// reached through it).
    ir_open: u32,
    /// `!cuda.ptr` types by pointee and space (made by printing the pointee: most ops
    /// of a body need one, and printing it each time was a tenth of sema's time).
    ptr_cache: FxHashMap<(TypeId, AddrSpace), TypeId>,
}

impl Types {
    /// How many types, records and enums there are (what reading a body may add to).
    pub fn counts(&self) -> (usize, usize, usize) {
        (self.kinds.len(), self.records.len(), self.enums.len())
    }

    pub fn new() -> Self {
        let mut t = Types::default();
        t.intern(TyKind::Error);
        t
    }
    pub fn intern(&mut self, k: TyKind) -> Ty {
        if let Some(&t) = self.map.get(&k) {
            return t;
        }
        let t = Ty((self.kinds.len() as u32) << 2);
        self.kinds.push(k.clone());
        self.map.insert(k, t);
        t
    }
    pub fn kind(&self, t: Ty) -> &TyKind {
        &self.kinds[t.index()]
    }
    pub fn error(&self) -> Ty {
        Ty(0)
    }
    pub fn void(&mut self) -> Ty {
        self.intern(TyKind::Void)
    }
    pub fn int(&mut self, k: IntKind) -> Ty {
        self.intern(TyKind::Int(k))
    }
    pub fn bool(&mut self) -> Ty {
        self.int(IntKind::Bool)
    }
    pub fn float(&mut self, f: FloatTy) -> Ty {
        self.intern(TyKind::Float(f))
    }
    pub fn ptr(&mut self, to: Ty) -> Ty {
        self.intern(TyKind::Ptr(to))
    }
    pub fn is_error(&self, t: Ty) -> bool {
        matches!(self.kind(t), TyKind::Error)
    }
    pub fn is_void(&self, t: Ty) -> bool {
        matches!(self.kind(t), TyKind::Void)
    }
    pub fn int_kind(&self, t: Ty) -> Option<IntKind> {
        match self.kind(t) {
            TyKind::Int(k) => Some(*k),
            TyKind::Enum(e) => self.int_kind(self.enums[e.0 as usize].underlying),
            _ => None,
        }
    }
    pub fn is_integral(&self, t: Ty) -> bool {
        self.int_kind(t).is_some()
    }
    pub fn is_bool(&self, t: Ty) -> bool {
        matches!(self.kind(t), TyKind::Int(IntKind::Bool))
    }
    pub fn float_ty(&self, t: Ty) -> Option<FloatTy> {
        match self.kind(t) {
            TyKind::Float(f) => Some(*f),
            _ => None,
        }
    }
    pub fn is_arith(&self, t: Ty) -> bool {
        self.is_integral(t) || self.float_ty(t).is_some()
    }
    pub fn pointee(&self, t: Ty) -> Option<Ty> {
        match self.kind(t) {
            TyKind::Ptr(p) => Some(*p),
            _ => None,
        }
    }
    pub fn is_scalar(&self, t: Ty) -> bool {
        self.is_arith(t) || matches!(self.kind(t), TyKind::Ptr(_) | TyKind::Nullptr)
    }
    pub fn record(&self, t: Ty) -> Option<RecId> {
        match self.kind(t) {
            TyKind::Record(r) => Some(*r),
            _ => None,
        }
    }
    pub fn rec(&self, r: RecId) -> &RecordInfo {
        &self.records[r.0 as usize]
    }

    /// Size in bytes (0 for incomplete types).
    pub fn size(&self, t: Ty) -> u64 {
        match self.kind(t) {
            TyKind::Error | TyKind::Void | TyKind::Func { .. } => 1,
            TyKind::Int(k) => (k.bits() as u64).div_ceil(8),
            TyKind::Float(f) => f.bytes(),
            TyKind::Ptr(_) | TyKind::Ref(_) | TyKind::Nullptr => 8,
            TyKind::Array(e, n) => self.size(*e) * n.unwrap_or(0),
            TyKind::Record(r) => self.rec(*r).size,
            TyKind::Enum(e) => self.size(self.enums[e.0 as usize].underlying),
        }
    }
    pub fn align(&self, t: Ty) -> u64 {
        match self.kind(t) {
            TyKind::Array(e, _) => self.align(*e),
            TyKind::Record(r) => self.rec(*r).align.max(1),
            _ => self.size(t).max(1),
        }
    }

    /// C spelling, for diagnostics.
    pub fn show(&self, t: Ty) -> String {
        let mut s = match self.kind(t) {
            TyKind::Error => "<error>".into(),
            TyKind::Void => "void".into(),
            TyKind::Int(k) => k.spelling().into(),
            TyKind::Float(FloatTy::Half) => "half".into(),
            TyKind::Float(FloatTy::Float) => "float".into(),
            TyKind::Float(FloatTy::Double) => "double".into(),
            TyKind::Ptr(p) => format!("{} *", self.show(*p)),
            TyKind::Ref(p) => format!("{} &", self.show(*p)),
            TyKind::Array(e, Some(n)) => format!("{} [{n}]", self.show(*e)),
            TyKind::Array(e, None) => format!("{} []", self.show(*e)),
            TyKind::Record(r) => self.rec(*r).name.clone(),
            TyKind::Enum(e) => self.enums[e.0 as usize].name.clone(),
            TyKind::Func { ret, params, .. } => {
                format!("{} ({})", self.show(*ret), params.iter().map(|&p| self.show(p)).collect::<Vec<_>>().join(", "))
            }
            TyKind::Nullptr => "std::nullptr_t".into(),
        };
        if t.is_const() {
            s = if matches!(self.kind(t), TyKind::Ptr(_)) { format!("{s} const") } else { format!("const {s}") };
        }
        if t.is_volatile() {
            s = format!("volatile {s}");
        }
        s
    }

    /// The `cuda` dialect type of a value of type `t` (`None` for `void`). Pointers are
    /// generic; references are pointers.
    pub fn ir(&mut self, ctx: &mut Context, t: Ty) -> Option<TypeId> {
        let t = t.unqual();
        if let Some(&x) = self.ir_cache.get(&t) {
            return Some(x);
        }
        let x = match self.kind(t).clone() {
            TyKind::Void => return None,
            TyKind::Error => ctx.int_type(32),
            TyKind::Int(IntKind::Bool) => ctx.i1(),
            TyKind::Int(k) => ct::int(ctx, k.bits()),
            TyKind::Float(f) => ctx.float_type(match f {
                FloatTy::Half => FloatKind::F16,
                FloatTy::Float => FloatKind::F32,
                FloatTy::Double => FloatKind::F64,
            }),
            TyKind::Ptr(p) | TyKind::Ref(p) => self.ir_ptr(ctx, p, AddrSpace::Generic),
            TyKind::Nullptr => {
                let none = ctx.ty(cuprite_ir::TypeKind::None);
                ct::ptr(ctx, none, AddrSpace::Generic)
            }
            TyKind::Array(e, n) => {
                let e = self.ir_mem(ctx, e);
                ct::array(ctx, e, n.unwrap_or(0))
            }
            TyKind::Record(r) => {
                let info = self.rec(r).clone();
                // Recursion through pointers is cut by naming the struct.
                let placeholder = ct::structure(ctx, &info.name, None, None);
                self.ir_cache.insert(t, placeholder);
                self.ir_open += 1;
                let natural = info.fields.iter().map(|f| self.align(f.ty)).max().unwrap_or(1);
                let full = if info.is_union {
                    // Every member of a union is at offset 0, which a struct type cannot
                    // say: the IR type is the union's storage and members are reached by
                    // reinterpreting its address ([`super::Sema::member_addr`]). The storage
                    // is the bytes some member covers (the largest member's size), in the
                    // widest words that divide it and its alignment (up to 8 bytes), with
                    // the union's alignment; tail padding stays padding, so a copy does not
                    // read bytes no member has.
                    let covered = info.fields.iter().map(|f| self.size(f.ty)).max().unwrap_or(0);
                    let mut unit = natural.clamp(1, 8);
                    while covered % unit != 0 {
                        unit /= 2;
                    }
                    let word = ct::int(ctx, (unit * 8) as u32);
                    let fields: Vec<TypeId> = if covered == 0 { Vec::new() } else { vec![ct::array(ctx, word, covered / unit)] };
                    let align = (info.align.max(1) > unit).then_some(info.align as u32);
                    ct::structure(ctx, &info.name, Some(&fields), align)
                } else {
                    let fields: Vec<TypeId> = info.fields.iter().map(|f| self.ir_mem(ctx, f.ty)).collect();
                    let align = info.explicit_align.filter(|&a| a > natural).map(|a| a as u32);
                    ct::structure(ctx, &info.name, Some(&fields), align)
                };
                self.ir_open -= 1;
                if self.ir_open > 0 {
                    self.ir_cache.remove(&t);
                    return Some(full);
                }
                full
            }
            TyKind::Enum(e) => {
                let u = self.enums[e.0 as usize].underlying;
                return self.ir(ctx, u);
            }
            TyKind::Func { ret, params, .. } => {
                let inputs = params.iter().filter_map(|&p| self.ir(ctx, p)).collect();
                let results = self.ir(ctx, ret).into_iter().collect();
                ctx.function_type(inputs, results)
            }
        };
        if self.ir_open == 0 {
            self.ir_cache.insert(t, x);
        }
        Some(x)
    }

    /// The IR type of memory holding a `t` (`void` as `none`).
    pub fn ir_mem(&mut self, ctx: &mut Context, t: Ty) -> TypeId {
        match self.ir(ctx, t) {
            Some(x) => x,
            None => ctx.ty(cuprite_ir::TypeKind::None),
        }
    }

    /// `!cuda.ptr<t, space>`; an unsized array's address is its first element's.
    pub fn ir_ptr(&mut self, ctx: &mut Context, t: Ty, space: AddrSpace) -> TypeId {
        let pointee = match self.kind(t.unqual()) {
            TyKind::Array(e, None) => *e,
            _ => t,
        };
        let p = self.ir_mem(ctx, pointee);
        *self.ptr_cache.entry((p, space)).or_insert_with(|| ct::ptr(ctx, p, space))
    }
}
