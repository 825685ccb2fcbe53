//! Compressed sparse rows: the hub every other format converts through.

use std::marker::PhantomData;

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::error::FormatError;
use crate::format::Format;
use crate::index::{Index, check_fits};

/// Compressed sparse rows: row `i` holds the entries `row_ptr[i]..row_ptr[i + 1]` of
/// `col_idx` and `vals`, with strictly increasing columns (no duplicates).
#[derive(Clone, Debug, PartialEq)]
pub struct Csr<S: Semiring, I: Index = u32> {
    nrows: usize,
    ncols: usize,
    row_ptr: Vec<I>,
    col_idx: Vec<I>,
    vals: Vec<S::T>,
    _s: PhantomData<S>,
}

impl<S: Semiring, I: Index> Csr<S, I> {
    /// Builds from raw parts, checking every invariant.
    pub fn try_from_parts(
        nrows: usize,
        ncols: usize,
        row_ptr: Vec<I>,
        col_idx: Vec<I>,
        vals: Vec<S::T>,
    ) -> Result<Self, FormatError> {
        check_parts(nrows, ncols, &row_ptr, &col_idx, vals.len())?;
        Ok(Csr {
            nrows,
            ncols,
            row_ptr,
            col_idx,
            vals,
            _s: PhantomData,
        })
    }

    /// An `nrows x ncols` matrix with no entries.
    pub fn empty(nrows: usize, ncols: usize) -> Result<Self, FormatError> {
        check_fits::<I>(nrows, ncols, 0)?;
        Ok(Csr {
            nrows,
            ncols,
            row_ptr: vec![I::default(); nrows + 1],
            col_idx: vec![],
            vals: vec![],
            _s: PhantomData,
        })
    }

    /// From entries bucketed by row (`start[i]..start[i + 1]`), each bucket in any column
    /// order: sorts each row by column (stably) and combines duplicates with `S::add`.
    pub(crate) fn from_row_buckets(
        nrows: usize,
        ncols: usize,
        start: &[usize],
        mut cols: Vec<I>,
        mut vals: Vec<S::T>,
    ) -> Self {
        let mut row_ptr = Vec::with_capacity(nrows + 1);
        row_ptr.push(I::default());
        let mut w = 0usize;
        let mut scratch: Vec<(I, S::T)> = Vec::new();
        for i in 0..nrows {
            let (a, b) = (start[i], start[i + 1]);
            let sorted = cols[a..b].windows(2).all(|p| p[0] < p[1]);
            if sorted {
                for k in a..b {
                    cols[w] = cols[k];
                    vals[w] = vals[k];
                    w += 1;
                }
            } else {
                scratch.clear();
                scratch.extend((a..b).map(|k| (cols[k], vals[k])));
                scratch.sort_by_key(|e| e.0); // stable: duplicates keep their order
                let mut last: Option<I> = None;
                for &(c, v) in &scratch {
                    if last == Some(c) {
                        vals[w - 1] = S::add(vals[w - 1], v);
                    } else {
                        cols[w] = c;
                        vals[w] = v;
                        w += 1;
                        last = Some(c);
                    }
                }
            }
            row_ptr.push(I::try_from_usize(w).expect("fewer entries than the input"));
        }
        cols.truncate(w);
        vals.truncate(w);
        Csr {
            nrows,
            ncols,
            row_ptr,
            col_idx: cols,
            vals,
            _s: PhantomData,
        }
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.nrows
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.vals.len()
    }
    /// Row pointers (`nrows + 1` entries).
    pub fn row_ptr(&self) -> &[I] {
        &self.row_ptr
    }
    /// Column indices.
    pub fn col_idx(&self) -> &[I] {
        &self.col_idx
    }
    /// Values.
    pub fn vals(&self) -> &[S::T] {
        &self.vals
    }
    /// Mutable values (the structure cannot change through this).
    pub fn vals_mut(&mut self) -> &mut [S::T] {
        &mut self.vals
    }
    /// The columns and values of row `i`.
    #[track_caller]
    pub fn row(&self, i: usize) -> (&[I], &[S::T]) {
        let (a, b) = (self.row_ptr[i].to_usize(), self.row_ptr[i + 1].to_usize());
        (&self.col_idx[a..b], &self.vals[a..b])
    }
    /// Length of row `i`.
    pub fn row_len(&self, i: usize) -> usize {
        self.row_ptr[i + 1].to_usize() - self.row_ptr[i].to_usize()
    }
    /// The value at `(i, j)`, if stored.
    pub fn get(&self, i: usize, j: usize) -> Option<S::T> {
        let (c, v) = self.row(i);
        c.binary_search_by(|x| x.to_usize().cmp(&j))
            .ok()
            .map(|k| v[k])
    }
    /// Iterates `(row, col, value)` in row-major order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize, S::T)> + '_ {
        (0..self.nrows).flat_map(move |i| {
            let (c, v) = self.row(i);
            c.iter().zip(v).map(move |(c, v)| (i, c.to_usize(), *v))
        })
    }

    /// The transpose (equivalently, this matrix in CSC order).
    ///
    /// # Panics
    /// If the machine does not have the memory ([`Csr::try_transpose`] returns the error).
    pub fn transpose(&self) -> Csr<S, I> {
        self.try_transpose()
            .unwrap_or_else(|e| panic!("transposing a matrix: {e}"))
    }

    /// The matrix without its stored values equal to the semiring's zero (which are no entries:
    /// padding of other formats, or zeros given explicitly); `self` when it has none.
    ///
    /// ```
    /// use semigraph_formats::Csr;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let inf = i32::MAX; // min-plus's zero
    /// let a = Csr::<MinPlus<i32>>::try_from_parts(2, 2, vec![0, 2, 2], vec![0, 1], vec![inf, 3])?;
    /// assert_eq!(a.without_zeros()?.iter().collect::<Vec<_>>(), vec![(0, 1, 3)]);
    /// # Ok::<(), semigraph_formats::FormatError>(())
    /// ```
    pub fn without_zeros(self) -> Result<Csr<S, I>, FormatError> {
        if !self.vals.par_iter().any(|v| S::is_zero(*v)) {
            return Ok(self);
        }
        let mut rp = Vec::with_capacity(self.nrows + 1);
        let (mut ci, mut vals) = (Vec::new(), Vec::new());
        rp.push(I::from_usize_or(0, "row pointer")?);
        for i in 0..self.nrows {
            let (cols, vs) = self.row(i);
            for (&j, &v) in cols.iter().zip(vs) {
                if !S::is_zero(v) {
                    ci.push(j);
                    vals.push(v);
                }
            }
            rp.push(I::from_usize_or(ci.len(), "row pointer")?);
        }
        Csr::try_from_parts(self.nrows, self.ncols, rp, ci, vals)
    }

    /// Changes the semiring keeping the values (same value type): CSR has no padding.
    pub fn retype<S2: Semiring<T = S::T>>(self) -> Csr<S2, I> {
        Csr {
            nrows: self.nrows,
            ncols: self.ncols,
            row_ptr: self.row_ptr,
            col_idx: self.col_idx,
            vals: self.vals,
            _s: PhantomData,
        }
    }

    /// Maps every value into another semiring's value type (the structure is kept).
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> Csr<S2, I> {
        Csr {
            nrows: self.nrows,
            ncols: self.ncols,
            row_ptr: self.row_ptr.clone(),
            col_idx: self.col_idx.clone(),
            vals: self.vals.par_iter().map(|v| f(*v)).collect(),
            _s: PhantomData,
        }
    }

    /// The pattern in semiring `S2`: the same structure, every entry `S2::one()`, except
    /// those equal to `S`'s zero ([`Semiring::is_zero`]), which become `S2::zero()`: an entry
    /// equal to the zero is no arc (DIA and dense cannot even store it), as in masks.
    pub fn pattern<S2: Semiring>(&self) -> Csr<S2, I> {
        self.map::<S2>(crate::entries::pattern_value::<S, S2>)
    }

    /// `y = A x` (GraphBLAS `mxv`): `y[i] = add_k mul(A[i][k], x[k])`, along the rows. With
    /// `A[u][v]` the arc `u -> v`, this combines each vertex's *out*-arcs with the values at
    /// their heads: distances *to* a target. See [`Csr::vxm`] for the other direction.
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn mxv(&self, x: &[S::T]) -> Vec<S::T> {
        self.spmv(x)
    }

    /// `y = x A` (GraphBLAS `vxm`): `y[j] = add_k mul(A[k][j], x[k])`, along the columns. With
    /// `A[u][v]` the arc `u -> v`, this pushes values along out-arcs: one relaxation from a
    /// source. The same as `A^T x` (it runs over the transpose).
    ///
    /// ```
    /// use semigraph_formats::Coo;
    /// use semigraph_semiring::MinPlus;
    ///
    /// // Arcs 0 -> 1 (weight 5) and 1 -> 2 (weight 7).
    /// let a = Coo::<MinPlus<f32>>::try_from_triplets(3, 3, vec![0, 1], vec![1, 2], vec![5.0, 7.0])?
    ///     .to_csr();
    /// let d = [0.0, f32::INFINITY, f32::INFINITY];
    /// assert_eq!(a.vxm(&d), vec![f32::INFINITY, 5.0, f32::INFINITY]); // from vertex 0
    /// assert_eq!(a.mxv(&d), vec![f32::INFINITY, f32::INFINITY, f32::INFINITY]); // to vertex 0
    /// # Ok::<(), semigraph_formats::FormatError>(())
    /// ```
    ///
    /// # Panics
    /// If `x.len() != nrows`.
    #[track_caller]
    pub fn vxm(&self, x: &[S::T]) -> Vec<S::T> {
        crate::format::assert_x_len(x.len(), self.nrows);
        self.transpose().spmv(x)
    }

    /// `y = A x` in the semiring, rows in parallel (the same as [`Csr::mxv`]).
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        crate::format::assert_x_len(x.len(), self.ncols);
        (0..self.nrows)
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| {
                let (c, v) = self.row(i);
                c.iter().zip(v).fold(S::zero(), |acc, (c, a)| {
                    let c = c.to_usize();
                    S::add(acc, S::mul_at(*a, x[c], c as u64))
                })
            })
            .collect()
    }
}

/// Every invariant of a CSR's parts (the pattern and the number of values): compiled once per
/// index type, not once per semiring.
fn check_parts<I: Index>(
    nrows: usize,
    ncols: usize,
    row_ptr: &[I],
    col_idx: &[I],
    nvals: usize,
) -> Result<(), FormatError> {
    check_fits::<I>(nrows, ncols, nvals)?;
    let bad = |reason: String| FormatError::InvalidStructure {
        format: Format::Csr,
        reason,
    };
    if row_ptr.len() != nrows + 1 {
        return Err(bad(format!(
            "row_ptr has {} entries, expected {}",
            row_ptr.len(),
            nrows + 1
        )));
    }
    if col_idx.len() != nvals {
        return Err(bad(format!(
            "{} column indices, {nvals} values",
            col_idx.len(),
        )));
    }
    if row_ptr[0].to_usize() != 0 || row_ptr[nrows].to_usize() != nvals {
        return Err(bad(
            "row_ptr must start at 0 and end at the number of entries".into(),
        ));
    }
    // Rows checked on every core; the first bad row (in order) is reported.
    let row_fault = |i: usize| -> Option<String> {
        let (a, b) = (row_ptr[i].to_usize(), row_ptr[i + 1].to_usize());
        if a > b {
            return Some(format!("row_ptr decreases at row {i}"));
        }
        for k in a..b {
            let c = col_idx[k].to_usize();
            if c >= ncols {
                return Some(format!(
                    "column {c} in row {i} is out of range (ncols {ncols})"
                ));
            }
            if k > a && col_idx[k - 1] >= col_idx[k] {
                return Some(format!("columns of row {i} are not strictly increasing"));
            }
        }
        None
    };
    if let Some(reason) = (0..nrows)
        .into_par_iter()
        .with_min_len(1 << 12)
        .find_map_first(row_fault)
    {
        return Err(bad(reason));
    }
    Ok(())
}
