//! Import from upstream MLIR: a module of upstream's `gpu`, `llvm`, `nvvm`, `arith`, `scf`,
//! `cf`, `math` and `memref` dialects (as mlir-opt's GPU pipeline writes, or before it) into
//! cuprite's `nvvm` level, to compile with cuprite's own backend.
//!
//! 1. MLIR parses and verifies the text (every upstream dialect registered) and lowers what
//!    is not yet the `llvm` dialect with upstream's passes, inside each `gpu.module` (and on
//!    the top-level module): `convert-scf-to-cf`, `convert-gpu-to-nvvm` (memref arguments of
//!    a kernel as bare pointers, `use-bare-ptr-memref-call-conv`, where all have static
//!    shapes, else as MLIR's descriptors; it also lowers `arith`, `cf`, `math`, `memref` and
//!    `index`), `reconcile-unrealized-casts`. Input already in the
//!    `llvm` dialect (mlir-opt's output, with memref descriptors) passes through unchanged.
//! 2. Each `llvm.func`, `llvm.mlir.global` and op becomes its cuprite `nvvm` counterpart,
//!    written as cuprite's generic form and read by cuprite's parser (which verifies it):
//!    arithmetic, comparisons (LLVM's predicate numbering mapped to ours), casts, branches
//!    with block arguments, loads and stores, calls; `getelementptr` as byte offsets
//!    (`ptradd`) from the data layout of its element type; `nvvm.read.ptx.sreg.*` and
//!    `nvvm.barrier0` as `sreg` and `barrier`; `llvm.intr.*` math as cuprite's intrinsics.
//!    Aggregates (memref descriptors built with `insertvalue`) are taken apart: each field
//!    is its own value, and `extractvalue` reads the field. Anything else (an aggregate
//!    through a block argument or memory, an op without a counterpart) is an error that
//!    names the op.

use crate::bridge::{print_with, sref, string, Error};
use cuprite_dialects::nvvm;
use mlir_sys::*;
use rustc_hash::FxHashMap;
use std::ffi::c_void;
use std::fmt::Write;

/// The upstream passes that bring a module to the `llvm` and `nvvm` dialects.
pub const LOWER_TO_LLVM: &str = "builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},\
reconcile-unrealized-casts),convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)";

/// Parses upstream MLIR `text`, lowers it to the `llvm` dialect and writes it as cuprite's
/// `nvvm` level (generic form, for cuprite's parser).
pub fn import_upstream(text: &str) -> Result<String, Error> {
    let (context, diags) = crate::bridge::context_with(melior::utility::register_all_dialects);
    melior::utility::register_all_passes();
    let failed = |what: &str| Error(format!("{what}:\n{}", diags.borrow().join("\n")));
    // Memrefs as bare pointers where their shapes are static (a C-like kernel signature);
    // else as MLIR's descriptors (each memref argument is its pointers, offset, sizes and
    // strides).
    let mut lowered = None;
    for pipeline in [LOWER_TO_LLVM.to_string(), LOWER_TO_LLVM.replace("{use-bare-ptr-memref-call-conv=1}", "")] {
        let mut m = melior::ir::Module::parse(&context, text).ok_or_else(|| failed("MLIR does not parse the module"))?;
        let pm = melior::pass::PassManager::new(&context);
        melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), &pipeline)
            .map_err(|e| Error(format!("the lowering pipeline does not parse: {e}")))?;
        if pm.run(&mut m).is_ok() {
            lowered = Some(m);
            break;
        }
    }
    let module = lowered.ok_or_else(|| failed("upstream's lowering to the llvm dialect failed"))?;
    let mut w = Writer::default();
    w.out.push_str("module {\n");
    let top = unsafe { mlirOperationGetRegion(mlirModuleGetOperation(module.to_raw()), 0) };
    w.region_symbols(top)?;
    w.out.push_str("}\n");
    Ok(w.out)
}

fn name_of(op: MlirOperation) -> String {
    string(unsafe { mlirIdentifierStr(mlirOperationGetName(op)) })
}

fn type_text(t: MlirType) -> String {
    print_with(|cb, d| unsafe { mlirTypePrint(t, cb, d) })
}

fn attr_text(a: MlirAttribute) -> String {
    print_with(|cb, d| unsafe { mlirAttributePrint(a, cb, d) })
}

fn attr(op: MlirOperation, name: &str) -> Option<MlirAttribute> {
    let a = unsafe { mlirOperationGetAttributeByName(op, sref(name)) };
    (!a.ptr.is_null()).then_some(a)
}

fn int_attr(op: MlirOperation, name: &str) -> Option<i64> {
    let a = attr(op, name)?;
    unsafe { mlirAttributeIsAInteger(a) }.then(|| unsafe { mlirIntegerAttrGetValueInt(a) })
}

fn ops_of(block: MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    let mut o = unsafe { mlirBlockGetFirstOperation(block) };
    while !o.ptr.is_null() {
        out.push(o);
        o = unsafe { mlirOperationGetNextInBlock(o) };
    }
    out
}

fn blocks_of(region: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    let mut b = unsafe { mlirRegionGetFirstBlock(region) };
    while !b.ptr.is_null() {
        out.push(b);
        b = unsafe { mlirBlockGetNextInRegion(b) };
    }
    out
}

/// An LLVM type's shape, for sizes and offsets (NVPTX's data layout: natural alignment).
#[derive(Clone, Debug)]
enum Shape {
    Scalar(u64),
    Array(u64, Box<Shape>),
    Struct(Vec<Shape>),
}

impl Shape {
    fn parse(text: &str) -> Option<Shape> {
        let t = text.trim();
        let t = t.strip_prefix("!llvm.").unwrap_or(t);
        if let Some(inner) = t.strip_prefix("struct<(").and_then(|r| r.strip_suffix(")>")) {
            return Some(Shape::Struct(split_top(inner).iter().map(|e| Shape::parse(e)).collect::<Option<_>>()?));
        }
        if let Some(inner) = t.strip_prefix("array<").and_then(|r| r.strip_suffix('>')) {
            let (n, elem) = inner.split_once(" x ")?;
            return Some(Shape::Array(n.trim().parse().ok()?, Box::new(Shape::parse(elem)?)));
        }
        if t == "ptr" || t.starts_with("ptr<") {
            return Some(Shape::Scalar(8));
        }
        let bits: u64 = match t {
            "f16" | "bf16" => 16,
            "f32" => 32,
            "f64" => 64,
            _ => t.strip_prefix('i')?.parse().ok()?,
        };
        Some(Shape::Scalar(bits.div_ceil(8).next_power_of_two()))
    }

    fn align(&self) -> u64 {
        match self {
            Shape::Scalar(s) => *s,
            Shape::Array(_, e) => e.align(),
            Shape::Struct(fs) => fs.iter().map(Shape::align).max().unwrap_or(1),
        }
    }

    fn size(&self) -> u64 {
        match self {
            Shape::Scalar(s) => *s,
            Shape::Array(n, e) => n * e.size(),
            Shape::Struct(fs) => {
                let mut off = 0u64;
                for f in fs {
                    off = off.div_ceil(f.align()) * f.align() + f.size();
                }
                off.div_ceil(self.align()) * self.align()
            }
        }
    }

    /// The byte offset of field `i` and its shape.
    fn field(&self, i: u64) -> Option<(u64, Shape)> {
        match self {
            Shape::Array(_, e) => Some((i * e.size(), (**e).clone())),
            Shape::Struct(fs) => {
                let mut off = 0u64;
                for (k, f) in fs.iter().enumerate() {
                    off = off.div_ceil(f.align()) * f.align();
                    if k as u64 == i {
                        return Some((off, f.clone()));
                    }
                    off += f.size();
                }
                None
            }
            Shape::Scalar(_) => None,
        }
    }
}

/// `a, b<c, d>, (e, f)` split at top-level commas.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in s.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// An aggregate value taken apart: its leaves (a value's name, or `None` for undefined).
#[derive(Clone, Debug)]
enum Agg {
    Leaf(Option<String>),
    Fields(Vec<Agg>),
}

impl Agg {
    fn undef(shape: &Shape) -> Agg {
        match shape {
            Shape::Scalar(_) => Agg::Leaf(None),
            Shape::Array(n, e) => Agg::Fields((0..*n).map(|_| Agg::undef(e)).collect()),
            Shape::Struct(fs) => Agg::Fields(fs.iter().map(Agg::undef).collect()),
        }
    }

    fn at(&self, path: &[i64]) -> Option<&Agg> {
        match (self, path.split_first()) {
            (_, None) => Some(self),
            (Agg::Fields(fs), Some((&i, rest))) => fs.get(usize::try_from(i).ok()?)?.at(rest),
            _ => None,
        }
    }

    fn set(&mut self, path: &[i64], v: Agg) -> Option<()> {
        match path.split_first() {
            None => {
                *self = v;
                Some(())
            }
            Some((&i, rest)) => match self {
                Agg::Fields(fs) => fs.get_mut(usize::try_from(i).ok()?)?.set(rest, v),
                Agg::Leaf(_) => None,
            },
        }
    }
}

#[derive(Default)]
struct Writer {
    out: String,
    names: FxHashMap<*const c_void, String>,
    aggs: FxHashMap<*const c_void, Agg>,
    blocks: FxHashMap<*const c_void, String>,
    next: u32,
}

/// LLVM's `icmp` predicates in LLVM's numbering (the attribute's value upstream).
const LLVM_ICMP: [&str; 10] = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
/// LLVM's `fcmp` predicates in LLVM's numbering.
const LLVM_FCMP: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"];

/// An upstream predicate number as cuprite's enum value, by keyword (`false`/`true` have
/// none).
fn predicate<E>(table: &[&str], llvm: i64, ours: impl Fn(&str) -> Option<E>) -> Option<E> {
    ours(table.get(usize::try_from(llvm).ok()?)?)
}

impl Writer {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%i{}", self.next)
    }

    fn err(op: MlirOperation, what: &str) -> Error {
        let text = print_with(|cb, d| unsafe { mlirOperationPrint(op, cb, d) });
        Error(format!("import from upstream MLIR: {what}: `{}`", text.lines().next().unwrap_or("").trim()))
    }

    fn v(&mut self, v: MlirValue) -> String {
        let n = self.names.len();
        self.names.entry(v.ptr).or_insert_with(|| format!("%u{n}")).clone()
    }

    fn line(&mut self, s: &str) {
        self.out.push_str("    ");
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// The functions and globals of a module body (and of each `gpu.module` in it).
    fn region_symbols(&mut self, r: MlirRegion) -> Result<(), Error> {
        for b in blocks_of(r) {
            for op in ops_of(b) {
                match name_of(op).as_str() {
                    "gpu.module" => self.region_symbols(unsafe { mlirOperationGetRegion(op, 0) })?,
                    "llvm.func" => self.func(op)?,
                    "llvm.mlir.global" => self.global(op)?,
                    // What the GPU pipeline leaves around the kernels: host-side launch
                    // code, binaries, module end markers.
                    "gpu.binary" | "gpu.module_end" | "func.func" | "llvm.mlir.global_ctors" | "llvm.mlir.global_dtors" => {}
                    other => return Err(Self::err(op, &format!("`{other}` at module level has no nvvm counterpart"))),
                }
            }
        }
        Ok(())
    }

    fn global(&mut self, op: MlirOperation) -> Result<(), Error> {
        let name = attr(op, "sym_name").map(|a| string(unsafe { mlirStringAttrGetValue(a) })).ok_or_else(|| Self::err(op, "no name"))?;
        let ty = attr(op, "global_type").map(|a| type_text(unsafe { mlirTypeAttrGetValue(a) })).unwrap_or_default();
        let shape = Shape::parse(&ty).ok_or_else(|| Self::err(op, "a global of a type without a layout"))?;
        let space = int_attr(op, "addr_space").unwrap_or(0);
        let align = int_attr(op, "alignment").unwrap_or(shape.align() as i64);
        let initialized = attr(op, "value").is_some() || !unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) }.ptr.is_null();
        // Shared memory's initializer is `undef` (it has none); other memory's is not imported.
        if initialized && space != 3 {
            return Err(Self::err(op, "a global with an initializer (only shared and uninitialized ones are imported)"));
        }
        let _ = writeln!(
            self.out,
            "  \"nvvm.global\"() <{{align = {align} : i32, size = {} : i64, space = {space} : i32, sym_name = \"{name}\"}}> : () -> ()",
            shape.size().max(1)
        );
        Ok(())
    }

    fn func(&mut self, op: MlirOperation) -> Result<(), Error> {
        let name = attr(op, "sym_name").map(|a| string(unsafe { mlirStringAttrGetValue(a) })).ok_or_else(|| Self::err(op, "no name"))?;
        let fty = attr(op, "function_type").map(|a| unsafe { mlirTypeAttrGetValue(a) }).ok_or_else(|| Self::err(op, "no type"))?;
        let n = unsafe { mlirLLVMFunctionTypeGetNumInputs(fty) };
        let inputs: Vec<String> = (0..n).map(|i| type_text(unsafe { mlirLLVMFunctionTypeGetInput(fty, i) })).collect();
        let ret = type_text(unsafe { mlirLLVMFunctionTypeGetReturnType(fty) });
        let results = if ret == "!llvm.void" { String::new() } else { ret };
        let kernel = attr(op, "nvvm.kernel").is_some() || attr(op, "gpu.kernel").is_some();
        let mut props = vec![
            format!("function_type = ({}) -> ({results})", inputs.join(", ")),
            format!("kind = {} : i32", if kernel { nvvm::FuncKind::Kernel } else { nvvm::FuncKind::Device } as i64),
            format!("sym_name = \"{name}\""),
        ];
        if let Some(a) = attr(op, "nvvm.maxntid") {
            props.push(format!("maxntid = {}", attr_text(a)));
        }
        if let Some(n) = int_attr(op, "nvvm.minctasm") {
            props.push(format!("minnctapersm = {n} : i32"));
        }
        let body = unsafe { mlirOperationGetRegion(op, 0) };
        let blocks = blocks_of(body);
        if blocks.is_empty() {
            // Upstream lowers math to calls into libdevice, which cuprite does not link: its
            // math library works at the cuda level.
            if name.starts_with("__nv_") {
                return Err(Self::err(op, &format!("a call into libdevice (`{name}`), which cuprite does not link")));
            }
            props.push("sym_visibility = \"private\"".into());
            props.sort();
            let _ = writeln!(self.out, "  \"nvvm.func\"() <{{{}}}> ({{\n  }}) : () -> ()", props.join(", "));
            return Ok(());
        }
        props.sort();
        self.names.clear();
        self.aggs.clear();
        self.blocks.clear();
        for (i, &b) in blocks.iter().enumerate() {
            self.blocks.insert(b.ptr as *const c_void, format!("^bb{i}"));
        }
        let _ = writeln!(self.out, "  \"nvvm.func\"() <{{{}}}> ({{", props.join(", "));
        for (i, &b) in blocks.iter().enumerate() {
            let n = unsafe { mlirBlockGetNumArguments(b) };
            let mut args = Vec::new();
            for k in 0..n {
                let a = unsafe { mlirBlockGetArgument(b, k) };
                let t = type_text(unsafe { mlirValueGetType(a) });
                if t.contains("struct<") || t.contains("array<") {
                    return Err(Error(format!("import from upstream MLIR: `{name}` passes an aggregate ({t}) through a block argument")));
                }
                args.push(format!("{}: {t}", self.v(a)));
            }
            let _ = writeln!(self.out, "  ^bb{i}({}):", args.join(", "));
            for o in ops_of(b) {
                self.op(o)?;
            }
        }
        self.out.push_str("  }) : () -> ()\n");
        Ok(())
    }

    fn operands(&mut self, op: MlirOperation) -> Vec<(String, String)> {
        let n = unsafe { mlirOperationGetNumOperands(op) };
        (0..n)
            .map(|i| {
                let v = unsafe { mlirOperationGetOperand(op, i) };
                (self.v(v), type_text(unsafe { mlirValueGetType(v) }))
            })
            .collect()
    }

    fn result(&mut self, op: MlirOperation) -> Option<(String, String)> {
        (unsafe { mlirOperationGetNumResults(op) } > 0).then(|| {
            let r = unsafe { mlirOperationGetResult(op, 0) };
            (self.v(r), type_text(unsafe { mlirValueGetType(r) }))
        })
    }

    /// `%r = "nvvm.<name>"(operands) <{props}> : (types) -> type`.
    fn emit(&mut self, r: Option<&(String, String)>, name: &str, ops: &[(String, String)], props: &str) {
        let lhs = r.map(|(n, _)| format!("{n} = ")).unwrap_or_default();
        let rt = r.map(|(_, t)| t.clone()).unwrap_or_else(|| "()".into());
        let names: Vec<&str> = ops.iter().map(|o| o.0.as_str()).collect();
        let tys: Vec<&str> = ops.iter().map(|o| o.1.as_str()).collect();
        let props = if props.is_empty() { String::new() } else { format!(" <{{{props}}}>") };
        self.line(&format!("{lhs}\"nvvm.{name}\"({}){props} : ({}) -> {rt}", names.join(", "), tys.join(", ")));
    }

    fn succ(&mut self, op: MlirOperation, i: isize) -> String {
        let b = unsafe { mlirOperationGetSuccessor(op, i) };
        self.blocks.get(&(b.ptr as *const c_void)).cloned().unwrap_or_else(|| "^bb0".into())
    }

    fn agg(&self, v: MlirValue) -> Option<Agg> {
        self.aggs.get(&(v.ptr)).cloned()
    }

    fn op(&mut self, op: MlirOperation) -> Result<(), Error> {
        let name = name_of(op);
        let ops = self.operands(op);
        let res = self.result(op);
        let r = res.as_ref();
        let rt = r.map(|x| x.1.clone()).unwrap_or_default();
        let flag = |key: &str| attr(op, key).map(attr_text).unwrap_or_default();
        match name.as_str() {
            "llvm.return" => self.emit(None, "return", &ops, ""),
            "llvm.unreachable" => self.emit(None, "unreachable", &[], ""),
            "llvm.br" => {
                let b = self.succ(op, 0);
                let names: Vec<&str> = ops.iter().map(|o| o.0.as_str()).collect();
                let tys: Vec<&str> = ops.iter().map(|o| o.1.as_str()).collect();
                self.line(&format!("\"nvvm.br\"({})[{b}] : ({}) -> ()", names.join(", "), tys.join(", ")));
            }
            "llvm.cond_br" => {
                let seg = attr(op, "operandSegmentSizes").ok_or_else(|| Self::err(op, "no operand segments"))?;
                let nt = unsafe { mlirDenseI32ArrayGetElement(seg, 1) } as usize;
                let (t, f) = (self.succ(op, 0), self.succ(op, 1));
                let names: Vec<&str> = ops.iter().map(|o| o.0.as_str()).collect();
                let tys: Vec<&str> = ops.iter().map(|o| o.1.as_str()).collect();
                let nf = ops.len() - 1 - nt;
                self.line(&format!(
                    "\"nvvm.cond_br\"({})[{t}, {f}] <{{operandSegmentSizes = array<i32: 1, {nt}, {nf}>}}> : ({}) -> ()",
                    names.join(", "),
                    tys.join(", ")
                ));
            }
            "llvm.mlir.constant" => {
                let a = attr(op, "value").ok_or_else(|| Self::err(op, "no value"))?;
                let text = attr_text(a);
                if rt.contains('<') || text.starts_with("dense") {
                    return Err(Self::err(op, "a vector or aggregate constant"));
                }
                let text = if rt == "i1" && !text.contains(':') { text } else { text.replace(" : index", " : i64") };
                self.emit(r, "constant", &[], &format!("value = {text}"));
            }
            "llvm.mlir.zero" | "llvm.mlir.undef" | "llvm.mlir.poison" => {
                if let Some(shape) = (rt.contains("struct<") || rt.contains("array<")).then(|| Shape::parse(&rt)).flatten() {
                    let v = unsafe { mlirOperationGetResult(op, 0) };
                    self.aggs.insert(v.ptr, Agg::undef(&shape));
                } else if rt.contains("ptr") {
                    self.emit(r, "null", &[], "");
                } else {
                    let zero = if rt.starts_with('f') || rt == "bf16" { "0.000000e+00" } else { "0" };
                    let z = if rt == "i1" { "false".to_string() } else { format!("{zero} : {rt}") };
                    self.emit(r, "constant", &[], &format!("value = {z}"));
                }
            }
            "llvm.insertvalue" => {
                let shape = Shape::parse(&rt).ok_or_else(|| Self::err(op, "an aggregate without a layout"))?;
                let container = unsafe { mlirOperationGetOperand(op, 0) };
                let mut agg = self.agg(container).unwrap_or_else(|| Agg::undef(&shape));
                let pos = attr(op, "position").ok_or_else(|| Self::err(op, "no position"))?;
                let path: Vec<i64> =
                    (0..unsafe { mlirDenseArrayGetNumElements(pos) }).map(|i| unsafe { mlirDenseI64ArrayGetElement(pos, i) }).collect();
                let value = unsafe { mlirOperationGetOperand(op, 1) };
                let leaf = self.agg(value).unwrap_or(Agg::Leaf(Some(ops[1].0.clone())));
                agg.set(&path, leaf).ok_or_else(|| Self::err(op, "a position outside the aggregate"))?;
                let v = unsafe { mlirOperationGetResult(op, 0) };
                self.aggs.insert(v.ptr, agg);
            }
            "llvm.extractvalue" => {
                let container = unsafe { mlirOperationGetOperand(op, 0) };
                let agg = self.agg(container).ok_or_else(|| Self::err(op, "an aggregate that does not come from insertvalue"))?;
                let pos = attr(op, "position").ok_or_else(|| Self::err(op, "no position"))?;
                let path: Vec<i64> =
                    (0..unsafe { mlirDenseArrayGetNumElements(pos) }).map(|i| unsafe { mlirDenseI64ArrayGetElement(pos, i) }).collect();
                let v = unsafe { mlirOperationGetResult(op, 0) };
                match agg.at(&path).ok_or_else(|| Self::err(op, "a position outside the aggregate"))? {
                    Agg::Leaf(Some(name)) => {
                        // The extracted value is the inserted one.
                        self.names.insert(v.ptr, name.clone());
                    }
                    Agg::Leaf(None) => {
                        let zero = if rt.contains("ptr") { None } else { Some(if rt.starts_with('f') { "0.000000e+00" } else { "0" }) };
                        match zero {
                            None => self.emit(r, "null", &[], ""),
                            Some(z) => self.emit(r, "constant", &[], &format!("value = {z} : {rt}")),
                        }
                    }
                    inner @ Agg::Fields(_) => {
                        self.aggs.insert(v.ptr, inner.clone());
                    }
                }
            }
            "llvm.add" | "llvm.sub" | "llvm.mul" | "llvm.shl" => {
                let nsw = if flag("overflowFlags").contains("nsw") { "nsw" } else { "" };
                self.emit(r, &name[5..], &ops, nsw);
            }
            "llvm.sdiv" | "llvm.udiv" | "llvm.srem" | "llvm.urem" | "llvm.lshr" | "llvm.ashr" | "llvm.and" | "llvm.or" | "llvm.xor" => {
                self.emit(r, &name[5..], &ops, "")
            }
            "llvm.fadd" | "llvm.fsub" | "llvm.fmul" | "llvm.fdiv" | "llvm.frem" | "llvm.fneg" => {
                // `#llvm.fastmath<contract, afn>`: the flags inside the brackets.
                let fm = flag("fastmathFlags");
                let inner = fm.split_once('<').map_or("", |(_, r)| r.trim_end_matches('>'));
                let contract = if inner.split(',').any(|f| matches!(f.trim(), "contract" | "fast")) { "contract" } else { "" };
                self.emit(r, &name[5..], &ops, contract);
            }
            "llvm.icmp" => {
                let p = int_attr(op, "predicate")
                    .and_then(|p| predicate(&LLVM_ICMP, p, nvvm::ICmpPredicate::from_keyword))
                    .ok_or_else(|| Self::err(op, "an unknown predicate"))?;
                self.emit(r, "icmp", &ops, &format!("predicate = {} : i32", p as i64));
            }
            "llvm.fcmp" => {
                let p = int_attr(op, "predicate")
                    .and_then(|p| predicate(&LLVM_FCMP, p, nvvm::FCmpPredicate::from_keyword))
                    .ok_or_else(|| Self::err(op, "a constant predicate"))?;
                self.emit(r, "fcmp", &ops, &format!("predicate = {} : i32", p as i64));
            }
            "llvm.select" => self.emit(r, "select", &ops, ""),
            "llvm.trunc" | "llvm.zext" | "llvm.sext" | "llvm.fptosi" | "llvm.fptoui" | "llvm.sitofp" | "llvm.uitofp" | "llvm.fpext"
            | "llvm.fptrunc" | "llvm.bitcast" | "llvm.ptrtoint" | "llvm.inttoptr" | "llvm.addrspacecast" => {
                self.emit(r, &name[5..], &ops, "")
            }
            "llvm.load" => {
                let natural = Shape::parse(&rt).map_or(1, |s| s.align());
                let align = format!("align = {} : i32", int_attr(op, "alignment").unwrap_or(natural as i64));
                let vol = if attr(op, "volatile_").is_some() { "volatile" } else { "" };
                let props: Vec<&str> = [align.as_str(), vol].into_iter().filter(|s| !s.is_empty()).collect();
                self.emit(r, "load", &ops[..1], &props.join(", "));
            }
            "llvm.store" => {
                let natural = Shape::parse(&ops[0].1).map_or(1, |s| s.align());
                let align = format!("align = {} : i32", int_attr(op, "alignment").unwrap_or(natural as i64));
                let vol = if attr(op, "volatile_").is_some() { "volatile" } else { "" };
                let props: Vec<&str> = [align.as_str(), vol].into_iter().filter(|s| !s.is_empty()).collect();
                self.emit(None, "store", &ops[..2], &props.join(", "));
            }
            "llvm.getelementptr" => self.gep(op, &ops, r)?,
            "llvm.mlir.addressof" => {
                let g = attr(op, "global_name").map(attr_text).ok_or_else(|| Self::err(op, "no global"))?;
                self.emit(r, "addressof", &[], &format!("name = {g}"));
            }
            "llvm.call" => {
                let callee = attr(op, "callee").map(attr_text).ok_or_else(|| Self::err(op, "an indirect call"))?;
                self.emit(r, "call", &ops, &format!("callee = {callee}"));
            }
            n if n.starts_with("nvvm.read.ptx.sreg.") => {
                // Upstream's `tid.x` is our `tid_x`.
                let s = n["nvvm.read.ptx.sreg.".len()..].replace('.', "_");
                let k = nvvm::SpecialReg::from_keyword(&s).ok_or_else(|| Self::err(op, "a special register cuprite does not read"))?;
                self.emit(r, "sreg", &[], &format!("reg = {} : i32", k as i64));
            }
            "nvvm.barrier0" => self.emit(None, "barrier", &[], &format!("kind = {} : i32", nvvm::BarrierKind::Sync as i64)),
            "nvvm.barrier" if ops.is_empty() => {
                self.emit(None, "barrier", &[], &format!("kind = {} : i32", nvvm::BarrierKind::Sync as i64))
            }
            n if n.starts_with("llvm.intr.") => self.intrinsic(op, &n[10..], &ops, r)?,
            other => return Err(Self::err(op, &format!("`{other}` has no nvvm counterpart"))),
        }
        Ok(())
    }

    /// `getelementptr`: the byte offset of its indices over its element type, then `ptradd`.
    fn gep(&mut self, op: MlirOperation, ops: &[(String, String)], r: Option<&(String, String)>) -> Result<(), Error> {
        let elem =
            attr(op, "elem_type").map(|a| type_text(unsafe { mlirTypeAttrGetValue(a) })).ok_or_else(|| Self::err(op, "no element type"))?;
        let mut shape = Shape::parse(&elem).ok_or_else(|| Self::err(op, "an element type without a layout"))?;
        let raw = attr(op, "rawConstantIndices").ok_or_else(|| Self::err(op, "no indices"))?;
        let n = unsafe { mlirDenseArrayGetNumElements(raw) };
        let mut dynamic = ops[1..].iter();
        // The running offset: a constant part and the names of i64 terms.
        let (mut constant, mut terms) = (0i64, Vec::<String>::new());
        for k in 0..n {
            let idx = unsafe { mlirDenseI32ArrayGetElement(raw, k) };
            // The first index steps over whole elements; the others into the element.
            let (scale, next) = if k == 0 {
                (shape.size(), shape.clone())
            } else {
                match &shape {
                    Shape::Array(_, e) => (e.size(), (**e).clone()),
                    Shape::Struct(_) => {
                        let (off, f) = shape.field(idx.max(0) as u64).ok_or_else(|| Self::err(op, "a field outside the struct"))?;
                        if idx == i32::MIN {
                            return Err(Self::err(op, "a dynamic struct field"));
                        }
                        constant += off as i64;
                        shape = f;
                        continue;
                    }
                    Shape::Scalar(_) => return Err(Self::err(op, "an index into a scalar")),
                }
            };
            if idx == i32::MIN {
                let (v, t) = dynamic.next().cloned().ok_or_else(|| Self::err(op, "fewer dynamic indices than the op names"))?;
                let wide = if t == "i64" {
                    v
                } else {
                    let w = self.fresh();
                    self.line(&format!("{w} = \"nvvm.sext\"({v}) : ({t}) -> i64"));
                    w
                };
                let c = self.fresh();
                self.line(&format!("{c} = \"nvvm.constant\"() <{{value = {scale} : i64}}> : () -> i64"));
                let m = self.fresh();
                self.line(&format!("{m} = \"nvvm.mul\"({wide}, {c}) : (i64, i64) -> i64"));
                terms.push(m);
            } else {
                constant += i64::from(idx) * scale as i64;
            }
            shape = next;
        }
        let mut offset: Option<String> = None;
        for t in terms {
            offset = Some(match offset {
                None => t,
                Some(o) => {
                    let s = self.fresh();
                    self.line(&format!("{s} = \"nvvm.add\"({o}, {t}) : (i64, i64) -> i64"));
                    s
                }
            });
        }
        if constant != 0 || offset.is_none() {
            let c = self.fresh();
            self.line(&format!("{c} = \"nvvm.constant\"() <{{value = {constant} : i64}}> : () -> i64"));
            offset = Some(match offset {
                None => c,
                Some(o) => {
                    let s = self.fresh();
                    self.line(&format!("{s} = \"nvvm.add\"({o}, {c}) : (i64, i64) -> i64"));
                    s
                }
            });
        }
        let off = offset.unwrap_or_default();
        let (p, pt) = ops[0].clone();
        self.emit(r, "ptradd", &[(p, pt), (off, "i64".into())], "");
        Ok(())
    }

    /// `llvm.intr.*` math as cuprite's intrinsics.
    fn intrinsic(&mut self, op: MlirOperation, name: &str, ops: &[(String, String)], r: Option<&(String, String)>) -> Result<(), Error> {
        let ours = match name {
            "fma" | "fmuladd" => "fma.rn",
            "fabs" | "abs" => "abs",
            "sqrt" => "sqrt.rn",
            "maxnum" | "maximum" => "max",
            "minnum" | "minimum" => "min",
            "smax" | "smin" | "umax" | "umin" | "copysign" | "trunc" | "rint" => name,
            "ctpop" => "popc",
            "bitreverse" => "brev",
            _ => return Err(Self::err(op, &format!("the intrinsic `llvm.intr.{name}` has no nvvm counterpart"))),
        };
        self.emit(r, "intr", ops, &format!("name = \"{ours}\""));
        Ok(())
    }
}
