//! Source files and spans. Every token the frontend sees points at bytes of a file here:
//! the files read from disk, the built-in headers, the command line (`-D`), and one
//! scratch file per preprocessor run holding text that macros make (`#x`, `a ## b`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Index of a file in the [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A byte range in one file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: usize, hi: usize) -> Self {
        Span { file, lo: lo as u32, hi: hi as u32 }
    }
    /// The span from `self`'s start to `other`'s end (same file), or `self`.
    pub fn to(self, other: Span) -> Span {
        if other.file == self.file && other.hi >= self.lo {
            Span { hi: other.hi, ..self }
        } else {
            self
        }
    }
}

/// What kind of file a [`SourceFile`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Read from disk.
    User,
    /// One of cuprite's built-in headers (`<cuda_runtime.h>`, ...).
    Builtin,
    /// Command-line definitions and predefined macros.
    CommandLine,
    /// Text made by the preprocessor (stringified arguments, pasted tokens).
    Scratch,
}

#[derive(Debug)]
pub struct SourceFile {
    /// Shown in diagnostics.
    pub name: String,
    /// The path it was read from (for `#include "..."` relative lookups).
    pub path: Option<PathBuf>,
    pub text: Arc<str>,
    pub kind: FileKind,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// Byte offsets of the starts of lines.
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }
    /// 1-based line and column of byte `pos`.
    pub fn line_col(&self, pos: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= pos).max(1);
        let col = pos - self.line_starts[line - 1] + 1;
        (line as u32, col)
    }
}

/// All files of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, path: Option<&Path>, text: impl Into<Arc<str>>, kind: FileKind) -> FileId {
        let text: Arc<str> = text.into();
        let mut line_starts = vec![0u32];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        self.files.push(SourceFile { name: name.into(), path: path.map(Path::to_path_buf), text, kind, line_starts });
        FileId(self.files.len() as u32 - 1)
    }
    pub fn file(&self, f: FileId) -> &SourceFile {
        &self.files[f.0 as usize]
    }
    pub fn text(&self, s: Span) -> &str {
        let t = &self.file(s.file).text;
        t.get(s.lo as usize..s.hi as usize).unwrap_or("")
    }
    /// Appends `text` as a line of scratch text and returns its span in scratch file `f`.
    /// The file's text is brought up to date by [`SourceMap::flush_scratch`] (appending to
    /// a buffer keeps this O(1) amortized).
    pub fn append_scratch(&mut self, f: FileId, buf: &mut String, text: &str) -> Span {
        let lo = buf.len();
        buf.push_str(text);
        buf.push('\n');
        self.files[f.0 as usize].line_starts.push(buf.len() as u32);
        Span::new(f, lo, lo + text.len())
    }
    /// Makes scratch file `f`'s text `buf` (before diagnostics are rendered).
    pub fn flush_scratch(&mut self, f: FileId, buf: &str) {
        self.files[f.0 as usize].text = buf.into();
    }
    /// `file:line:col` of a span's start.
    pub fn position(&self, s: Span) -> String {
        let f = self.file(s.file);
        let (l, c) = f.line_col(s.lo);
        format!("{}:{l}:{c}", f.name)
    }
}
