//! [`Frontier::queue_relax_fixpoint`] on the CPU backend: a first-in-first-out queue on one
//! core.
//!
//! [`Frontier::queue_relax_fixpoint`]: crate::Frontier::queue_relax_fixpoint

use semigraph_semiring::Semiring;

use super::queue::CpuQueue;
use super::{CpuBackend, Vals};
use crate::backend::{Defer, RelaxStep};
use crate::error::Result;

/// One core, first in first out, each vertex waiting at most once (the label-correcting
/// queue of Bellman-Ford-Moore): from one source with unit steps (BFS hop counts) it is a
/// breadth-first search, each vertex taken once. The queue is a ring of `n` slots (a vertex
/// waits at most once), so nothing grows while it runs. A deferred vertex (its value not
/// below the deferral's bound when its turn comes) goes to the far queue instead.
/// [`queue_fixpoint_fast`](crate::Frontier::queue_fixpoint_fast) stays `false`: BFS through it
/// and a witness pass took 12-13 ms on NY against 7-8 ms by level steps (2 cores; the level
/// steps find the parents in the same pass, the fixpoint needs a second one).
/// The caller takes masked steps elsewhere (the provided version).
pub(super) fn relax_fixpoint<S: Semiring>(
    step: RelaxStep<'_, '_, CpuBackend, S>,
    q: &mut CpuQueue<S>,
    spare: &mut CpuQueue<S>,
    limit: usize,
) -> Result<Option<usize>> {
    step.assert_values_only();
    let RelaxStep {
        d, a, mut defer, ..
    } = step;
    let c = a.rows();
    let n = c.ncols();
    assert_eq!(c.nrows(), n, "queue_relax_fixpoint: A must be square");
    assert_eq!(q.n, n, "queue_relax_fixpoint: the queue has the wrong n");
    assert_eq!(
        d.data.len(),
        n,
        "queue_relax_fixpoint: d has the wrong length"
    );
    let d = &mut d.data[..];
    let mut waiting = crate::error::try_vec(n, false, "the fixpoint's waiting marks")?;
    let mut ring = crate::error::try_vec(n.max(1), 0u32, "the fixpoint's queue")?;
    // `ring[head..head + len]` (mod n) wait, oldest first.
    let (mut head, mut len) = (0usize, 0usize);
    for &k in &q.idx {
        if !std::mem::replace(&mut waiting[k as usize], true) {
            ring[len] = k;
            len += 1;
        }
    }
    let mut appends = 0usize;
    let mut stopped = false;
    while len > 0 {
        let k = ring[head];
        head = if head + 1 == n { 0 } else { head + 1 };
        len -= 1;
        waiting[k as usize] = false;
        let x = d[k as usize];
        if let Some(Defer { bound, far }) = &mut defer
            && x.partial_cmp(bound) != Some(std::cmp::Ordering::Less)
        {
            far.append(k, x);
            continue;
        }
        let (cols, vals) = c.row(k as usize);
        let mut arc = |j: u32, w: S::T| {
            let ju = j as usize;
            let t = S::mul_at(w, x, u64::from(k));
            if S::is_zero(t) || !S::improves(d[ju], t) {
                return;
            }
            d[ju] = S::add(d[ju], t);
            if !std::mem::replace(&mut waiting[ju], true) {
                let tail = head + len;
                ring[if tail >= n { tail - n } else { tail }] = j;
                len += 1;
                appends += 1;
            }
        };
        match vals {
            Vals::All(w) => cols.iter().for_each(|&j| arc(j, w)),
            Vals::Stored(v) => cols.iter().zip(v).for_each(|(&j, &w)| arc(j, w)),
        }
        if appends > limit {
            stopped = true;
            break;
        }
    }
    for x in [&mut *q, &mut *spare] {
        x.idx.clear();
        x.vals.clear();
        x.new_generation();
    }
    Ok((!stopped).then_some(appends))
}
