//! The corpus manifest: one matrix per line, `name | structure | set | source`, where `set` is
//! `fit` (the selector may be fitted on it) or `holdout` (kept out of fitting, to judge the
//! selector on matrices it never saw), and `source` is `generate KIND ARGS...` (the arguments
//! of `semigraph generate`) or `file PATH [--undirected]`. `#` starts a comment.
//!
//! A relative `PATH` is looked up beside the manifest, then in the repository's `data/`
//! folder (or `$SEMIGRAPH_DATA` for paths under `data/`), then in `$SEMIGRAPH_SHARED_DATA`; a
//! file found nowhere is skipped with a note, so a corpus naming larger optional graphs still
//! runs on a fresh clone.

use std::path::{Path, PathBuf};

use clap::Parser;
use semigraph_formats::EdgeList;

use crate::args::Common;
use crate::args::{GenArgs, GenKind, GenLine};
use crate::error::{CliError, Res};
use crate::files::{generated, load};

/// Whether the selector may be fitted on a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Set {
    /// Fitting data.
    Fit,
    /// Kept out of fitting.
    Holdout,
}

impl Set {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Set::Fit => "fit",
            Set::Holdout => "holdout",
        }
    }
    pub(crate) fn parse(s: &str) -> Option<Set> {
        match s {
            "fit" => Some(Set::Fit),
            "holdout" => Some(Set::Holdout),
            _ => None,
        }
    }
}

/// How a matrix is made.
pub(crate) enum Source {
    /// By a generator.
    Generate(GenKind, Box<GenArgs>),
    /// From a graph file.
    File { path: PathBuf, undirected: bool },
}

/// One matrix of the corpus.
pub(crate) struct Entry {
    pub name: String,
    pub structure: String,
    pub set: Set,
    pub source: Source,
    /// The manifest line, for messages.
    pub line: usize,
    /// The manifest's folder (relative paths start there).
    pub dir: PathBuf,
}

/// Reads a manifest; errors name the file and line.
pub(crate) fn read(path: &Path) -> Res<Vec<Entry>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut out: Vec<Entry> = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let at = |msg: String| CliError(format!("{}:{line}: {msg}", path.display()));
        let f: Vec<&str> = body.split('|').map(str::trim).collect();
        let [name, structure, set, source] = f.as_slice() else {
            return Err(at(format!(
                "expected `name | structure | set | source`, found {} fields",
                f.len()
            )));
        };
        if name.is_empty() || name.contains(',') || name.contains(char::is_whitespace) {
            return Err(at(format!("name {name:?}: one word without commas")));
        }
        if out.iter().any(|e| e.name == *name) {
            return Err(at(format!("name {name} used twice")));
        }
        let set = Set::parse(set).ok_or_else(|| at(format!("set {set:?}: fit or holdout")))?;
        let words: Vec<&str> = source.split_whitespace().collect();
        let source = match words.split_first() {
            Some((&"generate", rest)) => {
                let g = GenLine::try_parse_from(rest)
                    .map_err(|e| at(format!("generate {}: {}", rest.join(" "), e.kind())))?;
                Source::Generate(g.kind, Box::new(g.args))
            }
            Some((&"file", [p])) => Source::File {
                path: PathBuf::from(p),
                undirected: false,
            },
            Some((&"file", [p, "--undirected"])) => Source::File {
                path: PathBuf::from(p),
                undirected: true,
            },
            _ => {
                return Err(at(format!(
                    "source {source:?}: `generate KIND ARGS...` or `file PATH [--undirected]`"
                )));
            }
        };
        out.push(Entry {
            name: name.to_string(),
            structure: structure.to_string(),
            set,
            source,
            line,
            dir: dir.clone(),
        });
    }
    Ok(out)
}

impl Entry {
    /// Builds the matrix.
    pub(crate) fn build(&self, c: &Common) -> Res<EdgeList> {
        match &self.source {
            Source::Generate(kind, args) => generated(*kind, args),
            Source::File { path, undirected } => {
                let found = self.find(path).ok_or_else(|| {
                    CliError(format!(
                        "line {}: {} not found (beside the manifest, in data/, $SEMIGRAPH_DATA \
                         or $SEMIGRAPH_SHARED_DATA)",
                        self.line,
                        path.display()
                    ))
                })?;
                load(
                    &found,
                    &Common {
                        undirected: *undirected,
                        quiet: true,
                        ..c.clone()
                    },
                )
            }
        }
    }

    fn find(&self, path: &Path) -> Option<PathBuf> {
        if path.is_absolute() {
            return path.exists().then(|| path.to_path_buf());
        }
        let env = |v: &str| std::env::var_os(v).map(PathBuf::from);
        let under_data = path.strip_prefix("data").ok();
        let mut tries = vec![self.dir.join(path), PathBuf::from(path)];
        if let (Some(d), Some(rest)) = (env("SEMIGRAPH_DATA"), under_data) {
            tries.push(d.join(rest));
        }
        if let Some(d) = env("SEMIGRAPH_SHARED_DATA") {
            tries.push(d.join(under_data.unwrap_or(path)));
        }
        tries.into_iter().find(|p| p.exists())
    }
}
