"""The algebra from Python (semigraph.Matrix, Vector and their operations) against NumPy and
SciPy computing the same definitions, on every backend that opens here."""

import os

import numpy as np
import pytest
import scipy.sparse as sp

import semigraph as sg

REQUIRE_GPU = os.environ.get("SEMIGRAPH_REQUIRE_GPU") == "1"


def rand(n, m, density, seed, low=1, high=9):
    rng = np.random.default_rng(seed)
    a = sp.random(n, m, density=density, random_state=rng, format="csr")
    a.data = rng.integers(low, high, a.nnz).astype(np.float64)
    return a


def minplus_mxv(a, x):
    """y(i) = min over the entries A(i, k) of A(i, k) + x(k)."""
    y = np.full(a.shape[0], np.inf)
    for i in range(a.shape[0]):
        for p in range(a.indptr[i], a.indptr[i + 1]):
            y[i] = min(y[i], a.data[p] + x[a.indices[p]])
    return y


@pytest.fixture(params=["cpu", "gpu"])
def backend(request):
    """Each backend; the GPU's cases are skipped with the reason where none opens (they fail
    instead under SEMIGRAPH_REQUIRE_GPU=1)."""
    if request.param == "gpu" and not REQUIRE_GPU:
        ok, why = sg.gpu_status()
        if not ok:
            pytest.skip(f"no GPU here: {why}")
    return request.param


def test_matrix_round_trip_and_properties(backend):
    a = rand(30, 20, 0.2, 1)
    m = sg.Matrix(a, "plus-times:f64", backend=backend)
    assert m.shape == (30, 20) and m.nvals == a.nnz and m.backend == backend
    assert m.semiring == "plus-times:f64"
    assert (m.to_scipy() != a).nnz == 0
    assert (m.T.to_scipy() != a.T.tocsr()).nnz == 0
    assert "30x20" in repr(m)


@pytest.mark.parametrize("semiring", ["plus-times:f32", "plus-times:i32", "plus-times:u32",
                                      "plus-times:i64", "plus-times:f16"])
def test_value_types(backend, semiring):
    a = rand(12, 12, 0.3, 2)
    m = sg.Matrix(a, semiring, backend=backend)
    x = sg.Vector(np.arange(12) % 3, semiring, backend=backend)
    y = sg.mxv(m, x).to_numpy()
    assert np.array_equal(y.astype(np.float64), a @ (np.arange(12) % 3))
    assert y.dtype == {"f32": np.float32, "i32": np.int32, "u32": np.uint32,
                       "i64": np.int64, "f16": np.float32}[semiring.split(":")[1]]


def test_mxv_plus_times_and_min_plus(backend):
    a = rand(50, 40, 0.1, 3)
    x = np.random.default_rng(4).integers(0, 5, 40).astype(np.float64)
    m = sg.Matrix(a, backend=backend)
    assert np.array_equal(sg.mxv(m, sg.Vector(x, backend=backend)).to_numpy(), a @ x)
    assert np.array_equal((m @ sg.Vector(x, backend=backend)).to_numpy(), a @ x)
    # The same matrix in min-plus: converted for the call; the vector's 0s are entries there.
    y = sg.mxv(m, sg.Vector(x, "min-plus:f64", backend=backend), "min-plus:f64")
    assert y.semiring == "min-plus:f64"
    assert np.array_equal(y.to_numpy(), minplus_mxv(a, x))


def test_vxm_is_the_transposed_product(backend):
    a = rand(40, 30, 0.1, 5)
    x = np.zeros(40)
    x[[1, 7, 20]] = [2.0, 3.0, 1.0]
    y = sg.vxm(sg.Vector(x, backend=backend), sg.Matrix(a, backend=backend))
    assert y.size == 30
    assert np.allclose(y.to_numpy(), a.T @ x)


def test_masks_complement_and_accumulate(backend):
    a = rand(30, 30, 0.2, 6)
    x = np.arange(30, dtype=np.float64)
    keep = np.zeros(30)
    keep[::3] = 1
    m, xv = sg.Matrix(a, backend=backend), sg.Vector(x, backend=backend)
    mk = sg.Vector(keep, backend=backend)
    full = a @ x
    y = sg.mxv(m, xv, mask=mk).to_numpy()
    assert np.array_equal(y, np.where(keep != 0, full, 0))
    y = sg.mxv(m, xv, mask=mk, complement=True).to_numpy()
    assert np.array_equal(y, np.where(keep == 0, full, 0))
    # in place: where the mask forbids, out keeps its values; accum adds.
    out = sg.Vector(np.full(30, 5.0), backend=backend)
    assert sg.mxv(m, xv, mask=mk, out=out) is out
    assert np.array_equal(out.to_numpy(), np.where(keep != 0, full, 5.0))
    out = sg.Vector(np.full(30, 5.0), backend=backend)
    sg.mxv(m, xv, mask=mk, accum=True, out=out)
    assert np.array_equal(out.to_numpy(), np.where(keep != 0, full + 5.0, 5.0))
    # out aliasing an input: the input is read as it was.
    v = sg.Vector(x, backend=backend)
    sg.mxv(sg.Matrix(a, backend=backend), v, out=v)
    assert np.array_equal(v.to_numpy(), full)


def test_mxm_masked_and_transposed(backend):
    a, b = rand(25, 20, 0.2, 7), rand(20, 15, 0.2, 8)
    ma, mb = sg.Matrix(a, backend=backend), sg.Matrix(b, backend=backend)
    c = sg.mxm(ma, mb).to_scipy()
    assert abs(c - a @ b).max() == 0
    assert abs((ma @ mb).to_scipy() - a @ b).max() == 0
    mask = rand(25, 15, 0.3, 9)
    mm = sg.Matrix(mask, "or-and:bool", backend=backend)
    full = (a @ b).toarray()
    kept = sg.mxm(ma, mb, mask=mm).to_scipy().toarray()
    assert np.array_equal(kept, np.where(mask.toarray() != 0, full, 0))
    skipped = sg.mxm(ma, mb, mask=mm, complement=True).to_scipy().toarray()
    assert np.array_equal(skipped, np.where(mask.toarray() == 0, full, 0))
    bt = sg.Matrix(b.T.tocsr(), backend=backend)
    assert abs(sg.mxm(ma, bt, transpose_b=True).to_scipy() - a @ b).max() == 0


def test_triangles_as_a_masked_product(backend):
    a = rand(60, 60, 0.1, 10)
    a = ((a + a.T) > 0).astype(np.float64)
    a.setdiag(0)
    a.eliminate_zeros()
    low = sp.tril(a, k=-1).tocsr()
    m = sg.Matrix(a, backend=backend)
    lo = m.select("strict_tril")
    assert (lo.to_scipy() != low).nnz == 0
    t = sg.mxm(lo, lo, mask=lo, transpose_b=True).reduce()
    assert t == (low @ low.T).multiply(low).sum()


def test_ewise_union_intersection_and_operators(backend):
    x = np.array([0, 1, 2, 0, 5], dtype=np.float64)
    y = np.array([3, 0, 4, 0, 1], dtype=np.float64)
    xv, yv = sg.Vector(x, backend=backend), sg.Vector(y, backend=backend)
    assert np.array_equal(xv.ewise_add(yv).to_numpy(), x + y)
    assert np.array_equal(xv.ewise_mult(yv).to_numpy(), x * y)
    # union by max: where one has no entry, the other's value.
    assert np.array_equal(xv.ewise_add(yv, "max").to_numpy(), [3, 1, 4, 0, 5])
    # intersection by minus: only where both have entries.
    assert np.array_equal(xv.ewise_mult(yv, "minus").to_numpy(), [0, 0, -2, 0, 4])
    a, b = rand(10, 10, 0.3, 11), rand(10, 10, 0.3, 12)
    ma, mb = sg.Matrix(a, backend=backend), sg.Matrix(b, backend=backend)
    assert abs(ma.ewise_add(mb).to_scipy() - (a + b)).max() == 0
    assert abs(ma.ewise_mult(mb).to_scipy() - a.multiply(b)).max() == 0
    assert abs(ma.ewise_add(mb, "min").to_scipy()
               - sp.csr_matrix(np.where((a != 0).toarray() & (b != 0).toarray(),
                                        np.minimum(a.toarray(), b.toarray()),
                                        (a + b).toarray()))).max() == 0
    with pytest.raises(ValueError, match="no binary operator \"nope\".*plus"):
        xv.ewise_add(yv, "nope")


def test_apply_select_reduce(backend):
    a = rand(20, 20, 0.3, 13)
    m = sg.Matrix(a, backend=backend)
    assert abs(m.apply("minv").to_scipy() - a.power(-1)).max() < 1e-12
    assert abs(m.apply("plus", right=10).to_scipy() - (a + 10 * (a != 0))).max() == 0
    assert abs(m.apply("minus", left=10).to_scipy() - (10 * (a != 0) - a)).max() == 0
    kept = m.select("value_gt", 4).to_scipy()
    assert (kept != a.multiply(a > 4)).nnz == 0
    assert np.array_equal(m.reduce_rows().to_numpy(), np.asarray(a.sum(axis=1)).ravel())
    assert np.array_equal(m.reduce_cols().to_numpy(), np.asarray(a.sum(axis=0)).ravel())
    assert m.reduce() == a.sum()
    # the row minima: the same entries in min-plus (an empty row has inf)
    mins = m.reduce_rows("min-plus:f64").to_numpy()
    for i in range(20):
        row = a.data[a.indptr[i]:a.indptr[i + 1]]
        assert mins[i] == (row.min() if row.size else np.inf)
    x = sg.Vector(np.array([0, 2, -3, 0.5]), backend=backend)
    assert np.array_equal(x.apply("abs").to_numpy(), [0, 2, 3, 0.5])
    assert x.reduce() == -0.5
    assert x.reduce("max-plus:f64") == 2  # the entries only: no entry is not a 0


def test_extract_assign_diag(backend):
    a = rand(15, 12, 0.3, 14)
    m = sg.Matrix(a, backend=backend)
    rows, cols = [3, 0, 3, 14], [11, 2, 5]
    assert (m.extract(rows, cols).to_scipy() != a[rows][:, cols]).nnz == 0
    assert (m.extract(rows).to_scipy() != a[rows]).nnz == 0
    sq = sg.Matrix(a[:12], backend=backend)
    assert np.array_equal(sq.diag().to_numpy(), a[:12].diagonal())
    x = sg.Vector(np.arange(10, dtype=np.float64), backend=backend)
    assert np.array_equal(x.extract([9, 0, 9]).to_numpy(), [9, 0, 9])
    x.assign([1, 4], [7, 8])
    assert np.array_equal(x.to_numpy(), [0, 7, 2, 3, 8, 5, 6, 7, 8, 9])
    x.assign([2, 2, 3], [1, -6, 4], accum="min")
    assert np.array_equal(x.to_numpy()[:4], [0, 7, -6, 3])
    x.assign([0, 5], 1.5)
    assert x.to_numpy()[0] == 1.5 and x.to_numpy()[5] == 1.5
    with pytest.raises(ValueError, match="appears twice"):
        x.assign([1, 1], [2, 3])
    with pytest.raises(ValueError, match="outside"):
        x.extract([10])
    v = sg.Vector.from_entries(6, [1, 4], [2, 3], "min-plus:i32", backend=backend)
    assert v.nvals == 2
    i, vals = v.entries()
    assert list(i) == [1, 4] and list(vals) == [2, 3]


def test_from_entries_combines_by_the_semiring(backend):
    m = sg.Matrix.from_entries([0, 0, 1], [1, 1, 0], [5, 3, 2], semiring="min-plus:i64",
                               backend=backend)
    assert m.shape == (2, 2)
    assert m.to_scipy().toarray().tolist() == [[0, 3], [2, 0]]
    p = sg.Matrix.from_entries([0, 2], [1, 2], shape=(3, 3), semiring="or-and:bool",
                               backend=backend)
    assert p.to_scipy().dtype == bool and p.nvals == 2


def test_bfs_in_or_and(backend):
    """Levels by breadth-first search written in the algebra, against SciPy's."""
    import scipy.sparse.csgraph as cg
    a = rand(200, 200, 0.01, 15)
    A = sg.Matrix(a, "or-and:bool", backend=backend)
    n = a.shape[0]
    frontier = sg.Vector.from_entries(n, [0], True, "or-and:bool", backend=backend)
    seen = frontier.dup()
    levels = np.full(n, -1)
    levels[0] = 0
    depth = 0
    while frontier.nvals:
        depth += 1
        frontier = sg.vxm(frontier, A, mask=seen, complement=True)
        levels[frontier.to_numpy()] = depth
        seen = seen.ewise_add(frontier)
    d = cg.shortest_path(a, unweighted=True, indices=0)
    assert np.array_equal(levels, np.where(np.isinf(d), -1, d).astype(int))


def test_errors_say_what_is_wrong(backend):
    m = sg.Matrix(rand(4, 3, 0.5, 16), backend=backend)
    with pytest.raises(ValueError, match="not a built-in"):
        sg.Matrix(rand(2, 2, 0.5, 1), "plus-times:u8")
    with pytest.raises(ValueError, match="4x3.*5 positions"):
        sg.mxv(m, sg.Vector(np.ones(5), backend=backend))
    with pytest.raises(ValueError, match="inner sizes"):
        sg.mxm(m, m)
    with pytest.raises(TypeError, match="value types"):
        sg.mxv(m, sg.Vector(np.ones(3), "plus-times:i32", backend=backend))
    with pytest.raises(ValueError, match="no i32 value"):
        sg.Vector(np.array([2.5]), "plus-times:i32", backend=backend)
    with pytest.raises(ValueError, match="no select operator"):
        m.select("value_gt_or_so")
    ops = sg.operators("or-and:bool")
    assert ops["zero"] is False and ops["one"] is True and "lxor" in ops["binary"]


def _example(name):
    """An example of python/examples/, loaded from the repository."""
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "examples", name + ".py")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_example_fastsv_matches_scipy(backend):
    import scipy.sparse.csgraph as cg
    a = rand(300, 300, 0.004, 17)
    a = (a + a.T).tocsr()
    labels = _example("fastsv").fastsv(a, backend=backend)
    _, ref = cg.connected_components(a, directed=False)
    # the same partition, each component named by its smallest vertex
    for c in np.unique(ref):
        members = np.flatnonzero(ref == c)
        assert (labels[members] == members.min()).all()


def test_example_betweenness_matches_networkx(backend):
    nx = pytest.importorskip("networkx")
    a = rand(60, 60, 0.06, 18)
    a.setdiag(0)
    a.eliminate_zeros()
    G = nx.from_scipy_sparse_array(a, create_using=nx.DiGraph)
    want = nx.betweenness_centrality(G, normalized=False)
    got = _example("betweenness").betweenness(a, np.arange(60), backend=backend)
    assert np.allclose(got, [want[v] for v in range(60)])
