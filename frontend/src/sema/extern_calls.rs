//! Device code's calls into the CUDA runtime's device library: `printf` and `assert`, and
//! the string literals they take.
//!
//! These are written here in the ABI NVIDIA's device runtime defines, as clang's CUDA
//! codegen and NVRTC write them, so that every later level only sees ordinary IR:
//!
//! - A **string literal** in device code is a `const char` array in global memory, one per
//!   distinct text, named `$str`, `$str$1`, ... as NVRTC names them; its value is that
//!   array (which decays to a `const char *` as any array does).
//! - **`printf(fmt, args...)`** is `vprintf(fmt, buf)`: the arguments, after C's default
//!   promotions (`float` to `double`, small integers to `int`), are stored into a local
//!   buffer, each at an offset aligned to its size (the layout of a struct of them); `buf`
//!   is its generic address, or null with no arguments. The result is `vprintf`'s.
//! - **`cudaGraphSetConditional(handle, value)`** sets a CUDA graph's conditional node
//!   for the graph's next step: the device runtime's function of that name, which the
//!   driver provides without `-rdc` (ptxas accepts the call); inside a launch it has no
//!   effect the kernel can see.
//! - **`assert(e)`** (assert.h) calls `__assertfail(message, file, line, function,
//!   charSize)` when `e` is false, as CUDA's `__assert_fail` does.
//!
//! `vprintf`, `__assertfail` and `cudaGraphSetConditional` are **external functions**: a `func.func` with no body
//! (declared once per module, before the functions), called with `func.call`. Each level
//! keeps them as declarations (PTX's `.extern .func`), and the simulator implements them.

use super::expr::{Place, Value};
use super::ty::{IntKind, TyKind};
use super::*;

impl Sema<'_> {
    /// A string literal in device code (`parts`: its adjacent pieces, as written).
    pub(crate) fn string_literal(&mut self, parts: &[Atom], span: Span) -> Option<Value> {
        let mut bytes = Vec::new();
        for &a in parts {
            match string_bytes(self.name_str(a)) {
                Ok(b) => bytes.extend(b),
                Err(msg) => {
                    self.unsupported(span, &msg);
                    return None;
                }
            }
        }
        bytes.push(0);
        let c = self.types.int(IntKind::Char).with_quals(Ty::CONST);
        let arr = self.types.intern(TyKind::Array(c, Some(bytes.len() as u64)));
        let sym = match self.strings.get(&bytes) {
            Some(s) => s.clone(),
            None => {
                let sym = if self.strings.is_empty() { "$str".to_string() } else { format!("$str${}", self.strings.len()) };
                let ir_t = self.types.ir_mem(&mut self.ctx, arr);
                let i8t = self.types.ir(&mut self.ctx, c.unqual())?;
                let items: Vec<AttrId> = bytes.iter().map(|&b| self.ctx.int_attr(b as i8 as i128, i8t)).collect();
                let init = self.ctx.attr(cuprite_ir::AttrKind::Array(items));
                let space_a = self.enum_attr(1);
                let name_a = self.ctx.str_attr(&sym);
                let ty_a = self.ctx.type_attr(ir_t);
                let saved = self.fs.take();
                let was = std::mem::replace(&mut self.declaring, true);
                self.op("cuda.global", &[], &[], &[("space", space_a), ("sym_name", name_a), ("type", ty_a), ("init", init)], 0, span);
                self.declaring = was;
                self.fs = saved;
                self.strings.insert(bytes, sym.clone());
                sym
            }
        };
        let pt = self.types.ir_ptr(&mut self.ctx, arr, AddrSpace::Global);
        let s = self.ctx.symbol_ref(&sym);
        let a = self.op1("cuda.addressof", &[], pt, &[("name", s)], span);
        Some(Value { place: Place::Addr(a, AddrSpace::Global), ty: arr })
    }

    /// External function `name` of type `params -> ret` (declared once), for `func.call`.
    pub(crate) fn extern_func(&mut self, name: &str, params: &[Ty], ret: Ty, span: Span) -> AttrId {
        if !self.extern_funcs.contains(name) {
            self.extern_funcs.insert(name.to_string());
            let inputs: Vec<TypeId> = params.iter().filter_map(|&p| self.types.ir(&mut self.ctx, p)).collect();
            let results: Vec<TypeId> = self.types.ir(&mut self.ctx, ret).into_iter().collect();
            let fty = self.ctx.function_type(inputs, results);
            let name_a = self.ctx.str_attr(name);
            let fty_a = self.ctx.type_attr(fty);
            let vis = self.ctx.str_attr("private");
            let saved = self.fs.take();
            let was = std::mem::replace(&mut self.declaring, true);
            // A function with no body: created with its region, then emptied.
            let fop = self.op("func.func", &[], &[], &[("sym_name", name_a), ("function_type", fty_a), ("sym_visibility", vis)], 1, span);
            self.declaring = was;
            self.fs = saved;
            let r = self.ctx.region(fop, 0);
            if let Some(b) = self.ctx.entry_block(r) {
                self.ctx.erase_block(b);
            }
        }
        self.ctx.symbol_ref(name)
    }

    /// `printf(fmt, args...)` in device code (`args` already promoted): `vprintf(fmt, buf)`.
    pub(crate) fn device_printf(&mut self, args: &[ValueId], ret: Ty, span: Span) -> Option<Value> {
        if self.in_host_code() {
            // Host code's printf: never compiled.
            let v = self.constant_int(0, ret, span);
            return Some(Value::val(v, ret));
        }
        let c = self.types.int(IntKind::Char).with_quals(Ty::CONST);
        let cp = self.types.ptr(c);
        let cp_ir = self.types.ir(&mut self.ctx, cp)?;
        let (&fmt, rest) = args.split_first()?;
        // The buffer: a struct of the arguments, as 8-byte words.
        let mut offsets = Vec::new();
        let mut size = 0u64;
        for &v in rest {
            if !cuprite_dialects::cuda::types::is_scalar(&self.ctx, self.ctx.value_type(v)) {
                self.unsupported(span, "a struct or array argument to printf");
                return None;
            }
            let n = self.arg_bytes(v);
            size = size.div_ceil(n) * n;
            offsets.push(size);
            size += n;
        }
        let buf = if rest.is_empty() {
            self.op1("cuda.null", &[], cp_ir, &[], span)
        } else {
            let word = self.types.int(IntKind::ULongLong);
            let arr = self.types.intern(TyKind::Array(word, Some(size.div_ceil(8))));
            let var = self.new_var("printf_args", arr, AddrSpace::Local, span);
            let uc = self.types.int(IntKind::Char);
            let base = self.elem_addr(var, AddrSpace::Local, arr, word, span);
            let bytes_t = self.types.ir_ptr(&mut self.ctx, uc, AddrSpace::Local);
            let bytes = self.cast_op(super::expr::Cast::PtrCast, base, bytes_t, span);
            for (&v, &off) in rest.iter().zip(&offsets) {
                let t = self.ctx.value_type(v);
                let long = self.types.int(IntKind::Long);
                let o = self.constant_int(off as i128, long, span);
                let at = self.op1("cuda.ptr_add", &[bytes, o], bytes_t, &[], span);
                let pt = cuprite_dialects::cuda::types::ptr(&mut self.ctx, t, AddrSpace::Local);
                let p = self.cast_op(super::expr::Cast::PtrCast, at, pt, span);
                self.op("cuda.store", &[v, p], &[], &[], 0, span);
            }
            let generic = self.types.ir_ptr(&mut self.ctx, uc, AddrSpace::Generic);
            let g = self.cast_op(super::expr::Cast::PtrCast, bytes, generic, span);
            self.cast_op(super::expr::Cast::PtrCast, g, cp_ir, span)
        };
        let int = self.types.int(IntKind::Int);
        let callee = self.extern_func("vprintf", &[cp, cp], int, span);
        let int_ir = self.types.ir(&mut self.ctx, int)?;
        let call = self.op("func.call", &[fmt, buf], &[int_ir], &[("callee", callee)], 0, span);
        let r = self.ctx.result(call, 0);
        let r = self.convert(r, int, ret, span, false)?;
        Some(Value::val(r, ret))
    }

    /// The bytes a promoted variadic argument takes (`int` 4, `long`/`double`/pointers 8).
    fn arg_bytes(&self, v: ValueId) -> u64 {
        let t = self.ctx.value_type(v);
        match (self.ctx.int_width(t), self.ctx.type_kind(t)) {
            (Some(w), _) => u64::from(w.div_ceil(8)).max(1),
            (None, cuprite_ir::TypeKind::Float(cuprite_ir::FloatKind::F32)) => 4,
            (None, cuprite_ir::TypeKind::Float(cuprite_ir::FloatKind::F16)) => 2,
            _ => 8,
        }
    }

    /// `cudaGraphSetConditional(handle, value)`: the device runtime's function.
    pub(crate) fn graph_set_conditional(&mut self, args: &[ValueId], span: Span) -> Option<Value> {
        let void = self.types.intern(TyKind::Void);
        if self.in_host_code() {
            return Some(Value { place: Place::Void, ty: void });
        }
        let handle = self.types.int(IntKind::ULongLong);
        let uint = self.types.int(IntKind::UInt);
        let callee = self.extern_func("cudaGraphSetConditional", &[handle, uint], void, span);
        self.op("func.call", args, &[], &[("callee", callee)], 0, span);
        Some(Value { place: Place::Void, ty: void })
    }

    /// `__assert_fail(expr, file, line, function)` (what assert.h's `assert` calls when its
    /// condition is false): `__assertfail(expr, file, line, function, 1)`.
    pub(crate) fn device_assert_fail(&mut self, args: &[ValueId], span: Span) -> Option<Value> {
        let void = self.types.intern(TyKind::Void);
        if self.in_host_code() {
            return Some(Value { place: Place::Void, ty: void });
        }
        let c = self.types.int(IntKind::Char).with_quals(Ty::CONST);
        let cp = self.types.ptr(c);
        let uint = self.types.int(IntKind::UInt);
        let ulong = self.types.int(IntKind::ULong);
        let callee = self.extern_func("__assertfail", &[cp, cp, uint, cp, ulong], void, span);
        let [msg, file, line, func] = args else { return None };
        let line_t = self.ctx.value_type(*line);
        let int = self.types.int(IntKind::Int);
        let line = if self.ctx.int_width(line_t) == Some(32) { *line } else { self.convert(*line, int, uint, span, false)? };
        let one = self.constant_int(1, ulong, span);
        self.op("func.call", &[*msg, *file, line, *func, one], &[], &[("callee", callee)], 0, span);
        Some(Value { place: Place::Void, ty: void })
    }
}

/// The bytes of a string literal token (quotes and any `u8` prefix removed, escapes
/// decoded); an error names what is not supported (wide and UTF-16/32 literals).
pub(crate) fn string_bytes(lit: &str) -> Result<Vec<u8>, String> {
    let lit = lit.strip_prefix("u8").unwrap_or(lit);
    if !lit.starts_with('"') {
        return Err("a wide or UTF-16/32 string literal in device code".into());
    }
    let inner = lit.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(lit);
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else { break };
        i += 1;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'x' => {
                let mut v = 0u32;
                while let Some(d) = b.get(i).and_then(|&d| (d as char).to_digit(16)) {
                    v = v.wrapping_mul(16) + d;
                    i += 1;
                }
                v as u8
            }
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut k = 1;
                while k < 3 {
                    match b.get(i) {
                        Some(&d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            i += 1;
                            k += 1;
                        }
                        _ => break,
                    }
                }
                v as u8
            }
            other => other,
        });
    }
    Ok(out)
}
