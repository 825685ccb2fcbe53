//! 1-D row blocks: which vertices each rank owns.

use crate::error::{Error, Result};

/// A split of the vertices `0..n` into `k` contiguous blocks, one per rank: rank `r` owns
/// `offsets[r]..offsets[r + 1]` (the rows of the matrices it holds, and its segment of every
/// vector).
///
/// ```
/// use semigraph_algos::dist::Partition;
///
/// // Vertex 0 has 6 arcs, the others 0: rank 0 takes vertex 0 (weight 7 of 10), rank 1 the rest.
/// let p = Partition::by_weight(&[0u32, 6, 6, 6, 6], 2)?;
/// assert_eq!(p.range(0), 0..1);
/// assert_eq!(p.range(1), 1..4);
/// assert_eq!(p.owner(3), 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    offsets: Vec<usize>,
}

impl Partition {
    /// `k` blocks of `n / k` vertices (the first `n % k` one more).
    ///
    /// # Errors
    /// `InvalidArgument` for `k == 0`.
    pub fn even(n: usize, k: usize) -> Result<Partition> {
        check_ranks(k)?;
        Ok(Partition {
            offsets: (0..=k).map(|r| n * r / k).collect(),
        })
    }

    /// The blocks `offsets[r]..offsets[r + 1]`.
    ///
    /// # Errors
    /// `InvalidArgument` unless `offsets` has at least two entries, starts at 0 and never
    /// decreases.
    ///
    /// ```
    /// use semigraph_algos::dist::Partition;
    ///
    /// let p = Partition::from_offsets(vec![0, 3, 3, 5])?;
    /// assert_eq!((p.ranks(), p.range(1), p.owner(4)), (3, 3..3, 2));
    /// assert!(Partition::from_offsets(vec![0, 4, 2]).is_err());
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn from_offsets(offsets: Vec<usize>) -> Result<Partition> {
        if offsets.len() < 2 || offsets[0] != 0 || offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(Error::InvalidArgument(format!(
                "partition offsets start at 0, never decrease and name at least one block: {offsets:?}"
            )));
        }
        Ok(Partition { offsets })
    }

    /// `k` blocks balanced by weight, where vertex `v` weighs its arcs plus one (its row
    /// `row_ptr[v]..row_ptr[v + 1]` of the matrix the ranks split, plus the vector work):
    /// block `r` ends at the first vertex where the running weight reaches `r + 1` k-ths of
    /// the total. `row_ptr` is a CSR row pointer (`n + 1` entries, non-decreasing).
    ///
    /// # Errors
    /// `InvalidArgument` for `k == 0` or an empty `row_ptr`.
    pub fn by_weight<I: Copy + Into<u64>>(row_ptr: &[I], k: usize) -> Result<Partition> {
        check_ranks(k)?;
        let Some(n) = row_ptr.len().checked_sub(1) else {
            return Err(Error::InvalidArgument(
                "a row pointer has at least one entry".into(),
            ));
        };
        let weight = |v: usize| row_ptr[v].into() + v as u64;
        let total = weight(n);
        let mut offsets = Vec::with_capacity(k + 1);
        offsets.push(0);
        for r in 1..k {
            let target = (total as u128 * r as u128 / k as u128) as u64;
            // The first vertex boundary whose weight before it reaches the target.
            let (mut lo, mut hi) = (*offsets.last().unwrap_or(&0), n);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if weight(mid) < target {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            offsets.push(lo);
        }
        offsets.push(n);
        Ok(Partition { offsets })
    }

    /// The ranks (blocks).
    pub fn ranks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The vertices (`n`).
    pub fn n(&self) -> usize {
        self.offsets[self.ranks()]
    }

    /// The vertices rank `r` owns.
    pub fn range(&self, r: usize) -> std::ops::Range<usize> {
        self.offsets[r]..self.offsets[r + 1]
    }

    /// The block boundaries, `ranks() + 1` of them, from 0 to `n`.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The rank that owns vertex `v` (`v < n`).
    pub fn owner(&self, v: usize) -> usize {
        debug_assert!(v < self.n());
        self.offsets.partition_point(|&o| o <= v) - 1
    }
}

fn check_ranks(k: usize) -> Result<()> {
    if k == 0 {
        return Err(Error::InvalidArgument(
            "a partition needs at least one rank".into(),
        ));
    }
    Ok(())
}
