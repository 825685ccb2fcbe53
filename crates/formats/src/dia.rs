//! Diagonal format: for matrices whose entries lie on a few diagonals (grids, banded).

use std::marker::PhantomData;

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::{FormatError, check_fill};
use crate::format::{ConvertOptions, Format};
use crate::index::Index;

/// DIA: a sorted list of diagonal offsets (`column - row`) and, for each, a dense array of
/// `nrows` values: `data[d * nrows + i] = A[i][i + offsets[d]]`.
///
/// Slots with no entry (inside the band, or hanging outside the matrix) hold `S::zero()`.
/// DIA cannot tell a stored entry equal to the semiring zero from padding, so such entries
/// are dropped on the way in. They contribute nothing to any product (zero is the identity
/// of `add` and annihilates `mul`); every other value, a literal 0 included (a zero-weight
/// edge in min-plus), is kept.
#[derive(Clone, Debug, PartialEq)]
pub struct Dia<S: Semiring, I: Index = u32> {
    nrows: usize,
    ncols: usize,
    offsets: Vec<i64>,
    data: Vec<S::T>,
    _s: PhantomData<(S, I)>,
}

impl<S: Semiring, I: Index> Dia<S, I> {
    /// Maps every stored value, padding included, into another semiring's value type (the
    /// diagonals are kept; `f(S::zero())` should be `S2::zero()`).
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> Dia<S2, I> {
        Dia {
            nrows: self.nrows,
            ncols: self.ncols,
            offsets: self.offsets.clone(),
            data: self.data.par_iter().map(|v| f(*v)).collect(),
            _s: PhantomData,
        }
    }

    /// From CSR; refuses (before allocating the data) when `diagonals * nrows` exceeds
    /// `opts.max_fill * nnz`.
    pub fn from_csr(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError> {
        let n = a.nrows();
        let span = n + a.ncols();
        let mut present = vec![false; span.max(1)];
        for (i, j, _) in a.iter() {
            present[j + n - i] = true; // offset j - i shifted by n
        }
        let offsets: Vec<i64> = present
            .iter()
            .enumerate()
            .filter(|(_, p)| **p)
            .map(|(k, _)| k as i64 - n as i64)
            .collect();
        let stored = offsets.len() as u128 * n as u128;
        check_fill(
            Format::Dia,
            stored,
            a.nnz(),
            opts.max_fill,
            size_of::<S::T>(),
        )?;
        let mut slot = vec![usize::MAX; span.max(1)];
        for (d, off) in offsets.iter().enumerate() {
            slot[(off + n as i64) as usize] = d;
        }
        let mut data = vec![S::zero(); offsets.len() * n];
        for (i, j, v) in a.iter() {
            data[slot[j + n - i] * n + i] = v;
        }
        Ok(Dia {
            nrows: n,
            ncols: a.ncols(),
            offsets,
            data,
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
    /// Diagonal offsets (`column - row`), increasing.
    pub fn offsets(&self) -> &[i64] {
        &self.offsets
    }
    /// Diagonal data, `nrows` values per diagonal.
    pub fn data(&self) -> &[S::T] {
        &self.data
    }
    /// Number of entries (values that are not the semiring zero).
    pub fn nnz(&self) -> usize {
        self.to_csr().nnz()
    }

    /// Back to CSR (values equal to the semiring zero are absent).
    pub fn to_csr(&self) -> Csr<S, I> {
        let n = self.nrows;
        let mut start = vec![0usize; n + 1];
        let mut cols = Vec::new();
        let mut vals = Vec::new();
        for i in 0..n {
            for (d, off) in self.offsets.iter().enumerate() {
                let j = i as i64 + off;
                if j < 0 || j >= self.ncols as i64 {
                    continue;
                }
                let v = self.data[d * n + i];
                if !S::is_zero(v) {
                    cols.push(I::try_from_usize(j as usize).expect("fits"));
                    vals.push(v);
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
                self.offsets
                    .iter()
                    .enumerate()
                    .fold(S::zero(), |acc, (d, off)| {
                        let j = i as i64 + off;
                        if j < 0 || j >= self.ncols as i64 {
                            acc
                        } else {
                            S::add(
                                acc,
                                S::mul_at(self.data[d * n + i], x[j as usize], j as u64),
                            )
                        }
                    })
            })
            .collect()
    }
}
