//! Conversions to and from other Rust libraries, each behind a feature of this crate (none is
//! on by default, so a user who does not want them does not build them):
//!
//! - `sprs`: `Csr::to_sprs` and `Csr::from_sprs` (CSR or CSC in, CSR out). With
//!   [`semigraph_semiring::SrVal`] values, `sprs`'s own products compute semiring products.
//! - `ndarray`: `Dense::to_ndarray` and `Dense::from_ndarray`.
//!
//! Values are copied as they are: an entry equal to the semiring zero stays an entry (as
//! everywhere in CSR, see the crate docs).

#[cfg(any(feature = "sprs", feature = "ndarray"))]
use semigraph_semiring::Semiring;

#[cfg(any(feature = "sprs", feature = "ndarray"))]
use crate::error::FormatError;

#[cfg(feature = "sprs")]
mod with_sprs {
    use super::*;
    use crate::csr::Csr;
    use crate::index::Index;

    impl<S: Semiring, I: Index + sprs::SpIndex> Csr<S, I> {
        /// The matrix as a `sprs` CSR matrix with the same index type (feature `sprs`).
        ///
        /// ```
        /// use semigraph_formats::Coo;
        /// use semigraph_semiring::{MinPlus, SrVal};
        ///
        /// let mut coo = Coo::<MinPlus<i32>>::new(3, 3)?;
        /// coo.push(0, 1, 3);
        /// coo.push(1, 2, 4);
        /// let a = coo.to_csr().to_sprs();
        /// assert_eq!(a.get(1, 2), Some(&4));
        /// // sprs's own product over semiring values: min-plus squaring finds 0 -> 2 in 7.
        /// let s = a.map(|&v| SrVal::<MinPlus<i32>>::new(v));
        /// let s2 = &s * &s;
        /// assert_eq!(s2.get(0, 2).map(|v| v.get()), Some(7));
        /// # Ok::<(), semigraph_formats::FormatError>(())
        /// ```
        pub fn to_sprs(&self) -> sprs::CsMatI<S::T, I, I> {
            sprs::CsMatI::new(
                (self.nrows(), self.ncols()),
                self.row_ptr().to_vec(),
                self.col_idx().to_vec(),
                self.vals().to_vec(),
            )
        }

        /// A `sprs` matrix (CSR or CSC, any index types) as CSR (feature `sprs`).
        ///
        /// # Errors
        /// [`FormatError::IndexOverflow`] if a size or index does not fit `I`;
        /// [`FormatError::InvalidStructure`] if `m` breaks CSR's rules (`sprs` allows
        /// unsorted indices in some constructors; duplicates are refused, not combined).
        ///
        /// ```
        /// use semigraph_formats::Csr;
        /// use semigraph_semiring::MaxMin;
        /// use sprs::TriMat;
        ///
        /// let mut t = TriMat::new((2, 3));
        /// t.add_triplet(1, 2, 0.5f32);
        /// t.add_triplet(0, 0, 2.0);
        /// let a = Csr::<MaxMin<f32>>::from_sprs(t.to_csc::<usize>().view())?;
        /// assert_eq!((a.nnz(), a.get(1, 2)), (2, Some(0.5)));
        /// assert_eq!(a.to_sprs().to_dense(), t.to_csr::<usize>().to_dense());
        /// # Ok::<(), semigraph_formats::FormatError>(())
        /// ```
        pub fn from_sprs<J: sprs::SpIndex, P: sprs::SpIndex>(
            m: sprs::CsMatViewI<'_, S::T, J, P>,
        ) -> Result<Self, FormatError> {
            let owned;
            let m = if m.is_csr() {
                m
            } else {
                owned = m.to_other_storage();
                owned.view()
            };
            let (nrows, ncols) = m.shape();
            let row_ptr = m
                .indptr()
                .to_proper()
                .iter()
                .map(|p| I::from_usize_or(p.index(), "stored entries"))
                .collect::<Result<Vec<I>, _>>()?;
            let col_idx = m
                .indices()
                .iter()
                .map(|c| I::from_usize_or(c.index(), "columns"))
                .collect::<Result<Vec<I>, _>>()?;
            Csr::try_from_parts(nrows, ncols, row_ptr, col_idx, m.data().to_vec())
        }
    }
}

#[cfg(feature = "ndarray")]
mod with_ndarray {
    use super::*;
    use crate::dense::Dense;

    impl<S: Semiring> Dense<S> {
        /// The matrix as an `ndarray` array (row-major; feature `ndarray`).
        ///
        /// ```
        /// use semigraph_formats::Dense;
        /// use semigraph_semiring::PlusTimes;
        ///
        /// let d = Dense::<PlusTimes<f64>>::try_from_vec(2, 2, vec![1.0, 2.0, 3.0, 4.0])?;
        /// let a = d.to_ndarray();
        /// assert_eq!(a[[1, 0]], 3.0);
        /// let t = Dense::<PlusTimes<f64>>::from_ndarray(a.t())?;
        /// assert_eq!(t.vals(), &[1.0, 3.0, 2.0, 4.0]);
        /// # Ok::<(), semigraph_formats::FormatError>(())
        /// ```
        pub fn to_ndarray(&self) -> ndarray::Array2<S::T> {
            ndarray::Array2::from_shape_vec((self.nrows(), self.ncols()), self.vals().to_vec())
                .expect("a dense matrix holds nrows * ncols values")
        }

        /// An `ndarray` array of any layout, copied row by row (feature `ndarray`).
        ///
        /// # Errors
        /// As [`Dense::try_from_vec`].
        pub fn from_ndarray(a: ndarray::ArrayView2<'_, S::T>) -> Result<Self, FormatError> {
            let (nrows, ncols) = a.dim();
            Dense::try_from_vec(nrows, ncols, a.iter().copied().collect())
        }
    }
}
