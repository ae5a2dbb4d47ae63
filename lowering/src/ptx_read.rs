//! The PTX reader: PTX text (cuprite's, NVRTC's, clang's) into the `ptx` dialect, so that
//! the simulator can run any compiler's PTX for the same source.
//!
//! What it reads:
//! - module directives (`.version`, `.target`, `.address_size` are skipped), `.global`,
//!   `.const` and `.shared` variables with `.b8` (or typed) initializers, `.extern
//!   .shared` arrays, `.entry` and `.func` definitions (declarations are skipped) with
//!   `.param` lists, return values and `.maxntid`/`.minnctapersm`/`.maxnreg`;
//! - in a body: `.reg` declarations (`%r<10>` ranges or lists), the local depot
//!   (`.local .align A .b8 __local_depotN[S]`), `.shared` variables (made module
//!   globals), labels, instructions with their modifiers, operands that are registers,
//!   immediates (`42`, `-1`, `0x1F`, `0f3F800000`, `0d...`), symbols, special registers,
//!   addresses `[reg+off]`/`[sym+off]`, vectors `{a, b}`, `d|p` pairs and `!p`;
//! - a guard `@p`/`@!p` becomes a branch around its instruction (the dialect has no
//!   guards), `@p bra L` a `ptx.cbra`;
//! - a call sequence `{ .param ...; st.param ...; call.uni (retval0), f, (param0, ...);
//!   ld.param ... [retval0]; }` becomes one `ptx.call` (scalar parameters; an aggregate
//!   return value `.b8 retval0[16]` is one 64-bit result per 8 bytes, from which each
//!   `ld.param [retval0+off]` extracts its part);
//! - `.reg` in a nested `{ }` block shadows the function's register of that name until
//!   the block ends; `mov.b64 {lo, hi}, d` and `mov.b64 d, {lo, hi}` keep which operand
//!   was the vector (`vec_at`, `vec_len`), for the simulator to split or join the bits.
//!
//! An unknown instruction or directive is an error with the byte span of its text, so
//! the caller can render it with ariadne ([`render`]).

use crate::build::{i32_attr, i64_attr, make_module, state};
use cuprite_ir::{AttrId, AttrKind, BlockId, Context, FloatKind, InsertPoint, LocId, OpId, TypeId, ValueId};
use rustc_hash::FxHashMap;

/// A problem in the PTX text at byte range `span`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError {
    pub span: (usize, usize),
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(i128),
    /// `0f...`: f32 bits; `0d...`: f64 bits.
    F32(u32),
    F64(u64),
    Punct(char),
}

fn lex(text: &str) -> Result<Vec<(Tok, usize, usize)>, ReadError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let word_start = |c: u8| c.is_ascii_alphabetic() || matches!(c, b'_' | b'$' | b'%' | b'.');
    let word_char = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'%' | b'.');
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let end = text[i + 2..].find("*/").map(|e| i + 2 + e + 2).unwrap_or(b.len());
            i = end;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            let w = &text[s..i];
            let bad = || ReadError { span: (s, i), message: format!("invalid number '{w}'") };
            let t = if let Some(h) = w.strip_prefix("0f").or_else(|| w.strip_prefix("0F")) {
                Tok::F32(u32::from_str_radix(h, 16).map_err(|_| bad())?)
            } else if let Some(h) = w.strip_prefix("0d").or_else(|| w.strip_prefix("0D")) {
                Tok::F64(u64::from_str_radix(h, 16).map_err(|_| bad())?)
            } else if let Some(h) = w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
                Tok::Int(i128::from_str_radix(h.trim_end_matches('U'), 16).map_err(|_| bad())?)
            } else if w.contains('.') || w.contains('e') {
                Tok::F64(w.parse::<f64>().map_err(|_| bad())?.to_bits())
            } else {
                Tok::Int(w.trim_end_matches('U').parse().map_err(|_| bad())?)
            };
            out.push((t, s, i));
        } else if word_start(c) {
            let s = i;
            while i < b.len() && word_char(b[i]) {
                i += 1;
            }
            out.push((Tok::Word(text[s..i].to_string()), s, i));
        } else if c == b'"' {
            // A string (`.pragma "nounroll";`): kept as a word, quotes included.
            let s = i;
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            i = (i + 1).min(b.len());
            out.push((Tok::Word(text[s..i].to_string()), s, i));
        } else if b",;:[]{}()+-@!|<>=".contains(&c) {
            out.push((Tok::Punct(c as char), i, i + 1));
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(ReadError { span: (i, i + ch.len_utf8()), message: format!("unexpected character '{ch}'") });
        }
    }
    Ok(out)
}

/// Reads `text` (the file `name`) into a new `builtin.module` of `ptx` ops in `ctx`.
pub fn read_ptx(ctx: &mut Context, text: &str, name: &str) -> Result<OpId, Vec<ReadError>> {
    let toks = lex(text).map_err(|e| vec![e])?;
    let file = ctx.sym(name);
    let mut starts = vec![0u32];
    starts.extend(text.bytes().enumerate().filter(|&(_, c)| c == b'\n').map(|(i, _)| i as u32 + 1));
    ctx.set_offset_file(file, starts.into());
    let loc0 = LocId::offset(0).unwrap_or_else(|| ctx.unknown_loc());
    let (module, body) = make_module(ctx, loc0);
    let mut r = Reader { ctx, toks, pos: 0, body, errors: Vec::new(), funcs: FxHashMap::default() };
    r.module();
    if r.errors.is_empty() {
        Ok(module)
    } else {
        Err(r.errors)
    }
}

/// Renders read errors with ariadne.
pub fn render(name: &str, text: &str, errs: &[ReadError]) -> String {
    use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};
    let mut out = Vec::new();
    for e in errs {
        let (lo, hi) = (e.span.0.min(text.len()), e.span.1.min(text.len()).max(e.span.0.min(text.len())));
        let _ = Report::build(ReportKind::Error, (name, lo..hi))
            .with_config(Config::default().with_color(false).with_index_type(IndexType::Byte))
            .with_message(&e.message)
            .with_label(Label::new((name, lo..hi)).with_message(&e.message))
            .finish()
            .write((name, Source::from(text)), &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

struct Reader<'a> {
    ctx: &'a mut Context,
    toks: Vec<(Tok, usize, usize)>,
    pos: usize,
    body: BlockId,
    errors: Vec<ReadError>,
    /// Function name to its return declarations (for calls).
    funcs: FxHashMap<String, Vec<String>>,
}

/// An operand as written.
#[derive(Clone, Debug)]
enum Opnd {
    Reg(String),
    Sym(String),
    Int(i128),
    F32(u32),
    F64(u64),
    Addr(Box<Opnd>, i64),
    Vec(Vec<Opnd>),
    Pair(Box<Opnd>, Box<Opnd>),
    Not(Box<Opnd>),
    Sink,
    List(Vec<Opnd>),
}

/// The state of one function body.
struct Body {
    regs: FxHashMap<String, ValueId>,
    /// Per open `{ }` block, the registers it declared with what the names meant before
    /// (a nested `.reg .u32 %r1;` shadows the function's `%r1` until the block closes).
    scopes: Vec<Vec<(String, Option<ValueId>)>>,
    labels: FxHashMap<String, BlockId>,
    /// Labels defined in the body (the others are branch targets never defined).
    placed: rustc_hash::FxHashSet<String>,
    region: cuprite_ir::RegionId,
    cur: BlockId,
    /// The current block ended (with a branch or return): the next instruction needs a
    /// block of its own.
    ended: bool,
    /// Parameter names as declared, to the canonical `<func>_param_<i>`.
    param_names: FxHashMap<String, String>,
    /// Call sequence: `.param` declarations, stored arguments, results.
    /// The call sequence's `.param` names, with the byte size of the aggregate ones
    /// (`.b8 retval0[16]`).
    call_params: Vec<(String, Option<u64>)>,
    call_args: FxHashMap<String, ValueId>,
    /// An aggregate argument's stored pieces: (byte offset, value, bits).
    call_agg_args: FxHashMap<String, Vec<(i64, ValueId, u32)>>,
    /// Each return value of the last call: one register, or for an aggregate one 64-bit
    /// register per 8 bytes (`ld.param` extracts from them).
    call_rets: FxHashMap<String, Vec<ValueId>>,
    /// Call prototypes (`prototype_3 : .callprototype (.param .b32 _) _ (.param .b64 _);`):
    /// their return and parameter declarations.
    protos: FxHashMap<String, (Vec<String>, Vec<String>)>,
    /// `.pragma "used_bytes_mask N";`: the bytes of the next load that are used.
    used_bytes: Option<i64>,
    /// Register ranges of the function's scope (`.reg .b32 %r<40>;`): prefix, count, type.
    /// Their registers are made when first named (a range can be large; most of one may be
    /// unused).
    ranges: Vec<(String, u64, TypeId)>,
    depot: Option<(i64, i64)>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn span(&self) -> (usize, usize) {
        self.toks.get(self.pos).map_or((0, 0), |t| (t.1, t.2))
    }
    fn loc(&self) -> LocId {
        LocId::offset(self.span().0 as u32).unwrap_or_else(|| self.ctx.unknown_loc())
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.0.clone());
        self.pos += 1;
        t
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn err(&mut self, span: (usize, usize), message: String) {
        self.errors.push(ReadError { span, message });
    }
    fn word(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.pos += 1;
                Some(w)
            }
            _ => None,
        }
    }
    fn int(&mut self) -> Option<i64> {
        let neg = self.eat('-');
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v as i64;
                self.pos += 1;
                Some(if neg { -v } else { v })
            }
            _ => None,
        }
    }
    /// Skips to just after the next `;` (error recovery and ignored directives).
    fn skip_statement(&mut self) {
        while let Some(t) = self.next() {
            if t == Tok::Punct(';') {
                return;
            }
        }
    }

    fn module(&mut self) {
        while self.pos < self.toks.len() && self.errors.len() < 20 {
            let span = self.span();
            let Some(w) = self.word() else {
                self.err(span, "expected a directive".into());
                self.skip_statement();
                continue;
            };
            match w.as_str() {
                ".version" | ".target" | ".address_size" => {
                    // Up to the end of the line's operands: a word or number, commas.
                    self.pos += 1;
                    while self.eat(',') {
                        self.pos += 1;
                    }
                }
                ".visible" | ".weak" | ".extern" if self.peek() == Some(&Tok::Word(".shared".into())) || w != ".extern" => {
                    if w == ".extern" {
                        self.pos += 1;
                        self.variable("shared", true, span);
                    }
                }
                ".extern" if self.peek() == Some(&Tok::Word(".func".into())) => {
                    self.pos += 1;
                    self.function_decl(false, true, span);
                }
                ".extern" => {}
                ".global" => self.variable("global", false, span),
                ".const" => self.variable("const", false, span),
                ".shared" => self.variable("shared", false, span),
                ".entry" => self.function(true, span),
                ".func" => self.function(false, span),
                ".pragma" => self.skip_statement(),
                _ => {
                    self.err(span, format!("unknown or unsupported directive '{w}'"));
                    self.skip_statement();
                }
            }
        }
    }

    /// `.space [.align N] .type name[N] [= {..}];` after the space keyword.
    fn variable(&mut self, space: &str, is_extern: bool, span: (usize, usize)) {
        let mut align = 0i64;
        let mut elem = 1i64;
        let mut float = 0;
        let mut managed = false;
        loop {
            match self.word().as_deref() {
                Some(".align") => align = self.int().unwrap_or(1),
                // `.attribute(.managed)`: unified memory, global memory to the simulator.
                Some(".attribute") => {
                    if self.eat('(') {
                        while let Some(w) = self.word() {
                            managed |= w == ".managed";
                            if !self.eat(',') {
                                break;
                            }
                        }
                        if !self.eat(')') {
                            self.err(self.span(), "expected ')' after the attributes".into());
                        }
                    }
                }
                Some(t) if t.starts_with('.') => {
                    let k = t.trim_start_matches('.');
                    let bits: i64 = k.get(1..).and_then(|b| b.parse().ok()).unwrap_or(8).clamp(8, 64);
                    elem = (bits / 8).max(1);
                    if k.starts_with('f') {
                        float = bits;
                    }
                }
                Some(name) => {
                    let name = name.to_string();
                    let mut count = 1i64;
                    let mut no_size = false;
                    if self.eat('[') {
                        match self.int() {
                            Some(n) => count = n,
                            None => no_size = true,
                        }
                        if !self.eat(']') {
                            self.err(self.span(), "expected ']'".into());
                        }
                    }
                    let mut init = Vec::new();
                    let mut relocs = Vec::new();
                    if self.eat('=') {
                        let brace = self.eat('{');
                        loop {
                            match self.next() {
                                Some(Tok::Int(v)) => init.extend_from_slice(&(v as u64).to_le_bytes()[..elem as usize]),
                                // Another variable's generic address (`generic($str)`, a
                                // pointer to a string constant): filled in by whoever places
                                // the variables.
                                Some(Tok::Word(w)) if w == "generic" && elem == 8 && self.eat('(') => {
                                    let target = self.word().unwrap_or_default();
                                    if !self.eat(')') {
                                        self.err(self.span(), "expected ')' after generic(name".into());
                                    }
                                    relocs.push((init.len() as i64, target));
                                    init.extend_from_slice(&[0; 8]);
                                }
                                // A function's address (a vtable's entries): filled in by
                                // whoever places the variable.
                                Some(Tok::Word(w)) if !w.starts_with(['.', '%']) && elem == 8 => {
                                    relocs.push((init.len() as i64, w));
                                    init.extend_from_slice(&[0; 8]);
                                }
                                Some(Tok::F32(v)) => init.extend_from_slice(&v.to_le_bytes()),
                                Some(Tok::F64(v)) if float == 32 => {
                                    init.extend_from_slice(&(f64::from_bits(v) as f32).to_bits().to_le_bytes())
                                }
                                Some(Tok::F64(v)) => init.extend_from_slice(&v.to_le_bytes()),
                                Some(Tok::Punct('-')) => {
                                    if let Some(Tok::Int(v)) = self.next() {
                                        init.extend_from_slice(&((-v) as u64).to_le_bytes()[..elem as usize]);
                                    }
                                }
                                _ => {
                                    self.err(span, "unsupported initializer".into());
                                    break;
                                }
                            }
                            if !self.eat(',') {
                                break;
                            }
                        }
                        if brace && !self.eat('}') {
                            self.err(self.span(), "expected '}'".into());
                        }
                    }
                    if !self.eat(';') {
                        self.err(self.span(), "expected ';'".into());
                        self.skip_statement();
                    }
                    let size = if no_size { 0 } else { count * elem };
                    let align = if align == 0 { elem } else { align };
                    self.global(space, &name, size, align, &init, is_extern || no_size, managed, span);
                    if !relocs.is_empty() {
                        let ctx = &mut *self.ctx;
                        let i64t = ctx.i64();
                        let offsets = ctx.attr(AttrKind::DenseArray { elem: i64t, values: relocs.iter().map(|r| r.0).collect() });
                        let names = relocs.iter().map(|r| ctx.str_attr(&r.1)).collect();
                        let names = ctx.attr(AttrKind::Array(names));
                        if let Some(g) = ctx.last_op(self.body) {
                            ctx.set_prop(g, "init_sym_offsets", offsets);
                            ctx.set_prop(g, "init_syms", names);
                        }
                    }
                    return;
                }
                None => {
                    self.err(span, "expected a variable declaration".into());
                    self.skip_statement();
                    return;
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn global(
        &mut self,
        space: &str,
        name: &str,
        size: i64,
        align: i64,
        init: &[u8],
        is_extern: bool,
        managed: bool,
        span: (usize, usize),
    ) {
        let ctx = &mut *self.ctx;
        let i8t = ctx.int_type(8);
        let mut props: Vec<(&str, AttrId)> = vec![
            ("space", ctx.str_attr(&format!(".{space}"))),
            ("sym_name", ctx.str_attr(name)),
            ("size", i64_attr(ctx, size)),
            ("align", i32_attr(ctx, align)),
        ];
        if !init.is_empty() {
            props.push(("init", ctx.attr(AttrKind::DenseArray { elem: i8t, values: init.iter().map(|&b| b as i8 as i64).collect() })));
        }
        if is_extern {
            props.push(("extern", ctx.unit_attr()));
        }
        if managed {
            props.push(("managed", ctx.unit_attr()));
        }
        let loc = LocId::offset(span.0 as u32).unwrap_or_else(|| ctx.unknown_loc());
        let st = state(ctx, "ptx.global", loc, &[], &[], &props, &[]);
        let g = ctx.create_op(st);
        ctx.insert_op(g, InsertPoint::end(self.body));
    }

    /// `( .param decl name, ... )`: the declarations (without names) and names.
    fn param_list(&mut self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if !self.eat('(') {
            return out;
        }
        while !self.eat(')') {
            if self.pos >= self.toks.len() {
                return out;
            }
            if self.word().as_deref() != Some(".param") {
                let s = self.span();
                self.err(s, "expected '.param'".into());
                self.skip_statement();
                return out;
            }
            let mut decl = Vec::new();
            let mut name = String::new();
            loop {
                match self.peek().cloned() {
                    Some(Tok::Word(w)) if w == ".align" => {
                        self.pos += 1;
                        let n = self.int().unwrap_or(1);
                        decl.push(format!(".align {n}"));
                    }
                    Some(Tok::Word(w)) if w.starts_with('.') => {
                        self.pos += 1;
                        decl.push(w);
                    }
                    Some(Tok::Word(w)) => {
                        self.pos += 1;
                        name = w;
                        if self.eat('[') {
                            let n = self.int().unwrap_or(1);
                            self.eat(']');
                            decl.push(format!("[{n}]"));
                        }
                    }
                    _ => break,
                }
            }
            out.push((decl.join(" "), name));
            self.eat(',');
        }
        out
    }

    fn function(&mut self, entry: bool, span: (usize, usize)) {
        self.function_decl(entry, false, span);
    }

    /// A function (`extern`: after `.extern`, a declaration of one defined elsewhere, kept
    /// as a `ptx.func` with `extern` and no body: `vprintf`, `__assertfail`).
    fn function_decl(&mut self, entry: bool, is_extern: bool, span: (usize, usize)) {
        let rets = if !entry && self.is_punct('(') { self.param_list() } else { Vec::new() };
        let Some(name) = self.word() else {
            self.err(span, "expected a function name".into());
            self.skip_statement();
            return;
        };
        let params = self.param_list();
        self.funcs.insert(name.clone(), rets.iter().map(|r| r.0.clone()).collect());
        let mut maxntid = None;
        let mut extra: Vec<(&str, i64)> = Vec::new();
        loop {
            match self.peek().cloned() {
                Some(Tok::Word(w)) if w == ".maxntid" || w == ".reqntid" => {
                    self.pos += 1;
                    let mut v = vec![self.int().unwrap_or(1)];
                    while self.eat(',') {
                        v.push(self.int().unwrap_or(1));
                    }
                    maxntid = Some(v);
                }
                Some(Tok::Word(w)) if w == ".minnctapersm" || w == ".maxnreg" => {
                    self.pos += 1;
                    let n = self.int().unwrap_or(0);
                    extra.push((if w == ".maxnreg" { "maxnreg" } else { "minnctapersm" }, n));
                }
                Some(Tok::Word(w)) if w == ".noreturn" || w == ".maxnctapersm" => {
                    self.pos += 1;
                    self.int();
                }
                _ => break,
            }
        }
        if self.eat(';') {
            if is_extern {
                let ctx = &mut *self.ctx;
                let ps: Vec<AttrId> = params.iter().map(|p| ctx.str_attr(&p.0)).collect();
                let rs: Vec<AttrId> = rets.iter().map(|p| ctx.str_attr(&p.0)).collect();
                let props: Vec<(&str, AttrId)> = vec![
                    ("kind", i32_attr(ctx, 1)),
                    ("sym_name", ctx.str_attr(&name)),
                    ("params", ctx.attr(AttrKind::Array(ps))),
                    ("rets", ctx.attr(AttrKind::Array(rs))),
                    ("extern", ctx.unit_attr()),
                ];
                let loc = LocId::offset(span.0 as u32).unwrap_or_else(|| ctx.unknown_loc());
                let mut st = state(ctx, "ptx.func", loc, &[], &[], &props, &[]);
                st.regions.push(ctx.create_region());
                let f = ctx.create_op(st);
                ctx.insert_op(f, InsertPoint::end(self.body));
            }
            return; // a declaration
        }
        if !self.eat('{') {
            let s = self.span();
            self.err(s, format!("expected '{{' to start the body of {name}"));
            self.skip_statement();
            return;
        }
        let ctx = &mut *self.ctx;
        let region = ctx.create_region();
        let entry_b = ctx.create_block(&[]);
        ctx.append_block(region, entry_b);
        let mut param_names = FxHashMap::default();
        for (i, (_, n)) in params.iter().enumerate() {
            param_names.insert(n.clone(), format!("{name}_param_{i}"));
        }
        let mut b = Body {
            regs: FxHashMap::default(),
            scopes: Vec::new(),
            labels: FxHashMap::default(),
            placed: Default::default(),
            region,
            cur: entry_b,
            ended: false,
            param_names,
            call_params: Vec::new(),
            call_args: FxHashMap::default(),
            call_agg_args: FxHashMap::default(),
            call_rets: FxHashMap::default(),
            protos: FxHashMap::default(),
            used_bytes: None,
            ranges: Vec::new(),
            depot: None,
        };
        self.body_statements(&mut b);
        let mut missing: Vec<&String> = b.labels.keys().filter(|l| !b.placed.contains(*l)).collect();
        missing.sort();
        if let Some(l) = missing.first() {
            self.err(span, format!("{name}: branch to label '{l}', which is never defined"));
            return;
        }
        if !b.ended {
            let loc = self.loc();
            self.emit(&mut b, "ptx.ret", &[], &[], loc, &[]);
        }
        let ctx = &mut *self.ctx;
        let kind = i32_attr(ctx, if entry { 0 } else { 1 });
        let ps: Vec<AttrId> = params.iter().map(|p| ctx.str_attr(&p.0)).collect();
        let ps = ctx.attr(AttrKind::Array(ps));
        let mut props: Vec<(&str, AttrId)> = vec![("kind", kind), ("sym_name", ctx.str_attr(&name)), ("params", ps)];
        if !rets.is_empty() {
            let rs: Vec<AttrId> = rets.iter().map(|p| ctx.str_attr(&p.0)).collect();
            props.push(("rets", ctx.attr(AttrKind::Array(rs))));
        }
        if let Some(v) = maxntid {
            let i32t = ctx.int_type(32);
            props.push(("maxntid", ctx.attr(AttrKind::DenseArray { elem: i32t, values: v })));
        }
        for (k, v) in extra {
            props.push((k, i32_attr(ctx, v)));
        }
        if let Some((size, align)) = b.depot {
            props.push(("depot", i64_attr(ctx, size)));
            props.push(("depot_align", i64_attr(ctx, align)));
        }
        let loc = LocId::offset(span.0 as u32).unwrap_or_else(|| ctx.unknown_loc());
        let mut st = state(ctx, "ptx.func", loc, &[], &[], &props, &[]);
        st.regions.push(region);
        let f = ctx.create_op(st);
        ctx.insert_op(f, InsertPoint::end(self.body));
    }

    fn reg_type(&mut self, t: &str) -> Option<TypeId> {
        let ctx = &mut *self.ctx;
        Some(match t {
            ".pred" => ctx.i1(),
            ".b8" | ".u8" | ".s8" => ctx.int_type(8),
            ".b16" | ".u16" | ".s16" | ".f16" => ctx.int_type(16),
            ".b32" | ".u32" | ".s32" => ctx.int_type(32),
            ".b64" | ".u64" | ".s64" => ctx.int_type(64),
            ".f32" => ctx.float_type(FloatKind::F32),
            ".f64" => ctx.float_type(FloatKind::F64),
            _ => return None,
        })
    }

    fn new_reg(&mut self, b: &Body, t: TypeId) -> ValueId {
        let loc = self.loc();
        let st = state(self.ctx, "ptx.reg", loc, &[], &[t], &[], &[]);
        let op = self.ctx.create_op(st);
        let entry = self.ctx.entry_block(b.region).expect("entry");
        match self.ctx.first_op(entry) {
            Some(first) => self.ctx.insert_op(op, InsertPoint { block: entry, before: Some(first) }),
            None => self.ctx.insert_op(op, InsertPoint::end(entry)),
        }
        self.ctx.result(op, 0)
    }

    fn label_block(&mut self, b: &mut Body, name: &str) -> BlockId {
        if let Some(&bb) = b.labels.get(name) {
            return bb;
        }
        let bb = self.ctx.create_block(&[]);
        b.labels.insert(name.to_string(), bb);
        bb
    }

    /// Starts emitting into `bb` (appended to the function now).
    fn start_block(&mut self, b: &mut Body, bb: BlockId) {
        if !b.ended {
            let loc = self.loc();
            self.emit(b, "ptx.bra", &[], &[], loc, &[bb]);
        }
        self.ctx.append_block(b.region, bb);
        b.cur = bb;
        b.ended = false;
    }

    fn emit(&mut self, b: &mut Body, name: &str, operands: &[ValueId], props: &[(&str, AttrId)], loc: LocId, succ: &[BlockId]) -> OpId {
        if b.ended {
            // Code after a branch without a label: a block of its own (unreachable).
            let bb = self.ctx.create_block(&[]);
            self.ctx.append_block(b.region, bb);
            b.cur = bb;
            b.ended = false;
        }
        let st = state(self.ctx, name, loc, operands, &[], props, succ);
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(b.cur));
        if matches!(name, "ptx.bra" | "ptx.cbra" | "ptx.ret" | "ptx.exit" | "ptx.unreachable") {
            b.ended = true;
        }
        op
    }

    fn body_statements(&mut self, b: &mut Body) {
        let mut depth = 0;
        while self.pos < self.toks.len() && self.errors.len() < 20 {
            let span = self.span();
            if self.eat('}') {
                if depth == 0 {
                    return;
                }
                depth -= 1;
                for (name, old) in b.scopes.pop().unwrap_or_default().into_iter().rev() {
                    match old {
                        Some(v) => b.regs.insert(name, v),
                        None => b.regs.remove(&name),
                    };
                }
                b.call_params.clear();
                b.call_args.clear();
                b.call_rets.clear();
                continue;
            }
            if self.eat('{') {
                depth += 1;
                b.scopes.push(Vec::new());
                continue;
            }
            // A label.
            if let (Some(Tok::Word(w)), Some(Tok::Punct(':'))) = (self.peek().cloned(), self.toks.get(self.pos + 1).map(|t| t.0.clone())) {
                self.pos += 2;
                if matches!(self.peek(), Some(Tok::Word(p)) if p == ".callprototype") {
                    self.pos += 1;
                    let proto = self.prototype();
                    b.protos.insert(w, proto);
                    continue;
                }
                if !b.placed.insert(w.clone()) {
                    self.err(span, format!("label '{w}' is defined twice"));
                    continue;
                }
                let bb = self.label_block(b, &w);
                self.start_block(b, bb);
                continue;
            }
            match self.peek().cloned() {
                Some(Tok::Word(w)) if w == ".reg" => {
                    self.pos += 1;
                    self.reg_decl(b, None, span);
                }
                // `.reg.b16 r;` (cuda_fp16.h's inline assembly writes it without a space).
                Some(Tok::Word(w)) if w.starts_with(".reg.") => {
                    self.pos += 1;
                    self.reg_decl(b, Some(w[4..].to_string()), span);
                }
                Some(Tok::Word(w)) if w == ".local" => {
                    self.pos += 1;
                    let mut align = 1;
                    let mut size = 0;
                    let mut name = String::new();
                    while let Some(t) = self.next() {
                        match t {
                            Tok::Word(w) if w == ".align" => align = self.int().unwrap_or(1),
                            Tok::Word(w) if !w.starts_with('.') => name = w,
                            Tok::Punct('[') => size = self.int().unwrap_or(0),
                            Tok::Punct(';') => break,
                            _ => {}
                        }
                    }
                    if !name.starts_with("__local_depot") {
                        self.err(span, format!("local variable '{name}': only the local depot (__local_depotN) is supported"));
                    }
                    b.depot = Some((size, align));
                }
                Some(Tok::Word(w)) if w == ".shared" => {
                    self.pos += 1;
                    self.variable("shared", false, span);
                }
                Some(Tok::Word(w)) if w == ".param" => {
                    // A call sequence's argument or return value.
                    self.pos += 1;
                    let mut name = String::new();
                    let mut size = None;
                    while let Some(t) = self.next() {
                        match t {
                            Tok::Word(w) if w.starts_with('.') => {}
                            Tok::Word(w) => name = w,
                            Tok::Punct(';') => break,
                            Tok::Punct('[') => size = Some(self.int().unwrap_or(0).max(0) as u64),
                            _ => {}
                        }
                    }
                    b.call_params.push((name, size));
                }
                Some(Tok::Word(w)) if w == ".pragma" => {
                    self.pos += 1;
                    if let Some(Tok::Word(s)) = self.peek() {
                        if let Some(n) = s.trim_matches('"').strip_prefix("used_bytes_mask ") {
                            b.used_bytes = n.trim().parse().ok();
                        }
                    }
                    self.skip_statement();
                }
                Some(Tok::Word(w)) if w == ".loc" || w == ".file" => self.skip_statement(),
                Some(Tok::Punct('@')) => {
                    self.pos += 1;
                    let neg = self.eat('!');
                    let p = self.word().unwrap_or_default();
                    let Some(pv) = self.lookup_reg(b, &p) else {
                        self.err(span, format!("unknown predicate register '{p}'"));
                        self.skip_statement();
                        continue;
                    };
                    self.guarded(b, pv, neg, span);
                }
                Some(Tok::Word(_)) => self.instruction(b, span),
                _ => {
                    self.err(span, "expected an instruction".into());
                    self.skip_statement();
                }
            }
        }
    }

    /// The register named `name`: declared, or of a declared range (made now).
    fn lookup_reg(&mut self, b: &mut Body, name: &str) -> Option<ValueId> {
        if let Some(&v) = b.regs.get(name) {
            return Some(v);
        }
        let t = Self::range_of(b, name)?;
        let r = self.new_reg(b, t);
        b.regs.insert(name.to_string(), r);
        Some(r)
    }

    /// The type of register `name` if a range declares it: `%r12` of `%r<40>` (digits in
    /// canonical form, below the count).
    fn range_of(b: &Body, name: &str) -> Option<TypeId> {
        let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (prefix, idx) = name.split_at(digits);
        if idx.is_empty() || (idx.len() > 1 && idx.starts_with('0')) {
            return None;
        }
        let i: u64 = idx.parse().ok()?;
        b.ranges.iter().rev().find(|(p, n, _)| p == prefix && i < *n).map(|r| r.2)
    }

    fn declare(b: &mut Body, name: String, r: ValueId) {
        let old = b.regs.insert(name.clone(), r);
        if let Some(scope) = b.scopes.last_mut() {
            scope.push((name, old));
        }
    }

    fn reg_decl(&mut self, b: &mut Body, ty: Option<String>, span: (usize, usize)) {
        let t = ty.or_else(|| self.word()).unwrap_or_default();
        let Some(ty) = self.reg_type(&t) else {
            self.err(span, format!("unsupported register type '{t}'"));
            self.skip_statement();
            return;
        };
        while let Some(name) = self.word() {
            if self.eat('<') {
                let n = self.int().unwrap_or(0).max(0);
                self.eat('>');
                if b.scopes.is_empty() {
                    // The function's scope: made when named.
                    b.ranges.push((name, n as u64, ty));
                } else if n > 4096 {
                    self.err(span, format!("a range of {n} registers in a nested block (at most 4096 are read there)"));
                } else {
                    for i in 0..n {
                        let r = self.new_reg(b, ty);
                        Self::declare(b, format!("{name}{i}"), r);
                    }
                }
            } else {
                let r = self.new_reg(b, ty);
                Self::declare(b, name, r);
            }
            if !self.eat(',') {
                break;
            }
        }
        if !self.eat(';') {
            let s = self.span();
            self.err(s, "expected ';'".into());
            self.skip_statement();
        }
    }

    /// `@p inst` (or `@!p`): a branch around the instruction, or `ptx.cbra` for `bra`.
    fn guarded(&mut self, b: &mut Body, p: ValueId, neg: bool, span: (usize, usize)) {
        let loc = LocId::offset(span.0 as u32).unwrap_or_else(|| self.ctx.unknown_loc());
        if let Some(Tok::Word(w)) = self.peek() {
            if w == "bra" || w.starts_with("bra.") {
                self.pos += 1;
                let target = self.word().unwrap_or_default();
                self.eat(';');
                let t = self.label_block(b, &target);
                let cont = self.ctx.create_block(&[]);
                let (tt, ff) = if neg { (cont, t) } else { (t, cont) };
                self.emit(b, "ptx.cbra", &[p], &[], loc, &[tt, ff]);
                self.ctx.append_block(b.region, cont);
                b.cur = cont;
                b.ended = false;
                return;
            }
        }
        let then_b = self.ctx.create_block(&[]);
        let cont = self.ctx.create_block(&[]);
        let (tt, ff) = if neg { (cont, then_b) } else { (then_b, cont) };
        self.emit(b, "ptx.cbra", &[p], &[], loc, &[tt, ff]);
        self.ctx.append_block(b.region, then_b);
        b.cur = then_b;
        b.ended = false;
        self.instruction(b, span);
        if !b.ended {
            self.emit(b, "ptx.bra", &[], &[], loc, &[cont]);
        }
        self.ctx.append_block(b.region, cont);
        b.cur = cont;
        b.ended = false;
    }

    fn operand(&mut self) -> Option<Opnd> {
        let neg = self.eat('-');
        let t = self.next()?;
        let o = match t {
            Tok::Int(v) => Opnd::Int(if neg { -v } else { v }),
            Tok::F32(v) => Opnd::F32(v),
            Tok::F64(v) => Opnd::F64(v),
            Tok::Word(w) if w == "_" => Opnd::Sink,
            Tok::Word(w) if w.starts_with('%') => Opnd::Reg(w),
            Tok::Word(w) => Opnd::Sym(w),
            Tok::Punct('!') => Opnd::Not(Box::new(self.operand()?)),
            Tok::Punct('[') => {
                let base = self.operand()?;
                // `[t, {coords}]` (a texture fetch): the object and its coordinates.
                if self.eat(',') {
                    let mut items = vec![base];
                    match self.operand()? {
                        Opnd::Vec(xs) => items.extend(xs),
                        o => items.push(o),
                    }
                    return self.eat(']').then_some(Opnd::Vec(items));
                }
                let mut off = 0;
                // `+off` or `-off` (`int` reads the sign).
                if self.eat('+') || self.is_punct('-') {
                    off = self.int()?;
                }
                if !self.eat(']') {
                    return None;
                }
                match base {
                    Opnd::Int(a) => Opnd::Addr(Box::new(Opnd::Int(0)), a as i64 + off),
                    base => Opnd::Addr(Box::new(base), off),
                }
            }
            Tok::Punct('{') => {
                let mut v = vec![self.operand()?];
                while self.eat(',') {
                    v.push(self.operand()?);
                }
                if !self.eat('}') {
                    return None;
                }
                Opnd::Vec(v)
            }
            Tok::Punct('(') => {
                let mut v = Vec::new();
                if !self.eat(')') {
                    v.push(self.operand()?);
                    while self.eat(',') {
                        v.push(self.operand()?);
                    }
                    if !self.eat(')') {
                        return None;
                    }
                }
                Opnd::List(v)
            }
            _ => return None,
        };
        if self.eat('|') {
            let q = self.operand()?;
            return Some(Opnd::Pair(Box::new(o), Box::new(q)));
        }
        Some(o)
    }

    /// `o` with the names of declared registers that do not start with `%` (inline
    /// assembly's `__$temp3`) read as registers rather than symbols.
    fn registers_named(b: &Body, o: Opnd) -> Opnd {
        match o {
            Opnd::Sym(s) if b.regs.contains_key(&s) || Self::range_of(b, &s).is_some() => Opnd::Reg(s),
            Opnd::Addr(base, off) => Opnd::Addr(Box::new(Self::registers_named(b, *base)), off),
            Opnd::Not(x) => Opnd::Not(Box::new(Self::registers_named(b, *x))),
            Opnd::Pair(x, y) => Opnd::Pair(Box::new(Self::registers_named(b, *x)), Box::new(Self::registers_named(b, *y))),
            Opnd::Vec(v) => Opnd::Vec(v.into_iter().map(|x| Self::registers_named(b, x)).collect()),
            o => o,
        }
    }

    fn instruction(&mut self, b: &mut Body, span: (usize, usize)) {
        let Some(full) = self.word() else {
            self.err(span, "expected an instruction".into());
            self.skip_statement();
            return;
        };
        let (opc, mods) = full.split_once('.').unwrap_or((full.as_str(), ""));
        let (opc, mods) = (opc.to_string(), mods.to_string());
        let mut ops = Vec::new();
        if !self.is_punct(';') {
            loop {
                match self.operand() {
                    Some(o) => ops.push(Self::registers_named(b, o)),
                    None => {
                        self.err(span, format!("cannot read the operands of '{full}'"));
                        self.skip_statement();
                        return;
                    }
                }
                if !self.eat(',') {
                    break;
                }
            }
        }
        if !self.eat(';') {
            let s = self.span();
            self.err(s, format!("expected ';' after '{full}'"));
            self.skip_statement();
            return;
        }
        let loc = LocId::offset(span.0 as u32).unwrap_or_else(|| self.ctx.unknown_loc());
        let end = self.toks.get(self.pos.saturating_sub(1)).map_or(span.1, |t| t.2);
        if let Err(m) = self.build(b, &opc, &mods, ops, loc) {
            self.err((span.0, end), m);
        }
    }

    /// The type of immediates of an instruction with modifiers `mods`.
    fn imm_type(&mut self, mods: &str) -> TypeId {
        let last = mods.split('.').rev().find(|t| {
            let k = t.as_bytes().first().copied().unwrap_or(0);
            matches!(k, b's' | b'u' | b'b' | b'f') && t[1..].parse::<u32>().is_ok()
        });
        let bits: u32 = last.and_then(|t| t[1..].parse().ok()).unwrap_or(32);
        self.ctx.int_type(bits.max(8))
    }

    fn value(&mut self, b: &mut Body, o: &Opnd, mods: &str, loc: LocId) -> Result<ValueId, String> {
        Ok(match o {
            Opnd::Reg(r) => match self.lookup_reg(b, r) {
                Some(v) => v,
                None if r.starts_with('%') && !r[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                    // A special register (`%tid.x`), read by mov.
                    let t = self.ctx.int_type(if r.contains("clock64") || r.contains("lanemask") { 64 } else { 32 });
                    self.sym(b, r, t, loc)
                }
                None => return Err(format!("unknown register '{r}'")),
            },
            Opnd::Sym(s) => {
                if let Some(v) = b.call_rets.get(s) {
                    if let [v] = v.as_slice() {
                        return Ok(*v);
                    }
                    return Err(format!("aggregate return value {s} used other than by ld.param"));
                }
                let name = b.param_names.get(s).cloned().unwrap_or_else(|| s.clone());
                let t = self.ctx.i64();
                self.sym(b, &name, t, loc)
            }
            Opnd::Int(v) => {
                let t = self.imm_type(mods);
                let a = self.ctx.int_attr(*v, t);
                self.imm(b, a, t, loc)
            }
            Opnd::F32(bits) => {
                let t = self.ctx.float_type(FloatKind::F32);
                let a = self.ctx.attr(AttrKind::Float { bits: *bits as u64, ty: t });
                self.imm(b, a, t, loc)
            }
            Opnd::F64(bits) => {
                let f32_inst = mods.ends_with("f32");
                let (t, bits) = if f32_inst {
                    (self.ctx.float_type(FloatKind::F32), (f64::from_bits(*bits) as f32).to_bits() as u64)
                } else {
                    (self.ctx.float_type(FloatKind::F64), *bits)
                };
                let a = self.ctx.attr(AttrKind::Float { bits, ty: t });
                self.imm(b, a, t, loc)
            }
            Opnd::Not(p) => {
                let v = self.value(b, p, mods, loc)?;
                let t = self.ctx.i1();
                let r = self.new_reg(b, t);
                let m = self.ctx.str_attr("pred");
                self.emit(b, "ptx.not", &[r, v], &[("mods", m)], loc, &[]);
                r
            }
            Opnd::Sink => {
                let t = self.imm_type(mods);
                self.new_reg(b, t)
            }
            _ => return Err("unexpected operand".into()),
        })
    }

    fn imm(&mut self, b: &mut Body, a: AttrId, t: TypeId, loc: LocId) -> ValueId {
        let st = state(self.ctx, "ptx.imm", loc, &[], &[t], &[("value", a)], &[]);
        self.insert_pure(b, st)
    }

    fn sym(&mut self, b: &mut Body, name: &str, t: TypeId, loc: LocId) -> ValueId {
        let n = self.ctx.symbol_ref(name);
        let st = state(self.ctx, "ptx.sym", loc, &[], &[t], &[("name", n)], &[]);
        self.insert_pure(b, st)
    }

    fn insert_pure(&mut self, b: &mut Body, st: cuprite_ir::OperationState) -> ValueId {
        if b.ended {
            let bb = self.ctx.create_block(&[]);
            self.ctx.append_block(b.region, bb);
            b.cur = bb;
            b.ended = false;
        }
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(b.cur));
        self.ctx.result(op, 0)
    }

    fn build(&mut self, b: &mut Body, opc: &str, mods: &str, ops: Vec<Opnd>, loc: LocId) -> Result<(), String> {
        match opc {
            "bra" => {
                let Some(Opnd::Sym(t)) = ops.first() else { return Err("bra needs a label".into()) };
                let bb = self.label_block(b, t);
                self.emit(b, "ptx.bra", &[], &[], loc, &[bb]);
                return Ok(());
            }
            "ret" => {
                self.emit(b, "ptx.ret", &[], &[], loc, &[]);
                return Ok(());
            }
            "exit" => {
                self.emit(b, "ptx.exit", &[], &[], loc, &[]);
                return Ok(());
            }
            "call" => return self.call(b, ops, loc),
            _ => {}
        }
        if cuprite_dialects::ptx::verify::mnemonic(opc).is_none() {
            let full = if mods.is_empty() { opc.to_string() } else { format!("{opc}.{mods}") };
            return Err(format!("unknown or unsupported PTX instruction '{full}'"));
        }
        cuprite_dialects::ptx::verify::check_mods(opc, mods)?;
        // Call sequences: arguments stored, results loaded.
        if opc == "st" && mods.starts_with("param") {
            if let [Opnd::Addr(base, off), v] = ops.as_slice() {
                if let Opnd::Sym(s) = &**base {
                    if b.call_params.iter().any(|(n, size)| n == s && size.is_some()) {
                        let v = self.value(b, v, mods, loc)?;
                        let bits = self.bits_of(v);
                        b.call_agg_args.entry(s.clone()).or_default().push((*off, v, bits));
                        return Ok(());
                    }
                }
            }
            if let [Opnd::Addr(base, 0), v] = ops.as_slice() {
                if let Opnd::Sym(s) = &**base {
                    if b.call_params.iter().any(|(n, _)| n == s) {
                        let v = self.value(b, v, mods, loc)?;
                        b.call_args.insert(s.clone(), v);
                        return Ok(());
                    }
                }
            }
        }
        if opc == "ld" && mods.starts_with("param") {
            if let [d, Opnd::Addr(base, off)] = ops.as_slice() {
                if let Opnd::Sym(s) = &**base {
                    if let Some(words) = b.call_rets.get(s).cloned() {
                        let d = self.value(b, d, mods, loc)?;
                        let bits = self.bits_of(d);
                        if let ([r], 0) = (words.as_slice(), *off) {
                            let m = self.ctx.str_attr(&format!("b{bits}"));
                            self.emit(b, "ptx.mov", &[d, *r], &[("mods", m)], loc, &[]);
                        } else {
                            self.extract(b, &words, *off, d, bits, s, loc)?;
                        }
                        return Ok(());
                    }
                }
            }
        }
        let mut args = Vec::new();
        let mut offset = None;
        if ops.iter().filter(|o| matches!(o, Opnd::Addr(_, off) if *off != 0)).count() > 1 {
            return Err(format!("{opc}.{mods}: more than one address with an offset is not supported"));
        }
        // `mad.wide`'s addend is twice the sources' width (an immediate there is 64-bit for
        // `mad.wide.s32`).
        let wide_mods = mods.replace("32", "64").replace("16", "32");
        let wide_addend = opc == "mad" && mods.split('.').any(|t| t == "wide");
        for (i, o) in ops.iter().enumerate() {
            let mods = if wide_addend && i == 3 { wide_mods.as_str() } else { mods };
            match o {
                Opnd::Addr(base, off) => {
                    let v = match &**base {
                        Opnd::Int(0) => {
                            let t = self.ctx.i64();
                            let a = self.ctx.int_attr(0, t);
                            self.imm(b, a, t, loc)
                        }
                        base => self.value(b, base, "u64", loc)?,
                    };
                    args.push(v);
                    if *off != 0 {
                        offset = Some(*off);
                    }
                }
                Opnd::Vec(xs) => {
                    for x in xs {
                        args.push(self.value(b, x, mods, loc)?);
                    }
                }
                Opnd::Pair(x, y) => {
                    args.push(self.value(b, x, mods, loc)?);
                    args.push(self.value(b, y, mods, loc)?);
                }
                o => args.push(self.value(b, o, mods, loc)?),
            }
        }
        let m = self.ctx.str_attr(mods);
        let mut props = vec![("mods", m)];
        // `mov.b64 {lo, hi}, x` (unpack) and `mov.b64 x, {lo, hi}` (pack): the operands are
        // flattened, so the op records which operand was the vector and its length.
        if opc == "mov" {
            if let Some((k, Opnd::Vec(xs))) = ops.iter().enumerate().find(|(_, o)| matches!(o, Opnd::Vec(_))) {
                props.push(("vec_at", i32_attr(self.ctx, k as i64)));
                props.push(("vec_len", i32_attr(self.ctx, xs.len() as i64)));
            }
        }
        if let Some(o) = offset {
            props.push(("offset", i64_attr(self.ctx, o)));
        }
        if opc == "ld" {
            if let Some(m) = b.used_bytes.take() {
                props.push(("used_bytes", i32_attr(self.ctx, m)));
            }
        }
        self.emit(b, &format!("ptx.{opc}"), &args, &props, loc, &[]);
        Ok(())
    }

    /// `d` (of `bits` bits) from byte `off` of an aggregate return value held as 64-bit
    /// `words`: shifted down within its word, then narrowed (`cvt`) and moved as bits.
    #[allow(clippy::too_many_arguments)]
    fn extract(&mut self, b: &mut Body, words: &[ValueId], off: i64, d: ValueId, bits: u32, s: &str, loc: LocId) -> Result<(), String> {
        let (w, shift) = ((off / 8) as usize, (off % 8) as u32 * 8);
        let Some(&word) = words.get(w).filter(|_| off >= 0 && shift + bits <= 64) else {
            return Err(format!("ld.param of {bits} bits at {s}+{off}: outside the return value"));
        };
        let i64t = self.ctx.int_type(64);
        let mut v = word;
        if shift > 0 {
            let t = self.new_reg(b, i64t);
            let i32t = self.ctx.int_type(32);
            let a = self.ctx.int_attr(shift as i128, i32t);
            let amt = self.imm(b, a, i32t, loc);
            let m = self.ctx.str_attr("b64");
            self.emit(b, "ptx.shr", &[t, v, amt], &[("mods", m)], loc, &[]);
            v = t;
        }
        if bits < 64 {
            let it = self.ctx.int_type(bits);
            let t = self.new_reg(b, it);
            let m = self.ctx.str_attr(&format!("u{bits}.u64"));
            self.emit(b, "ptx.cvt", &[t, v], &[("mods", m)], loc, &[]);
            v = t;
        }
        let m = self.ctx.str_attr(&format!("b{bits}"));
        self.emit(b, "ptx.mov", &[d, v], &[("mods", m)], loc, &[]);
        Ok(())
    }

    /// Word `w` (bytes `8w..8w+8`) of an aggregate argument: its pieces zero-extended,
    /// shifted into place and or-ed together.
    fn pack_word(&mut self, b: &mut Body, pieces: &[(i64, ValueId, u32)], w: i64, name: &str, loc: LocId) -> Result<ValueId, String> {
        let i64t = self.ctx.int_type(64);
        let mut acc = self.imm_value(b, 0, i64t, loc);
        if let Some(&(off, _, _)) = pieces.iter().find(|p| p.0 < 0) {
            return Err(format!("aggregate argument {name}: a piece at negative byte offset {off}"));
        }
        for &(off, v, bits) in pieces.iter().filter(|p| p.0 / 8 == w) {
            let shift = (off % 8) as u32 * 8;
            if shift + bits > 64 {
                return Err(format!("aggregate argument {name}: a {bits}-bit piece at byte {off} crosses an 8-byte word"));
            }
            let mut x = v;
            if bits < 64 {
                let t = self.new_reg(b, i64t);
                let m = self.ctx.str_attr(&format!("u64.u{bits}"));
                // Float pieces are moved as bits first.
                let it = self.ctx.int_type(bits);
                let raw = if matches!(self.ctx.type_kind(self.ctx.value_type(v)), cuprite_ir::TypeKind::Float(_)) {
                    let r = self.new_reg(b, it);
                    let mb = self.ctx.str_attr(&format!("b{bits}"));
                    self.emit(b, "ptx.mov", &[r, v], &[("mods", mb)], loc, &[]);
                    r
                } else {
                    v
                };
                self.emit(b, "ptx.cvt", &[t, raw], &[("mods", m)], loc, &[]);
                x = t;
            } else if matches!(self.ctx.type_kind(self.ctx.value_type(v)), cuprite_ir::TypeKind::Float(_)) {
                let t = self.new_reg(b, i64t);
                let mb = self.ctx.str_attr("b64");
                self.emit(b, "ptx.mov", &[t, v], &[("mods", mb)], loc, &[]);
                x = t;
            }
            if shift > 0 {
                let t = self.new_reg(b, i64t);
                let i32t = self.ctx.int_type(32);
                let amt = self.imm_value(b, shift as i64, i32t, loc);
                let m = self.ctx.str_attr("b64");
                self.emit(b, "ptx.shl", &[t, x, amt], &[("mods", m)], loc, &[]);
                x = t;
            }
            let t = self.new_reg(b, i64t);
            let m = self.ctx.str_attr("b64");
            self.emit(b, "ptx.or", &[t, acc, x], &[("mods", m)], loc, &[]);
            acc = t;
        }
        Ok(acc)
    }

    fn imm_value(&mut self, b: &mut Body, v: i64, t: TypeId, loc: LocId) -> ValueId {
        let a = self.ctx.int_attr(v as i128, t);
        self.imm(b, a, t, loc)
    }

    fn bits_of(&self, v: ValueId) -> u32 {
        match self.ctx.type_kind(self.ctx.value_type(v)) {
            cuprite_ir::TypeKind::Integer { width, .. } => *width,
            cuprite_ir::TypeKind::Float(k) => k.width(),
            _ => 64,
        }
    }

    /// The rest of `.callprototype (.param .b32 _) _ (.param .b64 _, ...);`: the return
    /// and parameter declarations, each without `.param` and the `_` name.
    fn prototype(&mut self) -> (Vec<String>, Vec<String>) {
        let mut groups: Vec<Vec<String>> = Vec::new();
        let mut cur: Option<Vec<String>> = None;
        let mut item = String::new();
        while let Some(t) = self.next() {
            match t {
                Tok::Punct(';') => break,
                Tok::Punct('(') => cur = Some(Vec::new()),
                Tok::Punct(',') | Tok::Punct(')') => {
                    if let Some(c) = cur.as_mut() {
                        if !item.trim().is_empty() {
                            c.push(item.trim().to_string());
                        }
                        item.clear();
                        if t == Tok::Punct(')') {
                            groups.extend(cur.take());
                        }
                    }
                }
                Tok::Word(w) if cur.is_some() && w != ".param" && w != "_" => {
                    item.push(' ');
                    item.push_str(&w);
                }
                Tok::Int(n) if cur.is_some() => item.push_str(&n.to_string()),
                Tok::Punct(c) if cur.is_some() && matches!(c, '[' | ']') => item.push(c),
                _ => {}
            }
        }
        let params = groups.pop().unwrap_or_default();
        (groups.pop().unwrap_or_default(), params)
    }

    /// `call[.uni] (ret, ...), f, (arg, ...);` inside a call sequence; `call (ret, ...),
    /// %rd, (arg, ...), prototype;` through a register.
    fn call(&mut self, b: &mut Body, ops: Vec<Opnd>, loc: LocId) -> Result<(), String> {
        let (rets, rest): (Vec<Opnd>, &[Opnd]) = match ops.as_slice() {
            [Opnd::List(r), rest @ ..] => (r.clone(), rest),
            rest => (Vec::new(), rest),
        };
        let (callee, tail) = match rest {
            [Opnd::Sym(callee), tail @ ..] => (Some(callee), tail),
            [Opnd::Reg(_), tail @ ..] => (None, tail),
            _ => return Err("call needs a function name or a register".into()),
        };
        let (args, proto): (Vec<Opnd>, Option<&String>) = match tail {
            [Opnd::List(a)] => (a.clone(), None),
            [Opnd::List(a), Opnd::Sym(p)] => (a.clone(), Some(p)),
            [Opnd::Sym(p)] => (Vec::new(), Some(p)),
            [] => (Vec::new(), None),
            _ => return Err("a call's operands: (results), function, (arguments)[, prototype]".into()),
        };
        let proto = match (callee, proto) {
            (None, Some(p)) => Some(b.protos.get(p).cloned().ok_or_else(|| format!("call through prototype {p}, which is not declared"))?),
            (None, None) => return Err("an indirect call needs a prototype".into()),
            (Some(_), _) => None,
        };
        let ret_decls = match (callee, &proto) {
            (Some(callee), _) => {
                self.funcs.get(callee).cloned().ok_or_else(|| format!("call to {callee}, which is not declared before"))?
            }
            (None, Some(p)) => p.0.clone(),
            (None, None) => Vec::new(),
        };
        let mut operands = Vec::new();
        for (i, r) in rets.iter().enumerate() {
            let Opnd::Sym(rn) = r else { return Err("call results must be .param names".into()) };
            let decl = ret_decls.get(i).cloned().unwrap_or_else(|| ".b32".into());
            // An aggregate (`.b8 func_retval0[16]`) comes back as one 64-bit word per 8 bytes.
            let agg = decl.split_once('[').and_then(|(_, n)| n.trim_end_matches([']', ' ']).trim().parse::<u64>().ok());
            let regs: Vec<ValueId> = match agg {
                Some(size) => {
                    let t = self.ctx.int_type(64);
                    (0..size.div_ceil(8).max(1)).map(|_| self.new_reg(b, t)).collect()
                }
                None => {
                    let t = decl.split_whitespace().find_map(|d| self.reg_type(d)).unwrap_or_else(|| self.ctx.i64());
                    vec![self.new_reg(b, t)]
                }
            };
            operands.extend(&regs);
            b.call_rets.insert(rn.clone(), regs);
        }
        let nres = operands.len();
        if callee.is_none() {
            let Some(Opnd::Reg(r)) = rest.first() else { return Err("an indirect call needs a register".into()) };
            let v = self.lookup_reg(b, r).ok_or_else(|| format!("undeclared register {r}"))?;
            operands.push(v);
        }
        for a in &args {
            let Opnd::Sym(an) = a else { return Err("call arguments must be .param names".into()) };
            // An aggregate goes as one 64-bit word per 8 bytes (as aggregate results come
            // back), made of the pieces stored into it.
            if let Some(&(_, Some(size))) = b.call_params.iter().find(|(n, _)| n == an) {
                // PTX's parameter space holds at most 32764 bytes.
                if size > 32768 {
                    return Err(format!("aggregate argument {an} of {size} bytes is larger than the parameter space"));
                }
                let pieces = b.call_agg_args.remove(an).unwrap_or_default();
                for w in 0..size.div_ceil(8).max(1) as i64 {
                    let word = self.pack_word(b, &pieces, w, an, loc)?;
                    operands.push(word);
                }
                continue;
            }
            let v = *b.call_args.get(an).ok_or_else(|| format!("argument {an} is never stored"))?;
            operands.push(v);
        }
        let n = i32_attr(self.ctx, nres as i64);
        match (callee, proto) {
            (Some(callee), _) => {
                let callee_attr = self.ctx.symbol_ref(callee);
                self.emit(b, "ptx.call", &operands, &[("callee", callee_attr), ("nresults", n)], loc, &[]);
            }
            (None, proto) => {
                let (rets, params) = proto.unwrap_or_default();
                let list = |ctx: &mut Context, xs: &[String]| {
                    let a = xs.iter().map(|x| ctx.str_attr(x)).collect();
                    ctx.attr(AttrKind::Array(a))
                };
                let (ra, pa) = (list(self.ctx, &rets), list(self.ctx, &params));
                self.emit(b, "ptx.call_indirect", &operands, &[("nresults", n), ("rets", ra), ("params", pa)], loc, &[]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_kernel_and_reports_unknown_instructions() {
        let mut ctx = Context::new(cuprite_dialects::registry());
        let text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n.reg .b64 %rd<3>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [k_param_0];\nsetp.eq.s64 %p1, %rd1, 0;\n@%p1 bra $L1;\nst.global.u32 [%rd1+4], 7;\n$L1:\nret;\n}\n";
        let m = read_ptx(&mut ctx, text, "k.ptx").expect("reads");
        let out = crate::print_ptx(&ctx, m, &crate::PtxOptions { sm: 90 });
        assert!(out.contains("st.global.u32 \t[%rd"), "{out}");
        let bad = text.replace("st.global.u32", "frobnicate.u32");
        let e = read_ptx(&mut ctx, &bad, "k.ptx").unwrap_err();
        assert!(e[0].message.contains("frobnicate.u32"), "{e:?}");
        assert!(render("k.ptx", &bad, &e).contains("k.ptx:11"));
    }
}
