//! How a split is planned before it starts: the fewest blocks of 32-bit row offsets an edge
//! list takes ([`blocks_for`]), and the host memory the split of an edge list takes
//! ([`split_host_bytes`]), both from the in-degrees the split balances.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use semigraph_formats::EdgeList;

use super::Partition;
use crate::error::{Error, Result};

/// The fewest ranks over which [`DistGraph::from_edges`](super::DistGraph::from_edges) splits `g` into blocks that each
/// hold at most 2^32 - 1 arcs (a block's 32-bit row offsets), `g`'s vertices balanced by
/// in-arcs as there: 1 for a graph one CSR holds. How many blocks a graph past that limit
/// takes on one device (`semigraph-gpu`'s `SharedComm`).
///
/// # Errors
/// `InvalidArgument` if no split fits: a vertex with 2^32 or more in-arcs. `g`'s format
/// errors (out-of-range ids).
///
/// # Complexity
/// `O(m)` work on every core (the in-degrees), then `O(k log n)` a rank count tried.
///
/// ```
/// use semigraph_algos::dist::blocks_for;
/// use semigraph_formats::EdgeList;
///
/// let mut g = EdgeList::new(3, 3);
/// (g.src, g.dst) = (vec![0, 1], vec![1, 2]);
/// assert_eq!(blocks_for(&g)?, 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn blocks_for(g: &EdgeList) -> Result<usize> {
    g.validate()?;
    if g.len() <= u32::MAX as usize {
        return Ok(1);
    }
    fewest_blocks(&in_offsets(g), u32::MAX as u64).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "no split of {} arcs into blocks of 32-bit row offsets: a vertex has 2^32 or more \
             in-arcs",
            g.len()
        ))
    })
}

/// The fewest ranks over which [`Partition::by_weight`] of `at_ptr` leaves no block of more
/// than `limit` arcs; `None` where a vertex alone has more. Tried from the total's share
/// (no fewer can hold it) up, one count at a time: the first that fits is the answer.
fn fewest_blocks(at_ptr: &[u64], limit: u64) -> Option<usize> {
    let n = at_ptr.len() - 1;
    if at_ptr.windows(2).any(|w| w[1] - w[0] > limit) {
        return None;
    }
    let mut k = (at_ptr[n].div_ceil(limit.max(1)) as usize).max(1);
    loop {
        let part = Partition::by_weight(at_ptr, k.min(n.max(1))).ok()?;
        if widest_block(&part, at_ptr, limit).is_none() {
            return Some(part.ranks());
        }
        if k >= n {
            return None;
        }
        k += 1;
    }
}

/// An upper bound of the host memory [`DistGraph::from_edges`](super::DistGraph::from_edges) takes beside the edge list
/// while it builds the largest rank's blocks (`rows` vertices, `arcs` in-arcs; the blocks are
/// made one rank at a time, each handed to its backend before the next): the in-degree
/// offsets, then the largest of the arcs' selection (rayon's collect of the kept places,
/// `usize` each, may hold them twice), the selected list (`list_bytes` of weight an arc)
/// beside its CSR build ([`semigraph_formats::csr_build_bytes`]), and the pull block
/// (`value_bytes` a value) beside the out-block and the push block (its transpose), as
/// `(push, out)` asks. The split refuses to start where the machine has less (what a
/// backend then holds of the blocks is the backend's: device memory on a GPU).
///
/// ```
/// use semigraph_algos::dist::split_host_bytes;
///
/// // 1,000 vertices, 50,000 in-arcs into the 400 of the largest block, a pattern of u32.
/// let bytes = split_host_bytes(1_000, (400, 50_000), 0, 4, (true, false));
/// assert!(bytes > 50_000 * 16);
/// ```
pub fn split_host_bytes(
    n: usize,
    (rows, arcs): (usize, usize),
    list_bytes: usize,
    value_bytes: usize,
    (push, out): (bool, bool),
) -> u64 {
    let (n, rows, m) = (n as u64, rows as u64, arcs as u64);
    let (w, v) = (list_bytes as u64, value_bytes as u64);
    // The in-degrees and their running sums, held at once while the sums are made.
    let offsets = 16 * (n + 1);
    let select = (16 + w) * m;
    let list = (8 + w) * m;
    let build = list
        + semigraph_formats::csr_build_bytes::<u32>(rows as usize, n as usize, arcs, value_bytes);
    let block = (4 + v) * m + 4 * (rows + 1);
    let second = (4 + v) * m + 4 * (n + 1);
    let making = select.max(build);
    // The pull block is held while the out-block is made, then both while the push block is
    // transposed from the pull block.
    let with_out = if out { block + making } else { 0 };
    let uploading = block + if out { block } else { 0 } + if push { second } else { 0 };
    offsets + making.max(with_out).max(uploading)
}

/// The row pointer of `A^T` from `g`'s arcs (the in-degrees' running sums), `n + 1` entries:
/// the partition's weights. One pass over the arcs on every core.
pub(super) fn in_offsets(g: &EdgeList) -> Vec<u64> {
    let indeg: Vec<AtomicU64> = (0..g.nrows)
        .into_par_iter()
        .map(|_| AtomicU64::new(0))
        .collect();
    g.dst.par_iter().for_each(|&v| {
        indeg[v as usize].fetch_add(1, Ordering::Relaxed);
    });
    let mut at_ptr = Vec::with_capacity(g.nrows + 1);
    at_ptr.push(0u64);
    for d in &indeg {
        at_ptr.push(at_ptr[at_ptr.len() - 1] + d.load(Ordering::Relaxed));
    }
    at_ptr
}

/// The first rank of `part` whose vertices have more than `limit` in-arcs (`at_ptr`: the
/// in-degrees' running sums), and that count.
pub(super) fn widest_block(part: &Partition, at_ptr: &[u64], limit: u64) -> Option<(usize, u64)> {
    (0..part.ranks())
        .map(|r| (r, at_ptr[part.range(r).end] - at_ptr[part.range(r).start]))
        .find(|&(_, arcs)| arcs > limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fewest_blocks` against trying every rank count: the same count, or none where none
    /// fits.
    #[test]
    fn fewest_blocks_is_the_smallest_split_within_the_limit() {
        let rng = semigraph_formats::rng::Rng::new(7);
        let mut k = 0;
        let mut draw = |n: u64| {
            k += 1;
            rng.below(k, n)
        };
        for case in 0..400 {
            let n = 1 + draw(60) as usize;
            let mut at_ptr = vec![0u64];
            for _ in 0..n {
                let d = match draw(10) {
                    0 => draw(200),
                    _ => draw(12),
                };
                at_ptr.push(at_ptr[at_ptr.len() - 1] + d);
            }
            let limit = 1 + draw(150);
            let fits = |k: usize| {
                widest_block(&Partition::by_weight(&at_ptr, k).unwrap(), &at_ptr, limit).is_none()
            };
            let want = (1..=n).find(|&k| fits(k));
            assert_eq!(fewest_blocks(&at_ptr, limit), want, "case {case}");
        }
    }
}
