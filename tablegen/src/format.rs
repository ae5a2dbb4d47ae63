//! MLIR's declarative `assemblyFormat`: parsed from an op's string and checked against the
//! op (every operand, region and successor appears, every type can be known when parsing).
//!
//! Supported: `` `literal` `` (keywords, punctuation, `` ` ` `` and ``` `` ```), `$name` of
//! an operand, attribute, region or successor group, `operands`, `attr-dict`,
//! `attr-dict-with-keyword`, `type($x)`, `type(operands)`, `type(results)`,
//! `functional-type(a, b)`, and optional groups `( ... $anchor^ ... )?`.

use crate::ods::{Arity, OpDef};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TyRef {
    Operand(usize),
    Result(usize),
    Operands,
    Results,
}

#[derive(Clone, Debug)]
pub enum FmtElem {
    Lit(String),
    Operand(usize),
    Operands,
    Attr(usize),
    Successor(usize),
    Region(usize),
    AttrDict { keyword: bool },
    Type(TyRef),
    FunctionalType(TyRef, TyRef),
    Optional { elems: Vec<FmtElem>, anchor: usize },
}

#[derive(Clone, Debug, PartialEq)]
enum Tk {
    Lit(String),
    Var(String),
    Word(String),
    LParen,
    RParen,
    Question,
    Caret,
    Comma,
}

fn lex(s: &str) -> Result<Vec<Tk>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\n' | b'\t' | b'\r' => i += 1,
            b'`' => {
                let end = s[i + 1..].find('`').ok_or("unterminated literal '`'")?;
                out.push(Tk::Lit(s[i + 1..i + 1 + end].to_string()));
                i += end + 2;
            }
            b'$' => {
                let st = i + 1;
                i += 1;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                if i == st {
                    return Err("expected a name after '$'".into());
                }
                out.push(Tk::Var(s[st..i].to_string()));
            }
            b'(' => {
                out.push(Tk::LParen);
                i += 1;
            }
            b')' => {
                out.push(Tk::RParen);
                i += 1;
            }
            b'?' => {
                out.push(Tk::Question);
                i += 1;
            }
            b'^' => {
                out.push(Tk::Caret);
                i += 1;
            }
            b',' => {
                out.push(Tk::Comma);
                i += 1;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let st = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                    i += 1;
                }
                out.push(Tk::Word(s[st..i].to_string()));
            }
            _ => return Err(format!("unexpected character '{}'", c as char)),
        }
    }
    Ok(out)
}

struct P<'a> {
    toks: Vec<Tk>,
    pos: usize,
    op: &'a OpDef,
}

impl P<'_> {
    fn peek(&self) -> Option<&Tk> {
        self.toks.get(self.pos)
    }
    fn eat(&mut self, t: &Tk) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: Tk, what: &str) -> Result<(), String> {
        if self.eat(&t) {
            Ok(())
        } else {
            Err(format!("expected {what}"))
        }
    }

    fn var(&self, n: &str) -> Result<FmtElem, String> {
        let op = self.op;
        if let Some(i) = op.operand_index(n) {
            return Ok(FmtElem::Operand(i));
        }
        if let Some(i) = op.attr_index(n) {
            return Ok(FmtElem::Attr(i));
        }
        if let Some(i) = op.regions.iter().position(|r| r.name == n) {
            return Ok(FmtElem::Region(i));
        }
        if let Some(i) = op.successors.iter().position(|r| r.name == n) {
            return Ok(FmtElem::Successor(i));
        }
        if op.result_index(n).is_some() {
            return Err(format!("result '${n}' can only be used in a type directive"));
        }
        Err(format!("'${n}' is not an operand, attribute, region or successor of the op"))
    }

    fn ty_ref(&mut self) -> Result<TyRef, String> {
        match self.toks.get(self.pos).cloned() {
            Some(Tk::Var(n)) => {
                self.pos += 1;
                if let Some(i) = self.op.operand_index(&n) {
                    Ok(TyRef::Operand(i))
                } else if let Some(i) = self.op.result_index(&n) {
                    Ok(TyRef::Result(i))
                } else {
                    Err(format!("'${n}' in a type directive is not an operand or result"))
                }
            }
            Some(Tk::Word(w)) if w == "operands" => {
                self.pos += 1;
                Ok(TyRef::Operands)
            }
            Some(Tk::Word(w)) if w == "results" => {
                self.pos += 1;
                Ok(TyRef::Results)
            }
            _ => Err("expected '$name', 'operands' or 'results' in a type directive".into()),
        }
    }

    /// Elements up to `)` (in a group) or the end.
    fn elems(&mut self, in_group: bool) -> Result<(Vec<FmtElem>, Option<usize>), String> {
        let mut out = Vec::new();
        let mut anchor = None;
        loop {
            let Some(t) = self.peek().cloned() else {
                if in_group {
                    return Err("optional group is not closed with ')?'".into());
                }
                return Ok((out, anchor));
            };
            let e = match t {
                Tk::RParen if in_group => {
                    self.pos += 1;
                    self.expect(Tk::Question, "'?' after an optional group's ')'")?;
                    return Ok((out, anchor));
                }
                Tk::Lit(l) => {
                    self.pos += 1;
                    if l.contains('`') {
                        return Err("a literal cannot contain '`'".into());
                    }
                    FmtElem::Lit(l)
                }
                Tk::Var(n) => {
                    self.pos += 1;
                    self.var(&n)?
                }
                Tk::LParen => {
                    self.pos += 1;
                    if in_group {
                        return Err("optional groups cannot nest".into());
                    }
                    let (elems, a) = self.elems(true)?;
                    let Some(anchor) = a else { return Err("optional group has no anchor ('^')".into()) };
                    match elems.iter().find(|e| !matches!(e, FmtElem::Lit(l) if l.is_empty() || l == " ")) {
                        Some(FmtElem::Type(_) | FmtElem::FunctionalType(..) | FmtElem::AttrDict { .. }) | None => {
                            return Err(
                                "the first element of an optional group must be a literal, operand, attribute, region or successor".into()
                            )
                        }
                        _ => {}
                    }
                    FmtElem::Optional { elems, anchor }
                }
                Tk::Word(w) => {
                    self.pos += 1;
                    match w.as_str() {
                        "attr-dict" => FmtElem::AttrDict { keyword: false },
                        "attr-dict-with-keyword" => FmtElem::AttrDict { keyword: true },
                        "operands" => {
                            if self.op.operands.len() > 1 {
                                return Err("'operands' is only supported on ops with one operand group".into());
                            }
                            FmtElem::Operands
                        }
                        "type" => {
                            self.expect(Tk::LParen, "'(' after 'type'")?;
                            let r = self.ty_ref()?;
                            self.expect(Tk::RParen, "')' to close 'type('")?;
                            FmtElem::Type(r)
                        }
                        "functional-type" => {
                            self.expect(Tk::LParen, "'(' after 'functional-type'")?;
                            let a = self.ty_ref()?;
                            self.expect(Tk::Comma, "',' in 'functional-type'")?;
                            let b = self.ty_ref()?;
                            self.expect(Tk::RParen, "')' to close 'functional-type('")?;
                            FmtElem::FunctionalType(a, b)
                        }
                        _ => return Err(format!("unknown directive '{w}'")),
                    }
                }
                Tk::Caret => return Err("'^' must follow an element".into()),
                Tk::RParen => return Err("unbalanced ')'".into()),
                Tk::Question => return Err("unexpected '?'".into()),
                Tk::Comma => return Err("',' must be written as a literal '`,`'".into()),
            };
            out.push(e);
            if self.eat(&Tk::Caret) {
                if !in_group {
                    return Err("'^' (an anchor) is only allowed in an optional group".into());
                }
                if anchor.is_some() {
                    return Err("an optional group has one anchor".into());
                }
                anchor = Some(out.len() - 1);
            }
        }
    }
}

/// Parses and checks `fmt` for `op`.
pub fn parse_format(fmt: &str, op: &OpDef) -> Result<Vec<FmtElem>, String> {
    let mut p = P { toks: lex(fmt)?, pos: 0, op };
    let (elems, _) = p.elems(false)?;
    check(&elems, op)?;
    Ok(elems)
}

fn walk<'a>(elems: &'a [FmtElem], f: &mut impl FnMut(&'a FmtElem)) {
    for e in elems {
        f(e);
        if let FmtElem::Optional { elems, .. } = e {
            walk(elems, f);
        }
    }
}

/// The type-equality groups of an op: `AllTypesMatch` and `SameOperandsAndResultType`.
pub fn type_groups(op: &OpDef) -> Vec<Vec<TyRef>> {
    let mut groups: Vec<Vec<TyRef>> = op
        .all_types_match
        .iter()
        .map(|names| {
            names.iter().filter_map(|n| op.operand_index(n).map(TyRef::Operand).or_else(|| op.result_index(n).map(TyRef::Result))).collect()
        })
        .collect();
    if op.native_traits.iter().any(|t| t == "SAME_OPERANDS_AND_RESULT_TYPE") {
        let mut g: Vec<TyRef> = (0..op.operands.len()).map(TyRef::Operand).collect();
        g.extend((0..op.results.len()).map(TyRef::Result));
        groups.push(g);
    }
    groups
}

fn check(elems: &[FmtElem], op: &OpDef) -> Result<(), String> {
    let mut operands = vec![false; op.operands.len()];
    let mut attrs = vec![false; op.attrs.len()];
    let mut regions = vec![false; op.regions.len()];
    let mut succs = vec![false; op.successors.len()];
    let mut op_types = vec![false; op.operands.len()];
    let mut res_types = vec![false; op.results.len()];
    let mut attr_dicts = 0;
    let mark = |r: &TyRef, op_types: &mut Vec<bool>, res_types: &mut Vec<bool>| match r {
        TyRef::Operand(i) => op_types[*i] = true,
        TyRef::Result(i) => res_types[*i] = true,
        TyRef::Operands => op_types.iter_mut().for_each(|x| *x = true),
        TyRef::Results => res_types.iter_mut().for_each(|x| *x = true),
    };
    let mut dup = None;
    walk(elems, &mut |e| match e {
        FmtElem::Operand(i) => {
            if operands[*i] {
                dup = Some(format!("operand '${}' appears twice", op.operands[*i].name));
            }
            operands[*i] = true
        }
        FmtElem::Operands => operands.iter_mut().for_each(|x| *x = true),
        FmtElem::Attr(i) => attrs[*i] = true,
        FmtElem::Region(i) => regions[*i] = true,
        FmtElem::Successor(i) => succs[*i] = true,
        FmtElem::AttrDict { .. } => attr_dicts += 1,
        FmtElem::Type(r) => mark(r, &mut op_types, &mut res_types),
        FmtElem::FunctionalType(a, b) => {
            mark(a, &mut op_types, &mut res_types);
            mark(b, &mut op_types, &mut res_types);
        }
        _ => {}
    });
    if let Some(d) = dup {
        return Err(d);
    }
    if attr_dicts != 1 {
        return Err("the format needs exactly one 'attr-dict' or 'attr-dict-with-keyword'".into());
    }
    if let Some(i) = operands.iter().position(|x| !x) {
        return Err(format!("operand '${}' is missing from the format", op.operands[i].name));
    }
    if let Some(i) = regions.iter().position(|x| !x) {
        return Err(format!("region '${}' is missing from the format", op.regions[i].name));
    }
    if let Some(i) = succs.iter().position(|x| !x) {
        return Err(format!("successor '${}' is missing from the format", op.successors[i].name));
    }
    // Types: spelled out, equal to a known one, or buildable.
    let groups = type_groups(op);
    for _ in 0..3 {
        for g in &groups {
            let known = g.iter().any(|r| match r {
                TyRef::Operand(i) => op_types[*i],
                TyRef::Result(i) => res_types[*i],
                _ => false,
            });
            if known {
                for r in g {
                    mark(r, &mut op_types, &mut res_types);
                }
            }
        }
        if op.same_type_operands && op_types.iter().any(|x| *x) {
            op_types.iter_mut().for_each(|x| *x = true);
        }
    }
    for (i, o) in op.operands.iter().enumerate() {
        if !op_types[i] && o.builder.is_empty() {
            return Err(format!("the type of operand '${}' cannot be inferred: add 'type(${})' to the format", o.name, o.name));
        }
    }
    for (i, o) in op.results.iter().enumerate() {
        if !res_types[i] && o.builder.is_empty() && o.arity == Arity::Single {
            return Err(format!("the type of result '${}' cannot be inferred: add 'type(${})' to the format", o.name, o.name));
        }
    }
    Ok(())
}
