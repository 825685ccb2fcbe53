//! Breadth-first search: levels and parents, push/pull with direction switching, and
//! multi-source BFS through SpMM.

use semigraph_semiring::{MaxMin, Semiring};

use crate::backend::{Accum, Frontier, Mask, Parents, QueueInfo, RelaxStep, UnaryOp};
use crate::error::{Result, check_vertex};
use crate::graph::Graph;
use crate::traverse::Traversal;

mod algorithm;
mod multi;
pub use algorithm::BfsAlgorithm;
pub use multi::bfs_multi;

/// The semiring of BFS graphs: [`Parents`], `(min, secondi)` over `u32`. `x (+).(x) A` gives
/// each newly reached vertex the smallest id of a frontier vertex with an arc to it: its
/// parent. One type with the backend's arrays of parents, named for what a graph is for.
pub type BfsSemiring = Parents;

pub use crate::backend::{NO_PARENT, UNREACHED};

/// Which direction a BFS level runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Direction {
    /// Push while the frontier is small, pull while it is large (Beamer's rule, below).
    #[default]
    Auto,
    /// Always push: SpMSpV of the frontier along out-arcs.
    Push,
    /// Always pull: masked SpMV of the unvisited vertices along in-arcs.
    Pull,
}

semigraph_formats::named_enum!(Direction { Auto => "auto", Push => "push", Pull => "pull" });

/// Options of [`bfs`](fn@bfs).
#[derive(Clone, Copy, Debug, Default)]
pub struct BfsOptions {
    /// Direction policy.
    pub direction: Direction,
}

/// The result of a BFS.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bfs {
    /// The source (0-based).
    pub source: usize,
    /// Hop count from the source; [`UNREACHED`] if not reached. `levels[source] == 0`.
    pub levels: Vec<u32>,
    /// The smallest-id vertex one level closer with an arc to this one; the source is its own
    /// parent; [`NO_PARENT`] if not reached.
    pub parents: Vec<u32>,
    /// Number of vertices reached (the source included).
    pub reached: usize,
    /// Number of non-empty levels after the source's (the eccentricity of the source).
    pub depth: u32,
    /// Levels run in push and in pull direction.
    pub push_steps: u32,
    /// See `push_steps`.
    pub pull_steps: u32,
}

impl Bfs {
    /// The level of `v`, `None` if not reached.
    pub fn level(&self, v: usize) -> Option<u32> {
        (self.levels[v] != UNREACHED).then_some(self.levels[v])
    }
    /// The parent of `v`, `None` if not reached.
    pub fn parent(&self, v: usize) -> Option<u32> {
        (self.parents[v] != NO_PARENT).then_some(self.parents[v])
    }

    /// The vertices of a shortest path `source -> ... -> v` along parents (as
    /// [`ShortestPaths::path_to`](crate::ShortestPaths::path_to)), `None` if `v` was not
    /// reached. `EdgeList::labels_of` writes them in the input file's numbering.
    ///
    /// ```
    /// use semigraph_algos::{arcs_to_csr, bfs, BfsSemiring, CpuBackend, Graph, GraphOptions};
    ///
    /// let a = arcs_to_csr::<BfsSemiring>(4, &[(0, 1, 0), (1, 2, 0), (0, 3, 0), (3, 2, 0)])?;
    /// let cpu = CpuBackend::new();
    /// let r = bfs(&Graph::new(&cpu, &a, GraphOptions::default())?, 0, &Default::default())?;
    /// assert_eq!(r.path_to(2), Some(vec![0, 1, 2])); // the smallest-id parent, 1
    /// assert_eq!(r.path_to(0), Some(vec![0]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    pub fn path_to(&self, v: usize) -> Option<Vec<u32>> {
        self.level(v)?;
        crate::paths::path_back(&self.parents, self.source, v)
    }
}

/// Beamer's switch to pull: the frontier's out-arcs exceed 1/ALPHA of the arcs of the rows
/// not expanded yet.
const ALPHA: usize = 14;
/// ... and back to push: the frontier shrinks and holds fewer than 1/BETA of all vertices.
const BETA: usize = 24;

/// Beamer's choice of direction, level by level (one device, and the distributed BFS).
pub(crate) struct Switch {
    mode: Direction,
    can_pull: bool,
    pulling: bool,
    /// The frontier shrank at the last level.
    pub(crate) shrinking: bool,
    /// Arcs in the rows not expanded yet (Beamer's `m_u`; steps run between two reads are not
    /// subtracted, so it may be high, which only delays a switch to pull).
    arcs_left: usize,
}

impl Switch {
    pub(crate) fn new(mode: Direction, can_pull: bool, arcs: usize) -> Self {
        Switch {
            mode,
            can_pull,
            pulling: false,
            shrinking: false,
            arcs_left: arcs,
        }
    }

    /// Whether a frontier of `nf` vertices of at most `degree` out-arcs each could make the
    /// next level pull (when it cannot, its arcs need not be counted).
    pub(crate) fn may_pull(&self, nf: usize, degree: usize) -> bool {
        nf.saturating_mul(degree).saturating_mul(ALPHA) > self.arcs_left
    }

    /// Whether the next level pulls, from a frontier of `nf` vertices and `mf` out-arcs in a
    /// graph of `n` vertices.
    pub(crate) fn pulls_next(&mut self, nf: usize, mf: usize, n: usize) -> bool {
        self.pulling = match (self.mode, self.can_pull) {
            (Direction::Push, _) | (Direction::Auto, false) => false,
            (Direction::Pull, _) => true,
            (Direction::Auto, true) if self.pulling => !self.shrinking || nf * BETA >= n,
            (Direction::Auto, true) => mf * ALPHA > self.arcs_left,
        };
        self.arcs_left = self.arcs_left.saturating_sub(mf);
        self.pulling
    }
}

/// A BFS result whose levels and parents are still backend arrays (device memory on a GPU):
/// what [`bfs_resident`] returns, for a caller that goes on computing on the backend or reads
/// only what it needs. [`read`](ResidentBfs::read) gives the [`Bfs`] of [`bfs`](fn@bfs),
/// [`into_bfs`](ResidentBfs::into_bfs) the same from a result the caller is done with.
pub struct ResidentBfs<B: Frontier> {
    /// The source (0-based).
    pub source: usize,
    /// Hop counts, [`UNREACHED`] where not reached (as [`Bfs::levels`]).
    pub levels: B::Dense<Parents>,
    /// Parents, [`NO_PARENT`] where not reached (as [`Bfs::parents`]).
    pub parents: B::Dense<BfsSemiring>,
    /// Number of vertices reached (the source included).
    pub reached: usize,
    /// Number of non-empty levels after the source's.
    pub depth: u32,
    /// Levels run in push direction.
    pub push_steps: u32,
    /// Levels run in pull direction.
    pub pull_steps: u32,
}

impl<B: Frontier> ResidentBfs<B> {
    /// Copies levels and parents to the host.
    ///
    /// # Errors
    /// Backend errors.
    pub fn read(&self, b: &B) -> Result<Bfs> {
        Ok(Bfs {
            source: self.source,
            levels: b.read_dense(&self.levels)?,
            parents: b.read_dense(&self.parents)?,
            reached: self.reached,
            depth: self.depth,
            push_steps: self.push_steps,
            pull_steps: self.pull_steps,
        })
    }

    /// [`read`](Self::read), consuming the result: on the CPU the levels and parents are
    /// handed over, not copied ([`Objects::read_dense_owned`](crate::Objects::read_dense_owned)).
    ///
    /// # Errors
    /// Backend errors.
    pub fn into_bfs(self, b: &B) -> Result<Bfs> {
        Ok(Bfs {
            source: self.source,
            levels: b.read_dense_owned(self.levels)?,
            parents: b.read_dense_owned(self.parents)?,
            reached: self.reached,
            depth: self.depth,
            push_steps: self.push_steps,
            pull_steps: self.pull_steps,
        })
    }
}

semigraph_semiring::semiring! {
    /// `(min, +1)` over `u32`: hop counts, every arc one hop whatever its value (the product
    /// is `b + 1` unless an operand is the zero, `u32::MAX`, as [`UNREACHED`]).
    struct Hops: u32 {
        name: "hops",
        zero: u32::MAX,
        one: 0,
        add: |a, b| a.min(b) => "b < a ? b : a",
        mul: |a, b| if a == u32::MAX || b == u32::MAX { u32::MAX } else { b.saturating_add(1) }
            => "(a == 0xFFFFFFFFu || b == 0xFFFFFFFFu) ? 0xFFFFFFFFu : b + 1u",
    }
}

/// BFS as the hop counts in one call ([`Frontier::queue_levels`], where the backend has it:
/// a GPU's block and grid, the CPU's team of threads, which also writes the parents), else as
/// their fixpoint ([`Frontier::queue_relax_fixpoint`], in any order), then every parent in one
/// witness pass (the smallest in-neighbour one level up, as the steps give), for a backend
/// that traverses without a host round trip (or a fork-join) per level: a road network's
/// thousand levels cost no step each. `None` if the backend stopped first (a frontier too wide,
/// for which the level steps are the faster).
fn bfs_fixpoint<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    source: usize,
) -> Result<Option<ResidentBfs<B>>> {
    let (b, n, s) = (g.backend(), g.n(), source as u32);
    crate::cancel::check()?;
    // The same arrays, each arc one hop.
    let a = b.view::<BfsSemiring, Hops>(g.push())?;
    let mut d = b.unit::<Hops>(n, source, 0)?;
    let (mut q, mut spare) = (b.queue::<Hops>(n)?, b.queue::<Hops>(n)?);
    b.queue_set(&mut q, &[s], &[0], 0)?;
    // The levels (and on the CPU the parents) in one call where the backend has the form (a
    // GPU's one block and grid, the CPU's team), else (or from the frontier where it stopped)
    // their fixpoint.
    let mut parents = b.dense_filled::<BfsSemiring>(n, 1, NO_PARENT)?;
    let levels = b.queue_levels(g.push(), &mut q, &mut d, Some(&mut parents))?;
    if let Some(found) = levels.filter(|f| f.parents) {
        let deepest = b.dense_as::<Hops, MaxMin<u32>>(d);
        return Ok(Some(ResidentBfs {
            source,
            levels: b.dense_as(deepest),
            parents,
            reached: found.reached,
            depth: found.depth,
            push_steps: found.depth + 1,
            pull_steps: 0,
        }));
    }
    if levels.is_none() {
        if b.queue_len(&q)?.len == 0 {
            // Nothing to go on from: from the source alone.
            b.apply(&mut d, Mask::All, UnaryOp::Fill(Hops::zero()))?;
            b.set(&mut d, source, 0)?;
            b.queue_set(&mut q, &[s], &[0], 0)?;
        }
        let limit = n.saturating_mul(4);
        if b.queue_relax_fixpoint(RelaxStep::new(&mut d, &a), &mut q, &mut spare, limit)?
            .is_none()
        {
            return Ok(None);
        }
    }
    // Parent of j: the smallest k with level(k) + 1 = level(j), over every reached k.
    let x = b.compact(&d)?;
    let reached = b.sparse_nnz(&x);
    b.witness(&mut parents, &x, &a, &d, &x)?;
    b.set(&mut parents, source, s)?;
    let deepest = b.dense_as::<Hops, MaxMin<u32>>(d);
    // The depth as the one call returned it, else the deepest level reached (a reduction and
    // a read-back).
    let depth = match levels {
        Some(found) => found.depth,
        None => b.reduce(&deepest, b.keep(&parents))?,
    };
    Ok(Some(ResidentBfs {
        source,
        levels: b.dense_as(deepest),
        parents,
        reached,
        depth,
        push_steps: depth + 1,
        pull_steps: 0,
    }))
}

/// Breadth-first search from `source`, computing levels and parents.
///
/// Each level is one product in the `(min, secondi)` semiring masked by the vertices not
/// visited yet: a push level is one [`Frontier::queue_relax`] along `A` from the frontier queue
/// (the arcs of the frontier only; the parent of a vertex is the smallest frontier vertex with
/// an arc to it), followed by `levels<next> = level`; a pull level is a masked SpMV along
/// `A^T` that stops scanning a vertex's in-arcs at its first frontier neighbour with parent id
/// 0 (cost: at most the in-arcs of the unvisited vertices; the CPU backend tests a frontier
/// of over 1 MiB of values in a bitmap of its vertices, `n / 8` bytes that stay in cache),
/// then a dense relaxation that enqueues the new frontier. [`Direction::Auto`] follows Beamer
/// on arc counts ([`Frontier::queue_arcs`]): pull once the frontier's out-arcs exceed 1/14 of the arcs of
/// the rows not expanded yet, push again once the frontier shrinks below `n / 24` vertices.
/// Pull needs a graph built with `GraphOptions { pull: true, .. }`; without it `Auto` always
/// pushes.
///
/// The frontier's length stays on the backend: while it is small, up to 64 push levels run
/// between two reads of it (a read waits for a GPU), so a deep search on a road network
/// synchronises a few dozen times, not once per level.
///
/// On a backend that relaxes to a fixpoint without a host round trip per level
/// ([`Frontier::queue_fixpoint_fast`]: a GPU) or that traverses faster in one call than by
/// steps ([`Frontier::queue_levels_fast`]: the CPU), a graph of short rows (largest
/// out-degree at most 64, average at most 5: road networks, grids) in [`Direction::Auto`]
/// first takes the hop counts in one call: the levels of a traversal
/// ([`Frontier::queue_levels`]: on a GPU, one block whose shared memory holds the visited set
/// and the frontier, handed to every multiprocessor when the levels widen; on the CPU one
/// thread, or a team of threads meeting once a level, which also writes the parents) or,
/// where the backend declines, a fixpoint in any order ([`Frontier::queue_relax_fixpoint`] in
/// a `(min, +1)` semiring over the same matrix); then, where the backend wrote none, every
/// parent in one witness pass: the same levels and parents, with no host round trip (or
/// fork-join) per level. If the backend stops both (a frontier too wide), the level steps run
/// from the start.
///
/// # Arguments
/// - `g`: the graph, a pattern in [`BfsSemiring`] (`Csr::pattern`).
/// - `source`: a vertex id, `0..g.n()`.
/// - `opts`: direction policy.
///
/// # Returns
/// [`Bfs`]: levels, parents (the smallest-id parent, so the result does not depend on the
/// backend or direction), counts. [`bfs_resident`] leaves levels and parents on the backend.
///
/// # Errors
/// [`Error::VertexOutOfRange`](crate::Error::VertexOutOfRange); `InvalidArgument` for
/// [`Direction::Pull`] on a graph without `A^T`; backend errors.
///
/// # Complexity
/// `O(n + m)` work for push-only runs; a pull level costs `O(n + m)` in the worst case.
/// One round of backend calls per level (`depth + 1` levels); the one-call forms: the arcs
/// of each reached vertex once ([`Frontier::queue_levels`]) or once per improvement of its
/// level (the fixpoint; road graphs: 1.2-3.4 times), one witness pass over the arcs of the
/// reached vertices, and a constant number of backend calls.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, bfs, BfsOptions, CpuBackend, Graph, GraphOptions};
///
/// // 0 -> 1 -> 2, 0 -> 3 -> 2, 4 isolated.
/// let a = arcs_to_csr(5, &[(0, 1, 0), (1, 2, 0), (0, 3, 0), (3, 2, 0)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions { pull: true, ..Default::default() })?;
/// let r = bfs(&g, 0, &BfsOptions::default())?;
/// assert_eq!(r.level(2), Some(2));
/// assert_eq!(r.parent(2), Some(1)); // smallest-id parent
/// assert_eq!(r.level(4), None);
/// assert_eq!(r.parents[0], 0);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    source: usize,
    opts: &BfsOptions,
) -> Result<Bfs> {
    bfs_resident(g, source, opts)?.into_bfs(g.backend())
}

/// [`bfs`](fn@bfs) without copying levels and parents to the host: they stay backend arrays
/// (on a GPU, in device memory) until [`ResidentBfs::read`], so a run costs the traversal only.
///
/// Arguments, errors and complexity as [`bfs`](fn@bfs).
///
/// # Example
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::bfs_resident;
///
/// let a = arcs_to_csr(3, &[(0, 1, 0), (1, 2, 0)])?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// let r = bfs_resident(&g, 0, &Default::default())?;
/// assert_eq!((r.reached, r.depth), (3, 2));
/// assert_eq!(cpu.read_dense(&r.levels)?, vec![0, 1, 2]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn bfs_resident<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    source: usize,
    opts: &BfsOptions,
) -> Result<ResidentBfs<B>> {
    type P = BfsSemiring;
    let (b, n) = (g.backend(), g.n());
    check_vertex(source, n)?;
    if opts.direction == Direction::Pull {
        g.require_pull("pull BFS")?;
    }
    // Beamer's rule needs the frontier's arcs: read them with its length where it applies.
    let weigh = opts.direction == Direction::Auto && g.pull().is_some();
    let read = |q: &B::Queue<P>| -> Result<(QueueInfo, usize)> {
        if weigh {
            b.queue_arcs(q, g.push())
        } else {
            Ok((b.queue_len(q)?, 0))
        }
    };
    // Graphs of short rows on a backend that relaxes without steps (a GPU): the hop counts
    // as a fixpoint, unless the frontier turns out wide.
    if opts.direction == Direction::Auto
        && (b.queue_fixpoint_fast::<Hops>() || b.queue_levels_fast())
        && g.short_rows()
        && let Some(r) = bfs_fixpoint(g, source)?
    {
        return Ok(r);
    }
    let s = source as u32;
    let mut parents = b.unit::<P>(n, source, s)?;
    let mut levels = b.unit::<Parents>(n, source, 0)?;
    let mut tr = Traversal::<B, P>::new(b, n, &[s], &[s])?;
    // Known at the last read: the frontier's length, running total and step count, its
    // out-arcs (0 when not weighed), and the vertices reached before it.
    let mut last = QueueInfo {
        len: 1,
        total: 1,
        steps: 0,
    };
    let (mut arcs, mut reached_before) = (0usize, 0usize);
    let mut dir = Switch::new(opts.direction, g.pull().is_some(), g.nnz());
    // The pull direction's dense frontier and product, allocated at the first pull.
    let mut pull: Option<(B::Dense<P>, B::Dense<P>)> = None;
    let mut pulls = 0u32;
    // The last push batch ran no step (a backend may decline one, see `queue_relax_steps`):
    // the frontier is the one already decided on, and pushes.
    let mut declined = false;
    loop {
        crate::cancel::check()?;
        let nf = last.len;
        let unvisited = n - reached_before - nf;
        if !declined && dir.pulls_next(nf, arcs, n) {
            // T<!P> = A^T (+).(x) F, then P (+)= T and L<T> = level.
            pulls += 1;
            let level = last.steps + 1;
            let (x, t) = match pull.as_mut() {
                Some((x, t)) => {
                    b.apply(t, Mask::All, UnaryOp::Fill(P::zero()))?;
                    (x, t)
                }
                None => {
                    let x = b.dense_filled::<P>(n, 1, P::zero())?;
                    let t = b.dense_filled::<P>(n, 1, P::zero())?;
                    let (x, t) = pull.insert((x, t));
                    (x, t)
                }
            };
            b.queue_to_dense(&tr.front, x)?;
            let at = g.require_pull("pull BFS")?;
            b.mxm(t, b.skip(&parents), Accum::Replace, at, x)?;
            tr.replace(|_, next| {
                b.queue_improve_dense(&mut parents, t, next, level)?;
                b.queue_assign(&mut levels, next, level as u32)
            })?;
            reached_before += nf;
            (last, arcs) = read(&tr.front)?;
        } else {
            // Up to a batch of push levels; a backend may stop once the frontier grows past
            // what could make pulling worth it, so the direction is decided again in time.
            let step = RelaxStep::new(&mut parents, g.push()).steps(&mut levels, true);
            tr.run(b, step, usize::MAX, (unvisited / ALPHA).max(1))?;
            let (info, a) = read(&tr.front)?;
            declined = info.steps == last.steps;
            // The queues from the last read's (included) to this one (excluded).
            reached_before += (info.total - info.len) - (last.total - last.len);
            (last, arcs) = (info, a);
            // Batches only while the frontier is small in vertices and in arcs, and only
            // after a batch that ran: a batch's later steps run unread, so a frontier that
            // should pull must not be able to arise inside one. The next frontier has at most
            // this one's arcs as vertices, each with at most the largest out-degree's arcs.
            let unseen = arcs
                .saturating_mul(g.max_out_degree())
                .saturating_mul(ALPHA);
            tr.grow(
                !declined
                    && last.len * 64 < n
                    && arcs * 64 < n.min(dir.arcs_left)
                    && (!weigh || unseen <= dir.arcs_left),
            );
        }
        dir.shrinking = last.len < nf;
        if last.len == 0 {
            break;
        }
    }
    // The frontiers partition the reached vertices, and the last (empty) queue's step count is
    // one past the deepest level: no pass over the n-long results is needed for either count.
    let (reached, depth) = (reached_before, (last.steps as u32).saturating_sub(1));
    Ok(ResidentBfs {
        source,
        levels,
        parents,
        reached,
        depth,
        push_steps: depth + 1 - pulls.min(depth + 1),
        pull_steps: pulls,
    })
}
