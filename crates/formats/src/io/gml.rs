//! GML (Graph Modelling Language) reader: `graph [ directed 0|1 node [ id N ... ]
//! edge [ source S target T value W ... ] ]`. Undirected graphs (the default) become
//! symmetric; `value` or `weight` is the edge weight.

use std::io::BufRead;
use std::path::Path;

use super::lines::{Lines, err_at, parse_i64, room, show};
use super::weights::WeightAcc;
use crate::edgelist::EdgeList;
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
    // The top level is a list of `key value` pairs (e.g. `Creator "..."`), one of which is
    // `graph [ ... ]`; anything else there (stray tokens, a second graph, padding) is an error.
    loop {
        match tk.next()? {
            Some((Tok::Key(k), line)) => match tk.next()? {
                Some((Tok::Open, _)) if k == "graph" => break,
                Some((Tok::Open, _)) => skip_list(&mut tk, path, &mut Vec::new())?,
                Some((Tok::Num(_) | Tok::Str, _)) if k != "graph" => {}
                _ => {
                    return Err(bad(
                        line,
                        format!("top-level key {k:?} needs a value (graph needs \"[\")"),
                    ));
                }
            },
            Some((other, line)) => {
                return Err(bad(
                    line,
                    format!(
                        "expected a key at the top level, found {}",
                        describe(&other)
                    ),
                ));
            }
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
    let mut id_lines: Vec<u64> = Vec::new();
    let mut edges: Vec<(i64, i64, bool, u64)> = Vec::new();
    let mut weights = WeightAcc::default();
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
                    ("directed", Tok::Num(n)) if matches!(parse_i64(&n), Some(0 | 1)) => {
                        directed = parse_i64(&n) == Some(1);
                    }
                    ("directed", other) => {
                        return Err(bad(
                            vline,
                            format!("directed {}: expected 0 or 1", describe(&other)),
                        ));
                    }
                    ("node" | "edge", Tok::Open) => {
                        let mut attrs: Vec<(String, Vec<u8>, u64)> = Vec::new();
                        skip_list(&mut tk, path, &mut attrs)?;
                        let get = |name: &str| attrs.iter().find(|a| a.0 == name);
                        let int = |name: &str| -> Result<i64, ReadError> {
                            let (_, v, l) = get(name)
                                .ok_or_else(|| bad(line, format!("{k} without {name}")))?;
                            parse_i64(v).ok_or_else(|| {
                                bad(*l, format!("{name} {:?} is not an integer", show(v)))
                            })
                        };
                        if k == "node" {
                            room(&mut ids, path, line)?;
                            room(&mut id_lines, path, line)?;
                            ids.push(int("id")?);
                            id_lines.push(line);
                        } else {
                            // Weights exactly as the other readers keep them: integers
                            // (i64, or u64 above it), reals, or an error.
                            let w = match get("value").or_else(|| get("weight")) {
                                None => false,
                                Some((_, v, _)) if v.starts_with(b"\"") => {
                                    return Err(err_at(
                                        path,
                                        line,
                                        ReadErrorKind::BadWeight {
                                            value: show(v),
                                            reason: "a quoted string; GML numbers are written \
                                                     without quotes"
                                                .into(),
                                        },
                                    ));
                                }
                                Some((_, v, l)) => {
                                    weights.push(v, *l).map_err(|k| err_at(path, *l, k))?;
                                    true
                                }
                            };
                            room(&mut edges, path, line)?;
                            edges.push((int("source")?, int("target")?, w, line));
                        }
                    }
                    (_, Tok::Open) => skip_list(&mut tk, path, &mut Vec::new())?,
                    (_, Tok::Close) => {
                        return Err(bad(vline, format!("key {k:?} without a value")));
                    }
                    _ => {}
                }
            }
            other => {
                return Err(bad(
                    line,
                    format!("expected a key, found {}", describe(&other)),
                ));
            }
        }
    }
    // After the graph: more top-level pairs only (no second graph, no stray tokens).
    while let Some((tok, line)) = tk.next()? {
        match tok {
            Tok::Key(k) if k != "graph" => match tk.next()? {
                Some((Tok::Open, _)) => skip_list(&mut tk, path, &mut Vec::new())?,
                Some((Tok::Num(_) | Tok::Str, _)) => {}
                _ => return Err(bad(line, format!("top-level key {k:?} needs a value"))),
            },
            Tok::Key(_) => return Err(bad(line, "a second \"graph\" in one file".into())),
            other => {
                return Err(bad(
                    line,
                    format!("{} after the graph's closing \"]\"", describe(&other)),
                ));
            }
        }
    }
    let mut index = std::collections::HashMap::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        if let Some(first) = index.insert(*id, i as u32) {
            return Err(err_at(
                path,
                id_lines[i],
                ReadErrorKind::BadLine(format!(
                    "node id {id} defined twice (first on line {})",
                    id_lines[first as usize]
                )),
            ));
        }
    }
    let n = ids.len();
    let mut g = EdgeList::new(n, n);
    let weighted = edges.iter().any(|e| e.2);
    if weighted && edges.iter().any(|e| !e.2) {
        return Err(ReadError::file(
            path,
            ReadErrorKind::BadLine("some edges have a value and some do not".into()),
        ));
    }
    for (s, t, _, line) in edges {
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
    }
    g.first_nonfinite = weights.first_nonfinite;
    g.weights = weights.finish(weighted);
    g.labels = Some(ids);
    if !directed {
        g.symmetrize();
    }
    Ok(g)
}

/// A token for messages, cut to a readable length.
fn describe(t: &Tok) -> String {
    match t {
        Tok::Open => "\"[\"".into(),
        Tok::Close => "\"]\"".into(),
        Tok::Key(k) => format!("key {:?}", super::lines::cut(k)),
        Tok::Num(v) => format!("value {:?}", super::lines::cut(&show(v))),
        Tok::Str => "a string".into(),
    }
}

/// Reads a list up to its `]` (its `[` already read), collecting its own scalar attributes;
/// nested lists are skipped. Iterative, so any nesting depth reads in constant stack.
fn skip_list<R: BufRead>(
    tk: &mut Tokenizer<R>,
    path: &Path,
    attrs: &mut Vec<(String, Vec<u8>, u64)>,
) -> Result<(), ReadError> {
    let mut depth = 0usize;
    loop {
        let Some((tok, line)) = tk.next()? else {
            return Err(err_at(
                path,
                tk.line,
                ReadErrorKind::BadLine("unclosed \"[\"".into()),
            ));
        };
        match tok {
            Tok::Close if depth == 0 => return Ok(()),
            Tok::Close => depth -= 1,
            Tok::Key(k) => match tk.next()? {
                Some((Tok::Open, _)) => depth += 1,
                Some((Tok::Num(v), l)) => {
                    if depth == 0 {
                        attrs.push((k, v, l));
                    }
                }
                Some((Tok::Str, l)) => {
                    // Kept (as a value no number parses from) so that a quoted id, source,
                    // target or weight is an error rather than an attribute dropped.
                    if depth == 0 {
                        attrs.push((k, b"\"...\"".to_vec(), l));
                    }
                }
                _ => {
                    return Err(err_at(
                        path,
                        line,
                        ReadErrorKind::BadLine(format!(
                            "key {:?} without a value",
                            super::lines::cut(&k)
                        )),
                    ));
                }
            },
            other => {
                return Err(err_at(
                    path,
                    line,
                    ReadErrorKind::BadLine(format!("expected a key, found {}", describe(&other))),
                ));
            }
        }
    }
}
