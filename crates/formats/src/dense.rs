//! Dense row-major matrices (APSP, dense GEMM).

use std::marker::PhantomData;

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::FormatError;
use crate::format::{ConvertOptions, Format};
use crate::index::Index;

/// A dense `nrows x ncols` matrix, row-major. A missing entry is `S::zero()`; as with
/// [`crate::Dia`], a stored entry equal to the semiring zero is indistinguishable from none.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense<S: Semiring> {
    nrows: usize,
    ncols: usize,
    vals: Vec<S::T>,
    _s: PhantomData<S>,
}

impl<S: Semiring> Dense<S> {
    /// Maps every value into another semiring's value type.
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> Dense<S2> {
        Dense {
            nrows: self.nrows,
            ncols: self.ncols,
            vals: self.vals.par_iter().map(|v| f(*v)).collect(),
            _s: PhantomData,
        }
    }

    /// A matrix filled with the semiring zero.
    pub fn zeros(nrows: usize, ncols: usize) -> Self {
        Dense {
            nrows,
            ncols,
            vals: vec![S::zero(); nrows * ncols],
            _s: PhantomData,
        }
    }

    /// From row-major values.
    pub fn try_from_vec(nrows: usize, ncols: usize, vals: Vec<S::T>) -> Result<Self, FormatError> {
        if nrows.checked_mul(ncols) != Some(vals.len()) {
            return Err(FormatError::InvalidStructure {
                format: Format::Dense,
                reason: format!("{} values for {nrows} x {ncols}", vals.len()),
            });
        }
        Ok(Dense {
            nrows,
            ncols,
            vals,
            _s: PhantomData,
        })
    }

    /// From CSR; refuses (before allocating) beyond `opts.max_dense_entries` values.
    pub fn from_csr<I: Index>(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError> {
        let stored = a.nrows() as u128 * a.ncols() as u128;
        if stored > opts.max_dense_entries as u128 {
            return Err(FormatError::FillTooLarge {
                format: Format::Dense,
                stored,
                nnz: a.nnz(),
                fill: stored as f64 / a.nnz().max(1) as f64,
                limit: opts.max_dense_entries as f64 / a.nnz().max(1) as f64,
            });
        }
        crate::error::check_fill(
            Format::Dense,
            stored,
            a.nnz(),
            f64::INFINITY,
            size_of::<S::T>(),
        )?;
        let mut d = Dense::zeros(a.nrows(), a.ncols());
        for (i, j, v) in a.iter() {
            d.vals[i * a.ncols() + j] = v;
        }
        Ok(d)
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Row-major values.
    pub fn vals(&self) -> &[S::T] {
        &self.vals
    }
    /// Mutable row-major values.
    pub fn vals_mut(&mut self) -> &mut [S::T] {
        &mut self.vals
    }
    /// The value at `(i, j)`.
    #[track_caller]
    pub fn get(&self, i: usize, j: usize) -> S::T {
        assert!(
            i < self.nrows && j < self.ncols,
            "({i}, {j}) outside {} x {}",
            self.nrows,
            self.ncols
        );
        self.vals[i * self.ncols + j]
    }
    /// Sets the value at `(i, j)`.
    #[track_caller]
    pub fn set(&mut self, i: usize, j: usize, v: S::T) {
        assert!(
            i < self.nrows && j < self.ncols,
            "({i}, {j}) outside {} x {}",
            self.nrows,
            self.ncols
        );
        self.vals[i * self.ncols + j] = v;
    }
    /// Number of values that are not the semiring zero.
    pub fn nnz(&self) -> usize {
        self.vals.iter().filter(|v| !S::is_zero(**v)).count()
    }

    /// To CSR (values equal to the semiring zero are absent).
    pub fn to_csr<I: Index>(&self) -> Result<Csr<S, I>, FormatError> {
        let mut row_ptr = vec![I::default()];
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        for i in 0..self.nrows {
            for j in 0..self.ncols {
                let v = self.vals[i * self.ncols + j];
                if !S::is_zero(v) {
                    cols.push(I::from_usize_or(j, "columns")?);
                    vals.push(v);
                }
            }
            row_ptr.push(I::from_usize_or(cols.len(), "stored entries")?);
        }
        Csr::try_from_parts(self.nrows, self.ncols, row_ptr, cols, vals)
    }

    /// `y = A x` in the semiring, rows in parallel (every value takes part; the zero
    /// annihilates).
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        crate::format::assert_x_len(x.len(), self.ncols);
        self.vals
            .par_chunks(self.ncols.max(1))
            .take(self.nrows)
            .map(|row| {
                row.iter()
                    .zip(x)
                    .enumerate()
                    .fold(S::zero(), |acc, (j, (a, b))| {
                        S::add(acc, S::mul_at(*a, *b, j as u64))
                    })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .chain(std::iter::repeat_n(
                S::zero(),
                if self.ncols == 0 { self.nrows } else { 0 },
            ))
            .collect()
    }
}
