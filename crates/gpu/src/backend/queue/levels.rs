//! [`Frontier::queue_levels`](semigraph_algos::Frontier::queue_levels) on the GPU: one launch
//! of [`Kernel::QueueLevels`], a block whose shared memory holds the visited set and the
//! frontier.

use super::*;

impl GpuBackend {
    /// The levels from `seeds` along `a`'s structure in one block of [`LOOP_BLOCK`] threads:
    /// `Some((reached, depth))`; `None` without a launch where the visited set (`n` bits) and
    /// two queues of [`LEVELS_MIN_ENTRIES`] entries do not fit the block's shared memory or the
    /// mode is off (`SEMIGRAPH_LEVELS_ENTRIES=0`), with `seeds` as it was; `None` after the
    /// launch where a frontier outgrew the queues (`seeds` emptied) or the frontiers grew wide
    /// (more than [`LEVELS_WIDE`] vertices a level on average, past the first 64 levels:
    /// `seeds` holds the frontier where the block stopped, each vertex with its level).
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
        // The kernel's own shared memory (its counters) beside the dynamic part.
        const STATIC: usize = 64;
        let words = n.div_ceil(32);
        let room = (self.smem_optin as usize).saturating_sub(STATIC + 4 * words) / 8;
        let qcap = room.min(self.tuning().levels_entries);
        if qcap < LEVELS_MIN_ENTRIES {
            return Ok(None);
        }
        let c = self.push_csr(a)?;
        let bytes = 4 * (words + 2 * qcap);
        let f = self.dev.func_any(Kernel::QueueLevels)?;
        f.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )
        .map_err(|e| driver("allow the levels kernel its shared memory", e))?;
        let mut sc = self.scratch();
        QueueLevelsArgs {
            rp: &c.rp,
            ci: &c.ci,
            n: n as u64,
            qi: &mut seeds.idx,
            qv: &mut seeds.vals,
            qh: &mut seeds.hdr,
            lv: &mut levels.buf,
            qcap: qcap as u32,
            wide: LEVELS_WIDE,
            out: &mut sc.hdr,
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
        drop(sc);
        let [reached, depth, stop, len, ..] = h;
        if stop == 0 {
            return Ok(Some((reached as usize, depth as u32)));
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
}
