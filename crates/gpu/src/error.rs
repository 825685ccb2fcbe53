//! Errors of the GPU backend and its kernel compiler.

/// What can go wrong on the GPU side. Converted into
/// [`semigraph_algos::Error::Backend`] (or [`semigraph_algos::Error::OutOfMemory`]) at the
/// backend interface.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// A CUDA library (`libcuda` from the driver, `libnvrtc`) could not be loaded.
    #[error(
        "{library} not found: {hint} (cudarc looks for it on the loader path, e.g. LD_LIBRARY_PATH)"
    )]
    LibraryMissing {
        /// Which library.
        library: &'static str,
        /// What provides it.
        hint: &'static str,
    },
    /// The driver loaded but reports no usable device.
    #[error("no CUDA device: {0}")]
    NoDevice(String),
    /// A CUDA driver call failed.
    #[error("CUDA driver: {what}: {message}")]
    Driver {
        /// What was being done.
        what: String,
        /// The driver's message.
        message: String,
    },
    /// NVRTC failed outside compilation proper (program creation, retrieving the binary).
    #[error("NVRTC: {what}: {message}")]
    Nvrtc {
        /// What was being done.
        what: String,
        /// NVRTC's message.
        message: String,
    },
    /// A generated kernel did not compile.
    #[error(
        "kernel {key} failed to compile (options: {options}):\n--- NVRTC log ---\n{log}\n--- generated source ---\n{source_code}"
    )]
    Compile {
        /// The kernel key ([`crate::KernelKey::name`]).
        key: String,
        /// The NVRTC options, space-separated.
        options: String,
        /// The NVRTC log.
        log: String,
        /// The generated source.
        source_code: String,
    },
    /// Not enough device memory, found before the work starts.
    #[error("out of GPU memory: {what} needs {needed} bytes, {available} available")]
    OutOfMemory {
        /// What the memory was for.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes free on the device.
        available: u64,
    },
    /// An NCCL call failed (several GPUs, [`crate::NcclComm`]).
    #[error("NCCL: {what}: {message}")]
    Nccl {
        /// What was being done.
        what: String,
        /// NCCL's message.
        message: String,
    },
    /// Input the operation cannot take (arrays of different lengths, an index out of range),
    /// found before any work.
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// A size that does not fit the kernels' 32-bit indices.
    #[error("{what} has {value} elements; the GPU kernels index with u32 (at most {max})")]
    TooLarge {
        /// What is too large.
        what: String,
        /// Its size.
        value: u64,
        /// The largest size supported.
        max: u64,
    },
}

impl From<GpuError> for semigraph_algos::Error {
    fn from(e: GpuError) -> Self {
        match e {
            GpuError::OutOfMemory {
                what,
                needed,
                available,
            } => semigraph_algos::Error::OutOfMemory {
                what: format!("{what} (GPU)"),
                needed,
                available: Some(available),
            },
            GpuError::InvalidInput(why) => semigraph_algos::Error::InvalidArgument(why),
            e => semigraph_algos::Error::Backend {
                backend: "gpu",
                source: Box::new(e),
            },
        }
    }
}

/// An NCCL error with what was being done.
pub(crate) fn nccl(what: impl Into<String>, e: cudarc::nccl::result::NcclError) -> GpuError {
    GpuError::Nccl {
        what: what.into(),
        message: format!("{e:?}"),
    }
}

/// A driver error with what was being done.
pub(crate) fn driver(what: impl Into<String>, e: cudarc::driver::DriverError) -> GpuError {
    GpuError::Driver {
        what: what.into(),
        message: e.to_string(),
    }
}
