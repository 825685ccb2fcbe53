//! DIMACS 9th challenge `.gr` and `.ss` files, and PACE 2016 `p tw` edge lists.

use std::io::BufRead;
use std::path::Path;

use super::lines::{Lines, WeightAcc, check_vertices, err_at, parse_u64, room, show, tokens};
use crate::edgelist::EdgeList;
use crate::error::{ReadError, ReadErrorKind};

/// Reads `p sp n m` + `a u v w` (directed, weighted) or `p tw n m` + `u v` (undirected:
/// each edge becomes two arcs).
pub(crate) fn read_gr<R: BufRead>(mut lines: Lines<R>, path: &Path) -> Result<EdgeList, ReadError> {
    let mut header: Option<(bool, usize, u64)> = None; // (pace, n, m)
    let mut g = EdgeList::new(0, 0);
    g.base = 1;
    let mut w = WeightAcc::default();
    let mut count = 0u64;
    while let Some((no, l)) = lines.next_line()? {
        let toks: Vec<&[u8]> = tokens(l).collect();
        let Some(first) = toks.first() else { continue };
        match *first {
            b"c" => continue,
            b"p" => {
                if header.is_some() {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadHeader("a second \"p\" line".into()),
                    ));
                }
                let pace = match toks.get(1).copied() {
                    Some(b"sp") => false,
                    Some(b"tw") => true,
                    _ => {
                        return Err(err_at(
                            path,
                            no,
                            ReadErrorKind::BadHeader(
                                "expected \"p sp <n> <m>\" or \"p tw <n> <m>\"".into(),
                            ),
                        ));
                    }
                };
                if toks.len() != 4 {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadHeader(format!(
                            "\"p\" line with {} fields, expected 4",
                            toks.len()
                        )),
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
                g.nrows = n;
                g.ncols = n;
                header = Some((pace, n, m));
            }
            _ => {
                let Some((pace, n, m)) = header else {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadHeader("an edge before the \"p\" line".into()),
                    ));
                };
                let edge = if pace {
                    &toks[..]
                } else if toks[0] == b"a" {
                    &toks[1..]
                } else {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadLine(format!("unknown line type {:?}", show(toks[0]))),
                    ));
                };
                let want = if pace { 2 } else { 3 };
                if edge.len() != want {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::BadLine(format!(
                            "{} fields, expected {}",
                            edge.len(),
                            if pace { "\"u v\"" } else { "\"a u v w\"" }
                        )),
                    ));
                }
                if count == m {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::CountMismatch {
                            what: "edges",
                            declared: m,
                            found: m + 1,
                        },
                    ));
                }
                let id = |t: &[u8]| -> Result<u32, ReadError> {
                    match parse_u64(t) {
                        Some(v) if v >= 1 && v <= n as u64 => Ok((v - 1) as u32),
                        _ => Err(err_at(
                            path,
                            no,
                            ReadErrorKind::IdOutOfRange {
                                id: show(t),
                                range: format!("1..={n}"),
                            },
                        )),
                    }
                };
                let (u, v) = (id(edge[0])?, id(edge[1])?);
                room(&mut g.src, path, no)?;
                room(&mut g.dst, path, no)?;
                g.src.push(u);
                g.dst.push(v);
                if pace {
                    if u != v {
                        room(&mut g.src, path, no)?;
                        room(&mut g.dst, path, no)?;
                        g.src.push(v);
                        g.dst.push(u);
                    }
                } else {
                    w.push(edge[2], no).map_err(|k| err_at(path, no, k))?;
                }
                count += 1;
            }
        }
    }
    let Some((pace, _, m)) = header else {
        return Err(ReadError::file(
            path,
            ReadErrorKind::BadHeader("no \"p\" line".into()),
        ));
    };
    if count != m {
        return Err(err_at(
            path,
            lines.line(),
            ReadErrorKind::CountMismatch {
                what: "edges",
                declared: m,
                found: count,
            },
        ));
    }
    g.first_nonfinite = w.first_nonfinite;
    g.weights = w.finish(!pace);
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
