//! The algorithm registry in Python: `algorithms()` describes every algorithm (the Python
//! package makes a `Graph` method and a function of each), and `Graph.run` runs one on the
//! matrices a graph holds, its result converted to NumPy arrays and Python scalars.

use numpy::IntoPyArray;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use semigraph_algos::algorithms as list;
use semigraph_algos::registry::{Args, Info, Kind, Output, Reads, Scalar, Shape, Values, Views};
use semigraph_algos::{BfsSemiring, Frontier, Graph as AlgoGraph};
use semigraph_semiring::{MaxMin, MinPlus, OrAnd};

use crate::held::Held;
use crate::plans;

/// The registry as Python data: one dict per algorithm with `name`, `summary`, `returns`,
/// `complexity`, `reads` (and `weighted_by`: the flag that makes an algorithm of the
/// structure read the weights as distances, or `None`), `accepts`, `networkx` (its NetworkX
/// entries) and `params` (dicts of `name`, `kind`, `default` (text or `None`),
/// `optional`, `doc`, and `choices` for a choice).
#[pyfunction]
pub(crate) fn algorithms(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for info in list::infos() {
        let d = PyDict::new(py);
        d.set_item("name", info.name)?;
        d.set_item("summary", info.summary)?;
        d.set_item("returns", info.returns.to_vec())?;
        d.set_item("complexity", info.complexity)?;
        // A choice of what is read: "structure", with the flag that makes it "distances".
        let (reads, weighted_by) = match info.reads {
            Reads::StructureOrDistances(flag) => (Reads::Structure, Some(flag)),
            r => (r, None),
        };
        d.set_item("reads", format!("{reads:?}").to_lowercase())?;
        d.set_item("weighted_by", weighted_by)?;
        d.set_item("accepts", format!("{:?}", info.accepts).to_lowercase())?;
        let params = PyList::empty(py);
        for p in info.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.name)?;
            pd.set_item("kind", p.kind.name())?;
            pd.set_item("default", p.default)?;
            pd.set_item("optional", p.optional)?;
            pd.set_item("doc", p.doc)?;
            if let Kind::Choice(words) = p.kind {
                pd.set_item("choices", words.to_vec())?;
            }
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        let nx = PyList::empty(py);
        for e in info.networkx {
            let ed = PyDict::new(py);
            ed.set_item("function", e.function)?;
            ed.set_item("args", e.args.to_vec())?;
            ed.set_item("column", e.column)?;
            let (shape, second) = match e.shape {
                Shape::Values => ("values", None),
                Shape::Groups => ("groups", None),
                Shape::Count => ("count", None),
                Shape::Sequence => ("sequence", None),
                Shape::Pair(other) => ("pair", Some(other)),
                Shape::Subgraph => ("subgraph", None),
                Shape::Triples(pairs) => ("triples", Some(pairs)),
                Shape::ByEdge(pairs) => ("by_edge", Some(pairs)),
                Shape::Members => ("members", None),
                Shape::Edges => ("edges", None),
                Shape::Scalar => ("scalar", None),
            };
            ed.set_item("shape", shape)?;
            ed.set_item("second", second)?;
            ed.set_item("simple", e.simple)?;
            nx.append(ed)?;
        }
        d.set_item("networkx", nx)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The algorithm called `name`.
pub(crate) fn info(name: &str) -> PyResult<&'static Info> {
    list::info(name).ok_or_else(|| PyValueError::new_err(format!("no algorithm {name:?}")))
}

/// `kwargs` as the algorithm's arguments on `n` vertices: vertices checked (`IndexError`
/// out of range), numbers of the argument's kind (`TypeError` otherwise), `None` as not
/// given, an unknown name a `TypeError`.
pub(crate) fn args(info: &Info, n: usize, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Args> {
    let mut given: Vec<Option<String>> = vec![None; info.params.len()];
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let k: String = k.extract()?;
            let Some(i) = info.params.iter().position(|p| p.name == k) else {
                return Err(PyTypeError::new_err(format!(
                    "{}() got an unexpected keyword argument {k:?}",
                    info.name
                )));
            };
            if v.is_none() {
                continue;
            }
            let p = &info.params[i];
            let what = |e: PyErr| {
                PyTypeError::new_err(format!(
                    "{}: {} expects a {}: {e}",
                    info.name,
                    k,
                    p.kind.name()
                ))
            };
            given[i] = Some(match p.kind {
                Kind::Vertex => plans::vertex(v.extract::<i64>().map_err(what)?, n)?.to_string(),
                Kind::Count => v.extract::<usize>().map_err(what)?.to_string(),
                Kind::Real => v.extract::<f64>().map_err(what)?.to_string(),
                Kind::Choice(_) => v.extract::<String>().map_err(what)?,
                Kind::Flag => v.extract::<bool>().map_err(what)?.to_string(),
                Kind::Pairs => pairs_text(&v, n)?,
                Kind::Labels => labels_text(&v)?,
            });
        }
    }
    let mut given = given.into_iter();
    Args::parse(info.params, n, |_| given.next().flatten()).map_err(crate::errors::py_err)
}

/// An `m x 2` array-like of vertices as [`Kind::Pairs`] text (`IndexError` out of range).
fn pairs_text(v: &Bound<'_, PyAny>, n: usize) -> PyResult<String> {
    use std::fmt::Write;
    let np = v.py().import("numpy")?;
    let a = np.call_method1("asarray", (v,))?;
    let a = a.call_method1("reshape", ((-1i64, 2i64),))?;
    let flat: Vec<i64> = a.call_method0("ravel")?.call_method0("tolist")?.extract()?;
    let mut text = String::with_capacity(flat.len() * 8);
    for (i, &x) in flat.iter().enumerate() {
        let sep = if i % 2 == 1 { '\n' } else { ' ' };
        let _ = write!(text, "{}{sep}", plans::vertex(x, n)?);
    }
    Ok(text)
}

/// An array-like of a label per vertex (integers) as [`Kind::Labels`] text.
fn labels_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    let np = v.py().import("numpy")?;
    let a = np.call_method1("asarray", (v,))?.call_method0("ravel")?;
    let labels: Vec<i64> = a.call_method0("tolist")?.extract()?;
    let words: Vec<String> = labels.iter().map(i64::to_string).collect();
    Ok(words.join(" "))
}

/// The result as Python returns it: the columns and scalars named in `returns`, one object,
/// or a tuple of several.
pub(crate) fn result<'py>(
    py: Python<'py>,
    out: Output,
    returns: &[String],
    n: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let mut out = out;
    let mut items = Vec::with_capacity(returns.len());
    for r in returns {
        if let Some(i) = out.columns.iter().position(|c| c.name == r) {
            let values = std::mem::replace(&mut out.columns[i].values, Values::Flag(vec![]));
            items.push(column(py, values, n));
        } else if let Some(s) = out.scalar(r) {
            items.push(match s {
                Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
                Scalar::Real(x) => x.into_pyobject(py)?.into_any(),
                Scalar::MaybeReal(x) => x.into_pyobject(py)?.into_any(),
            });
        } else {
            items.push(py.None().into_bound(py));
        }
    }
    Ok(match items.len() {
        1 => items.pop().expect("one item"),
        _ => PyTuple::new(py, items)?.into_any(),
    })
}

/// A column as a NumPy array: reals float64, counts int64, vertices, levels and sequences
/// of vertices as [`crate::arrays::ids`] (int32, -1 for none), pairs of vertices as an
/// `m x 2` array of them, flags bool.
fn column(py: Python<'_>, values: Values, n: usize) -> Bound<'_, PyAny> {
    match values {
        Values::Real(x) => x.into_pyarray(py).into_any(),
        Values::Int(x) => x.into_pyarray(py).into_any(),
        Values::Level(x) | Values::Vertex(x) | Values::Witness(x) | Values::Class(x) => {
            crate::arrays::ids(py, x, n)
        }
        Values::Flag(x) => x.into_pyarray(py).into_any(),
        Values::Sequence(x) => crate::arrays::ids(py, x, n),
        Values::Arcs(x) => {
            // An `m x 2` array of the pairs' vertices.
            let flat: Vec<u32> = x.into_iter().flat_map(|(a, b)| [a, b]).collect();
            let m = flat.len() / 2;
            let ids = crate::arrays::ids(py, flat, n);
            ids.call_method1("reshape", ((m, 2),)).unwrap_or(ids)
        }
    }
}

impl<'a, B: Frontier + 'a> Views<'a, B> for Held<'a, B> {
    fn n(&self) -> usize {
        self.weights.n()
    }

    fn structure(&self) -> semigraph_algos::Result<&AlgoGraph<'a, B, OrAnd>> {
        match &self.apart {
            Some((s, _)) => Ok(s),
            None => self.kept(&self.reach),
        }
    }

    fn levels(&self) -> semigraph_algos::Result<&AlgoGraph<'a, B, BfsSemiring>> {
        self.pattern()
    }

    fn distances(&self) -> semigraph_algos::Result<&AlgoGraph<'a, B, MinPlus<f64>>> {
        Ok(&self.weights)
    }

    fn capacities(&self) -> semigraph_algos::Result<&AlgoGraph<'a, B, MaxMin<f64>>> {
        match &self.apart {
            Some((_, c)) => Ok(c),
            None => {
                if let Some(c) = self.capacities.get() {
                    return Ok(c);
                }
                let c = self.weights.view::<MaxMin<f64>>()?;
                Ok(self.capacities.get_or_init(|| c))
            }
        }
    }
}
