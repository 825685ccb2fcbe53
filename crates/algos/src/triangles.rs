//! Triangles and the local clustering coefficient, by masked sparse x sparse products:
//! Sandia's `L L^T` masked by `L` for the total, `S L^T` masked by `S` per vertex, and LDBC's
//! LCC from `S W_L^T` masked by `S` (`S` the undirected pattern, `W` the arcs counted both
//! ways, `L` and `W_L` lower triangles).

use semigraph_semiring::ops::{Div, Minus, Offdiag, Pair, StrictTril, Times, ValueGt};
use semigraph_semiring::{PlusTimes, Semiring};

use crate::backend::{Backend, Bound, Combine, Mask, MatrixMask};
use crate::error::Result;
use crate::graph::Graph;

/// Triangles are counted in plus-times `i64` (a pattern of ones: plus-pair).
type Count = PlusTimes<i64>;
/// The clustering coefficients' semiring.
type Real = PlusTimes<f64>;

/// The pattern of `A + A^T` in `P` (`A` itself when the graph is undirected): one where an
/// arc goes one way, `add(one, one)` where it goes both.
fn both_ways<B: Backend, S: Semiring, P: Semiring>(g: &Graph<'_, B, S>) -> Result<B::Matrix<P>> {
    let p = g.pattern::<P>()?;
    match p.is_undirected() {
        true => g.backend().view::<P, P>(p.push()),
        false => p.symmetric(),
    }
}

/// `A + A^T` without its diagonal, every entry one: the undirected simple graph of `g`'s arcs
/// (parallel arcs and self-loops dropped).
fn undirected<B: Backend, S: Semiring, P: Semiring>(g: &Graph<'_, B, S>) -> Result<B::Matrix<P>>
where
    P::T: semigraph_semiring::Number,
{
    let b = g.backend();
    let ones = b.apply_matrix_bound::<P, Pair>(&both_ways(g)?, Bound::Second(P::one()))?;
    b.select::<P, Offdiag>(&ones, P::zero())
}

/// Degrees at least this skewed (`n sum(d^2) / (sum d)^2`: 1 for a regular graph, about 1.1
/// for a road network, hundreds for a Kronecker graph) order the vertices by degree before
/// triangles are counted ([`VertexOrder::Auto`]).
const SKEWED: f64 = 2.0;

/// The strictly lower triangle of `A + A^T` (every entry one) in an order of the vertices: by
/// (degree, index) where the degrees are at least `skewed` ([`SKEWED`]; 0: always, infinite:
/// never), else by index. In the
/// degree order a vertex's row of `L` holds its neighbours of smaller degree, so the product's
/// dot products walk the short rows and probe the long ones (a hub's row is walked by the few
/// vertices of larger degree, not by each of its neighbours): GAP's relabelling by degree,
/// done without moving the graph. The order is kept in the values: `C<S> = X Y^T` with
/// `X = [key, 1]`, `Y = [1, -key]` (an SDDMM) is `key(i) - key(j)` at each entry, and `L`
/// its positive entries.
fn lower_by_degree<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    skewed: f64,
) -> Result<B::Matrix<Count>> {
    let b = g.backend();
    let s = both_ways::<B, S, Count>(g)?;
    if skewed == f64::INFINITY {
        return lower_by_index(g, &s);
    }
    // Degrees (an arc both ways counts twice in a directed graph: any key orders the vertices),
    // read to the host: their skew summed there (on 2 cores, 1 ms less than four passes on
    // the backend for a road network), their keys built there.
    let deg = b.read_dense_owned(b.reduce_rows(&s)?)?;
    let (sum, squares) = deg.iter().fold((0f64, 0f64), |(s, q), &d| {
        let d = d as f64;
        (s + d, q + d * d)
    });
    if sum == 0.0 || (deg.len() as f64) * squares < skewed * sum * sum {
        return lower_by_index(g, &s);
    }
    // key(v) = (degree, v) in one i64 (degree capped at 2^30: keys below 2^62, differences exact).
    let key = |v: usize| (deg[v].min((1 << 30) - 1) << 32) | v as i64;
    let x: Vec<i64> = (0..deg.len()).flat_map(|v| [key(v), 1]).collect();
    let y: Vec<i64> = (0..deg.len()).flat_map(|v| [1, -key(v)]).collect();
    let n = deg.len();
    let diff = b.sddmm(
        &s,
        &b.dense::<Count>(n, 2, &x)?,
        &b.dense::<Count>(n, 2, &y)?,
    )?;
    b.pattern::<Count, Count>(&b.select::<Count, ValueGt>(&diff, 0)?)
}

/// The strictly lower triangle of `s` (`A + A^T`) by index, every entry one: taken before the
/// values are made one (none to make when the graph is undirected: its pattern is ones).
fn lower_by_index<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    s: &B::Matrix<Count>,
) -> Result<B::Matrix<Count>> {
    let b = g.backend();
    let l = b.select::<Count, StrictTril>(s, 0)?;
    match g.is_undirected() {
        true => Ok(l),
        false => b.pattern::<Count, Count>(&l),
    }
}

/// The number of triangles of the undirected simple graph of `g`'s arcs (arcs in either
/// direction, parallel arcs and self-loops ignored).
///
/// Sandia's method: `L` the strictly lower triangle of `A + A^T`, `C = L L^T` masked by `L`
/// (one dot product per entry of `L`: the common lower neighbours of its two ends), the total
/// the sum of `C`. Each triangle `a > b > c` is counted once, at `C(a, b)`. "Lower" is by
/// index, or by degree where the degrees are skewed (a power-law graph: `n sum(d^2) /
/// (sum d)^2 >= 2`) and the backend's dot products gain from it ([`VertexOrder::Auto`]), so
/// that no hub's long row is walked once per neighbour.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// The number of triangles.
///
/// # Errors
/// Backend errors (memory refused up front for the product).
///
/// # Complexity
/// `O(sum over arcs (u, v) of L of min(deg_L(u), deg_L(v)) log)` for the dot products
/// (`O(m^1.5)` in the degree order), plus `O(n + m)` to form `L` and one read of the `n`
/// degrees.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, triangle_count, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A triangle 0 1 2 with a tail 2 -> 3.
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 0, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// assert_eq!(triangle_count(&Graph::new(&cpu, &a, GraphOptions::default())?)?, 1);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn triangle_count<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<u64> {
    triangle_count_in(g, VertexOrder::Auto)
}

/// The order of the vertices in which [`triangle_count_in`] takes the lower triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexOrder {
    /// By degree where the degrees are skewed (`n sum(d^2) / (sum d)^2 >= 2`: power-law
    /// graphs) and the backend's dot products gain from it
    /// ([`Products::dot_degree_order_pays`](crate::backend::Products::dot_degree_order_pays):
    /// the CPU backend), else by index (road networks, grids, uniform random graphs; the GPU).
    Auto,
    /// By (degree, index): a vertex's row of `L` holds its neighbours of smaller degree.
    Degree,
    /// By index: `L` the strictly lower triangle as stored.
    Index,
}

/// [`triangle_count`] with the vertex order chosen: the count is the same in every order,
/// the work is not (on a power-law graph the index order walks each hub's long row once per
/// neighbour).
///
/// Arguments, returns, errors and complexity as [`triangle_count`].
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, triangle_count_in, CpuBackend, Graph, GraphOptions, VertexOrder};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 0, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// assert_eq!(triangle_count_in(&g, VertexOrder::Degree)?, triangle_count_in(&g, VertexOrder::Index)?);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn triangle_count_in<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    order: VertexOrder,
) -> Result<u64> {
    let b = g.backend();
    let skewed = match order {
        VertexOrder::Auto if b.dot_degree_order_pays() => SKEWED,
        VertexOrder::Auto => f64::INFINITY,
        VertexOrder::Degree => 0.0,
        VertexOrder::Index => f64::INFINITY,
    };
    let l = lower_by_degree(g, skewed)?;
    let c = b.spgemm_t(MatrixMask::Keep(&l), &l, &l)?;
    let per_row = b.reduce_rows(&c)?;
    Ok(b.reduce(&per_row, Mask::All)? as u64)
}

/// The number of triangles each vertex belongs to (of the undirected simple graph of `g`'s
/// arcs, as [`triangle_count`]).
///
/// `C = S L^T` masked by `S` (`L` the strictly lower triangle of `S`, its rows read directly):
/// `C(v, u)` counts the neighbours `w < u` of `v` adjacent to `u`, so row `v` sums to the
/// triangles through `v`, each once (at its larger other corner).
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// For each vertex, its triangles (the sum is three times [`triangle_count`]).
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// A dot product per arc of `S` (twice the undirected edges), of a row of `S` and a row of
/// `L`: about twice [`triangle_count`]'s work.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, triangles_per_vertex, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(4, &[(0, 1, true), (1, 2, true), (2, 0, true), (2, 3, true)])?;
/// let cpu = CpuBackend::new();
/// let t = triangles_per_vertex(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(t, vec![1, 1, 1, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn triangles_per_vertex<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<Vec<u64>> {
    let b = g.backend();
    let s = undirected::<B, S, Count>(g)?;
    let l = b.select::<Count, StrictTril>(&s, 0)?;
    let c = b.spgemm_t(MatrixMask::Keep(&s), &s, &l)?;
    let per = b.reduce_rows(&c)?;
    Ok(b.read_dense_owned(per)?
        .into_iter()
        .map(|t| t as u64)
        .collect())
}

/// The local clustering coefficient of each vertex, by the LDBC Graphalytics definition: with
/// `N(v)` the in- and out-neighbours of `v` (itself excluded), `LCC(v)` = the number of arcs
/// between vertices of `N(v)` / `(|N(v)| (|N(v)| - 1))`, and 0 when `|N(v)| <= 1`. Arcs are
/// counted per direction, so for an undirected graph (stored with both directions) this is the
/// usual edges / (d (d - 1) / 2).
///
/// `W = A + A^T` without its diagonal, in plus-times (`W(u, w)` = the arcs between `u` and
/// `w`: 1 or 2), `S` its pattern and `W_L` its strictly lower triangle; `C = S W_L^T` masked by
/// `S` (the rows of `W_L` read directly): `C(v, u)` sums `W(u, w)` over the neighbours
/// `w < u` of `v`, so row `v` sums to the arcs among `N(v)`, each pair once; the row sums of
/// `S` are the degrees `|N(v)|`.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// For each vertex, its coefficient in `[0, 1]`.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// One masked product (a dot product per arc of `S`, of a row of `S` and a row of `W_L`), plus
/// `O(n + m)`.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, lcc, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 -> 1, 0 -> 2, 1 -> 2: N(0) = {1, 2} with the one arc 1 -> 2 of two possible.
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (0, 2, true), (1, 2, true)])?;
/// let cpu = CpuBackend::new();
/// assert_eq!(lcc(&Graph::new(&cpu, &a, GraphOptions::default())?)?, vec![0.5, 0.5, 0.5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn lcc<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<Vec<f64>> {
    let (coeff, _) = lcc_arrays(g)?;
    g.backend().read_dense_owned(coeff)
}

/// The coefficients and `|N(v)| (|N(v)| - 1)` (absent where `|N(v)| <= 1`), on the backend.
fn lcc_arrays<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
) -> Result<(B::Dense<Real>, B::Dense<Real>)> {
    let b = g.backend();
    let w = b.select::<Real, Offdiag>(&g.pattern::<Real>()?.symmetric()?, 0.0)?;
    let s = b.apply_matrix_bound::<Real, Pair>(&w, Bound::Second(1.0))?;
    let wl = b.select::<Real, StrictTril>(&w, 0.0)?;
    let c = b.spgemm_t(MatrixMask::Keep(&s), &s, &wl)?;
    let mut coeff = b.reduce_rows(&c)?;
    // |N(v)| (|N(v)| - 1), absent where |N(v)| <= 1.
    let deg = b.reduce_rows(&s)?;
    let mut pairs = b.reduce_rows(&s)?;
    b.apply_bound::<Real, Minus>(&mut pairs, Mask::All, Bound::Second(1.0))?;
    b.ewise_op::<Real, Times>(&mut pairs, Mask::All, Combine::Intersection, &deg)?;
    b.ewise_op::<Real, Div>(&mut coeff, Mask::All, Combine::Intersection, &pairs)?;
    Ok((coeff, pairs))
}

/// What [`clustering`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Clustering {
    /// Each vertex's coefficient, as [`lcc`]'s.
    pub coefficients: Vec<f64>,
    /// Their mean over every vertex (NetworkX's `average_clustering`; 0 without vertices).
    pub average: f64,
    /// The arcs among the neighbours of every vertex over the pairs of neighbours, summed over
    /// the vertices: `sum c(v) p(v) / sum p(v)` with `p(v) = |N(v)| (|N(v)| - 1)` (on an
    /// undirected graph `3 triangles / connected triples`, NetworkX's `transitivity`; 0
    /// where no vertex has two neighbours).
    pub transitivity: f64,
}

/// [`lcc`] and two summaries of it: the average coefficient and the transitivity.
///
/// Arguments, errors and complexity as [`lcc`] (plus two reductions on the backend).
///
/// # Example
/// ```
/// use semigraph_algos::triangles::clustering;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A triangle 0-1-2 and a pendant 3 on 2, each edge both ways: one triangle, 5 connected
/// // triples.
/// let mut arcs = vec![];
/// for (u, v) in [(0, 1), (1, 2), (0, 2), (2, 3)] {
///     arcs.extend([(u, v, true), (v, u, true)]);
/// }
/// let a = arcs_to_csr::<OrAnd>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = clustering(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert!((c.average - (1.0 + 1.0 + 1.0 / 3.0) / 4.0).abs() < 1e-15);
/// assert!((c.transitivity - 3.0 / 5.0).abs() < 1e-15);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn clustering<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<Clustering> {
    let b = g.backend();
    let (coeff, mut pairs) = lcc_arrays(g)?;
    let all = b.reduce(&pairs, Mask::All)?;
    // c(v) p(v) in place of p: no array of its own.
    b.ewise_op::<Real, Times>(&mut pairs, Mask::All, Combine::Intersection, &coeff)?;
    let closed = b.reduce(&pairs, Mask::All)?;
    let coefficients = b.read_dense_owned(coeff)?;
    let n = coefficients.len();
    let average = match n {
        0 => 0.0,
        _ => coefficients.iter().sum::<f64>() / n as f64,
    };
    Ok(Clustering {
        coefficients,
        average,
        transitivity: if all > 0.0 { closed / all } else { 0.0 },
    })
}

/// Triangle counting in the [registry](crate::registry): `semigraph tc`, `semigraph.triangles`.
pub struct Triangles;

impl crate::registry::Algorithm for Triangles {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "triangles",
            command: "tc",
            summary: "Triangles of the undirected simple graph (arcs in either direction, \
                      loops ignored): the total, and the triangles each vertex belongs to",
            params: &[
                Param::with_default(
                    "count",
                    Kind::Choice(&["per-vertex", "total"]),
                    "per-vertex",
                    "per-vertex: the total and each vertex's triangles; total: the total alone \
                     (one product of half the work)",
                ),
                Param::with_default(
                    "order",
                    Kind::Choice(&["auto", "degree", "index"]),
                    "auto",
                    "the vertex order of the total's lower triangle: degree (a power-law \
                     graph's hubs walked rarely), index, or auto (degree where degrees are \
                     skewed on a backend that gains from it: the CPU)",
                ),
            ],
            returns: &["triangles", "per_vertex"],
            reads: Reads::Structure,
            accepts: Accepts::Undirected,
            complexity: "O(sum over arcs of the smaller degree)",
            method: "L*L^T masked by L",
            steps: "products",
            bench: &[("count", "total")],
            distributed: false,
            networkx: &[NetworkX {
                function: "triangles",
                args: &[],
                column: "per_vertex",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let g = g.structure()?;
        let order = match args.word("order") {
            "degree" => VertexOrder::Degree,
            "index" => VertexOrder::Index,
            _ => VertexOrder::Auto,
        };
        let total = triangle_count_in(g, order)?;
        let columns = match args.word("count") {
            "total" => vec![],
            _ => vec![Column {
                name: "per_vertex",
                values: Values::Int(
                    triangles_per_vertex(g)?
                        .into_iter()
                        .map(|t| t as i64)
                        .collect(),
                ),
            }],
        };
        Ok(Output {
            facts: vec![Fact::scalar("triangles", Scalar::Int(total))],
            steps: 1,
            columns,
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        crate::memory::kernel_host_bytes(kind, crate::memory::Kernel::Triangles, n, nnz, threads)
    }
}

/// Local clustering coefficients in the [registry](crate::registry): `semigraph lcc`.
pub struct ClusteringCoefficients;

impl crate::registry::Algorithm for ClusteringCoefficients {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "lcc",
            command: "lcc",
            summary: "Local clustering coefficients (LDBC Graphalytics definition: in- and \
                      out-neighbours, arcs counted per direction): a coefficient per vertex",
            params: &[],
            returns: &["coefficients"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(sum over arcs of the smaller degree)",
            method: "S*W_L^T masked by S",
            steps: "products",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "clustering",
                args: &[],
                column: "coefficients",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        _args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let c = clustering(g.structure()?)?;
        Ok(Output {
            facts: vec![
                Fact::scalar("average clustering", Scalar::Real(c.average)),
                Fact::scalar("transitivity", Scalar::Real(c.transitivity)),
            ],
            steps: 1,
            columns: vec![Column {
                name: "coefficients",
                values: Values::Real(c.coefficients),
            }],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        crate::memory::kernel_host_bytes(kind, crate::memory::Kernel::Lcc, n, nnz, threads)
    }
}
