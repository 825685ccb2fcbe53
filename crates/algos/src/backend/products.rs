//! Products: a sparse matrix times a dense vector or block (pull), a sparse vector times a
//! sparse matrix (push), dense times dense (GEMM), and the witnesses of a push product.

use semigraph_semiring::Semiring;

use super::{Accum, Mask, MatrixMask, Objects, Parents};
use crate::error::Result;

/// Semiring products over a backend's handles (`GrB_mxm`, `GrB_vxm`).
///
/// Every product calls `S::mul_at(matrix_entry, vector_entry, k)` with `k` the inner index
/// (see the [module docs](super) for masks and accumulation).
pub trait Products: Objects {
    /// `y<mask> = accum(y, A (+).(x) X)`: SpMV (`X` is `n x 1`) or SpMM (`X` is `n x k`), with
    /// `A` the matrix as built: on a [`Graph`](crate::Graph), `g.push()` is `A` (so `mxm` with
    /// it computes `A x`, along out-arcs reversed: `y(i)` combines the arcs leaving `i`) and
    /// `g.pull()` is `A^T` (`y(j)` combines the arcs entering `j`, BFS's pull step).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// Makes ready now what the first product with `a` would otherwise prepare, so that a
    /// matrix built once for many products (a [`Graph`](crate::Graph)'s) pays it while it is
    /// built, not in its first traversal: a GPU chooses the SpMV kernel of a matrix built on
    /// the device and plans it (its row pointers read back). Nothing to do by default (the
    /// CPU backend prepares nothing). Products with `a` are correct without it.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4)])?, Format::Csr, &ConvertOptions::default())?;
    /// b.prepare(&a)?;
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn prepare<S: Semiring>(&self, a: &Self::Matrix<S>) -> Result<()> {
        let _ = a;
        Ok(())
    }
    /// `x (+).(x) A` for a sparse `x`, keeping only output positions the mask allows
    /// (SpMSpV, push). The result holds the non-zero outputs.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// `C<M> = X (+).(x) Y^T` at the entries of `mask` (a sampled dense-dense product, SDDMM;
    /// GraphBLAS's `GrB_mxm` of two dense inputs, the second transposed, under a mask): for
    /// each entry `(i, j)` of `mask` that is not the zero (as [`Products::spgemm`]'s kept
    /// masks), `C(i, j) = add_t mul(X(i, t), Y(j, t), t)` over the `k` columns of `X`
    /// (`m x k`) and `Y` (`n x k`), row-major, the terms combined in increasing `t`. `C` is a
    /// new CSR matrix of the results that are not the zero. With `k` columns of sources,
    /// the per-arc sums of products of vertex values (edge betweenness's dependencies).
    ///
    /// Cost: `O(nnz(mask) k)`; nothing formed outside the mask.
    ///
    /// # Errors
    /// `InvalidArgument` where the shapes disagree (`X` not `m x k`, `Y` not `n x k`).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 and 1 -> 0; two columns of values per vertex.
    /// let m = b.matrix(&arcs_to_csr::<PlusTimes<f64>>(2, &[(0, 1, 1.0), (1, 0, 1.0)])?, Format::Csr, &ConvertOptions::default())?;
    /// let x = b.dense::<PlusTimes<f64>>(2, 2, &[1.0, 2.0, 3.0, 4.0])?;
    /// let y = b.dense::<PlusTimes<f64>>(2, 2, &[1.0, 0.0, 0.0, 1.0])?;
    /// // C(0, 1) = X(0, :) . Y(1, :) = 2; C(1, 0) = X(1, :) . Y(0, :) = 3.
    /// let c = b.read_matrix(&b.sddmm(&m, &x, &y)?)?;
    /// assert_eq!(c.iter().collect::<Vec<_>>(), vec![(0, 1, 2.0), (1, 0, 3.0)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn sddmm<S: Semiring>(
        &self,
        mask: &Self::Matrix<S>,
        x: &Self::Dense<S>,
        y: &Self::Dense<S>,
    ) -> Result<Self::Matrix<S>>;
    /// `C<mask> = A (+).(x) B` with `A`, `B` and `C` sparse (`SpGEMM`, `GrB_mxm` of two
    /// matrices): `C(i, j) = add_k mul(A(i, k), B(k, j), k)` over the `k` where both have an
    /// entry, formed only where the mask allows `(i, j)`, the terms of one `(i, j)` combined
    /// in increasing `k`. `C` is a new CSR matrix holding the results that are not the zero
    /// (under plus-times, terms that cancel leave no entry). `A` is `m x k`, `B` `k x n`, the
    /// mask `m x n`; any formats. For `A (+).(x) B^T`, [`Products::spgemm_t`].
    ///
    /// Cost: work proportional to the terms formed (the products of `A`'s entries with the
    /// rows of `B` they name); memory for those terms on a GPU, refused up front with the
    /// bytes needed when they cannot fit.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let opts = ConvertOptions::default();
    /// // A triangle 0 -> 1 -> 2 -> 0 and a chord 0 -> 2: paths of two arcs.
    /// let a = b.matrix(&arcs_to_csr::<PlusTimes<i64>>(3, &[(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 2, 1)])?, Format::Csr, &opts)?;
    /// let c = b.read_matrix(&b.spgemm(MatrixMask::All, &a, &a)?)?;
    /// assert_eq!(c.iter().collect::<Vec<_>>(), vec![(0, 0, 1), (0, 2, 1), (1, 0, 1), (2, 1, 1), (2, 2, 1)]);
    /// // Only where A has an arc: the two-arc paths that close a triangle with it.
    /// let t = b.read_matrix(&b.spgemm(MatrixMask::Keep(&a), &a, &a)?)?;
    /// assert_eq!(t.iter().collect::<Vec<_>>(), vec![(0, 2, 1)]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn spgemm<S: Semiring>(
        &self,
        mask: MatrixMask<'_, Self, S>,
        a: &Self::Matrix<S>,
        b: &Self::Matrix<S>,
    ) -> Result<Self::Matrix<S>>;
    /// `C<mask> = A (+).(x) B^T` (`GrB_mxm` with the second input transposed): as
    /// [`Products::spgemm`] of `a` and the transpose of `b`, which is `n x k`. A backend may
    /// skip forming `B^T`: the GPU backend does under a kept mask, where each mask entry is
    /// the dot product of a row of `A` and a row of `B` (so triangle counting's `L (+).(x) L^T`
    /// masked by `L` reads `L` alone); the provided version transposes `b`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::PlusTimes;
    ///
    /// let b = CpuBackend::new();
    /// let opts = ConvertOptions::default();
    /// // The strictly lower triangle of a triangle and a pendant: 1-0, 2-0, 2-1, 3-2.
    /// let l = b.matrix(&arcs_to_csr::<PlusTimes<i64>>(4, &[(1, 0, 1), (2, 0, 1), (2, 1, 1), (3, 2, 1)])?, Format::Csr, &opts)?;
    /// // C<L> = L L^T: for each edge (i, j), the common lower neighbours of i and j.
    /// let c = b.read_matrix(&b.spgemm_t(MatrixMask::Keep(&l), &l, &l)?)?;
    /// assert_eq!(c.iter().collect::<Vec<_>>(), vec![(2, 1, 1)]); // one triangle: 0, 1, 2
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn spgemm_t<S: Semiring>(
        &self,
        mask: MatrixMask<'_, Self, S>,
        a: &Self::Matrix<S>,
        b: &Self::Matrix<S>,
    ) -> Result<Self::Matrix<S>>
    where
        Self: super::ElementWise,
    {
        let t = self.transpose_matrix(b)?;
        self.spgemm(mask, a, &t)
    }
    /// Whether [`Products::spgemm_t`]'s dot products under a kept mask run faster on a lower
    /// triangle in degree order than in index order where degrees are skewed (a power-law
    /// graph): true of the CPU backend (a row of `A` marked once, the rows of `B` walked: in
    /// degree order those are the short rows), false in the provided version (the GPU's
    /// kernel is slower in degree order; docs/PERFORMANCE.md has the figures).
    /// [`triangle_count`](crate::triangle_count) orders by degree only where this says so.
    fn dot_degree_order_pays(&self) -> bool {
        false
    }
    /// The witnesses of a push product: for each entry `j` of `at` (a sparse vector of any
    /// semiring), `p(j)` becomes the smallest `k` among the entries of `x` whose product term
    /// `mul_at(A(k, j), x(k), k)` is not the zero and equals `d(j)` bit for bit, or
    /// [`NO_PARENT`](super::NO_PARENT) if there is none. Other positions of `p` keep their
    /// values.
    ///
    /// After `t = x (+).(x) A` and `changed = improve(d, t)` in a selecting semiring (min-plus,
    /// max-min, ...), the witnesses of `changed` are the vertices each improvement came from:
    /// the predecessors of shortest paths, or the parents of a traversal.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
}

/// Refuses an SDDMM whose dense inputs do not fit its `mask` (`m x n`): `X` must be `m x k`,
/// `Y` `n x k` ([`Products::sddmm`]).
pub fn check_sddmm(
    (m, n): (usize, usize),
    (xr, xc): (usize, usize),
    (yr, yc): (usize, usize),
) -> Result<()> {
    if xr != m || yr != n || xc != yc {
        return Err(crate::error::Error::InvalidArgument(format!(
            "sddmm: X is {xr} x {xc} and Y {yr} x {yc}; a {m} x {n} mask needs {m} x k and {n} x k"
        )));
    }
    Ok(())
}
