//! The IR parser: MLIR's generic form, plus custom forms through per-op hooks.
//!
//! Algorithm:
//! 1. The file is a list of top-level ops and alias definitions (`#a = ...`, `!t = ...`).
//!    If it holds exactly one `builtin.module`, that op is the result; otherwise the ops are
//!    wrapped in an implicit `builtin.module`, as MLIR does.
//! 2. Regions of generic ops are parsed by an explicit frame stack
//!    ([`Parser::parse_region_body`]), so nesting depth does not grow the Rust stack. Custom
//!    parsers that parse a region re-enter it; that path is limited to
//!    [`MAX_CUSTOM_NESTING`] levels and reports a diagnostic beyond.
//! 3. SSA names live in scopes, one per region; lookups go outward until a region of an
//!    isolated-from-above op. A use before the definition creates a placeholder value that
//!    the definition replaces (RAUW); placeholders left when a scope closes move to the
//!    enclosing scope, and those left at the end are errors. Blocks are resolved the same
//!    way within a region.
//! 4. Aliases (`#loc3`, `#map`) may be used before they are defined (MLIR prints location
//!    aliases at the end of the file): an unknown alias triggers one scan of the file for
//!    top-level definitions, and the definition is parsed on demand.
//!
//! Every error is a [`Diagnostic`] with the exact byte span; nothing panics on bad input.
//! Attribute, type and location syntax nests at most [`MAX_ATTR_DEPTH`] levels.

mod attrs;
pub mod lexer;
mod locations;
mod types;

use crate::{
    attrs::{AttrId, AttrKind, NamedAttr},
    context::{BlockId, Context, InsertPoint, OpId, OperationState, RegionId, ValueId},
    diag::{Diagnostic, Span},
    location::{LineCol, LocId, Location},
    registry::Traits,
    symbol::Symbol,
    types::TypeId,
};
use lexer::{Lexer, Tok, Token};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Nesting limit of attributes, types and locations (they are parsed recursively).
pub const MAX_ATTR_DEPTH: usize = 64;
/// Nesting limit of regions parsed through custom-form hooks (each level recurses once).
pub const MAX_CUSTOM_NESTING: usize = 200;

type PResult<T> = Result<T, Diagnostic>;

/// Parses `src` (named `file` in locations and diagnostics) into `ctx`, returning the
/// top-level `builtin.module`.
pub fn parse_module(ctx: &mut Context, src: &str, file: &str) -> Result<OpId, Diagnostic> {
    let mut p = Parser::new(ctx, src, file);
    p.parse_top_level()
}

/// Parses `src` as one type (as the printer writes it, in either of its forms).
pub fn parse_type_text(ctx: &mut Context, src: &str) -> Result<TypeId, Diagnostic> {
    let mut p = Parser::new(ctx, src, "<type>");
    let t = p.parse_type()?;
    p.expect_end()?;
    Ok(t)
}

/// Parses `src` as one attribute (as the printer writes it, in either of its forms).
pub fn parse_attr_text(ctx: &mut Context, src: &str) -> Result<AttrId, Diagnostic> {
    let mut p = Parser::new(ctx, src, "<attribute>");
    let a = p.parse_attr()?;
    p.expect_end()?;
    Ok(a)
}

/// Splits an op's attributes into its inherent ones (its properties, by the registry's
/// declaration of op `name`) and the rest, as the parser does for a dictionary written
/// without `<{...}>`. An op the registry does not know keeps them all discardable.
pub fn split_inherent(ctx: &Context, name: &str, attrs: Vec<NamedAttr>) -> (Vec<NamedAttr>, Vec<NamedAttr>) {
    let registry = ctx.registry();
    let Some(info) = registry.lookup(name).map(|i| registry.op(i)) else { return (Vec::new(), attrs) };
    attrs.into_iter().partition(|e| info.is_inherent(ctx.str(e.0)))
}

/// A value reference not yet resolved to a value (its type comes later in the syntax).
#[derive(Copy, Clone, Debug)]
pub struct OperandRef<'a> {
    pub name: &'a str,
    pub index: u32,
    pub lo: u32,
    pub hi: u32,
}

/// A region entry-block argument parsed by a custom parser (`%arg0: i32`).
#[derive(Copy, Clone, Debug)]
pub struct Argument<'a> {
    pub name: OperandRef<'a>,
    pub ty: TypeId,
    pub loc: Option<LocId>,
}

enum Def {
    One(ValueId),
    Results(OpId),
}

#[derive(Default)]
struct Scope<'a> {
    defs: FxHashMap<&'a str, Def>,
    fwd: FxHashMap<(&'a str, u32), (ValueId, u32, u32)>,
    isolated: bool,
}

/// Result groups of an op being parsed: `(name, count, lo, hi)`.
type ResultGroups<'a> = SmallVec<[(&'a str, u32, u32, u32); 2]>;

struct PendingOp<'a> {
    results: ResultGroups<'a>,
    name: Symbol,
    lo: u32,
    hi: u32,
    operands: SmallVec<[OperandRef<'a>; 4]>,
    successors: SmallVec<[BlockId; 2]>,
    props: Option<AttrId>,
    regions: Vec<RegionId>,
}

/// The blocks of a region by name: (block, defined yet, span of the first reference).
type BlockNames<'a> = FxHashMap<&'a str, (BlockId, bool, u32, u32)>;

struct RegionFrame<'a> {
    region: RegionId,
    blocks: BlockNames<'a>,
    cur: Option<BlockId>,
    owner: Option<PendingOp<'a>>,
}

/// The parser; custom-form hooks receive it as [`OpParser`].
pub struct Parser<'a, 'c> {
    ctx: &'c mut Context,
    src: &'a str,
    file: String,
    file_sym: Symbol,
    lex: Lexer<'a>,
    tok: Token,
    /// End of the previous token.
    prev_hi: u32,
    line_starts: std::sync::Arc<[u32]>,
    /// Whether op locations are offsets into this file (see [`LocId::offset`]).
    offset_locs: bool,
    attr_aliases: FxHashMap<&'a str, AttrId>,
    type_aliases: FxHashMap<&'a str, TypeId>,
    loc_aliases: FxHashMap<&'a str, LocId>,
    /// Byte offsets of top-level alias definitions, found by [`Parser::scan_aliases`].
    alias_defs: Option<FxHashMap<&'a str, usize>>,
    resolving: Vec<&'a str>,
    /// Types and attributes by their source text: the same text always parses to the same
    /// value, and generic IR repeats the same signatures and properties on most ops.
    type_cache: FxHashMap<&'a str, TypeId>,
    attr_cache: FxHashMap<&'a str, AttrId>,
    scratch_types: Vec<TypeId>,
    keyword_types: [Option<TypeId>; 134],
    scratch_outputs: Vec<TypeId>,
    scratch_values: Vec<ValueId>,
    scopes: Vec<Scope<'a>>,
    scope_pool: Vec<Scope<'a>>,
    depth: usize,
    custom_nesting: usize,
    /// Regions a custom parser opens belong to an isolated op.
    custom_isolated: bool,
    /// Default dialects of the custom ops whose regions are being parsed (MLIR's
    /// `OpAsmOpInterface::getDefaultDialect`): `return` in a `func.func` is `func.return`.
    default_dialects: Vec<&'static str>,
    /// While a custom parser runs: the block names of the region it is in, for successors.
    custom_blocks: Option<BlockNames<'a>>,
}

/// The interface custom-form parse hooks use.
pub type OpParser<'a, 'c> = Parser<'a, 'c>;

impl<'a, 'c> Parser<'a, 'c> {
    /// A parser over `src`.
    pub fn new(ctx: &'c mut Context, src: &'a str, file: &str) -> Self {
        let file_sym = ctx.sym(file);
        // `match_indices` on a char uses memchr: this is a fast scan even on large files.
        let mut line_starts = vec![0u32];
        line_starts.extend(src.match_indices('\n').map(|(i, _)| i as u32 + 1));
        // Generic IR has about one op per line: size the arenas once.
        ctx.reserve(line_starts.len());
        let line_starts: std::sync::Arc<[u32]> = line_starts.into();
        let offset_locs = ctx.set_offset_file(file_sym, line_starts.clone());
        let mut lex = Lexer::new(src);
        let tok = lex.next_token();
        Self {
            ctx,
            src,
            file: file.to_string(),
            file_sym,
            lex,
            tok,
            prev_hi: 0,
            line_starts,
            offset_locs,
            attr_aliases: FxHashMap::default(),
            type_aliases: FxHashMap::default(),
            loc_aliases: FxHashMap::default(),
            alias_defs: None,
            resolving: Vec::new(),
            type_cache: FxHashMap::default(),
            attr_cache: FxHashMap::default(),
            scratch_types: Vec::new(),
            keyword_types: [None; 134],
            scratch_outputs: Vec::new(),
            scratch_values: Vec::new(),
            scopes: Vec::new(),
            scope_pool: Vec::new(),
            depth: 0,
            custom_nesting: 0,
            custom_isolated: false,
            default_dialects: Vec::new(),
            custom_blocks: None,
        }
    }

    /// The context being built.
    pub fn ctx(&mut self) -> &mut Context {
        self.ctx
    }

    // ----- tokens ----------------------------------------------------------------------

    fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_hi = t.hi;
        self.tok = self.lex.next_token();
        t
    }
    fn text(&self, t: Token) -> &'a str {
        &self.src[t.lo as usize..t.hi as usize]
    }
    fn span(&self, lo: u32, hi: u32) -> Span {
        Span { file: self.file.clone(), lo, hi }
    }
    /// An error at the current token.
    /// An error unless the whole input has been read.
    fn expect_end(&self) -> PResult<()> {
        if self.tok.kind == Tok::Eof {
            Ok(())
        } else {
            Err(self.expected("end of input"))
        }
    }

    pub fn error_here(&self, msg: impl Into<String>) -> Diagnostic {
        let t = self.tok;
        let (lo, hi) = if t.kind == Tok::Eof { (t.lo, t.lo) } else { (t.lo, t.hi) };
        Diagnostic::error(msg, Some(self.span(lo, hi)))
    }
    fn error_at(&self, lo: u32, hi: u32, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(msg, Some(self.span(lo, hi)))
    }
    fn expected(&self, what: &str) -> Diagnostic {
        if self.tok.kind == Tok::Error {
            let text = self.text(self.tok);
            let msg = if text.starts_with('"') || text.starts_with("@\"") {
                "unterminated string literal (strings end on the same line)".to_string()
            } else {
                format!("unexpected character '{text}'")
            };
            return self.error_here(msg);
        }
        let found = if self.tok.kind == Tok::Eof { "end of file".to_string() } else { format!("'{}'", self.text(self.tok)) };
        self.error_here(format!("expected {what}, found {found}"))
    }
    /// Consumes a token of kind `k` or fails with "expected ...".
    pub fn expect(&mut self, k: Tok) -> PResult<Token> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            Err(self.expected(k.describe()))
        }
    }
    /// Consumes a token of kind `k` if it is next.
    pub fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }
    /// Whether the next token is of kind `k`.
    pub fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }
    /// Consumes bare keyword `kw` if it is next.
    pub fn eat_keyword(&mut self, kw: &str) -> bool {
        if self.tok.kind == Tok::BareId && self.text(self.tok) == kw {
            self.bump();
            true
        } else {
            false
        }
    }
    /// Consumes bare keyword `kw` or fails.
    pub fn expect_keyword(&mut self, kw: &str) -> PResult<()> {
        if self.eat_keyword(kw) {
            Ok(())
        } else {
            Err(self.expected(&format!("'{kw}'")))
        }
    }
    /// Byte offset of the current token.
    pub fn pos(&self) -> u32 {
        self.tok.lo
    }
    fn reset_to(&mut self, pos: usize) {
        self.prev_hi = pos as u32;
        self.lex.pos = pos;
        self.tok = self.lex.next_token();
    }

    /// End of a token starting at `at` followed, without space, by a `<...>` group.
    fn token_with_body_end(&self, t: Token) -> Option<usize> {
        let b = self.src.as_bytes();
        if b.get(t.hi as usize) == Some(&b'<') {
            self.lex.scan_balanced(t.hi as usize)
        } else {
            Some(t.hi as usize)
        }
    }

    /// The byte range a type starting at the current token spans, found without parsing
    /// (for the type cache). `None` when it is not obvious; the type is then parsed uncached.
    fn type_extent(&self) -> Option<usize> {
        let t = self.tok;
        match t.kind {
            Tok::BareId | Tok::BangId => self.token_with_body_end(t),
            Tok::LParen => {
                let close = self.lex.scan_balanced(t.lo as usize)?;
                let mut l = Lexer { src: self.src, pos: close };
                if l.next_token().kind != Tok::Arrow {
                    return None;
                }
                let r = l.next_token();
                match r.kind {
                    Tok::LParen => l.scan_balanced(r.lo as usize),
                    Tok::BareId | Tok::BangId => self.token_with_body_end(r),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_ATTR_DEPTH {
            return Err(self.error_here(format!("nesting too deep (more than {MAX_ATTR_DEPTH} levels of attributes, types or locations)")));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn line_col(&self, off: u32) -> LineCol {
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = self.line_starts[line - 1];
        LineCol { line: line as u32, col: off - start + 1 }
    }
    fn file_loc(&mut self, lo: u32, hi: u32) -> LocId {
        if self.offset_locs {
            if let Some(l) = LocId::offset(lo) {
                return l;
            }
        }
        let start = self.line_col(lo);
        self.ctx.loc(Location::File { file: self.file_sym, start, end: None, bytes: Some((lo, hi)) })
    }

    // ----- top level -------------------------------------------------------------------

    fn parse_top_level(&mut self) -> PResult<OpId> {
        let region = self.ctx.create_region();
        self.parse_region_body(region, true, &[])?;
        let blocks = self.ctx.region_blocks(region).to_vec();
        let ops: Vec<OpId> = blocks.first().map(|&b| self.ctx.block_ops(b).collect()).unwrap_or_default();
        if ops.len() == 1 && self.ctx.is_op(ops[0], "builtin.module") && self.ctx.results(ops[0]).is_empty() {
            let m = ops[0];
            self.ctx.unlink_op(m);
            self.ctx.erase_detached_region(region);
            return Ok(m);
        }
        if blocks.is_empty() {
            let b = self.ctx.create_block(&[]);
            self.ctx.append_block(region, b);
        }
        let loc = self.file_loc(0, 0);
        let mut st = OperationState::new(self.ctx, "builtin.module", loc);
        st.regions.push(region);
        Ok(self.ctx.create_op(st))
    }

    fn parse_alias_def(&mut self) -> PResult<()> {
        let t = self.bump();
        let name = &self.text(t)[1..];
        self.expect(Tok::Equal)?;
        if t.kind == Tok::HashId {
            if self.tok.kind == Tok::BareId && self.text(self.tok) == "loc" {
                let l = self.parse_loc_paren()?;
                self.loc_aliases.insert(name, l);
            } else {
                let a = self.parse_attr()?;
                self.attr_aliases.insert(name, a);
            }
        } else {
            let ty = self.parse_type()?;
            self.type_aliases.insert(name, ty);
        }
        Ok(())
    }

    /// Finds top-level `#name =` / `!name =` definitions (once) so aliases can be used
    /// before they are defined.
    fn scan_aliases(&mut self) {
        if self.alias_defs.is_some() {
            return;
        }
        let mut map = FxHashMap::default();
        let mut lex = Lexer::new(self.src);
        let mut depth = 0i64;
        let mut prev: Option<Token> = None;
        loop {
            let t = lex.next_token();
            match t.kind {
                Tok::Eof => break,
                Tok::LParen | Tok::LBrace | Tok::LSquare | Tok::Less => depth += 1,
                Tok::RParen | Tok::RBrace | Tok::RSquare | Tok::Greater => depth -= 1,
                Tok::Equal if depth == 0 => {
                    if let Some(p) = prev {
                        if matches!(p.kind, Tok::HashId | Tok::BangId) {
                            let key = &self.src[p.lo as usize..p.hi as usize];
                            map.entry(key).or_insert(t.hi as usize);
                        }
                    }
                }
                _ => {}
            }
            prev = Some(t);
        }
        self.alias_defs = Some(map);
    }

    /// Parses the definition of alias `key` (`#x` or `!x`) found by the scan, on demand.
    fn resolve_alias(&mut self, key: &'a str, lo: u32, hi: u32) -> PResult<()> {
        self.scan_aliases();
        let Some(&pos) = self.alias_defs.as_ref().and_then(|m| m.get(key)) else {
            return Err(self.error_at(lo, hi, format!("undefined symbol alias id '{}'", &key[1..])));
        };
        if self.resolving.contains(&key) {
            return Err(self.error_at(lo, hi, format!("alias '{key}' is defined in terms of itself")));
        }
        self.resolving.push(key);
        let save = (self.lex.pos, self.tok);
        self.reset_to(pos);
        let name = &key[1..];
        let r = (|| -> PResult<()> {
            if key.starts_with('#') {
                if self.tok.kind == Tok::BareId && self.text(self.tok) == "loc" {
                    let l = self.parse_loc_paren()?;
                    self.loc_aliases.insert(name, l);
                } else {
                    let a = self.parse_attr()?;
                    self.attr_aliases.insert(name, a);
                }
            } else {
                let t = self.parse_type()?;
                self.type_aliases.insert(name, t);
            }
            Ok(())
        })();
        self.lex.pos = save.0;
        self.tok = save.1;
        self.resolving.pop();
        r
    }

    // ----- scopes ----------------------------------------------------------------------

    fn push_scope(&mut self, isolated: bool) {
        // Reuse a cleared scope: its maps keep their capacity (no regrowth per function).
        let mut s = self.scope_pool.pop().unwrap_or_default();
        s.isolated = isolated;
        self.scopes.push(s);
    }

    fn pop_scope(&mut self) -> PResult<()> {
        let mut scope = self.scopes.pop().expect("scope stack");
        if scope.fwd.is_empty() {
            scope.defs.clear();
            self.scope_pool.push(scope);
            return Ok(());
        }
        let mut fwd: Vec<_> = scope.fwd.into_iter().collect();
        fwd.sort_by_key(|(_, (_, lo, _))| *lo);
        if scope.isolated || self.scopes.is_empty() {
            let ((name, idx), (_, lo, hi)) = fwd[0];
            let shown = if idx > 0 { format!("{name}#{idx}") } else { name.to_string() };
            return Err(self.error_at(lo, hi, format!("use of undeclared SSA value name '{shown}'")));
        }
        for (key, (v, lo, hi)) in fwd {
            let parent = self.scopes.last_mut().expect("parent scope");
            match parent.fwd.get(&key) {
                Some(&(existing, _, _)) => {
                    if self.ctx.value_type(existing) != self.ctx.value_type(v) {
                        return Err(self.error_at(lo, hi, format!("use of value '{}' expects different type than prior uses", key.0)));
                    }
                    self.ctx.replace_all_uses_with(v, existing);
                    self.ctx.erase_placeholder(v);
                }
                None => {
                    parent.fwd.insert(key, (v, lo, hi));
                }
            }
        }
        Ok(())
    }

    fn lookup_def(&self, name: &str, index: u32) -> Option<Result<ValueId, usize>> {
        for s in self.scopes.iter().rev() {
            if s.defs.is_empty() {
                if s.isolated {
                    break;
                }
                continue;
            }
            if let Some(d) = s.defs.get(name) {
                return Some(match *d {
                    Def::One(v) if index == 0 => Ok(v),
                    Def::One(_) => Err(1),
                    Def::Results(op) => self.ctx.results(op).get(index as usize).copied().ok_or(self.ctx.num_results(op)),
                });
            }
            if s.isolated {
                break;
            }
        }
        None
    }

    /// Resolves a value reference to a value of type `ty` (creating a forward reference if
    /// it is not defined yet).
    pub fn resolve_operand(&mut self, r: OperandRef<'a>, ty: TypeId) -> PResult<ValueId> {
        let v = match self.lookup_def(r.name, r.index) {
            Some(Ok(v)) => v,
            Some(Err(n)) => {
                return Err(self.error_at(
                    r.lo,
                    r.hi,
                    format!("reference to invalid result number {} of '{}' (it has {n})", r.index, r.name),
                ))
            }
            None => {
                // A prior forward reference in a visible scope?
                let mut found = None;
                for s in self.scopes.iter().rev() {
                    if let Some(&(v, _, _)) = s.fwd.get(&(r.name, r.index)) {
                        found = Some(v);
                        break;
                    }
                    if s.isolated {
                        break;
                    }
                }
                match found {
                    Some(v) => v,
                    None => {
                        let v = self.ctx.create_placeholder(ty);
                        self.scopes.last_mut().expect("scope").fwd.insert((r.name, r.index), (v, r.lo, r.hi));
                        v
                    }
                }
            }
        };
        if self.ctx.value_type(v) != ty {
            let want = crate::print::type_to_string(self.ctx, ty);
            let have = crate::print::type_to_string(self.ctx, self.ctx.value_type(v));
            return Err(self.error_at(
                r.lo,
                r.hi,
                format!("use of value '{}' expects different type than prior uses: {want} vs {have}", r.name),
            ));
        }
        Ok(v)
    }

    fn define(&mut self, name: &'a str, lo: u32, hi: u32, def: Def, values: &[ValueId]) -> PResult<()> {
        // Redefinition: the name is visible from this scope already. The current scope is
        // checked by the insertion below (one hash); enclosing ones only if non-empty.
        let n = self.scopes.len();
        if !self.scopes[n - 1].isolated {
            for s in self.scopes[..n - 1].iter().rev() {
                if !s.defs.is_empty() && s.defs.contains_key(name) {
                    return Err(self.error_at(lo, hi, format!("redefinition of SSA value '{name}'")));
                }
                if s.isolated {
                    break;
                }
            }
        }
        let no_fwd = self.scopes[n - 1].fwd.is_empty();
        if no_fwd {
            return match self.scopes[n - 1].defs.entry(name) {
                std::collections::hash_map::Entry::Occupied(_) => Err(self.error_at(lo, hi, format!("redefinition of SSA value '{name}'"))),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(def);
                    Ok(())
                }
            };
        }
        if self.scopes[n - 1].defs.contains_key(name) {
            return Err(self.error_at(lo, hi, format!("redefinition of SSA value '{name}'")));
        }
        for (i, &v) in values.iter().enumerate() {
            if no_fwd {
                break;
            }
            let key = (name, i as u32);
            let fwd = self.scopes.last_mut().expect("scope").fwd.remove(&key);
            if let Some((ph, flo, fhi)) = fwd {
                if self.ctx.value_type(ph) != self.ctx.value_type(v) {
                    let want = crate::print::type_to_string(self.ctx, self.ctx.value_type(v));
                    return Err(self.error_at(
                        flo,
                        fhi,
                        format!("definition of SSA value '{name}#{i}' has type {want}, but a prior use expects another type"),
                    ));
                }
                self.ctx.replace_all_uses_with(ph, v);
                self.ctx.erase_placeholder(ph);
            }
        }
        // A forward reference to a result index the op does not have.
        if let Some((&(n, i), &(_, flo, fhi))) = self.scopes.last().expect("scope").fwd.iter().find(|((n, _), _)| *n == name) {
            return Err(self.error_at(flo, fhi, format!("reference to invalid result number {i} of '{n}'")));
        }
        self.scopes.last_mut().expect("scope").defs.insert(name, def);
        Ok(())
    }

    // ----- regions and ops (iterative) -------------------------------------------------

    fn block_ref(frame: &mut RegionFrame<'a>, ctx: &mut Context, name: &'a str, lo: u32, hi: u32) -> BlockId {
        if let Some(&(b, _, _, _)) = frame.blocks.get(name) {
            return b;
        }
        let b = ctx.create_block(&[]);
        frame.blocks.insert(name, (b, false, lo, hi));
        b
    }

    /// Parses the blocks of `region` up to the closing `}` (or end of file when
    /// `top_level`). `entry_args` pre-defines the entry block's arguments.
    pub fn parse_region_body(&mut self, region: RegionId, top_level: bool, entry_args: &[Argument<'a>]) -> PResult<()> {
        let mut frames: Vec<RegionFrame<'a>> = Vec::new();
        self.push_scope(self.custom_isolated && !top_level);
        let mut first = RegionFrame { region, blocks: FxHashMap::default(), cur: None, owner: None };
        if !entry_args.is_empty() {
            let b = self.ctx.create_block(&[]);
            self.ctx.append_block(region, b);
            for a in entry_args {
                let v = self.ctx.add_block_arg(b, a.ty);
                self.ctx.set_value_loc(v, a.loc);
                self.define(a.name.name, a.name.lo, a.name.hi, Def::One(v), &[v])?;
            }
            first.cur = Some(b);
        }
        frames.push(first);
        loop {
            let outermost = top_level && frames.len() == 1;
            let frame = frames.last_mut().expect("frame");
            match self.tok.kind {
                Tok::Eof if outermost => {
                    let f = frames.pop().expect("frame");
                    self.finish_region(f)?;
                    return Ok(());
                }
                Tok::Eof => return Err(self.expected("'}' to close the region")),
                Tok::RBrace if !outermost => {
                    self.bump();
                    let f = frames.pop().expect("frame");
                    let owner = f.owner.is_some();
                    let mut pending = self.finish_region_keep_owner(f)?;
                    if !owner {
                        return Ok(());
                    }
                    let mut p = pending.take().expect("owner");
                    if self.eat(Tok::Comma) {
                        self.expect(Tok::LBrace)?;
                        let r = self.ctx.create_region();
                        p.regions.push(r);
                        let iso = self.ctx.traits_of_name(p.name).is_some_and(|t| t.contains(Traits::ISOLATED_FROM_ABOVE));
                        self.push_scope(iso);
                        frames.push(RegionFrame { region: r, blocks: FxHashMap::default(), cur: None, owner: Some(p) });
                        continue;
                    }
                    self.expect(Tok::RParen)?;
                    let frame = frames.last_mut().expect("enclosing frame");
                    let block = frame.cur.expect("block of pending op");
                    self.finish_generic_op(p, block)?;
                }
                Tok::CaretId => {
                    let t = self.bump();
                    let name = self.text(t);
                    let b = Self::block_ref(frame, self.ctx, name, t.lo, t.hi);
                    let entry = frame.blocks.get_mut(name).expect("block");
                    if entry.1 || self.ctx.block_region(b).is_some() {
                        return Err(self.error_at(t.lo, t.hi, format!("redefinition of block '{name}'")));
                    }
                    entry.1 = true;
                    self.ctx.append_block(frame.region, b);
                    frame.cur = Some(b);
                    if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
                        loop {
                            let v = self.expect(Tok::PercentId)?;
                            self.expect(Tok::Colon)?;
                            let ty = self.parse_type()?;
                            let arg = self.ctx.add_block_arg(b, ty);
                            if self.at_keyword("loc") {
                                let l = self.parse_loc_paren()?;
                                self.ctx.set_value_loc(arg, Some(l));
                            }
                            let vname = self.text(v);
                            self.define(vname, v.lo, v.hi, Def::One(arg), &[arg])?;
                            if self.eat(Tok::RParen) {
                                break;
                            }
                            self.expect(Tok::Comma)?;
                        }
                    }
                    self.expect(Tok::Colon)?;
                }
                Tok::HashId | Tok::BangId if outermost => self.parse_alias_def()?,
                Tok::FileMetaBegin => return Err(self.error_here("file metadata dictionaries ('{-# ... #-}') are not supported")),
                _ => {
                    let block = match frame.cur {
                        Some(b) => b,
                        None => {
                            if !frame.blocks.is_empty() || !self.ctx.region_blocks(frame.region).is_empty() {
                                return Err(self.expected("block label"));
                            }
                            let b = self.ctx.create_block(&[]);
                            self.ctx.append_block(frame.region, b);
                            frame.cur = Some(b);
                            b
                        }
                    };
                    if let Some(p) = self.parse_operation(block, frame)? {
                        let r = *p.regions.last().expect("first region");
                        let iso = self.ctx.traits_of_name(p.name).is_some_and(|t| t.contains(Traits::ISOLATED_FROM_ABOVE));
                        self.push_scope(iso);
                        frames.push(RegionFrame { region: r, blocks: FxHashMap::default(), cur: None, owner: Some(p) });
                    }
                }
            }
        }
    }

    /// Whether the next token is bare keyword `kw`.
    pub fn at_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareId && self.text(self.tok) == kw
    }

    fn finish_region(&mut self, f: RegionFrame<'a>) -> PResult<()> {
        self.finish_region_keep_owner(f).map(|_| ())
    }

    fn finish_region_keep_owner(&mut self, f: RegionFrame<'a>) -> PResult<Option<PendingOp<'a>>> {
        let mut undefined: Vec<_> = f.blocks.iter().filter(|(_, e)| !e.1).map(|(n, e)| (*n, e.2, e.3)).collect();
        if !undefined.is_empty() {
            undefined.sort_by_key(|u| u.1);
            let (n, lo, hi) = undefined[0];
            return Err(self.error_at(lo, hi, format!("reference to an undefined block '{n}'")));
        }
        self.pop_scope()?;
        Ok(f.owner)
    }

    /// Parses one op. Returns `Some(pending)` when a generic op's first region was opened
    /// (the caller continues inside it); `None` when the op is complete and inserted.
    fn parse_operation(&mut self, block: BlockId, frame: &mut RegionFrame<'a>) -> PResult<Option<PendingOp<'a>>> {
        let start = self.tok.lo;
        let mut results = ResultGroups::new();
        if self.at(Tok::PercentId) {
            loop {
                let t = self.expect(Tok::PercentId)?;
                let mut count = 1u32;
                if self.eat(Tok::Colon) {
                    let n = self.expect(Tok::Int)?;
                    count = self.text(n).parse().map_err(|_| self.error_at(n.lo, n.hi, "expected result count"))?;
                    if count == 0 {
                        return Err(self.error_at(n.lo, n.hi, "expected named operation to have at least 1 result"));
                    }
                }
                results.push((self.text(t), count, t.lo, t.hi));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal)?;
        }
        match self.tok.kind {
            Tok::Str => self.parse_generic_head(results, block, frame, start),
            Tok::BareId => {
                self.parse_custom_op(results, block, frame)?;
                Ok(None)
            }
            _ => Err(self.expected("operation name in quotes or a custom operation")),
        }
    }

    fn check_op_name(&mut self, sym: Symbol, lo: u32, hi: u32) -> PResult<()> {
        if self.ctx.traits_of_name(sym).is_some() {
            return Ok(());
        }
        let name = self.ctx.str(sym).to_string();
        let name = name.as_str();
        let dialect = name.split('.').next().unwrap_or("");
        if self.ctx.allow_unregistered && !self.ctx.registry().has_dialect(dialect) {
            return Ok(());
        }
        if !name.contains('.') {
            return Err(self.error_at(lo, hi, format!("operation name '{name}' has no dialect prefix")));
        }
        if self.ctx.registry().has_dialect(dialect) {
            Err(self.error_at(
                lo,
                hi,
                format!("unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"),
            ))
        } else {
            Err(self.error_at(
                lo,
                hi,
                format!("operation '{name}' belongs to unregistered dialect '{dialect}' (use --allow-unregistered to accept it)"),
            ))
        }
    }

    fn parse_generic_head(
        &mut self,
        results: ResultGroups<'a>,
        block: BlockId,
        frame: &mut RegionFrame<'a>,
        _start: u32,
    ) -> PResult<Option<PendingOp<'a>>> {
        let nt = self.bump();
        let raw = &self.src[nt.lo as usize + 1..nt.hi as usize - 1];
        let name_sym = if raw.contains('\\') {
            let name = lexer::unescape(raw).map_err(|_| self.error_at(nt.lo, nt.hi, "invalid escape in operation name"))?;
            self.ctx.sym(&name)
        } else {
            self.ctx.sym(raw)
        };
        self.check_op_name(name_sym, nt.lo, nt.hi)?;
        self.expect(Tok::LParen)?;
        let mut operands = SmallVec::new();
        if !self.eat(Tok::RParen) {
            loop {
                operands.push(self.parse_operand()?);
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        let mut successors = SmallVec::new();
        if self.eat(Tok::LSquare) {
            loop {
                let t = self.expect(Tok::CaretId)?;
                let n = self.text(t);
                successors.push(Self::block_ref(frame, self.ctx, n, t.lo, t.hi));
                if self.at(Tok::LParen) {
                    return Err(self.error_here("successor operands in the successor list are not supported; pass them as op operands"));
                }
                if self.eat(Tok::RSquare) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        let mut props = None;
        if self.at(Tok::Less) {
            self.bump();
            let lo = self.tok.lo;
            let a = self.parse_attr()?;
            if !matches!(self.ctx.attr_kind(a), AttrKind::Dict(_)) {
                return Err(self.error_at(lo, self.tok.lo, "properties must be a dictionary attribute"));
            }
            props = Some(a);
            self.expect(Tok::Greater)?;
        }
        let mut pending = PendingOp { results, name: name_sym, lo: nt.lo, hi: nt.hi, operands, successors, props, regions: Vec::new() };
        if self.at(Tok::LParen) {
            self.bump();
            self.expect(Tok::LBrace)?;
            let r = self.ctx.create_region();
            pending.regions.push(r);
            return Ok(Some(pending));
        }
        self.finish_generic_op(pending, block)?;
        Ok(None)
    }

    fn finish_generic_op(&mut self, p: PendingOp<'a>, block: BlockId) -> PResult<()> {
        let mut attrs = None;
        if self.at(Tok::LBrace) {
            attrs = Some(self.parse_attr()?);
        }
        self.expect(Tok::Colon)?;
        let tlo = self.tok.lo;
        let mut inputs = std::mem::take(&mut self.scratch_types);
        inputs.clear();
        let mut outputs = std::mem::take(&mut self.scratch_outputs);
        outputs.clear();
        // The signature `(inputs) -> results`, parsed straight into the lists (no function
        // type is interned for it).
        if !self.at(Tok::LParen) {
            return Err(self.error_at(tlo, self.tok.hi, "expected a function type for the generic operation"));
        }
        self.bump();
        self.parse_type_list_into(Tok::RParen, &mut inputs)?;
        self.expect(Tok::Arrow)?;
        if self.eat(Tok::LParen) {
            self.parse_type_list_into(Tok::RParen, &mut outputs)?;
        } else {
            outputs.push(self.parse_type()?);
        }
        if inputs.len() != p.operands.len() {
            return Err(self.error_at(tlo, self.tok.lo, format!("expected {} operand type(s) but had {}", p.operands.len(), inputs.len())));
        }
        let declared: u32 = p.results.iter().map(|r| r.1).sum();
        if !p.results.is_empty() && declared as usize != outputs.len() {
            return Err(self.error_at(
                p.results[0].2,
                p.results[0].3,
                format!("operation defines {} results but was provided {declared} to bind", outputs.len()),
            ));
        }
        let mut operands = std::mem::take(&mut self.scratch_values);
        operands.clear();
        for (r, &t) in p.operands.iter().zip(&inputs) {
            operands.push(self.resolve_operand(*r, t)?);
        }
        self.scratch_types = inputs;
        let loc = if self.at_keyword("loc") { self.parse_loc_paren()? } else { self.file_loc(p.lo, p.hi) };
        let empty = self.ctx.empty_dict();
        let (props, attrs) = match (p.props, attrs) {
            // Without `<{...}>`, the op's inherent attributes are read from the dictionary,
            // as MLIR does (and as IR written for dialects without properties has them).
            (None, Some(a)) => self.split_inherent(p.name, a),
            (props, attrs) => (props, attrs),
        };
        let op = self.ctx.create_op_parts(
            p.name,
            loc,
            &operands,
            &outputs,
            props.unwrap_or(empty),
            attrs.unwrap_or(empty),
            &p.regions,
            &p.successors,
        );
        self.scratch_values = operands;
        self.ctx.insert_op(op, InsertPoint::end(block));
        self.scratch_outputs = outputs;
        self.bind_results(op, &p.results)
    }

    /// Splits an attribute dictionary into the inherent attributes of op `name` (its
    /// properties) and the rest.
    fn split_inherent(&mut self, name: Symbol, dict: AttrId) -> (Option<AttrId>, Option<AttrId>) {
        let AttrKind::Dict(entries) = self.ctx.attr_kind(dict) else { return (None, Some(dict)) };
        let (inherent, rest) = split_inherent(self.ctx, self.ctx.str(name), entries.to_vec());
        if inherent.is_empty() {
            return (None, Some(dict));
        }
        (Some(self.ctx.attr(AttrKind::Dict(inherent))), Some(self.ctx.attr(AttrKind::Dict(rest))))
    }

    fn bind_results(&mut self, op: OpId, groups: &[(&'a str, u32, u32, u32)]) -> PResult<()> {
        if groups.is_empty() {
            return Ok(());
        }
        let total: u32 = groups.iter().map(|g| g.1).sum();
        if total as usize != self.ctx.num_results(op) {
            let g = groups[0];
            return Err(self.error_at(
                g.2,
                g.3,
                format!("operation defines {} results but was provided {total} to bind", self.ctx.num_results(op)),
            ));
        }
        if groups.len() == 1 {
            let (n, _, lo, hi) = groups[0];
            if self.ctx.num_results(op) == 1 {
                let v = self.ctx.result(op, 0);
                return self.define(n, lo, hi, Def::One(v), &[v]);
            }
            let vals = self.ctx.results(op).to_vec();
            return self.define(n, lo, hi, Def::Results(op), &vals);
        }
        let mut k = 0usize;
        for &(n, c, lo, hi) in groups {
            let vals = self.ctx.results(op)[k..k + c as usize].to_vec();
            k += c as usize;
            self.define(n, lo, hi, Def::One(vals[0]), &vals[..1])?;
            if c > 1 {
                return Err(self.error_at(
                    lo,
                    hi,
                    "multi-result groups within a result list are not supported; name the results individually",
                ));
            }
        }
        Ok(())
    }

    fn parse_custom_op(&mut self, results: ResultGroups<'a>, block: BlockId, frame: &mut RegionFrame<'a>) -> PResult<()> {
        let nt = self.bump();
        let written = self.text(nt);
        let default = self.default_dialects.last().copied().unwrap_or("builtin");
        let candidates = [written.to_string(), format!("{default}.{written}")];
        let Some((full, info)) = candidates.iter().find_map(|n| self.ctx.op_info_by_name(n).map(|i| (n.clone(), i.clone()))) else {
            return Err(self.error_at(
                nt.lo,
                nt.hi,
                format!("custom op '{written}' is unknown (use the generic form \"{written}\"(...) for unregistered ops)"),
            ));
        };
        let Some(parse) = info.parse else {
            return Err(self.error_at(nt.lo, nt.hi, format!("op '{full}' has no custom assembly form; use the generic form")));
        };
        if self.custom_nesting >= MAX_CUSTOM_NESTING {
            return Err(self.error_at(
                nt.lo,
                nt.hi,
                format!("custom-form ops nested more than {MAX_CUSTOM_NESTING} deep; use the generic form"),
            ));
        }
        let loc = self.file_loc(nt.lo, nt.hi);
        let mut st = OperationState::new(self.ctx, &full, loc);
        let saved = self.custom_isolated;
        self.custom_isolated = info.traits.contains(Traits::ISOLATED_FROM_ABOVE);
        self.custom_nesting += 1;
        self.default_dialects.push(info.default_dialect.unwrap_or(""));
        let saved_blocks = self.custom_blocks.replace(std::mem::take(&mut frame.blocks));
        let r = parse(self, &mut st);
        frame.blocks = std::mem::replace(&mut self.custom_blocks, saved_blocks).unwrap_or_default();
        self.default_dialects.pop();
        self.custom_nesting -= 1;
        self.custom_isolated = saved;
        r?;
        if self.at_keyword("loc") {
            st.loc = self.parse_loc_paren()?;
        }
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(op, InsertPoint::end(block));
        self.bind_results(op, &results)
    }

    // ----- API for custom parsers ------------------------------------------------------

    /// Parses a value reference `%name` or `%name#i`.
    pub fn parse_operand(&mut self) -> PResult<OperandRef<'a>> {
        let t = self.expect(Tok::PercentId)?;
        let text = self.text(t);
        // `#` ends a value name token: `%x#1` lexes as `%x` then `#1`.
        let (name, index) = (text, 0);
        // `%x#1` lexes as `%x` then `#1`.
        if self.tok.kind == Tok::HashId && self.tok.lo == t.hi {
            let h = self.bump();
            let idx = self.text(h)[1..].parse().map_err(|_| self.error_at(h.lo, h.hi, "invalid result number"))?;
            return Ok(OperandRef { name, index: idx, lo: t.lo, hi: h.hi });
        }
        Ok(OperandRef { name, index, lo: t.lo, hi: t.hi })
    }

    /// Parses `%name: type [loc(...)]` (a region argument in a custom form).
    pub fn parse_argument(&mut self) -> PResult<Argument<'a>> {
        let name = self.parse_operand()?;
        self.expect(Tok::Colon)?;
        let ty = self.parse_type()?;
        let loc = if self.at_keyword("loc") { Some(self.parse_loc_paren()?) } else { None };
        Ok(Argument { name, ty, loc })
    }

    /// Parses `{ ... }` into a new region whose entry block has `args`.
    pub fn parse_region(&mut self, args: &[Argument<'a>]) -> PResult<RegionId> {
        self.expect(Tok::LBrace)?;
        let r = self.ctx.create_region();
        self.parse_region_body(r, false, args)?;
        Ok(r)
    }

    /// Parses a successor `^name` of the block being parsed.
    pub fn parse_successor(&mut self) -> PResult<BlockId> {
        let t = self.expect(Tok::CaretId)?;
        let name = self.text(t);
        let Some(blocks) = self.custom_blocks.as_mut() else {
            return Err(self.error_at(t.lo, t.hi, "successors are only allowed in ops inside a region"));
        };
        if let Some(&(b, _, _, _)) = blocks.get(name) {
            return Ok(b);
        }
        let b = self.ctx.create_block(&[]);
        blocks.insert(name, (b, false, t.lo, t.hi));
        Ok(b)
    }

    /// The text of the next token if it is a bare identifier.
    pub fn peek_keyword(&self) -> Option<&'a str> {
        (self.tok.kind == Tok::BareId).then(|| self.text(self.tok))
    }

    /// Parses `<...>` with balanced brackets and returns its text, brackets included.
    pub fn parse_angle_body(&mut self) -> PResult<String> {
        let open = self.expect(Tok::Less)?;
        let mut depth = 1usize;
        let mut hi = open.hi;
        while depth > 0 {
            let t = self.bump();
            match t.kind {
                Tok::Less => depth += 1,
                Tok::Greater => depth -= 1,
                Tok::Eof | Tok::Error => return Err(self.error_at(open.lo, t.hi, "unbalanced '<' in attribute body")),
                _ => {}
            }
            hi = t.hi;
        }
        Ok(self.src[open.lo as usize..hi as usize].to_string())
    }

    /// Parses `@name` and returns the name.
    pub fn parse_symbol_name(&mut self) -> PResult<String> {
        let t = self.expect(Tok::AtId)?;
        let text = &self.text(t)[1..];
        if let Some(body) = text.strip_prefix('"') {
            lexer::unescape(&body[..body.len() - 1]).map_err(|_| self.error_at(t.lo, t.hi, "invalid escape"))
        } else {
            Ok(text.to_string())
        }
    }

    /// Parses an optional attribute dictionary into `attrs`.
    pub fn parse_optional_attr_dict(&mut self, attrs: &mut Vec<NamedAttr>) -> PResult<()> {
        if self.at(Tok::LBrace) {
            let a = self.parse_attr()?;
            if let AttrKind::Dict(e) = self.ctx.attr_kind(a) {
                attrs.extend(e.iter().copied());
            }
        }
        Ok(())
    }
}

impl std::fmt::Debug for Parser<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Parser at {}", self.tok.lo)
    }
}

fn int_fits(v: i128, width: u32) -> bool {
    if width >= 127 {
        return true;
    }
    v >= -(1i128 << (width - 1)) && v < (1i128 << width)
}
