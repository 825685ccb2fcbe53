//! The LDBC Graphalytics kernels (PageRank, WCC, CDLP, LCC, triangles) on a backend: against
//! LDBC's official outputs under LDBC's rules, and on the suite's test graphs against
//! independent host references written here from the definitions.

use std::collections::BTreeSet;

use semigraph_algos::{
    Frontier, Graph, GraphOptions, PageRankOptions, VertexOrder, cdlp, cdlp_from, lcc, pagerank,
    triangle_count, triangle_count_in, triangles_per_vertex, wcc,
};
use semigraph_formats::EdgeList;
use semigraph_formats::io::{ReadOptions, read_graph};

use super::algorithms::test_graphs;
use super::*;

type Res = std::result::Result<(), String>;

/// One LDBC validation graph: its file (read undirected or not), PR damping and iterations,
/// CDLP iterations, and its output files.
struct LdbcCase {
    graph: &'static str,
    undirected: bool,
    pr: Option<(&'static str, f64, usize)>,
    cdlp: Option<(&'static str, usize)>,
    lcc: Option<&'static str>,
    wcc: Option<&'static str>,
}

const LDBC: [LdbcCase; 6] = [
    LdbcCase {
        graph: "example-directed.v",
        undirected: false,
        pr: Some(("example-directed-PR", 0.85, 2)),
        cdlp: Some(("example-directed-CDLP", 2)),
        lcc: Some("example-directed-LCC"),
        wcc: Some("example-directed-WCC"),
    },
    LdbcCase {
        graph: "example-undirected.v",
        undirected: true,
        pr: Some(("example-undirected-PR", 0.85, 2)),
        cdlp: Some(("example-undirected-CDLP", 2)),
        lcc: Some("example-undirected-LCC"),
        wcc: Some("example-undirected-WCC"),
    },
    LdbcCase {
        graph: "test-pr-directed.adj",
        undirected: false,
        pr: Some(("test-pr-directed-PR", 0.85, 14)),
        cdlp: None,
        lcc: None,
        wcc: None,
    },
    LdbcCase {
        graph: "test-cdlp-directed.adj",
        undirected: false,
        pr: None,
        cdlp: Some(("test-cdlp-directed-CDLP", 5)),
        lcc: None,
        wcc: None,
    },
    LdbcCase {
        graph: "test-lcc-directed.adj",
        undirected: false,
        pr: None,
        cdlp: None,
        lcc: Some("test-lcc-directed-LCC"),
        wcc: None,
    },
    LdbcCase {
        graph: "test-wcc-directed.adj",
        undirected: false,
        pr: None,
        cdlp: None,
        lcc: None,
        wcc: Some("test-wcc-directed-WCC"),
    },
];

fn read(rel: &str, undirected: bool) -> std::result::Result<EdgeList, String> {
    let p = crate::data::path(&format!("ldbc-graphalytics/{rel}"));
    read_graph(
        &p,
        &ReadOptions {
            undirected,
            ..Default::default()
        },
    )
    .map_err(|e| format!("{rel}: {e}"))
}

/// `(vertex, value)` per line of an output file, vertices as the graph's indices.
fn outputs(g: &EdgeList, rel: &str) -> std::result::Result<Vec<(usize, String)>, String> {
    let p = crate::data::path(&format!("ldbc-graphalytics/{rel}"));
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{rel}: {e}"))?;
    let rows: Vec<(usize, String)> = text
        .lines()
        .filter_map(|l| {
            let mut t = l.split_whitespace();
            Some((t.next()?.parse::<i64>().ok()?, t.next()?.to_string()))
        })
        .filter_map(|(label, v)| Some((g.vertex_of_label(label)?, v)))
        .collect();
    if rows.len() != g.num_vertices() {
        return Err(format!(
            "{rel}: {} lines for {} vertices",
            rows.len(),
            g.num_vertices()
        ));
    }
    Ok(rows)
}

/// LDBC's epsilon rule: `|got - want| <= 1e-4 * want` (an expected 0 must be exactly 0).
fn ldbc_close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-4 * want.abs()
}

/// Whether two labellings define the same partition of the vertices.
fn same_partition(a: &[i64], b: &[i64]) -> bool {
    use std::collections::HashMap;
    let (mut ab, mut ba) = (HashMap::new(), HashMap::new());
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(&x, &y)| *ab.entry(x).or_insert(y) == y && *ba.entry(y).or_insert(x) == x)
}

/// Every kernel on each LDBC validation graph against the official outputs: PR and LCC by
/// LDBC's epsilon rule, CDLP exactly (labels as vertex ids), WCC as the same partition.
pub fn check_graphalytics_ldbc<B: Frontier>(b: &B) -> Res {
    for case in LDBC {
        let g = read(case.graph, case.undirected)?;
        let a = g
            .to_pattern_csr::<OrAnd, u32>()
            .map_err(|e| e.to_string())?;
        // With the pull matrix (A^T uploaded): the kernels read it instead of transposing;
        // the random graphs below take the transposing path.
        let opts = GraphOptions {
            pull: true,
            ..Default::default()
        };
        let gr = Graph::new(b, &a, opts).map_err(|e| e.to_string())?;
        let name = case.graph;
        if let Some((out, damping, iterations)) = case.pr {
            let opts = PageRankOptions {
                damping,
                iterations,
                tolerance: None,
            };
            let pr = pagerank(&gr, &opts).map_err(|e| format!("{name}: {e}"))?;
            for (v, want) in outputs(&g, out)? {
                let want: f64 = want.parse().map_err(|e| format!("{out}: {e}"))?;
                if !ldbc_close(pr.ranks[v], want) {
                    return Err(format!("{out}: vertex {v}: {} vs {want}", pr.ranks[v]));
                }
            }
        }
        if let Some(out) = case.lcc {
            let c = lcc(&gr).map_err(|e| format!("{name}: {e}"))?;
            for (v, want) in outputs(&g, out)? {
                let want: f64 = want.parse().map_err(|e| format!("{out}: {e}"))?;
                if !ldbc_close(c[v], want) {
                    return Err(format!("{out}: vertex {v}: {} vs {want}", c[v]));
                }
            }
        }
        if let Some((out, iterations)) = case.cdlp {
            // Labels start as the vertices' ranks among their ids (ties go to the smallest
            // id, whatever the file's order), and map back to ids.
            let n = g.num_vertices();
            let mut by_id: Vec<usize> = (0..n).collect();
            by_id.sort_by_key(|&v| g.vertex_label(v));
            let mut rank = vec![0u32; n];
            for (r, &v) in by_id.iter().enumerate() {
                rank[v] = r as u32;
            }
            let labels = cdlp_from(&gr, &rank, iterations).map_err(|e| format!("{name}: {e}"))?;
            for (v, want) in outputs(&g, out)? {
                let got = g.vertex_label(by_id[labels[v] as usize]).to_string();
                if got != want {
                    return Err(format!("{out}: vertex {v}: {got} vs {want}"));
                }
            }
        }
        if let Some(out) = case.wcc {
            let c = wcc(&gr).map_err(|e| format!("{name}: {e}"))?;
            let rows = outputs(&g, out)?;
            let mut want = vec![0i64; g.num_vertices()];
            for (v, l) in rows {
                want[v] = l.parse().map_err(|e| format!("{out}: {e}"))?;
            }
            let got: Vec<i64> = c.labels.iter().map(|&l| l as i64).collect();
            if !same_partition(&got, &want) {
                return Err(format!("{out}: components {got:?}, LDBC {want:?}"));
            }
        }
    }
    Ok(())
}

/// The undirected simple graph of a test graph's arcs: sorted neighbour sets, no self-loops.
fn neighbours(n: usize, arcs: &[(usize, usize, i64)]) -> Vec<BTreeSet<usize>> {
    let mut nb = vec![BTreeSet::new(); n];
    for &(u, v, _) in arcs {
        if u != v {
            nb[u].insert(v);
            nb[v].insert(u);
        }
    }
    nb
}

/// PageRank by the LDBC definition, directly.
fn pagerank_reference(n: usize, arcs: &[(usize, usize, i64)], d: f64, it: usize) -> Vec<f64> {
    let out: Vec<BTreeSet<usize>> = {
        let mut o = vec![BTreeSet::new(); n];
        for &(u, v, _) in arcs {
            o[u].insert(v);
        }
        o
    };
    let mut pr = vec![1.0 / n as f64; n];
    for _ in 0..it {
        let dangling: f64 = (0..n).filter(|&u| out[u].is_empty()).map(|u| pr[u]).sum();
        let mut next = vec![(1.0 - d) / n as f64 + d * dangling / n as f64; n];
        for u in 0..n {
            for &v in &out[u] {
                next[v] += d * pr[u] / out[u].len() as f64;
            }
        }
        pr = next;
    }
    pr
}

/// Components by union-find: each vertex's smallest connected vertex.
fn components_reference(n: usize, arcs: &[(usize, usize, i64)]) -> Vec<u32> {
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut p: Vec<usize> = (0..n).collect();
    for &(u, v, _) in arcs {
        let (a, b) = (root(&mut p, u), root(&mut p, v));
        let (lo, hi) = (a.min(b), a.max(b));
        p[hi] = lo;
    }
    (0..n).map(|v| root(&mut p, v) as u32).collect()
}

/// LCC by the LDBC definition, directly.
fn lcc_reference(n: usize, arcs: &[(usize, usize, i64)]) -> Vec<f64> {
    let nb = neighbours(n, arcs);
    let arcset: BTreeSet<(usize, usize)> = arcs
        .iter()
        .filter(|a| a.0 != a.1)
        .map(|a| (a.0, a.1))
        .collect();
    (0..n)
        .map(|v| {
            let k = nb[v].len();
            if k <= 1 {
                return 0.0;
            }
            let links = arcset
                .iter()
                .filter(|(x, y)| nb[v].contains(x) && nb[v].contains(y))
                .count();
            links as f64 / (k * (k - 1)) as f64
        })
        .collect()
}

/// CDLP by the LDBC definition, directly: in- and out-neighbours' labels (a two-way neighbour
/// twice; self-loops ignored), the most frequent, ties to the smallest; no neighbours, the
/// label kept.
fn cdlp_reference(n: usize, arcs: &[(usize, usize, i64)], iterations: usize) -> Vec<u32> {
    let set: BTreeSet<(usize, usize)> = arcs
        .iter()
        .filter(|a| a.0 != a.1)
        .map(|a| (a.0, a.1))
        .collect();
    let mut nbrs = vec![Vec::new(); n];
    for &(u, v) in &set {
        nbrs[u].push(v);
        nbrs[v].push(u);
    }
    let mut labels: Vec<u32> = (0..n as u32).collect();
    for _ in 0..iterations {
        labels = (0..n)
            .map(|v| {
                let mut count = std::collections::BTreeMap::new();
                for &u in &nbrs[v] {
                    *count.entry(labels[u]).or_insert(0usize) += 1;
                }
                count
                    .iter()
                    .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                    .map_or(labels[v], |(&l, _)| l)
            })
            .collect();
    }
    labels
}

/// Every kernel on the suite's test graphs against the references above: WCC, CDLP and the
/// triangles exactly, PR and LCC within `1e-9` relative.
pub fn check_graphalytics_random<B: Frontier>(b: &B) -> Res {
    let mut graphs = test_graphs();
    // Self-loops and parallel arcs, which the kernels ignore.
    graphs.push(semigraph_algos::testing::TestGraph {
        name: "loops and repeats".into(),
        n: 6,
        arcs: vec![
            (0, 0, 1),
            (0, 1, 1),
            (0, 1, 2),
            (1, 2, 1),
            (2, 0, 1),
            (2, 2, 1),
            (3, 4, 1),
            (4, 3, 1),
        ],
    });
    for tg in graphs {
        let name = &tg.name;
        let a = tg.csr::<i32>();
        let gr = Graph::new(b, &a, GraphOptions::default()).map_err(|e| e.to_string())?;
        let err = |what: &str, e: semigraph_algos::Error| format!("{name}: {what}: {e}");
        let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * y.abs().max(1e-300);
        let opts = PageRankOptions {
            damping: 0.85,
            iterations: 12,
            tolerance: None,
        };
        let pr = pagerank(&gr, &opts).map_err(|e| err("pagerank", e))?;
        let want = pagerank_reference(tg.n, &tg.arcs, 0.85, 12);
        if let Some(v) = (0..tg.n).find(|&v| !close(pr.ranks[v], want[v])) {
            return Err(format!(
                "{name}: pagerank({v}) {} vs {}",
                pr.ranks[v], want[v]
            ));
        }
        let c = wcc(&gr).map_err(|e| err("wcc", e))?;
        if c.labels != components_reference(tg.n, &tg.arcs) {
            return Err(format!("{name}: wcc labels differ"));
        }
        let got = lcc(&gr).map_err(|e| err("lcc", e))?;
        let want = lcc_reference(tg.n, &tg.arcs);
        if let Some(v) = (0..tg.n).find(|&v| !(close(got[v], want[v]) || got[v] == want[v])) {
            return Err(format!("{name}: lcc({v}) {} vs {}", got[v], want[v]));
        }
        let nb = neighbours(tg.n, &tg.arcs);
        let per: Vec<u64> = (0..tg.n)
            .map(|v| {
                let s: Vec<usize> = nb[v].iter().copied().collect();
                let mut t = 0;
                for (i, &x) in s.iter().enumerate() {
                    t += s[i + 1..].iter().filter(|y| nb[x].contains(y)).count() as u64;
                }
                t
            })
            .collect();
        if triangles_per_vertex(&gr).map_err(|e| err("triangles", e))? != per {
            return Err(format!("{name}: triangles per vertex differ"));
        }
        let total = triangle_count(&gr).map_err(|e| err("triangle_count", e))?;
        if total * 3 != per.iter().sum::<u64>() {
            return Err(format!(
                "{name}: {total} triangles, the vertices say otherwise"
            ));
        }
        for order in [VertexOrder::Degree, VertexOrder::Index] {
            let t = triangle_count_in(&gr, order).map_err(|e| err("triangle_count_in", e))?;
            if t != total {
                return Err(format!(
                    "{name}: {t} triangles in {order:?} order, {total} else"
                ));
            }
        }
        let labels = cdlp(&gr, 4).map_err(|e| err("cdlp", e))?;
        if labels != cdlp_reference(tg.n, &tg.arcs, 4) {
            return Err(format!("{name}: cdlp labels differ"));
        }
        // With the pull matrix the kernels read A^T from it, and A alone where every arc has
        // its reverse (the grids, the symmetrised graph below).
        let pulled = GraphOptions {
            pull: true,
            ..Default::default()
        };
        for sym in [false, true] {
            let mut arcs = tg.arcs.clone();
            if sym {
                arcs.extend(tg.arcs.iter().map(|&(u, v, w)| (v, u, w)));
            }
            let t2 = semigraph_algos::testing::TestGraph {
                name: name.clone(),
                n: tg.n,
                arcs,
            };
            let a2 = t2.csr::<i32>();
            let g2 = Graph::new(b, &a2, pulled).map_err(|e| e.to_string())?;
            if sym && tg.n > 1 && !g2.is_undirected() {
                return Err(format!("{name}: symmetrised, not seen as undirected"));
            }
            let c2 = wcc(&g2).map_err(|e| err("wcc (pull)", e))?;
            if c2.labels != components_reference(tg.n, &t2.arcs) {
                return Err(format!("{name}: wcc labels differ (pull, sym {sym})"));
            }
            let per2 = triangles_per_vertex(&g2).map_err(|e| err("triangles (pull)", e))?;
            if per2 != per || triangle_count(&g2).map_err(|e| err("tc (pull)", e))? != total {
                return Err(format!("{name}: triangles differ (pull, sym {sym})"));
            }
            let l2 = lcc(&g2).map_err(|e| err("lcc (pull)", e))?;
            let want2 = lcc_reference(tg.n, &t2.arcs);
            if let Some(v) = (0..tg.n).find(|&v| !(close(l2[v], want2[v]) || l2[v] == want2[v])) {
                return Err(format!("{name}: lcc({v}) {} vs {} (pull)", l2[v], want2[v]));
            }
        }
    }
    Ok(())
}

/// WCC on dense random blocks (14 arcs a vertex), tails of one arc into the first (vertex 0
/// among them: the large component's least vertex hangs on one arc), pairs and isolated
/// vertices, the numbering shuffled; directed, symmetrised, and with the pull matrix, against
/// the host's union-find.
pub fn check_wcc_blocks<B: Frontier>(b: &B) -> Res {
    let n = 4000;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    };
    // The shuffled numbering, the first tail (position 3000) numbered 0.
    let mut id: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        id.swap(i, next(i + 1));
    }
    let zero = id.iter().position(|&v| v == 0).expect("a permutation");
    id.swap(zero, 3000);
    let mut arcs = Vec::new();
    for (lo, len) in [(0, 2000), (2000, 1000)] {
        for u in lo..lo + len {
            for _ in 0..14 {
                arcs.push((id[u], id[lo + next(len)], 1));
            }
        }
    }
    for t in 3000..3300 {
        arcs.push((id[t], id[next(2000)], 1));
    }
    for p in (3300..3500).step_by(2) {
        arcs.push((id[p + 1], id[p], 1));
    }
    let pulled = GraphOptions {
        pull: true,
        ..Default::default()
    };
    for sym in [false, true] {
        let mut all = arcs.clone();
        if sym {
            all.extend(arcs.iter().map(|&(u, v, w)| (v, u, w)));
        }
        let tg = semigraph_algos::testing::TestGraph {
            name: format!("wcc blocks (sym {sym})"),
            n,
            arcs: all,
        };
        let want = components_reference(n, &tg.arcs);
        let a = tg.csr::<i32>();
        for opts in [GraphOptions::default(), pulled] {
            let g = Graph::new(b, &a, opts).map_err(|e| e.to_string())?;
            let got = wcc(&g).map_err(|e| format!("{}: {e}", tg.name))?;
            if got.labels != want {
                let v = (0..n).find(|&v| got.labels[v] != want[v]).unwrap_or(0);
                return Err(format!(
                    "{} (pull {}): label of {v} {} vs {}",
                    tg.name, opts.pull, got.labels[v], want[v]
                ));
            }
        }
    }
    Ok(())
}
