//! The format enum, conversion options, and a matrix in any format.

use std::fmt;
use std::str::FromStr;

use semigraph_semiring::Semiring;

use crate::coo::Coo;
use crate::csr::Csr;
use crate::dense::Dense;
use crate::dia::Dia;
use crate::ell::Ell;
use crate::error::FormatError;
use crate::hyb::Hyb;
use crate::index::Index;

/// A storage format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Coordinate triplets.
    Coo,
    /// Compressed sparse rows.
    Csr,
    /// ELLPACK, column-major.
    Ell,
    /// Diagonals.
    Dia,
    /// ELL + COO.
    Hyb,
    /// Dense row-major.
    Dense,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Coo,
        Format::Csr,
        Format::Ell,
        Format::Dia,
        Format::Hyb,
        Format::Dense,
    ];

    /// Lower-case name (`csr`), as in kernel keys and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Coo => "coo",
            Format::Csr => "csr",
            Format::Ell => "ell",
            Format::Dia => "dia",
            Format::Hyb => "hyb",
            Format::Dense => "dense",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown format {s:?} (expected one of coo, csr, ell, dia, hyb, dense)")
            })
    }
}

/// Limits and choices for conversions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvertOptions {
    /// ELL and DIA refuse to store more than `max_fill` values (padding included) per entry.
    pub max_fill: f64,
    /// Dense refuses more values than this.
    pub max_dense_entries: usize,
    /// HYB's ELL width; `None` chooses it from the row-length histogram
    /// ([`crate::hyb::hyb_width`]).
    pub hyb_width: Option<usize>,
}

impl Default for ConvertOptions {
    /// `max_fill` 8, at most 2^28 dense values (1 GiB of `f32`), automatic HYB width.
    fn default() -> Self {
        ConvertOptions {
            max_fill: 8.0,
            max_dense_entries: 1 << 28,
            hyb_width: None,
        }
    }
}

/// Refuses a padded format whose `stored` values exceed `limit * nnz`.
pub(crate) fn check_fill(
    format: Format,
    stored: u128,
    nnz: usize,
    limit: f64,
) -> Result<(), FormatError> {
    let fill = if nnz == 0 {
        if stored == 0 { 1.0 } else { f64::INFINITY }
    } else {
        stored as f64 / nnz as f64
    };
    // An empty or all-padding-free matrix is always fine; otherwise compare.
    if stored > nnz as u128 && fill > limit {
        return Err(FormatError::FillTooLarge {
            format,
            stored,
            nnz,
            fill,
            limit,
        });
    }
    Ok(())
}

/// Panics unless a vector of `x_len` entries can multiply a matrix of `ncols` columns.
#[track_caller]
pub(crate) fn assert_x_len(x_len: usize, ncols: usize) {
    assert_eq!(
        x_len, ncols,
        "x has {x_len} entries, the matrix {ncols} columns"
    );
}

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
            Format::Coo => SparseMatrix::Coo(a.to_coo()),
            Format::Csr => SparseMatrix::Csr(a.clone()),
            Format::Ell => SparseMatrix::Ell(a.to_ell(opts)?),
            Format::Dia => SparseMatrix::Dia(a.to_dia(opts)?),
            Format::Hyb => SparseMatrix::Hyb(a.to_hyb(opts)?),
            Format::Dense => SparseMatrix::Dense(a.to_dense(opts)?),
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
