//! The distributed algorithms (`semigraph_algos::dist`) with k simulated ranks on the CPU
//! backend (`LocalComm`): each must equal the one-device result (levels, distances,
//! components exactly; PageRank to rounding) for every k, including more ranks than vertices.

use proptest::prelude::*;
use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
use semigraph_algos::testing::*;
use semigraph_algos::*;
use semigraph_formats::generate;
use semigraph_semiring::MinPlus;

mod collectives;

fn ranks(b: &CpuBackend, k: usize) -> LocalComm<'_, CpuBackend> {
    LocalComm::new(vec![b; k])
}

/// Every distributed algorithm against its one-device version on `g`, with `k` ranks.
fn same_as_one_device(g: &TestGraph, k: usize, source: usize, all_pairs: bool) {
    let b = CpuBackend::new();
    let comm = ranks(&b, k);
    let a = g.csr::<i32>();
    let one = Graph::new(
        &b,
        &a,
        GraphOptions {
            pull: true,
            ..Default::default()
        },
    )
    .unwrap();
    let many = DistGraph::new(&comm, &a, DistOptions::default()).unwrap();
    let what = format!("{} with {k} ranks", g.name);
    // BFS: levels exact, parents valid.
    let pat = a.pattern::<BfsSemiring>();
    let want = bfs(
        &Graph::new(&b, &pat, GraphOptions::default()).unwrap(),
        source,
        &BfsOptions::default(),
    )
    .unwrap();
    let many_pat = many.pattern::<BfsSemiring>().unwrap();
    for direction in [Direction::Auto, Direction::Push, Direction::Pull] {
        let got = dist::bfs(&many_pat, source, &BfsOptions { direction }).unwrap();
        assert_eq!(
            got.levels, want.levels,
            "{what}: BFS levels ({direction:?})"
        );
        assert_eq!(
            (got.reached, got.depth),
            (want.reached, want.depth),
            "{what}"
        );
        check_bfs(&pat, &got).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
    // Bellman-Ford: distances exact (or the same verdict of a negative cycle).
    match (
        bellman_ford(&one, source),
        dist::bellman_ford(&many, source),
    ) {
        (Ok(w), Ok(got)) => {
            assert_eq!(got.dist, w.dist, "{what}: distances");
            assert_eq!(got.rounds, w.rounds, "{what}: rounds");
            let want: Vec<Option<i64>> = w
                .dist
                .iter()
                .map(|&d| (d != i32::MAX).then_some(d as i64))
                .collect();
            check_shortest_paths(&g.arcs, &got, &want).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        (Err(Error::NegativeCycle { .. }), Err(Error::NegativeCycle { cycle })) => {
            check_negative_cycle(&g.arcs, &cycle).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        (w, got) => panic!(
            "{what}: one device {:?}, distributed {:?}",
            w.map(|r| r.rounds),
            got.map(|r| r.rounds)
        ),
    }
    // PageRank: the same sums in the same order.
    let opts = PageRankOptions {
        damping: 0.85,
        iterations: 30,
        tolerance: None,
    };
    let (w, got) = (
        pagerank(&one, &opts).unwrap(),
        dist::pagerank(&many, &opts).unwrap(),
    );
    assert_eq!(got.iterations, w.iterations, "{what}");
    for (v, (x, y)) in got.ranks.iter().zip(&w.ranks).enumerate() {
        assert!(
            (x - y).abs() <= 1e-12 * y.abs().max(1e-300),
            "{what}: rank of {v}: {x} vs {y}"
        );
    }
    // Packed columns exchange only the vertices with out-arcs; the sums are the same terms
    // in the same order as over whole columns.
    let sinks = (0..a.nrows()).any(|v| a.row_ptr()[v + 1] == a.row_ptr()[v]);
    assert_eq!(many.packed().is_some(), sinks, "{what}: packed columns");
    let whole = DistGraph::new(
        &comm,
        &a,
        DistOptions {
            packed: false,
            ..DistOptions::default()
        },
    )
    .unwrap();
    assert!(whole.packed().is_none());
    assert_eq!(
        dist::pagerank(&whole, &opts).unwrap().ranks,
        got.ranks,
        "{what}: PageRank over packed and whole columns"
    );
    let tol = PageRankOptions {
        tolerance: Some(1e-10),
        iterations: 200,
        ..opts
    };
    let (w, got) = (
        pagerank(&one, &tol).unwrap(),
        dist::pagerank(&many, &tol).unwrap(),
    );
    assert_eq!(
        got.iterations, w.iterations,
        "{what}: iterations to the tolerance"
    );
    // WCC: labels exact.
    assert_eq!(
        dist::wcc(&many).unwrap().labels,
        wcc(&one).unwrap().labels,
        "{what}: WCC"
    );
    // APSP by squaring: distances exact, or the same negative cycle verdict.
    if !all_pairs {
        return;
    }
    let opts = ApspOptions {
        next_hop: true,
        method: ApspMethod::Squaring,
    };
    let want = apsp(&one, &opts);
    let square = k.isqrt() * k.isqrt() == k;
    let grid = square.then(|| ("grid", dist::apsp_grid(&comm, &a, true)));
    for (layout, got) in [("rows", dist::apsp(&many, true))].into_iter().chain(grid) {
        let what = format!("{what}, {layout}");
        same_apsp(g, &what, &want, got);
    }
    if !square {
        let e = dist::apsp_grid(&comm, &a, false).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{what}: {e}");
    }
}

/// A distributed APSP's result against the one-device one: the same distances (and valid
/// paths), or the same negative-cycle verdict.
fn same_apsp(g: &TestGraph, what: &str, want: &Result<Apsp<i32>>, got: Result<Apsp<i32>>) {
    match (want, got) {
        (Ok(w), Ok(got)) => {
            assert_eq!(got.dist, w.dist, "{what}: APSP");
            for i in 0..g.n {
                for j in 0..g.n {
                    if let Some(p) = got.path(i, j) {
                        assert_eq!(
                            (p[0] as usize, *p.last().unwrap() as usize),
                            (i, j),
                            "{what}"
                        );
                    }
                }
            }
        }
        (Err(Error::NegativeCycle { .. }), Err(Error::NegativeCycle { cycle })) => {
            check_negative_cycle(&g.arcs, &cycle).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        (w, got) => panic!(
            "{what}: APSP one device {:?}, distributed {:?}",
            w.as_ref().map(|r| r.rounds),
            got.map(|r| r.rounds)
        ),
    }
}

fn small_graph() -> impl Strategy<Value = (TestGraph, usize, usize)> {
    (1usize..30, 1usize..6).prop_flat_map(|(n, k)| {
        (
            proptest::collection::vec((0..n, 0..n, -4i64..=20), 0..(3 * n + 2)),
            0..n,
        )
            .prop_map(move |(arcs, s)| {
                (
                    TestGraph {
                        name: format!("proptest n={n}"),
                        n,
                        arcs,
                    },
                    k,
                    s,
                )
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn distributed_equals_one_device_on_random_graphs((g, k, s) in small_graph()) {
        same_as_one_device(&g, k, s, true);
    }
}

#[test]
fn distributed_equals_one_device_on_generated_graphs() {
    for (name, e) in [
        ("kronecker 8", generate::kronecker(8, 8, 3)),
        ("grid 12x20", generate::grid(12, 20, 1, 50, 5)),
        ("chung-lu", generate::chung_lu(200, 4, 2.1, 9)),
    ] {
        let g = TestGraph::from_edges(name, &e);
        for k in [1, 3, 4] {
            same_as_one_device(&g, k, 1, k > 1);
        }
    }
    // A directed graph with several components and vertices no arc touches.
    let g = TestGraph::random(300, 400, 0, 9, 11);
    same_as_one_device(&g, 4, 0, false);
}

/// The distributed BFS takes the one-device BFS's directions level by level (Beamer's rule on
/// the same arc counts; the counts it skips are those of frontiers that could not switch):
/// the same push and pull steps on graphs whose searches switch both ways.
#[test]
fn distributed_bfs_switches_as_one_device() {
    let b = CpuBackend::new();
    for (name, e, source) in [
        ("kronecker 12", generate::kronecker(12, 16, 5), 0),
        (
            "kronecker 11, edge factor 4",
            generate::kronecker(11, 4, 2),
            3,
        ),
        ("chung-lu", generate::chung_lu(3000, 6, 2.1, 4), 1),
    ] {
        let a = e.to_pattern_csr::<BfsSemiring, u32>().unwrap();
        let pull = GraphOptions {
            pull: true,
            ..Default::default()
        };
        let want = bfs(
            &Graph::new(&b, &a, pull).unwrap(),
            source,
            &BfsOptions::default(),
        )
        .unwrap();
        assert!(want.pull_steps > 0, "{name}: the one-device search pulls");
        for k in [2, 3] {
            let comm = ranks(&b, k);
            let g = DistGraph::new(&comm, &a, DistOptions::default()).unwrap();
            let got = dist::bfs(&g, source, &BfsOptions::default()).unwrap();
            assert_eq!(got.levels, want.levels, "{name}, {k} ranks: levels");
            assert_eq!(
                (got.push_steps, got.pull_steps),
                (want.push_steps, want.pull_steps),
                "{name}, {k} ranks: push and pull steps"
            );
        }
    }
}

#[test]
fn grid_products_equal_one_device() {
    use semigraph_semiring::PlusTimes;
    let b = CpuBackend::new();
    let mut rng = 7u64;
    let mut next = move || {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (rng >> 33) as i64
    };
    // n below, at and above q, not a multiple of q; 1, 4 and 9 ranks.
    for (k, n) in [(1, 5), (4, 1), (4, 7), (9, 2), (9, 10), (4, 0)] {
        let comm = ranks(&b, k);
        let grid = dist::Grid::square(k, n).unwrap();
        let nb = grid.block();
        let a: Vec<i64> = (0..n * n).map(|_| next() % 7 - 3).collect();
        let m: Vec<i64> = (0..n * n).map(|_| next() % 5).collect();
        let one = |x: &[i64]| b.dense::<PlusTimes<i64>>(n, n, x).unwrap();
        let mut want = b.dense_filled::<PlusTimes<i64>>(n, n, 0).unwrap();
        b.gemm(&mut want, Mask::All, Accum::Replace, &one(&a), &one(&m))
            .unwrap();
        let want = b.read_dense(&want).unwrap();
        // Each rank's block, padded with zeros.
        let blocks = |x: &[i64]| -> Vec<_> {
            (0..k)
                .map(|r| {
                    let (i, j) = grid.coords(r);
                    let mut v = vec![0; nb * nb];
                    for (to, row) in v.chunks_exact_mut(nb.max(1)).zip(grid.rows(i)) {
                        for (t, col) in to.iter_mut().zip(grid.rows(j)) {
                            *t = x[row * n + col];
                        }
                    }
                    b.dense::<PlusTimes<i64>>(nb, nb, &v).unwrap()
                })
                .collect()
        };
        let mut summa = dist::Summa::<_, PlusTimes<i64>>::new(&comm, grid).unwrap();
        // C = 1 + A B with Accum::Add over a C of ones.
        let mut c: Vec<_> = (0..k)
            .map(|_| b.dense_filled::<PlusTimes<i64>>(nb, nb, 1).unwrap())
            .collect();
        summa
            .gemm(&mut c, Accum::Add, &blocks(&a), &blocks(&m))
            .unwrap();
        for (r, c) in c.iter().enumerate() {
            let (i, j) = grid.coords(r);
            let got = b.read_dense(c).unwrap();
            for (row, got) in grid.rows(i).zip(got.chunks_exact(nb.max(1))) {
                for (col, &g) in grid.rows(j).zip(got) {
                    assert_eq!(g, want[row * n + col] + 1, "k={k} n={n} ({row}, {col})");
                }
            }
        }
    }
    for k in [2, 3, 5, 8] {
        let e = dist::Grid::square(k, 10).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{k} ranks: {e}");
    }
    // APSP on a grid of more ranks than vertices, and of an empty graph.
    for n in [0, 1, 2] {
        let arcs: Vec<(usize, usize, i64)> = (1..n).map(|v| (v - 1, v, 3)).collect();
        let g = TestGraph {
            name: format!("path of {n}"),
            n,
            arcs,
        };
        let a = g.csr::<i32>();
        let got = dist::apsp_grid(&ranks(&b, 9), &a, true).unwrap();
        let want = apsp(
            &Graph::new(&b, &a, GraphOptions::default()).unwrap(),
            &ApspOptions {
                next_hop: true,
                method: ApspMethod::Squaring,
            },
        )
        .unwrap();
        assert_eq!(got.dist, want.dist, "path of {n}");
    }
}

/// A distributed graph made straight from the edge list equals the one made from its CSR in
/// every algorithm, and block for block where the partitions agree (repeated arcs weigh in
/// the edge list's), with repeated arcs, self loops and negative weights.
fn from_edges_equals_from_csr(g: &TestGraph, k: usize, source: usize) {
    let b = CpuBackend::new();
    let comm = ranks(&b, k);
    let mut e = semigraph_formats::EdgeList::new(g.n, g.n);
    e.src = g.arcs.iter().map(|&(u, _, _)| u as u32).collect();
    e.dst = g.arcs.iter().map(|&(_, v, _)| v as u32).collect();
    e.weights = semigraph_formats::Weights::Int(g.arcs.iter().map(|&(_, _, w)| w).collect());
    let a = e.to_csr::<MinPlus<i32>, u32>().unwrap();
    let what = format!("{} with {k} ranks", g.name);
    for opts in [
        DistOptions::default(),
        DistOptions {
            out: false,
            packed: false,
            ..DistOptions::default()
        },
    ] {
        let want = DistGraph::new(&comm, &a, opts).unwrap();
        let got = DistGraph::<_, MinPlus<i32>>::from_edges(&comm, &e, opts).unwrap();
        assert!(got.csr().is_none());
        assert_eq!((got.n(), got.nnz()), (want.n(), want.nnz()), "{what}");
        assert_eq!(got.packed().is_some(), want.packed().is_some(), "{what}");
        if opts.out {
            assert_eq!(got.is_undirected(), want.is_undirected(), "{what}");
        }
        // The partitions weigh the arcs as listed (repeats counted) against the CSR's: the
        // blocks are compared where the two agree.
        let same = got.partition() == want.partition();
        assert!(same || g.arcs.len() > a.nnz(), "{what}: partition");
        for r in (0..k).filter(|_| same) {
            assert_eq!(
                b.read_matrix(got.pull(r)).unwrap(),
                b.read_matrix(want.pull(r)).unwrap(),
                "{what}: rank {r}'s pull block"
            );
            assert_eq!(
                b.read_matrix(got.push(r, "test").unwrap()).unwrap(),
                b.read_matrix(want.push(r, "test").unwrap()).unwrap(),
                "{what}: rank {r}'s push block"
            );
        }
        let bfs_opts = BfsOptions::default();
        assert_eq!(
            dist::bfs(&got.pattern().unwrap(), source, &bfs_opts)
                .unwrap()
                .levels,
            dist::bfs(&want.pattern().unwrap(), source, &bfs_opts)
                .unwrap()
                .levels,
            "{what}: BFS"
        );
        match (
            dist::bellman_ford(&got, source),
            dist::bellman_ford(&want, source),
        ) {
            (Ok(x), Ok(y)) => assert_eq!(x.dist, y.dist, "{what}: Bellman-Ford"),
            (Err(Error::NegativeCycle { .. }), Err(Error::NegativeCycle { .. })) => {}
            (x, y) => panic!("{what}: {:?} against {:?}", x.is_ok(), y.is_ok()),
        }
        if opts.out {
            // Bit for bit over the same partition; over another, the sums over the ranks
            // group their terms otherwise.
            let pr = PageRankOptions::default();
            let (x, y) = (
                dist::pagerank(&got, &pr).unwrap().ranks,
                dist::pagerank(&want, &pr).unwrap().ranks,
            );
            let tol = if same { 0.0 } else { 1e-12 };
            for (v, (x, y)) in x.iter().zip(&y).enumerate() {
                assert!(
                    (x - y).abs() <= tol * y.abs(),
                    "{what}: PageRank of {v}: {x} vs {y}"
                );
            }
            assert_eq!(
                dist::wcc(&got).unwrap().labels,
                dist::wcc(&want).unwrap().labels,
                "{what}: WCC"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn distributed_graphs_from_edge_lists_equal_those_from_csr((g, k, s) in small_graph()) {
        from_edges_equals_from_csr(&g, k, s);
    }
}

#[test]
fn distributed_graphs_from_edge_lists_of_generated_graphs() {
    for (name, e) in [
        ("kronecker 9", generate::kronecker(9, 8, 4)),
        ("grid 10x30", generate::grid(10, 30, 1, 50, 6)),
    ] {
        let g = TestGraph::from_edges(name, &e);
        for k in [1, 2, 3, 5] {
            from_edges_equals_from_csr(&g, k, 0);
        }
    }
    // Errors are values: a list that is not square, an id out of range.
    let b = CpuBackend::new();
    let comm = ranks(&b, 2);
    let mut e = semigraph_formats::EdgeList::new(3, 4);
    (e.src, e.dst) = (vec![0], vec![1]);
    assert!(matches!(
        DistGraph::<_, MinPlus<i32>>::from_edges(&comm, &e, DistOptions::default()),
        Err(Error::InvalidArgument(m)) if m.contains("square")
    ));
    e = semigraph_formats::EdgeList::new(3, 3);
    (e.src, e.dst) = (vec![0, 7], vec![1, 2]);
    assert!(DistGraph::<_, MinPlus<i32>>::from_edges(&comm, &e, DistOptions::default()).is_err());
}
