//! Independent sets, colorings and matchings on a backend, checked by their definitions on
//! the host (the neighbours of each vertex: its arcs either way, self loops left out), for
//! several seeds on every test graph: independent and maximal; proper, each color class
//! maximal among the vertices it was drawn from; disjoint edges of the graph, maximal; and
//! minimum spanning forests against Kruskal's weight, a forest of the graph's lightest arcs
//! spanning every component.

use std::collections::BTreeSet;

use semigraph_algos::combinatorial::{
    coloring, maximal_independent_set, maximal_matching, minimum_spanning_forest,
};
use semigraph_algos::{Frontier, Graph, GraphOptions, NO_PARENT};
use semigraph_semiring::{MinPlus, OrAnd};

use super::algorithms::test_graphs;

/// Checks the three on every test graph for seeds 0, 1 and 7.
pub fn check_combinatorial<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let n = t.n;
        let arcs: Vec<_> = t
            .arcs
            .iter()
            .map(|&(u, v, _)| (u as u32, v as u32, true))
            .collect();
        let a = semigraph_algos::arcs_to_csr::<OrAnd>(n, &arcs).map_err(|e| e.to_string())?;
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
    let arcs: Vec<_> = t
        .arcs
        .iter()
        .map(|&(u, v, w)| (u as u32, v as u32, w as f64))
        .collect();
    let a = semigraph_algos::arcs_to_csr::<MinPlus<f64>>(n, &arcs).map_err(|e| e.to_string())?;
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
