"""The algorithm registry in Python: every algorithm is a ``Graph`` method and a function with
the registry's signature, each answers as an independent reference does, and a NetworkX
function named by a registry entry is dispatched by the generic dispatcher."""

import inspect

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

import semigraph
import semigraph.nx as snx
from semigraph import _native
from semigraph._nx_graph import _ALL_PAIRS


def _random(n=60, density=0.08, seed=3):
    a = sp.random(n, n, density=density, format="csr", random_state=seed)
    a.data = np.round(a.data * 9) + 1  # integer weights 1..10
    return a


def test_every_algorithm_is_a_method_and_a_function():
    names = [i["name"] for i in _native.algorithms()]
    assert {"bfs", "sssp", "pagerank", "wcc", "cdlp", "lcc", "triangles"} <= set(names)
    # Arcs from larger to smaller vertices only: no self loop (core numbers refuse them), no
    # cycle (a topological order names one).
    g = semigraph.Graph(sp.tril(_random(), k=-1).tocsr(), backend="cpu")
    for info in _native.algorithms():
        name = info["name"]
        assert callable(getattr(semigraph.Graph, name)), name
        assert callable(getattr(semigraph, name)), name
        assert name in semigraph.__all__
        params = inspect.signature(getattr(semigraph.Graph, name)).parameters
        for p in info["params"]:
            assert p["name"] in params, (name, p["name"])
        kw = {p["name"]: 0 for p in info["params"] if p["kind"] == "vertex"}
        kw.update({p["name"]: np.arange(g.n) % 3 for p in info["params"] if p["kind"] == "labels"})
        if name == "maxflow":
            kw["target"] = g.n - 1  # a flow needs two vertices
        if any(p["name"] == "tolerance" for p in info["params"]):
            kw["tolerance"] = 0.01  # power iterations on a DAG converge slowly
        out = getattr(g, name)(**kw)
        n_out = 1 if not isinstance(out, tuple) else len(out)
        assert n_out == len(info["returns"]), name


def test_generated_methods_answer_as_references():
    a = _random()
    g = semigraph.Graph(a, backend="cpu")
    # Reachability: SciPy's breadth-first order from the same source.
    reached = g.reachability(0)
    order = csgraph.breadth_first_order(a, 0, directed=True, return_predecessors=False)
    assert set(np.flatnonzero(reached)) == set(order)
    # Widest paths: the bottleneck by brute relaxation.
    n = a.shape[0]
    w = np.full(n, -np.inf)
    w[0] = np.inf
    coo = a.tocoo()
    for _ in range(n):
        for u, v, x in zip(coo.row, coo.col, coo.data):
            w[v] = max(w[v], min(w[u], x))
    np.testing.assert_array_equal(g.widest_path(0), w)
    # SSSP by name and by position; a bad choice is a ValueError naming the choices.
    d, _ = g.sssp(0, "bellman-ford")
    np.testing.assert_allclose(d, csgraph.dijkstra(a, indices=0))
    with pytest.raises(ValueError, match="bellman-ford"):
        g.sssp(0, algorithm="dijkstra")
    with pytest.raises(IndexError):
        g.sssp(n)
    with pytest.raises(TypeError):
        g.sssp(0, nonsense=1)


def test_pagerank_iterations_run_exactly_unless_a_tolerance_stops_them():
    g = semigraph.Graph(_random(), backend="cpu")
    r = g._g.run("pagerank", {"iterations": 7}, ["iterations", "delta"])
    assert r == (7, None)
    it, delta = g._g.run("pagerank", {"tolerance": 1e-6}, ["iterations", "delta"])
    assert it < 100 and delta <= 1e-6


def test_the_generic_networkx_dispatcher_answers_as_networkx():
    G = nx.gnp_random_graph(40, 0.15, seed=5)
    info = next(i for i in _native.algorithms() if i["name"] == "lcc")
    entry = {"function": "clustering", "args": [], "column": "coefficients", "shape": "values",
             "simple": False}
    f = snx._dispatcher(info, entry)
    got = f(snx.BackendInterface.convert_from_nx(G))
    want = nx.clustering(G)
    assert got.keys() == want.keys()
    for v in want:
        assert got[v] == pytest.approx(want[v], rel=1e-12)
    # A vertex argument is the node, mapped to its row.
    info = next(i for i in _native.algorithms() if i["name"] == "reachability")
    entry = {"function": "descendants", "args": [("source", "source")], "column": "reached",
             "shape": "values", "simple": False}
    D = nx.DiGraph([("a", "b"), ("b", "c"), ("d", "a")])
    r = snx._dispatcher(info, entry)(snx.BackendInterface.convert_from_nx(D), "a")
    assert r == {"a": True, "b": True, "c": True, "d": False}


def test_the_generic_networkx_entries_decline_what_they_do_not_compute():
    info = next(i for i in _native.algorithms() if i["name"] == "triangles")
    entry = {"function": "triangles", "args": [], "column": "per_vertex", "shape": "values",
             "simple": False}
    sig = inspect.signature(nx.triangles)
    und, di = nx.Graph([(0, 1)]), nx.DiGraph([(0, 1)])
    assert snx._declines((info, entry), sig, {"G": und, "nodes": None}) is None
    assert "nodes" in snx._declines((info, entry), sig, {"G": und, "nodes": [0]})
    assert "undirected" in snx._declines((info, entry), sig, {"G": di, "nodes": None})
    assert "multigraph" in snx._declines((info, entry), sig, {"G": nx.MultiGraph([(0, 1)]),
                                                              "nodes": None})


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
def test_betweenness_through_networkx_answers_as_networkx(directed, normalized):
    G = nx.gnp_random_graph(50, 0.08, seed=11, directed=directed)
    # A directed graph whose arcs all have their reverse still counts ordered pairs.
    for H in (G, nx.star_graph(6).to_directed() if directed else nx.path_graph(7)):
        want = nx.betweenness_centrality(H, normalized=normalized)
        before = snx.calls.get("betweenness_centrality", 0)
        got = nx.betweenness_centrality(H, normalized=normalized, backend="semigraph")
        assert snx.calls["betweenness_centrality"] == before + 1
        assert got.keys() == want.keys()
        for v in want:
            assert got[v] == pytest.approx(want[v], rel=1e-12, abs=1e-15)
    # Sampled sources are NetworkX's own: declined, never answered differently.
    sig = inspect.signature(nx.betweenness_centrality)
    entry = snx.REGISTERED["betweenness_centrality"]
    assert "k=" in snx._declines(entry, sig, {"G": G, "k": 5})
    assert snx._declines(entry, sig, {"G": G, "weight": "w"}) is None
    assert snx._declines(entry, sig, {"G": G, "seed": 3}) is None


def _weighted(directed, seed, n=45, p=0.1):
    """A random graph with integer weights 1..4 (many least-weight paths tie)."""
    import random

    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    rng = random.Random(seed)
    for u, v in G.edges:
        G[u][v]["w"] = rng.randint(1, 4)
    return G


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
def test_weighted_betweenness_through_networkx_answers_as_networkx(directed, normalized):
    G = _weighted(directed, 21)
    G.add_edge(4, 4, w=2)  # a self loop lies on no least-weight path
    G.add_node(70)  # isolated
    calls = [(nx.betweenness_centrality, {"weight": "w"}),
             (nx.betweenness_centrality, {"weight": "w", "endpoints": True}),
             (nx.betweenness_centrality, {"endpoints": True}),
             (nx.edge_betweenness_centrality, {"weight": "w"})]
    for f, kw in calls:
        want = f(G, normalized=normalized, **kw)
        before = snx.calls.get(f.__name__, 0)
        got = f(G, normalized=normalized, backend="semigraph", **kw)
        assert snx.calls[f.__name__] == before + 1
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == pytest.approx(want[key], rel=1e-12, abs=1e-15), (f, kw, key)


@pytest.mark.parametrize("directed", [False, True])
def test_weighted_closeness_and_harmonic_through_networkx_answer_as_networkx(directed):
    G = _weighted(directed, 22)
    G.add_edge(5, 5, w=3)
    G.add_node(60)  # isolated: reached by none
    for name, kw in (("closeness_centrality", {"wf_improved": True}),
                     ("closeness_centrality", {"wf_improved": False}),
                     ("harmonic_centrality", {})):
        f = getattr(nx, name)
        want = f(G, distance="w", **kw)
        before = snx.calls.get(name, 0)
        got = f(G, distance="w", backend="semigraph", **kw)
        assert snx.calls[name] == before + 1
        assert got.keys() == want.keys()
        for v in want:
            assert got[v] == pytest.approx(want[v], rel=1e-12, abs=1e-15)


def test_weighted_betweenness_refuses_what_has_no_least_weight_paths():
    g = semigraph.Graph(sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -1.0], [0, 0, 0]])),
                        backend="cpu")
    with pytest.raises(ValueError, match="has weight -1"):
        g.betweenness(weighted=True)
    # Unweighted, the weights are not read.
    assert g.betweenness(normalized=False).tolist() == [0.0, 1.0, 0.0]
    # Through NetworkX a negative weight is declined (NetworkX's own Dijkstra raises its error).
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 1.0), (1, 2, -1.0)])
    with pytest.raises(NotImplementedError, match="semigraph"):
        nx.betweenness_centrality(G, weight="weight", backend="semigraph")


def test_betweenness_samples_estimate_with_the_exact_scale():
    a = _random(n=40, density=0.1)
    g = semigraph.Graph(a, backend="cpu")
    exact = g.betweenness(normalized=False)
    G = nx.from_scipy_sparse_array(a, create_using=nx.DiGraph)
    want = nx.betweenness_centrality(G, normalized=False)
    np.testing.assert_allclose(exact, [want[v] for v in range(40)], rtol=1e-12)
    # Every vertex drawn: exact; the batch size changes nothing.
    np.testing.assert_allclose(g.betweenness(normalized=False, sources=40, batch=3), exact)
    some = g.betweenness(normalized=False, sources=10, seed=2, source=5)
    assert some.shape == (40,) and np.all(some >= 0)
    # One source: its own dependencies, scaled by n.
    one = g.betweenness(normalized=False, sources=1, source=5)
    G5 = nx.betweenness_centrality_subset(G, sources=[5], targets=list(G), normalized=False)
    np.testing.assert_allclose(one, [40 * G5[v] for v in range(40)], rtol=1e-12)
    with pytest.raises(ValueError):
        g.betweenness(batch=0)


@pytest.mark.parametrize("directed", [False, True])
def test_closeness_and_harmonic_through_networkx_answer_as_networkx(directed):
    G = nx.gnp_random_graph(45, 0.06, seed=13, directed=directed)
    G.add_nodes_from([100, 101])  # isolated vertices
    for wf in (True, False):
        want = nx.closeness_centrality(G, wf_improved=wf)
        got = nx.closeness_centrality(G, wf_improved=wf, backend="semigraph")
        assert got.keys() == want.keys()
        assert all(got[v] == pytest.approx(want[v], rel=1e-12, abs=1e-15) for v in want)
    want = nx.harmonic_centrality(G)
    got = nx.harmonic_centrality(G, backend="semigraph")
    assert all(got[v] == pytest.approx(want[v], rel=1e-12, abs=1e-15) for v in want)
    assert snx.calls["closeness_centrality"] >= 2 and snx.calls["harmonic_centrality"] >= 1
    sig = inspect.signature(nx.closeness_centrality)
    entry = snx.REGISTERED["closeness_centrality"]
    assert snx._declines(entry, sig, {"G": G, "distance": "weight"}) is None
    assert "u=" in snx._declines(entry, sig, {"G": G, "u": 0})


@pytest.mark.parametrize("directed", [False, True])
def test_power_iterations_through_networkx_answer_as_networkx(directed):
    G = nx.gnp_random_graph(60, 0.1, seed=17, directed=directed)
    if directed:
        G.add_edges_from((v, (v + 1) % 60) for v in range(60))  # strongly connected
    want = nx.eigenvector_centrality(G, tol=1e-10, max_iter=1000)
    got = nx.eigenvector_centrality(G, tol=1e-10, max_iter=1000, backend="semigraph")
    assert all(got[v] == pytest.approx(want[v], rel=1e-6) for v in want)
    for normalized in (True, False):
        want = nx.katz_centrality(G, alpha=0.05, beta=2.0, tol=1e-10, normalized=normalized)
        got = nx.katz_centrality(G, alpha=0.05, beta=2.0, tol=1e-10, normalized=normalized,
                                 backend="semigraph")
        assert all(got[v] == pytest.approx(want[v], rel=1e-6) for v in want)
    # Not converged: NetworkX's own exception; a dict beta and the empty graph decline.
    with pytest.raises(nx.PowerIterationFailedConvergence):
        nx.katz_centrality(G, alpha=0.9, max_iter=20, backend="semigraph")
    sig = inspect.signature(nx.katz_centrality)
    entry = snx.REGISTERED["katz_centrality"]
    assert "beta" in snx._declines(entry, sig, {"G": G, "beta": {0: 1.0}})
    assert "no nodes" in snx._declines(entry, sig, {"G": nx.Graph()})
    with pytest.raises(semigraph.ConvergenceError) as e:
        semigraph.Graph(nx.to_scipy_sparse_array(G), backend="cpu").eigenvector(iterations=2)
    assert e.value.iterations == 2


def _mixed(directed, seed):
    """A random graph with isolated vertices and, for a directed one, cycles and a DAG part."""
    G = nx.gnp_random_graph(70, 0.04, seed=seed, directed=directed)
    G.add_nodes_from([200, 201])
    if directed:
        G.add_edges_from([(300, 301), (301, 302), (302, 300), (302, 303), (303, 304)])
    return G


@pytest.mark.parametrize("directed", [False, True])
def test_core_numbers_through_networkx_answer_as_networkx(directed):
    for seed in (5, 6):
        G = _mixed(directed, seed)
        want = nx.core_number(G)
        before = snx.calls.get("core_number", 0)
        got = nx.core_number(G, backend="semigraph")
        assert snx.calls["core_number"] == before + 1
        assert got == want
    # A self loop: declined, and NetworkX raises its own error; semigraph ignores it.
    G.add_edge(0, 0)
    sig = inspect.signature(nx.core_number)
    assert "self loops" in snx._declines(snx.REGISTERED["core_number"], sig, {"G": G})
    with pytest.raises(NotImplementedError):  # declined, and no other backend named
        nx.core_number(G, backend="semigraph")
    got = semigraph.Graph(nx.to_scipy_sparse_array(G), backend="cpu").kcore()
    G.remove_edge(0, 0)
    assert list(got) == [nx.core_number(G)[v] for v in G]


def test_strong_components_and_order_through_networkx_answer_as_networkx():
    for seed in (7, 8, 9):
        G = _mixed(True, seed)
        want = sorted(map(sorted, nx.strongly_connected_components(G)))
        got = nx.strongly_connected_components(G, backend="semigraph")
        assert inspect.isgenerator(got)
        assert sorted(map(sorted, got)) == want
        assert nx.number_strongly_connected_components(G, backend="semigraph") == len(want)
    assert snx.calls["strongly_connected_components"] >= 3
    # A DAG: a valid order, every node once (NetworkX's topological_sort is not dispatched:
    # it watches the graph for changes while consumed).
    D = nx.gn_graph(80, seed=3)
    order = semigraph.Graph(nx.to_scipy_sparse_array(D), backend="cpu").toposort()
    assert sorted(order) == list(range(80))
    at = {v: i for i, v in enumerate(order)}
    assert all(at[u] < at[v] for u, v in D.edges)
    assert "topological_sort" not in snx.REGISTERED
    with pytest.raises(semigraph.CycleError) as e:
        semigraph.Graph(nx.to_scipy_sparse_array(nx.cycle_graph(4, nx.DiGraph)),
                        backend="cpu").toposort()
    assert sorted(e.value.cycle) == [0, 1, 2, 3]
    # Undirected graphs are NetworkX's to refuse.
    sig = inspect.signature(nx.strongly_connected_components)
    entry = snx.REGISTERED["strongly_connected_components"]
    assert "directed" in snx._declines(entry, sig, {"G": nx.path_graph(3)})


@pytest.mark.parametrize("directed", [False, True])
def test_hits_through_networkx_answers_as_networkx(directed):
    G = nx.gnp_random_graph(60, 0.08, seed=19, directed=directed)
    want_h, want_a = nx.hits(G, tol=1e-12, max_iter=1000)
    got_h, got_a = nx.hits(G, tol=1e-12, max_iter=1000, backend="semigraph")
    assert snx.calls["hits"] >= 1
    for got, want in ((got_h, want_h), (got_a, want_a)):
        assert got.keys() == want.keys()
        assert all(got[v] == pytest.approx(want[v], rel=1e-6, abs=1e-12) for v in want)
    # NetworkX's HITS reads the weights: a weighted graph is declined.
    nx.set_edge_attributes(G, 2.0, "weight")
    sig = inspect.signature(nx.hits)
    assert "weight" in snx._declines(snx.REGISTERED["hits"], sig, {"G": G})


def _is_path(G, path, source, target, weight):
    """Whether `path` runs from source to target along G's edges; its length."""
    assert path[0] == source and path[-1] == target
    return sum(G[u][v].get(weight, 1) if weight else 1 for u, v in zip(path, path[1:]))


@pytest.mark.parametrize("directed", [False, True])
def test_paths_through_networkx_are_shortest_paths(directed):
    G = nx.gnp_random_graph(60, 0.06, seed=23, directed=directed)
    rng = np.random.default_rng(4)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(1, 9))
    pairs = [(0, t) for t in range(1, 60, 3)]
    for s, t in pairs:
        for weight in (None, "weight"):
            try:
                want = nx.shortest_path_length(G, s, t, weight=weight)
            except nx.NetworkXNoPath:
                with pytest.raises(nx.NetworkXNoPath):
                    nx.shortest_path(G, s, t, weight=weight, backend="semigraph")
                continue
            got = nx.shortest_path(G, s, t, weight=weight, backend="semigraph")
            assert _is_path(G, got, s, t, weight) == want
        got = nx.bellman_ford_path(G, s, t, backend="semigraph") if nx.has_path(G, s, t) else None
        if got is not None:
            assert _is_path(G, got, s, t, "weight") == nx.bellman_ford_path_length(G, s, t)
    assert snx.calls["shortest_path"] >= 20 and snx.calls["bellman_ford_path"] >= 1
    # Every target (target=None): the tree's paths; every source (source=None): NetworkX's.
    for weight in (None, "weight"):
        want = nx.single_source_dijkstra_path_length(G, 0, weight=weight or (lambda *e: 1))
        got = nx.shortest_path(G, 0, weight=weight, backend="semigraph")
        assert got.keys() == want.keys()
        assert all(_is_path(G, p, 0, t, weight) == want[t] for t, p in got.items())
    can = snx.BackendInterface.can_run
    assert "source=None" in can("shortest_path", (G,), {"target": 3})
    assert "method" in can("shortest_path", (G, 0), {"method": "bfs"})
    g = semigraph.Graph(nx.to_scipy_sparse_array(G), backend="cpu")
    path, length = g.path(0, pairs[0][1], unweighted=True)
    assert length == nx.shortest_path_length(G, 0, pairs[0][1]) == len(path) - 1


def test_k_truss_through_networkx_answers_as_networkx():
    for seed in (1, 2):
        G = nx.gnp_random_graph(50, 0.2, seed=seed)
        G.add_nodes_from([99])
        for k in (2, 3, 4, 5):
            want = nx.k_truss(G, k)
            got = nx.k_truss(G, k, backend="semigraph")
            assert set(map(frozenset, got.edges)) == set(map(frozenset, want.edges))
            assert set(got.nodes) == set(want.nodes)
    assert snx.calls["k_truss"] >= 8
    G.add_edge(3, 3)
    sig = inspect.signature(nx.k_truss)
    assert "self loops" in snx._declines(snx.REGISTERED["k_truss"], sig, {"G": G, "k": 3})
    edges, support = semigraph.Graph(nx.to_scipy_sparse_array(nx.complete_graph(5)),
                                     backend="cpu").ktruss(k=5)
    assert edges.shape == (10, 2) and list(support) == [3] * 10


def test_jaccard_through_networkx_answers_as_networkx():
    G = nx.gnp_random_graph(40, 0.15, seed=5)
    G.add_nodes_from([50, 51])  # isolated: empty neighbourhoods
    pairs = [(0, 1), (2, 7), (50, 51), (3, 3), (50, 4), (9, 2)]
    for ebunch in (pairs, None):
        want = sorted(nx.jaccard_coefficient(G, ebunch))
        before = snx.calls.get("jaccard_coefficient", 0)
        got = sorted(nx.jaccard_coefficient(G, ebunch, backend="semigraph"))
        assert snx.calls["jaccard_coefficient"] == before + 1
        assert [(u, v) for u, v, _ in got] == [(u, v) for u, v, _ in want]
        for (_, _, x), (_, _, y) in zip(got, want):
            assert x == pytest.approx(y, rel=1e-12, abs=1e-15)
    # A node not in G, a generator of pairs, self loops, a directed graph: NetworkX's own.
    sig = inspect.signature(nx.jaccard_coefficient)
    entry = snx.REGISTERED["jaccard_coefficient"]
    assert "not in the graph" in snx._declines(entry, sig, {"G": G, "ebunch": [(0, 99)]})
    assert "iterator" in snx._declines(entry, sig, {"G": G, "ebunch": iter(pairs)})
    H = G.copy()
    H.add_edge(4, 4)
    assert "self loops" in snx._declines(entry, sig, {"G": H, "ebunch": pairs})


def test_similarities_of_pairs_and_edges():
    G = nx.gnp_random_graph(30, 0.2, seed=8)
    g = semigraph.Graph(nx.to_scipy_sparse_array(G), backend="cpu")
    nbrs = {v: set(G[v]) for v in G}
    pairs, jac = g.jaccard()  # every edge once, u < v
    assert [tuple(p) for p in pairs.tolist()] == sorted((min(e), max(e)) for e in G.edges)
    for (u, v), x in zip(pairs.tolist(), jac):
        assert x == pytest.approx(len(nbrs[u] & nbrs[v]) / len(nbrs[u] | nbrs[v]))
    given = np.array([[0, 5], [7, 7], [3, 29]])
    for name, f in (("overlap", lambda c, a, b: c / min(a, b)),
                    ("cosine", lambda c, a, b: c / (a * b) ** 0.5)):
        p, x = getattr(g, name)(pairs=given)
        assert p.tolist() == given.tolist()
        for (u, v), y in zip(given.tolist(), x):
            c, a, b = len(nbrs[u] & nbrs[v]), len(nbrs[u]), len(nbrs[v])
            assert y == pytest.approx(f(c, a, b) if min(a, b) else 0.0)
    with pytest.raises(IndexError):
        g.jaccard(pairs=[[0, 30]])


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [True, False])
def test_edge_betweenness_through_networkx_answers_as_networkx(directed, normalized):
    G = nx.gnp_random_graph(40, 0.1, seed=12, directed=directed)
    G.add_edge(3, 3)
    want = nx.edge_betweenness_centrality(G, normalized=normalized)
    before = snx.calls.get("edge_betweenness_centrality", 0)
    got = nx.edge_betweenness_centrality(G, normalized=normalized, backend="semigraph")
    assert snx.calls["edge_betweenness_centrality"] == before + 1
    assert got.keys() == want.keys()
    for e in want:
        assert got[e] == pytest.approx(want[e], rel=1e-12, abs=1e-15)
    sig = inspect.signature(nx.edge_betweenness_centrality)
    entry = snx.REGISTERED["edge_betweenness_centrality"]
    assert "k=" in snx._declines(entry, sig, {"G": G, "k": 5})
    assert snx._declines(entry, sig, {"G": G, "weight": "w"}) is None


def test_dijkstra_path_through_networkx_is_a_shortest_path():
    G = nx.gnp_random_graph(50, 0.08, seed=2, directed=True)
    rng = np.random.default_rng(6)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(1, 9))
    before = snx.calls.get("dijkstra_path", 0)
    for t in range(1, 50, 4):
        if not nx.has_path(G, 0, t):
            with pytest.raises(nx.NetworkXNoPath):
                nx.dijkstra_path(G, 0, t, backend="semigraph")
            continue
        got = nx.dijkstra_path(G, 0, t, backend="semigraph")
        assert _is_path(G, got, 0, t, "weight") == nx.dijkstra_path_length(G, 0, t)
    assert snx.calls["dijkstra_path"] > before


@pytest.mark.parametrize("directed", [False, True])
def test_single_source_paths_through_networkx_are_shortest_paths(directed):
    """Every path NetworkX's single-source path functions return, through semigraph: the
    same nodes reached, each path along G's edges with NetworkX's length; the distances
    equal; a target's pair; cutoff; an unreachable target's error."""
    G = nx.gnp_random_graph(70, 0.05, seed=31, directed=directed)
    G.add_node(70)  # isolated
    rng = np.random.default_rng(8)
    for u, v in G.edges:
        G[u][v]["weight"] = int(rng.integers(1, 9))
    names = ("single_source_shortest_path", "single_source_dijkstra_path",
             "single_source_bellman_ford_path", "single_source_dijkstra",
             "single_source_bellman_ford")
    before = {f: snx.calls.get(f, 0) for f in names}
    for s in (0, 5, 70):
        want = nx.single_source_shortest_path_length(G, s)
        got = nx.single_source_shortest_path(G, s, backend="semigraph")
        assert got.keys() == want.keys()
        assert all(_is_path(G, p, s, t, None) == want[t] for t, p in got.items())
        near = nx.single_source_shortest_path(G, s, cutoff=2, backend="semigraph")
        assert near.keys() == {t for t, d in want.items() if d <= 2}
        want = nx.single_source_dijkstra_path_length(G, s)
        for f in ("single_source_dijkstra_path", "single_source_bellman_ford_path"):
            got = getattr(nx, f)(G, s, backend="semigraph")
            assert got.keys() == want.keys()
            assert all(_is_path(G, p, s, t, "weight") == want[t] for t, p in got.items())
        near = nx.single_source_dijkstra_path(G, s, cutoff=7, backend="semigraph")
        assert near.keys() == {t for t, d in want.items() if d <= 7}
        for f in ("single_source_dijkstra", "single_source_bellman_ford"):
            dist, paths = getattr(nx, f)(G, s, backend="semigraph")
            assert dist == want and paths.keys() == want.keys()
            for t in (3, 40, s):
                if t in want:
                    d, p = getattr(nx, f)(G, s, t, backend="semigraph")
                    assert d == want[t] == _is_path(G, p, s, t, "weight")
                else:
                    with pytest.raises(nx.NetworkXNoPath):
                        getattr(nx, f)(G, s, t, backend="semigraph")
    assert all(snx.calls[f] > before[f] for f in names)
    # A negative cycle, as NetworkX.
    H = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path(H, 0, backend="semigraph")


def test_path_all_is_the_tree_of_every_path():
    a = _random(80, 0.05, seed=12)
    g = semigraph.Graph(a, backend="cpu")
    dist = csgraph.dijkstra(a, indices=7)
    hops = csgraph.shortest_path(a, indices=7, unweighted=True)
    for unweighted, want in ((False, dist), (True, hops)):
        parent, length = g.path(7, all=True, unweighted=unweighted)
        np.testing.assert_array_equal(length, want)
        assert parent[7] == -1
        for v in range(80):
            assert (parent[v] == -1) == (v == 7 or np.isinf(want[v]))
            if parent[v] >= 0:  # the parent's arc closes the path exactly
                arc = 1.0 if unweighted else a[parent[v], v]
                assert a[parent[v], v] != 0 and length[parent[v]] + arc == length[v]
    with pytest.raises(ValueError, match="target"):
        g.path(7)
    with pytest.raises(ValueError, match="without a target"):
        g.path(7, 3, all=True)


@pytest.mark.parametrize("function", ["adamic_adar_index", "resource_allocation_index",
                                      "preferential_attachment"])
def test_link_prediction_through_networkx_answers_as_networkx(function):
    G = nx.gnp_random_graph(45, 0.12, seed=9)
    G.add_nodes_from([60, 61])  # isolated: empty neighbourhoods
    pairs = [(0, 1), (2, 7), (60, 61), (60, 4), (9, 2), (5, 30)]
    if function != "adamic_adar_index":  # NetworkX divides by ln 1 for a degree-1 neighbour
        pairs.append((3, 3))
    f = getattr(nx, function)
    for ebunch in (pairs, None):
        want = sorted(f(G, ebunch))
        before = snx.calls.get(function, 0)
        got = sorted(f(G, ebunch, backend="semigraph"))
        assert snx.calls[function] == before + 1
        assert [(u, v) for u, v, _ in got] == [(u, v) for u, v, _ in want]
        for (_, _, x), (_, _, y) in zip(got, want):
            assert x == pytest.approx(y, rel=1e-12, abs=1e-15)
    # Every edge once (the registry's default pairs), through the generated method.
    g = semigraph.Graph(nx.to_scipy_sparse_array(G), backend="cpu")
    name = {"adamic_adar_index": "adamic_adar",
            "resource_allocation_index": "resource_allocation"}.get(function, function)
    p, x = getattr(g, name)()
    want = {(min(u, v), max(u, v)): s for u, v, s in f(G, G.edges)}
    assert {tuple(e): y for e, y in zip(p.tolist(), x.tolist())} == pytest.approx(want)
    H = G.copy()
    H.add_edge(4, 4)  # NetworkX counts a self loop twice in a degree
    sig = inspect.signature(f)
    assert "self loops" in snx._declines(snx.REGISTERED[function], sig, {"G": H, "ebunch": pairs})
    # Every non-edge of a large graph: NetworkX's generator, one pair at a time.
    big = nx.empty_graph(_ALL_PAIRS + 1)
    assert "every non-edge" in snx._declines(snx.REGISTERED[function], sig,
                                             {"G": big, "ebunch": None})
