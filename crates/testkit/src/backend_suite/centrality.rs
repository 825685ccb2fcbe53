//! Centralities on a backend against queue algorithms: betweenness (Brandes) exact and
//! sampled, directed and undirected, normalized or not, in batches that split the sources,
//! and per arc (edge betweenness), over the fewest arcs and the least weight;
//! closeness and harmonic centrality from a BFS per source; eigenvector and Katz centrality
//! against NetworkX's loops written out on the host.

use semigraph_algos::centrality::{
    BetweennessOptions, PowerOptions, betweenness, closeness, edge_betweenness, eigenvector,
    harmonic, katz, weighted_betweenness, weighted_closeness, weighted_edge_betweenness,
    weighted_harmonic,
};
use semigraph_algos::testing::{
    oracle_arc_betweenness, oracle_betweenness, oracle_bfs, oracle_dijkstra,
    oracle_weighted_betweenness,
};
use semigraph_algos::{Frontier, Graph, GraphOptions};
use semigraph_semiring::{MinPlus, OrAnd};

use super::algorithms::test_graphs;

/// An arc of a structure.
type Arc = (u32, u32, bool);

/// The arcs of `t` as they are and, unless it is large, with every arc's reverse added:
/// `(symmetric, arcs)`.
fn structures(t: &semigraph_algos::testing::TestGraph) -> Vec<(bool, Vec<Arc>)> {
    let arcs: Vec<Arc> = t
        .arcs
        .iter()
        .map(|&(u, v, _)| (u as u32, v as u32, true))
        .collect();
    let mut both = arcs.clone();
    both.extend(arcs.iter().map(|&(u, v, w)| (v, u, w)));
    let mut out = vec![(false, arcs)];
    if t.n <= 500 {
        out.push((true, both));
    }
    out
}

/// Every test graph and its symmetric closure, every option on the small ones, against the
/// oracle (within `1e-9` relative).
pub fn check_betweenness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        for (symmetric, arcs) in structures(&t) {
            let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &arcs).map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let pairs: std::collections::HashSet<(u32, u32)> =
                arcs.iter().map(|&(u, v, _)| (u, v)).collect();
            let paired = pairs.iter().all(|&(u, v)| pairs.contains(&(v, u)));
            let all: Vec<usize> = (0..t.n).collect();
            let some: Vec<usize> = (0..t.n).step_by(3).collect();
            let mut runs = vec![(None, None, false, None, false)];
            if t.n <= 64 {
                // Every option on the small graphs: batches that split the sources, samples,
                // the graph's kind given, the paths' ends counted.
                runs.extend([(None, None, true, None, false)]);
                runs.extend([(None, Some(7), false, Some(true), false)]);
                runs.extend([(Some(some.clone()), Some(5), true, Some(false), false)]);
                runs.extend([(Some(some.clone()), None, false, None, false)]);
                runs.extend([(None, Some(7), true, None, true)]);
                runs.extend([(Some(some.clone()), Some(5), false, None, true)]);
            }
            for (sources, batch, normalized, directed, endpoints) in runs {
                let opts = BetweennessOptions {
                    sources: sources.clone(),
                    normalized,
                    directed,
                    batch,
                    endpoints,
                };
                let undirected = directed.map_or(paired, |d| !d);
                let got = betweenness(&g, &opts).map_err(|e| e.to_string())?;
                let used = sources.as_deref().unwrap_or(&all);
                let mut sums = oracle_betweenness(&a, used);
                if endpoints {
                    add_ends(&a, used, &mut sums);
                }
                let scale = vertex_scale(t.n, used.len(), normalized, undirected, endpoints);
                let want: Vec<f64> = sums.iter().map(|x| x * scale).collect();
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

/// Edge betweenness of every test graph and its symmetric closure (exact and sampled, both
/// scalings) against the oracle's arc shares (within `1e-9` relative): a directed graph's
/// arcs, an undirected one's edges once with both arcs' shares.
pub fn check_edge_betweenness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        for (symmetric, arcs) in structures(&t) {
            let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &arcs).map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let pairs: std::collections::HashSet<(u32, u32)> =
                arcs.iter().map(|&(u, v, _)| (u, v)).collect();
            let undirected = pairs.iter().all(|&(u, v)| pairs.contains(&(v, u)));
            let mut runs = vec![(None, true)];
            if t.n <= 64 {
                runs.push((Some((0..t.n).step_by(3).collect::<Vec<_>>()), false));
            }
            for (sources, normalized) in runs {
                let opts = BetweennessOptions {
                    sources: sources.clone(),
                    normalized,
                    directed: None,
                    batch: Some(5),
                    endpoints: false,
                };
                let got = edge_betweenness(&g, &opts).map_err(|e| e.to_string())?;
                let all: Vec<usize> = (0..t.n).collect();
                let used = sources.as_deref().unwrap_or(&all);
                let shares = oracle_arc_betweenness(&a, used);
                let share = |u: u32, v: u32| shares.get(&(u, v)).copied().unwrap_or(0.0);
                let scale = edge_scale(t.n, used.len(), normalized, undirected);
                let what = format!("{} (symmetric {symmetric}, {opts:?})", t.name);
                same_edges(&got, &a, undirected, scale, share, &what)?;
            }
        }
    }
    Ok(())
}

/// Betweenness and edge betweenness over least-weight paths of every test graph (weights
/// `|w| + 1`, so many paths tie) and its symmetric closure, exact (sampled on the larger
/// graphs) and sampled in batches that split the sources, against Dijkstra's Brandes (within `1e-9` relative); a negative weight
/// and a cycle of zero-weight arcs refused.
pub fn check_weighted_betweenness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let weighted: Vec<(u32, u32, f64)> = t
            .arcs
            .iter()
            .map(|&(u, v, w)| (u as u32, v as u32, (w.abs() + 1) as f64))
            .collect();
        let mut variants = vec![(false, weighted.clone())];
        if t.n <= 500 {
            let mut both = weighted.clone();
            both.extend(weighted.iter().map(|&(u, v, w)| (v, u, w)));
            variants.push((true, both));
        }
        for (symmetric, arcs) in variants {
            let a = semigraph_algos::arcs_to_csr::<MinPlus<f64>>(t.n, &arcs)
                .map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let undirected = !g.reads_directed(None).map_err(|e| e.to_string())?;
            // Every source on the smaller graphs, a tenth of them on the larger.
            let first = (t.n > 300).then(|| (0..t.n).step_by(10).collect::<Vec<_>>());
            let mut runs = vec![(first, None, true)];
            if t.n <= 64 {
                // One source a batch: the graph's own matrix, no copies.
                runs.push((None, Some(1), true));
                runs.push((
                    Some((0..t.n).step_by(3).collect::<Vec<_>>()),
                    Some(4),
                    false,
                ));
            }
            for (sources, batch, normalized) in runs {
                // The small graphs' sampled run counts the paths' ends too (vertices only).
                let endpoints = !normalized;
                let opts = BetweennessOptions {
                    sources: sources.clone(),
                    normalized,
                    directed: None,
                    batch,
                    endpoints,
                };
                let what = format!("{} (symmetric {symmetric}, {opts:?}, weighted)", t.name);
                let all: Vec<usize> = (0..t.n).collect();
                let used = sources.as_deref().unwrap_or(&all);
                let (mut vertex, shares) = oracle_weighted_betweenness(&a, used);
                if endpoints {
                    add_ends(&a, used, &mut vertex);
                }
                let got = weighted_betweenness(&g, &opts).map_err(|e| e.to_string())?;
                let scale = vertex_scale(t.n, used.len(), normalized, undirected, endpoints);
                close(&got, vertex.iter().map(|x| x * scale), &what, 1e-9)?;
                let got = weighted_edge_betweenness(&g, &opts).map_err(|e| e.to_string())?;
                let scale = edge_scale(t.n, used.len(), normalized, undirected);
                let share = |u: u32, v: u32| shares.get(&(u, v)).copied().unwrap_or(0.0);
                same_edges(&got, &a, undirected, scale, share, &what)?;
            }
        }
    }
    for (arcs, why) in [
        (vec![(0, 1, 1.0), (1, 2, -1.0)], "a negative weight"),
        (
            vec![(0, 1, 0.0), (1, 2, 0.0), (2, 0, 0.0), (2, 3, 1.0)],
            "a zero-weight cycle",
        ),
    ] {
        let a =
            semigraph_algos::arcs_to_csr::<MinPlus<f64>>(4, &arcs).map_err(|e| e.to_string())?;
        let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
        if weighted_betweenness(&g, &BetweennessOptions::default()).is_ok() {
            return Err(format!("{why} was accepted"));
        }
    }
    Ok(())
}

/// Closeness (both scalings) and harmonic centrality over least-weight distances of every
/// test graph (weights `|w| + 1`) and its symmetric closure against sums of Dijkstra's
/// distances (within `1e-9` relative); a negative weight refused.
pub fn check_weighted_closeness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        let arcs: Vec<(usize, usize, i64)> = t
            .arcs
            .iter()
            .map(|&(u, v, w)| (u, v, w.abs() + 1))
            .collect();
        let mut variants = vec![arcs.clone()];
        if t.n <= 500 {
            variants.push(
                arcs.iter()
                    .flat_map(|&(u, v, w)| [(u, v, w), (v, u, w)])
                    .collect(),
            );
        }
        for arcs in variants {
            let list: Vec<(u32, u32, f64)> = arcs
                .iter()
                .map(|&(u, v, w)| (u as u32, v as u32, w as f64))
                .collect();
            let a = semigraph_algos::arcs_to_csr::<MinPlus<f64>>(t.n, &list)
                .map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let (mut r, mut d, mut h) = (vec![0.0; t.n], vec![0.0; t.n], vec![0.0; t.n]);
            for s in 0..t.n {
                for (v, x) in oracle_dijkstra(t.n, &arcs, s).into_iter().enumerate() {
                    if let Some(x) = x {
                        r[v] += 1.0;
                        d[v] += x as f64;
                        if x > 0 {
                            h[v] += 1.0 / x as f64;
                        }
                    }
                }
            }
            let batch = (t.n > 64).then_some(37);
            same_sums(
                &format!("weighted, {}", t.name),
                (&r, &d, &h),
                |wf| match wf {
                    Some(wf) => weighted_closeness(&g, wf, batch),
                    None => weighted_harmonic(&g, batch),
                },
            )?;
        }
    }
    let a = semigraph_algos::arcs_to_csr::<MinPlus<f64>>(2, &[(0, 1, -1.0)])
        .map_err(|e| e.to_string())?;
    let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
    if weighted_closeness(&g, true, None).is_ok() {
        return Err("a negative weight was accepted".into());
    }
    Ok(())
}

/// The paths' ends NetworkX's `endpoints` counts, added to `sums`: for each source `s` and
/// vertex `v != s` it reaches (queue BFS), one for each.
fn add_ends<S: semigraph_semiring::Semiring>(
    a: &semigraph_formats::Csr<S>,
    sources: &[usize],
    sums: &mut [f64],
) {
    for &s in sources {
        for (v, l) in oracle_bfs(a, s).into_iter().enumerate() {
            if l.is_some() && v != s {
                sums[v] += 1.0;
                sums[s] += 1.0;
            }
        }
    }
}

/// NetworkX's factor of a vertex's sum over `used` sources of `n` (with the paths' ends
/// counted, `endpoints`).
fn vertex_scale(n: usize, used: usize, normalized: bool, undirected: bool, endpoints: bool) -> f64 {
    let k = n as f64;
    let scale = match (normalized, undirected) {
        (true, _) if endpoints && n >= 2 => 1.0 / (k * (k - 1.0)),
        (true, _) if !endpoints && n > 2 => 1.0 / ((k - 1.0) * (k - 2.0)),
        (false, true) => 0.5,
        _ => 1.0,
    };
    scale * if used < n { k / used as f64 } else { 1.0 }
}

/// NetworkX's factor of an edge's sum over `used` sources of `n`.
fn edge_scale(n: usize, used: usize, normalized: bool, undirected: bool) -> f64 {
    let k = n as f64;
    let scale = match (normalized, undirected) {
        (true, _) if n >= 2 => 1.0 / (k * (k - 1.0)),
        (false, true) => 0.5,
        _ => 1.0,
    };
    scale * if used < n { k / used as f64 } else { 1.0 }
}

/// `got` holds `a`'s arcs (an undirected graph's edges once, `u <= v`, both arcs' shares)
/// in order, each `share` times `scale` within `1e-9` relative.
fn same_edges<S: semigraph_semiring::Semiring>(
    got: &semigraph_algos::centrality::EdgeBetweenness,
    a: &semigraph_formats::Csr<S>,
    undirected: bool,
    scale: f64,
    share: impl Fn(u32, u32) -> f64,
    what: &str,
) -> Result<(), String> {
    let mut want: Vec<((u32, u32), f64)> = vec![];
    for (u, v, _) in a.iter() {
        let (u, v) = (u as u32, v as u32);
        match undirected {
            false => want.push(((u, v), share(u, v) * scale)),
            true if u < v => want.push(((u, v), (share(u, v) + share(v, u)) * scale)),
            true if u == v => want.push(((u, v), share(u, v) * scale)),
            true => {}
        }
    }
    want.sort_by_key(|w| w.0);
    let edges: Vec<_> = want.iter().map(|w| w.0).collect();
    if got.edges != edges {
        return Err(format!("{what}: other edges"));
    }
    for (i, &(e, y)) in want.iter().enumerate() {
        let x = got.values[i];
        if (x - y).abs() > 1e-9 * y.abs().max(1e-3) {
            return Err(format!("{what}: edge {e:?}: {x} != {y}"));
        }
    }
    Ok(())
}

/// Closeness (both scalings) and harmonic centrality of every test graph and its symmetric
/// closure against sums of queue-BFS distances (within `1e-9` relative).
pub fn check_closeness<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs() {
        for (_, arcs) in structures(&t) {
            let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &arcs).map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            // Into each vertex: how many reach it, their distances, their inverses.
            let (mut r, mut d, mut h) = (vec![0.0; t.n], vec![0.0; t.n], vec![0.0; t.n]);
            for s in 0..t.n {
                for (v, l) in oracle_bfs(&a, s).into_iter().enumerate() {
                    if let Some(l) = l {
                        r[v] += 1.0;
                        d[v] += f64::from(l);
                        if l > 0 {
                            h[v] += 1.0 / f64::from(l);
                        }
                    }
                }
            }
            let batch = (t.n > 64).then_some(37);
            same_sums(&t.name, (&r, &d, &h), |wf| match wf {
                Some(wf) => closeness(&g, wf, batch),
                None => harmonic(&g, batch),
            })?;
        }
    }
    Ok(())
}

/// Closeness (`run(Some(wf_improved))`, both scalings) and harmonic centrality (`run(None)`)
/// against the sums into each vertex (within `1e-9` relative): how many reach it (itself
/// included), their distances, their inverses.
fn same_sums(
    what: &str,
    (r, d, h): (&[f64], &[f64], &[f64]),
    run: impl Fn(Option<bool>) -> semigraph_algos::Result<Vec<f64>>,
) -> Result<(), String> {
    let n = r.len() as f64;
    for wf in [true, false] {
        let got = run(Some(wf)).map_err(|e| e.to_string())?;
        let want = (0..r.len()).map(|v| match d[v] > 0.0 && r.len() > 1 {
            true => (r[v] - 1.0) / d[v] * if wf { (r[v] - 1.0) / (n - 1.0) } else { 1.0 },
            false => 0.0,
        });
        close(&got, want, &format!("closeness (wf {wf}) on {what}"), 1e-9)?;
    }
    let got = run(None).map_err(|e| e.to_string())?;
    close(
        &got,
        h.iter().copied(),
        &format!("harmonic on {what}"),
        1e-9,
    )
}

/// `got` equals `want` within `rel` relative.
fn close(got: &[f64], want: impl Iterator<Item = f64>, what: &str, rel: f64) -> Result<(), String> {
    for (v, (x, y)) in got.iter().zip(want).enumerate() {
        if (x - y).abs() > rel * y.abs().max(1.0) {
            return Err(format!("{what}: vertex {v}: {x} != {y}"));
        }
    }
    Ok(())
}

/// NetworkX's power iterations on the host: eigenvector (`katz: None`) or Katz
/// (`Some((alpha, beta, normalized))`); `None` if they do not converge.
fn oracle_power(
    n: usize,
    arcs: &[(u32, u32)],
    katz: Option<(f64, f64, bool)>,
    opts: &PowerOptions,
) -> Option<Vec<f64>> {
    let norm = |x: &mut Vec<f64>| {
        let s = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        if s > 0.0 {
            x.iter_mut().for_each(|v| *v /= s);
        }
    };
    let mut x = vec![if katz.is_some() { 0.0 } else { 1.0 / n as f64 }; n];
    for _ in 0..opts.iterations {
        let mut y = match katz {
            None => x.clone(),
            Some(_) => vec![0.0; n],
        };
        for &(u, v) in arcs {
            y[v as usize] += x[u as usize];
        }
        match katz {
            None => norm(&mut y),
            Some((alpha, beta, _)) => y.iter_mut().for_each(|v| *v = alpha * *v + beta),
        }
        let change: f64 = y.iter().zip(&x).map(|(a, b)| (a - b).abs()).sum();
        x = y;
        if change < n as f64 * opts.tolerance {
            if let Some((_, _, true)) = katz {
                norm(&mut x);
            }
            return Some(x);
        }
    }
    None
}

/// Eigenvector and Katz centrality of every test graph and its symmetric closure against
/// `oracle_power`: the same values (within `1e-6` relative) or both not converged.
pub fn check_power<B: Frontier>(b: &B) -> Result<(), String> {
    for t in test_graphs().into_iter().filter(|t| t.n > 0) {
        for symmetric in [false, true] {
            let mut arcs: Vec<(u32, u32)> = t
                .arcs
                .iter()
                .map(|&(u, v, _)| (u as u32, v as u32))
                .collect();
            if symmetric {
                let back: Vec<_> = arcs.iter().map(|&(u, v)| (v, u)).collect();
                arcs.extend(back);
            }
            arcs.sort_unstable();
            arcs.dedup();
            let with: Vec<_> = arcs.iter().map(|&(u, v)| (u, v, true)).collect();
            let a = semigraph_algos::arcs_to_csr::<OrAnd>(t.n, &with).map_err(|e| e.to_string())?;
            let g = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
            let opts = PowerOptions {
                iterations: 300,
                tolerance: 1e-9,
            };
            let what = |k: &str| format!("{k} on {} (symmetric {symmetric})", t.name);
            let got = eigenvector(&g, &opts).ok().map(|c| c.values);
            same_or_both_failed(
                got,
                oracle_power(t.n, &arcs, None, &opts),
                &what("eigenvector"),
            )?;
            for (alpha, beta, normalized) in [(0.01, 1.0, true), (0.05, 2.0, false)] {
                let got = katz(&g, alpha, beta, normalized, &opts)
                    .ok()
                    .map(|c| c.values);
                let want = oracle_power(t.n, &arcs, Some((alpha, beta, normalized)), &opts);
                same_or_both_failed(got, want, &what(&format!("katz alpha {alpha}")))?;
            }
        }
    }
    Ok(())
}

fn same_or_both_failed(
    got: Option<Vec<f64>>,
    want: Option<Vec<f64>>,
    what: &str,
) -> Result<(), String> {
    match (got, want) {
        // Stopping one iteration apart (sums in another order) moves a value by about the
        // tolerance: 1e-6 relative.
        (Some(g), Some(w)) => close(&g, w.into_iter(), what, 1e-6),
        (None, None) => Ok(()),
        (g, _) => Err(format!(
            "{what}: converged {} but the oracle {}",
            g.is_some(),
            g.is_none()
        )),
    }
}
