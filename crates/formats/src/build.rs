//! Building CSR from arcs and transposing CSR with a known, small peak of memory, every array
//! allocated fallibly: a graph too large for the machine is refused with the bytes needed
//! (before anything is allocated, from [`csr_build_bytes`] and [`transpose_bytes`]) instead of
//! aborting half-way.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::error::{FormatError, check, filled};
use crate::index::{Index, check_fits};

/// Bytes [`EdgeList::to_csr`](crate::EdgeList::to_csr) (and `to_pattern_csr`) hold at their
/// peak for `m` arcs of an `nrows x ncols` matrix with `I` indices and `value_bytes`-byte
/// values: the arcs keyed by column and position (8 bytes each, or an `I` each past `2^32`
/// arcs), the row counters (8 bytes per row), and the result's columns and values.
pub fn csr_build_bytes<I: Index>(nrows: usize, ncols: usize, m: usize, value_bytes: usize) -> u64 {
    let i = std::mem::size_of::<I>() as u64;
    let (n, m) = ((nrows + ncols + 2) as u64, m as u64);
    m.saturating_mul(8 + i + value_bytes as u64)
        .saturating_add(n.saturating_mul(8))
}

/// The CSR matrix of the arcs `src[k] -> dst[k]` with values `value(k)`: rows sorted by
/// column, repeated arcs combined with `S::add` in the order they are listed.
///
/// On every core: rows counted (atomically), each arc placed in its row as a key (column,
/// position in the list), each row's keys sorted, values taken in that order; so the result
/// does not depend on the thread count. Past `2^32` arcs, two stable counting sorts on one
/// core. The peak is [`csr_build_bytes`] whatever the degrees.
pub(crate) fn csr_from_arcs<S: Semiring, I: Index>(
    nrows: usize,
    ncols: usize,
    src: &[u32],
    dst: &[u32],
    value: impl Fn(usize) -> Result<S::T, FormatError> + Sync,
) -> Result<Csr<S, I>, FormatError> {
    let m = src.len();
    check_fits::<I>(nrows, ncols, m)?;
    let what = || format!("a {nrows} x {ncols} matrix with {m} entries");
    check(
        csr_build_bytes::<I>(nrows, ncols, m, std::mem::size_of::<S::T>()),
        what,
    )?;
    if m < u32::MAX as usize {
        return par_csr_from_arcs(nrows, ncols, src, dst, value);
    }
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

/// [`csr_from_arcs`] on every core, for fewer than `2^32` arcs.
fn par_csr_from_arcs<S: Semiring, I: Index>(
    nrows: usize,
    ncols: usize,
    src: &[u32],
    dst: &[u32],
    value: impl Fn(usize) -> Result<S::T, FormatError> + Sync,
) -> Result<Csr<S, I>, FormatError> {
    let m = src.len();
    let ix = |v: usize| I::try_from_usize(v).expect("checked by check_fits");
    // Row counts, then each row's next free place.
    let next: Vec<AtomicU64> = {
        let mut v = Vec::new();
        v.try_reserve_exact(nrows + 1)
            .map_err(|_| too_large("row counters", (nrows as u64 + 1) * 8))?;
        v.resize_with(nrows + 1, || AtomicU64::new(0));
        v
    };
    src.par_iter()
        .with_min_len(1 << 14)
        .for_each(|&r| _ = next[r as usize + 1].fetch_add(1, Ordering::Relaxed));
    let mut row_ptr = filled(nrows + 1, I::default(), "row pointers")?;
    let mut total = 0u64;
    for (r, c) in next.iter().enumerate() {
        total += c.load(Ordering::Relaxed);
        c.store(total, Ordering::Relaxed);
        row_ptr[r] = ix(total as usize);
    }
    // next[r] is now the start of row r.
    let keys: Vec<AtomicU64> = {
        let mut v = Vec::new();
        v.try_reserve_exact(m)
            .map_err(|_| too_large("the arcs keyed by column", m as u64 * 8))?;
        v.resize_with(m, || AtomicU64::new(0));
        v
    };
    (0..m).into_par_iter().with_min_len(1 << 14).for_each(|k| {
        let p = next[src[k] as usize].fetch_add(1, Ordering::Relaxed);
        keys[p as usize].store(((dst[k] as u64) << 32) | k as u64, Ordering::Relaxed);
    });
    // The same allocation, as plain words.
    let mut keys: Vec<u64> = keys.into_iter().map(AtomicU64::into_inner).collect();
    drop(next);
    sort_rows(&mut keys, &row_ptr, 0);
    let mut cols = filled(m, I::default(), "column indices")?;
    let mut vals = filled(m, S::zero(), "values")?;
    cols.par_iter_mut()
        .zip(vals.par_iter_mut())
        .zip(keys.par_iter())
        .with_min_len(1 << 14)
        .try_for_each(|((c, v), &key)| {
            *c = ix((key >> 32) as usize);
            *v = value((key & 0xffff_ffff) as usize)?;
            Ok::<(), FormatError>(())
        })?;
    drop(keys);
    // Repeated arcs (equal columns side by side in a row): combined in list order.
    let repeats = (0..nrows).into_par_iter().with_min_len(1 << 12).any(|r| {
        let (a, b) = (row_ptr[r].to_usize(), row_ptr[r + 1].to_usize());
        cols[a..b].windows(2).any(|w| w[0] == w[1])
    });
    if repeats {
        let mut w = 0usize;
        let mut start = 0usize;
        for r in 0..nrows {
            let end = row_ptr[r + 1].to_usize();
            let first = w;
            for p in start..end {
                if w > first && cols[w - 1] == cols[p] {
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
    }
    Csr::try_from_parts(nrows, ncols, row_ptr, cols, vals)
}

/// Sorts each row's keys (rows `row_ptr` over `keys`, whose first key is entry `base`),
/// halves of the rows in parallel.
fn sort_rows<I: Index>(keys: &mut [u64], row_ptr: &[I], base: usize) {
    let rows = row_ptr.len() - 1;
    if rows <= 1 || keys.len() <= 1 << 15 {
        for r in 0..rows {
            let (a, b) = (
                row_ptr[r].to_usize() - base,
                row_ptr[r + 1].to_usize() - base,
            );
            let row = &mut keys[a..b];
            if row.len() > 1 << 20 {
                row.par_sort_unstable();
            } else {
                row.sort_unstable();
            }
        }
        return;
    }
    let mid = rows / 2;
    let cut = row_ptr[mid].to_usize() - base;
    let (lo, hi) = keys.split_at_mut(cut);
    rayon::join(
        || sort_rows(lo, &row_ptr[..=mid], base),
        || sort_rows(hi, &row_ptr[mid..], base + cut),
    );
}

fn too_large(what: &str, needed: u64) -> FormatError {
    FormatError::TooLarge {
        what: what.to_string(),
        needed,
        available: crate::memory::available().unwrap_or(0),
    }
}
