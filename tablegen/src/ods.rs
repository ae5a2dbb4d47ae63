//! The ODS model: dialects and ops as the backends see them, built from the records of
//! `OpBase.td`'s classes, with spanned diagnostics for definitions that do not make sense.

use crate::diag::{Diagnostic, Span};
use crate::format::{self, FmtElem};
use crate::record::{Record, RecordKeeper, Value};

#[derive(Clone, Debug)]
pub struct DialectDef {
    pub def_name: String,
    pub name: String,
    pub summary: String,
    pub description: String,
    pub has_constant_materializer: bool,
    /// `hasOperationAttrVerify`: `verify_attribute` in the dialect module checks the
    /// discardable attributes named after the dialect.
    pub has_attribute_verifier: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    Single,
    Optional,
    Variadic,
}

/// An operand or result group.
#[derive(Clone, Debug)]
pub struct ValueArg {
    pub name: String,
    /// The constraint def (for variadic/optional groups, the wrapper def).
    pub constraint: String,
    pub arity: Arity,
    pub summary: String,
    pub predicate: String,
    pub builder: String,
    pub irdl: String,
}

#[derive(Clone, Debug)]
pub struct EnumCase {
    pub symbol: String,
    pub value: i64,
}

#[derive(Clone, Debug)]
pub enum AttrFormatKind {
    Plain,
    Enum {
        name: String,
        cases: Vec<EnumCase>,
        width: u32,
    },
    Flags {
        dialect: String,
        mnemonic: String,
        flags: Vec<String>,
        separator: String,
        none: String,
        all: String,
    },
    /// A unit attribute: an optional group's anchor, printed as the group's literals.
    Unit,
    /// A string attribute written `@name`.
    SymbolName,
    /// An `array<i32: ...>` written as `[1, 2]`.
    DenseI32,
}

#[derive(Clone, Debug)]
pub struct AttrArg {
    pub name: String,
    pub constraint: String,
    pub optional: bool,
    pub default: String,
    pub kind: String,
    pub summary: String,
    pub predicate: String,
    pub irdl: String,
    pub format: AttrFormatKind,
}

#[derive(Clone, Debug)]
pub struct RegionArg {
    pub name: String,
    pub variadic: bool,
    pub summary: String,
    pub predicate: String,
}

#[derive(Clone, Debug)]
pub struct SuccessorArg {
    pub name: String,
    pub variadic: bool,
}

#[derive(Clone, Debug)]
pub struct OpDef {
    pub def_name: String,
    pub span: Span,
    pub dialect: String,
    pub mnemonic: String,
    /// `dialect.mnemonic`
    pub name: String,
    pub summary: String,
    pub description: String,
    pub operands: Vec<ValueArg>,
    pub attrs: Vec<AttrArg>,
    pub results: Vec<ValueArg>,
    pub regions: Vec<RegionArg>,
    pub successors: Vec<SuccessorArg>,
    /// Every trait def, for the docs.
    pub trait_defs: Vec<(String, String)>,
    /// Flags of the IR core's `Traits`.
    pub native_traits: Vec<String>,
    pub same_type_operands: bool,
    pub all_types_match: Vec<Vec<String>>,
    pub parent_ops: Vec<String>,
    pub implicit_terminator: Option<String>,
    pub default_dialect: Option<String>,
    pub segmented_operands: bool,
    pub assembly_format: String,
    pub format: Option<Vec<FmtElem>>,
    pub custom_format: bool,
    pub verifier: Option<String>,
    pub folder: Option<String>,
    pub canonicalizer: Option<String>,
    pub successor_operands: Vec<String>,
    pub callee_attr: Option<String>,
    pub callable_region: Option<String>,
    pub memory_effects_fn: Option<String>,
    /// `asmResultNamesFn`: the printer's names for the op's results.
    pub asm_result_names_fn: Option<String>,
    pub print_guard_fn: Option<String>,
    pub region_successors_fn: Option<String>,
}

impl OpDef {
    pub fn operand_index(&self, n: &str) -> Option<usize> {
        self.operands.iter().position(|o| o.name == n)
    }
    pub fn result_index(&self, n: &str) -> Option<usize> {
        self.results.iter().position(|o| o.name == n)
    }
    pub fn attr_index(&self, n: &str) -> Option<usize> {
        self.attrs.iter().position(|o| o.name == n)
    }
    /// The name the op's functions use (`cond_br`, `index_cast`).
    pub fn fn_name(&self) -> String {
        self.mnemonic.replace('.', "_")
    }
}

/// A dialect and its ops, in definition order.
#[derive(Clone, Debug)]
pub struct DialectModel {
    pub dialect: DialectDef,
    pub ops: Vec<OpDef>,
    pub types: Vec<TypeDefModel>,
}

/// A dialect type's declaration (`TypeDef`).
#[derive(Clone, Debug)]
pub struct TypeDefModel {
    pub def_name: String,
    pub mnemonic: String,
    pub summary: String,
    pub description: String,
    /// `(name, IRDL constraint, summary)` per parameter.
    pub parameters: Vec<(String, String, String)>,
    pub span: Span,
}

fn err(span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(span, msg)
}

fn field_span(r: &Record, f: &str) -> Span {
    r.field(f).map_or(r.span, |f| f.span)
}

/// Builds the model of the (single) dialect defined in `rk`, with its ops.
pub fn build(rk: &RecordKeeper) -> Result<DialectModel, Diagnostic> {
    let dialects: Vec<&Record> = rk.defs_derived_from("Dialect").collect();
    let d = match dialects.as_slice() {
        [d] => *d,
        [] => return Err(err(Span::default(), "no dialect is defined in this file (a def deriving from 'Dialect')")),
        [_, second, ..] => return Err(err(second.span, "more than one dialect is defined in this file")),
    };
    let name = d.str("name").unwrap_or_default().to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(err(field_span(d, "name"), format!("dialect '{}' needs a 'name' of letters, digits and '_'", d.name)));
    }
    let dialect = DialectDef {
        def_name: d.name.clone(),
        name: name.clone(),
        summary: d.str("summary").unwrap_or_default().to_string(),
        description: d.str("description").unwrap_or_default().to_string(),
        has_constant_materializer: d.bit("hasConstantMaterializer"),
        has_attribute_verifier: d.bit("hasOperationAttrVerify"),
    };
    let mut ops: Vec<OpDef> = Vec::new();
    for r in rk.defs_derived_from("Op") {
        let op = build_op(rk, r, &dialect)?;
        if let Some(prev) = ops.iter().find(|o| o.name == op.name) {
            return Err(err(r.span, format!("op '{}' is defined twice", op.name)).with_note(prev.span, "first defined here"));
        }
        ops.push(op);
    }
    let mut types: Vec<TypeDefModel> = Vec::new();
    for r in rk.defs_derived_from("TypeDef") {
        let t = build_type(rk, r, &dialect)?;
        if let Some(prev) = types.iter().find(|x| x.mnemonic == t.mnemonic) {
            return Err(err(r.span, format!("type '{}' is defined twice", t.mnemonic)).with_note(prev.span, "first defined here"));
        }
        types.push(t);
    }
    Ok(DialectModel { dialect, ops, types })
}

fn build_type(rk: &RecordKeeper, r: &Record, dialect: &DialectDef) -> Result<TypeDefModel, Diagnostic> {
    let Some(dr) = r.value("typeDialect").and_then(|v| def_record(rk, v)) else {
        return Err(err(r.span, format!("type '{}' has no dialect", r.name)));
    };
    if dr.name != dialect.def_name {
        return Err(err(r.span, format!("type '{}' belongs to dialect '{}', not '{}'", r.name, dr.name, dialect.def_name)));
    }
    let mnemonic = r.str("typeMnemonic").unwrap_or_default().to_string();
    if !is_ident(&mnemonic) {
        return Err(err(r.span, format!("type '{}' needs a mnemonic of identifier characters, found '{mnemonic}'", r.name)));
    }
    let mut parameters: Vec<(String, String, String)> = Vec::new();
    for (v, n) in dag_args(r, "parameters", "ins")? {
        let sp = field_span(r, "parameters");
        let Some(n) = n.as_ref().filter(|n| is_ident(n)) else {
            return Err(err(sp, format!("every parameter of type '{}' needs a '$name'", r.name)));
        };
        if parameters.iter().any(|p| &p.0 == n) {
            return Err(err(sp, format!("'{n}' names two parameters of type '{}'", r.name)));
        }
        let Some(c) = def_record(rk, v).filter(|c| c.is_a("TypeParameter")) else {
            return Err(err(sp, format!("parameter '{n}' of type '{}' must be a TypeParameter, found '{v}'", r.name)));
        };
        parameters.push((n.clone(), c.str("irdl").unwrap_or("any").to_string(), c.str("summary").unwrap_or_default().to_string()));
    }
    Ok(TypeDefModel {
        def_name: r.name.clone(),
        mnemonic,
        summary: r.str("summary").unwrap_or_default().to_string(),
        description: r.str("description").unwrap_or_default().to_string(),
        parameters,
        span: r.span,
    })
}

fn def_record<'a>(rk: &'a RecordKeeper, v: &Value) -> Option<&'a Record> {
    v.as_def().and_then(|n| rk.def(n))
}

fn dag_args<'a>(r: &'a Record, field: &str, op: &str) -> Result<&'a [(Value, Option<String>)], Diagnostic> {
    match r.value(field) {
        Some(Value::Dag { op: o, args }) => {
            if o.as_def() != Some(op) {
                return Err(err(field_span(r, field), format!("'{field}' must be a dag with operator '{op}', found '{o}'")));
            }
            Ok(args)
        }
        _ => Err(err(field_span(r, field), format!("'{field}' must be a dag"))),
    }
}

fn is_ident(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn build_op(rk: &RecordKeeper, r: &Record, dialect: &DialectDef) -> Result<OpDef, Diagnostic> {
    let Some(dr) = r.value("opDialect").and_then(|v| def_record(rk, v)) else {
        return Err(err(r.span, format!("op '{}' has no dialect", r.name)));
    };
    if dr.name != dialect.def_name {
        return Err(err(r.span, format!("op '{}' belongs to dialect '{}', not '{}'", r.name, dr.name, dialect.def_name)));
    }
    let mnemonic = r.str("opName").unwrap_or_default().to_string();
    if mnemonic.is_empty() || !mnemonic.split('.').all(is_ident) {
        return Err(err(r.span, format!("op '{}' needs a mnemonic of identifier characters, found '{mnemonic}'", r.name)));
    }
    let mut seen_names: Vec<String> = Vec::new();
    let mut check_name = |n: &Option<String>, sp: Span, what: &str| -> Result<String, Diagnostic> {
        let Some(n) = n else { return Err(err(sp, format!("every {what} of '{}' needs a '$name'", r.name))) };
        if !is_ident(n) {
            return Err(err(sp, format!("'{n}' is not a valid {what} name")));
        }
        if seen_names.contains(n) {
            return Err(err(sp, format!("'{n}' names two arguments, results, regions or successors of '{}'", r.name)));
        }
        seen_names.push(n.clone());
        Ok(n.clone())
    };
    let mut operands = Vec::new();
    let mut attrs = Vec::new();
    let args_span = field_span(r, "arguments");
    for (v, n) in dag_args(r, "arguments", "ins")? {
        let name = check_name(n, args_span, "argument")?;
        let Some(c) = def_record(rk, v) else {
            return Err(err(args_span, format!("argument '{name}' of '{}' must be a type or attribute constraint, found '{v}'", r.name)));
        };
        if c.is_a("TypeConstraint") {
            operands.push(value_arg(c, name));
        } else if c.is_a("Attr") {
            attrs.push(attr_arg(rk, c, name, args_span)?);
        } else {
            return Err(err(args_span, format!("argument '{name}' of '{}': '{}' is neither a TypeConstraint nor an Attr", r.name, c.name)));
        }
    }
    let mut results = Vec::new();
    let res_span = field_span(r, "results");
    for (v, n) in dag_args(r, "results", "outs")? {
        let name = check_name(n, res_span, "result")?;
        match def_record(rk, v) {
            Some(c) if c.is_a("TypeConstraint") => results.push(value_arg(c, name)),
            _ => return Err(err(res_span, format!("result '{name}' of '{}' must be a type constraint, found '{v}'", r.name))),
        }
    }
    let mut regions = Vec::new();
    let reg_span = field_span(r, "regions");
    for (v, n) in dag_args(r, "regions", "region")? {
        let name = check_name(n, reg_span, "region")?;
        match def_record(rk, v) {
            Some(c) if c.is_a("Region") => regions.push(RegionArg {
                name,
                variadic: c.bit("isVariadic"),
                summary: c.str("summary").unwrap_or_default().to_string(),
                predicate: c.str("predicate").unwrap_or("true").to_string(),
            }),
            _ => return Err(err(reg_span, format!("region '{name}' of '{}' must be a Region, found '{v}'", r.name))),
        }
    }
    let mut successors = Vec::new();
    let succ_span = field_span(r, "successors");
    for (v, n) in dag_args(r, "successors", "successor")? {
        let name = check_name(n, succ_span, "successor")?;
        match def_record(rk, v) {
            Some(c) if c.is_a("Successor") => successors.push(SuccessorArg { name, variadic: c.bit("isVariadic") }),
            _ => return Err(err(succ_span, format!("successor '{name}' of '{}' must be a Successor, found '{v}'", r.name))),
        }
    }
    // Traits.
    let mut op = OpDef {
        def_name: r.name.clone(),
        span: r.span,
        dialect: dialect.name.clone(),
        name: format!("{}.{mnemonic}", dialect.name),
        mnemonic,
        summary: r.str("summary").unwrap_or_default().to_string(),
        description: r.str("description").unwrap_or_default().to_string(),
        operands,
        attrs,
        results,
        regions,
        successors,
        trait_defs: Vec::new(),
        native_traits: Vec::new(),
        same_type_operands: false,
        all_types_match: Vec::new(),
        parent_ops: Vec::new(),
        implicit_terminator: None,
        default_dialect: None,
        segmented_operands: false,
        assembly_format: r.str("assemblyFormat").unwrap_or_default().to_string(),
        format: None,
        custom_format: r.bit("hasCustomAssemblyFormat"),
        verifier: None,
        folder: None,
        canonicalizer: None,
        successor_operands: r.list("successorOperands").iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        callee_attr: r.str("calleeAttr").filter(|s| !s.is_empty()).map(str::to_string),
        callable_region: r.str("callableRegion").filter(|s| !s.is_empty()).map(str::to_string),
        memory_effects_fn: r.str("memoryEffectsFn").filter(|s| !s.is_empty()).map(str::to_string),
        asm_result_names_fn: r.str("asmResultNamesFn").filter(|s| !s.is_empty()).map(str::to_string),
        print_guard_fn: r.str("printGuardFn").filter(|s| !s.is_empty()).map(str::to_string),
        region_successors_fn: r.str("regionSuccessorsFn").filter(|s| !s.is_empty()).map(str::to_string),
    };
    let traits_span = field_span(r, "traits");
    for t in r.list("traits") {
        let Some(tr) = def_record(rk, t) else { return Err(err(traits_span, format!("trait '{t}' is not a record"))) };
        if !tr.is_a("Trait") {
            return Err(err(traits_span, format!("'{}' in the traits of '{}' is not a Trait", tr.name, r.name)));
        }
        let shown = if tr.anonymous { tr.superclasses.last().cloned().unwrap_or_default() } else { tr.name.clone() };
        op.trait_defs.push((shown, tr.str("summary").unwrap_or_default().to_string()));
        if let Some(f) = tr.str("flag") {
            op.native_traits.push(f.to_string());
        }
        if tr.name == "SameTypeOperands" {
            op.same_type_operands = true;
        }
        if tr.name == "AttrSizedOperandSegments" {
            op.segmented_operands = true;
        }
        if tr.is_a("AllTypesMatch") {
            let names: Vec<String> = tr.list("values").iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
            for n in &names {
                if op.operand_index(n).is_none() && op.result_index(n).is_none() {
                    return Err(err(traits_span, format!("AllTypesMatch of '{}' names '{n}', which is no operand or result", r.name)));
                }
            }
            op.all_types_match.push(names);
        }
        if tr.is_a("HasParent") || tr.is_a("ParentOneOf") {
            op.parent_ops.extend(tr.list("parentOps").iter().filter_map(|v| v.as_str().map(str::to_string)));
        }
        if tr.is_a("SingleBlockImplicitTerminator") {
            op.implicit_terminator = tr.str("terminator").map(str::to_string);
        }
        if tr.is_a("DefaultDialect") {
            op.default_dialect = tr.str("dialect").map(str::to_string);
        }
    }
    let flexible = op.operands.iter().filter(|o| o.arity != Arity::Single).count();
    if flexible > 1 && !op.segmented_operands {
        return Err(err(
            args_span,
            format!("'{}' has {flexible} variadic or optional operand groups: add the AttrSizedOperandSegments trait", r.name),
        ));
    }
    if op.results.iter().filter(|o| o.arity != Arity::Single).count() > 1 {
        return Err(err(res_span, format!("'{}' has more than one variadic or optional result group", r.name)));
    }
    if op.successor_operands.len() > op.successors.len() {
        return Err(err(field_span(r, "successorOperands"), "more successor operand groups than successors"));
    }
    for g in &op.successor_operands {
        if op.operand_index(g).is_none() {
            return Err(err(field_span(r, "successorOperands"), format!("successorOperands names '{g}', which is no operand group")));
        }
    }
    if let Some(c) = &op.callee_attr {
        if op.attr_index(c).is_none() {
            return Err(err(field_span(r, "calleeAttr"), format!("calleeAttr names '{c}', which is no attribute of the op")));
        }
    }
    if let Some(c) = &op.callable_region {
        if !op.regions.iter().any(|x| &x.name == c) {
            return Err(err(field_span(r, "callableRegion"), format!("callableRegion names '{c}', which is no region of the op")));
        }
    }
    let hook = |flag: &str, field: &str, prefix: &str| -> Option<String> {
        let explicit = r.str(field).filter(|s| !s.is_empty()).map(str::to_string);
        if r.bit(flag) || explicit.is_some() {
            Some(explicit.unwrap_or_else(|| format!("{prefix}_{}", op.mnemonic.replace('.', "_"))))
        } else {
            None
        }
    };
    op.verifier = hook("hasVerifier", "verifierFn", "verify");
    op.folder = hook("hasFolder", "folderFn", "fold");
    op.canonicalizer = hook("hasCanonicalizer", "canonicalizerFn", "canonicalize");
    if !op.assembly_format.is_empty() {
        if op.custom_format {
            return Err(err(field_span(r, "assemblyFormat"), "an op cannot have both an assemblyFormat and hasCustomAssemblyFormat"));
        }
        let elems = format::parse_format(&op.assembly_format, &op)
            .map_err(|m| err(field_span(r, "assemblyFormat"), format!("invalid assemblyFormat of '{}': {m}", r.name)))?;
        op.format = Some(elems);
    }
    Ok(op)
}

fn value_arg(c: &Record, name: String) -> ValueArg {
    let arity = if c.bit("isVariadic") {
        Arity::Variadic
    } else if c.bit("isOptional") {
        Arity::Optional
    } else {
        Arity::Single
    };
    ValueArg {
        name,
        constraint: c.name.clone(),
        arity,
        summary: c.str("summary").unwrap_or_default().to_string(),
        predicate: c.str("predicate").unwrap_or("true").to_string(),
        builder: c.str("builder").unwrap_or_default().trim().to_string(),
        irdl: c.str("irdl").unwrap_or("any").to_string(),
    }
}

fn attr_arg(rk: &RecordKeeper, c: &Record, name: String, sp: Span) -> Result<AttrArg, Diagnostic> {
    // `OptionalAttr<X>`/`DefaultValuedAttr<X, v>` wrap the constraint that knows the format.
    let mut base = c;
    while let Some(b) = base.value("baseAttr").and_then(|v| def_record(rk, v)) {
        base = b;
    }
    let format = match base.str("kind").unwrap_or("any") {
        "enum" => AttrFormatKind::Enum {
            name: base.str("name").unwrap_or_default().to_string(),
            cases: base
                .list("cases")
                .iter()
                .filter_map(|v| def_record(rk, v))
                .map(|e| EnumCase { symbol: e.str("symbol").unwrap_or_default().to_string(), value: e.int("value").unwrap_or(0) })
                .collect(),
            width: base.int("width").unwrap_or(64) as u32,
        },
        "dialect" => AttrFormatKind::Flags {
            dialect: base.str("dialect").unwrap_or_default().to_string(),
            mnemonic: base.str("mnemonic").unwrap_or_default().to_string(),
            flags: base.list("flags").iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
            separator: base.str("separator").unwrap_or(", ").to_string(),
            none: base.str("noneName").unwrap_or("none").to_string(),
            all: base.str("allName").unwrap_or_default().to_string(),
        },
        "unit" => AttrFormatKind::Unit,
        "dense_i32" => AttrFormatKind::DenseI32,
        "str" if base.bit("symbolName") => AttrFormatKind::SymbolName,
        _ => AttrFormatKind::Plain,
    };
    if let AttrFormatKind::Enum { cases, .. } = &format {
        if cases.is_empty() {
            return Err(err(sp, format!("enum attribute '{}' has no cases", base.name)));
        }
    }
    Ok(AttrArg {
        name,
        constraint: c.name.clone(),
        optional: c.bit("isOptional"),
        default: c.str("defaultValue").unwrap_or_default().to_string(),
        kind: c.str("kind").unwrap_or("any").to_string(),
        summary: c.str("summary").unwrap_or_default().to_string(),
        predicate: c.str("predicate").unwrap_or("true").to_string(),
        irdl: c.str("irdl").unwrap_or("any").to_string(),
        format,
    })
}
