//! `Graph`: an adjacency matrix held by a backend (on the GPU, in device memory) between
//! calls, and the algorithms over it.

use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use semigraph_algos::{
    ApspMethod, ApspOptions, BfsOptions, BfsSemiring, Graph as AlgoGraph, GraphOptions, NO_PARENT,
    Objects, PageRankOptions, Parents, apsp, bfs, bfs_resident, pagerank_resident, wcc_resident,
};
use semigraph_gpu::{GpuBackend, GpuDense};

use crate::arrays::{Arrays, Ints, Values, ids};
use crate::backends::{Choice, choose, cpu, gpu};
use crate::device::DeviceArray;
use crate::errors::{format_err, py_err};
use crate::held::{Cell, GpuHeld, on_structure, with_held};
use crate::plans;
use semigraph_algos::memory::Kernel;

/// A NumPy matrix handed to Python.
type Arr2<'py, T> = Bound<'py, PyArray2<T>>;
/// A NumPy array whose type depends on the input (int32 or int64 vertex ids).
type Any<'py> = Bound<'py, PyAny>;

/// A square adjacency matrix (`A[u, v]` = weight of the arc `u -> v`) held by a backend
/// between calls: on the GPU it is uploaded once, and each algorithm call costs the algorithm
/// (and the copy of its result to the host).
#[pyclass(module = "semigraph._native", frozen)]
pub(crate) struct Graph {
    cell: Cell,
    n: usize,
    nnz: usize,
    backend: Choice,
}

impl Graph {
    /// Refuses `what` when the `needed` bytes exceed the machine's.
    fn fits(&self, what: &str, needed: u64) -> PyResult<()> {
        plans::fits(what, self.n, needed)
    }

    /// A traversal from `source` (checked in range) with `value_bytes`-byte values.
    fn traversal(&self, what: &str, source: i64, value_bytes: usize) -> PyResult<usize> {
        let s = plans::vertex(source, self.n)?;
        self.fits(what, plans::traversal(self.backend, self.n, value_bytes))?;
        Ok(s)
    }

    /// A Graphalytics kernel.
    fn kernel(&self, what: &str, k: semigraph_algos::memory::Kernel) -> PyResult<()> {
        self.fits(what, plans::kernel(self.backend, k, self.n, self.nnz))
    }

    /// Runs `f` on the matrices the GPU holds (without the GIL, interruptible), then waits
    /// for the GPU: the arrays `f` returns are complete, so consumers on other streams need
    /// not wait. A `ValueError` for a graph on the CPU.
    fn on_gpu<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&GpuHeld<'_>) -> semigraph_algos::Result<R> + Send,
    ) -> PyResult<R> {
        let Cell::Gpu(c) = &self.cell else {
            return Err(PyValueError::new_err(
                "device=True leaves results in GPU memory: it needs a Graph on the GPU \
                 (backend=\"gpu\"); this one is on the CPU",
            ));
        };
        crate::interrupt::run(py, || {
            c.with_dependent(|_, h| {
                let r = f(h)?;
                h.weights.backend().synchronize()?;
                Ok(r)
            })
        })?
        .map_err(py_err)
    }
}

/// BFS with levels and parents left on the GPU, the source's parent "none" as in the host
/// results. The caller synchronises before handing them out.
fn bfs_left_on_gpu(
    g: &AlgoGraph<'_, GpuBackend, BfsSemiring>,
    source: usize,
) -> semigraph_algos::Result<(GpuDense<Parents>, GpuDense<BfsSemiring>)> {
    let mut r = bfs_resident(g, source, &BfsOptions::default())?;
    g.backend().set(&mut r.parents, source, NO_PARENT)?;
    Ok((r.levels, r.parents))
}

#[pymethods]
impl Graph {
    /// `Graph(n, indptr, indices, data, backend)`: the CSR arrays of an `n x n` matrix
    /// (`indptr` and `indices` int32 or int64, `data` float64; duplicates keep the smallest
    /// weight, explicit zeros are arcs of weight 0).
    #[new]
    #[pyo3(signature = (n, indptr, indices, data, backend = "auto"))]
    fn new(
        py: Python<'_>,
        n: usize,
        indptr: Ints<'_>,
        indices: Ints<'_>,
        data: PyReadonlyArray1<'_, f64>,
        backend: &str,
    ) -> PyResult<Self> {
        let choice = choose(backend)?;
        // The copy of the arrays, then the graph (three, if apart: checked once it is known).
        let nnz = indices.len();
        plans::fits("a graph", n, plans::graph(choice, n, nnz, false))?;
        let arcs = Arrays::new(n, n, &indptr, &indices, &Values::F64(data))?;
        let apart = arcs.has_infinity();
        if apart {
            plans::fits("a graph", n, plans::graph(choice, n, nnz, apart))?;
        }
        let cell = crate::interrupt::run(py, || Cell::new(arcs, apart, choice))??;
        Ok(Graph {
            cell,
            n,
            nnz,
            backend: choice,
        })
    }

    /// The number of vertices.
    #[getter]
    fn n(&self) -> usize {
        self.n
    }

    /// The backend holding the matrix: "cpu" or "gpu".
    #[getter]
    fn backend(&self) -> &'static str {
        match self.backend {
            Choice::Cpu => "cpu",
            Choice::Gpu => "gpu",
        }
    }

    /// [`Graph::bfs`] with levels and parents left in GPU memory: `(levels, parents)` as
    /// [`DeviceArray`]s (CUDA Array Interface; no copy to the host). Only for a graph on the
    /// GPU.
    fn bfs_device(&self, py: Python<'_>, source: i64) -> PyResult<(DeviceArray, DeviceArray)> {
        let source = self.traversal("BFS", source, 4)?;
        let (levels, parents) = self.on_gpu(py, |h| bfs_left_on_gpu(h.pattern()?, source))?;
        Ok((DeviceArray::new(levels), DeviceArray::new(parents)))
    }

    /// [`Graph::pagerank`] with the ranks left in GPU memory: `(ranks, iterations, delta)`,
    /// the ranks a float64 [`DeviceArray`]. Only for a graph on the GPU.
    #[pyo3(signature = (damping = 0.85, iterations = 100, tolerance = Some(1e-9)))]
    fn pagerank_device(
        &self,
        py: Python<'_>,
        damping: f64,
        iterations: usize,
        tolerance: Option<f64>,
    ) -> PyResult<(DeviceArray, usize, Option<f64>)> {
        self.kernel("PageRank", Kernel::PageRank)?;
        let opts = PageRankOptions {
            damping,
            iterations,
            tolerance,
        };
        let r = self.on_gpu(py, |h| on_structure!(h, g => pagerank_resident(g, &opts)))?;
        Ok((DeviceArray::new(r.ranks), r.iterations, r.delta))
    }

    /// [`Graph::wcc`] with the labels left in GPU memory, as an int32 [`DeviceArray`]. Only
    /// for a graph on the GPU.
    fn wcc_device(&self, py: Python<'_>) -> PyResult<DeviceArray> {
        self.kernel("WCC", Kernel::Wcc)?;
        let r = self.on_gpu(py, |h| on_structure!(h, g => wcc_resident(g)))?;
        Ok(DeviceArray::new(r.labels))
    }

    /// All-pairs shortest paths: `(D, next_hop)`, `n x n`; `D[i, j]` inf where `j` is
    /// unreachable from `i`, `next_hop[i, j]` the vertex after `i` on a shortest path (-1
    /// where unreachable; `i` on the diagonal), or `None` with `next_hop=False`.
    #[pyo3(signature = (next_hop = true))]
    fn apsp<'py>(
        &self,
        py: Python<'py>,
        next_hop: bool,
    ) -> PyResult<(Arr2<'py, f64>, Option<Any<'py>>)> {
        self.fits(
            "all-pairs shortest paths",
            plans::apsp(self.backend, self.n, next_hop),
        )?;
        let opts = ApspOptions {
            next_hop,
            method: ApspMethod::Auto,
        };
        let r = crate::interrupt::run(py, || with_held!(self, h => apsp(&h.weights, &opts)))?
            .map_err(py_err)?;
        let n = self.n;
        let d = r.dist.into_pyarray(py).reshape([n, n])?;
        let next = match r.next {
            Some(v) => Some(ids(py, v, n).call_method1("reshape", (n, n))?),
            None => None,
        };
        Ok((d, next))
    }

    /// Runs the registry's algorithm `name` (see `algorithms()`) with `kwargs` (its
    /// arguments by name; `None` or absent: the default), on the matrices this graph holds.
    /// Returns the columns and scalars named in `returns` (default: the algorithm's own
    /// list): one object, or a tuple of several.
    #[pyo3(signature = (name, kwargs = None, returns = None))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        kwargs: Option<&Bound<'py, pyo3::types::PyDict>>,
        returns: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let info = crate::registry::info(name)?;
        let args = crate::registry::args(info, self.n, kwargs)?;
        let threads = rayon::current_num_threads();
        let kind = match self.backend {
            Choice::Cpu => semigraph_algos::BackendKind::Cpu,
            Choice::Gpu => semigraph_algos::BackendKind::Gpu,
        };
        self.fits(
            info.summary.split([' ', ':', '(']).next().unwrap_or(name),
            semigraph_algos::algorithms::host_bytes(name, kind, self.n, self.nnz, threads),
        )?;
        let out = crate::interrupt::run(
            py,
            || with_held!(self, h => semigraph_algos::algorithms::run(name, h, &args).expect("a registered algorithm")),
        )?
        .map_err(py_err)?;
        let returns =
            returns.unwrap_or_else(|| info.returns.iter().map(|r| r.to_string()).collect());
        crate::registry::result(py, out, &returns, self.n)
    }

    fn __repr__(&self) -> String {
        format!(
            "semigraph.Graph(n={}, backend={:?})",
            self.n,
            self.backend()
        )
    }
}

/// One breadth-first search on a matrix given as CSR arrays (`semigraph.bfs(A, source)`):
/// only the pattern is built (no values copied or uploaded) and only `A` (push levels: for
/// one traversal, building `A^T` for pull levels costs about as much as the arcs pulling
/// could save), as [`Graph::bfs`] otherwise (the same levels and parents); with `device`,
/// the results stay on the GPU as [`Graph::bfs_device`]'s.
#[pyfunction]
#[pyo3(signature = (n, indptr, indices, source, backend = "auto", device = false))]
pub(crate) fn bfs_once<'py>(
    py: Python<'py>,
    n: usize,
    indptr: Ints<'_>,
    indices: Ints<'_>,
    source: i64,
    backend: &str,
    device: bool,
) -> PyResult<(Any<'py>, Any<'py>)> {
    let choice = choose(backend)?;
    let source = plans::vertex(source, n)?;
    if device && choice != Choice::Gpu {
        return Err(PyValueError::new_err(
            "device=True leaves results in GPU memory: it needs backend=\"gpu\" (or \"auto\" \
             with a GPU)",
        ));
    }
    plans::fits("BFS", n, plans::pattern_bfs(choice, n, indices.len()))?;
    let arcs = Arrays::pattern_of(n, n, &indptr, &indices)?;
    let gpu_backend = match choice {
        Choice::Gpu => Some(gpu().map_err(crate::errors::GpuUnavailable::new_err)?),
        Choice::Cpu => None,
    };
    /// What the run gives: host vectors, or vectors left on the GPU.
    enum Out {
        Host(semigraph_algos::Bfs),
        Device(GpuDense<Parents>, GpuDense<BfsSemiring>),
    }
    let opts = GraphOptions::default();
    let out = crate::interrupt::run(py, || {
        let a = arcs.pattern::<BfsSemiring>().map_err(format_err)?;
        let run = || -> semigraph_algos::Result<Out> {
            let Some(b) = gpu_backend else {
                let g = AlgoGraph::new(cpu(), &a, opts)?;
                return Ok(Out::Host(bfs(&g, source, &BfsOptions::default())?));
            };
            let g = AlgoGraph::new(b, &a, opts)?;
            if !device {
                return Ok(Out::Host(bfs(&g, source, &BfsOptions::default())?));
            }
            let (levels, parents) = bfs_left_on_gpu(&g, source)?;
            b.synchronize()?;
            Ok(Out::Device(levels, parents))
        };
        run().map_err(py_err)
    })??;
    Ok(match out {
        Out::Device(levels, parents) => (
            Bound::new(py, DeviceArray::new(levels))?.into_any(),
            Bound::new(py, DeviceArray::new(parents))?.into_any(),
        ),
        Out::Host(mut r) => {
            r.parents[source] = NO_PARENT;
            (ids(py, r.levels, n), ids(py, r.parents, n))
        }
    })
}
