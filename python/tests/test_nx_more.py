"""The NetworkX functions written over semigraph's traversals and algebra (semigraph/_nx_more.py)
against NetworkX's own answers on random graphs, and proof that semigraph answered them."""

import random

import pytest

nx = pytest.importorskip("networkx")
import semigraph.nx as snx  # noqa: E402


def graphs(directed, seed):
    rng = random.Random(seed)
    G = nx.gnp_random_graph(30, 0.08, seed=seed, directed=directed)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 9)
    G.add_node(99)  # an isolate
    if directed:
        G.add_edge(5, 5, weight=2)  # a loop
    return G


CASES = [
    ("has_path", lambda G: (G, 0, 7)),
    ("shortest_path_length", lambda G: (G, 0)),
    ("shortest_path_length", lambda G: (G, 0, None, "weight")),
    ("dijkstra_path_length", lambda G: (G, 0, next(iter(nx.descendants(G, 0)), 0))),
    ("bellman_ford_path_length", lambda G: (G, 0, next(iter(nx.descendants(G, 0)), 0))),
    ("single_target_shortest_path_length", lambda G: (G, 3)),
    ("descendants", lambda G: (G, 2)),
    ("ancestors", lambda G: (G, 2)),
    ("degree_centrality", lambda G: (G,)),
    ("number_of_isolates", lambda G: (G,)),
    ("is_isolate", lambda G: (G, 99)),
]
DIRECTED = [
    ("is_weakly_connected", lambda G: (G,)),
    ("is_strongly_connected", lambda G: (G,)),
    ("in_degree_centrality", lambda G: (G,)),
    ("out_degree_centrality", lambda G: (G,)),
    ("reciprocity", lambda G: (G,)),
    ("reciprocity", lambda G: (G, [0, 1, 5])),
    ("overall_reciprocity", lambda G: (G,)),
    ("is_directed_acyclic_graph", lambda G: (G,)),
]
UNDIRECTED = [
    ("is_connected", lambda G: (G,)),
    ("node_connected_component", lambda G: (G, 4)),
    ("transitivity", lambda G: (G,)),
    ("average_clustering", lambda G: (G,)),
    ("average_clustering", lambda G: (G, None, None, False)),
]


def check(name, args):
    snx.calls.clear()
    want = getattr(nx, name)(*args)
    got = getattr(nx, name)(*args, backend="semigraph")
    if hasattr(want, "__next__") or isinstance(want, type((x for x in []))):
        want, got = list(want), list(got)
    assert got == pytest.approx(want) if isinstance(want, float) else got == want
    assert snx.calls, f"{name} was not answered by semigraph"


@pytest.mark.parametrize("name,args", CASES + DIRECTED)
@pytest.mark.parametrize("seed", [1, 2])
def test_directed(name, args, seed):
    check(name, args(graphs(True, seed)))


@pytest.mark.parametrize("name,args", CASES + UNDIRECTED)
@pytest.mark.parametrize("seed", [1, 2])
def test_undirected(name, args, seed):
    check(name, args(graphs(False, seed)))


def test_generators():
    G = graphs(True, 3)
    for name in ["all_pairs_shortest_path_length", "all_pairs_dijkstra_path_length",
                 "all_pairs_bellman_ford_path_length"]:
        snx.calls.clear()
        assert dict(getattr(nx, name)(G, backend="semigraph")) == dict(getattr(nx, name)(G))
        assert snx.calls
    snx.calls.clear()
    assert sorted(nx.isolates(G, backend="semigraph")) == sorted(nx.isolates(G)) == [99]
    assert snx.calls


def test_a_dag_and_errors():
    D = nx.DiGraph([(0, 1), (1, 2), (0, 2)])
    assert nx.is_directed_acyclic_graph(D, backend="semigraph")
    with pytest.raises(nx.NetworkXPointlessConcept):
        nx.is_connected(nx.Graph(), backend="semigraph")
    with pytest.raises(nx.NodeNotFound):
        nx.has_path(D, 0, 7, backend="semigraph")
    with pytest.raises(nx.NetworkXNoPath):
        nx.shortest_path_length(D, 2, 0, backend="semigraph")
    with pytest.raises(nx.NetworkXError):
        nx.descendants(D, 9, backend="semigraph")
