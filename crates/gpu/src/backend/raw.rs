//! The device work under the backend interface: opening the GPU, allocation, upload and
//! read-back, matrices in device storage, and the raw element-wise, compaction, scatter and
//! reduction launches that the `Backend` methods compose.

use super::*;

impl GpuBackend {
    /// Opens GPU 0.
    ///
    /// # Errors
    /// A [`GpuError`] saying why when there is no driver, no device, or no NVRTC.
    pub fn new() -> Result<GpuBackend, GpuError> {
        Self::on_device(0)
    }

    /// Opens GPU `ordinal`.
    ///
    /// # Errors
    /// As [`GpuBackend::new`].
    pub fn on_device(ordinal: usize) -> Result<GpuBackend, GpuError> {
        let dev = Device::open(ordinal)?;
        let dummy = dev.zeros::<u8>(8, "placeholder")?;
        let scratch = Scratch {
            idx: dev.zeros::<u32>(2, "scratch")?,
            words: dev.zeros::<u8>(8, "scratch")?,
            vals: dev.zeros::<u8>(8, "scratch")?,
            hdr: dev.zeros::<u64>(4, "scratch")?,
            member: dev.zeros::<u32>(2, "scratch")?,
            far_vals: dev.zeros::<u8>(8, "scratch")?,
        };
        Ok(GpuBackend {
            dev,
            dummy,
            scratch: std::sync::Mutex::new(scratch),
            csr_kernel: None,
            gemm_kernel: match std::env::var("SEMIGRAPH_GEMM_KERNEL").as_deref() {
                Ok("reg128") => Some(GemmKernel::Reg128),
                Ok("tile16") => Some(GemmKernel::Tile16),
                _ => None,
            },
        })
    }

    /// Forces the CSR SpMV kernel of matrices built from now on (`None`: choose per matrix
    /// with [`CsrKernel::choose`]).
    pub fn set_csr_kernel(&mut self, k: Option<CsrKernel>) {
        self.csr_kernel = k;
    }

    /// Forces the dense GEMM kernel (`None`: [`GemmKernel::choose`] per value type; the
    /// environment variable `SEMIGRAPH_GEMM_KERNEL=tile16|reg128` forces one at start).
    pub fn set_gemm_kernel(&mut self, k: Option<GemmKernel>) {
        self.gemm_kernel = k;
    }

    /// The dense GEMM kernel that products in semiring `S` use.
    pub fn gemm_kernel_for<S: Semiring>(&self) -> GemmKernel {
        self.gemm_kernel
            .unwrap_or_else(|| GemmKernel::choose(S::T::TYPE))
    }

    /// Whether a dense GEMM of `a` by `b` takes `S`'s fast multiply-add
    /// ([`CudaSemiring::fast_fma`](semigraph_semiring::CudaSemiring::fast_fma)): the kernel is
    /// [`GemmKernel::Reg128`] and every operand lies in the fast form's domain (whether or not
    /// the packed form takes over, see [`GpuBackend::gemm_path`]). Runs the device check that
    /// `gemm` runs, and waits for it.
    pub fn gemm_takes_fast_path<S: Semiring>(
        &self,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> Result<bool, GpuError> {
        Ok(self.gemm_flags(a, b)?.is_some_and(|bad| bad[0] == 0))
    }

    /// Which kernel and form a dense GEMM of `a` by `b` in semiring `S` runs: the register
    /// tiles take the packed 16-bit form when every operand lies in its domain, else the fast
    /// multiply-add when every operand lies in that one's, else the exact form. Runs the device
    /// check that `gemm` runs, and waits for it.
    ///
    /// # Errors
    /// A compile or driver failure.
    pub fn gemm_path<S: Semiring>(
        &self,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> Result<GemmPath, GpuError> {
        Ok(match self.gemm_flags(a, b)? {
            None => GemmPath::Tile16,
            Some([_, 0]) => GemmPath::Packed16,
            Some([0, _]) => GemmPath::Reg128Fast,
            Some(_) => GemmPath::Reg128,
        })
    }

    /// The two flags of [`GpuBackend::fast_check`] that `gemm` would compute for `a` and `b`,
    /// read back; `None` when the GEMM kernel is not the register-tile one (no check runs).
    fn gemm_flags<S: Semiring>(
        &self,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> Result<Option<[u32; 2]>, GpuError> {
        if self.gemm_kernel_for::<S>() != GemmKernel::Reg128 {
            return Ok(None);
        }
        let bad = self.fast_check::<S>(&[(&a.buf, a.len()), (&b.buf, b.len())])?;
        let bad = self.dev.download(&bad, 2)?;
        Ok(Some([bad[0], bad[1]]))
    }

    /// The CSR kernel a matrix uses, if it is stored as CSR.
    pub fn csr_kernel_of<S: Semiring>(&self, a: &GpuMatrix<S>) -> Option<CsrKernel> {
        match &a.storage {
            Storage::Csr(c) => Some(c.kernel),
            _ => None,
        }
    }

    /// The device name, e.g. `NVIDIA H100 80GB HBM3`.
    pub fn device_name(&self) -> &str {
        &self.dev.name
    }

    /// The architecture kernels are compiled for, e.g. `sm_90`.
    pub fn arch(&self) -> &str {
        &self.dev.arch
    }

    /// `(free, total)` device memory in bytes.
    ///
    /// # Errors
    /// A driver failure.
    pub fn memory(&self) -> Result<(usize, usize), GpuError> {
        self.dev.mem_info()
    }

    /// Kernel loads so far, by origin, with compile and cache-read times.
    pub fn compile_stats(&self) -> CompileStats {
        self.dev.stats()
    }

    /// The compiler (architecture, NVRTC version, options, cache folder).
    pub fn compiler(&self) -> &crate::Compiler {
        &self.dev.compiler
    }

    /// Compiles (or loads from the caches) the given kernels of semiring `S` ahead of use,
    /// so that later calls pay no compile time. Kernels that do not exist for `S` (see
    /// [`Kernel::applies_to`]) are skipped.
    ///
    /// # Errors
    /// A compile or driver failure.
    pub fn warm_up<S: Semiring>(&self, kernels: &[Kernel]) -> Result<(), GpuError> {
        for &k in kernels {
            if k.applies_to(None) {
                self.dev.func_any(k)?;
            } else if k.applies_to(Some(&S::cuda())) {
                self.dev.func::<S>(k)?;
            }
        }
        Ok(())
    }

    pub(super) fn mask_args<'a, 'm: 'a>(
        &'a self,
        mask: Mask<'m, Self>,
        len: usize,
    ) -> MaskArgs<'a> {
        match mask {
            Mask::All => MaskArgs {
                buf: &self.dummy,
                mode: 0,
                size: 1,
                zero: 0,
            },
            Mask::Keep(m) | Mask::Skip(m) => {
                assert_eq!(m.len, len, "mask length");
                MaskArgs {
                    buf: m.buf,
                    mode: if matches!(mask, Mask::Keep(_)) { 1 } else { 2 },
                    size: m.size,
                    zero: m.zero,
                }
            }
        }
    }

    /// [`Self::mask_args`] as the parameter kind of a kernel declared in `params.rs`.
    pub(super) fn mask_arg<'a, 'm: 'a>(
        &'a self,
        mask: Mask<'m, Self>,
        len: usize,
    ) -> crate::params::MaskArg<'a> {
        let m = self.mask_args(mask, len);
        crate::params::MaskArg {
            buf: m.buf,
            mode: m.mode,
            size: m.size,
            zero: m.zero,
        }
    }

    pub(super) fn alloc_vals<S: Semiring>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.zeros::<u8>(len * size_of::<S::T>(), what)
    }

    /// `len` values of `S`, every one `v`.
    pub(super) fn filled<S: Semiring>(
        &self,
        len: usize,
        v: S::T,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        let bytes = len as u64 * size_of::<S::T>() as u64;
        self.dev.check_fits(what, bytes)?;
        let mut buf = self.alloc_vals::<S>(len, what)?;
        if len > 0 && bits(v) != 0 {
            self.apply_raw::<S>(&mut buf, len, Mask::All, 0, bits(v))?;
        }
        Ok(buf)
    }

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
        launch!(
            self,
            f,
            cfg_stride(n),
            [y, &n, m.buf, &m.mode, &m.size, &m.zero, &op, &c]
        );
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
        launch!(
            self,
            f,
            cfg_stride(n),
            [y, x, &n, m.buf, &m.mode, &m.size, &m.zero, &op]
        );
        Ok(())
    }

    /// Compacts the entries of `len` values in `src` into a sparse vector of length `n`;
    /// indices are positions, or `map[position]` when a map is given.
    pub(super) fn compact_raw<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        self.compact_flagged::<S>(src, None, len, n, map)
    }

    /// As [`GpuBackend::compact_raw`], keeping the positions whose flag byte is non-zero
    /// when `flags` is given (entries that may hold the zero).
    pub(super) fn compact_flagged<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        flags: Option<&CudaSlice<u8>>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        let use_flags: i32 = flags.is_some() as i32;
        let flags = flags.unwrap_or(&self.dummy);
        to_u32("a compacted vector", len)?;
        let tile = (BLOCK * ITEMS) as usize;
        let nb = len.div_ceil(tile).max(1);
        let nb32 = nb as u32;
        let mut counts = self.dev.zeros::<u32>(nb + 1, "compaction counts")?;
        let lenu = len as u64;
        let grid = LaunchConfig {
            grid_dim: (nb32, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let fc = self.dev.func::<S>(Kernel::CompactCount)?;
        launch!(
            self,
            fc,
            grid,
            [src, flags, &use_flags, &lenu, &ITEMS, &mut counts]
        );
        let fs = self.dev.func_any(Kernel::Scan)?;
        let one = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (1024, 1, 1),
            shared_mem_bytes: 0,
        };
        launch!(self, fs, one, [&mut counts, &nb32]);
        let total = self.read_u32(&counts, nb)? as usize;
        let mut idx = self.dev.zeros::<u32>(total, "sparse indices")?;
        let mut vals = self.alloc_vals::<S>(total, "sparse values")?;
        if total > 0 {
            let fw = self.dev.func::<S>(Kernel::CompactWrite)?;
            let use_map: i32 = map.is_some() as i32;
            match map {
                Some(mp) => {
                    launch!(
                        self,
                        fw,
                        grid,
                        [
                            src, flags, &use_flags, &lenu, &ITEMS, &counts, mp, &use_map, &mut idx,
                            &mut vals
                        ]
                    )
                }
                None => {
                    launch!(
                        self,
                        fw,
                        grid,
                        [
                            src,
                            flags,
                            &use_flags,
                            &lenu,
                            &ITEMS,
                            &counts,
                            &self.dummy,
                            &use_map,
                            &mut idx,
                            &mut vals
                        ]
                    )
                }
            }
        }
        Ok(GpuSparse {
            n,
            nnz: total,
            idx,
            vals,
            _s: PhantomData,
        })
    }

    pub(super) fn read_u32(&self, buf: &CudaSlice<u32>, at: usize) -> Result<u32, GpuError> {
        let mut v = [0u32];
        self.dev
            .stream
            .memcpy_dtoh(&buf.slice(at..at + 1), &mut v[..])
            .map_err(|e| driver("read a count", e))?;
        self.dev.sync()?;
        Ok(v[0])
    }

    /// Two device flags over the arrays: `[0]` is 1 if a value lies outside the domain of
    /// `S`'s fast multiply-add ([`CudaSemiring::fast_fma`](semigraph_semiring::CudaSemiring::fast_fma)),
    /// `[1]` if one lies outside its packed 16-bit domain
    /// ([`Packed16`](semigraph_semiring::Packed16)); each always 1 for a semiring without that
    /// form (no kernel runs when it has neither). No host wait.
    pub(super) fn fast_check<S: Semiring>(
        &self,
        arrays: &[(&CudaSlice<u8>, usize)],
    ) -> Result<CudaSlice<u32>, GpuError> {
        let mut bad = self.dev.zeros::<u32>(2, "operand check")?;
        let sr = S::cuda();
        if sr.fast_fma.is_none() && sr.packed16.is_none() {
            self.dev
                .stream
                .memcpy_htod(&[1u32, 1], &mut bad)
                .map_err(|e| driver("operand check", e))?;
            return Ok(bad);
        }
        let f = self.dev.func::<S>(Kernel::FastCheck)?;
        for &(x, len) in arrays {
            let n = len as u64;
            if n > 0 {
                crate::params::FastCheckArgs {
                    x,
                    n,
                    bad: &mut bad,
                }
                .launch(&self.dev, &f, cfg_stride(n))?;
            }
        }
        Ok(bad)
    }

    pub(super) fn read_u64(&self, buf: &CudaSlice<u64>) -> Result<u64, GpuError> {
        Ok(self.dev.download(buf, 1)?[0])
    }

    pub(super) fn read_vals<S: Semiring>(
        &self,
        buf: &CudaSlice<u8>,
        len: usize,
    ) -> Result<Vec<S::T>, GpuError> {
        self.dev.download_scalars::<S::T>(buf, len)
    }

    pub(super) fn upload_vals<S: Semiring>(
        &self,
        v: &[S::T],
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.upload::<u8>(bytes_of(v), what)
    }

    pub(super) fn dev_csr<S: Semiring>(&self, a: &Csr<S>) -> Result<DevCsr, GpuError> {
        let kernel = self
            .csr_kernel
            .unwrap_or_else(|| CsrKernel::choose(&RowShape::of(a)));
        let plan = match kernel {
            CsrKernel::Adaptive => {
                let p = AdaptivePlan::new(a.row_ptr());
                let flat: Vec<u32> = p.blocks.iter().flatten().copied().collect();
                Some(Arc::new(DevPlan {
                    nblocks: to_u32("adaptive blocks", p.blocks.len())?,
                    blocks: self.dev.upload(&flat, "adaptive plan")?,
                    slots: self.dev.upload(&p.slots, "adaptive slots")?,
                    nslots: p.long_rows.len() as u32,
                    long_rows: self.dev.upload(&p.long_rows, "adaptive long rows")?,
                }))
            }
            _ => None,
        };
        Ok(DevCsr {
            rp: Arc::new(self.dev.upload(a.row_ptr(), "CSR row pointers")?),
            ci: Arc::new(self.dev.upload(a.col_idx(), "CSR columns")?),
            vals: Arc::new(self.upload_vals::<S>(a.vals(), "CSR values")?),
            kernel,
            plan,
        })
    }

    pub(super) fn dev_ell<S: Semiring>(
        &self,
        e: &semigraph_formats::Ell<S>,
    ) -> Result<DevEll, GpuError> {
        Ok(DevEll {
            width: to_u32("ELL width", e.width())?,
            ci: Arc::new(self.dev.upload(e.col_idx(), "ELL columns")?),
            vals: Arc::new(self.upload_vals::<S>(e.vals(), "ELL values")?),
        })
    }

    pub(super) fn dev_coo<S: Semiring>(
        &self,
        c: &semigraph_formats::Coo<S>,
    ) -> Result<DevCoo, GpuError> {
        Ok(DevCoo {
            nnz: to_u32("COO entries", c.nnz())?,
            rows: Arc::new(self.dev.upload(&c.rows, "COO rows")?),
            cols: Arc::new(self.dev.upload(&c.cols, "COO columns")?),
            vals: Arc::new(self.upload_vals::<S>(&c.vals, "COO values")?),
        })
    }

    /// Row-kernel launch of ELL into `y` with the given mask/accum.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ell_into<S: Semiring>(
        &self,
        e: &DevEll,
        x: &CudaSlice<u8>,
        y: &mut CudaSlice<u8>,
        nrows: u32,
        k: u32,
        m: &MaskArgs<'_>,
        accum: i32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::SpmvEll)?;
        launch!(
            self,
            f,
            cfg1(nrows as u64 * k as u64),
            [
                &*e.ci, &*e.vals, x, y, &nrows, &k, &e.width, m.buf, &m.mode, &m.size, &m.zero,
                &accum
            ]
        );
        Ok(())
    }

    pub(super) fn coo_into<S: Semiring>(
        &self,
        c: &DevCoo,
        x: &CudaSlice<u8>,
        t: &mut CudaSlice<u8>,
        k: u32,
        m: &MaskArgs<'_>,
    ) -> Result<(), GpuError> {
        if c.nnz == 0 {
            return Ok(());
        }
        let f = self.dev.func::<S>(Kernel::SpmvCoo)?;
        launch!(
            self,
            f,
            cfg1(c.nnz as u64 * k as u64),
            [
                &*c.rows, &*c.cols, &*c.vals, x, t, &c.nnz, &k, m.buf, &m.mode, &m.size, &m.zero
            ]
        );
        Ok(())
    }
}

pub(super) fn bytes_for<S: Semiring>(m: &SparseMatrix<S>) -> u64 {
    let v = size_of::<S::T>() as u64;
    match m {
        SparseMatrix::Csr(c) => (c.nrows() as u64 + 1) * 4 + c.nnz() as u64 * (4 + v),
        SparseMatrix::Ell(e) => (e.width() * e.nrows()) as u64 * (4 + v),
        SparseMatrix::Dia(d) => d.offsets().len() as u64 * (8 + d.nrows() as u64 * v),
        SparseMatrix::Coo(c) => c.nnz() as u64 * (8 + v),
        SparseMatrix::Hyb(h) => {
            (h.ell.width() * h.ell.nrows()) as u64 * (4 + v) + h.coo.nnz() as u64 * (8 + v)
        }
        SparseMatrix::Dense(d) => (d.nrows() * d.ncols()) as u64 * v,
    }
}

impl GpuBackend {
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
        match mark {
            Some(mk) => launch!(
                self,
                f,
                cfg_stride(nnz as u64),
                [y, idx, v, &n, &use_vals, &c, &op, mk, &use_mark]
            ),
            None => launch!(
                self,
                f,
                cfg_stride(nnz as u64),
                [y, idx, v, &n, &use_vals, &c, &op, &self.dummy, &use_mark]
            ),
        }
        Ok(())
    }

    pub(super) fn reduce_raw<S: Semiring>(
        &self,
        x: &CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
    ) -> Result<S::T, GpuError> {
        let mut out = self.filled::<S>(1, S::zero(), "reduction")?;
        if len > 0 {
            let f = self.dev.func::<S>(Kernel::Reduce)?;
            let m = self.mask_args(mask, len);
            let n = len as u64;
            launch!(
                self,
                f,
                cfg_stride(n),
                [x, &n, m.buf, &m.mode, &m.size, &m.zero, &mut out]
            );
        }
        Ok(self.read_vals::<S>(&out, 1)?[0])
    }
}
