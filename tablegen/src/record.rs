//! Records: what a `.td` file means once read. Classes keep their template arguments and
//! unresolved references; defs are flat (every inherited field copied in, every reference
//! to a field or template argument resolved to a value).

use crate::diag::{Sources, Span};
use std::collections::HashMap;
use std::fmt;

/// A field or template-argument type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Bit,
    Bits(u32),
    Int,
    Str,
    Code,
    List(Box<Ty>),
    Dag,
    /// A record type: values are defs deriving from this class.
    Class(String),
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bit => f.write_str("bit"),
            Ty::Bits(n) => write!(f, "bits<{n}>"),
            Ty::Int => f.write_str("int"),
            Ty::Str => f.write_str("string"),
            Ty::Code => f.write_str("code"),
            Ty::List(t) => write!(f, "list<{t}>"),
            Ty::Dag => f.write_str("dag"),
            Ty::Class(c) => f.write_str(c),
        }
    }
}

/// A value. In a def every value is resolved: only `Unset`, `Int`, `Str`, `Code`, `List`,
/// `Dag` and `Def` remain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// `?`
    Unset,
    /// `int` and `bit` values (`true`/`false` are 1/0).
    Int(i64),
    Str(String),
    /// `[{ ... }]`
    Code(String),
    List(Vec<Value>),
    /// `(op arg:$name, ...)`: the operator and the arguments with their optional names.
    Dag {
        op: Box<Value>,
        args: Vec<(Value, Option<String>)>,
    },
    /// A reference to a def (named or anonymous).
    Def(String),
    // ----- unresolved forms, only inside classes and while a def is built -----
    /// A template argument of the class being instantiated.
    Var(String),
    /// A field of the record being built (late-bound: lets and subclasses may change it).
    Field(String),
    /// `value.field`
    Access(Box<Value>, String),
    /// `!op(args)`; `#` is `!strconcat` over the operands' string forms (`Paste`).
    Bang(String, Vec<Value>),
    /// `a # b`
    Paste(Box<Value>, Box<Value>),
    /// `Class<args>` as a value: becomes an anonymous def once its arguments are known.
    Anon(String, Vec<Value>),
}

impl Value {
    /// Whether no unresolved form is left.
    pub fn is_concrete(&self) -> bool {
        match self {
            Value::Unset | Value::Int(_) | Value::Str(_) | Value::Code(_) | Value::Def(_) => true,
            Value::List(l) => l.iter().all(Value::is_concrete),
            Value::Dag { op, args } => op.is_concrete() && args.iter().all(|(a, _)| a.is_concrete()),
            _ => false,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) | Value::Code(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_def(&self) -> Option<&str> {
        match self {
            Value::Def(d) => Some(d),
            _ => None,
        }
    }
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Unset => f.write_str("?"),
            Value::Int(i) => write!(f, "{i}"),
            // As llvm-tblgen prints strings: no escaping.
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::Code(s) => write!(f, "[{{{s}}}]"),
            Value::List(l) => {
                f.write_str("[")?;
                for (i, v) in l.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Dag { op, args } => {
                write!(f, "({op}")?;
                for (i, (v, n)) in args.iter().enumerate() {
                    f.write_str(if i == 0 { " " } else { ", " })?;
                    if *v != Value::Unset || n.is_none() {
                        write!(f, "{v}")?;
                    }
                    if let Some(n) = n {
                        if *v != Value::Unset {
                            f.write_str(":")?;
                        }
                        write!(f, "${n}")?;
                    }
                }
                f.write_str(")")
            }
            Value::Def(d) | Value::Var(d) | Value::Field(d) => f.write_str(d),
            Value::Access(v, n) => write!(f, "{v}.{n}"),
            Value::Bang(op, args) => {
                write!(f, "!{op}(")?;
                for (i, v) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            Value::Paste(a, b) => write!(f, "{a} # {b}"),
            Value::Anon(c, args) => {
                write!(f, "{c}<")?;
                for (i, v) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(">")
            }
        }
    }
}

/// A field of a record.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    pub value: Value,
    /// Where the field's current value was written.
    pub span: Span,
}

/// A template argument of a class.
#[derive(Clone, Debug)]
pub struct TemplateArg {
    pub name: String,
    pub ty: Ty,
    pub default: Option<Value>,
    pub span: Span,
}

/// A class or a def.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
    pub span: Span,
    pub is_class: bool,
    /// Whether this def was made for a `Class<args>` value.
    pub anonymous: bool,
    pub template_args: Vec<TemplateArg>,
    /// Every superclass, transitively, in the order llvm-tblgen lists them.
    pub superclasses: Vec<String>,
    pub fields: Vec<Field>,
}

impl Record {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
    pub fn field_mut(&mut self, name: &str) -> Option<&mut Field> {
        self.fields.iter_mut().find(|f| f.name == name)
    }
    pub fn value(&self, name: &str) -> Option<&Value> {
        self.field(name).map(|f| &f.value)
    }
    /// Whether the record derives from `class` (directly or not).
    pub fn is_a(&self, class: &str) -> bool {
        self.superclasses.iter().any(|s| s == class)
    }
    /// A string or code field; `None` if missing or unset.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.value(name).and_then(Value::as_str)
    }
    pub fn int(&self, name: &str) -> Option<i64> {
        self.value(name).and_then(Value::as_int)
    }
    /// A bit field (missing or unset is false).
    pub fn bit(&self, name: &str) -> bool {
        self.int(name).is_some_and(|v| v != 0)
    }
    pub fn list(&self, name: &str) -> &[Value] {
        self.value(name).and_then(Value::as_list).unwrap_or(&[])
    }
    pub fn def(&self, name: &str) -> Option<&str> {
        self.value(name).and_then(Value::as_def)
    }
}

/// Everything read from a root `.td` file and its includes.
#[derive(Debug, Default)]
pub struct RecordKeeper {
    pub sources: Sources,
    pub classes: HashMap<String, Record>,
    /// Defs in definition order (anonymous ones where they were made).
    pub defs: Vec<Record>,
    pub def_index: HashMap<String, usize>,
    /// Top-level `defvar`s.
    pub globals: HashMap<String, Value>,
}

impl RecordKeeper {
    pub fn def(&self, name: &str) -> Option<&Record> {
        self.def_index.get(name).map(|&i| &self.defs[i])
    }
    /// Named defs deriving from `class`, in definition order.
    pub fn defs_derived_from<'a>(&'a self, class: &'a str) -> impl Iterator<Item = &'a Record> + 'a {
        self.defs.iter().filter(move |d| !d.anonymous && d.is_a(class))
    }
    /// Whether def `def` derives from `class`.
    pub fn def_is_a(&self, def: &str, class: &str) -> bool {
        self.def(def).is_some_and(|d| d.is_a(class))
    }
}

/// The defs as text, sorted by name, one block per def with its superclasses and fields: the
/// same text as the def section of `llvm-tblgen --print-records` (a test compares them).
pub fn print_defs(rk: &RecordKeeper) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut defs: Vec<&Record> = rk.defs.iter().collect();
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    for d in defs {
        let _ = write!(out, "def {} {{", d.name);
        if !d.superclasses.is_empty() {
            let _ = write!(out, "\t//");
            for s in &d.superclasses {
                let _ = write!(out, " {s}");
            }
        }
        out.push('\n');
        for f in &d.fields {
            // llvm-tblgen shows a string field holding a code block as `code`.
            let ty = match (&f.ty, &f.value) {
                (Ty::Str | Ty::Code, Value::Code(_)) => "code".to_string(),
                (Ty::Str | Ty::Code, _) => "string".to_string(),
                _ => f.ty.to_string(),
            };
            let _ = writeln!(out, "  {ty} {} = {};", f.name, f.value);
        }
        out.push_str("}\n");
    }
    out
}
