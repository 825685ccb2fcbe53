"""The path functions of the NetworkX backend (``semigraph.nx``): checks of a call's source,
target and weights, SSSP runs, and NetworkX's distances and paths from semigraph's trees."""

from __future__ import annotations

import numpy as np

import semigraph

# Calls that ran on semigraph in this process, by function name (tests check the backend
# was reached, not only declined).
calls: dict[str, int] = {}


def _checked(G, source, name, dijkstra=False, target=None):
    """The source's vertex and a target's (``None`` for none) once semigraph answers the
    call ``name`` (counted): weights float64 holds exactly, none negative for Dijkstra, the
    target in the graph; else declined (``NotImplementedError``)."""
    s = _vertex(G, source)
    _exact(G)
    if dijkstra and G.negative:
        raise NotImplementedError("Dijkstra with a negative weight: NetworkX's own answer")
    t = _target(G, target)
    _ran(name)
    return s, t


def _solve(G, s, algorithm):
    """Distances and predecessors from vertex ``s`` (``algorithm``: semigraph's choice for
    ``None``); a negative cycle as NetworkX's ``NetworkXUnbounded``."""
    import networkx as nx

    try:
        if algorithm is None:
            return G.graph().sssp(s)
        return G.graph().sssp(s, algorithm=algorithm)
    except semigraph.NegativeCycleError as e:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from e


def _target(G, target):
    """The vertex of a target node (``None`` for none); a node not in the graph declined
    (NetworkX answers with its own error)."""
    if target is None:
        return None
    try:
        return G.index[target]
    except (KeyError, TypeError):
        raise NotImplementedError(f"target {target!r} is not in G: NetworkX's own answer") from None


def _with_paths(G, dist, pred, keep, source, target, no_path):
    """``(distances, paths)`` of the rows ``keep`` selects as NetworkX keys them, or for a
    target node the pair of its own (``NetworkXNoPath`` with ``no_path`` when not kept)."""
    import networkx as nx

    if target is not None:
        t = G.index[target]
        if not keep[t]:
            raise nx.NetworkXNoPath(no_path)
        keep = np.zeros(len(G.nodes), dtype=bool)
        keep[t] = True
        paths = _tree_paths(G, pred, keep, source)
        d = _distances(G, dist, keep, source)
        return d[target], paths[target]
    return _distances(G, dist, keep, source), _tree_paths(G, pred, keep, source)


def _tree_paths(G, parents, keep, source):
    """``{node: [source, ..., node]}`` along the tree ``parents`` (each vertex's parent, -1
    for none) for the rows ``keep`` selects: each path its parent's and the node, each
    parent's path made once."""
    import gc

    parents = parents.tolist()
    nodes = G.nodes
    paths = {source: [nodes[source]]}
    out = {}
    # Many new lists, none in a cycle: the collector, which would walk the whole NetworkX
    # graph again and again while they are made, is paused (most of the time otherwise).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for v in np.flatnonzero(keep).tolist():
            chain = []
            u = v
            while u not in paths:
                if u < 0:
                    raise RuntimeError(f"vertex {v}'s parents do not lead to the source")
                chain.append(u)
                u = parents[u]
            for w in reversed(chain):
                paths[w] = paths[u] + [nodes[w]]
                u = w
            out[nodes[v]] = paths[v]
    finally:
        if collecting:
            gc.enable()
    return out


def _ran(name):
    calls[name] = calls.get(name, 0) + 1


def _exact(G):
    """Declines (``NotImplementedError``: NetworkX then runs its own) a graph whose weights or
    path lengths float64 cannot hold exactly, or whose weights are not numbers."""
    if not G.exact:
        raise NotImplementedError(
            "weights semigraph cannot hold exactly (beyond 2^53, or not numbers)"
        )


def _distances(G, dist, keep, source):
    """Distances keyed by node as NetworkX sums them: integers where every weight is one,
    and the source's the integer 0."""
    d = G.keyed(dist, keep)
    if G.integral:
        return {v: int(x) for v, x in d.items()}
    d[G.nodes[source]] = 0
    return d


def _vertex(G, source):
    import networkx as nx

    class NodeNotFound(nx.NodeNotFound, nx.NetworkXError):
        """A node not in the graph: NetworkX's ``NodeNotFound`` (as its path functions raise)
        that is also a ``NetworkXError`` (as its flow functions raise)."""

    try:
        return G.index[source]
    except (KeyError, TypeError):
        raise NodeNotFound(f"Source {source} is not in G") from None


# NetworkX's single-source path functions.

def single_source_shortest_path_length(G, source, cutoff=None):
    _ran("single_source_shortest_path_length")
    s = _vertex(G, source)
    levels, _ = G.graph().bfs(s)
    keep = levels >= 0
    if cutoff is not None:
        keep &= levels <= cutoff
    return G.keyed(levels, keep)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    s, _ = _checked(G, source, "single_source_dijkstra_path_length", dijkstra=True)
    dist, _ = _solve(G, s, None)
    keep = np.isfinite(dist)
    if cutoff is not None:
        keep &= dist <= cutoff
    return _distances(G, dist, keep, s)


def single_source_bellman_ford_path_length(G, source, weight="weight"):
    s, _ = _checked(G, source, "single_source_bellman_ford_path_length")
    dist, _ = _solve(G, s, "bellman-ford")
    return _distances(G, dist, np.isfinite(dist), s)


def single_source_shortest_path(G, source, cutoff=None):
    _ran("single_source_shortest_path")
    s = _vertex(G, source)
    levels, parents = G.graph().bfs(s)
    keep = levels >= 0
    if cutoff is not None:
        keep &= levels <= cutoff
    return _tree_paths(G, parents, keep, s)


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight"):
    return _dijkstra(G, source, None, cutoff, "single_source_dijkstra_path")[1]


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    return _dijkstra(G, source, target, cutoff, "single_source_dijkstra")


def single_source_bellman_ford_path(G, source, weight="weight"):
    return _bellman_ford(G, source, None, "single_source_bellman_ford_path")[1]


def single_source_bellman_ford(G, source, target=None, weight="weight"):
    return _bellman_ford(G, source, target, "single_source_bellman_ford")


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


def _bellman_ford(G, source, target, name):
    """NetworkX's ``single_source_bellman_ford``: ``(distances, paths)``, or for a
    target ``(distance, path)``."""
    s, t = _checked(G, source, name, target=target)
    if t == s:
        return 0, [G.nodes[s]]
    dist, pred = _solve(G, s, "bellman-ford")
    msg = f"Node {target} not reachable from {source}"
    return _with_paths(G, dist, pred, np.isfinite(dist), s, target, msg)
