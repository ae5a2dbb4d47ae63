//! Source files and spans. Every token the frontend sees points at bytes of a file here:
//! the files read from disk, the built-in headers, the command line (`-D`), and one
//! scratch file per preprocessor run holding text that macros make (`#x`, `a ## b`).

use crate::append::AppendVec;
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
    /// Shared with the file's [`FileInfo`]s; only the [`SourceMap`] adds to it (a scratch
    /// file grows a line at a time).
    line_starts: Arc<AppendVec<u32>>,
}

impl SourceFile {
    fn new(name: String, path: Option<&Path>, text: Arc<str>, kind: FileKind) -> SourceFile {
        let mut line_starts = vec![0u32];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        let line_starts = Arc::new(line_starts.into_iter().collect());
        SourceFile { name, path: path.map(Path::to_path_buf), text, kind, line_starts }
    }
    /// Byte offsets of the starts of lines.
    pub fn line_starts(&self) -> Vec<u32> {
        self.line_starts.iter().copied().collect()
    }
    /// 1-based line and column of byte `pos`.
    pub fn line_col(&self, pos: u32) -> (u32, u32) {
        line_col(&self.line_starts, pos)
    }
    /// The byte offset where 1-based `line` starts, if the file has it.
    pub fn line_start(&self, line: u32) -> Option<u32> {
        self.line_starts.get(line.checked_sub(1)? as usize).copied()
    }
    /// What sema needs of the file.
    pub fn info(&self) -> FileInfo {
        FileInfo { name: self.name.clone(), kind: self.kind, line_starts: self.line_starts.clone() }
    }
}

/// 1-based line and column of byte `pos`, given the offsets of the starts of lines. Lines
/// added later start after `pos`, so the answer does not depend on how many there are yet.
fn line_col(line_starts: &AppendVec<u32>, pos: u32) -> (u32, u32) {
    // The number of line starts at or before `pos` (the first is 0).
    let (mut lo, mut hi) = (0, line_starts.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if line_starts[mid] <= pos {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let line = lo.max(1);
    let col = pos - line_starts[line - 1] + 1;
    (line as u32, col)
}

/// What sema needs of a file: its name, kind and lines, copied out of the [`SourceMap`] so
/// that sema can run on another thread while the preprocessor adds files.
#[derive(Clone, Debug)]
pub struct FileInfo {
    pub name: String,
    pub kind: FileKind,
    pub line_starts: Arc<AppendVec<u32>>,
}

impl FileInfo {
    /// 1-based line and column of byte `pos`.
    pub fn line_col(&self, pos: u32) -> (u32, u32) {
        line_col(&self.line_starts, pos)
    }
}

/// All files of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

/// A copy has line tables of its own (a scratch file's grows apart from the original's).
impl Clone for SourceMap {
    fn clone(&self) -> Self {
        let files = self
            .files
            .iter()
            .map(|f| SourceFile {
                name: f.name.clone(),
                path: f.path.clone(),
                text: f.text.clone(),
                kind: f.kind,
                line_starts: Arc::new((*f.line_starts).clone()),
            })
            .collect();
        SourceMap { files }
    }
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, path: Option<&Path>, text: impl Into<Arc<str>>, kind: FileKind) -> FileId {
        self.files.push(SourceFile::new(name.into(), path, text.into(), kind));
        FileId(self.files.len() as u32 - 1)
    }
    /// Puts another file in `f`'s place (the main file of a resumed preamble).
    pub fn replace(&mut self, f: FileId, name: impl Into<String>, path: Option<&Path>, text: impl Into<Arc<str>>, kind: FileKind) {
        self.files[f.0 as usize] = SourceFile::new(name.into(), path, text.into(), kind);
    }
    /// [`FileInfo`]s of the files from number `from` on.
    pub fn infos_from(&self, from: usize) -> Vec<FileInfo> {
        self.files.get(from..).unwrap_or_default().iter().map(SourceFile::info).collect()
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
        // SAFETY: only the source map pushes to a file's line starts (its `FileInfo`s read
        // them), and `&mut self` makes its pushes one at a time.
        unsafe { self.files[f.0 as usize].line_starts.push(buf.len() as u32) };
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
