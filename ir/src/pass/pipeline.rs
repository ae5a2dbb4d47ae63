//! Textual pipelines (`builtin.module(func.func(canonicalize{max-iterations=3},cse))`) and
//! the registry of passes they can name.
//!
//! Grammar:
//! ```text
//! pipeline := element (',' element)*
//! element  := op-name '(' pipeline? ')'          a nested pipeline
//!           | pass-name ('{' option* '}')?       a pass with options
//! option   := key ('=' value)?                   separated by spaces
//! ```
//! A pipeline whose top element is not a nested pipeline anchors on the root op.

use super::{OpPassManager, Pass};

/// Builds a pass from its options (`key=value` pairs).
pub type PassCtor = fn(&[(String, String)]) -> Result<Box<dyn Pass>, String>;

/// Passes that pipelines can name.
#[derive(Clone, Default)]
pub struct PassRegistry {
    entries: Vec<(&'static str, &'static str, PassCtor)>,
}

impl PassRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }
    /// Registers pass `name` with a one-line description.
    pub fn register(&mut self, name: &'static str, description: &'static str, ctor: PassCtor) {
        self.entries.retain(|e| e.0 != name);
        self.entries.push((name, description, ctor));
    }
    /// `(name, description)` of every pass, sorted by name.
    pub fn list(&self) -> Vec<(&'static str, &'static str)> {
        let mut v: Vec<_> = self.entries.iter().map(|e| (e.0, e.1)).collect();
        v.sort();
        v
    }
    /// Builds pass `name`.
    pub fn create(&self, name: &str, options: &[(String, String)]) -> Result<Box<dyn Pass>, String> {
        match self.entries.iter().find(|e| e.0 == name) {
            Some(e) => (e.2)(options),
            None => Err(format!("'{name}' does not refer to a registered pass or pass pipeline")),
        }
    }
}

/// A pipeline syntax error with the byte offset in the pipeline text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineError {
    pub offset: usize,
    pub message: String,
}

/// Parses `text` into a pipeline anchored on `root_name`.
pub fn parse_pipeline(text: &str, root_name: &str, reg: &PassRegistry) -> Result<OpPassManager, PipelineError> {
    let mut p = P { s: text.as_bytes(), text, pos: 0, reg };
    let mut items = p.elements()?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(p.err(format!("unexpected '{}' in pass pipeline", &text[p.pos..p.pos + 1])));
    }
    // `builtin.module(...)` at the top anchors the whole pipeline on the root.
    if items.len() == 1 {
        if let super::PipelineItem::Nested(pm) = &items[0] {
            if pm.anchor == root_name || pm.anchor == "any" {
                let Some(super::PipelineItem::Nested(pm)) = items.pop() else { unreachable!() };
                return Ok(pm);
            }
        }
    }
    let mut pm = OpPassManager::new(root_name);
    pm.items = items;
    Ok(pm)
}

struct P<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    reg: &'a PassRegistry,
}

impl P<'_> {
    fn err(&self, message: String) -> PipelineError {
        PipelineError { offset: self.pos, message }
    }
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn ident(&mut self) -> Result<String, PipelineError> {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len() && (self.s[self.pos].is_ascii_alphanumeric() || matches!(self.s[self.pos], b'_' | b'-' | b'.' | b'$'))
        {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.err("expected a pass or op name".into()));
        }
        Ok(self.text[start..self.pos].to_string())
    }
    fn elements(&mut self) -> Result<Vec<super::PipelineItem>, PipelineError> {
        let mut items = Vec::new();
        self.ws();
        if self.pos >= self.s.len() || self.s[self.pos] == b')' {
            return Ok(items);
        }
        loop {
            let start = self.pos;
            let name = self.ident()?;
            self.ws();
            if self.pos < self.s.len() && self.s[self.pos] == b'(' {
                self.pos += 1;
                let inner = self.elements()?;
                self.ws();
                if self.pos >= self.s.len() || self.s[self.pos] != b')' {
                    return Err(self.err(format!("expected ')' to close the '{name}' pipeline")));
                }
                self.pos += 1;
                items.push(super::PipelineItem::Nested(OpPassManager { anchor: name, items: inner }));
            } else {
                let mut opts = Vec::new();
                if self.pos < self.s.len() && self.s[self.pos] == b'{' {
                    self.pos += 1;
                    loop {
                        self.ws();
                        if self.pos >= self.s.len() {
                            return Err(self.err("expected '}' to close the pass options".into()));
                        }
                        if self.s[self.pos] == b'}' {
                            self.pos += 1;
                            break;
                        }
                        let k = self.ident()?;
                        let mut v = String::from("true");
                        if self.pos < self.s.len() && self.s[self.pos] == b'=' {
                            self.pos += 1;
                            let vs = self.pos;
                            while self.pos < self.s.len() && !self.s[self.pos].is_ascii_whitespace() && self.s[self.pos] != b'}' {
                                self.pos += 1;
                            }
                            v = self.text[vs..self.pos].to_string();
                        }
                        opts.push((k, v));
                    }
                }
                let pass = self.reg.create(&name, &opts).map_err(|m| PipelineError { offset: start, message: m })?;
                items.push(super::PipelineItem::Pass(pass));
            }
            self.ws();
            if self.pos < self.s.len() && self.s[self.pos] == b',' {
                self.pos += 1;
                continue;
            }
            return Ok(items);
        }
    }
}
