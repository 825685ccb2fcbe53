//! PageRank and weakly connected components over a [`DistGraph`]: the one-device algebra of
//! [`pagerank`](crate::pagerank) and [`wcc`](crate::wcc), each SpMV split over the ranks and
//! followed by an all-gather, every element-wise step run on every rank alike.

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Abs, Div, Min, Minus};

use super::{Communicator, DenseOf, DistGraph};
use crate::backend::{
    Accum, Bound, Combine, ElementWise, Ewise, Mask, Objects, Operators, Products, Reductions,
    UnaryOp, copy_dense,
};
use crate::components::{Components, LabelSemiring, ResidentComponents};
use crate::error::Result;
use crate::rank::{PageRank, PageRankOptions, PageRankSemiring, ResidentPageRank};

type Pr = PageRankSemiring;
type Label = LabelSemiring;

/// PageRank over a distributed graph, by the LDBC Graphalytics definition of
/// [`pagerank`](crate::pagerank) (same options, same result).
///
/// Each rank keeps its vertices' ranks and out-degrees (row sums of its out-block); each
/// iteration the dangling rank is a sum over the ranks, every rank scales its block, an
/// all-gather makes the scaled ranks whole on every rank, and each rank's pull block gives
/// its vertices' new ranks. On a graph with [`Packed`](super::Packed) columns only the
/// vertices with out-arcs are exchanged (Kronecker graphs: about half of them). Sums over the ranks are added in another order than on one
/// device: results agree to rounding.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read), built with out-blocks if
///   directed; `opts`.
///
/// # Returns
/// The ranks, the iterations run and the last change (with a tolerance), as [`PageRank`].
///
/// # Errors
/// As [`pagerank`](crate::pagerank); `InvalidArgument` for a directed graph without
/// out-blocks; communication errors.
///
/// # Complexity
/// Per iteration and rank `O(m / k + n / k)` and an all-gather of `n` values (`n'`, the
/// vertices with out-arcs, when packed); one scalar per rank read back per iteration (two
/// with a tolerance).
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, PageRankOptions};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (1, 2, true), (2, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let pr = dist::pagerank(&DistGraph::new(&comm, &a, DistOptions::default())?, &PageRankOptions::default())?;
/// assert!(pr.ranks.iter().all(|r| (r - 1.0 / 3.0).abs() < 1e-12));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn pagerank<C: Communicator, S: Semiring>(
    g: &DistGraph<'_, C, S>,
    opts: &PageRankOptions,
) -> Result<PageRank> {
    let r = pagerank_resident(g, opts)?;
    Ok(PageRank {
        ranks: g.comm().backend(0).read_dense_owned(r.ranks)?,
        iterations: r.iterations,
        delta: r.delta,
    })
}

/// [`pagerank`] with the ranks left on rank 0's backend.
///
/// Arguments, errors and complexity as [`pagerank`].
///
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::PageRankOptions;
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(2, &[(0, 1, true), (1, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::pagerank_resident(&g, &PageRankOptions::default())?;
/// assert_eq!(cpu.read_dense(&r.ranks)?, vec![0.5, 0.5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn pagerank_resident<C: Communicator, S: Semiring>(
    g: &DistGraph<'_, C, S>,
    opts: &PageRankOptions,
) -> Result<ResidentPageRank<C::Backend>> {
    opts.check()?;
    let d = opts.damping;
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    if n == 0 {
        return Ok(ResidentPageRank {
            ranks: comm.backend(0).dense_filled::<Pr>(0, 1, 0.0)?,
            iterations: 0,
            delta: None,
        });
    }
    let nf = n as f64;
    // The pull blocks read the scaled ranks of the vertices with out-arcs alone: over packed
    // columns when the graph has them, the all-gather moves those entries only.
    let packed = g.packed();
    let at = g.each(|r, b| match packed {
        Some(p) => b.pattern::<S, Pr>(p.pull(r)),
        None => b.pattern::<S, Pr>(g.pull(r)),
    })?;
    let select = match packed {
        Some(p) => Some(g.each(|r, b| b.pattern::<S, Pr>(p.select(r)))?),
        None => None,
    };
    // Each rank's blocks: outdeg (absent for dangling vertices), d / outdeg, the ranks.
    let outdeg = g.each(|r, b| match g.out(r, "distributed PageRank")? {
        Some(o) => b.reduce_rows(&b.pattern::<S, Pr>(o)?),
        None => b.reduce_rows(&at[r]),
    })?;
    let own = |r: usize| part.range(r).len();
    let scale = g.each(|r, b| {
        let mut s = b.dense_filled::<Pr>(own(r), 1, 0.0)?;
        b.ewise(&mut s, Mask::All, Ewise::Add, &outdeg[r])?;
        b.apply_bound::<Pr, Div>(&mut s, Mask::All, Bound::First(d))?;
        Ok(s)
    })?;
    let mut pr = g.each(|r, b| b.dense_filled::<Pr>(own(r), 1, 1.0 / nf))?;
    let mut next = g.each(|r, b| b.dense_filled::<Pr>(own(r), 1, 0.0))?;
    let mut w = g.each(|r, b| b.dense_filled::<Pr>(own(r), 1, 0.0))?;
    // What travels: each rank's block of the scaled ranks, packed or whole.
    let (mut sent, whole_part) = match packed {
        Some(p) => {
            let part = p.partition();
            let blocks = g.each(|r, b| b.dense_filled::<Pr>(part.range(r).len(), 1, 0.0))?;
            (Some(blocks), part)
        }
        None => (None, part),
    };
    let mut whole_w: Vec<DenseOf<C, Pr>> =
        g.each(|_, b| b.dense_filled::<Pr>(whole_part.n(), 1, 0.0))?;
    let (mut iterations, mut delta) = (0, None);
    // A sum over the ranks of a reduction of each rank's blocks.
    let total = |x: &[DenseOf<C, Pr>], masked: bool| -> Result<f64> {
        let work = x.iter().collect();
        let parts = g.par_each(work, |r, b, x| match masked {
            true => b.reduce(x, b.skip(&outdeg[r])),
            false => b.reduce(x, Mask::All),
        })?;
        Ok(parts.iter().sum())
    };
    while iterations < opts.iterations {
        crate::cancel::check()?;
        let teleport = (1.0 - d) / nf + d * total(&pr, true)? / nf;
        // w = PR * d / outdeg on each rank's block (packed: its vertices with out-arcs),
        // then whole on every rank; each rank's next = teleport + A^T(R, :) w.
        for r in 0..part.ranks() {
            let b = comm.backend(r);
            copy_dense(b, &mut w[r], &pr[r])?;
            b.ewise(&mut w[r], Mask::All, Ewise::Mul, &scale[r])?;
            if let (Some(sent), Some(select)) = (&mut sent, &select) {
                b.mxm(&mut sent[r], Mask::All, Accum::Replace, &select[r], &w[r])?;
            }
        }
        comm.all_gather_from::<Pr>(sent.as_deref().unwrap_or(&w), &mut whole_w, whole_part)?;
        for r in 0..part.ranks() {
            let b = comm.backend(r);
            b.apply(&mut next[r], Mask::All, UnaryOp::Fill(teleport))?;
            b.mxm(&mut next[r], Mask::All, Accum::Add, &at[r], &whole_w[r])?;
        }
        iterations += 1;
        std::mem::swap(&mut pr, &mut next);
        if let Some(t) = opts.tolerance {
            // |new - old| summed over every rank's block.
            for r in 0..part.ranks() {
                let b = comm.backend(r);
                copy_dense(b, &mut w[r], &pr[r])?;
                b.ewise_op::<Pr, Minus>(&mut w[r], Mask::All, Combine::Union, &next[r])?;
                b.apply_op::<Pr, Abs>(&mut w[r], Mask::All)?;
            }
            let change = total(&w, false)?;
            delta = Some(change);
            if change <= t {
                break;
            }
        }
    }
    Ok(ResidentPageRank {
        ranks: g.whole(&pr)?.swap_remove(0),
        iterations,
        delta,
    })
}

/// Weakly connected components over a distributed graph by `FastSV`, as
/// [`wcc`](crate::wcc) (the same labels: the smallest vertex of each component).
///
/// Each round, every rank computes its vertices' smallest neighbouring grandparent through
/// its pull block (and its out-block on a directed graph); an all-gather completes it, and the
/// hooking, shortcutting and gathers run on every rank's replica alike.
///
/// # Arguments
/// - `g`: the graph (any semiring), built with out-blocks if directed.
///
/// # Returns
/// The labels and the rounds, as [`Components`].
///
/// # Errors
/// `InvalidArgument` for a directed graph without out-blocks; backend and communication
/// errors.
///
/// # Complexity
/// Per round and rank `O(m / k + n)` and an all-gather of `n` labels, over `O(log n)` rounds;
/// one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(5, &[(0, 1, true), (2, 1, true), (3, 4, true)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let c = dist::wcc(&DistGraph::new(&comm, &a, DistOptions::default())?)?;
/// assert_eq!(c.labels, vec![0, 0, 0, 3, 3]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn wcc<C: Communicator, S: Semiring>(g: &DistGraph<'_, C, S>) -> Result<Components> {
    let r = wcc_resident(g)?;
    Ok(Components {
        labels: g.comm().backend(0).read_dense_owned(r.labels)?,
        rounds: r.rounds,
    })
}

/// [`wcc`] with the labels left on rank 0's backend.
///
/// Arguments, errors and complexity as [`wcc`].
///
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::prelude::*;
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(3, &[(2, 1, true)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let r = dist::wcc_resident(&DistGraph::new(&comm, &a, DistOptions::default())?)?;
/// assert_eq!(cpu.read_dense(&r.labels)?, vec![0, 1, 1]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn wcc_resident<C: Communicator, S: Semiring>(
    g: &DistGraph<'_, C, S>,
) -> Result<ResidentComponents<C::Backend>> {
    let (n, comm, part) = (g.n(), g.comm(), g.partition());
    if n == 0 {
        return Ok(ResidentComponents {
            labels: comm.backend(0).dense_filled::<Label>(0, 1, u32::MAX)?,
            rounds: 0,
        });
    }
    let pull = g.each(|r, b| b.pattern::<S, Label>(g.pull(r)))?;
    let out = g.each(|r, b| match g.out(r, "distributed WCC")? {
        Some(o) => Ok(Some(b.pattern::<S, Label>(o)?)),
        None => Ok(None),
    })?;
    let ids: Vec<u32> = (0..n as u32).collect();
    let mut f = g.each(|_, b| b.dense::<Label>(n, 1, &ids))?;
    let mut gp = g.each(|_, b| b.dense::<Label>(n, 1, &ids))?;
    let mut mine = g.each(|r, b| b.dense_filled::<Label>(part.range(r).len(), 1, u32::MAX))?;
    let mut mngp: Vec<DenseOf<C, Label>> =
        g.each(|_, b| b.dense_filled::<Label>(n, 1, u32::MAX))?;
    let mut parents = g.each(|_, b| b.dense_filled::<Label>(n, 1, u32::MAX))?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        rounds += 1;
        // Each rank's vertices' smallest neighbouring grandparent, then whole on every rank.
        for r in 0..part.ranks() {
            let b = comm.backend(r);
            b.mxm(&mut mine[r], Mask::All, Accum::Replace, &pull[r], &gp[r])?;
            if let Some(o) = &out[r] {
                b.mxm(&mut mine[r], Mask::All, Accum::Add, o, &gp[r])?;
            }
        }
        comm.all_gather_from::<Label>(&mine, &mut mngp, part)?;
        let mut changed = 0;
        for r in 0..part.ranks() {
            let b = comm.backend(r);
            // f(f(v)) min= mngp(v), f = min(f, mngp, gp), gp = f(f): as on one device.
            b.apply(&mut parents[r], Mask::All, UnaryOp::Fill(u32::MAX))?;
            b.ewise(&mut parents[r], Mask::All, Ewise::Add, &f[r])?;
            b.scatter_op::<Label, Min, Label>(&mut f[r], &parents[r], &mngp[r])?;
            b.ewise(&mut f[r], Mask::All, Ewise::Add, &mngp[r])?;
            b.ewise(&mut f[r], Mask::All, Ewise::Add, &gp[r])?;
            let next = b.gather(&f[r], &f[r])?;
            if r == 0 {
                changed = b.improve_dense(&mut gp[r], &next)?;
            } else {
                b.ewise(&mut gp[r], Mask::All, Ewise::Add, &next)?;
            }
        }
        if changed == 0 {
            break;
        }
    }
    // Pointer jumping to the roots, on rank 0 alone (its replica is everyone's).
    let b0 = comm.backend(0);
    loop {
        crate::cancel::check()?;
        let next = b0.gather(&f[0], &f[0])?;
        if b0.improve_dense(&mut f[0], &next)? == 0 {
            break;
        }
    }
    Ok(ResidentComponents {
        labels: f.swap_remove(0),
        rounds,
    })
}
