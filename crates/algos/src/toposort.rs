//! Topological order by Kahn's peeling: round after round, the vertices with no remaining
//! in-arc, each round one product of the removed with `A` lowering the in-degrees.

use semigraph_semiring::{Scalar, Semiring};

use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::peel::{Levels, PlusPair, peel};

/// What [`toposort`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// Every vertex once, each after every vertex with an arc into it: Kahn's rounds in turn,
    /// a round's vertices by index.
    pub order: Vec<u32>,
    /// The rounds (the longest path's vertices).
    pub rounds: usize,
}

/// A topological order (NetworkX's `topological_sort`, one of the valid orders): peel the
/// vertices with in-degree 0 (in plus-pair, the in-degrees `r` and per round
/// `r += removed (+).(pair) A`) until none is left; each round's vertices follow the
/// earlier rounds'.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// The order and the rounds run.
///
/// # Errors
/// [`Error::Cycle`] naming a cycle when the graph has one (the vertices left after the
/// peeling); backend errors.
///
/// # Complexity
/// `O(n + m)` work over the rounds (each reads the arcs of the vertices it removes), one count
/// read back per round, and `O(n log n)` on the host to order the rounds; naming a cycle
/// reads the graph on the host (`O(n + m)`).
///
/// # Example
/// ```
/// use semigraph_algos::toposort::toposort;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Error, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// let cpu = CpuBackend::new();
/// // 2 -> 0 -> 1 and 2 -> 1.
/// let a = arcs_to_csr::<OrAnd>(3, &[(2, 0, true), (0, 1, true), (2, 1, true)])?;
/// let o = toposort(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(o.order, vec![2, 0, 1]);
/// // 0 -> 1 -> 0 is a cycle.
/// let c = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (1, 0, true), (1, 2, true)])?;
/// let e = toposort(&Graph::new(&cpu, &c, GraphOptions::default())?).unwrap_err();
/// assert!(matches!(e, Error::Cycle { ref cycle, .. } if cycle.len() == 2));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn toposort<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<Order> {
    let b = g.backend();
    let p = g.pattern::<PlusPair>()?;
    let indegree = b.reduce_cols(p.push())?;
    let peeled = peel(b, &indegree, &[p.push()], Levels::Zero, None)?;
    let round = b.read_dense_owned(peeled.round)?;
    if peeled.removed < g.n() {
        return Err(Error::Cycle {
            algorithm: "a topological order",
            cycle: cycle_among(g, &round),
        });
    }
    let mut order: Vec<u32> = (0..g.n() as u32).collect();
    order.sort_by_key(|&v| (round[v as usize], v));
    Ok(Order {
        order,
        rounds: peeled.rounds,
    })
}

/// A cycle among the vertices Kahn's peeling left (`round` 0), each of which has an arc from
/// another one: walk back along such arcs until a vertex repeats. In arc order.
fn cycle_among<B: Backend, S: Semiring>(g: &Graph<'_, B, S>, round: &[i64]) -> Vec<u32> {
    let a = g.csr();
    let left = |v: usize| round[v] == 0;
    // One arc into each vertex left, from a vertex left.
    let mut from = vec![u32::MAX; g.n()];
    for (u, v, x) in a.iter() {
        if left(u) && left(v) && x.to_bits64() != S::zero().to_bits64() {
            from[v] = u as u32;
        }
    }
    let start = (0..g.n()).find(|&v| left(v)).unwrap_or(0);
    let mut seen = vec![false; g.n()];
    let mut v = start;
    while !seen[v] && from[v] != u32::MAX {
        seen[v] = true;
        v = from[v] as usize;
    }
    // `v` repeats: the cycle is the walk from `v` back to `v`, reversed.
    let mut cycle = vec![v as u32];
    let mut u = from[v] as usize;
    while u != v && cycle.len() <= g.n() {
        cycle.push(u as u32);
        u = from[u] as usize;
    }
    cycle.reverse();
    cycle
}

/// A topological order in the [registry](crate::registry): `semigraph toposort`,
/// `semigraph.toposort`.
pub struct TopologicalSort;

impl crate::registry::Algorithm for TopologicalSort {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Reads};
        Info {
            name: "toposort",
            command: "toposort",
            summary: "Topological order (Kahn's peeling): every vertex after those with an arc \
                      into it, one vertex a line; a cycle is named in the error",
            params: &[],
            returns: &["order"],
            reads: Reads::Structure,
            accepts: Accepts::Directed,
            complexity: "O(n log n + m)",
            method: "peeling: SpMSpV in plus-pair i64 per round",
            steps: "rounds",
            bench: &[],
            distributed: false,
            // NetworkX's `topological_sort` is a generator that watches the graph for
            // changes while it is consumed (a `RuntimeError`), which a converted graph
            // cannot: not dispatched.
            networkx: &[],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        _args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let o = toposort(g.structure()?)?;
        Ok(Output {
            facts: vec![Fact::scalar("rounds", Scalar::Int(o.rounds as u64))],
            steps: o.rounds,
            columns: vec![Column {
                name: "order",
                values: Values::Sequence(o.order),
            }],
        })
    }
}
