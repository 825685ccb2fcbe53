//! Independent sets, colorings and matchings on a backend, checked by their definitions on
//! the host (the neighbours of each vertex: its arcs either way, self loops left out), for
//! several seeds on every test graph: independent and maximal; proper, each color class
//! maximal among the vertices it was drawn from; disjoint edges of the graph, maximal; and
//! minimum spanning forests against Kruskal's weight, a forest of the graph's lightest arcs
//! spanning every component; maximum flows against Edmonds and Karp's.

use std::collections::BTreeSet;

use semigraph_algos::combinatorial::{
    coloring, maximal_independent_set, maximal_matching, maximum_flow, minimum_spanning_forest,
};
use semigraph_algos::{Frontier, Graph, GraphOptions, NO_PARENT};
use semigraph_semiring::{MaxMin, OrAnd};

use super::algorithms::test_graphs;

/// Checks the three on every test graph for seeds 0, 1 and 7.
pub fn check_combinatorial<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let n = t.n;
        let a = t.csr::<f64>().map::<OrAnd>(|_| true);
        let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
        let mut nbrs = vec![BTreeSet::new(); n];
        for &(u, v, _) in &t.arcs {
            if u != v {
                nbrs[u].insert(v);
                nbrs[v].insert(u);
            }
        }
        let name = &t.name;
        check_forest(b, &t)?;
        check_flow(b, &t)?;
        for seed in [0, 1, 7] {
            let s = maximal_independent_set(&g, seed).map_err(|e| e.to_string())?;
            let m = &s.members;
            for v in 0..n {
                let inside = nbrs[v].iter().filter(|&&u| m[u]).count();
                if m[v] && inside > 0 {
                    return Err(format!("{name}, seed {seed}: members {v} and a neighbour"));
                }
                if !m[v] && inside == 0 {
                    return Err(format!("{name}, seed {seed}: {v} could join the set"));
                }
            }
            if s.size != m.iter().filter(|&&x| x).count() {
                return Err(format!("{name}, seed {seed}: size {} miscounted", s.size));
            }

            let c = coloring(&g, seed).map_err(|e| e.to_string())?;
            let k = &c.colors;
            let used = k.iter().map(|&x| x as usize + 1).max().unwrap_or(0);
            if used != c.count {
                return Err(format!(
                    "{name}, seed {seed}: {} colors, {used} used",
                    c.count
                ));
            }
            for v in 0..n {
                if let Some(u) = nbrs[v].iter().find(|&&u| k[u] == k[v]) {
                    return Err(format!("{name}, seed {seed}: {v} and {u} share a color"));
                }
                // Each class maximal: a neighbour of every color below.
                let below: BTreeSet<u32> = nbrs[v].iter().map(|&u| k[u]).collect();
                if (0..k[v]).any(|c| !below.contains(&c)) {
                    return Err(format!("{name}, seed {seed}: {v} could take a lower color"));
                }
            }

            let mm = maximal_matching(&g, seed).map_err(|e| e.to_string())?;
            let mut mate = vec![NO_PARENT; n];
            for &(u, v) in &mm.pairs {
                let (u, v) = (u as usize, v as usize);
                if u >= v || !nbrs[u].contains(&v) {
                    return Err(format!("{name}, seed {seed}: ({u}, {v}) is no edge u < v"));
                }
                if mate[u] != NO_PARENT || mate[v] != NO_PARENT {
                    return Err(format!(
                        "{name}, seed {seed}: ({u}, {v}) meets another pair"
                    ));
                }
                (mate[u], mate[v]) = (v as u32, u as u32);
            }
            if mate != mm.mates {
                return Err(format!("{name}, seed {seed}: the mates are not the pairs'"));
            }
            for u in 0..n {
                if let Some(v) = nbrs[u]
                    .iter()
                    .find(|&&v| mate[u] == NO_PARENT && mate[v] == NO_PARENT)
                {
                    return Err(format!("{name}, seed {seed}: ({u}, {v}) could be matched"));
                }
            }
        }
    }
    Ok(())
}

/// The minimum spanning forest of a test graph (its weights, the lighter of two arcs)
/// against Kruskal's on the host: the same weight, `n - components` edges of the graph at
/// their weights, no cycle.
fn check_forest<B: Frontier>(b: &B, t: &semigraph_algos::testing::TestGraph) -> Result<(), String> {
    let n = t.n;
    let mut light = std::collections::BTreeMap::<(usize, usize), f64>::new();
    for &(u, v, w) in t.arcs.iter().filter(|a| a.0 != a.1) {
        let e = light.entry((u.min(v), u.max(v))).or_insert(f64::INFINITY);
        *e = e.min(w as f64);
    }
    let a = t.csr::<f64>();
    let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
    let f = minimum_spanning_forest(&g).map_err(|e| e.to_string())?;
    // Kruskal.
    let mut sorted: Vec<_> = light.iter().map(|(&e, &w)| (w, e)).collect();
    sorted.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let mut root: Vec<usize> = (0..n).collect();
    fn find(r: &mut [usize], mut v: usize) -> usize {
        while r[v] != v {
            r[v] = r[r[v]];
            v = r[v];
        }
        v
    }
    let (mut weight, mut count) = (0.0, 0);
    for (w, (u, v)) in sorted {
        let (ru, rv) = (find(&mut root, u), find(&mut root, v));
        if ru != rv {
            root[ru] = rv;
            weight += w;
            count += 1;
        }
    }
    let name = &t.name;
    if f.edges.len() != count || f.weights.len() != count || (f.weight - weight).abs() > 1e-9 {
        return Err(format!(
            "{name}: forest of {} edges, weight {} (Kruskal: {count}, {weight})",
            f.edges.len(),
            f.weight
        ));
    }
    let mut root: Vec<usize> = (0..n).collect();
    for (&(u, v), &w) in f.edges.iter().zip(&f.weights) {
        let (u, v) = (u as usize, v as usize);
        if u >= v || light.get(&(u, v)) != Some(&w) {
            return Err(format!("{name}: ({u}, {v}, {w}) is no lightest edge u < v"));
        }
        let (ru, rv) = (find(&mut root, u), find(&mut root, v));
        if ru == rv {
            return Err(format!("{name}: ({u}, {v}) closes a cycle"));
        }
        root[ru] = rv;
    }
    Ok(())
}

/// Maximum flows between a few pairs of a test graph (its weights the capacities, parallel
/// arcs the largest, self loops ignored) against Edmonds and Karp's on the host.
fn check_flow<B: Frontier>(b: &B, t: &semigraph_algos::testing::TestGraph) -> Result<(), String> {
    let n = t.n;
    if n < 2 {
        return Ok(());
    }
    let arcs: Vec<_> = t
        .arcs
        .iter()
        .map(|&(u, v, w)| (u as u32, v as u32, w as f64))
        .collect();
    let a = semigraph_algos::arcs_to_csr::<MaxMin<f64>>(n, &arcs).map_err(|e| e.to_string())?;
    let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
    let mut cap = std::collections::HashMap::<(usize, usize), f64>::new();
    for (u, (cols, vals)) in (0..n).map(|u| (u, a.row(u))) {
        for (&v, &c) in cols.iter().zip(vals) {
            if u != v as usize {
                *cap.entry((u, v as usize)).or_default() += c;
            }
        }
    }
    for (s, sink) in [(0, n - 1), (n - 1, 0), (n / 2, n / 3 + 1), (1, n / 2)] {
        if s == sink {
            continue;
        }
        let want = edmonds_karp(n, &cap, s, sink);
        let got = maximum_flow(&g, s, sink).map_err(|e| e.to_string())?;
        if (got.value - want).abs() > 1e-9 * want.max(1.0) {
            return Err(format!(
                "{}: flow {s} -> {sink} {} (expected {want})",
                t.name, got.value
            ));
        }
    }
    if maximum_flow(&g, 0, 0).is_ok() {
        return Err(format!(
            "{}: a flow from a vertex to itself was answered",
            t.name
        ));
    }
    Ok(())
}

/// The maximum flow's value by shortest augmenting paths.
fn edmonds_karp(
    n: usize,
    cap: &std::collections::HashMap<(usize, usize), f64>,
    s: usize,
    t: usize,
) -> f64 {
    let mut r = cap.clone();
    let mut nbrs = vec![BTreeSet::new(); n];
    for &(u, v) in cap.keys() {
        nbrs[u].insert(v);
        nbrs[v].insert(u);
    }
    let mut total = 0.0;
    loop {
        let mut parent = vec![usize::MAX; n];
        parent[s] = s;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for &v in &nbrs[u] {
                if parent[v] == usize::MAX && r.get(&(u, v)).copied().unwrap_or(0.0) > 0.0 {
                    parent[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if parent[t] == usize::MAX {
            return total;
        }
        let mut delta = f64::INFINITY;
        let mut v = t;
        while v != s {
            delta = delta.min(r[&(parent[v], v)]);
            v = parent[v];
        }
        let mut v = t;
        while v != s {
            let u = parent[v];
            *r.get_mut(&(u, v)).unwrap() -= delta;
            *r.entry((v, u)).or_default() += delta;
            v = u;
        }
        total += delta;
    }
}
