//! Maximal independent sets by random priorities (Luby's rounds, as
//! `LAGraph_MaximalIndependentSet`): each round, every candidate above all its candidate
//! neighbours joins, and it and its neighbours stop being candidates.

use semigraph_semiring::MaxMin;
use semigraph_semiring::ops::Gt;

use crate::backend::{Accum, Backend, Combine, Ewise, Mask, UnaryOp, copy_dense};
use crate::error::Result;
use crate::graph::Graph;

/// Priorities in max-min `u32`: `A max.min x` is each vertex's largest neighbouring
/// priority (a stored entry of the pattern is the one, `u32::MAX`); 0 is no candidate.
pub(super) type Priority = MaxMin<u32>;

/// What [`maximal_independent_set`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndependentSet {
    /// Whether each vertex is in the set.
    pub members: Vec<bool>,
    /// The vertices in the set.
    pub size: usize,
    /// The rounds run (each two masked products).
    pub rounds: usize,
}

/// A maximal independent set: no two members are neighbours, and every other vertex has a
/// neighbour in the set. The set the greedy algorithm builds taking the vertices in a random
/// order drawn from `seed` (the lexicographically first one for that order), found in
/// parallel rounds: each round every candidate whose priority is above all its candidate
/// neighbours' joins (`best = A max.min cand` masked to the candidates, `joined = cand > best`),
/// and it and its neighbours (`A max.min joined`) stop being candidates.
///
/// Edges are the arcs either way; self loops are ignored; an isolated vertex joins in the
/// first round.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `seed`: draws the order.
///
/// # Returns
/// The members, their number and the rounds run.
///
/// # Errors
/// Backend errors; `InvalidArgument` for `2^32 - 1` vertices or more.
///
/// # Complexity
/// `O(log^2 n)` rounds with high probability for a random order (Blelloch, Fineman, Shun
/// 2012), each `O(n)` plus the arcs of the candidates; one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::combinatorial::maximal_independent_set;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2 - 3, one arc per edge.
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// let s = maximal_independent_set(&Graph::new(&cpu, &a, GraphOptions::default())?, 7)?;
/// let m = &s.members;
/// assert!((0..3).all(|v| !(m[v] && m[v + 1]))); // independent
/// assert!((0..4).all(|v| m[v] || (v > 0 && m[v - 1]) || (v < 3 && m[v + 1]))); // maximal
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn maximal_independent_set<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    seed: u64,
) -> Result<IndependentSet> {
    let b = g.backend();
    let n = g.n();
    let a = super::neighbours::<B, S, Priority>(g)?;
    let mut cand = b.dense::<Priority>(n, 1, &super::priorities(n, seed)?)?;
    let (set, rounds) = grow(b, &a, &mut cand)?;
    let members: Vec<bool> = b.read_dense_owned(set)?.iter().map(|&x| x != 0).collect();
    Ok(IndependentSet {
        size: members.iter().filter(|&&m| m).count(),
        members,
        rounds,
    })
}

/// Grows an independent set among the candidates `cand` (each candidate's priority, no entry
/// elsewhere; `a` the neighbours without self loops) until no candidate is left: returns the
/// set (an entry at each member) and the rounds run. The set is maximal among the candidates
/// given: each one left out has a neighbour in it.
pub(super) fn grow<B: Backend>(
    b: &B,
    a: &B::Matrix<Priority>,
    cand: &mut B::Dense<Priority>,
) -> Result<(B::Dense<Priority>, usize)> {
    let n = b.dense_shape(cand).0;
    let mut set = b.dense_filled::<Priority>(n, 1, 0)?;
    let mut best = b.dense_filled::<Priority>(n, 1, 0)?;
    let mut joined = b.dense_filled::<Priority>(n, 1, 0)?;
    let mut rounds = 0;
    while b.nvals(cand)? > 0 {
        crate::cancel::check()?;
        rounds += 1;
        // best(v): the largest priority among v's candidate neighbours, for candidates v.
        b.mxm(&mut best, b.keep(cand), Accum::Replace, a, cand)?;
        // joined(v): a candidate above every candidate neighbour (or with none). `Gt` gives
        // the zero (no entry) where a neighbour is above; the priority stays where no
        // neighbour is a candidate.
        copy_dense(b, &mut joined, cand)?;
        b.ewise_op::<Priority, Gt>(&mut joined, b.keep(cand), Combine::Union, &best)?;
        b.ewise(&mut set, Mask::All, Ewise::Add, &joined)?;
        // The members and their candidate neighbours are candidates no more.
        b.mxm(&mut best, b.keep(cand), Accum::Replace, a, &joined)?;
        b.apply(cand, b.keep(&joined), UnaryOp::Fill(0))?;
        b.apply(cand, b.keep(&best), UnaryOp::Fill(0))?;
    }
    Ok((set, rounds))
}

/// Maximal independent sets in the [registry](crate::registry): `semigraph mis`.
pub struct IndependentSetAlgorithm;

impl crate::registry::Algorithm for IndependentSetAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "mis",
            command: "mis",
            summary: "Maximal independent set (Luby's rounds over a random order): whether each \
                      vertex is in a set of no two neighbours that no vertex can join",
            params: &[Param::with_default(
                "seed",
                Kind::Count,
                "0",
                "draws the random order of the vertices",
            )],
            returns: &["members"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O((n + m) log^2 n) with high probability",
            method: "masked SpMV in max-min u32 per round",
            steps: "rounds",
            bench: &[],
            distributed: false,
            // A seed is declined: NetworkX's random choices are its own.
            networkx: &[NetworkX {
                function: "maximal_independent_set",
                args: &[],
                column: "members",
                shape: Shape::Members,
                simple: true,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Values};
        let s = maximal_independent_set(g.structure()?, args.count("seed").unwrap_or(0) as u64)?;
        Ok(Output {
            facts: vec![Fact::with_rounds("size", s.size as u64, s.rounds)],
            steps: s.rounds,
            columns: vec![Column {
                name: "members",
                values: Values::Flag(s.members),
            }],
        })
    }
}
