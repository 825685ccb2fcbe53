//! The label-correcting loop that Bellman-Ford, reachability, widest paths and negative-cycle
//! detection share: from one source (or every vertex), each round relaxes only the vertices
//! that changed in the previous one, in batches of rounds between reads of the frontier's
//! length.

use semigraph_semiring::{MinPlus, Number, Semiring};

use crate::backend::NO_PARENT;
use crate::backend::{Frontier, Parents, RelaxStep};
use crate::error::{Result, check_vertex};
use crate::graph::Graph;
use crate::traverse::Traversal;

/// What [`relax_rounds`] ended with.
pub(crate) enum Relaxed<B: Frontier, S: Semiring> {
    /// No change in the last round.
    Converged {
        d: B::Dense<S>,
        parents: Option<B::Dense<Parents>>,
        rounds: usize,
    },
    /// Still changing after `max_rounds` rounds; `changed` is the last round's changes.
    Limit {
        parents: Option<B::Dense<Parents>>,
        changed: B::Queue<S>,
    },
}

/// Where [`relax_rounds`] starts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Start {
    /// One source at `one`.
    One(usize),
    /// Every vertex at `one` (as from a virtual source with an arc of weight `one` to each):
    /// the fixed point exists exactly when there is no negative cycle anywhere.
    Every,
}

/// The label-correcting loop shared by Bellman-Ford, reachability and widest paths:
/// `d(source) = one`; each round pushes only the vertices that improved in the previous round
/// ([`Frontier::queue_relax`] from queue to queue, in the batches of a [`Traversal`]),
/// recording the witness of each improvement when `with_parents`; never more than
/// `max_rounds` rounds in all.
pub(crate) fn relax_rounds<B: Frontier, S: Semiring>(
    g: &Graph<'_, B, S>,
    source: Start,
    max_rounds: usize,
    with_parents: bool,
) -> Result<Relaxed<B, S>> {
    let (b, n) = (g.backend(), g.n());
    let (mut d, starts) = match source {
        Start::One(source) => {
            check_vertex(source, n)?;
            (b.unit::<S>(n, source, S::one())?, vec![source as u32])
        }
        Start::Every => (
            b.dense_filled::<S>(n, 1, S::one())?,
            crate::error::try_vec(n, 0u32, "the start queue")?
                .into_iter()
                .enumerate()
                .map(|(v, _)| v as u32)
                .collect(),
        ),
    };
    let mut parents = if with_parents {
        Some(b.dense_filled::<Parents>(n, 1, NO_PARENT)?)
    } else {
        None
    };
    let ones = crate::error::try_vec(starts.len(), S::one(), "the start queue")?;
    let mut tr = Traversal::<B, S>::new(b, n, &starts, &ones)?;
    drop((starts, ones));
    let mut done = b.queue_len(&tr.front)?;
    loop {
        crate::cancel::check()?;
        if done.len == 0 {
            return Ok(Relaxed::Converged {
                d,
                parents,
                rounds: done.steps,
            });
        }
        if done.steps >= max_rounds {
            return Ok(Relaxed::Limit {
                parents,
                changed: tr.front,
            });
        }
        // Never past `max_rounds` rounds: a change in the last one is what the caller tests.
        let mut step = RelaxStep::new(&mut d, g.push());
        if let Some(p) = parents.as_mut() {
            step = step.parents(p);
        }
        done = tr.advance(b, step, max_rounds - done.steps)?;
    }
}

/// A negative cycle anywhere in the graph, if there is one, named by its vertices in order;
/// `None` if every cycle weighs at least zero.
///
/// Bellman-Ford from every vertex at once (every distance starts at 0, as from a virtual
/// source with a zero arc to each vertex), relaxing in each round only the vertices that
/// changed: the distances settle within `n - 1` rounds exactly when no cycle is negative,
/// and otherwise walking `n` predecessor steps back from a vertex changed in round `n` lands
/// on a negative cycle. A graph without negative weights is answered without a round.
///
/// # Arguments
/// - `g`: the graph in [`MinPlus`] over `D` (any [`Distance`](crate::Distance) type).
///
/// # Returns
/// `Some(cycle)` (vertex ids in arc order) or `None`.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// `O(n m)` work in the worst case; on most graphs far less, since after the first round only
/// vertices whose distance fell are relaxed (a short negative cycle costs `n` rounds of a few
/// vertices each). `O(n)` memory.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, negative_cycle, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// let cpu = CpuBackend::new();
/// // 2 -> 3 -> 2 weighs -1; vertex 0 reaches it only through 1, and no search from 0 is needed.
/// let a = arcs_to_csr::<MinPlus<i32>>(4, &[(0, 1, 5), (1, 2, 1), (2, 3, -3), (3, 2, 2)])?;
/// let mut cycle = negative_cycle(&Graph::new(&cpu, &a, GraphOptions::default())?)?.unwrap();
/// cycle.sort();
/// assert_eq!(cycle, vec![2, 3]);
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, -5), (1, 2, 1), (2, 1, 0)])?;
/// assert_eq!(negative_cycle(&Graph::new(&cpu, &a, GraphOptions::default())?)?, None);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn negative_cycle<B: Frontier, D: Number>(
    g: &Graph<'_, B, MinPlus<D>>,
) -> Result<Option<Vec<u32>>> {
    if g.csr().vals().iter().all(|&w| w >= <D as Number>::ZERO) {
        return Ok(None);
    }
    let b = g.backend();
    match relax_rounds(g, Start::Every, g.n(), true)? {
        Relaxed::Converged { .. } => Ok(None),
        Relaxed::Limit {
            parents: Some(p),
            changed,
        } => Ok(Some(cycle_at_limit(b, &p, &changed)?)),
        Relaxed::Limit { parents: None, .. } => unreachable!("parents were asked for"),
    }
}

/// The negative cycle behind a run that still changed in its last allowed round: `n`
/// predecessor steps back from a vertex of that round's queue.
pub(crate) fn cycle_at_limit<B: Frontier, S: Semiring>(
    b: &B,
    parents: &B::Dense<Parents>,
    changed: &B::Queue<S>,
) -> Result<Vec<u32>> {
    let (idx, _) = b.queue_read(changed)?;
    let pred = b.read_dense(parents)?;
    Ok(cycle_behind(&pred, idx[0] as usize))
}

/// The cycle reached by walking `pred.len()` predecessor steps back from `v`, in edge order.
pub(crate) fn cycle_behind(pred: &[u32], v: usize) -> Vec<u32> {
    let n = pred.len();
    let mut x = v;
    for _ in 0..n {
        match pred.get(x) {
            Some(&p) if p != NO_PARENT => x = p as usize,
            // Not reachable for a vertex changed in round n (see `bellman_ford`).
            _ => return vec![v as u32],
        }
    }
    let mut cycle = vec![x as u32];
    let mut y = pred[x] as usize;
    while y != x && cycle.len() <= n {
        cycle.push(y as u32);
        y = pred[y] as usize;
    }
    cycle.reverse();
    cycle
}
