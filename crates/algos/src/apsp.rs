//! All-pairs shortest paths by repeated min-plus squaring or by relaxing blocks of sources at
//! once (the cheaper, estimated from the graph), and the transitive closure by repeated or-and
//! squaring.

use rayon::prelude::*;
use semigraph_formats::Csr;
use semigraph_semiring::{MinPlus, NO_PRED, Number, OrAnd, Semiring};

use crate::backend::{Accum, BackendKind, Frontier};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::relax::negative_cycle;
use crate::squaring::{dense_with_diagonal, max_squarings, square_until_fixed};
use crate::sssp::{Distance, bellman_ford};

/// How [`apsp`](fn@apsp) computes the distances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ApspMethod {
    /// The one estimated faster on the backend ([`apsp_choice`]).
    #[default]
    Auto,
    /// Repeated min-plus squaring of the dense `n x n` matrix (semiring GEMM).
    Squaring,
    /// Bellman-Ford from blocks of sources at once: `D <- improve(D, A^T (+).(x) D)` on an
    /// `n x k` block (SpMM) until nothing changes.
    Sources,
}

impl semigraph_formats::Named for ApspMethod {
    const VALUES: &'static [ApspMethod] =
        &[ApspMethod::Auto, ApspMethod::Squaring, ApspMethod::Sources];
    fn name(self) -> &'static str {
        ApspMethod::name(self)
    }
}

impl ApspMethod {
    /// `auto`, `squaring` or `sources`.
    pub fn name(self) -> &'static str {
        match self {
            ApspMethod::Auto => "auto",
            ApspMethod::Squaring => "squaring",
            ApspMethod::Sources => "sources",
        }
    }
}

/// Options of [`apsp`](fn@apsp).
#[derive(Clone, Copy, Debug, Default)]
pub struct ApspOptions {
    /// Also compute the next-hop matrix (costs a second word per entry on the backend).
    pub next_hop: bool,
    /// The method (default: [`ApspMethod::Auto`]).
    pub method: ApspMethod,
}

/// All-pairs shortest paths.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Apsp<D> {
    /// Number of vertices.
    pub n: usize,
    /// `dist[i * n + j]`: length of a shortest path `i -> j`; `D::INFINITY` if none.
    pub dist: Vec<D>,
    /// `next[i * n + j]`: the vertex after `i` on a shortest path `i -> j` (`i` itself for
    /// `i == j`, [`NO_PRED`] if `j` is unreachable); `None` unless asked for.
    pub next: Option<Vec<u32>>,
    /// Squarings run (the last one changed nothing), or with [`ApspMethod::Sources`] the most
    /// relaxation rounds of a block of sources.
    pub rounds: usize,
    /// The method that ran ([`ApspMethod::Squaring`] or [`ApspMethod::Sources`]).
    pub method: ApspMethod,
}

impl<D: Distance> Apsp<D> {
    /// The distance `i -> j`, `None` if unreachable.
    pub fn distance(&self, i: usize, j: usize) -> Option<D> {
        let d = self.dist[i * self.n + j];
        (d != D::INFINITY).then_some(d)
    }

    /// The vertices of a shortest path `i -> ... -> j` from the next-hop matrix; `None` if
    /// `j` is unreachable or no next-hop matrix was computed.
    /// `EdgeList::labels_of` writes them in the input file's numbering.
    pub fn path(&self, i: usize, j: usize) -> Option<Vec<u32>> {
        let next = self.next.as_ref()?;
        self.distance(i, j)?;
        let mut path = vec![i as u32];
        let mut x = i;
        while x != j && path.len() <= self.n {
            x = next[x * self.n + j] as usize;
            path.push(x as u32);
        }
        (x == j).then_some(path)
    }
}

fn check_square<S: Semiring>(a: &Csr<S>) -> Result<usize> {
    crate::error::check_square(a.nrows(), a.ncols())
}

/// Estimated work of the two methods of [`apsp`](fn@apsp) on `a`, in semiring operations:
/// `(squaring, sources)`.
///
/// Squaring: `n^3` per squaring, `ceil(log2(r)) + 1` squarings where `r` estimates the arcs
/// on a shortest path. Sources: `m n` per relaxation round, `r + 1` rounds. `r` is twice the
/// depth of a breadth-first search from the vertex with the most out-arcs (weighted shortest
/// paths take more arcs than the fewest), at least 2; `O(m)` host work.
pub fn apsp_costs<S: Semiring>(a: &Csr<S>) -> (f64, f64) {
    let n = a.nrows();
    if n == 0 {
        return (0.0, 0.0);
    }
    let start = (0..n).max_by_key(|&i| a.row_len(i)).unwrap_or(0);
    let mut level = vec![u32::MAX; n];
    level[start] = 0;
    let (mut frontier, mut depth) = (vec![start], 0u32);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &u in &frontier {
            for &v in &a.col_idx()[a.row_ptr()[u] as usize..a.row_ptr()[u + 1] as usize] {
                if level[v as usize] == u32::MAX {
                    level[v as usize] = depth + 1;
                    next.push(v as usize);
                }
            }
        }
        if !next.is_empty() {
            depth += 1;
        }
        frontier = next;
    }
    let r = (2.0 * depth as f64).max(2.0);
    let nf = n as f64;
    let squaring = nf.powi(3) * (r.log2().ceil() + 1.0);
    let sources = a.nnz().max(1) as f64 * nf * (r + 1.0);
    (squaring, sources)
}

/// How many of [`apsp_costs`]'s squaring operations cost as much time as one of its sources
/// operations, per backend kind: the dense GEMM runs far closer to the hardware's rate than
/// the sparse relaxations. Measured on a random digraph with 8 arcs per vertex, n = 10,000
/// (estimates: squaring 5.0e12, sources 1.04e10 operations): on the H100 squaring took 473 ms
/// (packed 16-bit GEMM) and sources 130 ms (SpMM a thread per output, blocks of 10,000
/// sources), so a sources operation costs 132 squaring ones, taken as 130
/// (the benchmark log in git history); on the CPU backend (2 cores, n = 4,096: squaring 83.3 s for 3.4e11,
/// sources 3.61 s for 1.7e9) 9.
pub fn apsp_squaring_discount(kind: BackendKind) -> f64 {
    match kind {
        BackendKind::Gpu => 130.0,
        BackendKind::Cpu => 9.0,
    }
}

/// The method [`ApspMethod::Auto`] runs on a backend of `kind`, from [`apsp_costs`]: the one
/// estimated faster once squaring's operations are discounted by
/// [`apsp_squaring_discount`].
pub fn apsp_choice(kind: BackendKind, (squaring, sources): (f64, f64)) -> ApspMethod {
    if sources < squaring / apsp_squaring_discount(kind) {
        ApspMethod::Sources
    } else {
        ApspMethod::Squaring
    }
}

/// Host bytes [`apsp`](fn@apsp) holds at its peak for `n` vertices with `value_bytes`-byte
/// distances on a backend of `kind` (an upper bound, checked against the machine before the
/// work starts): the `n x n` result, next hops (two `n x n` arrays of `u32` while they are
/// built), and for squaring the dense start and its copies on the host (four `n x n` arrays
/// of 8-byte packed entries at most on the CPU backend, two on a GPU's host), for sources the
/// blocks (within 1.5 GiB, on the CPU backend).
pub fn apsp_host_bytes(
    kind: BackendKind,
    n: usize,
    value_bytes: usize,
    next_hop: bool,
    method: ApspMethod,
) -> u64 {
    let nn = (n as u64).saturating_mul(n as u64);
    let result = nn.saturating_mul(value_bytes as u64);
    let next = if next_hop { nn.saturating_mul(8) } else { 0 };
    let entry = if next_hop { 8 } else { value_bytes as u64 };
    let work = match (method, kind) {
        (ApspMethod::Sources, BackendKind::Cpu) => {
            (3u64 << 29).min(nn.saturating_mul(3 * value_bytes as u64))
        }
        (ApspMethod::Sources, BackendKind::Gpu) => 0,
        (_, BackendKind::Cpu) => nn.saturating_mul(4 * entry),
        (_, BackendKind::Gpu) => nn.saturating_mul(2 * entry),
    };
    result.saturating_add(next).saturating_add(work)
}

/// Sources per block of [`ApspMethod::Sources`]: the block, its product and its transpose
/// (three `n x k` arrays) within about 1.5 GiB, flat positions below 2^32, at least 1.
fn source_block(n: usize, value_bytes: usize) -> usize {
    let per_source = (3 * n * value_bytes).max(1);
    let by_memory = (3usize << 29) / per_source;
    let by_index = u32::MAX as usize / n.max(1);
    by_memory.min(by_index).clamp(1, n.max(1))
}

/// [`ApspMethod::Sources`]: for each block of `k` sources, `D` (`n x k`, `D[s_j, j] = one`)
/// relaxed by `D <- improve(D, A^T (+).(x) D)` until a round changes nothing; the block's
/// transpose (`k x n`, a row per source) is then the block's rows of the result, read
/// straight into it. Returns the row-major `n x n` distances and the most rounds of a block; a
/// block still changing after `n` rounds has a negative cycle, named by [`bellman_ford`] from
/// its sources.
fn by_sources<B: Frontier, D: Distance>(g: &Graph<'_, B, MinPlus<D>>) -> Result<(Vec<D>, usize)> {
    type S<D> = MinPlus<D>;
    let (b, a) = (g.backend(), g.csr());
    let n = a.nrows();
    // A^T: the graph's pull matrix if it has one, else uploaded here in CSR (the SpMM streams
    // rows of the block along each stored entry).
    let uploaded;
    let at = match g.pull() {
        Some(at) => at,
        None => {
            uploaded = b.matrix(
                &a.try_transpose()?,
                semigraph_formats::Format::Csr,
                &Default::default(),
            )?;
            &uploaded
        }
    };
    let len = n.checked_mul(n).ok_or_else(|| Error::OutOfMemory {
        what: format!("{n}x{n} distance matrix"),
        needed: u64::MAX,
        available: None,
    })?;
    let k = source_block(n, size_of::<D>());
    let mut dist: Vec<D> = Vec::new();
    let mut most = 0;
    for s0 in (0..n).step_by(k) {
        let kb = k.min(n - s0);
        // Each source starts at distance `one` (0) from itself: D[s0 + j, j].
        let mut d = b.dense_filled::<S<D>>(n, kb, S::<D>::zero())?;
        let diagonal: Vec<u32> = (0..kb).map(|j| ((s0 + j) * kb + j) as u32).collect();
        let ones = vec![S::<D>::one(); kb];
        b.assign_at(
            &mut d,
            &b.sparse::<S<D>>(n * kb, &diagonal, &ones)?,
            S::<D>::one(),
        )?;
        let mut t = b.dense_filled::<S<D>>(n, kb, S::<D>::zero())?;
        let mut rounds = 0;
        loop {
            crate::cancel::check()?;
            if rounds == n {
                for s in s0..s0 + kb {
                    bellman_ford(g, s)?;
                }
                // Cannot happen: a block that still changes after n rounds reaches a
                // negative cycle from one of its sources.
                return Err(Error::NegativeCycle {
                    cycle: vec![s0 as u32],
                });
            }
            rounds += 1;
            b.mxm(&mut t, crate::backend::Mask::All, Accum::Replace, at, &d)?;
            if b.improve_dense(&mut d, &t)? == 0 {
                break;
            }
        }
        drop(t);
        most = most.max(rounds);
        let rows = b.read_dense(&b.transpose(&d)?)?;
        if kb == n {
            dist = rows;
        } else {
            if dist.is_empty() {
                dist.try_reserve_exact(len)
                    .map_err(|_| Error::OutOfMemory {
                        what: format!("{n}x{n} distance matrix"),
                        needed: (len as u64).saturating_mul(size_of::<D>() as u64),
                        available: None,
                    })?;
            }
            dist.extend_from_slice(&rows);
        }
    }
    // A negative cycle on a source's own path shows on the diagonal first.
    Ok((dist, most))
}

/// All-pairs shortest paths, by repeated min-plus squaring of the dense distance matrix or by
/// relaxing blocks of sources at once, whichever [`apsp_choice`] estimates faster
/// ([`ApspOptions::method`] forces one; [`Apsp::method`] says which ran).
///
/// **Squaring**: `D_0 = A` with 0 on the diagonal; `D_{r+1} = improve(D_r, D_r (+).(x) D_r)` (semiring GEMM);
/// it stops as soon as a squaring changes nothing, after at most `ceil(log2(n - 1)) + 1`
/// squarings.
///
/// With `next_hop`: for `i32` and `f32` distances, entries carry the intermediate vertex of
/// the squaring that last improved them ([`MinPlusPred`](semigraph_semiring::MinPlusPred), a distance and a vertex packed in
/// 64 bits); since an entry only changes on a strict improvement, following intermediates
/// always reaches an older entry, and the next-hop matrix is built from them on the host.
/// For `i64` and `f64` distances (which do not pack), the next hops are built on the host
/// from the distances: for each destination, a breadth-first search backwards over the arcs
/// `i -> k` that attain `min_k w(i, k) + d(k, j)`, so that following next hops never cycles
/// (`O(n m)` host work).
///
/// **Sources**: for blocks of `k` sources (three `n x k` arrays within about 1.5 GiB),
/// `D <- improve(D, A^T (+).(x) D)` (SpMM) from `D[s, s] = 0` until a round changes nothing:
/// Bellman-Ford for `k` sources at once, `O(m k)` per round. Next hops as for unpacked types.
///
/// # Arguments
/// - `g`: the graph (weights may be negative; parallel arcs keep the lightest); its backend
///   runs the GEMMs or sparse products (`SpMM`, with the graph's pull matrix `A^T` when it was
///   built with one, else `A^T` uploaded in CSR for the call), its host CSR gives the dense
///   start and the next hops.
/// - `opts`: the method, and whether to build the next-hop matrix.
///
/// # Returns
/// [`Apsp`]: the `n x n` distances (and next hops), row-major.
///
/// # Errors
/// [`Error::NegativeCycle`] if a diagonal entry becomes negative: the cycle is named by running
/// [`bellman_ford`] from that vertex. `OutOfMemory` when `n x n` entries do not fit; backend
/// errors.
///
/// # Complexity
/// Squaring: `O(n^3 log n)` work, `O(n^2)` memory (8 bytes per entry with packed next hops,
/// else `size_of::<D>()`); `O(log n)` GEMMs. Sources: `O(n m r)` work for `r` rounds (at most
/// `n`; about the arcs on a shortest path), `O(n^2)` host memory. `O(n m)` host work for
/// unpacked next hops.
///
/// # Example
/// ```
/// use semigraph_algos::{apsp, arcs_to_csr, ApspMethod, ApspOptions, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 2), (1, 2, 3), (0, 2, 9)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let r = apsp(&g, &ApspOptions { next_hop: true, ..Default::default() })?;
/// assert_eq!(r.distance(0, 2), Some(5));
/// assert_eq!(r.distance(2, 0), None);
/// assert_eq!(r.path(0, 2), Some(vec![0, 1, 2]));
/// // The other method gives the same answer.
/// let opts = ApspOptions { next_hop: true, method: ApspMethod::Sources };
/// assert_eq!(apsp(&g, &opts)?.dist, r.dist);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn apsp<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    opts: &ApspOptions,
) -> Result<Apsp<D>> {
    let (b, a) = (g.backend(), g.csr());
    let n = check_square(a)?;
    let method = match opts.method {
        ApspMethod::Auto => apsp_choice(b.kind(), apsp_costs(a)),
        m => m,
    };
    // Refused before any work: the n x n results (and what the method holds beside them)
    // must fit the host.
    let needed = apsp_host_bytes(b.kind(), n, size_of::<D>(), opts.next_hop, method);
    if let Err((needed, available)) = semigraph_formats::memory::check(needed) {
        return Err(Error::OutOfMemory {
            what: format!("all-pairs shortest paths of {n} vertices ({n}x{n} results)"),
            needed,
            available: Some(available),
        });
    }
    // A negative cycle is found once, in time proportional to what changes (not after `n`
    // rounds of every block of sources, nor `log n` squarings of `n^3`).
    if let Some(cycle) = negative_cycle(g)? {
        return Err(Error::NegativeCycle { cycle });
    }
    if method == ApspMethod::Sources {
        let (dist, rounds) = by_sources(g)?;
        check_diagonal(g, &dist)?;
        let next = opts.next_hop.then(|| next_hops_from_distances(a, &dist));
        return Ok(Apsp {
            n,
            dist,
            next,
            rounds,
            method,
        });
    }
    let limit = max_squarings(n);
    let packed = if opts.next_hop {
        D::packed_apsp(b, a, limit).transpose()?
    } else {
        None
    };
    let (dist, next, rounds) = match packed {
        Some((dist, next, rounds)) => {
            check_diagonal(g, &dist)?;
            (dist, Some(next), rounds)
        }
        None => {
            let d0 = dense_with_diagonal(a)?;
            let (dist, rounds, _) = square_until_fixed::<B, MinPlus<D>>(b, n, &d0, limit)?;
            check_diagonal(g, &dist)?;
            let next = opts.next_hop.then(|| next_hops_from_distances(a, &dist));
            (dist, next, rounds)
        }
    };
    Ok(Apsp {
        n,
        dist,
        next,
        rounds,
        method,
    })
}

/// Next hops from a converged distance matrix: for each destination `j`, a breadth-first
/// search from `j` backwards over the arcs `i -> k` whose `w(i, k) + d(k, j)` is the least
/// over `i`'s arcs (bit for bit, in the distance arithmetic), so each `i` points one step
/// closer to `j` in a tree rooted at `j`.
pub(crate) fn next_hops_from_distances<D: Distance>(a: &Csr<MinPlus<D>>, dist: &[D]) -> Vec<u32> {
    let n = a.nrows();
    let at = a.transpose();
    let inf = D::INFINITY;
    // Column j of the result, for each j: next_t[j * n + i].
    let mut next_t = vec![NO_PRED; n * n];
    next_t
        .par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(j, col)| {
            let dj: Vec<D> = (0..n).map(|k| dist[k * n + j]).collect();
            let term = |w: D, k: usize| MinPlus::<D>::mul(w, dj[k]);
            let best: Vec<D> = (0..n)
                .map(|i| {
                    let (cols, vals) = a.row(i);
                    cols.iter()
                        .zip(vals)
                        .fold(inf, |m, (&k, &w)| MinPlus::<D>::add(m, term(w, k as usize)))
                })
                .collect();
            col[j] = j as u32;
            let mut queue = std::collections::VecDeque::from([j]);
            while let Some(k) = queue.pop_front() {
                let (srcs, vals) = at.row(k);
                for (&i, &w) in srcs.iter().zip(vals) {
                    let i = i as usize;
                    if col[i] == NO_PRED
                        && dj[i] != inf
                        && term(w, k).to_bits64() == best[i].to_bits64()
                    {
                        col[i] = k as u32;
                        queue.push_back(i);
                    }
                }
            }
        });
    let mut next = vec![NO_PRED; n * n];
    next.par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(i, row)| {
            for (j, e) in row.iter_mut().enumerate() {
                *e = next_t[j * n + i];
            }
        });
    next
}

/// A negative diagonal entry of `dist` is a negative cycle: named by Bellman-Ford on `g`.
fn check_diagonal<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    dist: &[D],
) -> Result<()> {
    let n = g.n();
    let Some(v) = (0..n).find(|&i| dist[i * n + i] < <D as Number>::ZERO) else {
        return Ok(());
    };
    match bellman_ford(g, v) {
        Err(e @ Error::NegativeCycle { .. }) => Err(e),
        Err(e) => Err(e),
        // Cannot happen: a negative diagonal entry is a negative closed walk through `v`.
        Ok(_) => Err(Error::NegativeCycle {
            cycle: vec![v as u32],
        }),
    }
}

/// The transitive closure by repeated or-and squaring: `reach[i * n + j]` is `true` if `j` is
/// reachable from `i` (every vertex reaches itself).
///
/// The same squaring loop as [`apsp`](fn@apsp) in the [`OrAnd`] semiring: a one-line change of
/// semiring.
///
/// # Arguments
/// - `g`: the graph (its pattern: an or-and matrix); its backend runs the GEMMs.
///
/// # Returns
/// The `n x n` reachability matrix, row-major.
///
/// # Errors
/// `InvalidArgument` for a non-square matrix; `OutOfMemory`; backend errors.
///
/// # Complexity
/// `O(n^3 log n)` work, `O(log n)` GEMMs.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, transitive_closure, CpuBackend, Graph, GraphOptions};
///
/// let a = arcs_to_csr(3, &[(0, 1, true), (1, 2, true)])?;
/// let cpu = CpuBackend::new();
/// let r = transitive_closure(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(r, vec![true, true, true, false, true, true, false, false, true]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn transitive_closure<B: Frontier>(g: &Graph<'_, B, OrAnd>) -> Result<Vec<bool>> {
    let (b, a) = (g.backend(), g.csr());
    let n = check_square(a)?;
    let d0 = dense_with_diagonal(a)?;
    Ok(square_until_fixed::<B, OrAnd>(b, n, &d0, max_squarings(n))?.0)
}
