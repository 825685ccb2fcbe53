//! [`Frontier::queue_levels`](semigraph_algos::Frontier::queue_levels) on the GPU: one launch
//! of [`Kernel::QueueLevels`], a block whose shared memory holds the visited set and the
//! frontier, continued where its levels grow wide by [`Kernel::QueueLevelsGrid`], the levels
//! over the whole GPU in one cooperative launch, several levels a grid barrier where the
//! frontier is narrow.

use super::super::{LevelsFronts, Scratch, cfg_stride};
use super::*;
use crate::params::{QueueLevelsGridArgs, QueueLevelsLogArgs, QueueLevelsRowsArgs};

impl GpuBackend {
    /// The levels from `seeds` along `a`'s structure: `Some((reached, depth))`. First in one
    /// block of [`LOOP_BLOCK`] threads, which reads `a`'s rows in four slots each
    /// ([`GpuBackend::rows4`], unless `SEMIGRAPH_LEVELS_ROWS4=0`) and logs its frontiers,
    /// whose levels [`Kernel::QueueLevelsLog`] then writes; where its frontiers grow wide (more than
    /// [`LEVELS_WIDE`] vertices a level on average, past the first 64 levels) the block hands
    /// its frontier to [`Kernel::QueueLevelsGrid`] (`SEMIGRAPH_LEVELS_GRID`
    /// blocks; 0 turns it off), which runs the levels until a frontier narrows below
    /// [`LEVELS_NARROW`] vertices (`SEMIGRAPH_LEVELS_NARROW`; 0: never) and hands it back to
    /// the block, which hands over again above [`LEVELS_AGAIN`] (`SEMIGRAPH_LEVELS_AGAIN`),
    /// at most [`LEVELS_TURNS`] times a traversal (then the grid runs to the end). `None` without a launch where
    /// the visited set (`n` bits) and two queues of [`LEVELS_MIN_ENTRIES`] entries do not fit
    /// the block's shared memory or the mode is off (`SEMIGRAPH_LEVELS_ENTRIES=0`), with
    /// `seeds` as it was; `None` after the launch where a frontier outgrew the block's queues
    /// (`seeds` emptied) or, with the grid off, the frontiers grew wide (`seeds` holds the
    /// frontier where the block stopped, each vertex with its level). With
    /// `SEMIGRAPH_LEVELS_GRID_SEEDS=1` the first two cases run the grid from the seeds instead.
    pub(super) fn levels_block<M: Semiring, L: Semiring<T = u32>>(
        &self,
        a: &GpuMatrix<M>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
    ) -> Result<Option<(usize, u32)>, GpuError> {
        let n = a.info.nrows;
        assert_eq!(n, a.info.ncols, "queue_levels: A must be square");
        assert_eq!(seeds.n, n, "queue_levels: the seeds' n is not A's");
        assert_eq!(levels.len(), n, "queue_levels: levels has the wrong length");
        let tune = self.tuning();
        // The kernel's own shared memory (its counters) beside the dynamic part.
        const STATIC: usize = 64;
        let words = n.div_ceil(32);
        let room = (self.smem_optin as usize).saturating_sub(STATIC + 4 * words) / 8;
        let qcap = room.min(tune.levels_entries);
        // The grid's frontier entries tag each vertex id with one of 2^32 stages.
        let grid = match n as u64 + 3 < u64::from(u32::MAX) {
            true => tune.levels_grid.min(self.sms),
            false => 0,
        };
        if qcap < LEVELS_MIN_ENTRIES {
            if grid > 0 && tune.levels_grid_seeds {
                self.push_csr(a)?;
                let mut sc = self.scratch();
                return self.levels_grid_seeds(&mut sc, a, seeds, levels).map(Some);
            }
            return Ok(None);
        }
        let c = self.push_csr(a)?;
        let r4 = match tune.levels_rows4 {
            true => Some(self.rows4(c)?),
            false => None,
        };
        let bytes = 4 * (words + 2 * qcap);
        let f = self.dev.func_any(Kernel::QueueLevels)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )
        .map_err(|e| driver("allow the levels kernel its shared memory", e))?;
        let mut guard = self.scratch();
        let sc = &mut *guard;
        // A frontier handed back fits the block's queue (and is below the hand-over again).
        let narrow = tune.levels_narrow.min(qcap as u32);
        let again = tune.levels_again.max(narrow).max(1);
        let mut turns = 0;
        let mut h = self.levels_block_run(sc, c, r4, seeds, levels, qcap, bytes, 0)?;
        loop {
            let [reached, depth, stop, len, ..] = h;
            match stop {
                0 if turns == 0 => return Ok(Some((reached as usize, depth as u32))),
                // Done after a hand-back: the queue it left is emptied, as the grid's.
                0 => {
                    self.empty_queue(seeds)?;
                    return Ok(Some((reached as usize, depth as u32)));
                }
                // Handed over: the grid goes on from the block's frontier, and may hand narrow
                // levels back (at most LEVELS_TURNS times).
                2 if grid > 0 => {
                    let back = if turns < LEVELS_TURNS { narrow } else { 0 };
                    match self.levels_grid(sc, a, seeds, levels, false, back)? {
                        Some(end) => return Ok(Some(end)),
                        None => {
                            turns += 1;
                            h = self
                                .levels_block_run(sc, c, r4, seeds, levels, qcap, bytes, again)?;
                            continue;
                        }
                    }
                }
                // Outgrown: the seeds are as they were.
                1 if grid > 0 && tune.levels_grid_seeds => {
                    return self.levels_grid_seeds(sc, a, seeds, levels).map(Some);
                }
                _ => {}
            }
            drop(guard);
            // Stopped: the frontier handed back, or (outgrown) nothing.
            if stop == 2 {
                self.next_gen(seeds)?;
                seeds.set_hint(len as usize);
                seeds.refused.store(false, Ordering::Relaxed);
            } else {
                self.empty_queue(seeds)?;
            }
            return Ok(None);
        }
    }

    /// One launch of [`Kernel::QueueLevels`] from `seeds` (`again`: 0 from the seeds; else
    /// resumed from the frontier [`Kernel::QueueLevelsGrid`] handed back, handing over again
    /// above `again` vertices a level), then [`Kernel::QueueLevelsLog`]: the block's counts
    /// (reached, last level, stop) and the seeds' header (the frontier's length where it
    /// stopped).
    #[allow(clippy::too_many_arguments)]
    fn levels_block_run<L: Semiring<T = u32>>(
        &self,
        sc: &mut Scratch,
        c: &DevCsr,
        r4: Option<&CudaSlice<u32>>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
        qcap: usize,
        bytes: usize,
        again: u32,
    ) -> Result<[u64; 7], GpuError> {
        let n = c.nrows;
        let tune = self.tuning();
        // The log: every entry the levels' kernel reads back it wrote first in the same BFS.
        let log = match &mut sc.lv_log {
            Some(l) if l.len() >= n => l,
            slot => {
                *slot = None;
                slot.insert(self.dev.uninit::<u64>(n.max(1), "levels log")?)
            }
        };
        let bits = match (&sc.lv_front, again) {
            (Some(f), 1..) => &f.bits,
            _ => &self.dummy_idx,
        };
        let hdr = &mut sc.hdr;
        let f = self.dev.func_any(Kernel::QueueLevels)?;
        QueueLevelsArgs {
            rp: &c.rp,
            ci: &c.ci,
            r4: r4.unwrap_or(&c.ci),
            use4: r4.is_some() as u32,
            n: n as u64,
            qi: &mut seeds.idx,
            qv: &mut seeds.vals,
            qh: &mut seeds.hdr,
            lv: &mut levels.buf,
            lg: log,
            qcap: qcap as u32,
            wide: tune.levels_wide,
            again,
            bits,
            out: hdr,
        }
        .launch(
            &self.dev,
            &f,
            LaunchConfig {
                grid_dim: (1, 1, 1),
                block_dim: (LOOP_BLOCK, 1, 1),
                shared_mem_bytes: bytes as u32,
            },
        )?;
        // The logged frontiers' levels, over the whole GPU.
        let f = self.dev.func_any(Kernel::QueueLevelsLog)?;
        QueueLevelsLogArgs {
            lg: log,
            out: hdr,
            lv: &mut levels.buf,
        }
        .launch(&self.dev, &f, cfg_stride(n as u64))?;
        let mut h = [0u64; 7];
        let s = &self.dev.stream;
        let read = |e| driver("read the levels' counts", e);
        s.memcpy_dtoh(&hdr.slice(0..3), &mut h[..3]).map_err(read)?;
        s.memcpy_dtoh(&seeds.hdr, &mut h[3..]).map_err(read)?;
        self.dev.sync()?;
        Ok(h)
    }

    /// [`GpuBackend::levels_grid`] from the seeds, which never hands back: `(reached, depth)`.
    fn levels_grid_seeds<M: Semiring, L: Semiring<T = u32>>(
        &self,
        sc: &mut Scratch,
        a: &GpuMatrix<M>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
    ) -> Result<(usize, u32), GpuError> {
        let end = self.levels_grid(sc, a, seeds, levels, true, 0)?;
        Ok(end.expect("a grid that may not hand back runs to the end"))
    }

    /// `q` emptied: its whole header cleared (the levels kernels leave a level and a count
    /// there, not a queue's steps), a new membership generation, no length hint.
    fn empty_queue<L: Semiring>(&self, q: &mut GpuQueue<L>) -> Result<(), GpuError> {
        self.dev
            .stream
            .memset_zeros(&mut q.hdr)
            .map_err(|e| driver("clear a queue", e))?;
        self.next_gen(q)?;
        q.set_hint(0);
        q.refused.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// The levels over the whole GPU ([`Kernel::QueueLevelsGrid`], one cooperative launch of
    /// `SEMIGRAPH_LEVELS_GRID` blocks) with the scratch `sc` held: from the frontier
    /// [`Kernel::QueueLevels`] handed back in `seeds` (`levels` `u32::MAX` at every vertex
    /// not reached yet), or (`fresh`) from the seeds (`levels` filled with `u32::MAX` first).
    /// A stage of the launch runs up to `SEMIGRAPH_LEVELS_SUB` levels, its blocks going on
    /// alone past the first where the most they could find fits their shared queues (the
    /// longest row `a` has bounds it). `narrow` (not 0): a frontier of fewer vertices after
    /// the first stage is handed back (`None`): `seeds` holds it (its header: length, level,
    /// the vertices reached before it) and the tagged frontiers' `bits` the visited set, for
    /// [`Kernel::QueueLevels`] to go on from.
    /// Else `Some((reached, depth))`; `seeds` is left empty. The two tagged frontiers stay
    /// allocated for the next run; they are cleared only when their tags run out (every
    /// `2^32 / (n + 2)` launches).
    fn levels_grid<M: Semiring, L: Semiring<T = u32>>(
        &self,
        sc: &mut Scratch,
        a: &GpuMatrix<M>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
        fresh: bool,
        narrow: u32,
    ) -> Result<Option<(usize, u32)>, GpuError> {
        let n = a.info.nrows;
        let c = self.push_csr(a)?;
        let max_row = self.tune_of(c)?.max_row;
        let s = &self.dev.stream;
        if sc.lv_front.as_ref().is_none_or(|f| f.fa.len() < n) {
            sc.lv_front = None;
            let f = || self.dev.zeros::<u64>(n.max(1), "tagged frontier");
            sc.lv_front = Some(LevelsFronts {
                fa: f()?,
                fb: f()?,
                bits: self
                    .dev
                    .zeros::<u32>(n.div_ceil(32).max(1), "visited bits")?,
                epoch: 1,
            });
        }
        let Scratch {
            hdr,
            grid_sync,
            lv_front:
                Some(LevelsFronts {
                    fa,
                    fb,
                    bits,
                    epoch,
                }),
            ..
        } = sc
        else {
            unreachable!("the tagged frontiers were allocated above")
        };
        // A launch uses at most n + 2 tags from its epoch on (a stage is at least a level):
        // taken before the launch (a launch that fails leaves none of its tags to the next).
        let tags = n as u64 + 2;
        if u64::from(*epoch) + tags > u64::from(u32::MAX) {
            let clear = |e| driver("clear the tagged frontiers", e);
            s.memset_zeros(fa).map_err(clear)?;
            s.memset_zeros(fb).map_err(clear)?;
            *epoch = 1;
        }
        let first = *epoch;
        *epoch += tags as u32;
        if fresh {
            // The seeds are taken by lowering their levels too (and a block that outgrew its
            // queues left levels behind).
            self.apply_raw::<L>(&mut levels.buf, n, Mask::All, 0, u64::from(u32::MAX))?;
        }
        let tune = self.tuning();
        // The sub-levels' two shared queues beside the kernel's own shared memory (its
        // frontier buffer and counters).
        const STATIC: u32 = 4 * 4096 + 64;
        let (kmax, half) = match tune.levels_sub {
            0 | 1 => (1, 0),
            k => (
                k,
                (self.smem_optin.saturating_sub(STATIC) / 8).min(tune.levels_sub_entries),
            ),
        };
        let f = self.dev.func_any(Kernel::QueueLevelsGrid)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            (8 * half) as i32,
        )
        .map_err(|e| driver("allow the grid's levels kernel its shared memory", e))?;
        QueueLevelsGridArgs {
            rp: &c.rp,
            ci: &c.ci,
            n: n as u64,
            qi: &mut seeds.idx,
            qh: &mut seeds.hdr,
            lv: &mut levels.buf,
            fa,
            fb,
            epoch: first,
            fresh: fresh as u32,
            maxdeg: max_row.min(u32::MAX as usize) as u32,
            kmax,
            half,
            narrow,
            bits,
            out: hdr,
            sync: grid_sync,
        }
        .launch_cooperative(
            &self.dev,
            &f,
            LaunchConfig {
                grid_dim: (tune.levels_grid.clamp(1, self.sms), 1, 1),
                block_dim: (GRID_BLOCK, 1, 1),
                shared_mem_bytes: 8 * half,
            },
        )?;
        let mut h = [0u64; 4];
        s.memcpy_dtoh(&hdr.slice(0..4), &mut h)
            .map_err(|e| driver("read the levels' counts", e))?;
        self.dev.sync()?;
        if h[3] == 1 {
            return Ok(None);
        }
        self.empty_queue(seeds)?;
        Ok(Some((h[0] as usize, h[1] as u32)))
    }

    /// `c`'s rows as four slots each ([`Kernel::QueueLevelsRows`]): made at the first call
    /// (16 bytes a row) and kept with the matrix's tuning, shared by its views.
    fn rows4<'c>(&self, c: &'c DevCsr) -> Result<&'c CudaSlice<u32>, GpuError> {
        let ct = self.tune_of(c)?;
        if let Some(r) = ct.rows4.get() {
            return Ok(r);
        }
        let n = c.nrows;
        // Written whole (four slots a row) before any BFS reads it.
        let mut r4 = self.dev.uninit::<u32>(4 * n.max(1), "rows in four slots")?;
        let f = self.dev.func_any(Kernel::QueueLevelsRows)?;
        QueueLevelsRowsArgs {
            rp: &c.rp,
            ci: &c.ci,
            n: n as u64,
            r4: &mut r4,
        }
        .launch(&self.dev, &f, cfg_stride(n as u64))?;
        Ok(ct.rows4.get_or_init(|| r4))
    }
}
