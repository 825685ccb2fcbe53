//! Placing keyed items into rows on every core, in a known peak of memory: the step that the
//! CSR builds from arcs ([`build`](crate::build)) and the transpose share.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::{FormatError, filled};
use crate::index::Index;

/// The peak of a build on every core into `rows` rows from `m` keyed entries: row pointers
/// (`i` bytes each), the keys, and the larger of what placing them holds and the result's
/// entries (`entry` bytes each).
pub(crate) fn keyed_bytes(rows: usize, m: usize, i: u64, entry: u64) -> u64 {
    // While placing: each thread's chunk of (row, key) items, the scattered rows and keys
    // (16 bytes an item) and the row lengths; then the result's entries beside the keys.
    let chunk = CHUNK.max(m.div_ceil(1024));
    let live = rayon::current_num_threads().min(m.div_ceil(chunk));
    let chunks = (live * m.min(chunk) * 16) as u64;
    // The (task, bucket) counts and first places, and the buckets' parts and cursors.
    let nb = (rows >> (usize::BITS - rows.leading_zeros()).saturating_sub(BUCKET_BITS)) + 1;
    let tables = (m.div_ceil(chunk) * (nb + 1) * 16 + nb * 64) as u64;
    let (r, m) = (rows as u64 + 1, m as u64);
    let placing = m
        .saturating_mul(16)
        .saturating_add(r.saturating_mul(8))
        .saturating_add(chunks)
        .saturating_add(tables);
    r.saturating_mul(i)
        .saturating_add(m.saturating_mul(8))
        .saturating_add(placing.max(m.saturating_mul(entry)))
}

/// Items per task of [`place`] (at least; at most 1,024 tasks).
const CHUNK: usize = 1 << 16;
/// Rows are grouped into at most `2^BUCKET_BITS` buckets of consecutive rows.
const BUCKET_BITS: u32 = 12;

/// What [`place`] calls for each chunk of items: `fill(k0, k1, out)` pushes the `(row, key)`
/// of items `k0..k1`.
pub(crate) type Fill<'a> = dyn Fn(usize, usize, &mut Vec<(u32, u64)>) + Sync + 'a;

/// Places `m` keyed items into `nrows` rows on every core, keeping their order within each
/// row (then sorting each row's keys if `sort`): `fill(k0, k1, out)` pushes the `(row, key)`
/// of items `k0..k1` (a trait object: one call a chunk, and `place` compiled once per index
/// type). Returns the row pointers and the keys.
///
/// A parallel radix pass without contended counters: each task counts its chunk's items per
/// bucket of rows, the counts' prefix gives every (bucket, task) its own range, the items are
/// scattered there (so the buckets come out in item order), and each bucket is then counted
/// out by row on its own.
pub(crate) fn place<I: Index>(
    nrows: usize,
    m: usize,
    what: &str,
    sort: bool,
    fill: &Fill<'_>,
) -> Result<(Vec<I>, Vec<u64>), FormatError> {
    let chunk = CHUNK.max(m.div_ceil(1024));
    let chunks = m.div_ceil(chunk);
    let items = |c: usize| {
        let (k0, k1) = (c * chunk, ((c + 1) * chunk).min(m));
        let mut out = Vec::with_capacity(k1 - k0);
        fill(k0, k1, &mut out);
        out
    };
    let shift = (usize::BITS - nrows.leading_zeros()).saturating_sub(BUCKET_BITS);
    let nb = (nrows >> shift) + 1;
    // Items per (task, bucket), then each one's first place.
    let counts: Vec<Vec<usize>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut h = vec![0usize; nb];
            for (r, _) in items(c) {
                h[r as usize >> shift] += 1;
            }
            h
        })
        .collect();
    let mut starts = vec![vec![0usize; nb]; chunks];
    let mut bucket_start = vec![0usize; nb + 1];
    let mut at = 0;
    for b in 0..nb {
        bucket_start[b] = at;
        for c in 0..chunks {
            starts[c][b] = at;
            at += counts[c][b];
        }
    }
    bucket_start[nb] = at;
    drop(counts);
    let trow = atomic_words(m, what)?;
    let tkey = atomic_words(m, what)?;
    starts
        .into_par_iter()
        .enumerate()
        .for_each(|(c, mut next)| {
            for (r, key) in items(c) {
                let b = r as usize >> shift;
                trow[next[b]].store(r as u64, Ordering::Relaxed);
                tkey[next[b]].store(key, Ordering::Relaxed);
                next[b] += 1;
            }
        });
    let trow: Vec<u64> = trow.into_iter().map(AtomicU64::into_inner).collect();
    let tkey: Vec<u64> = tkey.into_iter().map(AtomicU64::into_inner).collect();
    // Each bucket counted out by row (stable), into its own part of the keys.
    let mut keys = filled(m, 0u64, what)?;
    let mut lens = filled(nrows, 0usize, "row lengths")?;
    let mut parts = Vec::with_capacity(nb);
    let (mut krest, mut lrest): (&mut [u64], &mut [usize]) = (&mut keys, &mut lens);
    for b in 0..nb {
        let (k, kt) = krest.split_at_mut(bucket_start[b + 1] - bucket_start[b]);
        let rows = ((b + 1) << shift).min(nrows) - (b << shift).min(nrows);
        let (l, lt) = lrest.split_at_mut(rows);
        parts.push((b, k, l));
        (krest, lrest) = (kt, lt);
    }
    parts.into_par_iter().for_each(|(b, k, l)| {
        let (lo, hi) = (bucket_start[b], bucket_start[b + 1]);
        let first = b << shift;
        for &r in &trow[lo..hi] {
            l[r as usize - first] += 1;
        }
        let mut next = Vec::with_capacity(l.len());
        let mut run = 0;
        for &n in l.iter() {
            next.push(run);
            run += n;
        }
        for (&r, &key) in trow[lo..hi].iter().zip(&tkey[lo..hi]) {
            let p = &mut next[r as usize - first];
            k[*p] = key;
            *p += 1;
        }
    });
    drop((trow, tkey));
    let mut row_ptr = filled(nrows + 1, I::default(), "row pointers")?;
    let mut total = 0usize;
    for (r, &n) in lens.iter().enumerate() {
        total += n;
        row_ptr[r + 1] = I::try_from_usize(total).expect("fits: counted entries");
    }
    if sort {
        sort_rows(&mut keys, &row_ptr, 0);
    }
    Ok((row_ptr, keys))
}

/// `len` zeroed atomic words, allocated fallibly.
fn atomic_words(len: usize, what: &str) -> Result<Vec<AtomicU64>, FormatError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| too_large(what, len as u64 * 8))?;
    v.resize_with(len, || AtomicU64::new(0));
    Ok(v)
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
        available: crate::memory::usable().unwrap_or(0),
    }
}
