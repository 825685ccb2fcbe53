//! The products of the GPU backend (`mxm`: SpMV/SpMM in every format and CSR kernel, `vxm`:
//! SpMSpV, `gemm`: dense semiring GEMM with its fast and packed forms, and the dense
//! transpose), which the `Backend` implementation in `ops.rs` delegates to.

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
        match &a.storage {
            Storage::Csr(c) => match if early {
                c.kernel.for_early_exit()
            } else {
                c.kernel.for_columns(k)
            } {
                CsrKernel::Scalar => {
                    let f = self.dev.func::<S>(Kernel::SpmvCsrScalar)?;
                    launch!(
                        self,
                        f,
                        cfg1(outs),
                        [
                            &*c.rp, &*c.ci, &*c.vals, &x.buf, &mut y.buf, &n32, &k, m.buf, &m.mode,
                            &m.size, &m.zero, &acc
                        ]
                    );
                }
                CsrKernel::Vector(vw) => {
                    assert!(vw.is_power_of_two() && vw <= 32, "sub-warp width {vw}");
                    let f = self.dev.func::<S>(Kernel::SpmvCsrVector)?;
                    // Masked: a thread per output tests the mask (see the kernel).
                    let threads = if m.mode != 0 { outs } else { outs * vw as u64 };
                    launch!(
                        self,
                        f,
                        cfg1(threads),
                        [
                            &*c.rp, &*c.ci, &*c.vals, &x.buf, &mut y.buf, &n32, &k, m.buf, &m.mode,
                            &m.size, &m.zero, &acc, &vw
                        ]
                    );
                }
                CsrKernel::Adaptive => {
                    let p = c.plan.as_ref().expect("adaptive CSR has a plan");
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
                        launch!(
                            self,
                            f,
                            cfg,
                            [
                                &*c.rp, &*c.ci, &*c.vals, &x.buf, &mut y.buf, &k, &p.blocks,
                                &p.slots, &mut part, m.buf, &m.mode, &m.size, &m.zero, &acc
                            ]
                        );
                    }
                    if p.nslots > 0 {
                        let f = self.dev.func::<S>(Kernel::SpmvCsrAdaptiveFinish)?;
                        launch!(
                            self,
                            f,
                            cfg1(p.nslots as u64 * k as u64),
                            [
                                &p.long_rows,
                                &part,
                                &mut y.buf,
                                &p.nslots,
                                &k,
                                m.buf,
                                &m.mode,
                                &m.size,
                                &m.zero,
                                &acc
                            ]
                        );
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
                        launch!(
                            self,
                            f,
                            cfg1(pieces),
                            [
                                &*c.rp, &*c.ci, &*c.vals, &x.buf, t, &n32, &k, m.buf, &m.mode,
                                &m.size, &m.zero, &nnz, &chunk
                            ]
                        );
                        Ok(())
                    })?;
                }
            },
            Storage::Ell(e) => self.ell_into::<S>(e, &x.buf, &mut y.buf, n32, k, &m, acc)?,
            Storage::Dia { ndiag, offs, data } => {
                let f = self.dev.func::<S>(Kernel::SpmvDia)?;
                let nc = ncols as u32;
                launch!(
                    self,
                    f,
                    cfg1(outs),
                    [
                        &**offs, &**data, &x.buf, &mut y.buf, &n32, &nc, &k, ndiag, m.buf, &m.mode,
                        &m.size, &m.zero, &acc
                    ]
                );
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
                launch!(
                    self,
                    f,
                    cfg1(outs * 32),
                    [
                        &**d, &x.buf, &mut y.buf, &n32, &nc, &k, m.buf, &m.mode, &m.size, &m.zero,
                        &acc
                    ]
                );
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
            launch!(
                self,
                f,
                cfg1(x.nnz as u64 * 32),
                [
                    &*c.rp, &*c.ci, &*c.vals, &x.idx, &x.vals, &nx, &mut t, m.buf, &m.mode,
                    &m.size, &m.zero
                ]
            );
        }
        Ok(self.compact_raw::<S>(&t, ncols, ncols, None)?)
    }

    pub(super) fn gemm_product<S: Semiring>(
        &self,
        c: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!(a.cols, b.rows, "gemm: inner dimensions");
        assert_eq!((c.rows, c.cols), (a.rows, b.cols), "gemm: C shape");
        if c.len() == 0 {
            return Ok(());
        }
        let (m, n, kk) = (
            to_u32("GEMM rows", a.rows)?,
            to_u32("GEMM columns", b.cols)?,
            to_u32("GEMM inner dimension", a.cols)?,
        );
        let acc: i32 = (accum == Accum::Add) as i32;
        let len = c.len();
        // Output tile per block of 16 x 16 threads: 16 x 16 (one output per thread) or
        // 128 x 128 (8 x 8 per thread).
        let (kernel, tile) = match self.gemm_kernel_for::<S>() {
            GemmKernel::Tile16 => (Kernel::Gemm, 16),
            GemmKernel::Reg128 => (Kernel::GemmReg, 128),
        };
        let f = self.dev.func::<S>(kernel)?;
        let cfg = LaunchConfig {
            grid_dim: (n.div_ceil(tile), m.div_ceil(tile), 1),
            block_dim: (16, 16, 1),
            shared_mem_bytes: 0,
        };
        match kernel {
            Kernel::GemmReg => {
                // The operand check decides on the device which kernel computes C: the
                // packed one (every operand in the packed domain) or the register tiles,
                // each returning at once in the other's case. No host wait.
                let bad = self.fast_check::<S>(&[(&a.buf, a.len()), (&b.buf, b.len())])?;
                let packed = if Kernel::GemmPacked.applies_to(Some(&S::cuda())) {
                    Some(self.dev.func::<S>(Kernel::GemmPacked)?)
                } else {
                    None
                };
                // Both kernels take the same parameter list (declared once in params.rs).
                for func in packed.iter().chain(std::iter::once(&f)) {
                    crate::params::GemmRegArgs {
                        a: &a.buf,
                        b: &b.buf,
                        c: &mut c.buf,
                        rows: m,
                        n,
                        kk,
                        accum: acc,
                        bad: &bad,
                        mask: self.mask_arg(mask, len),
                    }
                    .launch(&self.dev, func, cfg)?;
                }
            }
            _ => {
                let mk = self.mask_args(mask, len);
                launch!(
                    self,
                    f,
                    cfg,
                    [
                        &a.buf, &b.buf, &mut c.buf, &m, &n, &kk, &acc, mk.buf, &mk.mode, &mk.size,
                        &mk.zero
                    ]
                )
            }
        }
        Ok(())
    }
}
