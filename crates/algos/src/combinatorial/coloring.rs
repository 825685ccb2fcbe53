//! Vertex coloring by maximal independent sets (as `LAGraph_coloring_MIS`): color `c` is a
//! maximal independent set of the vertices the colors before it left.

use crate::backend::{Backend, NO_PARENT, Parents, UnaryOp, copy_dense};
use crate::error::Result;
use crate::graph::Graph;

use super::mis::{Priority, grow};

/// What [`coloring`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coloring {
    /// Each vertex's color, from 0.
    pub colors: Vec<u32>,
    /// The colors used.
    pub count: usize,
    /// The independent-set rounds run, over all colors.
    pub rounds: usize,
}

/// A proper vertex coloring: no two neighbours share a color. Color 0 is a maximal
/// independent set of the graph ([`maximal_independent_set`]'s rounds over a random order
/// drawn from `seed`), color 1 one of the vertices left, and so on until every vertex has a
/// color; each color class is maximal, so a vertex of color `c` has a neighbour of every color
/// below `c` (at most `max degree + 1` colors).
///
/// Edges are the arcs either way; self loops are ignored.
///
/// [`maximal_independent_set`]: super::maximal_independent_set
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `seed`: draws the order.
///
/// # Returns
/// The colors, how many, and the rounds run.
///
/// # Errors
/// Backend errors; `InvalidArgument` for `2^32 - 1` vertices or more.
///
/// # Complexity
/// Per color, the rounds of an independent set over the vertices left, each `O(n)` plus their
/// arcs; one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::combinatorial::coloring;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A triangle 0 1 2 and a pendant 3 on 2.
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 0, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// let c = coloring(&Graph::new(&cpu, &a, GraphOptions::default())?, 1)?;
/// assert_eq!(c.count, 3);
/// let k = &c.colors;
/// assert!(k[0] != k[1] && k[1] != k[2] && k[2] != k[0] && k[2] != k[3]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn coloring<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    seed: u64,
) -> Result<Coloring> {
    let b = g.backend();
    let n = g.n();
    let a = super::neighbours::<B, S, Priority>(g)?;
    let mut left = b.dense::<Priority>(n, 1, &super::priorities(n, seed)?)?;
    let mut cand = b.dense_filled::<Priority>(n, 1, 0)?;
    let mut colors = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    let (mut count, mut rounds) = (0, 0);
    while b.nvals(&left)? > 0 {
        copy_dense(b, &mut cand, &left)?;
        let (set, r) = grow(b, &a, &mut cand)?;
        b.apply(&mut colors, b.keep(&set), UnaryOp::Fill(count as u32))?;
        b.apply(&mut left, b.keep(&set), UnaryOp::Fill(0))?;
        count += 1;
        rounds += r;
    }
    Ok(Coloring {
        colors: b.read_dense_owned(colors)?,
        count,
        rounds,
    })
}

/// Colorings in the [registry](crate::registry): `semigraph coloring`.
pub struct ColoringAlgorithm;

impl crate::registry::Algorithm for ColoringAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, Param, Reads};
        Info {
            name: "coloring",
            command: "coloring",
            summary: "Vertex coloring by maximal independent sets: a color per vertex (from 0), \
                      no two neighbours alike",
            params: &[Param::with_default(
                "seed",
                Kind::Count,
                "0",
                "draws the random order of the vertices",
            )],
            returns: &["colors"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O(colors (n + m) log^2 n) with high probability",
            method: "an independent set per color, masked SpMV in max-min u32",
            steps: "rounds",
            bench: &[],
            distributed: false,
            networkx: &[],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Values};
        let c = coloring(g.structure()?, args.count("seed").unwrap_or(0) as u64)?;
        Ok(Output {
            facts: vec![Fact::with_rounds("colors", c.count as u64, c.rounds)],
            steps: c.rounds,
            columns: vec![Column {
                name: "colors",
                values: Values::Int(c.colors.into_iter().map(i64::from).collect()),
            }],
        })
    }
}
