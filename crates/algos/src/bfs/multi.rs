//! Breadth-first search from many sources at once: one SpMM per level.

use semigraph_semiring::{MinPlus, Semiring};

use super::{Bfs, BfsSemiring, UNREACHED};
use crate::backend::{Accum, Frontier, Mask, UnaryOp};
use crate::error::{Result, check_vertex};
use crate::graph::Graph;

/// BFS from several sources at once: one SpMM per level on an `n x k` block, column `j`
/// holding the search from `sources[j]`.
///
/// Each level is `T<!P> = A^T (+).(x) F` in [`BfsSemiring`] with `F` the previous level's
/// block, then `P (+)= T`, `L<T> = level`. Results equal [`bfs`](fn@super::bfs) from each source.
///
/// # Arguments
/// - `g`: the graph, built with `GraphOptions { pull: true, .. }`.
/// - `sources`: vertex ids (repeats allowed).
///
/// # Returns
/// One [`Bfs`] per source, in order (all levels are pull steps).
///
/// # Errors
/// A source out of range; a graph without `A^T`; backend errors (the block needs
/// `3 * n * k * 4` bytes).
///
/// # Complexity
/// `O(depth * (n + m) * k)` work, `depth + 1` `SpMMs` for the deepest source.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, bfs_multi, CpuBackend, Graph, GraphOptions};
///
/// let a = arcs_to_csr(3, &[(0, 1, 0), (1, 2, 0)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions { pull: true, ..Default::default() })?;
/// let r = bfs_multi(&g, &[0, 1])?;
/// assert_eq!(r[0].levels, vec![0, 1, 2]);
/// assert_eq!(r[1].level(0), None);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs_multi<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    sources: &[usize],
) -> Result<Vec<Bfs>> {
    type P = BfsSemiring;
    type L = MinPlus<u32>;
    let (b, n, k) = (g.backend(), g.n(), sources.len());
    for &s in sources {
        check_vertex(s, n)?;
    }
    let at = g.require_pull("multi-source BFS")?;
    if k == 0 {
        return Ok(vec![]);
    }
    // Column j starts with source j as its own parent at level 0.
    let mut start_p = crate::error::try_vec(n * k, P::zero(), "multi-source BFS block")?;
    let mut start_l = crate::error::try_vec(n * k, L::zero(), "multi-source BFS block")?;
    for (j, &s) in sources.iter().enumerate() {
        start_p[s * k + j] = s as u32;
        start_l[s * k + j] = 0;
    }
    let mut parents = b.dense::<P>(n, k, &start_p)?;
    let mut levels = b.dense::<L>(n, k, &start_l)?;
    let mut f = b.dense::<P>(n, k, &start_p)?;
    let mut t = b.dense_filled::<P>(n, k, P::zero())?;
    let mut level = 0u32;
    loop {
        crate::cancel::check()?;
        level += 1;
        b.mxm(&mut t, b.skip(&parents), Accum::Replace, at, &f)?;
        let nf = b.improve_dense(&mut parents, &t)?;
        if nf == 0 {
            break;
        }
        b.apply(&mut levels, b.keep(&t), UnaryOp::Fill(level))?;
        // The new frontier is t; the old one becomes the (cleared) next output.
        std::mem::swap(&mut f, &mut t);
        b.apply(&mut t, Mask::All, UnaryOp::Fill(P::zero()))?;
    }
    let (pv, lv) = (b.read_dense_owned(parents)?, b.read_dense_owned(levels)?);
    Ok(sources
        .iter()
        .enumerate()
        .map(|(j, &s)| {
            let levels: Vec<u32> = (0..n).map(|i| lv[i * k + j]).collect();
            let reached = levels.iter().filter(|&&l| l != UNREACHED).count();
            let depth = levels
                .iter()
                .filter(|&&l| l != UNREACHED)
                .max()
                .copied()
                .unwrap_or(0);
            Bfs {
                source: s,
                parents: (0..n).map(|i| pv[i * k + j]).collect(),
                levels,
                reached,
                depth,
                push_steps: 0,
                pull_steps: level,
            }
        })
        .collect())
}
