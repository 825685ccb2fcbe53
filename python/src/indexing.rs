//! Indexing in the algebra from Python: `extract` and `assign` by index arrays (NumPy's, or
//! vectors of `u32` values held on the backend), transpose and diagonal.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use semigraph_algos::{ElementWise, Objects, Operators, Parents};
use semigraph_formats::{Weight, Weights};
use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{BinaryOperator, BinaryVisitor, NamedOps};

use crate::arrays::{Ints, Values};
use crate::errors::py_err;
use crate::handles::{MatrixHandle, VectorHandle};
use crate::objects::{
    Erased, Handle, Operand, dense_in, held_dense_mut, held_matrix, on_semiring, same_backend,
    values_of, weight_of,
};
use crate::ops::no_operator;

/// `A(rows, cols)` (`GrB_extract`; `None`: every row or column, in order; indices may repeat).
#[pyfunction]
#[pyo3(signature = (a, rows = None, cols = None))]
pub(crate) fn extract_matrix(
    py: Python<'_>,
    a: &MatrixHandle,
    rows: Option<Ints<'_>>,
    cols: Option<Ints<'_>>,
) -> PyResult<MatrixHandle> {
    let r = match &rows {
        Some(r) => r.to_u32(a.nrows as u64, "rows")?,
        None => (0..a.nrows as u32).collect(),
    };
    let c = cols.map(|c| c.to_u32(a.ncols as u64, "cols")).transpose()?;
    let (nrows, ncols) = (r.len(), c.as_ref().map_or(a.ncols, Vec::len));
    let h = on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        let m = held_matrix::<_, S>(b, &a.h);
        let e = match &c {
            None => b.extract_rows(m, &r),
            Some(c) => b.extract(m, &r, c),
        };
        Ok(Handle::new::<S, _>(a.h.choice, e.map_err(py_err)?))
    })?;
    Ok(MatrixHandle { h, nrows, ncols })
}

/// Indices as an operation takes them: a NumPy array (checked against `limit` here), or a
/// vector of `u32` values on the backend (an index past the end gives no entry).
enum Indices<'a> {
    Host(Vec<u32>),
    Held(&'a Handle),
}

impl Indices<'_> {
    fn len(&self, n_held: usize) -> usize {
        match self {
            Indices::Host(v) => v.len(),
            Indices::Held(_) => n_held,
        }
    }
    /// The indices on `b`.
    fn on<B: Erased>(&self, b: &B) -> PyResult<B::Dense<Parents>> {
        match self {
            Indices::Host(v) => b.dense::<Parents>(v.len(), 1, v).map_err(py_err),
            Indices::Held(h) => b.index_array(h),
        }
    }
}

/// `x(indices)` (`GrB_extract` of a vector; indices may repeat; `indices` a NumPy array or a
/// `u32` vector).
#[pyfunction]
pub(crate) fn extract_vector(
    py: Python<'_>,
    x: &VectorHandle,
    indices: &Bound<'_, PyAny>,
) -> PyResult<VectorHandle> {
    let held = indices.cast::<VectorHandle>().ok().map(|v| v.borrow());
    let held = held.as_deref();
    let idx = match &held {
        Some(v) => {
            same_backend(&v.h, x.h.choice)?;
            Indices::Held(&v.h)
        }
        None => Indices::Host(
            indices
                .extract::<Ints<'_>>()?
                .to_u32(x.n as u64, "indices")?,
        ),
    };
    let n = idx.len(held.as_ref().map_or(0, |v| v.n));
    let h = on_semiring!(py, &x.h.semiring, x.h.choice, S, b => {
        let g = b.gather::<S, Parents>(x.h.get(), &idx.on(b)?).map_err(py_err)?;
        Ok(Handle::new::<S, _>(x.h.choice, g))
    })?;
    Ok(VectorHandle { h, n })
}

/// `x(indices) accum= values` in place (`GrB_assign`): `indices` a NumPy array or a `u32`
/// vector, `values` one per index (a NumPy array or a vector) or one for all (`scalar`). Without
/// `accum` the indices must be distinct (host indices are checked; vector indices need
/// `accum`); with it (a binary operator's name) values meeting at a position combine by it, in
/// no fixed order.
#[pyfunction]
#[pyo3(signature = (x, indices, values = None, scalar = None, accum = None))]
pub(crate) fn assign_vector(
    py: Python<'_>,
    x: &Bound<'_, VectorHandle>,
    indices: &Bound<'_, PyAny>,
    values: Option<&Bound<'_, PyAny>>,
    scalar: Option<Bound<'_, PyAny>>,
    accum: Option<String>,
) -> PyResult<()> {
    let mut xv = x.try_borrow_mut()?;
    let held = indices
        .cast::<VectorHandle>()
        .ok()
        .map(|v| v.try_borrow())
        .transpose()?;
    let idx = match &held {
        Some(v) if accum.is_none() => {
            let _ = v;
            return Err(PyValueError::new_err(
                "indices held in a vector may repeat: give accum= (e.g. \"min\" or \"plus\")",
            ));
        }
        Some(v) => {
            same_backend(&v.h, xv.h.choice)?;
            Indices::Held(&v.h)
        }
        None => Indices::Host(
            indices
                .extract::<Ints<'_>>()?
                .to_u32(xv.n as u64, "indices")?,
        ),
    };
    if let (Indices::Host(i), None) = (&idx, &accum) {
        let mut s = i.clone();
        s.sort_unstable();
        if let Some(w) = s.windows(2).find(|w| w[0] == w[1]) {
            return Err(PyValueError::new_err(format!(
                "index {} appears twice: without accum= the values assigned there are not \
                 defined (give accum=, e.g. \"min\" or \"plus\")",
                w[0]
            )));
        }
    }
    let k = idx.len(held.as_ref().map_or(0, |v| v.n));
    let vheld = values
        .and_then(|v| v.cast::<VectorHandle>().ok())
        .map(|v| v.try_borrow())
        .transpose()?;
    let vals = match (values, &vheld, &scalar) {
        (Some(_), Some(v), None) if v.n == k => {
            same_backend(&v.h, xv.h.choice)?;
            None
        }
        (Some(v), None, None) => {
            let v = v.extract::<Values<'_>>()?;
            if v.len() != k {
                return Err(PyValueError::new_err(format!(
                    "{} values for {k} indices",
                    v.len()
                )));
            }
            Some(v.weights()?)
        }
        (Some(_), Some(v), None) => {
            return Err(PyValueError::new_err(format!(
                "{} values for {k} indices",
                v.n
            )));
        }
        (None, _, Some(s)) => Some(match weight_of(s)? {
            Weight::Int(i) => Weights::Int(vec![i; k]),
            Weight::UInt(u) => Weights::UInt(vec![u; k]),
            Weight::Real(r) => Weights::Real(vec![r; k]),
        }),
        _ => {
            return Err(PyValueError::new_err(
                "give values= or scalar=, one of them",
            ));
        }
    };
    let vh = vheld.as_ref().map(|v| &v.h);
    let (semiring, choice) = (xv.h.semiring.clone(), xv.h.choice);
    let h = &mut xv.h;
    on_semiring!(py, &semiring, choice, S, b => {
        let u = match (&vals, vh) {
            (Some(w), _) => Operand::Made(b.dense::<S>(k, 1, &values_of::<S>(w, k)?).map_err(py_err)?),
            (None, Some(v)) => dense_in::<_, S>(b, v)?,
            (None, None) => unreachable!("values checked above"),
        };
        let i = idx.on(b)?;
        let y = held_dense_mut::<_, S>(b, h);
        let op = accum.as_deref().unwrap_or("second");
        <<S as Semiring>::T as NamedOps>::binary_named(op, Scatter { b, y, i: &i, u: &u })
            .ok_or_else(|| no_operator::<S>("binary", op, <<S as Semiring>::T as NamedOps>::binary_names()))?
            .map_err(py_err)
    })
}

/// `y(I) f= u`.
struct Scatter<'a, B: Objects, S: Semiring> {
    b: &'a B,
    y: &'a mut B::Dense<S>,
    i: &'a B::Dense<Parents>,
    u: &'a B::Dense<S>,
}

impl<B: Operators, S: Semiring> BinaryVisitor<S::T> for Scatter<'_, B, S> {
    type Output = semigraph_algos::Result<()>;
    fn visit<F: BinaryOperator<S::T>>(self) -> Self::Output {
        self.b.scatter_op::<S, F, Parents>(self.y, self.i, self.u)
    }
}

/// `A^T`.
#[pyfunction]
pub(crate) fn transpose(py: Python<'_>, a: &MatrixHandle) -> PyResult<MatrixHandle> {
    let h = on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        let t = b.transpose_matrix::<S>(a.h.get()).map_err(py_err)?;
        Ok(Handle::new::<S, _>(a.h.choice, t))
    })?;
    Ok(MatrixHandle {
        h,
        nrows: a.ncols,
        ncols: a.nrows,
    })
}

/// The diagonal `A(i, i)` of a square matrix as a vector.
#[pyfunction]
pub(crate) fn diag(py: Python<'_>, a: &MatrixHandle) -> PyResult<VectorHandle> {
    if a.nrows != a.ncols {
        return Err(PyValueError::new_err(format!(
            "diag takes a square matrix; this one is {}x{}",
            a.nrows, a.ncols
        )));
    }
    let h = on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        let d = b.diagonal::<S>(a.h.get()).map_err(py_err)?;
        Ok(Handle::new::<S, _>(a.h.choice, d))
    })?;
    Ok(VectorHandle { h, n: a.nrows })
}
