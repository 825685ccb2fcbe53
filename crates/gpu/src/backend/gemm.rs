//! Dense semiring GEMM on the device: the kernel for a semiring (16 x 16 tiles or 128 x 128
//! register tiles, with the packed and fast multiply-add forms), the device check of the
//! operands that picks the form, and the launch.

use super::*;

impl GpuBackend {
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
                    GemmRegArgs {
                        a: &a.buf,
                        b: &b.buf,
                        c: &mut c.buf,
                        rows: m,
                        n,
                        kk,
                        accum: acc,
                        bad: &bad,
                        mask: self.mask_args(mask, len),
                    }
                    .launch(&self.dev, func, cfg)?;
                }
            }
            _ => GemmArgs {
                a: &a.buf,
                b: &b.buf,
                c: &mut c.buf,
                rows: m,
                n,
                kk,
                accum: acc,
                mask: self.mask_args(mask, len),
            }
            .launch(&self.dev, &f, cfg)?,
        }
        Ok(())
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
}
