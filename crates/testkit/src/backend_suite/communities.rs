//! Modularity, Louvain and Leiden on a backend against NetworkX's definition computed on the host:
//! `Q = sum_c L_c / m - gamma (d_c / 2m)^2` over the undirected edges of every test graph
//! (each edge once, weighted and not, self loops kept).

use std::collections::BTreeMap;

use semigraph_algos::communities::{LouvainOptions, leiden, louvain, modularity};
use semigraph_algos::{Frontier, Graph, GraphOptions};
use semigraph_semiring::PlusTimes;

use super::algorithms::test_graphs;

/// NetworkX's modularity of `labels` over the undirected `edges` (`u <= v`, each once).
fn oracle(n: usize, edges: &BTreeMap<(usize, usize), f64>, labels: &[u32], gamma: f64) -> f64 {
    let mut degree = vec![0.0; n];
    let mut inside = BTreeMap::<u32, f64>::new();
    let mut m = 0.0;
    for (&(u, v), &w) in edges {
        degree[u] += w;
        degree[v] += w;
        m += w;
        if labels[u] == labels[v] {
            *inside.entry(labels[u]).or_default() += w;
        }
    }
    let mut total = BTreeMap::<u32, f64>::new();
    for v in 0..n {
        *total.entry(labels[v]).or_default() += degree[v];
    }
    total
        .iter()
        .map(|(c, &d)| inside.get(c).copied().unwrap_or(0.0) / m - gamma * (d / (2.0 * m)).powi(2))
        .sum()
}

/// A vertex that its community's smallest vertex does not reach inside the community.
fn disconnected(n: usize, edges: &BTreeMap<(usize, usize), f64>, labels: &[u32]) -> Option<usize> {
    let mut nbrs = vec![vec![]; n];
    for &(u, v) in edges.keys() {
        if labels[u] == labels[v] {
            nbrs[u].push(v);
            nbrs[v].push(u);
        }
    }
    let mut seen = vec![false; n];
    for root in (0..n).filter(|&v| labels[v] as usize == v) {
        let mut stack = vec![root];
        seen[root] = true;
        while let Some(u) = stack.pop() {
            for &v in &nbrs[u] {
                if !seen[v] {
                    seen[v] = true;
                    stack.push(v);
                }
            }
        }
    }
    (0..n).find(|&v| !seen[v])
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Modularity of several partitions and Louvain's and Leiden's communities (valid labels, the modularity
/// it reports equal to the oracle's of its labels, at least the singletons', Leiden's
/// connected), weighted and
/// not, at resolutions 1 and 0.5.
pub fn check_communities<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let n = t.n;
        for weighted in [false, true] {
            let mut edges = BTreeMap::new();
            for &(u, v, w) in &t.arcs {
                let w = if weighted { w as f64 } else { 1.0 };
                edges.entry((u.min(v), u.max(v))).or_insert(w);
            }
            // Each edge as its two arcs, a self loop as one.
            let arcs: Vec<_> = edges
                .iter()
                .flat_map(|(&(u, v), &w)| {
                    let back = (u != v).then_some((v as u32, u as u32, w));
                    std::iter::once((u as u32, v as u32, w)).chain(back)
                })
                .collect();
            let a = semigraph_algos::arcs_to_csr::<PlusTimes<f64>>(n, &arcs)
                .map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let name = format!("{} (weighted: {weighted})", t.name);
            for gamma in [1.0, 0.5] {
                let thirds: Vec<u32> = (0..n as u32).map(|v| v % 3).collect();
                let singletons: Vec<u32> = (0..n as u32).collect();
                for labels in [&thirds, &singletons] {
                    let q = modularity(&g, labels, gamma).map_err(|e| e.to_string())?;
                    let want = oracle(n, &edges, labels, gamma);
                    let both_nan = q.is_nan() && want.is_nan();
                    if !(close(q, want) || both_nan) {
                        return Err(format!("{name}: modularity {q} (expected {want})"));
                    }
                }
                for (seed, refined) in [(0, false), (1, false), (0, true), (1, true)] {
                    let opts = LouvainOptions {
                        resolution: gamma,
                        seed,
                        ..LouvainOptions::default()
                    };
                    let c = match refined {
                        false => louvain(&g, &opts),
                        true => leiden(&g, &opts),
                    }
                    .map_err(|e| e.to_string())?;
                    let name = format!("{name}, {}", ["louvain", "leiden"][refined as usize]);
                    let l = &c.labels;
                    if l.len() != n || (0..n).any(|v| l[v] as usize > v || l[l[v] as usize] != l[v])
                    {
                        return Err(format!(
                            "{name}: labels not by each class's smallest vertex"
                        ));
                    }
                    let count = (0..n).filter(|&v| l[v] as usize == v).count();
                    if count != c.count {
                        return Err(format!("{name}: {} communities, {count} labelled", c.count));
                    }
                    if refined && let Some(v) = disconnected(n, &edges, l) {
                        return Err(format!("{name}: community {} is not connected ({v})", l[v]));
                    }
                    let want = oracle(n, &edges, l, gamma);
                    let floor = oracle(n, &edges, &singletons, gamma);
                    match c.modularity {
                        None if edges.is_empty() => {}
                        Some(q) if close(q, want) && q >= floor - 1e-12 => {}
                        q => {
                            return Err(format!(
                                "{name}, seed {seed}, resolution {gamma}: modularity {q:?} \
                                 (its labels' {want}, singletons' {floor})"
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
