//! [`Frontier`] on the CPU backend: work queues in host memory ([`CpuQueue`]), their steps
//! (`queue.rs`) and their fixpoint (`fixpoint.rs`).

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use super::buckets::relax_buckets;
use super::fixpoint::relax_fixpoint;
use super::queue::{CpuQueue, improve_dense_queue, relax_step, split_queue};
use super::{CpuBackend, CpuDense, CpuMatrix};
use super::{levels, team};
use crate::backend::{
    Buckets, Frontier, LevelsFound, Parents, QueueInfo, RelaxStep, buckets_by_fixpoint,
};
use crate::error::Result;

impl Frontier for CpuBackend {
    type Queue<S: Semiring> = CpuQueue<S>;

    fn queue<S: Semiring>(&self, n: usize) -> Result<CpuQueue<S>> {
        Ok(CpuQueue::new(n))
    }

    fn queue_set<S: Semiring>(
        &self,
        q: &mut CpuQueue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> Result<()> {
        assert_eq!(idx.len(), vals.len(), "queue_set: lengths differ");
        assert!(
            idx.iter().all(|&i| (i as usize) < q.n),
            "queue_set: index out of range"
        );
        q.idx = idx.to_vec();
        q.vals = vals.to_vec();
        q.steps = steps;
        q.before = 0;
        q.times = Default::default();
        q.new_generation();
        Ok(())
    }

    fn queue_len<S: Semiring>(&self, q: &CpuQueue<S>) -> Result<QueueInfo> {
        Ok(q.info())
    }

    fn queue_read<S: Semiring>(&self, q: &CpuQueue<S>) -> Result<(Vec<u32>, Vec<S::T>)> {
        let mut e: Vec<(u32, S::T)> = q.idx.iter().copied().zip(q.vals.iter().copied()).collect();
        e.sort_by_key(|p| p.0);
        Ok(e.into_iter().unzip())
    }

    fn queue_relax<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        from: &CpuQueue<S>,
        to: &mut CpuQueue<S>,
    ) -> Result<()> {
        relax_step(step, from, to, self.par_entries, self.step_form)
    }

    fn queue_relax_fixpoint<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut CpuQueue<S>,
        spare: &mut CpuQueue<S>,
        limit: usize,
    ) -> Result<Option<usize>> {
        if !matches!(step.mask, crate::backend::Mask::All) {
            return crate::backend::fixpoint_by_steps(self, step, q, spare, limit);
        }
        relax_fixpoint(step, q, spare, limit)
    }

    fn queue_relax_buckets<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut CpuQueue<S>,
        spare: &mut CpuQueue<S>,
        buckets: &dyn Buckets<S::T>,
        limit: usize,
    ) -> Result<Option<usize>> {
        let n = q.n;
        let threads = team::team_size(n, self.levels_threads);
        let plain = matches!(step.mask, crate::backend::Mask::All) && step.defer.is_none();
        // The team where it pays and is free; else a bucket a call on one thread.
        let slot = (threads > 1 && plain).then(team::TeamSlot::take).flatten();
        let Some(_slot) = slot else {
            return buckets_by_fixpoint(self, step, q, spare, buckets, limit);
        };
        step.assert_values_only();
        let c = step.a.rows();
        assert_eq!(c.nrows(), n, "queue_relax_buckets: A must be square");
        assert_eq!(c.ncols(), n, "queue_relax_buckets: A must be square");
        assert_eq!(
            step.d.data.len(),
            n,
            "queue_relax_buckets: d has the wrong length"
        );
        let found = relax_buckets(c, &mut step.d.data, &q.idx, buckets, limit, threads);
        for x in [&mut *q, &mut *spare] {
            x.idx.clear();
            x.vals.clear();
            x.new_generation();
        }
        found
    }

    fn queue_levels_fast(&self) -> bool {
        true
    }

    fn queue_levels<M: Semiring, L: Semiring<T = u32>>(
        &self,
        a: &CpuMatrix<M>,
        seeds: &mut CpuQueue<L>,
        levels: &mut CpuDense<L>,
        parents: Option<&mut CpuDense<Parents>>,
    ) -> Result<Option<LevelsFound>> {
        let c = a.rows();
        let n = c.nrows();
        assert_eq!(n, c.ncols(), "queue_levels: A must be square");
        assert_eq!(seeds.n, n, "queue_levels: the seeds' n is not A's");
        assert_eq!(
            levels.data.len(),
            n,
            "queue_levels: levels has the wrong length"
        );
        let asked = parents.is_some();
        if let Some(p) = &parents {
            assert_eq!(
                p.data.len(),
                n,
                "queue_levels: parents has the wrong length"
            );
        }
        let Some((reached, depth)) = levels::levels(
            c.row_ptr(),
            c.col_idx(),
            &seeds.idx,
            &mut levels.data,
            parents.map(|p| &mut p.data[..]),
            super::team::team_size(n, self.levels_threads),
        ) else {
            return Err(crate::error::Error::Interrupted);
        };
        Ok(Some(LevelsFound {
            reached,
            depth,
            parents: asked,
        }))
    }

    fn queue_assign<S: Semiring, M: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        q: &CpuQueue<M>,
        value: S::T,
    ) -> Result<()> {
        assert_eq!(q.n, y.data.len(), "queue_assign: lengths");
        let idx = &q.idx;
        let par = self.par_entries;
        super::scatter(
            &mut y.data,
            idx.len(),
            par,
            |e| Some((idx[e], value)),
            |t, v| *t = v,
        );
        Ok(())
    }

    fn queue_split<S: Semiring>(
        &self,
        from: &CpuQueue<S>,
        d: &CpuDense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut CpuQueue<S>,
        outside: Option<&mut CpuQueue<S>>,
    ) -> Result<()> {
        split_queue(from, d, lo, hi, inside, outside)
    }

    fn queue_reduce<S: Semiring>(&self, q: &CpuQueue<S>) -> Result<(QueueInfo, S::T)> {
        Ok((
            q.info(),
            q.vals.iter().fold(S::zero(), |a, &v| S::add(a, v)),
        ))
    }

    fn queue_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &CpuQueue<S>,
        a: &CpuMatrix<M>,
    ) -> Result<(QueueInfo, usize)> {
        let c = a.rows();
        assert_eq!(
            q.n,
            c.nrows(),
            "queue_arcs: the queue's n is not A's row count"
        );
        let rp = c.row_ptr();
        let degree = |&i: &u32| (rp[i as usize + 1] - rp[i as usize]) as usize;
        let arcs = if q.idx.len() < self.par_entries.max(1) {
            q.idx.iter().map(degree).sum()
        } else {
            q.idx.par_iter().with_min_len(4096).map(degree).sum()
        };
        Ok((q.info(), arcs))
    }

    fn queue_clear<S: Semiring>(&self, q: &mut CpuQueue<S>) -> Result<()> {
        q.idx.clear();
        q.vals.clear();
        q.new_generation();
        Ok(())
    }

    fn queue_improve_dense<S: Semiring>(
        &self,
        d: &mut CpuDense<S>,
        t: &CpuDense<S>,
        to: &mut CpuQueue<S>,
        steps: usize,
    ) -> Result<()> {
        improve_dense_queue(d, t, to, steps)
    }

    fn queue_to_dense<S: Semiring>(&self, q: &CpuQueue<S>, x: &mut CpuDense<S>) -> Result<()> {
        assert_eq!(q.n, x.data.len(), "queue_to_dense: lengths");
        x.data
            .par_iter_mut()
            .with_min_len(4096)
            .for_each(|v| *v = S::zero());
        let (idx, vals) = (&q.idx, &q.vals);
        let par = self.par_entries;
        super::scatter(
            &mut x.data,
            idx.len(),
            par,
            |e| Some((idx[e], vals[e])),
            |t, v| *t = v,
        );
        Ok(())
    }
}
