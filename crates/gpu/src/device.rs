//! The device: context, stream, kernel loading and byte-level buffers. Every cudarc call of
//! the crate lives here or in `backend.rs`.

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rayon::prelude::*;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DeviceRepr, DriverError, PinnedHostSlice, sys,
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
    staging: Mutex<Option<PinnedHostSlice<u8>>>,
}

/// Downloads of fewer bytes go straight to pageable memory.
const STAGING_MIN: usize = 1 << 16;
/// The largest staging buffer; larger downloads pass through it in pieces.
const STAGING_MAX: usize = 64 << 20;
/// The piece of the staging buffer that one thread copies out.
const STAGING_CHUNK: usize = 1 << 20;

/// Element types whose every bit pattern is a valid value (the plain integers and floats that
/// device buffers hold), so that a download may fill them byte by byte.
pub(crate) trait Plain: DeviceRepr + Copy + Default {}
impl Plain for u8 {}
impl Plain for u32 {}
impl Plain for u64 {}
impl Plain for f32 {}
impl Plain for i32 {}

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
        if let Some(f) = self
            .funcs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
        {
            return Ok(f.clone());
        }
        let (key, src) = keyed();
        let c = self.compiler.compile(&key, &src)?;
        {
            let mut st = self.stats.lock().unwrap_or_else(|p| p.into_inner());
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
        let f = module
            .load_function(&name)
            .map_err(|e| driver(format!("load function {name}"), e))?;
        self.funcs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, f.clone());
        Ok(f)
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

    /// A device copy of `data` (at least one element long).
    pub fn upload<T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits>(
        &self,
        data: &[T],
        what: &str,
    ) -> Result<CudaSlice<T>, GpuError> {
        let mut buf = self.zeros::<T>(data.len(), what)?;
        let bytes = size_of_val(data);
        if bytes >= STAGING_MIN {
            // SAFETY: a byte view of the first `data.len()` elements of `buf` (`slice_mut`
            // checks the range); any bytes are valid for it, and `T` is a plain device value.
            let mut view = buf.slice_mut(0..data.len());
            let mut dst = unsafe { view.transmute_mut::<u8>(bytes) }.expect("byte view");
            // SAFETY: `T` is a plain value (`DeviceRepr`): its bytes may be read as `u8`.
            let src = unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), bytes) };
            self.write_staged(src, &mut dst)
                .map_err(|e| driver(format!("upload {what}"), e))?;
        } else if !data.is_empty() {
            self.stream
                .memcpy_htod(data, &mut buf.slice_mut(0..data.len()))
                .map_err(|e| driver(format!("upload {what}"), e))?;
        }
        Ok(buf)
    }

    /// The staging buffer, unless another transfer holds it (then `None`: the caller copies
    /// through pageable memory). Never waits: a transfer holds the lock while rayon's workers
    /// copy pieces, and a worker waiting for its pieces may take up another task, such as
    /// another rank's upload to the same device, that would wait for the same lock forever.
    fn staging_buffer(&self) -> Option<std::sync::MutexGuard<'_, Option<PinnedHostSlice<u8>>>> {
        match self.staging.try_lock() {
            Ok(g) => Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// Copies `src` to `dst` through the page-locked staging buffer, pipelined: the host
    /// copies one piece into one half of the buffer (on several threads) while the bus carries
    /// the previous piece from the other half. Copies from pageable memory ran at 2.4-6 GB/s
    /// on the H100 machines, a fraction of the bus speed. Returns once every piece has
    /// arrived (the buffer is free for the next transfer), as a copy from pageable memory.
    fn write_staged(
        &self,
        src: &[u8],
        dst: &mut cudarc::driver::CudaViewMut<'_, u8>,
    ) -> Result<(), DriverError> {
        let bytes = src.len();
        let Some(mut staging) = self.staging_buffer() else {
            return self.stream.memcpy_htod(src, dst);
        };
        let want = (2 * bytes)
            .min(STAGING_MAX)
            .next_power_of_two()
            .min(STAGING_MAX);
        if staging.as_ref().is_none_or(|s| s.len() < want) {
            *staging = None;
            // Nothing may still read the old buffer: the stream is idle before it is freed.
            self.stream.synchronize()?;
            // SAFETY: the memory is written before each copy out of it is issued (below).
            *staging = Some(unsafe { self.ctx.alloc_pinned_with_flags::<u8>(want, 0) }?);
        }
        let st = staging.as_mut().expect("staging buffer").as_mut_slice()?;
        let half = st.len() / 2;
        let (a, b) = st.split_at_mut(half);
        let halves = [a, b];
        // The copy out of each half last issued: the half is refilled after it completes.
        let mut issued: [Option<cudarc::driver::CudaEvent>; 2] = [None, None];
        let mut done = 0;
        let mut i = 0;
        while done < bytes {
            let k = (bytes - done).min(half);
            if let Some(e) = issued[i % 2].take() {
                e.synchronize()?;
            }
            let piece = &mut halves[i % 2][..k];
            piece
                .par_chunks_mut(STAGING_CHUNK)
                .zip(src[done..done + k].par_chunks(STAGING_CHUNK))
                .for_each(|(to, from)| to.copy_from_slice(from));
            self.stream
                .memcpy_htod(&*piece, &mut dst.slice_mut(done..done + k))?;
            issued[i % 2] = Some(self.stream.record_event(None)?);
            done += k;
            i += 1;
        }
        // The staging buffer is reused by the next transfer, which may write it at once: wait
        // for the last copies out of it.
        for e in issued.into_iter().flatten() {
            e.synchronize()?;
        }
        Ok(())
    }

    /// The first `len` elements of `buf`, on the host.
    pub fn download<T: Plain>(&self, buf: &CudaSlice<T>, len: usize) -> Result<Vec<T>, GpuError> {
        let bytes = len * size_of::<T>();
        if bytes < STAGING_MIN {
            let mut out = vec![T::default(); len];
            if len > 0 {
                self.stream
                    .memcpy_dtoh(&buf.slice(0..len), out.as_mut_slice())
                    .map_err(|e| driver("download", e))?;
            }
            self.sync()?;
            return Ok(out);
        }
        let mut out: Vec<T> = Vec::with_capacity(len);
        // SAFETY: a view of the first `bytes` bytes of `buf` (`len <= buf.len()` elements, as
        // `slice` checks); bytes are valid for any memory.
        let src = unsafe { buf.slice(0..len).transmute::<u8>(bytes) }.expect("byte view");
        self.read_staged(
            &src,
            out.spare_capacity_mut().as_mut_ptr().cast::<u8>(),
            bytes,
        )?;
        // SAFETY: `read_staged` initialised all `bytes` bytes of the first `len` elements, and
        // every bit pattern is a valid `T` (`Plain`).
        unsafe { out.set_len(len) };
        Ok(out)
    }

    /// The first `len` values of a buffer of semiring values `T`, on the host.
    pub fn download_scalars<T: Scalar>(
        &self,
        buf: &CudaSlice<u8>,
        len: usize,
    ) -> Result<Vec<T>, GpuError> {
        let bytes = len * size_of::<T>();
        if bytes < STAGING_MIN {
            return Ok(scalars_from::<T>(&self.download(buf, bytes)?));
        }
        assert_eq!(size_of::<T>(), T::TYPE.size_bytes(), "scalar size");
        let mut out: Vec<T> = Vec::with_capacity(len);
        self.read_staged(
            &buf.slice(0..bytes),
            out.spare_capacity_mut().as_mut_ptr().cast::<u8>(),
            bytes,
        )?;
        // SAFETY: all `len` values were written byte by byte; every byte pattern a kernel
        // writes through `sr_t` is a valid value of the matching Rust type (as `scalars_from`).
        unsafe { out.set_len(len) };
        Ok(out)
    }

    /// [`download_scalars`](Self::download_scalars) into `out` (the first `out.len()` values
    /// of `buf`).
    pub fn download_scalars_into<T: Scalar>(
        &self,
        buf: &CudaSlice<u8>,
        out: &mut [T],
    ) -> Result<(), GpuError> {
        let bytes = size_of_val(out);
        if bytes < STAGING_MIN {
            out.copy_from_slice(&scalars_from::<T>(&self.download(buf, bytes)?));
            return Ok(());
        }
        assert_eq!(size_of::<T>(), T::TYPE.size_bytes(), "scalar size");
        // Every byte pattern a kernel writes through `sr_t` is a valid value of the matching
        // Rust type (as `scalars_from`), so `out` may be overwritten byte by byte.
        self.read_staged(&buf.slice(0..bytes), out.as_mut_ptr().cast::<u8>(), bytes)
    }

    /// Copies `bytes` bytes from `src` to `dst` through the page-locked staging buffer, in
    /// pieces of at most [`STAGING_MAX`] bytes; waits for each.
    fn read_staged(
        &self,
        src: &cudarc::driver::CudaView<'_, u8>,
        dst: *mut u8,
        bytes: usize,
    ) -> Result<(), GpuError> {
        let Some(mut staging) = self.staging_buffer() else {
            // Another transfer holds the buffer: through pageable memory instead.
            let mut tmp = vec![0u8; bytes];
            self.stream
                .memcpy_dtoh(src, tmp.as_mut_slice())
                .map_err(|e| driver("download", e))?;
            self.sync()?;
            // SAFETY: `dst` has room for `bytes` bytes (the caller's contract) and does not
            // overlap the fresh `tmp`.
            unsafe { std::ptr::copy_nonoverlapping(tmp.as_ptr(), dst, bytes) };
            return Ok(());
        };
        let want = bytes.min(STAGING_MAX).next_power_of_two().min(STAGING_MAX);
        if staging.as_ref().is_none_or(|s| s.len() < want) {
            *staging = None;
            // SAFETY: the memory is only read after a copy into it has completed (below).
            let fresh = unsafe { self.ctx.alloc_pinned_with_flags::<u8>(want, 0) }
                .map_err(|e| driver("allocate page-locked host memory", e))?;
            *staging = Some(fresh);
        }
        // The page-locked memory as a plain slice (no copy is pending on it: each one below
        // is waited for), so that each copy takes exactly its piece's length: a copy into a
        // longer slice would read past the end of `src`.
        let st = staging
            .as_mut()
            .expect("staging buffer")
            .as_mut_slice()
            .map_err(|e| driver("download", e))?;
        let mut done = 0;
        while done < bytes {
            let k = (bytes - done).min(st.len());
            self.stream
                .memcpy_dtoh(&src.slice(done..done + k), &mut st[..k])
                .map_err(|e| driver("download", e))?;
            self.sync()?;
            // Copied out by several threads: for a large result the page faults of the fresh
            // destination cost more than the transfer.
            let at = dst as usize + done;
            st[..k]
                .par_chunks(STAGING_CHUNK)
                .enumerate()
                .for_each(|(c, piece)| {
                    // SAFETY: `dst` has room for `bytes` bytes (the caller's reserved capacity)
                    // and does not overlap the staging buffer, whose first `k` bytes the
                    // finished copy wrote; the pieces are disjoint.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            piece.as_ptr(),
                            (at + c * STAGING_CHUNK) as *mut u8,
                            piece.len(),
                        )
                    };
                });
            done += k;
        }
        Ok(())
    }

    /// Waits for the stream.
    pub fn sync(&self) -> Result<(), GpuError> {
        self.syncs.fetch_add(1, Ordering::Relaxed);
        self.stream
            .synchronize()
            .map_err(|e| driver("synchronize", e))
    }
}

/// The bytes of a slice of scalars.
pub(crate) fn bytes_of<T: Scalar>(s: &[T]) -> &[u8] {
    assert_eq!(size_of::<T>(), T::TYPE.size_bytes(), "scalar size");
    // SAFETY: `Scalar` is sealed: its only implementors (bool, integers, floats, half types,
    // packed pairs) are plain data of `size_of::<T>()` bytes with no padding, so every byte is
    // initialised.
    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), std::mem::size_of_val(s)) }
}

/// Scalars from their bytes, as written by [`bytes_of`] or by a kernel over `sr_t`.
pub(crate) fn scalars_from<T: Scalar>(bytes: &[u8]) -> Vec<T> {
    let size = size_of::<T>();
    assert_eq!(size, T::TYPE.size_bytes(), "scalar size");
    assert_eq!(bytes.len() % size, 0, "whole scalars");
    let n = bytes.len() / size;
    let mut out: Vec<T> = Vec::with_capacity(n);
    // SAFETY: `out` has capacity for `n` values, i.e. `bytes.len()` bytes; the copy
    // initialises all of them before `set_len`. Every byte pattern that a kernel writes
    // through `sr_t` is a valid value of the matching Rust type (CUDA `bool` is 0 or 1; the
    // other types accept any bits).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), bytes.len());
        out.set_len(n);
    }
    out
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
