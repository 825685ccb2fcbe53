//! The algebra in any built-in semiring, named as the CLI names it (`min-plus:f32`):
//! `y = A (+).(x) x` (SpMV) and `C<M> = A (+).(x) B` (SpGEMM, optionally masked).

use numpy::IntoPyArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use semigraph_algos::{Accum, Mask, MatrixMask, Objects, Products};
use semigraph_formats::{ConvertOptions, Csr, EdgeList, Format, Weight, WeightValue};
use semigraph_semiring::{Semiring, with_builtin};

use crate::arrays::{Arrays, Ints, Values};
use crate::backends::{Choice, choose, cpu, gpu};
use crate::errors::{GpuUnavailable, format_err, py_err};

/// A SciPy matrix as the arrays Python passes: `(nrows, ncols, indptr, indices, data)`.
type Matrix<'py> = (usize, usize, Ints<'py>, Ints<'py>, Values<'py>);

/// A product as Python rebuilds it: `(nrows, ncols, indptr, indices, data)`.
type Product<'py> = (
    usize,
    usize,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// Runs `$body` with `$b` the chosen backend (`$choice`), without the GIL.
macro_rules! on_backend {
    ($py:expr, $choice:expr, $b:ident => $body:expr) => {
        $crate::interrupt::run($py, || match $choice {
            Choice::Cpu => {
                let $b = cpu();
                $body
            }
            Choice::Gpu => {
                let $b = gpu().map_err(GpuUnavailable::new_err)?;
                $body
            }
        })?
    };
}

/// The semiring's matrix of `arcs`: its values, or for semirings whose products read the
/// structure only (a boolean semiring, an index product: or-and, the secondi family) every
/// entry `one`.
pub(crate) fn csr_of<S: Semiring>(arcs: EdgeList) -> PyResult<Csr<S>>
where
    S::T: WeightValue,
{
    let r = if S::reads_structure_only() {
        arcs.to_pattern_csr::<S, u32>()
    } else {
        arcs.to_csr::<S, u32>()
    };
    r.map_err(format_err)
}

/// A result of a product that `S`'s type cannot hold, as a `ValueError` naming it
/// (`what` the product and its result, e.g. `C = A B: C`) and a semiring that would hold it.
fn inexact<S: Semiring>(e: semigraph_algos::exact::Inexact, what: &str) -> PyErr {
    PyValueError::new_err(e.message::<S>(|i, j| format!("{what}({i}, {j}) is")))
}

/// Semiring values as NumPy wants them: float64 if any is real, else int64 (uint64 past it).
fn values_to_py<T: WeightValue>(py: Python<'_>, v: Vec<T>) -> Bound<'_, PyAny> {
    let w: Vec<Weight> = v.into_par_iter().map(WeightValue::to_weight).collect();
    if w.iter().any(|x| matches!(x, Weight::Real(_))) {
        let f: Vec<f64> = w
            .par_iter()
            .map(|x| match *x {
                Weight::Int(i) => i as f64,
                Weight::UInt(u) => u as f64,
                Weight::Real(r) => r,
            })
            .collect();
        return f.into_pyarray(py).into_any();
    }
    if w.iter()
        .all(|x| !matches!(x, Weight::UInt(u) if *u > i64::MAX as u64))
    {
        let i: Vec<i64> = w
            .par_iter()
            .map(|x| match *x {
                Weight::Int(i) => i,
                Weight::UInt(u) => u as i64,
                Weight::Real(_) => unreachable!("no reals"),
            })
            .collect();
        return i.into_pyarray(py).into_any();
    }
    let u: Vec<u64> = w
        .par_iter()
        .map(|x| match *x {
            Weight::Int(i) => i as u64,
            Weight::UInt(u) => u,
            Weight::Real(_) => unreachable!("no reals"),
        })
        .collect();
    u.into_pyarray(py).into_any()
}

/// `y = A (+).(x) x` over the named built-in semiring: `y[i]` is the semiring sum over the
/// entries `A[i, j]` of `A[i, j] (x) x[j]` (the semiring's zero where row `i` is empty).
#[pyfunction]
#[pyo3(signature = (a, x, semiring, backend = "auto"))]
pub(crate) fn spmv<'py>(
    py: Python<'py>,
    a: Matrix<'py>,
    x: Values<'py>,
    semiring: &str,
    backend: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let choice = choose(backend)?;
    let (nrows, ncols) = (a.0, a.1);
    // Taken by the one semiring that runs (the body below is compiled once per built-in).
    let mut arcs = Some(Arrays::new(nrows, ncols, &a.2, &a.3, &a.4)?);
    let xlen = x.len();
    let x = x.weights()?;
    if xlen != ncols {
        return Err(PyValueError::new_err(format!(
            "x has {xlen} entries, A has {ncols} columns"
        )));
    }
    let out = with_builtin!(semiring, S => {
        let y: PyResult<Vec<<S as Semiring>::T>> = on_backend!(py, choice, b => {
            let a = csr_of::<S>(arcs.take().expect("one semiring runs").edge_list())?;
            let x: Vec<<S as Semiring>::T> = (0..ncols)
                .map(|k| {
                    let v = x.get(k).expect("one value an entry");
                    <S as Semiring>::T::from_weight(v).ok_or_else(|| {
                        PyValueError::new_err(format!("x holds {v}, which {semiring} cannot represent"))
                    })
                })
                .collect::<PyResult<_>>()?;
            // y = A x is the product with x as a column: each result exact in the type, or
            // refused.
            let col = Csr::<S>::try_from_parts(
                ncols,
                1,
                (0..=ncols as u32).collect(),
                vec![0; ncols],
                x.clone(),
            )
            .map_err(format_err)?;
            semigraph_algos::exact::check_product::<S, S>(&a, &col, None)
                .map_err(|e| inexact::<S>(e, "y = A x: y"))?;
            let run = || -> semigraph_algos::Result<Vec<<S as Semiring>::T>> {
                let da = b.matrix(&a, Format::Csr, &ConvertOptions::default())?;
                let dx = b.dense::<S>(ncols, 1, &x)?;
                let mut y = b.dense_filled::<S>(nrows, 1, S::zero())?;
                b.mxm(&mut y, Mask::All, Accum::Replace, &da, &dx)?;
                b.read_dense(&y)
            };
            let y = run().map_err(py_err)?;
            semigraph_algos::exact::check_results::<S>(
                y.iter().enumerate().map(|(i, &v)| (i, 0, v)),
                &[a.vals(), &x],
            )
            .map_err(|e| inexact::<S>(e, "y = A x: y"))?;
            Ok(y)
        });
        y.map(|y| values_to_py(py, y))
    });
    out.unwrap_or_else(|| Err(unknown(semiring)))
}

/// `C<M> = A (+).(x) B` over the named built-in semiring, as
/// `(nrows, ncols, indptr, indices, data)`: entries equal to the semiring's zero are not
/// stored. With a mask `M` (its pattern), only the positions it holds are computed, or with
/// `complement` only those it does not.
#[pyfunction]
#[pyo3(signature = (a, b, semiring, mask = None, complement = false, backend = "auto"))]
pub(crate) fn spgemm<'py>(
    py: Python<'py>,
    a: Matrix<'py>,
    b: Matrix<'py>,
    semiring: &str,
    mask: Option<Matrix<'py>>,
    complement: bool,
    backend: &str,
) -> PyResult<Product<'py>> {
    let choice = choose(backend)?;
    if complement && mask.is_none() {
        return Err(PyValueError::new_err(
            "complement=True complements a mask: give mask= (the product where it has no entry)",
        ));
    }
    if a.1 != b.0 {
        return Err(PyValueError::new_err(format!(
            "A is {}x{} and B is {}x{}: the inner sizes differ",
            a.0, a.1, b.0, b.1
        )));
    }
    let (m, n) = (a.0, b.1);
    // Taken by the one semiring that runs (the body below is compiled once per built-in).
    let mut aa = Some(Arrays::new(a.0, a.1, &a.2, &a.3, &a.4)?);
    let mut ba = Some(Arrays::new(b.0, b.1, &b.2, &b.3, &b.4)?);
    let mut ma = match &mask {
        Some(k) if (k.0, k.1) != (m, n) => {
            return Err(PyValueError::new_err(format!(
                "the mask is {}x{}, the product {m}x{n}",
                k.0, k.1
            )));
        }
        Some(k) => Some(Arrays::new(k.0, k.1, &k.2, &k.3, &k.4)?),
        None => None,
    };
    let one = "one semiring runs";
    let out = with_builtin!(semiring, S => {
        let c: PyResult<Csr<S>> = on_backend!(py, choice, be => {
            let a = csr_of::<S>(aa.take().expect(one).edge_list())?;
            let b = csr_of::<S>(ba.take().expect(one).edge_list())?;
            let mk = match ma.take() {
                Some(k) => Some(k.edge_list().to_pattern_csr::<S, u32>().map_err(format_err)?),
                None => None,
            };
            semigraph_algos::exact::check_product(&a, &b, mk.as_ref().map(|k| (k, complement)))
                .map_err(|e| inexact::<S>(e, "C = A B: C"))?;
            let run = || -> semigraph_algos::Result<Csr<S>> {
                let opts = ConvertOptions::default();
                let (da, db) = (be.matrix(&a, Format::Csr, &opts)?, be.matrix(&b, Format::Csr, &opts)?);
                let dm = mk.as_ref().map(|k| be.matrix(k, Format::Csr, &opts)).transpose()?;
                let mask = match (&dm, complement) {
                    (None, _) => MatrixMask::All,
                    (Some(k), false) => MatrixMask::Keep(k),
                    (Some(k), true) => MatrixMask::Skip(k),
                };
                be.read_matrix(&be.spgemm(mask, &da, &db)?)
            };
            let c = run().map_err(py_err)?;
            semigraph_algos::exact::check_results::<S>(c.iter(), &[a.vals(), b.vals()])
                .map_err(|e| inexact::<S>(e, "C = A B: C"))?;
            Ok(c)
        });
        c.map(|c| {
            let (nrows, ncols) = (c.nrows(), c.ncols());
            let ptr: Vec<i64> = c.row_ptr().par_iter().map(|&p| i64::from(p)).collect();
            let (cols, vals) = (c.col_idx().to_vec(), c.vals().to_vec());
            (
                nrows,
                ncols,
                ptr.into_pyarray(py).into_any(),
                cols.into_pyarray(py).into_any(),
                values_to_py(py, vals),
            )
        })
    });
    out.unwrap_or_else(|| Err(unknown(semiring)))
}

fn unknown(name: &str) -> PyErr {
    PyValueError::new_err(format!(
        "semiring {name:?} is not a built-in one; semigraph.semirings() lists them"
    ))
}

/// The names of the built-in semirings (`min-plus:f32`, ...).
#[pyfunction]
pub(crate) fn semirings() -> Vec<String> {
    semigraph_semiring::names::builtin_names()
}
