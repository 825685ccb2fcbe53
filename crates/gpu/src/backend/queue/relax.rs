//! The relaxation steps of the GPU work queues: one arc-balanced step over the whole GPU
//! ([`Kernel::QueueRelax`]), and a run of steps in one block for a small frontier
//! ([`Kernel::QueueRelaxLoop`]) or in one cooperative launch ([`Kernel::QueueRelaxGrid`]), with
//! the checks that pick between them; and relaxation to a fixpoint with no steps
//! ([`Kernel::QueueRelaxAsync`]).

use super::*;

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
    /// [`Frontier::queue_relax`](semigraph_algos::Frontier::queue_relax): one arc-balanced
    /// step over the whole GPU.
    pub(super) fn relax_step<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        from: &GpuQueue<S>,
        to: &mut GpuQueue<S>,
    ) -> Result<(), GpuError> {
        let RelaxStep {
            d,
            a,
            mask,
            out,
            defer,
        } = step;
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
            av: c.vals.arg(),
            qi: &from.idx,
            qv: &from.vals,
            qh: &from.hdr,
            d: &mut d.buf,
            mask: self.mask_args(mask, ncols),
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
                av: c.vals.arg(),
                qi: &from.idx,
                qv: &from.vals,
                qh: &from.hdr,
                d: &d.buf,
                mask: self.mask_args(mask, ncols),
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
    /// small (at most [`LOOP_ENTRIES`] entries by default) runs its steps in one launch of one
    /// block ([`Kernel::QueueRelaxLoop`]), which stops by itself before a frontier of more
    /// entries or arcs than one block should take; a larger or unknown one in one cooperative
    /// launch ([`Kernel::QueueRelaxGrid`]), which stops by itself before a frontier of more
    /// than [`GRID_ENTRIES`]; a frontier that either refused, or known to be larger, runs a
    /// step over the whole GPU.
    pub(super) fn relax_steps<S: Semiring>(
        &self,
        mut step: RelaxStep<'_, '_, Self, S>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        max_steps: usize,
        limit: usize,
    ) -> Result<(), GpuError> {
        // The one-block kernel reads the rows of each step's output: A must be square.
        let info = &step.a.info;
        assert_eq!(info.nrows, info.ncols, "relax_steps: A must be square");
        let tune = self.tuning();
        for done in 0..max_steps {
            // A kernel that stopped before its first step (the frontier outgrew it) is not
            // tried again on the same frontier: that step runs on its own.
            if !q.refused.swap(false, Ordering::Relaxed) {
                let hint = q.hint();
                if tune.loop_entries > 0 && hint <= tune.loop_entries.min(limit) {
                    return self.relax_run(
                        Kernel::QueueRelaxLoop,
                        step,
                        q,
                        spare,
                        max_steps - done,
                        limit,
                    );
                }
                if tune.grid_entries > 0 && (hint == UNKNOWN || hint <= tune.grid_entries) {
                    return self.relax_run(
                        Kernel::QueueRelaxGrid,
                        step,
                        q,
                        spare,
                        max_steps - done,
                        limit,
                    );
                }
            }
            self.relax_step(step.reborrow(), q, spare)?;
            std::mem::swap(q, spare);
        }
        Ok(())
    }

    /// Up to `max_steps` steps from `q` in one launch of `kernel`: [`Kernel::QueueRelaxLoop`]
    /// (one block, a small frontier) or [`Kernel::QueueRelaxGrid`] (a block per
    /// multiprocessor, launched cooperatively), stopping before a frontier of more than `limit`
    /// entries or the kernel's own bound (`loop_entries`, `grid_entries`); the frontier ends
    /// in `q`.
    fn relax_run<S: Semiring>(
        &self,
        kernel: Kernel,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        max_steps: usize,
        limit: usize,
    ) -> Result<(), GpuError> {
        let (blocks, threads, bound) = match kernel {
            Kernel::QueueRelaxGrid => (self.sms, GRID_BLOCK, self.tuning().grid_entries),
            _ => (1, LOOP_BLOCK, self.tuning().loop_entries),
        };
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        let limit = limit.min(bound);
        let RelaxStep {
            d,
            a,
            mask,
            out,
            defer,
        } = step;
        let c = self.check_step(d, &out, q.n, a, spare.n)?;
        let tune = self.tuning();
        let max_steps = max_steps.min(u32::MAX as usize - 2) as u32;
        // Steps 0, 2, 4, ... write `spare` (B), steps 1, 3, ... write `q` (A); A's last stamp
        // marks its final entries.
        let bstamp = self.reserve_gens(spare, max_steps.div_ceil(2).max(1))?;
        let astamp = self.reserve_gens(q, max_steps / 2 + 1)?;
        let afinal = q.stamp;
        // The cooperative kernel expects the first step's output empty (the one block keeps
        // its outputs' lengths itself).
        if kernel == Kernel::QueueRelaxGrid {
            self.zero_len(spare)?;
        }
        let StepOutputs {
            parents,
            steps,
            only_new,
        } = out;
        let mut sc = self.scratch();
        let sc = &mut *sc;
        let f = self.dev.func::<S>(kernel)?;
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
        let args = QueueRelaxLoopArgs {
            rp: &c.rp,
            ci: &c.ci,
            av: c.vals.arg(),
            d: &mut d.buf,
            mask: self.mask_args(mask, ncols),
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
            limit: limit as u64,
            arc_limit: tune.loop_arcs,
            use_defer: fa.use_defer,
            bound: fa.bound,
            fi: fa.fi,
            fv: fa.fv,
            fh: fa.fh,
            fmember: fa.fm,
            fstamp: fa.fstamp,
            sync: &mut sc.grid_sync,
        };
        if kernel == Kernel::QueueRelaxGrid {
            args.launch_cooperative(&self.dev, &f, cfg)?;
        } else {
            args.launch(&self.dev, &f, cfg)?;
        }
        q.set_hint(UNKNOWN);
        spare.set_hint(UNKNOWN);
        Ok(())
    }

    /// [`Frontier::queue_relax_fixpoint`](semigraph_algos::Frontier::queue_relax_fixpoint):
    /// one launch of [`Kernel::QueueRelaxAsync`] (blocks of [`LOOP_BLOCK`] threads, one per
    /// [`FIX_VERTICES_PER_BLOCK`] vertices, at least [`FIX_MIN_BLOCKS`]) through a worklist of at most `min(limit, FIX_APPENDS x n)` appends (`SEMIGRAPH_FIX_APPENDS`), stopping
    /// once more than `fix_pending` entries (or one per [`FIX_VERTICES_PER_PENDING`]
    /// vertices) wait at once; `Some(None)` where the kernel
    /// stopped; `None` where it does not apply (a mask, values of more than 4 bytes, or the
    /// mode turned off): then the provided version. A deferral's entries go to its far queue
    /// as they are taken.
    pub(super) fn relax_fixpoint<S: Semiring>(
        &self,
        step: RelaxStep<'_, '_, Self, S>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        limit: usize,
    ) -> Result<Option<Option<usize>>, GpuError> {
        let tune = self.tuning();
        // Entries hold a value in 32 bits beside the vertex.
        if !matches!(step.mask, Mask::All) || tune.fix_pending == 0 || size_of::<S::T>() > 4 {
            return Ok(None);
        }
        step.assert_values_only();
        let RelaxStep {
            d, a, out, defer, ..
        } = step;
        let info = &a.info;
        assert_eq!(info.nrows, info.ncols, "relax_fixpoint: A must be square");
        let c = self.check_step(d, &out, q.n, a, spare.n)?;
        let cap = limit.min(tune.fix_appends.saturating_mul(q.n)).max(1);
        // The worklist lives with the spare queue, made once a run (the buckets of one run
        // each call this): zero at launch, and cleared after by the slots used.
        if spare.worklist.as_ref().is_none_or(|w| w.len() < cap) {
            let what = "the fixpoint's worklist";
            spare.worklist = None;
            self.dev.check_fits(what, cap as u64 * 8)?;
            spare.worklist = Some(self.dev.zeros::<u64>(cap, what)?);
        }
        let mut wl = spare.worklist.take().expect("made above");
        // The counters: the spare queue's header, zeroed (the queue is emptied after).
        self.dev
            .stream
            .memset_zeros(&mut spare.hdr)
            .map_err(|e| driver("clear the fixpoint's counters", e))?;
        let f = self.dev.func::<S>(Kernel::QueueRelaxAsync)?;
        let blocks = match tune.fix_blocks {
            0 => (q.n / FIX_VERTICES_PER_BLOCK).clamp(FIX_MIN_BLOCKS as usize, self.sms as usize)
                as u32,
            b => b.min(self.sms),
        };
        let cfg = LaunchConfig {
            grid_dim: (blocks.max(1), 1, 1),
            block_dim: (LOOP_BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut sc = self.scratch();
        let sc = &mut *sc;
        let fa = FarArgs::new(
            defer,
            q.n,
            "relax_fixpoint",
            &mut sc.idx,
            &mut sc.far_vals,
            &mut sc.hdr,
            &mut sc.member,
        );
        QueueRelaxAsyncArgs {
            rp: &c.rp,
            ci: &c.ci,
            av: c.vals.arg(),
            d: &mut d.buf,
            qi: &q.idx,
            qv: &q.vals,
            qh: &q.hdr,
            wl: &mut wl,
            cap: cap as u64,
            ctr: &mut spare.hdr,
            spill: tune.fix_pending.max(q.n / FIX_VERTICES_PER_PENDING) as u64,
            use_defer: fa.use_defer,
            bound: fa.bound,
            fi: fa.fi,
            fv: fa.fv,
            fh: fa.fh,
            fmember: fa.fm,
            fstamp: fa.fstamp,
        }
        .launch(&self.dev, &f, cfg)?;
        let [_, appended, _, stopped] = self.read_hdr(spare)?;
        // Slots are written below `appended` alone (and below `cap`).
        let used = (appended as usize).min(cap);
        if used > 0 {
            self.dev
                .stream
                .memset_zeros(&mut wl.slice_mut(0..used))
                .map_err(|e| driver("clear the fixpoint's worklist", e))?;
        }
        spare.worklist = Some(wl);
        // Both queues empty, as after a run to the end.
        for x in [&mut *q, &mut *spare] {
            self.dev
                .stream
                .memset_zeros(&mut x.hdr)
                .map_err(|e| driver("clear a queue", e))?;
            x.set_hint(0);
            x.refused.store(false, Ordering::Relaxed);
        }
        Ok(Some((stopped == 0).then_some(appended as usize)))
    }
}
