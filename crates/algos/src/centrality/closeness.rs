//! Closeness and harmonic centrality: the distances into each vertex from every source, summed
//! per vertex from batched breadth-first searches, or (weighted) from least-weight distances
//! of batches of sources on copies of the graph.

use semigraph_semiring::ops::{Minus, Minv, One};
use semigraph_semiring::{MinPlus, Semiring};

use super::weighted::on_copies;
use super::{Pt, add_row_sums, batches, sweep};
use crate::backend::{Backend, Bound, Frontier, Mask, copy_dense};
use crate::error::Result;
use crate::graph::Graph;

/// Per vertex `v`, summed over the sources `s` that reach it: how many (`v` itself included),
/// the distances `d(s, v)`, and `1 / d(s, v)` for `s != v`.
struct Sums {
    reached: Vec<f64>,
    distance: Vec<f64>,
    inverse: Vec<f64>,
}

/// [`Sums`] over every source, `batch` at a time (`None`: by size).
fn sums<B: Backend, S: Semiring>(g: &Graph<'_, B, S>, batch: Option<usize>) -> Result<Sums> {
    let (b, n) = (g.backend(), g.n());
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let mut reached = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let mut levels = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let mut inverse = b.dense_filled::<Pt>(n, 1, 0.0)?;
    batches(n, None, batch, |chunk| {
        let mut s = sweep(b, &at, n, chunk)?;
        let k = chunk.len();
        // `level` holds d + 1 where reached: its row sums are the distances plus the count.
        add_row_sums(b, &mut levels, &s.level, k)?;
        let [m, _] = &mut s.spare;
        copy_dense(b, m, &s.level)?;
        b.apply_op::<Pt, One>(m, Mask::All)?;
        add_row_sums(b, &mut reached, m, k)?;
        // 1/d: d = level - 1, no entry at d = 0 (the source), which 1/x leaves absent.
        copy_dense(b, m, &s.level)?;
        b.apply_bound::<Pt, Minus>(m, Mask::All, Bound::Second(1.0))?;
        b.apply_op::<Pt, Minv>(m, Mask::All)?;
        add_row_sums(b, &mut inverse, m, k)
    })?;
    let reached = b.read_dense_owned(reached)?;
    let levels = b.read_dense_owned(levels)?;
    let distance = levels.iter().zip(&reached).map(|(l, r)| l - r).collect();
    Ok(Sums {
        reached,
        distance,
        inverse: b.read_dense_owned(inverse)?,
    })
}

/// [`Sums`] of least-weight distances (the weights as lengths), every vertex a source, by
/// batches of sources on copies of the graph ([`on_copies`]): per batch the distances from
/// its sources, read back and summed per vertex.
fn weighted_sums<B: Frontier>(
    g: &Graph<'_, B, MinPlus<f64>>,
    batch: Option<usize>,
) -> Result<Sums> {
    let n = g.n();
    let (mut reached, mut distance, mut inverse) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    on_copies(g, None, batch, false, |c, chunk| {
        let d = g.backend().read_dense_owned(c.distances(chunk)?)?;
        for (p, &x) in d.iter().enumerate() {
            if x.is_finite() {
                let v = p / c.k;
                reached[v] += 1.0;
                distance[v] += x;
                // NetworkX skips a distance of 0 (the vertex itself, zero-weight arcs).
                if x > 0.0 {
                    inverse[v] += 1.0 / x;
                }
            }
        }
        Ok(())
    })?;
    Ok(Sums {
        reached,
        distance,
        inverse,
    })
}

/// Closeness from [`Sums`]: `(r - 1) / D`, times `(r - 1) / (n - 1)` with `wf_improved`.
fn closeness_of(n: usize, s: &Sums, wf_improved: bool) -> Vec<f64> {
    s.reached
        .iter()
        .zip(&s.distance)
        .map(|(&r, &d)| {
            if d <= 0.0 || n <= 1 {
                return 0.0;
            }
            let c = (r - 1.0) / d;
            match wf_improved {
                true => c * (r - 1.0) / (n - 1) as f64,
                false => c,
            }
        })
        .collect()
}

/// Closeness centrality from the distances into each vertex (NetworkX's
/// `closeness_centrality` with `distance=None`): for `v` reached from `r - 1` other vertices
/// at distances summing to `D > 0`, `(r - 1) / D`, times `(r - 1) / (n - 1)` with
/// `wf_improved` (Wasserman and Faust's scaling for graphs that are not connected); 0 where
/// `D = 0`. Arcs are unweighted; on a directed graph the distances are those *into* `v`.
///
/// Per batch of sources, one breadth-first sweep (an SpMM per level) and three row sums of
/// its levels.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `wf_improved`: the scaling;
///   `batch`: sources per batch (`None`: as many as 512 MiB of `n x k` arrays hold, at
///   most 256).
///
/// # Returns
/// One value per vertex.
///
/// # Errors
/// `InvalidArgument` for a batch of 0; backend errors.
///
/// # Complexity
/// `O(n (depth + 1) (n + m))` work (every vertex a source), `n / batch` batches.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::closeness;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2, both directions: the middle vertex is 1 away from both others.
/// let arcs = [(0, 1, true), (1, 0, true), (1, 2, true), (2, 1, true)];
/// let a = arcs_to_csr::<OrAnd>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = closeness(&Graph::new(&cpu, &a, GraphOptions::default())?, true, None)?;
/// assert_eq!(c, vec![2.0 / 3.0, 1.0, 2.0 / 3.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn closeness<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    wf_improved: bool,
    batch: Option<usize>,
) -> Result<Vec<f64>> {
    Ok(closeness_of(g.n(), &sums(g, batch)?, wf_improved))
}

/// Closeness centrality over least-weight distances: [`closeness`] with the arcs' weights
/// as lengths (NetworkX's `closeness_centrality` with `distance=`).
///
/// Per batch of `k` sources, on `k` copies of the graph, the distances by delta-stepping's
/// buckets relaxed to their fixpoint on the backend (as
/// [`weighted_betweenness`](super::weighted_betweenness)'s), read back and summed per vertex.
///
/// # Arguments
/// - `g`: the graph, its weights as lengths (min-plus `f64`, none negative);
///   `wf_improved`: the scaling; `batch`: sources per batch (`None`: as many copies of the
///   arcs as 4 M entries hold, at most 256).
///
/// # Returns
/// One value per vertex.
///
/// # Errors
/// `NegativeWeight` for a negative weight; `InvalidArgument` for a batch of 0; backend errors.
///
/// # Complexity
/// Per batch: `O(k m)` to copy the arcs, the relaxations, `O(n k)` to sum; `n / k` batches.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::weighted_closeness;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // 0 -> 1 (weight 2), 1 -> 2 (weight 3): vertex 2 is 3 from vertex 1 and 5 from vertex 0.
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &[(0, 1, 2.0), (1, 2, 3.0)])?;
/// let cpu = CpuBackend::new();
/// let c = weighted_closeness(&Graph::new(&cpu, &a, GraphOptions::default())?, false, None)?;
/// assert_eq!(c, vec![0.0, 0.5, 2.0 / 8.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn weighted_closeness<B: Frontier>(
    g: &Graph<'_, B, MinPlus<f64>>,
    wf_improved: bool,
    batch: Option<usize>,
) -> Result<Vec<f64>> {
    Ok(closeness_of(g.n(), &weighted_sums(g, batch)?, wf_improved))
}

/// Harmonic centrality over least-weight distances: [`harmonic`] with the arcs' weights as
/// lengths (NetworkX's `harmonic_centrality` with `distance=`), by [`weighted_closeness`]'s
/// sums (a distance of 0, from a zero-weight path, counts nothing, as NetworkX skips it).
///
/// # Arguments
/// - `g`: the graph, its weights as lengths (min-plus `f64`, none negative); `batch`: as
///   [`weighted_closeness`]'s.
///
/// # Returns
/// One value per vertex.
///
/// # Errors
/// As [`weighted_closeness`]'s.
///
/// # Complexity
/// As [`weighted_closeness`]'s.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::weighted_harmonic;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &[(0, 1, 2.0), (1, 2, 3.0)])?;
/// let cpu = CpuBackend::new();
/// let h = weighted_harmonic(&Graph::new(&cpu, &a, GraphOptions::default())?, None)?;
/// assert_eq!(h, vec![0.0, 0.5, 1.0 / 3.0 + 1.0 / 5.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn weighted_harmonic<B: Frontier>(
    g: &Graph<'_, B, MinPlus<f64>>,
    batch: Option<usize>,
) -> Result<Vec<f64>> {
    Ok(weighted_sums(g, batch)?.inverse)
}

/// Harmonic centrality (NetworkX's `harmonic_centrality` with `distance=None`): for each
/// vertex `v`, the sum of `1 / d(u, v)` over the other vertices `u` that reach it. Arcs are
/// unweighted; on a directed graph the distances are those *into* `v`.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `batch`: as [`closeness`]'s.
///
/// # Returns
/// One value per vertex (0 where no other vertex reaches it).
///
/// # Errors
/// `InvalidArgument` for a batch of 0; backend errors.
///
/// # Complexity
/// As [`closeness`]: `O(n (depth + 1) (n + m))` work.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::harmonic;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 -> 1 -> 2: vertex 2 is 1 from vertex 1 and 2 from vertex 0.
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (1, 2, true)])?;
/// let cpu = CpuBackend::new();
/// let h = harmonic(&Graph::new(&cpu, &a, GraphOptions::default())?, None)?;
/// assert_eq!(h, vec![0.0, 1.0, 1.5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn harmonic<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    batch: Option<usize>,
) -> Result<Vec<f64>> {
    Ok(sums(g, batch)?.inverse)
}

/// The `batch` argument both entries take.
const BATCH: crate::registry::Param = crate::registry::Param::optional(
    "batch",
    crate::registry::Kind::Count,
    "sources searched at once (default: as many as 512 MiB of arrays hold, at most 256; \
     weighted: as many copies of the arcs as 4 M entries hold)",
);

/// The `weighted` argument both entries take.
const WEIGHTED: crate::registry::Param = crate::registry::Param::with_default(
    "weighted",
    crate::registry::Kind::Flag,
    "false",
    "least-weight distances, the weights as lengths (none negative); else the fewest arcs",
);

/// One column of centralities, every vertex a source.
fn output(n: usize, values: Vec<f64>) -> crate::registry::Output {
    use crate::registry::{Column, Fact, Output, Scalar, Values};
    Output {
        facts: vec![Fact::scalar("sources", Scalar::Int(n as u64))],
        steps: n,
        columns: vec![Column {
            name: "centrality",
            values: Values::Real(values),
        }],
    }
}

/// Host bytes: the sums, and on the CPU a batch's arrays and the pattern's values; weighted,
/// the copies of the arcs made on the host.
fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize) -> u64 {
    let arrays = match kind {
        crate::backend::BackendKind::Cpu => (64 * n * super::default_batch(n) + 8 * nnz) as u64,
        crate::backend::BackendKind::Gpu => 0,
    };
    arrays + 32 * n as u64 + super::COPIES_HOST_BYTES + (1 << 20)
}

/// Closeness centrality in the [registry](crate::registry): `semigraph closeness`,
/// `semigraph.closeness`, NetworkX's `closeness_centrality`.
pub struct Closeness;

impl crate::registry::Algorithm for Closeness {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "closeness",
            command: "closeness",
            summary: "Closeness centrality (distances into each vertex: fewest arcs, or least \
                      weight with weighted), one value per vertex: how many vertices reach it \
                      over their total distance",
            params: &[
                Param::with_default(
                    "wf_improved",
                    Kind::Flag,
                    "true",
                    "scale by the fraction of the other vertices that reach it (Wasserman and \
                     Faust)",
                ),
                BATCH,
                WEIGHTED,
            ],
            returns: &["centrality"],
            reads: Reads::StructureOrDistances("weighted"),
            accepts: Accepts::Any,
            complexity: "O(n (depth + 1) (n + m)); weighted: the relaxations from every source",
            method: "batched BFS: SpMM in plus-times f64 per level, row sums (weighted: \
                     delta-stepping from k sources on k copies of the graph)",
            steps: "sources",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "closeness_centrality",
                args: &[
                    ("wf_improved", "wf_improved"),
                    ("distance!=None", "weighted"),
                ],
                column: "centrality",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        let wf = args.flag("wf_improved").unwrap_or(true);
        let batch = args.count("batch");
        let c = match args.flag("weighted") {
            Some(true) => weighted_closeness(g.distances()?, wf, batch)?,
            _ => closeness(g.structure()?, wf, batch)?,
        };
        Ok(output(g.n(), c))
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        host_bytes(kind, n, nnz)
    }
}

/// Harmonic centrality in the [registry](crate::registry): `semigraph harmonic`,
/// `semigraph.harmonic`, NetworkX's `harmonic_centrality`.
pub struct Harmonic;

impl crate::registry::Algorithm for Harmonic {
    const INFO: crate::registry::Info = {
        use crate::registry::{Info, NetworkX, Reads, Shape};
        Info {
            name: "harmonic",
            command: "harmonic",
            summary: "Harmonic centrality (distances into each vertex: fewest arcs, or least \
                      weight with weighted), one value per vertex: the sum of 1/distance from \
                      the vertices that reach it",
            params: &[BATCH, WEIGHTED],
            returns: &["centrality"],
            reads: Reads::StructureOrDistances("weighted"),
            networkx: &[NetworkX {
                function: "harmonic_centrality",
                args: &[("distance!=None", "weighted")],
                column: "centrality",
                shape: Shape::Values,
                simple: false,
            }],
            ..Closeness::INFO
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        let batch = args.count("batch");
        let h = match args.flag("weighted") {
            Some(true) => weighted_harmonic(g.distances()?, batch)?,
            _ => harmonic(g.structure()?, batch)?,
        };
        Ok(output(g.n(), h))
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        host_bytes(kind, n, nnz)
    }
}
