"""A NetworkX backend: ``nx.pagerank(G, backend="semigraph")``, or every supported call with
no code change under ``NETWORKX_AUTOMATIC_BACKENDS=semigraph`` (NetworkX >= 3.4:
``NETWORKX_BACKEND_PRIORITY=semigraph``).

NetworkX converts its graph once (:meth:`BackendInterface.convert_from_nx`, cached by
NetworkX on the graph) into a :class:`SemigraphGraph`: the node list and a SciPy CSR matrix of
the chosen weight. The algorithms run on semigraph's backend (the GPU when one opens) and
return what NetworkX returns, keyed by the graph's nodes. A call semigraph does not run the
same way (a personalised PageRank, a weighted clustering, a directed graph where NetworkX
expects an undirected one) is declined by :meth:`BackendInterface.can_run`, and NetworkX
runs its own implementation.
"""

from __future__ import annotations

import numpy as np

import semigraph

NAME = "semigraph"

# NetworkX function name -> what semigraph runs for it.
FUNCTIONS = {
    "pagerank": "PageRank (unweighted: every weight 1, dangling rank spread evenly)",
    "connected_components": "FastSV weakly connected components",
    "number_connected_components": "FastSV weakly connected components",
    "weakly_connected_components": "FastSV weakly connected components",
    "number_weakly_connected_components": "FastSV weakly connected components",
    "triangles": "Triangle counts by masked sparse products",
    "clustering": "LCC (unweighted, undirected graphs)",
    "single_source_shortest_path_length": "BFS levels",
    "single_source_dijkstra_path_length": "SSSP (Bellman-Ford or delta-stepping)",
    "single_source_bellman_ford_path_length": "SSSP (Bellman-Ford)",
}


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
    (``matrix[i, j]`` the weight of the arc ``i -> j``; an undirected edge is two arcs)."""

    __networkx_backend__ = NAME

    def __init__(self, nodes, matrix, directed, weighted):
        self.nodes = list(nodes)
        self.index = {v: i for i, v in enumerate(self.nodes)}
        self.matrix = matrix
        self.directed = directed
        self.weighted = weighted
        self._graph = None
        self.__networkx_cache__ = {}

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return False

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
        import networkx as nx

        if isinstance(G, SemigraphGraph):
            return G
        weight = None
        if isinstance(edge_attrs, dict) and len(edge_attrs) == 1:
            weight = next(iter(edge_attrs))
        elif isinstance(edge_attrs, str):
            weight = edge_attrs
        nodes = list(G)
        if G.is_multigraph():
            # Parallel edges: the smallest weight, as shortest paths see them.
            H = nx.DiGraph() if G.is_directed() else nx.Graph()
            H.add_nodes_from(nodes)
            for u, v, d in G.edges(data=True):
                w = d.get(weight, 1) if weight else 1
                if not H.has_edge(u, v) or w < H[u][v]["w"]:
                    H.add_edge(u, v, w=w)
            G, weight = H, "w" if weight else None
        a = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=weight, dtype=np.float64)
        a = semigraph._csr(a)
        return SemigraphGraph(nodes, a, G.is_directed(), weight is not None)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        if name not in FUNCTIONS:
            return False
        G = args[0] if args else kwargs.get("G")
        directed = G.is_directed() if G is not None else None
        if name == "pagerank":
            if any(kwargs.get(k) is not None for k in ("personalization", "nstart", "dangling")):
                return "personalization, nstart and dangling are not supported"
            if kwargs.get("weight", "weight") is not None and _has_weights(G, kwargs.get("weight", "weight")):
                return "weighted PageRank is not supported (semigraph's ignores weights)"
        if name in ("clustering",):
            if directed or kwargs.get("weight") is not None:
                return "only the unweighted clustering of undirected graphs is supported"
        if name in ("triangles", "connected_components", "number_connected_components") and directed:
            return "NetworkX defines it for undirected graphs"
        if name.startswith("single_source") and kwargs.get("cutoff") is not None:
            return "cutoff is not supported"
        return True

    @staticmethod
    def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1e-06, nstart=None,
                 weight="weight", dangling=None):
        import networkx as nx

        n = len(G.nodes)
        if n == 0:
            return {}
        # NetworkX stops once the L1 change is below n * tol, and fails if it never does.
        ranks, _, delta = G.graph()._g.pagerank(alpha, max_iter, n * tol)
        if delta is None or delta > n * tol:
            raise nx.PowerIterationFailedConvergence(max_iter)
        return G.keyed(ranks)

    @staticmethod
    def _components(G):
        labels = G.graph().wcc()
        comps = {}
        for i, l in enumerate(labels):
            comps.setdefault(l, set()).add(G.nodes[i])
        return list(comps.values())

    @staticmethod
    def connected_components(G):
        yield from BackendInterface._components(G)

    @staticmethod
    def weakly_connected_components(G):
        yield from BackendInterface._components(G)

    @staticmethod
    def number_connected_components(G):
        return len(np.unique(G.graph().wcc()))

    @staticmethod
    def number_weakly_connected_components(G):
        return len(np.unique(G.graph().wcc()))

    @staticmethod
    def triangles(G, nodes=None):
        _, per = G.graph().triangles()
        d = G.keyed(per)
        return _select(G, d, nodes)

    @staticmethod
    def clustering(G, nodes=None, weight=None):
        d = G.keyed(G.graph().lcc())
        return _select(G, d, nodes)

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None):
        levels, _ = G.graph().bfs(_vertex(G, source))
        return G.keyed(levels, levels >= 0)

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        dist, _ = G.graph().sssp(_vertex(G, source))
        return G.keyed(dist, np.isfinite(dist))

    @staticmethod
    def single_source_bellman_ford_path_length(G, source, weight="weight"):
        import networkx as nx

        try:
            dist, _ = G.graph().sssp(_vertex(G, source), algorithm="bellman-ford")
        except semigraph.NegativeCycleError as e:
            raise nx.NetworkXUnbounded("Negative cycle detected.") from e
        return G.keyed(dist, np.isfinite(dist))


def _has_weights(G, weight):
    """Whether the graph (NetworkX's or converted) has an edge whose ``weight`` is not 1."""
    if isinstance(G, SemigraphGraph):
        return G.weighted and bool((G.matrix.data != 1).any())
    return any(d.get(weight, 1) != 1 for _, _, d in G.edges(data=True))


def _vertex(G, source):
    import networkx as nx

    if source not in G.index:
        raise nx.NodeNotFound(f"Source {source} is not in G")
    return G.index[source]


def _select(G, d, nodes):
    """NetworkX's convention: one node gives its value, a collection a dict."""
    if nodes is None:
        return d
    if nodes in G.index:
        return d[nodes]
    return {v: d[v] for v in nodes}
