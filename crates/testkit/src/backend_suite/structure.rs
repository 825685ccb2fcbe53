//! Structural algorithms on a backend against queue algorithms on the host: core numbers
//! (directed and undirected, against repeated removal of a smallest-degree vertex), strongly
//! connected components (against Tarjan's), topological orders (checked arc by arc, and the
//! cycle named where there is one), HITS (against the power iteration written out).

use semigraph_algos::centrality::{PowerOptions, hits};
use semigraph_algos::cores::core_numbers;
use semigraph_algos::scc::scc;
use semigraph_algos::sssp::{fewest_arcs_path, shortest_path};
use semigraph_algos::testing::{oracle_bfs, oracle_dijkstra};
use semigraph_algos::toposort::toposort;
use semigraph_algos::truss::k_truss;
use semigraph_algos::{Error, Frontier, Graph, GraphOptions};
use semigraph_semiring::OrAnd;

use super::algorithms::test_graphs;

/// A graph of the checks: `(name, n, symmetric, arcs)`.
type Case = (String, usize, bool, Vec<(u32, u32)>);

/// Each test graph's arcs without self loops or repeats, as they are and (unless large) with
/// every arc's reverse: `(name, n, symmetric, arcs)`; plus cycles and chains whose vertex
/// order runs against their arcs.
fn cases() -> Vec<Case> {
    let mut out = vec![];
    for t in test_graphs() {
        let mut arcs: Vec<(u32, u32)> = t
            .arcs
            .iter()
            .filter(|&&(u, v, _)| u != v)
            .map(|&(u, v, _)| (u as u32, v as u32))
            .collect();
        arcs.sort_unstable();
        arcs.dedup();
        let mut both = arcs.clone();
        both.extend(arcs.iter().map(|&(u, v)| (v, u)));
        both.sort_unstable();
        both.dedup();
        if t.n <= 600 {
            out.push((t.name.clone(), t.n, true, both));
        }
        out.push((t.name, t.n, false, arcs));
    }
    // Cycles in a row, each into the next, numbered against the arcs: a phase per cycle
    // for the colouring, none for the trimming.
    let mut chain = vec![];
    for c in 0..20u32 {
        let base = 60 - 3 * c;
        chain.extend([(base, base + 1), (base + 1, base + 2), (base + 2, base)]);
        if c > 0 {
            chain.push((base, base + 3));
        }
    }
    out.push(("cycles in a row".into(), 63, false, chain));
    let path: Vec<(u32, u32)> = (0..30).map(|v| (30 - v, 29 - v)).collect();
    out.push(("path against its numbers".into(), 31, false, path));
    out
}

/// The graph of `arcs` on `b`, with its pull matrix when `pull`.
fn graph<'b, B: Frontier>(
    b: &'b B,
    a: &'b semigraph_formats::Csr<OrAnd>,
    pull: bool,
) -> Result<Graph<'b, B, OrAnd>, String> {
    let opts = GraphOptions {
        pull,
        ..Default::default()
    };
    Graph::new(b, a, opts).map_err(|e| e.to_string())
}

/// `arcs` as a structure.
fn csr(n: usize, arcs: &[(u32, u32)]) -> Result<semigraph_formats::Csr<OrAnd>, String> {
    let with: Vec<_> = arcs.iter().map(|&(u, v)| (u, v, true)).collect();
    semigraph_algos::arcs_to_csr::<OrAnd>(n, &with).map_err(|e| e.to_string())
}

/// Core numbers by removing a vertex of least remaining degree, one at a time.
fn oracle_cores(n: usize, arcs: &[(u32, u32)], directed: bool) -> Vec<i64> {
    let mut nbrs = vec![vec![]; n];
    for &(u, v) in arcs {
        nbrs[u as usize].push(v as usize);
        if directed {
            nbrs[v as usize].push(u as usize);
        }
    }
    let mut deg: Vec<i64> = nbrs.iter().map(|x| x.len() as i64).collect();
    let (mut gone, mut core, mut k) = (vec![false; n], vec![0; n], 0);
    for _ in 0..n {
        let v = (0..n)
            .filter(|&v| !gone[v])
            .min_by_key(|&v| deg[v])
            .unwrap();
        k = k.max(deg[v]);
        core[v] = k;
        gone[v] = true;
        for &w in &nbrs[v] {
            deg[w] -= 1;
        }
    }
    core
}

/// Strongly connected components by Tarjan's algorithm (iterative): each vertex's smallest
/// vertex of its component.
fn oracle_scc(n: usize, arcs: &[(u32, u32)]) -> Vec<u32> {
    let mut out = vec![vec![]; n];
    for &(u, v) in arcs {
        out[u as usize].push(v as usize);
    }
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on, mut stack, mut label) = (vec![false; n], vec![], vec![u32::MAX; n]);
    let mut next = 0;
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut calls = vec![(s, 0usize)];
        while let Some(&mut (v, ref mut i)) = calls.last_mut() {
            if *i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if *i < out[v].len() {
                let w = out[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    calls.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(p, _)) = calls.last() {
                low[p] = low[p].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = vec![];
                loop {
                    let w = stack.pop().unwrap();
                    on[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let min = *members.iter().min().unwrap() as u32;
                members.iter().for_each(|&w| label[w] = min);
            }
        }
    }
    label
}

/// Core numbers (both kinds), components and topological orders (of the graph, and of its
/// arcs turned to run from the smaller vertex to the larger) against the oracles; a self
/// loop ignored by the core numbers.
pub fn check_structure<B: Frontier>(b: &B) -> Result<(), String> {
    for (name, n, symmetric, arcs) in cases() {
        let a = csr(n, &arcs)?;
        let g = graph(b, &a, symmetric)?;
        for directed in [true, false] {
            if !directed && !symmetric {
                continue;
            }
            let got = core_numbers(&g, directed).map_err(|e| e.to_string())?;
            let pairs: Vec<_> = match directed {
                true => arcs.clone(),
                false => arcs.iter().copied().filter(|&(u, v)| u < v).collect(),
            };
            let want = oracle_cores(n, &pairs, true);
            if got.cores != want {
                return Err(format!(
                    "core numbers of {name} (directed {directed}) differ"
                ));
            }
            if got.degeneracy as i64 != want.iter().copied().max().unwrap_or(0) {
                return Err(format!("degeneracy of {name}: {}", got.degeneracy));
            }
        }
        let got = scc(&g).map_err(|e| e.to_string())?;
        if got.labels != oracle_scc(n, &arcs) {
            return Err(format!("strongly connected components of {name} differ"));
        }
        match toposort(&g) {
            Ok(o) => check_order(n, &arcs, &o.order, &name)?,
            Err(Error::Cycle { cycle, .. }) => {
                let set: std::collections::HashSet<_> = arcs.iter().copied().collect();
                let ok = !cycle.is_empty()
                    && (0..cycle.len())
                        .all(|i| set.contains(&(cycle[i], cycle[(i + 1) % cycle.len()])));
                if !ok {
                    return Err(format!("{name}: {cycle:?} is not a cycle"));
                }
                if got.count() == n {
                    return Err(format!("{name}: a cycle named in a graph without one"));
                }
            }
            Err(e) => return Err(e.to_string()),
        }
        let dag: Vec<(u32, u32)> = arcs.iter().map(|&(u, v)| (u.min(v), u.max(v))).collect();
        let a = csr(n, &dag)?;
        let d = graph(b, &a, !symmetric)?;
        let o = toposort(&d).map_err(|e| format!("{name} as a DAG: {e}"))?;
        check_order(n, &dag, &o.order, &name)?;
    }
    // A self loop: ignored by the core numbers, a cycle of one vertex for the order, a
    // component of one vertex.
    let a = csr(3, &[(0, 1), (1, 1), (1, 2)])?;
    let g = graph(b, &a, false)?;
    let c = core_numbers(&g, true).map_err(|e| e.to_string())?;
    if c.cores != [1, 1, 1] || c.self_loops != 1 {
        return Err(format!("core numbers of a graph with a self loop: {c:?}"));
    }
    match toposort(&g) {
        Err(Error::Cycle { cycle, .. }) if cycle == [1] => {}
        other => return Err(format!("the order of a graph with a loop at 1: {other:?}")),
    }
    if scc(&g).map_err(|e| e.to_string())?.labels != [0, 1, 2] {
        return Err("the components of a graph with a self loop differ".into());
    }
    Ok(())
}

/// The k-truss of the undirected edges `u < v`: drop the edges on fewer than `k - 2`
/// triangles until none is; the edges left with their support.
fn oracle_truss(n: usize, edges: &[(u32, u32)], k: usize) -> Vec<(u32, u32, i64)> {
    use std::collections::BTreeSet;
    let mut left: BTreeSet<(u32, u32)> = edges.iter().copied().collect();
    loop {
        let mut adj = vec![BTreeSet::new(); n];
        for &(u, v) in &left {
            adj[u as usize].insert(v);
            adj[v as usize].insert(u);
        }
        let support =
            |&(u, v): &(u32, u32)| adj[u as usize].intersection(&adj[v as usize]).count() as i64;
        let keep: BTreeSet<_> = left
            .iter()
            .copied()
            .filter(|e| support(e) + 2 >= k as i64)
            .collect();
        if keep.len() == left.len() {
            return left.iter().map(|e| (e.0, e.1, support(e))).collect();
        }
        left = keep;
    }
}

/// The k-truss for k = 2..5 of every test graph (arcs in either direction, self loops
/// dropped) against `oracle_truss`; a self loop ignored, k < 2 refused.
pub fn check_truss<B: Frontier>(b: &B) -> Result<(), String> {
    for (name, n, _, arcs) in cases() {
        let a = csr(n, &arcs)?;
        let g = graph(b, &a, false)?;
        let mut edges: Vec<(u32, u32)> = arcs.iter().map(|&(u, v)| (u.min(v), u.max(v))).collect();
        edges.sort_unstable();
        edges.dedup();
        for k in 2..=5 {
            let got = k_truss(&g, k).map_err(|e| e.to_string())?;
            let got: Vec<_> = got
                .edges
                .iter()
                .zip(&got.support)
                .map(|(&(u, v), &s)| (u, v, s))
                .collect();
            if got != oracle_truss(n, &edges, k) {
                return Err(format!("the {k}-truss of {name} differs"));
            }
        }
    }
    // A triangle with a self loop: the loop ignored; k = 1 refused.
    let a = csr(3, &[(0, 1), (1, 1), (1, 2), (2, 0)])?;
    let g = graph(b, &a, false)?;
    let t = k_truss(&g, 3).map_err(|e| e.to_string())?;
    if t.edges != [(0, 1), (0, 2), (1, 2)] || k_truss(&g, 1).is_ok() {
        return Err(format!("the 3-truss of a triangle with a self loop: {t:?}"));
    }
    Ok(())
}

/// `order` holds every vertex once, each after the tails of its in-arcs.
fn check_order(n: usize, arcs: &[(u32, u32)], order: &[u32], name: &str) -> Result<(), String> {
    let mut at = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        at[v as usize] = i;
    }
    if order.len() != n || at.contains(&usize::MAX) {
        return Err(format!("{name}: the order is not a permutation"));
    }
    match arcs.iter().find(|&&(u, v)| at[u as usize] > at[v as usize]) {
        Some(&(u, v)) => Err(format!("{name}: {u} -> {v} runs backwards in the order")),
        None => Ok(()),
    }
}

/// HITS on every test graph and its symmetric closure against the power iteration written
/// out (within `1e-6` relative), both normalizations.
pub fn check_hits<B: Frontier>(b: &B) -> Result<(), String> {
    for (name, n, _, arcs) in cases() {
        if n == 0 {
            continue;
        }
        let a = csr(n, &arcs)?;
        let g = graph(b, &a, false)?;
        let opts = PowerOptions {
            iterations: 1000,
            tolerance: 1e-12,
        };
        // The oracle: h = 1/n; a = A^T h; h = A a / sum.
        let sum_to_one = |x: &mut Vec<f64>| {
            let s: f64 = x.iter().sum();
            if s != 0.0 {
                x.iter_mut().for_each(|v| *v /= s);
            }
        };
        let auth = |h: &[f64]| {
            let mut a = vec![0.0; n];
            arcs.iter()
                .for_each(|&(u, v)| a[v as usize] += h[u as usize]);
            a
        };
        let mut h = vec![1.0 / n as f64; n];
        let mut converged = false;
        for _ in 0..opts.iterations {
            let a = auth(&h);
            let mut next = vec![0.0; n];
            arcs.iter()
                .for_each(|&(u, v)| next[u as usize] += a[v as usize]);
            sum_to_one(&mut next);
            let change: f64 = next.iter().zip(&h).map(|(x, y)| (x - y).abs()).sum();
            h = next;
            if change < opts.tolerance {
                converged = true;
                break;
            }
        }
        let got = hits(&g, true, &opts);
        if n < 2 || arcs.is_empty() {
            match got {
                Err(Error::InvalidArgument(_)) => continue,
                _ => return Err(format!("HITS of {name} (no arc or one vertex) not refused")),
            }
        }
        match (got, converged) {
            (Ok(got), true) => {
                let mut want_a = auth(&h);
                sum_to_one(&mut want_a);
                for (what, x, y) in [
                    ("hubs", &got.hubs, &h),
                    ("authorities", &got.authorities, &want_a),
                ] {
                    if let Some(v) =
                        (0..n).find(|&v| (x[v] - y[v]).abs() > 1e-6 * y[v].abs().max(1e-3))
                    {
                        return Err(format!(
                            "HITS {what} of {name}: vertex {v}: {} != {}",
                            x[v], y[v]
                        ));
                    }
                }
                let raw = hits(&g, false, &opts).map_err(|e| e.to_string())?;
                let norm: f64 = raw.authorities.iter().map(|x| x * x).sum::<f64>().sqrt();
                if (norm - 1.0).abs() > 1e-9 {
                    return Err(format!(
                        "HITS of {name}: unnormalized authorities of norm {norm}"
                    ));
                }
            }
            (Err(Error::NotConverged { .. }), false) => {}
            (got, _) => {
                return Err(format!(
                    "HITS of {name}: {:?} where the oracle converged: {converged}",
                    got.map(|h| h.iterations)
                ));
            }
        }
    }
    Ok(())
}

/// Paths from vertex 0 to every vertex of each test graph (weights as given, and fewest
/// arcs): each a walk along the graph's arcs from 0 to the target whose length is the
/// oracle's distance; a target not reached is [`Error::NoPath`].
pub fn check_paths<B: Frontier>(b: &B) -> Result<(), String> {
    use semigraph_semiring::MinPlus;
    for t in test_graphs().into_iter().filter(|t| t.n > 0 && t.n <= 600) {
        let d = t.csr::<f64>();
        let g = Graph::new(b, &d, GraphOptions::default()).map_err(|e| e.to_string())?;
        let levels = d.map::<semigraph_algos::BfsSemiring>(|_| 1);
        let h = Graph::new(b, &levels, GraphOptions::default()).map_err(|e| e.to_string())?;
        let dist = oracle_dijkstra(t.n, &t.arcs, 0);
        let hops = oracle_bfs(&d, 0);
        for v in (0..t.n).step_by(7) {
            for (weighted, want) in [
                (true, dist[v].map(|x| x as f64)),
                (false, hops[v].map(f64::from)),
            ] {
                let got = match weighted {
                    true => shortest_path(&g, 0, v),
                    false => fewest_arcs_path(&h, 0, v),
                };
                let what = format!("path 0 -> {v} on {} (weighted {weighted})", t.name);
                match (got, want) {
                    (Ok(p), Some(len)) => {
                        let mut sum = 0.0;
                        for w in p.vertices.windows(2) {
                            let arc = d.get(w[0] as usize, w[1] as usize);
                            let x: Option<f64> = arc.filter(|x| {
                                *x != <MinPlus<f64> as semigraph_semiring::Semiring>::zero()
                            });
                            sum += match (x, weighted) {
                                (Some(x), true) => x,
                                (Some(_), false) => 1.0,
                                (None, _) => return Err(format!("{what}: {w:?} is no arc")),
                            };
                        }
                        if p.vertices.first() != Some(&0) || p.vertices.last() != Some(&(v as u32))
                        {
                            return Err(format!("{what}: {:?} has the wrong ends", p.vertices));
                        }
                        if sum != len || p.length != len {
                            return Err(format!("{what}: length {sum} ({}) != {len}", p.length));
                        }
                    }
                    (Err(Error::NoPath { .. }), None) => {}
                    (got, want) => {
                        return Err(format!("{what}: {got:?} where the oracle has {want:?}"));
                    }
                }
            }
        }
    }
    Ok(())
}
