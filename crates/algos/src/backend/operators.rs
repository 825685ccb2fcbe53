//! Operators of one's own ([`semigraph_semiring::ops`]) on a backend's handles: `apply` of a
//! unary operator or a bound binary one, element-wise union and intersection, `select`, gather
//! and scatter by index arrays, row extraction and reduction, and what composes from them
//! (submatrices, columns, the diagonal, `A + A^T`).

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{BinaryOperator, Diag, SelectOperator, SemiringAdd, UnaryOperator};

use super::{ElementWise, Mask, Objects, Parents};
use crate::error::Result;

/// Which positions an element-wise operation of two operands produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Where either operand has an entry (`GrB_eWiseAdd`): `f(a, b)` where both do, the one
    /// entry where only one does.
    Union,
    /// Where both have an entry (`GrB_eWiseMult`): `f(a, b)`; no entry elsewhere.
    Intersection,
}

/// A binary operator's scalar operand in an `apply` ([`Operators::apply_bound`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound<T> {
    /// `f(c, x)` (`GrB_apply` with `BinaryOp1st`).
    First(T),
    /// `f(x, c)` (`GrB_apply` with `BinaryOp2nd`).
    Second(T),
}

/// Operators of one's own (GraphBLAS's `GrB_apply`, `GrB_eWiseAdd`/`GrB_eWiseMult` with any
/// binary operator, `GrB_select`, `GrB_extract`, `GrB_assign` with an accumulator,
/// `GrB_reduce` to a vector), on dense arrays and sparse matrices.
///
/// Operators keep absent positions absent: a position whose value is the semiring's zero is no
/// entry, and `apply` does not touch it. A result equal to the zero is no entry: matrix results
/// (new CSR matrices) do not store it.
pub trait Operators: Objects + ElementWise {
    /// `y<mask>(i) = f(y(i))` at the entries of `y` the mask allows.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{ops::Minv, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let mut y = b.dense::<PlusTimes<f64>>(3, 1, &[2.0, 0.0, 4.0])?;
    /// b.apply_op::<_, Minv>(&mut y, Mask::All)?; // 1/x at the entries; 0 stays absent
    /// assert_eq!(b.read_dense(&y)?, vec![0.5, 0.0, 0.25]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn apply_op<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
    ) -> Result<()>;
    /// `y<mask>(i) = f(c, y(i))` or `f(y(i), c)` at the entries of `y` the mask allows.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{ops::{Div, Times}, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let mut y = b.dense::<PlusTimes<f32>>(3, 1, &[2.0, 0.0, 4.0])?;
    /// b.apply_bound::<_, Times>(&mut y, Mask::All, Bound::Second(0.5))?;
    /// assert_eq!(b.read_dense(&y)?, vec![1.0, 0.0, 2.0]);
    /// b.apply_bound::<_, Div>(&mut y, Mask::All, Bound::First(1.0))?; // 1 / y
    /// assert_eq!(b.read_dense(&y)?, vec![1.0, 0.0, 0.5]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn apply_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        c: Bound<S::T>,
    ) -> Result<()>;
    /// `y<mask> = y .f. x` (same shapes): at each allowed position, by `how`, the union or the
    /// intersection of the two arrays' entries, `f(y(i), x(i))` where both have one. Positions
    /// the mask forbids keep their value.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{ops::Minus, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<PlusTimes<i32>>(3, 1, &[1, 0, 5])?;
    /// let mut y = b.dense::<PlusTimes<i32>>(3, 1, &[4, 2, 0])?;
    /// b.ewise_op::<_, Minus>(&mut y, Mask::All, Combine::Union, &x)?;
    /// assert_eq!(b.read_dense(&y)?, vec![3, 2, 5]);
    /// b.ewise_op::<_, Minus>(&mut y, Mask::All, Combine::Intersection, &x)?;
    /// assert_eq!(b.read_dense(&y)?, vec![2, 0, 0]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn ewise_op<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut Self::Dense<S>,
        mask: Mask<'_, Self>,
        how: Combine,
        x: &Self::Dense<S>,
    ) -> Result<()>;
    /// `w = u(I)`: `w(k) = u(I(k))` for each `k` of the index array `I` (an `m x 1` array of
    /// `u32` indices in any semiring, such as [`Parents`]); an index past the end of `u` ([`NO_PARENT`](super::NO_PARENT) included)
    /// gives no entry. `w` is `m x 1`. `O(m)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let u = b.dense::<MinPlus<u32>>(3, 1, &[10, 11, 12])?;
    /// let i = b.dense::<Parents>(4, 1, &[2, 0, 2, NO_PARENT])?;
    /// assert_eq!(b.read_dense(&b.gather(&u, &i)?)?, vec![12, 10, 12, u32::MAX]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn gather<S: Semiring, I: Semiring<T = u32>>(
        &self,
        u: &Self::Dense<S>,
        idx: &Self::Dense<I>,
    ) -> Result<Self::Dense<S>>;
    /// `w(I) f= u`: for each entry `u(k)` whose index `I(k)` lies in `w`, `w(I(k))` becomes
    /// `f(w(I(k)), u(k))`, or `u(k)` where `w` has no entry there (`GrB_assign` with an
    /// accumulator). Values meeting at one position combine in no fixed order: `f` should be
    /// associative and commutative (min, plus, ...) for the result to be defined. `I` and `u`
    /// have the same length. `O(len(u))`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{ops::Min, MinPlus};
    ///
    /// let b = CpuBackend::new();
    /// let mut w = b.dense::<MinPlus<u32>>(3, 1, &[5, 5, u32::MAX])?;
    /// let i = b.dense::<Parents>(3, 1, &[0, 0, 2])?;
    /// let u = b.dense::<MinPlus<u32>>(3, 1, &[7, 3, 9])?;
    /// b.scatter_op::<_, Min, _>(&mut w, &i, &u)?;
    /// assert_eq!(b.read_dense(&w)?, vec![3, 5, 9]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn scatter_op<S: Semiring, F: BinaryOperator<S::T>, I: Semiring<T = u32>>(
        &self,
        w: &mut Self::Dense<S>,
        idx: &Self::Dense<I>,
        u: &Self::Dense<S>,
    ) -> Result<()>;
    /// `f(A)`: a new CSR matrix of `f` at each entry of `a`. `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{ops::Neg, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4), (1, 0, -2)])?, Format::Csr, &ConvertOptions::default())?;
    /// let n = b.read_matrix(&b.apply_matrix::<_, Neg>(&a)?)?;
    /// assert_eq!(n.iter().collect::<Vec<_>>(), vec![(0, 1, -4), (1, 0, 2)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn apply_matrix<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        a: &Self::Matrix<S>,
    ) -> Result<Self::Matrix<S>>;
    /// `f(c, A)` or `f(A, c)`: a new CSR matrix. `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{ops::Times, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<f32>>(2, &[(0, 1, 4.0)])?, Format::Csr, &ConvertOptions::default())?;
    /// let h = b.read_matrix(&b.apply_matrix_bound::<_, Times>(&a, Bound::Second(0.5))?)?;
    /// assert_eq!(h.iter().collect::<Vec<_>>(), vec![(0, 1, 2.0)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn apply_matrix_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &Self::Matrix<S>,
        c: Bound<S::T>,
    ) -> Result<Self::Matrix<S>>;
    /// The entries `(i, j, x)` of `a` with `P::keep(x, i, j, s)` (`GrB_select`): a new CSR
    /// matrix. `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{ops::{StrictTril, ValueGt}, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4), (1, 0, 6), (1, 1, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let l = b.read_matrix(&b.select::<_, StrictTril>(&a, 0)?)?;
    /// assert_eq!(l.iter().collect::<Vec<_>>(), vec![(1, 0, 6)]);
    /// let big = b.read_matrix(&b.select::<_, ValueGt>(&a, 3)?)?;
    /// assert_eq!(big.iter().collect::<Vec<_>>(), vec![(0, 1, 4), (1, 0, 6)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn select<S: Semiring, P: SelectOperator<S::T>>(
        &self,
        a: &Self::Matrix<S>,
        s: S::T,
    ) -> Result<Self::Matrix<S>>;
    /// `A .f. B` (same shapes): the union or intersection of the entries of two matrices,
    /// `f(a, b)` where both have one (`GrB_eWiseAdd`/`GrB_eWiseMult` on matrices): a new CSR
    /// matrix. `O(nnz(A) + nnz(B))`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::{ops::Times, PlusTimes};
    ///
    /// let b = CpuBackend::new();
    /// let o = ConvertOptions::default();
    /// let x = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4), (1, 0, 6)])?, Format::Csr, &o)?;
    /// let y = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 2), (1, 1, 3)])?, Format::Csr, &o)?;
    /// let u = b.read_matrix(&b.ewise_matrix::<_, Times>(&x, &y, Combine::Union)?)?;
    /// assert_eq!(u.iter().collect::<Vec<_>>(), vec![(0, 1, 8), (1, 0, 6), (1, 1, 3)]);
    /// let i = b.read_matrix(&b.ewise_matrix::<_, Times>(&x, &y, Combine::Intersection)?)?;
    /// assert_eq!(i.iter().collect::<Vec<_>>(), vec![(0, 1, 8)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn ewise_matrix<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &Self::Matrix<S>,
        b: &Self::Matrix<S>,
        how: Combine,
    ) -> Result<Self::Matrix<S>>;
    /// `A(I, :)`: row `k` of the result is row `rows[k]` of `a` (rows may repeat), a new
    /// `rows.len() x ncols` CSR matrix. Returns [`Error::InvalidArgument`](crate::Error) for a
    /// row out of range. `O(len(rows) + entries copied)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(3, &[(0, 1, 4), (2, 0, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// let r = b.read_matrix(&b.extract_rows(&a, &[2, 2])?)?;
    /// assert_eq!(r.iter().collect::<Vec<_>>(), vec![(0, 0, 6), (1, 0, 6)]);
    /// assert!(b.extract_rows(&a, &[3]).is_err());
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn extract_rows<S: Semiring>(
        &self,
        a: &Self::Matrix<S>,
        rows: &[u32],
    ) -> Result<Self::Matrix<S>>;
    /// The 0/1 matrix of an index array (`GrB_Matrix_build` of the tuples `(k, I(k), one)`):
    /// a `len(I) x ncols` CSR matrix whose row `k` holds `S::one()` at column `I(k)`, and
    /// nothing where `I(k)` is no column (`>= ncols`, [`NO_PARENT`](super::NO_PARENT)
    /// included). With `I` the vertices' labels, `A L` counts each vertex's neighbours by label
    /// (label propagation); with `I` a vertex-to-group map, `P^T A P` contracts a graph.
    /// `O(len(I))`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let i = b.dense::<Parents>(3, 1, &[2, NO_PARENT, 0])?;
    /// let p = b.read_matrix(&b.index_matrix::<PlusTimes<i32>, _>(&i, 3)?)?;
    /// assert_eq!(p.iter().collect::<Vec<_>>(), vec![(0, 2, 1), (2, 0, 1)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn index_matrix<S: Semiring, I: Semiring<T = u32>>(
        &self,
        idx: &Self::Dense<I>,
        ncols: usize,
    ) -> Result<Self::Matrix<S>>;
    /// For each row of `a`, the column of its best entry: the first entry, in column order,
    /// that no later entry improves ([`Semiring::improves`]). For a semiring whose `add`
    /// selects (min, max, or) that is the smallest column where the row's reduction is
    /// attained: an arg-min or arg-max with ties to the smallest column.
    /// [`NO_PARENT`](super::NO_PARENT) for a row with no entry. An `nrows x 1` array.
    /// `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MaxMin;
    ///
    /// let b = CpuBackend::new();
    /// let arcs = [(0, 0, 3), (0, 1, 5), (0, 2, 5), (2, 1, 1)];
    /// let a = b.matrix(&arcs_to_csr::<MaxMin<u32>>(3, &arcs)?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.reduce_rows_arg(&a)?)?, vec![1, NO_PARENT, 1]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn reduce_rows_arg<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Dense<Parents>>;
    /// `w(i) = add_j A(i, j)`: each row reduced by the semiring's `add` (a monoid; for another
    /// monoid, view the matrix in a semiring whose `add` it is). `w` is `nrows x 1`. `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(3, &[(0, 1, 4), (0, 2, 1), (2, 0, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.reduce_rows(&a)?)?, vec![5, 0, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn reduce_rows<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Dense<S>>;
    /// The `nrows x ncols` dense array of `a` (the zero where it has no entry).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.matrix_to_dense(&a)?)?, vec![0, 4, 0, 0]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn matrix_to_dense<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Dense<S>>;

    /// `A(I, J)` (`GrB_extract`): rows `rows` then columns `cols` (each may repeat), through two
    /// transposes. `O(nnz)`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(3, &[(0, 1, 4), (2, 0, 6), (2, 2, 7)])?, Format::Csr, &ConvertOptions::default())?;
    /// let s = b.read_matrix(&b.extract(&a, &[2, 0], &[2, 1])?)?;
    /// assert_eq!(s.iter().collect::<Vec<_>>(), vec![(0, 0, 7), (1, 1, 4)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn extract<S: Semiring>(
        &self,
        a: &Self::Matrix<S>,
        rows: &[u32],
        cols: &[u32],
    ) -> Result<Self::Matrix<S>> {
        let r = self.extract_rows(a, rows)?;
        let t = self.extract_rows(&self.transpose_matrix(&r)?, cols)?;
        self.transpose_matrix(&t)
    }
    /// Column `j` of `a` as an `nrows x 1` array (row `j` of `A^T`).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(3, &[(0, 1, 4), (2, 1, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.column(&a, 1)?)?, vec![4, 0, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn column<S: Semiring>(&self, a: &Self::Matrix<S>, j: u32) -> Result<Self::Dense<S>> {
        let t = self.transpose_matrix(a)?;
        self.row(&t, j)
    }
    /// Row `i` of `a` as an `ncols x 1` array.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(3, &[(0, 1, 4), (0, 2, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.row(&a, 0)?)?, vec![0, 4, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn row<S: Semiring>(&self, a: &Self::Matrix<S>, i: u32) -> Result<Self::Dense<S>> {
        let r = self.matrix_to_dense(&self.extract_rows(a, &[i])?)?;
        self.transpose(&r)
    }
    /// The diagonal `A(i, i)` of a square matrix as an `n x 1` array.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4), (1, 1, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.diagonal(&a)?)?, vec![0, 6]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn diagonal<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Dense<S>> {
        self.reduce_rows(&self.select::<S, Diag>(a, S::zero())?)
    }
    /// `w(j) = add_i A(i, j)`: each column reduced by the semiring's `add` (`ncols x 1`).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i32>>(2, &[(0, 1, 4), (1, 1, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// assert_eq!(b.read_dense(&b.reduce_cols(&a)?)?, vec![0, 10]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn reduce_cols<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Dense<S>> {
        self.reduce_rows(&self.transpose_matrix(a)?)
    }
    /// `A (+) A^T` in the semiring's `add` (a square matrix made symmetric), as one call.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4), (1, 0, 6)])?, Format::Csr, &ConvertOptions::default())?;
    /// let s = b.read_matrix(&b.plus_transpose(&a)?)?;
    /// assert_eq!(s.iter().collect::<Vec<_>>(), vec![(0, 1, 4), (1, 0, 4)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn plus_transpose<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<Self::Matrix<S>> {
        let t = self.transpose_matrix(a)?;
        self.ewise_matrix::<S, SemiringAdd<S>>(a, &t, Combine::Union)
    }
}
