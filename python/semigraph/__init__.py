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
(a ``ValueError``) naming the cycle, :class:`CycleError` (a ``ValueError``) naming the cycle
found by an algorithm that needs none (a topological order), :class:`NoPathError` (a
``ValueError``) where no path leads to a target, :class:`ConvergenceError` for an
iteration that misses its tolerance, :class:`GpuUnavailable` saying why there is no GPU.
"""

from __future__ import annotations

import inspect
import os

import numpy as np
import scipy.sparse

from . import _native
from ._convert import _real, _values
from ._native import (
    ConvergenceError,
    CycleError,
    DeviceArray,
    GpuUnavailable,
    NegativeCycleError,
    NoPathError,
    SemigraphError,
)

from .algebra import Matrix, Vector, mxm, mxv, operators, vxm, wait

__version__ = _native.__version__

__all__ = [
    "DeviceArray",
    "Matrix",
    "Vector",
    "mxm",
    "mxv",
    "operators",
    "vxm",
    "wait",
    "Graph",
    "GpuUnavailable",
    "NegativeCycleError",
    "ConvergenceError",
    "CycleError",
    "NoPathError",
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

    def apsp(self, next_hop: bool = True):
        """All-pairs shortest paths: ``(D, next_hop)`` n x n arrays; ``D[i, j]`` inf where no
        path, ``next_hop[i, j]`` the vertex after ``i`` on a shortest path (-1 where none, ``i``
        on the diagonal), ``None`` with ``next_hop=False``."""
        return self._g.apsp(next_hop)

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
        return self._g.run("bfs", {"source": source})

    def pagerank(self, damping: float = 0.85, iterations=None, tolerance=None,
                 device: bool = False):
        """PageRank, LDBC Graphalytics definition (weights ignored; dangling vertices' rank
        spread evenly): float64 ranks summing to 1. ``iterations``: exactly this many (LDBC's
        form) unless ``tolerance`` stops sooner, once one iteration changes the ranks by at
        most ``tolerance`` (L1); neither given: at most 100, stopping at 1e-9.
        ``device=True`` (a graph on the GPU): the ranks stay in GPU memory, a
        :class:`DeviceArray`."""
        if device:
            it = 100 if iterations is None else iterations
            tol = tolerance if tolerance is not None or iterations is not None else 1e-9
            return self._g.pagerank_device(damping, it, tol)[0]
        kw = {"damping": damping, "iterations": iterations, "tolerance": tolerance}
        return self._g.run("pagerank", kw)

    def wcc(self, device: bool = False):
        """Weakly connected components (FastSV): int32 labels, each the smallest vertex of
        its component. ``device=True`` (a graph on the GPU): the labels stay in GPU memory, a
        :class:`DeviceArray`."""
        if device:
            return self._g.wcc_device()
        return self._g.run("wcc")

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


def _default(p):
    """A registry argument's default as a Python value (``None``: not given)."""
    d = p["default"]
    if d is None:
        return None
    return {"count": int, "real": float, "flag": lambda t: t == "true"}.get(p["kind"], str)(d)


def _doc(info):
    """A docstring from the registry's entry."""
    lines = [info["summary"] + ".", ""]
    for p in info["params"]:
        extra = f" (one of {', '.join(map(repr, p['choices']))})" if "choices" in p else ""
        lines.append(f"- ``{p['name']}``: {p['doc']}{extra}.")
    ret = info["returns"]
    lines += ["", "Returns " + (f"``{ret[0]}``" if len(ret) == 1 else
                                 "``(" + ", ".join(ret) + ")``") + "; work "
              + info["complexity"] + "."]
    return "\n".join(lines)


def _method(info):
    """The :class:`Graph` method of a registry algorithm, its signature the entry's."""
    name = info["name"]
    P = inspect.Parameter
    params = [P("self", P.POSITIONAL_OR_KEYWORD)] + [
        P(p["name"], P.POSITIONAL_OR_KEYWORD,
          default=P.empty if p["default"] is None and not p["optional"] else _default(p))
        for p in info["params"]
    ]
    sig = inspect.Signature(params)

    def method(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        kw = dict(bound.arguments)
        del kw["self"]
        return self._g.run(name, kw)

    method.__name__ = method.__qualname__ = name
    method.__signature__ = sig
    method.__doc__ = _doc(info)
    return method


# Every algorithm of the registry is a Graph method and a function (those written above keep
# their extra options: device=True, one-shot BFS on the pattern alone).
for _info in _native.algorithms():
    if not hasattr(Graph, _info["name"]):
        setattr(Graph, _info["name"], _method(_info))
    if _info["name"] not in globals():
        globals()[_info["name"]] = _one_shot(_info["name"], _info["summary"] + ".")
    if _info["name"] not in __all__:
        __all__.append(_info["name"])
del _info

apsp = _one_shot("apsp", "All-pairs shortest paths: ``(D, next_hop)``.")
