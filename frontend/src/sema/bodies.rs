//! Kernel bodies reused from an earlier compile of the same file: what lets an editor's
//! compile (the driver's incremental database) skip sema for every kernel it did not
//! touch.
//!
//! # When a body's result is known without reading it
//!
//! Sema is deterministic: what a body emits depends on its tokens and on sema's state
//! when it is read, which the declarations above it made. The parser gives each
//! top-level construct a key ([`crate::ast::TopKey`]): hashes of its tokens (kinds,
//! spellings and places relative to its start) before its function body and from it on.
//! Sema folds the keys, construct after construct, into an *environment* hash, which
//! stands for its state:
//! - a kernel whose body was read **without side effects** (below) contributes only the
//!   key of its tokens before the body: its body changed nothing that a later
//!   declaration can see;
//! - every other construct contributes its whole key.
//!
//! So two compiles that reach a kernel with the same environment have the same state
//! there, up to the pure bodies above it (whose only effects are their own functions);
//! when the kernel's key (with the column it starts at) is the same too, its body emits
//! what it emitted before. A later compile given those bodies ([`BodyMemo`]) does not
//! read such a body again: it emits the kernel's `func.func` without a body (a *stub*),
//! records the functions the body named, as reading it would, and says so
//! ([`Bodies`]): the caller takes the kernel's results from its earlier compile, or, if
//! it cannot, compiles again without the memo.
//!
//! # Not even parsed
//!
//! Where the parser and sema take turns on one thread (a file below
//! [`crate::PIPELINE_MIN_BYTES`], through [`crate::preamble::Preamble::lower_reusing`]),
//! sema has declared everything above a construct when the parser reaches its body. At a
//! top-level function's `{` the parser finds the matching `}` (within its lookahead),
//! hashes the tokens as the key would, and asks sema ([`Sema::knows_body`]) whether the
//! memo has that body for the current environment; if so it skips the tokens and leaves a
//! [`crate::ast::StmtKind::Known`] statement. Sema then gives the stub as above. The
//! parser's question leaves out the column the kernel starts at (which it cannot know):
//! where that differs, sema finds no result and reads the statement, which marks the
//! compile's [`Bodies::unknown`]; the caller compiles again without the memo.
//!
//! # Side effects
//!
//! Reading a body may change sema's state beyond the function it emits: instantiate a
//! template, declare a record, an external function or a string's global, queue a
//! function for emission, intern a new C type, report a diagnostic. A body is *pure*
//! when none of these happened while it was read: every table that could have grown
//! (see `Sema::effects`) has the same size after it, the module one more op (its
//! function), and the only references recorded are the kernel's own. Only pure bodies of
//! kernels are candidates: a non-template `__global__` function at namespace scope,
//! defined in the main file as a declaration of its own (not in a namespace or `extern
//! "C"` block, whose construct holds other declarations). Nothing names a kernel in
//! device code, so its result is its own.

use super::{FuncId, Sema};
use crate::ast::{DeclKind, TopKey};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// A kernel body read without side effects (or not read, its result known).
#[derive(Clone, Debug)]
pub struct Body {
    /// The kernel's symbol.
    pub symbol: String,
    /// The environment and the kernel's tokens' key.
    key: (u128, u128),
    /// The environment and the key of its tokens without the column it starts at (what
    /// the parser asks about, [`Sema::knows_body`]).
    tokens: (u128, u128),
    /// The functions the body names.
    refs: Vec<FuncId>,
    /// Not read: its result is the earlier compile's (the module has a stub).
    pub reused: bool,
}

/// The pure kernel bodies of a compile, in order.
#[derive(Clone, Debug, Default)]
pub struct Bodies {
    /// The environment the compile started from (its preamble's).
    seed: u64,
    pub list: Vec<Body>,
    /// How many of the reused bodies the parser skipped too.
    pub unparsed: usize,
    /// A body the parser skipped had to be read after all (its result could not be
    /// reused): the module is not what reading everything gives; compile again without
    /// the memo.
    pub unknown: bool,
}

impl Bodies {
    /// The kernels whose bodies were not read (the module has stubs for them).
    pub fn reused(&self) -> impl Iterator<Item = &str> {
        self.list.iter().filter(|b| b.reused).map(|b| b.symbol.as_str())
    }
}

/// An earlier compile's pure kernel bodies, which a compile of the same unit may reuse.
pub struct BodyMemo {
    seed: u64,
    by_key: FxHashMap<(u128, u128), usize>,
    by_tokens: rustc_hash::FxHashSet<(u128, u128)>,
    list: Vec<Body>,
}

impl BodyMemo {
    pub fn new(bodies: Bodies) -> BodyMemo {
        let by_key = bodies.list.iter().enumerate().map(|(i, b)| (b.key, i)).collect();
        let by_tokens = bodies.list.iter().map(|b| b.tokens).collect();
        BodyMemo { seed: bodies.seed, by_key, by_tokens, list: bodies.list }
    }
}

/// Sema's side of it: off unless [`Sema::reuse_bodies`] turned it on.
#[derive(Clone, Default)]
pub(crate) struct Tracker {
    on: bool,
    memo: Option<Arc<BodyMemo>>,
    env: u128,
    out: Bodies,
    /// The key of the top-level function definition being declared (a candidate's).
    key: Option<TopKey>,
    /// That definition's body was a kernel's, read without side effects (or reused).
    pure_kernel: bool,
}

fn mix(parts: &[u128]) -> u128 {
    let mut h = cuprite_ir::fingerprint::H2::new();
    for p in parts {
        h.put(p);
    }
    h.finish128()
}

impl<'a> Sema<'a> {
    /// Keeps track of pure kernel bodies from here on (the main file's declarations),
    /// starting from environment `seed` (the same for the same preamble), and reuses
    /// those of `memo` where they are known.
    pub fn reuse_bodies(&mut self, seed: u64, memo: Option<Arc<BodyMemo>>) {
        let memo = memo.filter(|m| m.seed == seed);
        self.bodies = Tracker {
            on: true,
            memo,
            env: u128::from(seed),
            out: Bodies { seed, list: Vec::new(), unparsed: 0, unknown: false },
            key: None,
            pure_kernel: false,
        };
    }

    /// Whether the body of the top-level definition the parser is reading, whose tokens
    /// before and from its body have hashes `head` and `body` ([`crate::ast::TopKey`]),
    /// is one whose result this compile will reuse: then the parser skips it. (The
    /// declarations above it have been declared: sema runs construct by construct as the
    /// parser finishes them.)
    pub fn knows_body(&self, head: u128, body: u128) -> bool {
        self.bodies.on && self.bodies.memo.as_ref().is_some_and(|m| m.by_tokens.contains(&(self.bodies.env, mix(&[head, body]))))
    }

    /// A body the parser skipped is being read (see [`Bodies::unknown`]).
    pub(crate) fn body_unknown(&mut self) {
        self.bodies.out.unknown = true;
    }

    /// The pure kernel bodies so far (empty unless [`Sema::reuse_bodies`]).
    pub fn take_bodies(&mut self) -> Bodies {
        std::mem::take(&mut self.bodies.out)
    }

    /// [`Sema::top_decl`] of the `i`-th top-level declaration, keeping track of pure
    /// kernel bodies when asked to.
    pub fn top_decl_at(&mut self, i: usize) {
        let d = self.ast.top[i];
        if !self.bodies.on {
            return self.top_decl(d);
        }
        let key = self.ast.top_keys.get(i).copied().unwrap_or(TopKey { head: u128::MAX, body: 0, shared: true });
        let candidate = !key.shared && key.body != 0 && matches!(self.ast.decl(d).kind, DeclKind::Function { .. });
        self.bodies.key = candidate.then_some(key);
        self.bodies.pure_kernel = false;
        self.top_decl(d);
        self.bodies.key = None;
        let env = self.bodies.env;
        self.bodies.env = if std::mem::take(&mut self.bodies.pure_kernel) {
            mix(&[env, 1, key.head])
        } else {
            mix(&[env, 0, key.head, key.body, u128::from(key.shared)])
        };
    }

    /// The sizes of everything reading a body may add to (see the module's
    /// documentation), the module's ops among them.
    fn effects(&self) -> [usize; 25] {
        let (kinds, records, enums) = self.types.counts();
        let vt = self.vt.sizes();
        [
            self.diags.len(),
            self.undefined_calls.len(),
            self.undeclared.len(),
            self.worklist.len(),
            self.funcs.len(),
            self.templates.len(),
            self.rec_ns.len(),
            self.namespaces.len(),
            kinds,
            records,
            enums,
            self.strings.len(),
            self.extern_funcs.len(),
            self.closures.len() + self.closure_captures.len() + self.closure_this.len(),
            self.unnamed_types.len() + self.unnamed_count.len() + self.unnamed_members.len(),
            self.ctx.block_ops(self.module_block).count(),
            vt[0],
            vt[1],
            vt[2],
            vt[3] + vt[4],
            vt[5],
            self.templates.iter().map(|t| t.instances.len()).sum(),
            self.emitted_globals.len(),
            self.namespaces.iter().map(|n| n.names.len()).sum(),
            self.namespaces.iter().map(|n| n.usings.len()).sum(),
        ]
    }

    /// Whether function `f`, about to be emitted by the top-level definition being
    /// declared, is a candidate kernel: its key (with the column it starts at), or `None`.
    fn candidate(&self, f: FuncId) -> Option<((u128, u128), (u128, u128))> {
        let key = self.bodies.key?;
        let info = &self.funcs[f.0 as usize];
        let main = self.main_file?;
        if info.exec != super::Exec::Kernel
            || info.record.is_some()
            || info.tpl_args.is_some()
            || info.builtin_header
            || !info.env.is_empty()
            || info.span.file != main
        {
            return None;
        }
        let (_, col) = self.files[main.0 as usize].line_col(info.span.lo);
        let env = self.bodies.env;
        Some(((env, mix(&[key.head, key.body, u128::from(col)])), (env, mix(&[key.head, key.body]))))
    }

    /// Emits kernel `f` of the top-level definition being declared, keeping track of
    /// pure bodies: gives `false` when `f` is no candidate (the caller emits it).
    pub(crate) fn emit_kernel_tracked(&mut self, f: FuncId) -> bool {
        let Some((key, tokens)) = self.candidate(f) else { return false };
        let symbol = self.funcs[f.0 as usize].symbol.clone().unwrap_or_default();
        let known = self.bodies.memo.as_ref().and_then(|m| m.by_key.get(&key).map(|&i| m.list[i].clone()));
        if let Some(body) = known.filter(|b| b.symbol == symbol && b.refs.iter().all(|r| (r.0 as usize) < self.funcs.len())) {
            self.emit_stub(f);
            let stmt = self.funcs[f.0 as usize].body.map(|b| &self.ast.stmt(b).kind);
            self.bodies.out.unparsed += usize::from(matches!(stmt, Some(crate::ast::StmtKind::Known)));
            for &r in &body.refs {
                self.refs.push((Some(f), r));
            }
            self.bodies.out.list.push(Body { reused: true, ..body });
            self.bodies.pure_kernel = true;
            return true;
        }
        let before = self.effects();
        let refs = self.refs.len();
        self.emit_function(f);
        let mut after = self.effects();
        after[15] = after[15].wrapping_sub(1); // its function
        let own = self.refs[refs..].iter().all(|&(from, _)| from == Some(f));
        if before == after && own {
            let refs = self.refs[refs..].iter().map(|&(_, to)| to).collect();
            self.bodies.out.list.push(Body { symbol, key, tokens, refs, reused: false });
            self.bodies.pure_kernel = true;
        }
        true
    }

    /// Kernel `f`'s `func.func` without a body, where its emission would put it.
    fn emit_stub(&mut self, f: FuncId) {
        let info = self.funcs[f.0 as usize].clone();
        self.funcs[f.0 as usize].emitted = true;
        let inputs: Vec<_> = info.params.iter().filter_map(|&p| self.types.ir(&mut self.ctx, p)).collect();
        let fty = self.ctx.function_type(inputs, Vec::new());
        let name_a = self.ctx.str_attr(info.symbol.as_deref().unwrap_or_default());
        let fty_a = self.ctx.type_attr(fty);
        let saved_fs = self.fs.take();
        let fop = self.op("func.func", &[], &[], &[("sym_name", name_a), ("function_type", fty_a)], 1, info.span);
        self.fs = saved_fs;
        let u = self.ctx.unit_attr();
        self.ctx.set_attr(fop, cuprite_dialects::cuda::KERNEL, u);
        let r = self.ctx.region(fop, 0);
        if let Some(b) = self.ctx.entry_block(r) {
            self.ctx.erase_block(b);
        }
    }
}
