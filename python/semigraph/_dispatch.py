"""The NetworkX dispatch of the registry's entries (:data:`semigraph.nx.REGISTERED`): why a
call is declined (:func:`_declines`), the function that answers it (:func:`_dispatcher`), the
result in NetworkX's shape (:func:`_shaped`), and the arguments as semigraph takes them
(partitions as labels, NetworkX's unseeded random state as no seed).

Imported by :mod:`semigraph.nx` at its end: the conversion helpers it uses are defined there.
"""

from __future__ import annotations

import inspect

import numpy as np

import semigraph
from semigraph._nx_graph import _ALL_PAIRS, SemigraphGraph, _has_weights, _pairs
from semigraph._nx_paths import _exact, _ran, _vertex

# Registry algorithms that only sum weights in float64 (modularity's sums, a flow's, as
# NetworkX's own float sums): any real weights will do, where path lengths must be exact; an
# infinite capacity (NetworkX's default for an edge without one) is no real weight.
_SUMMED = {"louvain", "leiden", "modularity", "maxflow"}


def _numeric(G):
    """Declines (``NotImplementedError``) a graph whose weights are not all real numbers."""
    if not G.numeric:
        raise NotImplementedError("weights that are not real numbers")


def _declines(registered, sig, a):
    """Why semigraph declines a registered NetworkX call (``None``: it runs it): an argument
    the entry does not pass on that is not NetworkX's default, one it passes on of a type its
    argument does not take (a dict ``beta``), a callable weight, the empty graph, a directed
    graph for an algorithm of undirected graphs (an undirected one for one of directed
    graphs), a multigraph, a self loop where NetworkX refuses one, an edge attribute NetworkX
    reads (not 1) where semigraph reads the structure, communities that are an iterator or no
    partition of the nodes."""
    info, entry = registered
    # The graph's parameter: G, or flowG for the flow functions.
    graph = next(iter(sig.parameters))
    passed = {theirs.removesuffix("=None").removesuffix("!") for theirs, _ in entry["args"]}
    a = {k: _unseeded(v) for k, v in a.items()}
    if callable(a.get("weight")):
        return "a callable weight is not supported (semigraph reads an edge attribute)"
    required = {p["name"] for p in info["params"] if p["default"] is None and not p["optional"]}
    kinds = {p["name"]: p["kind"] for p in info["params"]}
    for theirs, ours in entry["args"]:
        # A vertex NetworkX leaves None asks another question (every target, not one).
        needed = ours in required or kinds.get(ours) == "vertex"
        if needed and theirs in sig.parameters and a.get(theirs) is None:
            return f"{theirs}=None: semigraph's {info['name']} needs it"
    for theirs, ours in entry["args"]:
        value = a.get(theirs)
        fits = {
            "real": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
            "count": lambda x: isinstance(x, int) and not isinstance(x, bool) and x >= 0,
            "flag": lambda x: isinstance(x, bool),
        }.get(kinds.get(ours), lambda x: True)
        if ours and theirs in sig.parameters and value is not None and not fits(value):
            return f"{theirs}={value!r} is not a {kinds[ours]} semigraph takes"
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD and a.get(p.name):
            return f"keyword arguments for NetworkX's own functions: {sorted(a[p.name])}"
        if p.name == graph or p.name in passed or p.kind is p.VAR_KEYWORD:
            continue
        value = a.get(p.name, p.default)
        if callable(value) and p.name == "weight":
            return "a callable weight is not supported (semigraph reads an edge attribute)"
        if value is not p.default and value != p.default:
            return f"{p.name}={value!r} is not supported by semigraph's {info['name']}"
    G = a.get(graph)
    for theirs, ours in entry["args"]:
        pairs = a.get(theirs)
        if kinds.get(ours) != "pairs":
            continue
        if pairs is None and G is not None and len(G) > _ALL_PAIRS:
            return (f"{theirs}=None on {len(G)} nodes: every non-edge, which NetworkX's "
                    "generator yields one at a time")
        if pairs is None:
            continue
        if iter(pairs) is pairs:
            return f"{theirs} is an iterator, which NetworkX reads itself if semigraph declines"
        try:
            if G is not None and not all(u in G and v in G for u, v in pairs):
                return f"a node of {theirs} is not in the graph (NetworkX raises its error)"
        except (TypeError, ValueError):
            return f"{theirs} does not hold pairs of nodes"
    for theirs, ours in entry["args"]:
        communities = a.get(theirs)
        if kinds.get(ours) != "labels" or communities is None or G is None:
            continue
        if iter(communities) is communities:
            return f"{theirs} is an iterator, which NetworkX reads itself if semigraph declines"
        if _labels(G, communities) is None:
            return f"{theirs} is not a partition of the nodes (NetworkX raises NotAPartition)"
    if G is not None and len(G) == 0:
        return "the graph has no nodes (NetworkX answers or raises itself)"
    if G is not None and G.is_multigraph():
        return "a multigraph's parallel edges are not semigraph's arcs"
    if G is not None and G.is_directed() and info["accepts"] == "undirected":
        return "semigraph's algorithm reads undirected graphs"
    if G is not None and not G.is_directed() and info["accepts"] == "directed":
        return "NetworkX defines it for directed graphs"
    if G is not None and entry["simple"] and _has_self_loops(G):
        return "NetworkX refuses a graph with self loops for it"
    # An edge attribute NetworkX reads without an argument naming it (HITS's weights).
    read = getattr(_nx_function(entry["function"]), "preserve_edge_attrs", False)
    if G is not None and isinstance(read, dict) and info["reads"] == "structure":
        for attr in read.get("G", {}):
            if _has_weights(G, attr):
                return f"NetworkX reads the edges' {attr!r}, semigraph's algorithm the structure"
    return None


def _labels(G, communities):
    """A partition (sets of nodes) as a label per vertex, the index of each node's set;
    ``None`` unless every node of ``G`` lies in exactly one set."""
    index = G.index if isinstance(G, SemigraphGraph) else {v: i for i, v in enumerate(G)}
    labels = np.full(len(index), -1, dtype=np.int64)
    try:
        for c, nodes in enumerate(communities):
            for v in nodes:
                i = index[v]
                if labels[i] >= 0:
                    return None
                labels[i] = c
    except (KeyError, TypeError):
        return None
    return None if (labels < 0).any() else labels


def _unseeded(value):
    """``None`` for the random state NetworkX's ``py_random_state`` and ``np_random_state``
    make of ``seed=None`` (the global generators), the value otherwise: an unseeded call is
    the default one."""
    import random

    if value is random._inst or value is np.random.mtrand._rand:
        return None
    return value


def _nx_function(name):
    """NetworkX's dispatchable function ``name``, wherever it lives (``nx.pagerank``,
    ``nx.community.louvain_communities``)."""
    import networkx as nx

    f = getattr(nx, name, None)
    if f is None:
        from networkx.utils.backends import _registered_algorithms

        f = _registered_algorithms[name]
    return f


def _has_self_loops(G):
    """Whether the graph (NetworkX's or converted) has an edge from a node to itself."""
    if isinstance(G, SemigraphGraph):
        m = G.matrix.tocoo()
        return bool((m.row == m.col).any())
    return any(u in nbrs for u, nbrs in G._adj.items())


def _dispatcher(info, entry):
    """The NetworkX function of a registry entry: NetworkX's arguments bound to its
    signature, those the entry names passed on (nodes as vertices; ``is_directed()``: the
    graph's kind; ``NAME=None`` (``NAME!=None``): whether NetworkX's argument is (is not)
    ``None``; an empty name: not
    passed on), the entry's column returned in the entry's shape (a generator where
    NetworkX's function is one); semigraph's errors as NetworkX's (an iteration short of its
    tolerance, a cycle, no path, a negative cycle)."""
    function = entry["function"]
    kinds = {p["name"]: p["kind"] for p in info["params"]}

    def f(G, *args, **kwargs):
        import networkx as nx

        bound = inspect.signature(_nx_function(function)).bind(G, *args, **kwargs)
        bound.apply_defaults()
        kw = {}
        for theirs, ours in entry["args"]:
            if not ours:
                continue
            if theirs == "is_directed()":
                value = G.is_directed()
            elif theirs.endswith("!=None"):
                value = bound.arguments.get(theirs[: -len("!=None")]) is not None
            elif theirs.endswith("=None"):
                value = bound.arguments.get(theirs[: -len("=None")]) is None
            else:
                value = _unseeded(bound.arguments.get(theirs))
            if kinds.get(ours) == "vertex":
                value = _vertex(G, value)
            elif kinds.get(ours) == "pairs":
                value = _pairs(G, value)
            elif kinds.get(ours) == "labels":
                value = _labels(G, value)
            kw[ours] = value
        if info.get("weighted_by"):
            weighted = kw.get(info["weighted_by"], False)
        else:
            weighted = info["reads"] in ("distances", "capacities") and not kw.get(
                "unweighted", False
            )
        if weighted and info["name"] in _SUMMED:
            _numeric(G)
        elif weighted:
            _exact(G)
            method = bound.arguments.get("method")
            dijkstra = function.startswith("dijkstra") or method == "dijkstra"
            if G.negative and dijkstra:
                raise NotImplementedError(
                    "Dijkstra with a negative weight: NetworkX's own answer"
                )
        _ran(function)
        shape = entry["shape"]
        column, second = entry["column"], entry.get("second")
        columns = {
            "pair": [column, second],
            "triples": [second, column],
            "by_edge": [second, column],
        }.get(shape, [column])
        if len(G.nodes) == 0:
            return _empty(shape)
        try:
            values = G.graph()._g.run(info["name"], kw, columns)
        except semigraph.ConvergenceError as e:
            raise nx.PowerIterationFailedConvergence(e.iterations) from e
        except semigraph.CycleError as e:
            raise nx.NetworkXUnfeasible(
                "Graph contains a cycle or graph changed during iteration"
            ) from e
        except semigraph.NoPathError as e:
            raise nx.NetworkXNoPath(str(e)) from e
        except semigraph.NegativeCycleError as e:
            raise nx.NetworkXUnbounded("Negative cycle detected.") from e
        except ValueError as e:
            # semigraph's own refusal (a self loop, HITS without an arc): NetworkX answers,
            # or raises its own error.
            raise NotImplementedError(f"semigraph refuses: {e}") from e
        return _shaped(G, shape, values)

    def call(G, *args, **kwargs):
        if inspect.isgeneratorfunction(getattr(_nx_function(function), "orig_func", None)):
            # NetworkX returns a generator, which runs (and raises) when first iterated.
            return _lazily(f, G, args, kwargs)
        return f(G, *args, **kwargs)

    call.__name__ = function
    return call


def _lazily(f, G, args, kwargs):
    yield from f(G, *args, **kwargs)


def _empty(shape):
    """A registry column's NetworkX shape on the graph without nodes."""
    if shape == "subgraph":
        import networkx as nx

        return nx.Graph()
    return {
        "values": {},
        "groups": [],
        "count": 0,
        "sequence": [],
        "pair": ({}, {}),
        "triples": iter(()),
        "by_edge": {},
        "members": [],
        "edges": set(),
        "scalar": None,
    }[shape]


def _shaped(G, shape, values):
    """A registry column (``values``; for a pair, the two; with pairs of nodes, the pairs
    first) as NetworkX returns it: a dict by node, the sets of nodes of each class, their
    number, the nodes in order, a pair of dicts, the graph of a column of edges (without
    isolated nodes), ``(u, v, value)`` triples, a dict by edge, the nodes whose flag is set, a
    set of edges."""
    if shape == "values":
        return G.keyed(values)
    if shape == "pair":
        return G.keyed(values[0]), G.keyed(values[1])
    if shape == "sequence":
        return [G.nodes[i] for i in values.tolist()]
    if shape == "triples":
        pairs, x = values
        return ((G.nodes[u], G.nodes[v], c) for (u, v), c in zip(pairs.tolist(), x.tolist()))
    if shape == "by_edge":
        pairs, x = values
        return {(G.nodes[u], G.nodes[v]): c for (u, v), c in zip(pairs.tolist(), x.tolist())}
    if shape == "scalar":
        if values is None:
            raise NotImplementedError("no edge: NetworkX raises its own error")
        return values
    if shape == "members":
        return [G.nodes[i] for i in values.nonzero()[0].tolist()]
    if shape == "edges":
        return {(G.nodes[u], G.nodes[v]) for u, v in values.tolist()}
    if shape == "subgraph":
        import networkx as nx

        H = nx.DiGraph() if G.directed else nx.Graph()
        H.add_edges_from((G.nodes[u], G.nodes[v]) for u, v in values.tolist())
        return H
    classes = {}
    for i, c in enumerate(values.tolist()):
        classes.setdefault(c, set()).add(G.nodes[i])
    return len(classes) if shape == "count" else list(classes.values())
