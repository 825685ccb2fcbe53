//! Results left in GPU memory: vectors handed to CuPy, PyTorch, Numba, ... without a copy,
//! through the CUDA Array Interface (`__cuda_array_interface__`, version 3).

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use semigraph_algos::Objects;
use semigraph_gpu::{GpuBackend, GpuDense};
use semigraph_semiring::Semiring;

use crate::backends::gpu;
use crate::errors::py_err;

/// One vector of the GPU backend, as the interface describes it.
trait Data: Send + Sync {
    fn len(&self) -> usize;
    fn address(&self, b: &GpuBackend) -> u64;
    /// NumPy's type string (`<i4`, `<f8`, ...) and name (`int32`, `float64`, ...).
    fn typestr(&self) -> (&'static str, &'static str);
    /// A copy in host memory, as the NumPy array the host result would be.
    fn get<'py>(&self, py: Python<'py>, b: &GpuBackend) -> PyResult<Bound<'py, PyAny>>;
}

/// How a value type is handed to Python: its NumPy type (string and name) and the NumPy
/// array of a host copy, for a vector of `len` values.
pub(crate) trait Exported: Sized + Send + Sync + 'static {
    fn typestr(len: usize) -> (&'static str, &'static str);
    fn to_numpy(v: Vec<Self>, py: Python<'_>) -> Bound<'_, PyAny>;
}

/// Vertex ids (levels, parents, labels; `u32::MAX` for "none"): int32, where "none" reads
/// -1 by the same bits, for fewer than 2^31 vertices, else uint32.
impl Exported for u32 {
    fn typestr(len: usize) -> (&'static str, &'static str) {
        if len > i32::MAX as usize {
            ("<u4", "uint32")
        } else {
            ("<i4", "int32")
        }
    }
    fn to_numpy(v: Vec<u32>, py: Python<'_>) -> Bound<'_, PyAny> {
        if v.len() > i32::MAX as usize {
            v.into_pyarray(py).into_any()
        } else {
            let v: Vec<i32> = v.into_iter().map(|x| x as i32).collect();
            v.into_pyarray(py).into_any()
        }
    }
}

/// Values such as PageRank's ranks.
impl Exported for f64 {
    fn typestr(_: usize) -> (&'static str, &'static str) {
        ("<f8", "float64")
    }
    fn to_numpy(v: Vec<f64>, py: Python<'_>) -> Bound<'_, PyAny> {
        v.into_pyarray(py).into_any()
    }
}

/// A vector of the GPU backend whose values are [`Exported`].
struct Vector<S: Semiring>(GpuDense<S>);

impl<S: Semiring> Data for Vector<S>
where
    S::T: Exported,
{
    fn len(&self) -> usize {
        let (r, c) = self.0.shape();
        r * c
    }
    fn address(&self, b: &GpuBackend) -> u64 {
        self.0.device_address(b)
    }
    fn typestr(&self) -> (&'static str, &'static str) {
        S::T::typestr(self.len())
    }
    fn get<'py>(&self, py: Python<'py>, b: &GpuBackend) -> PyResult<Bound<'py, PyAny>> {
        let v = py.detach(|| b.read_dense(&self.0)).map_err(py_err)?;
        Ok(S::T::to_numpy(v, py))
    }
}

/// A vector in GPU memory (BFS levels and parents, WCC labels, PageRank ranks), owned by
/// this object. Vertex ids are int32 with -1 for "none", as the host results (uint32 with
/// 4294967295 for graphs of 2^31 vertices or more, whose ids int32 cannot hold); ranks are
/// float64.
///
/// `cupy.asarray(v)`, `torch.as_tensor(v, device="cuda")` and `numba.cuda.as_cuda_array(v)`
/// view it without a copy through `__cuda_array_interface__`; the memory lives as long as this
/// object (a consumer's view keeps it alive). `get()` copies it to a NumPy array.
#[pyclass(module = "semigraph._native", frozen)]
pub(crate) struct DeviceArray {
    data: Box<dyn Data>,
}

impl DeviceArray {
    /// Vertex ids or `f64` values. The caller has synchronised the backend: every write to
    /// `buf` is finished, so consumers need no stream to wait on.
    pub(crate) fn new<S: Semiring>(buf: GpuDense<S>) -> Self
    where
        S::T: Exported,
    {
        DeviceArray {
            data: Box::new(Vector(buf)),
        }
    }
}

#[pymethods]
impl DeviceArray {
    /// The CUDA Array Interface (version 3): shape, type, device address, no stream to wait
    /// on (the values were complete when this object was made).
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        let n = self.data.len();
        let d = PyDict::new(py);
        d.set_item("shape", (n,))?;
        d.set_item("typestr", self.data.typestr().0)?;
        // A zero-length array's address is 0 by the interface's rule.
        let ptr = if n == 0 { 0 } else { self.data.address(b) };
        d.set_item("data", (ptr, false))?;
        d.set_item("strides", py.None())?;
        d.set_item("version", 3)?;
        d.set_item("stream", py.None())?;
        Ok(d)
    }

    /// `(n,)`.
    #[getter]
    fn shape(&self) -> (usize,) {
        (self.data.len(),)
    }

    /// NumPy's name of the element type: `"int32"` (`"uint32"` past 2^31 vertices) or
    /// `"float64"`.
    #[getter]
    fn dtype(&self) -> &'static str {
        self.data.typestr().1
    }

    /// The CUDA device the vector is on.
    #[getter]
    fn device(&self) -> PyResult<usize> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        Ok(b.device_ordinal())
    }

    fn __len__(&self) -> usize {
        self.data.len()
    }

    /// A copy in host memory: the NumPy array the host result would be.
    fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        self.data.get(py, b)
    }

    fn __repr__(&self) -> String {
        format!(
            "semigraph.DeviceArray(n={}, dtype={}, device=cuda)",
            self.data.len(),
            self.dtype()
        )
    }
}
