//! `read_graph`: any file the CLI reads, as the arrays of a SciPy CSR matrix.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyFileNotFoundError, PyMemoryError, PyOSError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use semigraph_formats::EdgeList;
use semigraph_formats::edgelist::Weights;
use semigraph_formats::error::{ReadError, ReadErrorKind};
use semigraph_formats::io::{ReadOptions, read_graph as read};

/// The arrays of a graph file, for `scipy.sparse.csr_matrix((data, indices, indptr))`.
type Arrays<'py> = (
    usize,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyAny>,
    Option<Bound<'py, PyArray1<i64>>>,
);

/// A read error as the Python exception for it (the message names the file and line).
fn read_err(e: ReadError) -> PyErr {
    let msg = e.to_string();
    match &e.kind {
        ReadErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(msg)
        }
        ReadErrorKind::Io(_) => PyOSError::new_err(msg),
        ReadErrorKind::TooLarge { .. } => PyMemoryError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// Arcs `src -> dst` (with their weights) in CSR order ([`EdgeList::sort_csr_order`]:
/// parallel arcs kept side by side in file order, as SciPy keeps them in a non-canonical
/// matrix), and the row offsets.
fn csr_order(g: &mut EdgeList) -> Vec<i64> {
    g.sort_csr_order();
    // Row r starts at the first arc of a source >= r.
    let n = g.nrows;
    (0..=n)
        .into_par_iter()
        .map(|r| g.src.partition_point(|&s| (s as usize) < r) as i64)
        .collect()
}

/// Reads `path` (format from its name or contents, compressed or not, as the CLI does):
/// `(n, indptr, indices, data, labels)` of its adjacency matrix, `data` float64 (ones for a
/// file without weights; int64 or uint64 for integer weights beyond 2^53), `labels` the vertex
/// labels of files that name their vertices (LDBC, adjacency lists, GML), else `None`.
#[pyfunction]
#[pyo3(signature = (path, undirected = false))]
pub(crate) fn read_graph<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    undirected: bool,
) -> PyResult<Arrays<'py>> {
    let (n, indptr, g) = py.detach(|| {
        let opts = ReadOptions {
            undirected,
            ..Default::default()
        };
        let mut g = read(&path, &opts).map_err(read_err)?;
        if g.nrows != g.ncols {
            return Err(PyValueError::new_err(format!(
                "{}: a {} x {} matrix is not a graph's adjacency matrix",
                path.display(),
                g.nrows,
                g.ncols
            )));
        }
        let indptr = csr_order(&mut g);
        Ok::<_, PyErr>((g.nrows, indptr, g))
    })?;
    let m = g.src.len();
    // float64 as SciPy's csgraph computes (it sums the parallel entries of an integer
    // matrix when it converts one, and keeps them apart in a float64 one); integers only
    // where a weight has no exact float64.
    const EXACT: u64 = 1 << 53;
    let data = match g.weights {
        Weights::None => vec![1.0f64; m].into_pyarray(py).into_any(),
        Weights::Int(w) if w.par_iter().all(|x| x.unsigned_abs() <= EXACT) => {
            let f: Vec<f64> = w.par_iter().map(|&x| x as f64).collect();
            f.into_pyarray(py).into_any()
        }
        Weights::UInt(w) if w.par_iter().all(|&x| x <= EXACT) => {
            let f: Vec<f64> = w.par_iter().map(|&x| x as f64).collect();
            f.into_pyarray(py).into_any()
        }
        Weights::Int(w) => w.into_pyarray(py).into_any(),
        Weights::UInt(w) => w.into_pyarray(py).into_any(),
        Weights::Real(w) => w.into_pyarray(py).into_any(),
    };
    Ok((
        n,
        indptr.into_pyarray(py),
        g.dst.into_pyarray(py),
        data,
        g.labels.map(|l| l.into_pyarray(py)),
    ))
}
