//! Element-wise operations: binary and unary operators on dense arrays, assignment at the
//! entries of a sparse vector, relaxation with change detection, union and value-range
//! selection of sparse vectors, and the dense transpose.

use semigraph_semiring::Semiring;

use super::{Ewise, Mask, Objects, UnaryOp};
use crate::error::Result;

/// Element-wise operations (`GrB_eWiseAdd`/`GrB_eWiseMult`, `GrB_apply`, `GrB_assign`,
/// `GrB_select`, `GrB_transpose`), plus relaxation: accumulation that reports what changed.
pub trait ElementWise: Objects {
    /// `y<mask> = op(y, x)`, same shapes.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// `y<mask> = op(y)` at every allowed position, entries or not (see [`UnaryOp`]: `Fill`
    /// and `AddTo` make entries where there were none, `MulBy` does not).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// `x^T`: the `cols x rows` transpose of the `rows x cols` array `x` (`GrB_transpose` of a
    /// dense matrix), e.g. to turn a block of per-vertex columns into per-source rows.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// `A^T` of a sparse matrix, in CSR (`GrB_transpose`): the entries of `a` that are not the
    /// zero, row `j` of the result holding column `j` of `a`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (0, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let t = b.read_matrix(&b.transpose_matrix(&a)?)?;
    /// assert_eq!(t.iter().collect::<Vec<_>>(), vec![(1, 0, 4), (2, 0, 1)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn transpose_matrix<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Matrix<S>>;
    /// Relaxation, "did anything change": for each entry `(i, v)` of `t` where
    /// [`Semiring::improves`]`(d(i), v)`, sets `d(i) = add(d(i), v)`; returns those entries
    /// with their new values.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// The dense form of [`ElementWise::improve`]: relaxes `d` by every position of `t` and
    /// returns how many positions improved.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
}

/// `y = x` (same shapes) in any semiring: `y` cleared to the zero, then `x` added (`add`'s
/// identity keeps every entry of `x` as it is).
pub(crate) fn copy_dense<B: ElementWise + ?Sized, S: Semiring>(
    b: &B,
    y: &mut B::Dense<S>,
    x: &B::Dense<S>,
) -> Result<()> {
    b.apply(y, Mask::All, UnaryOp::Fill(S::zero()))?;
    b.ewise(y, Mask::All, Ewise::Add, x)
}

/// A new array equal to `x` (its shape, its values): a fresh array of the zero, `x` added
/// (`add`'s identity keeps every value of `x`, the zero's too).
///
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::cloned;
/// use semigraph_semiring::MinPlus;
///
/// let b = CpuBackend::new();
/// let x = b.dense::<MinPlus<i32>>(3, 1, &[4, i32::MAX, 0])?;
/// assert_eq!(b.read_dense(&cloned(&b, &x)?)?, vec![4, i32::MAX, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn cloned<B: ElementWise + ?Sized, S: Semiring>(b: &B, x: &B::Dense<S>) -> Result<B::Dense<S>> {
    let (rows, cols) = b.dense_shape(x);
    let mut y = b.dense_filled::<S>(rows, cols, S::zero())?;
    b.ewise(&mut y, Mask::All, Ewise::Add, x)?;
    Ok(y)
}
