//! The device: context, stream, kernel loading and allocation (host transfers:
//! `transfer.rs`). Every cudarc call of the crate lives here, in `transfer.rs` or in
//! `backend/`.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DriverError, PinnedHostSlice, sys,
};
use semigraph_semiring::ops::CudaOp;
use semigraph_semiring::{Scalar, Semiring};

use crate::codegen::{self, Kernel, KernelKey};
use crate::compiler::{Compiler, Origin};
use crate::error::{GpuError, driver};

/// Counts and times of kernel loads, by where each kernel came from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CompileStats {
    /// Kernels compiled by NVRTC in this backend ("cold").
    pub compiled: usize,
    /// Time spent compiling them.
    pub compile_time: Duration,
    /// Kernels read from the disk cache ("warm").
    pub from_disk: usize,
    /// Time spent reading them.
    pub disk_time: Duration,
    /// Kernels this process had compiled or read already.
    pub from_memory: usize,
    /// Kernels loaded ahead of use from a kernel profile ([`crate::GpuBackend::preload_kernels`])
    /// and used since.
    pub preloaded: usize,
}

/// What identifies a loaded kernel: the semiring's type, the kernel, the operator's type.
type FuncId = (TypeId, Kernel, Option<TypeId>);

/// An open device: context, stream, compiler and the kernels loaded so far.
pub(crate) struct Device {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub compiler: Compiler,
    pub name: String,
    pub arch: String,
    funcs: Mutex<HashMap<FuncId, CudaFunction>>,
    /// Kernels loaded ahead of use ([`Device::preload`]), by cache identity hash: the identity
    /// line and the function, handed to each request whose source has that identity.
    preloaded: Mutex<HashMap<u64, (String, CudaFunction)>>,
    /// The cache file names of the kernels loaded so far, in order of first use (what a
    /// kernel profile records).
    used: Mutex<Vec<String>>,
    stats: Mutex<CompileStats>,
    /// Work counters: kernel launches, host synchronisations, allocations.
    launches: AtomicU64,
    syncs: AtomicU64,
    allocations: AtomicU64,
    /// The device's default memory pool (stream-ordered allocations), when the driver has one.
    pool: Option<MemPool>,
    /// Page-locked host memory that large downloads pass through (allocated on first use,
    /// grown to at most [`STAGING_MAX`] bytes): copies from pageable memory run at a fraction
    /// of the bus speed.
    pub(crate) staging: Mutex<Option<PinnedHostSlice<u8>>>,
}

/// The handle of a CUDA memory pool.
#[derive(Clone, Copy)]
struct MemPool(sys::CUmemoryPool);

// SAFETY: a memory pool handle is a process-wide driver object; the driver API calls made on it
// (attribute get/set, trim) are thread-safe.
unsafe impl Send for MemPool {}
// SAFETY: as for Send.
unsafe impl Sync for MemPool {}

impl MemPool {
    /// The default pool of `ctx`'s device, set to keep the memory freed into it (the default
    /// threshold, 0, hands it back to the driver at every synchronisation, so the next run's
    /// allocations map fresh pages: milliseconds per BFS on a large graph).
    fn default_of(ctx: &CudaContext) -> Option<MemPool> {
        if !ctx.has_async_alloc() {
            return None;
        }
        let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
        // SAFETY: `pool` is a valid out-pointer; the device handle comes from a live context.
        unsafe { sys::cuDeviceGetDefaultMemPool(&mut pool, ctx.cu_device()) }
            .result()
            .ok()?;
        let mut keep: u64 = u64::MAX;
        // SAFETY: the release threshold attribute takes a pointer to a u64.
        unsafe {
            sys::cuMemPoolSetAttribute(
                pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                (&mut keep as *mut u64).cast(),
            )
        }
        .result()
        .ok()?;
        Some(MemPool(pool))
    }

    fn attribute(self, attr: sys::CUmemPool_attribute) -> u64 {
        let mut v: u64 = 0;
        // SAFETY: the reserved/used memory attributes write a u64 through the pointer.
        let r = unsafe { sys::cuMemPoolGetAttribute(self.0, attr, (&mut v as *mut u64).cast()) };
        if r.result().is_ok() { v } else { 0 }
    }

    /// Bytes the pool holds for reuse but no buffer uses: free to the next allocation,
    /// though the driver counts them as used.
    fn idle(self) -> u64 {
        use sys::CUmemPool_attribute::*;
        let reserved = self.attribute(CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
        reserved.saturating_sub(self.attribute(CU_MEMPOOL_ATTR_USED_MEM_CURRENT))
    }

    /// Hands the pool's idle memory back to the driver.
    fn trim(self) {
        // SAFETY: trimming only releases memory no allocation uses.
        let _ = unsafe { sys::cuMemPoolTrimTo(self.0, 0) }.result();
    }
}

/// Whether `libcuda` (the driver library) can be loaded.
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen the library by its candidate names; no driver call is made.
    unsafe { sys::is_culib_present() }
}

/// A marker type for the semiring-independent kernels' cache entries.
struct NoSemiring;

impl Device {
    pub fn open(ordinal: usize) -> Result<Device, GpuError> {
        if !driver_present() {
            return Err(GpuError::LibraryMissing {
                library: "libcuda",
                hint: "no NVIDIA driver is installed on this machine",
            });
        }
        let count = CudaContext::device_count().map_err(|e| GpuError::NoDevice(e.to_string()))?;
        if count <= 0 || ordinal >= count as usize {
            return Err(GpuError::NoDevice(format!(
                "device {ordinal} requested, {count} present"
            )));
        }
        let ctx = CudaContext::new(ordinal).map_err(|e| driver("create context", e))?;
        // SAFETY: the backend uses one stream only (the context's default stream), so no
        // buffer is ever used on two streams: the cross-stream events that tracking records are
        // never needed.
        unsafe { ctx.disable_event_tracking() };
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| driver("compute capability", e))?;
        let arch = format!("sm_{major}{minor}");
        let name = ctx.name().map_err(|e| driver("device name", e))?;
        let compiler = Compiler::new(&arch)?;
        let stream = ctx.default_stream();
        let pool = MemPool::default_of(&ctx);
        Ok(Device {
            ctx,
            stream,
            compiler,
            name,
            arch,
            funcs: Mutex::new(HashMap::new()),
            preloaded: Mutex::new(HashMap::new()),
            used: Mutex::new(Vec::new()),
            stats: Mutex::new(CompileStats::default()),
            launches: AtomicU64::new(0),
            syncs: AtomicU64::new(0),
            allocations: AtomicU64::new(0),
            pool,
            staging: Mutex::new(None),
        })
    }

    /// The kernel `k` of semiring `S`, compiled and loaded on first use.
    pub fn func<S: Semiring>(&self, k: Kernel) -> Result<CudaFunction, GpuError> {
        self.func_of((TypeId::of::<S>(), k, None), || {
            let sr = S::cuda();
            (KernelKey::new(k, Some(&sr)), codegen::source(k, Some(&sr)))
        })
    }

    /// The kernel `k` of semiring `S` and operator `O` (whose CUDA is `op`), compiled and
    /// loaded on first use.
    pub fn func_op<S: Semiring, O: 'static>(
        &self,
        k: Kernel,
        op: impl FnOnce() -> CudaOp,
    ) -> Result<CudaFunction, GpuError> {
        self.func_of((TypeId::of::<S>(), k, Some(TypeId::of::<O>())), || {
            let (sr, op) = (S::cuda(), op());
            (
                KernelKey::with_op(k, &sr, &op),
                codegen::source_op(k, &sr, &op),
            )
        })
    }

    /// A semiring-independent kernel.
    pub fn func_any(&self, k: Kernel) -> Result<CudaFunction, GpuError> {
        self.func_of((TypeId::of::<NoSemiring>(), k, None), || {
            (KernelKey::new(k, None), codegen::source(k, None))
        })
    }

    fn func_of(
        &self,
        id: FuncId,
        keyed: impl FnOnce() -> (KernelKey, String),
    ) -> Result<CudaFunction, GpuError> {
        if let Some(f) = lock(&self.funcs).get(&id) {
            return Ok(f.clone());
        }
        let (key, src) = keyed();
        let name = key.name();
        let identity = self.compiler.identity(&src);
        lock(&self.used).push(crate::compiler::entry_name(&name, identity.0));
        // Left in the map: two requests of one source (two types with one CUDA form) share it.
        let ready = lock(&self.preloaded)
            .get(&identity.0)
            .filter(|(id, _)| *id == identity.1)
            .cloned();
        let f = match ready {
            Some((_, f)) => {
                lock(&self.stats).preloaded += 1;
                f
            }
            None => self.load(&key, &src, identity)?,
        };
        lock(&self.funcs).insert(id, f.clone());
        Ok(f)
    }

    /// Compiles (or reads from a cache) and loads kernel `key` of source `src`.
    fn load(
        &self,
        key: &KernelKey,
        src: &str,
        identity: (u64, String),
    ) -> Result<CudaFunction, GpuError> {
        let c = self.compiler.compile_identified(key, src, identity)?;
        {
            let mut st = lock(&self.stats);
            match c.origin {
                Origin::Compiled => {
                    st.compiled += 1;
                    st.compile_time += c.time;
                }
                Origin::Disk => {
                    st.from_disk += 1;
                    st.disk_time += c.time;
                }
                Origin::Memory => st.from_memory += 1,
            }
        }
        let name = key.name();
        let module = self
            .ctx
            .load_module(cudarc::nvrtc::Ptx::from_binary(c.cubin.to_vec()))
            .map_err(|e| driver(format!("load module {name}"), e))?;
        module
            .load_function(&name)
            .map_err(|e| driver(format!("load function {name}"), e))
    }

    /// Loads the disk-cache entries `names` (file names, as a kernel profile lists them) ahead
    /// of use: each CUBIN is read, its module loaded and its function fetched (which the
    /// driver's lazy loading needs to load the code). Entries that are missing, damaged or
    /// already loaded are skipped. Returns how many were loaded.
    pub fn preload(&self, names: &[String]) -> usize {
        let Some(dir) = self.compiler.cache_dir() else {
            return 0;
        };
        let mut loaded = 0;
        for file in names {
            let Some((kernel, h)) = crate::compiler::parse_entry_name(file) else {
                continue;
            };
            if lock(&self.preloaded).contains_key(&h) {
                continue;
            }
            let Some((identity, bin)) = crate::compiler::read_any_entry(&dir.join(file)) else {
                continue;
            };
            let Ok(f) = self
                .ctx
                .load_module(cudarc::nvrtc::Ptx::from_binary(bin))
                .and_then(|m| m.load_function(kernel))
            else {
                continue;
            };
            lock(&self.preloaded).insert(h, (identity, f));
            loaded += 1;
        }
        loaded
    }

    /// The cache file names of the kernels this device loaded, in order of first use.
    pub fn used_entries(&self) -> Vec<String> {
        lock(&self.used).clone()
    }

    /// Counts a kernel launch.
    pub fn count_launch(&self) {
        self.launches.fetch_add(1, Ordering::Relaxed);
    }

    /// The work counters so far.
    pub fn counters(&self) -> semigraph_algos::Counters {
        semigraph_algos::Counters {
            launches: self.launches.load(Ordering::Relaxed),
            syncs: self.syncs.load(Ordering::Relaxed),
            allocations: self.allocations.load(Ordering::Relaxed),
        }
    }

    pub fn stats(&self) -> CompileStats {
        *self.stats.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `(free, total)` device memory in bytes.
    /// Free and total device memory in bytes; free counts the memory the pool keeps for
    /// reuse.
    pub fn mem_info(&self) -> Result<(usize, usize), GpuError> {
        let (free, total) = self
            .ctx
            .mem_get_info()
            .map_err(|e| driver("memory info", e))?;
        let idle = self.pool.map_or(0, |p| p.idle()) as usize;
        Ok((free.saturating_add(idle).min(total), total))
    }

    /// Refuses, before any allocation, work that needs more than the free device memory.
    /// Requests under 64 MiB skip the driver query (they run inside algorithm loops; a failed
    /// allocation still reports [`GpuError::OutOfMemory`]).
    pub fn check_fits(&self, what: &str, bytes: u64) -> Result<(), GpuError> {
        if bytes < 64 << 20 {
            return Ok(());
        }
        let (free, _) = self.mem_info()?;
        if bytes > free as u64 {
            return Err(GpuError::OutOfMemory {
                what: what.to_string(),
                needed: bytes,
                available: free as u64,
            });
        }
        Ok(())
    }

    fn oom(&self, what: &str, bytes: usize, e: DriverError) -> GpuError {
        if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
            GpuError::OutOfMemory {
                what: what.to_string(),
                needed: bytes as u64,
                available: self.mem_info().map(|m| m.0 as u64).unwrap_or(0),
            }
        } else {
            driver(format!("allocate {bytes} bytes for {what}"), e)
        }
    }

    /// `len` zeroed elements of `T`, rounded up to a whole number of 8-byte words (at least
    /// one): the compare-and-swap atomics of 1- and 2-byte semiring values read and write the
    /// aligned 32-bit word around a value, which must lie inside the allocation.
    pub fn zeros<T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        self.alloc_with(len, what, |n| self.stream.alloc_zeros::<T>(n))
    }

    /// [`Device::zeros`] without the zeroing: for an output that kernels write whole before
    /// anything reads it (no memset on the stream).
    pub fn uninit<T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        // SAFETY: `T` is a plain device value (`ValidAsZeroBits`: no invalid bit patterns the
        // device could leave there), and callers write each element on the stream before it
        // is read (this method's contract).
        self.alloc_with(len, what, |n| unsafe { self.stream.alloc::<T>(n) })
    }

    /// An allocation of `len` elements (rounded as [`Device::zeros`] says) by `alloc`, retried
    /// once after trimming the memory pool when the device is out of memory.
    fn alloc_with<T>(
        &self,
        len: usize,
        what: &str,
        alloc: impl Fn(usize) -> Result<CudaSlice<T>, DriverError>,
    ) -> Result<CudaSlice<T>, GpuError> {
        let size = size_of::<T>().max(1);
        let n = (len * size).max(1).next_multiple_of(8).div_ceil(size);
        self.allocations.fetch_add(1, Ordering::Relaxed);
        match alloc(n) {
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY && self.pool.is_some() => {
                // The pool may hold freed memory in pieces too small for this request.
                self.sync()?;
                if let Some(p) = self.pool {
                    p.trim();
                }
                alloc(n)
            }
            r => r,
        }
        .map_err(|e| self.oom(what, len * size_of::<T>(), e))
    }

    /// Waits for the stream.
    pub fn sync(&self) -> Result<(), GpuError> {
        self.syncs.fetch_add(1, Ordering::Relaxed);
        self.stream
            .synchronize()
            .map_err(|e| driver("synchronize", e))
    }
}

/// `m` locked, whether or not a thread panicked while holding it (the counters and maps it
/// guards stay consistent: each update is one insertion or addition).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The bits of `v` as a kernel parameter (zero-extended to 64 bits).
pub(crate) fn bits<T: Scalar>(v: T) -> u64 {
    let size = T::TYPE.size_bytes();
    let mask = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    };
    v.to_bits64() & mask
}
