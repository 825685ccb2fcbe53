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
from semigraph import _nx_more, _nx_paths
from semigraph._dispatch import _declines, _dispatcher, _nx_function
from semigraph._nx_graph import (
    _EXACT,
    SemigraphGraph,
    _has_parallel,
    _has_weights,
    _select,
    _weights,
)
from semigraph._nx_paths import _ran

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

    single_source_shortest_path_length = staticmethod(_nx_paths.single_source_shortest_path_length)
    single_source_dijkstra_path_length = staticmethod(_nx_paths.single_source_dijkstra_path_length)
    single_source_bellman_ford_path_length = staticmethod(_nx_paths.single_source_bellman_ford_path_length)
    single_source_shortest_path = staticmethod(_nx_paths.single_source_shortest_path)
    single_source_dijkstra_path = staticmethod(_nx_paths.single_source_dijkstra_path)
    single_source_dijkstra = staticmethod(_nx_paths.single_source_dijkstra)
    single_source_bellman_ford_path = staticmethod(_nx_paths.single_source_bellman_ford_path)
    single_source_bellman_ford = staticmethod(_nx_paths.single_source_bellman_ford)

    @staticmethod
    def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
        if target is not None:
            return _REGISTRY_SHORTEST_PATH(G, source, target, weight, method)
        if weight is None:
            return _nx_paths.single_source_shortest_path(G, source)
        if method == "bellman-ford":
            return _nx_paths._bellman_ford(G, source, None, "shortest_path")[1]
        return _nx_paths._dijkstra(G, source, None, None, "shortest_path")[1]

# The NetworkX functions written above, with NetworkX's conventions of their own (a
# convergence error, sets of components, an integer 0, ``nodes=``).
_WRITTEN = {
    name for name, f in vars(BackendInterface).items() if isinstance(f, staticmethod)
}


# ``shortest_path`` to one target, as the registry's entry dispatches it (the written
# function answers from a source to every node).
_REGISTRY_SHORTEST_PATH = _dispatcher(*REGISTERED["shortest_path"])

for _name, (_info, _entry) in REGISTERED.items():
    if _name not in _WRITTEN:
        setattr(BackendInterface, _name, staticmethod(_dispatcher(_info, _entry)))

# The functions written over semigraph's traversals and algebra beyond the registry
# (``_nx_more.py``), each with the check that declines what it does not answer.
for _name, (_summary, _f, _) in _nx_more.WRITTEN.items():
    FUNCTIONS[_name] = _summary
    setattr(BackendInterface, _name, staticmethod(_f))
    _WRITTEN.add(_name)
