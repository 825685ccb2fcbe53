//! The backend interface: everything an algorithm may ask of a CPU or a GPU.
//!
//! # Model
//! A backend owns three kinds of handles, all typed by a [`Semiring`]:
//! - [`Backend::Matrix`]: a sparse matrix in one [`Format`], built from a [`Csr`];
//! - [`Backend::Dense`]: a dense `rows x cols` array, row-major. A vector is a `n x 1` array,
//!   a block of `k` vectors is `n x k`, a distance matrix is `n x n`;
//! - [`Backend::Sparse`]: a sparse vector (sorted indices and their values), the frontier of
//!   push-style algorithms;
//! - [`Backend::Queue`]: a work queue of vertices and values whose length stays where the
//!   backend computes, so that a traversal runs many steps ([`Backend::relax_step`]) before it
//!   reads anything back ([`Backend::queue_len`]).
//!
//! Handles live where the backend computes (host memory for the CPU, device memory for a GPU)
//! and stay there between calls; only the `read_*` methods bring data back.
//!
//! # Entries and zeros
//! As in GraphBLAS, a dense array has an entry at `i` unless its value is the semiring's
//! [`Semiring::zero`] (the "no entry" value: `+inf` for min-plus, `false` for or-and, `MAX`
//! for the parent semirings). Masks, [`Backend::nvals`] and [`Backend::compact`] use this rule;
//! because the zero annihilates `mul`, a missing input entry never contributes to a product.
//!
//! # Products
//! Every product calls `S::mul_at(matrix_entry, vector_entry, k)` with `k` the inner index:
//! - [`Backend::mxm`]: `y(i, c) = add_k mul(A(i, k), X(k, c), k)` (SpMV when `X` has one
//!   column, SpMM otherwise; the "pull" direction);
//! - [`Backend::vxm`]: `y(j) = add_k mul(A(k, j), x(k), k)` over the entries of a sparse `x`
//!   (SpMSpV; the "push" direction, which scatters along the rows of `A`);
//! - [`Backend::gemm`]: `C(i, j) = add_k mul(A(i, k), B(k, j), k)` on dense arrays.
//!
//! Output masks ([`Mask`]) and accumulation ([`Accum`]) follow GraphBLAS:
//! `y<mask> = accum(y, t)`: where the mask forbids, `y` keeps its value; where it allows, `y`
//! becomes `t` ([`Accum::Replace`]) or `add(y, t)` ([`Accum::Add`]).
//!
//! # Contracts
//! Shapes must agree; a mismatch is a bug in the caller and panics. Failures that depend on
//! the machine (memory, a driver, a kernel compiler) return [`Error`](crate::Error).

use semigraph_formats::{ConvertOptions, Csr, Format};
use semigraph_semiring::{MinSecondI, Semiring};

use crate::Result;

/// Where a backend computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Host CPU.
    Cpu,
    /// An NVIDIA GPU.
    Gpu,
}

/// Shape and layout of a [`Backend::Matrix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixInfo {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// Stored entries (of the CSR it was built from).
    pub nnz: usize,
    /// The format the backend stores it in.
    pub format: Format,
}

/// What [`Backend::queue_len`] reads back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueInfo {
    /// Entries in the queue.
    pub len: usize,
    /// Entries in this queue and in every queue before it along a chain of
    /// [`relax_step`](Backend::relax_step)s (the vertices a traversal has reached).
    pub total: usize,
    /// Steps with a non-empty input that led to this queue ([`Backend::relax_step`] carries the
    /// count from its input and adds one when that input had entries).
    pub steps: usize,
}

/// Work counters of a backend, for benchmarks: what a run cost beyond arithmetic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Kernels launched (0 on the CPU).
    pub launches: u64,
    /// Times the host waited for the device (reads back included; 0 on the CPU).
    pub syncs: u64,
    /// Device allocations (0 on the CPU).
    pub allocations: u64,
}

impl std::ops::Sub for Counters {
    type Output = Counters;
    fn sub(self, o: Counters) -> Counters {
        Counters {
            launches: self.launches - o.launches,
            syncs: self.syncs - o.syncs,
            allocations: self.allocations - o.allocations,
        }
    }
}

/// What a relaxation step writes besides the values and the next queue (see
/// [`Backend::relax_step`]).
pub struct StepOutputs<'a, B: Backend + ?Sized + 'a> {
    /// The witness (predecessor) of each improved vertex.
    pub parents: Option<&'a mut B::Dense<Parents>>,
    /// The step number of each improved vertex (the output queue's step count).
    pub steps: Option<&'a mut B::Dense<Parents>>,
    /// Only vertices whose `steps` entry is empty (never reached) may improve: the visited
    /// set of a traversal, as a complemented mask over the array the step writes (read before
    /// the step, like every mask).
    pub only_new: bool,
}

impl<'a, B: Backend + ?Sized + 'a> StepOutputs<'a, B> {
    /// Nothing besides the values.
    pub fn none() -> Self {
        StepOutputs {
            parents: None,
            steps: None,
            only_new: false,
        }
    }

    /// The same outputs, reborrowed for one more step.
    pub fn reborrow(&mut self) -> StepOutputs<'_, B> {
        StepOutputs {
            parents: self.parents.as_deref_mut(),
            steps: self.steps.as_deref_mut(),
            only_new: self.only_new,
        }
    }
}

/// Entries a relaxation step sets aside instead of relaxing them (see
/// [`Backend::relax_step`]): those whose value is not below `bound` (`!(x < bound)`, as the
/// `hi` of [`Backend::split_queue`]) are appended to `far` with their value, each vertex once
/// until `far` is cleared or set. The near phase of delta-stepping: a bucket's steps run back
/// to back, and the work of later buckets waits in `far`.
pub struct Defer<'a, B: Backend + ?Sized + 'a, S: Semiring> {
    /// Entries with values from here on wait.
    pub bound: S::T,
    /// Where they wait.
    pub far: &'a mut B::Queue<S>,
}

impl<'a, B: Backend + ?Sized + 'a, S: Semiring> Defer<'a, B, S> {
    /// The same deferral, reborrowed for one more step.
    pub fn reborrow(&mut self) -> Defer<'_, B, S> {
        Defer {
            bound: self.bound,
            far: &mut *self.far,
        }
    }
}

/// Arrays of vertex ids or step numbers (parents, predecessors, witnesses, levels): `u32`
/// values whose zero,
/// `u32::MAX` ([`NO_PARENT`](crate::NO_PARENT)), means "none".
pub type Parents = MinSecondI<u32>;

/// How a result is combined with the existing output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Accum {
    /// `y = t` where the mask allows.
    #[default]
    Replace,
    /// `y = add(y, t)` where the mask allows.
    Add,
}

/// A binary element-wise operation of the semiring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ewise {
    /// `add(y, x)`.
    Add,
    /// `mul(y, x)` (index argument 0).
    Mul,
}

/// A unary operation applied to every allowed entry of a dense array.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryOp<T> {
    /// `y = c` everywhere the mask allows (also where `y` had no entry).
    Fill(T),
    /// `y = mul(y, c)` (index argument 0): scales, or shifts in min-plus.
    MulBy(T),
    /// `y = add(y, c)`.
    AddTo(T),
}

/// An output mask over a dense array of any semiring (see the module docs for what an entry
/// is).
pub enum Mask<'a, B: Backend + ?Sized + 'a> {
    /// Every position.
    All,
    /// Only positions where the mask array has an entry.
    Keep(B::MaskRef<'a>),
    /// Only positions where the mask array has no entry (a complemented mask).
    Skip(B::MaskRef<'a>),
}

impl<'a, B: Backend + ?Sized + 'a> Clone for Mask<'a, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a, B: Backend + ?Sized + 'a> Copy for Mask<'a, B> {}

impl<B: Backend + ?Sized> std::fmt::Debug for Mask<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mask::All => "All",
            Mask::Keep(_) => "Keep",
            Mask::Skip(_) => "Skip",
        })
    }
}

/// Everything an algorithm may ask of a backend.
///
/// Implemented by [`CpuBackend`](crate::CpuBackend) here and by the GPU backend of
/// `semigraph-gpu`. The shared test suite (`tests/backend.rs`) runs every method on every
/// format and built-in semiring, so a new backend is checked against the CPU one by adding
/// one line there.
pub trait Backend: Send + Sync {
    /// A sparse matrix of semiring `S`.
    type Matrix<S: Semiring>: Send + Sync;
    /// A dense row-major array of semiring `S`.
    type Dense<S: Semiring>: Send + Sync;
    /// A sparse vector of semiring `S` (indices sorted, no duplicates).
    type Sparse<S: Semiring>: Send + Sync;
    /// A work queue of semiring `S`: vertex ids below its `n` with a value each, in no order,
    /// and a length that stays where the backend computes.
    type Queue<S: Semiring>: Send + Sync;
    /// A borrowed view of a dense array of any semiring, used as a mask.
    type MaskRef<'a>: Copy
    where
        Self: 'a;

    /// A short description, e.g. `cpu (rayon, 8 threads)`.
    fn name(&self) -> String;
    /// CPU or GPU.
    fn kind(&self) -> BackendKind;

    // ---- data movement -------------------------------------------------------------------

    /// Builds a matrix in `format` from `a`, within the fill limits of `opts`.
    fn matrix<S: Semiring>(
        &self,
        a: &Csr<S>,
        format: Format,
        opts: &ConvertOptions,
    ) -> Result<Self::Matrix<S>>;
    /// Shape, entry count and format of `a`.
    fn matrix_info<S: Semiring>(&self, a: &Self::Matrix<S>) -> MatrixInfo;
    /// A `rows x cols` array from row-major `data` (`data.len() == rows * cols`).
    fn dense<S: Semiring>(&self, rows: usize, cols: usize, data: &[S::T])
    -> Result<Self::Dense<S>>;
    /// A `rows x cols` array with every value `value`.
    fn dense_filled<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        value: S::T,
    ) -> Result<Self::Dense<S>>;
    /// `(rows, cols)` of `x`.
    fn dense_shape<S: Semiring>(&self, x: &Self::Dense<S>) -> (usize, usize);
    /// The values of `x`, row-major.
    fn read_dense<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Vec<S::T>>;
    /// `x^T`: the `cols x rows` transpose of the `rows x cols` array `x` (`GrB_transpose` of a
    /// dense matrix), e.g. to turn a block of per-vertex columns into per-source rows.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(2, 3, &[1, 2, 3, 4, 5, 6])?;
    /// let t = b.transpose(&x)?;
    /// assert_eq!(b.dense_shape(&t), (3, 2));
    /// assert_eq!(b.read_dense(&t)?, vec![1, 4, 2, 5, 3, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn transpose<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Self::Dense<S>>;
    /// Sets the value at flat (row-major) position `i`.
    fn set<S: Semiring>(&self, x: &mut Self::Dense<S>, i: usize, value: S::T) -> Result<()>;
    /// A sparse vector of length `n` from sorted, distinct `idx` and their `vals`.
    fn sparse<S: Semiring>(&self, n: usize, idx: &[u32], vals: &[S::T]) -> Result<Self::Sparse<S>>;
    /// Number of entries of `x`.
    fn sparse_nnz<S: Semiring>(&self, x: &Self::Sparse<S>) -> usize;
    /// Indices and values of `x`.
    fn read_sparse<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<(Vec<u32>, Vec<S::T>)>;
    /// A dense `n x 1` array with the entries of `x` and zero elsewhere.
    fn to_dense<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<Self::Dense<S>>;
    /// The entries of `x` (flat positions) as a sparse vector: frontier compaction.
    fn compact<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Self::Sparse<S>>;
    /// A mask view of `m`.
    fn mask<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Self::MaskRef<'a>;

    // ---- products ------------------------------------------------------------------------

    /// `y<mask> = accum(y, A (+).(x) X)`: SpMV (`X` is `n x 1`) or SpMM (`X` is `n x k`).
    fn mxm<S: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &Self::Matrix<S>,
        x: &Self::Dense<S>,
    ) -> Result<()>;
    /// `x (+).(x) A` for a sparse `x`, keeping only output positions the mask allows
    /// (SpMSpV, push). The result holds the non-zero outputs.
    fn vxm<S: Semiring>(
        &self,
        x: &Self::Sparse<S>,
        a: &Self::Matrix<S>,
        mask: Mask<'_, Self>,
    ) -> Result<Self::Sparse<S>>;
    /// `C<mask> = accum(C, A (+).(x) B)` on dense arrays (semiring GEMM): `A` is `m x k`, `B`
    /// `k x n`, `C` and the mask (any semiring) `m x n`, all row-major. Outputs the mask
    /// excludes keep their value.
    ///
    /// ```
    /// use semigraph_algos::{Accum, Backend, CpuBackend, Mask};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX;
    /// // Two steps of a min-plus path: D (x) D, only where the mask has an entry.
    /// let d = b.dense::<MinPlus<i32>>(2, 2, &[0, 3, inf, 0])?;
    /// let mut c = b.dense::<MinPlus<i32>>(2, 2, &[7, 7, 7, 7])?;
    /// let m = b.dense::<OrAnd>(2, 2, &[true, false, true, true])?;
    /// b.gemm(&mut c, b.keep(&m), Accum::Replace, &d, &d)?;
    /// assert_eq!(b.read_dense(&c)?, vec![0, 7, inf, 0]);
    /// // Accumulating: C = min(C, D (x) D) everywhere.
    /// let mut c = b.dense::<MinPlus<i32>>(2, 2, &[7, 7, 7, 7])?;
    /// b.gemm(&mut c, Mask::All, Accum::Add, &d, &d)?;
    /// assert_eq!(b.read_dense(&c)?, vec![0, 3, 7, 0]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn gemm<S: Semiring>(
        &self,
        c: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &Self::Dense<S>,
        b: &Self::Dense<S>,
    ) -> Result<()>;

    // ---- element-wise --------------------------------------------------------------------

    /// `y<mask> = op(y, x)`, same shapes.
    fn ewise<S: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &Self::Dense<S>,
    ) -> Result<()>;
    /// `y<mask> = op(y)`.
    fn apply<S: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> Result<()>;
    /// `y(i) = value` for every entry `i` of the sparse `at` (of any semiring).
    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        at: &Self::Sparse<M>,
        value: S::T,
    ) -> Result<()>;

    // ---- reductions and change detection -------------------------------------------------

    /// `add` over the allowed positions of `x` (the zero if none).
    fn reduce<S: Semiring>(&self, x: &Self::Dense<S>, mask: Mask<'_, Self>) -> Result<S::T>;
    /// `add` over the entries of a sparse `x`.
    fn reduce_sparse<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<S::T>;
    /// Number of entries (non-zero values) of `x`.
    fn nvals<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<usize>;
    /// Relaxation, "did anything change": for each entry `(i, v)` of `t` where
    /// [`Semiring::improves`]`(d(i), v)`, sets `d(i) = add(d(i), v)`; returns those entries
    /// with their new values.
    fn improve<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Sparse<S>,
    ) -> Result<Self::Sparse<S>>;
    /// The dense form of [`Backend::improve`]: relaxes `d` by every position of `t` and
    /// returns how many positions improved.
    fn improve_dense<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Dense<S>,
    ) -> Result<usize>;
    /// `a (+) b` for sparse vectors (the union; `add` where both have an entry).
    fn union<S: Semiring>(
        &self,
        a: &Self::Sparse<S>,
        b: &Self::Sparse<S>,
    ) -> Result<Self::Sparse<S>>;
    /// The entries of `x` whose value `v` lies in `[lo, hi)` in the value type's order
    /// (`!(v < lo) && v < hi`): a value-range selection, e.g. the buckets of delta-stepping.
    fn select_range<S: Semiring>(
        &self,
        x: &Self::Sparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> Result<Self::Sparse<S>>;
    /// The witnesses of a push product: for each entry `j` of `at` (a sparse vector of any
    /// semiring), `p(j)` becomes the smallest `k` among the entries of `x` whose product term
    /// `mul_at(A(k, j), x(k), k)` is not the zero and equals `d(j)` bit for bit, or
    /// [`NO_PARENT`](crate::NO_PARENT) if there is none. Other positions of `p` keep their
    /// values.
    ///
    /// After `t = x (+).(x) A` and `changed = improve(d, t)` in a selecting semiring (min-plus,
    /// max-min, ...), the witnesses of `changed` are the vertices each improvement came from:
    /// the predecessors of shortest paths, or the parents of a traversal.
    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut Self::Dense<Parents>,
        x: &Self::Sparse<S>,
        a: &Self::Matrix<S>,
        d: &Self::Dense<S>,
        at: &Self::Sparse<M>,
    ) -> Result<()>;

    // ---- work queues: traversals that do not wait on the host -----------------------------

    /// An empty queue for vertices `0..n` (it holds at most `n` entries from one
    /// [`relax_step`](Backend::relax_step); appends may add more, up to `2n`).
    fn queue<S: Semiring>(&self, n: usize) -> Result<Self::Queue<S>>;
    /// Replaces the entries of `q` by `idx` (below its `n`) with `vals`, its step count by
    /// `steps`, and its running total by `idx.len()`.
    fn queue_set<S: Semiring>(
        &self,
        q: &mut Self::Queue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> Result<()>;
    /// The length and step count of `q`. The one queue operation that waits for the backend
    /// (on a GPU: a host synchronisation); loops call it every few steps, not every step.
    fn queue_len<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<QueueInfo>;
    /// The entries of `q`, sorted by index (ties by value order of insertion).
    fn read_queue<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<(Vec<u32>, Vec<S::T>)>;
    /// One relaxation step from a queue into a queue, without waiting for the host: for each
    /// entry `(k, x)` of `from` and arc `(k, j)` of `A` that the mask allows (the mask is read
    /// as it was before the step), the term `t = mul_at(A(k, j), x, k)`; where a term
    /// [improves](Semiring::improves) `d(j)`, `d(j) = add(d(j), t)`. `to` is cleared, then
    /// receives each improved `j` once, with its final `d(j)`. Its step count is `from`'s,
    /// plus one if `from` had entries; its total is `from`'s plus its own length. With
    /// `out.parents`, `p(j)` becomes the smallest `k` whose term is `d(j)` bit for bit (the
    /// [`witness`](Backend::witness)); with `out.steps`, `s(j)` becomes `to`'s step count
    /// (BFS levels, the round of each last change); with `out.only_new`, only vertices whose
    /// `steps` entry is empty may improve. Outputs are written after the masks were read.
    /// With `defer`, the entries of `from` whose value is not below its bound are appended to
    /// its `far` queue instead of being relaxed ([`Defer`]).
    ///
    /// Defined for selecting semirings (min-plus, max-min, or-and, min-secondi, ...) whose
    /// [`Semiring::improves`] is the default ("`add` changes the value"), where it equals
    /// [`relax`](Backend::relax) on the same entries: SpMSpV, `improve` and `witness` fused,
    /// with work proportional to the arcs of `from`. An empty `from` makes it a no-op.
    #[allow(clippy::too_many_arguments)]
    fn relax_step<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        out: StepOutputs<'_, Self>,
        from: &Self::Queue<S>,
        a: &Self::Matrix<S>,
        mask: Mask<'_, Self>,
        defer: Option<Defer<'_, Self, S>>,
        to: &mut Self::Queue<S>,
    ) -> Result<()>;
    /// Up to `max_steps` [`relax_step`](Backend::relax_step)s from `q`, with `spare` as the
    /// other queue (`A` square: each step's output is the next one's input); the frontier ends in `q` either way, and its step count says how many
    /// steps ran. A backend may stop early: before a step whose input has more than `limit`
    /// entries, once the frontier is empty, or for reasons of its own (a GPU runs a small
    /// frontier's steps in one launch of one block, which ends once the frontier outgrows the
    /// block). After a call that ran no step, reading the length
    /// ([`queue_len`](Backend::queue_len)) and calling again runs at least one (unless the
    /// frontier is empty or over `limit`), so a caller that loops on the length progresses.
    /// The provided version runs every step. `defer` applies to every step.
    #[allow(clippy::too_many_arguments)]
    fn relax_steps<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        mut out: StepOutputs<'_, Self>,
        q: &mut Self::Queue<S>,
        spare: &mut Self::Queue<S>,
        a: &Self::Matrix<S>,
        mask: Mask<'_, Self>,
        mut defer: Option<Defer<'_, Self, S>>,
        max_steps: usize,
        limit: usize,
    ) -> Result<()> {
        let _ = limit;
        let info = self.matrix_info(a);
        assert_eq!(info.nrows, info.ncols, "relax_steps: A must be square");
        for _ in 0..max_steps {
            let df = defer.as_mut().map(Defer::reborrow);
            self.relax_step(d, out.reborrow(), q, a, mask, df, spare)?;
            std::mem::swap(q, spare);
        }
        Ok(())
    }
    /// `y(i) = value` for every entry `i` of `q` (of any semiring).
    fn assign_queue<S: Semiring, M: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        q: &Self::Queue<M>,
        value: S::T,
    ) -> Result<()>;
    /// Routes each vertex `i` of `from` by its current value `v = d(i)`: `lo <= v < hi`
    /// appends `(i, v)` to `inside`, `v >= hi` (and any `v` not ordered against `lo`/`hi`) to
    /// `outside` (dropped if `None`), `v < lo` drops it; a queue that receives appends holds
    /// each vertex once until it is cleared, set or written by a step. Each receiving queue's
    /// step count becomes the larger of its own and `from`'s. The near/far split of
    /// delta-stepping: `lo` is the last threshold (vertices below it were settled).
    #[allow(clippy::too_many_arguments)]
    fn split_queue<S: Semiring>(
        &self,
        from: &Self::Queue<S>,
        d: &Self::Dense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut Self::Queue<S>,
        outside: Option<&mut Self::Queue<S>>,
    ) -> Result<()>;
    /// `add` over the values of `q` (the zero if it is empty; the smallest for min-plus), with
    /// the queue's length: one read-back.
    fn reduce_queue<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<(QueueInfo, S::T)>;
    /// The length of `q` (as [`queue_len`](Backend::queue_len)) and the number of entries of
    /// `a` in the rows of its vertices: the arcs a push step from `q` would scan, which
    /// direction-optimising traversals weigh against the arcs a pull step would scan. One
    /// read-back, as `queue_len`.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, BfsSemiring, CpuBackend, Graph, GraphOptions};
    ///
    /// let a = arcs_to_csr::<BfsSemiring>(3, &[(0, 1, 0), (0, 2, 0), (1, 2, 0)])?;
    /// let cpu = CpuBackend::new();
    /// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
    /// let mut q = cpu.queue::<BfsSemiring>(3)?;
    /// cpu.queue_set(&mut q, &[0, 2], &[0, 2], 0)?;
    /// let (info, arcs) = cpu.queue_arcs(&q, g.push())?;
    /// assert_eq!((info.len, arcs), (2, 2)); // two arcs leave vertex 0, none vertex 2
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &Self::Queue<S>,
        a: &Self::Matrix<M>,
    ) -> Result<(QueueInfo, usize)>;
    /// Clears `q` (no read-back).
    fn queue_clear<S: Semiring>(&self, q: &mut Self::Queue<S>) -> Result<()>;
    /// The dense relaxation of [`improve_dense`](Backend::improve_dense), enqueueing what
    /// improved: `to` is cleared and receives every `i` where `t(i)` improves `d(i)`, with the
    /// new `d(i)`; its step count becomes `steps`. No read-back.
    fn improve_dense_queue<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Dense<S>,
        to: &mut Self::Queue<S>,
        steps: usize,
    ) -> Result<()>;
    /// `x(i) = v` for every entry `(i, v)` of `q`, all other positions the zero: a queue as a
    /// dense vector (for pull steps).
    fn queue_to_dense<S: Semiring>(&self, q: &Self::Queue<S>, x: &mut Self::Dense<S>)
    -> Result<()>;

    // ---- provided ------------------------------------------------------------------------

    /// Work counters so far (kernel launches, host synchronisations, device allocations); all
    /// zero for a backend that has none (the CPU).
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// Waits until every queued operation has finished (a GPU queues work asynchronously;
    /// the CPU computes in the call, so its default does nothing). Time a call with a host
    /// clock only around the call *and* a `synchronize`.
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    /// [`Mask::Keep`] of `m`.
    fn keep<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Mask<'a, Self> {
        Mask::Keep(self.mask(m))
    }
    /// [`Mask::Skip`] of `m` (the complement).
    fn skip<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Mask<'a, Self> {
        Mask::Skip(self.mask(m))
    }
    /// One relaxation step from the frontier `x`: `t = x (+).(x) A` (SpMSpV, masked),
    /// `changed = improve(d, t)`, and, with `parents`, the [`witness`](Backend::witness) of
    /// every changed position (the frontier vertex its new value came from). Returns
    /// `changed` with the new values: the next frontier.
    ///
    /// The provided version composes the three operations; a backend may fuse them.
    fn relax<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        parents: Option<&mut Self::Dense<Parents>>,
        x: &Self::Sparse<S>,
        a: &Self::Matrix<S>,
        mask: Mask<'_, Self>,
    ) -> Result<Self::Sparse<S>> {
        let t = self.vxm(x, a, mask)?;
        let changed = self.improve(d, &t)?;
        if let Some(p) = parents {
            self.witness(p, x, a, d, &changed)?;
        }
        Ok(changed)
    }

    /// An `n x 1` array of zeros (no entries) with `value` at `i`.
    fn unit<S: Semiring>(&self, n: usize, i: usize, value: S::T) -> Result<Self::Dense<S>> {
        let mut x = self.dense_filled::<S>(n, 1, S::zero())?;
        self.set::<S>(&mut x, i, value)?;
        Ok(x)
    }
}
