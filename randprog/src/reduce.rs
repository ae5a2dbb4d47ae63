//! A delta reducer over the program model (C-Reduce's idea, on the generator's AST rather
//! than on text, so that every candidate still prints as well-formed, UB-free CUDA).
//!
//! Candidate edits, numbered in one traversal order: a smaller launch; deleting a statement;
//! replacing an `if`, `switch` or loop by one of its bodies; replacing an expression by a
//! zero of its type or by a subexpression of the same type. The reducer tries them in order
//! and keeps each edit after which the program still shows the same failure, until a whole
//! pass keeps nothing.

use crate::ast::*;

/// Edit numbering: `hit` is true for the `k`-th candidate.
struct Ed {
    k: usize,
    n: usize,
    done: bool,
}

impl Ed {
    fn hit(&mut self) -> bool {
        if self.done {
            return false;
        }
        let h = self.n == self.k;
        self.n += 1;
        if h {
            self.done = true;
        }
        h
    }

    fn expr(&mut self, e: &mut Expr, rets: &[Ty]) {
        if self.done {
            return;
        }
        let t = e.ty_with(rets);
        let is_lit = matches!(e, Expr::Int(..) | Expr::Float(..));
        if !is_lit && self.hit() {
            *e = match t {
                Ty::F32 | Ty::F64 => Expr::Float(t, 0.0),
                _ => Expr::Int(t, 0),
            };
            return;
        }
        let same: Vec<usize> =
            e.children_mut().iter().enumerate().filter(|(_, c)| c.ty_with(rets) == t && !is_lit_expr(c)).map(|(i, _)| i).collect();
        for i in same {
            if self.hit() {
                let kid = e.children_mut().swap_remove(i).clone();
                *e = kid;
                return;
            }
        }
        for c in e.children_mut() {
            self.expr(c, rets);
        }
    }

    fn stmts(&mut self, list: &mut Vec<Stmt>, rets: &[Ty]) {
        let mut i = 0;
        while i < list.len() && !self.done {
            if !matches!(list[i], Stmt::Return(_)) && self.hit() {
                list.remove(i);
                return;
            }
            let bodies: Vec<Vec<Stmt>> = match &list[i] {
                Stmt::If(_, t, e) => vec![t.clone(), e.clone()],
                Stmt::Switch(_, cases, d) => cases.iter().map(|(c, _)| c.clone()).chain([d.clone()]).collect(),
                Stmt::For { var, ty, lo, body, .. } => {
                    vec![[Stmt::Decl(var.clone(), *ty, Expr::Int(*ty, *lo as i128))].into_iter().chain(body.iter().cloned()).collect()]
                }
                Stmt::While { var, body, .. } => {
                    vec![[Stmt::Decl(var.clone(), Ty::I32, Expr::Int(Ty::I32, 1))].into_iter().chain(body.iter().cloned()).collect()]
                }
                _ => vec![],
            };
            for b in bodies {
                // A body with `break`/`continue` at its top level cannot stand outside.
                if b.iter().any(|s| matches!(s, Stmt::Break | Stmt::Continue)) {
                    continue;
                }
                if self.hit() {
                    list.splice(i..i + 1, b);
                    return;
                }
            }
            match &mut list[i] {
                Stmt::Decl(_, _, e) | Stmt::Observe(e) | Stmt::Atomic(_, _, e) | Stmt::Return(e) => self.expr(e, rets),
                Stmt::Shared { value, .. } | Stmt::Warp { value, .. } => self.expr(value, rets),
                Stmt::Array(_, _, xs) | Stmt::Struct(_, _, xs) => {
                    for x in xs {
                        self.expr(x, rets);
                    }
                }
                Stmt::Assign(l, e) => {
                    if let LVal::Elem(_, _, _, idx) = l {
                        self.expr(idx, rets);
                    }
                    self.expr(e, rets);
                }
                Stmt::If(c, t, e) => {
                    self.expr(c, rets);
                    self.stmts(t, rets);
                    self.stmts(e, rets);
                }
                Stmt::For { hi, masked, body, .. } => {
                    if *masked {
                        self.expr(hi, rets);
                    }
                    self.stmts(body, rets);
                }
                Stmt::While { body, .. } => self.stmts(body, rets),
                Stmt::Switch(e, cases, d) => {
                    self.expr(e, rets);
                    for (c, _) in cases {
                        self.stmts(c, rets);
                    }
                    self.stmts(d, rets);
                }
                // Its operands must stay non-negative (the stated bound's premise): deleted
                // whole, never edited.
                Stmt::Break | Stmt::Continue | Stmt::Accum { .. } => {}
            }
            i += 1;
        }
    }
}

/// A literal child is no simpler than the zero already tried.
fn is_lit_expr(e: &Expr) -> bool {
    matches!(e, Expr::Int(..) | Expr::Float(..))
}

/// Applies candidate edit `k` to `p`; false when there are fewer than `k + 1` candidates.
pub fn apply(p: &mut Program, k: usize) -> bool {
    let mut ed = Ed { k, n: 0, done: false };
    if p.grid > 1 && ed.hit() {
        p.grid = 1;
        return true;
    }
    if p.block > 32 && ed.hit() {
        p.block = 32;
        return true;
    }
    let rets: Vec<Ty> = p.funcs.iter().map(|f| f.ret).collect();
    ed.stmts(&mut p.body, &rets);
    for f in &mut p.funcs {
        ed.stmts(&mut f.body, &rets);
    }
    ed.done
}

/// Reduces `p` while `still` holds (it must hold for `p`), within `max_checks` checks.
/// Returns the smallest program found and the number of checks made.
pub fn reduce(p: &Program, max_checks: usize, still: &mut dyn FnMut(&Program) -> bool) -> (Program, usize) {
    let mut cur = p.clone();
    let mut checks = 0;
    loop {
        let mut changed = false;
        let mut k = 0;
        loop {
            let mut cand = cur.clone();
            if !apply(&mut cand, k) || checks >= max_checks {
                break;
            }
            checks += 1;
            if still(&cand) {
                cur = cand;
                changed = true;
            } else {
                k += 1;
            }
        }
        if !changed || checks >= max_checks {
            return (cur, checks);
        }
    }
}
