//! Graphs built from arcs on the backend ([`Graph::from_arcs`]) against graphs built from
//! the host's CSR of the same arcs ([`Graph::new`]): the same host CSR, the same pull
//! matrix, the same shortest paths and BFS, and refusals of bad arcs.

use semigraph_algos::{
    BfsOptions, BfsSemiring, Error, Frontier, Graph, GraphOptions, bellman_ford, bfs,
};
use semigraph_formats::generate::Rng;
use semigraph_formats::{Csr, Format};
use semigraph_semiring::{MinPlus, Semiring};

/// Arcs as [`Graph::from_arcs`] takes them: sources, targets, weights.
type Arcs<'a> = (&'a [u32], &'a [u32], Option<&'a [i64]>);

/// `n` vertices, `m` arcs from `seed`: a quarter of them repeats of earlier arcs (so that
/// repeats combine), weights 1..=9 and, with `zeros`, some arcs weighing the semiring's zero
/// (dropped).
fn arcs(n: u32, m: usize, seed: u64, zeros: bool) -> (Vec<u32>, Vec<u32>, Vec<i64>) {
    let r = Rng::new(seed);
    let (mut src, mut dst, mut w) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..m as u64 {
        let (s, d) = if k % 4 == 3 && k > 0 {
            let e = r.below(3 * k + 2, k) as usize;
            (src[e], dst[e])
        } else {
            (
                r.below(3 * k, n as u64) as u32,
                r.below(3 * k + 1, n as u64) as u32,
            )
        };
        src.push(s);
        dst.push(d);
        let zero = zeros && k % 11 == 5;
        w.push(if zero {
            MinPlus::<i64>::zero()
        } else {
            1 + r.below(3 * k + 2, 9) as i64
        });
    }
    (src, dst, w)
}

/// [`Graph::from_arcs`] equals [`Graph::new`] over the host's build of the same arcs, with
/// and without weights, with and without the pull matrix (in CSR and in the backend's own
/// choice); bad arcs are refused with an error.
pub fn check_graph_from_arcs<B: Frontier>(b: &B) -> Result<(), String> {
    for (seed, n, m, zeros) in [
        (61u64, 50u32, 300usize, false),
        (62, 1, 4, false),
        (63, 7, 0, false),
        (64, 400, 3000, true),
    ] {
        let (src, dst, w) = arcs(n, m, seed, zeros);
        let n = n as usize;
        for opts in [
            GraphOptions::default(),
            GraphOptions {
                pull: true,
                ..Default::default()
            },
            GraphOptions {
                pull: true,
                format: Some(Format::Csr),
                ..Default::default()
            },
        ] {
            let what = format!("seed {seed}, {opts:?}");
            let host = Csr::<MinPlus<i64>>::try_from_arcs(n, n, &src, &dst, Some(&w))
                .and_then(Csr::without_zeros)
                .map_err(|e| format!("{what}: host build: {e}"))?;
            let g = Graph::from_arcs(b, n, &src, &dst, Some(&w), opts)
                .map_err(|e| format!("{what}: from_arcs: {e}"))?;
            let want = Graph::new(b, &host, opts).map_err(|e| format!("{what}: new: {e}"))?;
            if g.csr() != &host {
                return Err(format!("{what}: the host CSR differs from the host build"));
            }
            let facts = |g: &Graph<'_, B, MinPlus<i64>>| {
                (
                    g.n(),
                    g.nnz(),
                    g.max_out_degree(),
                    g.is_undirected(),
                    g.pull_info(),
                )
            };
            if facts(&g) != facts(&want) {
                return Err(format!(
                    "{what}: {:?} against {:?}",
                    facts(&g),
                    facts(&want)
                ));
            }
            if n > 0 {
                let (d, e) = (bellman_ford(&g, 0), bellman_ford(&want, 0));
                match (d, e) {
                    (Ok(d), Ok(e)) if d.dist == e.dist && d.pred == e.pred => {}
                    (d, e) => return Err(format!("{what}: bellman_ford {d:?} against {e:?}")),
                }
            }
            // The pattern, built without weights: every arc one, repeats combined.
            let p = Graph::<B, BfsSemiring>::from_arcs(b, n, &src, &dst, None, opts)
                .map_err(|e| format!("{what}: pattern from_arcs: {e}"))?;
            let hp = Csr::<BfsSemiring>::try_from_arcs(n, n, &src, &dst, None)
                .map_err(|e| format!("{what}: pattern host build: {e}"))?;
            if p.csr() != &hp {
                return Err(format!("{what}: the pattern's host CSR differs"));
            }
            let wp = Graph::new(b, &hp, opts).map_err(|e| format!("{what}: pattern new: {e}"))?;
            if (p.max_out_degree(), p.is_undirected(), p.pull_info())
                != (wp.max_out_degree(), wp.is_undirected(), wp.pull_info())
            {
                return Err(format!("{what}: the pattern graphs differ"));
            }
            if opts.pull && n > 0 {
                let o = BfsOptions::default();
                match (bfs(&p, 0, &o), bfs(&wp, 0, &o)) {
                    (Ok(x), Ok(y)) if x.levels == y.levels && x.parents == y.parents => {}
                    (x, y) => return Err(format!("{what}: bfs {x:?} against {y:?}")),
                }
            }
        }
    }
    // Refusals, never a panic: an arc past `n`, arrays of different lengths.
    let bad: [Arcs<'_>; 3] = [
        (&[0, 3], &[1, 0], None),
        (&[0, 1], &[1], None),
        (&[0, 1], &[1, 0], Some(&[4])),
    ];
    for (s, d, w) in bad {
        match Graph::<B, MinPlus<i64>>::from_arcs(b, 3, s, d, w, GraphOptions::default()) {
            Err(Error::InvalidArgument(_) | Error::Format(_)) => {}
            Err(e) => return Err(format!("{s:?} -> {d:?}: refused as {e:?}")),
            Ok(_) => return Err(format!("{s:?} -> {d:?} ({w:?}) was accepted")),
        }
    }
    Ok(())
}
