//! [`Frontier::queue_levels`](semigraph_algos::Frontier::queue_levels) on the GPU: one launch
//! of [`Kernel::QueueLevels`], a block whose shared memory holds the visited set and the
//! frontier, continued where its levels grow wide by [`Kernel::QueueLevelsGrid`], the levels
//! over the whole GPU in one cooperative launch.

use super::*;
use crate::params::QueueLevelsGridArgs;

impl GpuBackend {
    /// The levels from `seeds` along `a`'s structure: `Some((reached, depth))`. First in one
    /// block of [`LOOP_BLOCK`] threads; where its frontiers grow wide (more than
    /// [`LEVELS_WIDE`] vertices a level on average, past the first 64 levels) the block hands
    /// its frontier and visited set to [`Kernel::QueueLevelsGrid`] (`SEMIGRAPH_LEVELS_GRID`
    /// blocks; 0 turns it off), which runs the remaining levels. `None` without a launch where
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
        let grid = tune.levels_grid.min(self.sms);
        if qcap < LEVELS_MIN_ENTRIES {
            if grid > 0 && tune.levels_grid_seeds {
                return self.levels_grid(a, seeds, levels, None).map(Some);
            }
            return Ok(None);
        }
        let c = self.push_csr(a)?;
        // The visited set the block hands over, with the grid's level counters after it.
        let mut seen = match grid {
            0 => None,
            _ => Some(self.dev.zeros::<u32>(words + 3, "visited bitmap")?),
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
        QueueLevelsArgs {
            rp: &c.rp,
            ci: &c.ci,
            n: n as u64,
            qi: &mut seeds.idx,
            qv: &mut seeds.vals,
            qh: &mut seeds.hdr,
            lv: &mut levels.buf,
            qcap: qcap as u32,
            wide: tune.levels_wide,
            out: &mut sc.hdr,
            save: seen.is_some() as u32,
            gseen: seen.as_mut().unwrap_or(&mut sc.member),
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
        let mut h = [0u64; 7];
        let s = &self.dev.stream;
        let read = |e| driver("read the levels' counts", e);
        s.memcpy_dtoh(&sc.hdr.slice(0..3), &mut h[..3])
            .map_err(read)?;
        s.memcpy_dtoh(&seeds.hdr, &mut h[3..]).map_err(read)?;
        self.dev.sync()?;
        // Released before the grid's launch takes the scratch again.
        drop(guard);
        let [reached, depth, stop, len, ..] = h;
        match (stop, seen) {
            (0, _) => return Ok(Some((reached as usize, depth as u32))),
            // Handed over: the grid goes on from the block's frontier.
            (2, Some(seen)) => return self.levels_grid(a, seeds, levels, Some(seen)).map(Some),
            // Outgrown: the seeds are as they were.
            (1, Some(_)) if tune.levels_grid_seeds => {
                return self.levels_grid(a, seeds, levels, None).map(Some);
            }
            _ => {}
        }
        // Stopped: the frontier handed back, or (outgrown) nothing.
        let len = if stop == 2 { len as usize } else { 0 };
        if stop != 2 {
            s.memset_zeros(&mut seeds.hdr)
                .map_err(|e| driver("clear a queue", e))?;
        }
        self.next_gen(seeds)?;
        seeds.set_hint(len);
        seeds.refused.store(false, Ordering::Relaxed);
        Ok(None)
    }

    /// The levels over the whole GPU ([`Kernel::QueueLevelsGrid`], one cooperative launch of
    /// `SEMIGRAPH_LEVELS_GRID` blocks): from the frontier [`Kernel::QueueLevels`] handed back
    /// in `seeds` with its visited set `seen` (`ceil(n / 32)` words and 3 zero counters), or
    /// (`seen` `None`) from the seeds. `(reached, depth)`; `seeds` is left empty.
    fn levels_grid<M: Semiring, L: Semiring<T = u32>>(
        &self,
        a: &GpuMatrix<M>,
        seeds: &mut GpuQueue<L>,
        levels: &mut GpuDense<L>,
        seen: Option<CudaSlice<u32>>,
    ) -> Result<(usize, u32), GpuError> {
        let n = a.info.nrows;
        let c = self.push_csr(a)?;
        let fresh = seen.is_none();
        let mut seen = match seen {
            Some(s) => s,
            None => self
                .dev
                .zeros::<u32>(n.div_ceil(32) + 3, "visited bitmap")?,
        };
        // The other half of the frontier's two buffers (`seeds` the first).
        let mut qb = self.dev.uninit::<u32>(n.max(1), "frontier")?;
        let f = self.dev.func_any(Kernel::QueueLevelsGrid)?;
        let mut sc = self.scratch();
        let sc = &mut *sc;
        QueueLevelsGridArgs {
            rp: &c.rp,
            ci: &c.ci,
            n: n as u64,
            qi: &mut seeds.idx,
            qh: &seeds.hdr,
            lv: &mut levels.buf,
            seen: &mut seen,
            qb: &mut qb,
            fresh: fresh as u32,
            out: &mut sc.hdr,
            sync: &mut sc.grid_sync,
        }
        .launch_cooperative(
            &self.dev,
            &f,
            LaunchConfig {
                grid_dim: (self.tuning().levels_grid.clamp(1, self.sms), 1, 1),
                block_dim: (GRID_BLOCK, 1, 1),
                shared_mem_bytes: 0,
            },
        )?;
        let mut h = [0u64; 2];
        let s = &self.dev.stream;
        s.memcpy_dtoh(&sc.hdr.slice(0..2), &mut h)
            .map_err(|e| driver("read the levels' counts", e))?;
        s.memset_zeros(&mut seeds.hdr)
            .map_err(|e| driver("clear a queue", e))?;
        self.dev.sync()?;
        self.next_gen(seeds)?;
        seeds.set_hint(0);
        seeds.refused.store(false, Ordering::Relaxed);
        Ok((h[0] as usize, h[1] as u32))
    }
}
