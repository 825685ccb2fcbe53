//! A matrix in any of the formats.

use semigraph_semiring::Semiring;

use crate::coo::Coo;
use crate::csr::Csr;
use crate::dense::Dense;
use crate::dia::Dia;
use crate::ell::Ell;
use crate::entries::{pattern_value, view_value};
use crate::error::FormatError;
use crate::format::{ConvertOptions, Format};
use crate::hyb::Hyb;
use crate::index::Index;

/// A matrix in any of the formats.
#[derive(Clone, Debug, PartialEq)]
pub enum SparseMatrix<S: Semiring, I: Index = u32> {
    /// COO.
    Coo(Coo<S, I>),
    /// CSR.
    Csr(Csr<S, I>),
    /// ELL.
    Ell(Ell<S, I>),
    /// DIA.
    Dia(Dia<S, I>),
    /// HYB.
    Hyb(Hyb<S, I>),
    /// Dense.
    Dense(Dense<S>),
}

impl<S: Semiring, I: Index> SparseMatrix<S, I> {
    /// The format.
    pub fn format(&self) -> Format {
        match self {
            SparseMatrix::Coo(_) => Format::Coo,
            SparseMatrix::Csr(_) => Format::Csr,
            SparseMatrix::Ell(_) => Format::Ell,
            SparseMatrix::Dia(_) => Format::Dia,
            SparseMatrix::Hyb(_) => Format::Hyb,
            SparseMatrix::Dense(_) => Format::Dense,
        }
    }

    /// `(rows, columns)`.
    pub fn shape(&self) -> (usize, usize) {
        match self {
            SparseMatrix::Coo(a) => (a.nrows(), a.ncols()),
            SparseMatrix::Csr(a) => (a.nrows(), a.ncols()),
            SparseMatrix::Ell(a) => (a.nrows(), a.ncols()),
            SparseMatrix::Dia(a) => (a.nrows(), a.ncols()),
            SparseMatrix::Hyb(a) => (a.nrows(), a.ncols()),
            SparseMatrix::Dense(a) => (a.nrows(), a.ncols()),
        }
    }

    /// Maps every stored value (padding included) into another semiring's value type, in
    /// the same format and layout. `f(S::zero())` should be `S2::zero()` for padding to stay
    /// padding.
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> SparseMatrix<S2, I> {
        match self {
            SparseMatrix::Coo(a) => SparseMatrix::Coo(a.map(f)),
            SparseMatrix::Csr(a) => SparseMatrix::Csr(a.map(f)),
            SparseMatrix::Ell(a) => SparseMatrix::Ell(a.map(f)),
            SparseMatrix::Dia(a) => SparseMatrix::Dia(a.map(f)),
            SparseMatrix::Hyb(a) => SparseMatrix::Hyb(a.map(f)),
            SparseMatrix::Dense(a) => SparseMatrix::Dense(a.map(f)),
        }
    }

    /// The same entries in another semiring of the same value type ([`view_value`] of every
    /// stored value: `S`'s zero, padding included, becomes `S2`'s zero), a copy.
    pub fn view<S2: Semiring<T = S::T>>(&self) -> SparseMatrix<S2, I> {
        self.map(view_value::<S, S2>)
    }

    /// The pattern in semiring `P` ([`pattern_value`] of every stored value): `P::one()` for
    /// each entry, `P::zero()` for padding and for entries equal to `S`'s zero.
    pub fn pattern<P: Semiring>(&self) -> SparseMatrix<P, I> {
        self.map(pattern_value::<S, P>)
    }

    /// To CSR (duplicates of COO combined with `S::add`).
    pub fn to_csr(&self) -> Result<Csr<S, I>, FormatError> {
        Ok(match self {
            SparseMatrix::Coo(a) => a.to_csr(),
            SparseMatrix::Csr(a) => a.clone(),
            SparseMatrix::Ell(a) => a.to_csr(),
            SparseMatrix::Dia(a) => a.to_csr(),
            SparseMatrix::Hyb(a) => a.to_csr(),
            SparseMatrix::Dense(a) => a.to_csr()?,
        })
    }

    /// Converts to `format` (through CSR).
    pub fn convert(
        &self,
        format: Format,
        opts: &ConvertOptions,
    ) -> Result<SparseMatrix<S, I>, FormatError> {
        if format == self.format() {
            return Ok(self.clone());
        }
        SparseMatrix::from_csr(&self.to_csr()?, format, opts)
    }

    /// `a` in `format`.
    pub fn from_csr(
        a: &Csr<S, I>,
        format: Format,
        opts: &ConvertOptions,
    ) -> Result<SparseMatrix<S, I>, FormatError> {
        Ok(match format {
            Format::Coo => SparseMatrix::Coo(Coo::from_csr(a)),
            Format::Csr => SparseMatrix::Csr(a.clone()),
            Format::Ell => SparseMatrix::Ell(Ell::from_csr(a, opts)?),
            Format::Dia => SparseMatrix::Dia(Dia::from_csr(a, opts)?),
            Format::Hyb => SparseMatrix::Hyb(Hyb::from_csr(a, opts)?),
            Format::Dense => SparseMatrix::Dense(Dense::from_csr(a, opts)?),
        })
    }

    /// `y = A x` (GraphBLAS `mxv`, along the rows: with `A[u][v]` the arc `u -> v`, values
    /// flow *against* the arcs), in this format; the same as [`SparseMatrix::spmv`].
    ///
    /// # Panics
    /// If `x.len()` differs from the number of columns.
    #[track_caller]
    pub fn mxv(&self, x: &[S::T]) -> Vec<S::T> {
        self.spmv(x)
    }

    /// `y = x A` (GraphBLAS `vxm`, along the columns: values flow *along* the arcs, one
    /// relaxation from a source), through the matrix's CSR form.
    ///
    /// # Errors
    /// A conversion error from [`SparseMatrix::to_csr`].
    ///
    /// # Panics
    /// If `x.len()` differs from the number of rows.
    #[track_caller]
    pub fn vxm(&self, x: &[S::T]) -> Result<Vec<S::T>, FormatError> {
        Ok(self.to_csr()?.vxm(x))
    }

    /// `y = A x` in the semiring, in this format.
    ///
    /// # Panics
    /// If `x.len()` differs from the number of columns.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        match self {
            SparseMatrix::Coo(a) => a.spmv(x),
            SparseMatrix::Csr(a) => a.spmv(x),
            SparseMatrix::Ell(a) => a.spmv(x),
            SparseMatrix::Dia(a) => a.spmv(x),
            SparseMatrix::Hyb(a) => a.spmv(x),
            SparseMatrix::Dense(a) => a.spmv(x),
        }
    }
}
