//! Virtual functions, without function pointers.
//!
//! A program compiled without `-rdc` is a closed world: every class whose objects device
//! code can make is in the translation unit. cuprite therefore dispatches a virtual call by
//! a `cuda.switch` over the classes that can be there, calling each one's final overrider
//! directly, instead of loading a function pointer from a vtable. Direct calls need no
//! indirect-call support in any level below and stay open to inlining; nvcc's PTX loads
//! `_ZTV<class>` and calls through a register (`call (r), %rd, (a), prototype`).
//!
//! **Layout** is the Itanium C++ ABI's, so sizes and member offsets equal nvcc's: a dynamic
//! class (one that declares or inherits a virtual function) has an 8-byte vptr slot at
//! offset 0, its own (`place_vptr` inserts a field) or its *primary base*'s (its first
//! dynamic base, moved to offset 0); every other dynamic base subobject keeps its own slot.
//!
//! **Slot ids.** Where nvcc stores a vtable address, cuprite stores a small integer naming
//! (the complete object's class, the offset of this slot in it) (`slot_id`): from it a
//! dispatcher knows both the class and where the complete object starts. Constructors store
//! them (`fix_vptrs`): a user constructor after its base classes are constructed and before
//! its members are (as the ABI orders it), so a virtual call in a base class's constructor
//! calls the base's version; implicit constructors, copies into a new object (a variable's
//! initializer, a by-value parameter) likewise. An assignment keeps the target's slots
//! (`store_keeping_vptrs`): slicing never changes an object's class.
//!
//! **Dispatch.** A call `p->f(...)` or `r.f(...)` of a virtual `f` (unqualified, through a
//! pointer, a reference or `this`; a call on a named object of class type knows its class
//! and is direct) calls `f`'s dispatcher (`__cuprite_vcall_<symbol of f>`, same signature).
//! Dispatchers are emitted when the translation unit ends, when every class is known
//! (again if emitting functions completed more classes): the slot id is loaded from the
//! object and switched on, one case per (dynamic class `C`, subobject of `f`'s class in
//! `C`), each calling the final overrider along that subobject's path with `this` adjusted
//! by the offset between the two subobjects; a covariant return is converted back. An
//! unknown id (an object device code did not construct: made by host code, whose vptr
//! holds a host address, or never constructed) traps, as nvcc's indirect call through a
//! bad pointer would fault.

use super::expr::{Cast, Value};
use super::ty::{BaseInfo, IntKind, RecId, Ty, TyKind};
use super::*;

/// At most this many vptr slots are set by one object's construction (an array member of
/// dynamic objects is unrolled slot by slot).
const MAX_SLOTS: usize = 4096;

#[derive(Clone, Default)]
pub(crate) struct VirtualTables {
    /// Dynamic classes, in the order they were completed.
    pub records: Vec<RecId>,
    /// Slot ids by (complete class, offset of the slot in it); ids start at 1.
    slots: FxHashMap<(RecId, u64), u64>,
    /// The dispatcher of each virtual function called so; with `true`, of a virtual
    /// destructor called by `delete` (it frees the complete object too).
    dispatchers: FxHashMap<(FuncId, bool), FuncId>,
    /// The deleting dispatchers.
    deleting: rustc_hash::FxHashSet<FuncId>,
    /// Overriders reported as never defined.
    reported: rustc_hash::FxHashSet<FuncId>,
    /// Dispatchers in the order they were first needed: their `func.func` once emitted, and
    /// how many dynamic classes there were then.
    emitted: Vec<(FuncId, Option<OpId>, usize)>,
}

impl VirtualTables {
    /// The sizes of its tables (what reading a body may add to).
    pub(crate) fn sizes(&self) -> [usize; 6] {
        [self.records.len(), self.slots.len(), self.dispatchers.len(), self.deleting.len(), self.reported.len(), self.emitted.len()]
    }
}

/// A subobject of a complete object: the classes from the complete object's down to it,
/// each with its offset in the complete object.
type Path = Vec<(RecId, u64)>;

impl Sema<'_> {
    /// Places the vptr slot of a class being declared: returns whether it is dynamic. A
    /// class with a dynamic base shares its primary base's slot (that base moves first);
    /// else a class declaring a virtual function gets a slot of its own at offset 0.
    pub(crate) fn place_vptr(
        &mut self,
        methods: &[DeclId],
        fields: &mut Vec<(Atom, Ty, bool)>,
        bases: &mut [BaseInfo],
        is_union: bool,
        span: Span,
    ) -> bool {
        let own = methods.iter().find_map(|&m| match &self.ast.decl(m).kind {
            DeclKind::Function { specs, name, .. } if specs.is_virtual => Some(name.span),
            _ => None,
        });
        let primary = bases.iter().position(|b| self.types.rec(b.rec).dynamic && b.field.is_some());
        if own.is_none() && primary.is_none() {
            return false;
        }
        if is_union {
            self.error(own.unwrap_or(span), "a union cannot have virtual member functions");
            return false;
        }
        let renumber = |bases: &mut [BaseInfo], f: &dyn Fn(usize) -> usize| {
            for b in bases.iter_mut() {
                b.field = b.field.map(f);
            }
        };
        match primary.and_then(|i| bases[i].field) {
            Some(fi) => {
                let f = fields.remove(fi);
                fields.insert(0, f);
                renumber(bases, &|x| match x {
                    x if x == fi => 0,
                    x if x < fi => x + 1,
                    x => x,
                });
            }
            None => {
                // A name no member access can spell (a keyword); some token spelled it.
                let name = self.atom("virtual").unwrap_or_default();
                let slot = self.types.int(IntKind::ULongLong);
                fields.insert(0, (name, slot, false));
                renumber(bases, &|x| x + 1);
            }
        }
        true
    }

    /// After member function `f` (declaration `m`) of dynamic class `r` is declared: it is
    /// virtual if declared so or if it overrides a base's virtual function.
    pub(crate) fn note_virtual(&mut self, r: RecId, m: DeclId, f: FuncId) {
        let declared = matches!(&self.ast.decl(m).kind, DeclKind::Function { specs, .. } if specs.is_virtual);
        let info = &self.funcs[f.0 as usize];
        if info.record != Some(r) || self.types.rec(r).virtuals.contains(&f) {
            return;
        }
        if info.is_ctor {
            if declared {
                self.error(info.span, "a constructor cannot be virtual");
            }
            return;
        }
        let overrides = self.types.rec(r).bases.iter().any(|b| self.overridden_in(b.rec, f).is_some());
        if declared || overrides {
            if self.funcs[f.0 as usize].tpl_args.is_some() && declared {
                let span = self.funcs[f.0 as usize].span;
                self.error(span, "a member function template cannot be virtual");
                return;
            }
            self.funcs[f.0 as usize].is_virtual = true;
            self.types.records[r.0 as usize].virtuals.push(f);
        }
    }

    /// Whether `g` overrides `f` (or the other way): both destructors, or the same name,
    /// parameter types and constness.
    fn same_slot(&self, f: FuncId, g: FuncId) -> bool {
        let (a, b) = (&self.funcs[f.0 as usize], &self.funcs[g.0 as usize]);
        let dtor = |x: &FuncInfo| self.name_str(x.name).starts_with('~');
        if dtor(a) || dtor(b) {
            return dtor(a) && dtor(b);
        }
        a.name == b.name
            && a.is_const_method == b.is_const_method
            && a.params.len() == b.params.len()
            && a.params.iter().zip(&b.params).all(|(x, y)| x.unqual() == y.unqual())
    }

    /// The virtual function of class `b` or its bases that `f` would override.
    fn overridden_in(&self, b: RecId, f: FuncId) -> Option<FuncId> {
        let info = self.types.rec(b);
        if let Some(&g) = info.virtuals.iter().find(|&&g| self.same_slot(g, f)) {
            return Some(g);
        }
        info.bases.iter().find_map(|x| self.overridden_in(x.rec, f))
    }

    /// Whether objects of type `t` hold vptr slots.
    pub(crate) fn has_vptrs(&self, t: Ty) -> bool {
        match self.types.kind(t.unqual()) {
            TyKind::Record(r) => self.types.rec(*r).has_vptrs,
            TyKind::Array(e, _) => self.has_vptrs(*e),
            _ => false,
        }
    }

    fn slot_id(&mut self, c: RecId, off: u64) -> u64 {
        let n = self.vt.slots.len() as u64 + 1;
        *self.vt.slots.entry((c, off)).or_insert(n)
    }

    fn base_offset(&self, r: RecId, b: &BaseInfo) -> u64 {
        b.field.map_or(0, |i| self.types.rec(r).fields[i].offset)
    }

    /// The vptr slots of a complete object of type `t` at offset `at`: (offset, id). False
    /// past [`MAX_SLOTS`].
    fn vptr_slots(&mut self, t: Ty, at: u64, out: &mut Vec<(u64, u64)>) -> bool {
        if !self.has_vptrs(t) {
            return true;
        }
        match self.types.kind(t.unqual()).clone() {
            TyKind::Record(c) => self.subobject_slots(c, c, at, 0, out),
            TyKind::Array(e, Some(n)) => {
                let size = self.types.size(e);
                (0..n).all(|i| out.len() <= MAX_SLOTS && self.vptr_slots(e, at + i * size, out))
            }
            _ => true,
        }
    }

    /// The slots of subobject `r` at `sub` in a complete `c` at `at`, and of its members.
    fn subobject_slots(&mut self, c: RecId, r: RecId, at: u64, sub: u64, out: &mut Vec<(u64, u64)>) -> bool {
        if out.len() > MAX_SLOTS {
            return false;
        }
        let info = self.types.rec(r).clone();
        if info.dynamic && !out.iter().any(|&(o, _)| o == at + sub) {
            let id = self.slot_id(c, sub);
            out.push((at + sub, id));
        }
        for (i, f) in info.fields.iter().enumerate() {
            let ok = match info.bases.iter().find(|b| b.field == Some(i)) {
                Some(b) => self.subobject_slots(c, b.rec, at, sub + f.offset, out),
                None => self.vptr_slots(f.ty, at + sub + f.offset, out),
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// The address `off` bytes past generic or `space` pointer `p`, as a pointer to `to`.
    fn byte_offset(&mut self, p: ValueId, space: AddrSpace, off: i64, to: Ty, span: Span) -> ValueId {
        let pt = self.types.ir_ptr(&mut self.ctx, to, space);
        if off == 0 {
            return self.cast_op(Cast::PtrCast, p, pt, span);
        }
        let char_t = self.types.int(IntKind::Char);
        let ct = self.types.ir_ptr(&mut self.ctx, char_t, space);
        let bytes = self.cast_op(Cast::PtrCast, p, ct, span);
        let i64t = self.types.int(IntKind::LongLong);
        let k = self.constant_int(off as i128, i64t, span);
        let q = self.op1("cuda.ptr_add", &[bytes, k], ct, &[], span);
        self.cast_op(Cast::PtrCast, q, pt, span)
    }

    /// Stores the slot ids of a complete object of type `t` at `addr` (its class's: a new
    /// object, made by a constructor or a copy).
    pub(crate) fn fix_vptrs(&mut self, addr: ValueId, space: AddrSpace, t: Ty, span: Span) {
        if !self.has_vptrs(t) || self.fs.is_none() {
            return;
        }
        let mut slots = Vec::new();
        if !self.vptr_slots(t, 0, &mut slots) {
            self.unsupported(span, &format!("an object with more than {MAX_SLOTS} objects with virtual functions in it"));
            return;
        }
        let u64t = self.types.int(IntKind::ULongLong);
        for (off, id) in slots {
            let a = self.byte_offset(addr, space, off as i64, u64t, span);
            let v = self.constant_int(id as i128, u64t, span);
            self.store(v, a, u64t, span);
        }
    }

    /// Stores `v`, a `t`, over the object at `addr`, keeping that object's vptr slots (an
    /// assignment changes the value, never the class).
    pub(crate) fn store_keeping_vptrs(&mut self, v: ValueId, addr: ValueId, space: AddrSpace, t: Ty, span: Span) {
        let mut slots = Vec::new();
        if !self.has_vptrs(t) || !self.vptr_slots(t, 0, &mut slots) {
            self.store(v, addr, t, span);
            return;
        }
        let u64t = self.types.int(IntKind::ULongLong);
        let kept: Vec<(ValueId, ValueId)> = slots
            .iter()
            .map(|&(off, _)| {
                let a = self.byte_offset(addr, space, off as i64, u64t, span);
                (a, self.load(a, u64t, span))
            })
            .collect();
        self.store(v, addr, t, span);
        for (a, x) in kept {
            self.store(x, a, u64t, span);
        }
    }

    /// Whether a call of a member function on `base` (`.`, or `->` with `arrow`) knows the
    /// object's class: a named variable of class type, not a reference or pointer.
    pub(crate) fn exact_object(&mut self, base: ExprId, arrow: bool) -> bool {
        if arrow {
            return false;
        }
        let ExprKind::Name(n) = &self.ast.expr(base).kind else { return false };
        let n = self.ast.name(*n);
        match self.lookup_name(n).first() {
            Some(Entity::Var { space, .. }) => *space != AddrSpace::Generic,
            Some(Entity::Global { .. }) => true,
            _ => false,
        }
    }

    /// A call of virtual function `f` on the object `this` points to (a subobject of `f`'s
    /// class): through its dispatcher, in device code.
    pub(crate) fn virtual_call(&mut self, f: FuncId, this: ValueId, vals: Vec<Value>, args: &[ExprId], span: Span) -> Option<Value> {
        let host = self.fs.as_ref().is_none_or(|s| s.exec == Exec::Host);
        if host || self.funcs[f.0 as usize].exec == Exec::Host {
            return self.emit_call(f, Some(this), vals, args, span);
        }
        let d = self.dispatcher(f, false);
        self.emit_call(d, Some(this), vals, args, span)
    }

    /// `delete p` of a class with a virtual destructor `f`: the destructor of the object's
    /// class, then `free` of the complete object.
    pub(crate) fn virtual_delete(&mut self, f: FuncId, this: ValueId, span: Span) -> Option<Value> {
        let d = self.dispatcher(f, true);
        self.emit_call(d, Some(this), Vec::new(), &[], span)
    }

    fn dispatcher(&mut self, f: FuncId, deleting: bool) -> FuncId {
        match self.vt.dispatchers.get(&(f, deleting)) {
            Some(&d) => d,
            None => {
                let mut info = self.funcs[f.0 as usize].clone();
                let kind = if deleting { "vdelete" } else { "vcall" };
                let sym = format!("__cuprite_{kind}_{}", super::mangle::function_symbol(self, f));
                info.symbol_ref = Some(self.ctx.symbol_ref(&sym));
                info.symbol = Some(sym);
                info.body = None;
                info.is_virtual = false;
                info.dispatch_of = Some(f);
                info.emitted = false;
                info.inline = None;
                let d = FuncId(self.funcs.len() as u32);
                self.funcs.push(info);
                self.vt.dispatchers.insert((f, deleting), d);
                if deleting {
                    self.vt.deleting.insert(d);
                }
                self.vt.emitted.push((d, None, 0));
                d
            }
        }
    }

    /// The subobjects of class `b` in a complete `c`, each with its path.
    fn paths_to(&self, c: RecId, b: RecId) -> Vec<Path> {
        let mut out = Vec::new();
        let mut path = vec![(c, 0)];
        self.walk_paths(&mut path, b, &mut out);
        out
    }

    fn walk_paths(&self, path: &mut Path, b: RecId, out: &mut Vec<Path>) {
        let (r, at) = *path.last().expect("a path starts at the complete class");
        if r == b {
            out.push(path.clone());
            return;
        }
        for base in &self.types.rec(r).bases {
            path.push((base.rec, at + self.base_offset(r, base)));
            self.walk_paths(path, b, out);
            path.pop();
        }
    }

    /// The final overrider of `f` for the subobject at the end of `path`: the first class
    /// from the complete object's down that declares an overrider, and its offset.
    fn final_overrider(&self, f: FuncId, path: &Path) -> Option<(FuncId, RecId, u64)> {
        path.iter().find_map(|&(r, off)| {
            let g = self.types.rec(r).virtuals.iter().find(|&&g| g == f || self.same_slot(g, f))?;
            Some((*g, r, off))
        })
    }

    /// Emits the dispatchers not emitted yet, and again those emitted before more dynamic
    /// classes were completed; returns whether it emitted any.
    pub(crate) fn emit_dispatchers(&mut self) -> bool {
        let n = self.vt.records.len();
        let mut any = false;
        for i in 0..self.vt.emitted.len() {
            let (d, op, seen) = self.vt.emitted[i];
            if op.is_some() && seen == n {
                continue;
            }
            if let Some(op) = op {
                if self.first_func == Some(op) {
                    self.first_func = self.ctx.next_op(op);
                }
                self.ctx.erase_op(op);
            }
            let op = self.emit_dispatcher(d);
            self.vt.emitted[i] = (d, Some(op), n);
            any = true;
        }
        any
    }

    fn emit_dispatcher(&mut self, d: FuncId) -> OpId {
        let info = self.funcs[d.0 as usize].clone();
        let f = info.dispatch_of.expect("a dispatcher");
        let b = info.record.expect("a virtual function is a member");
        let span = info.span;
        let bt = self.rec_ty(b);
        let bp = self.types.ptr(bt);
        let mut inputs = vec![self.types.ir(&mut self.ctx, bp).expect("pointer")];
        for &p in &info.params {
            inputs.extend(self.types.ir(&mut self.ctx, p));
        }
        let results: Vec<TypeId> = self.types.ir(&mut self.ctx, info.ret).into_iter().collect();
        let fty = self.ctx.function_type(inputs.clone(), results.clone());
        let name_a = self.ctx.str_attr(info.symbol.as_deref().unwrap_or_default());
        let fty_a = self.ctx.type_attr(fty);
        let saved_fs = self.fs.take();
        let fop = self.op("func.func", &[], &[], &[("sym_name", name_a), ("function_type", fty_a)], 1, span);
        let entry = self.region_block(fop, 0);
        let args: Vec<ValueId> = inputs.iter().map(|&t| self.ctx.add_block_arg(entry, t)).collect();
        self.fs = Some(FnState {
            func: d,
            ret: info.ret,
            block: entry,
            terminated: false,
            loops: 0,
            switches: 0,
            constructs: Vec::new(),
            open_wrappers: Vec::new(),
            crossed_labels: Vec::new(),
            this: Some((args[0], b)),
            exec: info.exec,
        });
        let deleting = self.vt.deleting.contains(&d);
        // Cases: the subobjects of `b` in each dynamic class, grouped by the call they make
        // (and, deleting, by where the complete object starts).
        let mut groups: Vec<(FuncId, RecId, i64, i64, Vec<u64>)> = Vec::new();
        for c in self.vt.records.clone() {
            for path in self.paths_to(c, b) {
                let Some((g, y, oy)) = self.final_overrider(f, &path) else { continue };
                if self.funcs[g.0 as usize].exec == Exec::Host {
                    // A host class's (nvcc rejects overriders of another execution space).
                    continue;
                }
                if self.funcs[g.0 as usize].body.is_none() {
                    // Pure virtual: no object of `c` can get here. Else never defined.
                    let pure =
                        matches!(&self.ast.decl(self.funcs[g.0 as usize].decl).kind, DeclKind::Function { specs, .. } if specs.is_pure);
                    if !pure && !self.vt.reported.contains(&g) {
                        self.vt.reported.insert(g);
                        let info = &self.funcs[g.0 as usize];
                        let msg =
                            format!("virtual function '{}' is declared but never defined, and a virtual call may reach it", info.display);
                        let d = crate::diag::Diagnostic::error(info.span, msg);
                        self.error_with(d);
                    }
                    continue;
                }
                let o = path.last().map_or(0, |p| p.1);
                let id = self.slot_id(c, o);
                let delta = oy as i64 - o as i64;
                let top = if deleting { -(o as i64) } else { 0 };
                match groups.iter_mut().find(|x| x.0 == g && x.2 == delta && x.3 == top) {
                    Some(x) => x.4.push(id),
                    None => groups.push((g, y, delta, top, vec![id])),
                }
            }
        }
        let u64t = self.types.int(IntKind::ULongLong);
        let slot = self.byte_offset(args[0], AddrSpace::Generic, 0, u64t, span);
        let id = self.load(slot, u64t, span);
        let u64_ir = self.types.ir_mem(&mut self.ctx, u64t);
        let mut cases = Vec::new();
        for (_, _, _, _, ids) in &groups {
            cases.extend(ids.iter().map(|&i| self.ctx.int_attr(i as i128, u64_ir)));
        }
        let default = cases.len();
        cases.push(self.ctx.int_attr(0, u64_ir));
        let cases_a = self.ctx.attr(cuprite_ir::AttrKind::Array(cases));
        let i32t = self.ctx.i32();
        let default_a = self.ctx.int_attr(default as i128, i32t);
        let sw = self.op("cuda.switch", &[id], &[], &[("cases", cases_a), ("default_index", default_a)], default + 1, span);
        let mut region = 0;
        for (g, y, delta, top, ids) in groups {
            for _ in 1..ids.len() {
                // Falls through to the group's last case.
                let blk = self.region_block(sw, region);
                self.in_block(blk, |s| s.terminate("cuda.yield", &[], span));
                region += 1;
            }
            let blk = self.region_block(sw, region);
            region += 1;
            self.in_block(blk, |s| {
                let yt = s.rec_ty(y);
                let this = s.byte_offset(args[0], AddrSpace::Generic, delta, yt, span);
                let mut operands = vec![this];
                operands.extend_from_slice(&args[1..]);
                let callee = s.require_func(g);
                let gret = s.funcs[g.0 as usize].ret;
                let rtys: Vec<TypeId> = s.types.ir(&mut s.ctx, gret).into_iter().collect();
                let call = s.op("func.call", &operands, &rtys, &[("callee", callee)], 0, span);
                let mut rets = Vec::new();
                if !rtys.is_empty() {
                    let mut v = s.ctx.result(call, 0);
                    // A covariant return: the derived class's pointer as the base's.
                    if gret.unqual() != info.ret.unqual() {
                        let (from, to) = match (s.types.kind(gret).clone(), s.types.kind(info.ret).clone()) {
                            (TyKind::Ptr(a) | TyKind::Ref(a), TyKind::Ptr(b) | TyKind::Ref(b)) => (a, b),
                            _ => (gret, info.ret),
                        };
                        v = s.upcast_ptr(v, from, to, span).unwrap_or(v);
                    }
                    rets.push(v);
                }
                if deleting {
                    let void = s.types.void();
                    let whole = s.byte_offset(args[0], AddrSpace::Generic, top, void, span);
                    s.heap_call(false, Some(whole), span);
                }
                s.terminate("cuda.return", &rets, span);
            });
        }
        // An object no constructor of the program made.
        let blk = self.region_block(sw, default);
        self.in_block(blk, |s| {
            let n = s.name_attr("__trap");
            s.op("cuda.intrinsic", &[], &[], &[("name", n)], 0, span);
            if results.is_empty() {
                s.terminate("cuda.return", &[], span);
            } else {
                let rt = match s.types.kind(info.ret).clone() {
                    TyKind::Ref(t) => s.types.ptr(t),
                    _ => info.ret,
                };
                let tmp = s.new_var("", rt, AddrSpace::Local, span);
                let v = s.load(tmp, rt, span);
                s.terminate("cuda.return", &[v], span);
            }
        });
        self.terminate("ub.unreachable", &[], span);
        self.fs = saved_fs;
        fop
    }
}
