//! Parallel line parsing: a file (or a decompressed stream) read in blocks by one thread,
//! each block cut at line ends into pieces parsed on every core, the pieces' results handed
//! back in file order with the number of each piece's first line.
//!
//! Lines end as [`Lines`](super::lines::Lines) ends them: `\n`, `\r\n` or a lone `\r`; a
//! piece always ends after a complete line end, so a `\r\n` is never split.

use std::io::Read;
use std::path::Path;
use std::sync::mpsc;

use rayon::prelude::*;

use super::lines::{MAX_LINE, append_all, err_at};
use crate::error::{ReadError, ReadErrorKind};

/// Bytes read per block (the reader thread keeps one more ahead), where memory allows.
const BLOCK: usize = 32 << 20;

/// The block size for this process: [`BLOCK`], or where memory is short (a process under
/// `ulimit -v`, a small container) a sixteenth of what is available, at least 1 MiB: three
/// blocks and their parsed arcs are in memory at once.
fn block_size() -> usize {
    crate::memory::available().map_or(BLOCK, |a| {
        usize::try_from(a / 16)
            .unwrap_or(BLOCK)
            .clamp(1 << 20, BLOCK)
    })
}
/// Bytes per piece parsed by one task.
const PIECE: usize = 1 << 20;

/// The lines of `piece` (complete lines, the last one possibly without its end), without
/// their ends.
pub(crate) fn lines_of(piece: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = piece;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match memchr::memchr2(b'\n', b'\r', rest) {
            Some(i) => {
                let line = &rest[..i];
                let end = if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
                    i + 2
                } else {
                    i + 1
                };
                rest = &rest[end..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = &[];
                Some(line)
            }
        }
    })
}

/// The number of lines in `piece` (as [`lines_of`] yields them).
fn count_lines(piece: &[u8]) -> u64 {
    let mut n = 0;
    let mut at = 0;
    while let Some(i) = memchr::memchr2(b'\n', b'\r', &piece[at..]) {
        let i = at + i;
        n += 1;
        at = if piece[i] == b'\r' && piece.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
    }
    n + u64::from(at < piece.len())
}

/// Where `buf[..limit]` may be cut after a complete line end: after the last `\n`, or after a
/// lone `\r` whose next byte is known not to be `\n`; `None` if there is none.
fn cut_point(buf: &[u8], limit: usize) -> Option<usize> {
    let mut end = limit.min(buf.len());
    while let Some(i) = memchr::memrchr2(b'\n', b'\r', &buf[..end]) {
        if buf[i] == b'\n' {
            return Some(i + 1);
        }
        match buf.get(i + 1) {
            Some(&b) if b != b'\n' => return Some(i + 1),
            _ => end = i,
        }
    }
    None
}

/// Cuts `block` into pieces of about [`PIECE`] bytes at line ends.
fn pieces(block: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::with_capacity(block.len() / PIECE + 1);
    let mut rest = block;
    while rest.len() > PIECE {
        match cut_point(rest, PIECE).or_else(|| cut_point(rest, rest.len())) {
            Some(c) if c < rest.len() => {
                out.push(&rest[..c]);
                rest = &rest[c..];
            }
            _ => break,
        }
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// Reads `reader` to its end in blocks of whole lines (the last block's last line may have
/// no end), sent to `tx`; an I/O error or a line longer than [`MAX_LINE`] ends it with the
/// error's kind and the number of complete lines after the blocks sent (the receiver counts
/// theirs). Buffers the parser is done with come back through `spare` and are read into
/// again: a block's memory is allocated (and its pages touched) once, not once per block
/// (on 16 cores, a fresh 32 MiB block a time made the reading thread the bound).
fn read_blocks(
    mut reader: impl Read,
    block: usize,
    tx: mpsc::SyncSender<Result<Vec<u8>, (u64, ReadErrorKind)>>,
    spare: mpsc::Receiver<Vec<u8>>,
) {
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let start = carry.len();
        // A block and what parsing it holds (the next block read meanwhile, and its arcs:
        // at most two bytes of arcs per byte of text) must fit beside the memory's reserve:
        // parsing allocates without asking, and would abort where a read can be refused.
        if let Err((needed, available)) = crate::memory::check(4 * (start + block) as u64) {
            let kind = ReadErrorKind::TooLarge {
                what: format!("reading a block of {} bytes and its arcs", start + block),
                needed,
                available,
            };
            let _ = tx.send(Err((0, kind)));
            return;
        }
        let mut buf = spare.try_recv().unwrap_or_default();
        if buf.len() < start + block {
            // A block the allocator refuses ends the read with a refusal, not an abort.
            if buf.try_reserve_exact(start + block - buf.len()).is_err() {
                let kind = ReadErrorKind::TooLarge {
                    what: format!("a read buffer of {block} bytes"),
                    needed: (start + block) as u64,
                    available: crate::memory::usable().unwrap_or(0),
                };
                let _ = tx.send(Err((0, kind)));
                return;
            }
            buf.resize(start + block, 0);
        } else {
            // A buffer read into before: its old bytes are overwritten, not cleared first.
            buf.truncate(start + block);
        }
        buf[..start].copy_from_slice(&carry);
        let mut filled = start;
        let mut eof = false;
        while filled < buf.len() {
            match reader.read(&mut buf[filled..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    // The line after the last complete one read.
                    let read = &buf[..filled];
                    let done = cut_point(read, filled).map_or(0, |c| count_lines(&read[..c]));
                    let _ = tx.send(Err((done, ReadErrorKind::Io(e))));
                    return;
                }
            }
        }
        buf.truncate(filled);
        // A block's lines are shorter than a block but for its first (carried over) and, at
        // the end of the file, its last, unended one.
        let cut = cut_point(&buf, buf.len());
        let first = memchr::memchr2(b'\n', b'\r', &buf).unwrap_or(buf.len());
        let last = buf.len() - cut.unwrap_or(0);
        if first > MAX_LINE || (eof && last > MAX_LINE) {
            let at = if first > MAX_LINE {
                0
            } else {
                count_lines(&buf[..cut.unwrap_or(0)])
            };
            let kind = ReadErrorKind::LineTooLong { limit: MAX_LINE };
            let _ = tx.send(Err((at, kind)));
            return;
        }
        if eof {
            if !buf.is_empty() {
                let _ = tx.send(Ok(buf));
            }
            return;
        }
        match cut {
            Some(c) => {
                carry.clear();
                carry.extend_from_slice(&buf[c..]);
                buf.truncate(c);
                if tx.send(Ok(buf)).is_err() {
                    return;
                }
            }
            // One line longer than a block so far: read on, up to the limit.
            None if buf.len() <= MAX_LINE => carry = buf,
            None => {
                let kind = ReadErrorKind::LineTooLong { limit: MAX_LINE };
                let _ = tx.send(Err((0, kind)));
                return;
            }
        }
    }
}

/// Parses `reader` with `parse` on every core: `parse(piece, first_line)` gets a piece of
/// whole lines and the number (1-based) of its first line; `merge` receives each block's
/// results, its pieces in file order (to append them on every core: [`append_all`]). The
/// first error (in file order) stops the read. The reader's first line is line `first_line`
/// of the file (1, or more after a header read line by line).
pub(crate) fn par_lines<T: Send>(
    reader: impl Read + Send,
    path: &Path,
    first_line: u64,
    parse: impl Fn(&[u8], u64) -> Result<T, ReadError> + Sync,
    merge: impl FnMut(Vec<T>) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    par_lines_in(block_size(), reader, path, first_line, parse, merge)
}

/// [`par_lines`] reading blocks of `block` bytes.
fn par_lines_in<T: Send>(
    block: usize,
    reader: impl Read + Send,
    path: &Path,
    first_line: u64,
    parse: impl Fn(&[u8], u64) -> Result<T, ReadError> + Sync,
    mut merge: impl FnMut(Vec<T>) -> Result<(), ReadError>,
) -> Result<(), ReadError> {
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::sync_channel(1);
        let (back, spare) = mpsc::channel();
        // A thread the system refuses (address space or thread limits) is an error, not a
        // panic; its stack is small (it only reads and decompresses into heap buffers).
        std::thread::Builder::new()
            .name("semigraph-read".into())
            .stack_size(512 << 10)
            .spawn_scoped(s, move || read_blocks(reader, block, tx, spare))
            .map_err(|e| ReadError::file(path, ReadErrorKind::Io(e)))?;
        let mut line = first_line;
        for block in rx {
            let block = block.map_err(|(after, kind)| err_at(path, line + after, kind))?;
            let parts = pieces(&block);
            let counts: Vec<u64> = parts.par_iter().map(|p| count_lines(p)).collect();
            let firsts: Vec<u64> = counts
                .iter()
                .scan(line, |at, &c| {
                    let first = *at;
                    *at += c;
                    Some(first)
                })
                .collect();
            line += counts.iter().sum::<u64>();
            let results: Vec<Result<T, ReadError>> = parts
                .par_iter()
                .zip(&firsts)
                .map(|(p, &first)| parse(p, first))
                .collect();
            drop(parts);
            // The reader may have ended (its last block): then the buffer is freed here.
            let _ = back.send(block);
            // The pieces before the first that failed are merged first: a check across
            // pieces (in `merge`) may fail earlier in the file than that piece's error.
            let mut done = Vec::with_capacity(results.len());
            let mut failed = None;
            for r in results {
                match r {
                    Ok(t) => done.push(t),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            merge(done)?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Ok(())
    })
}

/// The arcs of a block's pieces (`arcs` gives a piece's sources and targets) appended to
/// `to_src` and `to_dst` in order, on every core ([`append_all`]).
pub(crate) fn append_arcs<P>(
    (to_src, to_dst): (&mut Vec<u32>, &mut Vec<u32>),
    pieces: &[P],
    arcs: impl Fn(&P) -> (&Vec<u32>, &Vec<u32>),
) -> Result<(), ReadErrorKind> {
    let (src, dst): (Vec<&[u32]>, Vec<&[u32]>) = pieces
        .iter()
        .map(|p| {
            let (s, d) = arcs(p);
            (&s[..], &d[..])
        })
        .unzip();
    append_all(to_src, &src, "arcs")?;
    append_all(to_dst, &dst, "arcs")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_as_lines_does() {
        let text = b"a\nb\r\nc\rd\r\n\ne";
        let got: Vec<&[u8]> = lines_of(text).collect();
        assert_eq!(got, vec![&b"a"[..], b"b", b"c", b"d", b"", b"e"]);
        assert_eq!(count_lines(text), 6);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b""), 0);
        // A cut never splits \r\n, and never falls after a \r whose next byte is unknown.
        assert_eq!(cut_point(b"ab\r\ncd", 3), None);
        assert_eq!(cut_point(b"ab\r\ncd", 4), Some(4));
        assert_eq!(cut_point(b"ab\rcd", 5), Some(3));
        assert_eq!(cut_point(b"abc\r", 4), None);
    }

    /// Every line of `text` with its number, read in blocks of `block` bytes.
    fn numbered(text: &[u8], block: usize) -> Result<Vec<(u64, Vec<u8>)>, ReadError> {
        let mut got = Vec::new();
        let parse = |p: &[u8], first: u64| {
            Ok((first..)
                .zip(lines_of(p).map(<[u8]>::to_vec))
                .collect::<Vec<_>>())
        };
        par_lines_in(block, text, Path::new("t"), 1, parse, |ps| {
            ps.into_iter().for_each(|p| got.extend(p));
            Ok(())
        })?;
        Ok(got)
    }

    #[test]
    fn small_blocks_read_as_one() {
        // Lines of every length up to past a block, across recycled buffers and carries.
        let mut text = Vec::new();
        for i in 0..3000usize {
            text.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, i % 97));
            text.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        }
        let whole = numbered(&text, 1 << 20).unwrap();
        assert_eq!(whole.len(), 3000);
        for block in [64, 100, 4096] {
            assert_eq!(numbered(&text, block).unwrap(), whole, "block {block}");
        }
    }

    #[test]
    fn a_failed_read_names_the_line_after_the_blocks_read() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk gone"))
            }
        }
        let text = b"1 2\n".repeat(1000);
        let e = numbered_from(text.chain(Failing), 64).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Io(_)), "{e}");
        assert_eq!(e.line, Some(1001));
    }

    fn numbered_from(r: impl Read + Send, block: usize) -> Result<u64, ReadError> {
        let mut n = 0;
        par_lines_in(
            block,
            r,
            Path::new("t"),
            1,
            |p, _| Ok(count_lines(p)),
            |ps| {
                n += ps.iter().sum::<u64>();
                Ok(())
            },
        )?;
        Ok(n)
    }

    #[test]
    fn pieces_cover_the_block_at_line_ends() {
        let mut block = Vec::new();
        for i in 0..300_000u32 {
            block.extend_from_slice(format!("{i} {}\r\n", i * 7).as_bytes());
        }
        let parts = pieces(&block);
        assert!(parts.len() > 1);
        assert_eq!(parts.concat(), block);
        assert!(parts.iter().all(|p| p.ends_with(b"\r\n")));
        let n: u64 = parts.iter().map(|p| count_lines(p)).sum();
        assert_eq!(n, 300_000);
    }
}
