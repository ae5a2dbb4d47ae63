//! The [`Bridge`]: a melior context with upstream's standard dialects and ours from IRDL;
//! export, import, verification and upstream pass pipelines (see the crate docs).

use cuprite_ir::{AttrId, AttrKind, BlockId, Context, InsertPoint, LineCol, LocId, Location, NamedAttr, OpId, RegionId, TypeId, ValueId};
use melior::dialect::{DialectHandle, DialectRegistry};
use melior::ir::{operation::OperationLike, Module};
use mlir_sys::*;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::ffi::c_void;
use std::rc::Rc;

/// What went wrong on the way through MLIR: its diagnostics, or the bridge's own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Our dialects as the tablegen backend writes them for IRDL.
const IRDL: [(&str, &str); 3] = [
    ("cuda", include_str!("../../dialects/irdl/cuda.irdl.mlir")),
    ("nvvm", include_str!("../../dialects/irdl/nvvm.irdl.mlir")),
    ("ptx", include_str!("../../dialects/irdl/ptx.irdl.mlir")),
];

/// A melior context with upstream's standard dialects and cuprite's loaded from IRDL, and
/// the diagnostics MLIR reported since they were last taken.
pub struct Bridge {
    // Dropped before the context: `irdl` holds the IRDL modules (their dialects stay
    // loaded as long as the context lives).
    irdl: Vec<Module<'static>>,
    diagnostics: Rc<RefCell<Vec<String>>>,
    context: Box<melior::Context>,
}

impl Drop for Bridge {
    fn drop(&mut self) {
        self.irdl.clear();
    }
}

pub(crate) fn sref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr().cast(), length: s.len() }
}

pub(crate) fn string(r: MlirStringRef) -> String {
    if r.data.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(r.data.cast::<u8>(), r.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe extern "C" fn append(s: MlirStringRef, data: *mut c_void) {
    let out = unsafe { &mut *data.cast::<String>() };
    out.push_str(&string(s));
}

/// Runs an MLIR print function into a string.
pub(crate) fn print_with(f: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    let mut out = String::new();
    f(Some(append), (&mut out as *mut String).cast());
    out
}

/// The diagnostics MLIR reports in a context, collected (with their notes) for errors.
pub(crate) type Diagnostics = Rc<RefCell<Vec<String>>>;

/// A melior context with the dialects `register` adds to its registry, all loaded, and a
/// handler collecting MLIR's diagnostics.
pub(crate) fn context_with(register: impl FnOnce(&DialectRegistry)) -> (melior::Context, Diagnostics) {
    let registry = DialectRegistry::new();
    register(&registry);
    let context = melior::Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let diagnostics: Diagnostics = Rc::default();
    let sink = diagnostics.clone();
    context.attach_diagnostic_handler(move |d| {
        let mut text = format!("{}: {}", d.location(), d);
        for i in 0..d.note_count() {
            if let Ok(n) = d.note(i) {
                text.push_str(&format!("\n  note: {n}"));
            }
        }
        sink.borrow_mut().push(text);
        true
    });
    (context, diagnostics)
}

/// Inserts upstream dialects into `registry` by their C API handles.
pub(crate) fn insert_handles(registry: &DialectRegistry, handles: &[MlirDialectHandle]) {
    for &h in handles {
        unsafe { DialectHandle::from_raw(h) }.insert_dialect(registry);
    }
}

impl Bridge {
    /// A context with the standard dialects and ours. Fails if our IRDL does not load (it
    /// is generated with the dialects: a failure is a bug, reported with MLIR's words).
    pub fn new() -> Result<Self, Error> {
        melior::utility::register_all_passes();
        let handles = unsafe {
            [
                mlirGetDialectHandle__arith__(),
                mlirGetDialectHandle__cf__(),
                mlirGetDialectHandle__func__(),
                mlirGetDialectHandle__math__(),
                mlirGetDialectHandle__scf__(),
                mlirGetDialectHandle__ub__(),
                mlirGetDialectHandle__irdl__(),
                mlirGetDialectHandle__llvm__(),
            ]
        };
        let (context, diagnostics) = context_with(|r| insert_handles(r, &handles));
        let context = Box::new(context);
        // SAFETY: the modules borrow the boxed context, which outlives them (they are
        // dropped first, in `Drop`), and never moves.
        let ctx: &'static melior::Context = unsafe { &*(context.as_ref() as *const melior::Context) };
        let mut bridge = Self { irdl: Vec::new(), diagnostics, context };
        for (name, text) in IRDL {
            let m = Module::parse(ctx, text).ok_or_else(|| bridge.error(&format!("the IRDL of `{name}` does not parse")))?;
            if !melior::utility::load_irdl_dialects(&m) {
                return Err(bridge.error(&format!("the IRDL of `{name}` does not load")));
            }
            bridge.irdl.push(m);
        }
        Ok(bridge)
    }

    /// The melior context.
    pub fn context(&self) -> &melior::Context {
        &self.context
    }

    /// The diagnostics MLIR reported since the last call.
    pub fn take_diagnostics(&self) -> Vec<String> {
        std::mem::take(&mut self.diagnostics.borrow_mut())
    }

    /// An error saying `what`, with the diagnostics MLIR reported.
    fn error(&self, what: &str) -> Error {
        let d = self.take_diagnostics();
        Error(if d.is_empty() { what.to_string() } else { format!("{what}:\n{}", d.join("\n")) })
    }

    /// Builds cuprite's `module` (a `builtin.module`) in MLIR, unverified.
    pub fn export(&self, ctx: &Context, module: OpId) -> Result<Module<'_>, Error> {
        self.take_diagnostics();
        let mut ex = Exporter {
            bridge: self,
            ctx,
            mctx: self.context.to_raw(),
            values: FxHashMap::default(),
            blocks: FxHashMap::default(),
            types: FxHashMap::default(),
            attrs: FxHashMap::default(),
            pending: FxHashMap::default(),
        };
        let op = ex.op(module);
        let op = match op {
            Ok(op) => op,
            Err(e) => {
                ex.drop_pending();
                return Err(e);
            }
        };
        if !ex.pending.is_empty() {
            ex.drop_pending();
            unsafe { mlirOperationDestroy(op) };
            return Err(Error("a value is used but never defined".into()));
        }
        if unsafe { mlirOperationGetName(op).ptr.is_null() } {
            return Err(Error("no module".into()));
        }
        let m = unsafe { mlirModuleFromOperation(op) };
        if m.ptr.is_null() {
            unsafe { mlirOperationDestroy(op) };
            return Err(Error("the top-level op is not a builtin.module".into()));
        }
        Ok(unsafe { Module::from_raw(m) })
    }

    /// Verifies `module` with MLIR's verifier (our ops against their IRDL).
    pub fn verify(&self, module: &Module<'_>) -> Result<(), Error> {
        self.take_diagnostics();
        if module.as_operation().verify() {
            Ok(())
        } else {
            Err(self.error("MLIR's verifier rejects the module"))
        }
    }

    /// Runs `pipeline` (`builtin.module(...)`, as `mlir-opt --pass-pipeline` reads it) on
    /// `module` with upstream's passes.
    pub fn run_pipeline(&self, module: &mut Module<'_>, pipeline: &str) -> Result<(), Error> {
        self.take_diagnostics();
        let pm = melior::pass::PassManager::new(&self.context);
        let inner = pipeline.trim();
        let inner = inner.strip_prefix("builtin.module(").and_then(|s| s.strip_suffix(')')).unwrap_or(inner);
        melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), &format!("builtin.module({inner})"))
            .map_err(|e| self.error(&format!("invalid MLIR pass pipeline `{pipeline}`: {e}")))?;
        pm.run(module).map_err(|_| self.error("the MLIR pass pipeline failed"))
    }

    /// MLIR's print of `module` (generic form with `generic`).
    pub fn print(&self, module: &Module<'_>, generic: bool) -> String {
        unsafe {
            let flags = mlirOpPrintingFlagsCreate();
            if generic {
                mlirOpPrintingFlagsPrintGenericOpForm(flags);
            }
            let s = print_with(|cb, data| mlirOperationPrintWithFlags(module.as_operation().to_raw(), flags, cb, data));
            mlirOpPrintingFlagsDestroy(flags);
            s
        }
    }

    /// Parses MLIR text into this context (MLIR verifies what it parses).
    pub fn parse(&self, text: &str) -> Result<Module<'_>, Error> {
        self.take_diagnostics();
        unsafe {
            let op = mlirOperationCreateParse(self.context.to_raw(), sref(text), sref("<mlir>"));
            if op.ptr.is_null() {
                return Err(self.error("MLIR does not parse the text"));
            }
            let m = mlirModuleFromOperation(op);
            if m.ptr.is_null() {
                mlirOperationDestroy(op);
                return Err(Error("the top-level op is not a builtin.module".into()));
            }
            Ok(Module::from_raw(m))
        }
    }

    /// Builds MLIR's `module` in `ctx` (cuprite's), returning the `builtin.module`.
    pub fn import(&self, module: &Module<'_>, ctx: &mut Context) -> Result<OpId, Error> {
        let mut im = Importer {
            ctx,
            values: FxHashMap::default(),
            blocks: FxHashMap::default(),
            types: FxHashMap::default(),
            attrs: FxHashMap::default(),
            pending: FxHashMap::default(),
        };
        let op = im.op(module.as_operation().to_raw())?;
        if !im.pending.is_empty() {
            return Err(Error("a value is used but never defined".into()));
        }
        Ok(op)
    }
}

/// Type, attribute or location text MLIR printed.
fn mlir_text(f: impl FnOnce(MlirStringCallback, *mut c_void)) -> String {
    print_with(f)
}

struct Exporter<'b> {
    bridge: &'b Bridge,
    ctx: &'b Context,
    mctx: MlirContext,
    values: FxHashMap<ValueId, MlirValue>,
    blocks: FxHashMap<BlockId, MlirBlock>,
    types: FxHashMap<TypeId, MlirType>,
    attrs: FxHashMap<AttrId, MlirAttribute>,
    /// Uses before definitions: the placeholder ops standing for the values.
    pending: FxHashMap<ValueId, MlirOperation>,
}

impl Exporter<'_> {
    fn ty(&mut self, t: TypeId) -> Result<MlirType, Error> {
        if let Some(&m) = self.types.get(&t) {
            return Ok(m);
        }
        let text = cuprite_ir::print::type_to_string_in(self.ctx, t, true);
        let m = unsafe { mlirTypeParseGet(self.mctx, sref(&text)) };
        if m.ptr.is_null() {
            return Err(self.bridge.error(&format!("MLIR does not read the type `{text}`")));
        }
        self.types.insert(t, m);
        Ok(m)
    }

    fn attr(&mut self, a: AttrId) -> Result<MlirAttribute, Error> {
        if let Some(&m) = self.attrs.get(&a) {
            return Ok(m);
        }
        let text = cuprite_ir::print::attr_to_string_in(self.ctx, a, true);
        let m = unsafe { mlirAttributeParseGet(self.mctx, sref(&text)) };
        if m.ptr.is_null() {
            return Err(self.bridge.error(&format!("MLIR does not read the attribute `{text}`")));
        }
        self.attrs.insert(a, m);
        Ok(m)
    }

    fn loc(&self, l: LocId) -> MlirLocation {
        let mut l = l;
        for _ in 0..16 {
            match self.ctx.location(l) {
                Location::File { file, start, end, .. } => {
                    let end = end.unwrap_or(start);
                    return unsafe {
                        mlirLocationFileLineColRangeGet(self.mctx, sref(self.ctx.str(file)), start.line, start.col, end.line, end.col)
                    };
                }
                Location::Name { child: Some(c), .. } => l = c,
                Location::Fused { locs, .. } if !locs.is_empty() => l = locs[0],
                Location::CallSite { callee, .. } => l = callee,
                _ => break,
            }
        }
        unsafe { mlirLocationUnknownGet(self.mctx) }
    }

    fn value(&mut self, v: ValueId) -> Result<MlirValue, Error> {
        if let Some(&m) = self.values.get(&v) {
            return Ok(m);
        }
        if let Some(&p) = self.pending.get(&v) {
            return Ok(unsafe { mlirOperationGetResult(p, 0) });
        }
        let ty = self.ty(self.ctx.value_type(v))?;
        let p = unsafe {
            let mut st = mlirOperationStateGet(sref("builtin.unrealized_conversion_cast"), mlirLocationUnknownGet(self.mctx));
            mlirOperationStateAddResults(&mut st, 1, &ty);
            mlirOperationCreate(&mut st)
        };
        self.pending.insert(v, p);
        Ok(unsafe { mlirOperationGetResult(p, 0) })
    }

    fn define(&mut self, v: ValueId, m: MlirValue) {
        self.values.insert(v, m);
        if let Some(p) = self.pending.remove(&v) {
            unsafe {
                mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(p, 0), m);
                mlirOperationDestroy(p);
            }
        }
    }

    fn drop_pending(&mut self) {
        // Placeholders still used by ops that were built are destroyed with those ops'
        // owner; the rest here (their uses are gone with the failed op).
        for (_, p) in self.pending.drain() {
            unsafe {
                let r = mlirOperationGetResult(p, 0);
                if mlirValueGetFirstUse(r).ptr.is_null() {
                    mlirOperationDestroy(p);
                }
            }
        }
    }

    fn region(&mut self, r: RegionId) -> Result<MlirRegion, Error> {
        let mr = unsafe { mlirRegionCreate() };
        let blocks: Vec<BlockId> = self.ctx.region_blocks(r).to_vec();
        for &b in &blocks {
            let args = self.ctx.block_args(b).to_vec();
            let mut tys = Vec::with_capacity(args.len());
            for &a in &args {
                tys.push(self.ty(self.ctx.value_type(a))?);
            }
            let locs = vec![unsafe { mlirLocationUnknownGet(self.mctx) }; args.len()];
            let mb = unsafe { mlirBlockCreate(args.len() as isize, tys.as_ptr(), locs.as_ptr()) };
            unsafe { mlirRegionAppendOwnedBlock(mr, mb) };
            for (i, &a) in args.iter().enumerate() {
                let m = unsafe { mlirBlockGetArgument(mb, i as isize) };
                self.define(a, m);
            }
            self.blocks.insert(b, mb);
        }
        for &b in &blocks {
            let mb = self.blocks[&b];
            for op in self.ctx.block_ops(b).collect::<Vec<_>>() {
                let m = self.op(op)?;
                unsafe { mlirBlockAppendOwnedOperation(mb, m) };
            }
        }
        Ok(mr)
    }

    fn op(&mut self, op: OpId) -> Result<MlirOperation, Error> {
        let ctx = self.ctx;
        let name = ctx.op_name_str(op).to_string();
        let mut operands = Vec::new();
        for v in ctx.operands(op).collect::<Vec<_>>() {
            operands.push(self.value(v)?);
        }
        let mut results = Vec::new();
        for &r in ctx.results(op) {
            results.push(self.ty(ctx.value_type(r))?);
        }
        let mut attrs = Vec::new();
        for &(n, a) in ctx.props(op).iter().chain(ctx.attrs(op)) {
            let ma = self.attr(a)?;
            attrs.push(unsafe { mlirNamedAttributeGet(mlirIdentifierGet(self.mctx, sref(ctx.str(n))), ma) });
        }
        let mut regions = Vec::new();
        for r in ctx.regions(op).to_vec() {
            regions.push(self.region(r)?);
        }
        let succs: Vec<MlirBlock> = ctx.successors(op).map(|b| self.blocks[&b]).collect();
        let m = unsafe {
            let mut st = mlirOperationStateGet(sref(&name), self.loc(ctx.op_loc(op)));
            mlirOperationStateAddOperands(&mut st, operands.len() as isize, operands.as_ptr());
            mlirOperationStateAddResults(&mut st, results.len() as isize, results.as_ptr());
            mlirOperationStateAddAttributes(&mut st, attrs.len() as isize, attrs.as_ptr());
            mlirOperationStateAddOwnedRegions(&mut st, regions.len() as isize, regions.as_ptr());
            mlirOperationStateAddSuccessors(&mut st, succs.len() as isize, succs.as_ptr());
            mlirOperationCreate(&mut st)
        };
        if m.ptr.is_null() {
            return Err(self.bridge.error(&format!("MLIR does not build `{name}`")));
        }
        for (i, &r) in ctx.results(op).iter().enumerate() {
            self.define(r, unsafe { mlirOperationGetResult(m, i as isize) });
        }
        Ok(m)
    }
}

struct Importer<'c> {
    ctx: &'c mut Context,
    values: FxHashMap<*const c_void, ValueId>,
    blocks: FxHashMap<*const c_void, BlockId>,
    types: FxHashMap<*const c_void, TypeId>,
    attrs: FxHashMap<*const c_void, AttrId>,
    /// Uses before definitions: the placeholders standing for MLIR's values.
    pending: FxHashMap<*const c_void, ValueId>,
}

impl Importer<'_> {
    fn ty(&mut self, t: MlirType) -> Result<TypeId, Error> {
        if let Some(&c) = self.types.get(&t.ptr) {
            return Ok(c);
        }
        let text = mlir_text(|cb, d| unsafe { mlirTypePrint(t, cb, d) });
        let c = cuprite_ir::parse::parse_type_text(self.ctx, &text)
            .map_err(|e| Error(format!("cuprite does not read MLIR's type `{text}`: {}", e.message)))?;
        self.types.insert(t.ptr, c);
        Ok(c)
    }

    fn attr(&mut self, a: MlirAttribute) -> Result<AttrId, Error> {
        if let Some(&c) = self.attrs.get(&a.ptr) {
            return Ok(c);
        }
        let text = mlir_text(|cb, d| unsafe { mlirAttributePrint(a, cb, d) });
        let c = cuprite_ir::parse::parse_attr_text(self.ctx, &text)
            .map_err(|e| Error(format!("cuprite does not read MLIR's attribute `{text}`: {}", e.message)))?;
        self.attrs.insert(a.ptr, c);
        Ok(c)
    }

    fn loc(&mut self, l: MlirLocation) -> LocId {
        unsafe {
            if mlirLocationIsAFileLineColRange(l) {
                let file = string(mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(l)));
                let lc = |line: i32, col: i32| LineCol { line: line.max(0) as u32, col: col.max(0) as u32 };
                let start = lc(mlirLocationFileLineColRangeGetStartLine(l), mlirLocationFileLineColRangeGetStartColumn(l));
                let end = lc(mlirLocationFileLineColRangeGetEndLine(l), mlirLocationFileLineColRangeGetEndColumn(l));
                let file = self.ctx.sym(&file);
                return self.ctx.loc(Location::File { file, start, end: (end != start).then_some(end), bytes: None });
            }
        }
        self.ctx.unknown_loc()
    }

    fn value(&mut self, v: MlirValue) -> Result<ValueId, Error> {
        if let Some(&c) = self.values.get(&v.ptr) {
            return Ok(c);
        }
        if let Some(&c) = self.pending.get(&v.ptr) {
            return Ok(c);
        }
        let ty = self.ty(unsafe { mlirValueGetType(v) })?;
        let c = self.ctx.create_placeholder(ty);
        self.pending.insert(v.ptr, c);
        Ok(c)
    }

    fn define(&mut self, v: MlirValue, c: ValueId) {
        self.values.insert(v.ptr, c);
        if let Some(p) = self.pending.remove(&v.ptr) {
            self.ctx.replace_all_uses_with(p, c);
            self.ctx.erase_placeholder(p);
        }
    }

    fn region(&mut self, r: MlirRegion) -> Result<RegionId, Error> {
        let cr = self.ctx.create_region();
        let mut blocks = Vec::new();
        let mut b = unsafe { mlirRegionGetFirstBlock(r) };
        while !b.ptr.is_null() {
            let n = unsafe { mlirBlockGetNumArguments(b) };
            let mut tys = Vec::new();
            let mut args = Vec::new();
            for i in 0..n {
                let a = unsafe { mlirBlockGetArgument(b, i) };
                tys.push(self.ty(unsafe { mlirValueGetType(a) })?);
                args.push(a);
            }
            let cb = self.ctx.create_block(&tys);
            self.ctx.append_block(cr, cb);
            let cargs = self.ctx.block_args(cb).to_vec();
            for (a, c) in args.into_iter().zip(cargs) {
                self.define(a, c);
            }
            self.blocks.insert(b.ptr as *const c_void, cb);
            blocks.push((b, cb));
            b = unsafe { mlirBlockGetNextInRegion(b) };
        }
        for (b, cb) in blocks {
            let mut o = unsafe { mlirBlockGetFirstOperation(b) };
            while !o.ptr.is_null() {
                let c = self.op(o)?;
                self.ctx.insert_op(c, InsertPoint::end(cb));
                o = unsafe { mlirOperationGetNextInBlock(o) };
            }
        }
        Ok(cr)
    }

    fn op(&mut self, o: MlirOperation) -> Result<OpId, Error> {
        let name = string(unsafe { mlirIdentifierStr(mlirOperationGetName(o)) });
        let n = unsafe { mlirOperationGetNumOperands(o) };
        let mut operands = Vec::with_capacity(n as usize);
        for i in 0..n {
            operands.push(self.value(unsafe { mlirOperationGetOperand(o, i) })?);
        }
        let n = unsafe { mlirOperationGetNumResults(o) };
        let mut results = Vec::with_capacity(n as usize);
        for i in 0..n {
            results.push(self.ty(unsafe { mlirValueGetType(mlirOperationGetResult(o, i)) })?);
        }
        let n = unsafe { mlirOperationGetNumAttributes(o) };
        let mut attrs: Vec<NamedAttr> = Vec::with_capacity(n as usize);
        for i in 0..n {
            let na = unsafe { mlirOperationGetAttribute(o, i) };
            let key = string(unsafe { mlirIdentifierStr(na.name) });
            let a = self.attr(na.attribute)?;
            attrs.push((self.ctx.sym(&key), a));
        }
        attrs.sort_by(|a, b| self.ctx.str(a.0).cmp(self.ctx.str(b.0)));
        let (props, rest) = cuprite_ir::parse::split_inherent(self.ctx, &name, attrs);
        let n = unsafe { mlirOperationGetNumRegions(o) };
        let mut regions = Vec::with_capacity(n as usize);
        for i in 0..n {
            regions.push(self.region(unsafe { mlirOperationGetRegion(o, i) })?);
        }
        let n = unsafe { mlirOperationGetNumSuccessors(o) };
        let mut succs = Vec::with_capacity(n as usize);
        for i in 0..n {
            let b = unsafe { mlirOperationGetSuccessor(o, i) };
            let Some(&c) = self.blocks.get(&(b.ptr as *const c_void)) else {
                return Err(Error(format!("`{name}` branches to a block of another region")));
            };
            succs.push(c);
        }
        let loc = self.loc(unsafe { mlirOperationGetLocation(o) });
        let props = if props.is_empty() { self.ctx.empty_dict() } else { self.ctx.attr(AttrKind::Dict(props)) };
        let rest = if rest.is_empty() { self.ctx.empty_dict() } else { self.ctx.attr(AttrKind::Dict(rest)) };
        let sym = self.ctx.sym(&name);
        let c = self.ctx.create_op_parts(sym, loc, &operands, &results, props, rest, &regions, &succs);
        let rs = self.ctx.results(c).to_vec();
        for (i, r) in rs.into_iter().enumerate() {
            self.define(unsafe { mlirOperationGetResult(o, i as isize) }, r);
        }
        Ok(c)
    }
}
