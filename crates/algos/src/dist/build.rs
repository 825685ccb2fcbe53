//! How a [`DistGraph`]'s blocks are made: from a host CSR ([`DistGraph::new`]) or straight
//! from an edge list ([`DistGraph::from_edges`]: no CSR of the whole graph, so the graph may
//! hold more arcs than 32-bit row offsets count, as long as each rank's blocks do not).

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use semigraph_formats::{ConvertOptions, Csr, EdgeList, Format, FormatError, Weights};
use semigraph_semiring::Semiring;

use super::graph::Packed;
use super::plan::{in_offsets, split_host_bytes, widest_block};
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
        crate::error::check_square(a.nrows(), a.ncols())?;
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
        crate::error::check_square(g.nrows, g.ncols)?;
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
