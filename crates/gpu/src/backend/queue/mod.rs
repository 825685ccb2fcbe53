//! Work queues in device memory: the GPU form of [`semigraph_algos::Frontier::Queue`].
//!
//! A queue is an array of vertex ids and one of values, a four-word header in device memory
//! (`[length, steps, entries before, unused]`) and a membership array (`member[i] == stamp` marks
//! the vertices appended since the queue was last cleared). Kernels read the length from the
//! header, so a chain of relaxation steps runs without the host: the host reads a header only
//! when an algorithm asks ([`Frontier::queue_len`]). Launch grids follow a host-side *hint*: an
//! upper bound on the length where one is known (the length last read, or set), else
//! [`UNKNOWN`], which gets a full grid; grid-stride loops cover any length.
//!
//! A relaxation step is arc-balanced: a block loads a tile of entries with the running count
//! of their arcs into shared memory and its threads share the tile's arcs evenly, so a vertex of
//! a million arcs is spread over a block instead of one thread. A small frontier runs many
//! steps in one launch of one block ([`Kernel::QueueRelaxLoop`], a tile at a time when it is
//! longer than a tile): the launches and host round trips of a step, not its arcs, are what a
//! road graph's thousand levels cost. A mid-sized frontier runs many steps in one cooperative
//! launch of a block per multiprocessor ([`Kernel::QueueRelaxGrid`]), grid-wide barriers
//! between the phases of a step instead of launches.
//!
//! [`Frontier::queue_len`]: semigraph_algos::Frontier::queue_len

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cudarc::driver::{CudaSlice, LaunchConfig};
use semigraph_algos::{
    Defer, Frontier, LevelsFound, Mask, Parents, QueueInfo, RelaxStep, Result as AlgoResult,
    StepOutputs,
};
use semigraph_semiring::Semiring;

mod levels;
mod marks;
mod relax;
mod tuning;

use tuning::*;

use super::{BLOCK, DevCsr, GpuBackend, GpuDense, GpuMatrix, MAX_GRID};
use crate::codegen::Kernel;
use crate::device::bits;
use crate::error::{GpuError, driver};
use crate::params::{
    QueueArcsArgs, QueueFillArgs, QueueImproveDenseArgs, QueueLevelsArgs, QueueReduceArgs,
    QueueRelaxArgs, QueueRelaxAsyncArgs, QueueRelaxLoopArgs, QueueScatterArgs, QueueShiftArgs,
    QueueSplitArgs, QueueWitnessArgs,
};
use crate::transfer::{bytes_of, scalars_from};

/// A work queue in device memory.
pub struct GpuQueue<S: Semiring> {
    n: usize,
    cap: usize,
    idx: CudaSlice<u32>,
    vals: CudaSlice<u8>,
    hdr: CudaSlice<u64>,
    member: CudaSlice<u32>,
    /// The membership generation (host side); 0 is never used, so a fresh array holds no one.
    stamp: u32,
    /// An upper bound on the length, or [`UNKNOWN`] (sizes launch grids; see the module).
    hint: AtomicUsize,
    /// The last read header said a one-block run stopped before a step for its own limits:
    /// the next step runs over the whole GPU (so a caller that reads and calls again always
    /// progresses).
    refused: AtomicBool,
    /// The worklist of a relaxation to a fixpoint that took this queue as its spare: made on
    /// the first such call, kept (all zero between calls) for the next ones of the run, freed
    /// with the queue.
    worklist: Option<CudaSlice<u64>>,
    _s: PhantomData<S>,
}

/// The hint of a queue whose length is not known on the host.
const UNKNOWN: usize = usize::MAX;

impl<S: Semiring> GpuQueue<S> {
    /// The id and value buffers (the first `length` entries are the queue's), for the
    /// collectives that move entries between GPUs.
    pub(crate) fn buffers(&self) -> (&CudaSlice<u32>, &CudaSlice<u8>) {
        (&self.idx, &self.vals)
    }

    /// [`buffers`](GpuQueue::buffers), to write; [`GpuBackend::queue_filled`] then says how
    /// many entries they hold.
    pub(crate) fn buffers_mut(&mut self) -> (&mut CudaSlice<u32>, &mut CudaSlice<u8>) {
        (&mut self.idx, &mut self.vals)
    }

    /// The entries it can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.cap
    }

    fn hint(&self) -> usize {
        self.hint.load(Ordering::Relaxed)
    }
    fn set_hint(&self, h: usize) {
        self.hint.store(h, Ordering::Relaxed)
    }
}

/// Threads for a queue kernel over about `work` items (entries): enough for the work, at
/// most a full grid.
fn grid_for(work: usize) -> LaunchConfig {
    let blocks = (work as u64).div_ceil(BLOCK as u64).clamp(1, MAX_GRID);
    LaunchConfig {
        grid_dim: (blocks as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl GpuBackend {
    /// A new membership generation for `q` (the array is cleared when the counter wraps).
    fn next_gen<S: Semiring>(&self, q: &mut GpuQueue<S>) -> Result<u32, GpuError> {
        if q.stamp == u32::MAX {
            self.dev
                .stream
                .memset_zeros(&mut q.member)
                .map_err(|e| driver("clear queue membership", e))?;
            q.stamp = 0;
        }
        q.stamp += 1;
        Ok(q.stamp)
    }

    /// `k` consecutive new membership generations for `q`: returns the first; `q.stamp`
    /// becomes the last.
    fn reserve_gens<S: Semiring>(&self, q: &mut GpuQueue<S>, k: u32) -> Result<u32, GpuError> {
        if q.stamp > u32::MAX - k {
            self.dev
                .stream
                .memset_zeros(&mut q.member)
                .map_err(|e| driver("clear queue membership", e))?;
            q.stamp = 0;
        }
        let first = q.stamp + 1;
        q.stamp += k;
        Ok(first)
    }

    /// The limits of the queue kernels ([`tuning::get`]).
    fn tuning(&self) -> Tuning {
        tuning::get()
    }

    /// Sets the header's length to zero (no read-back).
    fn zero_len<S: Semiring>(&self, q: &mut GpuQueue<S>) -> Result<(), GpuError> {
        self.dev
            .stream
            .memset_zeros(&mut q.hdr.slice_mut(0..1))
            .map_err(|e| driver("clear a queue", e))
    }

    /// The header `[length, steps, entries before, refused]`, read back (one wait).
    pub(crate) fn read_hdr<S: Semiring>(&self, q: &GpuQueue<S>) -> Result<[u64; 4], GpuError> {
        let h = self.dev.download(&q.hdr, 4)?;
        Ok([h[0], h[1], h[2], h[3]])
    }

    /// Adds `add` to the ids of `q`'s entries (no read-back): a block's queue renumbered
    /// into the whole graph's ids before a collective moves it. The ids may then pass `q`'s
    /// own `n`: only the entries' owner reads them.
    pub(crate) fn queue_shift<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        add: u32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::QueueShift)?;
        let cfg = grid_for(q.hint());
        QueueShiftArgs {
            qi: &mut q.idx,
            qh: &q.hdr,
            c: add as u64,
        }
        .launch(&self.dev, &f, cfg)
    }

    /// Says that `q`'s buffers now hold `len` entries (written there by a collective), with
    /// step count `steps`: the header `[len, steps, 0, 0]` and a new membership generation
    /// (no read-back).
    pub(crate) fn queue_filled<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        len: usize,
        steps: usize,
    ) -> Result<(), GpuError> {
        assert!(
            len <= q.cap,
            "queue_filled: more entries than the queue holds"
        );
        let hdr = [len as u64, steps as u64, 0, 0];
        self.dev
            .stream
            .memcpy_htod(&hdr[..], &mut q.hdr)
            .map_err(|e| driver("fill a queue header", e))?;
        self.next_gen(q)?;
        q.set_hint(len);
        q.refused.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// Scratch buffers for kernel arguments a launch does not use.
    pub(in crate::backend) fn scratch(&self) -> std::sync::MutexGuard<'_, super::Scratch> {
        self.scratch.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Frontier for GpuBackend {
    type Queue<S: Semiring> = GpuQueue<S>;

    fn queue<S: Semiring>(&self, n: usize) -> AlgoResult<GpuQueue<S>> {
        let cap = n.max(1);
        Ok(GpuQueue {
            n,
            cap,
            idx: self.dev.zeros::<u32>(cap, "queue indices")?,
            vals: self.alloc_vals::<S>(cap, "queue values")?,
            hdr: self.dev.zeros::<u64>(4, "queue header")?,
            member: self.dev.zeros::<u32>(cap, "queue membership")?,
            stamp: 0,
            hint: AtomicUsize::new(0),
            refused: AtomicBool::new(false),
            worklist: None,
            _s: PhantomData,
        })
    }

    fn queue_set<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> AlgoResult<()> {
        assert_eq!(idx.len(), vals.len(), "queue_set: lengths differ");
        assert!(
            idx.len() <= q.cap,
            "queue_set: more entries than the queue holds"
        );
        assert!(
            idx.iter().all(|&i| (i as usize) < q.n),
            "queue_set: index out of range"
        );
        let s = &self.dev.stream;
        let up = |e| driver("fill a queue", e);
        if !idx.is_empty() {
            s.memcpy_htod(idx, &mut q.idx.slice_mut(0..idx.len()))
                .map_err(up)?;
            let b = bytes_of(vals);
            s.memcpy_htod(b, &mut q.vals.slice_mut(0..b.len()))
                .map_err(up)?;
        }
        let hdr = [idx.len() as u64, steps as u64, 0, 0];
        s.memcpy_htod(&hdr[..], &mut q.hdr).map_err(up)?;
        self.next_gen(q)?;
        q.set_hint(idx.len());
        q.refused.store(false, Ordering::Relaxed);
        Ok(())
    }

    fn queue_len<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<QueueInfo> {
        let h = self.read_hdr(q)?;
        q.set_hint(h[0] as usize);
        q.refused.store(h[3] != 0, Ordering::Relaxed);
        Ok(QueueInfo {
            len: h[0] as usize,
            steps: h[1] as usize,
            total: (h[2] + h[0]) as usize,
        })
    }

    fn queue_read<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(Vec<u32>, Vec<S::T>)> {
        let len = self.read_hdr(q)?[0] as usize;
        let idx = self.dev.download(&q.idx, len)?;
        let vals: Vec<S::T> = self.dev.download_scalars(&q.vals, len)?;
        let mut e: Vec<(u32, S::T)> = idx.into_iter().zip(vals).collect();
        e.sort_by_key(|p| p.0);
        Ok(e.into_iter().unzip())
    }

    fn queue_relax<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        from: &GpuQueue<S>,
        to: &mut GpuQueue<S>,
    ) -> AlgoResult<()> {
        Ok(self.relax_step(step, from, to)?)
    }

    fn queue_relax_steps<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        max_steps: usize,
        limit: usize,
    ) -> AlgoResult<()> {
        Ok(self.relax_steps(step, q, spare, max_steps, limit)?)
    }

    fn queue_relax_fixpoint<S: Semiring>(
        &self,
        mut step: RelaxStep<'_, '_, Self, S>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        limit: usize,
    ) -> AlgoResult<Option<usize>> {
        match self.relax_fixpoint(step.reborrow(), q, spare, limit)? {
            Some(r) => Ok(r),
            None => semigraph_algos::backend::fixpoint_by_steps(self, step, q, spare, limit),
        }
    }

    fn queue_fixpoint_fast<S: Semiring>(&self) -> bool {
        self.tuning().fix_pending > 0 && size_of::<S::T>() <= 4
    }

    fn queue_levels<M: Semiring, L: Semiring<T = u32>>(
        &self,
        a: &GpuMatrix<M>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
        _parents: Option<&mut GpuDense<Parents>>,
    ) -> AlgoResult<Option<LevelsFound>> {
        // The parents are the caller's: one witness pass, as after a fixpoint.
        Ok(self
            .levels_block(a, seeds, levels)?
            .map(|(reached, depth)| LevelsFound {
                reached,
                depth,
                parents: false,
            }))
    }

    fn queue_assign<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        q: &GpuQueue<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        assert_eq!(q.n, y.len(), "assign_queue: lengths");
        let f = self.dev.func::<S>(Kernel::QueueScatter)?;
        QueueScatterArgs {
            qi: &q.idx,
            qv: &self.dummy,
            qh: &q.hdr,
            use_vals: 0,
            c: bits(value),
            y: &mut y.buf,
        }
        .launch(&self.dev, &f, grid_for(q.hint()))?;
        Ok(())
    }

    fn queue_split<S: Semiring>(
        &self,
        from: &GpuQueue<S>,
        d: &GpuDense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut GpuQueue<S>,
        outside: Option<&mut GpuQueue<S>>,
    ) -> AlgoResult<()> {
        assert_eq!(d.len(), from.n, "split_queue: d has the wrong length");
        assert_eq!(inside.n, from.n, "split_queue: inside has the wrong n");
        let f = self.dev.func::<S>(Kernel::QueueSplit)?;
        let cfg = grid_for(from.hint());
        let istamp = inside.stamp.max(1);
        inside.stamp = istamp;
        match outside {
            Some(o) => {
                assert_eq!(o.n, from.n, "split_queue: outside has the wrong n");
                let ostamp = o.stamp.max(1);
                o.stamp = ostamp;
                QueueSplitArgs {
                    qi: &from.idx,
                    qh: &from.hdr,
                    d: &d.buf,
                    lo: bits(lo),
                    hi: bits(hi),
                    ii: &mut inside.idx,
                    iv: &mut inside.vals,
                    ih: &mut inside.hdr,
                    imember: &mut inside.member,
                    istamp,
                    oi: &mut o.idx,
                    ov: &mut o.vals,
                    oh: &mut o.hdr,
                    omember: &mut o.member,
                    ostamp,
                    use_outside: 1,
                }
                .launch(&self.dev, &f, cfg)?;
                o.set_hint(o.hint().saturating_add(from.hint()));
            }
            None => {
                // No outside queue: the kernel never touches these scratch buffers.
                let sc = &mut *self.scratch();
                QueueSplitArgs {
                    qi: &from.idx,
                    qh: &from.hdr,
                    d: &d.buf,
                    lo: bits(lo),
                    hi: bits(hi),
                    ii: &mut inside.idx,
                    iv: &mut inside.vals,
                    ih: &mut inside.hdr,
                    imember: &mut inside.member,
                    istamp,
                    oi: &mut sc.idx,
                    ov: &mut sc.vals,
                    oh: &mut sc.hdr,
                    omember: &mut sc.member,
                    ostamp: 0,
                    use_outside: 0,
                }
                .launch(&self.dev, &f, cfg)?;
            }
        }
        inside.set_hint(inside.hint().saturating_add(from.hint()));
        Ok(())
    }

    fn queue_reduce<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(QueueInfo, S::T)> {
        let mut sc = self.scratch();
        self.apply_raw::<S>(&mut sc.vals, 1, Mask::All, 0, bits(S::zero()))?;
        let f = self.dev.func::<S>(Kernel::QueueReduce)?;
        QueueReduceArgs {
            qv: &q.vals,
            qh: &q.hdr,
            out: &mut sc.vals,
        }
        .launch(&self.dev, &f, grid_for(q.hint()))?;
        let out = &sc.vals;
        // Both copies are queued before the one wait.
        let mut h = [0u64; 4];
        let mut v = vec![0u8; size_of::<S::T>()];
        let s = &self.dev.stream;
        s.memcpy_dtoh(&q.hdr, &mut h[..])
            .map_err(|e| driver("read a queue header", e))?;
        s.memcpy_dtoh(&out.slice(0..v.len()), &mut v[..])
            .map_err(|e| driver("read a reduction", e))?;
        self.dev.sync()?;
        q.set_hint(h[0] as usize);
        q.refused.store(h[3] != 0, Ordering::Relaxed);
        let info = QueueInfo {
            len: h[0] as usize,
            steps: h[1] as usize,
            total: (h[2] + h[0]) as usize,
        };
        Ok((info, scalars_from::<S::T>(&v)[0]))
    }

    fn queue_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &GpuQueue<S>,
        a: &GpuMatrix<M>,
    ) -> AlgoResult<(QueueInfo, usize)> {
        assert_eq!(
            q.n, a.info.nrows,
            "queue_arcs: the queue's n is not A's row count"
        );
        let c = self.push_csr(a)?;
        let mut sc = self.scratch();
        let s = &self.dev.stream;
        s.memset_zeros(&mut sc.hdr.slice_mut(0..1))
            .map_err(|e| driver("clear a count", e))?;
        // Launched from the type of the queue's values (the kernel reads indices only).
        let f = self.dev.func::<S>(Kernel::QueueArcs)?;
        QueueArcsArgs {
            rp: &c.rp,
            qi: &q.idx,
            qh: &q.hdr,
            out: &mut sc.hdr,
        }
        .launch(&self.dev, &f, grid_for(q.hint()))?;
        // Both copies are queued before the one wait.
        let mut h = [0u64; 5];
        s.memcpy_dtoh(&q.hdr, &mut h[..4])
            .map_err(|e| driver("read a queue header", e))?;
        s.memcpy_dtoh(&sc.hdr.slice(0..1), &mut h[4..])
            .map_err(|e| driver("read an arc count", e))?;
        self.dev.sync()?;
        q.set_hint(h[0] as usize);
        q.refused.store(h[3] != 0, Ordering::Relaxed);
        let info = QueueInfo {
            len: h[0] as usize,
            steps: h[1] as usize,
            total: (h[2] + h[0]) as usize,
        };
        Ok((info, h[4] as usize))
    }

    fn queue_clear<S: Semiring>(&self, q: &mut GpuQueue<S>) -> AlgoResult<()> {
        self.zero_len(q)?;
        self.next_gen(q)?;
        Ok(())
    }

    fn queue_improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
        to: &mut GpuQueue<S>,
        steps: usize,
    ) -> AlgoResult<()> {
        assert_eq!(
            (d.rows, d.cols),
            (t.rows, t.cols),
            "improve_dense_queue: shapes"
        );
        assert_eq!(to.n, d.len(), "improve_dense_queue: to has the wrong n");
        self.zero_len(to)?;
        self.next_gen(to)?;
        let n = d.len() as u64;
        let f = self.dev.func::<S>(Kernel::QueueImproveDense)?;
        QueueImproveDenseArgs {
            d: &mut d.buf,
            t: &t.buf,
            n,
            ti: &mut to.idx,
            tv: &mut to.vals,
            th: &mut to.hdr,
            steps: steps as u64,
        }
        .launch(&self.dev, &f, grid_for(n as usize))?;
        to.set_hint(d.len());
        Ok(())
    }

    fn queue_to_dense<S: Semiring>(&self, q: &GpuQueue<S>, x: &mut GpuDense<S>) -> AlgoResult<()> {
        assert_eq!(q.n, x.len(), "queue_to_dense: lengths");
        let len = x.len();
        self.apply_raw::<S>(&mut x.buf, len, Mask::All, 0, bits(S::zero()))?;
        let f = self.dev.func::<S>(Kernel::QueueScatter)?;
        QueueScatterArgs {
            qi: &q.idx,
            qv: &q.vals,
            qh: &q.hdr,
            use_vals: 1,
            c: 0,
            y: &mut x.buf,
        }
        .launch(&self.dev, &f, grid_for(q.hint()))?;
        Ok(())
    }
}
