//! Shortest paths as a relaxation to a fixpoint in any order, then every predecessor in one
//! witness pass ([`fixpoint_paths`]).

use semigraph_semiring::{MaxMin, MinPlus, Number};

use super::{Distance, ShortestPaths, bellman_ford, delta_of, finish, weight_facts};
use crate::backend::{
    BackendKind, Buckets, Frontier, NO_PARENT, Objects, Parents, RelaxStep, fixpoint_by_steps,
    waiting_again,
};
use crate::error::{Error, Result, check_vertex};
use crate::graph::Graph;

/// Improvements per vertex after which the relaxation stops (then narrower buckets, then
/// Bellman-Ford's steps go on from its distances; a backend may stop at a bound of its own
/// first: a GPU at 8 per vertex a bucket, or where too much work waits at once). One core's
/// first-in-first-out queue makes 21.75 per vertex on NY with uniform weights 1..1000 in one
/// bucket.
const APPENDS_PER_VERTEX: usize = 32;

/// Bellman-Ford steps [`fixpoint_paths`] runs before its buckets, to see how fast the
/// frontier grows (with 8, uniform random graphs of 2^20 vertices and degree 2 or 4 still had
/// frontiers under [`PROBE_WIDTH`], and lost 3.7-5x through buckets that stopped).
const PROBE_STEPS: usize = 16;

/// Longest frontier after [`PROBE_STEPS`] steps for which the buckets go on: past it the
/// graph spreads too fast for relaxation in any order (H100, a uniform random graph of 2^20
/// vertices and degree 4: 17.7 ms through buckets that stopped, 3.7 ms by Bellman-Ford),
/// while road networks and grids reach a few dozen to a few hundred vertices in as many steps.
const PROBE_WIDTH: usize = 4096;

/// How much wider [`fixpoint_paths`]'s automatic buckets are on the CPU than delta-stepping's
/// there ([`auto_delta`](super::auto_delta)). On one core (graphs under 32,768 vertices, or a
/// team taken) a bucket is one queue's order; NY, weights 1..1000 (2 cores): 4 times 27.1 ms,
/// 16 times 22.5 ms, 32 times 25.8 ms, 64 times 26.8 ms (delta-stepping 29.2 ms). On a team of
/// 16 threads (H200 host, the benchmark log in git history) NY with widths of 1, 2, 4, 8, 16 and 32 times
/// (361 to 11,552): 17.7, 16.0, 13.7, 13.8, 13.1, 13.9 ms; NE with 2, 4, 8 and 16 times: 61.4,
/// 55.7, 53.5, 57.6 ms (52-53 in the runs by default).
pub const FIXPOINT_DELTA_FACTOR: f64 = 16.0;

/// The same on a GPU, whose buckets cost a launch and two reads each and whose order within a
/// bucket is the warps': H100, weights 1..1000 ([`auto_delta`](super::auto_delta) 363), NY / BAY / FLA with a
/// width of 35,000: 7.8 / 6.4-6.7 / 22.3-23.1 ms, 46,000: 7.7 / 6.4-6.5 / 21.2-21.3 ms,
/// 75,000: 8.1 / 6.1 / 18.6 ms, 100,000: NY stopped (Bellman-Ford again, 17.9-18.1 ms) / 6.7-7.0
/// / 18.5-18.6 ms; Bellman-Ford 10.6-10.8 / 8.3 / 37.1-37.4 ms. On an H200 with 16 blocks and
/// narrower buckets after a stop: wider pays on roads and not on grids (75,000: NY 6.75 ->
/// 6.10 ms, FLA 20.0 -> 17.5, a 1000 x 1000 grid 21.7 -> 27.8).
pub const FIXPOINT_GPU_DELTA_FACTOR: f64 = 128.0;

/// Single-source shortest paths relaxed to a fixpoint bucket by bucket, each bucket in
/// whatever order the backend finds fastest ([`Frontier::queue_relax_buckets`]: on a GPU one
/// launch a bucket over a worklist, no round waiting for the one before; on the CPU a team of
/// threads for the whole relaxation, meeting once a round, or on one core a first-in-first-out
/// queue a bucket), then every predecessor in one
/// [`witness`](crate::backend::Products::witness) pass: the predecessor of `v` is the smallest
/// `u` with `d(u) + w(u, v) = d(v)`. Buckets are delta-stepping's (values below `delta`
/// first, then the next `delta` past the smallest value waiting), so that few vertices are
/// relaxed before their distance is final; within one the order is free. Distances equal
/// Bellman-Ford's bit for bit (the fixpoint does not depend on the order); predecessors may
/// differ from its where several shortest paths tie, and are the same on every backend.
///
/// It first runs sixteen of Bellman-Ford's steps: if the frontier has grown past 4,096 vertices
/// by then (a graph of few, wide levels, where relaxation in any order does much repeated
/// work), Bellman-Ford runs instead; else the buckets start from that frontier.
///
/// Where a bucket's relaxation stops (past `32 n` improvements, or a backend's bound such as a
/// GPU's on a wide frontier), it goes on from that bucket in buckets 4 times narrower, then 16
/// ([`Buckets::narrower`]); past a third stop Bellman-Ford's steps go on from the distances
/// found (lengths of paths), every vertex reached in their first frontier: the work done is
/// kept.
///
/// The witness pass gives a tree when every arc strictly lengthens a path: all weights
/// positive and, in floating point, none so small that adding it to the largest distance
/// changes nothing. Where that does not hold (zero or negative weights, a weight lost in a
/// sum), [`bellman_ford`] runs instead and its answer is returned, negative cycles named.
///
/// # Arguments
/// - `g`: the graph in [`MinPlus`] over `D`.
/// - `source`: a vertex id.
/// - `delta`: the bucket width; `None` picks [`auto_delta`](super::auto_delta) times [`FIXPOINT_DELTA_FACTOR`]
///   on the CPU, [`FIXPOINT_GPU_DELTA_FACTOR`] on a GPU; [`Distance::INFINITY`] makes one
///   bucket.
///
/// # Returns
/// [`ShortestPaths`]; `rounds` is 1 (one relaxation to the fixpoint) plus the steps after a
/// stop, or Bellman-Ford's where it ran instead.
///
/// # Errors
/// `InvalidArgument` for a `delta` that is not positive; as [`bellman_ford`].
///
/// # Complexity
/// The arcs of each vertex once per improvement of its distance (few with narrow buckets,
/// at most `32` on average before Bellman-Ford takes over), one pass over the arcs of the
/// reached vertices for the predecessors, `O(m)` on the host for the smallest and largest
/// weights on a graph's first call (kept with the graph: [`Graph`]'s views start anew), and a
/// constant number of backend calls per bucket (one read of the smallest value waiting).
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, bellman_ford, fixpoint_paths, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // Two shortest paths to 3 (0-1-3 and 0-2-3): the predecessor is the smaller, 1.
/// let a = arcs_to_csr::<MinPlus<i32>>(4, &[(0, 2, 1), (0, 1, 1), (2, 3, 1), (1, 3, 1)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let sp = fixpoint_paths(&g, 0, None)?;
/// assert_eq!(sp.dist, bellman_ford(&g, 0)?.dist);
/// assert_eq!(sp.path_to(3), Some(vec![0, 1, 3]));
/// assert_eq!(fixpoint_paths(&g, 0, Some(1))?, sp); // one bucket per distance
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn fixpoint_paths<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    source: usize,
    delta: Option<D>,
) -> Result<ShortestPaths<D>> {
    check_vertex(source, g.n())?;
    match relaxed(g, source, delta, APPENDS_PER_VERTEX)? {
        Some(sp) => Ok(sp),
        None => bellman_ford(g, source),
    }
}

/// [`fixpoint_paths`] where its conditions hold, `None` where Bellman-Ford must run; the
/// relaxation stops past `appends_per_vertex` improvements a vertex (then steps go on).
fn relaxed<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    source: usize,
    delta: Option<D>,
    appends_per_vertex: usize,
) -> Result<Option<ShortestPaths<D>>> {
    let (b, n) = (g.backend(), g.n());
    // The weights' smallest and largest, kept with the graph: found once, not per call.
    let facts = g.value_facts(weight_facts::<D>);
    if facts.lowest.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Ok(None);
    }
    let smallest = D::from_f64(facts.lowest);
    let delta = match delta {
        Some(x) => x,
        None => {
            let factor = match b.kind() {
                BackendKind::Gpu => FIXPOINT_GPU_DELTA_FACTOR,
                _ => FIXPOINT_DELTA_FACTOR,
            };
            D::from_f64(delta_of::<D>(&facts, n, g.nnz()).to_f64() * factor)
        }
    };
    if delta.partial_cmp(&<D as Number>::ZERO) != Some(std::cmp::Ordering::Greater) {
        return Err(Error::InvalidArgument(format!(
            "delta must be positive, not {delta}"
        )));
    }
    let zero = <D as Number>::ZERO;
    let mut d = b.unit::<MinPlus<D>>(n, source, zero)?;
    let (mut near, mut spare) = (b.queue::<MinPlus<D>>(n)?, b.queue::<MinPlus<D>>(n)?);
    b.queue_set(&mut near, &[source as u32], &[zero], 0)?;
    // A few of Bellman-Ford's steps first: where the frontier grows fast (a random graph, few
    // and wide levels) Bellman-Ford wins, and only these steps are lost; elsewhere the
    // buckets go on from this frontier.
    // (A backend may end a batch of steps early, before a frontier too long for its kernel:
    // the count of steps run says when the probe is done.)
    loop {
        let info = b.queue_len(&near)?;
        if info.len > PROBE_WIDTH {
            return Ok(None);
        }
        if info.len == 0 || info.steps >= PROBE_STEPS {
            break;
        }
        let probe = RelaxStep::new(&mut d, g.push());
        let more = PROBE_STEPS - info.steps;
        b.queue_relax_steps(probe, &mut near, &mut spare, more, usize::MAX)?;
    }
    // The buckets to their fixpoint in one call (delta-stepping's order); then the
    // predecessors in one pass.
    let limit = n.saturating_mul(appends_per_vertex);
    let step = RelaxStep::new(&mut d, g.push());
    let mut rounds = 1;
    let buckets = PositiveWidth(Width(delta));
    if b.queue_relax_buckets(step, &mut near, &mut spare, &buckets, limit)?
        .is_none()
    {
        // A bucket outgrew its bound of work (narrower ones too): its distances are lengths
        // of paths, upper bounds of the final ones, and Bellman-Ford's steps go on from them,
        // every vertex reached in their first frontier (its arcs may not all have been
        // relaxed from its last value); every weight is positive, so they end.
        waiting_again(b, &d, None, &mut near)?;
        let step = RelaxStep::new(&mut d, g.push());
        fixpoint_by_steps(b, step, &mut near, &mut spare, usize::MAX)?;
        rounds += b.queue_len(&near)?.steps;
    }
    let Some((d, p)) = witness_paths(g, d, smallest)? else {
        return Ok(None);
    };
    Ok(Some(finish(b, source, &d, &p, rounds)?))
}

/// Distances with their predecessors, on backend `B`.
type DistancesParents<B, D> = (
    <B as Objects>::Dense<MinPlus<D>>,
    <B as Objects>::Dense<Parents>,
);

/// The predecessors of final distances `d` in one [`witness`](crate::backend::Products::witness)
/// pass: the predecessor of `v` is the smallest `u` with `d(u) + w(u, v) = d(v)`. Every weight
/// must be positive (`smallest`, the least): then each such arc strictly lengthens a path and
/// the predecessors form a tree, unless, in floating point, a weight is lost in a sum (`d + w
/// = d` beside the largest distance): `None` then. Returns the distances back with the
/// predecessors. One pass over the reached vertices' arcs.
pub(super) fn witness_paths<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    mut d: B::Dense<MinPlus<D>>,
    smallest: D,
) -> Result<Option<DistancesParents<B, D>>> {
    let (b, n) = (g.backend(), g.n());
    let x = b.compact(&d)?;
    let mut p = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    b.witness(&mut p, &x, g.push(), &d, &x)?;
    if !D::INTEGER {
        // A floating-point sum may lose a small weight (d + w = d): then a predecessor could
        // be at the same distance and the witnesses could close a cycle. Adding half the
        // smallest weight to the largest distance must still change it.
        let d2 = b.dense_as::<MinPlus<D>, MaxMin<D>>(d);
        let largest = b.reduce(&d2, b.keep(&p))?;
        d = b.dense_as(d2);
        let half = smallest.times(D::from_f64(0.5));
        if largest != <D as Number>::LOWEST && largest.plus(half) <= largest {
            return Ok(None);
        }
    }
    Ok(Some((d, p)))
}

/// Buckets of one width over distances, delta-stepping's: bucket `b` holds the distances from
/// `b * width` up to (not including) `(b + 1) * width` (as rounded to `D`); no path
/// ([`Distance::INFINITY`]) is in none (`u64::MAX`), a negative distance in bucket 0.
///
/// ```
/// use semigraph_algos::{Buckets, Width};
///
/// let w = Width(2.5f32);
/// assert_eq!((w.bucket(0.0), w.bucket(2.4), w.bucket(2.5), w.bucket(f32::INFINITY)), (0, 0, 1, u64::MAX));
/// assert_eq!(w.bound(1), 5.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Width<D>(pub D);

impl<D: Distance> Buckets<D> for Width<D> {
    fn bucket(&self, x: D) -> u64 {
        if x == D::INFINITY {
            return u64::MAX;
        }
        let f = (x.to_f64() / self.0.to_f64()).floor();
        // Below 2^63: a finite distance never reaches the bucket of no path.
        let b = if f > 0.0 { f.min(9.2e18) as u64 } else { 0 };
        // `D` may round the bound down to `x` (a large float, a small width).
        if x < self.bound(b) { b } else { b + 1 }
    }
    fn bound(&self, b: u64) -> D {
        D::from_f64((b as f64 + 1.0) * self.0.to_f64())
    }
}

/// [`Width`] buckets over weights known to be positive, which may therefore narrow after a
/// stop ([`Buckets::narrower`]: a relaxation never leads to an earlier bucket).
struct PositiveWidth<D>(Width<D>);

impl<D: Distance> Buckets<D> for PositiveWidth<D> {
    fn bucket(&self, x: D) -> u64 {
        self.0.bucket(x)
    }
    fn bound(&self, b: u64) -> D {
        self.0.bound(b)
    }
    /// The width divided by `2^k`, where that is positive and narrower (as rounded to `D`).
    fn narrower(&self, k: u32) -> Option<Box<dyn Buckets<D> + '_>> {
        let w = D::from_f64(self.0.0.to_f64() / 2f64.powi(k.min(64) as i32));
        let ok = w > <D as Number>::ZERO && w < self.0.0;
        ok.then(|| Box::new(PositiveWidth(Width(w))) as Box<dyn Buckets<D>>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CpuBackend, GraphOptions};

    /// A relaxation stopped at once (no improvement allowed) goes on by steps to the answer of
    /// one that did not stop, with more rounds.
    #[test]
    fn stopped_relaxation_goes_on() {
        // A 12 x 12 grid, both ways, weights from a small congruential sequence.
        let (side, mut x) = (12u32, 7u32);
        let mut arcs = Vec::new();
        for r in 0..side {
            for c in 0..side {
                let v = r * side + c;
                for (dr, dc) in [(0, 1), (1, 0)] {
                    if r + dr < side && c + dc < side {
                        let u = (r + dr) * side + c + dc;
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        let w = 1 + (x >> 16) as i32 % 50;
                        arcs.extend([(v, u, w), (u, v, w)]);
                    }
                }
            }
        }
        let n = (side * side) as usize;
        let a = crate::arcs_to_csr::<MinPlus<i32>>(n, &arcs).unwrap();
        let cpu = CpuBackend::new();
        let g = Graph::new(&cpu, &a, GraphOptions::default()).unwrap();
        let whole = relaxed(&g, 5, Some(40), APPENDS_PER_VERTEX)
            .unwrap()
            .unwrap();
        assert_eq!(whole.rounds, 1);
        let stopped = relaxed(&g, 5, Some(40), 0).unwrap().unwrap();
        assert!(stopped.rounds > 1, "rounds {}", stopped.rounds);
        assert_eq!(stopped.dist, whole.dist);
        assert_eq!(stopped.pred, whole.pred);
        assert_eq!(stopped.dist, bellman_ford(&g, 5).unwrap().dist);
    }
}
