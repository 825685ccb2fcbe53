//! Coordinate (triplet) format.

use std::marker::PhantomData;

use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::FormatError;
use crate::index::{Index, check_fits};

/// A sparse matrix as three parallel arrays `(rows[k], cols[k], vals[k])`.
///
/// Entries may come in any order and may repeat; [`Coo::to_csr`] sorts them and combines
/// duplicates with the semiring's `add` (for min-plus: the smallest weight, scipy's rule).
/// An entry whose value is the semiring zero is still an entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Coo<S: Semiring, I: Index = u32> {
    nrows: usize,
    ncols: usize,
    /// Row of each entry.
    pub rows: Vec<I>,
    /// Column of each entry.
    pub cols: Vec<I>,
    /// Value of each entry.
    pub vals: Vec<S::T>,
    _s: PhantomData<S>,
}

impl<S: Semiring, I: Index> Coo<S, I> {
    /// `a` as triplets, in row-major order.
    pub fn from_csr(a: &Csr<S, I>) -> Coo<S, I> {
        let mut rows = Vec::with_capacity(a.nnz());
        for i in 0..a.nrows() {
            rows.extend(std::iter::repeat_n(
                I::try_from_usize(i).expect("fits"),
                a.row_len(i),
            ));
        }
        Coo::try_from_triplets(
            a.nrows(),
            a.ncols(),
            rows,
            a.col_idx().to_vec(),
            a.vals().to_vec(),
        )
        .expect("a valid CSR gives valid triplets")
    }

    /// An empty `nrows x ncols` matrix; errors if the shape does not fit `I`.
    pub fn new(nrows: usize, ncols: usize) -> Result<Self, FormatError> {
        check_fits::<I>(nrows, ncols, 0)?;
        Ok(Coo {
            nrows,
            ncols,
            rows: vec![],
            cols: vec![],
            vals: vec![],
            _s: PhantomData,
        })
    }

    /// Builds from triplets, checking lengths and bounds.
    pub fn try_from_triplets(
        nrows: usize,
        ncols: usize,
        rows: Vec<I>,
        cols: Vec<I>,
        vals: Vec<S::T>,
    ) -> Result<Self, FormatError> {
        check_fits::<I>(nrows, ncols, vals.len())?;
        let bad = |reason: String| FormatError::InvalidStructure {
            format: crate::Format::Coo,
            reason,
        };
        if rows.len() != vals.len() || cols.len() != vals.len() {
            return Err(bad(format!(
                "{} rows, {} cols, {} values",
                rows.len(),
                cols.len(),
                vals.len()
            )));
        }
        for (k, (r, c)) in rows.iter().zip(&cols).enumerate() {
            if r.to_usize() >= nrows || c.to_usize() >= ncols {
                return Err(bad(format!(
                    "entry {k} at ({}, {}) outside {nrows} x {ncols}",
                    r.to_usize(),
                    c.to_usize()
                )));
            }
        }
        Ok(Coo {
            nrows,
            ncols,
            rows,
            cols,
            vals,
            _s: PhantomData,
        })
    }

    /// Appends an entry.
    ///
    /// # Panics
    /// If `(row, col)` is outside the matrix (a contract violation).
    #[track_caller]
    pub fn push(&mut self, row: usize, col: usize, val: S::T) {
        assert!(
            row < self.nrows && col < self.ncols,
            "entry ({row}, {col}) outside {} x {}",
            self.nrows,
            self.ncols
        );
        // In bounds, so it fits I (the shape was checked).
        self.rows
            .push(I::try_from_usize(row).expect("checked shape"));
        self.cols
            .push(I::try_from_usize(col).expect("checked shape"));
        self.vals.push(val);
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of stored entries (duplicates counted).
    pub fn nnz(&self) -> usize {
        self.vals.len()
    }

    /// Iterates `(row, col, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, S::T)> + '_ {
        self.rows
            .iter()
            .zip(&self.cols)
            .zip(&self.vals)
            .map(|((r, c), v)| (r.to_usize(), c.to_usize(), *v))
    }

    /// Converts to CSR: sorted by row then column, duplicates combined with `S::add` in
    /// the order they appear.
    pub fn to_csr(&self) -> Csr<S, I> {
        let n = self.nrows;
        let count = crate::index::bucket_starts(&self.rows, n);
        // Bucket by row, keeping the original order inside a row.
        let mut next = count.clone();
        let mut cols = vec![I::default(); self.nnz()];
        let mut vals = vec![S::zero(); self.nnz()];
        for k in 0..self.nnz() {
            let r = self.rows[k].to_usize();
            cols[next[r]] = self.cols[k];
            vals[next[r]] = self.vals[k];
            next[r] += 1;
        }
        Csr::from_row_buckets(self.nrows, self.ncols, &count, cols, vals)
    }

    /// Changes the semiring keeping the values (same value type).
    pub fn retype<S2: Semiring<T = S::T>>(self) -> Coo<S2, I> {
        Coo {
            nrows: self.nrows,
            ncols: self.ncols,
            rows: self.rows,
            cols: self.cols,
            vals: self.vals,
            _s: PhantomData,
        }
    }

    /// Maps every value into another semiring's value type.
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T) -> Coo<S2, I> {
        Coo {
            nrows: self.nrows,
            ncols: self.ncols,
            rows: self.rows.clone(),
            cols: self.cols.clone(),
            vals: self.vals.iter().map(|v| f(*v)).collect(),
            _s: PhantomData,
        }
    }

    /// `y = A x` in the semiring (reference implementation, serial).
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        crate::format::assert_x_len(x.len(), self.ncols);
        let mut y = vec![S::zero(); self.nrows];
        for (r, c, v) in self.iter() {
            y[r] = S::add(y[r], S::mul_at(v, x[c], c as u64));
        }
        y
    }
}
