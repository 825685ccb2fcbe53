"""NetworkX functions answered by semigraph's traversals and algebra beyond the registry's
entries: reachability and path lengths (BFS, SSSP, on the graph or its reverse), connectivity
(FastSV, the strong components, the topological order), degrees, isolates and reciprocity
(reductions of the adjacency pattern held as a :class:`semigraph.Matrix`), transitivity and
average clustering (the triangle counts).

Each entry of :data:`WRITTEN` is ``name: (summary, function, check)``; ``check(arguments)``
returns ``True`` or the reason the call is declined (NetworkX then runs its own).
"""

from __future__ import annotations

import numpy as np

import semigraph
from semigraph import _nx_paths
from semigraph._nx_graph import SemigraphGraph, _select
from semigraph._nx_paths import _exact, _ran, _vertex

WRITTEN: dict = {}


def _written(summary, check=None):
    def add(f):
        WRITTEN[f.__name__] = (summary, f, check or (lambda a: True))
        return f

    return add


def _simple_undirected(a):
    G = a["G"]
    if G.is_directed():
        return "NetworkX defines it for undirected graphs"
    if G.is_multigraph():
        return "NetworkX does not define it for multigraphs"
    return True


def _no_parallel(a):
    G = a["G"]
    if G.is_multigraph() and _parallel(G):
        return "a multigraph's parallel edges count in NetworkX's degrees"
    return True


def _parallel(G):
    if isinstance(G, SemigraphGraph):
        return G.parallel
    return any(len(keys) > 1 for nbrs in G._adj.values() for keys in nbrs.values())


def _node_or_missing(G, node, error):
    """The vertex of ``node``, or ``error`` raised (NetworkX's own error for a missing node)."""
    try:
        return G.index[node]
    except (KeyError, TypeError):
        raise error from None


def _reverse(G):
    """The graph with every arc reversed (kept on the graph once made); itself undirected."""
    if not G.directed:
        return G
    r = G.__networkx_cache__.get("semigraph_reverse")
    if r is None:
        r = SemigraphGraph(G.nodes, G.matrix.T.tocsr(), True, G.weight, integral=G.integral,
                           exact=G.exact, negative=G.negative, parallel=G.parallel,
                           multigraph=G.multigraph, numeric=G.numeric)
        G.__networkx_cache__["semigraph_reverse"] = r
    return r


def _levels(G, s):
    levels, _ = G.graph().bfs(s)
    return levels


def _pattern(G):
    """The adjacency pattern as a :class:`semigraph.Matrix` of ones in plus-times (kept)."""
    p = G.__networkx_cache__.get("semigraph_pattern")
    if p is None:
        m = G.matrix.copy()
        m.data = np.ones(m.nnz)
        p = semigraph.Matrix(m, "plus-times:f64")
        G.__networkx_cache__["semigraph_pattern"] = p
    return p


def _degrees(G):
    """NetworkX's degrees: ``(in, out)`` for a directed graph (a loop counts in each), the
    neighbours with a loop counted twice for an undirected one (``(None, degree)``)."""
    if len(G.nodes) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    p = _pattern(G)
    out = p.reduce_rows().to_numpy().astype(np.int64)
    if G.directed:
        return p.reduce_cols().to_numpy().astype(np.int64), out
    return None, out + (p.diag().to_numpy() != 0)


def _degree(G):
    ins, out = _degrees(G)
    return out if ins is None else ins + out


# -- reachability and path lengths -------------------------------------------------------


@_written("BFS from the source: whether it reaches the target")
def has_path(G, source, target):
    import networkx as nx

    s = _vertex(G, source)
    t = _node_or_missing(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    _ran("has_path")
    return bool(_levels(G, s)[t] >= 0)


def _shortest_path_length_check(a):
    if a.get("method") not in ("dijkstra", "bellman-ford"):
        return "a method NetworkX refuses (it raises its own error)"
    if a.get("source") is None:
        return "every node's path lengths (source=None): NetworkX's own"
    if callable(a.get("weight")):
        return "a callable weight is not supported (semigraph reads an edge attribute)"
    return True


@_written("BFS levels or SSSP distances (Dijkstra's or Bellman-Ford's answer)",
          _shortest_path_length_check)
def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    import networkx as nx

    if weight is None:
        if target is None:
            return _nx_paths.single_source_shortest_path_length(G, source)
        s = _vertex(G, source)
        t = _node_or_missing(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
        _ran("shortest_path_length")
        d = int(_levels(G, s)[t])
        if d < 0:
            raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
        return d
    if method == "bellman-ford":
        if target is None:
            return _nx_paths.single_source_bellman_ford_path_length(G, source)
        return _nx_paths._bellman_ford(G, source, target, "shortest_path_length")[0]
    if target is None:
        return _nx_paths.single_source_dijkstra_path_length(G, source)
    return _nx_paths._dijkstra(G, source, target, None, "shortest_path_length")[0]


@_written("SSSP (Bellman-Ford or delta-stepping): the distance to the target")
def dijkstra_path_length(G, source, target, weight="weight"):
    return _nx_paths._dijkstra(G, source, target, None, "dijkstra_path_length")[0]


@_written("SSSP (Bellman-Ford): the distance to the target")
def bellman_ford_path_length(G, source, target, weight="weight"):
    return _nx_paths._bellman_ford(G, source, target, "bellman_ford_path_length")[0]


@_written("BFS levels on the reversed graph (cutoff: levels up to it)")
def single_target_shortest_path_length(G, target, cutoff=None):
    import networkx as nx

    t = _node_or_missing(G, target, nx.NodeNotFound(f"Target {target} is not in G"))
    _ran("single_target_shortest_path_length")
    R = _reverse(G)
    levels = _levels(R, t)
    keep = levels >= 0
    if cutoff is not None:
        keep &= levels <= cutoff
    return R.keyed(levels, keep)


@_written("BFS from the source: the nodes it reaches")
def descendants(G, source):
    import networkx as nx

    s = _node_or_missing(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    _ran("descendants")
    keep = _levels(G, s) >= 0
    keep[s] = False
    return {G.nodes[i] for i in np.flatnonzero(keep).tolist()}


@_written("BFS on the reversed graph: the nodes that reach the source")
def ancestors(G, source):
    import networkx as nx

    s = _node_or_missing(G, source, nx.NetworkXError(f"The node {source} is not in the graph."))
    _ran("ancestors")
    keep = _levels(_reverse(G), s) >= 0
    keep[s] = False
    return {G.nodes[i] for i in np.flatnonzero(keep).tolist()}


@_written("BFS levels from every node")
def all_pairs_shortest_path_length(G, cutoff=None):
    _ran("all_pairs_shortest_path_length")
    one = _nx_paths.single_source_shortest_path_length
    return ((v, one(G, v, cutoff)) for v in list(G.nodes))


def _weighted(a):
    if callable(a.get("weight")):
        return "a callable weight is not supported (semigraph reads an edge attribute)"
    return True


def _all_sssp(G, dijkstra, name):
    """Checked before the generator is returned (a decline raised while it is consumed would
    reach the caller instead of sending NetworkX to its own implementation)."""
    _exact(G)
    if dijkstra and G.negative:
        raise NotImplementedError("Dijkstra with a negative weight: NetworkX's own answer")
    _ran(name)


@_written("SSSP from every node (cutoff)", _weighted)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    _all_sssp(G, True, "all_pairs_dijkstra_path_length")
    one = _nx_paths.single_source_dijkstra_path_length
    return ((v, one(G, v, cutoff)) for v in list(G.nodes))


@_written("SSSP (Bellman-Ford) from every node", _weighted)
def all_pairs_bellman_ford_path_length(G, weight="weight"):
    _all_sssp(G, False, "all_pairs_bellman_ford_path_length")
    one = _nx_paths.single_source_bellman_ford_path_length
    return ((v, one(G, v)) for v in list(G.nodes))


# -- connectivity ------------------------------------------------------------------------


def _one_label(G, labels):
    import networkx as nx

    if len(G.nodes) == 0:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    return bool((labels == labels[0]).all())


@_written("FastSV: whether one component holds every node")
def is_connected(G):
    _ran("is_connected")
    return _one_label(G, G.graph().wcc() if len(G.nodes) else np.zeros(0))


@_written("FastSV on the arcs as edges: whether one component holds every node")
def is_weakly_connected(G):
    _ran("is_weakly_connected")
    return _one_label(G, G.graph().wcc() if len(G.nodes) else np.zeros(0))


@_written("Strong components (trimming and colouring): whether one holds every node")
def is_strongly_connected(G):
    _ran("is_strongly_connected")
    if len(G.nodes) == 0:
        return _one_label(G, np.zeros(0))
    return _one_label(G, G.graph()._g.run("scc", None, ["labels"]))


@_written("FastSV: the nodes of the node's component")
def node_connected_component(G, n):
    v = _node_or_missing(G, n, NotImplementedError("a node not in G: NetworkX's own error"))
    _ran("node_connected_component")
    labels = G.graph().wcc()
    return {G.nodes[i] for i in np.flatnonzero(labels == labels[v]).tolist()}


@_written("Topological order by peeling: whether it covers every node (no cycle)")
def is_directed_acyclic_graph(G):
    _ran("is_directed_acyclic_graph")
    if not G.directed:
        return False
    if len(G.nodes) == 0:
        return True
    try:
        G.graph()._g.run("toposort", None, ["order"])
    except semigraph.CycleError:
        return False
    return True


# -- degrees, isolates, reciprocity ------------------------------------------------------


def _centrality(G, name, degrees):
    """NetworkX's degree centralities: each degree over ``n - 1`` (1 for every node of a graph
    of one node)."""
    _ran(name)
    n = len(G.nodes)
    if n <= 1:
        return {v: 1 for v in G.nodes}
    s = 1.0 / (n - 1.0)
    return {v: d * s for v, d in zip(G.nodes, degrees(G).tolist())}


@_written("Degrees by row and column reductions of the pattern", _no_parallel)
def degree_centrality(G):
    return _centrality(G, "degree_centrality", _degree)


@_written("In-degrees by column reductions of the pattern", _no_parallel)
def in_degree_centrality(G):
    return _centrality(G, "in_degree_centrality", lambda G: _degrees(G)[0])


@_written("Out-degrees by row reductions of the pattern", _no_parallel)
def out_degree_centrality(G):
    return _centrality(G, "out_degree_centrality", lambda G: _degrees(G)[1])


@_written("Degrees by reductions of the pattern: the nodes of degree 0")
def isolates(G):
    _ran("isolates")
    d = _degree(G)
    return (G.nodes[i] for i in np.flatnonzero(d == 0).tolist())


@_written("Degrees by reductions of the pattern: how many nodes have degree 0")
def number_of_isolates(G):
    _ran("number_of_isolates")
    return int((_degree(G) == 0).sum())


@_written("Degrees by reductions of the pattern: whether the node has degree 0")
def is_isolate(G, n):
    v = _node_or_missing(G, n, NotImplementedError("a node not in G: NetworkX's own error"))
    _ran("is_isolate")
    return bool(_degree(G)[v] == 0)


def _simple_directed(a):
    G = a["G"]
    if not G.is_directed():
        return "NetworkX's reciprocity of an undirected graph counts its edges once (0)"
    if G.is_multigraph():
        return "a multigraph's parallel edges count in NetworkX's reciprocity"
    return True


def _mutual(G):
    """Arcs whose reverse is an arc too: the pattern times its transpose, element-wise."""
    p = _pattern(G)
    return p.ewise_mult(p.T)


@_written("Arcs in both directions by an element-wise product of the pattern and its transpose",
          _simple_directed)
def overall_reciprocity(G):
    import networkx as nx

    _ran("overall_reciprocity")
    p = _pattern(G)
    if p.nvals == 0:
        raise nx.NetworkXError("Not defined for empty graphs")
    return _mutual(G).select("offdiag").nvals / p.nvals


@_written("Arcs in both directions per node: reductions of the pattern and of its product "
          "with its transpose", _simple_directed)
def reciprocity(G, nodes=None):
    import networkx as nx

    if nodes is None:
        return overall_reciprocity(G)
    _ran("reciprocity")
    ins, out = _degrees(G)
    both = _mutual(G).reduce_rows().to_numpy() if len(G.nodes) else np.zeros(0)
    total = ins + out

    def one(i):
        return None if total[i] == 0 else 2 * int(both[i]) / int(total[i])

    try:
        if nodes in G.index:
            r = one(G.index[nodes])
            if r is None:
                raise nx.NetworkXError("Not defined for isolated nodes.")
            return r
    except TypeError:
        pass  # unhashable: a collection
    return {v: one(G.index[v]) for v in nodes if v in G.index}


# -- triangles ---------------------------------------------------------------------------


@_written("Triangle counts by masked sparse products over the degrees", _simple_undirected)
def transitivity(G):
    _ran("transitivity")
    if len(G.nodes) == 0:
        return 0
    _, per = G.graph().triangles()
    p = _pattern(G)
    d = p.reduce_rows().to_numpy() - (p.diag().to_numpy() != 0)
    triangles = 2 * int(np.asarray(per, dtype=np.int64).sum())
    contri = int((d * (d - 1)).sum())
    return 0 if triangles == 0 else triangles / contri


def _average_clustering_check(a):
    r = _simple_undirected(a)
    if r is not True:
        return r
    if a.get("weight") is not None:
        return "only the unweighted clustering is supported"
    return True


@_written("LCC (unweighted, undirected graphs), averaged", _average_clustering_check)
def average_clustering(G, nodes=None, weight=None, count_zeros=True):
    _ran("average_clustering")
    # As NetworkX's clustering: the integer 0 where a vertex is in no triangle.
    lcc = G.graph().lcc() if len(G.nodes) else np.zeros(0)
    c = _select(G, {v: (0 if x == 0 else x) for v, x in G.keyed(lcc).items()}, nodes)
    c = c.values() if isinstance(c, dict) else [c]
    if not count_zeros:
        c = [v for v in c if abs(v) > 0]
    else:
        c = list(c)
    return sum(c) / len(c)
