//! Single-source shortest paths: Bellman-Ford over a changed-vertex frontier (with
//! predecessors and negative-cycle detection) and delta-stepping, in [`MinPlus`] over any
//! [`Distance`] type (`i32`, `i64`, `f32`, `f64`).
//!
//! Both relax with [`Backend::relax`](crate::backend::Backend::relax): a push product from the vertices that changed, the
//! strict improvements it brings, and the [`witness`](crate::backend::Products::witness) of each improvement,
//! which is the predecessor (the smallest frontier vertex whose path attains the new
//! distance). Because a predecessor is only rewritten on a strict improvement, and always
//! from the previous round's values, the predecessors form a tree unless there is a
//! negative cycle (zero-weight cycles included). A third method, [`fixpoint_paths`], relaxes
//! to the fixpoint in any order and finds every predecessor in one witness pass afterwards,
//! as Bellman-Ford also does where every weight is positive.

use semigraph_formats::Csr;
use semigraph_semiring::{MinPlus, Number};

use crate::backend::NO_PARENT;
use crate::backend::{BackendKind, Frontier, Parents, RelaxStep};
use crate::error::{Error, Result, check_vertex};
use crate::graph::{Graph, GraphOptions, ValueFacts};
use crate::relax::{Relaxed, Start, cycle_at_limit, relax_rounds};
use crate::traverse::Traversal;

mod algorithm;
mod fixpoint;
mod path;
pub use algorithm::ShortestPathsAlgorithm;
pub use fixpoint::{FIXPOINT_DELTA_FACTOR, FIXPOINT_GPU_DELTA_FACTOR, Width, fixpoint_paths};
pub use path::{
    Path, PathTree, ShortestPath, fewest_arcs_path, fewest_arcs_tree, shortest_path,
    shortest_path_tree,
};

/// A distance type of the shortest-path algorithms: `i32`, `i64`, `f32` or `f64`. The
/// semiring is [`MinPlus`] over it (integer sums saturate; the largest value, or `+inf`, is
/// "no path").
pub trait Distance: Number + semigraph_formats::WeightValue {
    /// `true` for integer distances.
    const INTEGER: bool;
    /// "No path": the largest value (`+inf` for floats), the zero of [`MinPlus`].
    const INFINITY: Self;
    /// As `f64` (exact for `i32`, `f32` and `f64`; `i64` beyond 2^53 rounds).
    fn to_f64(self) -> f64;
    /// From `f64`, rounded (saturating for integers).
    fn from_f64(x: f64) -> Self;
    /// All-pairs distances with next hops for types that pack with a vertex id into one
    /// 64-bit word (`i32`, `f32`), by squaring in [`semigraph_semiring::MinPlusPred`];
    /// `None` for the others (see [`apsp`](fn@crate::apsp)).
    #[doc(hidden)]
    fn packed_apsp<B: Frontier>(
        _b: &B,
        _a: &Csr<MinPlus<Self>>,
        _limit: usize,
    ) -> Option<Result<crate::squaring::Packed<Self>>> {
        None
    }
}

macro_rules! distance {
    ($t:ty, $int:expr, $packs:expr) => {
        impl Distance for $t {
            const INTEGER: bool = $int;
            const INFINITY: $t = <$t as Number>::HIGHEST;
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(x: f64) -> $t {
                if $int { x.round() as $t } else { x as $t }
            }
            fn packed_apsp<B: Frontier>(
                b: &B,
                a: &Csr<MinPlus<$t>>,
                limit: usize,
            ) -> Option<Result<crate::squaring::Packed<$t>>> {
                $packs(b, a, limit)
            }
        }
    };
}
distance!(i32, true, |b, a, l| Some(
    crate::squaring::packed::<B, i32>(b, a, l)
));
distance!(f32, false, |b, a, l| Some(
    crate::squaring::packed::<B, f32>(b, a, l)
));
distance!(i64, true, |_, _, _| None);
distance!(f64, false, |_, _, _| None);

/// Distances and predecessors from one source.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShortestPaths<D> {
    /// The source (0-based).
    pub source: usize,
    /// Distance of every vertex; `D::INFINITY` if unreachable.
    pub dist: Vec<D>,
    /// The vertex before each one on a shortest path; [`NO_PARENT`] for the source and for
    /// unreachable vertices.
    pub pred: Vec<u32>,
    /// Relaxation rounds run (the last one changed nothing); 1 for [`fixpoint_paths`]'s one
    /// relaxation to the fixpoint.
    pub rounds: usize,
}

impl<D: Distance> ShortestPaths<D> {
    /// The distance of `v`, `None` if unreachable.
    pub fn distance(&self, v: usize) -> Option<D> {
        (self.dist[v] != D::INFINITY).then_some(self.dist[v])
    }

    /// The vertices of a shortest path `source -> ... -> v`, `None` if `v` is unreachable.
    /// `EdgeList::labels_of` writes them in the input file's numbering.
    pub fn path_to(&self, v: usize) -> Option<Vec<u32>> {
        self.distance(v)?;
        crate::paths::path_back(&self.pred, self.source, v)
    }

    /// Number of reachable vertices (the source included).
    pub fn reached(&self) -> usize {
        self.dist.iter().filter(|&&d| d != D::INFINITY).count()
    }
}

/// The result of a run: distances as read back, predecessors (the source has none).
fn finish<B: Frontier, D: Distance>(
    b: &B,
    source: usize,
    d: &B::Dense<MinPlus<D>>,
    parents: &B::Dense<Parents>,
    rounds: usize,
) -> Result<ShortestPaths<D>> {
    let dist = b.read_dense(d)?;
    let mut pred = b.read_dense(parents)?;
    // A source on no cycle keeps no predecessor; one improved through a (zero-weight) cycle
    // back to itself cannot be (improvements are strict), so this only tidies the source.
    pred[source] = NO_PARENT;
    Ok(ShortestPaths {
        source,
        dist,
        pred,
        rounds,
    })
}

/// Bellman-Ford single-source shortest paths, relaxing in each round only the vertices whose
/// distance changed in the previous one.
///
/// Round `r` computes `t = changed (+).(x) A` in [`MinPlus`] (SpMSpV: the best `d(u) + w`
/// over changed `u`), keeps each strict improvement of `d`, and records as predecessor the
/// smallest changed `u` that attains it ([`Backend::relax`](crate::backend::Backend::relax)). Without a negative cycle, `d` is
/// final after at most `n - 1` rounds; a change in round `n` proves a negative cycle reachable
/// from the source, and walking `n` predecessor steps back from a vertex changed in that
/// round lands on one, which is returned.
///
/// Where every weight is positive (no cycle can be negative) the rounds record no
/// predecessors: one [`witness`](crate::backend::Products::witness) pass after them takes as
/// predecessor of `v` the smallest `u` with `d(u) + w(u, v) = d(v)`, as [`fixpoint_paths`]
/// does (the two then agree), which spares each round a second pass over the frontier's arcs
/// (GPU, NY with weights 1..1000: the benchmark log in git history). In floating point, where adding a
/// weight to the largest distance could leave it unchanged, the rounds run again with
/// predecessors.
///
/// Integer sums saturate at the type's bounds: pick a distance type that holds every path
/// length (see [`distance_type`](crate::distance_type)), as the `semigraph` command does.
///
/// # Arguments
/// - `g`: the graph in [`MinPlus`] over `D`; weights may be negative.
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
/// shortest path; with positive weights one more pass over the reached vertices' arcs, and
/// `O(m)` on the host for the smallest weight on a graph's first call (kept with the graph).
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, bellman_ford, CpuBackend, Error, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(4, &[(0, 1, 4), (0, 2, 1), (2, 1, -2), (1, 3, 1)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let sp = bellman_ford(&g, 0)?;
/// assert_eq!(sp.dist, vec![0, -1, 1, 0]);
/// assert_eq!(sp.path_to(3), Some(vec![0, 2, 1, 3]));
///
/// // Closing the cycle 1 -> 2 -> 1 with weight -2 + 1 < 0:
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 1), (1, 2, 1), (2, 1, -2)])?;
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// match bellman_ford(&g, 0) {
///     Err(Error::NegativeCycle { mut cycle }) => { cycle.sort(); assert_eq!(cycle, vec![1, 2]) }
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), Error>(())
/// ```
pub fn bellman_ford<B: Frontier, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
    source: usize,
) -> Result<ShortestPaths<D>> {
    let b = g.backend();
    let n = g.n();
    // Every weight positive: no cycle is negative, and the predecessors follow from the final
    // distances, so the rounds keep none and one witness pass finds them.
    let facts = g.value_facts(weight_facts::<D>);
    if facts.lowest.partial_cmp(&0.0) == Some(std::cmp::Ordering::Greater)
        && let Relaxed::Converged { d, rounds, .. } = relax_rounds(g, Start::One(source), n, false)?
        && let Some((d, p)) = fixpoint::witness_paths(g, d, D::from_f64(facts.lowest))?
    {
        return finish(b, source, &d, &p, rounds);
    }
    match relax_rounds(g, Start::One(source), n, true)? {
        Relaxed::Converged {
            d,
            parents: Some(p),
            rounds,
        } => finish(b, source, &d, &p, rounds),
        Relaxed::Limit {
            parents: Some(p),
            changed,
        } => Err(Error::NegativeCycle {
            cycle: cycle_at_limit(b, &p, &changed)?,
        }),
        _ => unreachable!("relax_rounds keeps parents when asked to"),
    }
}

/// A single-source shortest-path algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SsspMethod {
    /// The one [`sssp_choice`] picks for the graph and backend.
    #[default]
    Auto,
    /// [`bellman_ford`]: any weights; names negative cycles.
    BellmanFord,
    /// [`delta_stepping`]: non-negative weights.
    DeltaStepping,
    /// [`fixpoint_paths`]: relaxation to a fixpoint in any order, then the predecessors in one
    /// pass (Bellman-Ford where the weights do not allow it).
    Fixpoint,
}

impl semigraph_formats::Named for SsspMethod {
    const VALUES: &'static [SsspMethod] = &[
        SsspMethod::Auto,
        SsspMethod::BellmanFord,
        SsspMethod::DeltaStepping,
        SsspMethod::Fixpoint,
    ];
    fn name(self) -> &'static str {
        SsspMethod::name(self)
    }
}

impl SsspMethod {
    /// `auto`, `bellman-ford`, `delta-stepping` or `fixpoint`.
    pub fn name(self) -> &'static str {
        match self {
            SsspMethod::Auto => "auto",
            SsspMethod::BellmanFord => "bellman-ford",
            SsspMethod::DeltaStepping => "delta-stepping",
            SsspMethod::Fixpoint => "fixpoint",
        }
    }
}

/// The algorithm [`SsspMethod::Auto`] runs on `a` on a backend of `kind` (beside
/// [`apsp_choice`](crate::apsp_choice)): Bellman-Ford when a weight is negative (the others
/// need none); [`fixpoint_paths`] for graphs of short rows
/// ([`short_rows`](crate::graph::short_rows): road networks, grids, sparse random graphs)
/// with positive weights, on every backend (its first 16 steps are Bellman-Ford's, and it
/// hands over to Bellman-Ford where the frontier grows wide: sparse random graphs, which short
/// rows do not tell apart); else delta-stepping on the CPU (less work per vertex) and
/// Bellman-Ford on a GPU (frontier relaxation with no bucket bookkeeping: a GPU is
/// latency-bound on the thin frontiers of narrow buckets, and every bucket costs a
/// read-back). Measured with weights 1..1000 (the benchmark log in git history, thirtieth session),
/// `auto` (the fixpoint) against Bellman-Ford on an H200: FLA 19.4-19.5 against 25.8-26.6 ms,
/// NE 14.1-14.4 against 36.4-36.6, NW 18.5 against 32.7-33.4, a 1000 x 1000 grid 21.3-21.7
/// against 30.0-30.2; losses on NY (7.3-7.6 against 7.2), BAY (6.1-6.3 against 5.9) and
/// uniform random graphs of average degree 2-4 (2^18 vertices: 1.4-1.5 against 1.1-1.4 ms;
/// 2^20: 3.4-3.5 against 3.2-3.3); on the CPU (16 threads, twenty-ninth session) NY 11.6
/// against delta-stepping's 29.9 and Bellman-Ford's 153 ms.
/// `O(n + m)`.
///
/// ```
/// use semigraph_algos::{arcs_to_csr, sssp_choice, BackendKind, SsspMethod};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?;
/// assert_eq!(sssp_choice(BackendKind::Cpu, &a), SsspMethod::Fixpoint);
/// assert_eq!(sssp_choice(BackendKind::Gpu, &a), SsspMethod::Fixpoint);
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 0)])?;
/// assert_eq!(sssp_choice(BackendKind::Cpu, &a), SsspMethod::DeltaStepping);
/// assert_eq!(sssp_choice(BackendKind::Gpu, &a), SsspMethod::BellmanFord);
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, -1)])?;
/// assert_eq!(sssp_choice(BackendKind::Cpu, &a), SsspMethod::BellmanFord);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn sssp_choice<D: Distance>(kind: BackendKind, a: &Csr<MinPlus<D>>) -> SsspMethod {
    let short = crate::graph::short_rows(a.nrows(), a.nnz(), longest_row(a));
    choice_of(kind, short, &weight_facts(a))
}

/// [`sssp_choice`] for a graph on its backend, from the weights' smallest value kept with the
/// graph (found by its first caller; no pass over the weights after that).
///
/// ```
/// use semigraph_algos::{arcs_to_csr, sssp_choice_of, CpuBackend, Graph, GraphOptions, SsspMethod};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// assert_eq!(sssp_choice_of(&g), SsspMethod::Fixpoint);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn sssp_choice_of<B: crate::backend::Backend, D: Distance>(
    g: &Graph<'_, B, MinPlus<D>>,
) -> SsspMethod {
    choice_of(
        g.backend().kind(),
        g.short_rows(),
        &g.value_facts(weight_facts::<D>),
    )
}

/// The choice from the backend's kind, whether the rows are short and the weights' facts:
/// Bellman-Ford with a negative weight (or a NaN, which `lowest` reports as `-inf`), the
/// fixpoint on short rows with positive weights, else delta-stepping on the CPU and
/// Bellman-Ford on a GPU.
fn choice_of(kind: BackendKind, short_rows: bool, facts: &ValueFacts) -> SsspMethod {
    if facts.lowest < 0.0 {
        SsspMethod::BellmanFord
    } else if short_rows && facts.lowest > 0.0 {
        SsspMethod::Fixpoint
    } else if kind == BackendKind::Gpu {
        SsspMethod::BellmanFord
    } else {
        SsspMethod::DeltaStepping
    }
}

/// The longest row of `a`.
fn longest_row<S: semigraph_semiring::Semiring>(a: &Csr<S>) -> usize {
    a.row_ptr()
        .windows(2)
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
}

/// A graph ready for delta-stepping: its matrix on the backend and the bucket width.
pub struct DeltaGraph<'b, B: Frontier, D: Distance> {
    graph: Graph<'b, B, MinPlus<D>>,
    delta: D,
}

impl<'b, B: Frontier, D: Distance> DeltaGraph<'b, B, D> {
    /// Checks `a` and uploads it.
    ///
    /// `delta: None` picks [`auto_delta`] for the backend: on the CPU `max_weight /
    /// average_out_degree` (Meyer and Sanders' `Θ(L / d)`: a vertex's arcs then reach about one
    /// bucket ahead); on a GPU [`GPU_DELTA_FACTOR`] times that, because a GPU is latency-bound on
    /// the thin frontiers of narrow buckets, and every bucket costs a read-back.
    ///
    /// # Errors
    /// `InvalidArgument` for a matrix that is not square or a `delta` that is not positive
    /// and finite; [`Error::NegativeWeight`] for a negative weight; backend errors.
    pub fn new(backend: &'b B, a: &'b Csr<MinPlus<D>>, delta: Option<D>) -> Result<Self> {
        crate::error::check_square(a.nrows(), a.ncols())?;
        check_no_negative(a, "delta-stepping")?;
        Self::with_delta(Graph::new(backend, a, GraphOptions::default())?, delta)
    }

    /// Delta-stepping over a graph already on its backend (for instance a
    /// [`Graph::view`] of a graph that other algorithms use too): nothing is uploaded.
    /// `delta` as in [`DeltaGraph::new`].
    ///
    /// # Errors
    /// As [`DeltaGraph::new`].
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, bellman_ford, delta_stepping, CpuBackend, DeltaGraph, Graph, GraphOptions};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1), (0, 2, 9)])?;
    /// let cpu = CpuBackend::new();
    /// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
    /// let d = delta_stepping(&DeltaGraph::from_graph(g.view()?, None)?, 0)?;
    /// assert_eq!(d.distance(2), bellman_ford(&g, 0)?.distance(2));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn from_graph(graph: Graph<'b, B, MinPlus<D>>, delta: Option<D>) -> Result<Self> {
        check_no_negative(graph.csr(), "delta-stepping")?;
        Self::with_delta(graph, delta)
    }

    /// The delta for a checked graph.
    fn with_delta(graph: Graph<'b, B, MinPlus<D>>, delta: Option<D>) -> Result<Self> {
        let delta = match delta {
            Some(d) => d,
            None => {
                let d = auto_delta(graph.csr());
                if graph.backend().kind() == crate::backend::BackendKind::Gpu {
                    D::from_f64(d.to_f64() * GPU_DELTA_FACTOR)
                } else {
                    d
                }
            }
        };
        if delta.partial_cmp(&<D as Number>::ZERO) != Some(std::cmp::Ordering::Greater)
            || delta.to_f64().is_infinite()
        {
            return Err(Error::InvalidArgument(format!(
                "delta must be positive, not {delta}"
            )));
        }
        Ok(DeltaGraph { graph, delta })
    }

    /// The bucket width in use.
    pub fn delta(&self) -> D {
        self.delta
    }
}

/// Delta-stepping's precondition: no negative weight.
pub(crate) fn check_no_negative<D: Distance>(
    a: &Csr<MinPlus<D>>,
    algorithm: &'static str,
) -> Result<()> {
    match a.iter().find(|t| t.2 < <D as Number>::ZERO) {
        Some((u, v, w)) => Err(Error::NegativeWeight {
            algorithm,
            from: u,
            to: v,
            weight: w.to_string(),
        }),
        None => Ok(()),
    }
}

/// How much wider the automatic delta is on a GPU (see [`DeltaGraph::new`]). Measured on an
/// H100 (the benchmark log in git history, `bench sssp --algo delta-stepping --delta D`): with 64 times the
/// CPU's delta, NY (weights 1..1000) took 20.1 ms in 917 steps, with 256 times 17.8 ms, with
/// 1024 times 15.6 ms in 657 steps (Bellman-Ford: 15.5 ms); a 1000 x 1000 grid 64.4 / 52.6 /
/// 52.6 ms (Bellman-Ford 56.3 ms).
pub const GPU_DELTA_FACTOR: f64 = 1024.0;

/// The automatic delta of the CPU: see [`DeltaGraph::new`].
pub fn auto_delta<D: Distance>(a: &Csr<MinPlus<D>>) -> D {
    delta_of::<D>(&weight_facts(a), a.nrows(), a.nnz())
}

/// [`ValueFacts`] of a min-plus graph's weights (the one `make` of
/// [`Graph::value_facts`] for min-plus graphs).
pub(crate) fn weight_facts<D: Distance>(a: &Csr<MinPlus<D>>) -> ValueFacts {
    ValueFacts::of(a.vals(), D::to_f64)
}

/// [`auto_delta`] of a graph of `n` vertices and `nnz` arcs whose weights have `facts`.
pub(crate) fn delta_of<D: Distance>(facts: &ValueFacts, n: usize, nnz: usize) -> D {
    let n = n.max(1) as f64;
    let avg_degree = (nnz as f64 / n).max(1.0);
    let (max_w, min_pos) = (facts.largest_finite, facts.smallest_positive);
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

/// Delta-stepping single-source shortest paths (Meyer and Sanders) for non-negative weights,
/// as a near/far worklist (Davidson et al.).
///
/// The frontier (*near*) holds the vertices to relax in the current bucket, whose values are
/// below its threshold. Steps run back to back ([`Frontier::queue_relax_steps`] with a [`Defer`](crate::Defer)):
/// each step relaxes the entries of its input below the threshold and sets the others aside
/// in the *far* queue, so a GPU runs a bucket's steps as it runs Bellman-Ford's (several in one
/// launch while the frontier is small). When the frontier is empty, the threshold advances by
/// `delta` (at least past the smallest value waiting in far), and far is split
/// ([`Frontier::queue_split`]) into the next frontier and what waits on, dropping vertices
/// settled in earlier buckets. Steps run in batches between reads of the frontier's length;
/// each bucket costs one more read (the far minimum). A `delta` above every distance makes it
/// Bellman-Ford over one bucket; a small one approaches Dijkstra's order.
///
/// # Arguments
/// - `g`: the graph ([`DeltaGraph::new`], which also picks or checks `delta`).
/// - `source`: a vertex id.
///
/// # Returns
/// [`ShortestPaths`]; `rounds` counts the relaxation steps that had work.
///
/// # Errors
/// [`Error::VertexOutOfRange`]; backend errors.
///
/// # Complexity
/// Each step costs the arcs of the near queue; a vertex is relaxed again only when its
/// distance improves, which a good `delta` keeps rare (close to Dijkstra's work); buckets are
/// `max distance / delta`.
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
pub fn delta_stepping<B: Frontier, D: Distance>(
    g: &DeltaGraph<'_, B, D>,
    source: usize,
) -> Result<ShortestPaths<D>> {
    type S<D> = MinPlus<D>;
    let b = g.graph.backend();
    let n = g.graph.n();
    check_vertex(source, n)?;
    let zero = <D as Number>::ZERO;
    let mut d = b.unit::<S<D>>(n, source, zero)?;
    let mut p = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    let mut near = Traversal::<B, S<D>>::new(b, n, &[source as u32], &[zero])?;
    let mut far = b.queue::<S<D>>(n)?;
    // The queue far is split into, allocated at the first bucket advance (a search that ends
    // in its first bucket, as with a wide delta, never needs it).
    let mut far2: Option<B::Queue<S<D>>> = None;
    let delta = g.delta.to_f64();
    let mut threshold = g.delta;
    loop {
        crate::cancel::check()?;
        // The bucket's steps back to back; what reaches past the threshold waits in `far`.
        let step = RelaxStep::new(&mut d, g.graph.push())
            .parents(&mut p)
            .defer(threshold, &mut far);
        let info = near.advance(b, step, usize::MAX)?;
        if info.len > 0 {
            continue;
        }
        // The bucket is settled: advance past the smallest value waiting (an entry's value
        // is at least its vertex's distance, so the next bucket holds that vertex).
        let (far_info, m) = b.queue_reduce(&far)?;
        if far_info.len == 0 {
            return finish(b, source, &d, &p, info.steps);
        }
        let i = (m.to_f64() / delta).floor();
        let mut hi = D::from_f64((i + 1.0) * delta);
        if hi <= m || hi <= threshold {
            hi = m.sat_plus(g.delta);
        }
        let lo = std::mem::replace(&mut threshold, hi);
        // Vertices settled in earlier buckets (distance below `lo`) drop out; the next
        // bucket's become the frontier, the rest wait on.
        b.queue_clear(&mut near.front)?;
        let rest = match far2.as_mut() {
            Some(q) => q,
            None => far2.insert(b.queue::<S<D>>(n)?),
        };
        b.queue_clear(rest)?;
        b.queue_split(&far, &d, lo, threshold, &mut near.front, Some(rest))?;
        std::mem::swap(&mut far, rest);
        near.restart();
    }
}
