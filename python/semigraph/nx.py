"""A NetworkX backend: ``nx.pagerank(G, backend="semigraph")``, or every supported call with
no code change under ``NETWORKX_BACKEND_PRIORITY=semigraph`` (NetworkX >= 3.4;
``NETWORKX_AUTOMATIC_BACKENDS`` before).

NetworkX converts its graph once (:meth:`BackendInterface.convert_from_nx`, cached by
NetworkX on the graph) into a :class:`SemigraphGraph`: the node list and a SciPy CSR matrix of
the chosen weight, read from the graph's adjacency itself (no other dispatched NetworkX
function runs inside the conversion). The algorithms run on semigraph's backend (the GPU when
one opens) and return what NetworkX returns, keyed by the graph's nodes.

A call semigraph would not answer exactly as NetworkX does is declined, and NetworkX runs its
own implementation: :meth:`BackendInterface.can_run` binds the call's arguments to the
NetworkX function's signature (NetworkX passes them positionally or by keyword) and declines
what semigraph does not compute (a personalised PageRank, ``nstart``, ``dangling``, a weighted
PageRank or clustering, a callable weight, a multigraph's parallel edges in PageRank, a
directed graph where NetworkX defines the function for undirected ones); a weight the
conversion finds semigraph cannot hold exactly (an integer beyond 2^53, a sum of integers
that could pass it, a value that is not a number) or a negative weight for Dijkstra makes the
function raise ``NotImplementedError``, which sends NetworkX to its own implementation.
"""

from __future__ import annotations

import inspect

import numpy as np
import scipy.sparse

import semigraph
from semigraph import _nx_paths
from semigraph._nx_paths import (
    _checked,
    _distances,
    _ran,
    _solve,
    _tree_paths,
    _vertex,
    _with_paths,
)

NAME = "semigraph"

# Calls that ran on semigraph in this process, by function name.
calls = _nx_paths.calls

# NetworkX function name -> what semigraph runs for it.
FUNCTIONS = {
    "pagerank": "PageRank (unweighted: every weight 1, dangling rank spread evenly)",
    "connected_components": "FastSV weakly connected components",
    "number_connected_components": "FastSV weakly connected components",
    "weakly_connected_components": "FastSV weakly connected components",
    "number_weakly_connected_components": "FastSV weakly connected components",
    "triangles": "Triangle counts by masked sparse products",
    "clustering": "LCC (unweighted, undirected graphs)",
    "single_source_shortest_path_length": "BFS levels (cutoff: levels up to it)",
    "single_source_dijkstra_path_length": "SSSP (Bellman-Ford or delta-stepping; cutoff)",
    "single_source_bellman_ford_path_length": "SSSP (Bellman-Ford)",
    "single_source_shortest_path": "BFS tree, its paths (cutoff: levels up to it)",
    "single_source_dijkstra_path": "SSSP tree, its paths (cutoff)",
    "single_source_bellman_ford_path": "SSSP tree (Bellman-Ford), its paths",
    "single_source_dijkstra": "SSSP distances and tree paths (cutoff, target)",
    "single_source_bellman_ford": "SSSP (Bellman-Ford) distances and tree paths (target)",
}



def _entries():
    """The registry's NetworkX entries: ``{function: (algorithm info, entry)}``."""
    return {
        e["function"]: (info, e)
        for info in semigraph._native.algorithms()
        for e in info["networkx"]
    }


# NetworkX functions declared by the registry's entries (an algorithm's file names them):
# dispatched by :func:`_dispatcher`, declined by :func:`_declines` where they differ.
REGISTERED = _entries()
for _name, (_info, _) in REGISTERED.items():
    FUNCTIONS.setdefault(_name, _info["summary"])

_EXACT = 2**53

# The most nodes for which ``ebunch=None`` (every pair of nodes without an edge) is answered
# at once: an n x n table of adjacency, 64 MiB here.
_ALL_PAIRS = 8192


def get_info():
    """The ``networkx.backend_info`` entry point."""
    return {
        "backend_name": NAME,
        "project": "semigraph",
        "package": "semigraph",
        "url": "https://github.com/semigraph/semigraph",
        "short_summary": "Graph algorithms as semiring linear algebra on NVIDIA GPUs and the CPU",
        "functions": {name: {"additional_docs": doc} for name, doc in FUNCTIONS.items()},
        "default_config": {},
    }


class SemigraphGraph:
    """A NetworkX graph as semigraph holds it: ``nodes[i]`` is row ``i`` of ``matrix``
    (``matrix[i, j]`` the weight of the arc ``i -> j``, the smallest of a multigraph's
    parallel edges; an undirected edge is two arcs). ``weight`` is the attribute read
    (``None``: every weight 1); ``integral`` whether every weight is an integer (distances are
    then returned as integers), ``exact`` whether float64 holds every weight and every
    possible path length exactly, ``negative`` whether a weight is negative, ``parallel``
    whether a multigraph has parallel edges."""

    __networkx_backend__ = NAME

    def __init__(self, nodes, matrix, directed, weight=None, *, integral=True, exact=True,
                 negative=False, parallel=False, multigraph=False, numeric=True):
        self.nodes = list(nodes)
        self.index = {v: i for i, v in enumerate(self.nodes)}
        self.matrix = matrix
        self.directed = directed
        self.weight = weight
        self.weighted = weight is not None
        self.integral = integral
        self.exact = exact
        self.numeric = numeric
        self.negative = negative
        self.parallel = parallel
        self.multigraph = multigraph
        self._graph = None
        self.__networkx_cache__ = {}

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def __len__(self):
        return len(self.nodes)

    def graph(self):
        """The semigraph :class:`semigraph.Graph` (uploaded on first use, then kept)."""
        if self._graph is None:
            self._graph = semigraph.Graph(self.matrix)
        return self._graph

    def keyed(self, values, keep=None):
        """``{node: values[i]}`` for the rows ``keep`` selects (all by default)."""
        rows = range(len(self.nodes)) if keep is None else np.flatnonzero(keep)
        values = values.tolist()
        return {self.nodes[i]: values[i] for i in rows}


def _weights(values):
    """The weights as float64 and what they are: ``(array, integral, exact, negative)``, or
    ``None`` for a value that is not a real number."""
    if not values:
        return np.zeros(0), True, True, False
    try:
        a = np.asarray(values)
    except (OverflowError, ValueError):
        return None
    if a.dtype == object:
        # Integers beyond int64, or values of mixed types.
        if not all(isinstance(x, (int, float, np.integer, np.floating)) for x in values):
            return None
        if all(isinstance(x, (int, np.integer)) for x in values):
            big = max(abs(int(x)) for x in values)
            return np.array([float(x) for x in values]), True, big <= _EXACT, min(values) < 0
        return None
    if a.dtype.kind == "b":
        a = a.astype(np.int64)
    if a.dtype.kind in "iu":
        big = int(np.abs(a).max()) if a.size else 0
        return a.astype(np.float64), True, big <= _EXACT, bool((a < 0).any())
    if a.dtype.kind == "f":
        f = a.astype(np.float64)
        if not np.isfinite(f).all():
            return None  # NaN, or an infinity NetworkX adds along paths
        # Integers beside floats: NetworkX's sums are ints or floats by the path taken.
        mixed = any(isinstance(x, (int, np.integer)) for x in values)
        return f, False, not mixed, bool((f < 0).any())
    return None


class BackendInterface:
    """The ``networkx.backends`` entry point."""

    @staticmethod
    def convert_from_nx(
        G,
        edge_attrs=None,
        node_attrs=None,
        preserve_edge_attrs=False,
        preserve_node_attrs=False,
        preserve_graph_attrs=False,
        name=None,
        graph_name=None,
    ):
        if isinstance(G, SemigraphGraph):
            return G
        weight, default = None, 1
        if isinstance(edge_attrs, dict) and len(edge_attrs) == 1:
            weight, default = next(iter(edge_attrs.items()))
            default = 1 if default is None else default
        elif isinstance(edge_attrs, str):
            weight = edge_attrs
        nodes = list(G._node)
        index = {v: i for i, v in enumerate(nodes)}
        adj = G._adj
        multi = G.is_multigraph()
        degrees = np.fromiter((len(adj[u]) for u in nodes), dtype=np.int64, count=len(nodes))
        indptr = np.zeros(len(nodes) + 1, dtype=np.int64)
        np.cumsum(degrees, out=indptr[1:])
        cols = np.fromiter(
            (index[v] for u in nodes for v in adj[u]), dtype=np.int64, count=int(indptr[-1])
        )
        parallel = multi and any(len(keys) > 1 for u in nodes for keys in adj[u].values())
        if weight is None:
            values = [1] * len(cols)
        elif multi:
            # Parallel edges: the smallest weight, as shortest paths see them.
            values = [
                min(d.get(weight, default) for d in keys.values())
                for u in nodes for keys in adj[u].values()
            ]
        else:
            values = [d.get(weight, default) for u in nodes for d in adj[u].values()]
        w = _weights(values)
        numeric = w is not None
        if w is None:
            data, integral, exact, negative = np.ones(len(cols)), False, False, False
        else:
            data, integral, exact, negative = w
        n = len(nodes)
        # Every path length must be exact too: at most n - 1 arcs of the largest weight.
        if exact and integral and len(data):
            exact = max(n - 1, 1) * float(np.abs(data).max()) <= _EXACT
        if weight is None and preserve_edge_attrs:
            # Every attribute kept (a function that returns a subgraph): NetworkX's cache
            # hands this conversion to later calls that read one attribute as weights, which
            # it does not hold, so weighted calls on it decline (``_exact``).
            exact = numeric = False
        a = scipy.sparse.csr_matrix((data, cols, indptr), shape=(n, n))
        return SemigraphGraph(
            nodes, a, G.is_directed(), weight, integral=integral, exact=exact,
            negative=negative, parallel=parallel, multigraph=multi, numeric=numeric,
        )

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        if name not in FUNCTIONS:
            return False
        try:
            sig = inspect.signature(_nx_function(name))
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            return f"the arguments do not fit {name}'s signature: {e}"
        bound.apply_defaults()
        a = bound.arguments
        if name == "shortest_path":
            # From a source to every node: the tree's paths; to one target: the registry's
            # path; to a target from every node (no source): NetworkX's own.
            if a.get("source") is None:
                return "source=None: every node's path to a target, NetworkX's own"
            if a.get("target") is not None:
                return _declines(REGISTERED[name], sig, a) or True
            if a.get("method") not in ("dijkstra", "bellman-ford"):
                return "a method NetworkX refuses (it raises its own error)"
            return True
        if name in REGISTERED and name not in _WRITTEN:
            return _declines(REGISTERED[name], sig, a) or True
        if name in _nx_more.WRITTEN:
            return _nx_more.WRITTEN[name][2](a)
        G = a.get("G")
        directed = G.is_directed() if G is not None else False
        multi = G.is_multigraph() if G is not None else False
        weight = a.get("weight")
        if callable(weight):
            return "a callable weight is not supported (semigraph reads an edge attribute)"
        if name == "pagerank":
            for k in ("personalization", "nstart", "dangling"):
                if a.get(k) is not None:
                    return f"{k} is not supported (semigraph's PageRank is LDBC's)"
            if weight is not None and _has_weights(G, weight):
                return "weighted PageRank is not supported (semigraph's reads the structure)"
            if multi and _has_parallel(G):
                return "a multigraph's parallel edges count in NetworkX's PageRank"
        if name in ("single_source_dijkstra", "single_source_bellman_ford"):
            target = a.get("target")
            try:
                missing = target is not None and target not in G
            except TypeError:
                missing = True
            if missing:
                return "the target is not in the graph (NetworkX raises its own error)"
        if name == "clustering":
            if directed or weight is not None:
                return "only the unweighted clustering of undirected graphs is supported"
            if multi:
                return "NetworkX does not define clustering for multigraphs"
        if name in ("triangles", "connected_components", "number_connected_components"):
            if directed:
                return "NetworkX defines it for undirected graphs"
        if name in ("triangles",) and multi:
            return "NetworkX does not define triangles for multigraphs"
        if name in ("weakly_connected_components", "number_weakly_connected_components"):
            if not directed:
                return "NetworkX defines it for directed graphs"
        return True

    @staticmethod
    def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
                 weight="weight", dangling=None):
        import networkx as nx

        _ran("pagerank")
        n = len(G.nodes)
        if n == 0:
            return {}
        # NetworkX stops once the L1 change is below n * tol, and fails if it never does.
        kw = {"damping": alpha, "iterations": max_iter, "tolerance": n * tol}
        ranks, delta = G.graph()._g.run("pagerank", kw, ["ranks", "delta"])
        if delta is None or delta > n * tol:
            raise nx.PowerIterationFailedConvergence(max_iter)
        return G.keyed(ranks)

    @staticmethod
    def _components(G):
        if len(G.nodes) == 0:
            return []
        labels = G.graph().wcc()
        comps = {}
        for i, l in enumerate(labels.tolist()):
            comps.setdefault(l, set()).add(G.nodes[i])
        return list(comps.values())

    @staticmethod
    def connected_components(G):
        _ran("connected_components")
        yield from BackendInterface._components(G)

    @staticmethod
    def weakly_connected_components(G):
        _ran("weakly_connected_components")
        yield from BackendInterface._components(G)

    @staticmethod
    def number_connected_components(G):
        _ran("number_connected_components")
        return len(BackendInterface._components(G))

    @staticmethod
    def number_weakly_connected_components(G):
        _ran("number_weakly_connected_components")
        return len(BackendInterface._components(G))

    @staticmethod
    def triangles(G, nodes=None):
        _ran("triangles")
        if len(G.nodes) == 0:
            return _select(G, {}, nodes)
        _, per = G.graph().triangles()
        return _select(G, G.keyed(per), nodes)

    @staticmethod
    def clustering(G, nodes=None, weight=None):
        _ran("clustering")
        if len(G.nodes) == 0:
            return _select(G, {}, nodes)
        # As NetworkX: the integer 0 where a vertex is in no triangle, else a float.
        d = {v: (0 if x == 0 else x) for v, x in G.keyed(G.graph().lcc()).items()}
        return _select(G, d, nodes)

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None):
        _ran("single_source_shortest_path_length")
        s = _vertex(G, source)
        levels, _ = G.graph().bfs(s)
        keep = levels >= 0
        if cutoff is not None:
            keep &= levels <= cutoff
        return G.keyed(levels, keep)

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        s, _ = _checked(G, source, "single_source_dijkstra_path_length", dijkstra=True)
        dist, _ = _solve(G, s, None)
        keep = np.isfinite(dist)
        if cutoff is not None:
            keep &= dist <= cutoff
        return _distances(G, dist, keep, s)

    @staticmethod
    def single_source_bellman_ford_path_length(G, source, weight="weight"):
        s, _ = _checked(G, source, "single_source_bellman_ford_path_length")
        dist, _ = _solve(G, s, "bellman-ford")
        return _distances(G, dist, np.isfinite(dist), s)

    @staticmethod
    def single_source_shortest_path(G, source, cutoff=None):
        _ran("single_source_shortest_path")
        s = _vertex(G, source)
        levels, parents = G.graph().bfs(s)
        keep = levels >= 0
        if cutoff is not None:
            keep &= levels <= cutoff
        return _tree_paths(G, parents, keep, s)

    @staticmethod
    def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
        return BackendInterface._dijkstra(G, source, None, cutoff, "single_source_dijkstra_path")[1]

    @staticmethod
    def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
        return BackendInterface._dijkstra(G, source, target, cutoff, "single_source_dijkstra")

    @staticmethod
    def single_source_bellman_ford_path(G, source, weight="weight"):
        return BackendInterface._bellman_ford(G, source, None, "single_source_bellman_ford_path")[1]

    @staticmethod
    def single_source_bellman_ford(G, source, target=None, weight="weight"):
        return BackendInterface._bellman_ford(G, source, target, "single_source_bellman_ford")

    @staticmethod
    def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
        if target is not None:
            return _REGISTRY_SHORTEST_PATH(G, source, target, weight, method)
        if weight is None:
            return BackendInterface.single_source_shortest_path(G, source)
        if method == "bellman-ford":
            return BackendInterface._bellman_ford(G, source, None, "shortest_path")[1]
        return BackendInterface._dijkstra(G, source, None, None, "shortest_path")[1]

    @staticmethod
    def _dijkstra(G, source, target, cutoff, name):
        """NetworkX's ``single_source_dijkstra``: ``(distances, paths)``, or for a target
        ``(distance, path)``."""
        s, t = _checked(G, source, name, dijkstra=True, target=target)
        if t == s:
            return 0, [G.nodes[s]]
        dist, pred = _solve(G, s, None)
        keep = np.isfinite(dist)
        if cutoff is not None:
            keep &= dist <= cutoff
        return _with_paths(G, dist, pred, keep, s, target, f"No path to {target}.")

    @staticmethod
    def _bellman_ford(G, source, target, name):
        """NetworkX's ``single_source_bellman_ford``: ``(distances, paths)``, or for a
        target ``(distance, path)``."""
        s, t = _checked(G, source, name, target=target)
        if t == s:
            return 0, [G.nodes[s]]
        dist, pred = _solve(G, s, "bellman-ford")
        msg = f"Node {target} not reachable from {source}"
        return _with_paths(G, dist, pred, np.isfinite(dist), s, target, msg)


def _has_weights(G, weight):
    """Whether the graph (NetworkX's or converted) has an edge whose ``weight`` is not 1."""
    if isinstance(G, SemigraphGraph):
        return G.weighted and bool((G.matrix.data != 1).any())
    return any(d.get(weight, 1) != 1 for _, _, d in G.edges(data=True))


def _has_parallel(G):
    """Whether a multigraph (NetworkX's or converted) has parallel edges."""
    if isinstance(G, SemigraphGraph):
        return G.parallel
    return any(len(keys) > 1 for nbrs in G._adj.values() for keys in nbrs.values())


def _pairs(G, ebunch):
    """NetworkX's pairs of nodes (``ebunch``) as an ``m x 2`` array of vertices; ``None``:
    every pair of distinct nodes without an edge (NetworkX's ``non_edges``). A node not in the
    graph is declined (NetworkX raises its own error)."""
    if ebunch is None:
        n = len(G.nodes)
        adjacent = np.zeros((n, n), dtype=bool)
        m = G.matrix.tocoo()
        adjacent[m.row, m.col] = True
        adjacent |= adjacent.T
        u, v = np.nonzero(np.triu(~adjacent, 1))
        return np.stack([u, v], axis=1)
    try:
        pairs = [(G.index[u], G.index[v]) for u, v in ebunch]
    except (KeyError, TypeError):
        raise NotImplementedError("a pair's node is not in the graph: NetworkX's own error")
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _select(G, d, nodes):
    """NetworkX's convention: one node gives its value, a collection (``nbunch``) a dict of
    the nodes of it that are in the graph."""
    import networkx as nx

    if nodes is None:
        return d
    try:
        if nodes in G.index:
            return d[nodes]
    except TypeError:
        pass  # unhashable: a collection
    try:
        return {v: d[v] for v in nodes if v in G.index}
    except TypeError as e:
        raise nx.NetworkXError(f"nbunch {nodes!r} is not a node or a sequence of nodes") from e


# The NetworkX functions written above, with NetworkX's conventions of their own (a
# convergence error, sets of components, an integer 0, ``nodes=``).
_WRITTEN = {
    name for name, f in vars(BackendInterface).items() if isinstance(f, staticmethod)
}


# The registry's entries' dispatch (``_dispatch.py``), imported once every name it uses from
# here is defined.
from semigraph._dispatch import _declines, _dispatcher, _nx_function  # noqa: E402

# ``shortest_path`` to one target, as the registry's entry dispatches it (the written
# function answers from a source to every node).
_REGISTRY_SHORTEST_PATH = _dispatcher(*REGISTERED["shortest_path"])

for _name, (_info, _entry) in REGISTERED.items():
    if _name not in _WRITTEN:
        setattr(BackendInterface, _name, staticmethod(_dispatcher(_info, _entry)))

# The functions written over semigraph's traversals and algebra beyond the registry
# (``_nx_more.py``), each with the check that declines what it does not answer.
from semigraph import _nx_more  # noqa: E402

for _name, (_summary, _f, _) in _nx_more.WRITTEN.items():
    FUNCTIONS[_name] = _summary
    setattr(BackendInterface, _name, staticmethod(_f))
    _WRITTEN.add(_name)
