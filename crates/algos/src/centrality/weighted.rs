//! Betweenness over least-weight paths (NetworkX's `weight=`): Brandes' two sweeps over the
//! DAG of the arcs that lie on a least-weight path from a source, `k` sources at once on `k`
//! disjoint copies of the graph.
//!
//! Per batch, on the `n k` vertices of the copies (vertex `v` of copy `j` at `v k + j`, so
//! the per-source blocks of the unweighted sweep are single columns here):
//! 1. the distances `d` from the sources in min-plus `f64`: delta-stepping's buckets relaxed
//!    to their fixpoint on the backend (Bellman-Ford's steps past a bound of work);
//! 2. the arcs on a least-weight path, `T = select(A + (d (x) 0^T) == 0 (x) d^T)` over `A`'s
//!    entries: two sampled products in min-plus give `d(u)` and `d(v)` at each arc, `A`'s
//!    weight is added to the first and the two compared entry by entry (the same sum NetworkX
//!    compares, `dist + weight == seen`);
//! 3. the path counts over `T` (every path of the DAG, by levels of most arcs) and the
//!    dependencies swept back level by level, as the unweighted sweep.

use std::collections::BTreeMap;

use semigraph_formats::Csr;
use semigraph_semiring::MinPlus;
use semigraph_semiring::ops::{Eq, Offdiag, Plus, ValueEq};

use super::betweenness::dependencies;
use super::scaling::{Ends, edge_scale, edge_values, vertex_scale};
use super::{BetweennessOptions, EdgeBetweenness, Paths, Pt, batches, sweep_from};
use crate::backend::{Combine, Frontier, RelaxStep, fixpoint_by_steps, waiting_again};
use crate::error::{Error, Result, try_vec};
use crate::graph::Graph;
use crate::sssp::{Width, check_no_negative, delta_of, weight_facts};

/// The semiring of the distances.
type Mp = MinPlus<f64>;

/// Improvements per vertex of the copies before the buckets give way to Bellman-Ford's steps.
const RELAXATIONS_PER_VERTEX: usize = 32;

/// What a batch of sources on the copies gives ([`Copies::batch`]), on the host.
struct Batch {
    /// The dependencies of the copies' vertices.
    delta: Vec<f64>,
    /// Each copied arc's share (edge betweenness).
    shares: Option<Csr<Pt>>,
    /// The reached positions (the paths' ends counted).
    reached: Option<Vec<f64>>,
}

/// `k` disjoint copies of a graph's arcs on the backend, and what every batch reuses.
pub(super) struct Copies<'b, B: Frontier> {
    b: &'b B,
    n: usize,
    /// The copies (sources per batch).
    pub(super) k: usize,
    /// The copies' arcs (self loops left out: on no least-weight path).
    arcs: B::Matrix<Mp>,
    /// `n k x 1` zeros (min-plus's one, not its zero).
    zeros: B::Dense<Mp>,
    /// The buckets' width (delta-stepping's, from the weights).
    delta: f64,
}

impl<'b, B: Frontier> Copies<'b, B> {
    /// `k` copies of `a`'s arcs, after checking the weights: none negative, and with `paths`
    /// (least-weight paths to be counted) no cycle of zero-weight arcs.
    /// One copy is the graph's own matrix without its self loops, made on the backend.
    fn new(g: &Graph<'b, B, Mp>, k: usize, paths: bool) -> Result<Self> {
        let (b, a) = (g.backend(), g.csr());
        check_weights(a, paths)?;
        let n = a.nrows();
        let delta = delta_of::<f64>(&weight_facts(a), n, a.nnz()).max(f64::MIN_POSITIVE);
        if k == 1 {
            return Ok(Copies {
                b,
                n,
                k,
                arcs: b.select::<Mp, Offdiag>(g.push(), 0.0)?,
                zeros: b.dense_filled::<Mp>(n, 1, 0.0)?,
                delta,
            });
        }
        let m = a.iter().filter(|&(u, v, _)| u != v).count();
        let mut src = try_vec(m * k, 0u32, "the copies of the arcs")?;
        let mut dst = try_vec(m * k, 0u32, "the copies of the arcs")?;
        let mut val = try_vec(m * k, 0.0f64, "the copies of the arcs")?;
        let mut i = 0;
        for u in 0..n {
            let (cols, vals) = a.row(u);
            for j in 0..k {
                for (&v, &w) in cols.iter().zip(vals) {
                    if v as usize != u {
                        (src[i], dst[i], val[i]) = ((u * k + j) as u32, v * k as u32 + j as u32, w);
                        i += 1;
                    }
                }
            }
        }
        let nk = n * k;
        let arcs = b.matrix_from_arcs::<Mp>((nk, nk), &src, &dst, Some(&val))?;
        let zeros = b.dense_filled::<Mp>(nk, 1, 0.0)?;
        Ok(Copies {
            b,
            n,
            k,
            arcs,
            zeros,
            delta,
        })
    }

    /// The copies' vertex of each source of a batch (at most `k`; source `j` in copy `j`).
    pub(super) fn starts(&self, chunk: &[usize]) -> Vec<usize> {
        let k = self.k;
        chunk.iter().enumerate().map(|(j, &s)| s * k + j).collect()
    }

    /// The distances from a batch of sources ([`Copies::starts`]) to the `n k` vertices of
    /// the copies (infinity where not reached), on the backend.
    pub(super) fn distances(&self, chunk: &[usize]) -> Result<B::Dense<Mp>> {
        let (b, nk) = (self.b, self.n * self.k);
        let starts = self.starts(chunk);
        let mut start = try_vec(nk, f64::INFINITY, "the distances")?;
        for &p in &starts {
            start[p] = 0.0;
        }
        let mut d = b.dense::<Mp>(nk, 1, &start)?;
        let mut sorted: Vec<u32> = starts.iter().map(|&p| p as u32).collect();
        sorted.sort_unstable();
        // Delta-stepping's buckets to their fixpoint on the backend; past a bound of work,
        // Bellman-Ford's steps from the distances reached (no read back per step).
        let (mut near, mut spare) = (b.queue::<Mp>(nk)?, b.queue::<Mp>(nk)?);
        b.queue_set(&mut near, &sorted, &vec![0.0; sorted.len()], 0)?;
        let step = RelaxStep::new(&mut d, &self.arcs);
        let limit = nk.saturating_mul(RELAXATIONS_PER_VERTEX);
        if b.queue_relax_buckets(step, &mut near, &mut spare, &Width(self.delta), limit)?
            .is_none()
        {
            waiting_again(b, &d, None, &mut near)?;
            let step = RelaxStep::new(&mut d, &self.arcs);
            fixpoint_by_steps(b, step, &mut near, &mut spare, usize::MAX)?;
        }
        Ok(d)
    }

    /// One batch of sources ([`Copies::starts`]): the dependencies of the `n k` vertices of
    /// the copies (the sources' own included), with `edges` each copied arc's share, and with
    /// `ends` the reached positions (an entry, not 0, where a source reaches a vertex).
    fn batch(&self, chunk: &[usize], edges: bool, ends: bool) -> Result<Batch> {
        let (b, nk) = (self.b, self.n * self.k);
        let starts = self.starts(chunk);
        let d = self.distances(chunk)?;
        // T = the arcs (u, v) with w(u, v) + d(u) == d(v): the sampled products give d(u)
        // and d(v) at each arc (min-plus, the other side's 0 its one).
        let from = b.sddmm(&self.arcs, &d, &self.zeros)?;
        let reach = b.ewise_matrix::<Mp, Plus>(&self.arcs, &from, Combine::Intersection)?;
        let into = b.sddmm(&self.arcs, &self.zeros, &d)?;
        let same = b.ewise_matrix::<Mp, Eq>(&reach, &into, Combine::Intersection)?;
        let dag = b.pattern::<Mp, Pt>(&b.select::<Mp, ValueEq>(&same, 1.0)?)?;
        drop((from, reach, into, same, d));
        let dag_t = b.transpose_matrix(&dag)?;
        let mut s = sweep_from(b, &dag_t, (nk, 1), &starts, Paths::Dag { limit: self.n })?;
        let reached = match ends {
            true => Some(b.read_dense(&s.level)?),
            false => None,
        };
        let mut shares = None;
        let delta = dependencies(b, &dag, &mut s, edges.then_some(&mut shares), true)?;
        let shares = match shares {
            Some(e) => Some(b.read_matrix(&e)?),
            None => None,
        };
        Ok(Batch {
            delta: b.read_dense_owned(delta)?,
            shares,
            reached,
        })
    }
}

/// Refuses what makes least-weight distances ill-defined, a negative weight, and with `paths`
/// what makes least-weight paths infinite in number, a cycle of zero-weight arcs (Kahn's
/// order over them; self loops are on no path).
fn check_weights(a: &Csr<Mp>, paths: bool) -> Result<()> {
    let n = a.nrows();
    let mut zero: Vec<Vec<u32>> = Vec::new();
    let mut indegree = vec![0u32; n];
    check_no_negative(a, "a least-weight centrality")?;
    for (u, v, w) in a.iter() {
        if paths && w == 0.0 && u != v {
            if zero.is_empty() {
                zero = vec![vec![]; n];
            }
            zero[u].push(v as u32);
            indegree[v] += 1;
        }
    }
    if zero.is_empty() {
        return Ok(());
    }
    let mut ready: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    let mut seen = 0;
    while let Some(u) = ready.pop() {
        seen += 1;
        for &v in &zero[u] {
            indegree[v as usize] -= 1;
            if indegree[v as usize] == 0 {
                ready.push(v as usize);
            }
        }
    }
    if seen < n {
        return Err(Error::InvalidArgument(
            "the graph has a cycle of zero-weight arcs: its least-weight paths are not finite \
             in number"
                .into(),
        ));
    }
    Ok(())
}

/// Sources per batch: `batch` if given (at most 256), else as many copies as
/// [`COPIED_ARCS`](super::COPIED_ARCS) arc entries hold; never more than the sources.
fn batch_size(n: usize, m: usize, sources: usize, batch: Option<usize>) -> usize {
    let k = batch.unwrap_or(super::COPIED_ARCS / m.max(1)).clamp(1, 256);
    // The copies' vertices are numbered in 32 bits.
    k.min(sources.max(1))
        .min((u32::MAX as usize / n.max(1)).max(1))
}

/// Runs `each` on the batches of `sources` (`None`: every vertex) over `k` copies of `g`'s
/// arcs (made once; `k` from `batch` as [`batch_size`]), with `paths` as [`Copies::new`]'s;
/// returns how many sources there were.
///
/// # Errors
/// `InvalidArgument` for a batch of 0, a source out of range or the weights refused;
/// `each`'s.
pub(super) fn on_copies<B: Frontier>(
    g: &Graph<'_, B, Mp>,
    sources: Option<&[usize]>,
    batch: Option<usize>,
    paths: bool,
    mut each: impl FnMut(&Copies<'_, B>, &[usize]) -> Result<()>,
) -> Result<usize> {
    let n = g.n();
    if batch == Some(0) {
        return Err(Error::InvalidArgument(
            "a batch holds at least one source".into(),
        ));
    }
    let count = sources.map_or(n, <[usize]>::len);
    let k = batch_size(n, g.nnz(), count, batch);
    let mut copies = None;
    batches(n, sources, Some(k), |chunk| {
        if copies.is_none() {
            copies = Some(Copies::new(g, k, paths)?);
        }
        each(copies.as_ref().expect("made above"), chunk)
    })
}

/// Runs the batches of `opts`' sources over copies of `g`'s arcs, handing each batch's
/// sources, [`Batch`] and copies to `each`; returns how many sources there were.
fn sweeps<B: Frontier>(
    g: &Graph<'_, B, Mp>,
    opts: &BetweennessOptions,
    edges: bool,
    mut each: impl FnMut(&[usize], Batch, usize),
) -> Result<usize> {
    on_copies(g, opts.sources.as_deref(), opts.batch, true, |c, chunk| {
        each(chunk, c.batch(chunk, edges, opts.endpoints && !edges)?, c.k);
        Ok(())
    })
}

/// Betweenness centrality over least-weight paths: [`betweenness`](super::betweenness) with
/// the arcs' weights as lengths (NetworkX's `betweenness_centrality` with `weight=`): for
/// each vertex `v`, the sum over pairs `s != v != t` of the fraction of least-weight
/// `s -> t` paths through `v`.
///
/// Per batch of `k` sources, on `k` copies of the graph (vertex `v` of copy `j` at
/// `v k + j`): the distances by delta-stepping's buckets relaxed to their fixpoint on the
/// backend; the least-weight paths' DAG, the arcs with `w(u, v) + d(u) == d(v)` (two sampled
/// products give `d(u)` and `d(v)` at each arc, compared entry by entry in `f64` as NetworkX
/// compares); then Brandes' sweeps over the DAG, by levels of most arcs (every path of the
/// DAG counted; a vertex's successors lie on any deeper level). Self loops lie on no path.
/// Scaled as [`betweenness`](super::betweenness).
///
/// # Arguments
/// - `g`: the graph, its weights as lengths (min-plus `f64`, none negative).
/// - `opts`: as [`betweenness`](super::betweenness)'s; a batch copies the graph's arcs once
///   per source (default: as many sources as 4 M arc entries hold, at most 256).
///
/// # Returns
/// One value per vertex.
///
/// # Errors
/// `NegativeWeight` for a negative weight; `InvalidArgument` for a cycle of zero-weight arcs
/// (paths not finite in number), a source out of range or a batch of 0; backend errors.
///
/// # Complexity
/// Per batch of `k` sources: `O(k m)` to copy the arcs and find the DAG, the relaxation steps
/// (each over its frontier's arcs), and two products over the DAG's `O(k m)` arcs per level
/// (levels: the most arcs on a least-weight path).
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{weighted_betweenness, BetweennessOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // 0 -> 1 -> 2 weighs 2, as much as the arc 0 -> 2: one of two paths passes vertex 1.
/// let arcs = [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 2.0)];
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let opts = BetweennessOptions { normalized: false, ..Default::default() };
/// assert_eq!(weighted_betweenness(&g, &opts)?, vec![0.0, 0.5, 0.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn weighted_betweenness<B: Frontier>(
    g: &Graph<'_, B, Mp>,
    opts: &BetweennessOptions,
) -> Result<Vec<f64>> {
    let n = g.n();
    let mut bc = vec![0.0; n];
    let mut ends = Ends::new(opts.endpoints, n);
    let sources = sweeps(g, opts, false, |chunk, batch, k| {
        for (p, &x) in batch.delta.iter().enumerate() {
            // A source's own dependency counts for no vertex.
            let (v, j) = (p / k, p % k);
            if x != 0.0 && chunk.get(j) != Some(&v) {
                bc[v] += x;
            }
        }
        if let Some(r) = &batch.reached {
            // Copy `j` of a batch shorter than `k` holds no source: nothing reached there.
            ends.add_copies(chunk, k, r);
        }
    })?;
    ends.finish(&mut bc);
    let scale = vertex_scale(n, sources, opts, g.reads_directed(opts.directed)?);
    if scale != 1.0 {
        bc.iter_mut().for_each(|x| *x *= scale);
    }
    Ok(bc)
}

/// Edge betweenness centrality over least-weight paths:
/// [`edge_betweenness`](super::edge_betweenness) with the arcs' weights as lengths
/// (NetworkX's `edge_betweenness_centrality` with `weight=`), by [`weighted_betweenness`]'s
/// sweeps and a sampled product per level (each DAG arc's share).
///
/// # Arguments
/// - `g`: the graph, its weights as lengths (min-plus `f64`, none negative).
/// - `opts`: as [`weighted_betweenness`]'s.
///
/// # Returns
/// The arcs (directed) or edges (undirected) and their centrality, as
/// [`edge_betweenness`](super::edge_betweenness).
///
/// # Errors
/// As [`weighted_betweenness`]'s.
///
/// # Complexity
/// As [`weighted_betweenness`]'s, the sampled product adding `O(k m)` per level.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{weighted_edge_betweenness, BetweennessOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // The heavy arc 0 -> 2 carries no least-weight path: 0 -> 1 -> 2 is shorter.
/// let arcs = [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0)];
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let opts = BetweennessOptions { normalized: false, ..Default::default() };
/// let e = weighted_edge_betweenness(&g, &opts)?;
/// assert_eq!(e.edges, vec![(0, 1), (0, 2), (1, 2)]);
/// assert_eq!(e.values, vec![2.0, 0.0, 2.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn weighted_edge_betweenness<B: Frontier>(
    g: &Graph<'_, B, Mp>,
    opts: &BetweennessOptions,
) -> Result<EdgeBetweenness> {
    let n = g.n();
    let mut shares: BTreeMap<(u32, u32), f64> = BTreeMap::new();
    let sources = sweeps(g, opts, true, |_, batch, k| {
        for (r, c, x) in batch.shares.iter().flat_map(|e| e.iter()) {
            *shares
                .entry(((r / k) as u32, (c / k) as u32))
                .or_insert(0.0) += x;
        }
    })?;
    let directed = g.reads_directed(opts.directed)?;
    let scale = edge_scale(n, sources, opts, directed);
    let share = |u: u32, v: u32| shares.get(&(u, v)).copied().unwrap_or(0.0);
    Ok(edge_values(g.csr(), directed, scale, share))
}
