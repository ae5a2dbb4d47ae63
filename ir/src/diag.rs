//! Diagnostics: errors, warnings and remarks as values, rendered with ariadne.
//!
//! A [`Diagnostic`] points at a [`Span`] (a file and a byte range) when it has one. Spans
//! come from the parser (every token has one) or from an op's [`crate::Location`] when that
//! location carries a byte range, or a line/column that a [`SourceMap`] can turn into bytes.

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use std::fmt;

/// How serious a diagnostic is.
#[derive(Copy, Clone, PartialEq, Eq, Debug, PartialOrd, Ord)]
pub enum Severity {
    Remark,
    Warning,
    Error,
}

/// A byte range in a named file.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Span {
    pub file: String,
    pub lo: u32,
    pub hi: u32,
}

/// One message, optionally with a primary span and secondary notes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    /// Label shown at the primary span (defaults to the message).
    pub label: Option<String>,
    pub notes: Vec<(String, Option<Span>)>,
}

impl Diagnostic {
    /// An error.
    pub fn error(message: impl Into<String>, span: Option<Span>) -> Self {
        Self { severity: Severity::Error, message: message.into(), span, label: None, notes: Vec::new() }
    }
    /// A warning.
    pub fn warning(message: impl Into<String>, span: Option<Span>) -> Self {
        Self { severity: Severity::Warning, ..Self::error(message, span) }
    }
    /// A remark (e.g. "a rewrite driver stopped on its budget").
    pub fn remark(message: impl Into<String>, span: Option<Span>) -> Self {
        Self { severity: Severity::Remark, ..Self::error(message, span) }
    }
    /// Adds a note, optionally pointing somewhere.
    pub fn with_note(mut self, note: impl Into<String>, span: Option<Span>) -> Self {
        self.notes.push((note.into(), span));
        self
    }
    /// Sets the label at the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
        };
        match &self.span {
            Some(s) => write!(f, "{}:{}: {kind}: {}", s.file, s.lo, self.message),
            None => write!(f, "{kind}: {}", self.message),
        }
    }
}

/// The texts of the files diagnostics may point into.
#[derive(Default, Clone, Debug)]
pub struct SourceMap {
    files: Vec<(String, String)>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds (or replaces) a file.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) {
        let name = name.into();
        let text = text.into();
        if let Some(f) = self.files.iter_mut().find(|f| f.0 == name) {
            f.1 = text;
        } else {
            self.files.push((name, text));
        }
    }
    /// The text of `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.files.iter().find(|f| f.0 == name).map(|f| f.1.as_str())
    }
    /// Byte offset of 1-based `line:col` in `name` (columns count bytes, as MLIR's do).
    pub fn offset(&self, name: &str, line: u32, col: u32) -> Option<u32> {
        let text = self.text(name)?;
        let mut start = 0usize;
        for _ in 1..line.max(1) {
            start += text[start..].find('\n')? + 1;
        }
        let off = start + col.max(1) as usize - 1;
        (off <= text.len()).then_some(off as u32)
    }
}

/// Renders diagnostics with ariadne (no colors) into a string.
pub fn render(diags: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = Vec::new();
    for d in diags {
        render_one(d, sources, &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn clamp(span: &Span, text: &str) -> std::ops::Range<usize> {
    let len = text.len();
    let lo = (span.lo as usize).min(len);
    let hi = (span.hi as usize).clamp(lo, len);
    lo..hi
}

fn render_one(d: &Diagnostic, sources: &SourceMap, out: &mut Vec<u8>) {
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
        Severity::Remark => ReportKind::Advice,
    };
    let primary = d.span.as_ref().and_then(|s| sources.text(&s.file).map(|t| (s, t)));
    let Some((span, text)) = primary else {
        out.extend_from_slice(format!("{d}\n").as_bytes());
        for (n, _) in &d.notes {
            out.extend_from_slice(format!("  note: {n}\n").as_bytes());
        }
        return;
    };
    let file = span.file.clone();
    let range = clamp(span, text);
    let mut report = Report::build(kind, (file.clone(), range.clone()))
        .with_config(Config::default().with_color(false).with_index_type(IndexType::Byte))
        .with_message(&d.message)
        .with_label(
            Label::new((file.clone(), range)).with_message(d.label.clone().unwrap_or_else(|| d.message.clone())).with_color(Color::Red),
        );
    let mut extra = Vec::new();
    for (note, nspan) in &d.notes {
        match nspan {
            Some(ns) if ns.file == file => {
                report = report.with_label(Label::new((file.clone(), clamp(ns, text))).with_message(note));
            }
            _ => extra.push(note.clone()),
        }
    }
    for n in extra {
        report = report.with_note(n);
    }
    let cache = (file, Source::from(text));
    let _ = report.finish().write(cache, &mut *out);
}
