//! The check's two passes over the rows of `A`: interval bounds from the rows of `B`, which
//! clear most rows, and the rows they cannot clear multiplied exactly.

use std::collections::HashMap;

use rayon::prelude::*;
use semigraph_formats::{Csr, WeightValue};
use semigraph_semiring::{Op, Semiring};

use super::wide::{Wide, max_w, min_w};
use super::{Inexact, Why};

/// The term `mul(a, b)` at inner index `k`, in wide numbers.
fn term<S: Semiring, W: Wide>(a: S::T, b: S::T, k: usize) -> Option<W>
where
    S::T: WeightValue,
{
    match S::MUL {
        Op::Plus => Some(W::of(a)?.plus(W::of(b)?)),
        Op::Times => Some(W::of(a)?.times(W::of(b)?)),
        // A selection (or min, max) never leaves the type: computed in it.
        _ => W::of(S::mul_at(a, b, k as u64)),
    }
}

/// The sum of two terms, or of a bound on them.
fn add<S: Semiring, W: Wide>(acc: W, t: W) -> W {
    match S::ADD {
        Op::Plus => acc.plus(t),
        Op::Min => min_w(acc, t),
        _ => max_w(acc, t),
    }
}

pub(super) fn check_in<S: Semiring, M: Semiring, W: Wide>(
    a: &Csr<S>,
    b: &Csr<S>,
    mask: Option<(&Csr<M>, bool)>,
) -> Result<(), Inexact>
where
    S::T: WeightValue,
{
    let path = matches!(S::ADD, Op::Min | Op::Max);
    // Each row of B's interval of values.
    let rows_b: Vec<RowB<W>> = (0..b.nrows())
        .into_par_iter()
        .map(|k| interval::<S, W>(b.row(k).1))
        .collect();
    let suspect = |i: usize| -> bool {
        let (cols, vals) = a.row(i);
        let mut acc: Option<(W, W)> = None;
        for (&k, &v) in cols.iter().zip(vals) {
            if S::is_zero(v) {
                continue;
            }
            let (lo, hi) = match rows_b[k as usize] {
                RowB::Empty => continue,
                RowB::Unknown => return true,
                RowB::Bound(lo, hi) => (lo, hi),
            };
            let (Some(t1), Some(t2)) = (term_bound::<S, W>(v, lo), term_bound::<S, W>(v, hi))
            else {
                return true;
            };
            let (mut tl, mut th) = (min_w(t1, t2), max_w(t1, t2));
            if !matches!(S::MUL, Op::Plus | Op::Times) {
                // A selection: an operand, one of B's values, the one or the index.
                let (Some(av), Some(one), Some(idx)) =
                    (W::of(v), W::of(S::one()), W::of(b.ncols() as u64))
                else {
                    return true;
                };
                tl = min_w(min_w(tl, av), min_w(one, W::zero()));
                th = max_w(max_w(th, av), max_w(one, idx));
            }
            acc = Some(match (acc, S::ADD) {
                // In a sum, a term may be absent from a result: it counts as zero.
                (None, Op::Plus) => (min_w(tl, W::zero()), max_w(th, W::zero())),
                (Some((l, h)), Op::Plus) => {
                    (l.plus(min_w(tl, W::zero())), h.plus(max_w(th, W::zero())))
                }
                (None, _) => (tl, th),
                (Some((l, h)), _) => (min_w(l, tl), max_w(h, th)),
            });
        }
        acc.is_some_and(|(l, h)| !W::within::<S>(l, h, path))
    };
    let bad = (0..a.nrows())
        .into_par_iter()
        .filter(|&i| suspect(i))
        .find_map_first(|i| exact_row::<S, M, W>(a, b, mask, i, path));
    match bad {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The values of a row of `B` that are not the zero, as a bound.
#[derive(Clone, Copy)]
enum RowB<W> {
    /// No values.
    Empty,
    /// The smallest and the largest.
    Bound(W, W),
    /// A value the check cannot follow (NaN): the row's products are computed.
    Unknown,
}

fn interval<S: Semiring, W: Wide>(vals: &[S::T]) -> RowB<W>
where
    S::T: WeightValue,
{
    let mut out = RowB::Empty;
    for &v in vals {
        if S::is_zero(v) {
            continue;
        }
        let Some(w) = W::of(v) else {
            return RowB::Unknown;
        };
        out = match out {
            RowB::Bound(l, h) => RowB::Bound(min_w(l, w), max_w(h, w)),
            _ => RowB::Bound(w, w),
        };
    }
    out
}

/// `mul(a, b)` for a bound `b` of B's values (a selection's bound is found by the caller).
fn term_bound<S: Semiring, W: Wide>(a: S::T, b: W) -> Option<W>
where
    S::T: WeightValue,
{
    match S::MUL {
        Op::Plus => Some(W::of(a)?.plus(b)),
        Op::Times => Some(W::of(a)?.times(b)),
        _ => Some(b),
    }
}

/// Row `i` of the product computed exactly: its first result (by column) the type does not
/// hold, among those the mask keeps.
fn exact_row<S: Semiring, M: Semiring, W: Wide>(
    a: &Csr<S>,
    b: &Csr<S>,
    mask: Option<(&Csr<M>, bool)>,
    i: usize,
    path: bool,
) -> Option<Inexact>
where
    S::T: WeightValue,
{
    let mut acc: HashMap<u32, W> = HashMap::new();
    let (cols, vals) = a.row(i);
    for (&k, &av) in cols.iter().zip(vals) {
        if S::is_zero(av) {
            continue;
        }
        let (bc, bv) = b.row(k as usize);
        for (&j, &bw) in bc.iter().zip(bv) {
            if S::is_zero(bw) {
                continue;
            }
            let Some(t) = term::<S, W>(av, bw, k as usize) else {
                continue; // NaN operands: no exact value to compare with
            };
            acc.entry(j)
                .and_modify(|s| *s = add::<S, W>(*s, t))
                .or_insert(t);
        }
    }
    let kept = |j: u32| match mask {
        None => true,
        Some((m, complement)) => m.row(i).0.binary_search(&j).is_ok() != complement,
    };
    let mut found: Vec<(u32, W, Why)> = acc
        .into_iter()
        .filter(|&(j, _)| kept(j))
        .filter_map(|(j, v)| v.holds::<S>(path).map(|why| (j, v, why)))
        .collect();
    found.sort_by_key(|f| f.0);
    found.first().map(|&(j, v, why)| Inexact {
        row: i,
        col: j as usize,
        value: v.text(),
        why,
    })
}
