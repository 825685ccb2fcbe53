//! ELLPACK: every row padded to the same width, stored column-major for coalesced loads.

use std::marker::PhantomData;

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::{FormatError, check_fill};
use crate::format::{ConvertOptions, Format};
use crate::index::Index;

/// ELLPACK with `width` slots per row, column-major: slot `k` of row `i` is at
/// `k * nrows + i`, so consecutive rows (GPU threads) read consecutive addresses.
///
/// Unused slots hold the column [`Index::SENTINEL`] and the value `S::zero()`, never a
/// literal 0: a kernel that skips the sentinel and one that multiplies the padding both
/// compute the right product, since the semiring zero annihilates.
#[derive(Clone, Debug, PartialEq)]
pub struct Ell<S: Semiring, I: Index = u32> {
    nrows: usize,
    ncols: usize,
    width: usize,
    col_idx: Vec<I>,
    vals: Vec<S::T>,
    _s: PhantomData<S>,
}

impl<S: Semiring, I: Index> Ell<S, I> {
    /// Maps every slot's value, padding included, into another semiring's value type (the
    /// layout is kept; `f(S::zero())` should be `S2::zero()` for the padding to stay padding).
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> Ell<S2, I> {
        Ell {
            nrows: self.nrows,
            ncols: self.ncols,
            width: self.width,
            col_idx: self.col_idx.clone(),
            vals: self.vals.par_iter().map(|v| f(*v)).collect(),
            _s: PhantomData,
        }
    }

    /// From CSR; refuses (before allocating) when `width * nrows` exceeds
    /// `opts.max_fill * nnz`.
    pub fn from_csr(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError> {
        let width = (0..a.nrows()).map(|i| a.row_len(i)).max().unwrap_or(0);
        Self::from_csr_width(a, width, opts.max_fill)
    }

    /// From the first `width` entries of each row of `a` (rows must not be longer).
    pub(crate) fn from_csr_width(
        a: &Csr<S, I>,
        width: usize,
        max_fill: f64,
    ) -> Result<Self, FormatError> {
        let n = a.nrows();
        let stored = (width as u128) * (n as u128);
        check_fill(
            Format::Ell,
            stored,
            a.nnz(),
            max_fill,
            size_of::<I>() + size_of::<S::T>(),
        )?;
        let len = usize::try_from(stored).map_err(|_| FormatError::IndexOverflow {
            what: "ELL slots",
            value: stored,
            index: "usize",
        })?;
        let mut col_idx = vec![I::SENTINEL; len];
        let mut vals = vec![S::zero(); len];
        for i in 0..n {
            let (c, v) = a.row(i);
            for k in 0..c.len().min(width) {
                col_idx[k * n + i] = c[k];
                vals[k * n + i] = v[k];
            }
        }
        Ok(Ell {
            nrows: n,
            ncols: a.ncols(),
            width,
            col_idx,
            vals,
            _s: PhantomData,
        })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Slots per row.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Column indices, column-major, [`Index::SENTINEL`] in unused slots.
    pub fn col_idx(&self) -> &[I] {
        &self.col_idx
    }
    /// Values, column-major, `S::zero()` in unused slots.
    pub fn vals(&self) -> &[S::T] {
        &self.vals
    }
    /// Number of stored entries (slots that are not padding).
    pub fn nnz(&self) -> usize {
        self.col_idx.iter().filter(|c| **c != I::SENTINEL).count()
    }

    /// Back to CSR (exact: padding is recognised by its sentinel column).
    pub fn to_csr(&self) -> Csr<S, I> {
        let n = self.nrows;
        let mut start = vec![0usize; n + 1];
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        for i in 0..n {
            for k in 0..self.width {
                let c = self.col_idx[k * n + i];
                if c != I::SENTINEL {
                    cols.push(c);
                    vals.push(self.vals[k * n + i]);
                }
            }
            start[i + 1] = cols.len();
        }
        Csr::from_row_buckets(n, self.ncols, &start, cols, vals)
    }

    /// `y = A x` in the semiring, rows in parallel.
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        crate::format::assert_x_len(x.len(), self.ncols);
        let n = self.nrows;
        (0..n)
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| {
                (0..self.width).fold(S::zero(), |acc, k| {
                    let c = self.col_idx[k * n + i];
                    if c == I::SENTINEL {
                        acc
                    } else {
                        let c = c.to_usize();
                        S::add(acc, S::mul_at(self.vals[k * n + i], x[c], c as u64))
                    }
                })
            })
            .collect()
    }
}
