//! Diagnostics of the TableGen reader: a message with a span in one of the loaded `.td`
//! files, rendered with ariadne.

use std::fmt;
use std::path::PathBuf;

/// Index of a loaded source file in [`Sources`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: usize, hi: usize) -> Self {
        Span { file, lo: lo as u32, hi: hi as u32 }
    }
}

/// The `.td` files read so far (for rendering diagnostics).
#[derive(Default, Debug)]
pub struct Sources {
    pub files: Vec<(PathBuf, String)>,
}

impl Sources {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        self.files.push((path, text));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn text(&self, f: FileId) -> &str {
        &self.files[f.0 as usize].1
    }
    pub fn path(&self, f: FileId) -> &std::path::Path {
        &self.files[f.0 as usize].0
    }
    /// `file:line:col` of a span's start.
    pub fn position(&self, s: Span) -> String {
        let text = self.text(s.file);
        let lo = (s.lo as usize).min(text.len());
        let line = text[..lo].matches('\n').count() + 1;
        let col = lo - text[..lo].rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("{}:{line}:{col}", self.path(s.file).display())
    }
}

/// An error in a `.td` file: the primary span and message, plus secondary notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
    pub notes: Vec<(Span, String)>,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { span, message: message.into(), notes: Vec::new() }
    }
    pub fn with_note(mut self, span: Span, message: impl Into<String>) -> Self {
        self.notes.push((span, message.into()));
        self
    }

    /// Renders the diagnostic with ariadne (no colors), with the source lines it points at.
    pub fn render(&self, sources: &Sources) -> String {
        use ariadne::{Config, IndexType, Label, Report, ReportKind};
        let name = |f: FileId| sources.path(f).display().to_string();
        // Spans are byte ranges; ariadne needs them on character boundaries.
        let range = |s: Span| {
            let text = sources.text(s.file);
            let mut lo = (s.lo as usize).min(text.len());
            while !text.is_char_boundary(lo) {
                lo -= 1;
            }
            let mut hi = (s.hi as usize).clamp(lo, text.len());
            while !text.is_char_boundary(hi) {
                hi += 1;
            }
            (name(s.file), lo..hi)
        };
        // Notes in other files get reports of their own: ariadne 0.6 mislocates labels in a
        // file other than the report's when that file has multi-byte characters.
        let config = || Config::default().with_color(false).with_index_type(IndexType::Byte);
        let mut report = Report::build(ReportKind::Error, range(self.span))
            .with_config(config())
            .with_message(&self.message)
            .with_label(Label::new(range(self.span)).with_message(&self.message));
        let mut elsewhere = Vec::new();
        for (s, m) in &self.notes {
            if s.file == self.span.file {
                report = report.with_label(Label::new(range(*s)).with_message(m));
            } else {
                elsewhere.push((*s, m));
            }
        }
        let cache = || ariadne::sources(sources.files.iter().map(|(p, t)| (p.display().to_string(), t.clone())));
        let mut out = Vec::new();
        let _ = report.finish().write(cache(), &mut out);
        for (s, m) in elsewhere {
            let r = Report::build(ReportKind::Advice, range(s))
                .with_config(config())
                .with_message(m)
                .with_label(Label::new(range(s)).with_message(m));
            let _ = r.finish().write(cache(), &mut out);
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
