//! `goto` on the structured `cuda` level.
//!
//! The `cuda` level has no branches, only structured ops whose regions end with `yield`,
//! `break`, `continue` or `return`. A `goto` becomes a `break` or `continue` out of a
//! one-trip loop placed around the statements it jumps over, the way a `goto` to a label in
//! an enclosing block can always be written:
//!
//! - **Forward** (`goto out;` ... `out:`): the statements of the block from the first one
//!   containing such a `goto` up to the label go into `do { ... } while (false)`; the `goto`
//!   is a `break` out of it.
//! - **Backward** (`retry:` ... `goto retry;`): the statements from the label to the last
//!   one containing such a `goto` go into `for (;;) { ...; break; }`; the `goto` is a
//!   `continue` of it.
//!
//! A `goto` nested in loops and switches inside those statements leaves them all at once:
//! `cuda.break` and `cuda.continue` take a `levels` count of enclosing `cuda.loop` and
//! `cuda.switch` ops (1, the innermost, when absent), and a `break` or `continue` of the
//! program's own inside such a wrapper counts the wrapper too. Every stage lowers the count
//! the same way, so the simulator and the PTX agree.
//!
//! What cannot be written so is an error naming it: a jump into a nested statement (a label
//! inside a block, loop or `if` that the `goto` is not in), and two labels of one block whose
//! jumps interleave (one wrapper would have to end inside another). A variable declared
//! between a `goto` and its label is local to the wrapper (C++ forbids jumping past an
//! initialization into a variable's scope anyway).

use super::*;

/// A construct `break`, `continue` or `goto` can leave: the `cuda.loop`/`cuda.switch` ops
/// the function is inside, innermost last.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Construct {
    Loop,
    Switch,
    /// A one-trip loop a forward `goto` to the label breaks out of.
    Forward(Atom),
    /// A loop a backward `goto` to the label continues.
    Backward(Atom),
}

/// One wrapper of a block's statements `lo..=hi` (indices into the block).
#[derive(Clone, Debug)]
struct Wrapper {
    lo: usize,
    hi: usize,
    kind: Construct,
}

impl Sema<'_> {
    /// Emits a block's statements, with the wrappers its labels' `goto`s need.
    pub(crate) fn block_items(&mut self, items: &[StmtId]) {
        let wrappers = self.goto_wrappers(items);
        self.emit_range(items, 0, items.len(), &wrappers);
    }

    /// Statements `lo..hi` of a block, opening each wrapper that starts in the range (the
    /// wrappers are sorted by start, outermost first, and nest).
    fn emit_range(&mut self, items: &[StmtId], lo: usize, hi: usize, wrappers: &[Wrapper]) {
        let mut i = lo;
        while i < hi {
            if self.terminated() {
                return;
            }
            // The outermost wrapper starting here (first in the list among equals).
            if let Some(w) = wrappers.iter().find(|w| w.lo == i && w.hi < hi && !self.opened(w)) {
                let w = w.clone();
                self.emit_wrapper(items, &w, wrappers);
                i = w.hi + 1;
                continue;
            }
            self.stmt(items[i]);
            i += 1;
        }
    }

    /// Whether wrapper `w` is being emitted (a wrapper of the same range and kind is open).
    fn opened(&self, w: &Wrapper) -> bool {
        self.fs.as_ref().is_some_and(|f| f.open_wrappers.iter().any(|(lo, hi, k)| *lo == w.lo && *hi == w.hi && *k == w.kind))
    }

    fn emit_wrapper(&mut self, items: &[StmtId], w: &Wrapper, wrappers: &[Wrapper]) {
        let span = self.ast.stmt(items[w.lo]).span.to(self.ast.stmt(items[w.hi]).span);
        let forward = matches!(w.kind, Construct::Forward(_));
        let mut props = Vec::new();
        if forward {
            props.push(("do_while", self.ctx.unit_attr()));
        }
        let lp = self.op("cuda.loop", &[], &[], &props, 3, span);
        let (cb, bb, sb) = (self.region_block(lp, 0), self.region_block(lp, 1), self.region_block(lp, 2));
        self.in_block(cb, |s| {
            let b = s.types.bool();
            let c = s.constant_int(if forward { 0 } else { 1 }, b, span);
            s.terminate("cuda.condition", &[c], span);
        });
        let fs = self.fs.as_mut().expect("in a function");
        fs.constructs.push(w.kind.clone());
        fs.open_wrappers.push((w.lo, w.hi, w.kind.clone()));
        self.in_block(bb, |s| {
            s.emit_range(items, w.lo, w.hi + 1, wrappers);
            if !s.terminated() {
                // Falling out of the statements leaves the wrapper.
                let end = Span { lo: span.hi.saturating_sub(1), ..span };
                s.terminate(if forward { "cuda.yield" } else { "cuda.break" }, &[], end);
            }
        });
        let fs = self.fs.as_mut().expect("in a function");
        fs.constructs.pop();
        fs.open_wrappers.pop();
        self.in_block(sb, |s| s.terminate("cuda.yield", &[], span));
    }

    /// The wrappers the labels of a block need, sorted by start, outermost first; errors
    /// for jumps that no nesting of wrappers expresses.
    fn goto_wrappers(&mut self, items: &[StmtId]) -> Vec<Wrapper> {
        let mut out: Vec<Wrapper> = Vec::new();
        for (j, &it) in items.iter().enumerate() {
            for label in self.labels_of(it) {
                let (mut first, mut last) = (None, None);
                for (i, &other) in items.iter().enumerate() {
                    if self.jumps_to(other, label) {
                        first.get_or_insert(i);
                        last = Some(i);
                    }
                }
                if let Some(f) = first.filter(|&f| f < j) {
                    out.push(Wrapper { lo: f, hi: j - 1, kind: Construct::Forward(label) });
                }
                if let Some(l) = last.filter(|&l| l >= j) {
                    out.push(Wrapper { lo: j, hi: l, kind: Construct::Backward(label) });
                }
            }
        }
        // Wrappers must nest: a crossing pair is reported, the inner one dropped.
        out.sort_by_key(|w| (w.lo, std::cmp::Reverse(w.hi)));
        let mut kept: Vec<Wrapper> = Vec::new();
        for w in out {
            if let Some(c) = kept.iter().find(|k| k.lo < w.lo && w.lo <= k.hi && k.hi < w.hi) {
                let name = |k: &Construct| match k {
                    Construct::Forward(a) | Construct::Backward(a) => *a,
                    _ => unreachable!("wrappers are gotos"),
                };
                let (a, b) = (self.name_str(name(&c.kind)).to_string(), self.name_str(name(&w.kind)).to_string());
                let span = self.ast.stmt(items[w.lo]).span;
                self.unsupported(span, &format!("'goto's to the labels '{a}' and '{b}' whose jumps cross each other"));
                // Its gotos are not reported again.
                if let Some(fs) = self.fs.as_mut() {
                    fs.crossed_labels.push(name(&w.kind));
                }
                continue;
            }
            kept.push(w);
        }
        kept
    }

    /// The labels statement `s` carries (`a: b: stmt`).
    fn labels_of(&self, mut s: StmtId) -> Vec<Atom> {
        let mut out = Vec::new();
        while let StmtKind::Label(l, inner) = &self.ast.stmt(s).kind {
            out.push(*l);
            s = *inner;
        }
        out
    }

    /// Whether statement `s` contains a `goto label`.
    fn jumps_to(&self, s: StmtId, label: Atom) -> bool {
        let mut found = false;
        self.walk_stmts(s, &mut |k| {
            if matches!(k, StmtKind::Goto(l) if *l == label) {
                found = true;
            }
        });
        found
    }

    /// Calls `f` on `s` and every statement nested in it.
    pub(crate) fn walk_stmts(&self, s: StmtId, f: &mut dyn FnMut(&StmtKind)) {
        let k = &self.ast.stmt(s).kind;
        f(k);
        let mut sub = |x: StmtId| self.walk_stmts(x, f);
        match k {
            StmtKind::Compound(items) => items.iter().for_each(|&x| sub(x)),
            StmtKind::If { then, els, init, .. } => {
                init.iter().chain(std::iter::once(then)).chain(els.iter()).for_each(|&x| sub(x));
            }
            StmtKind::For { init, body, .. } => init.iter().chain(std::iter::once(body)).for_each(|&x| sub(x)),
            StmtKind::RangeFor { body, .. } | StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => sub(*body),
            StmtKind::Switch { body, .. } => sub(*body),
            StmtKind::Case(_, inner) | StmtKind::Default(inner) | StmtKind::Label(_, inner) => sub(*inner),
            _ => {}
        }
    }

    /// `goto label`: a `break` out of its forward wrapper or a `continue` of its backward
    /// one, through the constructs in between.
    pub(crate) fn goto(&mut self, label: Atom, span: Span) {
        let stack = self.fs.as_ref().map(|f| f.constructs.clone()).unwrap_or_default();
        let at = stack.iter().rposition(|c| matches!(c, Construct::Forward(l) | Construct::Backward(l) if *l == label));
        let Some(at) = at else {
            if self.fs.as_ref().is_some_and(|f| f.crossed_labels.contains(&label)) {
                self.terminate("ub.unreachable", &[], span);
                return;
            }
            let func = self.fs.as_ref().map(|f| f.func);
            let body = func.and_then(|f| self.funcs[f.0 as usize].body);
            let mut declared = false;
            if let Some(b) = body {
                self.walk_stmts(b, &mut |k| declared |= matches!(k, StmtKind::Label(l, _) if *l == label));
            }
            let name = self.name_str(label).to_string();
            if declared {
                self.unsupported(
                    span,
                    &format!("a 'goto' into a nested statement (label '{name}' is inside a block the 'goto' is not in)"),
                );
            } else {
                self.error(span, format!("use of undeclared label '{name}'"));
            }
            return;
        };
        let levels = stack.len() - at;
        let name = if matches!(stack[at], Construct::Forward(_)) { "cuda.break" } else { "cuda.continue" };
        self.exit(name, levels, span);
    }

    /// `break`: out of the innermost loop or switch.
    pub(crate) fn break_stmt(&mut self, span: Span) {
        let stack = self.fs.as_ref().map(|f| f.constructs.clone()).unwrap_or_default();
        match stack.iter().rposition(|c| matches!(c, Construct::Loop | Construct::Switch)) {
            Some(at) => self.exit("cuda.break", stack.len() - at, span),
            None => self.error(span, "'break' statement not in loop or switch statement"),
        }
    }

    /// `continue`: the innermost loop's next iteration.
    pub(crate) fn continue_stmt(&mut self, span: Span) {
        let stack = self.fs.as_ref().map(|f| f.constructs.clone()).unwrap_or_default();
        match stack.iter().rposition(|c| *c == Construct::Loop) {
            // Without wrappers in between, the plain form (the innermost loop) says it.
            Some(at) if stack[at + 1..].iter().all(|c| *c == Construct::Switch) => self.terminate("cuda.continue", &[], span),
            Some(at) => self.exit("cuda.continue", stack.len() - at, span),
            None => self.error(span, "'continue' statement not in loop statement"),
        }
    }

    /// `cuda.break`/`cuda.continue` through `levels` enclosing constructs.
    fn exit(&mut self, name: &'static str, levels: usize, span: Span) {
        if levels <= 1 {
            self.terminate(name, &[], span);
            return;
        }
        let i32t = self.ctx.i32();
        let l = self.ctx.int_attr(levels as i128, i32t);
        self.op(name, &[], &[], &[("levels", l)], 0, span);
        if let Some(fs) = self.fs.as_mut() {
            fs.terminated = true;
        }
    }
}
