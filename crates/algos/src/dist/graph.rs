//! [`DistGraph`]: an adjacency matrix split by rows over the ranks of a [`Communicator`].

use semigraph_formats::{ConvertOptions, Csr, Format};
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
}

impl Default for DistOptions {
    /// Every block.
    fn default() -> Self {
        DistOptions {
            push: true,
            out: true,
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
    comm: &'a C,
    a: &'a Csr<S>,
    part: Partition,
    pull: Vec<MatrixOf<C, S>>,
    push: Option<Vec<MatrixOf<C, S>>>,
    out: Option<Vec<MatrixOf<C, S>>>,
    undirected: bool,
}

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
        let upload = |r: usize, m: &Csr<S>| {
            comm.backend(r)
                .matrix(m, Format::Csr, &ConvertOptions::default())
        };
        let mut pull = Vec::with_capacity(part.ranks());
        let mut push = Vec::new();
        let mut out = Vec::new();
        for r in 0..part.ranks() {
            let block = rows_of(&at, part.range(r))?;
            pull.push(upload(r, &block)?);
            if opts.push {
                push.push(upload(r, &block.transpose())?);
            }
            if opts.out && !undirected {
                out.push(upload(r, &rows_of(a, part.range(r))?)?);
            }
        }
        Ok(DistGraph {
            comm,
            a,
            part,
            pull,
            push: opts.push.then_some(push),
            out: (opts.out && !undirected).then_some(out),
            undirected,
        })
    }

    /// The communicator.
    pub fn comm(&self) -> &'a C {
        self.comm
    }

    /// The host matrix the graph was built from.
    pub fn csr(&self) -> &'a Csr<S> {
        self.a
    }

    /// Which rank owns which vertices.
    pub fn partition(&self) -> &Partition {
        &self.part
    }

    /// Vertices.
    pub fn n(&self) -> usize {
        self.a.nrows()
    }

    /// Arcs (stored entries of `A`).
    pub fn nnz(&self) -> usize {
        self.a.nnz()
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
        use rayon::prelude::*;
        assert_eq!(items.len(), self.part.ranks(), "one item per rank");
        items
            .into_par_iter()
            .enumerate()
            .map(|(r, item)| f(r, self.comm.backend(r), item))
            .collect()
    }
}

/// The rows `rows` of `m`, as a `rows.len() x ncols` matrix.
fn rows_of<S: Semiring>(m: &Csr<S>, rows: std::ops::Range<usize>) -> Result<Csr<S>> {
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
