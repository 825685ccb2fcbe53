//! Building CSR from arcs and transposing CSR with a known, small peak of memory, every array
//! allocated fallibly: a graph too large for the machine is refused with the bytes needed
//! (before anything is allocated, from [`csr_build_bytes`] and [`transpose_bytes`]) instead of
//! aborting half-way.

use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::{FormatError, check, filled};
use crate::index::{Index, check_fits};

/// Bytes [`EdgeList::to_csr`](crate::EdgeList::to_csr) (and `to_pattern_csr`) hold at their peak for `m` arcs of an `nrows x ncols` matrix with
/// `I` indices and `value_bytes`-byte values: the arc order (`m` indices), the row pointers
/// and the column counts (`nrows + ncols + 2` indices), and the result's columns and values.
pub fn csr_build_bytes<I: Index>(nrows: usize, ncols: usize, m: usize, value_bytes: usize) -> u64 {
    let i = std::mem::size_of::<I>() as u64;
    let (n, m) = ((nrows + ncols + 2) as u64, m as u64);
    m.saturating_mul(2 * i + value_bytes as u64)
        .saturating_add(n.saturating_mul(i))
}

/// The CSR matrix of the arcs `src[k] -> dst[k]` with values `value(k)`: rows sorted by
/// column, repeated arcs combined with `S::add` in the order they are listed.
///
/// Two stable counting sorts (by column into an arc order, then by row along it) give sorted
/// rows without sorting any row, so the peak is [`csr_build_bytes`] whatever the degrees.
pub(crate) fn csr_from_arcs<S: Semiring, I: Index>(
    nrows: usize,
    ncols: usize,
    src: &[u32],
    dst: &[u32],
    value: impl Fn(usize) -> Result<S::T, FormatError>,
) -> Result<Csr<S, I>, FormatError> {
    let m = src.len();
    check_fits::<I>(nrows, ncols, m)?;
    let what = || format!("a {nrows} x {ncols} matrix with {m} entries");
    check(
        csr_build_bytes::<I>(nrows, ncols, m, std::mem::size_of::<S::T>()),
        what,
    )?;
    let ix = |v: usize| I::try_from_usize(v).expect("checked by check_fits");
    // The arcs in order of column, stable.
    let mut order = {
        let mut next = filled(ncols + 1, I::default(), "column counts")?;
        for &d in dst {
            next[d as usize + 1] = ix(next[d as usize + 1].to_usize() + 1);
        }
        for c in 0..ncols {
            next[c + 1] = ix(next[c + 1].to_usize() + next[c].to_usize());
        }
        let mut order = filled(m, I::default(), "the arc order")?;
        for (k, &d) in dst.iter().enumerate() {
            let p = next[d as usize].to_usize();
            order[p] = ix(k);
            next[d as usize] = ix(p + 1);
        }
        order
    };
    // Along that order, by row: each row comes out sorted by column, repeats in list order.
    let mut row_ptr = filled(nrows + 1, I::default(), "row pointers")?;
    for &s in src {
        row_ptr[s as usize + 1] = ix(row_ptr[s as usize + 1].to_usize() + 1);
    }
    for r in 0..nrows {
        row_ptr[r + 1] = ix(row_ptr[r + 1].to_usize() + row_ptr[r].to_usize());
    }
    let mut cols = filled(m, I::default(), "column indices")?;
    let mut vals = filled(m, S::zero(), "values")?;
    for &k in &order {
        let k = k.to_usize();
        let r = src[k] as usize;
        let p = row_ptr[r].to_usize();
        cols[p] = ix(dst[k] as usize);
        vals[p] = value(k)?;
        row_ptr[r] = ix(p + 1);
    }
    order = Vec::new();
    drop(order);
    // row_ptr[r] is now the end of row r: shift, then merge repeats in place.
    for r in (1..=nrows).rev() {
        row_ptr[r] = row_ptr[r - 1];
    }
    row_ptr[0] = I::default();
    let mut w = 0usize;
    let mut start = 0usize;
    for r in 0..nrows {
        let end = row_ptr[r + 1].to_usize();
        for p in start..end {
            if w > row_ptr[r].to_usize() && cols[w - 1] == cols[p] {
                vals[w - 1] = S::add(vals[w - 1], vals[p]);
            } else {
                cols[w] = cols[p];
                vals[w] = vals[p];
                w += 1;
            }
        }
        start = end;
        row_ptr[r + 1] = ix(w);
    }
    cols.truncate(w);
    vals.truncate(w);
    Csr::try_from_parts(nrows, ncols, row_ptr, cols, vals)
}
