//! Reference oracles and result checks: queue BFS, binary-heap Dijkstra, textbook
//! Bellman-Ford, Floyd-Warshall, and the checks that an algorithm's result is right (BFS
//! levels and parent trees, shortest-path distances and the paths their predecessors rebuild,
//! negative cycles). The demo uses them to check its results; the backend test suite (in the
//! `semigraph-testkit` crate) and the algorithm tests use them too.
//!
//! Values compared here are exact: `==`, or bitwise equal ([`same`]).

use std::collections::{BinaryHeap, VecDeque};

use semigraph_formats::Csr;
use semigraph_formats::generate::Rng;
use semigraph_semiring::{MinPlus, Scalar, Semiring};

/// `a` and `b` are the same value (`==`, or bitwise equal).
pub fn same<S: Semiring>(a: S::T, b: S::T) -> bool {
    a == b || a.to_bits64() == b.to_bits64()
}

/// `true` for semirings whose `add` may pick any of its operands (results are checked for
/// validity, not equality).
pub fn picks_any<S: Semiring>() -> bool {
    S::NAME == "any_secondi"
}

/// Conversion options without fill limits (test matrices are small).
pub fn unlimited() -> semigraph_formats::ConvertOptions {
    semigraph_formats::ConvertOptions {
        max_fill: f64::INFINITY,
        ..Default::default()
    }
}

// ---- oracles -----------------------------------------------------------------------------

/// Queue BFS levels from `source` over the arcs of `a` (`None` = unreached).
pub fn oracle_bfs<S: Semiring>(a: &Csr<S>, source: usize) -> Vec<Option<u32>> {
    let mut level = vec![None; a.nrows()];
    level[source] = Some(0);
    let mut q = VecDeque::from([source]);
    while let Some(u) = q.pop_front() {
        for &v in a.row(u).0 {
            let v = v as usize;
            if level[v].is_none() {
                level[v] = Some(level[u].unwrap() + 1);
                q.push_back(v);
            }
        }
    }
    level
}

/// Binary-heap Dijkstra over `i64` weights (must be non-negative).
pub fn oracle_dijkstra(n: usize, arcs: &[(usize, usize, i64)], source: usize) -> Vec<Option<i64>> {
    let mut adj = vec![Vec::new(); n];
    for &(u, v, w) in arcs {
        assert!(w >= 0, "Dijkstra oracle needs non-negative weights");
        adj[u].push((v, w));
    }
    let mut dist = vec![None; n];
    let mut heap = BinaryHeap::from([std::cmp::Reverse((0i64, source))]);
    while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
        if dist[u].is_some() {
            continue;
        }
        dist[u] = Some(d);
        for &(v, w) in &adj[u] {
            if dist[v].is_none() {
                heap.push(std::cmp::Reverse((d + w, v)));
            }
        }
    }
    dist
}

/// Floyd-Warshall over `i64` weights: `Some(dist)` per pair, `None` if unreachable; `Err` with
/// a vertex on a negative cycle.
pub fn oracle_floyd_warshall(
    n: usize,
    arcs: &[(usize, usize, i64)],
) -> std::result::Result<Vec<Option<i64>>, usize> {
    let mut d = vec![None; n * n];
    for i in 0..n {
        d[i * n + i] = Some(0);
    }
    for &(u, v, w) in arcs {
        let e = &mut d[u * n + v];
        *e = Some(e.map_or(w, |x: i64| x.min(w)));
    }
    for k in 0..n {
        for i in 0..n {
            let Some(ik) = d[i * n + k] else { continue };
            for j in 0..n {
                if let Some(kj) = d[k * n + j] {
                    let e = &mut d[i * n + j];
                    if e.is_none_or(|x| ik + kj < x) {
                        *e = Some(ik + kj);
                    }
                }
            }
        }
    }
    match (0..n).find(|&i| d[i * n + i].is_some_and(|x| x < 0)) {
        Some(v) => Err(v),
        None => Ok(d),
    }
}

/// Bellman-Ford over `i64` weights, textbook (all arcs, `n - 1` rounds, then one check).
/// `Err(())` if a negative cycle is reachable.
#[allow(clippy::result_unit_err)]
pub fn oracle_bellman_ford(
    n: usize,
    arcs: &[(usize, usize, i64)],
    source: usize,
) -> std::result::Result<Vec<Option<i64>>, ()> {
    let mut d: Vec<Option<i64>> = vec![None; n];
    d[source] = Some(0);
    for _ in 0..n {
        let mut changed = false;
        for &(u, v, w) in arcs {
            if let Some(du) = d[u]
                && d[v].is_none_or(|dv| du + w < dv)
            {
                d[v] = Some(du + w);
                changed = true;
            }
        }
        if !changed {
            return Ok(d);
        }
    }
    Err(())
}

// ---- property checks ---------------------------------------------------------------------

/// Checks a BFS result against the queue oracle and its own parent tree: the levels equal the
/// oracle's; every reached non-source vertex has a reached parent with an arc to it and a
/// level one lower; the parent is the smallest such vertex.
#[allow(clippy::needless_range_loop)]
pub fn check_bfs<S: Semiring>(a: &Csr<S>, r: &crate::Bfs) {
    let want = oracle_bfs(a, r.source);
    let reached: Vec<u32> = want.iter().flatten().copied().collect();
    assert_eq!(
        r.reached,
        reached.len(),
        "vertices reached from {}",
        r.source
    );
    assert_eq!(
        r.depth,
        reached.iter().copied().max().unwrap_or(0),
        "depth from {}",
        r.source
    );
    let at = a.transpose();
    for v in 0..a.nrows() {
        assert_eq!(r.level(v), want[v], "level of {v} from {}", r.source);
        match (r.level(v), r.parent(v)) {
            (None, None) => {}
            (Some(0), Some(p)) => assert_eq!((v, p as usize), (r.source, r.source)),
            (Some(l), Some(p)) => {
                let p = p as usize;
                assert!(a.get(p, v).is_some(), "parent arc {p} -> {v} missing");
                assert_eq!(r.level(p), Some(l - 1), "parent of {v} one level up");
                let smallest = at
                    .row(v)
                    .0
                    .iter()
                    .map(|&u| u as usize)
                    .find(|&u| r.level(u) == Some(l - 1));
                assert_eq!(smallest, Some(p), "parent of {v} is the smallest candidate");
            }
            other => panic!("vertex {v}: level/parent disagree: {other:?}"),
        }
        // A path along parents has one vertex per level.
        assert_eq!(
            r.path_to(v).map(|p| p.len() as u32),
            r.level(v).map(|l| l + 1),
            "path to {v}"
        );
    }
}

/// Checks shortest paths against exact `want` distances and the path properties: no arc can
/// relax a distance (`d(v) <= d(u) + w`), and predecessors rebuild a path of the reported
/// length.
#[allow(clippy::needless_range_loop)]
pub fn check_shortest_paths<D: crate::Distance>(
    arcs: &[(usize, usize, i64)],
    sp: &crate::ShortestPaths<D>,
    want: &[Option<i64>],
) {
    let n = want.len();
    let val = |d: D| d.to_f64() as i64;
    for v in 0..n {
        assert_eq!(
            sp.distance(v).map(val),
            want[v],
            "distance of {v} from {}",
            sp.source
        );
    }
    let mut w = std::collections::HashMap::new();
    for &(u, v, x) in arcs {
        let e = w.entry((u, v)).or_insert(x);
        *e = (*e).min(x);
        if let (Some(du), Some(dv)) = (sp.distance(u), sp.distance(v)) {
            assert!(val(dv) <= val(du) + x, "arc {u} -> {v} relaxes {}", val(dv));
        }
    }
    for v in 0..n {
        if let Some(dv) = sp.distance(v) {
            let path = sp
                .path_to(v)
                .unwrap_or_else(|| panic!("no path rebuilt to {v}"));
            assert_eq!(path[0] as usize, sp.source);
            let len: i64 = path
                .windows(2)
                .map(|p| w[&(p[0] as usize, p[1] as usize)])
                .sum();
            assert_eq!(len, val(dv), "path to {v} has the reported length");
        }
    }
}

/// Checks that `cycle` is a cycle of `arcs` with negative total weight.
pub fn check_negative_cycle(arcs: &[(usize, usize, i64)], cycle: &[u32]) {
    assert!(!cycle.is_empty(), "an empty cycle");
    let mut total = 0;
    for k in 0..cycle.len() {
        let (u, v) = (cycle[k] as usize, cycle[(k + 1) % cycle.len()] as usize);
        let w = arcs
            .iter()
            .filter(|a| a.0 == u && a.1 == v)
            .map(|a| a.2)
            .min()
            .unwrap_or_else(|| panic!("cycle uses a missing arc {u} -> {v}"));
        total += w;
    }
    assert!(
        total < 0,
        "cycle {cycle:?} has weight {total}, not negative"
    );
}

/// A graph with integer weights for the algorithm suite.
#[derive(Clone, Debug)]
pub struct TestGraph {
    /// Name for messages.
    pub name: String,
    /// Vertices.
    pub n: usize,
    /// Arcs `(u, v, w)`.
    pub arcs: Vec<(usize, usize, i64)>,
}

impl TestGraph {
    /// As a min-plus CSR (parallel arcs keep the lightest).
    pub fn csr<D: crate::Distance>(&self) -> Csr<MinPlus<D>> {
        let arcs: Vec<(u32, u32, D)> = self
            .arcs
            .iter()
            .map(|&(u, v, w)| (u as u32, v as u32, D::from_f64(w as f64)))
            .collect();
        crate::arcs_to_csr(self.n, &arcs).expect("valid arcs")
    }

    /// From an edge list with integer weights (unit weights if it has none).
    pub fn from_edges(name: &str, g: &semigraph_formats::EdgeList) -> TestGraph {
        let arcs = (0..g.len())
            .map(|k| {
                let w = g.weights.get(k).map_or(1, |w| {
                    <i64 as semigraph_formats::WeightValue>::from_weight(w)
                        .expect("test graphs have integer weights")
                });
                (g.src[k] as usize, g.dst[k] as usize, w)
            })
            .collect();
        TestGraph {
            name: name.into(),
            n: g.num_vertices(),
            arcs,
        }
    }

    /// Random arcs with weights in `lo..=hi`.
    pub fn random(n: usize, m: usize, lo: i64, hi: i64, seed: u64) -> TestGraph {
        let rng = Rng::new(seed);
        let arcs = (0..m as u64)
            .map(|k| {
                let u = rng.below(3 * k, n as u64) as usize;
                let v = rng.below(3 * k + 1, n as u64) as usize;
                (u, v, lo + rng.below(3 * k + 2, (hi - lo + 1) as u64) as i64)
            })
            .collect();
        TestGraph {
            name: format!("random n={n} m={m} w={lo}..={hi} seed={seed}"),
            n,
            arcs,
        }
    }

    /// Random arcs `u -> v` with `u < v` only (a DAG: no cycle, negative weights are safe).
    pub fn random_dag(n: usize, m: usize, lo: i64, hi: i64, seed: u64) -> TestGraph {
        let mut g = TestGraph::random(n, m, lo, hi, seed);
        g.arcs.retain(|a| a.0 != a.1);
        for a in &mut g.arcs {
            if a.0 > a.1 {
                std::mem::swap(&mut a.0, &mut a.1);
            }
        }
        g.name = format!("dag {}", g.name);
        g
    }
}
