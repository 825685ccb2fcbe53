//! The semigraph GPU backend.
//!
//! [`GpuBackend`] implements [`semigraph_algos::Backend`] on one NVIDIA GPU, so every
//! algorithm of `semigraph-algos` runs on the GPU unchanged:
//!
//! ```no_run
//! use semigraph_algos::{bfs, BfsOptions, Graph, GraphOptions};
//! use semigraph_formats::generate::grid;
//! use semigraph_gpu::GpuBackend;
//!
//! let gpu = GpuBackend::new()?; // an error, never a panic, without a GPU, driver or NVRTC
//! let a = grid(64, 64, 1, 1, 7).to_pattern_csr::<semigraph_algos::BfsSemiring, u32>()?;
//! let g = Graph::new(&gpu, &a, GraphOptions::default())?;
//! let r = bfs(&g, 0, &BfsOptions::default())?;
//! assert_eq!(r.levels[64 * 64 - 1], 126);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it works
//! - [`codegen`] writes the CUDA C++ of each kernel from the semiring's own CUDA source
//!   ([`semigraph_semiring::Semiring::cuda`]): one template per operation and format, named by
//!   a decodable [`KernelKey`].
//! - [`compiler`] compiles it with NVRTC for the device's architecture and caches the binary
//!   in memory and on disk.
//! - `GpuBackend` loads each kernel on first use and launches it on one stream; matrices,
//!   dense arrays and sparse vectors stay in device memory between calls.
//!
//! No driver, no device or no NVRTC: [`GpuBackend::new`] returns a [`GpuError`] saying so (the
//! libraries are probed before cudarc touches them). All `unsafe` code of semigraph lives in
//! this crate, each block with a `// SAFETY:` comment.

pub mod backend;
pub mod codegen;
pub mod compiler;
mod device;
pub mod error;
pub mod host;
pub mod nccl;
mod params;
pub mod shared;
mod transfer;
mod warm;
// Benchmark peers and timing: not part of the library, built only with the `peers` feature,
// which the `semigraph` binary and the criterion benches turn on.
#[cfg(feature = "peers")]
pub mod peers;

pub use backend::{
    AdaptivePlan, CsrKernel, GemmKernel, GemmPath, GpuBackend, GpuDense, GpuMask, GpuMatrix,
    GpuSparse, RowShape,
};
pub use codegen::{Kernel, KernelKey};
pub use compiler::{Compiled, Compiler, Origin, check_cuda, nvrtc_present};
pub use device::{CompileStats, driver_present};
pub use error::GpuError;
pub use nccl::{NcclComm, device_count, nccl_present};
pub use shared::{GpuComm, SharedComm};
