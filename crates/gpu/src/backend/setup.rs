//! Opening a GPU and the backend's settings: which device, which kernels the products use,
//! what has been compiled, warming kernels up.

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
        let dummy_idx = dev.zeros::<u32>(1, "placeholder")?;
        let dummy_word = dev.zeros::<u64>(1, "placeholder")?;
        let scratch = Scratch {
            idx: dev.zeros::<u32>(2, "scratch")?,
            words: dev.zeros::<u8>(8, "scratch")?,
            vals: dev.zeros::<u8>(8, "scratch")?,
            hdr: dev.zeros::<u64>(4, "scratch")?,
            member: dev.zeros::<u32>(2, "scratch")?,
            far_vals: dev.zeros::<u8>(8, "scratch")?,
            grid_sync: dev.zeros::<u64>(8, "grid barrier")?,
        };
        let sms = dev
            .ctx
            .attribute(
                cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
            .map_err(|e| driver("read the multiprocessor count", e))?
            .max(1) as u32;
        Ok(GpuBackend {
            dev,
            sms,
            dummy,
            dummy_idx,
            dummy_word,
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

    /// The CSR kernel a matrix uses, if it is stored as CSR (chosen now for a matrix built
    /// on the device and not used yet).
    pub fn csr_kernel_of<S: Semiring>(
        &self,
        a: &GpuMatrix<S>,
    ) -> Result<Option<CsrKernel>, GpuError> {
        Ok(match &a.storage {
            Storage::Csr(c) => Some(self.tune_of(c)?.kernel),
            _ => None,
        })
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
}
