"""Communities and combinatorial structure from Python and NetworkX: Louvain and Leiden
against NetworkX's modularity and Louvain, the modularity of a partition against NetworkX's,
independent sets, matchings, colorings and spanning forests by their definitions."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

import semigraph
import semigraph.nx  # noqa: F401  (registers the backend)


def _karate():
    G = nx.karate_club_graph()
    return G, nx.to_scipy_sparse_array(G, weight=None, format="csr").astype(np.float64)


@pytest.mark.parametrize("name", ["louvain", "leiden"])
def test_louvain_and_leiden_reach_networkx_modularity(name):
    G, a = _karate()
    labels = getattr(semigraph.Graph(a, backend="cpu"), name)()
    communities = [set(np.flatnonzero(labels == c).tolist()) for c in np.unique(labels)]
    q = nx.community.modularity(G, communities, weight=None)
    best = max(
        nx.community.modularity(G, nx.community.louvain_communities(G, weight=None, seed=s),
                                weight=None)
        for s in range(5)
    )
    assert q >= best - 0.01
    # Each community labelled by its smallest vertex; Leiden's connected.
    assert all(labels[v] <= v and labels[labels[v]] == labels[v] for v in range(len(labels)))
    if name == "leiden":
        assert all(nx.is_connected(G.subgraph(c)) for c in communities)


def test_modularity_matches_networkx_and_refuses_a_short_partition():
    G, a = _karate()
    g = semigraph.Graph(a, backend="cpu")
    labels = np.array([v % 4 for v in range(34)])
    communities = [set(np.flatnonzero(labels == c).tolist()) for c in range(4)]
    for resolution in (1.0, 0.5):
        want = nx.community.modularity(G, communities, weight=None, resolution=resolution)
        assert g.modularity(labels, resolution=resolution) == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError, match="partition"):
        g.modularity(labels[:10])


def test_networkx_dispatches_the_new_functions():
    G, _ = _karate()
    calls = dict(semigraph.nx.calls)
    parts = nx.community.louvain_communities(G, weight=None, backend="semigraph")
    assert nx.community.is_partition(G, parts)
    q = nx.community.modularity(G, parts, weight=None, backend="semigraph")
    assert q == pytest.approx(nx.community.modularity(G, parts, weight=None), abs=1e-12)
    leiden = hasattr(nx.community, "leiden_communities")  # NetworkX 3.5 on
    if leiden:
        parts = nx.community.leiden_communities(G, weight=None, backend="semigraph")
        assert all(nx.is_connected(G.subgraph(c)) for c in parts)
    mis = nx.maximal_independent_set(G, backend="semigraph")
    assert G.subgraph(mis).number_of_edges() == 0
    assert all(any(u in mis for u in G[v]) for v in set(G) - set(mis))
    m = nx.maximal_matching(G, backend="semigraph")
    assert nx.is_maximal_matching(G, m)
    for f in ("louvain_communities", "modularity", "maximal_independent_set",
              "maximal_matching") + (("leiden_communities",) if leiden else ()):
        assert semigraph.nx.calls.get(f, 0) > calls.get(f, 0), f


def test_coloring_and_spanning_forest_by_definition():
    rng = np.random.default_rng(3)
    a = sp.random(300, 300, density=0.03, random_state=4, format="csr")
    a = (a + a.T).tocsr()
    a.data = np.round(rng.uniform(1, 50, a.nnz))
    a = sp.triu(a, 1)
    a = (a + a.T).tocsr()
    g = semigraph.Graph(a, backend="cpu")
    colors = g.coloring(seed=5)
    coo = a.tocoo()
    assert (colors[coo.row] != colors[coo.col]).all()
    edges, weights = g.msf()
    want = csgraph.minimum_spanning_tree(a).sum()
    assert weights.sum() == pytest.approx(want)
    assert len(edges) == a.shape[0] - csgraph.connected_components(a)[0]


def test_networkx_maximum_flow_value_dispatches_and_agrees():
    G = nx.gnm_random_graph(60, 200, seed=3, directed=True)
    for u, v in G.edges:
        G[u][v]["capacity"] = (u * 7 + v) % 9 + 1
    before = semigraph.nx.calls.get("maximum_flow_value", 0)
    for s, t in [(0, 59), (5, 17), (17, 5)]:
        want = nx.maximum_flow_value(G, s, t)
        assert nx.maximum_flow_value(G, s, t, backend="semigraph") == want
    assert semigraph.nx.calls["maximum_flow_value"] == before + 3
    with pytest.raises(nx.NetworkXError):
        nx.maximum_flow_value(G, 0, "missing", backend="semigraph")
