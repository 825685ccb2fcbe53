//! Reductions: a dense array or a sparse vector to one value, and entry counts.

use semigraph_semiring::Semiring;

use super::{Mask, Objects};
use crate::error::Result;

/// Reductions (`GrB_reduce` to a scalar, `GrB_Vector_nvals`).
pub trait Reductions: Objects {
    /// `add` over the allowed positions of `x` (the zero if none).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
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
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let x = b.dense::<MinPlus<i32>>(4, 1, &[i32::MAX, 2, i32::MAX, 5])?;
    /// assert_eq!(b.nvals(&x)?, 2);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn nvals<S: Semiring>(&self, x: &Self::Dense<S>) -> Result<usize>;
}
