//! The algebra's objects from Python: a matrix or a vector held where its backend computes
//! (device memory on a GPU) in one built-in semiring, whose zero is its "no entry"
//! (docs/PYTHON.md, "The algebra"). A [`Handle`] erases the types; each operation finds them
//! again from the semiring's name ([`on_semiring!`]), so that its body is compiled once per
//! built-in semiring and backend. Operands held in another semiring of the same value type are
//! converted for the call ([`matrix_in`], [`dense_in`]).

use std::any::Any;

use numpy::IntoPyArray;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use semigraph_algos::{Backend, CpuBackend, ElementWise, Objects, Parents};
use semigraph_formats::{ConvertOptions, Csr, Format, Weight, WeightValue};
use semigraph_gpu::GpuBackend;
use semigraph_semiring::ops::NamedOps;
use semigraph_semiring::{DistPred, OrAnd, PackedDist, Semiring, bf16, f16, with_builtin};

use crate::backends::Choice;
use crate::errors::py_err;

/// A backend's matrix or dense array of a built-in semiring, its types erased.
pub(crate) struct Handle {
    /// The semiring, as `semirings()` names it (`min-plus:f64`).
    pub(crate) semiring: String,
    /// The backend that holds it.
    pub(crate) choice: Choice,
    inner: Box<dyn Any + Send + Sync>,
}

const BUILT_IN: &str = "a handle's semiring is a built-in one";
const HELD: &str = "a handle holds its backend's object of its semiring";

impl Handle {
    /// `x`, an object of backend `choice` in semiring `S`.
    pub(crate) fn new<S: Semiring, X: Any + Send + Sync>(choice: Choice, x: X) -> Handle {
        Handle {
            semiring: name::<S>(),
            choice,
            inner: Box::new(x),
        }
    }

    /// The object, as the type its semiring and backend give.
    pub(crate) fn get<X: Any>(&self) -> &X {
        self.inner.downcast_ref().expect(HELD)
    }

    /// The object, as the type its semiring and backend give, to change in place.
    pub(crate) fn get_mut<X: Any>(&mut self) -> &mut X {
        self.inner.downcast_mut().expect(HELD)
    }
}

/// `S`'s name as `semirings()` gives it.
pub(crate) fn name<S: Semiring>() -> String {
    semigraph_semiring::names::spec_of(&S::full_name())
}

/// The error for a semiring name that is not a built-in one.
pub(crate) fn unknown(name: &str) -> PyErr {
    PyValueError::new_err(format!(
        "semiring {name:?} is not a built-in one; semigraph.semirings() lists them"
    ))
}

/// Runs `$body` with `$S` the built-in semiring named `$name` and `$b` the backend `$choice`
/// (`&CpuBackend` or `&GpuBackend`), without the GIL; the body returns a `PyResult` of one type
/// for every semiring. One operation is not divided further, so it runs on the calling thread
/// (no worker thread to wait on: tens of microseconds a call) and Ctrl-C is seen as it returns.
macro_rules! on_semiring {
    ($py:expr, $name:expr, $choice:expr, $S:ident, $b:ident => $body:expr) => {{
        let name: &str = $name;
        let choice: $crate::backends::Choice = $choice;
        let out = semigraph_semiring::with_builtin!(name, $S => {
            $py.detach(|| -> pyo3::PyResult<_> {
                match choice {
                    $crate::backends::Choice::Cpu => {
                        let $b = $crate::backends::cpu();
                        $body
                    }
                    $crate::backends::Choice::Gpu => {
                        let $b = $crate::backends::gpu()
                            .map_err($crate::errors::GpuUnavailable::new_err)?;
                        $body
                    }
                }
            })
        });
        out.unwrap_or_else(|| Err($crate::objects::unknown(name)))
    }};
}
pub(crate) use on_semiring;

/// A borrowed operand, or one converted for the call.
pub(crate) enum Operand<'h, X> {
    Held(&'h X),
    Made(X),
}

impl<X> std::ops::Deref for Operand<'_, X> {
    type Target = X;
    fn deref(&self) -> &X {
        match self {
            Operand::Held(x) => x,
            Operand::Made(x) => x,
        }
    }
}

/// A matrix's entries on the host, its value type erased (a conversion between semirings).
pub(crate) struct HostMatrix {
    shape: (usize, usize),
    ptr: Vec<u32>,
    cols: Vec<u32>,
    vals: Box<dyn Any + Send>,
    from: String,
}

/// A dense array on the host with the zero of its semiring, types erased.
pub(crate) struct HostDense {
    shape: (usize, usize),
    vals: Box<dyn Any + Send>,
    zero: Box<dyn Any + Send>,
    from: String,
}

/// The value type of a semiring's name (`min-plus:f64` -> `f64`).
fn value_type(semiring: &str) -> &str {
    semiring.rsplit(':').next().unwrap_or(semiring)
}

/// Values of `from` taken as values of `S`, or a `TypeError` when the types differ.
fn values_as<S: Semiring>(v: Box<dyn Any + Send>, from: &str) -> PyResult<Vec<S::T>> {
    v.downcast::<Vec<S::T>>().map(|v| *v).map_err(|_| {
        PyTypeError::new_err(format!(
            "an operand holds {} values ({from}), the operation's semiring {} holds {}: \
             semigraph does not convert between value types",
            value_type(from),
            name::<S>(),
            value_type(&name::<S>())
        ))
    })
}

impl HostMatrix {
    /// The matrix in `S` on `b`: the same entries; a value equal to `S`'s zero is no entry.
    fn upload<B: Backend, S: Semiring>(self, b: &B) -> PyResult<B::Matrix<S>> {
        let vals = values_as::<S>(self.vals, &self.from)?;
        let (n, m) = self.shape;
        let c = Csr::<S>::try_from_parts(n, m, self.ptr, self.cols, vals)
            .and_then(Csr::without_zeros)
            .map_err(crate::errors::format_err)?;
        b.matrix(&c, Format::Csr, &ConvertOptions::default())
            .map_err(py_err)
    }
}

impl HostDense {
    /// The array in `S` on `b`: where it had no entry (its semiring's zero) it has none in
    /// `S` (`S`'s zero).
    fn upload<B: Backend, S: Semiring>(self, b: &B) -> PyResult<B::Dense<S>> {
        let mut vals = values_as::<S>(self.vals, &self.from)?;
        let zero = *self
            .zero
            .downcast::<S::T>()
            .expect("the zero has the values' type");
        vals.par_iter_mut()
            .filter(|v| **v == zero)
            .for_each(|v| *v = S::zero());
        b.dense::<S>(self.shape.0, self.shape.1, &vals)
            .map_err(py_err)
    }
}

/// What every operation asks of a backend about handles whose semiring it does not know as a
/// type: each method finds it from the name (one body per built-in semiring, per backend).
pub(crate) trait Erased: Backend {
    /// The entries of a dense array as a mask (the positions whose value is not its zero).
    fn dense_mask<'a>(&'a self, h: &'a Handle) -> Self::MaskRef<'a>;
    /// The pattern of a matrix, in or-and.
    fn pattern_of(&self, h: &Handle) -> PyResult<Self::Matrix<OrAnd>>;
    /// A matrix's entries on the host.
    fn matrix_to_host(&self, h: &Handle) -> PyResult<HostMatrix>;
    /// A dense array on the host.
    fn dense_to_host(&self, h: &Handle) -> PyResult<HostDense>;
    /// A copy of a `u32` array as indices (its values at every position, its zero included:
    /// in plus-times, 0 is index 0), or a `TypeError` for another value type.
    fn index_array(&self, h: &Handle) -> PyResult<Self::Dense<Parents>>;
}

/// Runs `$body` with `$M` the built-in semiring of `u32` values named `$name`, if it is one.
macro_rules! with_u32 {
    ($name:expr, $M:ident => $body:expr) => {{
        use semigraph_semiring::{
            AnySecondI, MaxMin, MinFirst, MinMax, MinPlus, MinSecond, MinSecondI, PlusTimes,
        };
        let name: &str = $name;
        let mut out = None;
        macro_rules! one {
            ($s:ty) => {
                if out.is_none() && name == self::name::<$s>() {
                    type $M = $s;
                    out = Some($body);
                }
            };
        }
        one!(PlusTimes<u32>);
        one!(MinPlus<u32>);
        one!(MaxMin<u32>);
        one!(MinMax<u32>);
        one!(MinSecond<u32>);
        one!(MinFirst<u32>);
        one!(MinSecondI<u32>);
        one!(AnySecondI<u32>);
        out
    }};
}

macro_rules! erased {
    ($B:ty) => {
        impl Erased for $B {
            fn dense_mask<'a>(&'a self, h: &'a Handle) -> Self::MaskRef<'a> {
                with_builtin!(h.semiring.as_str(), M => {
                    self.mask::<M>(h.get::<<$B as Objects>::Dense<M>>())
                })
                .expect(BUILT_IN)
            }
            fn pattern_of(&self, h: &Handle) -> PyResult<Self::Matrix<OrAnd>> {
                with_builtin!(h.semiring.as_str(), M => {
                    self.pattern::<M, OrAnd>(h.get::<<$B as Objects>::Matrix<M>>())
                        .map_err(py_err)
                })
                .expect(BUILT_IN)
            }
            fn matrix_to_host(&self, h: &Handle) -> PyResult<HostMatrix> {
                with_builtin!(h.semiring.as_str(), M => {
                    let c = self
                        .read_matrix::<M>(h.get::<<$B as Objects>::Matrix<M>>())
                        .map_err(py_err)?;
                    Ok(HostMatrix {
                        shape: (c.nrows(), c.ncols()),
                        ptr: c.row_ptr().to_vec(),
                        cols: c.col_idx().to_vec(),
                        vals: Box::new(c.vals().to_vec()),
                        from: h.semiring.clone(),
                    })
                })
                .expect(BUILT_IN)
            }
            fn dense_to_host(&self, h: &Handle) -> PyResult<HostDense> {
                with_builtin!(h.semiring.as_str(), M => {
                    let x = h.get::<<$B as Objects>::Dense<M>>();
                    Ok(HostDense {
                        shape: self.dense_shape(x),
                        vals: Box::new(self.read_dense::<M>(x).map_err(py_err)?),
                        zero: Box::new(M::zero()),
                        from: h.semiring.clone(),
                    })
                })
                .expect(BUILT_IN)
            }
            fn index_array(&self, h: &Handle) -> PyResult<Self::Dense<Parents>> {
                with_u32!(h.semiring.as_str(), M => {
                    let x = h.get::<<$B as Objects>::Dense<M>>();
                    let (r, c) = self.dense_shape(x);
                    let mut y = self.dense_filled::<M>(r, c, M::zero()).map_err(py_err)?;
                    // zero + x is every value of x, the zero's too: raw indices, not entries
                    self.ewise(&mut y, semigraph_algos::Mask::All, semigraph_algos::Ewise::Add, x)
                        .map_err(py_err)?;
                    Ok(self.dense_as::<M, Parents>(y))
                })
                .unwrap_or_else(|| {
                    Err(PyTypeError::new_err(format!(
                        "indices are a vector of u32 values (plus-times:u32, min-second:u32, ...), \
                         not {}",
                        h.semiring
                    )))
                })
            }
        }
    };
}
erased!(CpuBackend);
erased!(GpuBackend);

/// Refuses an operand held by another backend than the operation's.
pub(crate) fn same_backend(h: &Handle, choice: Choice) -> PyResult<()> {
    if h.choice == choice {
        return Ok(());
    }
    let on = |c: Choice| {
        if c == Choice::Gpu {
            "the GPU"
        } else {
            "the CPU"
        }
    };
    Err(PyValueError::new_err(format!(
        "an operand lives on {}, the operation runs on {}: make both on one backend",
        on(h.choice),
        on(choice)
    )))
}

/// Matrix `h` in semiring `S` on `b`: itself, or its entries converted (a copy through the
/// host: `O(nnz)`; `Matrix.as_semiring` converts once for many calls).
pub(crate) fn matrix_in<'h, B: Erased, S: Semiring>(
    b: &B,
    h: &'h Handle,
) -> PyResult<Operand<'h, B::Matrix<S>>>
where
    B::Matrix<S>: Any,
{
    if h.semiring == name::<S>() {
        return Ok(Operand::Held(h.get()));
    }
    Ok(Operand::Made(b.matrix_to_host(h)?.upload::<B, S>(b)?))
}

/// Matrix `h`, held in `S` on `b`.
pub(crate) fn held_matrix<'h, B: Objects, S: Semiring>(_: &B, h: &'h Handle) -> &'h B::Matrix<S>
where
    B::Matrix<S>: Any,
{
    h.get()
}

/// Dense array `h`, held in `S` on `b`, to change in place.
pub(crate) fn held_dense_mut<'h, B: Objects, S: Semiring>(
    _: &B,
    h: &'h mut Handle,
) -> &'h mut B::Dense<S>
where
    B::Dense<S>: Any,
{
    h.get_mut()
}

/// A copy of matrix `h` in semiring `S` on `b` (through the host, `O(nnz)`).
pub(crate) fn converted<B: Erased, S: Semiring>(b: &B, h: &Handle) -> PyResult<B::Matrix<S>> {
    b.matrix_to_host(h)?.upload::<B, S>(b)
}

/// Dense array `h` in semiring `S` on `b`: itself, or converted (through the host, `O(n)`).
pub(crate) fn dense_in<'h, B: Erased, S: Semiring>(
    b: &B,
    h: &'h Handle,
) -> PyResult<Operand<'h, B::Dense<S>>>
where
    B::Dense<S>: Any,
{
    if h.semiring == name::<S>() {
        return Ok(Operand::Held(h.get()));
    }
    Ok(Operand::Made(b.dense_to_host(h)?.upload::<B, S>(b)?))
}

/// Values as NumPy takes them: the value type's own array (`float16` and `bfloat16` widen to
/// `float32`), or, for the packed distance-and-predecessor values, their weights.
pub(crate) enum Column {
    Bool(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U32(Vec<u32>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Weights(Vec<Weight>),
}

impl Column {
    /// The NumPy array (no copy of the vector).
    pub(crate) fn into_py(self, py: Python<'_>) -> Bound<'_, PyAny> {
        match self {
            Column::Bool(v) => v.into_pyarray(py).into_any(),
            Column::I32(v) => v.into_pyarray(py).into_any(),
            Column::I64(v) => v.into_pyarray(py).into_any(),
            Column::U32(v) => v.into_pyarray(py).into_any(),
            Column::F32(v) => v.into_pyarray(py).into_any(),
            Column::F64(v) => v.into_pyarray(py).into_any(),
            Column::Weights(v) => {
                let f: Vec<f64> = v
                    .into_iter()
                    .map(|w| match w {
                        Weight::Int(i) => i as f64,
                        Weight::UInt(u) => u as f64,
                        Weight::Real(r) => r,
                    })
                    .collect();
                f.into_pyarray(py).into_any()
            }
        }
    }

    /// The one value of a one-value column, as a Python scalar.
    pub(crate) fn scalar(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(self.into_py(py).call_method1("item", (0,))?.unbind())
    }
}

/// A value type of the built-in semirings, as Python reads and writes it.
pub(crate) trait Native: WeightValue + NamedOps {
    /// Values as NumPy takes them.
    fn column(v: Vec<Self>) -> Column;
}

macro_rules! native {
    ($($t:ty => $c:ident),*) => {$(
        impl Native for $t {
            fn column(v: Vec<Self>) -> Column {
                Column::$c(v)
            }
        }
    )*};
}
native!(bool => Bool, i32 => I32, i64 => I64, u32 => U32, f32 => F32, f64 => F64);

impl Native for f16 {
    fn column(v: Vec<Self>) -> Column {
        Column::F32(v.into_iter().map(f16::to_f32).collect())
    }
}

impl Native for bf16 {
    fn column(v: Vec<Self>) -> Column {
        Column::F32(v.into_iter().map(bf16::to_f32).collect())
    }
}

impl<D: PackedDist + WeightValue> Native for DistPred<D> {
    fn column(v: Vec<Self>) -> Column {
        Column::Weights(v.into_iter().map(WeightValue::to_weight).collect())
    }
}

/// A Python number as a weight (`True` is 1): read with the GIL, converted to a semiring's
/// type later ([`value_of`]).
pub(crate) fn weight_of(x: &Bound<'_, PyAny>) -> PyResult<Weight> {
    if let Ok(b) = x.extract::<bool>() {
        return Ok(Weight::Int(b as i64));
    }
    if let Ok(i) = x.extract::<i64>() {
        return Ok(Weight::Int(i));
    }
    if let Ok(u) = x.extract::<u64>() {
        return Ok(Weight::UInt(u));
    }
    match x.extract::<f64>() {
        Ok(r) => Ok(Weight::Real(r)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{} is not a number",
            x.repr().map(|r| r.to_string()).unwrap_or_default()
        ))),
    }
}

/// `w` as a value of `S`, or a `ValueError` saying that `S`'s type has no such value.
pub(crate) fn value_of<S: Semiring>(w: Weight) -> PyResult<S::T>
where
    S::T: WeightValue,
{
    S::T::from_weight(w).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{w} is no {} value ({})",
            value_type(&name::<S>()),
            name::<S>()
        ))
    })
}

/// The `n` weights `w` as values of `S` (each checked, [`value_of`]).
pub(crate) fn values_of<S: Semiring>(
    w: &semigraph_formats::Weights,
    n: usize,
) -> PyResult<Vec<S::T>>
where
    S::T: WeightValue,
{
    (0..n)
        .into_par_iter()
        .map(|k| value_of::<S>(w.get(k).expect("k < len")))
        .collect()
}
