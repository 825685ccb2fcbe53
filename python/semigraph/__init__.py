"""semigraph: graph algorithms as linear algebra over semirings, on NVIDIA GPUs and the CPU.

SciPy sparse matrices in (``A[u, v]`` is the weight of the arc ``u -> v``, vertices 0-based as
SciPy numbers them), NumPy arrays out::

    import scipy.sparse as sp, semigraph
    A = semigraph.read_graph("roads.gr")          # or any scipy.sparse matrix
    levels, parents = semigraph.bfs(A, 0)         # on the GPU when there is one
    dist, pred = semigraph.sssp(A, 0, backend="cpu")

A :class:`Graph` keeps the matrix on its backend (on the GPU, in device memory) so that
repeated queries do not upload it again::

    g = semigraph.Graph(A, backend="gpu")
    for s in sources:
        levels, parents = g.bfs(s)

Every function takes ``backend="auto" | "cpu" | "gpu"``: auto is the GPU when one can be
opened (see :func:`gpu_available`), the CPU otherwise. Errors are Python exceptions carrying
the library's messages: ``ValueError`` for bad input, ``IndexError`` for a vertex out of
range, ``MemoryError`` for a graph refused before allocating, :class:`NegativeCycleError`
(a ``ValueError``) naming the cycle, :class:`GpuUnavailable` saying why there is no GPU.
"""

from __future__ import annotations

import os

import numpy as np
import scipy.sparse

from . import _native
from ._native import DeviceArray, GpuUnavailable, NegativeCycleError, SemigraphError

__version__ = _native.__version__

__all__ = [
    "DeviceArray",
    "Graph",
    "GpuUnavailable",
    "NegativeCycleError",
    "SemigraphError",
    "apsp",
    "bfs",
    "cdlp",
    "gpu_available",
    "gpu_status",
    "lcc",
    "pagerank",
    "reachability",
    "read_graph",
    "semirings",
    "spgemm",
    "spmv",
    "sssp",
    "triangles",
    "wcc",
    "widest_path",
]


def gpu_status():
    """``(available, reason)``: whether the GPU backend opens in this process, and if not why
    (no driver, no device, no NVRTC)."""
    return _native.gpu_status()


def gpu_available() -> bool:
    """Whether ``backend="gpu"`` works here (the GPU backend opens once per process)."""
    return _native.gpu_status()[0]


def read_graph(path, undirected: bool = False, return_labels: bool = False):
    """Reads a graph file (every format the ``semigraph`` CLI reads: edge lists, DIMACS ``.gr``,
    Matrix Market, LDBC ``.v``/``.e``, GAP ``.sg``/``.wsg``, SciPy ``.npz``, ...; gzip or xz
    compressed) as a ``scipy.sparse.csr_matrix``.

    Vertices are numbered from 0 (a 1-based file's vertex 1 is row 0). ``data`` is float64
    (1.0 on every arc of a file without weights; int64 or uint64 only for integer weights
    beyond 2^53, which float64 cannot hold). Parallel arcs are kept as separate entries, in
    file order (a non-canonical matrix): semigraph's shortest paths, and SciPy's csgraph on
    float64 data, take the smallest. (SciPy's csgraph *sums* the parallel entries of an
    integer matrix when it converts it to float64; ``A.sum_duplicates()`` makes a choice
    explicit.)
    With ``undirected=True`` every arc also gets its reverse. With ``return_labels=True``
    returns ``(A, labels)``: ``labels[i]`` is the file's name of vertex ``i`` for files that
    name their vertices (LDBC, adjacency lists, GML), else ``None``.
    """
    n, indptr, indices, data, labels = _native.read_graph(os.fspath(path), undirected)
    a = scipy.sparse.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)
    return (a, labels) if return_labels else a


def _csr(a):
    """``a`` as a square CSR matrix (anything ``scipy.sparse.csr_matrix`` accepts)."""
    if not scipy.sparse.issparse(a) or a.format != "csr":
        a = scipy.sparse.csr_matrix(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"an adjacency matrix must be square, this one is {a.shape}")
    return a


_EXACT = 2**53


def _real(data):
    """Refuses what has no real value: complex numbers (their imaginary part would be
    dropped) and objects."""
    if np.iscomplexobj(data):
        raise TypeError(
            f"complex values ({data.dtype}) are not weights: give their real part "
            "(A.real) or their magnitude (abs(A)) explicitly"
        )
    if data.dtype.kind not in "biuf":
        raise TypeError(f"values of type {data.dtype} are not numbers")


def _f64(data):
    """The values as float64 weights: an integer beyond 2^53, which float64 would round, is
    refused (a ``ValueError``)."""
    _real(data)
    if data.dtype.kind in "iu" and data.size:
        big = data[(data > _EXACT) | (data < -_EXACT)] if data.dtype != np.uint64 else data[data > _EXACT]
        if big.size:
            raise ValueError(
                f"an integer weight {int(big[0])} has no float64 (beyond 2^53 it would be "
                "rounded); the Graph's distances are float64"
            )
    return data if data.dtype == np.float64 else np.asarray(data, dtype=np.float64)


def _values(data):
    """The values as the native functions take them, exact: float64 for reals (float16 and
    float32 widen exactly), int64 for integers and booleans, uint64 kept."""
    data = np.asarray(data)
    _real(data)
    if data.dtype.kind == "f":
        return data if data.dtype == np.float64 else data.astype(np.float64)
    if data.dtype == np.uint64:
        return data
    return data if data.dtype == np.int64 else data.astype(np.int64)


def _arrays(a, square=False):
    """``a`` as the arrays the native functions take: (nrows, ncols, indptr, indices, data)."""
    if not scipy.sparse.issparse(a) or a.format != "csr":
        a = scipy.sparse.csr_matrix(a)
    return (a.shape[0], a.shape[1], a.indptr, a.indices, _values(a.data))


def semirings():
    """The names of the built-in semirings, as :func:`spmv` and :func:`spgemm` take them
    (``"min-plus:f32"``, ``"plus-times:f64"``, ``"or-and:bool"``, ...)."""
    return _native.semirings()


def spmv(a, x, semiring: str = "plus-times:f64", backend: str = "auto"):
    """``y = A (+).(x) x`` in a built-in semiring: ``y[i]`` is the semiring sum over the
    entries ``A[i, j]`` of ``A[i, j] (x) x[j]`` (the semiring's zero, e.g. inf for min-plus,
    where row ``i`` has no entry). Parallel entries of ``A`` are first combined with the
    semiring's addition. Values become the semiring's type (a ``ValueError`` if one cannot);
    ``y`` is float64, or int64 for integer semirings. Every ``y[i]`` is the exact value of
    the semiring's operations or a ``ValueError`` names it: an integer sum beyond the type
    (which would wrap around or saturate), a float16 sum beyond 65504 (which would become
    inf)."""
    return _native.spmv(_arrays(a), _values(x), semiring, backend)


def spgemm(a, b, semiring: str = "plus-times:f64", mask=None, complement: bool = False,
           backend: str = "auto"):
    """``C<M> = A (+).(x) B`` in a built-in semiring, as a ``scipy.sparse.csr_matrix``:
    entries equal to the semiring's zero are not stored. With ``mask`` (a sparse matrix of
    the product's shape; its pattern counts, not its values) only the positions it holds are
    computed, or with ``complement=True`` only those it does not (GraphBLAS ``C<M>`` and
    ``C<!M>``; ``complement`` without a mask is a ``ValueError``). Triangle counting, for
    instance, is ``spgemm(L, L.T, mask=L).sum()``. Every entry is the exact value of the
    semiring's operations, or a ``ValueError`` names the first that the type cannot hold
    (integer overflow, a float overflow to infinity, ``inf - inf``)."""
    if complement and mask is None:
        raise ValueError(
            "complement=True complements a mask: give mask= (the product where it has no entry)"
        )
    m = None if mask is None else _arrays(mask)
    nrows, ncols, indptr, indices, data = _native.spgemm(
        _arrays(a), _arrays(b), semiring, m, complement, backend
    )
    return scipy.sparse.csr_matrix((data, indices, indptr), shape=(nrows, ncols), copy=False)


class Graph:
    """A square adjacency matrix held by a backend between calls.

    ``Graph(A, backend="auto")`` uploads ``A`` once (``A[u, v]`` = weight of ``u -> v``; any
    matrix ``scipy.sparse.csr_matrix`` accepts; values become float64 distances, parallel
    entries keep the smallest, explicit zeros are arcs of weight 0). Each method then costs
    the algorithm and the copy of its result to the host. The matrix itself is copied into
    the library (SciPy's arrays are not kept).
    """

    def __init__(self, a, backend: str = "auto"):
        a = _csr(a)
        self._g = _native.Graph(a.shape[0], a.indptr, a.indices, _f64(a.data), backend)

    @property
    def n(self) -> int:
        """The number of vertices."""
        return self._g.n

    @property
    def backend(self) -> str:
        """``"cpu"`` or ``"gpu"``: where the matrix is held."""
        return self._g.backend

    def bfs(self, source: int, device: bool = False):
        """Breadth-first search: ``(levels, parents)``, int32 arrays as SciPy's (int64 past 2^31
        vertices), -1 where unreached (and for the source's parent); each parent the
        smallest-id vertex one level closer.

        With ``device=True`` (a graph on the GPU) both stay in GPU memory, as
        :class:`DeviceArray` objects: ``cupy.asarray(levels)`` or ``torch.as_tensor(levels,
        device="cuda")`` use them without a copy (CUDA Array Interface), ``levels.get()``
        copies one to NumPy."""
        if device:
            return self._g.bfs_device(source)
        return self._g.bfs(source)

    def sssp(self, source: int, algorithm: str = "auto"):
        """Shortest paths: ``(distances, predecessors)``, float64 (inf where unreachable) and
        int32 (-1 for the source and unreachable vertices). ``algorithm`` is ``"auto"``,
        ``"bellman-ford"`` (any weights; a reachable negative cycle raises
        :class:`NegativeCycleError` naming it), ``"delta-stepping"`` (weights >= 0) or
        ``"fixpoint"`` (relaxation in any order, then the predecessors in one pass; Bellman-Ford
        where a weight is not positive)."""
        return self._g.sssp(source, algorithm)

    def apsp(self, next_hop: bool = True):
        """All-pairs shortest paths: ``(D, next_hop)`` n x n arrays; ``D[i, j]`` inf where no
        path, ``next_hop[i, j]`` the vertex after ``i`` on a shortest path (-1 where none, ``i``
        on the diagonal), ``None`` with ``next_hop=False``."""
        return self._g.apsp(next_hop)

    def pagerank(self, damping: float = 0.85, iterations: int = 100, tolerance=1e-9,
                 device: bool = False):
        """PageRank, LDBC Graphalytics definition (weights ignored; dangling vertices' rank
        spread evenly): float64 ranks summing to 1. Stops after ``iterations`` or once one
        changes the ranks by at most ``tolerance`` (L1); ``tolerance=None`` runs every one.
        ``device=True`` (a graph on the GPU): the ranks stay in GPU memory, a
        :class:`DeviceArray`."""
        if device:
            return self._g.pagerank_device(damping, iterations, tolerance)[0]
        return self._g.pagerank(damping, iterations, tolerance)[0]

    def wcc(self, device: bool = False):
        """Weakly connected components (FastSV): int32 labels, each the smallest vertex of
        its component. ``device=True`` (a graph on the GPU): the labels stay in GPU memory, a
        :class:`DeviceArray`."""
        if device:
            return self._g.wcc_device()
        return self._g.wcc()

    def cdlp(self, iterations: int = 10):
        """Community detection by label propagation (LDBC Graphalytics): int32 labels."""
        return self._g.cdlp(iterations)

    def lcc(self):
        """Local clustering coefficients (LDBC Graphalytics definition): float64."""
        return self._g.lcc()

    def triangles(self):
        """Triangles of the undirected simple graph: ``(total, per_vertex)``."""
        return self._g.triangles()

    def widest_path(self, source: int):
        """Widest (bottleneck) paths, weights as capacities: float64, the source inf,
        unreachable vertices -inf."""
        return self._g.widest_path(source)

    def reachability(self, source: int):
        """The vertices reachable from ``source`` (itself included): bool array."""
        return self._g.reachability(source)

    def __repr__(self):
        return repr(self._g)


def _one_shot(name, doc):
    def f(a, *args, backend: str = "auto", **kwargs):
        g = a if isinstance(a, Graph) else Graph(a, backend=backend)
        return getattr(g, name)(*args, **kwargs)

    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (
        f"{doc}\n\n``{name}(A, ...)`` is ``Graph(A, backend=backend).{name}(...)``: ``A`` a "
        "SciPy matrix (uploaded for this call) or a :class:`Graph` (already held). See "
        f":meth:`Graph.{name}`."
    )
    return f


def bfs(a, source: int, backend: str = "auto", device: bool = False):
    """Breadth-first search from a source: ``(levels, parents)``.

    ``bfs(A, source)`` on a SciPy matrix builds only ``A``'s pattern for this call (values are
    not read, copied or uploaded); on a :class:`Graph` it is :meth:`Graph.bfs` of the graph
    already held. Results as :meth:`Graph.bfs` (``device=True``: left in GPU memory)."""
    if isinstance(a, Graph):
        return a.bfs(source, device=device)
    a = _csr(a)
    return _native.bfs_once(a.shape[0], a.indptr, a.indices, source, backend, device)
sssp = _one_shot("sssp", "Single-source shortest paths: ``(distances, predecessors)``.")
apsp = _one_shot("apsp", "All-pairs shortest paths: ``(D, next_hop)``.")
pagerank = _one_shot("pagerank", "PageRank (LDBC Graphalytics definition).")
wcc = _one_shot("wcc", "Weakly connected components: smallest-vertex labels.")
cdlp = _one_shot("cdlp", "Community detection by label propagation (LDBC).")
lcc = _one_shot("lcc", "Local clustering coefficients (LDBC).")
triangles = _one_shot("triangles", "Triangle count: ``(total, per_vertex)``.")
widest_path = _one_shot("widest_path", "Widest (bottleneck) paths from a source.")
reachability = _one_shot("reachability", "Vertices reachable from a source.")
