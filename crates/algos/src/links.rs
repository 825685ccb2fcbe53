//! Link prediction scores of vertex pairs (NetworkX's `adamic_adar_index`,
//! `resource_allocation_index`, `preferential_attachment`): the common neighbours of every
//! pair weighted by their degrees, one masked product `C<P> = A diag(f(d)) A^T` in
//! plus-times, or the degrees alone.

use semigraph_semiring::PlusTimes;
use semigraph_semiring::Semiring;

use crate::backend::{Backend, MatrixMask};
use crate::error::Result;
use crate::graph::Graph;
use crate::similarity::{PARAMS, at_pairs, neighbourhoods, pairs_mask, similarity_bytes};

type Pt = PlusTimes<f64>;

/// A link prediction score of a pair `u`, `v` from their neighbourhoods `N(u)`, `N(v)` (a
/// self loop puts a vertex in its own) and the degrees `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `sum over w in N(u) & N(v) of 1 / ln d(w)` (Adamic and Adar, 2003).
    AdamicAdar,
    /// `sum over w in N(u) & N(v) of 1 / d(w)` (Zhou, Lü and Zhang, 2009).
    ResourceAllocation,
    /// `d(u) d(v)` (preferential attachment).
    PreferentialAttachment,
}

impl Score {
    /// The weight a common neighbour of degree `d` adds to a sum over common neighbours
    /// (0 for preferential attachment, which reads none).
    fn weight(self, d: f64) -> f64 {
        match self {
            Score::AdamicAdar => 1.0 / d.ln(),
            Score::ResourceAllocation => 1.0 / d,
            Score::PreferentialAttachment => 0.0,
        }
    }
}

/// The pairs scored and their scores, in the same order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// The pairs `(u, v)`: the ones given, in their order, or each edge once (`u < v`).
    pub pairs: Vec<(u32, u32)>,
    /// The score of each pair.
    pub values: Vec<f64>,
}

/// Link prediction scores of vertex pairs in the undirected graph of `g`'s arcs (an arc is
/// an edge both ways).
///
/// The common-neighbour scores are one product masked by the pairs, `C<P> = (A D) A^T` in
/// plus-times `f64`, where `D = diag(f(d))` weighs each neighbour by its degree `d` (`A`'s
/// row counts): `1 / ln d` (Adamic-Adar), `1 / d` (resource allocation). Preferential
/// attachment multiplies the degrees, with no product.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
/// - `score`: the score.
/// - `pairs`: the pairs to score (`None`: every edge `u < v`); repeated pairs are answered
///   each time.
///
/// # Returns
/// The pairs and their scores (`inf` for Adamic-Adar where a common neighbour has degree 1,
/// which only a pair `(u, u)` can have).
///
/// # Errors
/// `VertexOutOfRange` for a pair's vertex; backend errors (memory for the product).
///
/// # Complexity
/// `O(m)` for `A D`, then `O(sum over pairs of deg(u) + deg(v))` for the masked product;
/// `O(n + m + pairs)` for preferential attachment.
///
/// # Example
/// ```
/// use semigraph_algos::links::{link_scores, Score};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A star 0 - {1, 2, 3} and an edge 2 - 3: 1 and 2 share 0, of degree 3.
/// let arcs = [(0, 1, true), (0, 2, true), (0, 3, true), (2, 3, true)];
/// let a = arcs_to_csr::<OrAnd>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let ra = link_scores(&g, Score::ResourceAllocation, Some(&[(1, 2)]))?;
/// assert_eq!(ra.values, vec![1.0 / 3.0]);
/// let pa = link_scores(&g, Score::PreferentialAttachment, Some(&[(1, 2)]))?;
/// assert_eq!(pa.values, vec![2.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn link_scores<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    score: Score,
    pairs: Option<&[(u32, u32)]>,
) -> Result<Scores> {
    let n = g.n();
    let b = g.backend();
    let (a, degree) = neighbourhoods::<B, S, Pt>(g)?;
    let asked = pairs_mask(b, &a, n, pairs)?;
    let values = match score {
        Score::PreferentialAttachment => asked
            .pairs
            .iter()
            .map(|&(u, v)| degree[u as usize] * degree[v as usize])
            .collect(),
        Score::AdamicAdar | Score::ResourceAllocation => {
            // D = diag(f(d)), then C<P> = (A D) A^T.
            let f: Vec<f64> = degree.iter().map(|&d| score.weight(d)).collect();
            let diagonal: Vec<u32> = (0..n as u32).collect();
            let d = b.matrix_from_arcs::<Pt>((n, n), &diagonal, &diagonal, Some(&f))?;
            let ad = b.spgemm(MatrixMask::All, &a, &d)?;
            let c = b.read_matrix(&b.spgemm_t(MatrixMask::Keep(&asked.mask), &ad, &a)?)?;
            at_pairs(&c, &asked)
        }
    };
    Ok(Scores {
        pairs: asked.pairs,
        values,
    })
}

/// A score's registry run: the pairs and their scores.
fn run_score<'b, B: crate::backend::Frontier + 'b>(
    g: &impl crate::registry::Views<'b, B>,
    args: &crate::registry::Args,
    score: Score,
    name: &'static str,
) -> Result<crate::registry::Output> {
    use crate::registry::{Column, Fact, Output, Scalar, Values};
    let s = link_scores(g.structure()?, score, args.pairs("pairs"))?;
    Ok(Output {
        facts: vec![Fact::scalar("pairs", Scalar::Int(s.pairs.len() as u64))],
        steps: 1,
        columns: vec![
            Column {
                name: "pairs",
                values: Values::Arcs(s.pairs),
            },
            Column {
                name,
                values: Values::Real(s.values),
            },
        ],
    })
}

/// The Adamic-Adar index in the [registry](crate::registry): `semigraph adamic-adar`,
/// `semigraph.adamic_adar`, NetworkX's `adamic_adar_index`.
pub struct AdamicAdar;

impl crate::registry::Algorithm for AdamicAdar {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "adamic_adar",
            command: "adamic-adar",
            summary: "Adamic-Adar index of vertex pairs (a masked product in plus-times): the \
                      sum of 1 / ln(degree) over their common neighbours, one pair a line",
            params: PARAMS,
            returns: &["pairs", "adamic_adar"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O(m + sum over pairs of deg(u) + deg(v))",
            method: "C<P> = A diag(1 / ln d) A^T in plus-times",
            steps: "products",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "adamic_adar_index",
                args: &[("ebunch", "pairs")],
                column: "adamic_adar",
                shape: Shape::Triples("pairs"),
                // NetworkX's common neighbours leave out the pair's own nodes, and its
                // degrees count a self loop twice.
                simple: true,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_score(g, args, Score::AdamicAdar, "adamic_adar")
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}

/// The resource allocation index in the [registry](crate::registry): `semigraph
/// resource-allocation`, `semigraph.resource_allocation`, NetworkX's
/// `resource_allocation_index`.
pub struct ResourceAllocation;

impl crate::registry::Algorithm for ResourceAllocation {
    const INFO: crate::registry::Info = {
        use crate::registry::{Info, NetworkX};
        Info {
            name: "resource_allocation",
            command: "resource-allocation",
            summary: "Resource allocation index of vertex pairs (a masked product in \
                      plus-times): the sum of 1 / degree over their common neighbours, one pair \
                      a line",
            returns: &["pairs", "resource_allocation"],
            method: "C<P> = A diag(1 / d) A^T in plus-times",
            networkx: &[NetworkX {
                function: "resource_allocation_index",
                column: "resource_allocation",
                ..AdamicAdar::INFO.networkx[0]
            }],
            ..AdamicAdar::INFO
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_score(g, args, Score::ResourceAllocation, "resource_allocation")
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}

/// Preferential attachment in the [registry](crate::registry): `semigraph
/// preferential-attachment`, `semigraph.preferential_attachment`, NetworkX's
/// `preferential_attachment`.
pub struct PreferentialAttachment;

impl crate::registry::Algorithm for PreferentialAttachment {
    const INFO: crate::registry::Info = {
        use crate::registry::{Info, NetworkX};
        Info {
            name: "preferential_attachment",
            command: "preferential-attachment",
            summary: "Preferential attachment of vertex pairs: the product of their degrees, \
                      one pair a line",
            returns: &["pairs", "preferential_attachment"],
            complexity: "O(n + m + pairs)",
            method: "d(u) d(v), the degrees A's row counts",
            steps: "pairs",
            networkx: &[NetworkX {
                function: "preferential_attachment",
                column: "preferential_attachment",
                ..AdamicAdar::INFO.networkx[0]
            }],
            ..AdamicAdar::INFO
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_score(
            g,
            args,
            Score::PreferentialAttachment,
            "preferential_attachment",
        )
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}
