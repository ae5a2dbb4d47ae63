//! Frontend diagnostics: errors, warnings and notes with byte spans, rendered with
//! ariadne (or as JSON for tools). A note can point somewhere else: "in expansion of macro
//! X" points at the macro's invocation.

use crate::source::{SourceMap, Span};
use std::fmt::Write;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// An error or warning in host code, which cuprite reads but does not compile: it never
    /// stops compilation and is shown (as a warning) only under `-Whost-code`.
    Host,
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Host => "host-code",
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A note attached to a diagnostic, with its own span or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub span: Option<Span>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    pub notes: Vec<Note>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, message: message.into(), span: Some(span), notes: Vec::new() }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, message: message.into(), span: Some(span), notes: Vec::new() }
    }
    pub fn note(mut self, span: Option<Span>, message: impl Into<String>) -> Self {
        self.notes.push(Note { span, message: message.into() });
        self
    }

    /// Renders with ariadne (no colors): the primary label, then each spanned note as a
    /// label of its own, spanless notes at the end.
    pub fn render(&self, sm: &SourceMap) -> String {
        use ariadne::{Config, IndexType, Label, Report, ReportKind};
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
            Severity::Note => ReportKind::Advice,
            Severity::Host => ReportKind::Warning,
        };
        let range = |s: Span| {
            let f = sm.file(s.file);
            let text = &f.text;
            let mut lo = (s.lo as usize).min(text.len());
            while !text.is_char_boundary(lo) {
                lo -= 1;
            }
            let mut hi = (s.hi as usize).clamp(lo, text.len());
            while !text.is_char_boundary(hi) {
                hi += 1;
            }
            (f.name.clone(), lo..hi)
        };
        let Some(primary) = self.span else {
            let mut s = format!("{}: {}\n", self.severity.as_str(), self.message);
            for n in &self.notes {
                let _ = writeln!(s, "  note: {}", n.message);
            }
            return s;
        };
        // Notes in other files get reports of their own: ariadne 0.6 mislocates labels in a
        // file other than the report's when that file has multi-byte characters.
        let mut report = Report::build(kind, range(primary))
            .with_config(Config::default().with_color(false).with_index_type(IndexType::Byte))
            .with_message(&self.message)
            .with_label(Label::new(range(primary)).with_message(&self.message).with_order(0));
        let mut elsewhere = Vec::new();
        for (i, n) in self.notes.iter().enumerate() {
            match n.span {
                Some(s) if s.file == primary.file => {
                    report = report.with_label(Label::new(range(s)).with_message(format!("note: {}", n.message)).with_order(i as i32 + 1))
                }
                Some(s) => elsewhere.push((s, &n.message)),
                None => report = report.with_note(&n.message),
            }
        }
        let cache = || ariadne::sources(sm.files.iter().map(|f| (f.name.clone(), f.text.to_string())));
        let mut out = Vec::new();
        let _ = report.finish().write(cache(), &mut out);
        for (s, m) in elsewhere {
            let r = Report::build(ReportKind::Advice, range(s))
                .with_config(Config::default().with_color(false).with_index_type(IndexType::Byte))
                .with_message(m)
                .with_label(Label::new(range(s)).with_message(m));
            let _ = r.finish().write(cache(), &mut out);
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// One JSON object (for `--diagnostics-format=json`): severity, message, file, line,
    /// column, byte offsets, and the notes likewise.
    pub fn to_json(&self, sm: &SourceMap) -> String {
        let mut s = String::from("{");
        let _ = write!(s, "\"severity\":\"{}\",\"message\":{}", self.severity.as_str(), json_str(&self.message));
        if let Some(sp) = self.span {
            s.push(',');
            span_json(&mut s, sm, sp);
        }
        s.push_str(",\"notes\":[");
        for (i, n) in self.notes.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{{\"message\":{}", json_str(&n.message));
            if let Some(sp) = n.span {
                s.push(',');
                span_json(&mut s, sm, sp);
            }
            s.push('}');
        }
        s.push_str("]}");
        s
    }
}

fn span_json(s: &mut String, sm: &SourceMap, sp: Span) {
    let f = sm.file(sp.file);
    let (line, col) = f.line_col(sp.lo);
    let _ = write!(s, "\"file\":{},\"line\":{line},\"column\":{col},\"offset\":{},\"end\":{}", json_str(&f.name), sp.lo, sp.hi);
}

/// A JSON string literal.
pub fn json_str(t: &str) -> String {
    let mut s = String::with_capacity(t.len() + 2);
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
