//! Results left in GPU memory: vectors handed to CuPy, PyTorch, Numba, ... without a copy,
//! through the CUDA Array Interface (`__cuda_array_interface__`, version 3).

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use semigraph_algos::{Objects, Parents};
use semigraph_gpu::GpuDense;

use crate::backends::gpu;
use crate::errors::py_err;

/// A vector of vertex ids in GPU memory (BFS levels or parents), owned by this object: int32
/// with -1 for "none", as the host results (uint32 with 4294967295 for graphs of 2^31
/// vertices or more, whose ids int32 cannot hold).
///
/// `cupy.asarray(v)`, `torch.as_tensor(v, device="cuda")` and `numba.cuda.as_cuda_array(v)`
/// view it without a copy through `__cuda_array_interface__`; the memory lives as long as this
/// object (a consumer's view keeps it alive). `get()` copies it to a NumPy array.
#[pyclass(module = "semigraph._native", frozen)]
pub(crate) struct DeviceIds {
    buf: GpuDense<Parents>,
    len: usize,
}

impl DeviceIds {
    /// Wraps a vector of the backend. The caller has synchronised the backend: every write
    /// to `buf` is finished, so consumers need no stream to wait on.
    pub(crate) fn new(buf: GpuDense<Parents>) -> Self {
        let (rows, cols) = buf.shape();
        DeviceIds {
            buf,
            len: rows * cols,
        }
    }

    fn wide(&self) -> bool {
        self.len > i32::MAX as usize
    }
}

#[pymethods]
impl DeviceIds {
    /// The CUDA Array Interface (version 3): shape, type, device address, no stream to wait
    /// on (the values were complete when this object was made).
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        let d = PyDict::new(py);
        d.set_item("shape", (self.len,))?;
        d.set_item("typestr", if self.wide() { "<u4" } else { "<i4" })?;
        // A zero-length array's address is 0 by the interface's rule.
        let ptr = if self.len == 0 {
            0
        } else {
            self.buf.device_address(b)
        };
        d.set_item("data", (ptr, false))?;
        d.set_item("strides", py.None())?;
        d.set_item("version", 3)?;
        d.set_item("stream", py.None())?;
        Ok(d)
    }

    /// `(n,)`.
    #[getter]
    fn shape(&self) -> (usize,) {
        (self.len,)
    }

    /// `"int32"` (`"uint32"` past 2^31 vertices).
    #[getter]
    fn dtype(&self) -> &'static str {
        if self.wide() { "uint32" } else { "int32" }
    }

    /// The CUDA device the vector is on.
    #[getter]
    fn device(&self) -> PyResult<usize> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        Ok(b.device_ordinal())
    }

    fn __len__(&self) -> usize {
        self.len
    }

    /// A copy in host memory, as a NumPy array (int32, -1 for "none"; uint32 past 2^31
    /// vertices).
    fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
        let v = py.detach(|| b.read_dense(&self.buf)).map_err(py_err)?;
        Ok(if self.wide() {
            v.into_pyarray(py).into_any()
        } else {
            let v: Vec<i32> = v.into_iter().map(|x| x as i32).collect();
            v.into_pyarray(py).into_any()
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "semigraph.DeviceIds(n={}, dtype={}, device=cuda)",
            self.len,
            self.dtype()
        )
    }
}
