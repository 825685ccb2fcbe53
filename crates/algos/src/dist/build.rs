//! How a [`DistGraph`]'s blocks are made: from a host CSR ([`DistGraph::new`]) or straight
//! from an edge list ([`DistGraph::from_edges`]: no CSR of the whole graph, so the graph may
//! hold more arcs than 32-bit row offsets count, as long as each rank's blocks do not).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use semigraph_formats::{ConvertOptions, Csr, EdgeList, Format, FormatError, Weights};
use semigraph_semiring::Semiring;

use super::graph::Packed;
use super::{Communicator, DistGraph, DistOptions, MatrixOf, Partition};
use crate::backend::Objects;
use crate::error::{Error, Result};

impl<'a, C: Communicator, S: Semiring> DistGraph<'a, C, S> {
    /// Splits `a` over the communicator's ranks (balanced by in-arcs) and uploads each rank's
    /// blocks to its backend; the graph borrows `a`.
    ///
    /// # Errors
    /// `InvalidArgument` if `a` is not square; the backends' memory and format errors.
    ///
    /// ```
    /// use semigraph_algos::dist::{DistGraph, DistOptions, LocalComm};
    /// use semigraph_algos::{arcs_to_csr, CpuBackend};
    /// use semigraph_semiring::OrAnd;
    ///
    /// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 3, true)])?;
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu, &cpu]);
    /// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
    /// assert_eq!(g.partition().ranks(), 2);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn new(comm: &'a C, a: &'a Csr<S>, opts: DistOptions) -> Result<Self> {
        if a.nrows() != a.ncols() {
            return Err(Error::InvalidArgument(format!(
                "an adjacency matrix must be square, this one is {}x{}",
                a.nrows(),
                a.ncols()
            )));
        }
        let at = a.transpose();
        let undirected = at.row_ptr() == a.row_ptr() && at.col_idx() == a.col_idx();
        let part = Partition::by_weight(at.row_ptr(), comm.ranks())?;
        let rp = a.row_ptr();
        let columns = opts
            .packed
            .then(|| PackedColumns::of(&part, |v| rp[v + 1] > rp[v]))
            .flatten();
        let mut blocks = Blocks::new(comm, opts, columns);
        for r in 0..part.ranks() {
            let out = (opts.out && !undirected)
                .then(|| rows_of(a, part.range(r)))
                .transpose()?;
            blocks.add(r, &part, &rows_of(&at, part.range(r))?, out.as_ref())?;
        }
        Ok(blocks.finish(Some(a), a.nrows(), a.nnz(), part, undirected))
    }
}

impl<'a, C: Communicator, S: Semiring> DistGraph<'a, C, S>
where
    S::T: semigraph_formats::WeightValue,
{
    /// Splits the arcs of `g` over the communicator's ranks without building a CSR of the
    /// whole graph on the host: each rank's blocks are made from its arcs alone, one rank at
    /// a time, so the graph may have more arcs than a CSR with 32-bit row offsets holds
    /// (2^32 - 1), as long as each rank's blocks hold fewer. The arcs' values are as
    /// [`EdgeList::to_csr`] makes them (weights converted to `S::T`, every arc `S::one()`
    /// without weights, repeated arcs combined by `S::add`), so every algorithm gives what it
    /// gives on [`DistGraph::new`] of `g.to_csr()`. The partition weighs the arcs as listed
    /// (a repeated arc counts each time), so with repeated arcs it may differ from that
    /// graph's.
    ///
    /// Whether the graph is undirected is found only when out-blocks are asked for (each
    /// rank compares its out-block with its pull block; equal everywhere, the out-blocks are
    /// dropped); without them it is taken as directed ([`DistGraph::is_undirected`] is false,
    /// and algorithms that need out-blocks say so).
    ///
    /// # Errors
    /// `InvalidArgument` if `g` is not square or a rank would hold 2^32 or more arcs (more
    /// ranks are needed); `g`'s format errors (out-of-range ids, weights `S` cannot hold);
    /// the backends' memory errors.
    ///
    /// # Complexity
    /// `O(m)` work on every core for the in-degrees, then per rank `O(m)` to select its arcs
    /// and `O(m / k)` to build its blocks; host memory for one rank's blocks at a time besides
    /// `g` (and `16 n` bytes of counts).
    ///
    /// ```
    /// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
    /// use semigraph_algos::{BfsOptions, BfsSemiring, CpuBackend};
    /// use semigraph_formats::EdgeList;
    ///
    /// let mut g = EdgeList::new(4, 4);
    /// (g.src, g.dst) = (vec![0, 1, 2, 1], vec![1, 2, 3, 2]); // 1 -> 2 twice
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu, &cpu]);
    /// let dg = DistGraph::<_, BfsSemiring>::from_edges(&comm, &g, DistOptions::default())?;
    /// assert_eq!(dg.nnz(), 3);
    /// assert_eq!(dist::bfs(&dg, 0, &BfsOptions::default())?.levels, vec![0, 1, 2, 3]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn from_edges(comm: &'a C, g: &EdgeList, opts: DistOptions) -> Result<Self> {
        Self::split_edges(comm, g, false, opts)
    }

    /// [`from_edges`](Self::from_edges) with every arc `S::one()` whatever `g`'s weights (the
    /// pattern, as [`EdgeList::to_pattern_csr`] makes it): for BFS, PageRank and WCC.
    ///
    /// # Errors
    /// As [`from_edges`](Self::from_edges), without the weights' errors.
    ///
    /// ```
    /// use semigraph_algos::dist::{DistGraph, DistOptions, LocalComm};
    /// use semigraph_algos::CpuBackend;
    /// use semigraph_formats::{EdgeList, Weights};
    /// use semigraph_semiring::OrAnd;
    ///
    /// let mut g = EdgeList::new(3, 3);
    /// (g.src, g.dst) = (vec![0, 1], vec![1, 2]);
    /// g.weights = Weights::Real(vec![-1.5, f64::NAN]); // ignored
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu, &cpu]);
    /// let dg = DistGraph::<_, OrAnd>::pattern_from_edges(&comm, &g, DistOptions::default())?;
    /// assert_eq!(dg.nnz(), 2);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn pattern_from_edges(comm: &'a C, g: &EdgeList, opts: DistOptions) -> Result<Self> {
        Self::split_edges(comm, g, true, opts)
    }

    fn split_edges(comm: &'a C, g: &EdgeList, pattern: bool, opts: DistOptions) -> Result<Self> {
        if g.nrows != g.ncols {
            return Err(Error::InvalidArgument(format!(
                "an adjacency matrix must be square, this one is {}x{}",
                g.nrows, g.ncols
            )));
        }
        g.validate()?;
        let n = g.nrows;
        // The in-degrees (the partition's weights) and, for packed columns, which vertices
        // have out-arcs: one pass over the arcs on every core.
        let at_ptr = in_offsets(g);
        let has_out: Option<Vec<AtomicBool>> = opts.packed.then(|| {
            let h: Vec<AtomicBool> = (0..n)
                .into_par_iter()
                .map(|_| AtomicBool::new(false))
                .collect();
            g.src
                .par_iter()
                .for_each(|&u| h[u as usize].store(true, Ordering::Relaxed));
            h
        });
        let part = Partition::by_weight(&at_ptr, comm.ranks())?;
        if let Some((r, arcs)) = widest_block(&part, &at_ptr, u32::MAX as u64) {
            let own = part.range(r);
            return Err(Error::InvalidArgument(format!(
                "rank {r} would hold {arcs} arcs (into its vertices {}..{}), more than a \
                 block's 32-bit row offsets count ({}): use more ranks",
                own.start,
                own.end,
                u32::MAX
            )));
        }
        // The host memory of the largest rank's build, refused up front where it is not there.
        let largest = (0..part.ranks())
            .map(|r| {
                let own = part.range(r);
                (own.len(), (at_ptr[own.end] - at_ptr[own.start]) as usize)
            })
            .max_by_key(|&(_, arcs)| arcs)
            .unwrap_or((0, 0));
        let list_bytes = if pattern { 0 } else { size_of::<u64>() };
        let asked = (opts.push, opts.out);
        let needed = split_host_bytes(n, largest, list_bytes, size_of::<S::T>(), asked);
        semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
            Error::OutOfMemory {
                what: format!(
                    "splitting {} arcs into {} blocks on the host (one at a time, the largest \
                     of {} arcs)",
                    g.len(),
                    part.ranks(),
                    largest.1
                ),
                needed,
                available: Some(available),
            }
        })?;
        drop(at_ptr);
        let columns = has_out
            .as_ref()
            .and_then(|h| PackedColumns::of(&part, |v| h[v].load(Ordering::Relaxed)));
        drop(has_out);
        let mut blocks = Blocks::new(comm, opts, columns);
        let mut nnz = 0;
        let mut undirected = opts.out;
        for r in 0..part.ranks() {
            let own = part.range(r);
            // The rank's in-arcs as rows of A^T: (v - lo, u).
            let lo = own.start as u32;
            // A weight `S` cannot hold is named by its arc in `g`'s numbering.
            let named = |e: FormatError, swap: bool| match e {
                FormatError::BadValue {
                    row,
                    col,
                    value,
                    ty,
                } => {
                    let (local, other) = (row + lo as usize, col);
                    let (row, col) = if swap { (other, local) } else { (local, other) };
                    Error::from(FormatError::BadValue {
                        row,
                        col,
                        value,
                        ty,
                    })
                }
                e => Error::from(e),
            };
            let build = |sub: EdgeList, swap: bool| -> Result<Csr<S>> {
                match pattern {
                    true => sub.to_pattern_csr::<S, u32>().map_err(|e| named(e, swap)),
                    false => sub.to_csr::<S, u32>().map_err(|e| named(e, swap)),
                }
            };
            let keep = |v: u32| own.contains(&(v as usize));
            let pull = build(
                arcs_of(g, own.len(), !pattern, |_, v| keep(v), |u, v| (v - lo, u)),
                true,
            )?;
            let out = match opts.out {
                true => Some(build(
                    arcs_of(g, own.len(), !pattern, |u, _| keep(u), |u, v| (u - lo, v)),
                    false,
                )?),
                false => None,
            };
            if let Some(o) = &out {
                undirected &= o.row_ptr() == pull.row_ptr() && o.col_idx() == pull.col_idx();
            }
            nnz += pull.nnz();
            blocks.add(r, &part, &pull, out.as_ref())?;
        }
        if undirected {
            // Every out-block is its pull block: the pull blocks serve both.
            blocks.out.clear();
        }
        Ok(blocks.finish(None, n, nnz, part, undirected))
    }
}

/// The fewest ranks over which [`DistGraph::from_edges`] splits `g` into blocks that each
/// hold at most 2^32 - 1 arcs (a block's 32-bit row offsets), `g`'s vertices balanced by
/// in-arcs as there: 1 for a graph one CSR holds. How many blocks a graph past that limit
/// takes on one device (`semigraph-gpu`'s `SharedComm`).
///
/// # Errors
/// `InvalidArgument` if no split fits: a vertex with 2^32 or more in-arcs. `g`'s format
/// errors (out-of-range ids).
///
/// # Complexity
/// `O(m)` work on every core (the in-degrees), then `O(k log n)` a rank count tried.
///
/// ```
/// use semigraph_algos::dist::blocks_for;
/// use semigraph_formats::EdgeList;
///
/// let mut g = EdgeList::new(3, 3);
/// (g.src, g.dst) = (vec![0, 1], vec![1, 2]);
/// assert_eq!(blocks_for(&g)?, 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn blocks_for(g: &EdgeList) -> Result<usize> {
    g.validate()?;
    if g.len() <= u32::MAX as usize {
        return Ok(1);
    }
    fewest_blocks(&in_offsets(g), u32::MAX as u64).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "no split of {} arcs into blocks of 32-bit row offsets: a vertex has 2^32 or more \
             in-arcs",
            g.len()
        ))
    })
}

/// The fewest ranks over which [`Partition::by_weight`] of `at_ptr` leaves no block of more
/// than `limit` arcs; `None` where a vertex alone has more. Tried from the total's share
/// (no fewer can hold it) up, one count at a time: the first that fits is the answer.
fn fewest_blocks(at_ptr: &[u64], limit: u64) -> Option<usize> {
    let n = at_ptr.len() - 1;
    if at_ptr.windows(2).any(|w| w[1] - w[0] > limit) {
        return None;
    }
    let mut k = (at_ptr[n].div_ceil(limit.max(1)) as usize).max(1);
    loop {
        let part = Partition::by_weight(at_ptr, k.min(n.max(1))).ok()?;
        if widest_block(&part, at_ptr, limit).is_none() {
            return Some(part.ranks());
        }
        if k >= n {
            return None;
        }
        k += 1;
    }
}

/// An upper bound of the host memory [`DistGraph::from_edges`] takes beside the edge list
/// while it builds the largest rank's blocks (`rows` vertices, `arcs` in-arcs; the blocks are
/// made one rank at a time, each handed to its backend before the next): the in-degree
/// offsets, then the largest of the arcs' selection (rayon's collect of the kept places,
/// `usize` each, may hold them twice), the selected list (`list_bytes` of weight an arc)
/// beside its CSR build ([`semigraph_formats::csr_build_bytes`]), and the pull block
/// (`value_bytes` a value) beside the out-block and the push block (its transpose), as
/// `(push, out)` asks. The split refuses to start where the machine has less (what a
/// backend then holds of the blocks is the backend's: device memory on a GPU).
///
/// ```
/// use semigraph_algos::dist::split_host_bytes;
///
/// // 1,000 vertices, 50,000 in-arcs into the 400 of the largest block, a pattern of u32.
/// let bytes = split_host_bytes(1_000, (400, 50_000), 0, 4, (true, false));
/// assert!(bytes > 50_000 * 16);
/// ```
pub fn split_host_bytes(
    n: usize,
    (rows, arcs): (usize, usize),
    list_bytes: usize,
    value_bytes: usize,
    (push, out): (bool, bool),
) -> u64 {
    let (n, rows, m) = (n as u64, rows as u64, arcs as u64);
    let (w, v) = (list_bytes as u64, value_bytes as u64);
    // The in-degrees and their running sums, held at once while the sums are made.
    let offsets = 16 * (n + 1);
    let select = (16 + w) * m;
    let list = (8 + w) * m;
    let build = list
        + semigraph_formats::csr_build_bytes::<u32>(rows as usize, n as usize, arcs, value_bytes);
    let block = (4 + v) * m + 4 * (rows + 1);
    let second = (4 + v) * m + 4 * (n + 1);
    let making = select.max(build);
    // The pull block is held while the out-block is made, then both while the push block is
    // transposed from the pull block.
    let with_out = if out { block + making } else { 0 };
    let uploading = block + if out { block } else { 0 } + if push { second } else { 0 };
    offsets + making.max(with_out).max(uploading)
}

/// The row pointer of `A^T` from `g`'s arcs (the in-degrees' running sums), `n + 1` entries:
/// the partition's weights. One pass over the arcs on every core.
fn in_offsets(g: &EdgeList) -> Vec<u64> {
    let indeg: Vec<AtomicU64> = (0..g.nrows)
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    g.dst.par_iter().for_each(|&v| {
        indeg[v as usize].fetch_add(1, Ordering::Relaxed);
    });
    let mut at_ptr = Vec::with_capacity(g.nrows + 1);
    at_ptr.push(0u64);
    for d in &indeg {
        at_ptr.push(at_ptr[at_ptr.len() - 1] + d.load(Ordering::Relaxed));
    }
    at_ptr
}

/// The first rank of `part` whose vertices have more than `limit` in-arcs (`at_ptr`: the
/// in-degrees' running sums), and that count.
fn widest_block(part: &Partition, at_ptr: &[u64], limit: u64) -> Option<(usize, u64)> {
    (0..part.ranks())
        .map(|r| (r, at_ptr[part.range(r).end] - at_ptr[part.range(r).start]))
        .find(|&(_, arcs)| arcs > limit)
}

/// The arcs `(u, v)` of `g` that `keep` keeps, renumbered by `to` (local ids), with their
/// weights (unless `weights` is false), in `g`'s order: a rank's share of an edge list, of
/// `rows` rows.
fn arcs_of(
    g: &EdgeList,
    rows: usize,
    weights: bool,
    keep: impl Fn(u32, u32) -> bool + Sync,
    to: impl Fn(u32, u32) -> (u32, u32) + Sync,
) -> EdgeList {
    let picked: Vec<usize> = (0..g.len())
        .into_par_iter()
        .filter(|&k| keep(g.src[k], g.dst[k]))
        .collect();
    let (src, dst): (Vec<u32>, Vec<u32>) =
        picked.par_iter().map(|&k| to(g.src[k], g.dst[k])).unzip();
    let mut sub = EdgeList::new(rows, g.ncols);
    (sub.src, sub.dst) = (src, dst);
    sub.weights = match &g.weights {
        _ if !weights => Weights::None,
        Weights::None => Weights::None,
        Weights::Int(w) => Weights::Int(picked.par_iter().map(|&k| w[k]).collect()),
        Weights::UInt(w) => Weights::UInt(picked.par_iter().map(|&k| w[k]).collect()),
        Weights::Real(w) => Weights::Real(picked.par_iter().map(|&k| w[k]).collect()),
    };
    sub
}

/// A distributed graph's device blocks as they are made, rank by rank (each host block is
/// uploaded and dropped before the next rank's is made).
pub(super) struct Blocks<'a, C: Communicator, S: Semiring> {
    comm: &'a C,
    opts: DistOptions,
    columns: Option<PackedColumns>,
    pull: Vec<MatrixOf<C, S>>,
    push: Vec<MatrixOf<C, S>>,
    pub(super) out: Vec<MatrixOf<C, S>>,
    packed_pull: Vec<MatrixOf<C, S>>,
    select: Vec<MatrixOf<C, S>>,
}

impl<'a, C: Communicator, S: Semiring> Blocks<'a, C, S> {
    pub(super) fn new(comm: &'a C, opts: DistOptions, columns: Option<PackedColumns>) -> Self {
        Blocks {
            comm,
            opts,
            columns,
            pull: Vec::new(),
            push: Vec::new(),
            out: Vec::new(),
            packed_pull: Vec::new(),
            select: Vec::new(),
        }
    }

    fn upload(&self, r: usize, m: &Csr<S>) -> Result<MatrixOf<C, S>> {
        self.comm
            .backend(r)
            .matrix(m, Format::Csr, &ConvertOptions::default())
    }

    /// Rank `r`'s blocks from its pull block (rows `part.range(r)` of `A^T`) and, when
    /// out-blocks are kept, its out-block (the same rows of `A`).
    pub(super) fn add(
        &mut self,
        r: usize,
        part: &Partition,
        pull: &Csr<S>,
        out: Option<&Csr<S>>,
    ) -> Result<()> {
        let block = self.upload(r, pull)?;
        self.pull.push(block);
        if let Some(c) = &self.columns {
            let (p, s) = (c.renumbered(pull)?, c.select::<S>(part, r)?);
            let (p, s) = (self.upload(r, &p)?, self.upload(r, &s)?);
            self.packed_pull.push(p);
            self.select.push(s);
        }
        if self.opts.push {
            let block = self.upload(r, &pull.try_transpose()?)?;
            self.push.push(block);
        }
        if let Some(o) = out {
            let block = self.upload(r, o)?;
            self.out.push(block);
        }
        Ok(())
    }

    /// The graph: `host`, when built from one; `undirected` says whether the out-blocks
    /// (if asked for) were left out because they equal the pull blocks.
    pub(super) fn finish(
        self,
        host: Option<&'a Csr<S>>,
        n: usize,
        nnz: usize,
        part: Partition,
        undirected: bool,
    ) -> DistGraph<'a, C, S> {
        let out = (self.opts.out && !undirected).then_some(self.out);
        DistGraph {
            comm: self.comm,
            host,
            n,
            nnz,
            part,
            pull: self.pull,
            push: self.opts.push.then_some(self.push),
            out,
            packed: self.columns.map(|c| Packed {
                part: c.part,
                pull: self.packed_pull,
                select: self.select,
            }),
            undirected,
        }
    }
}

/// The numbering of the vertices with out-arcs (see [`Packed`]), made on the host.
pub(super) struct PackedColumns {
    /// `id[v]`: the packed number of `v`, for a vertex with out-arcs.
    id: Vec<u32>,
    /// Where each rank's vertices with out-arcs start in the packed numbering.
    part: Partition,
}

impl PackedColumns {
    /// The numbering of the vertices `v` with `has_out(v)`; `None` when every vertex has
    /// out-arcs (packing would change nothing).
    pub(super) fn of(part: &Partition, has_out: impl Fn(usize) -> bool) -> Option<PackedColumns> {
        let n = part.n();
        let mut id = vec![u32::MAX; n];
        let mut offsets = Vec::with_capacity(part.ranks() + 1);
        let mut next = 0u32;
        for r in 0..part.ranks() {
            offsets.push(next as usize);
            for v in part.range(r) {
                if has_out(v) {
                    id[v] = next;
                    next += 1;
                }
            }
        }
        offsets.push(next as usize);
        if next as usize == n {
            return None;
        }
        let part = Partition::from_offsets(offsets).ok()?;
        Some(PackedColumns { id, part })
    }

    /// `block` (rows of `A^T`, whose columns all have out-arcs) with packed column numbers.
    fn renumbered<S: Semiring>(&self, block: &Csr<S>) -> Result<Csr<S>> {
        let cols: Vec<u32> = block
            .col_idx()
            .par_iter()
            .map(|&c| self.id[c as usize])
            .collect();
        Ok(Csr::try_from_parts(
            block.nrows(),
            self.part.n(),
            block.row_ptr().to_vec(),
            cols,
            block.vals().to_vec(),
        )?)
    }

    /// Rank `r`'s selection matrix: row `i` holds `S::one()` at the local number of its
    /// `i`-th vertex with out-arcs.
    fn select<S: Semiring>(&self, part: &Partition, r: usize) -> Result<Csr<S>> {
        let own = part.range(r);
        let cols: Vec<u32> = own
            .clone()
            .filter(|&v| self.id[v] != u32::MAX)
            .map(|v| (v - own.start) as u32)
            .collect();
        let rows = cols.len();
        Ok(Csr::try_from_parts(
            rows,
            own.len(),
            (0..=rows as u32).collect(),
            cols,
            vec![S::one(); rows],
        )?)
    }
}

/// The rows `rows` of `m`, as a `rows.len() x ncols` matrix.
pub(super) fn rows_of<S: Semiring>(m: &Csr<S>, rows: std::ops::Range<usize>) -> Result<Csr<S>> {
    let rp = m.row_ptr();
    let lo = rp[rows.start];
    let row_ptr: Vec<u32> = rp[rows.start..=rows.end].iter().map(|&p| p - lo).collect();
    let (lo, hi) = (lo as usize, rp[rows.end] as usize);
    Ok(Csr::try_from_parts(
        rows.len(),
        m.ncols(),
        row_ptr,
        m.col_idx()[lo..hi].to_vec(),
        m.vals()[lo..hi].to_vec(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fewest_blocks` against trying every rank count: the same count, or none where none
    /// fits.
    #[test]
    fn fewest_blocks_is_the_smallest_split_within_the_limit() {
        let rng = semigraph_formats::rng::Rng::new(7);
        let mut k = 0;
        let mut draw = |n: u64| {
            k += 1;
            rng.below(k, n)
        };
        for case in 0..400 {
            let n = 1 + draw(60) as usize;
            let mut at_ptr = vec![0u64];
            for _ in 0..n {
                let d = match draw(10) {
                    0 => draw(200),
                    _ => draw(12),
                };
                at_ptr.push(at_ptr[at_ptr.len() - 1] + d);
            }
            let limit = 1 + draw(150);
            let fits = |k: usize| {
                widest_block(&Partition::by_weight(&at_ptr, k).unwrap(), &at_ptr, limit).is_none()
            };
            let want = (1..=n).find(|&k| fits(k));
            assert_eq!(fewest_blocks(&at_ptr, limit), want, "case {case}");
        }
    }
}
