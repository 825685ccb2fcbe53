//! A backend against the CPU backend on many random graphs: every algorithm, results compared
//! exactly (levels, parents, distances in `i32`, `i64` and `f64`, predecessors, negative
//! cycles, all-pairs distances), and each result also checked against the oracles.
//!
//! Floating-point distances are compared exactly too: a shortest-path distance is one sum
//! `d(u) + w` computed in the same order on both backends, and `min` is exact.

use semigraph_algos::testing::{
    TestGraph, check_bfs, check_negative_cycle, check_shortest_paths, oracle_bellman_ford,
    oracle_dijkstra,
};
use semigraph_algos::{
    ApspOptions, BfsOptions, BfsSemiring, CpuBackend, DeltaGraph, Direction, Distance, Error,
    Frontier, Graph, GraphOptions, apsp, bellman_ford, bfs, delta_stepping, fixpoint_paths,
};
use semigraph_formats::generate::{self, Rng};
use semigraph_formats::{Format, edgelist::WeightSpec};

/// The `k`-th random test graph: sizes from 1 to about 300 vertices, sparse to dense, weights
/// from several ranges (zero included), sometimes structured (grids, paths, stars, Kronecker),
/// sometimes with negative weights (a DAG, or any digraph, which may have negative cycles).
pub fn random_graph(k: u64) -> (TestGraph, bool) {
    let rng = Rng::new(0x6a11 ^ k);
    let shape = rng.below(0, 10);
    let (lo, hi) = match rng.below(1, 4) {
        0 => (1, 1),
        1 => (0, 5),
        2 => (1, 1000),
        _ => (1, 1 << 20),
    };
    let n = 1 + rng.below(2, 300) as usize;
    let m = rng.below(3, (n * (1 + rng.below(4, 8) as usize)) as u64 + 1) as usize;
    let seed = rng.at(5);
    let named = |name: &str, mut g: semigraph_formats::EdgeList| {
        g.assign_weights(WeightSpec::Uniform { lo, hi, seed });
        TestGraph::from_edges(&format!("{name} #{k}"), &g)
    };
    match shape {
        0 => (
            named("grid", generate::grid(1 + n / 17, 1 + n % 17, lo, hi, seed)),
            false,
        ),
        1 => (named("path", generate::path(n)), false),
        2 => (named("star", generate::star(n)), false),
        3 => (
            named(
                "kronecker",
                generate::kronecker(1 + (n % 8) as u32, 4, seed),
            ),
            false,
        ),
        4 => (TestGraph::random_dag(n, m, -50, 50, seed), true),
        5 => (TestGraph::random(n, m, -3, 40, seed), true),
        _ => (TestGraph::random(n, m, lo, hi, seed), false),
    }
}

/// Runs every algorithm of `tg` on `b` and on the CPU and asserts equal results. `negative`:
/// the graph may have negative weights (only Bellman-Ford and APSP run).
pub fn compare_graph<B: Frontier>(b: &B, tg: &TestGraph, negative: bool, k: u64) {
    let cpu = CpuBackend::new();
    let rng = Rng::new(0x50c ^ k);
    let s = rng.below(0, tg.n as u64) as usize;
    // The sparse formats in turn (dense pull matrices are for small graphs).
    let sparse: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|&f| f != Format::Dense)
        .collect();
    let format = sparse[k as usize % sparse.len()];
    let opts = GraphOptions {
        format: Some(format),
        pull: true,
        convert: semigraph_algos::testing::unlimited(),
    };
    {
        let a = tg.csr::<i32>().pattern::<BfsSemiring>();
        for dir in [Direction::Auto, Direction::Push, Direction::Pull] {
            let o = BfsOptions { direction: dir };
            let want = bfs(&Graph::new(&cpu, &a, opts).unwrap(), s, &o).unwrap();
            let got = bfs(&Graph::new(b, &a, opts).unwrap(), s, &o).unwrap();
            assert_eq!(got.levels, want.levels, "{}: bfs levels {dir:?}", tg.name);
            assert_eq!(
                got.parents, want.parents,
                "{}: bfs parents {dir:?}",
                tg.name
            );
            check_bfs(&a, &got).unwrap();
        }
    }
    compare_sssp::<B, i32>(b, &cpu, tg, s, negative);
    compare_sssp::<B, i64>(b, &cpu, tg, s, negative);
    compare_sssp::<B, f64>(b, &cpu, tg, s, negative);
    if tg.n <= 64 {
        let a = tg.csr::<i32>();
        let o = ApspOptions {
            next_hop: true,
            ..Default::default()
        };
        let want = Graph::new(&cpu, &a, GraphOptions::default()).and_then(|g| apsp(&g, &o));
        let got = Graph::new(b, &a, GraphOptions::default()).and_then(|g| apsp(&g, &o));
        match (want, got) {
            (Ok(want), Ok(got)) => {
                assert_eq!(got.dist, want.dist, "{}: apsp", tg.name);
                for i in 0..tg.n {
                    for j in 0..tg.n {
                        assert_eq!(
                            got.path(i, j).is_some(),
                            want.path(i, j).is_some(),
                            "{}: apsp path {i}->{j}",
                            tg.name
                        );
                    }
                }
            }
            (Err(Error::NegativeCycle { .. }), Err(Error::NegativeCycle { cycle })) => {
                check_negative_cycle(&tg.arcs, &cycle).unwrap()
            }
            (w, g) => panic!(
                "{}: apsp cpu {:?} vs backend {:?}",
                tg.name,
                w.map(|r| r.rounds),
                g.map(|r| r.rounds)
            ),
        }
    }
}

fn compare_sssp<B: Frontier, D: Distance>(
    b: &B,
    cpu: &CpuBackend,
    tg: &TestGraph,
    s: usize,
    negative: bool,
) {
    let a = tg.csr::<D>();
    let opts = GraphOptions::default();
    let want = bellman_ford(&Graph::new(cpu, &a, opts).unwrap(), s);
    let got = bellman_ford(&Graph::new(b, &a, opts).unwrap(), s);
    let ty = std::any::type_name::<D>();
    match (want, got) {
        (Ok(w), Ok(g)) => {
            assert!(
                g.dist
                    .iter()
                    .zip(&w.dist)
                    .all(|(x, y)| x.to_bits64() == y.to_bits64()),
                "{}: bellman-ford {ty} distances",
                tg.name
            );
            assert_eq!(
                g.pred, w.pred,
                "{}: bellman-ford {ty} predecessors",
                tg.name
            );
            let oracle = if negative {
                oracle_bellman_ford(tg.n, &tg.arcs, s).expect("no cycle: Bellman-Ford agreed")
            } else {
                oracle_dijkstra(tg.n, &tg.arcs, s)
            };
            check_shortest_paths(&tg.arcs, &g, &oracle).unwrap();
        }
        (Err(Error::NegativeCycle { .. }), Err(Error::NegativeCycle { cycle })) => {
            check_negative_cycle(&tg.arcs, &cycle).unwrap()
        }
        (w, g) => panic!("{}: bellman-ford {ty}: cpu {w:?}, backend {g:?}", tg.name),
    }
    if !negative {
        let want = delta_stepping(&DeltaGraph::new(cpu, &a, None).unwrap(), s).unwrap();
        let got = delta_stepping(&DeltaGraph::new(b, &a, None).unwrap(), s).unwrap();
        assert!(
            got.dist
                .iter()
                .zip(&want.dist)
                .all(|(x, y)| x.to_bits64() == y.to_bits64()),
            "{}: delta-stepping {ty} distances",
            tg.name
        );
        check_shortest_paths(&tg.arcs, &got, &oracle_dijkstra(tg.n, &tg.arcs, s)).unwrap();
        let want = fixpoint_paths(&Graph::new(cpu, &a, opts).unwrap(), s, None).unwrap();
        let got = fixpoint_paths(&Graph::new(b, &a, opts).unwrap(), s, None).unwrap();
        assert_eq!(got, want, "{}: fixpoint {ty}", tg.name);
    }
}
