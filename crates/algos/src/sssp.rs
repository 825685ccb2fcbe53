//! Single-source shortest paths: Bellman-Ford over a changed-vertex frontier (with
//! predecessors and negative-cycle detection) and delta-stepping.

use semigraph_formats::Csr;
use semigraph_semiring::{DistPred, MinPlus, MinPlusPred, NO_PRED, Number, PackedDist, Semiring};

use crate::backend::Backend;
use crate::graph::{Graph, GraphOptions};
use crate::{Error, Result, check_vertex};

/// A distance type of the shortest-path algorithms: `i32` or `f32` (the two that pack with a
/// predecessor into one 64-bit word, see [`DistPred`]).
pub trait Distance: PackedDist + Number {
    /// `true` for integer distances.
    const INTEGER: bool;
    /// As `f64` (exact for `i32` and `f32`).
    fn to_f64(self) -> f64;
    /// From `f64`, rounded (saturating for integers).
    fn from_f64(x: f64) -> Self;
}

impl Distance for i32 {
    const INTEGER: bool = true;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(x: f64) -> i32 {
        x.round() as i32
    }
}

impl Distance for f32 {
    const INTEGER: bool = false;
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
}

/// The semiring of the shortest-path algorithms: lexicographic min over `(distance,
/// predecessor)`, so one product finds each vertex's best distance and the vertex it came from.
pub type SsspSemiring<D> = MinPlusPred<D>;

/// `a` with each weight `w` as `(w, no predecessor)`, ready for [`Graph::new`] in
/// [`SsspSemiring`].
pub fn with_pred<D: Distance>(a: &Csr<MinPlus<D>>) -> Csr<SsspSemiring<D>> {
    a.map(|w| DistPred::new(w, NO_PRED))
}

/// Distances and predecessors from one source.
#[derive(Clone, Debug, PartialEq)]
pub struct ShortestPaths<D> {
    /// The source (0-based).
    pub source: usize,
    /// Distance of every vertex; `D::INFINITY` if unreachable.
    pub dist: Vec<D>,
    /// The vertex before each one on a shortest path; [`NO_PRED`] for the source and for
    /// unreachable vertices.
    pub pred: Vec<u32>,
    /// Relaxation rounds run (the last one changed nothing).
    pub rounds: usize,
}

impl<D: Distance> ShortestPaths<D> {
    fn from_packed(source: usize, d: Vec<DistPred<D>>, rounds: usize) -> Self {
        let dist = d.iter().map(|v| v.dist()).collect();
        let pred = d.iter().map(|v| v.pred()).collect();
        ShortestPaths {
            source,
            dist,
            pred,
            rounds,
        }
    }

    /// The distance of `v`, `None` if unreachable.
    pub fn distance(&self, v: usize) -> Option<D> {
        (self.dist[v] != D::INFINITY).then_some(self.dist[v])
    }

    /// The vertices of a shortest path `source -> ... -> v`, `None` if `v` is unreachable.
    pub fn path_to(&self, v: usize) -> Option<Vec<u32>> {
        self.distance(v)?;
        let mut path = vec![v as u32];
        let mut x = v;
        while x != self.source {
            x = self.pred[x] as usize;
            if x >= self.dist.len() || path.len() > self.dist.len() {
                return None;
            }
            path.push(x as u32);
        }
        path.reverse();
        Some(path)
    }

    /// Number of reachable vertices (the source included).
    pub fn reached(&self) -> usize {
        self.dist.iter().filter(|&&d| d != D::INFINITY).count()
    }
}

/// What [`relax_rounds`] ended with.
pub(crate) enum Relaxed<B: Backend, S: Semiring> {
    /// No change in the last round.
    Converged { d: B::Dense<S>, rounds: usize },
    /// Still changing after `max_rounds` rounds; `changed` is the last round's changes.
    Limit {
        d: B::Dense<S>,
        changed: B::Sparse<S>,
    },
}

/// The label-correcting loop shared by Bellman-Ford, reachability and widest paths:
/// `d(source) = one`; each round pushes only the vertices that improved in the previous round,
/// `t = changed (+).(x) A`, and keeps the improvements, `changed = improve(d, t)`.
pub(crate) fn relax_rounds<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    source: usize,
    max_rounds: usize,
) -> Result<Relaxed<B, S>> {
    let (b, n) = (g.backend(), g.n());
    check_vertex(source, n)?;
    let mut d = b.unit::<S>(n, source, S::one())?;
    let mut changed = b.sparse::<S>(n, &[source as u32], &[S::one()])?;
    let mut rounds = 0;
    while b.sparse_nnz(&changed) > 0 {
        if rounds == max_rounds {
            return Ok(Relaxed::Limit { d, changed });
        }
        rounds += 1;
        let t = b.vxm(&changed, g.push(), crate::Mask::All)?;
        changed = b.improve(&mut d, &t)?;
    }
    Ok(Relaxed::Converged { d, rounds })
}

/// Bellman-Ford single-source shortest paths, relaxing in each round only the vertices whose
/// distance changed in the previous one.
///
/// Round `r` computes `t = changed (+).(x) A` in [`SsspSemiring`] (SpMSpV: the best
/// `(d(u) + w, u)` over changed `u`) and keeps each strict improvement of `d`. Without a
/// negative cycle, `d` is final after at most `n - 1` rounds; a change in round `n` proves
/// a negative cycle reachable from the source, and walking `n` predecessor steps back from a
/// vertex changed in that round lands on one, which is returned.
///
/// # Arguments
/// - `g`: the graph in [`SsspSemiring`] (see [`with_pred`]); weights may be negative.
/// - `source`: a vertex id.
///
/// # Returns
/// [`ShortestPaths`]: distances, predecessors (a shortest-path tree), rounds.
///
/// # Errors
/// [`Error::NegativeCycle`] naming the cycle's vertices in order;
/// [`Error::VertexOutOfRange`]; backend errors.
///
/// # Complexity
/// `O(n * m)` work in the worst case, far less on graphs where few distances change per
/// round (road networks); at most `n` rounds of backend calls, one per hop of the deepest
/// shortest path.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, bellman_ford, with_pred, CpuBackend, Error, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(4, &[(0, 1, 4), (0, 2, 1), (2, 1, -2), (1, 3, 1)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &with_pred(&a), GraphOptions::default())?;
/// let sp = bellman_ford(&g, 0)?;
/// assert_eq!(sp.dist, vec![0, -1, 1, 0]);
/// assert_eq!(sp.path_to(3), Some(vec![0, 2, 1, 3]));
///
/// // Closing the cycle 1 -> 2 -> 1 with weight -2 + 1 < 0:
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 1), (1, 2, 1), (2, 1, -2)])?;
/// let g = Graph::new(&cpu, &with_pred(&a), GraphOptions::default())?;
/// match bellman_ford(&g, 0) {
///     Err(Error::NegativeCycle { mut cycle }) => { cycle.sort(); assert_eq!(cycle, vec![1, 2]) }
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), Error>(())
/// ```
pub fn bellman_ford<B: Backend, D: Distance>(
    g: &Graph<'_, B, SsspSemiring<D>>,
    source: usize,
) -> Result<ShortestPaths<D>> {
    let b = g.backend();
    let n = g.n();
    match relax_rounds(g, source, n)? {
        Relaxed::Converged { d, rounds } => Ok(ShortestPaths::from_packed(
            source,
            b.read_dense(&d)?,
            rounds,
        )),
        Relaxed::Limit { d, changed } => {
            let (idx, _) = b.read_sparse(&changed)?;
            let pred: Vec<u32> = b.read_dense(&d)?.iter().map(|v| v.pred()).collect();
            Err(Error::NegativeCycle {
                cycle: cycle_behind(&pred, idx[0] as usize),
            })
        }
    }
}

/// The cycle reached by walking `pred.len()` predecessor steps back from `v`, in edge order.
fn cycle_behind(pred: &[u32], v: usize) -> Vec<u32> {
    let n = pred.len();
    let mut x = v;
    for _ in 0..n {
        match pred.get(x) {
            Some(&p) if p != NO_PRED => x = p as usize,
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

/// A graph split for delta-stepping: light arcs (`w <= delta`) and heavy arcs (`w > delta`).
pub struct DeltaGraph<'b, B: Backend, D: Distance> {
    light: Graph<'b, B, SsspSemiring<D>>,
    heavy: Graph<'b, B, SsspSemiring<D>>,
    delta: D,
}

impl<'b, B: Backend, D: Distance> DeltaGraph<'b, B, D> {
    /// Splits `a` by `delta` and uploads both halves.
    ///
    /// `delta: None` picks `max_weight / average_out_degree` (Meyer and Sanders' `Θ(L / d)`:
    /// a vertex's light arcs then reach about one bucket ahead), and at least the smallest
    /// positive weight, and at least 1 for integer weights.
    ///
    /// # Errors
    /// [`Error::NegativeWeight`] for a negative weight; `InvalidArgument` for a `delta` that is
    /// not positive and finite; backend errors.
    pub fn new(backend: &'b B, a: &Csr<MinPlus<D>>, delta: Option<D>) -> Result<Self> {
        if let Some((u, v, w)) = a.iter().find(|t| t.2 < <D as Number>::ZERO) {
            return Err(Error::NegativeWeight {
                algorithm: "delta-stepping",
                from: u,
                to: v,
                weight: w.to_string(),
            });
        }
        let delta = match delta {
            Some(d) => d,
            None => auto_delta(a),
        };
        if delta.partial_cmp(&<D as Number>::ZERO) != Some(std::cmp::Ordering::Greater)
            || delta.to_f64().is_infinite()
        {
            return Err(Error::InvalidArgument(format!(
                "delta must be positive, not {delta}"
            )));
        }
        let opts = GraphOptions::default();
        let c = with_pred(a);
        let part = |light: bool| {
            let arcs: Vec<(u32, u32, DistPred<D>)> = c
                .iter()
                .filter(|t| (t.2.dist() <= delta) == light)
                .map(|(i, j, w)| (i as u32, j as u32, w))
                .collect();
            crate::arcs_to_csr::<SsspSemiring<D>>(c.nrows(), &arcs)
        };
        Ok(DeltaGraph {
            light: Graph::new(backend, &part(true)?, opts)?,
            heavy: Graph::new(backend, &part(false)?, opts)?,
            delta,
        })
    }

    /// The bucket width in use.
    pub fn delta(&self) -> D {
        self.delta
    }
}

/// The automatic delta: see [`DeltaGraph::new`].
pub fn auto_delta<D: Distance>(a: &Csr<MinPlus<D>>) -> D {
    let n = a.nrows().max(1) as f64;
    let avg_degree = (a.nnz() as f64 / n).max(1.0);
    let (mut max_w, mut min_pos) = (0.0f64, f64::INFINITY);
    for &w in a.vals() {
        let w = w.to_f64();
        if w.is_finite() {
            max_w = max_w.max(w);
            if w > 0.0 {
                min_pos = min_pos.min(w);
            }
        }
    }
    let mut d = max_w / avg_degree;
    if min_pos.is_finite() {
        d = d.max(min_pos);
    }
    if D::INTEGER {
        d = d.ceil().max(1.0);
    } else if d <= 0.0 {
        d = 1.0;
    }
    D::from_f64(d)
}

/// Delta-stepping single-source shortest paths (Meyer and Sanders) for non-negative weights.
///
/// Vertices are processed in buckets of distance width `delta`. For the lowest non-empty
/// bucket `[lo, lo + delta)`: repeatedly push the bucket's changed vertices along light arcs
/// (`t = bucket (+).(x) A_light`, `improve`), keeping those that land in the same bucket, until
/// none do; then push every vertex settled in the bucket once along heavy arcs. Changed
/// vertices beyond the bucket wait in a pending sparse vector. All steps are SpMSpV, sparse
/// unions and selections, so no step touches all `n` vertices.
///
/// # Arguments
/// - `g`: the split graph ([`DeltaGraph::new`], which also picks or checks `delta`).
/// - `source`: a vertex id.
///
/// # Returns
/// [`ShortestPaths`]; `rounds` counts light and heavy pushes.
///
/// # Errors
/// [`Error::VertexOutOfRange`]; backend errors.
///
/// # Complexity
/// `O(n + m)` pushes per bucket phase in the worst case; with a good `delta`, close to
/// Dijkstra's work plus re-relaxations inside a bucket. One round of backend calls per light
/// iteration.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, delta_stepping, CpuBackend, DeltaGraph};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<f32>>(4, &[(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0), (2, 3, 0.5)])?;
/// let cpu = CpuBackend::new();
/// let g = DeltaGraph::new(&cpu, &a, Some(1.0))?;
/// let sp = delta_stepping(&g, 0)?;
/// assert_eq!(sp.dist, vec![0.0, 1.0, 2.0, 2.5]);
/// assert_eq!(sp.pred[2], 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn delta_stepping<B: Backend, D: Distance>(
    g: &DeltaGraph<'_, B, D>,
    source: usize,
) -> Result<ShortestPaths<D>> {
    type S<D> = SsspSemiring<D>;
    let b = g.light.backend();
    let n = g.light.n();
    check_vertex(source, n)?;
    let one = S::<D>::one();
    let mut d = b.unit::<S<D>>(n, source, one)?;
    let mut pending = b.sparse::<S<D>>(n, &[source as u32], &[one])?;
    let empty = b.sparse::<S<D>>(n, &[], &[])?;
    let delta = g.delta.to_f64();
    let mut rounds = 0;
    while b.sparse_nnz(&pending) > 0 {
        let m = b.reduce_sparse(&pending)?.dist();
        let i = (m.to_f64() / delta).floor();
        let mut lo = D::from_f64(i * delta);
        let mut hi = D::from_f64((i + 1.0) * delta);
        if lo > m {
            lo = m;
        }
        if hi <= m {
            hi = m.sat_add(g.delta);
        }
        let mut bucket = b.select_dist(&pending, lo, hi)?;
        pending = b.select_dist(&pending, hi, D::INFINITY)?;
        let mut settled = b.union(&empty, &bucket)?;
        while b.sparse_nnz(&bucket) > 0 {
            rounds += 1;
            let t = b.vxm(&bucket, g.light.push(), crate::Mask::All)?;
            let changed = b.improve(&mut d, &t)?;
            bucket = b.select_dist(&changed, lo, hi)?;
            settled = b.union(&settled, &bucket)?;
            let later = b.select_dist(&changed, hi, D::INFINITY)?;
            pending = b.union(&pending, &later)?;
        }
        rounds += 1;
        let t = b.vxm(&settled, g.heavy.push(), crate::Mask::All)?;
        let changed = b.improve(&mut d, &t)?;
        pending = b.union(&pending, &changed)?;
    }
    Ok(ShortestPaths::from_packed(
        source,
        b.read_dense(&d)?,
        rounds,
    ))
}
