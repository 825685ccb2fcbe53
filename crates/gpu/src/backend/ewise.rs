//! `impl ElementWise for GpuBackend`: element-wise operators, assignment, relaxation with
//! change detection, union and range selection of sparse vectors, the dense transpose.

use super::*;

impl ElementWise for GpuBackend {
    fn transpose_matrix<S: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<GpuMatrix<S>> {
        Ok(self.transpose_dev(a)?)
    }

    fn ewise<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!((y.rows, y.cols), (x.rows, x.cols), "ewise shapes");
        let op = match op {
            Ewise::Add => 1,
            Ewise::Mul => 2,
        };
        let len = y.len();
        Ok(self.ewise_raw::<S>(&mut y.buf, &x.buf, len, mask, op)?)
    }

    fn apply<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> AlgoResult<()> {
        let (op, c) = match op {
            UnaryOp::Fill(c) => (0, c),
            UnaryOp::MulBy(c) => (1, c),
            UnaryOp::AddTo(c) => (2, c),
        };
        let len = y.len();
        Ok(self.apply_raw::<S>(&mut y.buf, len, mask, op, bits(c))?)
    }

    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        at: &GpuSparse<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        assert_eq!(at.n, y.len(), "assign_at: lengths");
        Ok(self.scatter::<S>(&mut y.buf, &at.idx, None, at.nnz, bits(value), 0, None)?)
    }

    fn transpose<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<GpuDense<S>> {
        self.transpose_dense(x)
    }

    fn improve<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuSparse<S>,
    ) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(t.n, d.len(), "improve: lengths");
        let mut out = self.alloc_vals::<S>(t.nnz, "relaxation results")?;
        let mut changed = self.dev.zeros::<u8>(t.nnz, "relaxation flags")?;
        if t.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::Improve)?;
            let nnz = t.nnz as u32;
            ImproveArgs {
                d: &mut d.buf,
                idx: &t.idx,
                vals: &t.vals,
                nnz,
                out: &mut out,
                changed: &mut changed,
            }
            .launch(&self.dev, &f, cfg_stride(t.nnz as u64))?;
        }
        Ok(self.compact_flagged::<S>(&out, Some(&changed), t.nnz, t.n, Some(&t.idx))?)
    }

    fn improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
    ) -> AlgoResult<usize> {
        assert_eq!((d.rows, d.cols), (t.rows, t.cols), "improve_dense shapes");
        let mut out = self.dev.zeros::<u64>(1, "count")?;
        let n = d.len() as u64;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::ImproveDense)?;
            ImproveDenseArgs {
                d: &mut d.buf,
                t: &t.buf,
                n,
                count: &mut out,
            }
            .launch(&self.dev, &f, cfg_stride(n))?;
        }
        Ok(self.read_u64(&out)? as usize)
    }

    fn union<S: Semiring>(&self, a: &GpuSparse<S>, b: &GpuSparse<S>) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(a.n, b.n, "union: lengths");
        // Positions are marked, not tested for the zero: `add` of two entries may be the zero
        // (plus-times with negatives), and the union still has that position.
        let mut t = self.filled::<S>(a.n, S::zero(), "union temporary")?;
        let mut mark = self.dev.zeros::<u8>(a.n, "union marks")?;
        self.scatter::<S>(&mut t, &a.idx, Some(&a.vals), a.nnz, 0, 0, Some(&mut mark))?;
        self.scatter::<S>(&mut t, &b.idx, Some(&b.vals), b.nnz, 0, 1, Some(&mut mark))?;
        Ok(self.compact_flagged::<S>(&t, Some(&mark), a.n, a.n, None)?)
    }

    fn select_range<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> AlgoResult<GpuSparse<S>> {
        let mut out = self.alloc_vals::<S>(x.nnz, "range selection")?;
        let mut flags = self.dev.zeros::<u8>(x.nnz, "range selection flags")?;
        if x.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::SelectRange)?;
            let (nnz, lo, hi) = (x.nnz as u32, bits(lo), bits(hi));
            SelectRangeArgs {
                x: &x.vals,
                nnz,
                lo_bits: lo,
                hi_bits: hi,
                out: &mut out,
                flags: &mut flags,
            }
            .launch(&self.dev, &f, cfg_stride(x.nnz as u64))?;
        }
        Ok(self.compact_flagged::<S>(&out, Some(&flags), x.nnz, x.n, Some(&x.idx))?)
    }
}

impl GpuBackend {
    pub(super) fn apply_raw<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
        op: i32,
        c: u64,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::Apply)?;
        let m = self.mask_args(mask, len);
        let n = len as u64;
        ApplyArgs {
            y,
            n,
            mask: m,
            op,
            cbits: c,
        }
        .launch(&self.dev, &f, cfg_stride(n))?;
        Ok(())
    }

    pub(super) fn ewise_raw<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        x: &CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
        op: i32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::Ewise)?;
        let m = self.mask_args(mask, len);
        let n = len as u64;
        EwiseArgs {
            y,
            x,
            n,
            mask: m,
            op,
        }
        .launch(&self.dev, &f, cfg_stride(n))?;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn scatter<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        idx: &CudaSlice<u32>,
        vals: Option<&CudaSlice<u8>>,
        nnz: usize,
        c: u64,
        op: i32,
        mark: Option<&mut CudaSlice<u8>>,
    ) -> Result<(), GpuError> {
        if nnz == 0 {
            return Ok(());
        }
        let f = self.dev.func::<S>(Kernel::Scatter)?;
        let n = nnz as u32;
        let use_vals: i32 = vals.is_some() as i32;
        let v = vals.unwrap_or(&self.dummy);
        let use_mark: i32 = mark.is_some() as i32;
        // Without marks, a scratch byte stands for the array the kernel never writes.
        let mut sc;
        let mark = match mark {
            Some(mk) => mk,
            None => {
                sc = self.scratch();
                &mut sc.words
            }
        };
        ScatterArgs {
            y,
            idx,
            vals: v,
            nnz: n,
            use_vals,
            cbits: c,
            op,
            mark,
            use_mark,
        }
        .launch(&self.dev, &f, cfg_stride(nnz as u64))?;
        Ok(())
    }
}
