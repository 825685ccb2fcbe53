//! Errors.
//!
//! The policy (after sprs): a violated *contract* panics with `#[track_caller]`
//! (a row index out of bounds in `push`, vectors of the wrong length given to a product);
//! everything that depends on data or the environment returns a `Result`: malformed files,
//! sizes that overflow an index type, conversions that would allocate too much.

use std::path::PathBuf;

use crate::format::Format;

/// A matrix could not be built or converted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// A size does not fit the index type.
    #[error("{what} = {value} does not fit the index type {index}")]
    IndexOverflow {
        /// What overflowed ("rows", "stored entries", ...).
        what: &'static str,
        /// The value.
        value: u128,
        /// The index type.
        index: &'static str,
    },
    /// Converting to a padded format would store too many padding entries.
    #[error(
        "{format} would store {stored} values for {nnz} entries (fill {fill:.2}), over the \
         limit {limit:.2} (`max_fill`); choose another format or a higher limit"
    )]
    FillTooLarge {
        /// The target format.
        format: Format,
        /// Values the format would store, padding included.
        stored: u128,
        /// Entries of the matrix.
        nnz: usize,
        /// `stored / nnz`.
        fill: f64,
        /// The limit.
        limit: f64,
    },
    /// Raw parts do not describe a valid matrix.
    #[error("invalid {format} structure: {reason}")]
    InvalidStructure {
        /// The format.
        format: Format,
        /// What is wrong.
        reason: String,
    },
    /// Building it would need more memory than the machine has.
    #[error(
        "{what} would need {} of memory, {} are available; refused before allocating",
        fmt_bytes(*needed),
        fmt_bytes(*available)
    )]
    TooLarge {
        /// What would be built.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
    /// A value does not fit the value type.
    #[error("entry ({row}, {col}): value {value} cannot be represented as {ty}")]
    BadValue {
        /// Row of the entry (0-based).
        row: usize,
        /// Column of the entry (0-based).
        col: usize,
        /// The value as read.
        value: String,
        /// The target type.
        ty: &'static str,
    },
}

/// A graph file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line, where one is to blame.
    pub line: Option<u64>,
    /// What went wrong.
    pub kind: ReadErrorKind,
}

/// What went wrong while reading a graph file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The operating system failed to read (or decompress) the file.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// A header, banner or size line is malformed.
    #[error("bad header: {0}")]
    BadHeader(String),
    /// A data line is malformed.
    #[error("bad line: {0}")]
    BadLine(String),
    /// A vertex id is outside the range the header declares.
    #[error("vertex id {id} out of range {range}")]
    IdOutOfRange {
        /// The id as written.
        id: String,
        /// The allowed range, as text.
        range: String,
    },
    /// The number of entries differs from the header.
    #[error("{what}: the header declares {declared}, the file has {found}")]
    CountMismatch {
        /// What was counted.
        what: &'static str,
        /// Declared count.
        declared: u64,
        /// Found count (a lower bound when the file has more).
        found: u64,
    },
    /// A weight is not a number, is NaN, or does not fit the declared type.
    #[error("bad weight {value:?}: {reason}")]
    BadWeight {
        /// The weight as written.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A size overflows what semigraph can index.
    #[error("size overflows: {0}")]
    Overflow(String),
    /// The same entry appears twice where the format forbids it.
    #[error("duplicate entry ({row}, {col}), first given on line {first_line}")]
    Duplicate {
        /// 1-based row.
        row: u64,
        /// 1-based column.
        col: u64,
        /// Line of the first occurrence.
        first_line: u64,
    },
    /// A valid file that semigraph does not support (complex values, ...).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The file format could not be determined.
    #[error("cannot tell the file format: {0}")]
    UnknownFormat(String),
    /// A line is longer than any graph file needs (a damaged or hostile file).
    #[error("the line is longer than {limit} bytes (no graph format needs lines that long)")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// What the header declares would need more memory than the machine has.
    #[error(
        "{what} would need {} of memory, {} are available; refused before allocating",
        fmt_bytes(*needed),
        fmt_bytes(*available)
    )]
    TooLarge {
        /// What would be allocated.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
}

/// Bytes as `12.3 GiB`.
pub fn fmt_bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

impl ReadError {
    /// An error at a line.
    pub fn at(path: impl Into<PathBuf>, line: u64, kind: ReadErrorKind) -> ReadError {
        ReadError {
            path: path.into(),
            line: Some(line),
            kind,
        }
    }
    /// An error about the whole file.
    pub fn file(path: impl Into<PathBuf>, kind: ReadErrorKind) -> ReadError {
        ReadError {
            path: path.into(),
            line: None,
            kind,
        }
    }
}

/// Refuses a padded format whose `stored` values exceed `limit * nnz`.
/// Refuses a padded format that would store more than `limit` values per entry, or whose
/// `stored` slots of `slot_bytes` bytes the machine cannot hold (before allocating).
pub(crate) fn check_fill(
    format: Format,
    stored: u128,
    nnz: usize,
    limit: f64,
    slot_bytes: usize,
) -> Result<(), FormatError> {
    let fill = if nnz == 0 {
        if stored == 0 { 1.0 } else { f64::INFINITY }
    } else {
        stored as f64 / nnz as f64
    };
    // An empty or all-padding-free matrix is always fine; otherwise compare.
    if stored > nnz as u128 && fill > limit {
        return Err(FormatError::FillTooLarge {
            format,
            stored,
            nnz,
            fill,
            limit,
        });
    }
    let needed = stored
        .saturating_mul(slot_bytes as u128)
        .min(u64::MAX as u128) as u64;
    crate::memory::check(needed).map_err(|(needed, available)| FormatError::TooLarge {
        what: format!("{} storage of {stored} values", format.name()),
        needed,
        available,
    })?;
    Ok(())
}

/// A vector of `n` copies of `v`, or [`FormatError::TooLarge`] naming `what`.
pub(crate) fn filled<T: Clone + Send + Sync>(
    n: usize,
    v: T,
    what: &str,
) -> Result<Vec<T>, FormatError> {
    crate::memory::try_filled(n, v).map_err(|(needed, available)| FormatError::TooLarge {
        what: what.to_string(),
        needed,
        available,
    })
}

/// An empty vector with room for `n` elements of `what` (see [`filled`]).
pub(crate) fn with_capacity<T>(n: usize, what: &str) -> Result<Vec<T>, FormatError> {
    crate::memory::try_with_capacity(n).map_err(|(needed, available)| FormatError::TooLarge {
        what: what.to_string(),
        needed,
        available,
    })
}

/// Refuses, with the bytes needed and available, `needed` bytes of `what`.
pub(crate) fn check(needed: u64, what: impl FnOnce() -> String) -> Result<(), FormatError> {
    crate::memory::check(needed).map_err(|(needed, available)| FormatError::TooLarge {
        what: what(),
        needed,
        available,
    })
}
