//! Line-by-line reading with line numbers, and token parsing.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::error::{ReadError, ReadErrorKind};

/// Lines of a file as bytes (no UTF-8 requirement), `\n` or `\r\n` terminated.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
    path: PathBuf,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R, path: &Path) -> Self {
        Lines {
            reader,
            buf: Vec::with_capacity(256),
            line: 0,
            path: path.to_path_buf(),
        }
    }

    /// The next line and its number, without its terminator; `None` at the end of the file.
    pub fn next_line(&mut self) -> Result<Option<(u64, &[u8])>, ReadError> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| ReadError::at(&self.path, self.line + 1, ReadErrorKind::Io(e)))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        Ok(Some((self.line, &self.buf)))
    }

    /// The number of the line last returned.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// An error at a line of a file.
pub(crate) fn err_at(path: &Path, line: u64, kind: ReadErrorKind) -> ReadError {
    ReadError::at(path, line, kind)
}

/// Whitespace-separated tokens.
pub(crate) fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
}

/// A token as text, for messages.
pub(crate) fn show(tok: &[u8]) -> String {
    String::from_utf8_lossy(tok).into_owned()
}

/// Parses an unsigned decimal integer.
pub(crate) fn parse_u64(tok: &[u8]) -> Option<u64> {
    let tok = tok.strip_prefix(b"+").unwrap_or(tok);
    if tok.is_empty() || tok.len() > 20 {
        return None;
    }
    let mut v: u64 = 0;
    for &b in tok {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add((b - b'0') as u64)?;
    }
    Some(v)
}

/// Parses a signed decimal integer.
pub(crate) fn parse_i64(tok: &[u8]) -> Option<i64> {
    match tok.strip_prefix(b"-") {
        Some(rest) => {
            let v = parse_u64(rest)?;
            if v == 1 << 63 {
                Some(i64::MIN)
            } else {
                i64::try_from(v).ok().map(|v| -v)
            }
        }
        None => parse_u64(tok).and_then(|v| i64::try_from(v).ok()),
    }
}

/// Parses a real number (`inf`, `-inf` accepted; NaN is returned and rejected by callers).
pub(crate) fn parse_f64(tok: &[u8]) -> Option<f64> {
    std::str::from_utf8(tok).ok()?.parse::<f64>().ok()
}

/// Accumulates weights: integers while every weight is one, reals from the first that is not.
#[derive(Default)]
pub(crate) struct WeightAcc {
    ints: Vec<i64>,
    reals: Option<Vec<f64>>,
    /// The first infinite weight and its line.
    pub(crate) first_nonfinite: Option<(u64, f64)>,
}

impl WeightAcc {
    /// Adds a weight token from line `line`; `Err` with the reason if it is not a number or is
    /// NaN.
    pub(crate) fn push(&mut self, tok: &[u8], line: u64) -> Result<(), ReadErrorKind> {
        if self.reals.is_none()
            && let Some(v) = parse_i64(tok)
        {
            self.ints.push(v);
            return Ok(());
        }
        let v = parse_f64(tok).ok_or_else(|| ReadErrorKind::BadWeight {
            value: show(tok),
            reason: "not a number".into(),
        })?;
        if v.is_nan() {
            return Err(ReadErrorKind::BadWeight {
                value: show(tok),
                reason: "NaN is not a weight".into(),
            });
        }
        if !v.is_finite() && self.first_nonfinite.is_none() {
            self.first_nonfinite = Some((line, v));
        }
        let reals = self
            .reals
            .get_or_insert_with(|| self.ints.drain(..).map(|x| x as f64).collect());
        reals.push(v);
        Ok(())
    }

    pub(crate) fn finish(self, any: bool) -> crate::edgelist::Weights {
        use crate::edgelist::Weights;
        match (any, self.reals) {
            (false, _) => Weights::None,
            (true, Some(r)) => Weights::Real(r),
            (true, None) => Weights::Int(self.ints),
        }
    }
}

/// Checks a vertex count fits 32-bit ids.
pub(crate) fn check_vertices(path: &Path, line: u64, n: u64) -> Result<usize, ReadError> {
    if n > u32::MAX as u64 {
        return Err(err_at(
            path,
            line,
            ReadErrorKind::Overflow(format!("{n} vertices do not fit 32-bit vertex ids")),
        ));
    }
    usize::try_from(n)
        .map_err(|_| err_at(path, line, ReadErrorKind::Overflow(format!("{n} vertices"))))
}
