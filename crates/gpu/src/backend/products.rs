//! The products of the GPU backend (`mxm`: SpMV/SpMM in every format and CSR kernel, `vxm`:
//! SpMSpV, the dense transpose, the witnesses of a push product), and `impl Products for
//! GpuBackend` (whose `gemm` is in `gemm.rs`).

use super::*;

impl GpuBackend {
    pub(super) fn transpose_dense<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<GpuDense<S>> {
        let what = format!("the transpose of a {}x{} array", x.rows, x.cols);
        self.dev
            .check_fits(&what, (x.len() * size_of::<S::T>()) as u64)?;
        let mut y = GpuDense {
            buf: self.alloc_vals::<S>(x.len(), &what)?,
            rows: x.cols,
            cols: x.rows,
            _s: PhantomData,
        };
        let tiles = (x.rows as u64).div_ceil(32) * (x.cols as u64).div_ceil(32);
        if tiles > 0 {
            let f = self.dev.func::<S>(Kernel::Transpose)?;
            let cfg = LaunchConfig {
                grid_dim: (tiles.min(MAX_GRID) as u32, 1, 1),
                block_dim: (32, 8, 1),
                shared_mem_bytes: 0,
            };
            crate::params::TransposeArgs {
                x: &x.buf,
                y: &mut y.buf,
                rows: x.rows as u64,
                cols: x.cols as u64,
            }
            .launch(&self.dev, &f, cfg)?;
        }
        Ok(y)
    }

    pub(super) fn mxm_product<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuMatrix<S>,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(
            x.rows, ncols,
            "mxm: x has {} rows, A has {ncols} columns",
            x.rows
        );
        assert_eq!((y.rows, y.cols), (nrows, x.cols), "mxm: y shape");
        if y.len() == 0 {
            return Ok(());
        }
        let k = to_u32("vectors per product", x.cols)?;
        let n32 = nrows as u32;
        let m = self.mask_args(mask, y.len());
        let acc: i32 = (accum == Accum::Add) as i32;
        let outs = nrows as u64 * k as u64;
        // Kernels that combine partial results atomically write a zeroed temporary `t`; the
        // masked accumulation into `y` follows as an element-wise pass.
        let via_temp =
            |me: &Self, y: &mut GpuDense<S>, fill: &TempFill<'_>| -> Result<(), GpuError> {
                let mut t = me.filled::<S>(y.len(), S::zero(), "product temporary")?;
                fill(&mut t, &m)?;
                let len = y.len();
                me.ewise_raw::<S>(&mut y.buf, &t, len, mask, acc)
            };
        // A masked product whose rows may stop at their first term (a pull step of BFS) takes
        // a kernel that stops there.
        let early = S::FIRST_WINS && !matches!(mask, Mask::All);
        let csr_kernel = |c: &DevCsr| -> Result<CsrKernel, GpuError> {
            let kernel = self.tune_of(c)?.kernel;
            Ok(match early {
                true => kernel.for_early_exit(),
                false => kernel.for_columns(k),
            })
        };
        match &a.storage {
            Storage::Csr(c) => match csr_kernel(c)? {
                CsrKernel::Scalar => {
                    let f = self.dev.func::<S>(Kernel::SpmvCsrScalar)?;
                    SpmvCsrScalarArgs {
                        rp: &*c.rp,
                        ci: &*c.ci,
                        av: c.vals.arg(),
                        x: &x.buf,
                        y: &mut y.buf,
                        nrows: n32,
                        k,
                        mask: m,
                        accum: acc,
                    }
                    .launch(&self.dev, &f, cfg1(outs))?;
                }
                CsrKernel::Vector(vw) => {
                    assert!(vw.is_power_of_two() && vw <= 32, "sub-warp width {vw}");
                    let f = self.dev.func::<S>(Kernel::SpmvCsrVector)?;
                    // Masked: a thread per output tests the mask (see the kernel).
                    let threads = if m.mode != 0 { outs } else { outs * vw as u64 };
                    SpmvCsrVectorArgs {
                        rp: &*c.rp,
                        ci: &*c.ci,
                        av: c.vals.arg(),
                        x: &x.buf,
                        y: &mut y.buf,
                        nrows: n32,
                        k,
                        mask: m,
                        accum: acc,
                        vw,
                    }
                    .launch(&self.dev, &f, cfg1(threads))?;
                }
                CsrKernel::Adaptive => {
                    let p = (self.tune_of(c)?.plan.as_ref()).expect("adaptive CSR has a plan");
                    let mut part = self.filled::<S>(
                        p.nslots as usize * k as usize,
                        S::zero(),
                        "adaptive partial rows",
                    )?;
                    if p.nblocks > 0 {
                        let f = self.dev.func::<S>(Kernel::SpmvCsrAdaptive)?;
                        let cfg = LaunchConfig {
                            grid_dim: (p.nblocks, k, 1),
                            block_dim: (ADAPTIVE_THREADS, 1, 1),
                            shared_mem_bytes: 0,
                        };
                        SpmvCsrAdaptiveArgs {
                            rp: &*c.rp,
                            ci: &*c.ci,
                            av: c.vals.arg(),
                            x: &x.buf,
                            y: &mut y.buf,
                            k,
                            plan: &p.blocks,
                            slot: &p.slots,
                            part: &mut part,
                            mask: m,
                            accum: acc,
                        }
                        .launch(&self.dev, &f, cfg)?;
                    }
                    if p.nslots > 0 {
                        let f = self.dev.func::<S>(Kernel::SpmvCsrAdaptiveFinish)?;
                        SpmvCsrAdaptiveFinishArgs {
                            rows: &p.long_rows,
                            part: &part,
                            y: &mut y.buf,
                            nslots: p.nslots,
                            k,
                            mask: m,
                            accum: acc,
                        }
                        .launch(
                            &self.dev,
                            &f,
                            cfg1(p.nslots as u64 * k as u64),
                        )?;
                    }
                }
                CsrKernel::Split(chunk) => {
                    let nnz = a.info.nnz as u32;
                    via_temp(self, y, &|t, m| {
                        if nnz == 0 {
                            return Ok(());
                        }
                        let f = self.dev.func::<S>(Kernel::SpmvCsrSplit)?;
                        let pieces = (nnz as u64).div_ceil(chunk as u64) * k as u64;
                        SpmvCsrSplitArgs {
                            rp: &*c.rp,
                            ci: &*c.ci,
                            av: c.vals.arg(),
                            x: &x.buf,
                            t,
                            nrows: n32,
                            k,
                            mask: *m,
                            nnz,
                            chunk,
                        }
                        .launch(&self.dev, &f, cfg1(pieces))?;
                        Ok(())
                    })?;
                }
            },
            Storage::Ell(e) => self.ell_into::<S>(e, &x.buf, &mut y.buf, n32, k, &m, acc)?,
            Storage::Dia { ndiag, offs, data } => {
                let f = self.dev.func::<S>(Kernel::SpmvDia)?;
                let nc = ncols as u32;
                SpmvDiaArgs {
                    offs: &**offs,
                    data: &**data,
                    x: &x.buf,
                    y: &mut y.buf,
                    nrows: n32,
                    ncols: nc,
                    k,
                    ndiag: *ndiag,
                    mask: m,
                    accum: acc,
                }
                .launch(&self.dev, &f, cfg1(outs))?;
            }
            Storage::Coo(c) => via_temp(self, y, &|t, m| self.coo_into::<S>(c, &x.buf, t, k, m))?,
            Storage::Hyb(e, c) => via_temp(self, y, &|t, m| {
                let all = self.mask_args(Mask::All, 0);
                self.ell_into::<S>(e, &x.buf, t, n32, k, &all, 0)?;
                self.coo_into::<S>(c, &x.buf, t, k, m)
            })?,
            Storage::Dense(d) => {
                let f = self.dev.func::<S>(Kernel::SpmvDense)?;
                let nc = ncols as u32;
                SpmvDenseArgs {
                    a: &**d,
                    x: &x.buf,
                    y: &mut y.buf,
                    nrows: n32,
                    ncols: nc,
                    k,
                    mask: m,
                    accum: acc,
                }
                .launch(&self.dev, &f, cfg1(outs * 32))?;
            }
        }
        Ok(())
    }

    pub(super) fn vxm_product<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
    ) -> AlgoResult<GpuSparse<S>> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(x.n, nrows, "vxm: x has length {}, A has {nrows} rows", x.n);
        let c = self.push_csr(a)?;
        let mut t = self.filled::<S>(ncols, S::zero(), "push product temporary")?;
        let m = self.mask_args(mask, ncols);
        if x.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::VxmCsr)?;
            let nx = x.nnz as u32;
            VxmCsrArgs {
                rp: &*c.rp,
                ci: &*c.ci,
                av: c.vals.arg(),
                xi: &x.idx,
                xv: &x.vals,
                nx,
                t: &mut t,
                mask: m,
            }
            .launch(&self.dev, &f, cfg1(x.nnz as u64 * 32))?;
        }
        Ok(self.compact_raw::<S>(&t, ncols, ncols, None)?)
    }
}

impl Products for GpuBackend {
    /// Chooses and plans the SpMV kernel of a CSR matrix built on the device (a transpose),
    /// reading its row pointers back now rather than at its first product.
    fn prepare<S: Semiring>(&self, a: &GpuMatrix<S>) -> semigraph_algos::Result<()> {
        self.csr_kernel_of(a)?;
        Ok(())
    }

    fn spgemm<S: Semiring>(
        &self,
        mask: semigraph_algos::MatrixMask<'_, Self, S>,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
    ) -> AlgoResult<GpuMatrix<S>> {
        Ok(self.spgemm_dev(mask, a, b, false)?)
    }

    fn spgemm_t<S: Semiring>(
        &self,
        mask: semigraph_algos::MatrixMask<'_, Self, S>,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
    ) -> AlgoResult<GpuMatrix<S>> {
        Ok(self.spgemm_dev(mask, a, b, true)?)
    }

    fn mxm<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuMatrix<S>,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        self.mxm_product(y, mask, accum, a, x)
    }

    fn vxm<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
    ) -> AlgoResult<GpuSparse<S>> {
        self.vxm_product(x, a, mask)
    }

    fn sddmm<S: Semiring>(
        &self,
        mask: &GpuMatrix<S>,
        x: &GpuDense<S>,
        y: &GpuDense<S>,
    ) -> AlgoResult<GpuMatrix<S>> {
        let MatrixInfo { nrows, ncols, .. } = mask.info;
        semigraph_algos::backend::check_sddmm((nrows, ncols), x.shape(), y.shape())?;
        Ok(self.sddmm_dev(mask, x, y)?)
    }

    fn gemm<S: Semiring>(
        &self,
        c: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> AlgoResult<()> {
        self.gemm_product(c, mask, accum, a, b)
    }

    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut GpuDense<Parents>,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        d: &GpuDense<S>,
        at: &GpuSparse<M>,
    ) -> AlgoResult<()> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(
            x.n, nrows,
            "witness: x has length {}, A has {nrows} rows",
            x.n
        );
        assert_eq!(d.len(), ncols, "witness: d has the wrong length");
        assert_eq!(p.len(), ncols, "witness: p has the wrong length");
        assert_eq!(at.n, ncols, "witness: at has the wrong length");
        if at.nnz == 0 {
            return Ok(());
        }
        self.scatter::<Parents>(&mut p.buf, &at.idx, None, at.nnz, bits(NO_PARENT), 0, None)?;
        if x.nnz == 0 {
            return Ok(());
        }
        let mut target = self.dev.zeros::<u8>(ncols, "witness targets")?;
        self.scatter::<OrAnd>(&mut target, &at.idx, None, at.nnz, bits(true), 0, None)?;
        let c = self.push_csr(a)?;
        let lanes = witness_lanes(nrows, a.info.nnz, self.tune_of(c)?.max_row);
        let f = self.dev.func::<S>(Kernel::Witness)?;
        let nx = x.nnz as u32;
        WitnessArgs {
            rp: &*c.rp,
            ci: &*c.ci,
            av: c.vals.arg(),
            xi: &x.idx,
            xv: &x.vals,
            nx,
            lanes,
            d: &d.buf,
            target: &target,
            p: &mut p.buf,
        }
        .launch(&self.dev, &f, cfg1(x.nnz as u64 * u64::from(lanes)))?;
        Ok(())
    }
}

/// Threads of [`Kernel::Witness`] a row of a matrix of `nrows` rows, `nnz` entries and
/// longest row `max_row`: the power of two at least its average row, up to a warp (a road
/// network's 2-3 arcs a row: 4 threads, 8 rows a warp, where a warp a row left most lanes
/// idle: NE's parents 401 us on an H200); a warp where a row is more than 32 times that, so
/// that a skewed graph's long rows do not hold a few threads for long.
fn witness_lanes(nrows: usize, nnz: usize, max_row: usize) -> u32 {
    let avg = nnz.div_ceil(nrows.max(1)).clamp(1, 32);
    let lanes = avg.next_power_of_two();
    match max_row > 32 * lanes {
        true => 32,
        false => lanes as u32,
    }
}

impl GpuBackend {
    /// Row-kernel launch of ELL into `y` with the given mask/accum.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ell_into<S: Semiring>(
        &self,
        e: &DevEll,
        x: &CudaSlice<u8>,
        y: &mut CudaSlice<u8>,
        nrows: u32,
        k: u32,
        m: &MaskArg<'_>,
        accum: i32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::SpmvEll)?;
        SpmvEllArgs {
            ci: &*e.ci,
            av: &*e.vals,
            x,
            y,
            nrows,
            k,
            width: e.width,
            mask: *m,
            accum,
        }
        .launch(&self.dev, &f, cfg1(nrows as u64 * k as u64))?;
        Ok(())
    }

    pub(super) fn coo_into<S: Semiring>(
        &self,
        c: &DevCoo,
        x: &CudaSlice<u8>,
        t: &mut CudaSlice<u8>,
        k: u32,
        m: &MaskArg<'_>,
    ) -> Result<(), GpuError> {
        if c.nnz == 0 {
            return Ok(());
        }
        let f = self.dev.func::<S>(Kernel::SpmvCoo)?;
        SpmvCooArgs {
            rows: &*c.rows,
            cols: &*c.cols,
            av: &*c.vals,
            x,
            t,
            nnz: c.nnz,
            k,
            mask: *m,
        }
        .launch(&self.dev, &f, cfg1(c.nnz as u64 * k as u64))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::witness_lanes;

    #[test]
    fn witness_groups_follow_the_average_row() {
        // A road network (NE: 1.52 M rows, 3.87 M arcs, longest 9): 4 threads a row.
        assert_eq!(witness_lanes(1_524_453, 3_868_020, 9), 4);
        // One arc a row, and no row at all: one thread.
        assert_eq!(witness_lanes(10, 10, 1), 1);
        assert_eq!(witness_lanes(0, 0, 0), 1);
        // Rows of 17 arcs on average: 32; of 100: a warp (the group is never wider).
        assert_eq!(witness_lanes(100, 1_700, 20), 32);
        assert_eq!(witness_lanes(100, 10_000, 100), 32);
        // Short rows on average but a hub over 32 times the group: a warp a row.
        assert_eq!(witness_lanes(1000, 3000, 128), 4);
        assert_eq!(witness_lanes(1000, 3000, 129), 32);
    }
}
