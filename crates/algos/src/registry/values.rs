//! What flows through the registry: an algorithm's arguments ([`Args`], checked against its
//! [`Param`]s) and its result ([`Output`]: columns of per-vertex values and named facts), in
//! forms every surface (command line, Python, NetworkX, benchmarks) writes without knowing the
//! algorithm.

use crate::error::{Error, Result};

/// What an argument holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A vertex: the input's id where the surface has ids (the command line's numbering), its
    /// index otherwise; always a vertex index once in [`Args`].
    Vertex,
    /// A count (iterations, ...): an integer `>= 0`.
    Count,
    /// A real number.
    Real,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Yes or no: `true` or `false` as text (a Python `bool`).
    Flag,
    /// Pairs of vertices: as text, vertex indices two by two (`u v` per line on the command
    /// line, from a file of the input's ids; an `m x 2` array in Python).
    Pairs,
    /// A label per vertex (a partition into communities): as text, one integer per vertex in
    /// vertex order (`id label` lines on the command line, every vertex once; an array of `n`
    /// integers in Python; a list of sets of nodes in NetworkX). Any integers: they are
    /// numbered `0..` in the order they first appear.
    Labels,
}

impl Kind {
    /// The kind's name in docs and errors.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Vertex => "vertex",
            Kind::Count => "count",
            Kind::Real => "real",
            Kind::Choice(_) => "choice",
            Kind::Flag => "flag",
            Kind::Pairs => "pairs",
            Kind::Labels => "labels",
        }
    }
}

/// One argument of an algorithm: what it is called, holds and defaults to, in one line.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name (snake case; the command line writes it with dashes).
    pub name: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// Its default as text (`"0.85"`, `"auto"`); `None`: required if [`Param::optional`] is
    /// false, else absent unless given.
    pub default: Option<&'static str>,
    /// Whether it may be absent (its default `None` then means "not given").
    pub optional: bool,
    /// One line for `--help`, docstrings and the reference.
    pub doc: &'static str,
}

impl Param {
    /// A required argument.
    pub const fn required(name: &'static str, kind: Kind, doc: &'static str) -> Param {
        Param {
            name,
            kind,
            default: None,
            optional: false,
            doc,
        }
    }

    /// An argument with a default.
    pub const fn with_default(
        name: &'static str,
        kind: Kind,
        default: &'static str,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind,
            default: Some(default),
            optional: false,
            doc,
        }
    }

    /// An argument that may be absent.
    pub const fn optional(name: &'static str, kind: Kind, doc: &'static str) -> Param {
        Param {
            name,
            kind,
            default: None,
            optional: true,
            doc,
        }
    }
}

/// One argument's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not given (an optional argument).
    Absent,
    /// A vertex index or a count.
    Int(u64),
    /// A real number.
    Real(f64),
    /// A word of a [`Kind::Choice`].
    Word(String),
    /// A flag.
    Flag(bool),
    /// Pairs of vertex indices.
    Pairs(Vec<(u32, u32)>),
    /// A label per vertex, numbered `0..` in the order they first appear.
    Labels(Vec<u32>),
}

/// The arguments of one call, in the order of the algorithm's [`Param`]s, checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Args(Vec<(&'static str, Value)>);

impl Args {
    /// The arguments of `params` from `given` (a name's value as text, or `None`), defaults
    /// for the rest; `n` vertices bound the vertices, which `given` holds as indices.
    ///
    /// # Errors
    /// `InvalidArgument` naming the argument: a required one missing, text that does not
    /// parse as its kind, a word not among its choices, a vertex out of range.
    pub fn parse(
        params: &[Param],
        n: usize,
        mut given: impl FnMut(&Param) -> Option<String>,
    ) -> Result<Args> {
        let mut out = Vec::with_capacity(params.len());
        for p in params {
            let text = given(p).or_else(|| p.default.map(str::to_owned));
            let value = match text {
                None if p.optional => Value::Absent,
                None => return Err(bad(p, "is required".into())),
                Some(t) => parse_value(p, &t, n)?,
            };
            out.push((p.name, value));
        }
        Ok(Args(out))
    }

    /// The named argument's value (`Absent` for a name the algorithm does not declare).
    pub fn get(&self, name: &str) -> &Value {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map_or(&Value::Absent, |(_, v)| v)
    }

    /// A vertex argument's index.
    pub fn vertex(&self, name: &str) -> usize {
        self.count(name).unwrap_or(0)
    }

    /// A count argument (`None` if absent).
    pub fn count(&self, name: &str) -> Option<usize> {
        match self.get(name) {
            Value::Int(i) => Some(*i as usize),
            _ => None,
        }
    }

    /// A real argument (`None` if absent).
    pub fn real(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Value::Real(x) => Some(*x),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }

    /// A flag argument (`None` if absent).
    pub fn flag(&self, name: &str) -> Option<bool> {
        match self.get(name) {
            Value::Flag(b) => Some(*b),
            _ => None,
        }
    }

    /// A pairs argument's pairs (`None` if absent).
    pub fn pairs(&self, name: &str) -> Option<&[(u32, u32)]> {
        match self.get(name) {
            Value::Pairs(p) => Some(p),
            _ => None,
        }
    }

    /// A labels argument's labels (`None` if absent).
    pub fn labels(&self, name: &str) -> Option<&[u32]> {
        match self.get(name) {
            Value::Labels(l) => Some(l),
            _ => None,
        }
    }

    /// A choice argument's word (`""` if absent).
    pub fn word(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Word(w) => w,
            _ => "",
        }
    }
}

fn bad(p: &Param, why: String) -> Error {
    Error::InvalidArgument(format!("{} {why}", p.name))
}

fn parse_value(p: &Param, t: &str, n: usize) -> Result<Value> {
    Ok(match p.kind {
        Kind::Vertex => {
            let v: u64 = t
                .trim()
                .parse()
                .map_err(|_| bad(p, format!("must be a vertex, not {t:?}")))?;
            crate::error::check_vertex(v as usize, n)?;
            Value::Int(v)
        }
        Kind::Count => Value::Int(
            t.trim()
                .parse()
                .map_err(|_| bad(p, format!("must be an integer >= 0, not {t:?}")))?,
        ),
        Kind::Real => Value::Real(
            t.trim()
                .parse()
                .map_err(|_| bad(p, format!("must be a number, not {t:?}")))?,
        ),
        Kind::Choice(words) => {
            if !words.contains(&t) {
                return Err(bad(
                    p,
                    format!("must be one of {}, not {t:?}", words.join(", ")),
                ));
            }
            Value::Word(t.to_owned())
        }
        Kind::Flag => Value::Flag(match t.trim() {
            "true" => true,
            "false" => false,
            _ => return Err(bad(p, format!("must be true or false, not {t:?}"))),
        }),
        Kind::Pairs => {
            let mut ids = Vec::new();
            for w in t.split_ascii_whitespace() {
                let v: u32 = w
                    .parse()
                    .map_err(|_| bad(p, format!("must hold vertices, not {w:?}")))?;
                crate::error::check_vertex(v as usize, n)?;
                ids.push(v);
            }
            if ids.len() % 2 == 1 {
                return Err(bad(p, format!("must hold pairs: {} vertices", ids.len())));
            }
            Value::Pairs(ids.chunks_exact(2).map(|c| (c[0], c[1])).collect())
        }
        Kind::Labels => {
            let mut number = std::collections::HashMap::new();
            let mut labels = Vec::with_capacity(n);
            for w in t.split_ascii_whitespace() {
                let l: i64 = w
                    .parse()
                    .map_err(|_| bad(p, format!("must hold integers, not {w:?}")))?;
                let next = number.len() as u32;
                labels.push(*number.entry(l).or_insert(next));
            }
            if labels.len() != n {
                return Err(bad(
                    p,
                    format!("must hold a label per vertex: {} for {n}", labels.len()),
                ));
            }
            Value::Labels(labels)
        }
    })
}

/// Per-vertex values of a result.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// Reals (ranks, coefficients, distances; `inf` where a distance does not exist).
    Real(Vec<f64>),
    /// Integers (counts).
    Int(Vec<i64>),
    /// Counts that may be absent (levels): [`NONE`] where absent.
    Level(Vec<u32>),
    /// Vertices (parents, predecessors, community labels): indices, [`NONE`] where none.
    /// Surfaces with ids write the vertex's id.
    Vertex(Vec<u32>),
    /// Witnesses (shortest-path predecessors): a vertex index, [`NONE`] where none, one of
    /// possibly several valid answers; backends may pick different ones, so two results
    /// agree where the same vertices have one.
    Witness(Vec<u32>),
    /// Classes (components) each labelled by its smallest vertex index: surfaces with ids
    /// write the smallest id among the class's vertices.
    Class(Vec<u32>),
    /// Yes or no (reached).
    Flag(Vec<bool>),
    /// Vertices in an order (a topological order, a path), not one value per vertex:
    /// surfaces write one vertex (its id) per line.
    Sequence(Vec<u32>),
    /// Pairs of vertices `(u, v)` (the edges of a subgraph, the pairs of a similarity): the
    /// rows of a result whose other columns hold one value per pair; surfaces write a line
    /// `u v values...` per pair.
    Arcs(Vec<(u32, u32)>),
}

/// The value [`Values::Level`] and [`Values::Vertex`] hold where there is none.
pub const NONE: u32 = u32::MAX;

impl Values {
    /// The number of values: the vertices, or a sequence's length.
    pub fn len(&self) -> usize {
        match self {
            Values::Real(x) => x.len(),
            Values::Int(x) => x.len(),
            Values::Level(x) | Values::Vertex(x) | Values::Witness(x) | Values::Class(x) => x.len(),
            Values::Flag(x) => x.len(),
            Values::Sequence(x) => x.len(),
            Values::Arcs(x) => x.len(),
        }
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first vertex where `self` differs from `want` (reals within `1e-9` relative,
    /// witnesses where one has none and the other one, the rest exactly), with both values
    /// as text; `None` where they agree.
    pub fn first_difference(&self, want: &Values) -> Option<(usize, String, String)> {
        fn first<T: PartialEq + std::fmt::Debug>(
            a: &[T],
            b: &[T],
            same: impl Fn(&T, &T) -> bool,
        ) -> Option<(usize, String, String)> {
            if a.len() != b.len() {
                return Some((
                    a.len().min(b.len()),
                    format!("{} values", a.len()),
                    format!("{}", b.len()),
                ));
            }
            (0..a.len())
                .find(|&v| !same(&a[v], &b[v]))
                .map(|v| (v, format!("{:?}", a[v]), format!("{:?}", b[v])))
        }
        match (self, want) {
            (Values::Real(a), Values::Real(b)) => {
                first(a, b, |x, y| x == y || (x - y).abs() <= 1e-9 * y.abs())
            }
            (Values::Int(a), Values::Int(b)) => first(a, b, |x, y| x == y),
            (Values::Level(a), Values::Level(b))
            | (Values::Vertex(a), Values::Vertex(b))
            | (Values::Class(a), Values::Class(b))
            | (Values::Sequence(a), Values::Sequence(b)) => first(a, b, |x, y| x == y),
            (Values::Flag(a), Values::Flag(b)) => first(a, b, |x, y| x == y),
            (Values::Arcs(a), Values::Arcs(b)) => first(a, b, |x, y| x == y),
            (Values::Witness(a), Values::Witness(b)) => {
                first(a, b, |x, y| (*x == NONE) == (*y == NONE))
            }
            _ => Some((0, "another kind of values".into(), String::new())),
        }
    }
}

/// One named column of per-vertex values.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its name (`ranks`, `labels`, `levels`, ...): the Python result's and the reference's.
    pub name: &'static str,
    /// The values, one per vertex.
    pub values: Values,
}

/// A scalar of a fact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// A count.
    Int(u64),
    /// A real.
    Real(f64),
    /// A real that may be absent.
    MaybeReal(Option<f64>),
}

/// A named fact of a result (`iterations`, `components`, `triangles`): the text the command
/// line writes in its header and the named scalars behind it (JSON, Python).
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    /// The header's name.
    pub name: &'static str,
    /// The header's text.
    pub text: String,
    /// The scalars, by name; a fact of one scalar named as the fact is that scalar in JSON,
    /// otherwise an object.
    pub scalars: Vec<(&'static str, Scalar)>,
}

impl Fact {
    /// A fact that is one scalar, written as it is.
    pub fn scalar(name: &'static str, value: Scalar) -> Fact {
        let text = match value {
            Scalar::Int(i) => i.to_string(),
            Scalar::Real(x) => x.to_string(),
            Scalar::MaybeReal(x) => x.map_or("-".into(), |x| x.to_string()),
        };
        Fact {
            name,
            text,
            scalars: vec![(name, value)],
        }
    }

    /// A count and the rounds it took (`edges: 12 (3 rounds)`), both scalars.
    pub fn with_rounds(name: &'static str, count: u64, rounds: usize) -> Fact {
        Fact {
            name,
            text: format!("{count} ({rounds} rounds)"),
            scalars: vec![
                (name, Scalar::Int(count)),
                ("rounds", Scalar::Int(rounds as u64)),
            ],
        }
    }

    /// Whether the fact is a single scalar named as itself.
    pub fn is_bare(&self) -> bool {
        matches!(self.scalars.as_slice(), [(k, _)] if *k == self.name)
    }
}

/// What an algorithm returns: columns of per-vertex values, facts, and the steps it took
/// (iterations, rounds, levels: the benchmarks' arcs per second count `steps` passes).
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// The per-vertex columns, in the order they are written.
    pub columns: Vec<Column>,
    /// The facts, in the order they are written.
    pub facts: Vec<Fact>,
    /// The passes over the arcs.
    pub steps: usize,
}

impl Output {
    /// The named column.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| &c.values)
    }

    /// The named scalar of any fact.
    pub fn scalar(&self, name: &str) -> Option<Scalar> {
        self.facts
            .iter()
            .flat_map(|f| f.scalars.iter())
            .find(|(k, _)| *k == name)
            .map(|(_, s)| *s)
    }

    /// Where `self` differs from `want` (a backend's result against the CPU's): every column
    /// compared ([`Values::first_difference`]), facts not; `None` where they agree.
    pub fn difference(&self, want: &Output) -> Option<String> {
        for (c, w) in self.columns.iter().zip(&want.columns) {
            if let Some((v, got, exp)) = c.values.first_difference(&w.values) {
                return Some(format!("{} of vertex {v}: {got} (expected {exp})", c.name));
            }
        }
        None
    }
}
