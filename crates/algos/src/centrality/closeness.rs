//! Closeness and harmonic centrality: the distances into each vertex from every source, summed
//! per vertex from batched breadth-first searches.

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Minus, Minv, One};

use super::{Pt, add_row_sums, batches, sweep};
use crate::backend::{Backend, Bound, Mask, copy_dense};
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
    let n = g.n();
    let s = sums(g, batch)?;
    Ok(s.reached
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
        .collect())
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
    "sources searched at once (default: as many as 512 MiB of arrays hold, at most 256)",
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

/// Host bytes: the sums, and on the CPU a batch's arrays and the pattern's values.
fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize) -> u64 {
    let arrays = match kind {
        crate::backend::BackendKind::Cpu => (64 * n * super::default_batch(n) + 8 * nnz) as u64,
        crate::backend::BackendKind::Gpu => 0,
    };
    arrays + 32 * n as u64 + (1 << 20)
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
            summary: "Closeness centrality (unweighted distances into each vertex), one value \
                      per vertex: how many vertices reach it over their total distance",
            params: &[
                Param::with_default(
                    "wf_improved",
                    Kind::Flag,
                    "true",
                    "scale by the fraction of the other vertices that reach it (Wasserman and \
                     Faust)",
                ),
                BATCH,
            ],
            returns: &["centrality"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(n (depth + 1) (n + m))",
            method: "batched BFS: SpMM in plus-times f64 per level, row sums",
            steps: "sources",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "closeness_centrality",
                args: &[("wf_improved", "wf_improved")],
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
        let c = closeness(g.structure()?, wf, args.count("batch"))?;
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
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "harmonic",
            command: "harmonic",
            summary: "Harmonic centrality (unweighted distances into each vertex), one value \
                      per vertex: the sum of 1/distance from the vertices that reach it",
            params: &[BATCH],
            returns: &["centrality"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(n (depth + 1) (n + m))",
            method: "batched BFS: SpMM in plus-times f64 per level, row sums",
            steps: "sources",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "harmonic_centrality",
                args: &[],
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
        Ok(output(
            g.n(),
            harmonic(g.structure()?, args.count("batch"))?,
        ))
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        host_bytes(kind, n, nnz)
    }
}
