//! [`GpuBackend`]: the backend interface on one NVIDIA GPU.

use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use cudarc::driver::{CudaSlice, LaunchConfig};
use semigraph_algos::{
    Accum, Backend, BackendKind, ElementWise, Ewise, Mask, MatrixInfo, NO_PARENT, Objects, Parents,
    Products, Reductions, Result as AlgoResult, UnaryOp,
};
use semigraph_formats::{ConvertOptions, Csr, Format, SparseMatrix};
use semigraph_semiring::{OrAnd, Scalar, Semiring};

use crate::codegen::Kernel;
use crate::params::*;

mod queue;
use crate::device::{CompileStats, Device, bits};
use crate::error::{GpuError, driver};
use crate::transfer::bytes_of;
pub use queue::GpuQueue;

/// Threads per block of the one-dimensional kernels.
const BLOCK: u32 = 256;
/// Items per thread of the compaction tiles (a tile is `BLOCK * ITEMS` positions).
const ITEMS: u32 = 4;
/// Blocks of the grid-stride kernels: enough to fill an H100 several times over.
const MAX_GRID: u64 = 132 * 16;

/// A device buffer shared by the views of one matrix ([`Objects::view`],
/// [`Objects::pattern`]): freed with the last handle that holds it.
type Shared<T> = Arc<CudaSlice<T>>;

/// [`AdaptivePlan`] on the device.
struct DevPlan {
    nblocks: u32,
    blocks: CudaSlice<u32>,
    slots: CudaSlice<u32>,
    nslots: u32,
    long_rows: CudaSlice<u32>,
}

/// A CSR matrix's values on the device: one per entry, or one for every entry (`iso`: a
/// pattern, an unweighted graph; half the memory and traffic of a value per entry).
#[derive(Clone)]
struct DevVals {
    buf: Shared<u8>,
    iso: bool,
    /// Known to hold no stored zero (then a pattern of the matrix is iso-valued); `false`
    /// where not known.
    zero_free: bool,
}

impl DevVals {
    /// One value per entry.
    fn full(buf: CudaSlice<u8>, zero_free: bool) -> DevVals {
        DevVals {
            buf: Arc::new(buf),
            iso: false,
            zero_free,
        }
    }

    /// The kernel arguments ([`MatIn`]).
    fn arg(&self) -> MatValsArg<'_> {
        MatValsArg {
            buf: &self.buf,
            iso: self.iso as u32,
        }
    }
}

/// A CSR matrix on the device.
#[derive(Clone)]
struct DevCsr {
    rp: Shared<u32>,
    ci: Shared<u32>,
    vals: DevVals,
    /// Rows and columns (for the row shape that chooses the SpMV kernel: `rp`'s allocation
    /// may be longer than `nrows + 1`).
    nrows: usize,
    ncols: usize,
    /// The SpMV kernel and plan: chosen when the matrix is uploaded, or on first use for a
    /// matrix built on the device (its row pointers read back then, not when it is built);
    /// shared by the matrix's views.
    tune: Arc<OnceLock<CsrTune>>,
}

/// A CSR matrix's SpMV kernel, the adaptive kernel's plan, its longest row, and its rows as
/// four slots each for the levels kernels (made at their first use).
struct CsrTune {
    kernel: CsrKernel,
    plan: Option<DevPlan>,
    max_row: usize,
    rows4: OnceLock<CudaSlice<u32>>,
}

/// An ELL matrix on the device (column-major).
#[derive(Clone)]
struct DevEll {
    width: u32,
    ci: Shared<u32>,
    vals: Shared<u8>,
}

/// A COO matrix on the device.
#[derive(Clone)]
struct DevCoo {
    nnz: u32,
    rows: Shared<u32>,
    cols: Shared<u32>,
    vals: Shared<u8>,
}

#[derive(Clone)]
enum Storage {
    Csr(DevCsr),
    Ell(DevEll),
    Dia {
        ndiag: u32,
        offs: Shared<i64>,
        data: Shared<u8>,
    },
    Coo(DevCoo),
    Hyb(DevEll, DevCoo),
    Dense(Shared<u8>),
}

/// Where the CSR that push products (`vxm`) walk comes from, for a matrix stored in another
/// format: built on first use, shared by the matrix's views.
struct Push {
    cell: OnceLock<DevCsr>,
    from: PushFrom,
}

enum PushFrom {
    /// Uploaded from the host CSR the matrix was built from.
    Host(Box<dyn UploadCsr>),
    /// Another matrix's push CSR recoded for this one's semiring, on the device.
    Recode(Arc<Push>, Recode),
}

/// A host CSR of any semiring that can upload itself (the value type is erased, so that
/// views in other semirings share it).
trait UploadCsr: Send + Sync {
    fn upload(&self, b: &GpuBackend) -> Result<DevCsr, GpuError>;
}

impl<S: Semiring> UploadCsr for Csr<S> {
    fn upload(&self, b: &GpuBackend) -> Result<DevCsr, GpuError> {
        b.dev_csr(self)
    }
}

/// How [`Kernel::Recode`] turns the values of one semiring into another's: the element sizes,
/// the bits of the source's zero and of the target's zero and one, and whether the other
/// values are kept (a view) or become the one (a pattern).
#[derive(Clone, Copy)]
struct Recode {
    xsize: i32,
    xzero: u64,
    ysize: i32,
    yzero: u64,
    yone: u64,
    keep: i32,
}

/// A sparse matrix in device memory, in one [`Format`].
pub struct GpuMatrix<S: Semiring> {
    info: MatrixInfo,
    storage: Storage,
    /// The CSR for push products when `storage` is not CSR.
    push: Option<Arc<Push>>,
    _s: PhantomData<S>,
}

/// A dense row-major array in device memory.
pub struct GpuDense<S: Semiring> {
    buf: CudaSlice<u8>,
    rows: usize,
    cols: usize,
    _s: PhantomData<S>,
}

impl<S: Semiring> GpuDense<S> {
    fn len(&self) -> usize {
        self.rows * self.cols
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The device address of the first value (`rows * cols` values of `S::T`, row-major,
    /// contiguous), for handing the array to another CUDA library without a copy (Python's
    /// array libraries through `__cuda_array_interface__`). The address stays valid while
    /// `self` lives; work the backend has queued may still write the array, so call
    /// [`Objects::synchronize`] before another stream reads it.
    pub fn device_address(&self, b: &GpuBackend) -> u64 {
        use cudarc::driver::DevicePtr;
        self.buf.device_ptr(&b.dev.stream).0
    }
}

impl<S: Semiring> GpuDense<S> {
    /// The values' bytes (`rows * cols * size_of::<S::T>()` of them, row-major).
    pub(crate) fn bytes(&self) -> &CudaSlice<u8> {
        &self.buf
    }

    /// The values' bytes, to write.
    pub(crate) fn bytes_mut(&mut self) -> &mut CudaSlice<u8> {
        &mut self.buf
    }
}

impl GpuBackend {
    /// The CUDA device ordinal this backend runs on (what array-exchange protocols call the device id).
    pub fn device_ordinal(&self) -> usize {
        self.dev.ctx.ordinal()
    }
}

/// A sparse vector in device memory: sorted indices and their values.
pub struct GpuSparse<S: Semiring> {
    n: usize,
    nnz: usize,
    idx: CudaSlice<u32>,
    vals: CudaSlice<u8>,
    _s: PhantomData<S>,
}

/// A dense array of any semiring viewed as a mask.
#[derive(Clone, Copy)]
pub struct GpuMask<'a> {
    buf: &'a CudaSlice<u8>,
    len: usize,
    size: i32,
    zero: u64,
}

/// The GPU backend: every [`Backend`] operation as generated kernels on one NVIDIA GPU.
///
/// Handles ([`GpuMatrix`], [`GpuDense`], [`GpuSparse`]) own device memory and stay on the
/// device between calls. Kernels are generated from each semiring's CUDA source and compiled
/// by NVRTC on first use (cached in memory and on disk, see [`crate::compiler`]); all work
/// runs in order on one stream.
pub struct GpuBackend {
    pub(crate) dev: Device,
    /// The device's multiprocessors (the cooperative relaxation kernel's grid).
    sms: u32,
    /// Bytes of shared memory a block may use when it asks (the one-block levels kernel).
    smem_optin: u32,
    /// A one-byte buffer passed where a kernel takes an unused pointer.
    dummy: CudaSlice<u8>,
    /// A one-word buffer passed where a kernel takes an unused index array.
    dummy_idx: CudaSlice<u32>,
    /// A 64-bit word passed where a kernel takes an unused array of them.
    dummy_word: CudaSlice<u64>,
    /// Small buffers for unused kernel arguments and one-value results (no allocation in
    /// loops).
    scratch: std::sync::Mutex<Scratch>,
    csr_kernel: Option<CsrKernel>,
    gemm_kernel: Option<GemmKernel>,
}

/// The algebra's compositions ([`Backend::relax`]) as the provided ones: `vxm`, `improve`
/// and `witness` each run as one kernel already.
impl Backend for GpuBackend {}

/// See [`GpuBackend`]'s `scratch`.
struct Scratch {
    idx: CudaSlice<u32>,
    words: CudaSlice<u8>,
    vals: CudaSlice<u8>,
    hdr: CudaSlice<u64>,
    member: CudaSlice<u32>,
    /// Stands for the values of an absent far queue (a launch without a deferral).
    far_vals: CudaSlice<u8>,
    /// The grid barrier of [`Kernel::QueueRelaxGrid`](crate::codegen::Kernel::QueueRelaxGrid)
    /// and [`Kernel::QueueLevelsGrid`](crate::codegen::Kernel::QueueLevelsGrid): 8 words, zero
    /// between launches (each launch leaves them zero).
    grid_sync: CudaSlice<u64>,
    /// The two tagged frontiers of
    /// [`Kernel::QueueLevelsGrid`](crate::codegen::Kernel::QueueLevelsGrid), kept between
    /// runs: allocated by the first run that hands its levels to the grid, grown with the
    /// graphs.
    lv_front: Option<LevelsFronts>,
    /// The log of [`Kernel::QueueLevels`](crate::codegen::Kernel::QueueLevels)'s frontiers
    /// (`level << 32 | vertex`), allocated by the first run, grown with the graphs.
    lv_log: Option<CudaSlice<u64>>,
}

/// The two tagged frontiers of [`Kernel::QueueLevelsGrid`](crate::codegen::Kernel::QueueLevelsGrid)
/// (`n` entries each), with the first tag the next launch may use: no entry in them carries a
/// tag from it to `u32::MAX`.
struct LevelsFronts {
    fa: CudaSlice<u64>,
    fb: CudaSlice<u64>,
    /// The visited set (`ceil(n / 32)` words) where the grid hands narrow levels back.
    bits: CudaSlice<u32>,
    epoch: u32,
}

fn cfg1(n: u64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (n.div_ceil(BLOCK as u64).max(1) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

/// A warp per work item for `n` items, every warp launched (no grid stride): the row
/// kernels whose per-row work is a few dependent reads hide their latency by numbers.
fn cfg_warps(n: u64) -> LaunchConfig {
    cfg1(n * 32)
}

/// `n` blocks (at least one) of [`BLOCK`] threads: a block per work item.
fn cfg_blocks(n: usize) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (n.max(1) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

fn cfg_stride(n: u64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (n.div_ceil(BLOCK as u64).clamp(1, MAX_GRID) as u32, 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: 0,
    }
}

fn to_u32(what: &str, v: usize) -> Result<u32, GpuError> {
    u32::try_from(v).map_err(|_| GpuError::TooLarge {
        what: what.to_string(),
        value: v as u64,
        max: u32::MAX as u64,
    })
}

mod ewise;
mod gemm;
mod objects;
mod operators;
mod plan;
mod products;
mod reductions;
mod setup;
mod sizing;
mod sparse;
mod uploads;
mod views;
pub use plan::{
    ADAPTIVE_ENTRIES, ADAPTIVE_PIECE, ADAPTIVE_ROWS, ADAPTIVE_THREADS, AdaptivePlan, CsrKernel,
    GemmKernel, GemmPath, RowShape,
};

/// Writes a product's partial results into a zeroed temporary (see `mxm`).
type TempFill<'a> = dyn Fn(&mut CudaSlice<u8>, &MaskArg<'_>) -> Result<(), GpuError> + 'a;
