//! [`Graph`]: an adjacency matrix uploaded to a backend, in the two directions algorithms use.

use semigraph_formats::{ConvertOptions, Csr, Format, Stats};
use semigraph_semiring::Semiring;

use crate::backend::{Backend, MatrixInfo};
use crate::{Error, Result};

/// Which matrices a [`Graph`] keeps on its backend.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct GraphOptions {
    /// Format of the pull matrix `A^T` (used by SpMV/SpMM); `None` picks
    /// [`Stats::choose_format`]'s format for `A^T` on the backend's kind.
    pub format: Option<Format>,
    /// Also build the pull matrix `A^T` (needed by pull-direction BFS and multi-source BFS).
    /// The push matrix `A` (CSR, for SpMSpV) is always built.
    pub pull: bool,
    /// Fill limits for padded pull formats (ELL, DIA, HYB, dense).
    pub convert: ConvertOptions,
}

/// A square adjacency matrix `A` (`A(u, v)` = weight of the arc `u -> v`) held by a backend:
/// `A` in CSR for push steps (SpMSpV scatters along the out-arcs of the frontier), and
/// optionally `A^T` in any format for pull steps (each vertex gathers from its in-arcs). It
/// borrows the host CSR it was built from, for the algorithms that also work on the host
/// (APSP's dense start, next hops), so every algorithm takes a `Graph`.
pub struct Graph<'b, B: Backend, S: Semiring> {
    backend: &'b B,
    csr: &'b Csr<S>,
    n: usize,
    nnz: usize,
    push: B::Matrix<S>,
    pull: Option<B::Matrix<S>>,
}

impl<'b, B: Backend, S: Semiring> Graph<'b, B, S> {
    /// Uploads `a` (and `a^T` if `opts.pull`) to `backend`; the graph borrows `a`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `a` is not square; format and memory errors of the
    /// backend.
    pub fn new(backend: &'b B, a: &'b Csr<S>, opts: GraphOptions) -> Result<Self> {
        if a.nrows() != a.ncols() {
            return Err(Error::InvalidArgument(format!(
                "an adjacency matrix must be square, this one is {}x{}",
                a.nrows(),
                a.ncols()
            )));
        }
        let push = backend.matrix(a, Format::Csr, &opts.convert)?;
        let pull = if opts.pull {
            let at = a.transpose();
            let format = opts.format.unwrap_or_else(|| {
                let gpu = backend.kind() == crate::backend::BackendKind::Gpu;
                Stats::choose_format(&Stats::of(&at).features(), gpu).0
            });
            Some(backend.matrix(&at, format, &opts.convert)?)
        } else {
            None
        };
        Ok(Graph {
            backend,
            csr: a,
            n: a.nrows(),
            nnz: a.nnz(),
            push,
            pull,
        })
    }

    /// The backend.
    pub fn backend(&self) -> &'b B {
        self.backend
    }
    /// The host CSR the graph was built from.
    pub fn csr(&self) -> &'b Csr<S> {
        self.csr
    }
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of arcs (stored entries).
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// `A`, in CSR.
    pub fn push(&self) -> &B::Matrix<S> {
        &self.push
    }
    /// `A^T`, if it was built.
    pub fn pull(&self) -> Option<&B::Matrix<S>> {
        self.pull.as_ref()
    }
    /// `A^T`, or an error naming `algorithm` if the graph was built without it.
    pub fn require_pull(&self, algorithm: &str) -> Result<&B::Matrix<S>> {
        self.pull.as_ref().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{algorithm} pulls along in-arcs: build the graph with GraphOptions {{ pull: true, .. }}"
            ))
        })
    }
    /// Layout of the pull matrix, if any.
    pub fn pull_info(&self) -> Option<MatrixInfo> {
        self.pull.as_ref().map(|m| self.backend.matrix_info(m))
    }
}

/// A CSR adjacency matrix with `n` vertices from `(tail, head, weight)` arcs; duplicate arcs
/// combine with the semiring's `add` (the lighter one survives in min-plus).
///
/// # Errors
/// [`Error::Format`] if an endpoint is `>= n`.
///
/// ```
/// use semigraph_algos::arcs_to_csr;
/// use semigraph_semiring::MinPlus;
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 5), (1, 2, 1), (0, 1, 3)]).unwrap();
/// assert_eq!((a.nnz(), a.get(0, 1)), (2, Some(3)));
/// ```
pub fn arcs_to_csr<S: Semiring>(n: usize, arcs: &[(u32, u32, S::T)]) -> Result<Csr<S>> {
    let coo = semigraph_formats::Coo::<S>::try_from_triplets(
        n,
        n,
        arcs.iter().map(|a| a.0).collect(),
        arcs.iter().map(|a| a.1).collect(),
        arcs.iter().map(|a| a.2).collect(),
    )?;
    Ok(coo.to_csr())
}
