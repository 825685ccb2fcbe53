//! Neighbourhood similarities and link prediction scores on a backend against sets of
//! neighbours on the host: every edge (the default pairs) and given pairs (repeated, a vertex
//! with itself, far apart), on every test graph with its self loops.

use std::collections::BTreeSet;

use semigraph_algos::links::{Score, link_scores};
use semigraph_algos::similarity::{Measure, similarity};
use semigraph_algos::{Frontier, Graph, GraphOptions};
use semigraph_semiring::OrAnd;

use super::algorithms::test_graphs;

/// A test graph's neighbourhoods (both directions of each arc; a self loop puts the vertex
/// in its own), its edges `u < v` and pairs to ask about (repeated, reversed, a vertex with
/// itself, far apart).
type Sets = (Vec<BTreeSet<usize>>, Vec<(u32, u32)>, Vec<(u32, u32)>);

fn neighbourhoods(n: usize, arcs: &[(usize, usize, i64)]) -> Sets {
    let mut nbrs = vec![BTreeSet::new(); n];
    for &(u, v, _) in arcs {
        nbrs[u].insert(v);
        nbrs[v].insert(u);
    }
    let edges: Vec<(u32, u32)> = (0..n)
        .flat_map(|u| nbrs[u].range(u + 1..).map(move |&v| (u as u32, v as u32)))
        .collect();
    let mut given = vec![];
    if n > 0 {
        let last = n as u32 - 1;
        given = vec![
            (0, last),
            (last, 0),
            (0, 0),
            (0, last),
            (last / 2, last / 3),
        ];
        given.extend(edges.iter().take(5).map(|&(u, v)| (v, u)));
    }
    (nbrs, edges, given)
}

/// The three link prediction scores of every test graph against the neighbourhoods' sets
/// (sums over the common neighbours in their order, within 1e-12 relative).
pub fn check_link_scores<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let arcs: Vec<_> = t
            .arcs
            .iter()
            .map(|&(u, v, _)| (u as u32, v as u32, true))
            .collect();
        let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &arcs).map_err(|e| e.to_string())?;
        let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
        let (nbrs, edges, given) = neighbourhoods(t.n, &t.arcs);
        let d = |w: usize| nbrs[w].len() as f64;
        for score in [
            Score::AdamicAdar,
            Score::ResourceAllocation,
            Score::PreferentialAttachment,
        ] {
            for pairs in [None, Some(given.as_slice())] {
                let got = link_scores(&g, score, pairs).map_err(|e| e.to_string())?;
                let want = pairs.unwrap_or(&edges);
                if got.pairs != want {
                    return Err(format!("{}: {score:?} answers other pairs", t.name));
                }
                for (i, &(u, v)) in want.iter().enumerate() {
                    let (u, v) = (u as usize, v as usize);
                    let common = nbrs[u].intersection(&nbrs[v]);
                    let value: f64 = match score {
                        Score::AdamicAdar => common.map(|&w| 1.0 / d(w).ln()).sum(),
                        Score::ResourceAllocation => common.map(|&w| 1.0 / d(w)).sum(),
                        Score::PreferentialAttachment => d(u) * d(v),
                    };
                    let x = got.values[i];
                    let close = x == value || (x - value).abs() <= 1e-12 * value.abs();
                    if !close {
                        return Err(format!(
                            "{}: {score:?} of ({u}, {v}): {x} (expected {value})",
                            t.name
                        ));
                    }
                }
            }
        }
        if link_scores(&g, Score::AdamicAdar, Some(&[(t.n as u32, 0)])).is_ok() {
            return Err(format!("{}: a pair out of range was answered", t.name));
        }
    }
    Ok(())
}

/// The three measures of every test graph against the neighbourhoods' sets.
pub fn check_similarity<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let n = t.n;
        let arcs: Vec<_> = t
            .arcs
            .iter()
            .map(|&(u, v, _)| (u as u32, v as u32, true))
            .collect();
        let a = semigraph_algos::arcs_to_csr::<OrAnd>(n, &arcs).map_err(|e| e.to_string())?;
        let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
        let (nbrs, edges, given) = neighbourhoods(n, &t.arcs);
        for measure in [Measure::Jaccard, Measure::Overlap, Measure::Cosine] {
            for pairs in [None, Some(given.as_slice())] {
                let got = similarity(&g, measure, pairs).map_err(|e| e.to_string())?;
                let want = pairs.unwrap_or(&edges);
                if got.pairs != want {
                    return Err(format!("{}: {measure:?} answers other pairs", t.name));
                }
                for (i, &(u, v)) in want.iter().enumerate() {
                    let (nu, nv) = (&nbrs[u as usize], &nbrs[v as usize]);
                    let c = nu.intersection(nv).count() as i64;
                    let value = measure.of(c, nu.len() as i64, nv.len() as i64);
                    if got.common[i] != c || (got.values[i] - value).abs() > 1e-12 {
                        return Err(format!(
                            "{}: {measure:?} of ({u}, {v}): {} common, {} (expected {c}, {value})",
                            t.name, got.common[i], got.values[i]
                        ));
                    }
                }
            }
        }
        // A pair's vertex out of range is refused.
        if similarity(&g, Measure::Jaccard, Some(&[(0, n as u32)])).is_ok() {
            return Err(format!("{}: a pair out of range was answered", t.name));
        }
    }
    Ok(())
}
