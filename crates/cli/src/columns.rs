//! Writing a registry algorithm's result: its facts as header fields, its columns as one line
//! per vertex (or JSON), vertices and classes in the input's numbering.

use semigraph_algos::registry::{self, Values};
use semigraph_formats::EdgeList;
use serde_json::{Value, json};

use crate::error::Res;
use crate::output::{Field, Header, Output, json_number, write_json_vertices, write_lines};

/// A fact of a result as a header field: its text, and in JSON its scalar or an object of
/// its scalars.
pub(crate) fn fact_field(f: &registry::Fact) -> Field {
    let scalar = |s: &registry::Scalar| match *s {
        registry::Scalar::Int(i) => json!(i),
        registry::Scalar::Real(x) => json!(x),
        registry::Scalar::MaybeReal(x) => json!(x),
    };
    let value = if f.is_bare() {
        scalar(&f.scalars[0].1)
    } else {
        Value::Object(
            f.scalars
                .iter()
                .map(|(k, s)| (k.to_string(), scalar(s)))
                .collect(),
        )
    };
    Field::with(f.name, f.text.clone(), value)
}

/// The text of column `values` at vertex `v`, in the file's numbering (`classes`: each
/// class's smallest id, for [`Values::Class`]); `None` where there is no value.
fn cell(g: &EdgeList, values: &Values, classes: Option<&[i64]>, v: usize) -> Option<String> {
    const NONE: u32 = registry::NONE;
    match values {
        Values::Real(x) => Some(semigraph_formats::real_text(x[v], x[v])),
        Values::Int(x) => Some(x[v].to_string()),
        Values::Level(x) => (x[v] != NONE).then(|| x[v].to_string()),
        Values::Vertex(x) | Values::Witness(x) => {
            (x[v] != NONE).then(|| g.vertex_label(x[v] as usize).to_string())
        }
        Values::Class(_) => classes.map(|c| c[v].to_string()),
        Values::Flag(x) => Some(u8::from(x[v]).to_string()),
        Values::Sequence(x) => Some(g.vertex_label(x[v] as usize).to_string()),
        Values::Arcs(x) => {
            let (a, b) = x[v];
            Some(format!(
                "{} {}",
                g.vertex_label(a as usize),
                g.vertex_label(b as usize)
            ))
        }
    }
}

/// Writes the header and one line `id value ...` per vertex (`-` where a column has no
/// value), or JSON: the header and `vertices: [{id, value}]` (one column) or
/// `[{id, NAME: value, ...}]`; a result that is a sequence of vertices (a topological
/// order) one id per line, or `vertices: [id, ...]`.
pub(crate) fn write_output(
    out: &Output,
    h: &Header,
    g: &EdgeList,
    columns: &[registry::Column],
) -> Res<()> {
    if let [
        registry::Column {
            values: Values::Sequence(seq),
            ..
        },
    ] = columns
    {
        let id = |i: usize| g.vertex_label(seq[i] as usize);
        return out.write(|w| {
            if out.json {
                write_json_vertices(w, h, seq.len(), |i| json!(id(i)))
            } else {
                h.text(w)?;
                write_lines(w, seq.len(), |i, line| {
                    use std::io::Write as _;
                    writeln!(line, "{}", id(i))
                })
            }
        });
    }
    let classes: Vec<Option<Vec<i64>>> = columns
        .iter()
        .map(|c| match &c.values {
            Values::Class(l) => Some(smallest_label(g, l)),
            _ => None,
        })
        .collect();
    let n = columns.first().map_or(0, |c| c.values.len());
    let text = |k: usize, v: usize| cell(g, &columns[k].values, classes[k].as_deref(), v);
    if let Some(Values::Arcs(arcs)) = columns.first().map(|c| &c.values) {
        // A line `u v values...` per pair, or `vertices: [{u, v, NAME: value, ...}]`.
        return out.write(|w| {
            if out.json {
                write_json_vertices(w, h, n, |i| {
                    let mut o = serde_json::Map::new();
                    o.insert("u".into(), json!(g.vertex_label(arcs[i].0 as usize)));
                    o.insert("v".into(), json!(g.vertex_label(arcs[i].1 as usize)));
                    for (k, c) in columns.iter().enumerate().skip(1) {
                        let t = text(k, i).map_or(Value::Null, |t| json_number(&t));
                        o.insert(c.name.into(), t);
                    }
                    Value::Object(o)
                })
            } else {
                h.text(w)?;
                write_lines(w, n, |i, line| {
                    use std::io::Write as _;
                    write!(line, "{}", text(0, i).unwrap_or_default())?;
                    for k in 1..columns.len() {
                        write!(line, " {}", text(k, i).as_deref().unwrap_or("-"))?;
                    }
                    writeln!(line)
                })
            }
        });
    }
    out.write(|w| {
        if out.json {
            write_json_vertices(w, h, n, |v| {
                let json_of = |k| text(k, v).map_or(Value::Null, |t| json_number(&t));
                match columns.len() {
                    1 => json!({"id": g.vertex_label(v), "value": json_of(0)}),
                    _ => {
                        let mut o = serde_json::Map::new();
                        o.insert("id".into(), json!(g.vertex_label(v)));
                        for (k, c) in columns.iter().enumerate() {
                            o.insert(c.name.into(), json_of(k));
                        }
                        Value::Object(o)
                    }
                }
            })
        } else {
            h.text(w)?;
            // Formatted on every core (millions of reals: a second on one).
            write_lines(w, n, |v, line| {
                use std::io::Write as _;
                write!(line, "{}", g.vertex_label(v))?;
                for k in 0..columns.len() {
                    write!(line, " {}", text(k, v).as_deref().unwrap_or("-"))?;
                }
                writeln!(line)
            })
        }
    })
}

/// Class labels (each class's smallest vertex index) as the smallest vertex id of the class
/// in the file's numbering (an LDBC file's ids need not follow its order).
pub(crate) fn smallest_label(g: &EdgeList, labels: &[u32]) -> Vec<i64> {
    let mut best: Vec<i64> = vec![i64::MAX; labels.len()];
    for (v, &l) in labels.iter().enumerate() {
        let b = &mut best[l as usize];
        *b = (*b).min(g.vertex_label(v));
    }
    labels.iter().map(|&l| best[l as usize]).collect()
}
