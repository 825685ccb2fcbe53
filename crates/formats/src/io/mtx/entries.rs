//! The entries of a Matrix Market file after its header: coordinate lines parsed on every
//! core ([`chunks::par_lines`]), array lines in order (an entry's place is its position),
//! each entry checked against the header and mirrored where the matrix is symmetric.

use std::io::{BufRead, Read};
use std::path::Path;

use rayon::prelude::*;

use super::{Kind, Symmetry};
use crate::error::{ReadError, ReadErrorKind};
use crate::io::chunks;
use crate::io::lines::{
    Lines, append_all, err_at, exact_in_f64, parse_f64, parse_i64, parse_int, parse_u64, room,
    show, tokens,
};

/// What the header says of the entries.
pub(super) struct Shape<'p> {
    pub(super) path: &'p Path,
    pub(super) nrows: usize,
    pub(super) ncols: usize,
    pub(super) kind: Kind,
    pub(super) symmetry: Symmetry,
    /// The entry count of the size line (or of the array's shape).
    pub(super) declared: u64,
}

/// Values read, in the kind the file declares.
pub(super) enum Vals {
    None,
    Int(Vec<i64>),
    UInt(Vec<u64>),
    Real(Vec<f64>),
}

/// Entries read: their arcs (mirrors included) and values, and what the checks need.
pub(super) struct Entries {
    pub(super) src: Vec<u32>,
    pub(super) dst: Vec<u32>,
    pub(super) vals: Vals,
    /// The first value that is not finite, with its line.
    pub(super) first_nonfinite: Option<(u64, f64)>,
    /// Entries read (lines; a mirror is not counted).
    count: u64,
}

impl Entries {
    fn new(kind: Kind) -> Self {
        Entries {
            src: Vec::new(),
            dst: Vec::new(),
            vals: match kind {
                Kind::Pattern => Vals::None,
                Kind::Int { max, .. } if max > i64::MAX as i128 => Vals::UInt(Vec::new()),
                Kind::Int { .. } => Vals::Int(Vec::new()),
                Kind::Real => Vals::Real(Vec::new()),
            },
            first_nonfinite: None,
            count: 0,
        }
    }

    /// Adds the entry `(i, j)` (0-based) with value token `vtok` from line `no`, and its
    /// mirror where the matrix is symmetric; refuses a diagonal entry of a skew-symmetric
    /// matrix and a value outside the declared kind.
    fn push(
        &mut self,
        s: &Shape<'_>,
        (i, j): (usize, usize),
        vtok: Option<&[u8]>,
        no: u64,
    ) -> Result<(), ReadError> {
        let path = s.path;
        if s.symmetry == Symmetry::Skew && i == j {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!(
                    "skew-symmetric matrix with a diagonal entry ({}, {})",
                    i + 1,
                    j + 1
                )),
            ));
        }
        let skew = s.symmetry == Symmetry::Skew;
        let mirror = s.symmetry != Symmetry::General && i != j;
        let bad_w = |t: &[u8], reason: String| {
            err_at(
                path,
                no,
                ReadErrorKind::BadWeight {
                    value: show(t),
                    reason,
                },
            )
        };
        match (&mut self.vals, s.kind) {
            (Vals::None, _) => {}
            (Vals::Real(v), _) => {
                let t = vtok.expect("value token");
                // NaN is a legitimate IEEE value of a real matrix (LAGraph's test files use
                // it); it is refused later, when a weight becomes a semiring value.
                let x = parse_f64(t).ok_or_else(|| bad_w(t, "not a number".into()))?;
                if parse_int(t).is_some_and(|i| !exact_in_f64(i)) {
                    return Err(bad_w(
                        t,
                        "an integer that a real (f64) cannot hold exactly; refused rather than \
                         rounded (declare the field integer)"
                            .into(),
                    ));
                }
                if !x.is_finite() && self.first_nonfinite.is_none() {
                    self.first_nonfinite = Some((no, x));
                }
                room(v, path, no)?;
                v.push(x);
                if mirror {
                    room(v, path, no)?;
                    v.push(if skew { -x } else { x });
                }
            }
            (Vals::Int(v), Kind::Int { min, max, name }) => {
                let t = vtok.expect("value token");
                let x = parse_i64(t)
                    .ok_or_else(|| bad_w(t, format!("not an integer of type {name}")))?;
                if (x as i128) < min || (x as i128) > max {
                    return Err(bad_w(
                        t,
                        format!("outside the range {min}..={max} of {name}"),
                    ));
                }
                room(v, path, no)?;
                v.push(x);
                if mirror {
                    let m = if skew { x.checked_neg() } else { Some(x) };
                    let m = m
                        .filter(|m| (*m as i128) >= min && (*m as i128) <= max)
                        .ok_or_else(|| {
                            bad_w(
                                t,
                                format!("its negation (skew-symmetric) is outside {name}"),
                            )
                        })?;
                    room(v, path, no)?;
                    v.push(m);
                }
            }
            (Vals::UInt(v), Kind::Int { name, .. }) => {
                let t = vtok.expect("value token");
                let x = parse_u64(t)
                    .ok_or_else(|| bad_w(t, format!("not an integer of type {name}")))?;
                room(v, path, no)?;
                v.push(x);
                if mirror {
                    room(v, path, no)?;
                    v.push(x);
                }
            }
            _ => unreachable!("value storage matches the kind"),
        }
        room(&mut self.src, path, no)?;
        room(&mut self.dst, path, no)?;
        self.src.push(i as u32);
        self.dst.push(j as u32);
        if mirror {
            room(&mut self.src, path, no)?;
            room(&mut self.dst, path, no)?;
            self.src.push(j as u32);
            self.dst.push(i as u32);
        }
        self.count += 1;
        Ok(())
    }

    /// The entries of `pieces` appended in order (arcs and values on every core).
    fn append(&mut self, pieces: &[Piece], path: &Path) -> Result<(), ReadError> {
        let file = |k| ReadError::file(path, k);
        chunks::append_arcs((&mut self.src, &mut self.dst), pieces, |p| {
            (&p.e.src, &p.e.dst)
        })
        .map_err(file)?;
        fn slices<'a, T>(pieces: &'a [Piece], pick: impl Fn(&'a Vals) -> &'a [T]) -> Vec<&'a [T]> {
            pieces.iter().map(|p| pick(&p.e.vals)).collect()
        }
        match &mut self.vals {
            Vals::None => Ok(()),
            Vals::Int(v) => append_all(v, &slices(pieces, Vals::ints), "values"),
            Vals::UInt(v) => append_all(v, &slices(pieces, Vals::uints), "values"),
            Vals::Real(v) => append_all(v, &slices(pieces, Vals::reals), "values"),
        }
        .map_err(file)?;
        for p in pieces {
            self.first_nonfinite = self.first_nonfinite.or(p.e.first_nonfinite);
            self.count += p.e.count;
        }
        Ok(())
    }
}

impl Vals {
    fn ints(&self) -> &[i64] {
        match self {
            Vals::Int(v) => v,
            _ => &[],
        }
    }
    fn uints(&self) -> &[u64] {
        match self {
            Vals::UInt(v) => v,
            _ => &[],
        }
    }
    fn reals(&self) -> &[f64] {
        match self {
            Vals::Real(v) => v,
            _ => &[],
        }
    }
}

/// An entry's row and column (0-based) and its value token.
type Coordinate<'t> = ((usize, usize), Option<&'t [u8]>);

/// The row and column (0-based) and the value token of a coordinate line.
fn coordinate<'t>(s: &Shape<'_>, t: &'t [u8], no: u64) -> Result<Coordinate<'t>, ReadError> {
    let path = s.path;
    let want = if s.kind == Kind::Pattern { 2 } else { 3 };
    let mut it = tokens(t);
    let f: [Option<&[u8]>; 3] = [it.next(), it.next(), it.next()];
    let fields = f.iter().flatten().count() + it.count();
    if fields != want {
        return Err(err_at(
            path,
            no,
            ReadErrorKind::BadLine(format!(
                "{fields} fields, expected {want} (row column{})",
                if want == 3 { " value" } else { "" }
            )),
        ));
    }
    let idx = |t: &[u8], n: usize| -> Result<usize, ReadError> {
        let v = parse_u64(t).ok_or_else(|| {
            err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!("index {:?} is not a positive integer", show(t))),
            )
        })?;
        if v == 0 || v > n as u64 {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::IdOutOfRange {
                    id: show(t),
                    range: format!("1..={n}"),
                },
            ));
        }
        Ok(v as usize - 1)
    };
    let (i, j) = (f[0].unwrap_or_default(), f[1].unwrap_or_default());
    Ok(((idx(i, s.nrows)?, idx(j, s.ncols)?), f[2]))
}

/// The coordinate lines of one piece of the file, its first line numbered `first`.
struct Piece {
    e: Entries,
    /// `(entry, line)` where the data lines' numbering restarts (after blank or comment
    /// lines), entries counted from the piece's first.
    runs: Vec<(u64, u64)>,
    /// The number of the piece's last line.
    last: u64,
}

fn piece(s: &Shape<'_>, text: &[u8], first: u64) -> Result<Piece, ReadError> {
    let mut p = Piece {
        e: Entries::new(s.kind),
        runs: Vec::new(),
        last: first,
    };
    let mut expect = 0;
    for (no, l) in (first..).zip(chunks::lines_of(text)) {
        p.last = no;
        let t = l.trim_ascii();
        if t.is_empty() || t.starts_with(b"%") {
            continue;
        }
        if no != expect {
            p.runs.push((p.e.count, no));
        }
        expect = no + 1;
        let (ij, v) = coordinate(s, t, no)?;
        p.e.push(s, ij, v, no)?;
    }
    Ok(p)
}

/// The line of entry `k` (0-based) from runs of consecutive data lines.
fn line_of(runs: &[(u64, u64)], k: u64) -> u64 {
    let r = runs.partition_point(|&(first, _)| first <= k);
    let (first, line) = runs[r - 1];
    line + (k - first)
}

/// Reads the coordinate lines of `rest` (line `first_line` on; the header ended at line
/// `header_end`) on every core, checks their count against the size line and refuses an
/// entry given twice.
///
/// One difference from a sequential read: in a file with more entries than the size line
/// declares, a malformed line after the first one too many (within the same 32 MiB block) is
/// reported instead of the count.
pub(super) fn read_coordinate(
    rest: impl Read + Send,
    first_line: u64,
    header_end: u64,
    s: &Shape<'_>,
) -> Result<Entries, ReadError> {
    let mut all = Entries::new(s.kind);
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut last = header_end;
    chunks::par_lines(
        rest,
        s.path,
        first_line,
        |text, first| piece(s, text, first),
        |ps| {
            let mut count = all.count;
            for p in &ps {
                if count + p.e.count > s.declared {
                    return Err(err_at(
                        s.path,
                        line_of(&p.runs, s.declared - count),
                        ReadErrorKind::CountMismatch {
                            what: "entries",
                            declared: s.declared,
                            found: s.declared + 1,
                        },
                    ));
                }
                runs.extend(p.runs.iter().map(|&(k, line)| (count + k, line)));
                count += p.e.count;
                last = last.max(p.last);
            }
            all.append(&ps, s.path)
        },
    )?;
    if all.count != s.declared {
        return Err(err_at(
            s.path,
            last,
            ReadErrorKind::CountMismatch {
                what: "entries",
                declared: s.declared,
                found: all.count,
            },
        ));
    }
    check_duplicates(
        s.path,
        &all.src,
        &all.dst,
        s.symmetry != Symmetry::General,
        &runs,
    )?;
    Ok(all)
}

/// Reads the lines of an array file in order: each holds the value of the next position,
/// column by column (the lower triangle only where the matrix is symmetric).
pub(super) fn read_array<R: BufRead>(
    mut lines: Lines<R>,
    s: &Shape<'_>,
) -> Result<Entries, ReadError> {
    let path = s.path;
    let mut all = Entries::new(s.kind);
    let (mut ai, mut aj) = (usize::from(s.symmetry == Symmetry::Skew), 0usize);
    while let Some((no, l)) = lines.next_line()? {
        let t = l.trim_ascii();
        if t.is_empty() || t.starts_with(b"%") {
            continue;
        }
        if all.count == s.declared {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::CountMismatch {
                    what: "entries",
                    declared: s.declared,
                    found: all.count + 1,
                },
            ));
        }
        let mut toks = tokens(t);
        let (value, more) = (toks.next(), toks.count());
        let Some(value) = value.filter(|_| more == 0) else {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!(
                    "{} fields, an array line holds one value",
                    more + 1
                )),
            ));
        };
        let pos = (ai, aj);
        ai += 1;
        if ai == s.nrows {
            aj += 1;
            ai = match s.symmetry {
                Symmetry::General => 0,
                Symmetry::Symmetric => aj,
                Symmetry::Skew => aj + 1,
            };
        }
        all.push(s, pos, Some(value), no)?;
    }
    if all.count != s.declared {
        return Err(err_at(
            path,
            lines.line(),
            ReadErrorKind::CountMismatch {
                what: "entries",
                declared: s.declared,
                found: all.count,
            },
        ));
    }
    Ok(all)
}

/// Rejects an entry given twice (Matrix Market files must not repeat entries; for symmetric
/// files, `(i, j)` and `(j, i)` are the same entry). Names the line of the second one.
fn check_duplicates(
    path: &Path,
    src: &[u32],
    dst: &[u32],
    sym: bool,
    runs: &[(u64, u64)],
) -> Result<(), ReadError> {
    let Some(dup) = smallest_repeat(path, src, dst, sym)? else {
        return Ok(());
    };
    let mut at = stored_keys(src, dst, sym)
        .enumerate()
        .filter(|&(_, key)| key == dup)
        .map(|(e, _)| e as u64);
    let (a, b) = (at.next().expect("repeated"), at.next().expect("repeated"));
    Err(err_at(
        path,
        line_of(runs, b),
        ReadErrorKind::Duplicate {
            row: (dup >> 32) + 1,
            col: (dup & u32::MAX as u64) + 1,
            first_line: line_of(runs, a),
        },
    ))
}

/// The stored entries of `src -> dst` (with symmetry, every stored entry was followed by its
/// mirror unless it is on the diagonal), each keyed by its position `row << 32 | column` (with
/// symmetry, in the lower triangle).
fn stored_keys<'a>(src: &'a [u32], dst: &'a [u32], sym: bool) -> impl Iterator<Item = u64> + 'a {
    let mut k = 0usize;
    std::iter::from_fn(move || {
        let (i, j) = (*src.get(k)?, dst[k]);
        k += if sym && i != j { 2 } else { 1 };
        let (r, c) = if sym { (i.max(j), i.min(j)) } else { (i, j) };
        Some(((r as u64) << 32) | c as u64)
    })
}

/// The smallest position given twice. Files listed by rows or by columns (as writers write
/// them) have their repeats side by side: one pass finds them; other files are sorted.
fn smallest_repeat(
    path: &Path,
    src: &[u32],
    dst: &[u32],
    sym: bool,
) -> Result<Option<u64>, ReadError> {
    let by_columns = |k: u64| k.rotate_left(32);
    let (mut rows, mut columns) = (true, true);
    let mut repeat: Option<u64> = None;
    let mut last: Option<u64> = None;
    for k in stored_keys(src, dst, sym) {
        if let Some(p) = last {
            rows &= p <= k;
            columns &= by_columns(p) <= by_columns(k);
            if !(rows || columns) {
                return smallest_repeat_by_sorting(path, src, dst, sym);
            }
            if p == k {
                repeat = Some(repeat.map_or(k, |r| r.min(k)));
            }
        }
        last = Some(k);
    }
    Ok(repeat)
}

/// [`smallest_repeat`] by sorting the keys on every core.
fn smallest_repeat_by_sorting(
    path: &Path,
    src: &[u32],
    dst: &[u32],
    sym: bool,
) -> Result<Option<u64>, ReadError> {
    // One 8-byte key per entry, allocated fallibly: the check never aborts a large read.
    let stored = stored_keys(src, dst, sym).count();
    let mut keys: Vec<u64> = Vec::new();
    keys.try_reserve_exact(stored).map_err(|_| {
        ReadError::file(
            path,
            ReadErrorKind::TooLarge {
                what: format!("checking {stored} entries for repeats"),
                needed: stored as u64 * 8,
                available: crate::memory::usable().unwrap_or(0),
            },
        )
    })?;
    keys.extend(stored_keys(src, dst, sym));
    keys.par_sort_unstable();
    Ok(keys
        .par_windows(2)
        .filter(|w| w[0] == w[1])
        .map(|w| w[0])
        .min())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_found_in_one_pass_are_those_sorting_finds() {
        let rng = crate::rng::Rng::new(11);
        let path = Path::new("t.mtx");
        let mut seen = [0usize; 2];
        for case in 0..3000u64 {
            let pick = |j: u64, n: u64| rng.below(case * 16 + j, n) as u32;
            let (n, m) = (1 + pick(0, 9), 1 + pick(1, 30));
            let sym = pick(2, 2) == 1;
            let mut e: Vec<(u32, u32)> = (0..m as u64)
                .map(|k| (pick(3 + 2 * k, n as u64), pick(4 + 2 * k, n as u64)))
                .map(|(i, j)| if sym { (i.max(j), i.min(j)) } else { (i, j) })
                .collect();
            // Listed by rows, by columns, or as drawn.
            match pick(5, 3) {
                0 => e.sort_unstable(),
                1 => e.sort_unstable_by_key(|&(i, j)| (j, i)),
                _ => {}
            }
            let (mut src, mut dst) = (Vec::new(), Vec::new());
            for &(i, j) in &e {
                // As `Entries::push` stores them: the entry, then its mirror off the diagonal.
                let (i, j) = if sym && pick(6, 2) == 1 {
                    (j, i)
                } else {
                    (i, j)
                };
                src.push(i);
                dst.push(j);
                if sym && i != j {
                    src.push(j);
                    dst.push(i);
                }
            }
            let want = smallest_repeat_by_sorting(path, &src, &dst, sym).unwrap();
            assert_eq!(
                smallest_repeat(path, &src, &dst, sym).unwrap(),
                want,
                "{e:?}"
            );
            seen[usize::from(want.is_some())] += 1;
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }
}
