//! Building CSR from arcs (the placement on every core, which the transpose shares, is in
//! [`place`](crate::place)), with a known, small peak of memory, every array allocated
//! fallibly: a graph too large for the machine is refused with the bytes needed (before anything is allocated, from
//! [`csr_build_bytes`] and [`transpose_bytes`](crate::transpose_bytes)) instead of aborting
//! half-way.

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::arcs::{arcs_in_csr_order, check_arcs};
use crate::csr::Csr;
use crate::error::{FormatError, check, filled, with_capacity};
use crate::index::{Index, check_fits};
use crate::place::{keyed_bytes, place};

/// Bytes [`EdgeList::to_csr`](crate::EdgeList::to_csr) (and `to_pattern_csr`) hold at their
/// peak for `m` arcs of an `nrows x ncols` matrix with `I` indices and `value_bytes`-byte
/// values, on the current thread pool (every core from two threads, or past 8 M arcs on one): on one core, the arc order (`m`
/// indices), the row pointers and the column counts (`nrows + ncols + 2` indices), and the
/// result's columns and values; on every core, the row pointers, the arcs keyed by column
/// and position (8 bytes each), and the larger of the row counters (8 bytes per row) and the
/// result's columns and values.
pub fn csr_build_bytes<I: Index>(nrows: usize, ncols: usize, m: usize, value_bytes: usize) -> u64 {
    let i = std::mem::size_of::<I>() as u64;
    let entry = i + value_bytes as u64;
    if m < u32::MAX as usize && parallel_arcs(m) {
        return keyed_bytes(nrows, m, i, entry);
    }
    let (n, m) = ((nrows + ncols + 2) as u64, m as u64);
    m.saturating_mul(i + entry)
        .saturating_add(n.saturating_mul(i))
}

impl<S: Semiring, I: Index> Csr<S, I> {
    /// The `nrows x ncols` CSR matrix of the arcs `src[k] -> dst[k]` with values `vals[k]`
    /// (`None`: every arc `S::one()`): each row's columns in increasing order, repeated arcs
    /// combined with `S::add` in the order they are listed, stored zeros kept (as
    /// [`EdgeList::to_csr`](crate::EdgeList::to_csr)). Built on every core; the result does
    /// not depend on the thread count.
    ///
    /// # Errors
    /// [`FormatError::InvalidStructure`] when the arrays differ in length or an arc lies
    /// outside the matrix (naming the first); [`FormatError::TooLarge`] before allocating
    /// when the build's peak ([`csr_build_bytes`]) does not fit.
    ///
    /// # Complexity
    /// `O(m + nrows)` work for `m` arcs, plus each row's sort.
    ///
    /// ```
    /// use semigraph_formats::Csr;
    /// use semigraph_semiring::MinPlus;
    /// let a = Csr::<MinPlus<i32>>::try_from_arcs(2, 3, &[1, 0, 1], &[2, 1, 2], Some(&[5, 4, 3]))?;
    /// assert_eq!(a.iter().collect::<Vec<_>>(), vec![(0, 1, 4), (1, 2, 3)]);
    /// # Ok::<(), semigraph_formats::FormatError>(())
    /// ```
    pub fn try_from_arcs(
        nrows: usize,
        ncols: usize,
        src: &[u32],
        dst: &[u32],
        vals: Option<&[S::T]>,
    ) -> Result<Self, FormatError> {
        if dst.len() != src.len() || vals.is_some_and(|v| v.len() != src.len()) {
            return Err(FormatError::InvalidStructure {
                format: crate::Format::Coo,
                reason: "sources, targets and values differ in length".into(),
            });
        }
        check_arcs(nrows, ncols, src, dst)?;
        let values = match vals {
            Some(v) => ArcValues::Each(v),
            None => ArcValues::Same(S::one()),
        };
        csr_from_arcs(nrows, ncols, src, dst, values)
    }
}

/// The value of each arc as the builds take it: the same for every arc, one per arc, or
/// computed (a conversion that may fail).
///
/// Data rather than a closure, and the builds on every core generic over the value type
/// rather than the semiring: a closure is a type of its own for every semiring that a
/// generic caller is compiled for, and each such type compiled the builds' parallel loops
/// (rayon's machinery, tens of functions a loop) again: 49 built-in semirings times every
/// caller, most of the `semigraph` binary's and the backend suites' build time.
#[derive(Clone, Copy)]
pub(crate) enum ArcValues<'a, T> {
    /// Every arc the same value (a pattern: the semiring's `one`).
    Same(T),
    /// Arc `k` holds `values[k]`.
    Each(&'a [T]),
    /// Arc `k` holds `f(k)`, or the build stops with its error.
    Map(&'a (dyn Fn(usize) -> Result<T, FormatError> + Sync)),
}

impl<T: Copy> ArcValues<'_, T> {
    /// The value of arc `k`.
    #[inline]
    fn get(&self, k: usize) -> Result<T, FormatError> {
        match self {
            ArcValues::Same(v) => Ok(*v),
            ArcValues::Each(v) => Ok(v[k]),
            ArcValues::Map(f) => f(k),
        }
    }
}

/// A CSR's row pointers, columns and values, before they are checked into a [`Csr`].
pub(crate) type Parts<I, T> = (Vec<I>, Vec<I>, Vec<T>);

/// The CSR matrix of the arcs `src[k] -> dst[k]` with values `value(k)`: rows sorted by
/// column, repeated arcs combined with `S::add` in the order they are listed.
///
/// On every core ([`parallel`]): rows counted (atomically), each arc placed in its row as a
/// key (column, position in the list), each row's keys sorted, values taken in that order;
/// so the result does not depend on the thread count. On fewer threads, or past `2^32` arcs,
/// two stable counting sorts on one core. The peak is [`csr_build_bytes`] whatever the
/// degrees.
pub(crate) fn csr_from_arcs<S: Semiring, I: Index>(
    nrows: usize,
    ncols: usize,
    src: &[u32],
    dst: &[u32],
    values: ArcValues<'_, S::T>,
) -> Result<Csr<S, I>, FormatError> {
    let m = src.len();
    check_fits::<I>(nrows, ncols, m)?;
    let what = || format!("a {nrows} x {ncols} matrix with {m} entries");
    check(
        csr_build_bytes::<I>(nrows, ncols, m, std::mem::size_of::<S::T>()),
        what,
    )?;
    // Arcs already in CSR order (a binary CSR file, a sorted list): taken as they are.
    let (sorted, repeats) = arcs_in_csr_order(src, dst);
    let parts = if sorted {
        Some(sorted_csr(
            nrows,
            (src, dst),
            repeats,
            values,
            S::zero(),
            S::add,
        )?)
    } else if m < u32::MAX as usize && parallel_arcs(m) {
        Some(par_csr_from_arcs(
            nrows,
            src,
            dst,
            values,
            S::zero(),
            S::add,
        )?)
    } else {
        None
    };
    if let Some((row_ptr, cols, vals)) = parts {
        return Csr::try_from_parts(nrows, ncols, row_ptr, cols, vals);
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
        vals[p] = values.get(k)?;
        row_ptr[r] = ix(p + 1);
    }
    order = Vec::new();
    drop(order);
    // row_ptr[r] is now the end of row r: shift, then merge repeats in place.
    for r in (1..=nrows).rev() {
        row_ptr[r] = row_ptr[r - 1];
    }
    row_ptr[0] = I::default();
    if has_repeats(nrows, &row_ptr, &cols) {
        combine_repeats(nrows, &mut row_ptr, &mut cols, &mut vals, S::add)?;
    }
    Csr::try_from_parts(nrows, ncols, row_ptr, cols, vals)
}

/// The arcs `from[k] -> to[k]` in CSR order (by source, then target; repeated arcs in list
/// order): the permutation, on every core.
pub(crate) fn csr_order(from: &[u32], to: &[u32]) -> Vec<usize> {
    let mut keyed: Vec<(u64, usize)> = (0..from.len())
        .into_par_iter()
        .map(|k| (((from[k] as u64) << 32) | to[k] as u64, k))
        .collect();
    keyed.par_sort_unstable();
    keyed.into_par_iter().map(|(_, k)| k).collect()
}

/// [`csr_from_arcs`] of arcs in CSR order: the row pointers counted, the columns and values
/// written once (no zeroed arrays first), repeated arcs (side by side, `repeats` says whether
/// there are any) combined.
fn sorted_csr<T: Copy + Send + Sync, I: Index>(
    nrows: usize,
    (src, dst): (&[u32], &[u32]),
    repeats: bool,
    values: ArcValues<'_, T>,
    zero: T,
    add: fn(T, T) -> T,
) -> Result<Parts<I, T>, FormatError> {
    let m = src.len();
    let ix = |v: usize| I::try_from_usize(v).expect("checked by check_fits");
    // Row r starts after the arcs of smaller sources: a search for the first row of each
    // chunk of rows, then a walk along its arcs (on every core).
    let mut row_ptr = filled(nrows + 1, I::default(), "row pointers")?;
    const ROWS: usize = 1 << 12;
    row_ptr
        .par_chunks_mut(ROWS)
        .enumerate()
        .for_each(|(c, ptrs)| {
            let r0 = c * ROWS;
            let mut k = src.partition_point(|&s| (s as usize) < r0);
            for (r, p) in (r0..).zip(ptrs) {
                while k < m && (src[k] as usize) < r {
                    k += 1;
                }
                *p = ix(k);
            }
        });
    let (mut cols, mut vals) = entries::<T, I>(m, Order::Listed(dst), values, zero)?;
    if repeats {
        combine_repeats(nrows, &mut row_ptr, &mut cols, &mut vals, add)?;
    }
    Ok((row_ptr, cols, vals))
}

/// Where entry `e` of a build comes from ([`entries`]): its column and its arc.
#[derive(Clone, Copy)]
enum Order<'a> {
    /// Arcs already in CSR order: entry `e` is arc `e`, its column `dst[e]`.
    Listed(&'a [u32]),
    /// Entry `e` is the key `column << 32 | arc` at `keys[e]`.
    Keys(&'a [u64]),
}

impl Order<'_> {
    /// Entry `e`'s column and arc.
    #[inline]
    fn at(&self, e: usize) -> (usize, usize) {
        match self {
            Order::Listed(dst) => (dst[e] as usize, e),
            Order::Keys(keys) => ((keys[e] >> 32) as usize, (keys[e] & 0xffff_ffff) as usize),
        }
    }
}

/// The columns and values of `m` entries, written once on every core (no zeroed arrays
/// first): entry `e` holds column `order.at(e).0` and the value of arc `order.at(e).1`. The
/// first entry (in order) whose value is refused is the one reported (`zero` stands in
/// meanwhile). Each form of `order` and `values` has its own loop (a copy, a fill, a gather),
/// so that no loop matches an enum an entry.
fn entries<T: Copy + Send + Sync, I: Index>(
    m: usize,
    order: Order<'_>,
    values: ArcValues<'_, T>,
    zero: T,
) -> Result<(Vec<I>, Vec<T>), FormatError> {
    const MIN: usize = 1 << 14;
    let ix = |v: usize| I::try_from_usize(v).expect("checked by check_fits");
    let mut cols = with_capacity::<I>(m, "column indices")?;
    match order {
        Order::Listed(dst) => cols.par_extend(
            dst[..m]
                .par_iter()
                .with_min_len(MIN)
                .map(|&c| ix(c as usize)),
        ),
        Order::Keys(keys) => cols.par_extend(
            keys[..m]
                .par_iter()
                .with_min_len(MIN)
                .map(|&k| ix((k >> 32) as usize)),
        ),
    }
    let mut vals = with_capacity::<T>(m, "values")?;
    match (values, order) {
        (ArcValues::Same(v), _) => vals.par_extend(rayon::iter::repeat_n(v, m).with_min_len(MIN)),
        (ArcValues::Each(v), Order::Listed(_)) => {
            vals.par_extend(v[..m].par_iter().with_min_len(MIN).copied())
        }
        (ArcValues::Each(v), Order::Keys(keys)) => vals.par_extend(
            keys[..m]
                .par_iter()
                .with_min_len(MIN)
                .map(|&k| v[(k & 0xffff_ffff) as usize]),
        ),
        (ArcValues::Map(f), order) => {
            let fault = std::sync::Mutex::new(None::<(usize, FormatError)>);
            vals.par_extend((0..m).into_par_iter().with_min_len(MIN).map(|e| {
                f(order.at(e).1).unwrap_or_else(|err| {
                    let mut f = fault.lock().unwrap_or_else(|p| p.into_inner());
                    if f.as_ref().is_none_or(|(first, _)| e < *first) {
                        *f = Some((e, err));
                    }
                    zero
                })
            }));
            if let Some((_, e)) = fault.into_inner().unwrap_or_else(|p| p.into_inner()) {
                return Err(e);
            }
        }
    }
    Ok((cols, vals))
}

/// [`csr_from_arcs`] on every core, for fewer than `2^32` arcs.
fn par_csr_from_arcs<T: Copy + Send + Sync, I: Index>(
    nrows: usize,
    src: &[u32],
    dst: &[u32],
    values: ArcValues<'_, T>,
    zero: T,
    add: fn(T, T) -> T,
) -> Result<Parts<I, T>, FormatError> {
    let m = src.len();
    let (mut row_ptr, keys) = place::<I>(
        nrows,
        m,
        "the arcs keyed by column",
        true,
        &|k0, k1, out| {
            out.extend((k0..k1).map(|k| (src[k], ((dst[k] as u64) << 32) | k as u64)));
        },
    )?;
    let (mut cols, mut vals) = entries::<T, I>(m, Order::Keys(&keys), values, zero)?;
    drop(keys);
    if has_repeats(nrows, &row_ptr, &cols) {
        combine_repeats(nrows, &mut row_ptr, &mut cols, &mut vals, add)?;
    }
    Ok((row_ptr, cols, vals))
}

/// Whether a CSR of `m` arcs is built on every core (placed by row, each row sorted): with at
/// least two threads, or past [`SEQ_ENTRIES`] arcs. Below, on one thread, one core's two
/// counting sorts are faster; past it their scatters, through the arc order, miss the caches
/// at every arc (measured on the 2-core development machine, Kronecker edge lists, counting
/// sorts against placement on 1 / 2 threads: 1 M arcs 32 ms against 50 / 30 ms, 4 M 205
/// against 220 / 180 ms, 16 M 1.2-1.5 s against 0.92 / 0.60 s, 65 M 7.1 s against 3.4 /
/// 2.2-2.5 s). Both give the same matrix.
pub(crate) fn parallel_arcs(m: usize) -> bool {
    rayon::current_num_threads() >= 2 || m >= SEQ_ENTRIES
}

/// The most arcs one thread builds by counting sorts (see [`parallel_arcs`]).
const SEQ_ENTRIES: usize = 1 << 23;

/// Whether a row of sorted rows holds a column twice (side by side).
fn has_repeats<I: Index>(nrows: usize, row_ptr: &[I], cols: &[I]) -> bool {
    (0..nrows).into_par_iter().with_min_len(1 << 12).any(|r| {
        let (a, b) = (row_ptr[r].to_usize(), row_ptr[r + 1].to_usize());
        cols[a..b].windows(2).any(|w| w[0] == w[1])
    })
}

/// Combines repeated arcs (equal columns side by side in a row of sorted rows, as
/// [`has_repeats`] finds) with `add` (the semiring's) in list order, in place: chunks of rows compact their
/// entries to the front of their range on every core, then the chunks move down to their
/// places in order (one `memmove` each) and the row pointers follow. Holds one index per row
/// besides the matrix.
fn combine_repeats<T: Copy + Send + Sync, I: Index>(
    nrows: usize,
    row_ptr: &mut [I],
    cols: &mut Vec<I>,
    vals: &mut Vec<T>,
    add: fn(T, T) -> T,
) -> Result<(), FormatError> {
    const ROWS: usize = 1 << 12;
    let ix = |v: usize| I::try_from_usize(v).expect("fewer entries than before");
    // Each row's end, counted from its chunk's first entry, once the chunk is compacted.
    let mut ends = filled(nrows, I::default(), "the rows' ends")?;
    {
        let ptr = &*row_ptr;
        let (mut cr, mut vr) = (&mut cols[..], &mut vals[..]);
        let mut parts = Vec::with_capacity(nrows.div_ceil(ROWS));
        for r0 in (0..nrows).step_by(ROWS) {
            let len = ptr[(r0 + ROWS).min(nrows)].to_usize() - ptr[r0].to_usize();
            let (c, rest_c) = std::mem::take(&mut cr).split_at_mut(len);
            let (v, rest_v) = std::mem::take(&mut vr).split_at_mut(len);
            (cr, vr) = (rest_c, rest_v);
            parts.push((r0, c, v));
        }
        parts
            .into_par_iter()
            .zip(ends.par_chunks_mut(ROWS))
            .for_each(|((r0, cs, vs), ends)| {
                let base = ptr[r0].to_usize();
                let mut w = 0usize;
                for (r, end) in (r0..).zip(ends.iter_mut()) {
                    let (a, b) = (ptr[r].to_usize() - base, ptr[r + 1].to_usize() - base);
                    let first = w;
                    for p in a..b {
                        if w > first && cs[w - 1] == cs[p] {
                            vs[w - 1] = add(vs[w - 1], vs[p]);
                        } else {
                            cs[w] = cs[p];
                            vs[w] = vs[p];
                            w += 1;
                        }
                    }
                    *end = ix(w);
                }
            });
    }
    // Chunks in order: each moves down to where the entries kept before it end.
    let mut w = 0usize;
    for r0 in (0..nrows).step_by(ROWS) {
        let r1 = (r0 + ROWS).min(nrows);
        let base = row_ptr[r0].to_usize();
        let kept = ends[r1 - 1].to_usize();
        cols.copy_within(base..base + kept, w);
        vals.copy_within(base..base + kept, w);
        // Row r0's pointer is this chunk's start; row_ptr[r1] (the next chunk's base) is
        // read before it is written.
        row_ptr[r0] = ix(w);
        for r in r0 + 1..r1 {
            row_ptr[r] = ix(w + ends[r - 1].to_usize());
        }
        w += kept;
    }
    row_ptr[nrows] = ix(w);
    cols.truncate(w);
    vals.truncate(w);
    Ok(())
}
