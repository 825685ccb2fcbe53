//! Louvain community detection (Blondel et al. 2008; NetworkX's `louvain_communities`):
//! levels of local moves, each level's communities contracted into the vertices of the next
//! (`P^T A P`). The moves are synchronous, as products: every vertex's gain towards each
//! neighbouring community at once, then a row arg-max.

use semigraph_formats::generate::{Rng, permutation};
use semigraph_semiring::PlusTimes;
use semigraph_semiring::ops::{Gt, Lt, Minus, Times};

use super::modularity::{Gain, Level, Weight};
use crate::backend::{
    Backend, Bound, Combine, Ewise, Mask, MatrixMask, NO_PARENT, Parents, UnaryOp, cloned,
    copy_dense,
};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Counts (plus-times `u32`): 0 is no entry.
type Count = PlusTimes<u32>;

/// The iterations of local moves a level runs at most.
const MOVES: usize = 100;
/// Local moves stop after this many iterations without a better modularity.
const STALLS: usize = 4;

/// The options of [`louvain`], NetworkX's defaults by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LouvainOptions {
    /// The resolution `gamma` of the modularity: below 1 favours larger communities.
    pub resolution: f64,
    /// Draws the first level's community numbers (which decide ties).
    pub seed: u64,
    /// The levels run at most (`usize::MAX`: until the modularity stops rising).
    pub max_levels: usize,
    /// A level whose modularity gain is at most this is the last.
    pub threshold: f64,
}

impl Default for LouvainOptions {
    fn default() -> Self {
        LouvainOptions {
            resolution: 1.0,
            seed: 0,
            max_levels: usize::MAX,
            threshold: 1e-7,
        }
    }
}

/// What [`louvain`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Communities {
    /// Each vertex's community, labelled by its smallest vertex.
    pub labels: Vec<u32>,
    /// The communities.
    pub count: usize,
    /// The partition's modularity (`None` for a graph without edges).
    pub modularity: Option<f64>,
    /// The levels run.
    pub levels: usize,
    /// The iterations of local moves run, over all levels.
    pub iterations: usize,
}

/// Communities of high modularity by the Louvain method: each level moves vertices between
/// communities while the modularity rises, then contracts each community into a vertex
/// (`P^T A P`: the weight inside becomes a self loop) for the next level, until a level gains
/// at most `threshold` or no vertex moves.
///
/// A level's moves are synchronous. Each iteration computes `W = A P` (each vertex's weight
/// to each community, `P` the partition's 0/1 matrix), the gains
/// `W(u, c) - gamma k(u) tot(c) / 2m` (an SDDMM of the degrees `k` and the communities'
/// degrees `tot`) and their row arg-max; a vertex moves where that beats staying, to a
/// community of larger number on even iterations and smaller on odd ones (so that two
/// vertices do not swap back and forth). The best partition a level saw is kept.
///
/// Edges are the arcs either way (a directed graph's weights summed where both arcs exist);
/// weights must be positive.
///
/// # Arguments
/// - `g`: the graph, its weights in plus-times `f64` (a structure's pattern for weights 1).
/// - `opts`: resolution, seed, levels, threshold ([`LouvainOptions`]).
///
/// # Returns
/// The communities, their modularity, the levels and iterations run.
///
/// # Errors
/// `InvalidArgument` for a resolution that is not finite, a weight that is negative, no
/// level;
/// backend errors.
///
/// # Complexity
/// Per iteration a product `A P` (`O(m)` terms, sorted per row), an SDDMM and row reductions
/// over its entries, `O(n)` more; the levels shrink the graph. Reads back two scalars and a
/// count per iteration and the partition once per level.
///
/// # Example
/// ```
/// use semigraph_algos::communities::{louvain, LouvainOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::PlusTimes;
///
/// // Two 4-cliques joined by one edge.
/// let mut e = vec![(3, 4)];
/// for c in [0, 4] {
///     for u in c..c + 4 {
///         e.extend((u + 1..c + 4).map(|v| (u, v)));
///     }
/// }
/// let arcs: Vec<_> = e.iter().flat_map(|&(u, v)| [(u, v, 1.0), (v, u, 1.0)]).collect();
/// let a = arcs_to_csr::<PlusTimes<f64>>(8, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = louvain(&Graph::new(&cpu, &a, GraphOptions::default())?, &LouvainOptions::default())?;
/// assert_eq!(c.labels, vec![0, 0, 0, 0, 4, 4, 4, 4]);
/// assert!((c.modularity.unwrap() - 0.4230769).abs() < 1e-6);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn louvain<B: Backend>(g: &Graph<'_, B, Weight>, opts: &LouvainOptions) -> Result<Communities> {
    detect(g, opts, false)
}

/// Louvain's levels ([`louvain`]); with `refine`, Leiden's: each level's communities split
/// into their connected components, the levels contracting the components and starting from
/// the communities.
pub(super) fn detect<B: Backend>(
    g: &Graph<'_, B, Weight>,
    opts: &LouvainOptions,
    refine: bool,
) -> Result<Communities> {
    let (b, n) = (g.backend(), g.n());
    if opts.max_levels == 0 {
        return Err(Error::InvalidArgument(
            "max_levels must be at least 1".into(),
        ));
    }
    if !opts.resolution.is_finite() {
        return Err(Error::InvalidArgument(format!(
            "resolution {} is not finite",
            opts.resolution
        )));
    }
    if g.csr().vals().iter().any(|&w| w < 0.0) {
        return Err(Error::InvalidArgument(
            "a weight is negative (modularity needs weights >= 0)".into(),
        ));
    }
    let sym;
    let a = match g.reads_directed(None)? {
        false => g.push(),
        true => {
            sym = g.symmetric()?;
            &sym
        }
    };
    let mut level = Level::of(b, a)?;
    let two_m = level.two_m(b)?;
    // Each vertex's vertex of the current level.
    let mut comm: Vec<u32> = (0..n as u32).collect();
    let mut out = Communities {
        labels: Vec::new(),
        count: n,
        modularity: None,
        levels: 0,
        iterations: 0,
    };
    if two_m <= 0.0 {
        out.labels = comm;
        return Ok(out);
    }
    let gamma = opts.resolution;
    let mut start = permutation(n, Rng::new(opts.seed));
    let mut q = level
        .parts(b, &b.dense::<Parents>(n, 1, &start)?, two_m, gamma)?
        .q;
    while out.levels < opts.max_levels {
        let (labels, mut q_level, iterations) = moves(b, &level, &start, two_m, gamma)?;
        out.levels += 1;
        out.iterations += iterations;
        // The groups the next level contracts: the communities, or their components.
        let groups = match refine {
            false => labels.clone(),
            true => {
                let parts = super::modularity::components(b, &level, &labels)?;
                q_level = level
                    .parts(b, &b.dense::<Parents>(level.n, 1, &parts)?, two_m, gamma)?
                    .q;
                parts
            }
        };
        let (groups, count) = numbered(&groups);
        comm.iter_mut().for_each(|c| *c = groups[*c as usize]);
        let gain = q_level - q;
        q = q_level;
        out.modularity = Some(q);
        if count == level.n || gain <= opts.threshold {
            break;
        }
        let p =
            b.index_matrix::<Weight, Parents>(&b.dense::<Parents>(level.n, 1, &groups)?, count)?;
        let pt = b.transpose_matrix(&p)?;
        let full = b.spgemm(
            MatrixMask::All,
            &pt,
            &b.spgemm(MatrixMask::All, &level.full, &p)?,
        )?;
        level = Level::doubled(b, full)?;
        // The next level starts from each group's community (a group of its own in Louvain),
        // numbered by its first group.
        start = (0..count as u32).collect();
        if refine {
            let mut first = vec![NO_PARENT; labels.len()];
            for (v, &c) in labels.iter().enumerate() {
                first[c as usize] = first[c as usize].min(groups[v]);
            }
            for (v, &c) in labels.iter().enumerate() {
                start[groups[v] as usize] = first[c as usize];
            }
        }
    }
    // Each community labelled by its smallest vertex.
    let mut first = vec![NO_PARENT; n];
    for (v, &c) in comm.iter().enumerate() {
        if first[c as usize] == NO_PARENT {
            first[c as usize] = v as u32;
        }
    }
    out.labels = comm.iter().map(|&c| first[c as usize]).collect();
    out.count = first.iter().filter(|&&f| f != NO_PARENT).count();
    Ok(out)
}

/// Labels (each below their number) renumbered `0..count` in the order of the labels, and
/// `count`.
fn numbered(labels: &[u32]) -> (Vec<u32>, usize) {
    let mut number = vec![NO_PARENT; labels.len()];
    labels.iter().for_each(|&l| number[l as usize] = 0);
    let mut count = 0;
    for x in number.iter_mut().filter(|x| **x == 0) {
        *x = count;
        count += 1;
    }
    (
        labels.iter().map(|&l| number[l as usize]).collect(),
        count as usize,
    )
}

/// One level's local moves from the partition `start`: the best partition seen, its
/// modularity and the iterations run.
fn moves<B: Backend>(
    b: &B,
    level: &Level<B>,
    start: &[u32],
    two_m: f64,
    gamma: f64,
) -> Result<(Vec<u32>, f64, usize)> {
    let n = level.n;
    let mut labels = b.dense::<Parents>(n, 1, start)?;
    // k in max-plus (every value an entry) and gamma k / 2m in both.
    let k = b.dense_as::<Weight, Gain>(cloned(b, &level.k)?);
    let mut ks = cloned(b, &level.k)?;
    b.apply_bound::<Weight, Times>(&mut ks, Mask::All, Bound::Second(gamma / two_m))?;
    let ks_gain = b.dense_as::<Weight, Gain>(cloned(b, &ks)?);
    // The best partition seen stays on the backend, read back once at the end.
    let (mut best, mut best_q) = (cloned(b, &labels)?, f64::NEG_INFINITY);
    let (mut stalls, mut idle, mut iterations) = (0, 0, 0);
    for it in 0..MOVES {
        crate::cancel::check()?;
        iterations += 1;
        let parts = level.parts(b, &labels, two_m, gamma)?;
        if parts.q > best_q {
            best_q = parts.q;
            copy_dense(b, &mut best, &labels)?;
            stalls = 0;
        } else {
            stalls += 1;
            if stalls >= STALLS {
                break;
            }
        }
        // The gains of joining each neighbouring community: W - gamma k tot / 2m.
        let tot = b.dense_as::<Gain, Weight>(cloned(b, &parts.tot)?);
        let cost = b.sddmm(&parts.w, &ks, &tot)?;
        let gains = b.ewise_matrix::<Gain, Minus>(
            &b.view::<Weight, Gain>(&parts.w)?,
            &b.view::<Weight, Gain>(&cost)?,
            Combine::Union,
        )?;
        let pick = b.reduce_rows_arg(&gains)?;
        let top = b.reduce_rows(&gains)?;
        // Staying: W(u, own) - gamma k (tot(own) - k) / 2m.
        let mut stay = b.gather(&parts.tot, &labels)?;
        b.ewise_op::<Gain, Minus>(&mut stay, Mask::All, Combine::Intersection, &k)?;
        b.ewise_op::<Gain, Times>(&mut stay, Mask::All, Combine::Intersection, &ks_gain)?;
        let mut own = cloned(b, &parts.own)?;
        b.ewise_op::<Gain, Minus>(&mut own, Mask::All, Combine::Intersection, &stay)?;
        // Better than staying: 1 (0 elsewhere, -inf where no neighbour turned to 0).
        let mut better = top;
        b.ewise_op::<Gain, Gt>(&mut better, Mask::All, Combine::Intersection, &own)?;
        b.apply(&mut better, Mask::All, UnaryOp::AddTo(0.0))?;
        let better = b.dense_as::<Gain, Weight>(better);
        // This iteration's direction: up on even iterations, down on odd ones.
        let mut to = pick;
        b.apply(&mut to, b.skip(&better), UnaryOp::Fill(NO_PARENT))?;
        let mut way = cloned(b, &to)?;
        match it % 2 {
            0 => b.ewise_op::<Parents, Gt>(&mut way, Mask::All, Combine::Intersection, &labels)?,
            _ => b.ewise_op::<Parents, Lt>(&mut way, Mask::All, Combine::Intersection, &labels)?,
        }
        b.apply(&mut way, b.skip(&to), UnaryOp::Fill(0))?;
        let way = b.dense_as::<Parents, Count>(way);
        if b.nvals(&way)? == 0 {
            idle += 1;
            if idle >= 2 {
                break;
            }
            continue;
        }
        idle = 0;
        b.apply(&mut labels, b.keep(&way), UnaryOp::Fill(NO_PARENT))?;
        b.ewise(&mut labels, b.keep(&way), Ewise::Add, &to)?;
    }
    Ok((b.read_dense_owned(best)?, best_q, iterations))
}

/// The arguments of Louvain and Leiden in the registry.
pub(super) const PARAMS: &[crate::registry::Param] = {
    use crate::registry::{Kind, Param};
    &[
        Param::with_default(
            "resolution",
            Kind::Real,
            "1",
            "the modularity's resolution: below 1 favours larger communities",
        ),
        Param::with_default(
            "seed",
            Kind::Count,
            "0",
            "draws the first level's community numbers, which break ties",
        ),
        Param::optional(
            "max_levels",
            Kind::Count,
            "the levels run at most (default: until the modularity stops rising)",
        ),
        Param::with_default(
            "threshold",
            Kind::Real,
            "1e-7",
            "a level gaining at most this much modularity is the last",
        ),
        Param::with_default(
            "weighted",
            Kind::Flag,
            "false",
            "read the weights (positive) instead of weight 1 per edge",
        ),
    ]
};

/// Runs `detect` (Louvain or Leiden) with the registry's [`PARAMS`] on the structure (weights
/// 1) or, with `weighted`, the weights.
pub(super) fn run_with<'b, B: crate::backend::Frontier + 'b>(
    g: &impl crate::registry::Views<'b, B>,
    args: &crate::registry::Args,
    detect: fn(&Graph<'_, B, Weight>, &LouvainOptions) -> Result<Communities>,
) -> Result<crate::registry::Output> {
    use crate::registry::{Column, Fact, Output, Scalar, Values};
    let opts = LouvainOptions {
        resolution: args.real("resolution").unwrap_or(1.0),
        seed: args.count("seed").unwrap_or(0) as u64,
        max_levels: args.count("max_levels").unwrap_or(usize::MAX),
        threshold: args.real("threshold").unwrap_or(1e-7),
    };
    let c = match args.flag("weighted") == Some(true) {
        true => detect(&g.distances()?.view::<Weight>()?, &opts)?,
        false => detect(&g.structure()?.pattern::<Weight>()?, &opts)?,
    };
    Ok(Output {
        facts: vec![
            Fact::scalar("modularity", Scalar::MaybeReal(c.modularity)),
            Fact {
                name: "communities",
                text: format!(
                    "{} ({} levels, {} iterations)",
                    c.count, c.levels, c.iterations
                ),
                scalars: vec![
                    ("communities", Scalar::Int(c.count as u64)),
                    ("levels", Scalar::Int(c.levels as u64)),
                    ("iterations", Scalar::Int(c.iterations as u64)),
                ],
            },
        ],
        steps: c.iterations,
        columns: vec![Column {
            name: "labels",
            values: Values::Class(c.labels),
        }],
    })
}

/// Louvain in the [registry](crate::registry): `semigraph louvain`.
pub struct LouvainAlgorithm;

impl crate::registry::Algorithm for LouvainAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "louvain",
            command: "louvain",
            summary: "Louvain communities (levels of synchronous local moves and contraction): \
                      a community per vertex, labelled by its smallest vertex, and the \
                      partition's modularity",
            params: PARAMS,
            returns: &["labels"],
            reads: Reads::StructureOrDistances("weighted"),
            accepts: Accepts::Undirected,
            complexity: "O(m log d) per iteration (a product A P), levels shrinking the graph",
            method: "SpGEMM A P, SDDMM of the gains and a row arg-max per iteration",
            steps: "iterations",
            bench: &[],
            distributed: false,
            // A seed is declined: NetworkX's random order is its own.
            networkx: &[NetworkX {
                function: "louvain_communities",
                args: &[
                    ("weight!=None", "weighted"),
                    ("resolution", "resolution"),
                    ("threshold", "threshold"),
                    ("max_level", "max_levels"),
                ],
                column: "labels",
                shape: Shape::Groups,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        run_with(g, args, louvain)
    }
}
