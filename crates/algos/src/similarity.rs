//! Neighbourhood similarity of vertex pairs (cuGraph's `jaccard`, `overlap`, `cosine`;
//! NetworkX's `jaccard_coefficient`): the common neighbours of every pair at once, one masked
//! product `C<P> = A A^T` in plus-pair, over the degrees.

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Pair, StrictTriu};

use crate::backend::{Backend, Bound, MatrixMask};
use crate::error::Result;
use crate::graph::Graph;
use crate::peel::PlusPair;

/// A similarity of two neighbourhoods `N(u)`, `N(v)` (sets of vertices; `u` is in `N(u)`
/// where `u` has a self loop, as NetworkX's `G[u]`), from `c = |N(u) & N(v)|` and the degrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// `c / |N(u) | N(v)|` (Jaccard); 0 where both are empty.
    Jaccard,
    /// `c / min(|N(u)|, |N(v)|)` (Szymkiewicz-Simpson); 0 where one is empty.
    Overlap,
    /// `c / sqrt(|N(u)| |N(v)|)` (Salton's cosine); 0 where one is empty.
    Cosine,
}

impl Measure {
    /// The measure of common neighbours `c` and degrees `du`, `dv`.
    pub fn of(self, c: i64, du: i64, dv: i64) -> f64 {
        let below = match self {
            Measure::Jaccard => (du + dv - c) as f64,
            Measure::Overlap => du.min(dv) as f64,
            Measure::Cosine => ((du as f64) * (dv as f64)).sqrt(),
        };
        if below > 0.0 { c as f64 / below } else { 0.0 }
    }
}

/// The pairs compared and their similarity, in the same order.
#[derive(Clone, Debug, PartialEq)]
pub struct Similarities {
    /// The pairs `(u, v)`: the ones given, in their order, or each edge once (`u < v`).
    pub pairs: Vec<(u32, u32)>,
    /// The common neighbours of each pair.
    pub common: Vec<i64>,
    /// The measure of each pair.
    pub values: Vec<f64>,
}

/// The similarity of vertex pairs' neighbourhoods in the undirected graph of `g`'s arcs (an
/// arc is an edge both ways; a self loop puts a vertex in its own neighbourhood).
///
/// The common neighbours of every pair are one product masked by the pairs, `C<P> = A A^T` in
/// plus-pair (a masked product that forms only the pairs' entries: each the shorter of two
/// rows walked, the longer searched); the degrees are `A`'s row counts; the measure is per
/// pair, on the host, as the pairs are read back.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
/// - `measure`: Jaccard, overlap or cosine.
/// - `pairs`: the pairs to compare (`None`: every edge `u < v`, cuGraph's default);
///   repeated pairs are answered each time.
///
/// # Returns
/// The pairs, their common neighbours and their similarity.
///
/// # Errors
/// `VertexOutOfRange` for a pair's vertex; backend errors (memory for the product).
///
/// # Complexity
/// `O(sum over pairs of deg(u) + deg(v))` for the product, `O(n + m)` for the pattern.
///
/// # Example
/// ```
/// use semigraph_algos::similarity::{similarity, Measure};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A star 0 - {1, 2, 3} and an edge 2 - 3: N(1) = {0}, N(2) = {0, 3}.
/// let arcs = [(0, 1, true), (0, 2, true), (0, 3, true), (2, 3, true)];
/// let a = arcs_to_csr::<OrAnd>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let s = similarity(&g, Measure::Jaccard, Some(&[(1, 2)]))?;
/// assert_eq!((s.common, s.values), (vec![1], vec![0.5]));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn similarity<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    measure: Measure,
    pairs: Option<&[(u32, u32)]>,
) -> Result<Similarities> {
    let b = g.backend();
    let (a, degree) = neighbourhoods::<B, S, PlusPair>(g)?;
    let asked = pairs_mask(b, &a, g.n(), pairs)?;
    let common = at_pairs(
        &b.read_matrix(&b.spgemm_t(MatrixMask::Keep(&asked.mask), &a, &a)?)?,
        &asked,
    );
    let pairs = asked.pairs;
    let values = pairs
        .iter()
        .zip(&common)
        .map(|(&(u, v), &c)| measure.of(c, degree[u as usize], degree[v as usize]))
        .collect();
    Ok(Similarities {
        pairs,
        common,
        values,
    })
}

/// A graph's undirected matrix and its degrees ([`neighbourhoods`]).
pub(crate) type Neighbourhoods<M, T> = (M, Vec<T>);

/// The undirected graph of `g`'s arcs in `P` (an arc and its reverse one edge, every value
/// one) and its degrees (row counts, read back).
pub(crate) fn neighbourhoods<B: Backend, S: Semiring, P: Semiring>(
    g: &Graph<'_, B, S>,
) -> Result<Neighbourhoods<B::Matrix<P>, P::T>>
where
    P::T: semigraph_semiring::Number,
{
    let b = g.backend();
    let p = g.pattern::<P>()?;
    let a = b.apply_matrix_bound::<P, Pair>(&p.symmetric()?, Bound::Second(P::one()))?;
    let degree = b.read_dense_owned(b.reduce_rows(&a)?)?;
    Ok((a, degree))
}

/// The pairs a similarity answers: a mask over the graph and the pairs in the answer's order.
pub(crate) struct Pairs<M> {
    /// An entry at each pair.
    pub(crate) mask: M,
    /// The pairs, in the answer's order.
    pub(crate) pairs: Vec<(u32, u32)>,
    /// Whether they were given (else every edge once, in row order).
    pub(crate) given: bool,
}

/// The pairs as a mask over `a` (`n x n`): those `given` (their vertices checked), or every
/// entry `u < v` of `a` (each edge once).
pub(crate) fn pairs_mask<B: Backend, P: Semiring>(
    b: &B,
    a: &B::Matrix<P>,
    n: usize,
    given: Option<&[(u32, u32)]>,
) -> Result<Pairs<B::Matrix<P>>> {
    let (mask, pairs, given) = match given {
        Some(given) => {
            for &(u, v) in given {
                crate::error::check_vertex(u.max(v) as usize, n)?;
            }
            let (src, dst): (Vec<u32>, Vec<u32>) = given.iter().copied().unzip();
            let m = b.matrix_from_arcs::<P>((n, n), &src, &dst, None)?;
            (m, given.to_vec(), true)
        }
        None => {
            let m = b.select::<P, StrictTriu>(a, P::zero())?;
            let edges = b.read_matrix(&m)?;
            let pairs = edges.iter().map(|(u, v, _)| (u as u32, v as u32)).collect();
            (m, pairs, false)
        }
    };
    Ok(Pairs { mask, pairs, given })
}

/// The entries of a product masked by [`pairs_mask`] at each pair, in the pairs' order (the
/// zero where the product has none).
pub(crate) fn at_pairs<P: Semiring, M>(
    found: &semigraph_formats::Csr<P>,
    Pairs { pairs, given, .. }: &Pairs<M>,
) -> Vec<P::T> {
    if *given {
        return pairs
            .iter()
            .map(|&(u, v)| found.get(u as usize, v as usize).unwrap_or_else(P::zero))
            .collect();
    }
    // The edges in row order, the products a subset of them in the same order: merged.
    let mut found = found.iter().peekable();
    pairs
        .iter()
        .map(|&(u, v)| match found.peek() {
            Some(&(i, j, c)) if (i as u32, j as u32) == (u, v) => {
                found.next();
                c
            }
            _ => P::zero(),
        })
        .collect()
}

/// The arguments every similarity takes.
pub(crate) const PARAMS: &[crate::registry::Param] = &[crate::registry::Param::optional(
    "pairs",
    crate::registry::Kind::Pairs,
    "the vertex pairs to compare (a file of `u v` lines; default: every edge once)",
)];

/// A similarity's registry run: the pairs, their common neighbours and the measure.
fn run_measure<'b, B: crate::backend::Frontier + 'b>(
    g: &impl crate::registry::Views<'b, B>,
    args: &crate::registry::Args,
    measure: Measure,
    name: &'static str,
) -> Result<crate::registry::Output> {
    use crate::registry::{Column, Fact, Output, Scalar, Values};
    let s = similarity(g.structure()?, measure, args.pairs("pairs"))?;
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
            Column {
                name: "common",
                values: Values::Int(s.common),
            },
        ],
    })
}

/// Host bytes of a similarity: the pairs, their answers and the degrees.
pub(crate) fn similarity_bytes(n: usize, nnz: usize) -> u64 {
    (40 * nnz + 8 * n) as u64 + (1 << 20)
}

/// Jaccard similarity in the [registry](crate::registry): `semigraph jaccard`,
/// `semigraph.jaccard`, NetworkX's `jaccard_coefficient`.
pub struct Jaccard;

impl crate::registry::Algorithm for Jaccard {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "jaccard",
            command: "jaccard",
            summary: "Jaccard similarity of vertex pairs (a masked product in plus-pair): common \
                      neighbours over all neighbours of the two, one pair a line",
            params: PARAMS,
            returns: &["pairs", "jaccard"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O(sum over pairs of deg(u) + deg(v))",
            method: "C<P> = A A^T in plus-pair, over the degrees",
            steps: "products",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "jaccard_coefficient",
                args: &[("ebunch", "pairs")],
                column: "jaccard",
                shape: Shape::Triples("pairs"),
                // NetworkX's common neighbours leave out the pair's own nodes, which a self
                // loop puts in their neighbourhoods.
                simple: true,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_measure(g, args, Measure::Jaccard, "jaccard")
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}

/// Overlap similarity in the [registry](crate::registry): `semigraph overlap`,
/// `semigraph.overlap`.
pub struct Overlap;

impl crate::registry::Algorithm for Overlap {
    const INFO: crate::registry::Info = crate::registry::Info {
        name: "overlap",
        command: "overlap",
        summary: "Overlap similarity of vertex pairs (a masked product in plus-pair): common \
                  neighbours over the smaller degree of the two, one pair a line",
        returns: &["pairs", "overlap"],
        method: "C<P> = A A^T in plus-pair, over the smaller degree",
        networkx: &[],
        ..Jaccard::INFO
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_measure(g, args, Measure::Overlap, "overlap")
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}

/// Cosine similarity in the [registry](crate::registry): `semigraph cosine`,
/// `semigraph.cosine`.
pub struct Cosine;

impl crate::registry::Algorithm for Cosine {
    const INFO: crate::registry::Info = crate::registry::Info {
        name: "cosine",
        command: "cosine",
        summary: "Cosine similarity of vertex pairs (a masked product in plus-pair): common \
                  neighbours over the geometric mean of the two degrees, one pair a line",
        returns: &["pairs", "cosine"],
        method: "C<P> = A A^T in plus-pair, over sqrt(deg u deg v)",
        networkx: &[],
        ..Jaccard::INFO
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_measure(g, args, Measure::Cosine, "cosine")
    }

    fn host_bytes(_: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        similarity_bytes(n, nnz)
    }
}
