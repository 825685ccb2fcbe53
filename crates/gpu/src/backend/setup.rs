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
            hdr: dev.zeros::<u64>(8, "scratch")?,
            member: dev.zeros::<u32>(2, "scratch")?,
            far_vals: dev.zeros::<u8>(8, "scratch")?,
            grid_sync: dev.zeros::<u64>(8, "grid barrier")?,
            lv_front: None,
            lv_log: None,
        };
        use cudarc::driver::sys::CUdevice_attribute as A;
        let attr = |a: A, what: &str| {
            dev.ctx
                .attribute(a)
                .map(|v| v.max(0) as u32)
                .map_err(|e| driver(what, e))
        };
        let sms = attr(
            A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "read the multiprocessor count",
        )?
        .max(1);
        // Shared memory a block may ask for past the default 48 KiB (227 KiB on an H100).
        let smem_optin = attr(
            A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            "read the shared memory per block",
        )?;
        Ok(GpuBackend {
            dev,
            sms,
            smem_optin,
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

    /// Loads, ahead of use, the kernels that work tagged `tag` loaded the last times it ran
    /// in any process ([`save_kernel_profile`](Self::save_kernel_profile)): their CUBINs
    /// read from the disk cache and loaded on the device, so that the first call of an
    /// algorithm does not wait for them. Meant to run while something else is under way (the
    /// CLI runs it on the thread that opens the GPU, while the input is read). A kernel is
    /// used only when a request's generated source has the cache identity of the file it was
    /// loaded from; missing, damaged or unused entries cost only their loading. Returns how
    /// many kernels were loaded (0 without a profile or a disk cache).
    ///
    /// # Example
    /// ```no_run
    /// use semigraph_gpu::GpuBackend;
    /// let gpu = GpuBackend::new()?;
    /// gpu.preload_kernels("my-app-bfs");
    /// // ... the first BFS, then:
    /// gpu.save_kernel_profile("my-app-bfs")?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn preload_kernels(&self, tag: &str) -> usize {
        match self.profile_path(tag) {
            Some(path) => self.dev.preload(&crate::warm::read_profile(&path)),
            None => 0,
        }
    }

    /// Records the kernels this backend has loaded so far as the profile of `tag` (newest
    /// first, merged with the profile's earlier entries, at most 48), for
    /// [`preload_kernels`](Self::preload_kernels) in later processes. Does nothing without a
    /// disk cache.
    ///
    /// # Errors
    /// `InvalidInput` for a tag other than ASCII letters, digits, `-` and `_`; the error of
    /// writing the profile file.
    pub fn save_kernel_profile(&self, tag: &str) -> std::io::Result<()> {
        let Some(dir) = self.dev.compiler.cache_dir() else {
            return Ok(());
        };
        let path = self.profile_path(tag).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("kernel profile tag {tag:?}: use ASCII letters, digits, '-' and '_'"),
            )
        })?;
        debug_assert!(path.starts_with(dir));
        let old = crate::warm::read_profile(&path);
        let names = crate::warm::merge_profile(&self.dev.used_entries(), &old);
        if names == old {
            return Ok(());
        }
        let mut text = names.join("\n");
        text.push('\n');
        crate::compiler::write_atomic(&path, text.as_bytes())
    }

    /// The profile file of `tag` in the disk cache, if there is a cache and the tag is valid.
    fn profile_path(&self, tag: &str) -> Option<std::path::PathBuf> {
        let dir = self.dev.compiler.cache_dir()?;
        crate::warm::profile_path(dir, tag, &self.dev.arch)
    }
}
