//! Neighbourhood similarities on a backend against sets of neighbours on the host: every
//! edge (the default pairs) and given pairs (repeated, a vertex with itself, far apart), on
//! every test graph with its self loops.

use std::collections::BTreeSet;

use semigraph_algos::similarity::{Measure, similarity};
use semigraph_algos::{Frontier, Graph, GraphOptions};
use semigraph_semiring::OrAnd;

use super::algorithms::test_graphs;

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
        // Neighbourhoods with both directions of each arc; a self loop puts the vertex in.
        let mut nbrs = vec![BTreeSet::new(); n];
        for &(u, v, _) in &t.arcs {
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
