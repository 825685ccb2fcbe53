//! The algebra's operations on handles ([`crate::handles`]), with their GraphBLAS meaning:
//! products under masks with accumulation, element-wise union and intersection, `apply`,
//! `select` and reductions (indexing: [`crate::indexing`]). Each runs in one semiring
//! (the first operand's unless named); operands held in another of the same value type are
//! converted for the call. Operators are named as `semigraph.operators(semiring)` lists them.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use semigraph_algos::{
    Accum, Bound as Fixed, Combine, ElementWise, Ewise, Mask, MatrixMask, Objects, Operators,
    Products, Reductions, UnaryOp, cloned,
};
use semigraph_formats::Weight;
use semigraph_semiring::ops::{
    BinaryOperator, BinaryVisitor, NamedOps, SelectOperator, SelectVisitor, SemiringAdd,
    SemiringMul, UnaryOperator, UnaryVisitor,
};
use semigraph_semiring::{OrAnd, Semiring};

use crate::errors::py_err;
use crate::handles::{MatrixHandle, VectorHandle};
use crate::objects::{
    Column, Erased, Handle, Native, dense_in, held_dense_mut, held_matrix, matrix_in, name,
    on_semiring, same_backend, value_of, weight_of,
};

/// The output mask of a vector operation: every position, or the entries of `m` (with
/// `complement`, the positions where it has none).
fn mask_of<'a, B: Erased>(b: &'a B, m: Option<&'a Handle>, complement: bool) -> Mask<'a, B> {
    match m {
        None => Mask::All,
        Some(h) if complement => Mask::Skip(b.dense_mask(h)),
        Some(h) => Mask::Keep(b.dense_mask(h)),
    }
}

/// The operator `op` of `S`'s value type was not found: a `ValueError` listing those there are.
pub(crate) fn no_operator<S: Semiring>(kind: &str, op: &str, names: &[&str]) -> PyErr {
    PyValueError::new_err(format!(
        "no {kind} operator {op:?} for the values of {}; there are: {}",
        name::<S>(),
        names.join(", ")
    ))
}

/// The semiring of an operation: the one named, or the first operand's.
fn semiring_or<'a>(semiring: &'a Option<String>, first: &'a Handle) -> &'a str {
    semiring.as_deref().unwrap_or(&first.semiring)
}

/// `y<mask> = accum(y, t)`: where the mask allows, `y` becomes `t`, or `add(y, t)` with
/// `accum`; elsewhere it keeps its value.
fn write_into<B: ElementWise, S: Semiring>(
    b: &B,
    y: &mut B::Dense<S>,
    mask: Mask<'_, B>,
    accum: bool,
    t: &B::Dense<S>,
) -> semigraph_algos::Result<()> {
    if !accum {
        b.apply(y, mask, UnaryOp::Fill(S::zero()))?;
    }
    b.ewise(y, mask, Ewise::Add, t)
}

/// Matrix-vector products: `y<mask> = accum(y, A x)` (`GrB_mxv`), or with `transpose`
/// `y<mask> = accum(y, x A)` (`GrB_vxm`: `y(j) = add_k mul(A(k, j), x(k))`). Returns the
/// new vector, or `None` after writing into `out`.
#[pyfunction]
#[pyo3(signature = (a, x, semiring = None, mask = None, complement = false, accum = false, out = None, transpose = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn mxv(
    py: Python<'_>,
    a: PyRef<'_, MatrixHandle>,
    x: PyRef<'_, VectorHandle>,
    semiring: Option<String>,
    mask: Option<PyRef<'_, VectorHandle>>,
    complement: bool,
    accum: bool,
    out: Option<Bound<'_, VectorHandle>>,
    transpose: bool,
) -> PyResult<Option<VectorHandle>> {
    let (a, x, mask) = (&*a, &*x, mask.as_deref());
    let (rows, inner) = if transpose {
        (a.ncols, a.nrows)
    } else {
        (a.nrows, a.ncols)
    };
    if x.n != inner {
        return Err(PyValueError::new_err(format!(
            "the matrix is {}x{}, the vector has {} positions{}",
            a.nrows,
            a.ncols,
            x.n,
            if transpose { " (x A needs nrows)" } else { "" }
        )));
    }
    let choice = a.h.choice;
    same_backend(&x.h, choice)?;
    let m = mask.map(|m| &m.h);
    if let Some(mv) = mask {
        same_backend(&mv.h, choice)?;
        if mv.n != rows {
            return Err(PyValueError::new_err(format!(
                "the mask has {} positions, the product {rows}",
                mv.n
            )));
        }
    }
    let mut out_ref = out.as_ref().map(|o| o.try_borrow_mut()).transpose()?;
    if let Some(o) = &out_ref {
        same_backend(&o.h, choice)?;
        if o.n != rows {
            return Err(PyValueError::new_err(format!(
                "out has {} positions, the product {rows}",
                o.n
            )));
        }
    }
    let mut out_h = out_ref.as_mut().map(|o| &mut o.h);
    let sr = semiring_or(&semiring, &a.h).to_string();
    let made = on_semiring!(py, &sr, choice, S, b => {
        let am = matrix_in::<_, S>(b, &a.h)?;
        let xv = dense_in::<_, S>(b, &x.h)?;
        let mk = mask_of(b, m, complement);
        let run = || -> semigraph_algos::Result<_> {
            if transpose {
                let xs = b.compact(&*xv)?;
                b.to_dense(&b.vxm(&xs, &am, mk)?)
            } else {
                let mut y = b.dense_filled::<S>(rows, 1, S::zero())?;
                b.mxm(&mut y, mk, Accum::Replace, &am, &xv)?;
                Ok(y)
            }
        };
        match out_h.take() {
            None => Ok(Some(Handle::new::<S, _>(choice, run().map_err(py_err)?))),
            Some(o) => {
                if o.semiring != name::<S>() {
                    return Err(PyValueError::new_err(format!(
                        "out holds {}, the product's semiring is {}",
                        o.semiring,
                        name::<S>()
                    )));
                }
                let y = held_dense_mut::<_, S>(b, o);
                let accum = if accum { Accum::Add } else { Accum::Replace };
                let r = if transpose {
                    // x A arrives sparse: written into y under the mask, added with accum
                    run().and_then(|t| write_into(b, y, mk, accum == Accum::Add, &t))
                } else {
                    // out is neither x nor the mask (the Python side copies an alias first)
                    b.mxm(y, mk, accum, &am, &xv)
                };
                r.map_err(py_err)?;
                Ok(None)
            }
        }
    })?;
    Ok(made.map(|h| VectorHandle { h, n: rows }))
}

/// `C<mask> = A B` (`GrB_mxm`), or `A B^T` with `transpose_b`; the mask is a matrix's pattern
/// (with `complement`, the positions it does not hold).
#[pyfunction]
#[pyo3(signature = (a, bm, semiring = None, mask = None, complement = false, transpose_b = false))]
pub(crate) fn mxm(
    py: Python<'_>,
    a: PyRef<'_, MatrixHandle>,
    bm: PyRef<'_, MatrixHandle>,
    semiring: Option<String>,
    mask: Option<PyRef<'_, MatrixHandle>>,
    complement: bool,
    transpose_b: bool,
) -> PyResult<MatrixHandle> {
    let (a, bm, mask) = (&*a, &*bm, mask.as_deref());
    let (bi, bj) = if transpose_b {
        (bm.ncols, bm.nrows)
    } else {
        (bm.nrows, bm.ncols)
    };
    if a.ncols != bi {
        return Err(PyValueError::new_err(format!(
            "A is {}x{} and B{} is {bi}x{bj}: the inner sizes differ",
            a.nrows,
            a.ncols,
            if transpose_b { "^T" } else { "" }
        )));
    }
    let choice = a.h.choice;
    same_backend(&bm.h, choice)?;
    if let Some(k) = mask {
        same_backend(&k.h, choice)?;
        if (k.nrows, k.ncols) != (a.nrows, bj) {
            return Err(PyValueError::new_err(format!(
                "the mask is {}x{}, the product {}x{bj}",
                k.nrows, k.ncols, a.nrows
            )));
        }
    }
    let mh = mask.map(|k| &k.h);
    let sr = semiring_or(&semiring, &a.h).to_string();
    let h = on_semiring!(py, &sr, choice, S, b => {
        let am = matrix_in::<_, S>(b, &a.h)?;
        let bb = matrix_in::<_, S>(b, &bm.h)?;
        let pm = match mh {
            Some(k) => Some(b.pattern::<OrAnd, S>(&b.pattern_of(k)?).map_err(py_err)?),
            None => None,
        };
        let mk = match (&pm, complement) {
            (None, _) => MatrixMask::All,
            (Some(p), false) => MatrixMask::Keep(p),
            (Some(p), true) => MatrixMask::Skip(p),
        };
        let c = if transpose_b { b.spgemm_t(mk, &am, &bb) } else { b.spgemm(mk, &am, &bb) };
        Ok(Handle::new::<S, _>(choice, c.map_err(py_err)?))
    })?;
    Ok(MatrixHandle {
        h,
        nrows: a.nrows,
        ncols: bj,
    })
}

/// `f(y, x)` element-wise into `y` (vectors).
struct EwiseVec<'a, B: Objects, S: Semiring> {
    b: &'a B,
    y: &'a mut B::Dense<S>,
    x: &'a B::Dense<S>,
    how: Combine,
}

impl<B: Operators, S: Semiring> BinaryVisitor<S::T> for EwiseVec<'_, B, S> {
    type Output = semigraph_algos::Result<()>;
    fn visit<F: BinaryOperator<S::T>>(self) -> Self::Output {
        self.b.ewise_op::<S, F>(self.y, Mask::All, self.how, self.x)
    }
}

/// `f(a, b)` element-wise (matrices).
struct EwiseMat<'a, B: Objects, S: Semiring> {
    b: &'a B,
    x: &'a B::Matrix<S>,
    y: &'a B::Matrix<S>,
    how: Combine,
}

impl<B: Operators, S: Semiring> BinaryVisitor<S::T> for EwiseMat<'_, B, S> {
    type Output = semigraph_algos::Result<B::Matrix<S>>;
    fn visit<F: BinaryOperator<S::T>>(self) -> Self::Output {
        self.b.ewise_matrix::<S, F>(self.x, self.y, self.how)
    }
}

/// Element-wise union (`GrB_eWiseAdd`, `union`) or intersection (`GrB_eWiseMult`) of two
/// vectors or two matrices by the binary operator `op` (none: the semiring's addition for a
/// union, its multiplication for an intersection).
#[pyfunction]
#[pyo3(signature = (x, y, union, op = None, semiring = None))]
pub(crate) fn ewise(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    union: bool,
    op: Option<String>,
    semiring: Option<String>,
) -> PyResult<Py<PyAny>> {
    let how = if union {
        Combine::Union
    } else {
        Combine::Intersection
    };
    if let Ok(xv) = x.cast::<VectorHandle>() {
        let (xv, yv) = (xv.borrow(), y.cast::<VectorHandle>()?.borrow());
        let (xv, yv) = (&*xv, &*yv);
        if xv.n != yv.n {
            return Err(PyValueError::new_err(format!(
                "the vectors have {} and {} positions",
                xv.n, yv.n
            )));
        }
        let choice = xv.h.choice;
        same_backend(&yv.h, choice)?;
        let sr = semiring_or(&semiring, &xv.h).to_string();
        let h = on_semiring!(py, &sr, choice, S, b => {
            let mut t = cloned(b, &*dense_in::<_, S>(b, &xv.h)?).map_err(py_err)?;
            let other = dense_in::<_, S>(b, &yv.h)?;
            match &op {
                None => {
                    let e = if union { Ewise::Add } else { Ewise::Mul };
                    b.ewise(&mut t, Mask::All, e, &other).map_err(py_err)?
                }
                Some(op) => <<S as Semiring>::T as NamedOps>::binary_named(
                    op,
                    EwiseVec { b, y: &mut t, x: &other, how },
                )
                .ok_or_else(|| no_operator::<S>("binary", op, <<S as Semiring>::T as NamedOps>::binary_names()))?
                .map_err(py_err)?,
            }
            Ok(Handle::new::<S, _>(choice, t))
        })?;
        return Ok(Py::new(py, VectorHandle { h, n: xv.n })?.into_any());
    }
    let (xm, ym) = (
        x.cast::<MatrixHandle>()?.get(),
        y.cast::<MatrixHandle>()?.get(),
    );
    if (xm.nrows, xm.ncols) != (ym.nrows, ym.ncols) {
        return Err(PyValueError::new_err(format!(
            "the matrices are {}x{} and {}x{}",
            xm.nrows, xm.ncols, ym.nrows, ym.ncols
        )));
    }
    let choice = xm.h.choice;
    same_backend(&ym.h, choice)?;
    let sr = semiring_or(&semiring, &xm.h).to_string();
    let h = on_semiring!(py, &sr, choice, S, b => {
        let (p, q) = (matrix_in::<_, S>(b, &xm.h)?, matrix_in::<_, S>(b, &ym.h)?);
        let c = match &op {
            None if union => b.ewise_matrix::<S, SemiringAdd<S>>(&p, &q, how),
            None => b.ewise_matrix::<S, SemiringMul<S>>(&p, &q, how),
            Some(op) => <<S as Semiring>::T as NamedOps>::binary_named(op, EwiseMat { b, x: &p, y: &q, how })
                .ok_or_else(|| no_operator::<S>("binary", op, <<S as Semiring>::T as NamedOps>::binary_names()))?,
        };
        Ok(Handle::new::<S, _>(choice, c.map_err(py_err)?))
    })?;
    Ok(Py::new(
        py,
        MatrixHandle {
            h,
            nrows: xm.nrows,
            ncols: xm.ncols,
        },
    )?
    .into_any())
}

/// `f(x)` at the entries of a vector.
struct UnaryVec<'a, B: Objects, S: Semiring> {
    b: &'a B,
    y: &'a mut B::Dense<S>,
}

impl<B: Operators, S: Semiring> UnaryVisitor<S::T> for UnaryVec<'_, B, S> {
    type Output = semigraph_algos::Result<()>;
    fn visit<F: UnaryOperator<S::T>>(self) -> Self::Output {
        self.b.apply_op::<S, F>(self.y, Mask::All)
    }
}

/// `f(c, x)` or `f(x, c)` at the entries of a vector.
struct BoundVec<'a, B: Objects, S: Semiring> {
    b: &'a B,
    y: &'a mut B::Dense<S>,
    c: Fixed<S::T>,
}

impl<B: Operators, S: Semiring> BinaryVisitor<S::T> for BoundVec<'_, B, S> {
    type Output = semigraph_algos::Result<()>;
    fn visit<F: BinaryOperator<S::T>>(self) -> Self::Output {
        self.b.apply_bound::<S, F>(self.y, Mask::All, self.c)
    }
}

/// `f(x)` at the entries of a matrix.
struct UnaryMat<'a, B: Objects, S: Semiring> {
    b: &'a B,
    a: &'a B::Matrix<S>,
}

impl<B: Operators, S: Semiring> UnaryVisitor<S::T> for UnaryMat<'_, B, S> {
    type Output = semigraph_algos::Result<B::Matrix<S>>;
    fn visit<F: UnaryOperator<S::T>>(self) -> Self::Output {
        self.b.apply_matrix::<S, F>(self.a)
    }
}

/// `f(c, x)` or `f(x, c)` at the entries of a matrix.
struct BoundMat<'a, B: Objects, S: Semiring> {
    b: &'a B,
    a: &'a B::Matrix<S>,
    c: Fixed<S::T>,
}

impl<B: Operators, S: Semiring> BinaryVisitor<S::T> for BoundMat<'_, B, S> {
    type Output = semigraph_algos::Result<B::Matrix<S>>;
    fn visit<F: BinaryOperator<S::T>>(self) -> Self::Output {
        self.b.apply_matrix_bound::<S, F>(self.a, self.c)
    }
}

/// `apply` (`GrB_apply`): the unary operator `op` at every entry, or the binary operator `op`
/// with its first operand `left` or its second `right` fixed. A result equal to the zero is no
/// entry.
#[pyfunction]
#[pyo3(signature = (x, op, left = None, right = None, semiring = None))]
pub(crate) fn apply(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    op: String,
    left: Option<Bound<'_, PyAny>>,
    right: Option<Bound<'_, PyAny>>,
    semiring: Option<String>,
) -> PyResult<Py<PyAny>> {
    let fixed = match (&left, &right) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "give left= or right= (the binary operator's fixed operand), not both",
            ));
        }
        (Some(l), None) => Some((weight_of(l)?, true)),
        (None, Some(r)) => Some((weight_of(r)?, false)),
        (None, None) => None,
    };
    if let Ok(xv) = x.cast::<VectorHandle>() {
        let xv = xv.borrow();
        let xv = &*xv;
        let choice = xv.h.choice;
        let sr = semiring_or(&semiring, &xv.h).to_string();
        let h = on_semiring!(py, &sr, choice, S, b => {
            let mut y = cloned(b, &*dense_in::<_, S>(b, &xv.h)?).map_err(py_err)?;
            let r = match fixed {
                None => <<S as Semiring>::T as NamedOps>::unary_named(&op, UnaryVec { b, y: &mut y })
                    .ok_or_else(|| no_operator::<S>("unary", &op, <<S as Semiring>::T as NamedOps>::unary_names()))?,
                Some((w, first)) => {
                    let v = value_of::<S>(w)?;
                    let c = if first { Fixed::First(v) } else { Fixed::Second(v) };
                    <<S as Semiring>::T as NamedOps>::binary_named(&op, BoundVec { b, y: &mut y, c })
                        .ok_or_else(|| no_operator::<S>("binary", &op, <<S as Semiring>::T as NamedOps>::binary_names()))?
                }
            };
            r.map_err(py_err)?;
            Ok(Handle::new::<S, _>(choice, y))
        })?;
        return Ok(Py::new(py, VectorHandle { h, n: xv.n })?.into_any());
    }
    let am = x.cast::<MatrixHandle>()?.get();
    let choice = am.h.choice;
    let sr = semiring_or(&semiring, &am.h).to_string();
    let h = on_semiring!(py, &sr, choice, S, b => {
        let a = matrix_in::<_, S>(b, &am.h)?;
        let r = match fixed {
            None => <<S as Semiring>::T as NamedOps>::unary_named(&op, UnaryMat { b, a: &a })
                .ok_or_else(|| no_operator::<S>("unary", &op, <<S as Semiring>::T as NamedOps>::unary_names()))?,
            Some((w, first)) => {
                let v = value_of::<S>(w)?;
                let c = if first { Fixed::First(v) } else { Fixed::Second(v) };
                <<S as Semiring>::T as NamedOps>::binary_named(&op, BoundMat { b, a: &a, c })
                    .ok_or_else(|| no_operator::<S>("binary", &op, <<S as Semiring>::T as NamedOps>::binary_names()))?
            }
        };
        Ok(Handle::new::<S, _>(choice, r.map_err(py_err)?))
    })?;
    Ok(Py::new(
        py,
        MatrixHandle {
            h,
            nrows: am.nrows,
            ncols: am.ncols,
        },
    )?
    .into_any())
}

/// The entries a select operator keeps.
struct Keep<'a, B: Objects, S: Semiring> {
    b: &'a B,
    a: &'a B::Matrix<S>,
    s: S::T,
}

impl<B: Operators, S: Semiring> SelectVisitor<S::T> for Keep<'_, B, S> {
    type Output = semigraph_algos::Result<B::Matrix<S>>;
    fn visit<P: SelectOperator<S::T>>(self) -> Self::Output {
        self.b.select::<S, P>(self.a, self.s)
    }
}

/// `select` (`GrB_select`): the entries of a matrix that the select operator `op` keeps given
/// the scalar `thunk` (`tril`, `offdiag`, `value_gt`, ...).
#[pyfunction]
#[pyo3(signature = (a, op, thunk = None))]
pub(crate) fn select(
    py: Python<'_>,
    a: &MatrixHandle,
    op: String,
    thunk: Option<Bound<'_, PyAny>>,
) -> PyResult<MatrixHandle> {
    let w = thunk
        .map(|t| weight_of(&t))
        .transpose()?
        .unwrap_or(Weight::Int(0));
    let h = on_semiring!(py, &a.h.semiring, a.h.choice, S, b => {
        let s = value_of::<S>(w)?;
        let m = <<S as Semiring>::T as NamedOps>::select_named(&op, Keep { b, a: held_matrix::<_, S>(b, &a.h), s })
            .ok_or_else(|| no_operator::<S>("select", &op, <<S as Semiring>::T as NamedOps>::select_names()))?
            .map_err(py_err)?;
        Ok(Handle::new::<S, _>(a.h.choice, m))
    })?;
    Ok(MatrixHandle {
        h,
        nrows: a.nrows,
        ncols: a.ncols,
    })
}

/// The semiring sum of a vector's entries (`GrB_reduce` to a scalar; the zero if none).
#[pyfunction]
#[pyo3(signature = (x, semiring = None))]
pub(crate) fn reduce_vector(
    py: Python<'_>,
    x: &VectorHandle,
    semiring: Option<String>,
) -> PyResult<Py<PyAny>> {
    let sr = semiring_or(&semiring, &x.h).to_string();
    let c: Column = on_semiring!(py, &sr, x.h.choice, S, b => {
        let v = b.reduce::<S>(&*dense_in::<_, S>(b, &x.h)?, Mask::All).map_err(py_err)?;
        Ok(<<S as Semiring>::T as Native>::column(vec![v]))
    })?;
    c.scalar(py)
}

/// The semiring sums of a matrix's rows (`axis=1`) or columns (`axis=0`) as a vector
/// (`GrB_reduce` to a vector).
#[pyfunction]
#[pyo3(signature = (a, axis, semiring = None))]
pub(crate) fn reduce_matrix(
    py: Python<'_>,
    a: &MatrixHandle,
    axis: u8,
    semiring: Option<String>,
) -> PyResult<VectorHandle> {
    let sr = semiring_or(&semiring, &a.h).to_string();
    let n = if axis == 1 { a.nrows } else { a.ncols };
    let h = on_semiring!(py, &sr, a.h.choice, S, b => {
        let m = matrix_in::<_, S>(b, &a.h)?;
        let r = if axis == 1 { b.reduce_rows(&m) } else { b.reduce_cols(&m) };
        Ok(Handle::new::<S, _>(a.h.choice, r.map_err(py_err)?))
    })?;
    Ok(VectorHandle { h, n })
}
