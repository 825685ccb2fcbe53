//! All-pairs shortest paths over the ranks of a [`Communicator`]: min-plus squaring with the
//! rows of the distance matrix split over the ranks.

use semigraph_formats::Csr;
use semigraph_semiring::{MinPlus, Semiring};

use super::comm::par_ranks;
use super::{Communicator, DenseOf, DistGraph, Grid, Summa};
use crate::apsp::{Apsp, ApspMethod, apsp_host_bytes, next_hops_from_distances};
use crate::backend::{Accum, BackendKind, ElementWise, Mask, Objects, Products};
use crate::error::{Error, Result};
use crate::squaring::{
    dense_block_with_diagonal, dense_with_diagonal, max_squarings, square_filled, square_from,
};
use crate::sssp::Distance;
use crate::{CpuBackend, Graph, GraphOptions};

/// All-pairs shortest paths by repeated min-plus squaring, the rows of `D` split over the
/// ranks (1-D, as the graph's partition): each squaring, rank `r` computes its rows
/// `D(R, :) (+).(x) D` with its backend's semiring GEMM against its full replica of `D`, keeps
/// the improvements, and an all-gather of the row blocks gives every rank the new `D`. Stops
/// when no rank improves anything (at most `ceil(log2(n - 1)) + 1` squarings). Distances
/// equal those of [`apsp`](fn@crate::apsp) by squaring.
///
/// Negative cycles are looked for first (only when a weight is negative), by the relaxation
/// of every vertex on the host's CPU backend, and named.
///
/// # Arguments
/// - `g`: the graph in min-plus over the distance type (no blocks needed besides pull);
///   `next_hop`: also compute next hops, on the host from the distances, as
///   [`apsp`](fn@crate::apsp) does with [`ApspMethod::Sources`] (where shortest paths tie,
///   they may differ from the next hops its squaring method packs with the distances; both
///   lie on shortest paths).
///
/// # Returns
/// As [`Apsp`], with [`ApspMethod::Squaring`].
///
/// # Errors
/// `InvalidArgument` for a graph built from an edge list ([`DistGraph::from_edges`]: APSP
/// reads the host matrix); `OutOfMemory` (refused before any work) when the `n x n` results do not fit the host;
/// `NegativeCycle`; backend errors (each rank holds `D` whole: `n^2` values, and two blocks of
/// its rows).
///
/// # Complexity
/// `O(n^3 / k)` semiring operations per squaring and rank, an all-gather of `n^2` values.
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1), (2, 0, 2)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions { push: false, out: false, packed: false })?;
/// let r = dist::apsp(&g, false)?;
/// assert_eq!(r.dist, vec![0, 4, 5, 3, 0, 1, 2, 6, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn apsp<C: Communicator, D: Distance>(
    g: &DistGraph<'_, C, MinPlus<D>>,
    next_hop: bool,
) -> Result<Apsp<D>> {
    type M<D> = MinPlus<D>;
    let (comm, part) = (g.comm(), g.partition());
    let a = g.csr().ok_or_else(|| {
        Error::InvalidArgument(
            "distributed APSP needs the graph's host matrix (a graph built by DistGraph::new)"
                .into(),
        )
    })?;
    let n = g.n();
    let method = ApspMethod::Squaring;
    checks(a, next_hop)?;
    let d0 = dense_with_diagonal(a)?;
    // Each rank uploads its rows only (all ranks at once, one host thread each); the replicas
    // of D are made whole by an all-gather between the devices, not by k uploads of n^2
    // values from the host.
    let blocks = g.par_each(vec![(); part.ranks()], |r, b, ()| {
        let seg = part.range(r);
        Ok((
            b.dense_filled::<M<D>>(n, n, M::<D>::zero())?,
            b.dense::<M<D>>(seg.len(), n, &d0[seg.start * n..seg.end * n])?,
            b.dense_filled::<M<D>>(seg.len(), n, M::<D>::zero())?,
        ))
    })?;
    let mut d = Vec::with_capacity(part.ranks());
    let mut rows: Vec<DenseOf<C, M<D>>> = Vec::with_capacity(part.ranks());
    let mut c = Vec::with_capacity(part.ranks());
    for (dr, rr, cr) in blocks {
        d.push(dr);
        rows.push(rr);
        c.push(cr);
    }
    comm.all_gather_from::<M<D>>(&rows, &mut d, part)?;
    let mut rounds = 0;
    for _ in 0..max_squarings(n) {
        crate::cancel::check()?;
        rounds += 1;
        for r in 0..part.ranks() {
            let b = comm.backend(r);
            b.gemm(&mut c[r], Mask::All, Accum::Replace, &rows[r], &d[r])?;
        }
        let mut changed = 0;
        for r in 0..part.ranks() {
            changed += comm.backend(r).improve_dense(&mut rows[r], &c[r])?;
        }
        if changed == 0 {
            break;
        }
        comm.all_gather_from::<M<D>>(&rows, &mut d, part)?;
    }
    drop((d, c));
    // Every rank reads its own rows into their place in the result, all at once (the rows
    // hold the last D whether the loop converged or ran out of squarings).
    let mut dist = d0;
    let mut pieces = Vec::with_capacity(part.ranks());
    let mut rest: &mut [D] = &mut dist;
    for (r, x) in rows.iter().enumerate() {
        let (piece, tail) = rest.split_at_mut(part.range(r).len() * n);
        pieces.push((piece, x));
        rest = tail;
    }
    g.par_each(pieces, |_, b, (piece, x)| b.read_dense_into(x, piece))?;
    let next = next_hop.then(|| next_hops_from_distances(a, &dist));
    Ok(Apsp {
        n,
        dist,
        next,
        rounds,
        method,
    })
}

/// What both layouts check first: the host's memory for the results, and negative cycles
/// (looked for only when a weight is negative, and named).
fn checks<D: Distance>(a: &Csr<MinPlus<D>>, next_hop: bool) -> Result<()> {
    let n = a.nrows();
    let method = ApspMethod::Squaring;
    let needed = apsp_host_bytes(BackendKind::Gpu, n, size_of::<D>(), next_hop, method);
    if let Err((needed, available)) = semigraph_formats::memory::check(needed) {
        return Err(Error::OutOfMemory {
            what: format!("all-pairs shortest paths of {n} vertices ({n}x{n} results)"),
            needed,
            available: Some(available),
        });
    }
    if a.vals().iter().any(|&w| w < MinPlus::<D>::one()) {
        let cpu = CpuBackend::new();
        if let Some(cycle) = crate::negative_cycle(&Graph::new(&cpu, a, GraphOptions::default())?)?
        {
            return Err(Error::NegativeCycle { cycle });
        }
    }
    Ok(())
}

/// All-pairs shortest paths by repeated min-plus squaring with `D` held in blocks over a
/// square grid of the ranks ([`Grid`]) and squared by [`Summa`]: no rank holds more than four
/// blocks of `n^2 / k` values, so `D` may be larger than one device, where [`apsp`]'s row
/// split keeps `D` whole on every rank. Stops when no rank improves anything (at most
/// `ceil(log2(n - 1)) + 1` squarings). Distances equal those of [`apsp`](fn@crate::apsp) by
/// squaring; negative cycles are looked for first on the host, as [`apsp`] does.
///
/// # Arguments
/// - `comm`: the ranks, a square number of them (1, 4, 9, ...);
/// - `a`: the graph on the host (`n x n`, min-plus over the distance type);
/// - `next_hop`: also compute next hops, on the host from the distances (as [`apsp`]).
///
/// # Returns
/// As [`Apsp`], with [`ApspMethod::Squaring`].
///
/// # Errors
/// `InvalidArgument` when the ranks are not a square number or `a` is not square;
/// `OutOfMemory` (refused before any work) when the `n x n` results do not fit the host;
/// `NegativeCycle`; the backends' and the communicator's.
///
/// # Complexity
/// `O(n^3 / k)` semiring operations per squaring and rank; per squaring each rank receives
/// `2 (q - 1)` blocks of `n^2 / k` values (`q = sqrt(k)`), against the `n^2 (k - 1) / k` of
/// the row split.
///
/// # Example
/// ```
/// use semigraph_algos::dist::{self, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1), (2, 0, 2)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu; 4]); // a 2 x 2 grid
/// let r = dist::apsp_grid(&comm, &a, false)?;
/// assert_eq!(r.dist, vec![0, 4, 5, 3, 0, 1, 2, 6, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn apsp_grid<C: Communicator, D: Distance>(
    comm: &C,
    a: &Csr<MinPlus<D>>,
    next_hop: bool,
) -> Result<Apsp<D>> {
    type M<D> = MinPlus<D>;
    let n = a.nrows();
    if a.ncols() != n {
        return Err(Error::InvalidArgument(format!(
            "APSP needs a square matrix, not {n}x{}",
            a.ncols()
        )));
    }
    let grid = Grid::square(comm.ranks(), n)?;
    checks(a, next_hop)?;
    if n == 0 {
        let next = next_hop.then(Vec::new);
        let (dist, rounds, method) = (Vec::new(), 0, ApspMethod::Squaring);
        return Ok(Apsp {
            n,
            dist,
            next,
            rounds,
            method,
        });
    }
    let nb = grid.block();
    let inf = M::<D>::zero();
    // Each rank's block of D made from A (no dense n x n array on the host), padded with no
    // paths, and uploaded, all ranks at once.
    let blocks = par_ranks(comm, vec![(); comm.ranks()], |r, b, ()| {
        let (i, j) = grid.coords(r);
        let block = dense_block_with_diagonal(a, grid.rows(i), grid.rows(j), nb)?;
        Ok((
            b.dense::<M<D>>(nb, nb, &block)?,
            b.dense_filled::<M<D>>(nb, nb, inf)?,
        ))
    })?;
    let (mut d, mut c): (Vec<DenseOf<C, M<D>>>, Vec<_>) = blocks.into_iter().unzip();
    let mut summa = Summa::<C, M<D>>::new(comm, grid)?;
    let mut rounds = 0;
    for _ in 0..max_squarings(n) {
        crate::cancel::check()?;
        rounds += 1;
        summa.gemm(&mut c, Accum::Replace, &d, &d)?;
        let mut changed = 0;
        for (r, (d, c)) in d.iter_mut().zip(&c).enumerate() {
            changed += comm.backend(r).improve_dense(d, c)?;
        }
        if changed == 0 {
            break;
        }
    }
    drop((c, summa));
    // Every rank reads its block back, all at once, into host memory first touched in
    // parallel (a copy into fresh pages is the slower); then the result is made from the
    // blocks in one parallel pass. One rank's block is the result itself.
    let dist = if grid.q() == 1 {
        let mut dist = square_filled(n, inf)?;
        comm.backend(0).read_dense_into(&d[0], &mut dist)?;
        dist
    } else {
        let got = par_ranks(comm, d, |_, b, x| {
            let mut block = square_filled(nb, inf)?;
            b.read_dense_into(&x, &mut block)?;
            Ok(block)
        })?;
        square_from(n, |x| {
            let (v, c) = (x / n, x % n);
            got[grid.rank(v / nb, c / nb)][(v % nb) * nb + c % nb]
        })?
    };
    let next = next_hop.then(|| next_hops_from_distances(a, &dist));
    Ok(Apsp {
        n,
        dist,
        next,
        rounds,
        method: ApspMethod::Squaring,
    })
}
