//! The frontier queues: work lists of vertices and values whose length stays where the
//! backend computes, so that a traversal (BFS, Bellman-Ford, delta-stepping) runs many steps
//! without waiting on the host. Opt-in plumbing beside the algebra of [`Backend`]: an
//! algorithm that needs no queue asks for `B: Backend` only.

use semigraph_semiring::Semiring;

use super::{Backend, Buckets, LevelsFound, Parents, QueueInfo, RelaxStep, buckets_by_fixpoint};
use crate::error::Result;

/// Frontier queues on a [`Backend`]: every method's name starts with `queue` (the queue,
/// then what is done with it).
///
/// Implemented by [`CpuBackend`](crate::CpuBackend) and by the GPU backend of
/// `semigraph-gpu`; run by the shared test suite on both.
pub trait Frontier: Backend {
    /// A work queue of semiring `S`: vertex ids below its `n` with a value each, in no order,
    /// and a length that stays where the backend computes.
    type Queue<S: Semiring>: Send + Sync;

    /// An empty queue for vertices `0..n` (it holds at most `n` entries from one
    /// [`queue_relax`](Frontier::queue_relax); appends may add more, up to `2n`).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let q = b.queue::<MinPlus<i32>>(4)?;
    /// assert_eq!(b.queue_len(&q)?.len, 0);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue<S: Semiring>(&self, n: usize) -> Result<Self::Queue<S>>;
    /// Replaces the entries of `q` by `idx` (below its `n`) with `vals`, its step count by
    /// `steps`, and its running total by `idx.len()`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[2, 0], &[7, 5], 3)?;
    /// let info = b.queue_len(&q)?;
    /// assert_eq!((info.len, info.total, info.steps), (2, 2, 3));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_set<S: Semiring>(
        &self,
        q: &mut Self::Queue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> Result<()>;
    /// The length and step count of `q`. The one queue operation that waits for the backend
    /// (on a GPU: a host synchronisation); loops call it every few steps, not every step.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[1], &[0], 0)?;
    /// assert_eq!(b.queue_len(&q)?.len, 1);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_len<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<QueueInfo>;
    /// The entries of `q`, sorted by index (ties by value order of insertion).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[2, 0], &[7, 5], 0)?;
    /// assert_eq!(b.queue_read(&q)?, (vec![0, 2], vec![5, 7]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_read<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<(Vec<u32>, Vec<S::T>)>;
    /// One relaxation step from a queue into a queue, without waiting for the host, on the
    /// operands of `step` ([`RelaxStep`]: `d`, `a`, `mask`, `out`, `defer`): for each
    /// entry `(k, x)` of `from` and arc `(k, j)` of `A` that the mask allows (the mask is read
    /// as it was before the step), the term `t = mul_at(A(k, j), x, k)`; where a term
    /// [improves](Semiring::improves) `d(j)`, `d(j) = add(d(j), t)`. `to` is cleared, then
    /// receives each improved `j` once, with its final `d(j)`. Its step count is `from`'s,
    /// plus one if `from` had entries; its total is `from`'s plus its own length. With
    /// `out.parents`, `p(j)` becomes the smallest `k` whose term is `d(j)` bit for bit (the
    /// [`witness`](super::Products::witness)); with `out.steps`, `s(j)` becomes `to`'s step count
    /// (BFS levels, the round of each last change); with `out.only_new`, only vertices whose
    /// `steps` entry is empty may improve. Outputs are written after the masks were read.
    /// With `defer`, the entries of `from` whose value is not below its bound are appended to
    /// its `far` queue instead of being relaxed ([`Defer`](super::Defer)).
    ///
    /// Defined for selecting semirings (min-plus, max-min, or-and, min-secondi, ...) whose
    /// [`Semiring::improves`] is the default ("`add` changes the value"), where it equals
    /// [`relax`](Backend::relax) on the same entries: SpMSpV, `improve` and `witness` fused,
    /// with work proportional to the arcs of `from`. An empty `from` makes it a no-op.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, i32::MAX, i32::MAX])?;
    /// let (mut from, mut to) = (b.queue::<MinPlus<i32>>(3)?, b.queue::<MinPlus<i32>>(3)?);
    /// b.queue_set(&mut from, &[0], &[0], 0)?;
    /// b.queue_relax(RelaxStep::new(&mut d, &a), &from, &mut to)?;
    /// assert_eq!(b.queue_read(&to)?, (vec![1], vec![4]));
    /// assert_eq!(b.read_dense(&d)?, vec![0, 4, i32::MAX]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_relax<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        from: &Self::Queue<S>,
        to: &mut Self::Queue<S>,
    ) -> Result<()>;
    /// Up to `max_steps` [`queue_relax`](Frontier::queue_relax)s from `q`, with `spare` as the
    /// other queue (`A` square: each step's output is the next one's input); the frontier ends in `q` either way, and its step count says how many
    /// steps ran. A backend may stop early: before a step whose input has more than `limit`
    /// entries, once the frontier is empty, or for reasons of its own (a GPU runs a small
    /// frontier's steps in one launch of one block, which ends once the frontier outgrows the
    /// block). After a call that ran no step, reading the length
    /// ([`queue_len`](Frontier::queue_len)) and calling again runs at least one (unless the
    /// frontier is empty or over `limit`), so a caller that loops on the length progresses.
    /// The provided version runs every step. The step's `defer` applies to every step.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, i32::MAX, i32::MAX])?;
    /// let (mut q, mut spare) = (b.queue::<MinPlus<i32>>(3)?, b.queue::<MinPlus<i32>>(3)?);
    /// b.queue_set(&mut q, &[0], &[0], 0)?;
    /// // Until the frontier is empty (at most 10 steps), reading nothing back on the way.
    /// b.queue_relax_steps(RelaxStep::new(&mut d, &a), &mut q, &mut spare, 10, usize::MAX)?;
    /// assert_eq!(b.read_dense(&d)?, vec![0, 4, 5]);
    /// assert_eq!(b.queue_len(&q)?.len, 0);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_relax_steps<S: Semiring>(
        &self,
        mut step: RelaxStep<'_, '_, Self, S>,
        q: &mut Self::Queue<S>,
        spare: &mut Self::Queue<S>,
        max_steps: usize,
        limit: usize,
    ) -> Result<()> {
        let _ = limit;
        let info = self.matrix_info(step.a);
        assert_eq!(
            info.nrows, info.ncols,
            "queue_relax_steps: A must be square"
        );
        for _ in 0..max_steps {
            self.queue_relax(step.reborrow(), q, spare)?;
            std::mem::swap(q, spare);
        }
        Ok(())
    }
    /// Relaxes from `q` until no term improves `d` (a fixpoint), in whatever order the backend
    /// finds fastest: each vertex `k` of `q`, and each vertex improved on the way, relaxes its
    /// arcs with its value in `d` at that time (so `q`'s values should be `d`'s at its
    /// vertices, as after [`queue_set`](Frontier::queue_set) from `d` or a step). For a
    /// selecting semiring (see [`queue_relax`](Frontier::queue_relax)) whose `mul` is monotone
    /// the fixpoint does not depend on the order: it is what
    /// [`queue_relax_steps`](Frontier::queue_relax_steps) reaches once the frontier is empty
    /// (shortest distances, BFS hop counts), here with no host round trip per step on a GPU
    /// (see [`queue_fixpoint_fast`](Frontier::queue_fixpoint_fast)).
    ///
    /// Returns the number of appends (vertices improved, with repeats) at the fixpoint, or
    /// `None` if the backend stopped first: after more than `limit` appends (a negative cycle
    /// never ends), or at a bound of its own (a GPU: past `8 n` appends, or once more entries
    /// wait at once than it takes in this mode: a wide frontier, for which steps are faster).
    /// Then each value of `d` is the value of some path (an upper bound of the fixpoint in a
    /// min semiring) and `q` and `spare` hold no meaningful entries: set or clear them before
    /// use. `spare` is the second queue (`A` square). `step` writes `d` only: `parents` and
    /// `steps` are for level-by-level traversals (panics if given); a mask applies as in
    /// [`queue_relax`](Frontier::queue_relax). With a deferral ([`RelaxStep::defer`]) an
    /// entry whose value is not below the bound when its turn comes is not relaxed but set
    /// aside in the far queue (a vertex once, as the steps do), and the fixpoint is over the
    /// others: a bucket of delta-stepping in one call. Which vertices wait in far then
    /// depends on the order; each has a value not below the bound that some path gives.
    ///
    /// The provided version runs [`queue_relax_steps`](Frontier::queue_relax_steps) in batches
    /// and reads the length after each. Cost: at least the arcs of every vertex improved, once
    /// per improvement.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4), 0 -> 2 (weight 1) and 2 -> 1 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (0, 2, 1), (2, 1, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, i32::MAX, i32::MAX])?;
    /// let (mut q, mut spare) = (b.queue::<MinPlus<i32>>(3)?, b.queue::<MinPlus<i32>>(3)?);
    /// b.queue_set(&mut q, &[0], &[0], 0)?;
    /// let appends = b.queue_relax_fixpoint(RelaxStep::new(&mut d, &a), &mut q, &mut spare, 100)?;
    /// assert!(appends.is_some());
    /// assert_eq!(b.read_dense(&d)?, vec![0, 2, 1]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_relax_fixpoint<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut Self::Queue<S>,
        spare: &mut Self::Queue<S>,
        limit: usize,
    ) -> Result<Option<usize>> {
        fixpoint_by_steps(self, step, q, spare, limit)
    }
    /// Relaxes from the entries of `q` along `step.a` into `step.d` to the fixpoint, bucket
    /// by bucket ([`Buckets`]: delta-stepping's order in one call): the values of one bucket
    /// to their fixpoint before any of a later bucket is relaxed, within a bucket in whatever
    /// order the backend finds fastest. The fixpoint does not depend on the order (the
    /// answer equals [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint)'s bit for
    /// bit); the buckets keep the work close to one relaxation of each vertex at its final
    /// value where weights are non-negative.
    ///
    /// Returns the appends (vertices improved, with repeats), or `None` if the backend
    /// stopped first: past `limit` appends in all (a team of threads counts each thread's
    /// share, `limit / threads`), or at a bound of its own as
    /// [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) (a GPU's, in a bucket), with
    /// `d` then an upper bound of the fixpoint in a min semiring. `q` and `spare` hold no meaningful
    /// entries after the call. `step` writes `d` only, without a mask or a deferral of its own.
    ///
    /// The provided version is [`buckets_by_fixpoint`]: one
    /// [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) with a deferral a bucket and
    /// one read a bucket; a bucket that stops is taken again in
    /// [narrower](super::Buckets::narrower) buckets where `buckets` has them. The CPU backend's, from 32,768 vertices, runs one team of threads
    /// for the whole call (`O(n)` to set up and to write `d` back, then work a round): each
    /// round, each thread relaxes an equal slice of the bucket's vertices improved in the
    /// round before (or, first in a bucket, what it set aside for that bucket itself), lowers
    /// values by an atomic compare-and-swap, keeps improvements of later buckets in buckets
    /// of its own, and the team meets once a round; a stop requested through
    /// [`cancel`](crate::cancel) ends it with [`Error::Interrupted`](crate::Error::Interrupted).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_algos::Buckets;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// struct Width(i32);
    /// impl Buckets<i32> for Width {
    ///     fn bucket(&self, x: i32) -> u64 {
    ///         if x == i32::MAX { u64::MAX } else { (x.max(0) / self.0) as u64 }
    ///     }
    ///     fn bound(&self, b: u64) -> i32 {
    ///         i32::try_from((b + 1) * self.0 as u64).unwrap_or(i32::MAX)
    ///     }
    /// }
    /// let b = CpuBackend::new();
    /// // 0 -> 1 (weight 4), 0 -> 2 (1), 2 -> 1 (1), 1 -> 3 (10).
    /// let arcs = [(0, 1, 4), (0, 2, 1), (2, 1, 1), (1, 3, 10)];
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(4, &arcs)?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(4, 1, &[0, i32::MAX, i32::MAX, i32::MAX])?;
    /// let (mut q, mut spare) = (b.queue::<MinPlus<i32>>(4)?, b.queue::<MinPlus<i32>>(4)?);
    /// b.queue_set(&mut q, &[0], &[0], 0)?;
    /// let step = RelaxStep::new(&mut d, &a);
    /// assert!(b.queue_relax_buckets(step, &mut q, &mut spare, &Width(2), 100)?.is_some());
    /// assert_eq!(b.read_dense(&d)?, vec![0, 2, 1, 12]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_relax_buckets<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut Self::Queue<S>,
        spare: &mut Self::Queue<S>,
        buckets: &dyn Buckets<S::T>,
        limit: usize,
    ) -> Result<Option<usize>> {
        buckets_by_fixpoint(self, step, q, spare, buckets, limit)
    }
    /// Whether [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint) in semiring `S` beats
    /// the steps on graphs of short rows (a GPU's one launch, with no host round trip per
    /// step, for values of at most 4 bytes): algorithms that also have a step-by-step form
    /// take the fixpoint there. `false` in the provided version and on the CPU backend.
    fn queue_fixpoint_fast<S: Semiring>(&self) -> bool {
        false
    }
    /// Whether [`queue_levels`](Frontier::queue_levels) is this backend's fastest way to a
    /// traversal's levels on graphs of short rows (road networks, grids), with the parents
    /// then found in one [`witness`](crate::backend::Products::witness) pass, rather than a
    /// step a level: the CPU backend's team of threads meets at a spinning barrier once a
    /// level instead of forking rayon's tasks. `false` in the provided version; a GPU
    /// answers through [`queue_fixpoint_fast`](Frontier::queue_fixpoint_fast).
    fn queue_levels_fast(&self) -> bool {
        false
    }
    /// Levels of a traversal along the structure of `a` (square; each arc one step, its value
    /// ignored) from the vertices of `seeds` (their values ignored, repeats once): `levels(j)`
    /// becomes the fewest arcs on a path from a seed to `j` for every `j` reached, the seeds 0;
    /// every position but the seeds' must hold `u32::MAX` (not reached) at the call, and keeps
    /// it where not reached (a backend takes a vertex by lowering its level). Where `parents`
    /// is given, a backend may also write every parent (the smallest vertex one level up with
    /// an arc to `j`, as a BFS's level steps give; a seed its own; [`NO_PARENT`](super::NO_PARENT)
    /// where not reached) and say so in [`LevelsFound::parents`]. A traversal that needs no
    /// value but the level (hop counts, eccentricities, a BFS's tree) in one call.
    ///
    /// Returns the vertices reached (the seeds included), the last level (0 for seeds with no
    /// way out) and whether the parents were written. `None` where the backend has no such
    /// form for this graph (`seeds` as it was) or stopped (a GPU: a frontier wider than its
    /// one block's queues, or, with its continuation over the whole GPU turned off, frontiers
    /// on average wider than one pass of the block): then `seeds` holds the frontier where it
    /// stopped, each vertex with its level as value, and `levels` the level of every vertex
    /// up to that frontier, so that the caller may go on from there (a relaxation to a
    /// fixpoint in a `(min, +1)` semiring, or steps); or `seeds` is empty (the backend could
    /// not keep that frontier): start again. The CPU backend never stops and writes the
    /// parents: one queue in the order of the levels, on one thread for graphs under 32,768
    /// vertices, else on a team of threads meeting once a level (`O(n + reached + their
    /// arcs)`; a stop requested through [`cancel`](crate::cancel), checked once a level,
    /// ends it with [`Error::Interrupted`](crate::Error::Interrupted), `levels` as it was); a
    /// GPU writes no parents; the provided version returns `None` at once.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_algos::{BfsSemiring, Parents};
    /// use semigraph_formats::{ConvertOptions, Format};
    ///
    /// let b = CpuBackend::new();
    /// // 0 -> 1 -> 2 and 3 -> 2; the seeds 0 and 3.
    /// let a = b.matrix(&arcs_to_csr::<BfsSemiring>(5, &[(0, 1, 0), (1, 2, 0), (3, 2, 0)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut q = b.queue::<Parents>(5)?;
    /// b.queue_set(&mut q, &[0, 3], &[0, 0], 0)?;
    /// let mut levels = b.dense_filled::<Parents>(5, 1, u32::MAX)?;
    /// let mut parents = b.dense_filled::<Parents>(5, 1, 0)?;
    /// let found = b.queue_levels(&a, &mut q, &mut levels, Some(&mut parents))?.unwrap();
    /// assert_eq!((found.reached, found.depth), (4, 1));
    /// assert_eq!(b.read_dense(&levels)?, vec![0, 1, 1, 0, u32::MAX]);
    /// if found.parents {
    ///     assert_eq!(b.read_dense(&parents)?, vec![0, 0, 3, 3, u32::MAX]);
    /// }
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_levels<M: Semiring, L: Semiring<T = u32>>(
        &self,
        a: &Self::Matrix<M>,
        seeds: &mut Self::Queue<L>,
        levels: &mut Self::Dense<L>,
        parents: Option<&mut Self::Dense<Parents>>,
    ) -> Result<Option<LevelsFound>> {
        let _ = (a, seeds, levels, parents);
        Ok(None)
    }
    /// `y(i) = value` for every entry `i` of `q` (of any semiring).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::{MinPlus, OrAnd};
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[1, 3], &[0, 0], 0)?;
    /// let mut seen = b.dense_filled::<OrAnd>(4, 1, false)?;
    /// b.queue_assign(&mut seen, &q, true)?;
    /// assert_eq!(b.read_dense(&seen)?, vec![false, true, false, true]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_assign<S: Semiring, M: Semiring>(
        &self,
        y: &mut Self::Dense<S>,
        q: &Self::Queue<M>,
        value: S::T,
    ) -> Result<()>;
    /// Routes each vertex `i` of `from` by its current value `v = d(i)`: `lo <= v < hi`
    /// appends `(i, v)` to `inside`, `v >= hi` (and any `v` not ordered against `lo`/`hi`) to
    /// `outside` (dropped if `None`), `v < lo` drops it; a queue that receives appends holds
    /// each vertex once until it is cleared, set or written by a step. Each receiving queue's
    /// step count becomes the larger of its own and `from`'s. The near/far split of
    /// delta-stepping: `lo` is the last threshold (vertices below it were settled).
    #[allow(clippy::too_many_arguments)]
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let d = b.dense::<MinPlus<i32>>(3, 1, &[1, 5, 9])?;
    /// let mut from = b.queue::<MinPlus<i32>>(3)?;
    /// b.queue_set(&mut from, &[0, 1, 2], &[1, 5, 9], 0)?;
    /// let (mut near, mut far) = (b.queue::<MinPlus<i32>>(3)?, b.queue::<MinPlus<i32>>(3)?);
    /// b.queue_split(&from, &d, 0, 5, &mut near, Some(&mut far))?;
    /// assert_eq!(b.queue_read(&near)?.0, vec![0]);
    /// assert_eq!(b.queue_read(&far)?.0, vec![1, 2]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_split<S: Semiring>(
        &self,
        from: &Self::Queue<S>,
        d: &Self::Dense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut Self::Queue<S>,
        outside: Option<&mut Self::Queue<S>>,
    ) -> Result<()>;
    /// `add` over the values of `q` (the zero if it is empty; the smallest for min-plus), with
    /// the queue's length: one read-back.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[0, 2], &[5, 7], 0)?;
    /// let (info, least) = b.queue_reduce(&q)?;
    /// assert_eq!((info.len, least), (2, 5));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_reduce<S: Semiring>(&self, q: &Self::Queue<S>) -> Result<(QueueInfo, S::T)>;
    /// The length of `q` (as [`queue_len`](Frontier::queue_len)) and the number of entries of
    /// `a` in the rows of its vertices: the arcs a push step from `q` would scan, which
    /// direction-optimising traversals weigh against the arcs a pull step would scan. One
    /// read-back, as `queue_len`.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_algos::BfsSemiring;
    ///
    /// let a = arcs_to_csr::<BfsSemiring>(3, &[(0, 1, 0), (0, 2, 0), (1, 2, 0)])?;
    /// let cpu = CpuBackend::new();
    /// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
    /// let mut q = cpu.queue::<BfsSemiring>(3)?;
    /// cpu.queue_set(&mut q, &[0, 2], &[0, 2], 0)?;
    /// let (info, arcs) = cpu.queue_arcs(&q, g.push())?;
    /// assert_eq!((info.len, arcs), (2, 2)); // two arcs leave vertex 0, none vertex 2
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &Self::Queue<S>,
        a: &Self::Matrix<M>,
    ) -> Result<(QueueInfo, usize)>;
    /// Clears `q` (no read-back).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[0, 2], &[5, 7], 0)?;
    /// b.queue_clear(&mut q)?;
    /// assert_eq!(b.queue_len(&q)?.len, 0);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_clear<S: Semiring>(&self, q: &mut Self::Queue<S>) -> Result<()>;
    /// The dense relaxation of [`improve_dense`](super::ElementWise::improve_dense), enqueueing what
    /// improved: `to` is cleared and receives every `i` where `t(i)` improves `d(i)`, with the
    /// new `d(i)`; its step count becomes `steps`. No read-back.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[inf, 5, 3])?;
    /// let t = b.dense::<MinPlus<i32>>(3, 1, &[1, 4, 3])?;
    /// let mut to = b.queue::<MinPlus<i32>>(3)?;
    /// b.queue_improve_dense(&mut d, &t, &mut to, 1)?;
    /// assert_eq!(b.queue_read(&to)?, (vec![0, 1], vec![1, 4]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_improve_dense<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        t: &Self::Dense<S>,
        to: &mut Self::Queue<S>,
        steps: usize,
    ) -> Result<()>;
    /// `x(i) = v` for every entry `(i, v)` of `q`, all other positions the zero: a queue as a
    /// dense vector (for pull steps).
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// let inf = i32::MAX; // min-plus's zero: no entry
    /// let mut q = b.queue::<MinPlus<i32>>(4)?;
    /// b.queue_set(&mut q, &[2], &[7], 0)?;
    /// let mut x = b.dense_filled::<MinPlus<i32>>(4, 1, 0)?;
    /// b.queue_to_dense(&q, &mut x)?;
    /// assert_eq!(b.read_dense(&x)?, vec![inf, inf, 7, inf]);
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn queue_to_dense<S: Semiring>(&self, q: &Self::Queue<S>, x: &mut Self::Dense<S>)
    -> Result<()>;
}

/// [`Frontier::queue_relax_fixpoint`] by steps: [`Frontier::queue_relax_steps`] in batches of
/// 64, the length read after each (the provided version, and a backend's for the cases its own
/// form does not take).
///
/// # Errors
/// The backend's errors.
pub fn fixpoint_by_steps<B: Frontier + ?Sized, S: Semiring>(
    b: &B,
    mut step: RelaxStep<'_, '_, B, S>,
    q: &mut B::Queue<S>,
    spare: &mut B::Queue<S>,
    limit: usize,
) -> Result<Option<usize>> {
    step.assert_values_only();
    let start = b.queue_len(q)?.total;
    loop {
        b.queue_relax_steps(step.reborrow(), q, spare, 64, usize::MAX)?;
        let info = b.queue_len(q)?;
        // The running total counts the start's entries and every append since.
        let appends = info.total - start;
        if info.len == 0 {
            return Ok(Some(appends));
        }
        if appends > limit {
            return Ok(None);
        }
    }
}
