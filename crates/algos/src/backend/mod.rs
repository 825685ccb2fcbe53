//! The backend interface: everything an algorithm may ask of a CPU or a GPU.
//!
//! # Model
//! A backend owns three kinds of handles, all typed by a [`Semiring`]:
//! - [`Backend::Matrix`]: a sparse matrix in one [`Format`], built from a [`Csr`];
//! - [`Backend::Dense`]: a dense `rows x cols` array, row-major. A vector is a `n x 1` array,
//!   a block of `k` vectors is `n x k`, a distance matrix is `n x n`;
//! - [`Backend::Sparse`]: a sparse vector (sorted indices and their values), the frontier of
//!   push-style algorithms;
//! - [`Frontier::Queue`] (the [`Frontier`] trait, opt-in plumbing beside the algebra): a work queue of vertices and values whose length stays where the
//!   backend computes, so that a traversal runs many steps ([`Frontier::queue_relax`]) before it
//!   reads anything back ([`Frontier::queue_len`]).
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

mod frontier;
mod types;

pub use types::{
    Accum, BackendKind, Counters, Defer, Ewise, Mask, MatrixInfo, NO_PARENT, Parents, QueueInfo,
    StepOutputs, UNREACHED, UnaryOp,
};

use semigraph_formats::{ConvertOptions, Csr, Format};
use semigraph_semiring::Semiring;

use crate::error::Result;

pub use frontier::Frontier;

/// Everything an algorithm may ask of a backend.
///
/// Implemented by [`CpuBackend`](crate::CpuBackend) here and by the GPU backend of
/// `semigraph-gpu`. The shared test suite (`semigraph_testkit::backend_suite`) runs every method on every
/// format and built-in semiring, so a new backend is checked against the CPU one by adding
/// one line there.
pub trait Backend: Send + Sync {
    /// A sparse matrix of semiring `S`.
    type Matrix<S: Semiring>: Send + Sync;
    /// A dense row-major array of semiring `S`.
    type Dense<S: Semiring>: Send + Sync;
    /// A sparse vector of semiring `S` (indices sorted, no duplicates).
    type Sparse<S: Semiring>: Send + Sync;
    /// A borrowed view of a dense array of any semiring, used as a mask.
    type MaskRef<'a>: Copy
    where
        Self: 'a;

    /// A short description, e.g. `cpu (rayon, 8 threads)`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// assert!(b.name().starts_with("cpu"));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn name(&self) -> String;
    /// CPU or GPU.
    ///
    /// ```
    /// use semigraph_algos::{Backend, BackendKind, CpuBackend};
    ///
    /// let b = CpuBackend::new();
    /// assert_eq!(b.kind(), BackendKind::Cpu);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn kind(&self) -> BackendKind;

    // ---- data movement -------------------------------------------------------------------

    /// Builds a matrix in `format` from `a`, within the fill limits of `opts`.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?;
    /// let m = b.matrix(&a, Format::Coo, &ConvertOptions::default())?;
    /// assert_eq!(b.matrix_info(&m).format, Format::Coo);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn matrix<S: Semiring>(
        &self,
        a: &Csr<S>,
        format: Format,
        opts: &ConvertOptions,
    ) -> Result<Self::Matrix<S>>;
    /// Shape, entry count and format of `a`.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?;
    /// let info = b.matrix_info(&b.matrix(&a, Format::Csr, &ConvertOptions::default())?);
    /// assert_eq!((info.nrows, info.ncols, info.nnz), (3, 3, 2));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn matrix_info<S: Semiring>(&self, a: &Self::Matrix<S>) -> MatrixInfo;
    /// `a` seen through another semiring `S2` of the same value type: the same entries in the
    /// same format, combined by `S2`'s operations; stored values equal to `S`'s zero (padding
    /// of ELL, DIA, HYB and dense) become `S2`'s zero
    /// ([`view_value`](semigraph_formats::view_value)). One graph's weights serve min-plus
    /// shortest paths and max-min widest paths without a second conversion or upload.
    ///
    /// Cost: where the two zeros are the same bits (min-plus and min-max, max-plus and
    /// max-min), a GPU shares all of `a`'s device memory (no transfer, no allocation, no
    /// launch); otherwise it shares the index arrays and writes one new value array on the
    /// device. Device memory is freed with the last matrix that uses it. The CPU backend copies
    /// the stored values (no conversion).
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Accum, Backend, CpuBackend, Mask};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{MaxMin, MinPlus};
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 0 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (0, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let w = b.view::<_, MaxMin<i32>>(&a)?;
    /// // y(i) = max_k min(A(i, k), x(k)): the widest way out of each vertex.
    /// let x = b.dense::<MaxMin<i32>>(3, 1, &[9, 9, 9])?;
    /// let mut y = b.dense_filled::<MaxMin<i32>>(3, 1, 0)?;
    /// b.mxm(&mut y, Mask::All, Accum::Replace, &w, &x)?;
    /// assert_eq!(b.read_dense(&y)?, vec![4, i32::MIN, i32::MIN]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn view<S: Semiring, S2: Semiring<T = S::T>>(
        &self,
        a: &Self::Matrix<S>,
    ) -> Result<Self::Matrix<S2>>;
    /// The pattern of `a` in semiring `P`, same format and layout: every entry becomes
    /// `P::one()`, padding and entries equal to `S`'s zero become `P::zero()`
    /// ([`pattern_value`](semigraph_formats::pattern_value)). One graph's weighted matrix then
    /// also serves BFS (a parent semiring) and reachability (or-and).
    ///
    /// Cost: a GPU shares `a`'s index arrays and writes one array of `P` values on the device
    /// (one element per stored value of `a`, no transfer); the CPU backend copies.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend, Mask};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1), in ELL.
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Ell, &ConvertOptions::default())?;
    /// let p = b.pattern::<_, OrAnd>(&a)?;
    /// // Where one step from {0, 1} leads.
    /// let x = b.sparse::<OrAnd>(3, &[0, 1], &[true, true])?;
    /// assert_eq!(b.read_sparse(&b.vxm(&x, &p, Mask::All)?)?, (vec![1, 2], vec![true, true]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn pattern<S: Semiring, P: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Matrix<P>>;
    /// A `rows x cols` array from row-major `data` (`data.len() == rows * cols`).
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(2, 3, &[1, 2, 3, 4, 5, 6])?;
    /// assert_eq!(b.dense_shape(&x), (2, 3));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn dense<S: Semiring>(&self, rows: usize, cols: usize, data: &[S::T])
    -> Result<Self::Dense<S>>;
    /// A `rows x cols` array with every value `value`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense_filled::<MinPlus<i32>>(1, 3, 7)?;
    /// assert_eq!(b.read_dense(&x)?, vec![7, 7, 7]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn dense_filled<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        value: S::T,
    ) -> Result<Self::Dense<S>>;
    /// `(rows, cols)` of `x`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense_filled::<MinPlus<i32>>(4, 2, 0)?;
    /// assert_eq!(b.dense_shape(&x), (4, 2));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn dense_shape<S: Semiring>(&self, x: &Self::Dense<S>) -> (usize, usize);
    /// The values of `x`, row-major.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(2, 2, &[1, 2, 3, 4])?;
    /// assert_eq!(b.read_dense(&x)?, vec![1, 2, 3, 4]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
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
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let mut x = b.dense_filled::<MinPlus<i32>>(3, 1, inf)?;
    /// b.set::<MinPlus<i32>>(&mut x, 1, 5)?;
    /// assert_eq!(b.read_dense(&x)?, vec![inf, 5, inf]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn set<S: Semiring>(&self, x: &mut Self::Dense<S>, i: usize, value: S::T) -> Result<()>;
    /// A sparse vector of length `n` from sorted, distinct `idx` and their `vals`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let s = b.sparse::<MinPlus<i32>>(5, &[1, 3], &[10, 30])?;
    /// assert_eq!(b.read_sparse(&s)?, (vec![1, 3], vec![10, 30]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn sparse<S: Semiring>(&self, n: usize, idx: &[u32], vals: &[S::T]) -> Result<Self::Sparse<S>>;
    /// Number of entries of `x`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let s = b.sparse::<MinPlus<i32>>(5, &[1, 3], &[10, 30])?;
    /// assert_eq!(b.sparse_nnz(&s), 2);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn sparse_nnz<S: Semiring>(&self, x: &Self::Sparse<S>) -> usize;
    /// Indices and values of `x`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let s = b.sparse::<MinPlus<i32>>(4, &[0, 2], &[7, 9])?;
    /// let (idx, vals) = b.read_sparse(&s)?;
    /// assert_eq!((idx, vals), (vec![0, 2], vec![7, 9]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn read_sparse<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<(Vec<u32>, Vec<S::T>)>;
    /// A dense `n x 1` array with the entries of `x` and zero elsewhere.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let s = b.sparse::<MinPlus<i32>>(4, &[1, 3], &[10, 30])?;
    /// assert_eq!(b.read_dense(&b.to_dense(&s)?)?, vec![inf, 10, inf, 30]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn to_dense<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<Self::Dense<S>>;
    /// The entries of `x` (flat positions) as a sparse vector: frontier compaction.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let x = b.dense::<MinPlus<i32>>(4, 1, &[inf, 2, inf, 5])?;
    /// assert_eq!(b.read_sparse(&b.compact(&x)?)?, (vec![1, 3], vec![2, 5]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn compact<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Self::Sparse<S>>;
    /// A mask view of `m`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, Mask, UnaryOp};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// // Entries of an or-and array (`true`) allow; the view works for any semiring.
    /// let m = b.dense::<OrAnd>(3, 1, &[true, false, true])?;
    /// let mut y = b.dense_filled::<MinPlus<i32>>(3, 1, 9)?;
    /// b.apply(&mut y, Mask::Keep(b.mask(&m)), UnaryOp::Fill(1))?;
    /// assert_eq!(b.read_dense(&y)?, vec![1, 9, 1]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn mask<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Self::MaskRef<'a>;

    // ---- products ------------------------------------------------------------------------

    /// `y<mask> = accum(y, A (+).(x) X)`: SpMV (`X` is `n x 1`) or SpMM (`X` is `n x k`).
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Accum, Backend, CpuBackend, Mask};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// // y(i) = min_k A(i, k) + x(k): the best way out of each vertex.
    /// let x = b.dense::<MinPlus<i32>>(3, 1, &[0, 10, 20])?;
    /// let mut y = b.dense_filled::<MinPlus<i32>>(3, 1, 0)?;
    /// b.mxm(&mut y, Mask::All, Accum::Replace, &a, &x)?;
    /// assert_eq!(b.read_dense(&y)?, vec![14, 21, i32::MAX]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
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
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend, Mask};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// // One push step from vertex 0 at distance 0: y(j) = min_k x(k) + A(k, j).
    /// let x = b.sparse::<MinPlus<i32>>(3, &[0], &[0])?;
    /// let y = b.vxm(&x, &a, Mask::All)?;
    /// assert_eq!(b.read_sparse(&y)?, (vec![1], vec![4]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
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
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, Ewise, Mask};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut y = b.dense::<MinPlus<i32>>(2, 1, &[1, 5])?;
    /// let x = b.dense::<MinPlus<i32>>(2, 1, &[3, 2])?;
    /// b.ewise(&mut y, Mask::All, Ewise::Add, &x)?; // min
    /// assert_eq!(b.read_dense(&y)?, vec![1, 2]);
    /// b.ewise(&mut y, Mask::All, Ewise::Mul, &x)?; // +
    /// assert_eq!(b.read_dense(&y)?, vec![4, 4]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn ewise<S: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &Self::Dense<S>,
    ) -> Result<()>;
    /// `y<mask> = op(y)`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, Mask, UnaryOp};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut y = b.dense::<MinPlus<i32>>(3, 1, &[1, 5, i32::MAX])?;
    /// b.apply(&mut y, Mask::All, UnaryOp::MulBy(10))?; // min-plus's multiply adds
    /// assert_eq!(b.read_dense(&y)?, vec![11, 15, i32::MAX]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn apply<S: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> Result<()>;
    /// `y(i) = value` for every entry `i` of the sparse `at` (of any semiring).
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let mut levels = b.dense_filled::<MinPlus<i32>>(4, 1, 9)?;
    /// let frontier = b.sparse::<OrAnd>(4, &[1, 3], &[true, true])?;
    /// b.assign_at(&mut levels, &frontier, 2)?;
    /// assert_eq!(b.read_dense(&levels)?, vec![9, 2, 9, 2]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        at: &Self::Sparse<M>,
        value: S::T,
    ) -> Result<()>;

    // ---- reductions and change detection -------------------------------------------------

    /// `add` over the allowed positions of `x` (the zero if none).
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, Mask};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(3, 1, &[4, 2, 7])?;
    /// assert_eq!(b.reduce(&x, Mask::All)?, 2);
    /// let m = b.dense::<OrAnd>(3, 1, &[true, false, true])?;
    /// assert_eq!(b.reduce(&x, b.keep(&m))?, 4);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn reduce<S: Semiring>(&self, x: &Self::Dense<S>, mask: Mask<'_, Self>) -> Result<S::T>;
    /// `add` over the entries of a sparse `x`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let s = b.sparse::<MinPlus<i32>>(5, &[1, 3], &[10, 30])?;
    /// assert_eq!(b.reduce_sparse(&s)?, 10);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn reduce_sparse<S: Semiring>(&self, x: &Self::Sparse<S>) -> Result<S::T>;
    /// Number of entries (non-zero values) of `x`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(4, 1, &[i32::MAX, 2, i32::MAX, 5])?;
    /// assert_eq!(b.nvals(&x)?, 2);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn nvals<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<usize>;
    /// Relaxation, "did anything change": for each entry `(i, v)` of `t` where
    /// [`Semiring::improves`]`(d(i), v)`, sets `d(i) = add(d(i), v)`; returns those entries
    /// with their new values.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[inf, 5, 3])?;
    /// let t = b.sparse::<MinPlus<i32>>(3, &[1, 2], &[4, 6])?;
    /// let changed = b.improve(&mut d, &t)?;
    /// assert_eq!(b.read_sparse(&changed)?, (vec![1], vec![4]));
    /// assert_eq!(b.read_dense(&d)?, vec![inf, 4, 3]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn improve<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Sparse<S>,
    ) -> Result<Self::Sparse<S>>;
    /// The dense form of [`Backend::improve`]: relaxes `d` by every position of `t` and
    /// returns how many positions improved.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[inf, 5, 3])?;
    /// let t = b.dense::<MinPlus<i32>>(3, 1, &[1, 4, 3])?;
    /// assert_eq!(b.improve_dense(&mut d, &t)?, 2);
    /// assert_eq!(b.read_dense(&d)?, vec![1, 4, 3]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn improve_dense<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Dense<S>,
    ) -> Result<usize>;
    /// `a (+) b` for sparse vectors (the union; `add` where both have an entry).
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.sparse::<MinPlus<i32>>(4, &[0, 2], &[5, 1])?;
    /// let y = b.sparse::<MinPlus<i32>>(4, &[2, 3], &[0, 7])?;
    /// assert_eq!(b.read_sparse(&b.union(&x, &y)?)?, (vec![0, 2, 3], vec![5, 0, 7]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn union<S: Semiring>(
        &self,
        a: &Self::Sparse<S>,
        b: &Self::Sparse<S>,
    ) -> Result<Self::Sparse<S>>;
    /// The entries of `x` whose value `v` lies in `[lo, hi)` in the value type's order
    /// (`!(v < lo) && v < hi`): a value-range selection, e.g. the buckets of delta-stepping.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.sparse::<MinPlus<i32>>(3, &[0, 1, 2], &[3, 10, 20])?;
    /// let bucket = b.select_range(&x, 5, 15)?;
    /// assert_eq!(b.read_sparse(&bucket)?, (vec![1], vec![10]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn select_range<S: Semiring>(
        &self,
        x: &Self::Sparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> Result<Self::Sparse<S>>;
    /// The witnesses of a push product: for each entry `j` of `at` (a sparse vector of any
    /// semiring), `p(j)` becomes the smallest `k` among the entries of `x` whose product term
    /// `mul_at(A(k, j), x(k), k)` is not the zero and equals `d(j)` bit for bit, or
    /// [`NO_PARENT`] if there is none. Other positions of `p` keep their
    /// values.
    ///
    /// After `t = x (+).(x) A` and `changed = improve(d, t)` in a selecting semiring (min-plus,
    /// max-min, ...), the witnesses of `changed` are the vertices each improvement came from:
    /// the predecessors of shortest paths, or the parents of a traversal.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend, Mask, Parents, NO_PARENT};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Vertices 0 and 1 both reach 2 at distance 1; the witness is the smaller.
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 2, 1), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let x = b.sparse::<MinPlus<i32>>(3, &[0, 1], &[0, 0])?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, 0, i32::MAX])?;
    /// let changed = b.improve(&mut d, &b.vxm(&x, &a, Mask::All)?)?;
    /// let mut p = b.dense_filled::<Parents>(3, 1, NO_PARENT)?;
    /// b.witness(&mut p, &x, &a, &d, &changed)?;
    /// assert_eq!(b.read_dense(&p)?, vec![NO_PARENT, NO_PARENT, 0]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut Self::Dense<Parents>,
        x: &Self::Sparse<S>,
        a: &Self::Matrix<S>,
        d: &Self::Dense<S>,
        at: &Self::Sparse<M>,
    ) -> Result<()>;

    // ---- provided ------------------------------------------------------------------------

    /// Work counters so far (kernel launches, host synchronisations, device allocations); all
    /// zero for a backend that has none (the CPU).
    ///
    /// ```
    /// use semigraph_algos::{Backend, Counters, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let before = b.counters();
    /// let _x = b.dense_filled::<MinPlus<i32>>(3, 1, 0)?;
    /// // The CPU launches nothing and never waits: every counter stays zero.
    /// assert_eq!(b.counters() - before, Counters::default());
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn counters(&self) -> Counters {
        Counters::default()
    }

    /// Waits until every queued operation has finished (a GPU queues work asynchronously;
    /// the CPU computes in the call, so its default does nothing). Time a call with a host
    /// clock only around the call *and* a `synchronize`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, Mask, UnaryOp};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut y = b.dense_filled::<MinPlus<i32>>(3, 1, 4)?;
    /// b.apply(&mut y, Mask::All, UnaryOp::AddTo(2))?;
    /// b.synchronize()?; // on a GPU: the apply has finished here
    /// assert_eq!(b.read_dense(&y)?, vec![2, 2, 2]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    /// [`Mask::Keep`] of `m`.
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, UnaryOp};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let m = b.dense::<OrAnd>(3, 1, &[true, false, true])?;
    /// let mut y = b.dense_filled::<MinPlus<i32>>(3, 1, 9)?;
    /// b.apply(&mut y, b.keep(&m), UnaryOp::Fill(1))?;
    /// assert_eq!(b.read_dense(&y)?, vec![1, 9, 1]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn keep<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Mask<'a, Self> {
        Mask::Keep(self.mask(m))
    }
    /// [`Mask::Skip`] of `m` (the complement).
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend, UnaryOp};
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let visited = b.dense::<OrAnd>(3, 1, &[true, false, true])?;
    /// let mut y = b.dense_filled::<MinPlus<i32>>(3, 1, 9)?;
    /// b.apply(&mut y, b.skip(&visited), UnaryOp::Fill(1))?;
    /// assert_eq!(b.read_dense(&y)?, vec![9, 1, 9]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn skip<'a, M: Semiring>(&'a self, m: &'a Self::Dense<M>) -> Mask<'a, Self> {
        Mask::Skip(self.mask(m))
    }
    /// One relaxation step from the frontier `x`: `t = x (+).(x) A` (SpMSpV, masked),
    /// `changed = improve(d, t)`, and, with `parents`, the [`witness`](Backend::witness) of
    /// every changed position (the frontier vertex its new value came from). Returns
    /// `changed` with the new values: the next frontier.
    ///
    /// The provided version composes the three operations; a backend may fuse them.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, Backend, CpuBackend, Mask, Parents, NO_PARENT};
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, i32::MAX, i32::MAX])?;
    /// let mut p = b.dense_filled::<Parents>(3, 1, NO_PARENT)?;
    /// let frontier = b.sparse::<MinPlus<i32>>(3, &[0], &[0])?;
    /// let next = b.relax(&mut d, Some(&mut p), &frontier, &a, Mask::All)?;
    /// assert_eq!(b.read_sparse(&next)?, (vec![1], vec![4]));
    /// assert_eq!(b.read_dense(&p)?[1], 0); // vertex 1 was reached from 0
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
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
    ///
    /// ```
    /// use semigraph_algos::{Backend, CpuBackend};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.unit::<MinPlus<i32>>(3, 1, 0)?;
    /// assert_eq!(b.read_dense(&x)?, vec![i32::MAX, 0, i32::MAX]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn unit<S: Semiring>(&self, n: usize, i: usize, value: S::T) -> Result<Self::Dense<S>> {
        let mut x = self.dense_filled::<S>(n, 1, S::zero())?;
        self.set::<S>(&mut x, i, value)?;
        Ok(x)
    }
}
