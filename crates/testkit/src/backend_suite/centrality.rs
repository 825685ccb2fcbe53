//! Betweenness centrality on a backend against Brandes' queue algorithm: exact and sampled,
//! directed and undirected, normalized or not, in batches that split the sources.

use semigraph_algos::centrality::{BetweennessOptions, betweenness};
use semigraph_algos::testing::oracle_betweenness;
use semigraph_algos::{Frontier, Graph, GraphOptions};
use semigraph_semiring::OrAnd;

use super::algorithms::test_graphs;

/// Every test graph and its symmetric closure, every option on the small ones, against the
/// oracle (within `1e-9` relative).
pub fn check_betweenness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        // The large graphs as they are; the small ones also with every arc's reverse.
        for symmetric in [false, true]
            .into_iter()
            .take(if t.n > 500 { 1 } else { 2 })
        {
            let mut arcs: Vec<(u32, u32, bool)> = t
                .arcs
                .iter()
                .map(|&(u, v, _)| (u as u32, v as u32, true))
                .collect();
            if symmetric {
                let back: Vec<_> = arcs.iter().map(|&(u, v, w)| (v, u, w)).collect();
                arcs.extend(back);
            }
            let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &arcs).map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let pairs: std::collections::HashSet<(u32, u32)> =
                arcs.iter().map(|&(u, v, _)| (u, v)).collect();
            let paired = pairs.iter().all(|&(u, v)| pairs.contains(&(v, u)));
            let all: Vec<usize> = (0..t.n).collect();
            let some: Vec<usize> = (0..t.n).step_by(3).collect();
            let mut runs = vec![(None, None, false, None)];
            if t.n <= 64 {
                // Every option on the small graphs: batches that split the sources, samples,
                // the graph's kind given.
                runs.extend([(None, None, true, None), (None, Some(7), false, Some(true))]);
                runs.extend([(Some(some.clone()), Some(5), true, Some(false))]);
                runs.extend([(Some(some.clone()), None, false, None)]);
            }
            for (sources, batch, normalized, directed) in runs {
                let opts = BetweennessOptions {
                    sources: sources.clone(),
                    normalized,
                    directed,
                    batch,
                };
                let undirected = directed.map_or(paired, |d| !d);
                let got = betweenness(&g, &opts).map_err(|e| e.to_string())?;
                let used = sources.as_deref().unwrap_or(&all);
                let n = t.n as f64;
                let mut scale = match (normalized, undirected) {
                    (true, _) if t.n > 2 => 1.0 / ((n - 1.0) * (n - 2.0)),
                    (false, true) => 0.5,
                    _ => 1.0,
                };
                if used.len() < t.n {
                    scale *= n / used.len() as f64;
                }
                let want: Vec<f64> = oracle_betweenness(&a, used)
                    .iter()
                    .map(|x| x * scale)
                    .collect();
                for v in 0..t.n {
                    let (x, y) = (got[v], want[v]);
                    if (x - y).abs() > 1e-9 * y.abs().max(1.0) {
                        return Err(format!(
                            "{} (symmetric {symmetric}, {opts:?}): vertex {v}: {x} != {y}",
                            t.name
                        ));
                    }
                }
            }
        }
    }
    let a = semigraph_algos::arcs_to_csr::<OrAnd>(2, &[(0, 1, true)]).map_err(|e| e.to_string())?;
    let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
    let bad = BetweennessOptions {
        sources: Some(vec![2]),
        ..Default::default()
    };
    if betweenness(&g, &bad).is_ok() {
        return Err("a source out of range was accepted".into());
    }
    Ok(())
}
