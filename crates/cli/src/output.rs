//! Writing results: `#` header lines then one line per vertex, or JSON; to stdout or, with
//! `--output`, atomically to a file.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use rayon::prelude::*;
use semigraph_algos::{Apsp, Distance};
use semigraph_formats::EdgeList;
use semigraph_formats::io::npy::{NpyElem, write_npy};
use semigraph_formats::io::write_atomic;
use serde_json::{Value, json};

use crate::args::Common;
use crate::error::{CliError, Res};

/// Where results go.
pub struct Output {
    path: Option<std::path::PathBuf>,
    pub json: bool,
    quiet: bool,
}

impl Output {
    pub fn new(c: &Common) -> Output {
        Output {
            path: c.output.clone(),
            json: c.json,
            quiet: c.quiet,
        }
    }

    /// Runs `body` on stdout or on a temporary file renamed over `--output` when it succeeds.
    pub fn write(&self, body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Res<()> {
        match &self.path {
            Some(p) => write_atomic(p, body).map_err(|e| CliError(format!("{}: {e}", p.display()))),
            None => {
                let stdout = io::stdout();
                let mut w = io::BufWriter::with_capacity(1 << 20, stdout.lock());
                match body(&mut w).and_then(|_| w.flush()) {
                    // A closed pipe (`| head`) is not an error.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                    r => r.map_err(|e| CliError(format!("stdout: {e}"))),
                }
            }
        }
    }
}

/// One field of an output header: the text of its `# key: text` line, and the value of its
/// JSON field (numbers as numbers, times in milliseconds).
pub(crate) struct Field {
    pub(crate) key: String,
    pub(crate) text: String,
    pub(crate) json: serde_json::Value,
}

impl Field {
    /// A field whose JSON value is its text (names, reasons).
    pub(crate) fn text(key: &str, text: String) -> Field {
        Field {
            key: key.into(),
            json: serde_json::Value::String(text.clone()),
            text,
        }
    }
    /// A field with a JSON value of its own.
    pub(crate) fn with(key: &str, text: String, json: serde_json::Value) -> Field {
        Field {
            key: key.into(),
            text,
            json,
        }
    }
}

/// `# key: text` lines (text) or top-level fields (JSON, with numbers as numbers).
pub struct Header(Vec<Field>);

impl Header {
    pub fn new(command: &str, file: &Path, g: &EdgeList) -> Header {
        Header(vec![
            Field::text("command", command.into()),
            Field::with(
                "graph",
                format!(
                    "{}: {} vertices, {} arcs",
                    file.display(),
                    g.num_vertices(),
                    g.len()
                ),
                json!({"file": file.display().to_string(), "vertices": g.num_vertices(),
                    "arcs": g.len()}),
            ),
        ])
    }
    pub fn push(&mut self, f: Field) {
        self.0.push(f);
    }
    pub fn extend(&mut self, fields: Vec<Field>) {
        self.0.extend(fields);
    }
    pub fn fields(&self) -> &[Field] {
        &self.0
    }
    pub(crate) fn text(&self, w: &mut dyn Write) -> io::Result<()> {
        for f in &self.0 {
            writeln!(w, "# {}: {}", f.key, f.text)?;
        }
        Ok(())
    }
    fn json(&self) -> serde_json::Map<String, Value> {
        self.0
            .iter()
            .map(|f| (f.key.clone(), f.json.clone()))
            .collect()
    }
}

/// Traversed edges per second, as MTEPS or GTEPS.
pub fn teps(arcs: usize, t: Duration) -> String {
    let teps = arcs as f64 / t.as_secs_f64().max(1e-9);
    if teps >= 1e9 {
        format!("{:.2} GTEPS", teps / 1e9)
    } else {
        format!("{:.1} MTEPS", teps / 1e6)
    }
}

pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else {
        format!("{:.3} ms", s * 1e3)
    }
}

/// One line per vertex `v` in `0..n`, `id value parent`, ids in the input's numbering; `inf`
/// for no value, `-` for no parent. JSON: `{header..., "vertices": [{"id", "value",
/// "parent"}]}` with `null`s, streamed (no document held in memory). `n` is the graph's vertex
/// count for a traversal, the matrix's row count for a product (`y = A x` has a value per row,
/// however many columns `A` has).
pub fn write_vertices(
    out: &Output,
    h: &Header,
    g: &EdgeList,
    n: usize,
    value: impl Fn(usize) -> Option<String> + Sync,
    parent: impl Fn(usize) -> Option<u32> + Sync,
) -> Res<()> {
    out.write(|w| {
        if out.json {
            write_json_vertices(w, h, n, |v| {
                // Numbers stay exact: serde reads integers as i64/u64, not f64.
                let val = value(v).map(|s| json_number(&s));
                json!({"id": g.vertex_label(v), "value": val,
                    "parent": parent(v).map(|p| g.vertex_label(p as usize))})
            })
        } else {
            h.text(w)?;
            write_lines(w, n, |v, w| {
                let val = value(v).unwrap_or_else(|| "inf".into());
                match parent(v) {
                    Some(p) => writeln!(
                        w,
                        "{} {val} {}",
                        g.vertex_label(v),
                        g.vertex_label(p as usize)
                    ),
                    None => writeln!(w, "{} {val} -", g.vertex_label(v)),
                }
            })
        }
    })
}

/// Writes lines `0..n` to `w` in order, each written by `line`: pieces of lines formatted on
/// every core, a batch of pieces at a time (the output of millions of vertices is bound by
/// formatting, not by the disk).
pub(crate) fn write_lines(
    w: &mut dyn Write,
    n: usize,
    line: impl Fn(usize, &mut Vec<u8>) -> io::Result<()> + Sync,
) -> io::Result<()> {
    const PIECE: usize = 1 << 14;
    const BATCH: usize = 64 * PIECE;
    for start in (0..n).step_by(BATCH) {
        let end = (start + BATCH).min(n);
        let pieces = (start..end)
            .step_by(PIECE)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|p| {
                let mut buf = Vec::with_capacity(PIECE * 16);
                for v in p..(p + PIECE).min(end) {
                    line(v, &mut buf)?;
                }
                Ok(buf)
            })
            .collect::<io::Result<Vec<Vec<u8>>>>()?;
        for p in pieces {
            w.write_all(&p)?;
        }
    }
    Ok(())
}

/// A value's text as a JSON number when it is one (integers exactly), else as a string
/// (`inf`, `NaN`).
pub(crate) fn json_number(s: &str) -> Value {
    serde_json::from_str::<Value>(s)
        .ok()
        .filter(Value::is_number)
        .unwrap_or_else(|| json!(s))
}

/// Writes `{` and the header's fields, each followed by a comma: the caller writes the last
/// field and the closing `}`.
pub(crate) fn open_json(w: &mut dyn Write, h: &Header) -> io::Result<()> {
    w.write_all(b"{")?;
    for (k, v) in h.json() {
        serde_json::to_writer(&mut *w, &k).map_err(io::Error::other)?;
        w.write_all(b":")?;
        serde_json::to_writer(&mut *w, &v).map_err(io::Error::other)?;
        w.write_all(b",")?;
    }
    Ok(())
}

/// One line per source of a multi-source run: `source reached COL1 COL2` (text, after the
/// header) or `{"sources": [{"source", "reached", COL1, COL2}]}` (JSON), sources in the
/// input's numbering.
pub fn write_summary(
    out: &Output,
    h: &Header,
    g: &EdgeList,
    cols: [&str; 2],
    rows: &[(usize, usize, String, String)],
) -> Res<()> {
    let num = json_number;
    out.write(|w| {
        if out.json {
            let mut obj = h.json();
            let list: Vec<Value> = rows
                .iter()
                .map(|(s, reached, a, b)| {
                    let mut o = serde_json::Map::new();
                    o.insert("source".into(), json!(g.vertex_label(*s)));
                    o.insert("reached".into(), json!(reached));
                    o.insert(cols[0].into(), num(a));
                    o.insert(cols[1].into(), num(b));
                    Value::Object(o)
                })
                .collect();
            obj.insert("sources".into(), Value::Array(list));
            serde_json::to_writer(&mut *w, &Value::Object(obj)).map_err(io::Error::other)?;
            writeln!(w)
        } else {
            h.text(w)?;
            writeln!(w, "# source reached {} {}", cols[0], cols[1])?;
            for (s, reached, a, b) in rows {
                writeln!(w, "{} {reached} {a} {b}", g.vertex_label(*s))?;
            }
            Ok(())
        }
    })
}

/// `true` if `p` names a `NumPy` file (`.npy`).
fn is_npy(p: &Path) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case("npy"))
}

/// Distances as Matrix Market (`i j dist`, 1-based positions, unreachable pairs omitted), and
/// next hops to `next_path` if given. JSON: `{header..., "n", "dist": [[...]]}` with `null`s.
/// An output (or next-hop) file named `*.npy` gets a `NumPy` array instead: `n x n`, row-major,
/// the distance type (`inf` for no path in `f32`/`f64`, the type's maximum in `i32`/`i64`);
/// next hops as `u32`, 0-based, 4294967295 for none. The header lines then go to stderr.
pub fn write_apsp<D: Distance + NpyElem>(
    out: &Output,
    h: &Header,
    r: &Apsp<D>,
    next_path: Option<&Path>,
    integer: bool,
) -> Res<()> {
    let n = r.n;
    let field = if integer { "integer" } else { "real" };
    if let Some(p) = out.path.as_deref().filter(|p| is_npy(p)) {
        write_atomic(p, |w| write_npy(w, n, n, &r.dist))
            .map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        if !out.quiet {
            let mut e = io::stderr().lock();
            for f in &h.0 {
                let _ = writeln!(e, "# {}: {}", f.key, f.text);
            }
            let none = if integer {
                format!("{} (the type's maximum)", D::INFINITY)
            } else {
                "inf".to_string()
            };
            let _ = writeln!(
                e,
                "# wrote {} ({n} x {n} {}, row-major; no path = {none})",
                p.display(),
                D::DESCR
            );
        }
    } else {
        write_apsp_text(out, h, r, field)?;
    }
    if let (Some(p), Some(next)) = (next_path.filter(|p| is_npy(p)), &r.next) {
        write_atomic(p, |w| write_npy(w, n, n, next))
            .map_err(|e| CliError(format!("{}: {e}", p.display())))?;
        return Ok(());
    }
    write_next_hops_text(r, next_path)
}

/// [`write_apsp`]'s text and JSON forms of the distances.
fn write_apsp_text<D: Distance>(out: &Output, h: &Header, r: &Apsp<D>, field: &str) -> Res<()> {
    let n = r.n;
    out.write(|w| {
        if out.json {
            open_json(w, h)?;
            write!(w, "\"n\":{n},\"dist\":[")?;
            for i in 0..n {
                w.write_all(if i > 0 { b",[" } else { b"[" })?;
                for j in 0..n {
                    if j > 0 {
                        w.write_all(b",")?;
                    }
                    match r.distance(i, j) {
                        Some(d) => w.write_all(json_number(&d.text()).to_string().as_bytes())?,
                        None => w.write_all(b"null")?,
                    }
                }
                w.write_all(b"]")?;
            }
            return writeln!(w, "]}}");
        }
        let count = r.dist.iter().filter(|&&d| d != D::INFINITY).count();
        writeln!(w, "%%MatrixMarket matrix coordinate {field} general")?;
        for f in &h.0 {
            writeln!(w, "% {}: {}", f.key, f.text)?;
        }
        writeln!(w, "{n} {n} {count}")?;
        for i in 0..n {
            for j in 0..n {
                if let Some(d) = r.distance(i, j) {
                    writeln!(w, "{} {} {}", i + 1, j + 1, d.text())?;
                }
            }
        }
        Ok(())
    })
}

/// [`write_apsp`]'s Matrix Market next hops (1-based).
fn write_next_hops_text<D: Distance>(r: &Apsp<D>, next_path: Option<&Path>) -> Res<()> {
    let n = r.n;
    if let (Some(p), Some(next)) = (next_path, &r.next) {
        let count = next.iter().filter(|&&x| x != u32::MAX).count();
        write_atomic(p, |w| {
            writeln!(w, "%%MatrixMarket matrix coordinate integer general")?;
            writeln!(
                w,
                "% next hop: entry (i, j) is the vertex after i on a shortest path i -> j (1-based)"
            )?;
            writeln!(w, "{n} {n} {count}")?;
            for i in 0..n {
                for j in 0..n {
                    let x = next[i * n + j];
                    if x != u32::MAX {
                        writeln!(w, "{} {} {}", i + 1, j + 1, x + 1)?;
                    }
                }
            }
            Ok(())
        })
        .map_err(|e| CliError(format!("{}: {e}", p.display())))?;
    }
    Ok(())
}

/// A note on stderr, unless `--quiet`.
pub(crate) fn note(c: &Common, msg: &str) {
    if !c.quiet {
        eprintln!("semigraph: {msg}");
    }
}

/// The command line as run, for the output's header.
pub(crate) fn command_line() -> String {
    std::env::args()
        .map(|a| if a.contains(' ') { format!("{a:?}") } else { a })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A BFS from one source: the `reached` header line, then each vertex's level and parent.
pub(crate) fn write_bfs(
    out: &Output,
    mut h: Header,
    g: &EdgeList,
    r: &semigraph_algos::Bfs,
) -> Res<()> {
    h.push(Field::with(
        "reached",
        format!(
            "{} of {} vertices, depth {}",
            r.reached,
            g.num_vertices(),
            r.depth
        ),
        serde_json::json!({"vertices": r.reached, "of": g.num_vertices(), "depth": r.depth}),
    ));
    write_vertices(
        out,
        &h,
        g,
        g.num_vertices(),
        |v| r.level(v).map(|l| l.to_string()),
        |v| r.parent(v),
    )
}

/// The JSON of a per-vertex result: `{` the header's fields, then `"vertices": [...]` of one
/// `item(v)` per vertex, `}`.
pub(crate) fn write_json_vertices(
    w: &mut dyn Write,
    h: &Header,
    n: usize,
    item: impl Fn(usize) -> Value,
) -> io::Result<()> {
    open_json(w, h)?;
    write!(w, "\"vertices\":[")?;
    for v in 0..n {
        if v > 0 {
            w.write_all(b",")?;
        }
        serde_json::to_writer(&mut *w, &item(v)).map_err(io::Error::other)?;
    }
    writeln!(w, "]}}")
}
