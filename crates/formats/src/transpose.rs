//! Transposing CSR on every core or on one (the same matrix either way), with a known peak of
//! memory ([`transpose_bytes`]) checked before anything is allocated.

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::build::Parts;
use crate::csr::Csr;
use crate::error::{FormatError, filled};
use crate::index::Index;
use crate::place::{keyed_bytes, place};

impl<S: Semiring, I: Index> Csr<S, I> {
    /// The transpose, or [`FormatError::TooLarge`] with the bytes needed
    /// ([`transpose_bytes`]) and available, before allocating.
    pub fn try_transpose(&self) -> Result<Csr<S, I>, FormatError> {
        let nnz = self.nnz();
        crate::error::check(
            transpose_bytes::<I>(self.ncols(), nnz, std::mem::size_of::<S::T>()),
            || {
                format!(
                    "the transpose of a {} x {} matrix",
                    self.nrows(),
                    self.ncols()
                )
            },
        )?;
        if nnz < u32::MAX as usize && parallel() {
            let (row_ptr, cols, vals) = par_transpose(
                self.ncols(),
                (self.row_ptr(), self.col_idx(), self.vals()),
                S::zero(),
            )?;
            return Csr::try_from_parts(self.ncols(), self.nrows(), row_ptr, cols, vals);
        }
        let ix = |v: usize| I::try_from_usize(v).expect("fits: the matrix has this many");
        let mut row_ptr = crate::error::filled(self.ncols() + 1, I::default(), "row pointers")?;
        for &c in self.col_idx() {
            row_ptr[c.to_usize() + 1] = ix(row_ptr[c.to_usize() + 1].to_usize() + 1);
        }
        for c in 0..self.ncols() {
            row_ptr[c + 1] = ix(row_ptr[c + 1].to_usize() + row_ptr[c].to_usize());
        }
        let mut cols = crate::error::filled(nnz, I::default(), "column indices")?;
        let mut vals = crate::error::filled(nnz, S::zero(), "values")?;
        // Rows in order: each row of the transpose comes out sorted. row_ptr[j] runs ahead as
        // the next free slot of row j, then is shifted back.
        for i in 0..self.nrows() {
            let (c, v) = self.row(i);
            for (&j, &x) in c.iter().zip(v) {
                let p = row_ptr[j.to_usize()].to_usize();
                cols[p] = ix(i);
                vals[p] = x;
                row_ptr[j.to_usize()] = ix(p + 1);
            }
        }
        for j in (1..=self.ncols()).rev() {
            row_ptr[j] = row_ptr[j - 1];
        }
        row_ptr[0] = I::default();
        Csr::try_from_parts(self.ncols(), self.nrows(), row_ptr, cols, vals)
    }
}

/// Bytes [`Csr::try_transpose`] allocates at its peak for a matrix of `ncols` columns and
/// `nnz` entries, on the current thread pool: the result's row pointers, columns and values
/// (and on every core the entries keyed by row, 8 bytes each, and the column counters).
pub fn transpose_bytes<I: Index>(ncols: usize, nnz: usize, value_bytes: usize) -> u64 {
    let i = std::mem::size_of::<I>() as u64;
    let entry = i + value_bytes as u64;
    if nnz < u32::MAX as usize && parallel() {
        return keyed_bytes(ncols, nnz, i, entry);
    }
    (nnz as u64)
        .saturating_mul(entry)
        .saturating_add((ncols as u64 + 1).saturating_mul(i))
}

/// The transpose's row pointers, columns and values of the CSR `(rp, ci, vs)` of `n` columns
/// on every core (fewer than `2^32` entries): columns counted (atomically), each entry placed
/// in its column as a key (row, position), each column's keys sorted, so the result does not
/// depend on the thread count. Generic over the value type, not the semiring (compiled once
/// for all semirings of a type).
pub(crate) fn par_transpose<T: Copy + Send + Sync, I: Index>(
    n: usize,
    (rp, ci, vs): (&[I], &[I], &[T]),
    zero: T,
) -> Result<Parts<I, T>, FormatError> {
    let nnz = vs.len();
    let ix = |v: usize| I::try_from_usize(v).expect("fits: the matrix has this many");
    let (row_ptr, keys) = place::<I>(n, nnz, "the entries keyed by row", false, &|p0, p1, out| {
        // The row of entry p0, then along the rows.
        let mut i = rp.partition_point(|r| r.to_usize() <= p0) - 1;
        for (p, c) in (p0..p1).zip(&ci[p0..p1]) {
            while rp[i + 1].to_usize() <= p {
                i += 1;
            }
            out.push((c.to_usize() as u32, ((i as u64) << 32) | p as u64));
        }
    })?;
    let mut cols = filled(nnz, I::default(), "column indices")?;
    let mut vals = filled(nnz, zero, "values")?;
    cols.par_iter_mut()
        .zip(vals.par_iter_mut())
        .zip(keys.par_iter())
        .with_min_len(1 << 14)
        .for_each(|((c, v), &key)| {
            *c = ix((key >> 32) as usize);
            *v = vs[(key & 0xffff_ffff) as usize];
        });
    Ok((row_ptr, cols, vals))
}

/// Whether a transpose runs on every core: with at least [`PAR_THREADS`] threads. Below, one
/// core's counting sort is faster than the atomic placement and sorts (a transpose of
/// Kronecker 22 on the 2-core development machine: 2.6 s on one core, 3.2 s on two threads).
/// Both give the same matrix.
pub(crate) fn parallel() -> bool {
    rayon::current_num_threads() >= PAR_THREADS
}

/// The fewest threads for which [`parallel`] holds.
const PAR_THREADS: usize = 4;
