//! The IR printer: MLIR's generic form, and custom forms through per-op hooks.
//!
//! Printing is iterative (an explicit task stack), so nesting depth does not grow the Rust
//! stack, custom forms included: a custom printer's regions are queued as tasks and
//! printed after it returns, interleaved with the text it wrote between them. Output is buffered and flushed to the sink in chunks ([`FLUSH_BYTES`]), so a large
//! module is never held as one string when printing to a file.
//!
//! Value and block names are mlir-opt's, character for character: op results `%N` (`%N:k`
//! for k results, used as `%N#i`) or the name the op gives them (`%c0_i32`, `%cst`, made
//! unique with `_N`), entry block arguments `%argN`, other block arguments `%N`, numbered
//! region by region as MLIR numbers them (see `OpPrinter::number`); blocks `^bbN` per region,
//! with MLIR's `// pred: ^bb0` / `// 2 preds: ^bb0, ^bb2` / `// no predecessors` comments.

use crate::{
    attrs::{AttrId, AttrKind},
    context::{BlockId, Context, OpId, RegionId, ValueId},
    location::{LocId, Location},
    registry::Traits,
    types::{FloatKind, Signedness, TypeId, TypeKind},
};
use std::fmt::{self, Write};

/// Buffered output is flushed to the sink once it reaches this size (bounded memory when
/// printing large modules to a file).
pub const FLUSH_BYTES: usize = 1 << 16;

/// Printer settings.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every op in generic form, even those with a custom form.
    pub generic: bool,
    /// Print `loc(...)` after every op and block argument.
    pub locations: bool,
    /// Print for upstream mlir-opt with our dialects loaded from IRDL (`--irdl-file`):
    /// generic form, properties in the attribute dictionary (IRDL's dynamic ops have no
    /// properties; MLIR reads inherent attributes from the dictionary too), and dialect types
    /// in parameter syntax (`!cuda.ptr<f32, "global">`, see `DialectInfo::type_to_params`).
    pub irdl_compatible: bool,
}

const NO_NAME: u32 = u32::MAX;
/// A value whose name is text (`value_strs[n & !NAMED_BIT]`): entry block arguments and
/// results named by their op.
const NAMED_BIT: u32 = 1 << 31;

/// The counters and used names of [`OpPrinter::number`].
struct Naming {
    next_val: u32,
    next_conflict: u32,
    /// The names used in the enclosing regions, innermost last.
    scopes: Vec<rustc_hash::FxHashSet<std::rc::Rc<str>>>,
    /// Each op name's `result_names` hook, looked up once.
    hooks: rustc_hash::FxHashMap<crate::symbol::Symbol, Option<ResultNamesFn>>,
}

type ResultNamesFn = fn(&Context, OpId) -> Vec<String>;

/// MLIR's `sanitizeIdentifier` for value names: letters, digits and `$._-` kept, a space
/// as `_`, other bytes as their hex digits; a leading digit gets a `_` before it.
fn sanitize_identifier(name: &str) -> std::borrow::Cow<'_, str> {
    let valid = |c: char| c.is_ascii_alphanumeric() || "$._-".contains(c);
    let lead = name.starts_with(|c: char| c.is_ascii_digit());
    if !lead && name.chars().all(valid) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::new();
    if lead {
        out.push('_');
    }
    for c in name.chars() {
        if valid(c) {
            out.push(c);
        } else if c == ' ' {
            out.push('_');
        } else {
            let mut b = [0u8; 4];
            for byte in c.encode_utf8(&mut b).bytes() {
                let _ = write!(out, "{byte:X}");
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

enum Task {
    Op(OpId),
    /// Text a custom printer wrote after one of its regions.
    Raw(String),
    OpTail(OpId),
    /// A region, its index among the op's regions (for the separator), and how it is shown.
    Region(RegionId, usize, RegionStyle),
    RegionClose,
    Block(BlockId, bool, RegionStyle),
    /// The ops of a block from this one on, up to (not including) the second op.
    OpsFrom(OpId, Option<OpId>),
}

/// How a custom form shows a region (MLIR's `printRegion` flags).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RegionStyle {
    /// Leave out a lone empty entry block (custom forms whose parser recreates it).
    pub elide_empty_block: bool,
    /// Print the entry block's label and arguments (custom forms that print the
    /// arguments elsewhere, like `func.func`'s signature, turn this off).
    pub entry_args: bool,
    /// Print block terminators (off for implicit terminators the parser adds back).
    pub terminators: bool,
}

impl Default for RegionStyle {
    fn default() -> Self {
        RegionStyle { elide_empty_block: false, entry_args: true, terminators: true }
    }
}

/// Printer state handed to custom-form print hooks.
pub struct OpPrinter<'c, 'w> {
    ctx: &'c Context,
    opts: PrintOptions,
    out: String,
    sink: Option<&'w mut dyn std::io::Write>,
    io_error: Option<std::io::Error>,
    names: Vec<u32>,
    /// The texts of named values (see [`NAMED_BIT`]).
    value_strs: Vec<std::rc::Rc<str>>,
    block_names: Vec<u32>,
    level: usize,
    /// While a custom printer runs: the regions it asked for, with the text between them.
    /// They are printed afterwards by the task loop, so custom forms do not recurse.
    segments: Option<Vec<Segment>>,
    seg_start: usize,
    /// Printed text of types and attribute dictionaries, by id: generic IR repeats the same
    /// few types and properties on most ops.
    type_strs: Vec<Option<Box<str>>>,
    dict_strs: rustc_hash::FxHashMap<AttrId, Box<str>>,
    name_strs: rustc_hash::FxHashMap<crate::symbol::Symbol, Box<str>>,
    /// Ops with a custom form printed in generic form (their guard said no): the parser gives
    /// their regions no default dialect, so op names inside keep their prefix.
    generic_parents: rustc_hash::FxHashSet<OpId>,
}

/// Appends the decimal digits of `n` (faster than `write!` on hot paths).
fn push_u32(out: &mut String, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &buf[i..] {
        out.push(d as char);
    }
}

enum Segment {
    Text(String),
    Region(RegionId, RegionStyle),
}

/// Prints `op` (and everything nested) to a string.
pub fn print_op(ctx: &Context, op: OpId, opts: PrintOptions) -> String {
    let mut p = OpPrinter::new(ctx, opts, None);
    p.number(op);
    p.run(vec![Task::Op(op)]);
    p.out
}

/// Prints `op` to an `io::Write`, streaming in chunks.
pub fn write_op(ctx: &Context, op: OpId, opts: PrintOptions, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut p = OpPrinter::new(ctx, opts, Some(sink));
    p.number(op);
    p.run(vec![Task::Op(op)]);
    p.flush();
    match p.io_error.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl<'c, 'w> OpPrinter<'c, 'w> {
    fn new(ctx: &'c Context, opts: PrintOptions, sink: Option<&'w mut dyn std::io::Write>) -> Self {
        Self {
            ctx,
            opts,
            out: String::new(),
            sink,
            io_error: None,
            names: Vec::new(),
            value_strs: Vec::new(),
            block_names: Vec::new(),
            level: 0,
            segments: None,
            seg_start: 0,
            type_strs: Vec::new(),
            dict_strs: rustc_hash::FxHashMap::default(),
            name_strs: rustc_hash::FxHashMap::default(),
            generic_parents: rustc_hash::FxHashSet::default(),
        }
    }

    /// The context being printed.
    pub fn ctx(&self) -> &'c Context {
        self.ctx
    }

    fn flush(&mut self) {
        if let Some(s) = self.sink.as_mut() {
            if self.io_error.is_none() {
                if let Err(e) = s.write_all(self.out.as_bytes()) {
                    self.io_error = Some(e);
                }
            }
            self.out.clear();
        }
    }

    /// Assigns names to every value and block under `root`, as MLIR's `SSANameState` does
    /// (in the generic form without restarting the counters per region, and without the ops'
    /// own names):
    /// a region's blocks and values are numbered before the regions nested in its ops, and
    /// each nested region starts from the counters its parent region ended with (so sibling
    /// regions reuse numbers, and an op's nested values come after the values of the rest of
    /// its region). Entry block arguments are `%argN`; an op's result named by its
    /// `result_name` hook (`%c0_i32`, `%cst`) is made unique within the enclosing regions by
    /// a suffix `_N` from one conflict counter; other values are `%N`. Blocks are `^bbN`,
    /// numbered per region.
    fn number(&mut self, root: OpId) {
        let ctx = self.ctx;
        self.names = vec![NO_NAME; ctx.value_capacity()];
        self.block_names = vec![0; ctx.block_capacity()];
        self.value_strs.clear();
        let mut n = Naming { next_val: 0, next_conflict: 0, scopes: Vec::new(), hooks: Default::default() };
        n.scopes.push(Default::default());
        self.number_results(root, &mut n);
        // (region, next value, next argument, next conflict id, depth of the parent's scope)
        let mut stack: Vec<(RegionId, u32, u32, u32, usize)> = Vec::new();
        for &r in ctx.regions(root).iter() {
            stack.push((r, n.next_val, 0, n.next_conflict, 1));
        }
        // The generic form numbers every value of the tree once (MLIR does not rely on the
        // ops' scoping there): the counters run on instead of restarting per region.
        let restart = !self.opts.generic;
        let mut next_arg = 0;
        while let Some((r, val, arg, conflict, depth)) = stack.pop() {
            if restart {
                n.next_val = val;
                n.next_conflict = conflict;
                next_arg = arg;
            }
            n.scopes.truncate(depth);
            n.scopes.push(Default::default());
            let blocks = ctx.region_blocks(r);
            for (i, &b) in blocks.iter().enumerate() {
                self.block_names[b.index()] = i as u32;
                for &a in ctx.block_args(b) {
                    if i == 0 {
                        let name = format!("arg{next_arg}");
                        next_arg += 1;
                        self.set_name(a, &name, &mut n);
                    } else {
                        self.names[a.index()] = n.next_val;
                        n.next_val += 1;
                    }
                }
                for op in ctx.block_ops(b) {
                    self.number_results(op, &mut n);
                }
            }
            let depth = n.scopes.len();
            for &b in blocks {
                for op in ctx.block_ops(b) {
                    for &nested in ctx.regions(op) {
                        stack.push((nested, n.next_val, next_arg, n.next_conflict, depth));
                    }
                }
            }
        }
    }

    /// Names `op`'s results: by its `result_names` hook (a result past the last name shares
    /// it), else the next number (one for all of them: `%N:k`, used as `%N#i`).
    fn number_results(&mut self, op: OpId, n: &mut Naming) {
        let ctx = self.ctx;
        let results = ctx.results(op);
        if results.is_empty() {
            return;
        }
        // The generic form leaves the ops' own names out, as MLIR's does.
        let hook = if self.opts.generic {
            None
        } else {
            *n.hooks.entry(ctx.op_name(op)).or_insert_with(|| {
                let reg = ctx.registry();
                reg.lookup(ctx.op_name_str(op)).and_then(|i| reg.op(i).result_names)
            })
        };
        let names = hook.map(|f| f(ctx, op)).unwrap_or_default();
        if names.is_empty() {
            for &r in results {
                self.names[r.index()] = n.next_val;
            }
            n.next_val += 1;
            return;
        }
        for (i, &r) in results.iter().enumerate() {
            match names.get(i) {
                Some(name) => self.set_name(r, name, n),
                None => self.names[r.index()] = self.names[results[i - 1].index()],
            }
        }
    }

    /// Gives `v` the name `name`, sanitized and made unique as MLIR's `uniqueValueName`.
    fn set_name(&mut self, v: ValueId, name: &str, n: &mut Naming) {
        let base = sanitize_identifier(name);
        let used = |n: &Naming, s: &str| n.scopes.iter().any(|sc| sc.contains(s));
        let name: std::rc::Rc<str> = if !used(n, &base) {
            base.into()
        } else {
            loop {
                let probe = format!("{base}_{}", n.next_conflict);
                n.next_conflict += 1;
                if !used(n, &probe) {
                    break probe.into();
                }
            }
        };
        if let Some(sc) = n.scopes.last_mut() {
            sc.insert(name.clone());
        }
        self.names[v.index()] = NAMED_BIT | self.value_strs.len() as u32;
        self.value_strs.push(name);
    }

    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("  ");
        }
    }

    fn run(&mut self, mut stack: Vec<Task>) {
        let ctx = self.ctx;
        while let Some(t) = stack.pop() {
            match t {
                Task::Op(op) => {
                    self.indent(self.level);
                    self.print_results(op);
                    let custom = if self.opts.generic || self.opts.irdl_compatible {
                        None
                    } else {
                        let info = ctx.op_info(op);
                        let guarded = info.filter(|i| i.print_guard.is_none_or(|g| g(ctx, op)));
                        if guarded.is_none() && info.is_some_and(|i| i.default_dialect.is_some()) {
                            self.generic_parents.insert(op);
                        }
                        guarded.and_then(|i| i.print)
                    };
                    if let Some(f) = custom {
                        // The prefix of the default dialect is left out (`module`, `return`).
                        let name = ctx.op_name_str(op);
                        let default = match ctx.parent_op(op) {
                            Some(p) if self.generic_parents.contains(&p) => "",
                            Some(p) => ctx.op_info(p).and_then(|i| i.default_dialect).unwrap_or(""),
                            None => "builtin",
                        };
                        let short = name
                            .strip_prefix(default)
                            .and_then(|r| r.strip_prefix('.'))
                            .filter(|r| !default.is_empty() && !r.contains('.'));
                        self.out.push_str(short.unwrap_or(name));
                        let outer = self.segments.replace(Vec::new());
                        let _ = f(self, op);
                        let segs = std::mem::replace(&mut self.segments, outer).unwrap_or_default();
                        if segs.is_empty() {
                            self.print_trailing_loc(ctx.op_loc(op));
                            self.out.push('\n');
                        } else {
                            // Text after the last region, then the regions and the text between them.
                            let mut tail = self.out.split_off(self.seg_start);
                            if self.opts.locations {
                                tail.push_str(" loc(");
                                write_loc_body(ctx, ctx.op_loc(op), &mut tail);
                                tail.push(')');
                            }
                            tail.push('\n');
                            stack.push(Task::Raw(tail));
                            for seg in segs.into_iter().rev() {
                                stack.push(match seg {
                                    Segment::Text(t) => Task::Raw(t),
                                    Segment::Region(r, style) => Task::Region(r, 0, style),
                                });
                            }
                        }
                    } else {
                        self.print_generic_head(op);
                        let regions = ctx.regions(op);
                        if regions.is_empty() {
                            self.print_generic_tail(op);
                        } else {
                            self.out.push_str(" (");
                            stack.push(Task::OpTail(op));
                            for (i, &r) in regions.iter().enumerate().rev() {
                                stack.push(Task::Region(r, i, RegionStyle::default()));
                            }
                        }
                    }
                    if self.out.len() >= FLUSH_BYTES {
                        self.flush();
                    }
                }
                Task::Raw(t) => self.out.push_str(&t),
                Task::OpTail(op) => {
                    self.out.push(')');
                    self.print_generic_tail(op);
                }
                Task::Region(r, i, style) => {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str("{\n");
                    self.level += 1;
                    stack.push(Task::RegionClose);
                    let blocks = ctx.region_blocks(r);
                    if style.elide_empty_block && blocks.len() == 1 && ctx.block_is_empty(blocks[0]) && ctx.block_args(blocks[0]).is_empty()
                    {
                        continue;
                    }
                    for (k, &b) in blocks.iter().enumerate().rev() {
                        stack.push(Task::Block(b, k == 0, style));
                    }
                }
                Task::RegionClose => {
                    self.level -= 1;
                    self.indent(self.level);
                    self.out.push('}');
                }
                Task::Block(b, entry, style) => {
                    let args = ctx.block_args(b);
                    // The entry label can be left out only when nothing needs it: no
                    // arguments, some ops, and no branch to it (invalid IR, but printable).
                    let label = if entry && !style.entry_args {
                        ctx.has_predecessors(b)
                    } else {
                        !entry || !args.is_empty() || ctx.block_is_empty(b) || ctx.has_predecessors(b)
                    };
                    if label {
                        self.indent(self.level - 1);
                        self.print_block_label(b);
                        self.out.push('\n');
                    }
                    let stop = if style.terminators { None } else { ctx.last_op(b).filter(|&t| ctx.has_trait(t, Traits::TERMINATOR)) };
                    if let Some(f) = ctx.first_op(b).filter(|&f| Some(f) != stop) {
                        stack.push(Task::OpsFrom(f, stop));
                    }
                }
                Task::OpsFrom(op, stop) => {
                    if let Some(n) = ctx.next_op(op).filter(|&n| Some(n) != stop) {
                        stack.push(Task::OpsFrom(n, stop));
                    }
                    stack.push(Task::Op(op));
                }
            }
        }
    }

    fn print_block_label(&mut self, b: BlockId) {
        let ctx = self.ctx;
        let _ = write!(self.out, "^bb{}", self.block_names.get(b.index()).copied().unwrap_or(0));
        let args = ctx.block_args(b);
        if !args.is_empty() {
            self.out.push('(');
            for (i, &a) in args.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.operand(a);
                self.out.push_str(": ");
                self.ty(ctx.value_type(a));
                if self.opts.locations {
                    let l = ctx.value_loc(a).unwrap_or(ctx.unknown_loc());
                    self.print_trailing_loc(l);
                }
            }
            self.out.push(')');
        }
        self.out.push(':');
        self.pred_comment(b);
    }

    /// MLIR's comment after a block label: its predecessors (each branch to it once, in
    /// block order), or that a block other than the entry has none.
    fn pred_comment(&mut self, b: BlockId) {
        let ctx = self.ctx;
        let mut preds: Vec<BlockId> = ctx.predecessors(b).filter_map(|(op, _)| ctx.op_block(op)).collect();
        if preds.is_empty() {
            if ctx.block_region(b).is_some_and(|r| ctx.entry_block(r) != Some(b)) {
                self.out.push_str("  // no predecessors");
            }
            return;
        }
        // One branch to it (two from one `cond_br` are two predecessors, as in MLIR).
        if preds.len() == 1 {
            self.out.push_str("  // pred: ");
            self.block_ref(preds[0]);
            return;
        }
        preds.sort_by_key(|p| self.block_names.get(p.index()).copied().unwrap_or(0));
        let _ = write!(self.out, "  // {} preds: ", preds.len());
        for (i, &p) in preds.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.block_ref(p);
        }
    }

    /// `%N = `, `%N:k = `, or named groups `%sum, %overflow = ` (a run of results sharing
    /// a name is one group).
    fn print_results(&mut self, op: OpId) {
        let results = self.ctx.results(op);
        if results.is_empty() {
            return;
        }
        let mut i = 0;
        while i < results.len() {
            let id = self.names.get(results[i].index()).copied();
            let len = results[i..].iter().take_while(|r| self.names.get(r.index()).copied() == id).count();
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value_base(results[i]);
            if len > 1 {
                let _ = write!(self.out, ":{len}");
            }
            i += len;
        }
        self.out.push_str(" = ");
    }

    fn value_base(&mut self, v: ValueId) {
        match self.names.get(v.index()).copied().unwrap_or(NO_NAME) {
            NO_NAME => {
                let _ = write!(self.out, "%<<UNKNOWN SSA VALUE {}>>", v.0);
            }
            n if n & NAMED_BIT != 0 => {
                self.out.push('%');
                let name = &self.value_strs[(n & !NAMED_BIT) as usize];
                self.out.push_str(name);
            }
            n => {
                self.out.push('%');
                push_u32(&mut self.out, n);
            }
        }
    }

    /// Appends a dictionary's entries (without braces), cached by dictionary id.
    fn dict_body(&mut self, d: AttrId) {
        if let Some(s) = self.dict_strs.get(&d) {
            self.out.push_str(s);
            return;
        }
        let start = self.out.len();
        if let AttrKind::Dict(entries) = self.ctx.attr_kind(d) {
            self.named_attrs(entries);
        }
        let text: Box<str> = self.out[start..].into();
        self.dict_strs.insert(d, text);
    }

    fn print_generic_head(&mut self, op: OpId) {
        let ctx = self.ctx;
        let name = ctx.op_name(op);
        match self.name_strs.get(&name) {
            Some(s) => self.out.push_str(s),
            None => {
                let mut q = String::from("\"");
                escape_into(&mut q, ctx.str(name));
                q.push_str("\"(");
                self.out.push_str(&q);
                self.name_strs.insert(name, q.into());
            }
        }
        for (i, v) in ctx.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.operand(v);
        }
        self.out.push(')');
        if ctx.num_successors(op) > 0 {
            self.out.push('[');
            for (i, b) in ctx.successors(op).enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.block_ref(b);
            }
            self.out.push(']');
        }
        let (props, _) = ctx.attr_dicts(op);
        if props != ctx.empty_dict() && !self.opts.irdl_compatible {
            self.out.push_str(" <{");
            self.dict_body(props);
            self.out.push_str("}>");
        }
    }

    fn print_generic_tail(&mut self, op: OpId) {
        let ctx = self.ctx;
        let (props, attrs) = ctx.attr_dicts(op);
        if self.opts.irdl_compatible && props != ctx.empty_dict() {
            let mut all: Vec<_> = ctx.props(op).iter().chain(ctx.attrs(op)).copied().collect();
            all.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
            self.out.push_str(" {");
            self.named_attrs(&all);
            self.out.push('}');
        } else if attrs != ctx.empty_dict() {
            self.out.push_str(" {");
            self.dict_body(attrs);
            self.out.push('}');
        }
        self.out.push_str(" : (");
        for (i, v) in ctx.operands(op).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(ctx.value_type(v));
        }
        self.out.push_str(") -> ");
        let results = ctx.results(op);
        if results.len() == 1 && !matches!(ctx.type_kind(ctx.value_type(results[0])), TypeKind::Function { .. }) {
            self.ty(ctx.value_type(results[0]));
        } else {
            self.out.push('(');
            for (i, &r) in results.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.ty(ctx.value_type(r));
            }
            self.out.push(')');
        }
        self.print_trailing_loc(ctx.op_loc(op));
        self.out.push('\n');
    }

    fn print_trailing_loc(&mut self, l: LocId) {
        if self.opts.locations {
            self.out.push_str(" loc(");
            self.loc_body(l);
            self.out.push(')');
        }
    }

    fn named_attrs(&mut self, list: &[crate::attrs::NamedAttr]) {
        let ctx = self.ctx;
        for (i, &(n, a)) in list.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            symbol_name_into(&mut self.out, ctx.str(n), false);
            if !matches!(ctx.attr_kind(a), AttrKind::Unit) {
                self.out.push_str(" = ");
                self.attr(a);
            }
        }
    }

    // ----- API for custom printers ----------------------------------------------------

    /// Appends raw text.
    pub fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }
    /// Prints a value reference (`%3`, `%arg0`, `%4#1`).
    pub fn operand(&mut self, v: ValueId) {
        self.value_base(v);
        if let Some(op) = self.ctx.defining_op(v) {
            let results = self.ctx.results(op);
            if results.len() > 1 {
                if let crate::context::ValueDef::Result { index, .. } = self.ctx.value_def(v) {
                    // Its place in its group (the run of results sharing its name).
                    let id = self.names.get(v.index()).copied();
                    let index = index as usize;
                    let start = results[..index].iter().rev().take_while(|r| self.names.get(r.index()).copied() == id).count();
                    let len = start + results[index..].iter().take_while(|r| self.names.get(r.index()).copied() == id).count();
                    if len > 1 {
                        let _ = write!(self.out, "#{start}");
                    }
                }
            }
        }
    }
    /// Prints values separated by commas.
    pub fn operand_list(&mut self, vals: &[ValueId]) {
        for (i, &v) in vals.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.operand(v);
        }
    }
    /// Prints a block reference (`^bb2`).
    pub fn block_ref(&mut self, b: BlockId) {
        let _ = write!(self.out, "^bb{}", self.block_names.get(b.index()).copied().unwrap_or(0));
    }
    /// Prints a type.
    pub fn ty(&mut self, t: TypeId) {
        let i = t.index();
        if let Some(Some(s)) = self.type_strs.get(i) {
            self.out.push_str(s);
            return;
        }
        let mut s = String::new();
        write_type_in(self.ctx, t, &mut s, self.opts.irdl_compatible);
        self.out.push_str(&s);
        if self.type_strs.len() <= i {
            self.type_strs.resize(i + 1, None);
        }
        self.type_strs[i] = Some(s.into());
    }
    /// Prints types separated by commas.
    pub fn type_list(&mut self, tys: &[TypeId]) {
        for (i, &t) in tys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
    }
    /// Prints an attribute.
    pub fn attr(&mut self, a: AttrId) {
        write_attr_in(self.ctx, a, &mut self.out, self.opts.irdl_compatible);
    }
    /// Prints `@name`.
    pub fn symbol_name(&mut self, name: &str) {
        self.out.push('@');
        symbol_name_into(&mut self.out, name, true);
    }
    /// Prints ` {attrs}` of `op` except `elided`, with `keyword` (e.g. " attributes") before
    /// the dictionary if given. Properties and discardable attributes are merged.
    pub fn attr_dict(&mut self, op: OpId, elided: &[&str], keyword: Option<&str>) {
        let ctx = self.ctx;
        // Most ops print no dictionary: check before collecting anything.
        if ctx.props(op).iter().chain(ctx.attrs(op)).all(|(n, _)| elided.contains(&ctx.str(*n))) {
            return;
        }
        let list: Vec<_> = {
            let mut l: Vec<_> =
                ctx.props(op).iter().chain(ctx.attrs(op)).copied().filter(|(n, _)| !elided.contains(&ctx.str(*n))).collect();
            l.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
            l
        };
        if list.is_empty() {
            return;
        }
        if let Some(k) = keyword {
            self.out.push_str(k);
        }
        self.out.push_str(" {");
        self.named_attrs(&list);
        self.out.push('}');
    }
    /// Prints a region (`{` blocks `}`). Called from a custom printer, the region is printed
    /// after the printer returns, in order with the text written between regions.
    pub fn region(&mut self, r: RegionId) {
        self.region_styled(r, RegionStyle::default());
    }

    /// Prints a region, leaving out a lone empty entry block when `elide_empty_block` (for
    /// custom forms whose parser creates that block, like `module {}`).
    pub fn region_with(&mut self, r: RegionId, elide_empty_block: bool) {
        self.region_styled(r, RegionStyle { elide_empty_block, ..RegionStyle::default() });
    }

    /// Prints a region as `style` says.
    pub fn region_styled(&mut self, r: RegionId, style: RegionStyle) {
        match self.segments.as_mut() {
            Some(segs) => {
                if !segs.is_empty() {
                    let between = self.out.split_off(self.seg_start);
                    segs.push(Segment::Text(between));
                }
                segs.push(Segment::Region(r, style));
                self.seg_start = self.out.len();
            }
            None => self.run(vec![Task::Region(r, 0, style)]),
        }
    }

    fn loc_body(&mut self, l: LocId) {
        write_loc_body(self.ctx, l, &mut self.out);
    }
}

/// Whether `s` can be printed without quotes as a bare identifier.
pub fn is_bare_id(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
}

fn symbol_name_into(out: &mut String, s: &str, _symbol: bool) {
    if is_bare_id(s) {
        out.push_str(s);
    } else {
        out.push('"');
        escape_into(out, s);
        out.push('"');
    }
}

/// Escapes a string body the way MLIR does (`\"`, `\\`, non-printable bytes as `\XX`).
pub fn escape_into(out: &mut String, s: &str) {
    for &b in s.as_bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
}

/// Appends the text of a type.
pub fn write_type(ctx: &Context, t: TypeId, out: &mut String) {
    write_type_in(ctx, t, out, false)
}

/// Appends the text of a type; `params`: dialect types in parameter syntax.
fn write_type_in(ctx: &Context, t: TypeId, out: &mut String, params: bool) {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => {
            let p = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(out, "{p}{width}");
        }
        TypeKind::Float(k) => out.push_str(k.keyword()),
        TypeKind::Index => out.push_str("index"),
        TypeKind::None => out.push_str("none"),
        TypeKind::Function { inputs, results } => {
            out.push('(');
            for (i, &x) in inputs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type_in(ctx, x, out, params);
            }
            out.push_str(") -> ");
            if results.len() == 1 && !matches!(ctx.type_kind(results[0]), TypeKind::Function { .. }) {
                write_type_in(ctx, results[0], out, params);
            } else {
                out.push('(');
                for (i, &x) in results.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_type_in(ctx, x, out, params);
                }
                out.push(')');
            }
        }
        TypeKind::Pointer { addr_space } => {
            out.push_str("!llvm.ptr");
            if *addr_space != 0 {
                let _ = write!(out, "<{addr_space}>");
            }
        }
        TypeKind::BuiltinOpaque { keyword, body } => {
            out.push_str(ctx.str(*keyword));
            out.push_str(body);
        }
        TypeKind::Opaque { dialect, body } => {
            out.push('!');
            out.push_str(ctx.str(*dialect));
            match ctx.registry().dialect(ctx.str(*dialect)).and_then(|d| d.type_to_params).filter(|_| params) {
                Some(f) => out.push_str(&f(body)),
                None => out.push_str(body),
            }
        }
    }
}

/// A type as a string.
pub fn type_to_string(ctx: &Context, t: TypeId) -> String {
    let mut s = String::new();
    write_type(ctx, t, &mut s);
    s
}

/// An attribute as a string.
pub fn attr_to_string(ctx: &Context, a: AttrId) -> String {
    let mut s = String::new();
    write_attr(ctx, a, &mut s);
    s
}

/// A type as a string; with `irdl`, as `--irdl-compatible` printing writes it (the
/// parameters of our dialects' types spelled for MLIR's IRDL).
pub fn type_to_string_in(ctx: &Context, t: TypeId, irdl: bool) -> String {
    let mut s = String::new();
    write_type_in(ctx, t, &mut s, irdl);
    s
}

/// An attribute as a string; with `irdl`, as `--irdl-compatible` printing writes it.
pub fn attr_to_string_in(ctx: &Context, a: AttrId, irdl: bool) -> String {
    let mut s = String::new();
    write_attr_in(ctx, a, &mut s, irdl);
    s
}

/// A location as `loc(...)`.
pub fn loc_to_string(ctx: &Context, l: LocId) -> String {
    let mut s = String::from("loc(");
    write_loc_body(ctx, l, &mut s);
    s.push(')');
    s
}

fn write_int_value(ctx: &Context, value: i128, ty: TypeId, out: &mut String) {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width: 1, signedness: Signedness::Signless } => out.push_str(if value != 0 { "true" } else { "false" }),
        _ => {
            let _ = write!(out, "{value}");
        }
    }
}

/// Appends the text of an attribute.
pub fn write_attr(ctx: &Context, a: AttrId, out: &mut String) {
    write_attr_in(ctx, a, out, false)
}

/// Appends the text of an attribute; `params`: dialect types in parameter syntax.
fn write_attr_in(ctx: &Context, a: AttrId, out: &mut String, params: bool) {
    match ctx.attr_kind(a) {
        AttrKind::Unit => out.push_str("unit"),
        AttrKind::Integer { value, ty } => {
            write_int_value(ctx, *value, *ty, out);
            if !matches!(ctx.type_kind(*ty), TypeKind::Integer { width: 1, signedness: Signedness::Signless }) {
                out.push_str(" : ");
                write_type_in(ctx, *ty, out, params);
            }
        }
        AttrKind::Float { bits, ty } => {
            let kind = match ctx.type_kind(*ty) {
                TypeKind::Float(k) => *k,
                _ => FloatKind::F64,
            };
            out.push_str(&format_float(*bits, kind));
            out.push_str(" : ");
            write_type_in(ctx, *ty, out, params);
        }
        AttrKind::String(s) => {
            out.push('"');
            escape_into(out, s);
            out.push('"');
        }
        AttrKind::Type(t) => write_type_in(ctx, *t, out, params),
        AttrKind::Array(items) => {
            out.push('[');
            for (i, &x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_attr_in(ctx, x, out, params);
            }
            out.push(']');
        }
        AttrKind::Dict(entries) => {
            out.push('{');
            for (i, &(n, x)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                symbol_name_into(out, ctx.str(n), false);
                if !matches!(ctx.attr_kind(x), AttrKind::Unit) {
                    out.push_str(" = ");
                    write_attr_in(ctx, x, out, params);
                }
            }
            out.push('}');
        }
        AttrKind::SymbolRef { root, nested } => {
            out.push('@');
            symbol_name_into(out, ctx.str(*root), true);
            for n in nested {
                out.push_str("::@");
                symbol_name_into(out, ctx.str(*n), true);
            }
        }
        AttrKind::DenseArray { elem, values } => {
            out.push_str("array<");
            write_type_in(ctx, *elem, out, params);
            if !values.is_empty() {
                out.push(':');
                let fk = match ctx.type_kind(*elem) {
                    TypeKind::Float(k) => Some(*k),
                    _ => None,
                };
                for (i, &v) in values.iter().enumerate() {
                    out.push_str(if i > 0 { ", " } else { " " });
                    match fk {
                        Some(k) => out.push_str(&format_float(v as u64, k)),
                        None => write_int_value(ctx, v as i128, *elem, out),
                    }
                }
            }
            out.push('>');
        }
        AttrKind::BuiltinOpaque { keyword, body, ty } => {
            out.push_str(ctx.str(*keyword));
            out.push_str(body);
            if let Some(t) = ty {
                out.push_str(" : ");
                write_type_in(ctx, *t, out, params);
            }
        }
        AttrKind::Opaque { dialect, body } => {
            out.push('#');
            out.push_str(ctx.str(*dialect));
            out.push_str(body);
        }
    }
}

fn write_loc_body(ctx: &Context, l: LocId, out: &mut String) {
    match ctx.location(l) {
        Location::Unknown => out.push_str("unknown"),
        Location::File { file, start, end, .. } => {
            out.push('"');
            escape_into(out, ctx.str(file));
            let _ = write!(out, "\":{}:{}", start.line, start.col);
            if let Some(e) = end {
                let _ = write!(out, " to {}:{}", e.line, e.col);
            }
        }
        Location::Name { name, child } => {
            out.push('"');
            escape_into(out, ctx.str(name));
            out.push('"');
            if let Some(c) = child {
                out.push('(');
                write_loc_body(ctx, c, out);
                out.push(')');
            }
        }
        Location::Fused { locs, metadata } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                write_attr(ctx, m, out);
                out.push('>');
            }
            out.push('[');
            for (i, &x) in locs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_loc_body(ctx, x, out);
            }
            out.push(']');
        }
        Location::CallSite { callee, caller } => {
            out.push_str("callsite(");
            write_loc_body(ctx, callee, out);
            out.push_str(" at ");
            write_loc_body(ctx, caller, out);
            out.push(')');
        }
    }
}

/// Decodes float bits of format `k` to an `f64`.
pub fn float_bits_to_f64(bits: u64, k: FloatKind) -> f64 {
    match k {
        FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        FloatKind::F32 => f32::from_bits(bits as u32) as f64,
        FloatKind::F64 => f64::from_bits(bits),
    }
}

/// Encodes `v` in format `k` (round to nearest even).
pub fn f64_to_float_bits(v: f64, k: FloatKind) -> u64 {
    match k {
        FloatKind::F16 => half::f16::from_f64(v).to_bits() as u64,
        FloatKind::BF16 => half::bf16::from_f64(v).to_bits() as u64,
        FloatKind::F32 => (v as f32).to_bits() as u64,
        FloatKind::F64 => v.to_bits(),
    }
}

/// Formats a float as MLIR does (`printFloatValue`): `%.6e`-style when that round-trips,
/// else LLVM's `APFloat::toString()` (the type's natural precision, see [`apfloat_to_string`])
/// if that has a `.`, else (NaN, infinities, large integers) the hexadecimal bit pattern.
pub fn format_float(bits: u64, k: FloatKind) -> String {
    let v = float_bits_to_f64(bits, k);
    let hex = || format!("0x{:0digits$X}", bits, digits = (k.width() / 4) as usize);
    if !v.is_finite() {
        return hex();
    }
    let round_trips = |s: &str| s.parse::<f64>().is_ok_and(|p| f64_to_float_bits(p, k) == bits);
    if let Some(six) = apfloat_six_digits(v) {
        if round_trips(&six) {
            return six;
        }
    }
    let precision = 2 + (k.mantissa_bits() as usize) * 59 / 196;
    let s = apfloat_to_string(v, precision);
    if s.contains('.') {
        return s;
    }
    hex()
}

/// LLVM's `APFloat::toString(Str, 6, 0, false)`: 6 significant digits, scientific, the
/// mantissa padded to 6 decimals (`1.500000e+00`, `7.978850e-01`). `None` where rounding
/// carries through every digit (`9.9999999e-13`): mlir-opt-22 never prints those in this
/// form (checked: 1e-12, 1e-7 and 1e-11 as f64 print as `9.9999999999999998E-13`, ...).
fn apfloat_six_digits(v: f64) -> Option<String> {
    let neg = v.is_sign_negative();
    let (digits, exp, carried) = decimal_digits(v.abs(), 6);
    if carried {
        return None;
    }
    let e = exp + digits.len() as i64 - 1;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push((b'0' + digits[0]) as char);
    out.push('.');
    out.extend(digits[1..].iter().map(|&d| (b'0' + d) as char));
    out.extend(std::iter::repeat_n('0', 7 - digits.len()));
    let _ = write!(out, "e{}{:02}", if e >= 0 { '+' } else { '-' }, e.abs());
    Some(out)
}

/// The decimal digits of finite `a > 0` rounded to `precision` significant digits exactly as
/// LLVM's `IEEEFloat::toString` computes them: `a = S * 10^x` for an integer `S`, whose low
/// decimal digits are first dropped (truncated) down to about `precision * log2(10)` bits,
/// then the digit string is rounded half up (`AdjustToPrecision`), trailing zeros dropped.
/// Returns `(digits, exp, carried)` with `a ~= digits * 10^exp`; `carried` when the
/// rounding carried through every digit. Zero is `[0]`.
fn decimal_digits(a: f64, precision: usize) -> (Vec<u8>, i64, bool) {
    if a == 0.0 {
        return (vec![0], 0, false);
    }
    // a = m * 2^e with m odd.
    let raw = a.to_bits();
    let (biased, frac) = ((raw >> 52) & 0x7ff, raw & ((1u64 << 52) - 1));
    let (mut m, mut e) = if biased == 0 { (frac, -1074i64) } else { (frac | (1u64 << 52), biased as i64 - 1075) };
    let tz = m.trailing_zeros();
    m >>= tz;
    e += tz as i64;
    // The exact decimal expansion (f64 values have at most 767 significant digits).
    let exact = format!("{a:.800e}");
    let (mant, e10) = exact.split_once('e').unwrap_or((&exact, "0"));
    let e10: i64 = e10.parse().unwrap_or(0);
    let mut d: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).map(|c| c - b'0').collect();
    while d.len() > 1 && d.last() == Some(&0) {
        d.pop();
    }
    let log2m = 64 - m.leading_zeros() as i64; // bit length of m
                                               // S and its bit length: S = m * 2^e (e >= 0) or m * 5^-e with a = S * 10^e (e < 0).
    let (mut exp, bits) = if e >= 0 {
        let x = e10 - (d.len() as i64 - 1);
        d.extend(std::iter::repeat_n(0, x as usize));
        (0i64, log2m + e)
    } else {
        let b = ((m as f64).log2() + (-e) as f64 * 5f64.log2()).floor() as i64 + 1;
        (e, b)
    };
    // `AdjustToPrecision(APInt&)`: drop (truncate) decimal digits beyond what is needed.
    let required = (precision * 196).div_ceil(59) as i64;
    if bits > required {
        let tens = ((bits - required) * 59 / 196) as usize;
        let tens = tens.min(d.len().saturating_sub(1));
        d.truncate(d.len() - tens);
        exp += tens as i64;
    }
    while d.len() > 1 && d.last() == Some(&0) {
        d.pop();
        exp += 1;
    }
    // `AdjustToPrecision(buffer)`: round half up on the next digit.
    let mut carried = false;
    if d.len() > precision {
        let cut = d.len() - precision;
        let round_up = d[precision] >= 5;
        d.truncate(precision);
        exp += cut as i64;
        if round_up {
            let mut i = d.len();
            loop {
                if i == 0 {
                    d = vec![1];
                    exp += precision as i64;
                    carried = true;
                    break;
                }
                i -= 1;
                if d[i] == 9 {
                    d[i] = 0;
                } else {
                    d[i] += 1;
                    break;
                }
            }
        }
    }
    while d.len() > 1 && d.last() == Some(&0) {
        d.pop();
        exp += 1;
    }
    (d, exp, carried)
}

/// LLVM's `APFloat::toString(Str, FormatPrecision, FormatMaxPadding = 3, TruncateZero = true)`
/// for a finite `v`: `precision` significant digits (rounding half up on the exact decimal
/// expansion), trailing zeros dropped, plain notation unless that needs more than 3 padding
/// zeros, else `d.dddE+x`.
pub fn apfloat_to_string(v: f64, precision: usize) -> String {
    const MAX_PADDING: i64 = 3;
    let neg = v.is_sign_negative();
    let a = v.abs();
    if a == 0.0 {
        return if neg { "-0".into() } else { "0".into() };
    }
    let (digits, exp, _) = decimal_digits(a, precision);
    let n = digits.len() as i64;
    let scientific = if exp >= 0 {
        exp > MAX_PADDING || n + exp > precision as i64
    } else {
        let msd = exp + n - 1;
        msd < 0 && -msd > MAX_PADDING
    };
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    let ch = |d: u8| (b'0' + d) as char;
    if scientific {
        let e = exp + n - 1;
        out.push(ch(digits[0]));
        out.push('.');
        if n == 1 {
            out.push('0');
        } else {
            out.extend(digits[1..].iter().map(|&d| ch(d)));
        }
        out.push('E');
        out.push(if e >= 0 { '+' } else { '-' });
        out.push_str(&e.abs().to_string());
    } else if exp >= 0 {
        out.extend(digits.iter().map(|&d| ch(d)));
        out.extend(std::iter::repeat_n('0', exp as usize));
    } else {
        let whole = exp + n;
        if whole > 0 {
            out.extend(digits[..whole as usize].iter().map(|&d| ch(d)));
            out.push('.');
            out.extend(digits[whole as usize..].iter().map(|&d| ch(d)));
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-whole) as usize));
            out.extend(digits.iter().map(|&d| ch(d)));
        }
    }
    out
}

impl fmt::Debug for OpPrinter<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpPrinter")
    }
}
