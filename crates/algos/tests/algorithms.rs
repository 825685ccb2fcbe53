#![allow(missing_docs)]
//! Algorithms on the CPU backend: property tests on random graphs (checked exactly against the
//! oracles of `semigraph_algos::testing`) and peer cases from the repository's `data/` with
//! published answers.

use proptest::prelude::*;
use semigraph_algos::testing::*;
use semigraph_algos::*;
use semigraph_formats::io::{ReadOptions, open, read_graph};
use semigraph_formats::{EdgeList, Format};
use semigraph_semiring::{MinPlus, OrAnd};
use semigraph_testkit::data::path as data;

fn cpu() -> CpuBackend {
    CpuBackend::new()
}

fn pull() -> GraphOptions {
    GraphOptions {
        pull: true,
        ..Default::default()
    }
}

// ---- property tests ----------------------------------------------------------------------

fn graph_strategy(wlo: i64, whi: i64) -> impl Strategy<Value = TestGraph> {
    (1usize..36).prop_flat_map(move |n| {
        proptest::collection::vec((0..n, 0..n, wlo..=whi), 0..(3 * n + 4)).prop_map(move |arcs| {
            TestGraph {
                name: format!("proptest n={n}"),
                n,
                arcs,
            }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn bfs_matches_queue_oracle(g in graph_strategy(1, 1), s in 0usize..64, fmt in 0usize..6) {
        let s = s % g.n;
        let a = g.csr::<i32>().pattern::<BfsSemiring>();
        let b = cpu();
        let gr = Graph::new(&b, &a, GraphOptions { format: Some(Format::ALL[fmt]), pull: true, convert: unlimited() }).unwrap();
        for direction in [Direction::Auto, Direction::Push, Direction::Pull] {
            check_bfs(&a, &bfs(&gr, s, &BfsOptions { direction }).unwrap()).unwrap();
        }
        for r in bfs_multi(&gr, &[s, 0, g.n - 1]).unwrap() {
            check_bfs(&a, &r).unwrap();
        }
    }

    #[test]
    fn sssp_matches_dijkstra(g in graph_strategy(0, 30), s in 0usize..64, delta in 0i32..12) {
        let s = s % g.n;
        let want = oracle_dijkstra(g.n, &g.arcs, s);
        let a = g.csr::<i32>();
        let b = cpu();
        let gp = Graph::new(&b, &a, GraphOptions::default()).unwrap();
        check_shortest_paths(&g.arcs, &bellman_ford(&gp, s).unwrap(), &want).unwrap();
        let d = if delta == 0 { None } else { Some(delta) };
        let gd = DeltaGraph::new(&b, &a, d).unwrap();
        check_shortest_paths(&g.arcs, &delta_stepping(&gd, s).unwrap(), &want).unwrap();
    }

    #[test]
    fn bellman_ford_negative_weights(g in graph_strategy(-8, 25), s in 0usize..64) {
        let s = s % g.n;
        let b = cpu();
        let gp_csr = g.csr::<i32>();
        let gp = Graph::new(&b, &gp_csr, GraphOptions::default()).unwrap();
        match (oracle_bellman_ford(g.n, &g.arcs, s), bellman_ford(&gp, s)) {
            (Ok(want), Ok(sp)) => check_shortest_paths(&g.arcs, &sp, &want).unwrap(),
            (Err(()), Err(Error::NegativeCycle { cycle })) => check_negative_cycle(&g.arcs, &cycle).unwrap(),
            (w, got) => panic!("oracle {w:?} vs {got:?}"),
        }
    }

    #[test]
    fn apsp_matches_floyd_warshall(g in graph_strategy(-3, 25)) {
        let b = cpu();
        let a = g.csr::<i32>();
        let ga = Graph::new(&b, &a, GraphOptions::default()).unwrap();
        let pattern = a.pattern::<OrAnd>();
        let gp = Graph::new(&b, &pattern, GraphOptions::default()).unwrap();
        for method in [ApspMethod::Squaring, ApspMethod::Sources] {
            let got = apsp(&ga, &ApspOptions { next_hop: true, method });
            match (oracle_floyd_warshall(g.n, &g.arcs), got) {
                (Ok(fw), Ok(r)) => {
                    prop_assert_eq!(r.method, method);
                    for (k, want) in fw.iter().enumerate() {
                        prop_assert_eq!(r.distance(k / g.n, k % g.n).map(i64::from), *want);
                        if let Some(p) = r.path(k / g.n, k % g.n) {
                            prop_assert_eq!(p.len() == 1, k / g.n == k % g.n);
                        }
                    }
                    let tc = transitive_closure(&gp).unwrap();
                    prop_assert_eq!(tc, fw.iter().map(Option::is_some).collect::<Vec<_>>());
                }
                (Err(_), Err(Error::NegativeCycle { cycle })) => check_negative_cycle(&g.arcs, &cycle).unwrap(),
                (w, got) => panic!("{method:?}: oracle {w:?} vs {:?}", got.map(|r| r.rounds)),
            }
        }
    }

}

// ---- errors ------------------------------------------------------------------------------

#[test]
fn errors_are_values_not_panics() {
    let b = cpu();
    let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, -1)]).unwrap();
    let g = Graph::new(&b, &a, GraphOptions::default()).unwrap();
    assert!(matches!(
        bellman_ford(&g, 3),
        Err(Error::VertexOutOfRange { vertex: 3, n: 3 })
    ));
    assert!(matches!(
        DeltaGraph::new(&b, &a, None),
        Err(Error::NegativeWeight { from: 0, to: 1, .. })
    ));
    let pos = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 1)]).unwrap();
    assert!(matches!(
        DeltaGraph::new(&b, &pos, Some(0)),
        Err(Error::InvalidArgument(_))
    ));
    let gb_csr = pos.pattern::<BfsSemiring>();
    let gb = Graph::new(&b, &gb_csr, GraphOptions::default()).unwrap();
    let pull_only = BfsOptions {
        direction: Direction::Pull,
    };
    assert!(matches!(
        bfs(&gb, 0, &pull_only),
        Err(Error::InvalidArgument(_))
    ));
    // A self-loop of negative weight is a cycle of one vertex.
    let a = arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 1), (1, 1, -1)]).unwrap();
    let g = Graph::new(&b, &a, GraphOptions::default()).unwrap();
    match bellman_ford(&g, 0) {
        Err(Error::NegativeCycle { cycle }) => assert_eq!(cycle, vec![1]),
        other => panic!("{other:?}"),
    }
    let msg = Error::NegativeCycle { cycle: vec![4, 7] }.to_string();
    assert_eq!(msg, "negative cycle through 2 vertices: 4 -> 7 -> 4");
}

/// A push batch must not run unread a step whose frontier Beamer's rule pulls: the source's
/// one neighbour has 100 out-arcs (a small frontier, after which batches used to double),
/// and those 100 vertices hold 15,000 arcs, nearly every arc left, so the third level pulls
/// (the batch rule bounds what a step it does not watch can reach by the largest
/// out-degree).
#[test]
fn bfs_pulls_where_a_batch_would_have_pushed_unread() {
    let (n, fan, spread) = (20_000u32, 100u32, 150u32);
    let mut arcs: Vec<(u32, u32, u32)> = vec![(0, 1, 1)];
    arcs.extend((2..fan + 2).map(|v| (1, v, 1)));
    for v in 2..fan + 2 {
        for k in 0..spread {
            arcs.push((v, fan + 2 + (v * 7919 + k * 104_729) % (n - fan - 2), 1));
        }
    }
    let a = arcs_to_csr::<BfsSemiring>(n as usize, &arcs).unwrap();
    let b = cpu();
    let g = Graph::new(&b, &a, pull()).unwrap();
    let r = bfs(&g, 0, &BfsOptions::default()).unwrap();
    let push_only = bfs(
        &g,
        0,
        &BfsOptions {
            direction: Direction::Push,
        },
    )
    .unwrap();
    assert_eq!(r.levels, push_only.levels);
    assert!(
        r.pull_steps >= 1,
        "the third level must pull: {} push + {} pull levels",
        r.push_steps,
        r.pull_steps
    );
}

#[test]
fn zero_weight_cycles_keep_predecessors_acyclic() {
    // s=2 -> a=0 (1); 0 <-> 1 with weight 0: a tie through the cycle must not rewrite the
    // predecessor of 0 into a loop.
    let arcs = [(2usize, 0usize, 1i64), (0, 1, 0), (1, 0, 0)];
    let g = TestGraph {
        name: "zero cycle".into(),
        n: 3,
        arcs: arcs.to_vec(),
    };
    let b = cpu();
    let gp_csr = g.csr::<i32>();
    let gp = Graph::new(&b, &gp_csr, GraphOptions::default()).unwrap();
    let sp = bellman_ford(&gp, 2).unwrap();
    check_shortest_paths(&g.arcs, &sp, &oracle_dijkstra(3, &g.arcs, 2)).unwrap();
    assert_eq!(sp.pred, vec![2, 0, u32::MAX]);
}

// ---- peer cases from data/ ---------------------------------------------------------------

fn load(rel: &str, undirected: bool) -> EdgeList {
    read_graph(
        data(rel),
        &ReadOptions {
            undirected,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `(first token, second token)` per line of a reference file (gz/xz allowed).
/// The whitespace-separated columns of each line of a (possibly compressed) text file.
fn rows(rel: &str) -> Vec<Vec<String>> {
    let p = data(rel);
    let mut lines = open(&p, &ReadOptions::default()).unwrap();
    let mut out = Vec::new();
    while let Some((_, l)) = lines.next_line().unwrap() {
        let l = String::from_utf8_lossy(l);
        out.push(l.split_whitespace().map(str::to_string).collect());
    }
    out
}

fn pairs(rel: &str) -> Vec<(String, String)> {
    rows(rel)
        .into_iter()
        .filter(|r| r.len() >= 2)
        .map(|r| (r[0].clone(), r[1].clone()))
        .collect()
}

#[test]
fn karate_bfs_from_30() {
    let g = load("lagraph/karate.mtx", false);
    let a = g.to_pattern_csr::<BfsSemiring, u32>().unwrap();
    let b = cpu();
    let gr = Graph::new(&b, &a, pull()).unwrap();
    let r = bfs(&gr, 30, &BfsOptions::default()).unwrap();
    let want = [
        2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4, 2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2,
        0, 2, 1, 1,
    ];
    assert_eq!(r.levels, want);
    check_bfs(&a, &r).unwrap();
}

fn arcs_f64(g: &EdgeList) -> Vec<(usize, usize, f64)> {
    (0..g.len())
        .map(|k| {
            let w = g.weights.get(k).map_or(1.0, |w| {
                <f64 as semigraph_formats::WeightValue>::from_weight(w).expect("an f64 weight")
            });
            (g.src[k] as usize, g.dst[k] as usize, w)
        })
        .collect()
}

/// APSP on the graph: `Err(cycle)` if a negative cycle is reported, checked to be one.
fn negative_cycle_of(rel: &str) -> Option<Vec<u32>> {
    let g = load(rel, false);
    let a = g.to_csr::<MinPlus<f32>, u32>().unwrap();
    let b = cpu();
    match apsp(
        &Graph::new(&b, &a, GraphOptions::default()).unwrap(),
        &ApspOptions::default(),
    ) {
        Ok(_) => None,
        Err(Error::NegativeCycle { cycle }) => {
            let arcs = arcs_f64(&g);
            let mut total = 0.0;
            for k in 0..cycle.len() {
                let (u, v) = (cycle[k] as usize, cycle[(k + 1) % cycle.len()] as usize);
                total += arcs
                    .iter()
                    .filter(|x| x.0 == u && x.1 == v)
                    .map(|x| x.2)
                    .fold(f64::INFINITY, f64::min);
            }
            assert!(
                total < 0.0,
                "{rel}: reported cycle {cycle:?} weighs {total}"
            );
            Some(cycle)
        }
        Err(e) => panic!("{rel}: {e}"),
    }
}

#[test]
fn lagraph_negative_cycles() {
    assert!(negative_cycle_of("lagraph/west0067.mtx").is_some());
    assert!(negative_cycle_of("lagraph/matrix_int8.mtx").is_some());
    assert_eq!(negative_cycle_of("lagraph/karate.mtx"), None);
}

/// Runs BFS and SSSP on an LDBC graph from `source_label` and compares with the official
/// outputs. BFS levels are compared exactly; SSSP distances to a relative 1e-12 in `f64`
/// ([`path_closure`] in min-plus over `f64`) and 1e-6 in `f32` (Bellman-Ford).
fn ldbc_case(
    graph: &str,
    undirected: bool,
    source_label: i64,
    bfs_out: Option<&str>,
    sssp_out: Option<&str>,
) {
    let g = load(&format!("ldbc-graphalytics/{graph}"), undirected);
    let s = g.vertex_of_label(source_label).expect("source label");
    let b = cpu();
    if let Some(out) = bfs_out {
        let a = g.to_pattern_csr::<BfsSemiring, u32>().unwrap();
        let r = bfs(
            &Graph::new(&b, &a, pull()).unwrap(),
            s,
            &BfsOptions::default(),
        )
        .unwrap();
        let want = pairs(&format!("ldbc-graphalytics/{out}"));
        assert_eq!(want.len(), g.num_vertices(), "{out}: one line per vertex");
        for (label, value) in want {
            let v = g.vertex_of_label(label.parse().unwrap()).unwrap();
            let got = r.level(v).map_or(i64::MAX, i64::from);
            assert_eq!(got.to_string(), value, "{out}: vertex {label}");
        }
    }
    if let Some(out) = sssp_out {
        let a64 = g.to_csr::<MinPlus<f64>, u32>().unwrap();
        let (d64, _) =
            path_closure(&Graph::new(&b, &a64, GraphOptions::default()).unwrap(), s).unwrap();
        let a32 = g.to_csr::<MinPlus<f32>, u32>().unwrap();
        let sp = bellman_ford(&Graph::new(&b, &a32, GraphOptions::default()).unwrap(), s).unwrap();
        let want = pairs(&format!("ldbc-graphalytics/{out}"));
        assert_eq!(want.len(), g.num_vertices(), "{out}: one line per vertex");
        for (label, value) in want {
            let v = g.vertex_of_label(label.parse().unwrap()).unwrap();
            let w: f64 = if value == "Infinity" {
                f64::INFINITY
            } else {
                value.parse().unwrap()
            };
            // Equal-length paths can round differently (1.26 vs 1.2599999999999998): LDBC's
            // own validator compares SSSP with a relative epsilon too.
            let close = |x: f64, tol: f64| x == w || ((x - w) / w).abs() < tol;
            assert!(
                close(d64[v], 1e-12),
                "{out}: vertex {label} (f64): {} vs {w}",
                d64[v]
            );
            let got = sp.dist[v] as f64;
            assert!(
                close(got, 1e-6),
                "{out}: vertex {label} (f32): {got} vs {w}"
            );
        }
    }
}

#[test]
fn ldbc_graphalytics_outputs() {
    ldbc_case(
        "example-directed.v",
        false,
        1,
        Some("example-directed-BFS"),
        Some("example-directed-SSSP"),
    );
    ldbc_case(
        "example-undirected.v",
        true,
        2,
        Some("example-undirected-BFS"),
        Some("example-undirected-SSSP"),
    );
    ldbc_case(
        "test-bfs-directed.adj",
        false,
        1,
        Some("test-bfs-directed-BFS"),
        None,
    );
    ldbc_case(
        "test-sssp-directed.v",
        false,
        1,
        None,
        Some("test-sssp-directed-SSSP"),
    );
}

#[test]
fn dimacs_ny_bfs_levels() {
    let g = load("dimacs9-usa-road-pace16/NY.gr.xz", false);
    let a = g.to_pattern_csr::<BfsSemiring, u32>().unwrap();
    let b = cpu();
    let gr = Graph::new(&b, &a, pull()).unwrap();
    let s = g.vertex_of_label(1).unwrap();
    let want = pairs("dimacs9-usa-road-pace16/NY.bfs-levels-from-1.txt.xz");
    assert_eq!(want.len(), 264_346);
    for direction in [Direction::Auto, Direction::Push] {
        let r = bfs(&gr, s, &BfsOptions { direction }).unwrap();
        assert_eq!(r.depth, 619, "eccentricity of vertex 1 (README)");
        for (label, level) in &want {
            let v = g.vertex_of_label(label.parse().unwrap()).unwrap();
            assert_eq!(r.levels[v].to_string(), *level, "NY vertex {label}");
        }
        let sum: u64 = r.levels.iter().map(|&l| l as u64).sum();
        assert_eq!(sum, 90_771_609, "sum of levels (README)");
    }
}

#[test]
fn dimacs_rome99_sssp() {
    let g = load("dimacs9-rome99/rome99.gr", true);
    let a = g.to_csr::<MinPlus<i32>, u32>().unwrap();
    let b = cpu();
    let s = g.vertex_of_label(1).unwrap();
    let bf = bellman_ford(&Graph::new(&b, &a, GraphOptions::default()).unwrap(), s).unwrap();
    let ds = delta_stepping(&DeltaGraph::new(&b, &a, None).unwrap(), s).unwrap();
    let hops = bfs(
        &Graph::new(&b, &a.pattern::<BfsSemiring>(), pull()).unwrap(),
        s,
        &BfsOptions::default(),
    )
    .unwrap();
    let mut lines = 0;
    for row in rows("dimacs9-rome99/rome99.sssp-from-1.txt") {
        let t: Vec<i64> = row.iter().map(|x| x.parse().unwrap()).collect();
        let v = g.vertex_of_label(t[0]).unwrap();
        let want = (t[1] >= 0).then_some(t[1]);
        assert_eq!(
            bf.distance(v).map(i64::from),
            want,
            "rome99 vertex {} (Bellman-Ford)",
            t[0]
        );
        assert_eq!(
            ds.distance(v).map(i64::from),
            want,
            "rome99 vertex {} (delta-stepping)",
            t[0]
        );
        assert_eq!(
            hops.level(v).map(i64::from),
            (t[2] >= 0).then_some(t[2]),
            "rome99 hops {}",
            t[0]
        );
        lines += 1;
    }
    assert_eq!(lines, 3353);
    assert_eq!(bf.reached(), 3325);
}

// ---- distributed (simulated ranks) -------------------------------------------------------

mod dist;
