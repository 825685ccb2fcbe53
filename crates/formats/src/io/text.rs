//! Edge lists (SNAP/GAP), adjacency lists and LDBC Graphalytics `.v`/`.e` files.

use std::collections::HashMap;
use std::io::{BufRead, Read};
use std::path::Path;

use rayon::prelude::*;

use super::chunks::append_arcs;
use super::lines::{
    Lines, append_all, check_vertices, err_at, parse_i64, parse_u64, plain_arc, room, show, tokens,
};
use super::weights::WeightAcc;
use super::{IdBase, chunks};
use crate::edgelist::EdgeList;
use crate::error::{ReadError, ReadErrorKind};

fn is_comment(t: &[u8]) -> bool {
    t.is_empty() || t[0] == b'#' || t[0] == b'%'
}

/// Checks an arc line of `nf` fields (`u v` or `u v w`): whether it has a weight, the same as
/// every line before it (`weighted` remembers the first).
fn arc_fields_n(nf: usize, weighted: &mut Option<bool>) -> Result<bool, ReadErrorKind> {
    let has_w = has_weight(nf)?;
    if *weighted.get_or_insert(has_w) != has_w {
        return Err(mixed_weights());
    }
    Ok(has_w)
}

/// Whether an arc line of `nf` fields has a weight.
fn has_weight(nf: usize) -> Result<bool, ReadErrorKind> {
    match nf {
        2 => Ok(false),
        3 => Ok(true),
        k => Err(ReadErrorKind::BadLine(format!(
            "{k} fields, expected \"u v\" or \"u v w\""
        ))),
    }
}

fn mixed_weights() -> ReadErrorKind {
    ReadErrorKind::BadLine("some lines have a weight and some do not".into())
}

/// What one piece of an edge list holds: its arcs (ids less the lowest id allowed), weights,
/// and what the whole file's checks need.
struct ElPiece {
    src: Vec<u32>,
    dst: Vec<u32>,
    w: WeightAcc,
    /// Whether the arc lines have weights, and the first arc line.
    weighted: Option<(bool, u64)>,
    /// The first arc line whose weight or lack of one differs from the piece's first arc
    /// line's, where parsing stopped: which of the two is wrong depends on the file's first
    /// arc line, which [`merge_pieces`] knows.
    mixed: Option<u64>,
    min_id: u64,
    max_id: u64,
    /// The last `# vertices:` comment of the piece.
    declared: Option<(u64, Option<u64>)>,
}

impl ElPiece {
    /// Empty, with room for the arcs of a piece of `piece.len()` bytes (12 bytes a line).
    fn for_piece(piece: &[u8]) -> Self {
        let guess = piece.len() / 12 + 1;
        ElPiece {
            src: Vec::with_capacity(guess),
            dst: Vec::with_capacity(guess),
            w: WeightAcc::default(),
            weighted: None,
            mixed: None,
            min_id: u64::MAX,
            max_id: 0,
            declared: None,
        }
    }

    /// Adds the arc `u -> v` (file ids, at least `lowest`).
    fn push(&mut self, u: u64, v: u64, lowest: u64) {
        self.min_id = self.min_id.min(u).min(v);
        self.max_id = self.max_id.max(u).max(v);
        self.src.push((u - lowest) as u32);
        self.dst.push((v - lowest) as u32);
    }
}

/// The first three fields of an arc line (empty where it has fewer) and how many it has.
fn arc_fields(t: &[u8]) -> ([&[u8]; 3], usize) {
    let mut it = tokens(t);
    let fields: [&[u8]; 3] = [
        it.next().unwrap_or_default(),
        it.next().unwrap_or_default(),
        it.next().unwrap_or_default(),
    ];
    let nf = fields.iter().filter(|f| !f.is_empty()).count() + it.count();
    (fields, nf)
}

/// Parses the lines of one piece (its first line numbered `first`); ids below `lowest` are
/// refused.
fn el_piece(piece: &[u8], first: u64, path: &Path, lowest: u64) -> Result<ElPiece, ReadError> {
    let mut p = ElPiece::for_piece(piece);
    let mut has_w_all: Option<bool> = None;
    for (no, l) in (first..).zip(chunks::lines_of(piece)) {
        // Most lines of most files: `u v` or `u v w` with an integer weight, ids in range.
        if let Some((u, v, w)) = plain_arc(l, lowest)
            && has_w_all.is_none_or(|h| h == w.is_some())
        {
            has_w_all = Some(w.is_some());
            p.weighted.get_or_insert((w.is_some(), no));
            p.push(u, v, lowest);
            if let Some((tok, x)) = w {
                p.w.push_integer(tok, x, no)
                    .map_err(|k| err_at(path, no, k))?;
            }
            continue;
        }
        let t = l.trim_ascii();
        if is_comment(t) {
            if let Some(rest) = t.strip_prefix(b"# vertices:") {
                let toks: Vec<&[u8]> = tokens(rest).collect();
                let count = toks
                    .first()
                    .and_then(|c| parse_u64(c.strip_suffix(b",").unwrap_or(c)));
                let base = match toks.get(1).copied() {
                    Some(b"0-based") => Some(0),
                    Some(b"1-based") => Some(1),
                    _ => None,
                };
                match count {
                    Some(c) if c < u32::MAX as u64 => p.declared = Some((c, base)),
                    _ => {
                        return Err(err_at(
                            path,
                            no,
                            ReadErrorKind::BadHeader(
                                "expected \"# vertices: N, 0-based\" (or 1-based)".into(),
                            ),
                        ));
                    }
                }
            }
            continue;
        }
        let (fields, nf) = arc_fields(t);
        let has_w = has_weight(nf).map_err(|k| err_at(path, no, k))?;
        if *has_w_all.get_or_insert(has_w) != has_w {
            p.mixed = Some(no);
            return Ok(p);
        }
        p.weighted.get_or_insert((has_w, no));
        let id = |t: &[u8]| -> Result<u64, ReadError> {
            match parse_u64(t) {
                Some(v) if v >= lowest && v - lowest < u32::MAX as u64 => Ok(v),
                _ => Err(err_at(
                    path,
                    no,
                    ReadErrorKind::IdOutOfRange {
                        id: show(t),
                        range: format!("{lowest}..{}", u32::MAX as u64 + lowest),
                    },
                )),
            }
        };
        let (u, v) = (id(fields[0])?, id(fields[1])?);
        p.push(u, v, lowest);
        if has_w {
            p.w.push(fields[2], no).map_err(|k| err_at(path, no, k))?;
        }
    }
    Ok(p)
}

/// Appends a block's pieces to an edge list and its weights in order (arcs and weights on
/// every core), checking that every arc line of the file has a weight or none has
/// (`weighted` remembers which); `each` sees every piece first.
fn merge_pieces(
    ps: Vec<ElPiece>,
    path: &Path,
    (g, w): (&mut EdgeList, &mut WeightAcc),
    weighted: &mut Option<bool>,
    mut each: impl FnMut(&ElPiece),
) -> Result<(), ReadError> {
    for p in &ps {
        if let Some((has_w, no)) = p.weighted {
            arc_fields_n(if has_w { 3 } else { 2 }, weighted).map_err(|k| err_at(path, no, k))?;
        }
        // The piece's first arc line agrees with the file's: the first that does not is the
        // culprit.
        if let Some(no) = p.mixed {
            return Err(err_at(path, no, mixed_weights()));
        }
        each(p);
    }
    append_arcs((&mut g.src, &mut g.dst), &ps, |p| (&p.src, &p.dst))
        .map_err(|k| ReadError::file(path, k))?;
    w.append_all(ps.into_iter().map(|p| p.w).collect())
        .map_err(|(no, k)| err_at(path, no, k))
}

/// `u v` or `u v w` per line; `#` and `%` start comments. The number of vertices is the
/// largest id + 1 - base. Parsed on every core ([`chunks::par_lines`]).
pub(crate) fn read_edge_list(
    reader: impl Read + Send,
    path: &Path,
    base: IdBase,
) -> Result<EdgeList, ReadError> {
    let lowest = match base {
        IdBase::One => 1,
        _ => 0,
    };
    let mut g = EdgeList::new(0, 0);
    let mut w = WeightAcc::default();
    let mut weighted: Option<bool> = None;
    let (mut min_id, mut max_id) = (u64::MAX, 0u64);
    // `# vertices: N, 0-based` (as semigraph writes): the vertex count and the id base,
    // which the arcs alone cannot tell when the last or first vertices have no arcs.
    let mut declared: Option<(u64, Option<u64>)> = None;
    chunks::par_lines(
        reader,
        path,
        1,
        |piece, first| el_piece(piece, first, path, lowest),
        |ps| {
            merge_pieces(ps, path, (&mut g, &mut w), &mut weighted, |p| {
                min_id = min_id.min(p.min_id);
                max_id = max_id.max(p.max_id);
                declared = p.declared.or(declared);
            })
        },
    )?;
    let b = match (base, declared) {
        (IdBase::Zero, _) => 0,
        (IdBase::One, _) => 1,
        (IdBase::Auto, Some((_, Some(b)))) => b,
        (IdBase::Auto, _) => u64::from(min_id != 0 && min_id != u64::MAX),
    };
    if min_id < b && min_id != u64::MAX {
        return Err(ReadError::file(
            path,
            ReadErrorKind::IdOutOfRange {
                id: min_id.to_string(),
                range: format!("{b}.. (the file says its ids are {b}-based)"),
            },
        ));
    }
    let mut n = if g.src.is_empty() {
        0
    } else {
        (max_id + 1 - b) as usize
    };
    if let Some((count, _)) = declared {
        if (n as u64) > count {
            return Err(ReadError::file(
                path,
                ReadErrorKind::BadHeader(format!(
                    "the file declares {count} vertices and has an arc at vertex id {max_id}"
                )),
            ));
        }
        n = count as usize;
    }
    // Stored less `lowest`; less the base now.
    let shift = (b - lowest) as u32;
    if shift > 0 {
        g.src.par_iter_mut().for_each(|x| *x -= shift);
        g.dst.par_iter_mut().for_each(|x| *x -= shift);
    }
    (g.nrows, g.ncols) = (n, n);
    g.base = b as u8;
    g.first_nonfinite = w.first_nonfinite;
    g.weights = w.finish(weighted == Some(true));
    Ok(g)
}

/// Maps arbitrary integer labels to `0..n` in order of first appearance.
#[derive(Default)]
struct Labels {
    index: HashMap<i64, u32>,
    labels: Vec<i64>,
}

impl Labels {
    fn get_or_add(&mut self, l: i64) -> u32 {
        *self.index.entry(l).or_insert_with(|| {
            self.labels.push(l);
            (self.labels.len() - 1) as u32
        })
    }
}

fn label(path: &Path, no: u64, t: &[u8]) -> Result<i64, ReadError> {
    parse_i64(t).ok_or_else(|| {
        err_at(
            path,
            no,
            ReadErrorKind::BadLine(format!("vertex id {:?} is not an integer", show(t))),
        )
    })
}

/// `v n1 n2 ...` per line: the out-neighbours of `v`. Ids are labels.
pub(crate) fn read_adjacency<R: BufRead>(
    mut lines: Lines<R>,
    path: &Path,
) -> Result<EdgeList, ReadError> {
    let mut labels = Labels::default();
    let mut g = EdgeList::new(0, 0);
    while let Some((no, l)) = lines.next_line()? {
        let t = l.trim_ascii();
        if is_comment(t) {
            continue;
        }
        let mut toks = tokens(t);
        let v = labels.get_or_add(label(path, no, toks.next().expect("non-empty line"))?);
        for t in toks {
            let u = labels.get_or_add(label(path, no, t)?);
            room(&mut g.src, path, no)?;
            room(&mut g.dst, path, no)?;
            g.src.push(v);
            g.dst.push(u);
        }
    }
    let n = labels.labels.len();
    (g.nrows, g.ncols) = (n, n);
    g.labels = Some(labels.labels);
    Ok(g)
}

/// The arcs of one piece of an LDBC `.e` file (the first line numbered `first`), by the
/// vertex ids of `index` (label -> id).
fn ldbc_piece(
    piece: &[u8],
    first: u64,
    epath: &Path,
    vpath: &Path,
    id_of: &(dyn Fn(i64) -> Option<u32> + Sync),
    n: usize,
) -> Result<ElPiece, ReadError> {
    let mut p = ElPiece::for_piece(piece);
    let mut has_w_all: Option<bool> = None;
    for (no, l) in (first..).zip(chunks::lines_of(piece)) {
        let t = l.trim_ascii();
        if is_comment(t) {
            continue;
        }
        let (fields, nf) = arc_fields(t);
        let has_w = has_weight(nf).map_err(|k| err_at(epath, no, k))?;
        if *has_w_all.get_or_insert(has_w) != has_w {
            p.mixed = Some(no);
            return Ok(p);
        }
        p.weighted.get_or_insert((has_w, no));
        let id = |t: &[u8]| -> Result<u32, ReadError> {
            let lab = label(epath, no, t)?;
            id_of(lab).ok_or_else(|| {
                err_at(
                    epath,
                    no,
                    ReadErrorKind::IdOutOfRange {
                        id: show(t),
                        range: format!("the {n} vertices of {}", vpath.display()),
                    },
                )
            })
        };
        p.src.push(id(fields[0])?);
        p.dst.push(id(fields[1])?);
        if has_w {
            p.w.push(fields[2], no).map_err(|k| err_at(epath, no, k))?;
        }
    }
    Ok(p)
}

/// The labels of one piece of an LDBC `.v` file, and where their lines are not consecutive:
/// `(label index in the piece, its line)` at the first label and after each comment or blank.
struct VPiece {
    labels: Vec<i64>,
    runs: Vec<(usize, u64)>,
}

fn v_piece(piece: &[u8], first: u64, vpath: &Path) -> Result<VPiece, ReadError> {
    let mut p = VPiece {
        labels: Vec::with_capacity(piece.len() / 8 + 1),
        runs: Vec::new(),
    };
    let mut next = 0u64;
    for (no, l) in (first..).zip(chunks::lines_of(piece)) {
        let t = l.trim_ascii();
        if is_comment(t) {
            continue;
        }
        let mut toks = tokens(t);
        let lab = toks.next().expect("non-empty line");
        let more = toks.count();
        if more != 0 {
            return Err(err_at(
                vpath,
                no,
                ReadErrorKind::BadLine(format!(
                    "{} fields, a .v line holds one vertex id",
                    more + 1
                )),
            ));
        }
        if no != next {
            p.runs.push((p.labels.len(), no));
        }
        next = no + 1;
        p.labels.push(label(vpath, no, lab)?);
    }
    Ok(p)
}

/// The id of each label of an LDBC `.v` file (its position in the file): by arithmetic when
/// the labels are consecutive integers, by binary search when they increase, by a hash map
/// otherwise.
enum VertexIds {
    Consecutive(i64),
    Increasing,
    Hashed(HashMap<i64, u32>),
}

impl VertexIds {
    /// The ids of `labels` (read from `vpath`, label `i` on line `line_of(i)`); a label listed
    /// twice is refused at its second line.
    fn new(
        labels: &[i64],
        vpath: &Path,
        line_of: impl Fn(usize) -> u64,
    ) -> Result<Self, ReadError> {
        if labels.par_windows(2).all(|w| w[0] < w[1]) {
            let consecutive = labels
                .first()
                .zip(labels.last())
                .is_none_or(|(&a, &b)| b.checked_sub(a) == Some(labels.len() as i64 - 1));
            return Ok(if consecutive {
                VertexIds::Consecutive(labels.first().copied().unwrap_or(0))
            } else {
                VertexIds::Increasing
            });
        }
        let mut index = HashMap::with_capacity(labels.len());
        for (i, &lab) in labels.iter().enumerate() {
            if index.insert(lab, i as u32).is_some() {
                return Err(err_at(
                    vpath,
                    line_of(i),
                    ReadErrorKind::BadLine(format!("vertex {lab} listed twice")),
                ));
            }
        }
        Ok(VertexIds::Hashed(index))
    }

    /// The id of `lab`, if it is one of `labels`.
    fn get(&self, labels: &[i64], lab: i64) -> Option<u32> {
        match self {
            VertexIds::Consecutive(first) => lab
                .checked_sub(*first)
                .filter(|&d| d >= 0 && (d as u64) < labels.len() as u64)
                .map(|d| d as u32),
            VertexIds::Increasing => labels.binary_search(&lab).ok().map(|i| i as u32),
            VertexIds::Hashed(index) => index.get(&lab).copied(),
        }
    }
}

/// LDBC Graphalytics: the `.v` file lists vertex labels (their order gives ids `0..n`), the
/// `.e` file `src dst [weight]` by label (both parsed on every core).
pub(crate) fn read_ldbc(
    vreader: impl Read + Send,
    vpath: &Path,
    ereader: impl Read + Send,
    epath: &Path,
) -> Result<EdgeList, ReadError> {
    let mut labels: Vec<i64> = Vec::new();
    let mut runs: Vec<(usize, u64)> = Vec::new();
    chunks::par_lines(
        vreader,
        vpath,
        1,
        |piece, first| v_piece(piece, first, vpath),
        |ps| {
            let mut base = labels.len();
            for p in &ps {
                runs.extend(p.runs.iter().map(|&(i, no)| (base + i, no)));
                base += p.labels.len();
            }
            let parts: Vec<&[i64]> = ps.iter().map(|p| &p.labels[..]).collect();
            append_all(&mut labels, &parts, "vertices").map_err(|k| ReadError::file(vpath, k))
        },
    )?;
    let line_of = |i: usize| {
        let r = runs.partition_point(|&(j, _)| j <= i) - 1;
        runs[r].1 + (i - runs[r].0) as u64
    };
    if let Some(last) = labels.len().checked_sub(1) {
        check_vertices(vpath, line_of(last), labels.len() as u64)?;
    }
    let ids = VertexIds::new(&labels, vpath, line_of)?;
    let n = labels.len();
    let mut g = EdgeList::new(n, n);
    let mut w = WeightAcc::default();
    let mut weighted = None;
    chunks::par_lines(
        ereader,
        epath,
        1,
        |piece, first| ldbc_piece(piece, first, epath, vpath, &|l| ids.get(&labels, l), n),
        |ps| merge_pieces(ps, epath, (&mut g, &mut w), &mut weighted, |_| {}),
    )?;
    g.first_nonfinite = w.first_nonfinite;
    g.weights = w.finish(weighted == Some(true));
    g.labels = Some(labels);
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::lines::parse_int;

    /// What the general parse makes of an arc line: ids (checked against `lowest`) and the
    /// weight as an integer, `None` where it would refuse or read it otherwise.
    fn general(l: &[u8], lowest: u64) -> Option<(u64, u64, Option<i64>)> {
        let t = l.trim_ascii();
        let (f, nf) = arc_fields(t);
        let id = |t: &[u8]| parse_u64(t).filter(|&v| v >= lowest && v - lowest < u32::MAX as u64);
        let w = match nf {
            2 => None,
            3 => Some(i64::try_from(parse_int(f[2])?).ok()?),
            _ => return None,
        };
        Some((id(f[0])?, id(f[1])?, w))
    }

    #[test]
    fn plain_arcs_read_as_the_general_parse_reads_them() {
        let rng = crate::rng::Rng::new(7);
        let pieces: [&[u8]; 16] = [
            b"0",
            b"-0",
            b"-00",
            b"7",
            b"42",
            b"4294967295",
            b"4294967296",
            b"99999999999",
            b"-3",
            b"+5",
            b"007",
            b"123456789012345678",
            b"1234567890123456789",
            b"x",
            b"",
            b"1.5",
        ];
        let gaps: [&[u8]; 5] = [b" ", b"\t", b"  \t ", b"", b","];
        let mut plain = 0;
        for k in 0..40_000u64 {
            let pick = |j: u64, n: usize| rng.below(k * 8 + j, n as u64) as usize;
            let mut l = Vec::new();
            let fields = 2 + pick(0, 2);
            for f in 0..fields {
                if f > 0 {
                    l.extend_from_slice(gaps[pick(1 + f as u64, gaps.len())]);
                }
                l.extend_from_slice(pieces[pick(4 + f as u64, pieces.len())]);
            }
            if pick(7, 8) == 0 {
                l.push(b' ');
            }
            for lowest in [0, 1] {
                if let Some((u, v, w)) = plain_arc(&l, lowest) {
                    plain += 1;
                    let want = general(&l, lowest);
                    assert_eq!(Some((u, v, w.map(|w| w.1))), want, "{:?}", show(&l));
                    assert_eq!(
                        w.map(|w| parse_int(w.0)),
                        want.and_then(|g| g.2).map(|x| Some(i128::from(x)))
                    );
                }
            }
        }
        assert!(plain > 1000, "{plain} plain lines");
    }
}
