//! The native halves of `semigraph.Matrix` and `semigraph.Vector` (python/semigraph/algebra.py):
//! handles to a backend's objects, made from NumPy and SciPy arrays and read back as them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use semigraph_algos::{Objects, Reductions, cloned};
use semigraph_formats::{ConvertOptions, Format};
use semigraph_semiring::Semiring;
use semigraph_semiring::ops::NamedOps;

use crate::algebra::csr_of;
use crate::arrays::{Arrays, Ints, Values};
use crate::backends::{Choice, choose};
use crate::errors::py_err;
use crate::objects::{Handle, Native, converted, dense_in, on_semiring, values_of};

/// A matrix held by a backend in a built-in semiring (`semigraph.Matrix` wraps it).
#[pyclass(module = "semigraph._native", frozen)]
pub(crate) struct MatrixHandle {
    pub(crate) h: Handle,
    pub(crate) nrows: usize,
    pub(crate) ncols: usize,
}

/// A vector (an `n x 1` dense array) held by a backend in a built-in semiring: position `i`
/// has an entry unless its value is the semiring's zero (`semigraph.Vector` wraps it).
#[pyclass(module = "semigraph._native")]
pub(crate) struct VectorHandle {
    pub(crate) h: Handle,
    pub(crate) n: usize,
}

fn backend_name(c: Choice) -> &'static str {
    match c {
        Choice::Cpu => "cpu",
        Choice::Gpu => "gpu",
    }
}

#[pymethods]
impl MatrixHandle {
    /// The semiring, as `semirings()` names it.
    #[getter]
    fn semiring(&self) -> &str {
        &self.h.semiring
    }
    /// `"cpu"` or `"gpu"`.
    #[getter]
    fn backend(&self) -> &'static str {
        backend_name(self.h.choice)
    }
    /// `(nrows, ncols)`.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.nrows, self.ncols)
    }
}

#[pymethods]
impl VectorHandle {
    /// The semiring, as `semirings()` names it.
    #[getter]
    fn semiring(&self) -> &str {
        &self.h.semiring
    }
    /// `"cpu"` or `"gpu"`.
    #[getter]
    fn backend(&self) -> &'static str {
        backend_name(self.h.choice)
    }
    /// The number of positions.
    #[getter]
    fn size(&self) -> usize {
        self.n
    }
}

/// A matrix from SciPy CSR arrays in `semiring` (parallel entries combined by its addition;
/// an entry equal to its zero is none).
#[pyfunction]
#[pyo3(signature = (nrows, ncols, indptr, indices, data, semiring, backend = "auto"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn matrix_from_csr(
    py: Python<'_>,
    nrows: usize,
    ncols: usize,
    indptr: Ints<'_>,
    indices: Ints<'_>,
    data: Values<'_>,
    semiring: &str,
    backend: &str,
) -> PyResult<MatrixHandle> {
    let choice = choose(backend)?;
    let mut arcs = Some(Arrays::new(nrows, ncols, &indptr, &indices, &data)?);
    let h = on_semiring!(py, semiring, choice, S, b => {
        let c = csr_of::<S>(arcs.take().expect("one semiring runs").edge_list())?;
        let m = b
            .matrix(&c.without_zeros().map_err(crate::errors::format_err)?, Format::Csr, &ConvertOptions::default())
            .map_err(py_err)?;
        Ok(Handle::new::<S, _>(choice, m))
    })?;
    Ok(MatrixHandle { h, nrows, ncols })
}

/// A matrix from the entries `(rows[k], cols[k], values[k])` (`GrB_Matrix_build`; no values:
/// every entry the semiring's one), repeated positions combined by the semiring's addition.
#[pyfunction]
#[pyo3(signature = (nrows, ncols, rows, cols, values, semiring, backend = "auto"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn matrix_from_entries(
    py: Python<'_>,
    nrows: usize,
    ncols: usize,
    rows: Ints<'_>,
    cols: Ints<'_>,
    values: Option<Values<'_>>,
    semiring: &str,
    backend: &str,
) -> PyResult<MatrixHandle> {
    let choice = choose(backend)?;
    let n = rows.len();
    if cols.len() != n || values.as_ref().is_some_and(|v| v.len() != n) {
        return Err(PyValueError::new_err(
            "rows, cols and values must have one element per entry",
        ));
    }
    let src = rows.to_u32(nrows as u64, "rows")?;
    let dst = cols.to_u32(ncols as u64, "cols")?;
    let w = values.map(|v| v.weights()).transpose()?;
    let h = on_semiring!(py, semiring, choice, S, b => {
        let vals = w.as_ref().map(|w| values_of::<S>(w, n)).transpose()?;
        let m = b
            .matrix_from_arcs::<S>((nrows, ncols), &src, &dst, vals.as_deref())
            .map_err(py_err)?;
        Ok(Handle::new::<S, _>(choice, m))
    })?;
    Ok(MatrixHandle { h, nrows, ncols })
}

/// The matrix's entries as CSR arrays `(indptr, indices, data)` (SciPy's).
#[pyfunction]
pub(crate) fn matrix_to_csr<'py>(
    py: Python<'py>,
    a: &MatrixHandle,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (ptr, cols, vals) = on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        let c = b.read_matrix::<S>(a.h.get()).map_err(py_err)?;
        let ptr: Vec<i64> = c.row_ptr().par_iter().map(|&p| i64::from(p)).collect();
        Ok((ptr, c.col_idx().to_vec(), <<S as Semiring>::T as Native>::column(c.vals().to_vec())))
    })?;
    use numpy::IntoPyArray;
    Ok((
        ptr.into_pyarray(py).into_any(),
        cols.into_pyarray(py).into_any(),
        vals.into_py(py),
    ))
}

/// A vector of the values `x` in `semiring` (a value equal to its zero is no entry).
#[pyfunction]
#[pyo3(signature = (x, semiring, backend = "auto"))]
pub(crate) fn vector_from_values(
    py: Python<'_>,
    x: Values<'_>,
    semiring: &str,
    backend: &str,
) -> PyResult<VectorHandle> {
    let choice = choose(backend)?;
    let n = x.len();
    let w = x.weights()?;
    let h = on_semiring!(py, semiring, choice, S, b => {
        let v = values_of::<S>(&w, n)?;
        Ok(Handle::new::<S, _>(choice, b.dense::<S>(n, 1, &v).map_err(py_err)?))
    })?;
    Ok(VectorHandle { h, n })
}

/// A vector of `n` positions without entries (every value the semiring's zero).
#[pyfunction]
#[pyo3(signature = (n, semiring, backend = "auto"))]
pub(crate) fn vector_empty(
    py: Python<'_>,
    n: usize,
    semiring: &str,
    backend: &str,
) -> PyResult<VectorHandle> {
    let choice = choose(backend)?;
    let h = on_semiring!(py, semiring, choice, S, b => {
        Ok(Handle::new::<S, _>(choice, b.dense_filled::<S>(n, 1, S::zero()).map_err(py_err)?))
    })?;
    Ok(VectorHandle { h, n })
}

/// The vector's values (the semiring's zero where there is no entry) as a NumPy array.
#[pyfunction]
pub(crate) fn vector_to_numpy<'py>(
    py: Python<'py>,
    x: &VectorHandle,
) -> PyResult<Bound<'py, PyAny>> {
    let c = on_semiring!(py, &x.h.semiring, x.h.choice, S, b => {
        Ok(<<S as Semiring>::T as Native>::column(b.read_dense::<S>(x.h.get()).map_err(py_err)?))
    })?;
    Ok(c.into_py(py))
}

/// The number of entries of a vector (positions whose value is not the zero) or a matrix.
#[pyfunction]
pub(crate) fn nvals(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(v) = x.cast::<VectorHandle>() {
        let v = v.borrow();
        let v = &*v;
        return on_semiring!(py, &v.h.semiring, v.h.choice, S, b => {
            b.nvals::<S>(v.h.get()).map_err(py_err)
        });
    }
    let a = x.cast::<MatrixHandle>()?.get();
    on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        Ok(b.matrix_info::<S>(a.h.get()).nnz)
    })
}

/// The matrix in another semiring of the same value type (its entries copied through the
/// host; a value equal to the new zero is no entry).
#[pyfunction]
pub(crate) fn matrix_as(
    py: Python<'_>,
    a: &MatrixHandle,
    semiring: &str,
) -> PyResult<MatrixHandle> {
    let h = on_semiring!(py, semiring, a.h.choice, S, b => {
        Ok(Handle::new::<S, _>(a.h.choice, converted::<_, S>(b, &a.h)?))
    })?;
    Ok(MatrixHandle {
        h,
        nrows: a.nrows,
        ncols: a.ncols,
    })
}

/// The vector in another semiring of the same value type: no entry where it had none.
#[pyfunction]
pub(crate) fn vector_as(
    py: Python<'_>,
    x: &VectorHandle,
    semiring: &str,
) -> PyResult<VectorHandle> {
    let h = on_semiring!(py, semiring, x.h.choice, S, b => {
        let v = cloned(b, &*dense_in::<_, S>(b, &x.h)?).map_err(py_err)?;
        Ok(Handle::new::<S, _>(x.h.choice, v))
    })?;
    Ok(VectorHandle { h, n: x.n })
}

/// Waits until the GPU has done the work queued on it (`GrB_wait`); operations return once
/// queued, and a read (`to_numpy`, `nvals`, a reduction) waits by itself. Nothing to wait for
/// on the CPU, or before the GPU is opened.
#[pyfunction]
pub(crate) fn wait(py: Python<'_>) -> PyResult<()> {
    match crate::backends::opened_gpu() {
        Some(g) => py.detach(|| g.synchronize()).map_err(py_err),
        None => Ok(()),
    }
}

/// `(zero, one, unary operators, binary operators, select operators)` of a semiring.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn semiring_info(
    py: Python<'_>,
    semiring: &str,
) -> PyResult<(
    Py<PyAny>,
    Py<PyAny>,
    Vec<&'static str>,
    Vec<&'static str>,
    Vec<&'static str>,
)> {
    let found = semigraph_semiring::with_builtin!(semiring, S => {
        (
            <<S as Semiring>::T as Native>::column(vec![S::zero()]),
            <<S as Semiring>::T as Native>::column(vec![S::one()]),
            <<S as Semiring>::T as NamedOps>::unary_names().to_vec(),
            <<S as Semiring>::T as NamedOps>::binary_names().to_vec(),
            <<S as Semiring>::T as NamedOps>::select_names().to_vec(),
        )
    });
    let (zero, one, u, bn, s) = found.ok_or_else(|| crate::objects::unknown(semiring))?;
    Ok((zero.scalar(py)?, one.scalar(py)?, u, bn, s))
}
