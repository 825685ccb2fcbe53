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
//! steps in one launch of one block ([`Kernel::QueueRelaxLoop`]): the launches and host
//! round trips of a step, not its arcs, are what a road graph's thousand levels cost.
//!
//! [`Frontier::queue_len`]: semigraph_algos::Frontier::queue_len

use std::marker::PhantomData;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use cudarc::driver::{CudaSlice, LaunchConfig};
use semigraph_algos::{Defer, Mask, QueueInfo, StepOutputs};
use semigraph_semiring::Semiring;

use super::{BLOCK, DevCsr, GpuBackend, GpuDense, GpuMatrix, MAX_GRID};
use crate::codegen::Kernel;
use crate::device::{bits, bytes_of, scalars_from};
use crate::error::{GpuError, driver};
use crate::params::{
    QueueArcsArgs, QueueFillArgs, QueueImproveDenseArgs, QueueReduceArgs, QueueRelaxArgs,
    QueueRelaxLoopArgs, QueueScatterArgs, QueueSplitArgs, QueueWitnessArgs,
};

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
    _s: PhantomData<S>,
}

/// The hint of a queue whose length is not known on the host.
const UNKNOWN: usize = usize::MAX;

/// Threads of the one block of [`Kernel::QueueRelaxLoop`] (its tile holds this many entries).
const LOOP_BLOCK: u32 = 1024;

/// When a frontier runs its steps in one block ([`Kernel::QueueRelaxLoop`]).
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// Longest frontier (at most [`LOOP_BLOCK`]).
    loop_entries: usize,
    /// Most arcs of a step's frontier.
    loop_arcs: u32,
}

impl<S: Semiring> GpuQueue<S> {
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

/// The far-queue arguments of a relaxation kernel: the deferral's queue and bound, or scratch
/// stand-ins the kernel never touches when there is none.
struct FarArgs<'a> {
    use_defer: i32,
    bound: u64,
    fstamp: u32,
    fi: &'a mut CudaSlice<u32>,
    fv: &'a mut CudaSlice<u8>,
    fh: &'a mut CudaSlice<u64>,
    fm: &'a mut CudaSlice<u32>,
}

impl<'a> FarArgs<'a> {
    /// Checks the far queue against the input's `n` (for `what`) and gives it a membership
    /// generation if it has none (a fresh queue is empty).
    #[allow(clippy::too_many_arguments)]
    fn new<S: Semiring>(
        defer: Option<Defer<'a, GpuBackend, S>>,
        n: usize,
        what: &str,
        idx: &'a mut CudaSlice<u32>,
        vals: &'a mut CudaSlice<u8>,
        hdr: &'a mut CudaSlice<u64>,
        member: &'a mut CudaSlice<u32>,
    ) -> FarArgs<'a> {
        match defer {
            Some(Defer { bound, far }) => {
                assert_eq!(far.n, n, "{what}: the far queue has the wrong n");
                far.stamp = far.stamp.max(1);
                far.set_hint(UNKNOWN);
                FarArgs {
                    use_defer: 1,
                    bound: bits(bound),
                    fstamp: far.stamp,
                    fi: &mut far.idx,
                    fv: &mut far.vals,
                    fh: &mut far.hdr,
                    fm: &mut far.member,
                }
            }
            None => FarArgs {
                use_defer: 0,
                bound: 0,
                fstamp: 0,
                fi: idx,
                fv: vals,
                fh: hdr,
                fm: member,
            },
        }
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

    /// The one-block limits: defaults measured on an H100 (docs/BENCH-ALGOS.md), or
    /// `SEMIGRAPH_LOOP_ENTRIES` / `SEMIGRAPH_LOOP_ARCS` (read once; 0 entries turns the
    /// one-block path off).
    fn tuning(&self) -> Tuning {
        static T: OnceLock<Tuning> = OnceLock::new();
        *T.get_or_init(|| {
            let env = |k: &str| {
                std::env::var(k)
                    .ok()
                    .and_then(|v| v.trim().parse::<u64>().ok())
            };
            Tuning {
                loop_entries: env("SEMIGRAPH_LOOP_ENTRIES")
                    .map_or(LOOP_BLOCK as usize, |v| v.min(LOOP_BLOCK as u64) as usize),
                loop_arcs: env("SEMIGRAPH_LOOP_ARCS")
                    .map_or(8192, |v| v.min(u32::MAX as u64) as u32),
            }
        })
    }

    /// Sets the header's length to zero (no read-back).
    fn zero_len<S: Semiring>(&self, q: &mut GpuQueue<S>) -> Result<(), GpuError> {
        self.dev
            .stream
            .memset_zeros(&mut q.hdr.slice_mut(0..1))
            .map_err(|e| driver("clear a queue", e))
    }

    pub(super) fn q_new<S: Semiring>(&self, n: usize) -> Result<GpuQueue<S>, GpuError> {
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
            _s: PhantomData,
        })
    }

    pub(super) fn q_set<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> Result<(), GpuError> {
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

    fn read_hdr<S: Semiring>(&self, q: &GpuQueue<S>) -> Result<[u64; 4], GpuError> {
        let h = self.dev.download(&q.hdr, 4)?;
        Ok([h[0], h[1], h[2], h[3]])
    }

    pub(super) fn q_len<S: Semiring>(&self, q: &GpuQueue<S>) -> Result<QueueInfo, GpuError> {
        let h = self.read_hdr(q)?;
        q.set_hint(h[0] as usize);
        q.refused.store(h[3] != 0, Ordering::Relaxed);
        Ok(QueueInfo {
            len: h[0] as usize,
            steps: h[1] as usize,
            total: (h[2] + h[0]) as usize,
        })
    }

    pub(super) fn q_read<S: Semiring>(
        &self,
        q: &GpuQueue<S>,
    ) -> Result<(Vec<u32>, Vec<S::T>), GpuError> {
        let len = self.read_hdr(q)?[0] as usize;
        let idx = self.dev.download(&q.idx, len)?;
        let vals: Vec<S::T> = self.dev.download_scalars(&q.vals, len)?;
        let mut e: Vec<(u32, S::T)> = idx.into_iter().zip(vals).collect();
        e.sort_by_key(|p| p.0);
        Ok(e.into_iter().unzip())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn q_relax_step<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        from: &GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        defer: Option<Defer<'_, Self, S>>,
        to: &mut GpuQueue<S>,
    ) -> Result<(), GpuError> {
        let c = self.check_step(d, &out, from.n, a, to.n)?;
        let stamp = self.next_gen(to)?;
        self.zero_len(to)?;
        let ncols = a.info.ncols;
        // A full grid whatever the frontier's length: the blocks share a few long rows (the
        // kernels split each tile's arcs over the blocks the queue's tiles leave idle).
        let cfg = grid_for(UNKNOWN);
        let StepOutputs {
            mut parents,
            steps,
            only_new,
        } = out;
        let mut sc = self.scratch();
        let sc = &mut *sc;
        let f = self.dev.func::<S>(Kernel::QueueRelax)?;
        let fa = FarArgs::new(
            defer,
            from.n,
            "relax_step",
            &mut sc.idx,
            &mut sc.far_vals,
            &mut sc.hdr,
            &mut sc.member,
        );
        let witness_defer = (fa.use_defer, fa.bound);
        QueueRelaxArgs {
            rp: &c.rp,
            ci: &c.ci,
            av: &c.vals,
            qi: &from.idx,
            qv: &from.vals,
            qh: &from.hdr,
            d: &mut d.buf,
            mask: self.mask_arg(mask, ncols),
            seen: steps.as_deref().map_or(&self.dummy, |s| &s.buf),
            only_new: only_new as i32,
            member: &mut to.member,
            stamp,
            use_parents: parents.is_some() as i32,
            parents: parents.as_deref_mut().map_or(&mut sc.vals, |p| &mut p.buf),
            ti: &mut to.idx,
            th: &mut to.hdr,
            use_defer: fa.use_defer,
            bound: fa.bound,
            fi: fa.fi,
            fv: fa.fv,
            fh: fa.fh,
            fmember: fa.fm,
            fstamp: fa.fstamp,
        }
        .launch(&self.dev, &f, cfg)?;
        if let Some(p) = parents {
            let f = self.dev.func::<S>(Kernel::QueueWitness)?;
            QueueWitnessArgs {
                rp: &c.rp,
                ci: &c.ci,
                av: &c.vals,
                qi: &from.idx,
                qv: &from.vals,
                qh: &from.hdr,
                d: &d.buf,
                mask: self.mask_arg(mask, ncols),
                member: &to.member,
                stamp,
                parents: &mut p.buf,
                use_defer: witness_defer.0,
                bound: witness_defer.1,
            }
            .launch(&self.dev, &f, cfg)?;
        }
        let f = self.dev.func::<S>(Kernel::QueueFill)?;
        QueueFillArgs {
            ti: &to.idx,
            th: &to.hdr,
            d: &d.buf,
            tv: &mut to.vals,
            use_steps: steps.is_some() as i32,
            steps: steps.map_or(&mut sc.vals, |s| &mut s.buf),
        }
        .launch(&self.dev, &f, grid_for(UNKNOWN))?;
        to.set_hint(UNKNOWN);
        to.refused.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// Checks the shapes of a relaxation step and returns `A` in CSR.
    fn check_step<'m, S: Semiring>(
        &self,
        d: &GpuDense<S>,
        out: &StepOutputs<'_, Self>,
        from_n: usize,
        a: &'m GpuMatrix<S>,
        to_n: usize,
    ) -> Result<&'m DevCsr, GpuError> {
        let (nrows, ncols) = (a.info.nrows, a.info.ncols);
        assert_eq!(
            from_n, nrows,
            "relax_step: the frontier has n {from_n}, A has {nrows} rows"
        );
        assert_eq!(d.len(), ncols, "relax_step: d has the wrong length");
        assert_eq!(to_n, ncols, "relax_step: the output queue has the wrong n");
        for (what, x) in [("parents", &out.parents), ("steps", &out.steps)] {
            if let Some(x) = x {
                assert_eq!(x.len(), ncols, "relax_step: {what} have the wrong length");
            }
        }
        assert!(
            !out.only_new || out.steps.is_some(),
            "relax_step: only_new needs steps"
        );
        self.push_csr(a)
    }

    /// [`Frontier::queue_relax_steps`](semigraph_algos::Frontier::queue_relax_steps): a frontier known to be
    /// small runs its steps in one launch of one block ([`Kernel::QueueRelaxLoop`]), which
    /// stops by itself once the frontier outgrows the block; a larger or unknown one runs
    /// step by step over the whole GPU.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn q_relax_steps<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        mut out: StepOutputs<'_, Self>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        mut defer: Option<Defer<'_, Self, S>>,
        max_steps: usize,
        limit: usize,
    ) -> Result<(), GpuError> {
        // The one-block kernel reads the rows of each step's output: A must be square.
        assert_eq!(a.info.nrows, a.info.ncols, "relax_steps: A must be square");
        let tune = self.tuning();
        for done in 0..max_steps {
            let small = tune.loop_entries > 0 && q.hint() <= tune.loop_entries.min(limit);
            if small && !q.refused.swap(false, Ordering::Relaxed) {
                return self.q_relax_loop(
                    d,
                    out,
                    q,
                    spare,
                    a,
                    mask,
                    defer,
                    max_steps - done,
                    limit,
                );
            }
            let df = defer.as_mut().map(Defer::reborrow);
            self.q_relax_step(d, out.reborrow(), q, a, mask, df, spare)?;
            std::mem::swap(q, spare);
        }
        Ok(())
    }

    /// Up to `max_steps` steps of a small frontier in one launch of one block.
    #[allow(clippy::too_many_arguments)]
    fn q_relax_loop<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        defer: Option<Defer<'_, Self, S>>,
        max_steps: usize,
        limit: usize,
    ) -> Result<(), GpuError> {
        let c = self.check_step(d, &out, q.n, a, spare.n)?;
        let tune = self.tuning();
        let max_steps = max_steps.min(u32::MAX as usize - 2) as u32;
        // Steps 0, 2, 4, ... write `spare` (B), steps 1, 3, ... write `q` (A); A's last stamp
        // marks its final entries.
        let bstamp = self.reserve_gens(spare, max_steps.div_ceil(2).max(1))?;
        let astamp = self.reserve_gens(q, max_steps / 2 + 1)?;
        let afinal = q.stamp;
        let StepOutputs {
            parents,
            steps,
            only_new,
        } = out;
        let mut sc = self.scratch();
        let sc = &mut *sc;
        let f = self.dev.func::<S>(Kernel::QueueRelaxLoop)?;
        let ncols = a.info.ncols;
        let fa = FarArgs::new(
            defer,
            q.n,
            "relax_steps",
            &mut sc.idx,
            &mut sc.far_vals,
            &mut sc.hdr,
            &mut sc.member,
        );
        QueueRelaxLoopArgs {
            rp: &c.rp,
            ci: &c.ci,
            av: &c.vals,
            d: &mut d.buf,
            mask: self.mask_arg(mask, ncols),
            use_steps: steps.is_some() as i32,
            steps: steps.map_or(&mut sc.vals, |s| &mut s.buf),
            only_new: only_new as i32,
            use_parents: parents.is_some() as i32,
            parents: parents.map_or(&mut sc.words, |p| &mut p.buf),
            ai: &mut q.idx,
            avals: &mut q.vals,
            ah: &mut q.hdr,
            amember: &mut q.member,
            astamp,
            bi: &mut spare.idx,
            bvals: &mut spare.vals,
            bh: &mut spare.hdr,
            bmember: &mut spare.member,
            bstamp,
            afinal,
            max_steps,
            limit: limit.min(LOOP_BLOCK as usize) as u64,
            arc_limit: tune.loop_arcs,
            use_defer: fa.use_defer,
            bound: fa.bound,
            fi: fa.fi,
            fv: fa.fv,
            fh: fa.fh,
            fmember: fa.fm,
            fstamp: fa.fstamp,
        }
        .launch(
            &self.dev,
            &f,
            LaunchConfig {
                grid_dim: (1, 1, 1),
                block_dim: (LOOP_BLOCK, 1, 1),
                shared_mem_bytes: 0,
            },
        )?;
        q.set_hint(UNKNOWN);
        spare.set_hint(UNKNOWN);
        Ok(())
    }

    pub(super) fn q_assign<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        q: &GpuQueue<M>,
        value: S::T,
    ) -> Result<(), GpuError> {
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
        .launch(&self.dev, &f, grid_for(q.hint()))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn q_split<S: Semiring>(
        &self,
        from: &GpuQueue<S>,
        d: &GpuDense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut GpuQueue<S>,
        outside: Option<&mut GpuQueue<S>>,
    ) -> Result<(), GpuError> {
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

    pub(super) fn q_reduce<S: Semiring>(
        &self,
        q: &GpuQueue<S>,
    ) -> Result<(QueueInfo, S::T), GpuError> {
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

    pub(super) fn q_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &GpuQueue<S>,
        a: &GpuMatrix<M>,
    ) -> Result<(QueueInfo, usize), GpuError> {
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

    pub(super) fn q_clear<S: Semiring>(&self, q: &mut GpuQueue<S>) -> Result<(), GpuError> {
        self.zero_len(q)?;
        self.next_gen(q)?;
        Ok(())
    }

    pub(super) fn q_improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
        to: &mut GpuQueue<S>,
        steps: usize,
    ) -> Result<(), GpuError> {
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

    pub(super) fn q_to_dense<S: Semiring>(
        &self,
        q: &GpuQueue<S>,
        x: &mut GpuDense<S>,
    ) -> Result<(), GpuError> {
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
        .launch(&self.dev, &f, grid_for(q.hint()))
    }

    /// Scratch buffers for kernel arguments a launch does not use.
    fn scratch(&self) -> std::sync::MutexGuard<'_, super::Scratch> {
        self.scratch.lock().unwrap_or_else(|p| p.into_inner())
    }
}
