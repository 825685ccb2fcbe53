//! Copies between the host and a device: uploads and downloads through the page-locked
//! staging buffer (pipelined uploads, downloads copied out on several threads), and the
//! bytes of scalar arrays.

use cudarc::driver::{CudaSlice, DeviceRepr, DriverError, PinnedHostSlice};
use rayon::prelude::*;
use semigraph_semiring::Scalar;

use crate::device::Device;
use crate::error::{GpuError, driver};

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

impl Device {
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
