//! Traversals over a [`DistGraph`]: BFS and Bellman-Ford, each step one product per rank on
//! its own block and one all-gather.

use semigraph_semiring::{MinPlus, Semiring};

use super::{Communicator, DenseOf, DistGraph};
use crate::backend::{Accum, ElementWise, Frontier, Mask, Objects, Parents, Products, UnaryOp};
use crate::bfs::{Bfs, BfsOptions, BfsSemiring, Direction, ResidentBfs};
use crate::error::{Error, Result, check_vertex};
use crate::sssp::{Distance, ShortestPaths};
use crate::{NO_PARENT, Reductions};

/// Beamer's thresholds (as [`bfs`](fn@crate::bfs)): pull once the frontier's arcs times
/// `ALPHA` pass the arcs not yet explored; push again once a shrinking frontier is below
/// `n / BETA` vertices.
const ALPHA: f64 = 14.0;
const BETA: usize = 24;

/// Breadth-first search over a distributed graph: levels and parents, as
/// [`bfs`](fn@crate::bfs) returns them on one device.
///
/// Each level, every rank finds the new vertices among its own: pushing from the (replicated)
/// frontier along its push block (`vxm`, masked by the unvisited vertices) while the frontier
/// is small, pulling through its pull block (masked SpMV) once it is large (Beamer's rule on
/// the frontier's estimated arcs; [`BfsOptions::direction`] can force one). An all-gather of
/// the new vertices' parents then gives every rank the next frontier; parents and levels are
/// updated on every rank alike. Parents are the smallest-numbered parent in the frontier
/// (pull) or the one the backend's push keeps, as on one device; levels are exact.
///
/// # Arguments
/// - `g`: the graph (built with push blocks unless `opts` forces pulling); `source`: the
///   start vertex; `opts`: the direction.
///
/// # Returns
/// Levels, parents, reached vertices, depth and the push and pull steps, as [`Bfs`].
///
/// # Errors
/// `VertexOutOfRange` for a bad source; `InvalidArgument` without push blocks; backend and
/// communication errors.
///
/// # Complexity
/// Per level and rank: the product over the rank's arcs that the step touches, plus `O(n)`
/// element-wise work and an all-gather of `n` parents; one count read back per level (rank 0).
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, BfsOptions, BfsSemiring, CpuBackend};
///
/// let a = arcs_to_csr::<BfsSemiring>(4, &[(0, 1, 1), (1, 2, 1), (2, 3, 1)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::bfs(&g, 0, &BfsOptions::default())?;
/// assert_eq!(r.levels, vec![0, 1, 2, 3]);
/// assert_eq!(r.parents, vec![0, 0, 1, 2]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs<C: Communicator, S: Semiring>(
    g: &DistGraph<'_, C, S>,
    source: usize,
    opts: &BfsOptions,
) -> Result<Bfs>
where
    C::Backend: Frontier,
{
    bfs_resident(g, source, opts)?.read(g.comm().backend(0))
}

/// [`bfs`] with the levels and parents left on rank 0's backend (every rank holds the same
/// arrays; the others are dropped), for a caller that goes on computing there.
///
/// Arguments, errors and complexity as [`bfs`].
///
/// ```
/// use semigraph_algos::dist::{self, Communicator, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::{BfsOptions, BfsSemiring};
///
/// let a = arcs_to_csr::<BfsSemiring>(3, &[(0, 1, 1), (1, 2, 1)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::bfs_resident(&g, 2, &BfsOptions::default())?;
/// assert_eq!(cpu.read_dense(&r.levels)?, vec![UNREACHED, UNREACHED, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs_resident<C: Communicator, S: Semiring>(
    g: &DistGraph<'_, C, S>,
    source: usize,
    opts: &BfsOptions,
) -> Result<ResidentBfs<C::Backend>>
where
    C::Backend: Frontier,
{
    type P = BfsSemiring;
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    check_vertex(source, n)?;
    let s = source as u32;
    let pull = g.each(|r, b| b.pattern::<S, P>(g.pull(r)))?;
    let push = match opts.direction {
        Direction::Pull => None,
        _ => Some(g.each(|r, b| b.pattern::<S, P>(g.push(r, "push BFS")?))?),
    };
    // Each rank's parents, levels and new vertices are blocks of its own vertices; the
    // frontier is whole on every rank (the parents of its vertices, the zero elsewhere).
    let mut parents = g.local_unit::<P>(source, s)?;
    let mut levels = g.local_unit::<Parents>(source, 0)?;
    let mut found_here: Vec<DenseOf<C, P>> = g.local_unit::<P>(source, s)?;
    let mut front = g.each(|_, b| b.unit::<P>(n, source, s))?;
    let avg = g.nnz() as f64 / n as f64;
    let (mut nf, mut reached, mut level) = (1usize, 1usize, 0u32);
    let (mut pulling, mut shrinking) = (false, false);
    let (mut arcs_left, mut pulls) = (g.nnz() as f64, 0u32);
    loop {
        crate::cancel::check()?;
        let arcs = nf as f64 * avg;
        pulling = match (opts.direction, &push) {
            (Direction::Pull, _) | (_, None) => true,
            (Direction::Push, _) => false,
            (Direction::Auto, _) if pulling => !shrinking || nf * BETA >= n,
            (Direction::Auto, _) => arcs * ALPHA > arcs_left,
        };
        arcs_left -= arcs;
        level += 1;
        // Each rank finds its new vertices, all ranks at once: T<!P> = A^T(R, :) (+).(x) F
        // (pull), or F pushed along A(:, R); then P (+)= T and L<T> = level, counted.
        let work = found_here
            .iter_mut()
            .zip(parents.iter_mut().zip(levels.iter_mut()))
            .zip(&front)
            .collect();
        let counts = g.par_each(work, |r, b, ((t, (p, l)), x)| {
            if pulling {
                b.apply(t, Mask::All, UnaryOp::Fill(P::zero()))?;
                b.mxm(t, b.skip(p), Accum::Replace, &pull[r], x)?;
            } else if let Some(push) = &push {
                let x = b.compact(x)?;
                *t = b.to_dense(&b.vxm(&x, &push[r], b.skip(p))?)?;
            }
            let found = b.improve_dense(p, t)?;
            b.apply(l, b.keep(t), UnaryOp::Fill(level))?;
            Ok(found)
        })?;
        pulls += pulling as u32;
        let found: usize = counts.iter().sum();
        if found == 0 {
            break;
        }
        // The next frontier, whole on every rank.
        comm.all_gather_from::<P>(&found_here, &mut front, part)?;
        shrinking = found < nf;
        (nf, reached) = (found, reached + found);
    }
    let depth = level - 1;
    Ok(ResidentBfs {
        source,
        levels: g.whole(&levels)?.swap_remove(0),
        parents: g.whole(&parents)?.swap_remove(0),
        reached,
        depth,
        push_steps: level - pulls,
        pull_steps: pulls,
    })
}

/// Bellman-Ford over a distributed graph: distances and predecessors from `source`, as
/// [`bellman_ford`](crate::bellman_ford) returns them on one device, and the same named
/// negative cycle.
///
/// Each round, every rank relaxes the (replicated) frontier of vertices that changed last
/// round along its push block (`vxm`), improves its own vertices and records their
/// witnesses; an all-gather of the changes gives every rank the new distances and the next
/// frontier. A round that changes nothing ends the search; one that still changes
/// something after `n` rounds proves a negative cycle, which is named.
///
/// # Arguments
/// - `g`: the graph in min-plus over the distance type, built with push blocks; `source`.
///
/// # Returns
/// Distances (`D::INFINITY` where unreachable), predecessors ([`NO_PARENT`] for the source
/// and the unreachable), and the rounds run, as [`ShortestPaths`].
///
/// # Errors
/// `VertexOutOfRange`; `NegativeCycle` naming a cycle reachable from the source;
/// `InvalidArgument` without push blocks; backend and communication errors.
///
/// # Complexity
/// `O(rounds * (m / k + n))` per rank (the frontier's arcs, the `n`-long changes), one
/// all-gather and one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (0, 2, 9), (1, 2, 2)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::bellman_ford(&g, 0)?;
/// assert_eq!(r.dist, vec![0, 4, 6]);
/// assert_eq!(r.pred[2], 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bellman_ford<C: Communicator, D: Distance>(
    g: &DistGraph<'_, C, MinPlus<D>>,
    source: usize,
) -> Result<ShortestPaths<D>> {
    type M<D> = MinPlus<D>;
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    check_vertex(source, n)?;
    let push = g.each(|r, _| g.push(r, "distributed Bellman-Ford"))?;
    // Distances and predecessors in blocks of each rank's vertices; the frontier (the
    // vertices changed last round, with their distances) whole on every rank.
    let mut d = g.local_unit::<M<D>>(source, M::<D>::one())?;
    let mut p = g.each(|r, b| b.dense_filled::<Parents>(part.range(r).len(), 1, NO_PARENT))?;
    let mut front = g.each(|_, b| b.sparse::<M<D>>(n, &[source as u32], &[M::<D>::one()]))?;
    let mut changes = g.each(|_, b| b.dense_filled::<M<D>>(n, 1, M::<D>::zero()))?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        rounds += 1;
        // Each rank relaxes the frontier into its vertices and records their witnesses, all
        // ranks at once.
        let work = d.iter_mut().zip(p.iter_mut()).zip(&front).collect();
        let mine = g.par_each(work, |r, b, ((d, p), x)| {
            let t = b.vxm(x, push[r], Mask::All)?;
            let changed = b.improve(d, &t)?;
            b.witness(p, x, push[r], d, &changed)?;
            b.to_dense(&changed)
        })?;
        comm.all_gather_from::<M<D>>(&mine, &mut changes, part)?;
        let b0 = comm.backend(0);
        if b0.nvals(&changes[0])? == 0 {
            break;
        }
        if rounds >= n {
            // Still improving after n rounds: a negative cycle leads to a changed vertex.
            let pred = b0.read_dense(&g.whole(&p)?[0])?;
            let (idx, _) = b0.read_sparse(&b0.compact(&changes[0])?)?;
            return Err(Error::NegativeCycle {
                cycle: crate::relax::cycle_behind(&pred, idx[0] as usize),
            });
        }
        let work = front.iter_mut().zip(&changes).collect();
        g.par_each(work, |_, b, (x, c)| {
            *x = b.compact(c)?;
            Ok(())
        })?;
    }
    let b0 = comm.backend(0);
    let mut pred = b0.read_dense(&g.whole(&p)?[0])?;
    pred[source] = NO_PARENT;
    Ok(ShortestPaths {
        source,
        dist: b0.read_dense(&g.whole(&d)?[0])?,
        pred,
        rounds,
    })
}
