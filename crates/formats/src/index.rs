//! Index types for row pointers and column indices.

use std::fmt::Debug;
use std::hash::Hash;

use crate::error::FormatError;

/// An unsigned index type: `u32` (the default, half the memory traffic) or `u64`.
///
/// Every conversion from `usize` is checked: a size that does not fit is a
/// [`FormatError::IndexOverflow`], never a silent wrap. The largest value is reserved as the
/// ELL padding sentinel, so at most `MAX - 1` rows or columns are addressable.
pub trait Index: Copy + Ord + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The padding sentinel (`MAX`).
    const SENTINEL: Self;
    /// Short name used in kernel keys (`u32`, `u64`).
    const NAME: &'static str;
    /// Checked conversion from `usize`.
    fn try_from_usize(v: usize) -> Option<Self>;
    /// Widening conversion to `usize`.
    fn to_usize(self) -> usize;
    /// Conversion from `usize`, or the overflow error naming `what`.
    fn from_usize_or(v: usize, what: &'static str) -> Result<Self, FormatError> {
        match Self::try_from_usize(v) {
            Some(i) if i != Self::SENTINEL => Ok(i),
            _ => Err(FormatError::IndexOverflow {
                what,
                value: v as u128,
                index: Self::NAME,
            }),
        }
    }
}

impl Index for u32 {
    const SENTINEL: u32 = u32::MAX;
    const NAME: &'static str = "u32";
    #[inline]
    fn try_from_usize(v: usize) -> Option<u32> {
        u32::try_from(v).ok()
    }
    #[inline]
    fn to_usize(self) -> usize {
        self as usize
    }
}

impl Index for u64 {
    const SENTINEL: u64 = u64::MAX;
    const NAME: &'static str = "u64";
    #[inline]
    fn try_from_usize(v: usize) -> Option<u64> {
        u64::try_from(v).ok()
    }
    #[inline]
    fn to_usize(self) -> usize {
        self as usize
    }
}

/// Checks that a matrix of `nrows x ncols` with `nnz` entries is addressable with `I`.
pub fn check_fits<I: Index>(nrows: usize, ncols: usize, nnz: usize) -> Result<(), FormatError> {
    I::from_usize_or(nrows, "rows")?;
    I::from_usize_or(ncols, "columns")?;
    I::from_usize_or(nnz, "stored entries")?;
    Ok(())
}

/// Counting-sort offsets: `starts[b]..starts[b + 1]` is where the keys equal to `b` go,
/// for keys in `0..n`.
pub(crate) fn bucket_starts<I: Index>(keys: &[I], n: usize) -> Vec<usize> {
    let mut starts = vec![0usize; n + 1];
    for k in keys {
        starts[k.to_usize() + 1] += 1;
    }
    for b in 0..n {
        starts[b + 1] += starts[b];
    }
    starts
}
