//! DIMACS 9th challenge `.gr` and `.ss` files, and PACE 2016 `p tw` edge lists.

use std::io::BufRead;
use std::path::Path;

use super::chunks::{self, append_arcs};
use super::lines::{Lines, check_vertices, err_at, parse_u64, plain_arc, show, tokens};
use super::weights::WeightAcc;
use crate::edgelist::EdgeList;
use crate::error::{ReadError, ReadErrorKind};

/// The `p` line of a `.gr` file: PACE (`p tw`, undirected, unweighted) or DIMACS (`p sp`),
/// the number of vertices and of edge lines.
#[derive(Clone, Copy)]
struct Header {
    pace: bool,
    n: usize,
    m: u64,
}

/// Parses a `p` line (`toks` its fields, `no` its number).
fn header(toks: &[&[u8]], path: &Path, no: u64) -> Result<Header, ReadError> {
    let pace = match toks.get(1).copied() {
        Some(b"sp") => false,
        Some(b"tw") => true,
        _ => {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadHeader("expected \"p sp <n> <m>\" or \"p tw <n> <m>\"".into()),
            ));
        }
    };
    if toks.len() != 4 {
        return Err(err_at(
            path,
            no,
            ReadErrorKind::BadHeader(format!("\"p\" line with {} fields, expected 4", toks.len())),
        ));
    }
    let num = |t: &[u8]| {
        parse_u64(t).ok_or_else(|| {
            err_at(
                path,
                no,
                ReadErrorKind::BadHeader(format!("{:?} is not a count", show(t))),
            )
        })
    };
    let n = check_vertices(path, no, num(toks[2])?)?;
    let m = num(toks[3])?;
    Ok(Header { pace, n, m })
}

/// The arcs of one piece of edge lines, their weights, and the number of edge lines.
struct GrPiece {
    src: Vec<u32>,
    dst: Vec<u32>,
    w: WeightAcc,
    edges: u64,
    /// The number of the piece's last line.
    last: u64,
}

impl GrPiece {
    /// Adds the arc `u -> v` (0-based), and `v -> u` for an edge of a PACE file.
    fn add(&mut self, u: u32, v: u32, pace: bool) {
        self.src.push(u);
        self.dst.push(v);
        if pace && u != v {
            self.src.push(v);
            self.dst.push(u);
        }
    }
}

/// Parses the lines of one piece after the `p` line (the first numbered `first`).
fn gr_piece(piece: &[u8], first: u64, path: &Path, h: Header) -> Result<GrPiece, ReadError> {
    let guess = piece.len() / 16 + 1;
    let mut p = GrPiece {
        src: Vec::with_capacity(guess),
        dst: Vec::with_capacity(guess),
        w: WeightAcc::default(),
        edges: 0,
        last: first.saturating_sub(1),
    };
    let (want, shape) = if h.pace {
        (2, "\"u v\"")
    } else {
        (3, "\"a u v w\"")
    };
    for (no, l) in (first..).zip(chunks::lines_of(piece)) {
        p.last = no;
        // Most lines: `a u v w` with an integer weight (`u v` in PACE files), ids in range.
        let arc = if h.pace {
            Some(l)
        } else {
            l.strip_prefix(b"a")
                .filter(|r| matches!(r.first(), Some(b' ' | b'\t')))
                .map(<[u8]>::trim_ascii_start)
        };
        if let Some((u, v, w)) = arc.and_then(|a| plain_arc(a, 1))
            && u <= h.n as u64
            && v <= h.n as u64
            && w.is_some() != h.pace
        {
            p.add((u - 1) as u32, (v - 1) as u32, h.pace);
            if let Some((tok, x)) = w {
                p.w.push_integer(tok, x, no)
                    .map_err(|k| err_at(path, no, k))?;
            }
            p.edges += 1;
            continue;
        }
        // Up to 4 fields kept, all counted.
        let mut it = tokens(l);
        let mut toks: [&[u8]; 4] = [&[]; 4];
        let mut nf = 0usize;
        for t in it.by_ref().take(4) {
            toks[nf] = t;
            nf += 1;
        }
        let nf = nf + it.count();
        if nf == 0 || toks[0] == b"c" {
            continue;
        }
        if toks[0] == b"p" {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadHeader("a second \"p\" line".into()),
            ));
        }
        let (edge, fields) = if h.pace {
            (&toks[..], nf)
        } else if toks[0] == b"a" {
            (&toks[1..], nf - 1)
        } else {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!("unknown line type {:?}", show(toks[0]))),
            ));
        };
        if fields != want {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!("{fields} fields, expected {shape}")),
            ));
        }
        let id = |t: &[u8]| -> Result<u32, ReadError> {
            match parse_u64(t) {
                Some(v) if v >= 1 && v <= h.n as u64 => Ok((v - 1) as u32),
                _ => Err(err_at(
                    path,
                    no,
                    ReadErrorKind::IdOutOfRange {
                        id: show(t),
                        range: format!("1..={}", h.n),
                    },
                )),
            }
        };
        let (u, v) = (id(edge[0])?, id(edge[1])?);
        p.add(u, v, h.pace);
        if !h.pace {
            p.w.push(edge[2], no).map_err(|k| err_at(path, no, k))?;
        }
        p.edges += 1;
    }
    Ok(p)
}

/// Reads `p sp n m` + `a u v w` (directed, weighted) or `p tw n m` + `u v` (undirected:
/// each edge becomes two arcs). The lines up to the `p` line are read one by one, the edge
/// lines after it on every core ([`chunks::par_lines`]).
pub(crate) fn read_gr(reader: impl BufRead + Send, path: &Path) -> Result<EdgeList, ReadError> {
    let mut lines = Lines::new(reader, path);
    let mut found: Option<Header> = None;
    while let Some((no, l)) = lines.next_line()? {
        let toks: Vec<&[u8]> = tokens(l).collect();
        match toks.first().copied() {
            None | Some(b"c") => {}
            Some(b"p") => {
                found = Some(header(&toks, path, no)?);
                break;
            }
            Some(_) => {
                return Err(err_at(
                    path,
                    no,
                    ReadErrorKind::BadHeader("an edge before the \"p\" line".into()),
                ));
            }
        }
    }
    let Some(h) = found else {
        return Err(ReadError::file(
            path,
            ReadErrorKind::BadHeader("no \"p\" line".into()),
        ));
    };
    let mut last = lines.line();
    let rest = lines.into_rest()?;
    let mut g = EdgeList::new(h.n, h.n);
    g.base = 1;
    let mut w = WeightAcc::default();
    let mut count = 0u64;
    chunks::par_lines(
        rest,
        path,
        last + 1,
        |piece, first| gr_piece(piece, first, path, h),
        |ps| {
            append_arcs((&mut g.src, &mut g.dst), &ps, |p| (&p.src, &p.dst))
                .map_err(|k| ReadError::file(path, k))?;
            let mut weights = Vec::with_capacity(ps.len());
            for p in ps {
                count += p.edges;
                last = last.max(p.last);
                weights.push(p.w);
            }
            w.append_all(weights).map_err(|(no, k)| err_at(path, no, k))
        },
    )?;
    if count != h.m {
        return Err(err_at(
            path,
            last,
            ReadErrorKind::CountMismatch {
                what: "edges",
                declared: h.m,
                found: count,
            },
        ));
    }
    g.first_nonfinite = w.first_nonfinite;
    g.weights = w.finish(!h.pace);
    Ok(g)
}

/// Reads a DIMACS source file (`p aux sp ss k`, then `s v` lines): 0-based vertex ids.
pub fn read_sources(path: impl AsRef<Path>) -> Result<Vec<u32>, ReadError> {
    let path = path.as_ref();
    let mut lines = super::open(path, &super::ReadOptions::default())?;
    let mut declared: Option<u64> = None;
    let mut out = Vec::new();
    while let Some((no, l)) = lines.next_line()? {
        let toks: Vec<&[u8]> = tokens(l).collect();
        match toks.first().copied() {
            None | Some(b"c") => {}
            Some(b"p") => {
                if toks.len() != 5 || toks[1] != b"aux" || toks[2] != b"sp" || toks[3] != b"ss" {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadHeader("expected \"p aux sp ss <count>\"".into()),
                    ));
                }
                declared = Some(parse_u64(toks[4]).ok_or_else(|| {
                    err_at(
                        path,
                        no,
                        ReadErrorKind::BadHeader(format!("{:?} is not a count", show(toks[4]))),
                    )
                })?);
            }
            Some(b"s") if toks.len() == 2 => match parse_u64(toks[1]) {
                Some(v) if v >= 1 && v <= u32::MAX as u64 => out.push((v - 1) as u32),
                _ => {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::IdOutOfRange {
                            id: show(toks[1]),
                            range: "1..".into(),
                        },
                    ));
                }
            },
            Some(t) => {
                return Err(err_at(
                    path,
                    no,
                    ReadErrorKind::BadLine(format!("unexpected {:?}", show(t))),
                ));
            }
        }
    }
    match declared {
        None => Err(ReadError::file(
            path,
            ReadErrorKind::BadHeader("no \"p aux sp ss\" line".into()),
        )),
        Some(d) if d != out.len() as u64 => Err(ReadError::file(
            path,
            ReadErrorKind::CountMismatch {
                what: "sources",
                declared: d,
                found: out.len() as u64,
            },
        )),
        Some(_) => Ok(out),
    }
}
