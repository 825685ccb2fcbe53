//! Work queues in device memory: the GPU form of [`semigraph_algos::Backend::Queue`].
//!
//! A queue is an array of vertex ids and one of values, a four-word header in device memory
//! (`[length, steps, entries before, unused]`) and a membership array (`member[i] == stamp` marks
//! the vertices appended since the queue was last cleared). Kernels read the length from the
//! header, so a chain of relaxation steps runs without the host: the host reads a header only
//! when an algorithm asks ([`Backend::queue_len`]). Launch grids follow a host-side *hint*
//! (the length last read along the chain): a small frontier gets a small grid, and grid-stride
//! loops cover any length.
//!
//! [`Backend::queue_len`]: semigraph_algos::Backend::queue_len

use std::marker::PhantomData;

use cudarc::driver::{CudaSlice, LaunchConfig};
use semigraph_algos::{Mask, Parents, QueueInfo};
use semigraph_semiring::Semiring;

use super::{BLOCK, GpuBackend, GpuDense, GpuMatrix, MAX_GRID};
use crate::codegen::Kernel;
use crate::device::{bits, bytes_of, scalars_from};
use crate::error::{GpuError, driver};
use crate::params::{
    MaskArg, QueueFillArgs, QueueImproveDenseArgs, QueueReduceArgs, QueueRelaxArgs,
    QueueScatterArgs, QueueSplitArgs, QueueWitnessArgs,
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
    /// The length last read along the chain that made this queue (sizes launch grids).
    hint: usize,
    _s: PhantomData<S>,
}

/// Threads for a queue kernel over about `work` items: enough for the work, at most a full
/// grid.
fn grid_for(work: usize) -> LaunchConfig {
    let blocks = (work as u64).div_ceil(BLOCK as u64).clamp(1, MAX_GRID);
    LaunchConfig {
        grid_dim: (blocks as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

impl GpuBackend {
    fn mask_arg<'a, 'm: 'a>(&'a self, mask: Mask<'m, Self>, len: usize) -> MaskArg<'a> {
        let m = self.mask_args(mask, len);
        MaskArg {
            buf: m.buf,
            mode: m.mode,
            size: m.size,
            zero: m.zero,
        }
    }

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

    /// Sets the header's length to zero (no read-back).
    fn zero_len<S: Semiring>(&self, q: &mut GpuQueue<S>) -> Result<(), GpuError> {
        self.dev
            .stream
            .memset_zeros(&mut q.hdr.slice_mut(0..1))
            .map_err(|e| driver("clear a queue", e))
    }

    /// Lanes per frontier entry for a matrix of `nnz` entries over `nrows` rows: the average
    /// row length rounded up to a power of two, 1 to 32.
    fn lanes(nrows: usize, nnz: usize) -> u32 {
        let avg = nnz as f64 / nrows.max(1) as f64;
        (avg.ceil() as u32).next_power_of_two().clamp(1, 32)
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
            hint: 0,
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
        q.hint = idx.len();
        Ok(())
    }

    fn read_hdr<S: Semiring>(&self, q: &GpuQueue<S>) -> Result<[u64; 4], GpuError> {
        let h = self.dev.download(&q.hdr, 4)?;
        Ok([h[0], h[1], h[2], h[3]])
    }

    pub(super) fn q_len<S: Semiring>(&self, q: &GpuQueue<S>) -> Result<QueueInfo, GpuError> {
        let h = self.read_hdr(q)?;
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
        let vals: Vec<S::T> = scalars_from(&self.dev.download(&q.vals, len * size_of::<S::T>())?);
        let mut e: Vec<(u32, S::T)> = idx.into_iter().zip(vals).collect();
        e.sort_by_key(|p| p.0);
        Ok(e.into_iter().unzip())
    }

    pub(super) fn q_relax_step<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        parents: Option<&mut GpuDense<Parents>>,
        from: &GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        to: &mut GpuQueue<S>,
    ) -> Result<(), GpuError> {
        let (nrows, ncols, nnz) = (a.info.nrows, a.info.ncols, a.info.nnz);
        assert_eq!(
            from.n, nrows,
            "relax_step: from has n {}, A has {nrows} rows",
            from.n
        );
        assert_eq!(d.len(), ncols, "relax_step: d has the wrong length");
        assert_eq!(to.n, ncols, "relax_step: to has the wrong n");
        if let Some(p) = &parents {
            assert_eq!(p.len(), ncols, "relax_step: parents have the wrong length");
        }
        let c = self.push_csr(a)?;
        let lanes = Self::lanes(nrows, nnz);
        let stamp = self.next_gen(to)?;
        self.zero_len(to)?;
        let cfg = grid_for(from.hint.max(1) * lanes as usize);
        let use_parents = parents.is_some() as i32;
        let mut parents = parents;
        let mut scratch = self.scratch();
        let f = self.dev.func::<S>(Kernel::QueueRelax)?;
        QueueRelaxArgs {
            rp: &c.rp,
            ci: &c.ci,
            av: &c.vals,
            qi: &from.idx,
            qv: &from.vals,
            qh: &from.hdr,
            d: &mut d.buf,
            mask: self.mask_arg(mask, ncols),
            member: &mut to.member,
            stamp,
            parents: match parents.as_deref_mut() {
                Some(p) => &mut p.buf,
                None => &mut scratch.vals,
            },
            use_parents,
            ti: &mut to.idx,
            th: &mut to.hdr,
            lanes,
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
                lanes,
            }
            .launch(&self.dev, &f, cfg)?;
        }
        let f = self.dev.func::<S>(Kernel::QueueFill)?;
        QueueFillArgs {
            ti: &to.idx,
            th: &to.hdr,
            d: &d.buf,
            tv: &mut to.vals,
        }
        .launch(&self.dev, &f, grid_for(from.hint.max(1)))?;
        to.hint = from.hint;
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
        .launch(&self.dev, &f, grid_for(q.hint.max(1)))
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
        let cfg = grid_for(from.hint.max(1));
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
                o.hint = o.hint.max(from.hint);
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
        inside.hint = inside.hint.max(from.hint);
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
        .launch(&self.dev, &f, grid_for(q.hint.max(1)))?;
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
        let info = QueueInfo {
            len: h[0] as usize,
            steps: h[1] as usize,
            total: (h[2] + h[0]) as usize,
        };
        Ok((info, scalars_from::<S::T>(&v)[0]))
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
        to.hint = d.len();
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
        .launch(&self.dev, &f, grid_for(q.hint.max(1)))
    }

    /// Scratch buffers for kernel arguments a launch does not use.
    fn scratch(&self) -> std::sync::MutexGuard<'_, super::Scratch> {
        self.scratch.lock().unwrap_or_else(|p| p.into_inner())
    }
}
