//! The k-truss by masked products (LAGraph's `LAGraph_KTruss`): the support of every edge, the
//! triangles through it, is one masked product `C<C> = C C^T` in plus-pair; edges with too
//! little support are dropped until none is.

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Offdiag, Pair, StrictTriu, ValueGe};

use crate::backend::{Backend, Bound, MatrixMask};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::peel::PlusPair;

/// What [`k_truss`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truss {
    /// The truss's edges `(u, v)` with `u < v`, by `u` then `v`.
    pub edges: Vec<(u32, u32)>,
    /// The support of each edge in the truss (its triangles there).
    pub support: Vec<i64>,
    /// The products run.
    pub rounds: usize,
}

/// The `k`-truss (NetworkX's `k_truss`): the largest subgraph of the undirected simple graph
/// of the arcs (either direction, self loops ignored: NetworkX refuses them, and its dispatch
/// declines them) in which every edge lies on at least `k - 2` triangles.
/// `C` = the graph's pattern in plus-pair; each round `C<C> = C C^T` (the support of every
/// edge, as a masked product) keeps the edges with support `>= k - 2`, until a round drops
/// none.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `k`: at least 2 (the 2-truss is
///   every edge).
///
/// # Returns
/// The truss's edges with their support, and the rounds run.
///
/// # Errors
/// `InvalidArgument` for `k < 2`; backend errors.
///
/// # Complexity
/// Per round, a masked product: a dot product of two rows per edge left. One count read back
/// per round.
///
/// # Example
/// ```
/// use semigraph_algos::truss::k_truss;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // Two triangles sharing the edge 1-2, and a pendant edge 2-4.
/// let edges = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4)];
/// let a = arcs_to_csr::<OrAnd>(5, &edges.map(|(u, v)| (u, v, true)))?;
/// let cpu = CpuBackend::new();
/// let t = k_truss(&Graph::new(&cpu, &a, GraphOptions::default())?, 3)?;
/// assert_eq!(t.edges, vec![(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]);
/// assert_eq!(t.support, vec![1, 1, 2, 1, 1]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn k_truss<B: Backend, S: Semiring>(g: &Graph<'_, B, S>, k: usize) -> Result<Truss> {
    if k < 2 {
        return Err(Error::InvalidArgument(format!(
            "the k-truss needs k >= 2, not {k}"
        )));
    }
    let b = g.backend();
    let p = g.pattern::<PlusPair>()?;
    // Self loops are no edges of the truss (nor of its triangles): the diagonal dropped.
    let sym = b.select::<PlusPair, Offdiag>(&p.symmetric()?, 0)?;
    let mut c = b.apply_matrix_bound::<PlusPair, Pair>(&sym, Bound::Second(1))?;
    let mut nnz = b.matrix_info(&c).nnz;
    let mut rounds = 0;
    let support = loop {
        crate::cancel::check()?;
        rounds += 1;
        let support = b.spgemm_t(MatrixMask::Keep(&c), &c, &c)?;
        // Entries with support 0 are none: the 2-truss keeps every edge.
        let kept = match k {
            2 => None,
            _ => Some(b.select::<PlusPair, ValueGe>(&support, k as i64 - 2)?),
        };
        let left = kept.as_ref().map_or(nnz, |m| b.matrix_info(m).nnz);
        if left == nnz {
            break support;
        }
        nnz = left;
        let kept = kept.expect("k > 2");
        c = b.apply_matrix_bound::<PlusPair, Pair>(&kept, Bound::Second(1))?;
    };
    // The edges of C with their support (0 where C has an edge on no triangle: k = 2).
    let edges = b.read_matrix(&b.select::<PlusPair, StrictTriu>(&c, 0)?)?;
    let support = b.read_matrix(&support)?;
    let (mut pairs, mut counts) = (Vec::with_capacity(edges.nnz()), vec![]);
    for (u, v, _) in edges.iter() {
        pairs.push((u as u32, v as u32));
        counts.push(support.get(u, v).unwrap_or(0));
    }
    Ok(Truss {
        edges: pairs,
        support: counts,
        rounds,
    })
}

/// The k-truss in the [registry](crate::registry): `semigraph ktruss`, `semigraph.ktruss`,
/// NetworkX's `k_truss`.
pub struct KTruss;

impl crate::registry::Algorithm for KTruss {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "ktruss",
            command: "ktruss",
            summary: "The k-truss (masked products in plus-pair): the edges on at least k - 2 \
                      triangles of the subgraph, one edge a line with its support",
            params: &[Param::with_default(
                "k",
                Kind::Count,
                "3",
                "every edge of the truss lies on at least k - 2 of its triangles (k >= 2)",
            )],
            returns: &["edges", "support"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O(rounds sum over edges of the smaller degree)",
            method: "C<C> = C C^T in plus-pair per round",
            steps: "rounds",
            bench: &[("k", "5")],
            distributed: false,
            networkx: &[NetworkX {
                function: "k_truss",
                args: &[("k", "k")],
                column: "edges",
                shape: Shape::Subgraph,
                simple: true,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Values};
        let t = k_truss(g.structure()?, args.count("k").unwrap_or(3))?;
        Ok(Output {
            facts: vec![Fact::with_rounds("edges", t.edges.len() as u64, t.rounds)],
            steps: t.rounds,
            columns: vec![
                Column {
                    name: "edges",
                    values: Values::Arcs(t.edges),
                },
                Column {
                    name: "support",
                    values: Values::Int(t.support),
                },
            ],
        })
    }
}
