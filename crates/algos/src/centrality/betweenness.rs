//! Betweenness centrality by Brandes' algorithm as linear algebra (as LAGraph's
//! `LAGr_Betweenness`): a batch of breadth-first searches counting shortest paths in
//! plus-times `f64`, then the dependencies swept back level by level.

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Div, Eq, SemiringAdd};

use super::scaling::{Ends, edge_scale, edge_values, vertex_scale};
use super::{Pt, Sweep, batches, sample, sweep};
use crate::backend::{Accum, Backend, Bound, Combine, Ewise, Mask, UnaryOp, copy_dense};
use crate::error::Result;
use crate::graph::Graph;

/// How [`betweenness`] runs.
#[derive(Clone, Debug, PartialEq)]
pub struct BetweennessOptions {
    /// The sources whose shortest paths are counted (`None`: every vertex, the exact
    /// centrality). With `k` of `n` sources the sums are scaled by `n / k` (an estimate).
    pub sources: Option<Vec<usize>>,
    /// Divide by `(n - 1)(n - 2)`, the most pairs a vertex can lie between (NetworkX's
    /// `normalized`); else an undirected graph's sums are halved (each pair counts once).
    pub normalized: bool,
    /// Whether the graph is directed (ordered pairs count) or undirected (pairs count once);
    /// `None`: undirected exactly when every arc has its reverse.
    pub directed: Option<bool>,
    /// Sources searched at once: each batch holds eight `n x batch` arrays of `f64`
    /// (`None`: as many as 512 MiB hold, at most 256).
    pub batch: Option<usize>,
    /// Count the paths' ends too (NetworkX's `endpoints`): each vertex adds the sources
    /// other than itself that reach it and, as a source, the vertices it reaches; normalized
    /// by `n (n - 1)`. Vertex betweenness only.
    pub endpoints: bool,
}

impl Default for BetweennessOptions {
    /// Every source, normalized, batches chosen by size.
    fn default() -> Self {
        BetweennessOptions {
            sources: None,
            normalized: true,
            directed: None,
            batch: None,
            endpoints: false,
        }
    }
}

/// Betweenness centrality: for each vertex `v`, the sum over pairs `s != v != t` of the
/// fraction of shortest `s -> t` paths (fewest arcs) through `v` (Brandes 2001; NetworkX's
/// `betweenness_centrality` with `weight=None`, `endpoints=False`).
///
/// Per batch of `k` sources, in plus-times `f64` on `n x k` arrays: the forward sweep counts
/// paths level by level, `F<!S> = A^T F`, `S += F` (`S(v, j)`: the shortest paths from source
/// `j` to `v`), recording each vertex's level; the backward sweep, from the deepest level
/// `d` up to level 2, forms `W<level d> = (1 + D) / S`, `T<level d-1> = A W` and adds
/// `T .* S` to the dependencies `D`; the centrality is the sum of `D`'s columns. Arc weights
/// and parallel arcs are ignored.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
/// - `opts`: the sources (all by default), normalization, whether the graph is directed
///   (unnormalized sums of an undirected graph count each pair once), batch size.
///
/// # Returns
/// One value per vertex.
///
/// # Errors
/// `InvalidArgument` for a source out of range or a batch of 0; backend errors (memory for
/// the batch's arrays).
///
/// # Complexity
/// `O(k (depth + 1) (n + m))` work for `k` sources (`k = n`: exact); per batch, two
/// products and a few element-wise passes per level, one count read back per level.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{betweenness, BetweennessOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2, both directions: vertex 1 lies on the one shortest 0 - 2 path.
/// let arcs = [(0, 1, true), (1, 0, true), (1, 2, true), (2, 1, true)];
/// let a = arcs_to_csr::<OrAnd>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let opts = BetweennessOptions { normalized: false, ..Default::default() };
/// assert_eq!(betweenness(&g, &opts)?, vec![0.0, 1.0, 0.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn betweenness<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    opts: &BetweennessOptions,
) -> Result<Vec<f64>> {
    let n = g.n();
    let b = g.backend();
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let mut sums = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let mut ends = Ends::new(opts.endpoints, n);
    let sources = batches(n, opts.sources.as_deref(), opts.batch, |chunk| {
        let mut s = sweep(b, &at, n, chunk)?;
        if ends.wanted() {
            // The reached positions: the entries of `level`.
            ends.add(chunk, &b.read_dense(&s.level)?);
        }
        let delta = dependencies(b, pt.push(), &mut s, None, false)?;
        super::add_row_sums(b, &mut sums, &delta, chunk.len())
    })?;
    let mut bc = b.read_dense_owned(sums)?;
    ends.finish(&mut bc);
    let scale = vertex_scale(n, sources, opts, g.reads_directed(opts.directed)?);
    if scale != 1.0 {
        bc.iter_mut().for_each(|x| *x *= scale);
    }
    Ok(bc)
}

/// The dependencies `D(v, j)` of a batch's sources (`n x k`, source `j` in column `j`):
/// Brandes' backward sweep over `A` (`a`) from the forward [`sweep`]'s path counts and levels.
/// With `edges`, each arc's share is added there too: per level, `E += A .* (S_{d-1} W^T)`
/// (a sampled product, [`Products::sddmm`](crate::backend::Products::sddmm), of the path
/// counts one level up and the level's `(1 + D) / S`), `None` until some arc has a share.
///
/// With `dag`, `a` is the least-weight paths' DAG and the levels are the most arcs
/// ([`Paths::Dag`](super::Paths)): a vertex's successors lie on any deeper level, so each
/// level's `W` reaches every vertex (no mask), and the sources' own dependencies are left
/// in `D` (they count for no vertex: the caller drops them).
pub(super) fn dependencies<B: Backend>(
    b: &B,
    a: &B::Matrix<Pt>,
    s: &mut Sweep<B>,
    mut edges: Option<&mut Option<B::Matrix<Pt>>>,
    dag: bool,
) -> Result<B::Dense<Pt>> {
    let (n, k) = (s.n, s.k);
    let mut delta = b.dense_filled::<Pt>(n, k, 0.0)?;
    // `here`: an entry at the vertices of level d; `above`: of level d - 1 (two arrays for
    // the whole sweep, their roles swapped per level).
    let mut here = b.dense_filled::<Pt>(n, k, 0.0)?;
    let mut above = b.dense_filled::<Pt>(n, k, 0.0)?;
    at_level(b, &mut here, &s.level, s.depth)?;
    let [w, t] = &mut s.spare;
    // The sources' own dependencies (level 0) count for no vertex, but their arcs' shares do.
    let last = if edges.is_some() || dag { 1 } else { 2 };
    for d in (last..=s.depth).rev() {
        if !dag {
            at_level(b, &mut above, &s.level, d - 1)?;
        }
        // W<here> = (1 + D) / S.
        b.apply(w, Mask::All, UnaryOp::Fill(0.0))?;
        b.ewise(w, b.keep(&here), Ewise::Add, &delta)?;
        b.apply(w, b.keep(&here), UnaryOp::AddTo(1.0))?;
        b.ewise_op::<Pt, Div>(w, b.keep(&here), Combine::Intersection, &s.paths)?;
        if let Some(e) = edges.as_deref_mut() {
            // T<above> = S; E += A .* (T W^T): arc (v, w)'s share sum_j S(v, j) W(w, j).
            let share = if dag {
                b.sddmm(a, &s.paths, w)?
            } else {
                b.apply(t, Mask::All, UnaryOp::Fill(0.0))?;
                b.ewise(t, b.keep(&above), Ewise::Add, &s.paths)?;
                b.sddmm(a, t, w)?
            };
            *e = Some(match e.take() {
                None => share,
                Some(sum) => b.ewise_matrix::<Pt, SemiringAdd<Pt>>(&sum, &share, Combine::Union)?,
            });
        }
        // T<above> = A W; D += T .* S.
        b.apply(t, Mask::All, UnaryOp::Fill(0.0))?;
        let mask = if dag { Mask::All } else { b.keep(&above) };
        b.mxm(t, mask, Accum::Replace, a, w)?;
        b.ewise(t, Mask::All, Ewise::Mul, &s.paths)?;
        b.ewise(&mut delta, Mask::All, Ewise::Add, t)?;
        if dag {
            at_level(b, &mut here, &s.level, d - 1)?;
        } else {
            std::mem::swap(&mut here, &mut above);
        }
    }
    Ok(delta)
}

/// Edge betweenness: each arc's (or undirected edge's) values, in the order of `edges`.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeBetweenness {
    /// The arcs `(u, v)` of a directed graph, in row order; of an undirected graph each edge
    /// once, `u <= v`.
    pub edges: Vec<(u32, u32)>,
    /// The centrality of each.
    pub values: Vec<f64>,
}

/// Edge betweenness centrality: for each arc (each edge of an undirected graph), the sum over
/// pairs `s != t` of the fraction of shortest `s -> t` paths (fewest arcs) through it (Brandes
/// 2008; NetworkX's `edge_betweenness_centrality` with `weight=None`).
///
/// The [`betweenness`] sweep, and per level of the backward sweep one sampled product
/// `E += A .* (S_{d-1} W^T)`: arc `(v, w)` from level `d - 1` to `d` carries
/// `sum_j S(v, j) (1 + D(w, j)) / S(w, j)` of the batch's sources. An undirected edge sums
/// its two arcs. Normalized: divided by `n (n - 1)`; else an undirected graph's sums are
/// halved; `k` of `n` sources scale by `n / k`. Self loops are on no shortest path (0).
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
/// - `opts`: as [`betweenness`]'s.
///
/// # Returns
/// The arcs (directed) or edges (undirected) and their centrality.
///
/// # Errors
/// As [`betweenness`]'s.
///
/// # Complexity
/// `O(k (depth + 1) (n + m))` for `k` sources, as [`betweenness`], the sampled product
/// adding `O(m k)` per level.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{edge_betweenness, BetweennessOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2: each edge lies on the paths of two of the three pairs.
/// let arcs = [(0, 1, true), (1, 0, true), (1, 2, true), (2, 1, true)];
/// let a = arcs_to_csr::<OrAnd>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let opts = BetweennessOptions { normalized: false, ..Default::default() };
/// let e = edge_betweenness(&g, &opts)?;
/// assert_eq!(e.edges, vec![(0, 1), (1, 2)]);
/// assert_eq!(e.values, vec![2.0, 2.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn edge_betweenness<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    opts: &BetweennessOptions,
) -> Result<EdgeBetweenness> {
    let n = g.n();
    let b = g.backend();
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let mut sums = None;
    let sources = batches(n, opts.sources.as_deref(), opts.batch, |chunk| {
        let mut s = sweep(b, &at, n, chunk)?;
        dependencies(b, pt.push(), &mut s, Some(&mut sums), false)?;
        Ok(())
    })?;
    let directed = g.reads_directed(opts.directed)?;
    let scale = edge_scale(n, sources, opts, directed);
    let shares = match sums {
        Some(e) => Some(b.read_matrix(&e)?),
        None => None,
    };
    let share = |u: u32, v: u32| {
        shares
            .as_ref()
            .and_then(|e| e.get(u as usize, v as usize))
            .unwrap_or(0.0)
    };
    Ok(edge_values(g.csr(), directed, scale, share))
}

/// `m` with an entry (1) where `level` holds `d + 1`: the vertices at level `d`.
fn at_level<B: Backend>(b: &B, m: &mut B::Dense<Pt>, level: &B::Dense<Pt>, d: usize) -> Result<()> {
    copy_dense(b, m, level)?;
    b.apply_bound::<Pt, Eq>(m, Mask::All, Bound::Second(d as f64 + 1.0))
}

/// The options of a registry call of either betweenness on `n` vertices, the number of
/// sources and the fact naming them.
fn registry_options(
    n: usize,
    args: &crate::registry::Args,
) -> (BetweennessOptions, usize, crate::registry::Fact) {
    use crate::registry::{Fact, Scalar};
    let sources = sample(n, args);
    let k = sources.as_ref().map_or(n, Vec::len);
    let opts = BetweennessOptions {
        sources,
        normalized: args.flag("normalized").unwrap_or(true),
        directed: args.flag("directed"),
        batch: args.count("batch"),
        endpoints: args.flag("endpoints").unwrap_or(false),
    };
    let fact = Fact {
        name: "sources",
        text: format!("{k} of {n}"),
        scalars: vec![("sources", Scalar::Int(k as u64))],
    };
    (opts, k, fact)
}

/// Betweenness centrality in the [registry](crate::registry): `semigraph betweenness`,
/// `semigraph.betweenness`, NetworkX's `betweenness_centrality`.
pub struct Betweenness;

impl crate::registry::Algorithm for Betweenness {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "betweenness",
            command: "bc",
            summary: "Betweenness centrality (Brandes; fewest arcs, or least weight with \
                      weighted), one value per vertex: the fraction of shortest paths between \
                      other vertices through it",
            params: &[
                Param::with_default(
                    "normalized",
                    Kind::Flag,
                    "true",
                    "divide by (n - 1)(n - 2); else an undirected graph counts each pair once",
                ),
                Param::optional(
                    "directed",
                    Kind::Flag,
                    "true: ordered pairs count; false: each pair once, as an undirected graph's \
                     (default: undirected exactly when every arc has its reverse)",
                ),
                Param::optional(
                    "sources",
                    Kind::Count,
                    "count the paths from this many sources drawn at random (--source first if \
                     given), scaled by n / sources: an estimate (default: every vertex, exact)",
                ),
                Param::with_default("seed", Kind::Count, "0", "the seed of the sources drawn"),
                Param::optional(
                    "source",
                    Kind::Vertex,
                    "the first of the sources drawn (with --sources)",
                ),
                Param::optional(
                    "batch",
                    Kind::Count,
                    "sources searched at once (default: as many as 512 MiB of arrays hold, at \
                     most 256; weighted: as many copies of the arcs as 4 M entries hold)",
                ),
                Param::with_default(
                    "weighted",
                    Kind::Flag,
                    "false",
                    "least-weight paths, the weights as lengths (none negative, no cycle of \
                     zero weight); else the fewest arcs",
                ),
                Param::with_default(
                    "endpoints",
                    Kind::Flag,
                    "false",
                    "count the paths' ends too (normalized by n (n - 1))",
                ),
            ],
            returns: &["centrality"],
            reads: Reads::StructureOrDistances("weighted"),
            accepts: Accepts::Any,
            complexity: "O(k (depth + 1) (n + m)) for k sources (n: exact; weighted: depth \
                         the most arcs on a least-weight path, plus the relaxation steps)",
            method: "Brandes: SpMM in plus-times f64, forward and back per level (weighted: \
                     over the least-weight paths' DAG of k copies of the graph)",
            steps: "sources",
            bench: &[("sources", "4")],
            distributed: false,
            networkx: &[NetworkX {
                function: "betweenness_centrality",
                args: &[
                    ("normalized", "normalized"),
                    ("is_directed()", "directed"),
                    ("weight!=None", "weighted"),
                    ("endpoints", "endpoints"),
                    // Read only with `k`, which is declined.
                    ("seed", ""),
                ],
                column: "centrality",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Values};
        let (opts, k, fact) = registry_options(g.n(), args);
        let bc = match args.flag("weighted") {
            Some(true) => super::weighted_betweenness(g.distances()?, &opts)?,
            _ => betweenness(g.structure()?, &opts)?,
        };
        Ok(crate::registry::Output {
            facts: vec![fact],
            steps: k,
            columns: vec![Column {
                name: "centrality",
                values: Values::Real(bc),
            }],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, _: usize) -> u64 {
        // The sources and the result; on the CPU, a batch's arrays and the pattern's values.
        let arrays = match kind {
            crate::backend::BackendKind::Cpu => (64 * n * super::default_batch(n) + 8 * nnz) as u64,
            crate::backend::BackendKind::Gpu => 0,
        };
        // Weighted: the copies of the arcs made on the host.
        arrays + 16 * n as u64 + super::COPIES_HOST_BYTES + (1 << 20)
    }
}

/// Edge betweenness centrality in the [registry](crate::registry): `semigraph edge-bc`,
/// `semigraph.edge_betweenness`, NetworkX's `edge_betweenness_centrality`.
pub struct EdgeBetweennessAlgorithm;

impl crate::registry::Algorithm for EdgeBetweennessAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Info, NetworkX, Shape};
        Info {
            name: "edge_betweenness",
            command: "edge-bc",
            summary: "Edge betweenness centrality (Brandes; fewest arcs, or least weight with \
                      weighted), one value per arc (per edge of an undirected graph): the \
                      fraction of shortest paths through it",
            returns: &["edges", "centrality"],
            params: &[
                crate::registry::Param::with_default(
                    "normalized",
                    crate::registry::Kind::Flag,
                    "true",
                    "divide by n (n - 1); else an undirected graph counts each pair once",
                ),
                Betweenness::INFO.params[1],
                Betweenness::INFO.params[2],
                Betweenness::INFO.params[3],
                Betweenness::INFO.params[4],
                Betweenness::INFO.params[5],
                Betweenness::INFO.params[6],
            ],
            complexity: "O(k (depth + 1) (n + m)) for k sources (n: exact)",
            method: "Brandes: SpMM in plus-times f64, a sampled product per level",
            networkx: &[NetworkX {
                function: "edge_betweenness_centrality",
                args: &[
                    ("normalized", "normalized"),
                    ("is_directed()", "directed"),
                    ("weight!=None", "weighted"),
                    ("seed", ""),
                ],
                column: "centrality",
                shape: Shape::ByEdge("edges"),
                simple: false,
            }],
            ..Betweenness::INFO
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Values};
        let (opts, k, fact) = registry_options(g.n(), args);
        let e = match args.flag("weighted") {
            Some(true) => super::weighted_edge_betweenness(g.distances()?, &opts)?,
            _ => edge_betweenness(g.structure()?, &opts)?,
        };
        Ok(crate::registry::Output {
            facts: vec![fact],
            steps: k,
            columns: vec![
                Column {
                    name: "edges",
                    values: Values::Arcs(e.edges),
                },
                Column {
                    name: "centrality",
                    values: Values::Real(e.values),
                },
            ],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        // The vertex form's, and the arcs with their shares read back (three copies).
        Betweenness::host_bytes(kind, n, nnz, threads) + 48 * nnz as u64
    }
}
