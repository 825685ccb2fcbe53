//! Traversals over a [`DistGraph`]: BFS and Bellman-Ford, each step one product per rank on
//! its own block and one all-gather.

use semigraph_semiring::{MinPlus, Semiring};

use super::{Communicator, DenseOf, DistGraph, QueueOf};
use crate::NO_PARENT;
use crate::backend::{
    Accum, ElementWise, Frontier, Mask, Objects, Parents, Products, QueueInfo, RelaxStep, UnaryOp,
};
use crate::bfs::{Bfs, BfsOptions, BfsSemiring, Direction, ResidentBfs, Switch};
use crate::error::{Error, Result, check_vertex};
use crate::sssp::{Distance, ShortestPaths};

/// Breadth-first search over a distributed graph: levels and parents, as
/// [`bfs`](fn@crate::bfs) returns them on one device.
///
/// The frontier is a queue of the whole graph's vertices, the same on every rank; each
/// level, every rank finds the new vertices among its own: pushing the frontier along its
/// push block (a queue relaxation, work proportional to the frontier's arcs into the rank's
/// vertices) while the frontier is small, pulling through its pull block (masked SpMV over
/// the rank's unvisited vertices) once it is large (Beamer's rule on the frontier's exact
/// out-arcs, as on one device, counted only where the frontier could pass its threshold were
/// its vertices of 64 times the average degree; [`BfsOptions::direction`] can force one). An
/// all-gather of the ranks' new vertices as a set ([`Communicator::all_gather_set`]: after a
/// push step the counts, then only the ids; after a pull step, whose output is large, a
/// bitmap of the graph) gives every rank the next frontier. Parents and levels stay in blocks
/// of each rank's vertices until the end. Parents are the smallest-numbered parent in the
/// frontier, as on one device; levels are exact.
///
/// # Arguments
/// - `g`: the graph in the parents semiring (built with push blocks unless `opts` forces
///   pulling; a weighted graph's arcs by [`DistGraph::pattern`], once); `source`: the start
///   vertex; `opts`: the direction.
///
/// # Returns
/// Levels, parents, reached vertices, depth and the push and pull steps, as [`Bfs`].
///
/// # Errors
/// `VertexOutOfRange` for a bad source; `InvalidArgument` without push blocks; backend and
/// communication errors.
///
/// # Complexity
/// Per level and rank: a push step's work is the frontier's arcs into the rank's vertices, a
/// pull step's the rank's unvisited vertices' in-arcs (up to the first parent found) plus
/// `O(n)` to spread the frontier; the exchange moves the level's new vertices (4 bytes each
/// after a push step, `n / 8` bytes after a pull step). After a push level two counts are
/// read back per rank (the new vertices; the frontier's arcs, unless the frontier is too
/// small to switch to pulling even were its vertices of 64 times the average degree), after
/// a pull level one count in all.
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
pub fn bfs<C: Communicator>(
    g: &DistGraph<'_, C, BfsSemiring>,
    source: usize,
    opts: &BfsOptions,
) -> Result<Bfs>
where
    C::Backend: Frontier,
{
    bfs_resident(g, source, opts)?.into_bfs(g.comm().backend(0))
}

/// [`bfs`] with the levels and parents left on rank 0's backend (every rank holds the same
/// arrays; the others are dropped), for a caller that goes on computing there:
/// [`bfs_blocks`] and [`DistBfs::gather`].
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
pub fn bfs_resident<C: Communicator>(
    g: &DistGraph<'_, C, BfsSemiring>,
    source: usize,
    opts: &BfsOptions,
) -> Result<ResidentBfs<C::Backend>>
where
    C::Backend: Frontier,
{
    bfs_blocks(g, source, opts)?.gather(g)
}

/// A distributed BFS's result left where the ranks computed it: rank `r` holds the levels and
/// parents of its own vertices (`g.partition().range(r)`), as a distributed algorithm that
/// goes on from them reads them. [`gather`](DistBfs::gather) makes them whole.
pub struct DistBfs<C: Communicator>
where
    C::Backend: Frontier,
{
    /// The source (0-based).
    pub source: usize,
    /// Each rank's block of the hop counts ([`UNREACHED`](crate::UNREACHED) where not reached).
    pub levels: Vec<DenseOf<C, Parents>>,
    /// Each rank's block of the parents ([`NO_PARENT`] where not reached).
    pub parents: Vec<DenseOf<C, BfsSemiring>>,
    /// Number of vertices reached (the source included).
    pub reached: usize,
    /// Number of non-empty levels after the source's.
    pub depth: u32,
    /// Levels run in push direction.
    pub push_steps: u32,
    /// Levels run in pull direction.
    pub pull_steps: u32,
}

impl<C: Communicator> DistBfs<C>
where
    C::Backend: Frontier,
{
    /// The levels and parents made whole (an all-gather of the blocks) and left on rank 0's
    /// backend: [`bfs_resident`]'s result.
    ///
    /// # Errors
    /// The backends' memory errors; communication errors.
    pub fn gather<S: Semiring>(self, g: &DistGraph<'_, C, S>) -> Result<ResidentBfs<C::Backend>> {
        Ok(ResidentBfs {
            source: self.source,
            levels: g.whole(&self.levels)?.swap_remove(0),
            parents: g.whole(&self.parents)?.swap_remove(0),
            reached: self.reached,
            depth: self.depth,
            push_steps: self.push_steps,
            pull_steps: self.pull_steps,
        })
    }
}

/// [`bfs`] with the levels and parents left in blocks on the ranks that computed them
/// ([`DistBfs`]): the distributed search without the final gather.
///
/// Arguments, errors and complexity as [`bfs`].
///
/// ```
/// use semigraph_algos::dist::{self, Communicator, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::{BfsOptions, BfsSemiring};
///
/// let a = arcs_to_csr::<BfsSemiring>(4, &[(0, 1, 1), (1, 2, 1), (2, 3, 1)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::bfs_blocks(&g, 0, &BfsOptions::default())?;
/// let own = g.partition().range(1); // rank 1's vertices
/// let levels = cpu.read_dense(&r.levels[1])?;
/// assert_eq!(levels, own.map(|v| v as u32).collect::<Vec<_>>()); // a path: level = vertex
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs_blocks<C: Communicator>(
    g: &DistGraph<'_, C, BfsSemiring>,
    source: usize,
    opts: &BfsOptions,
) -> Result<DistBfs<C>>
where
    C::Backend: Frontier,
{
    type P = BfsSemiring;
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    check_vertex(source, n)?;
    let s = source as u32;
    let pull = g.each(|r, _| Ok(g.pull(r)))?;
    let push = match opts.direction {
        Direction::Pull => None,
        _ => Some(g.each(|r, _| g.push(r, "push BFS"))?),
    };
    // Parents and levels in blocks of each rank's vertices; the frontier a queue of the whole
    // graph's vertices on every rank; each level's new vertices a queue of the rank's own.
    let mut parents = g.local_unit::<P>(source, s)?;
    let mut levels = g.local_unit::<Parents>(source, 0)?;
    let mut found = g.each(|r, b| b.queue::<P>(part.range(r).len()))?;
    let mut front = g.each(|_, b| {
        let mut q = b.queue::<P>(n)?;
        b.queue_set(&mut q, &[s], &[s], 0)?;
        Ok(q)
    })?;
    // Pull steps' dense frontier (whole) and product (the rank's vertices), made at the
    // first pull and reused.
    let mut dense: Vec<Option<PullBuffers<C>>> = (0..comm.ranks()).map(|_| None).collect();
    // The frontier's out-arcs: each rank's push block holds the arcs into its vertices.
    let weigh = opts.direction == Direction::Auto && push.is_some();
    let arcs_of = |front: &[QueueOf<C, P>]| -> Result<usize> {
        let Some(push) = &push else { return Ok(0) };
        let per = g.par_each(front.iter().collect(), |r, b, q| b.queue_arcs(q, push[r]))?;
        Ok(per.iter().map(|(_, a)| a).sum())
    };
    let mut dir = Switch::new(opts.direction, true, g.nnz());
    let mut last = QueueInfo {
        len: 1,
        total: 1,
        steps: 0,
    };
    // The frontier's arcs are counted only where they could make the next level pull: not
    // for a frontier too small to do so even were its vertices of 64 times the average
    // degree (a kernel and a read-back per rank saved).
    let degree = 64 * g.nnz().div_ceil(n);
    let mut arcs = match weigh && dir.may_pull(1, degree) {
        true => arcs_of(&front)?,
        false => 0,
    };
    let (mut reached, mut pulls) = (1usize, 0u32);
    loop {
        crate::cancel::check()?;
        let pulling = push.is_none() || dir.pulls_next(last.len, arcs, n);
        let level = last.steps + 1;
        // Each rank finds its new vertices, all ranks at once: pushed along A(:, R) from
        // the frontier (P, L and the queue in one relaxation), or T<!P> = A^T(R, :) (+).(x) F
        // pulled, then P (+)= T and L<T> = level, enqueued.
        let work = found
            .iter_mut()
            .zip(parents.iter_mut().zip(levels.iter_mut()))
            .zip(front.iter().zip(dense.iter_mut()))
            .collect();
        g.par_each(work, |r, b, ((next, (p, l)), (x, buf))| {
            if let (Some(push), false) = (&push, pulling) {
                return b.queue_relax(RelaxStep::new(p, push[r]).steps(l, true), x, next);
            }
            let pair = match buf {
                Some(pair) => pair,
                None => buf.insert((
                    b.dense_filled::<P>(n, 1, P::zero())?,
                    b.dense_filled::<P>(part.range(r).len(), 1, P::zero())?,
                )),
            };
            let (xd, t) = (&mut pair.0, &mut pair.1);
            b.queue_to_dense(x, xd)?;
            b.apply(t, Mask::All, UnaryOp::Fill(P::zero()))?;
            b.mxm(t, b.skip(p), Accum::Replace, pull[r], xd)?;
            b.queue_improve_dense(p, t, next, level)?;
            b.queue_assign(l, next, level as u32)
        })?;
        pulls += pulling as u32;
        let nf = last.len;
        // The next frontier, whole on every rank: only the new vertices travel, as a set
        // (min-second-i's terms are the frontier vertices' ids, not their values), as a
        // bitmap of the graph after a pull step (whose output is a large part of it).
        last = comm.all_gather_set::<P>(&mut found, &mut front, part, P::one(), pulling)?;
        if last.len == 0 {
            last.steps = level;
            break;
        }
        reached += last.len;
        dir.shrinking = last.len < nf;
        // The frontier's arcs decide only a switch to pulling: while pulling they are not
        // counted (the arcs left then stay higher, which can only delay a later switch back
        // to pulling), nor for a frontier too small to switch (above).
        arcs = match weigh && !pulling && dir.may_pull(last.len, degree) {
            true => arcs_of(&front)?,
            false => 0,
        };
    }
    let level = last.steps as u32;
    let depth = level - 1;
    Ok(DistBfs {
        source,
        levels,
        parents,
        reached,
        depth,
        push_steps: level - pulls,
        pull_steps: pulls,
    })
}

/// A rank's pull-step buffers: the whole frontier as a dense vector, and the product over its
/// own vertices.
type PullBuffers<C> = (DenseOf<C, BfsSemiring>, DenseOf<C, BfsSemiring>);

/// Bellman-Ford over a distributed graph: distances and predecessors from `source`, as
/// [`bellman_ford`](crate::bellman_ford) returns them on one device, and the same named
/// negative cycle.
///
/// Each round, every rank relaxes the frontier (a queue of the vertices that changed last
/// round, with their distances, the same on every rank) along its push block, improving its
/// own vertices and recording their witnesses (a queue relaxation); an all-gather of the
/// ranks' changed vertices ([`Communicator::all_gather_queue`]: the counts, then only the
/// entries) is the next frontier. A round that changes nothing ends the search; one that
/// still changes something after `n` rounds proves a negative cycle, which is named.
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
/// Per round and rank: the frontier's arcs into the rank's vertices; the exchange moves the
/// round's changed vertices, and one count is read back per rank. Distances and
/// predecessors stay in blocks of each rank's vertices until the end.
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
) -> Result<ShortestPaths<D>>
where
    C::Backend: Frontier,
{
    type M<D> = MinPlus<D>;
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    check_vertex(source, n)?;
    let push = g.each(|r, _| g.push(r, "distributed Bellman-Ford"))?;
    // Distances and predecessors in blocks of each rank's vertices; the frontier (the
    // vertices changed last round, with their distances) a queue of the whole graph's
    // vertices on every rank; each round's changes a queue of the rank's own.
    let mut d = g.local_unit::<M<D>>(source, M::<D>::one())?;
    let mut p = g.each(|r, b| b.dense_filled::<Parents>(part.range(r).len(), 1, NO_PARENT))?;
    let mut found = g.each(|r, b| b.queue::<M<D>>(part.range(r).len()))?;
    let mut front = g.each(|_, b| {
        let mut q = b.queue::<M<D>>(n)?;
        b.queue_set(&mut q, &[source as u32], &[M::<D>::one()], 0)?;
        Ok(q)
    })?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        if rounds >= n {
            // Still improving after n rounds: a negative cycle leads to a changed vertex.
            let b0 = comm.backend(0);
            let pred = b0.read_dense(&g.whole(&p)?[0])?;
            let (idx, _) = b0.queue_read(&front[0])?;
            return Err(Error::NegativeCycle {
                cycle: crate::relax::cycle_behind(&pred, idx[0] as usize),
            });
        }
        // Each rank relaxes the frontier into its vertices, with their witnesses, all ranks at
        // once; the changes are gathered into the next frontier.
        let work = found
            .iter_mut()
            .zip(d.iter_mut().zip(p.iter_mut()))
            .zip(&front)
            .collect();
        g.par_each(work, |r, b, ((next, (d, p)), x)| {
            b.queue_relax(RelaxStep::new(d, push[r]).parents(p), x, next)
        })?;
        let info = comm.all_gather_queue::<M<D>>(&mut found, &mut front, part)?;
        rounds = info.steps;
        if info.len == 0 {
            break;
        }
    }
    let b0 = comm.backend(0);
    let mut pred = b0.read_dense_owned(g.whole(&p)?.swap_remove(0))?;
    pred[source] = NO_PARENT;
    Ok(ShortestPaths {
        source,
        dist: b0.read_dense_owned(g.whole(&d)?.swap_remove(0))?,
        pred,
        rounds,
    })
}
