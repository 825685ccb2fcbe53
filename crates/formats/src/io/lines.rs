//! Line-by-line reading with line numbers, and token parsing.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::{ReadError, ReadErrorKind};

/// The longest line accepted: no graph format needs longer ones (an adjacency list of a vertex
/// with six million neighbours fits), and a damaged or hostile file (one 3 GiB line) is
/// refused instead of exhausting memory.
pub const MAX_LINE: usize = 64 << 20;

/// Lines of a file as bytes (no UTF-8 requirement), ended by `\n`, `\r\n` or a lone `\r`
/// (old Mac files), each at most [`MAX_LINE`] bytes.
pub struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
    path: PathBuf,
    /// The last line ended with `\r`: a `\n` right after it belongs to that line end.
    after_cr: bool,
    max_line: usize,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(reader: R, path: &Path) -> Self {
        Lines {
            reader,
            buf: Vec::with_capacity(256),
            line: 0,
            path: path.to_path_buf(),
            after_cr: false,
            max_line: MAX_LINE,
        }
    }

    /// The same, with another line-length limit (tests).
    #[doc(hidden)]
    pub fn with_max_line(mut self, max: usize) -> Self {
        self.max_line = max;
        self
    }

    /// The next line and its number, without its terminator; `None` at the end of the file.
    pub fn next_line(&mut self) -> Result<Option<(u64, &[u8])>, ReadError> {
        self.buf.clear();
        let io = |e, line| ReadError::at(&self.path, line, ReadErrorKind::Io(e));
        let mut any = false;
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io(e, self.line + 1)),
            };
            if avail.is_empty() {
                break;
            }
            if self.after_cr {
                self.after_cr = false;
                if avail[0] == b'\n' {
                    self.reader.consume(1);
                    continue;
                }
            }
            any = true;
            match memchr::memchr2(b'\n', b'\r', avail) {
                Some(i) => {
                    let cr = avail[i] == b'\r';
                    self.buf.extend_from_slice(&avail[..i]);
                    self.reader.consume(i + 1);
                    self.after_cr = cr;
                    break;
                }
                None => {
                    let n = avail.len();
                    self.buf.extend_from_slice(avail);
                    self.reader.consume(n);
                }
            }
            if self.buf.len() > self.max_line {
                return Err(ReadError::at(
                    &self.path,
                    self.line + 1,
                    ReadErrorKind::LineTooLong {
                        limit: self.max_line,
                    },
                ));
            }
        }
        if !any {
            return Ok(None);
        }
        if self.buf.len() > self.max_line {
            return Err(ReadError::at(
                &self.path,
                self.line + 1,
                ReadErrorKind::LineTooLong {
                    limit: self.max_line,
                },
            ));
        }
        self.line += 1;
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

    /// The reader, positioned at the start of the next line (after the lines returned so
    /// far), for a reader that goes on with the rest in another way (in parallel).
    pub(crate) fn into_rest(mut self) -> Result<R, ReadError> {
        if self.after_cr {
            // The last line ended with `\r`: a `\n` right after it belongs to that end.
            loop {
                match self.reader.fill_buf() {
                    Ok(a) => {
                        if a.first() == Some(&b'\n') {
                            self.reader.consume(1);
                        }
                        break;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        return Err(ReadError::at(
                            &self.path,
                            self.line + 1,
                            ReadErrorKind::Io(e),
                        ));
                    }
                }
            }
        }
        Ok(self.reader)
    }
}

/// Room for one more element in `v` (read so far: `v.len()`), or an error at `line` saying the
/// machine does not have the memory (instead of aborting in the allocator).
pub(crate) fn room<T>(v: &mut Vec<T>, path: &Path, line: u64) -> Result<(), ReadError> {
    crate::memory::grow(v).map_err(|(needed, available)| {
        err_at(
            path,
            line,
            ReadErrorKind::TooLarge {
                what: format!("growing past {} arcs", v.len()),
                needed,
                available,
            },
        )
    })
}

/// `v` extended by `more`, or an error saying the machine does not have the memory (`what`
/// names the elements).
pub(crate) fn room_extend<T: Copy>(
    v: &mut Vec<T>,
    more: &[T],
    what: &str,
) -> Result<(), ReadErrorKind> {
    v.try_reserve(more.len())
        .map_err(|_| ReadErrorKind::TooLarge {
            what: format!("growing past {} {what}", v.len()),
            needed: ((v.len() + more.len()) * size_of::<T>()) as u64,
            available: crate::memory::usable().unwrap_or(0),
        })?;
    v.extend_from_slice(more);
    Ok(())
}

/// `v` extended by the slices `parts` in order, on every core: the new elements are written
/// (their pages touched) in parallel, then each part copied into its place; or an error
/// saying the machine does not have the memory (`what` names the elements). One core's
/// append of a large file's arcs was most of a text read on 16 cores.
pub(crate) fn append_all<T: Copy + Default + Send + Sync>(
    v: &mut Vec<T>,
    parts: &[&[T]],
    what: &str,
) -> Result<(), ReadErrorKind> {
    let more: usize = parts.iter().map(|p| p.len()).sum();
    v.try_reserve(more).map_err(|_| ReadErrorKind::TooLarge {
        what: format!("growing past {} {what}", v.len()),
        needed: ((v.len() + more) * size_of::<T>()) as u64,
        available: crate::memory::usable().unwrap_or(0),
    })?;
    let old = v.len();
    v.par_extend(rayon::iter::repeat_n(T::default(), more));
    let mut rest = &mut v[old..];
    let mut places = Vec::with_capacity(parts.len());
    for p in parts {
        let (here, after) = rest.split_at_mut(p.len());
        places.push(here);
        rest = after;
    }
    places
        .into_par_iter()
        .zip(parts)
        .for_each(|(to, from)| to.copy_from_slice(from));
    Ok(())
}

pub(crate) fn room_kind<T>(v: &mut Vec<T>) -> Result<(), ReadErrorKind> {
    crate::memory::grow(v).map_err(|(needed, available)| ReadErrorKind::TooLarge {
        what: format!("growing past {} weights", v.len()),
        needed,
        available,
    })
}

/// An error at a line of a file.
pub(crate) fn err_at(path: &Path, line: u64, kind: ReadErrorKind) -> ReadError {
    ReadError::at(path, line, kind)
}

/// An integer weight: its token and value.
pub(crate) type IntWeight<'a> = (&'a [u8], i64);

/// An arc line `u v` or `u v w` in its plainest form (decimal ids without signs, an integer
/// weight of at most 18 digits, one run of spaces or tabs between fields) with both ids in
/// `lowest..lowest + u32::MAX`: the ids and the weight (its token and value); `None` for any
/// other line, which the general parse then reads (and refuses where it must).
pub(crate) fn plain_arc(l: &[u8], lowest: u64) -> Option<(u64, u64, Option<IntWeight<'_>>)> {
    fn digits(l: &[u8], at: &mut usize, most: usize) -> Option<u64> {
        let start = *at;
        let mut v = 0u64;
        while let Some(&b) = l.get(*at).filter(|b| b.is_ascii_digit()) {
            v = v.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            *at += 1;
        }
        (*at > start && *at - start <= most).then_some(v)
    }
    fn gap(l: &[u8], at: &mut usize) -> bool {
        let start = *at;
        while matches!(l.get(*at), Some(b' ' | b'\t')) {
            *at += 1;
        }
        *at > start
    }
    // Ids of at most 10 digits (below 10^10: no overflow; the range check does the rest).
    let mut at = 0;
    let u = digits(l, &mut at, 10)?;
    if !gap(l, &mut at) {
        return None;
    }
    let v = digits(l, &mut at, 10)?;
    let fits = |x: u64| x >= lowest && x - lowest < u32::MAX as u64;
    if !fits(u) || !fits(v) {
        return None;
    }
    if at == l.len() {
        return Some((u, v, None));
    }
    if !gap(l, &mut at) {
        return None;
    }
    let tok = &l[at..];
    let negative = l.get(at) == Some(&b'-');
    at += usize::from(negative);
    let w = digits(l, &mut at, 18)? as i64;
    if negative && w == 0 {
        // `-0` is the real negative zero ([`parse_int`]): the general parse reads it.
        return None;
    }
    (at == l.len()).then_some((u, v, Some((tok, if negative { -w } else { w }))))
}

/// Whitespace-separated tokens.
pub(crate) fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
}

/// Longest token quoted whole in a message; longer ones are cut (a multi-megabyte token must
/// not become a multi-megabyte error message).
const SHOW_MAX: usize = 64;

/// A token as text, for messages: at most [`SHOW_MAX`] bytes, then `...` and its length.
pub(crate) fn show(tok: &[u8]) -> String {
    if tok.len() <= SHOW_MAX {
        return String::from_utf8_lossy(tok).into_owned();
    }
    format!(
        "{}... ({} bytes)",
        String::from_utf8_lossy(&tok[..SHOW_MAX]),
        tok.len()
    )
}

/// [`show`] for text already decoded.
pub(crate) fn cut(s: &str) -> String {
    show(s.as_bytes())
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

/// Parses an integer token (optional sign, decimal digits) of any size that `i128` holds;
/// `None` if the token is not written as an integer.
pub(crate) fn parse_int(tok: &[u8]) -> Option<i128> {
    let (neg, digits) = match tok.first() {
        Some(b'-') => (true, &tok[1..]),
        Some(b'+') => (false, &tok[1..]),
        _ => (false, tok),
    };
    if digits.is_empty() || digits.len() > 38 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let v: i128 = digits.iter().fold(0, |v, &b| v * 10 + (b - b'0') as i128);
    // `-0` is the real negative zero, not the integer 0.
    if neg && v == 0 {
        return None;
    }
    Some(if neg { -v } else { v })
}

/// `true` if the integer `v` is exactly an `f64`.
pub(crate) fn exact_in_f64(v: i128) -> bool {
    // Every integer up to 2^53 is (the common case, without 128-bit conversions).
    if v.unsigned_abs() <= 1 << 53 {
        return true;
    }
    (v as f64) as i128 == v && v.unsigned_abs() < (1u128 << 127)
}

/// Checks a vertex count fits 32-bit ids.
pub(crate) fn check_vertices(path: &Path, line: u64, n: u64) -> Result<usize, ReadError> {
    // u32::MAX itself is the index type's sentinel ("no vertex").
    if n >= u32::MAX as u64 {
        return Err(err_at(
            path,
            line,
            ReadErrorKind::Overflow(format!(
                "{n} vertices do not fit 32-bit vertex ids (at most {})",
                u32::MAX - 1
            )),
        ));
    }
    usize::try_from(n)
        .map_err(|_| err_at(path, line, ReadErrorKind::Overflow(format!("{n} vertices"))))
}
