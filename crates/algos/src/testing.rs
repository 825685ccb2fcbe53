//! Reference oracles and result checks: queue BFS, binary-heap Dijkstra, textbook
//! Bellman-Ford, Floyd-Warshall, and the checks that an algorithm's result is right (BFS
//! levels and parent trees, shortest-path distances and the paths their predecessors rebuild,
//! negative cycles). The demo uses them to check its results; the backend test suite (in the
//! `semigraph-testkit` crate) and the algorithm tests use them too.
//!
//! Values compared here are exact: `==`, or bitwise equal ([`same`]). The checks return
//! `Err(message)` on the first difference (tests unwrap them; the demo prints them).

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
    S::ADD == semigraph_semiring::Op::Any
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

/// Brandes' betweenness by queue BFS from each source in `sources` over the arcs of `a`
/// (parallel arcs once): the sums over ordered pairs, unscaled.
pub fn oracle_betweenness<S: Semiring>(a: &Csr<S>, sources: &[usize]) -> Vec<f64> {
    brandes(a, sources, |_, _, _| {})
}

/// Brandes' edge betweenness by queue BFS, as [`oracle_betweenness`]: each arc's sum over
/// ordered pairs, unscaled (arcs on no shortest path absent).
pub fn oracle_arc_betweenness<S: Semiring>(
    a: &Csr<S>,
    sources: &[usize],
) -> std::collections::BTreeMap<(u32, u32), f64> {
    let mut arcs = std::collections::BTreeMap::new();
    brandes(a, sources, |v, w, c| {
        *arcs.entry((v as u32, w as u32)).or_insert(0.0) += c;
    });
    arcs
}

/// Brandes' betweenness over least-weight paths by Dijkstra, as NetworkX's
/// `_single_source_dijkstra_path_basic` counts them (a path where `dist + weight == seen`):
/// the vertices' sums over `sources` and each arc's share, unscaled (arcs on no
/// least-weight path absent; self loops skipped). Weights must be positive.
pub fn oracle_weighted_betweenness(
    a: &Csr<MinPlus<f64>>,
    sources: &[usize],
) -> (Vec<f64>, std::collections::BTreeMap<(u32, u32), f64>) {
    use std::cmp::Reverse;
    let n = a.nrows();
    let mut bc = vec![0.0; n];
    let mut arcs = std::collections::BTreeMap::new();
    for &s in sources {
        let (mut dist, mut sigma) = (vec![f64::INFINITY; n], vec![0.0f64; n]);
        let (mut preds, mut done, mut order) = (vec![Vec::new(); n], vec![false; n], vec![]);
        dist[s] = 0.0;
        sigma[s] = 1.0;
        // Non-negative f64 order as their bits do.
        let mut heap = std::collections::BinaryHeap::from([Reverse((0u64, s))]);
        while let Some(Reverse((_, u))) = heap.pop() {
            if std::mem::replace(&mut done[u], true) {
                continue;
            }
            order.push(u);
            let (cols, ws) = a.row(u);
            for (&v, &w) in cols.iter().zip(ws) {
                let (v, alt) = (v as usize, dist[u] + w);
                if v == u {
                    continue;
                }
                if alt < dist[v] {
                    (dist[v], sigma[v], preds[v]) = (alt, sigma[u], vec![u]);
                    heap.push(Reverse((alt.to_bits(), v)));
                } else if alt == dist[v] {
                    sigma[v] += sigma[u];
                    preds[v].push(u);
                }
            }
        }
        backward(s, &order, &preds, &sigma, &mut bc, |v, w, c| {
            *arcs.entry((v as u32, w as u32)).or_insert(0.0) += c;
        });
    }
    (bc, arcs)
}

/// Brandes' backward sweep from source `s`: the vertices in the order they were settled, each
/// one's predecessors on shortest paths and its path count; adds the dependencies to `bc`
/// (the source's own left out) and hands each arc's share to `arc(v, w, c)`.
fn backward(
    s: usize,
    order: &[usize],
    preds: &[Vec<usize>],
    sigma: &[f64],
    bc: &mut [f64],
    mut arc: impl FnMut(usize, usize, f64),
) {
    let mut delta = vec![0.0f64; sigma.len()];
    for &w in order.iter().rev() {
        for &v in &preds[w] {
            let c = sigma[v] / sigma[w] * (1.0 + delta[w]);
            arc(v, w, c);
            delta[v] += c;
        }
        if w != s {
            bc[w] += delta[w];
        }
    }
}

/// Brandes' sweep: the vertices' sums, and each arc's share `c` of one source handed to
/// `arc(v, w, c)`.
fn brandes<S: Semiring>(
    a: &Csr<S>,
    sources: &[usize],
    mut arc: impl FnMut(usize, usize, f64),
) -> Vec<f64> {
    let n = a.nrows();
    let mut bc = vec![0.0; n];
    for &s in sources {
        let (mut sigma, mut dist) = (vec![0.0f64; n], vec![usize::MAX; n]);
        let (mut order, mut preds) = (Vec::new(), vec![Vec::new(); n]);
        sigma[s] = 1.0;
        dist[s] = 0;
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            order.push(u);
            let mut row: Vec<usize> = a.row(u).0.iter().map(|&v| v as usize).collect();
            row.dedup();
            for v in row {
                if dist[v] == usize::MAX {
                    dist[v] = dist[u] + 1;
                    q.push_back(v);
                }
                if dist[v] == dist[u] + 1 {
                    sigma[v] += sigma[u];
                    preds[v].push(u);
                }
            }
        }
        backward(s, &order, &preds, &sigma, &mut bc, &mut arc);
    }
    bc
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

/// `Err(message)` unless `cond`.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// Checks a BFS result against the queue oracle and its own parent tree: the levels equal the
/// oracle's; every reached non-source vertex has a reached parent with an arc to it and a
/// level one lower; the parent is the smallest such vertex.
///
/// # Errors
/// The first difference, in words.
#[allow(clippy::needless_range_loop)]
pub fn check_bfs<S: Semiring>(a: &Csr<S>, r: &crate::bfs::Bfs) -> Result<(), String> {
    let want = oracle_bfs(a, r.source);
    let reached: Vec<u32> = want.iter().flatten().copied().collect();
    let src = r.source;
    ensure!(
        r.reached == reached.len(),
        "{} vertices reached from {src}, the queue BFS reaches {}",
        r.reached,
        reached.len()
    );
    let depth = reached.iter().copied().max().unwrap_or(0);
    ensure!(
        r.depth == depth,
        "depth {} from {src}, expected {depth}",
        r.depth
    );
    let at = a.transpose();
    for v in 0..a.nrows() {
        ensure!(
            r.level(v) == want[v],
            "level of {v} from {src} is {:?}, expected {:?}",
            r.level(v),
            want[v]
        );
        match (r.level(v), r.parent(v)) {
            (None, None) => {}
            (Some(0), Some(p)) => ensure!(
                (v, p as usize) == (src, src),
                "vertex {v} at level 0 with parent {p} (source {src})"
            ),
            (Some(l), Some(p)) => {
                let p = p as usize;
                ensure!(a.get(p, v).is_some(), "parent arc {p} -> {v} missing");
                ensure!(
                    r.level(p) == Some(l - 1),
                    "parent {p} of {v} is not one level up"
                );
                let smallest = at
                    .row(v)
                    .0
                    .iter()
                    .map(|&u| u as usize)
                    .find(|&u| r.level(u) == Some(l - 1));
                ensure!(
                    smallest == Some(p),
                    "parent of {v} is {p}, the smallest candidate is {smallest:?}"
                );
            }
            other => return Err(format!("vertex {v}: level/parent disagree: {other:?}")),
        }
        // A path along parents has one vertex per level.
        ensure!(
            r.path_to(v).map(|p| p.len() as u32) == r.level(v).map(|l| l + 1),
            "the path to {v} does not have one vertex per level"
        );
    }
    Ok(())
}

/// Checks shortest paths against exact `want` distances and the path properties: no arc can
/// relax a distance (`d(v) <= d(u) + w`), and predecessors rebuild a path of the reported
/// length.
///
/// # Errors
/// The first difference, in words.
#[allow(clippy::needless_range_loop)]
pub fn check_shortest_paths<D: crate::sssp::Distance>(
    arcs: &[(usize, usize, i64)],
    sp: &crate::sssp::ShortestPaths<D>,
    want: &[Option<i64>],
) -> Result<(), String> {
    let n = want.len();
    let val = |d: D| d.to_f64() as i64;
    for v in 0..n {
        ensure!(
            sp.distance(v).map(val) == want[v],
            "distance of {v} from {} is {:?}, expected {:?}",
            sp.source,
            sp.distance(v).map(val),
            want[v]
        );
    }
    let w = lightest_arcs(arcs);
    for &(u, v, x) in arcs {
        if let (Some(du), Some(dv)) = (sp.distance(u), sp.distance(v)) {
            ensure!(val(dv) <= val(du) + x, "arc {u} -> {v} relaxes {}", val(dv));
        }
    }
    for v in 0..n {
        if let Some(dv) = sp.distance(v) {
            let Some(path) = sp.path_to(v) else {
                return Err(format!("no path rebuilt to {v}"));
            };
            ensure!(
                path[0] as usize == sp.source,
                "the path to {v} starts at {}",
                path[0]
            );
            let len = path_length(&w, &path)?;
            ensure!(
                len == val(dv),
                "the path to {v} has length {len}, the distance is {}",
                val(dv)
            );
        }
    }
    Ok(())
}

/// Checks all-pairs distances against Floyd-Warshall and that every next-hop path (when
/// there are next hops) has the reported length.
///
/// # Errors
/// The first difference, in words; a negative cycle among `arcs`.
pub fn check_apsp<D: crate::sssp::Distance>(
    arcs: &[(usize, usize, i64)],
    r: &crate::apsp::Apsp<D>,
) -> Result<(), String> {
    let fw = oracle_floyd_warshall(r.n, arcs)
        .map_err(|v| format!("vertex {v} lies on a negative cycle"))?;
    check_apsp_against(arcs, &fw, r)
}

/// [`check_apsp`] against distances `fw` already found ([`oracle_floyd_warshall`]'s, row `i`
/// at `i * n`): each distance equal, and where there are next hops a path exactly where
/// there is a distance, of that length.
///
/// # Errors
/// The first difference, in words.
pub fn check_apsp_against<D: crate::sssp::Distance>(
    arcs: &[(usize, usize, i64)],
    fw: &[Option<i64>],
    r: &crate::apsp::Apsp<D>,
) -> Result<(), String> {
    let n = r.n;
    ensure!(fw.len() == n * n, "{} distances for {n} vertices", fw.len());
    let w = lightest_arcs(arcs);
    for i in 0..n {
        for j in 0..n {
            let want = fw[i * n + j];
            let got = r.distance(i, j).map(|d| d.to_f64() as i64);
            ensure!(
                got == want,
                "distance {i} -> {j} is {got:?}, Floyd-Warshall gives {want:?}"
            );
            if r.next.is_none() {
                continue;
            }
            let path = r.path(i, j);
            ensure!(
                path.is_some() == want.is_some(),
                "a next-hop path {i} -> {j}: {path:?}, the distance {want:?}"
            );
            if let Some(p) = path {
                let len = path_length(&w, &p)?;
                ensure!(
                    Some(len) == want,
                    "the next-hop path {i} -> {j} has length {len}"
                );
            }
        }
    }
    Ok(())
}

/// The lightest weight of each arc.
fn lightest_arcs(arcs: &[(usize, usize, i64)]) -> std::collections::HashMap<(usize, usize), i64> {
    let mut w = std::collections::HashMap::new();
    for &(u, v, x) in arcs {
        let e = w.entry((u, v)).or_insert(x);
        *e = (*e).min(x);
    }
    w
}

/// The length of `path` over the arcs of `w`.
fn path_length(
    w: &std::collections::HashMap<(usize, usize), i64>,
    path: &[u32],
) -> Result<i64, String> {
    path.windows(2)
        .map(|p| {
            let (u, v) = (p[0] as usize, p[1] as usize);
            w.get(&(u, v))
                .copied()
                .ok_or_else(|| format!("a path uses a missing arc {u} -> {v}"))
        })
        .sum()
}

/// Checks that `cycle` is a cycle of `arcs` with negative total weight.
///
/// # Errors
/// What is wrong, in words.
pub fn check_negative_cycle(arcs: &[(usize, usize, i64)], cycle: &[u32]) -> Result<(), String> {
    ensure!(!cycle.is_empty(), "an empty cycle");
    let w = lightest_arcs(arcs);
    let mut closed = cycle.to_vec();
    closed.push(cycle[0]);
    let total = path_length(&w, &closed)?;
    ensure!(
        total < 0,
        "cycle {cycle:?} has weight {total}, not negative"
    );
    Ok(())
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
    pub fn csr<D: crate::sssp::Distance>(&self) -> Csr<MinPlus<D>> {
        let arcs: Vec<(u32, u32, D)> = self
            .arcs
            .iter()
            .map(|&(u, v, w)| (u as u32, v as u32, D::from_f64(w as f64)))
            .collect();
        crate::graph::arcs_to_csr(self.n, &arcs).expect("valid arcs")
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
