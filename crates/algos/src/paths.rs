//! Other path problems from the same label-correcting loop as Bellman-Ford: only the semiring
//! changes.

use semigraph_semiring::{MaxMin, Number, OrAnd, Semiring};

use crate::backend::Frontier;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::relax::{Relaxed, Start, relax_rounds};

/// Runs the label-correcting loop of [`bellman_ford`](crate::bellman_ford) in any semiring
/// whose `add` selects (min, max, or): `d(source) = one`, then
/// `d(v) = add over arcs u -> v of mul(A(u, v), d(u))` until nothing changes.
///
/// # Arguments
/// - `g`: the graph in semiring `S`; `source`: a vertex id.
///
/// # Returns
/// `d` for every vertex (`S::zero()` where nothing arrives) and the rounds run.
///
/// # Errors
/// `InvalidArgument` if values still change after `n` rounds (a semiring with no fixed point
/// on this graph, like min-plus with a negative cycle); `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// At most `n` rounds of SpMSpV over the changed vertices: `O(n * m)` work in the worst case.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, path_closure, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MaxPlus;
///
/// // Longest paths in a DAG are max-plus paths.
/// let a = arcs_to_csr::<MaxPlus<i64>>(3, &[(0, 1, 2), (1, 2, 2), (0, 2, 3)])?;
/// let cpu = CpuBackend::new();
/// let (d, _) = path_closure(&Graph::new(&cpu, &a, GraphOptions::default())?, 0)?;
/// assert_eq!(d, vec![0, 2, 4]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn path_closure<B: Frontier, S: Semiring>(
    g: &Graph<'_, B, S>,
    source: usize,
) -> Result<(Vec<S::T>, usize)> {
    match relax_rounds(g, Start::One(source), g.n(), false)? {
        Relaxed::Converged { d, rounds, .. } => Ok((g.backend().read_dense_owned(d)?, rounds)),
        Relaxed::Limit { .. } => Err(Error::InvalidArgument(format!(
            "{} values still change after {} rounds: no fixed point",
            S::full_name(),
            g.n()
        ))),
    }
}

/// Which vertices a source reaches: [`path_closure`] in the or-and semiring.
///
/// # Arguments
/// - `g`: the graph as an or-and pattern (`Csr::pattern::<OrAnd>()`); `source`: a vertex id.
///
/// # Returns
/// `reach[v]` is `true` if a path `source -> v` exists (`reach[source]` is `true`).
///
/// # Errors
/// `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// `O(n + m)` work: each vertex changes once; one round per BFS level.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, reachability, CpuBackend, Graph, GraphOptions};
///
/// let a = arcs_to_csr(3, &[(0, 1, true), (2, 1, true)])?;
/// let cpu = CpuBackend::new();
/// let r = reachability(&Graph::new(&cpu, &a, GraphOptions::default())?, 0)?;
/// assert_eq!(r, vec![true, true, false]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn reachability<B: Frontier>(g: &Graph<'_, B, OrAnd>, source: usize) -> Result<Vec<bool>> {
    Ok(path_closure(g, source)?.0)
}

/// Widest (maximum-bottleneck) paths: [`path_closure`] in the max-min semiring. The width of
/// a path is its narrowest arc; `width[v]` is the widest path `source -> v`.
///
/// # Arguments
/// - `g`: the graph with arc capacities in [`MaxMin`]; `source`: a vertex id.
///
/// # Returns
/// `width[v]`: `D::HIGHEST` for the source (an empty path is unbounded), `D::LOWEST` where
/// unreachable.
///
/// # Errors
/// `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// At most `n` rounds of SpMSpV over the changed vertices.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, widest_path, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MaxMin;
///
/// // 0 -> 1 -> 3 has width min(5, 4) = 4; 0 -> 2 -> 3 has width min(9, 2) = 2.
/// let a = arcs_to_csr::<MaxMin<f32>>(4, &[(0, 1, 5.0), (1, 3, 4.0), (0, 2, 9.0), (2, 3, 2.0)])?;
/// let cpu = CpuBackend::new();
/// let w = widest_path(&Graph::new(&cpu, &a, GraphOptions::default())?, 0)?;
/// assert_eq!(w[3], 4.0);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn widest_path<B: Frontier, D: Number>(
    g: &Graph<'_, B, MaxMin<D>>,
    source: usize,
) -> Result<Vec<D>>
where
    MaxMin<D>: Semiring<T = D>,
{
    Ok(path_closure(g, source)?.0)
}

/// The path from `source` to `v` along `parent` links (`parent[x]` the vertex before `x`),
/// as vertex ids from `source` to `v`; `None` where a link leaves the vertices or the links
/// cycle without reaching `source`. The paths of BFS trees and shortest-path trees.
pub(crate) fn path_back(parent: &[u32], source: usize, v: usize) -> Option<Vec<u32>> {
    let mut path = vec![v as u32];
    let mut x = v;
    while x != source {
        x = parent[x] as usize;
        if x >= parent.len() || path.len() > parent.len() {
            return None;
        }
        path.push(x as u32);
    }
    path.reverse();
    Some(path)
}

/// The `source` argument of the path algorithms.
const SOURCE: crate::registry::Param =
    crate::registry::Param::required("source", crate::registry::Kind::Vertex, "the source vertex");

/// Widest paths in the [registry](crate::registry): `semigraph widest-path`.
pub struct WidestPaths;

impl crate::registry::Algorithm for WidestPaths {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Reads};
        Info {
            name: "widest_path",
            command: "widest-path",
            summary: "Widest (maximum-bottleneck) paths from a source, weights as capacities: \
                      a width per vertex, the source inf, unreachable vertices -inf",
            params: &[SOURCE],
            returns: &["widths"],
            reads: Reads::Capacities,
            accepts: Accepts::Any,
            complexity: "O(n m) worst case; rounds of SpMSpV over the changed vertices",
            method: "label-correcting in max-min f64",
            steps: "runs",
            bench: &[],
            distributed: false,
            networkx: &[],
        }
    };

    fn run<'b, B: Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Output, Values};
        let w = widest_path(g.capacities()?, args.vertex("source"))?;
        Ok(Output {
            facts: vec![],
            steps: 1,
            columns: vec![Column {
                name: "widths",
                values: Values::Real(w),
            }],
        })
    }
}

/// Reachability in the [registry](crate::registry): `semigraph reachability`.
pub struct Reachability;

impl crate::registry::Algorithm for Reachability {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Reads};
        Info {
            name: "reachability",
            command: "reachability",
            summary: "Reachability: whether a path leads from the source to each vertex (the \
                      source included)",
            params: &[SOURCE],
            returns: &["reached"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(n + m)",
            method: "label-correcting in or-and",
            steps: "runs",
            bench: &[],
            distributed: false,
            networkx: &[],
        }
    };

    fn run<'b, B: Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let r = reachability(g.structure()?, args.vertex("source"))?;
        let reached = r.iter().filter(|&&x| x).count();
        Ok(Output {
            facts: vec![Fact::scalar("reached", Scalar::Int(reached as u64))],
            steps: 1,
            columns: vec![Column {
                name: "reached",
                values: Values::Flag(r),
            }],
        })
    }
}
