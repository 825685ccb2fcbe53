//! Objects: the handles a backend owns (matrices, dense arrays, sparse vectors, masks), how they
//! are built and read back, and the backend's own state (name, counters, waiting). Every other
//! role speaks in these handles.

use semigraph_formats::{ConvertOptions, Csr, Format};
use semigraph_semiring::Semiring;

use super::{BackendKind, Counters, Mask, MatrixInfo};
use crate::error::Result;

/// The handles of a backend and the methods that build, view and read them (GraphBLAS's
/// object methods: `GrB_Matrix_build`, `GrB_Vector_extractTuples`, `GrB_wait`, ...).
///
/// Implemented by [`CpuBackend`](crate::CpuBackend) and by the GPU backend of
/// `semigraph-gpu`; the other roles ([`Products`](super::Products),
/// [`ElementWise`](super::ElementWise), [`Reductions`](super::Reductions)) build on it.
pub trait Objects: Send + Sync {
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
    ///
    /// let b = CpuBackend::new();
    /// assert_eq!(b.kind(), BackendKind::Cpu);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn kind(&self) -> BackendKind;
    /// Work counters so far (kernel launches, host synchronisations, device allocations); all
    /// zero for a backend that has none (the CPU).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// Builds a matrix in `format` from `a`, within the fill limits of `opts`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// A CSR matrix of `nrows x ncols` from the arcs `src[k] -> dst[k]` with values `vals[k]`
    /// (`None`: every arc `S::one()`; `GrB_Matrix_build`): each row's columns in increasing
    /// order, repeated arcs combined with `S::add` in list order, entries equal to the zero
    /// dropped. The default builds the CSR on the host
    /// ([`Csr::try_from_arcs`]) and hands it to [`Objects::matrix`]; a GPU builds it where it
    /// is used (the arcs cross the bus once, the sort runs on the device).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) or
    /// [`Error::Format`](crate::Error::Format) when the arrays differ in length or an arc
    /// lies outside the matrix; memory errors, refused before allocating.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let m = b.matrix_from_arcs::<MinPlus<i32>>((2, 3), &[1, 0, 1], &[2, 1, 2], Some(&[5, 4, 3]))?;
    /// assert_eq!(b.read_matrix(&m)?.iter().collect::<Vec<_>>(), vec![(0, 1, 4), (1, 2, 3)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn matrix_from_arcs<S: Semiring>(
        &self,
        (nrows, ncols): (usize, usize),
        src: &[u32],
        dst: &[u32],
        vals: Option<&[S::T]>,
    ) -> Result<Self::Matrix<S>> {
        let a = Csr::<S>::try_from_arcs(nrows, ncols, src, dst, vals)?.without_zeros()?;
        self.matrix(&a, Format::Csr, &ConvertOptions::default())
    }
    /// Shape, entry count and format of `a`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// The entries of `a` as a CSR matrix on the host (`GrB_Matrix_extractTuples`), whatever
    /// its format: the stored values that are not the zero, rows sorted by column.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?;
    /// let m = b.matrix(&a, Format::Ell, &ConvertOptions::default())?;
    /// assert_eq!(b.read_matrix(&m)?, a);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn read_matrix<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Csr<S>>;
    /// Whether `a` and `b` store entries at the same positions (their CSR forms: the same
    /// shape, row pointers and columns; values are not compared, padding of ELL, DIA, HYB and
    /// dense is no entry). A graph whose transpose has its pattern is undirected
    /// ([`Graph::is_undirected`](crate::Graph::is_undirected)), as LAGraph's
    /// `is_symmetric_structure`. Costs a pass over both index arrays where they live (one
    /// flag read back from a GPU).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let opts = ConvertOptions::default();
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4), (1, 0, 7)])?, Format::Csr, &opts)?;
    /// assert!(b.same_pattern(&a, &b.transpose_matrix(&a)?)?);
    /// let c = b.matrix(&arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4)])?, Format::Csr, &opts)?;
    /// assert!(!b.same_pattern(&c, &b.transpose_matrix(&c)?)?);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn same_pattern<S: Semiring>(&self, a: &Self::Matrix<S>, b: &Self::Matrix<S>) -> Result<bool>;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense_filled::<MinPlus<i32>>(4, 2, 0)?;
    /// assert_eq!(b.dense_shape(&x), (4, 2));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn dense_shape<S: Semiring>(&self, x: &Self::Dense<S>) -> (usize, usize);
    /// `x` seen in semiring `S2` of the same value type: the same values bit for bit, nothing
    /// copied (the dense counterpart of [`view`](Self::view)). An entry of `x` is an entry of
    /// the result only where `S2`'s zero differs from the value.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{MaxMin, MinPlus};
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<u32>>(3, 1, &[4, 2, 7])?;
    /// let y = b.dense_as::<_, MaxMin<u32>>(x);
    /// assert_eq!(b.reduce(&y, Mask::All)?, 7);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn dense_as<S: Semiring, S2: Semiring<T = S::T>>(&self, x: Self::Dense<S>) -> Self::Dense<S2>;
    /// The values of `x`, row-major.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(2, 2, &[1, 2, 3, 4])?;
    /// assert_eq!(b.read_dense(&x)?, vec![1, 2, 3, 4]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn read_dense<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Vec<S::T>>;
    /// [`read_dense`](Self::read_dense) into `out` (of `x`'s length), with no array of its
    /// own: several ranks' blocks read at once into one host array.
    ///
    /// # Panics
    /// When `out`'s length is not `x`'s.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(1, 2, &[7, 8])?;
    /// let mut out = [0; 4];
    /// b.read_dense_into(&x, &mut out[2..])?;
    /// assert_eq!(out, [0, 0, 7, 8]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn read_dense_into<S: Semiring>(&self, x: &Self::Dense<S>, out: &mut [S::T]) -> Result<()> {
        out.copy_from_slice(&self.read_dense(x)?);
        Ok(())
    }
    /// [`read_dense`](Self::read_dense) of a vector the caller is done with: a backend whose
    /// dense vectors are host arrays (the CPU) hands the array over instead of copying it (a
    /// result of `n` values costs no allocation, copy or page faults); the others read it and
    /// free it.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(1, 3, &[4, 5, 6])?;
    /// assert_eq!(b.read_dense_owned(x)?, vec![4, 5, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn read_dense_owned<S: Semiring>(&self, x: Self::Dense<S>) -> Result<Vec<S::T>> {
        self.read_dense(&x)
    }
    /// Sets the value at flat (row-major) position `i`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let x = b.dense::<MinPlus<i32>>(4, 1, &[inf, 2, inf, 5])?;
    /// assert_eq!(b.read_sparse(&b.compact(&x)?)?, (vec![1, 3], vec![2, 5]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn compact<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<Self::Sparse<S>>;
    /// An `n x 1` array of zeros (no entries) with `value` at `i`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// A mask view of `m`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// [`Mask::Keep`] of `m`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
}
