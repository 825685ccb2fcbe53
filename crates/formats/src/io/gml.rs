//! GML (Graph Modelling Language) reader: `graph [ directed 0|1 node [ id N ... ]
//! edge [ source S target T value W ... ] ]`. Undirected graphs (the default) become
//! symmetric; `value` or `weight` is the edge weight.

use std::io::BufRead;
use std::path::Path;

use super::lines::{Lines, err_at, parse_f64, parse_i64, show};
use crate::edgelist::{EdgeList, Weights};
use crate::error::{ReadError, ReadErrorKind};

#[derive(Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    Key(String),
    Num(Vec<u8>),
    Str,
}

/// Streams GML tokens with their line numbers.
struct Tokenizer<R> {
    lines: Lines<R>,
    cur: Vec<u8>,
    pos: usize,
    line: u64,
}

impl<R: BufRead> Tokenizer<R> {
    fn next(&mut self) -> Result<Option<(Tok, u64)>, ReadError> {
        loop {
            while self.pos < self.cur.len() && self.cur[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos >= self.cur.len() {
                match self.lines.next_line()? {
                    Some((no, l)) => {
                        self.cur = l.to_vec();
                        self.pos = 0;
                        self.line = no;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            let c = self.cur[self.pos];
            let line = self.line;
            if c == b'#' {
                self.pos = self.cur.len();
                continue;
            }
            if c == b'[' || c == b']' {
                self.pos += 1;
                return Ok(Some((if c == b'[' { Tok::Open } else { Tok::Close }, line)));
            }
            if c == b'"' {
                // A string, possibly over several lines.
                self.pos += 1;
                loop {
                    if let Some(k) = self.cur[self.pos..].iter().position(|&b| b == b'"') {
                        self.pos += k + 1;
                        return Ok(Some((Tok::Str, line)));
                    }
                    match self.lines.next_line()? {
                        Some((no, l)) => {
                            self.cur = l.to_vec();
                            self.pos = 0;
                            self.line = no;
                        }
                        None => {
                            return Err(err_at(
                                self.lines.path(),
                                line,
                                ReadErrorKind::BadLine("unterminated string".into()),
                            ));
                        }
                    }
                }
            }
            let start = self.pos;
            while self.pos < self.cur.len()
                && !self.cur[self.pos].is_ascii_whitespace()
                && !b"[]\"".contains(&self.cur[self.pos])
            {
                self.pos += 1;
            }
            let word = &self.cur[start..self.pos];
            let tok = if word[0].is_ascii_alphabetic() || word[0] == b'_' {
                Tok::Key(show(word))
            } else {
                Tok::Num(word.to_vec())
            };
            return Ok(Some((tok, line)));
        }
    }
}

pub(crate) fn read<R: BufRead>(lines: Lines<R>, path: &Path) -> Result<EdgeList, ReadError> {
    let mut tk = Tokenizer {
        lines,
        cur: Vec::new(),
        pos: 0,
        line: 0,
    };
    let bad = |line: u64, msg: String| err_at(path, line, ReadErrorKind::BadLine(msg));
    // Find `graph [`.
    loop {
        match tk.next()? {
            Some((Tok::Key(k), _)) if k == "graph" => match tk.next()? {
                Some((Tok::Open, _)) => break,
                other => {
                    return Err(bad(
                        other.map(|o| o.1).unwrap_or(0),
                        "expected \"[\" after \"graph\"".into(),
                    ));
                }
            },
            Some(_) => continue,
            None => {
                return Err(ReadError::file(
                    path,
                    ReadErrorKind::BadHeader("no \"graph [\" found".into()),
                ));
            }
        }
    }
    let mut directed = false;
    let mut ids: Vec<i64> = Vec::new();
    let mut edges: Vec<(i64, i64, Option<f64>, u64)> = Vec::new();
    let mut first_nonfinite = None;
    loop {
        let Some((tok, line)) = tk.next()? else {
            return Err(bad(tk.line, "the graph's \"[\" is never closed".into()));
        };
        match tok {
            Tok::Close => break,
            Tok::Key(k) => {
                let Some((val, vline)) = tk.next()? else {
                    return Err(bad(line, format!("key {k:?} without a value")));
                };
                match (k.as_str(), val) {
                    ("directed", Tok::Num(n)) => directed = parse_i64(&n) == Some(1),
                    ("node" | "edge", Tok::Open) => {
                        let mut attrs: Vec<(String, Vec<u8>, u64)> = Vec::new();
                        read_list(&mut tk, path, 0, &mut attrs)?;
                        let get = |name: &str| attrs.iter().find(|a| a.0 == name);
                        let int = |name: &str| -> Result<i64, ReadError> {
                            let (_, v, l) = get(name)
                                .ok_or_else(|| bad(line, format!("{k} without {name}")))?;
                            parse_i64(v).ok_or_else(|| {
                                bad(*l, format!("{name} {:?} is not an integer", show(v)))
                            })
                        };
                        if k == "node" {
                            ids.push(int("id")?);
                        } else {
                            let w = match get("value").or_else(|| get("weight")) {
                                None => None,
                                Some((_, v, l)) => match parse_f64(v) {
                                    Some(x) if !x.is_nan() => {
                                        if !x.is_finite() && first_nonfinite.is_none() {
                                            first_nonfinite = Some((*l, x));
                                        }
                                        Some(x)
                                    }
                                    _ => {
                                        return Err(err_at(
                                            path,
                                            *l,
                                            ReadErrorKind::BadWeight {
                                                value: show(v),
                                                reason: "not a number".into(),
                                            },
                                        ));
                                    }
                                },
                            };
                            edges.push((int("source")?, int("target")?, w, line));
                        }
                    }
                    (_, Tok::Open) => read_list(&mut tk, path, 1, &mut Vec::new())?,
                    (_, Tok::Close) => {
                        return Err(bad(vline, format!("key {k:?} without a value")));
                    }
                    _ => {}
                }
            }
            other => return Err(bad(line, format!("expected a key, found {other:?}"))),
        }
    }
    let mut index = std::collections::HashMap::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        if index.insert(*id, i as u32).is_some() {
            return Err(ReadError::file(
                path,
                ReadErrorKind::BadLine(format!("node id {id} defined twice")),
            ));
        }
    }
    let n = ids.len();
    let mut g = EdgeList::new(n, n);
    let weighted = edges.iter().any(|e| e.2.is_some());
    if weighted && edges.iter().any(|e| e.2.is_none()) {
        return Err(ReadError::file(
            path,
            ReadErrorKind::BadLine("some edges have a value and some do not".into()),
        ));
    }
    let mut ws = Vec::new();
    for (s, t, w, line) in edges {
        let id = |x: i64| {
            index.get(&x).copied().ok_or_else(|| {
                err_at(
                    path,
                    line,
                    ReadErrorKind::IdOutOfRange {
                        id: x.to_string(),
                        range: "the node ids of the file".into(),
                    },
                )
            })
        };
        g.src.push(id(s)?);
        g.dst.push(id(t)?);
        if let Some(w) = w {
            ws.push(w);
        }
    }
    if weighted {
        g.weights = Weights::Real(ws);
    }
    g.labels = Some(ids);
    g.first_nonfinite = first_nonfinite;
    if !directed {
        g.symmetrize();
    }
    Ok(g)
}

/// Reads a list up to its `]`, collecting the scalar attributes at nesting `depth` 0.
fn read_list<R: BufRead>(
    tk: &mut Tokenizer<R>,
    path: &Path,
    depth: usize,
    attrs: &mut Vec<(String, Vec<u8>, u64)>,
) -> Result<(), ReadError> {
    loop {
        let Some((tok, line)) = tk.next()? else {
            return Err(err_at(
                path,
                tk.line,
                ReadErrorKind::BadLine("unclosed \"[\"".into()),
            ));
        };
        match tok {
            Tok::Close => return Ok(()),
            Tok::Key(k) => match tk.next()? {
                Some((Tok::Open, _)) => read_list(tk, path, depth + 1, &mut Vec::new())?,
                Some((Tok::Num(v), l)) => {
                    if depth == 0 {
                        attrs.push((k, v, l));
                    }
                }
                Some((Tok::Str, _)) => {}
                _ => {
                    return Err(err_at(
                        path,
                        line,
                        ReadErrorKind::BadLine(format!("key {k:?} without a value")),
                    ));
                }
            },
            other => {
                return Err(err_at(
                    path,
                    line,
                    ReadErrorKind::BadLine(format!("expected a key, found {other:?}")),
                ));
            }
        }
    }
}
