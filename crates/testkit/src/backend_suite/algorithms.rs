//! The algorithms on the test graphs, against the oracles of [`semigraph_algos::testing`].

use super::*;
use semigraph_semiring::{MaxMin, MinPlus};

/// The graphs the algorithm suite runs on.
pub fn test_graphs() -> Vec<TestGraph> {
    use semigraph_formats::generate;
    let mut k = generate::kronecker(7, 8, 3);
    k.assign_weights(semigraph_formats::edgelist::WeightSpec::Uniform {
        lo: 1,
        hi: 20,
        seed: 4,
    });
    // Hubs of thousands of arcs, frontiers wider than a GPU block of threads: the paths where
    // a GPU spreads one vertex's arcs over many threads.
    let mut hubs = generate::kronecker(9, 16, 11);
    hubs.assign_weights(semigraph_formats::edgelist::WeightSpec::Uniform {
        lo: 1,
        hi: 1000,
        seed: 12,
    });
    vec![
        TestGraph::from_edges("grid 9x13", &generate::grid(9, 13, 0, 9, 1)),
        TestGraph::from_edges("kronecker scale 9", &hubs),
        TestGraph::from_edges("star 1100", &generate::star(1100)),
        TestGraph::from_edges("kronecker scale 7", &k),
        TestGraph::from_edges("path 40", &generate::path(40)),
        TestGraph::from_edges("star 30", &generate::star(30)),
        TestGraph::random(60, 150, 0, 5, 7),
        TestGraph::random(50, 40, 1, 100, 8),
        TestGraph {
            name: "single vertex".into(),
            n: 1,
            arcs: vec![],
        },
    ]
}

/// Every algorithm on `b` with pull matrices in `format`, against the oracles (all pairs:
/// [`check_all_pairs`], once a backend).
pub fn check_algorithms<B: Frontier>(b: &B, format: Format) -> Result<()> {
    use semigraph_algos::{Graph, GraphOptions};
    let opts = GraphOptions {
        format: Some(format),
        pull: true,
        convert: unlimited(),
    };
    for tg in test_graphs() {
        trace(&tg.name, "bfs");
        let a = tg.csr::<i32>();
        let pattern = a.pattern::<semigraph_algos::BfsSemiring>();
        let g = Graph::new(b, &pattern, opts)?;
        // The same searches on the weighted graph's pattern, which shares its matrices.
        let weighted = Graph::new(b, &a, opts)?;
        let gv = weighted.pattern::<semigraph_algos::BfsSemiring>()?;
        let sources: Vec<usize> = [0, tg.n / 2, tg.n - 1].into_iter().collect();
        for &s in &sources {
            for dir in [
                semigraph_algos::Direction::Auto,
                semigraph_algos::Direction::Push,
                semigraph_algos::Direction::Pull,
            ] {
                let o = semigraph_algos::BfsOptions { direction: dir };
                check_bfs(&pattern, &semigraph_algos::bfs(&g, s, &o)?).unwrap();
                check_bfs(&pattern, &semigraph_algos::bfs(&gv, s, &o)?).unwrap();
            }
        }
        let multi = semigraph_algos::bfs_multi(&g, &sources)?;
        for r in &multi {
            check_bfs(&pattern, r).unwrap();
        }
        // Reachability (on the weighted graph's or-and pattern) agrees with BFS.
        let pattern = a.pattern::<OrAnd>();
        let reach = semigraph_algos::reachability(&weighted.pattern::<OrAnd>()?, sources[1])?;
        let lv = oracle_bfs(&pattern, sources[1]);
        assert_eq!(
            reach,
            lv.iter().map(|l| l.is_some()).collect::<Vec<_>>(),
            "{}",
            tg.name
        );
        // Widest paths on the max-min view equal those on a max-min copy of the graph.
        let wide = a.map(semigraph_formats::view_value::<MinPlus<i32>, MaxMin<i32>>);
        let want = semigraph_algos::widest_path(&Graph::new(b, &wide, opts)?, sources[1])?;
        let got = semigraph_algos::widest_path(&weighted.view::<MaxMin<i32>>()?, sources[1])?;
        assert_eq!(got, want, "widest paths on a view, {}", tg.name);
        // Delta-stepping on a view of the weighted graph equals Bellman-Ford on it.
        let dg = semigraph_algos::DeltaGraph::from_graph(weighted.view()?, None)?;
        let ds = semigraph_algos::delta_stepping(&dg, sources[1])?;
        let bf = semigraph_algos::bellman_ford(&weighted, sources[1])?;
        assert_eq!(ds.dist, bf.dist, "delta-stepping on a view, {}", tg.name);

        trace(&tg.name, "shortest paths");
        check_shortest_paths_in::<B, i32>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, i64>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, f32>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, f64>(b, &tg, &sources, opts)?;
    }
    // Negative weights: DAGs (no cycle) against textbook Bellman-Ford; then cycles.
    for seed in 0..4 {
        let tg = TestGraph::random_dag(40, 120, -20, 30, seed);
        let a = tg.csr::<i32>();
        let gp = Graph::new(b, &a, opts)?;
        let want = oracle_bellman_ford(tg.n, &tg.arcs, 0).expect("a DAG has no cycle");
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp, 0)?, &want).unwrap();
        let a64 = tg.csr::<i64>();
        let gp64 = Graph::new(b, &a64, opts)?;
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp64, 0)?, &want).unwrap();
        assert_eq!(semigraph_algos::negative_cycle(&gp)?, None, "{}", tg.name);
    }
    for seed in 0..6 {
        let tg = TestGraph::random(30, 70, -6, 20, 100 + seed);
        let a = tg.csr::<i32>();
        let gp = Graph::new(b, &a, opts)?;
        match (
            oracle_bellman_ford(tg.n, &tg.arcs, 0),
            semigraph_algos::bellman_ford(&gp, 0),
        ) {
            (Ok(want), Ok(sp)) => check_shortest_paths(&tg.arcs, &sp, &want).unwrap(),
            (Err(()), Err(Error::NegativeCycle { cycle })) => {
                check_negative_cycle(&tg.arcs, &cycle).unwrap()
            }
            (w, g) => panic!("{}: oracle {w:?}, bellman_ford {g:?}", tg.name),
        }
        // A negative cycle anywhere (not only one reachable from 0), found from every vertex.
        match (
            oracle_floyd_warshall(tg.n, &tg.arcs),
            semigraph_algos::negative_cycle(&gp)?,
        ) {
            (Ok(_), None) => {}
            (Err(_), Some(cycle)) => check_negative_cycle(&tg.arcs, &cycle).unwrap(),
            (w, g) => panic!("{}: oracle {:?}, negative_cycle {g:?}", tg.name, w.is_ok()),
        }
    }
    Ok(())
}

/// All pairs on `b`, against Floyd-Warshall: APSP by every method (and with next hops) and the
/// transitive closure on the test graphs of up to 200 vertices, APSP on DAGs with negative
/// weights, and the negative cycles APSP names. Its graphs take the default options (the
/// pull format chosen for them), so unlike [`check_algorithms`] it runs once a backend, not
/// once a format.
pub fn check_all_pairs<B: Frontier>(b: &B) -> Result<()> {
    use semigraph_algos::{Graph, GraphOptions};
    for tg in test_graphs().into_iter().filter(|tg| tg.n <= 200) {
        trace(&tg.name, "all pairs");
        let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("no negative cycle");
        // Every method in i32; squaring (the packed and the unpacked next hops) in the
        // others.
        check_apsp_in::<B, i32>(b, &tg, &fw, true)?;
        check_apsp_in::<B, i64>(b, &tg, &fw, false)?;
        check_apsp_in::<B, f64>(b, &tg, &fw, false)?;
        let pattern = tg.csr::<i32>().pattern::<OrAnd>();
        let tc = semigraph_algos::transitive_closure(&Graph::new(
            b,
            &pattern,
            GraphOptions::default(),
        )?)?;
        assert_eq!(
            tc,
            fw.iter().map(|d| d.is_some()).collect::<Vec<_>>(),
            "closure {}",
            tg.name
        );
    }
    // Negative weights: the DAGs of check_algorithms (no cycle), then its graphs with cycles.
    for seed in 0..4 {
        let tg = TestGraph::random_dag(40, 120, -20, 30, seed);
        let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("a DAG has no cycle");
        check_apsp_in::<B, i32>(b, &tg, &fw, true)?;
        check_apsp_in::<B, i64>(b, &tg, &fw, false)?;
    }
    for seed in 0..6 {
        let tg = TestGraph::random(30, 70, -6, 20, 100 + seed);
        let a = tg.csr::<i32>();
        for method in [
            semigraph_algos::ApspMethod::Squaring,
            semigraph_algos::ApspMethod::Sources,
        ] {
            let opts = semigraph_algos::ApspOptions {
                method,
                ..Default::default()
            };
            match (
                oracle_floyd_warshall(tg.n, &tg.arcs),
                Graph::new(b, &a, GraphOptions::default())
                    .and_then(|g| semigraph_algos::apsp(&g, &opts)),
            ) {
                (Ok(_), Ok(_)) => {}
                (Err(_), Err(Error::NegativeCycle { cycle })) => {
                    check_negative_cycle(&tg.arcs, &cycle).unwrap()
                }
                (w, g) => panic!(
                    "{} ({method:?}): oracle {w:?}, apsp {:?}",
                    tg.name,
                    g.map(|r| r.rounds)
                ),
            }
        }
    }
    Ok(())
}

/// Bellman-Ford and delta-stepping (automatic delta and delta 1) from each source in
/// distance type `D`, against Dijkstra.
fn check_shortest_paths_in<B: Frontier, D: semigraph_algos::Distance>(
    b: &B,
    tg: &TestGraph,
    sources: &[usize],
    opts: semigraph_algos::GraphOptions,
) -> Result<()> {
    let a = tg.csr::<D>();
    let gp = semigraph_algos::Graph::new(b, &a, opts)?;
    let gd = semigraph_algos::DeltaGraph::new(b, &a, None)?;
    let gd1 = semigraph_algos::DeltaGraph::new(b, &a, Some(D::ONE))?;
    for &s in sources {
        let want = oracle_dijkstra(tg.n, &tg.arcs, s);
        trace(&tg.name, "bellman-ford");
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp, s)?, &want).unwrap();
        trace(&tg.name, "delta-stepping");
        check_shortest_paths(&tg.arcs, &semigraph_algos::delta_stepping(&gd, s)?, &want).unwrap();
        trace(&tg.name, "delta-stepping, delta 1");
        check_shortest_paths(&tg.arcs, &semigraph_algos::delta_stepping(&gd1, s)?, &want).unwrap();
        trace(&tg.name, "fixpoint");
        let fp = semigraph_algos::fixpoint_paths(&gp, s, None)?;
        assert_eq!(
            semigraph_algos::fixpoint_paths(&gp, s, Some(D::INFINITY))?,
            fp,
            "fixpoint in one bucket, {}",
            tg.name
        );
        check_shortest_paths(&tg.arcs, &fp, &want).unwrap();
        check_smallest_witnesses(&a, &fp, &tg.name);
    }
    Ok(())
}

/// Where every weight is positive, [`semigraph_algos::fixpoint_paths`] gives each vertex the
/// smallest predecessor on a shortest path (elsewhere it runs Bellman-Ford).
fn check_smallest_witnesses<D: semigraph_algos::Distance>(
    a: &semigraph_formats::Csr<semigraph_semiring::MinPlus<D>>,
    sp: &semigraph_algos::ShortestPaths<D>,
    name: &str,
) {
    use semigraph_semiring::Number;
    if !a.vals().iter().all(|&w| w > <D as Number>::ZERO) {
        return;
    }
    let mut want = vec![semigraph_algos::NO_PARENT; sp.dist.len()];
    for (u, v, w) in a.iter() {
        let du = sp.dist[u];
        if du != D::INFINITY
            && v != sp.source
            && du.sat_plus(w).to_bits64() == sp.dist[v].to_bits64()
        {
            want[v] = want[v].min(u as u32);
        }
    }
    assert_eq!(sp.pred, want, "fixpoint predecessors, {name}");
    assert_eq!(sp.rounds, 1, "fixpoint rounds, {name}");
}

/// With `SEMIGRAPH_TEST_TRACE` set, prints the phase a long test is in (to stderr, with the
/// seconds since the first call), to find where one stalls.
fn trace(graph: &str, what: &str) {
    static START: std::sync::OnceLock<Option<std::time::Instant>> = std::sync::OnceLock::new();
    let start = START.get_or_init(|| {
        std::env::var_os("SEMIGRAPH_TEST_TRACE").map(|_| std::time::Instant::now())
    });
    if let Some(t) = start {
        eprintln!("[{:9.3}s] {graph}: {what}", t.elapsed().as_secs_f64());
    }
}

/// APSP in distance type `D`, with and without next hops, against Floyd-Warshall; every
/// next-hop path has the reported length.
fn check_apsp_in<B: Frontier, D: semigraph_algos::Distance>(
    b: &B,
    tg: &TestGraph,
    fw: &[Option<i64>],
    every_method: bool,
) -> Result<()> {
    let a = tg.csr::<D>();
    use semigraph_algos::ApspMethod;
    // (method, next hops, the graph has a pull matrix: sources use it, else upload A^T)
    let runs = [
        (ApspMethod::Squaring, false, false),
        (ApspMethod::Squaring, true, false),
        (ApspMethod::Sources, true, true),
        (ApspMethod::Sources, false, false),
        (ApspMethod::Auto, false, false),
    ];
    for (method, next_hop, pull) in runs.into_iter().take(if every_method { 5 } else { 2 }) {
        let opts = semigraph_algos::ApspOptions { next_hop, method };
        let gopts = semigraph_algos::GraphOptions {
            pull,
            ..Default::default()
        };
        let g = semigraph_algos::Graph::new(b, &a, gopts)?;
        let r = semigraph_algos::apsp(&g, &opts)?;
        assert_ne!(r.method, ApspMethod::Auto, "apsp says which method ran");
        if method != ApspMethod::Auto {
            assert_eq!(r.method, method);
        }
        if let Err(e) = semigraph_algos::testing::check_apsp_against(&tg.arcs, fw, &r) {
            panic!(
                "apsp ({method:?}, next hops {next_hop}) {} in {}: {e}",
                tg.name,
                std::any::type_name::<D>()
            );
        }
    }
    Ok(())
}
