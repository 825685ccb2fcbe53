//! Repeated squaring of a dense matrix until it stops changing, and its start (the matrix
//! with `one` on the diagonal): the engine of [`apsp`](fn@crate::apsp) by squaring and of
//! [`transitive_closure`](crate::transitive_closure); and APSP with next hops in
//! [`MinPlusPred`] for the distance types that pack with a vertex id into 64 bits.

use semigraph_formats::Csr;
use semigraph_semiring::{DistPred, MinPlus, MinPlusPred, NO_PRED, Number, PackedDist, Semiring};

use crate::backend::{Accum, Backend, Mask};
use crate::error::{Error, Result};

/// The squaring loop: `D <- improve(D, D (+).(x) D)` until nothing improves or `max_rounds`.
/// Returns the array, the rounds, and whether it converged.
pub(crate) fn square_until_fixed<B: Backend, S: Semiring>(
    b: &B,
    n: usize,
    d0: &[S::T],
    max_rounds: usize,
) -> Result<(Vec<S::T>, usize, bool)> {
    let mut d = b.dense::<S>(n, n, d0)?;
    let mut c = b.dense_filled::<S>(n, n, S::zero())?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        if rounds == max_rounds {
            return Ok((b.read_dense_owned(d)?, rounds, false));
        }
        rounds += 1;
        b.gemm(&mut c, Mask::All, Accum::Replace, &d, &d)?;
        if b.improve_dense(&mut d, &c)? == 0 {
            return Ok((b.read_dense_owned(d)?, rounds, true));
        }
    }
}

/// `A` as a dense `n x n` array with `one` added on the diagonal (paths of length 0). Both
/// passes run in parallel: at n = 10,000 (400 MB of `i32`) filling the array is most of the
/// host's share of APSP.
pub(crate) fn dense_with_diagonal<S: Semiring>(a: &Csr<S>) -> Result<Vec<S::T>> {
    use rayon::prelude::*;
    let n = a.nrows();
    let mut d = square_filled(n, S::zero())?;
    d.par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(i, row)| fill_row(a, i, 0..n, row));
    Ok(d)
}

/// An `n x n` host array of `value`, filled in parallel (so are its pages first touched);
/// `OutOfMemory` where it cannot be had.
pub(crate) fn square_filled<T: Copy + Send + Sync>(n: usize, value: T) -> Result<Vec<T>> {
    square_from(n, |_| value)
}

/// An `n x n` host array whose entry `x` (row-major) is `f(x)`, made in parallel in one pass;
/// `OutOfMemory` where it cannot be had.
pub(crate) fn square_from<T: Send>(
    n: usize,
    f: impl Fn(usize) -> T + Sync + Send,
) -> Result<Vec<T>> {
    use rayon::prelude::*;
    let what = || format!("{n}x{n} distance matrix");
    let len = n.checked_mul(n).ok_or_else(|| Error::OutOfMemory {
        what: what(),
        needed: u64::MAX,
        available: None,
    })?;
    let mut d: Vec<T> = Vec::new();
    d.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        what: what(),
        needed: (len as u64).saturating_mul(size_of::<T>() as u64),
        available: None,
    })?;
    d.par_extend((0..len).into_par_iter().map(f));
    Ok(d)
}

/// The block of [`dense_with_diagonal`] at rows `rows` and columns `cols`, in a `side x side`
/// array (`side` at least both lengths) whose places past them hold the zero: one rank's
/// block of a grid, made from `A` without the whole dense array.
pub(crate) fn dense_block_with_diagonal<S: Semiring>(
    a: &Csr<S>,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    side: usize,
) -> Result<Vec<S::T>> {
    use rayon::prelude::*;
    let mut d = square_filled(side, S::zero())?;
    d.par_chunks_mut(side.max(1))
        .zip(rows)
        .for_each(|(row, i)| fill_row(a, i, cols.clone(), row));
    Ok(d)
}

/// Row `i` of `A` with `one` added on the diagonal, its columns `cols` added into `row`
/// (`row[0]` is column `cols.start`).
fn fill_row<S: Semiring>(a: &Csr<S>, i: usize, cols: std::ops::Range<usize>, row: &mut [S::T]) {
    let (idx, vals) = a.row(i);
    for (&j, &w) in idx.iter().zip(vals) {
        let j = j as usize;
        if cols.contains(&j) {
            let x = &mut row[j - cols.start];
            *x = S::add(*x, w);
        }
    }
    if cols.contains(&i) {
        let x = &mut row[i - cols.start];
        *x = S::add(*x, S::one());
    }
}

/// Squarings that suffice without a negative cycle: paths have at most `n - 1` arcs, and
/// squaring `r` times covers `2^r` arcs; one more squaring confirms nothing changes.
pub(crate) fn max_squarings(n: usize) -> usize {
    (usize::BITS - n.max(2).saturating_sub(1).leading_zeros()) as usize + 1
}

/// Distances, next hops and squarings of [`packed`].
#[doc(hidden)]
pub type Packed<D> = (Vec<D>, Vec<u32>, usize);

/// APSP with next hops by squaring in [`MinPlusPred`] (types that pack into 64 bits).
pub(crate) fn packed<B: Backend, D: PackedDist + Number>(
    b: &B,
    a: &Csr<MinPlus<D>>,
    limit: usize,
) -> Result<Packed<D>> {
    let n = a.nrows();
    let d0 = dense_with_diagonal::<MinPlusPred<D>>(&a.map(|w| DistPred::new(w, NO_PRED)))?;
    let (d, rounds, _) = square_until_fixed::<B, MinPlusPred<D>>(b, n, &d0, limit)?;
    let dist: Vec<D> = d.iter().map(|v| v.dist()).collect();
    Ok((dist, next_hops(n, &d), rounds))
}

/// Next hops from converged `(distance, intermediate)` entries.
fn next_hops<D: PackedDist + Number>(n: usize, d: &[DistPred<D>]) -> Vec<u32> {
    let mut next = vec![NO_PRED; n * n];
    for i in 0..n {
        for j in 0..n {
            let e = d[i * n + j];
            if i == j {
                next[i * n + j] = i as u32;
                continue;
            }
            if e.dist() == <D as PackedDist>::INFINITY {
                continue;
            }
            // The first hop of i -> j is the first hop of i -> via, an entry improved in an
            // earlier squaring; a direct arc has no intermediate.
            let mut k = j;
            for _ in 0..=n {
                let via = d[i * n + k].pred();
                if via == NO_PRED || via as usize == i || via as usize == k {
                    break;
                }
                k = via as usize;
            }
            next[i * n + j] = k as u32;
        }
    }
    next
}
