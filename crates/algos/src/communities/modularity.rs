//! Modularity (Newman's, with a resolution; NetworkX's `community.modularity` for undirected
//! graphs) of a partition, as products: `W = A P` (`P` the partition's 0/1 matrix) holds each
//! vertex's weight to each community, the weight inside the communities is `W`'s entries on
//! `P`'s pattern, and the communities' degrees are a scatter of the vertices'.

use semigraph_semiring::ops::{Diag, Eq, First, Offdiag, Plus};
use semigraph_semiring::{MaxPlus, PlusTimes};

use crate::backend::{Backend, Combine, Mask, MatrixMask, Parents, copy_dense};
use crate::components::LabelSemiring;
use crate::error::Result;
use crate::graph::Graph;

/// Weights, degrees and community sums (plus-times `f64`).
pub(super) type Weight = PlusTimes<f64>;
/// The same numbers where 0 is a value (max-plus `f64`, whose zero is `-inf`): gains, which
/// may be 0 or negative.
pub(super) type Gain = MaxPlus<f64>;

/// A graph as modularity reads it: its arcs with each self loop's weight doubled (a loop adds
/// twice to its vertex's degree, as NetworkX's `G.degree` counts it), the same without the
/// loops, and the degrees. Louvain contracts it level by level: `P^T A P`, the weight inside a
/// community (each edge's two arcs) becoming the loop of its vertex, doubled as it should be.
pub(super) struct Level<B: Backend> {
    /// The arcs, self loops doubled.
    pub full: B::Matrix<Weight>,
    /// The arcs between distinct vertices.
    pub a: B::Matrix<Weight>,
    /// The degrees: `full`'s row sums.
    pub k: B::Dense<Weight>,
    /// `full`'s diagonal, summed.
    pub loops: f64,
    /// The vertices.
    pub n: usize,
}

/// One partition's numbers on a [`Level`]: its matrix `P`, `W = A P`, each vertex's weight
/// to its own community and each community's degree.
pub(super) struct Parts<B: Backend> {
    /// `W(u, c)`: the weight of `u`'s arcs to community `c`.
    pub w: B::Matrix<Weight>,
    /// `W(u, label(u))` (0 where none), in max-plus.
    pub own: B::Dense<Gain>,
    /// Each community's degree (indexed by label), in max-plus.
    pub tot: B::Dense<Gain>,
    /// The partition's modularity.
    pub q: f64,
}

impl<B: Backend> Level<B> {
    /// The level of `a`, each self loop stored once (as an undirected graph stores it).
    pub fn of(b: &B, a: &B::Matrix<Weight>) -> Result<Level<B>> {
        let loops = b.select::<Weight, Diag>(a, 0.0)?;
        Level::doubled(
            b,
            b.ewise_matrix::<Weight, Plus>(a, &loops, Combine::Union)?,
        )
    }

    /// The level of `full`, its self loops already doubled (a contracted level).
    pub fn doubled(b: &B, full: B::Matrix<Weight>) -> Result<Level<B>> {
        Ok(Level {
            n: b.matrix_info(&full).nrows,
            loops: b.reduce(&b.diagonal(&full)?, Mask::All)?,
            k: b.reduce_rows(&full)?,
            a: b.select::<Weight, Offdiag>(&full, 0.0)?,
            full,
        })
    }

    /// The total degree, `2 m`.
    pub fn two_m(&self, b: &B) -> Result<f64> {
        b.reduce(&self.k, Mask::All)
    }

    /// The partition `labels` (each below `self.n`): its [`Parts`], the modularity for total
    /// degree `two_m` and `resolution`.
    pub fn parts(
        &self,
        b: &B,
        labels: &B::Dense<Parents>,
        two_m: f64,
        resolution: f64,
    ) -> Result<Parts<B>> {
        let p = b.index_matrix::<Weight, Parents>(labels, self.n)?;
        let w = b.spgemm(MatrixMask::All, &self.a, &p)?;
        let own =
            b.reduce_rows(&b.ewise_matrix::<Weight, First>(&w, &p, Combine::Intersection)?)?;
        let own = b.dense_as::<Weight, Gain>(own);
        let mut tot = b.dense_filled::<Weight>(self.n, 1, 0.0)?;
        b.scatter_op::<Weight, Plus, Parents>(&mut tot, labels, &self.k)?;
        let tot = b.dense_as::<Weight, Gain>(tot);
        // Q = (sum own + loops) / 2m - resolution sum tot^2 / (2m)^2.
        let inside = sum(b, &own)? + self.loops;
        let mut sq = b.dense_filled::<Gain>(self.n, 1, 0.0)?;
        copy_dense(b, &mut sq, &tot)?;
        b.ewise_op::<Gain, semigraph_semiring::ops::Times>(
            &mut sq,
            Mask::All,
            Combine::Intersection,
            &tot,
        )?;
        let q = inside / two_m - resolution * sum(b, &sq)? / (two_m * two_m);
        Ok(Parts { w, own, tot, q })
    }
}

/// The sum of a max-plus array's values (every one an entry), in plus-times.
fn sum<B: Backend>(b: &B, x: &B::Dense<Gain>) -> Result<f64> {
    let mut s = b.dense_filled::<Gain>(b.dense_shape(x).0, 1, 0.0)?;
    copy_dense(b, &mut s, x)?;
    let s = b.dense_as::<Gain, Weight>(s);
    b.reduce(&s, Mask::All)
}

/// The modularity of a partition of an undirected graph (NetworkX's
/// `community.modularity(G, communities, weight, resolution)`):
/// `Q = sum_c L_c / m - resolution (d_c / 2m)^2`, `L_c` the weight of the edges inside
/// community `c` (a self loop once), `d_c` the sum of its vertices' degrees (a self loop
/// counted twice), `m` the total weight. Each edge is stored as its two arcs (a self loop as
/// one), `g`'s values the weights.
///
/// # Arguments
/// - `g`: the graph, its weights in plus-times `f64` (a structure's pattern for weights 1).
/// - `labels`: each vertex's community (any `u32` below `n`).
/// - `resolution`: `resolution < 1` favours larger communities.
///
/// # Returns
/// The modularity; `NaN` for a graph of no edge (NetworkX divides by zero there).
///
/// # Errors
/// `InvalidArgument` where `labels` has not one label below `n` per vertex; backend errors.
///
/// # Complexity
/// One product `A P` (`O(m)` terms) and `O(n)` more; reads back two scalars.
///
/// # Example
/// ```
/// use semigraph_algos::communities::modularity;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::PlusTimes;
///
/// // Two triangles joined by one edge, each its own community: 6/7 - 2 (7/14)^2 = 5/14.
/// let e = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)];
/// let arcs: Vec<_> = e.iter().flat_map(|&(u, v)| [(u, v, 1.0), (v, u, 1.0)]).collect();
/// let a = arcs_to_csr::<PlusTimes<f64>>(6, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let q = modularity(&g, &[0, 0, 0, 1, 1, 1], 1.0)?;
/// assert!((q - 5.0 / 14.0).abs() < 1e-12);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn modularity<B: Backend>(
    g: &Graph<'_, B, Weight>,
    labels: &[u32],
    resolution: f64,
) -> Result<f64> {
    let (b, n) = (g.backend(), g.n());
    super::check_labels(labels, n, "labels")?;
    let level = Level::of(b, g.push())?;
    let two_m = level.two_m(b)?;
    let labels = b.dense::<Parents>(n, 1, labels)?;
    Ok(level.parts(b, &labels, two_m, resolution)?.q)
}

/// Modularity in the [registry](crate::registry): `semigraph modularity FILE --partition P`.
pub struct Modularity;

impl crate::registry::Algorithm for Modularity {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "modularity",
            command: "modularity",
            summary: "Modularity of a partition (Newman's, with a resolution; NetworkX's \
                      definition): the weight inside the communities against its expectation",
            params: &[
                Param::required(
                    "partition",
                    Kind::Labels,
                    "each vertex's community: a file of `id community` lines",
                ),
                Param::with_default(
                    "resolution",
                    Kind::Real,
                    "1",
                    "below 1 favours larger communities",
                ),
                Param::with_default(
                    "weighted",
                    Kind::Flag,
                    "false",
                    "read the weights instead of weight 1 per edge",
                ),
            ],
            returns: &["modularity"],
            reads: Reads::StructureOrDistances("weighted"),
            accepts: Accepts::Undirected,
            complexity: "O(m log d + n) (a product A P)",
            method: "SpGEMM A P, reductions",
            steps: "products",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "modularity",
                args: &[
                    ("communities", "partition"),
                    ("weight!=None", "weighted"),
                    ("resolution", "resolution"),
                ],
                column: "modularity",
                shape: Shape::Scalar,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Fact, Output, Scalar};
        let labels = args.labels("partition").unwrap_or_default();
        let resolution = args.real("resolution").unwrap_or(1.0);
        let q = match args.flag("weighted") == Some(true) {
            true => modularity(&g.distances()?.view::<Weight>()?, labels, resolution)?,
            false => modularity(&g.structure()?.pattern::<Weight>()?, labels, resolution)?,
        };
        Ok(Output {
            facts: vec![Fact::scalar(
                "modularity",
                Scalar::MaybeReal(Some(q).filter(|q| !q.is_nan())),
            )],
            steps: 1,
            columns: vec![],
        })
    }
}

/// The connected components of each community of `labels` on `level`: a label per vertex
/// (the smallest vertex of its component within its community).
pub(super) fn components<B: Backend>(b: &B, level: &Level<B>, labels: &[u32]) -> Result<Vec<u32>> {
    let n = level.n;
    let x: Vec<f64> = labels.iter().map(|&l| f64::from(l) + 1.0).collect();
    let x = b.dense::<Weight>(n, 1, &x)?;
    let ones = b.dense_filled::<Weight>(n, 1, 1.0)?;
    let pattern = b.pattern::<Weight, Weight>(&level.a)?;
    // 1 where both ends lie in one community (the ends' numbers equal), no entry elsewhere.
    let inside = b.ewise_matrix::<Weight, Eq>(
        &b.sddmm(&pattern, &x, &ones)?,
        &b.sddmm(&pattern, &ones, &x)?,
        Combine::Intersection,
    )?;
    let inside = b.pattern::<Weight, LabelSemiring>(&inside)?;
    let (f, _) = crate::components::fastsv(b, &inside, None)?;
    b.read_dense_owned(f)
}
