//! Peeling: removing, round after round, every vertex whose remaining degree is at most `k`,
//! each removal lowering its neighbours' degrees. Core numbers peel with a rising `k`,
//! Kahn's topological order and the trimming of strongly connected components with `k = 0`
//! on in- or out-degrees.
//!
//! In plus-pair `i64` ([`PlusPair`]: the product counts arcs), with `r(v) = BIG - degree(v)`
//! (never the zero, so every vertex is an entry): a round is
//! `q = select(r >= BIG - k)` (the removed), `r<q> = 1` (gone: never selected again),
//! `t = q (+).(pair) A` (each neighbour's removed arcs), `r += t` ([`improve`](crate::ElementWise::improve),
//! which returns the vertices that changed) and the next round's `q` among those alone: work
//! proportional to the arcs of the removed vertices, one count read back per round. A new `k`
//! costs one pass over the vertices (the remaining ones with degree `<= k`).

use semigraph_semiring::MaxPlus;

use crate::backend::{Backend, Mask, UnaryOp};
use crate::error::Result;

semigraph_semiring::semiring! {
    /// `(+, pair)` over `i64` (GraphBLAS's `PLUS_PAIR`): a product counts the terms where both
    /// operands are entries (not 0), whatever their values: degrees by row reduction, and the
    /// removed neighbours of each vertex by one product with the removed.
    pub struct PlusPair: i64 {
        name: "plus_pair",
        zero: 0,
        one: 1,
        add: |a, b| a.wrapping_add(b) => "a + b",
        mul: |a, b| if a == 0 || b == 0 { 0 } else { 1 }
            => "(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : (long long)1",
    }
}

/// `r(v)` of a vertex of degree `d` is `BIG - d`: above any degree, far below `i64::MAX`.
const BIG: i64 = 1 << 52;
/// `r(v)` of a removed vertex (the arcs counted into it later never reach `BIG - k`).
const GONE: i64 = 1;

/// How [`peel`] chooses `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Levels {
    /// `k = 0` only: what remains has every degree at least 1.
    Zero,
    /// `k` rises to the smallest remaining degree whenever no vertex is left at `k` or
    /// below, until every vertex is removed: the core numbers.
    Rising,
}

/// What [`peel`] found, as backend arrays.
pub(crate) struct Peeled<B: Backend> {
    /// `k` when the vertex was removed (0 where it was not).
    pub level: B::Dense<PlusPair>,
    /// The round that removed the vertex, from 1 (0 where it was not).
    pub round: B::Dense<PlusPair>,
    /// The vertices removed (not counting those `gone` before).
    pub removed: usize,
    /// The rounds run.
    pub rounds: usize,
    /// The largest `k` reached.
    pub top: i64,
}

/// Peels the graph whose degrees are `degree` (`n x 1`): removing a vertex lowers the degree
/// of each vertex one of its arcs in each of `along` reaches (once per arc). `gone`: the
/// vertices removed before (a mask allowing them) and how many. `O(n)` per `k` and, per
/// round, the arcs of the vertices removed.
pub(crate) fn peel<B: Backend>(
    b: &B,
    degree: &B::Dense<PlusPair>,
    along: &[&B::Matrix<PlusPair>],
    levels: Levels,
    gone: Option<(Mask<'_, B>, usize)>,
) -> Result<Peeled<B>> {
    let (n, _) = b.dense_shape(degree);
    let mut r = b.dense_filled::<PlusPair>(n, 1, BIG)?;
    b.ewise_op::<PlusPair, semigraph_semiring::ops::Minus>(
        &mut r,
        Mask::All,
        crate::backend::Combine::Union,
        degree,
    )?;
    let mut removed = 0;
    if let Some((mask, count)) = gone {
        b.apply(&mut r, mask, UnaryOp::Fill(GONE))?;
        removed = count;
    }
    let before = removed;
    let mut level = b.dense_filled::<PlusPair>(n, 1, 0)?;
    let mut round = b.dense_filled::<PlusPair>(n, 1, 0)?;
    let (mut rounds, mut k) = (0usize, 0i64);
    while removed < n {
        crate::cancel::check()?;
        let mut q = b.select_range(&b.compact(&r)?, BIG - k, i64::MAX)?;
        if b.sparse_nnz(&q) == 0 {
            if levels == Levels::Zero {
                break;
            }
            // The smallest remaining degree: the largest r (the removed hold GONE).
            let top = b.dense_as::<PlusPair, MaxPlus<i64>>(r);
            let most = b.reduce(&top, Mask::All)?;
            r = b.dense_as(top);
            k = BIG - most;
            continue;
        }
        while b.sparse_nnz(&q) > 0 {
            crate::cancel::check()?;
            rounds += 1;
            removed += b.sparse_nnz(&q);
            b.assign_at(&mut level, &q, k)?;
            b.assign_at(&mut round, &q, rounds as i64)?;
            b.assign_at(&mut r, &q, GONE)?;
            let mut t = b.vxm(&q, along[0], Mask::All)?;
            for a in &along[1..] {
                t = b.union(&t, &b.vxm(&q, a, Mask::All)?)?;
            }
            let changed = b.improve(&mut r, &t)?;
            q = b.select_range(&changed, BIG - k, i64::MAX)?;
        }
    }
    Ok(Peeled {
        level,
        round,
        removed: removed - before,
        rounds,
        top: k,
    })
}
