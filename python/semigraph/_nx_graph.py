"""The graph the NetworkX backend holds (``semigraph.nx``): a NetworkX graph as its node list
and a SciPy CSR matrix of one weight, with what the conversion found about the weights, and
the helpers that read a graph, NetworkX's or converted."""

from __future__ import annotations

import numpy as np

import semigraph

_EXACT = 2**53

# The most nodes for which ``ebunch=None`` (every pair of nodes without an edge) is answered
# at once: an n x n table of adjacency, 64 MiB here.
_ALL_PAIRS = 8192


class SemigraphGraph:
    """A NetworkX graph as semigraph holds it: ``nodes[i]`` is row ``i`` of ``matrix``
    (``matrix[i, j]`` the weight of the arc ``i -> j``, the smallest of a multigraph's
    parallel edges; an undirected edge is two arcs). ``weight`` is the attribute read
    (``None``: every weight 1); ``integral`` whether every weight is an integer (distances are
    then returned as integers), ``exact`` whether float64 holds every weight and every
    possible path length exactly, ``negative`` whether a weight is negative, ``parallel``
    whether a multigraph has parallel edges."""

    __networkx_backend__ = "semigraph"

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
