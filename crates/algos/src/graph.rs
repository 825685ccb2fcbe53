//! [`Graph`]: an adjacency matrix uploaded to a backend, in the two directions algorithms use.

use std::sync::{Arc, OnceLock};

use semigraph_formats::{ConvertOptions, Csr, Format, Stats, pattern_value, view_value};
use semigraph_semiring::{PlusTimes, Semiring};

use semigraph_semiring::ops::SemiringAdd;

use crate::backend::{Backend, Combine, MatrixInfo};
use crate::error::{Error, Result};

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
///
/// One upload serves every semiring: [`Graph::view`] sees the same weights through another
/// semiring of the value type (min-plus distances and max-min widths), [`Graph::pattern`]
/// sees the arcs alone (BFS, reachability, walk counts), both sharing the backend's matrices
/// (see [`Objects::view`](crate::Objects::view) and [`Objects::pattern`](crate::Objects::pattern) for what each costs).
///
/// ```
/// use semigraph_algos::{Graph, GraphOptions, CpuBackend, BfsSemiring, arcs_to_csr, bellman_ford, bfs, widest_path};
/// use semigraph_algos::BfsOptions;
/// use semigraph_semiring::{MaxMin, MinPlus};
///
/// let b = CpuBackend::new();
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1), (0, 2, 9)])?;
/// let g = Graph::new(&b, &a, GraphOptions::default())?;
/// assert_eq!(bellman_ford(&g, 0)?.distance(2), Some(5));
/// assert_eq!(widest_path(&g.view::<MaxMin<i32>>()?, 0)?[2], 9);
/// let levels = bfs(&g.pattern::<BfsSemiring>()?, 0, &BfsOptions::default())?;
/// assert_eq!(levels.level(2), Some(1));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct Graph<'b, B: Backend, S: Semiring> {
    backend: &'b B,
    host: Host<'b, S>,
    n: usize,
    nnz: usize,
    /// The longest row of `A` (the largest out-degree).
    max_out: usize,
    push: B::Matrix<S>,
    pull: Option<B::Matrix<S>>,
    /// Whether `A`'s arcs go both ways (`A^T` has `A`'s pattern), known when the pull matrix
    /// was built.
    undirected: bool,
    /// [`Graph::value_facts`], found on first use.
    facts: OnceLock<ValueFacts>,
}

/// Facts about a graph's values, as `f64`, that algorithms choose their parameters by (a
/// bucket width, whether weights are positive): found in one parallel pass over `A`'s host
/// values on first use and kept with the graph ([`Graph::value_facts`]), so that repeated
/// calls on one graph do not scan its arcs again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ValueFacts {
    /// The smallest value; `-inf` where a value is NaN.
    pub lowest: f64,
    /// The smallest value above 0; `inf` where there is none.
    pub smallest_positive: f64,
    /// The largest finite value, at least 0.
    pub largest_finite: f64,
}

impl ValueFacts {
    /// The facts of `vals` (one parallel pass).
    pub fn of<T: Copy + Sync>(vals: &[T], f64_of: impl Fn(T) -> f64 + Sync) -> ValueFacts {
        use rayon::prelude::*;
        let none = ValueFacts {
            lowest: f64::INFINITY,
            smallest_positive: f64::INFINITY,
            largest_finite: 0.0,
        };
        vals.par_iter()
            .with_min_len(1 << 16)
            .map(|&v| {
                let w = f64_of(v);
                ValueFacts {
                    lowest: if w.is_nan() { f64::NEG_INFINITY } else { w },
                    smallest_positive: if w > 0.0 { w } else { f64::INFINITY },
                    largest_finite: if w.is_finite() { w.max(0.0) } else { 0.0 },
                }
            })
            .reduce(
                || none,
                |a, b| ValueFacts {
                    lowest: a.lowest.min(b.lowest),
                    smallest_positive: a.smallest_positive.min(b.smallest_positive),
                    largest_finite: a.largest_finite.max(b.largest_finite),
                },
            )
    }
}

impl<'b, B: Backend, S: Semiring> Graph<'b, B, S> {
    /// Uploads `a` (and `a^T` if `opts.pull`) to `backend`; the graph borrows `a`. A pull
    /// matrix in CSR is transposed on the backend from the uploaded `a` (one upload); in
    /// another format it is transposed on the host and converted there. Without a format
    /// given, a GPU transposes first and chooses the format from the transpose's row counts
    /// (read back, `n` words); other backends from `a`'s column counts.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] if `a` is not square; format and memory errors of the
    /// backend.
    pub fn new(backend: &'b B, a: &'b Csr<S>, opts: GraphOptions) -> Result<Self> {
        crate::error::check_square(a.nrows(), a.ncols())?;
        let push = backend.matrix(a, Format::Csr, &opts.convert)?;
        Graph::around(backend, Host::Borrowed(a), push, opts)
    }

    /// [`Graph::new`] over a CSR the graph keeps instead of borrowing (for a caller that
    /// builds the CSR only to hand it on).
    ///
    /// # Errors
    /// As [`Graph::new`].
    ///
    /// ```
    /// use semigraph_algos::{Graph, GraphOptions, CpuBackend, arcs_to_csr};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let g = Graph::from_csr(&b, arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4)])?, GraphOptions::default())?;
    /// assert_eq!(g.csr().get(0, 1), Some(4));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn from_csr(backend: &'b B, a: Csr<S>, opts: GraphOptions) -> Result<Self> {
        crate::error::check_square(a.nrows(), a.ncols())?;
        let push = backend.matrix(&a, Format::Csr, &opts.convert)?;
        Graph::around(backend, Host::Owned(Arc::new(a)), push, opts)
    }

    /// A graph of `n` vertices from its arcs `src[k] -> dst[k]` with weights `vals[k]`
    /// (`None`: every arc `S::one()`), repeated arcs combined with `S::add` in list order
    /// and arcs whose weight is the zero dropped (as [`Csr::try_from_arcs`] and
    /// [`Csr::without_zeros`]); the graph owns its host CSR. A GPU builds `A` where it is
    /// used ([`Objects::matrix_from_arcs`](crate::Objects::matrix_from_arcs): the arcs
    /// cross the bus once, the sort runs on the device) and its host CSR is read back from
    /// it; other backends build the CSR on the host and upload it as [`Graph::new`]. The
    /// pull matrix as [`Graph::new`].
    ///
    /// # Arguments
    /// * `n`: the vertices (ids `0..n`).
    /// * `src`, `dst`, `vals`: one entry per arc.
    ///
    /// # Returns
    /// The graph; [`Graph::csr`] is the CSR built.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] or [`Error::Format`] when the arrays differ in length or an
    /// arc leaves `0..n`; memory errors of the host or the backend, before allocating.
    ///
    /// # Complexity
    /// `O(m + n)` work for `m` arcs and each row's sort, on the backend.
    ///
    /// ```
    /// use semigraph_algos::{Graph, GraphOptions, CpuBackend, bellman_ford};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let g = Graph::<_, MinPlus<i32>>::from_arcs(&b, 3, &[0, 1, 0], &[1, 2, 2], Some(&[4, 1, 9]),
    ///     GraphOptions::default())?;
    /// assert_eq!(bellman_ford(&g, 0)?.distance(2), Some(5));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn from_arcs(
        backend: &'b B,
        n: usize,
        src: &[u32],
        dst: &[u32],
        vals: Option<&[S::T]>,
        opts: GraphOptions,
    ) -> Result<Self> {
        let (a, push) = if backend.kind() == crate::backend::BackendKind::Gpu {
            let push = backend.matrix_from_arcs((n, n), src, dst, vals)?;
            (backend.read_matrix(&push)?, push)
        } else {
            let a = Csr::try_from_arcs(n, n, src, dst, vals)?.without_zeros()?;
            return Graph::from_csr(backend, a, opts);
        };
        Graph::around(backend, Host::Owned(Arc::new(a)), push, opts)
    }

    /// The graph of `push` (`A` on the backend) and `host` (`A` on the host): the pull matrix
    /// built as `opts` asks.
    fn around(
        backend: &'b B,
        host: Host<'b, S>,
        push: B::Matrix<S>,
        opts: GraphOptions,
    ) -> Result<Self> {
        let a = host.get();
        let mut undirected = false;
        let pull = if opts.pull {
            // The pull format from the statistics of `A^T` read off `A` (no host transpose);
            // in CSR, `A^T` is then made where `A` already is (on a GPU: from the one upload).
            // A GPU transposes first and counts the transpose's rows there (the host's count
            // of `A`'s columns, one atomic per entry, was most of building a large graph).
            let gpu = backend.kind() == crate::backend::BackendKind::Gpu;
            let mut early = None;
            let format = match opts.format {
                Some(f) => f,
                None if gpu => {
                    let t = backend.transpose_matrix(&push)?;
                    let counts = backend.read_dense(
                        &backend.reduce_rows(&backend.pattern::<S, PlusTimes<u32>>(&t)?)?,
                    )?;
                    early = Some(t);
                    Stats::choose_format(&Stats::of_transpose_counted(a, &counts).features(), gpu).0
                }
                None => Stats::choose_format(&Stats::of_transpose(a).features(), gpu).0,
            };
            let pull = if format == Format::Csr {
                let pull = match early {
                    Some(t) => t,
                    None => backend.transpose_matrix(&push)?,
                };
                undirected = backend.same_pattern(&push, &pull)?;
                pull
            } else {
                drop(early);
                let at = a.try_transpose()?;
                undirected = at.row_ptr() == a.row_ptr() && at.col_idx() == a.col_idx();
                backend.matrix(&at, format, &opts.convert)?
            };
            // Pulls are SpMVs with it: their kernel chosen now, while the graph is built.
            backend.prepare(&pull)?;
            Some(pull)
        } else {
            None
        };
        let (n, nnz, max_out) = (a.nrows(), a.nnz(), longest_row(a.row_ptr()));
        Ok(Graph {
            backend,
            host,
            n,
            nnz,
            max_out,
            push,
            pull,
            undirected,
            facts: OnceLock::new(),
        })
    }

    /// [`ValueFacts`] of `A`'s values, found by `make` on the first call and kept. Every
    /// caller of one semiring passes the same `make`.
    pub(crate) fn value_facts(&self, make: fn(&Csr<S>) -> ValueFacts) -> ValueFacts {
        *self.facts.get_or_init(|| make(self.csr()))
    }

    /// The backend.
    pub fn backend(&self) -> &'b B {
        self.backend
    }
    /// The host CSR the graph was built from; for a view or pattern, that CSR seen the same
    /// way, made on first call (the backend's matrices are never read back).
    pub fn csr(&self) -> &Csr<S> {
        self.host.get()
    }

    /// A way to make this graph's host CSR, for views of it.
    fn host_maker(&self) -> Maker<'b, S> {
        match &self.host {
            Host::Borrowed(a) => {
                let a: &'b Csr<S> = a;
                Arc::new(move || a.clone())
            }
            Host::Owned(a) => {
                let a = a.clone();
                Arc::new(move || (*a).clone())
            }
            Host::Derived { make, .. } => make.clone(),
        }
    }

    /// This graph through semiring `S2` of the same value type: the same arcs and weights,
    /// combined by `S2` (a min-plus graph seen as max-min for widest paths). Shares the
    /// backend's matrices ([`Objects::view`](crate::Objects::view): nothing is uploaded; on a GPU nothing is copied
    /// where the two semirings have the same zero, else one value array per matrix is written
    /// on the device).
    ///
    /// # Errors
    /// Memory errors of the backend.
    pub fn view<S2: Semiring<T = S::T>>(&self) -> Result<Graph<'b, B, S2>> {
        self.derived(view_value::<S, S2>, |m| self.backend.view::<S, S2>(m))
    }

    /// The arcs of this graph in semiring `P`, every weight `P::one()` (entries equal to
    /// `S`'s zero are no arcs): a weighted graph ready for BFS (`P` = [`BfsSemiring`]),
    /// reachability and closure ([`OrAnd`]) or walk counts (plus-times). Shares the backend's
    /// index arrays and writes one value array per matrix on the backend
    /// ([`Objects::pattern`](crate::Objects::pattern)); nothing is uploaded.
    ///
    /// [`BfsSemiring`]: crate::BfsSemiring
    /// [`OrAnd`]: semigraph_semiring::OrAnd
    ///
    /// # Errors
    /// Memory errors of the backend.
    pub fn pattern<P: Semiring>(&self) -> Result<Graph<'b, B, P>> {
        self.derived(pattern_value::<S, P>, |m| self.backend.pattern::<S, P>(m))
    }

    /// Whether the rows are short enough for a relaxation to a fixpoint to beat steps
    /// ([`short_rows`]): road networks and grids.
    pub fn short_rows(&self) -> bool {
        short_rows(self.n, self.nnz, self.max_out)
    }

    /// A graph over this one's backend matrices seen through `matrix`, whose host CSR is this
    /// one's with every value passed through `value` (made on first use).
    fn derived<T: Semiring>(
        &self,
        value: fn(S::T) -> T::T,
        matrix: impl Fn(&B::Matrix<S>) -> Result<B::Matrix<T>>,
    ) -> Result<Graph<'b, B, T>> {
        let parent = self.host_maker();
        Ok(Graph {
            backend: self.backend,
            host: Host::Derived {
                cell: OnceLock::new(),
                make: Arc::new(move || parent().map(value)),
            },
            n: self.n,
            nnz: self.nnz,
            max_out: self.max_out,
            push: matrix(&self.push)?,
            pull: self.pull.as_ref().map(matrix).transpose()?,
            undirected: self.undirected,
            facts: OnceLock::new(),
        })
    }
    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Number of arcs (stored entries).
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// The largest out-degree (the longest row of `A`): a bound on the arcs of any frontier
    /// vertex, which traversals use to know what a step they do not watch can grow to.
    pub fn max_out_degree(&self) -> usize {
        self.max_out
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
    /// `A^T`: the pull matrix when the graph has one (nothing computed), else `A` transposed
    /// on the backend.
    ///
    /// # Errors
    /// Memory errors of the backend.
    pub fn transposed(&self) -> Result<Transposed<'_, B::Matrix<S>>> {
        Ok(match &self.pull {
            Some(p) => Transposed::Pull(p),
            None => Transposed::Made(self.backend.transpose_matrix(&self.push)?),
        })
    }

    /// `A + A^T` (the semiring's `add` where both arcs exist): the undirected graph of the
    /// arcs, as algorithms that ignore direction read it. A merge of `A` and the pull matrix
    /// when the graph has one, else a transpose on the backend too.
    ///
    /// # Errors
    /// Memory errors of the backend.
    pub fn symmetric(&self) -> Result<B::Matrix<S>> {
        match &self.pull {
            Some(at) => {
                self.backend
                    .ewise_matrix::<S, SemiringAdd<S>>(&self.push, at, Combine::Union)
            }
            None => self.backend.plus_transpose(&self.push),
        }
    }

    /// Whether every arc has its reverse (`A^T` has the pattern of `A`): checked when the
    /// graph is built with its pull matrix, `false` without one (not known). Algorithms that
    /// ignore direction then read `A` alone.
    pub fn is_undirected(&self) -> bool {
        self.undirected
    }

    /// Whether an algorithm that reads a graph either way reads this one as directed:
    /// `given`, else unless every arc has its reverse (compared when the graph was built with
    /// its pull matrix, else now: one transpose on the backend).
    ///
    /// # Errors
    /// Memory errors of the backend.
    pub fn reads_directed(&self, given: Option<bool>) -> Result<bool> {
        Ok(match given {
            Some(d) => d,
            None if self.pull.is_some() => !self.undirected,
            None => {
                let at = self.backend.transpose_matrix(&self.push)?;
                !self.backend.same_pattern(&self.push, &at)?
            }
        })
    }

    /// Layout of the pull matrix, if any.
    pub fn pull_info(&self) -> Option<MatrixInfo> {
        self.pull.as_ref().map(|m| self.backend.matrix_info(m))
    }
}

/// `A^T` of a [`Graph`] ([`Graph::transposed`]): its pull matrix, or one made for the caller.
pub enum Transposed<'g, M> {
    /// The graph's pull matrix.
    Pull(&'g M),
    /// Transposed on the backend.
    Made(M),
}

impl<M> std::ops::Deref for Transposed<'_, M> {
    type Target = M;
    fn deref(&self) -> &M {
        match self {
            Transposed::Pull(m) => m,
            Transposed::Made(m) => m,
        }
    }
}

/// Makes a graph's host CSR (for views: from the host CSR of the graph they view).
type Maker<'b, S> = Arc<dyn Fn() -> Csr<S> + Send + Sync + 'b>;

/// Where a [`Graph`]'s host CSR comes from.
/// The longest row of a CSR matrix, from its row offsets.
fn longest_row(row_ptr: &[u32]) -> usize {
    use rayon::prelude::*;
    row_ptr
        .par_windows(2)
        .with_min_len(1 << 16)
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
}

enum Host<'b, S: Semiring> {
    /// The CSR the graph was built from.
    Borrowed(&'b Csr<S>),
    /// The CSR the graph built ([`Graph::from_arcs`]), shared with its views.
    Owned(Arc<Csr<S>>),
    /// Made on first use (views and patterns).
    Derived {
        cell: OnceLock<Csr<S>>,
        make: Maker<'b, S>,
    },
}

impl<S: Semiring> Host<'_, S> {
    /// The host CSR (a view's made now if it was not).
    fn get(&self) -> &Csr<S> {
        match self {
            Host::Borrowed(a) => a,
            Host::Owned(a) => a,
            Host::Derived { cell, make } => cell.get_or_init(|| make()),
        }
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

/// Largest out-degree of a graph of [`short_rows`] (road networks and grids: at most a
/// dozen; a graph of hubs widens its frontier at once).
pub const SHORT_ROW_DEGREE: usize = 64;

/// Largest average out-degree of a graph of [`short_rows`] (road networks 2.4-2.8, grids 4):
/// past it a frontier grows by several times a step, and a fixpoint stops on a wide frontier
/// after work that the steps then redo (BFS on uniform random graphs of degree 8, H200: 0.94
/// -> 1.29 ms).
pub const SHORT_ROW_AVERAGE: usize = 5;

/// Whether a graph of `n` vertices, `nnz` arcs and largest out-degree `max_out` has short
/// rows: largest out-degree at most [`SHORT_ROW_DEGREE`], average at most
/// [`SHORT_ROW_AVERAGE`]. Its traversals advance slowly (many steps of small frontiers), so
/// a backend that relaxes to a fixpoint in one launch ([`Frontier::queue_fixpoint_fast`])
/// beats the steps there (BFS, shortest paths).
///
/// [`Frontier::queue_fixpoint_fast`]: crate::Frontier::queue_fixpoint_fast
pub fn short_rows(n: usize, nnz: usize, max_out: usize) -> bool {
    max_out <= SHORT_ROW_DEGREE && nnz <= SHORT_ROW_AVERAGE.saturating_mul(n)
}
