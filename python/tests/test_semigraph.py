"""semigraph's Python package against SciPy and NetworkX, on the repository's graphs and on
random ones, on every backend that opens here (the GPU where there is one: set
SEMIGRAPH_REQUIRE_GPU=1 to make a missing GPU a failure instead of a skip)."""

import os
import pathlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import semigraph

DATA = pathlib.Path(os.environ.get("SEMIGRAPH_DATA", pathlib.Path(__file__).parents[2] / "data"))


def backends():
    ok, why = semigraph.gpu_status()
    gpu = pytest.param("gpu")
    if not ok:
        if os.environ.get("SEMIGRAPH_REQUIRE_GPU") == "1":
            gpu = pytest.param("gpu")  # runs and fails with the reason
        else:
            gpu = pytest.param("gpu", marks=pytest.mark.skip(reason=f"no GPU backend: {why}"))
    return ["cpu", gpu]


BACKENDS = backends()


def random_graph(n, m, seed, lo=1, hi=100, directed=True):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    w = rng.integers(lo, hi + 1, m).astype(np.float64)
    # Parallel arcs: the smallest weight kept (what shortest paths see), loops removed.
    g = {}
    for u, v, x in zip(src, dst, w):
        if u != v:
            g[(u, v)] = min(g.get((u, v), np.inf), x)
            if not directed:
                g[(v, u)] = min(g.get((v, u), np.inf), x)
    keys = list(g)
    rows = np.array([k[0] for k in keys], dtype=np.int64)
    cols = np.array([k[1] for k in keys], dtype=np.int64)
    vals = np.array([g[k] for k in keys])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


GRAPHS = {
    "random-directed": lambda: random_graph(300, 1500, 1),
    "random-undirected": lambda: random_graph(250, 900, 2, directed=False),
    "sparse-many-components": lambda: random_graph(400, 200, 3),
    "ny-road": lambda: semigraph.read_graph(DATA / "dimacs9-usa-road-pace16" / "NY.gr.xz"),
    "rome99": lambda: semigraph.read_graph(DATA / "dimacs9-rome99" / "rome99.gr.xz"),
    "karate": lambda: semigraph.read_graph(DATA / "lagraph" / "karate.mtx"),
}


@pytest.fixture(scope="module", params=sorted(GRAPHS))
def graph(request):
    return request.param, GRAPHS[request.param]()


def nx_graph(a, directed=True):
    return nx.from_scipy_sparse_array(a, create_using=nx.DiGraph if directed else nx.Graph)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bfs_levels_and_parents_match_scipy(graph, backend):
    name, a = graph
    g = semigraph.Graph(a, backend=backend)
    assert g.backend == backend
    for s in [0, a.shape[0] // 2]:
        levels, parents = g.bfs(s)
        assert levels.dtype == parents.dtype == np.int32
        hops = csg.shortest_path(a, unweighted=True, indices=s)
        want = np.where(np.isinf(hops), -1, hops).astype(np.int64)
        np.testing.assert_array_equal(levels, want, err_msg=name)
        assert parents[s] == -1
        # Each parent is the smallest-id in-neighbour one level closer.
        at = a.tocsc()
        for v in np.flatnonzero(levels > 0)[:500]:
            ins = at.indices[at.indptr[v] : at.indptr[v + 1]]
            closer = ins[levels[ins] == levels[v] - 1]
            assert parents[v] == closer.min(), (name, v)
        assert (parents[levels == -1] == -1).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_shot_bfs_builds_the_pattern_only_and_agrees(graph, backend):
    name, a = graph
    s = a.shape[0] // 2
    want = semigraph.Graph(a, backend=backend).bfs(s)
    # A canonical matrix, the same with int64 indices, and a non-canonical one (rows
    # reversed, every entry twice, values that a weighted build would refuse: NaN).
    b = a.copy()
    b.indptr, b.indices = b.indptr.astype(np.int64), b.indices.astype(np.int64)
    cols = [a.indices[a.indptr[r] : a.indptr[r + 1]][::-1] for r in range(a.shape[0])]
    cols = np.concatenate([np.r_[x, x] for x in cols]).astype(np.int32)
    c = sp.csr_matrix(
        (np.full(2 * a.nnz, np.nan), cols, 2 * a.indptr), shape=a.shape, copy=False
    )
    assert not c.has_sorted_indices or a.nnz == 0
    for m in [a, b, c]:
        levels, parents = semigraph.bfs(m, s, backend=backend)
        np.testing.assert_array_equal(levels, want[0], err_msg=name)
        np.testing.assert_array_equal(parents, want[1], err_msg=name)
    if backend == "cpu":
        with pytest.raises(ValueError, match="GPU memory"):
            semigraph.bfs(a, s, backend="cpu", device=True)
    else:
        dl, dp = semigraph.bfs(a, s, backend="gpu", device=True)
        np.testing.assert_array_equal(dl.get(), want[0], err_msg=name)
        np.testing.assert_array_equal(dp.get(), want[1], err_msg=name)
    with pytest.raises(IndexError):
        semigraph.bfs(a, a.shape[0], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_bfs_results_stay_on_the_gpu_and_export_without_copy(graph, backend):
    name, a = graph
    g = semigraph.Graph(a, backend=backend)
    s = a.shape[0] // 3
    if backend == "cpu":
        for call in [lambda: g.bfs(s, device=True), lambda: g.pagerank(device=True),
                     lambda: g.wcc(device=True)]:
            with pytest.raises(ValueError, match="on the GPU"):
                call()
        return
    levels, parents = g.bfs(s)
    dl, dp = g.bfs(s, device=True)
    assert isinstance(dl, semigraph.DeviceArray)
    assert len(dl) == dl.shape[0] == a.shape[0] and dl.dtype == "int32"
    cai = dl.__cuda_array_interface__
    assert cai["version"] == 3 and cai["typestr"] == "<i4" and cai["shape"] == (a.shape[0],)
    assert cai["data"][0] != 0 and cai["strides"] is None
    # The same answers as the host results, copied back.
    np.testing.assert_array_equal(dl.get(), levels, err_msg=name)
    np.testing.assert_array_equal(dp.get(), parents, err_msg=name)
    # Consumers view the device memory itself (same address, no copy).
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:
        c = cupy.asarray(dl)
        assert c.data.ptr == cai["data"][0]
        np.testing.assert_array_equal(cupy.asnumpy(c), levels)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.cuda.is_available():
        t = torch.as_tensor(dp, device="cuda")
        assert t.data_ptr() == dp.__cuda_array_interface__["data"][0]
        np.testing.assert_array_equal(t.cpu().numpy(), parents)
    # PageRank's ranks (float64) and WCC's labels (int32) likewise.
    ranks = g.pagerank(iterations=20, tolerance=None, device=True)
    assert ranks.dtype == "float64" and ranks.__cuda_array_interface__["typestr"] == "<f8"
    np.testing.assert_allclose(ranks.get(), g.pagerank(iterations=20, tolerance=None), rtol=1e-12)
    labels = g.wcc(device=True)
    assert labels.dtype == "int32"
    np.testing.assert_array_equal(labels.get(), g.wcc())
    if cupy is not None:
        np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(labels)), g.wcc())


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("algorithm", ["auto", "bellman-ford", "delta-stepping", "fixpoint"])
def test_sssp_matches_scipy_dijkstra(graph, backend, algorithm):
    name, a = graph
    s = 1
    dist, pred = semigraph.sssp(a, s, algorithm=algorithm, backend=backend)
    want = csg.dijkstra(a, indices=s)
    np.testing.assert_allclose(dist, want, rtol=1e-12, err_msg=name)
    # Predecessors lie on shortest paths.
    assert pred[s] == -1
    coo = a.tocoo()
    w = {}
    for u, v, x in zip(coo.row, coo.col, coo.data):
        w[(u, v)] = min(w.get((u, v), np.inf), x)
    for v in np.flatnonzero(np.isfinite(dist))[:500]:
        if v != s:
            u = pred[v]
            assert dist[u] + w[(u, v)] == pytest.approx(dist[v]), (name, v)
    assert (pred[np.isinf(dist)] == -1).all()


@pytest.mark.parametrize("backend", BACKENDS)
def test_negative_cycles_are_named(backend):
    a = sp.csr_matrix(
        (np.array([1.0, -3.0, 1.0, 2.0]), (np.array([0, 1, 2, 2]), np.array([1, 2, 1, 3]))),
        shape=(4, 4),
    )
    with pytest.raises(semigraph.NegativeCycleError) as e:
        semigraph.sssp(a, 0, backend=backend)
    assert sorted(e.value.cycle) == [1, 2]
    assert "negative cycle" in str(e.value)
    with pytest.raises(ValueError, match="non-negative"):
        semigraph.sssp(a, 0, algorithm="delta-stepping", backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_apsp_matches_floyd_warshall(backend):
    a = random_graph(60, 300, 7)
    d, nxt = semigraph.apsp(a, backend=backend)
    np.testing.assert_allclose(d, csg.floyd_warshall(a), rtol=1e-12)
    # Following next hops walks a shortest path.
    i, j = np.argwhere(np.isfinite(d) & (d > 0))[5]
    total, u = 0.0, i
    while u != j:
        v = nxt[u, j]
        total += a[u, v]
        u = v
    assert total == pytest.approx(d[i, j])
    assert (nxt[np.isinf(d)] == -1).all()
    d2, none = semigraph.apsp(a, next_hop=False, backend=backend)
    assert none is None
    np.testing.assert_array_equal(d, d2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_pagerank_wcc_lcc_triangles_match_networkx(graph, backend):
    name, a = graph
    g = semigraph.Graph(a, backend=backend)
    # PageRank: networkx's pagerank spreads dangling rank evenly too; weights ignored.
    pat = a.copy()
    pat.sum_duplicates()
    pat.data[:] = 1.0
    d = nx.DiGraph(nx_graph(pat))
    want = nx.pagerank(d, alpha=0.85, tol=1e-13, max_iter=1000, weight=None)
    got = g.pagerank(tolerance=1e-13, iterations=1000)
    np.testing.assert_allclose(got, [want[v] for v in range(a.shape[0])], rtol=1e-6, atol=1e-12)
    assert got.sum() == pytest.approx(1.0)
    # Components: the labels are the smallest vertex of each weak component.
    labels = g.wcc()
    k, comp = csg.connected_components(a, directed=True, connection="weak")
    smallest = np.full(k, a.shape[0])
    np.minimum.at(smallest, comp, np.arange(a.shape[0]))
    np.testing.assert_array_equal(labels, smallest[comp], err_msg=name)
    # Triangles of the undirected simple graph.
    u = nx.Graph(nx_graph(pat))
    u.remove_edges_from(nx.selfloop_edges(u))
    total, per = g.triangles()
    want_t = nx.triangles(u)
    np.testing.assert_array_equal(per, [want_t[v] for v in range(a.shape[0])])
    assert total == sum(want_t.values()) // 3
    # LCC of an undirected (symmetric) graph is the usual clustering coefficient.
    if (abs(pat - pat.T) > 0).nnz == 0:
        want_c = nx.clustering(u)
        np.testing.assert_allclose(g.lcc(), [want_c[v] for v in range(a.shape[0])], rtol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_widest_paths_reachability_and_cdlp(backend):
    a = random_graph(200, 800, 11)
    g = semigraph.Graph(a, backend=backend)
    s = 3
    reach = g.reachability(s)
    want = np.isfinite(csg.shortest_path(a, unweighted=True, indices=s))
    np.testing.assert_array_equal(reach, want)
    # Widest paths by brute force: the largest bottleneck over paths (a max-min Bellman-Ford).
    coo = a.tocoo()
    width = np.full(a.shape[0], -np.inf)
    width[s] = np.inf
    for _ in range(a.shape[0]):
        new = width.copy()
        np.maximum.at(new, coo.col, np.minimum(width[coo.row], coo.data))
        if (new == width).all():
            break
        width = new
    np.testing.assert_array_equal(g.widest_path(s), width)
    labels = g.cdlp(iterations=5)
    assert labels.shape == (a.shape[0],) and labels.dtype == np.int32
    assert set(labels) <= set(range(a.shape[0]))


@pytest.mark.parametrize("backend", BACKENDS)
def test_ldbc_example_pagerank_and_cdlp(backend):
    """LDBC's official example outputs (directed): PageRank within 1e-4, CDLP exactly."""
    base = DATA / "ldbc-graphalytics"
    a, labels = semigraph.read_graph(base / "example-directed.v", return_labels=True)
    pos = {int(l): i for i, l in enumerate(labels)}

    def expected(kind, cast):
        out = np.zeros(a.shape[0])
        for line in (base / f"example-directed-{kind}").read_text().split("\n"):
            if line.strip():
                v, x = line.split()
                out[pos[int(v)]] = cast(x)
        return out

    pr = semigraph.pagerank(a, iterations=2, tolerance=None, backend=backend)
    np.testing.assert_allclose(pr, expected("PR", float), rtol=1e-4)
    cd = semigraph.cdlp(a, iterations=2, backend=backend)
    np.testing.assert_array_equal(labels[cd], expected("CDLP", int))


def test_read_graph_keeps_every_arc_and_its_labels(tmp_path):
    p = tmp_path / "g.el"
    p.write_text("# a multigraph\n0 2 5\n0 1 3\n0 2 1\n2 0 4\n")
    a = semigraph.read_graph(p)
    assert a.shape == (3, 3) and a.nnz == 4 and a.dtype == np.float64
    assert list(a.indptr) == [0, 3, 3, 4]
    assert list(a.indices) == [1, 2, 2, 0] and list(a.data) == [3, 5, 1, 4]
    # Shortest paths keep the smaller parallel arc.
    dist, _ = semigraph.sssp(a, 0, backend="cpu")
    assert list(dist) == [0.0, 3.0, 1.0]
    # SciPy's Dijkstra on the same matrix agrees (float64 data: parallel arcs not summed).
    np.testing.assert_array_equal(csg.dijkstra(a, indices=0), dist)
    u = semigraph.read_graph(p, undirected=True)
    assert u.nnz == 8
    huge = tmp_path / "huge.el"
    huge.write_text(f"0 1 {2**60 + 1}\n1 0 3\n")
    h = semigraph.read_graph(huge)
    assert h.dtype == np.int64 and h.data[0] == 2**60 + 1
    b, labels = semigraph.read_graph(DATA / "lagraph" / "karate.mtx", return_labels=True)
    assert labels is None and b.shape == (34, 34) and b.nnz == 156
    # The binary format round trip: SciPy's own save_npz is read back.
    sp.save_npz(tmp_path / "k.npz", b.tocsr())
    c = semigraph.read_graph(tmp_path / "k.npz")
    assert (abs(c - b) > 0).nnz == 0


def test_errors_are_python_exceptions(tmp_path):
    with pytest.raises(FileNotFoundError):
        semigraph.read_graph(tmp_path / "missing.el")
    bad = tmp_path / "bad.gr"
    bad.write_text("p sp 2 1\na 1 3 4\n")
    with pytest.raises(ValueError, match=r"bad.gr:2"):
        semigraph.read_graph(bad)
    a = random_graph(10, 30, 5)
    with pytest.raises(IndexError, match="out of range"):
        semigraph.bfs(a, 10, backend="cpu")
    with pytest.raises(ValueError, match="square"):
        semigraph.bfs(sp.csr_matrix((3, 4)), 0, backend="cpu")
    with pytest.raises(ValueError, match="backend"):
        semigraph.bfs(a, 0, backend="tpu")
    with pytest.raises(ValueError, match="algorithm"):
        semigraph.sssp(a, 0, algorithm="dijkstra", backend="cpu")
    nan = a.copy()
    nan.data[0] = np.nan
    with pytest.raises(ValueError):
        semigraph.sssp(nan, 0, backend="cpu")
    if not semigraph.gpu_available():
        with pytest.raises(semigraph.GpuUnavailable):
            semigraph.Graph(a, backend="gpu")


def test_inputs_of_every_kind():
    """Dense arrays, COO, int64 indices, bool and int data: what csr_matrix accepts."""
    dense = np.array([[0, 2, 0], [0, 0, 1], [4, 0, 0]])
    want = csg.dijkstra(sp.csr_matrix(dense.astype(float)), indices=0)
    for a in [dense, sp.coo_matrix(dense), sp.csr_matrix(dense.astype(np.int32))]:
        np.testing.assert_array_equal(semigraph.sssp(a, 0, backend="cpu")[0], want)
    big = sp.csr_matrix(dense.astype(float))
    big.indices = big.indices.astype(np.int64)
    big.indptr = big.indptr.astype(np.int64)
    np.testing.assert_array_equal(semigraph.sssp(big, 0, backend="cpu")[0], want)
    levels, _ = semigraph.bfs(sp.csr_matrix(dense.astype(bool)), 0, backend="cpu")
    assert list(levels) == [0, 1, 2]
    empty = semigraph.Graph(sp.csr_matrix((0, 0)), backend="cpu")
    assert empty.n == 0 and len(empty.wcc()) == 0


def test_version_and_gpu_status():
    assert semigraph.__version__ == "0.1.0"
    ok, why = semigraph.gpu_status()
    assert ok == semigraph.gpu_available()
    assert (why is None) == ok


def test_networkx_backend_dispatches_and_agrees():
    """`backend="semigraph"` runs the supported NetworkX functions on semigraph, with
    NetworkX's results; calls it does not support fall back to NetworkX."""
    nx.config.warnings_to_ignore.add("cache")
    G = nx.karate_club_graph()
    for u, v in G.edges:
        G[u][v]["weight"] = 1 + (u * v) % 7
    D = nx.gnp_random_graph(120, 0.04, seed=4, directed=True)
    pr = nx.pagerank(D, backend="semigraph", tol=1e-10)
    want = nx.pagerank(D, backend="networkx", tol=1e-10)
    assert pr.keys() == want.keys()
    assert max(abs(pr[v] - want[v]) for v in pr) < 1e-8
    assert sorted(map(sorted, nx.connected_components(G, backend="semigraph"))) == sorted(
        map(sorted, nx.connected_components(G))
    )
    assert nx.number_weakly_connected_components(D, backend="semigraph") == (
        nx.number_weakly_connected_components(D)
    )
    assert nx.triangles(G, backend="semigraph") == nx.triangles(G)
    assert nx.triangles(G, 0, backend="semigraph") == nx.triangles(G, 0)
    c, want_c = nx.clustering(G, backend="semigraph"), nx.clustering(G)
    assert max(abs(c[v] - want_c[v]) for v in G) < 1e-12
    assert nx.single_source_shortest_path_length(D, 3, backend="semigraph") == (
        nx.single_source_shortest_path_length(D, 3)
    )
    assert nx.single_source_dijkstra_path_length(G, 0, backend="semigraph") == (
        nx.single_source_dijkstra_path_length(G, 0)
    )
    N = nx.DiGraph([(0, 1, {"weight": 1}), (1, 2, {"weight": -3}), (2, 1, {"weight": 1})])
    with pytest.raises(nx.NetworkXUnbounded):
        nx.single_source_bellman_ford_path_length(N, 0, backend="semigraph")
    with pytest.raises(nx.NodeNotFound):
        nx.single_source_shortest_path_length(D, "nope", backend="semigraph")
    # Weighted PageRank is declined by semigraph: NetworkX's own result comes back.
    from semigraph.nx import BackendInterface

    assert BackendInterface.can_run("pagerank", (G,), {"weight": "weight"}) is not True
    assert BackendInterface.can_run("clustering", (D,), {}) is not True
    assert BackendInterface.can_run("load_centrality", (G,), {}) is False


def test_networkx_runs_semigraph_with_no_code_change():
    """NETWORKX_BACKEND_PRIORITY=semigraph (NetworkX >= 3.4; NETWORKX_AUTOMATIC_BACKENDS
    before): plain NetworkX calls on NetworkX graphs run on semigraph."""
    import subprocess
    import sys

    code = (
        "import networkx as nx, semigraph.nx as b\n"
        "calls = []\n"
        "run = b.BackendInterface.triangles\n"
        "b.BackendInterface.triangles = staticmethod(lambda *a, **k: calls.append(1) or run(*a, **k))\n"
        "G = nx.karate_club_graph()\n"
        "t = nx.triangles(G)\n"
        "assert t[0] == 18, t[0]\n"
        "print(len(calls))\n"
    )
    env = dict(os.environ, NETWORKX_BACKEND_PRIORITY="semigraph", NETWORKX_AUTOMATIC_BACKENDS="semigraph")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1", out


@pytest.mark.parametrize("backend", BACKENDS)
def test_spmv_and_spgemm_in_semirings(backend):
    rng = np.random.default_rng(8)
    a = sp.random(40, 30, density=0.1, random_state=1, format="csr") * 10
    b = sp.random(30, 50, density=0.1, random_state=2, format="csr") * 10
    a.data, b.data = np.round(a.data) + 1, np.round(b.data) + 1
    x = rng.integers(0, 9, 30).astype(np.float64)
    # plus-times is SciPy's product.
    np.testing.assert_allclose(semigraph.spmv(a, x, "plus-times:f64", backend=backend), a @ x)
    c = semigraph.spgemm(a, b, "plus-times:f64", backend=backend)
    assert (abs(c - a @ b) > 1e-9).nnz == 0
    # min-plus: y[i] = min_j a[i, j] + x[j]; rows without entries get inf.
    want = np.full(40, np.inf)
    coo = a.tocoo()
    np.minimum.at(want, coo.row, coo.data + x[coo.col])
    np.testing.assert_array_equal(semigraph.spmv(a, x, "min-plus:f64", backend=backend), want)
    # An integer semiring returns int64.
    y = semigraph.spmv(a, x, "min-plus:i32", backend=backend)
    assert y.dtype == np.int64 and (y[np.isfinite(want)] == want[np.isfinite(want)]).all()
    # A mask keeps (or with complement drops) its positions only.
    m = sp.random(40, 50, density=0.3, random_state=3, format="csr")
    full = (a @ b).tocsr()
    kept = semigraph.spgemm(a, b, mask=m, backend=backend)
    assert (abs(kept - full.multiply(m != 0)) > 1e-9).nnz == 0
    dropped = semigraph.spgemm(a, b, mask=m, complement=True, backend=backend)
    assert (abs(kept + dropped - full) > 1e-9).nnz == 0
    # Triangles of a graph by a masked product, as the docstring says.
    u = random_graph(80, 400, 9, directed=False)
    low = sp.tril(u, k=-1).tocsr()
    low.data[:] = 1
    t = semigraph.spgemm(low, low.T.tocsr(), mask=low, backend=backend).sum()
    assert t == semigraph.triangles(u, backend=backend)[0]
    assert "min-plus:f32" in semigraph.semirings()
    with pytest.raises(ValueError, match="built-in"):
        semigraph.spmv(a, x, "max-times:u8", backend=backend)
    with pytest.raises(ValueError, match="inner sizes"):
        semigraph.spgemm(a, a, backend=backend)
    with pytest.raises(ValueError, match="cannot represent"):
        semigraph.spmv(a, x + 0.5, "min-plus:i32", backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ctrl_c_stops_a_long_run_and_the_graph_goes_on(backend):
    import _thread
    import threading
    import time

    a = random_graph(20_000, 100_000, 12)
    g = semigraph.Graph(a, backend=backend)
    threading.Timer(0.3, _thread.interrupt_main).start()
    # Should that interrupt be lost (seen once in a whole local run, never alone), a second
    # one ends the run and the time check below fails, rather than the run going on for hours.
    watchdog = threading.Timer(10.0, _thread.interrupt_main)
    watchdog.start()
    t = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        g.pagerank(iterations=10**9, tolerance=None)  # hours without the interrupt
    elapsed = time.perf_counter() - t
    watchdog.cancel()
    assert elapsed < 5
    # The stop was withdrawn: the next run goes to its end.
    levels, _ = g.bfs(0)
    assert levels[0] == 0
    np.testing.assert_allclose(g.pagerank(iterations=3, tolerance=None).sum(), 1.0)
