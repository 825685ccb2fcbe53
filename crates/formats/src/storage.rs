//! [`Storage`]: what every storage format offers, so that code can be written once over
//! formats: conversion from and to CSR, shape, entry count and the reference SpMV.

use semigraph_semiring::Semiring;

use crate::coo::Coo;
use crate::csr::Csr;
use crate::dense::Dense;
use crate::dia::Dia;
use crate::ell::Ell;
use crate::error::FormatError;
use crate::format::{ConvertOptions, Format};
use crate::hyb::Hyb;
use crate::index::Index;

/// A sparse (or dense) matrix storage format, converted from and to [`Csr`], the format every
/// other one is built from.
///
/// ```
/// use semigraph_formats::{Coo, ConvertOptions, Csr, Dia, Ell, Storage};
/// use semigraph_semiring::MinPlus;
///
/// /// The reference SpMV of `a` in format `F` equals CSR's, and `F` converts back losslessly.
/// fn round_trip<F: Storage<MinPlus<f32>>>(a: &Csr<MinPlus<f32>>) -> bool {
///     let f = F::from_csr(a, &ConvertOptions::default()).unwrap();
///     let x = vec![1.0; a.ncols()];
///     f.spmv(&x) == a.spmv(&x) && f.to_csr().unwrap() == *a && f.nnz() == a.nnz()
/// }
/// let a = Coo::<MinPlus<f32>>::try_from_triplets(3, 3, vec![0, 1, 2], vec![1, 2, 0], vec![5.0, 7.0, 1.0])?
///     .to_csr();
/// assert!(round_trip::<Ell<_>>(&a) && round_trip::<Dia<_>>(&a) && round_trip::<Coo<_>>(&a));
/// # Ok::<(), semigraph_formats::FormatError>(())
/// ```
pub trait Storage<S: Semiring, I: Index = u32>: Sized {
    /// The format's name.
    const FORMAT: Format;
    /// `a` in this format, within the fill limits of `opts` (padded formats refuse to store
    /// more than `opts.max_fill` values per entry; dense more than `opts.max_dense_entries`).
    ///
    /// # Errors
    /// [`FormatError::FillTooLarge`] and the other limits of the format.
    fn from_csr(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError>;
    /// Back to CSR (padding dropped; duplicate COO entries combined with `S::add`).
    ///
    /// # Errors
    /// Dense storage: more entries than the index type holds.
    fn to_csr(&self) -> Result<Csr<S, I>, FormatError>;
    /// `(rows, columns)`.
    fn shape(&self) -> (usize, usize);
    /// Stored entries (padding not counted).
    fn nnz(&self) -> usize;
    /// `y = A x` in the semiring (the reference, on the host).
    ///
    /// # Panics
    /// If `x.len()` differs from the number of columns.
    fn spmv(&self, x: &[S::T]) -> Vec<S::T>;
}

/// The formats whose inherent `from_csr` checks limits and whose `to_csr` cannot fail.
macro_rules! storage {
    ($ty:ident, $format:ident, |$a:ident, $o:ident| $from:expr) => {
        impl<S: Semiring, I: Index> Storage<S, I> for $ty<S, I> {
            const FORMAT: Format = Format::$format;
            fn from_csr($a: &Csr<S, I>, $o: &ConvertOptions) -> Result<Self, FormatError> {
                $from
            }
            fn to_csr(&self) -> Result<Csr<S, I>, FormatError> {
                Ok($ty::to_csr(self))
            }
            fn shape(&self) -> (usize, usize) {
                (self.nrows(), self.ncols())
            }
            fn nnz(&self) -> usize {
                $ty::nnz(self)
            }
            fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
                $ty::spmv(self, x)
            }
        }
    };
}

storage!(Coo, Coo, |a, _o| Ok(Coo::from_csr(a)));
storage!(Ell, Ell, |a, o| Ell::from_csr(a, o));
storage!(Dia, Dia, |a, o| Dia::from_csr(a, o));
storage!(Hyb, Hyb, |a, o| Hyb::from_csr(a, o));

impl<S: Semiring, I: Index> Storage<S, I> for Csr<S, I> {
    const FORMAT: Format = Format::Csr;
    fn from_csr(a: &Csr<S, I>, _opts: &ConvertOptions) -> Result<Self, FormatError> {
        Ok(a.clone())
    }
    fn to_csr(&self) -> Result<Csr<S, I>, FormatError> {
        Ok(self.clone())
    }
    fn shape(&self) -> (usize, usize) {
        (self.nrows(), self.ncols())
    }
    fn nnz(&self) -> usize {
        Csr::nnz(self)
    }
    fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        Csr::spmv(self, x)
    }
}

impl<S: Semiring, I: Index> Storage<S, I> for Dense<S> {
    const FORMAT: Format = Format::Dense;
    fn from_csr(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError> {
        Dense::from_csr(a, opts)
    }
    fn to_csr(&self) -> Result<Csr<S, I>, FormatError> {
        Dense::to_csr(self)
    }
    fn shape(&self) -> (usize, usize) {
        (self.nrows(), self.ncols())
    }
    fn nnz(&self) -> usize {
        Dense::nnz(self)
    }
    fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        Dense::spmv(self, x)
    }
}
