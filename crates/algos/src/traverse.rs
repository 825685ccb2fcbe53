//! The traversal loop that BFS, the label-correcting searches (Bellman-Ford, reachability,
//! widest paths, negative cycles) and delta-stepping share, as Gunrock's enactor: the
//! algorithm names the step (its algebra, a [`RelaxStep`]) and when it is done; the
//! [`Traversal`] owns the frontier's queues, how many steps run between two reads of the
//! frontier's length, and the early exit of a batch.
//!
//! Batching: a read waits for the backend (a GPU synchronises), while steps from an empty
//! frontier cost only a launch; so while the frontier stays small, steps run in batches of
//! 1, 2, 4, ... up to [`MAX_BATCH`] between reads, and a backend may end a batch before a step
//! whose frontier exceeds the traversal's limit ([`RELAX_LIMIT`] unless the algorithm sets
//! its own), so large frontiers are read after every step.

use semigraph_semiring::Semiring;

use crate::backend::{Frontier, QueueInfo, RelaxStep};
use crate::error::Result;

/// Steps run between two reads of the frontier's length when the frontier is small.
pub(crate) const MAX_BATCH: usize = 64;

/// Frontier size past which a backend may stop a batch of steps early (see
/// [`Frontier::queue_relax_steps`]): past it a step has work enough to fill a GPU, and the
/// frontier is read after each step. (At `1 << 15`, Bellman-Ford on NY, whose frontiers reach
/// 36,865 entries, read its frontier 100 times instead of 20 once a GPU ran its mid-sized
/// steps in one launch.)
pub(crate) const RELAX_LIMIT: usize = 1 << 20;

/// A frontier in a backend's queues and the batching of the steps that advance it.
pub(crate) struct Traversal<B: Frontier, S: Semiring> {
    /// The frontier: its length stays where the backend computes.
    pub(crate) front: B::Queue<S>,
    /// The other queue: each step writes it, then the two swap.
    spare: B::Queue<S>,
    /// Steps the next batch may run.
    batch: usize,
}

impl<B: Frontier, S: Semiring> Traversal<B, S> {
    /// A traversal of vertices `0..n` whose frontier holds `idx` with `vals`.
    pub(crate) fn new(b: &B, n: usize, idx: &[u32], vals: &[S::T]) -> Result<Self> {
        let mut front = b.queue::<S>(n)?;
        b.queue_set(&mut front, idx, vals, 0)?;
        Ok(Traversal {
            front,
            spare: b.queue::<S>(n)?,
            batch: 1,
        })
    }

    /// Runs the next batch of `step` from the frontier, never more than `max_steps` steps,
    /// stopping early before a frontier longer than `limit`; reads nothing back.
    pub(crate) fn run(
        &mut self,
        b: &B,
        step: RelaxStep<'_, '_, B, S>,
        max_steps: usize,
        limit: usize,
    ) -> Result<()> {
        let k = self.batch.min(max_steps);
        b.queue_relax_steps(step, &mut self.front, &mut self.spare, k, limit)
    }

    /// [`run`](Self::run) with the default limit, then one read of the frontier's length; the
    /// next batch doubles.
    pub(crate) fn advance(
        &mut self,
        b: &B,
        step: RelaxStep<'_, '_, B, S>,
        max_steps: usize,
    ) -> Result<QueueInfo> {
        self.run(b, step, max_steps, RELAX_LIMIT)?;
        self.grow(true);
        b.queue_len(&self.front)
    }

    /// The next batch: doubled (up to [`MAX_BATCH`]) while the frontier is `small`, else one
    /// step.
    pub(crate) fn grow(&mut self, small: bool) {
        self.batch = if small {
            (self.batch * 2).min(MAX_BATCH)
        } else {
            1
        };
    }

    /// A step made outside the loop (a pull level of BFS): `f` writes the next frontier into
    /// the spare queue, reading the current one; the two swap and batches start again at one
    /// step.
    pub(crate) fn replace(
        &mut self,
        f: impl FnOnce(&B::Queue<S>, &mut B::Queue<S>) -> Result<()>,
    ) -> Result<()> {
        f(&self.front, &mut self.spare)?;
        std::mem::swap(&mut self.front, &mut self.spare);
        self.batch = 1;
        Ok(())
    }

    /// Batches start again at one step (the frontier was rebuilt: a new bucket).
    pub(crate) fn restart(&mut self) {
        self.batch = 1;
    }
}
