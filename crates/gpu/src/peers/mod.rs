//! Measurement helpers for benchmarks: device-event timing, a copy-bandwidth ceiling, and
//! peers: cuSPARSE's CSR `SpMV` and `SpGEMM` (plus-times `f32`, `cusparse.rs`) and cuBLAS SGEMM.
//!
//! Not part of the library: built with the `peers` feature only, for `semigraph bench` and the
//! criterion benches in `benches/`. Timings are taken
//! with CUDA events around each run after warm-up runs, so compilation, module loading and
//! handle creation stay out of them.

mod cusparse;

use cudarc::driver::{CudaSlice, sys as ds};

pub use cusparse::{CusparseSpgemm, CusparseSpmv, cusparse_present};

use crate::GpuBackend;
use crate::error::{GpuError, driver};

/// Times of repeated runs, in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// Every run's time, in run order.
    pub runs_ms: Vec<f64>,
}

impl Timing {
    /// The median run.
    pub fn median_ms(&self) -> f64 {
        let mut v = self.runs_ms.clone();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n == 0 {
            return f64::NAN;
        }
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    }

    /// The fastest run.
    pub fn min_ms(&self) -> f64 {
        self.runs_ms.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

impl GpuBackend {
    /// Runs `f` `warmup` times, then `runs` times with device events around each run, and
    /// returns the device time of each timed run.
    ///
    /// # Errors
    /// What `f` returns, or a driver failure.
    pub fn time<E: From<GpuError>>(
        &self,
        warmup: usize,
        runs: usize,
        mut f: impl FnMut() -> Result<(), E>,
    ) -> Result<Timing, E> {
        self.time_dyn(warmup, runs, &mut f)
    }

    /// [`GpuBackend::time`] with `f` as a trait object: compiled once per error type, not
    /// once per caller's closure.
    fn time_dyn<E: From<GpuError>>(
        &self,
        warmup: usize,
        runs: usize,
        f: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Timing, E> {
        for _ in 0..warmup {
            f()?;
        }
        let ev = || {
            self.dev
                .ctx
                .new_event(Some(ds::CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| driver("create an event", e))
        };
        let (start, end) = (ev()?, ev()?);
        let mut out = Vec::with_capacity(runs);
        for _ in 0..runs {
            start
                .record(&self.dev.stream)
                .map_err(|e| driver("record an event", e))?;
            f()?;
            end.record(&self.dev.stream)
                .map_err(|e| driver("record an event", e))?;
            end.synchronize()
                .map_err(|e| driver("wait for an event", e))?;
            let ms = start
                .elapsed_ms(&end)
                .map_err(|e| driver("read an event", e))?;
            out.push(ms as f64);
        }
        Ok(Timing { runs_ms: out })
    }

    /// Device-to-device copy bandwidth in GB/s (bytes read plus bytes written, over the
    /// median of `runs` copies of `bytes` bytes): the ceiling for memory-bound kernels.
    ///
    /// # Errors
    /// Out of memory or a driver failure.
    pub fn copy_bandwidth(&self, bytes: usize, runs: usize) -> Result<f64, GpuError> {
        self.dev
            .check_fits("the copy-bandwidth test", 2 * bytes as u64)?;
        let src = self.dev.zeros::<u8>(bytes, "copy source")?;
        let mut dst = self.dev.zeros::<u8>(bytes, "copy destination")?;
        let t = self.time(2, runs, || {
            self.dev
                .stream
                .memcpy_dtod(&src, &mut dst)
                .map_err(|e| driver("device copy", e))
        })?;
        Ok(2.0 * bytes as f64 / (t.median_ms() * 1e6))
    }
}

/// Whether `libcublas` can be loaded.
pub fn cublas_present() -> bool {
    // SAFETY: only tries to load the library.
    unsafe { cudarc::cublas::sys::is_culib_present() }
}

/// cuBLAS SGEMM, `C = A B` on `n x n` `f32` matrices, as the peer of semiring GEMMs.
pub struct CublasSgemm<'g> {
    gpu: &'g GpuBackend,
    blas: cudarc::cublas::CudaBlas,
    a: CudaSlice<f32>,
    b: CudaSlice<f32>,
    c: CudaSlice<f32>,
    n: usize,
}

impl<'g> CublasSgemm<'g> {
    /// Uploads `a` and `b` (row-major `n x n`) and creates the handle on the backend's stream.
    ///
    /// # Errors
    /// No `libcublas`, out of memory, or a cuBLAS failure.
    pub fn new(gpu: &'g GpuBackend, n: usize, a: &[f32], b: &[f32]) -> Result<Self, GpuError> {
        assert_eq!((a.len(), b.len()), (n * n, n * n), "CublasSgemm: shapes");
        if !cublas_present() {
            return Err(GpuError::LibraryMissing {
                library: "libcublas",
                hint: "install the CUDA toolkit's cuBLAS",
            });
        }
        if n > 46_340 {
            return Err(GpuError::TooLarge {
                what: "cuBLAS SGEMM (n * n within i32)".into(),
                value: n as u64,
                max: 46_340,
            });
        }
        let d = &gpu.dev;
        d.check_fits("the cuBLAS SGEMM peer", 3 * (n * n * 4) as u64)?;
        let blas =
            cudarc::cublas::CudaBlas::new(d.stream.clone()).map_err(|e| GpuError::Driver {
                what: "create a cuBLAS handle".into(),
                message: format!("{e:?}"),
            })?;
        let (a, b) = (d.upload(a, "SGEMM A")?, d.upload(b, "SGEMM B")?);
        let c = d.zeros::<f32>(n * n, "SGEMM C")?;
        Ok(CublasSgemm {
            gpu,
            blas,
            a,
            b,
            c,
            n,
        })
    }

    /// One `C = A B` (queued on the backend's stream).
    ///
    /// # Errors
    /// A cuBLAS failure.
    pub fn run(&mut self) -> Result<(), GpuError> {
        use cudarc::cublas::{Gemm, GemmConfig, sys::cublasOperation_t::CUBLAS_OP_N};
        let n = self.n as i32;
        // Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
        let cfg = GemmConfig {
            transa: CUBLAS_OP_N,
            transb: CUBLAS_OP_N,
            m: n,
            n,
            k: n,
            alpha: 1.0f32,
            lda: n,
            ldb: n,
            beta: 0.0f32,
            ldc: n,
        };
        // SAFETY: the three buffers hold n * n f32 each (checked in `new`) and the leading
        // dimensions are n.
        unsafe { self.blas.gemm(cfg, &self.b, &self.a, &mut self.c) }.map_err(|e| {
            GpuError::Driver {
                what: "cuBLAS SGEMM".into(),
                message: format!("{e:?}"),
            }
        })
    }

    /// The last result `C`, row-major.
    ///
    /// # Errors
    /// A driver failure.
    pub fn result(&self) -> Result<Vec<f32>, GpuError> {
        self.gpu.dev.download(&self.c, self.n * self.n)
    }
}

/// The device's simple-instruction ceiling: streaming multiprocessors x 128 32-bit lanes x
/// the maximum SM clock, in instructions per second (2 x the FP32 FMA rate in FLOP/s would be
/// twice this). A (min, +) pair takes two (an add and a min): half this many pairs per second.
///
/// # Errors
/// A driver failure.
pub fn lane_ops_per_second(gpu: &GpuBackend) -> Result<f64, GpuError> {
    use ds::CUdevice_attribute as A;
    let attr = |a| {
        gpu.dev
            .ctx
            .attribute(a)
            .map_err(|e| driver("read a device attribute", e))
    };
    let sms = attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as f64;
    let khz = attr(A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)? as f64;
    Ok(sms * 128.0 * khz * 1e3)
}
