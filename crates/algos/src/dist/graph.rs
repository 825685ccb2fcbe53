//! [`DistGraph`]: an adjacency matrix split by rows over the ranks of a [`Communicator`].

use semigraph_formats::Csr;
use semigraph_semiring::Semiring;

use super::{Communicator, DenseOf, Partition};
use crate::backend::Objects;
use crate::error::{Error, Result};

/// The matrix type of a communicator's ranks.
pub type MatrixOf<C, S> = <<C as Communicator>::Backend as Objects>::Matrix<S>;

/// Which blocks of the matrix each rank holds (see [`DistGraph`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistOptions {
    /// The push block (`A`'s arcs into the owned vertices, for sparse frontiers: BFS and
    /// Bellman-Ford).
    pub push: bool,
    /// The out-block (the owned vertices' out-arcs, on a directed graph: WCC follows arcs
    /// both ways, PageRank counts out-degrees). Not built for an undirected graph (the pull
    /// block is it).
    pub out: bool,
    /// The pull blocks also over packed columns ([`DistGraph::packed`]): only the vertices
    /// with out-arcs are columns of `A^T`, so a product whose input is a vector of every
    /// vertex (PageRank's scaled ranks) needs only those entries exchanged. Not built when
    /// every vertex has out-arcs. Costs a second copy of the pull blocks.
    pub packed: bool,
}

impl Default for DistOptions {
    /// Every block.
    fn default() -> Self {
        DistOptions {
            push: true,
            out: true,
            packed: true,
        }
    }
}

/// An adjacency matrix `A` (`n x n`) over the ranks of a communicator, split by a
/// [`Partition`] of the vertices balanced by in-arcs. Rank `r`, owning the `|R|` vertices
/// `R = lo..hi`, holds CSR blocks with global column (or row) numbers and local ones for `R`:
/// - **pull** (always, `|R| x n`): the rows `R` of `A^T`, the owned vertices' in-arcs:
///   `t = pull (+).(x) x` computes the owned entries of `A^T x` (local rows) from a whole `x`;
/// - **push** ([`DistOptions::push`], `n x |R|`): the same arcs as `A`'s columns `R`, for
///   `vxm` from a whole sparse frontier to the owned vertices;
/// - **out** ([`DistOptions::out`], directed graphs, `|R| x n`): the rows `R` of `A`, the
///   owned vertices' out-arcs.
///
/// A rank keeps what belongs to its vertices in arrays of `|R|` entries; each product writes
/// them, and an all-gather of the blocks ([`Communicator::all_gather_from`]) gives every rank
/// the whole vector the next product reads. The 1-D split scales while the products' `m / k`
/// dominates the `n` values each rank receives per step (docs/GPU.md, several GPUs).
pub struct DistGraph<'a, C: Communicator, S: Semiring> {
    pub(super) comm: &'a C,
    /// The host matrix, when built from one ([`DistGraph::new`]).
    pub(super) host: Option<&'a Csr<S>>,
    pub(super) n: usize,
    pub(super) nnz: usize,
    pub(super) part: Partition,
    pub(super) pull: Vec<MatrixOf<C, S>>,
    pub(super) push: Option<Vec<MatrixOf<C, S>>>,
    pub(super) out: Option<Vec<MatrixOf<C, S>>>,
    pub(super) packed: Option<Packed<MatrixOf<C, S>>>,
    pub(super) undirected: bool,
}

/// The pull blocks of a [`DistGraph`] over packed columns ([`DistOptions::packed`]).
///
/// The vertices with out-arcs (the columns that occur in `A^T`) are numbered `0..n'` in
/// order, so each rank's share of them is a contiguous block of that numbering
/// ([`partition`](Self::partition)). For a vector `x` of every vertex, in blocks of the
/// ranks' vertices: rank `r`'s `select(r) (+).(x) x_r` (with `(+)` adding to nothing, as
/// plus-times's `0 + v = v`) is its block of the packed `x'`; an all-gather over the packed
/// partition makes `x'` whole (`n'` values, against `n` for `x`); `pull(r) (+).(x) x'`
/// equals `g.pull(r) (+).(x) x`, term by term in the same order.
///
/// ```
/// use semigraph_algos::dist::{DistGraph, DistOptions, LocalComm};
/// use semigraph_algos::{arcs_to_csr, CpuBackend};
/// use semigraph_semiring::OrAnd;
///
/// // Only 0 and 2 have out-arcs: they are the packed columns 0 and 1.
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (2, 3, true), (2, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let p = g.packed().expect("vertices 1 and 3 have no out-arcs");
/// assert_eq!(p.partition().n(), 2);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct Packed<M> {
    pub(super) part: Partition,
    pub(super) pull: Vec<M>,
    pub(super) select: Vec<M>,
}

impl<M> Packed<M> {
    /// Which packed columns each rank owns (the vertices with out-arcs among its own).
    pub fn partition(&self) -> &Partition {
        &self.part
    }

    /// Rank `r`'s pull block with packed column numbers (`|R| x n'`).
    pub fn pull(&self, r: usize) -> &M {
        &self.pull[r]
    }

    /// Rank `r`'s selection (`n'_r x |R|`, one entry a row, at the local number of its
    /// `i`-th vertex with out-arcs): the product with a block of a vector is that block
    /// packed.
    pub fn select(&self, r: usize) -> &M {
        &self.select[r]
    }
}

impl<'a, C: Communicator, S: Semiring> DistGraph<'a, C, S> {
    /// The pull blocks over packed columns, if the graph was built with them
    /// ([`DistOptions::packed`]) and some vertex has no out-arc.
    pub fn packed(&self) -> Option<&Packed<MatrixOf<C, S>>> {
        self.packed.as_ref()
    }

    /// The communicator.
    pub fn comm(&self) -> &'a C {
        self.comm
    }

    /// The host matrix the graph was built from ([`DistGraph::new`]); `None` for a graph
    /// built from an edge list ([`DistGraph::from_edges`]).
    pub fn csr(&self) -> Option<&'a Csr<S>> {
        self.host
    }

    /// Which rank owns which vertices.
    pub fn partition(&self) -> &Partition {
        &self.part
    }

    /// Vertices.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Arcs (stored entries of `A`).
    pub fn nnz(&self) -> usize {
        self.nnz
    }

    /// Whether `A^T` has `A`'s pattern (every arc goes both ways).
    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    /// Rank `r`'s pull block (`|R| x n`: its vertices' in-arcs, as rows of `A^T`).
    pub fn pull(&self, r: usize) -> &MatrixOf<C, S> {
        &self.pull[r]
    }

    /// Rank `r`'s push block (`n x |R|`: `A`'s arcs into its vertices).
    ///
    /// # Errors
    /// `InvalidArgument` naming `algorithm` when the graph was built without push blocks.
    pub fn push(&self, r: usize, algorithm: &str) -> Result<&MatrixOf<C, S>> {
        match &self.push {
            Some(p) => Ok(&p[r]),
            None => Err(Error::InvalidArgument(format!(
                "{algorithm} needs the push blocks (DistOptions::push)"
            ))),
        }
    }

    /// Rank `r`'s out-block (`|R| x n`: its vertices' out-arcs); `None` on an undirected graph
    /// (use [`pull`](Self::pull)).
    ///
    /// # Errors
    /// `InvalidArgument` naming `algorithm` when a directed graph was built without them.
    pub fn out(&self, r: usize, algorithm: &str) -> Result<Option<&MatrixOf<C, S>>> {
        match (&self.out, self.undirected) {
            (_, true) => Ok(None),
            (Some(o), false) => Ok(Some(&o[r])),
            (None, false) => Err(Error::InvalidArgument(format!(
                "{algorithm} on a directed graph needs the out-blocks (DistOptions::out)"
            ))),
        }
    }

    /// Every rank's block (`|R| x 1`) of the vector that is `value` at `v` and empty (the
    /// semiring's zero) elsewhere.
    ///
    /// # Errors
    /// The backends' memory errors.
    pub fn local_unit<T: Semiring>(&self, v: usize, value: T::T) -> Result<Vec<DenseOf<C, T>>> {
        self.each(|r, b| {
            let own = self.part.range(r);
            match own.contains(&v) {
                true => b.unit::<T>(own.len(), v - own.start, value),
                false => b.dense_filled::<T>(own.len(), 1, T::zero()),
            }
        })
    }

    /// The same graph in semiring `P`, every arc's value `P::one()` (entries equal to `S`'s
    /// zero are no arcs), as [`Graph::pattern`](crate::Graph::pattern) on one device: each
    /// rank's blocks through [`Objects::pattern`] (on a GPU the index arrays are shared and
    /// one value array a block is written; nothing moves between ranks). A weighted graph
    /// ready for BFS ([`BfsSemiring`](crate::BfsSemiring)); made once, not per search.
    ///
    /// # Errors
    /// The backends' memory errors.
    ///
    /// ```
    /// use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
    /// use semigraph_algos::{arcs_to_csr, BfsOptions, BfsSemiring, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 7), (1, 2, 9)])?;
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu, &cpu]);
    /// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
    /// let r = dist::bfs(&g.pattern::<BfsSemiring>()?, 0, &BfsOptions::default())?;
    /// assert_eq!(r.levels, vec![0, 1, 2]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn pattern<P: Semiring>(&self) -> Result<DistGraph<'a, C, P>> {
        let each = |ms: &[MatrixOf<C, S>]| -> Result<Vec<MatrixOf<C, P>>> {
            ms.iter()
                .enumerate()
                .map(|(r, m)| self.comm.backend(r).pattern::<S, P>(m))
                .collect()
        };
        let packed = match &self.packed {
            Some(p) => Some(Packed {
                part: p.part.clone(),
                pull: each(&p.pull)?,
                select: each(&p.select)?,
            }),
            None => None,
        };
        Ok(DistGraph {
            comm: self.comm,
            host: None,
            n: self.n,
            nnz: self.nnz,
            part: self.part.clone(),
            pull: each(&self.pull)?,
            push: self.push.as_deref().map(each).transpose()?,
            out: self.out.as_deref().map(each).transpose()?,
            packed,
            undirected: self.undirected,
        })
    }

    /// The whole vectors (`n x 1` on every rank) of which `local` holds each rank's block.
    ///
    /// # Errors
    /// The backends' memory errors; communication errors.
    pub fn whole<T: Semiring>(&self, local: &[DenseOf<C, T>]) -> Result<Vec<DenseOf<C, T>>> {
        let mut x = self.each(|_, b| b.dense_filled::<T>(self.n(), 1, T::zero()))?;
        self.comm.all_gather_from::<T>(local, &mut x, &self.part)?;
        Ok(x)
    }

    /// `f(r, backend)` for every rank, in order.
    pub fn each<T>(&self, mut f: impl FnMut(usize, &C::Backend) -> Result<T>) -> Result<Vec<T>> {
        (0..self.part.ranks())
            .map(|r| f(r, self.comm.backend(r)))
            .collect()
    }

    /// `f(r, backend, item)` for every rank at once, one task per rank on rayon's pool, with
    /// `items[r]` (the rank's arrays): one rank's waits (a count read back, an allocation
    /// sized by the device) overlap the other ranks' work.
    pub fn par_each<T: Send, U: Send>(
        &self,
        items: Vec<T>,
        f: impl Fn(usize, &C::Backend, T) -> Result<U> + Sync,
    ) -> Result<Vec<U>> {
        assert_eq!(items.len(), self.part.ranks(), "one item per rank");
        super::comm::par_ranks(self.comm, items, f)
    }
}
