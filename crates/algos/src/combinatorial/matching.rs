//! Maximal matchings by mutual choices (locally dominant edges): every unmatched vertex picks
//! its heaviest edge to an unmatched neighbour under random weights, and the pairs that pick
//! each other are matched.

use semigraph_semiring::ops::{First, Ne, Plus};
use semigraph_semiring::{MaxMin, PlusTimes};

use crate::backend::{Backend, Combine, Ewise, Mask, NO_PARENT, Parents, UnaryOp};
use crate::error::Result;
use crate::graph::Graph;

/// Edge weights and unmatched flags (plus-times `f64`): sums of two priorities, exact.
type Weight = PlusTimes<f64>;
/// The weights seen in max-min, whose row arg-max is each vertex's heaviest edge.
type Heaviest = MaxMin<f64>;
/// Counts (plus-times `u32`): 0 is no entry.
type Count = PlusTimes<u32>;

/// What [`maximal_matching`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matching {
    /// Each vertex's mate, [`NO_PARENT`] where it has none.
    pub mates: Vec<u32>,
    /// The matched edges `(u, v)`, `u < v`, in increasing `u`.
    pub pairs: Vec<(u32, u32)>,
    /// The rounds run.
    pub rounds: usize,
}

/// A maximal matching: edges of which no two share a vertex, such that every other edge
/// shares a vertex with one of them (maximal, not maximum: as `LAGraph_MaximalMatching` and
/// NetworkX's `maximal_matching`).
///
/// Each edge `(u, v)` weighs `r(u) + r(v)`, `r` a random permutation drawn from `seed`
/// (`w = sddmm(A, r, 1) + sddmm(A, 1, r)`). Each round every vertex picks its heaviest edge to
/// an unmatched vertex (a row arg-max, ties to the smaller neighbour), the vertices whose pick
/// picks them back are matched (`pick(pick(v)) == v`, a gather), and the edges between
/// unmatched vertices are kept (`sddmm(w, u, u)`, `u` the unmatched flags). The heaviest of
/// the edges left is always matched, so every round matches one pair at least.
///
/// Edges are the arcs either way; self loops are ignored.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `seed`: draws the weights.
///
/// # Returns
/// The mates, the matched pairs and the rounds run.
///
/// # Errors
/// Backend errors; `InvalidArgument` for `2^32 - 1` vertices or more.
///
/// # Complexity
/// Each round `O(n)` plus the edges left between unmatched vertices (a row reduction, a
/// gather, a masked product); `O(log n)` rounds in practice; one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::combinatorial::maximal_matching;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2 - 3: one or two edges, no vertex twice, none left to add.
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// let m = maximal_matching(&Graph::new(&cpu, &a, GraphOptions::default())?, 3)?;
/// assert!(m.pairs == vec![(1, 2)] || m.pairs == vec![(0, 1), (2, 3)]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn maximal_matching<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    seed: u64,
) -> Result<Matching> {
    let b = g.backend();
    let n = g.n();
    let a = super::neighbours::<B, S, Weight>(g)?;
    let r: Vec<f64> = super::priorities(n, seed)?
        .into_iter()
        .map(f64::from)
        .collect();
    let r = b.dense::<Weight>(n, 1, &r)?;
    let mut unmatched = b.dense_filled::<Weight>(n, 1, 1.0)?;
    let mut w = b.ewise_matrix::<Weight, Plus>(
        &b.sddmm(&a, &r, &unmatched)?,
        &b.sddmm(&a, &unmatched, &r)?,
        Combine::Intersection,
    )?;
    drop(a);
    let ids: Vec<u32> = (0..n as u32).collect();
    let ids = b.dense::<Parents>(n, 1, &ids)?;
    let mut mates = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    let mut rounds = 0;
    while b.matrix_info(&w).nnz > 0 {
        crate::cancel::check()?;
        rounds += 1;
        let pick = b.reduce_rows_arg(&b.view::<Weight, Heaviest>(&w)?)?;
        // pick(pick(v)) != v: 0 (no entry in plus-times) exactly where v is matched.
        let mut back = b.gather(&pick, &pick)?;
        b.ewise_op::<Parents, Ne>(&mut back, Mask::All, Combine::Intersection, &ids)?;
        let unpaired = b.dense_as::<Parents, Count>(back);
        b.ewise(&mut mates, b.skip(&unpaired), Ewise::Add, &pick)?;
        b.apply(&mut unmatched, b.skip(&unpaired), UnaryOp::Fill(0.0))?;
        let both = b.sddmm(&w, &unmatched, &unmatched)?;
        w = b.ewise_matrix::<Weight, First>(&w, &both, Combine::Intersection)?;
    }
    let mates = b.read_dense_owned(mates)?;
    let pairs = (0..n as u32)
        .filter_map(|u| {
            let v = mates[u as usize];
            (v != NO_PARENT && u < v).then_some((u, v))
        })
        .collect();
    Ok(Matching {
        mates,
        pairs,
        rounds,
    })
}

/// Maximal matchings in the [registry](crate::registry): `semigraph matching`.
pub struct MatchingAlgorithm;

impl crate::registry::Algorithm for MatchingAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "matching",
            command: "matching",
            summary: "Maximal matching (mutual heaviest edges under random weights): the \
                      matched pairs, no vertex twice, no edge left to add",
            params: &[Param::with_default(
                "seed",
                Kind::Count,
                "0",
                "draws the random weights of the edges",
            )],
            returns: &["pairs"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O((n + m) log n) in practice",
            method: "row arg-max, gather and SDDMM in plus-times f64 per round",
            steps: "rounds",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "maximal_matching",
                args: &[],
                column: "pairs",
                shape: Shape::Edges,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Values};
        let m = maximal_matching(g.structure()?, args.count("seed").unwrap_or(0) as u64)?;
        Ok(Output {
            facts: vec![Fact::with_rounds("matched", m.pairs.len() as u64, m.rounds)],
            steps: m.rounds,
            columns: vec![Column {
                name: "pairs",
                values: Values::Arcs(m.pairs),
            }],
        })
    }
}
