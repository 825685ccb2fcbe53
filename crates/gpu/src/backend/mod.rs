//! [`GpuBackend`]: the backend interface on one NVIDIA GPU.

use std::marker::PhantomData;
use std::sync::OnceLock;

use cudarc::driver::{CudaFunction, CudaSlice, LaunchConfig, PushKernelArg};
use semigraph_algos::{
    Accum, Backend, BackendKind, Ewise, Mask, MatrixInfo, NO_PARENT, Parents, QueueInfo,
    Result as AlgoResult, StepOutputs, UnaryOp,
};
use semigraph_formats::{ConvertOptions, Csr, Format, SparseMatrix};
use semigraph_semiring::{OrAnd, Scalar, Semiring};

use crate::codegen::Kernel;

mod queue;
use crate::device::{CompileStats, Device, bits, bytes_of, scalars_from};
use crate::error::{GpuError, driver};
pub use queue::GpuQueue;

/// Threads per block of the one-dimensional kernels.
const BLOCK: u32 = 256;
/// Items per thread of the compaction tiles (a tile is `BLOCK * ITEMS` positions).
const ITEMS: u32 = 4;
/// Blocks of the grid-stride kernels: enough to fill an H100 several times over.
const MAX_GRID: u64 = 132 * 16;

/// How CSR SpMV is computed ([`GpuBackend::set_csr_kernel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrKernel {
    /// A thread per row.
    Scalar,
    /// A sub-warp of this many lanes (2, 4, 8, 16 or 32) per row.
    Vector(u32),
    /// Each thread takes this many consecutive entries (load-balanced).
    Split(u32),
    /// CSR-Adaptive: blocks of short rows through shared memory, long rows a block each
    /// (split over several blocks beyond [`ADAPTIVE_PIECE`] entries); planned per matrix.
    Adaptive,
}

/// How dense GEMM is computed ([`GpuBackend::set_gemm_kernel`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GemmKernel {
    /// 16 x 16 shared-memory tiles, one output per thread ([`Kernel::Gemm`]); the default.
    #[default]
    Tile16,
    /// Register tiles, 8 x 8 outputs per thread ([`Kernel::GemmReg`]). Compiled for every
    /// semiring in CI, but not yet run on a GPU (docs/BENCH-GPU.md): opt in with
    /// `SEMIGRAPH_GEMM_KERNEL=reg128` or [`GpuBackend::set_gemm_kernel`] until it has been.
    Reg128,
}

/// Entries per shared-memory block of [`CsrKernel::Adaptive`] (`SG_AD_ENTRIES`).
pub const ADAPTIVE_ENTRIES: usize = 1024;
/// Threads per block of [`CsrKernel::Adaptive`] (`SG_AD_THREADS`), also its most rows per block.
pub const ADAPTIVE_THREADS: u32 = 256;
/// Entries of one block's piece of a long row in [`CsrKernel::Adaptive`].
pub const ADAPTIVE_PIECE: usize = 8192;

/// The host plan of [`CsrKernel::Adaptive`]: per block `[r0, r1, p0, p1]` and a slot (the
/// index of a split row, `u32::MAX` otherwise), and the split rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdaptivePlan {
    /// `[r0, r1, p0, p1]` per block.
    pub blocks: Vec<[u32; 4]>,
    /// The split row's slot per block (`u32::MAX` for blocks of whole rows).
    pub slots: Vec<u32>,
    /// The rows split over several blocks, by slot.
    pub long_rows: Vec<u32>,
}

impl AdaptivePlan {
    /// Plans `rp` (CSR row pointers): consecutive rows of at most [`ADAPTIVE_ENTRIES`]
    /// entries together fill a block (at most [`ADAPTIVE_THREADS`] rows); a longer row gets
    /// blocks of its own, one per [`ADAPTIVE_PIECE`] entries.
    pub fn new(rp: &[u32]) -> AdaptivePlan {
        let n = rp.len().saturating_sub(1);
        let mut plan = AdaptivePlan::default();
        let mut r = 0;
        while r < n {
            let len = (rp[r + 1] - rp[r]) as usize;
            if len > ADAPTIVE_ENTRIES {
                let slot = if len > ADAPTIVE_PIECE {
                    plan.long_rows.push(r as u32);
                    (plan.long_rows.len() - 1) as u32
                } else {
                    u32::MAX
                };
                let mut p = rp[r] as usize;
                while p < rp[r + 1] as usize {
                    let e = (p + ADAPTIVE_PIECE).min(rp[r + 1] as usize);
                    plan.blocks
                        .push([r as u32, r as u32 + 1, p as u32, e as u32]);
                    plan.slots.push(slot);
                    p = e;
                }
                r += 1;
                continue;
            }
            let (start, p0) = (r, rp[r] as usize);
            while r < n
                && r - start < ADAPTIVE_THREADS as usize
                && rp[r + 1] as usize - p0 <= ADAPTIVE_ENTRIES
            {
                r += 1;
            }
            plan.blocks.push([start as u32, r as u32, p0 as u32, rp[r]]);
            plan.slots.push(u32::MAX);
        }
        plan
    }
}

impl CsrKernel {
    /// The choice for a matrix with these row lengths: adaptive when a few rows are far
    /// longer than the rest (power-law graphs), a thread per row when every row is short,
    /// else a sub-warp about as wide as the average row. `SEMIGRAPH_CSR_KERNEL` (`scalar`,
    /// `vector8`, `split8`, `adaptive`, ...) overrides the choice.
    pub fn choose(nrows: usize, nnz: usize, max_row: usize) -> CsrKernel {
        let avg = nnz as f64 / nrows.max(1) as f64;
        if let Some(k) = std::env::var("SEMIGRAPH_CSR_KERNEL")
            .ok()
            .and_then(|v| CsrKernel::parse(&v))
        {
            return k;
        }
        if max_row > 1024 && max_row as f64 > 64.0 * avg.max(1.0) {
            CsrKernel::Adaptive
        } else if max_row <= 16 {
            CsrKernel::Scalar
        } else {
            CsrKernel::Vector((avg.ceil() as u32).next_power_of_two().clamp(2, 32))
        }
    }
}

impl CsrKernel {
    /// Reads `scalar`, `vectorW`, `splitC` or `adaptive`.
    pub fn parse(s: &str) -> Option<CsrKernel> {
        let num = |p: &str| s.strip_prefix(p).and_then(|n| n.parse::<u32>().ok());
        match s {
            "scalar" => Some(CsrKernel::Scalar),
            "adaptive" => Some(CsrKernel::Adaptive),
            _ => num("vector")
                .filter(|w| w.is_power_of_two() && (2..=32).contains(w))
                .map(CsrKernel::Vector)
                .or_else(|| num("split").filter(|&c| c > 0).map(CsrKernel::Split)),
        }
    }

    /// The name [`CsrKernel::parse`] reads.
    pub fn name(self) -> String {
        match self {
            CsrKernel::Scalar => "scalar".into(),
            CsrKernel::Vector(w) => format!("vector{w}"),
            CsrKernel::Split(c) => format!("split{c}"),
            CsrKernel::Adaptive => "adaptive".into(),
        }
    }
}

/// [`AdaptivePlan`] on the device.
struct DevPlan {
    nblocks: u32,
    blocks: CudaSlice<u32>,
    slots: CudaSlice<u32>,
    nslots: u32,
    long_rows: CudaSlice<u32>,
}

/// A CSR matrix on the device.
struct DevCsr {
    rp: CudaSlice<u32>,
    ci: CudaSlice<u32>,
    vals: CudaSlice<u8>,
    kernel: CsrKernel,
    plan: Option<DevPlan>,
}

/// An ELL matrix on the device (column-major).
struct DevEll {
    width: u32,
    ci: CudaSlice<u32>,
    vals: CudaSlice<u8>,
}

/// A COO matrix on the device.
struct DevCoo {
    nnz: u32,
    rows: CudaSlice<u32>,
    cols: CudaSlice<u32>,
    vals: CudaSlice<u8>,
}

enum Storage {
    Csr(DevCsr),
    Ell(DevEll),
    Dia {
        ndiag: u32,
        offs: CudaSlice<i64>,
        data: CudaSlice<u8>,
    },
    Coo(DevCoo),
    Hyb(DevEll, DevCoo),
    Dense(CudaSlice<u8>),
}

/// A sparse matrix in device memory, in one [`Format`].
pub struct GpuMatrix<S: Semiring> {
    info: MatrixInfo,
    storage: Storage,
    /// The CSR that push products (`vxm`) walk: `storage` itself for CSR, else built on
    /// first use from `host`.
    push: OnceLock<DevCsr>,
    host: Option<Csr<S>>,
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
    /// A one-byte buffer passed where a kernel takes an unused pointer.
    dummy: CudaSlice<u8>,
    /// Small buffers for unused kernel arguments and one-value results (no allocation in
    /// loops).
    scratch: std::sync::Mutex<Scratch>,
    csr_kernel: Option<CsrKernel>,
    gemm_kernel: GemmKernel,
}

/// See [`GpuBackend`]'s `scratch`.
struct Scratch {
    idx: CudaSlice<u32>,
    words: CudaSlice<u8>,
    vals: CudaSlice<u8>,
    hdr: CudaSlice<u64>,
    member: CudaSlice<u32>,
}

fn cfg1(n: u64) -> LaunchConfig {
    LaunchConfig {
        grid_dim: (n.div_ceil(BLOCK as u64).max(1) as u32, 1, 1),
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

/// Launches `f` with the arguments pushed by `$args` (each `&value` or `&buffer`).
macro_rules! launch {
    ($self:expr, $f:expr, $cfg:expr, [$($arg:expr),* $(,)?]) => {{
        let f: &CudaFunction = &$f;
        $self.dev.count_launch();
        let mut l = $self.dev.stream.launch_builder(f);
        $( l.arg($arg); )*
        // SAFETY: every generated kernel's parameter list matches, in order and type, the
        // arguments pushed here (kernel templates in codegen.rs); buffers are sized by the
        // caller for the index ranges the kernel touches (asserted shapes).
        unsafe { l.launch($cfg) }.map_err(|e| driver(format!("launch {f:?}"), e))?;
    }};
}

/// Writes a product's partial results into a zeroed temporary (see `mxm`).
type TempFill<'a> = dyn Fn(&mut CudaSlice<u8>, &MaskArgs<'_>) -> Result<(), GpuError> + 'a;

/// The four mask arguments of a kernel: buffer, mode, element size, bits of the zero.
struct MaskArgs<'a> {
    buf: &'a CudaSlice<u8>,
    mode: i32,
    size: i32,
    zero: u64,
}

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
        let scratch = Scratch {
            idx: dev.zeros::<u32>(2, "scratch")?,
            words: dev.zeros::<u8>(8, "scratch")?,
            vals: dev.zeros::<u8>(8, "scratch")?,
            hdr: dev.zeros::<u64>(4, "scratch")?,
            member: dev.zeros::<u32>(2, "scratch")?,
        };
        Ok(GpuBackend {
            dev,
            dummy,
            scratch: std::sync::Mutex::new(scratch),
            csr_kernel: None,
            gemm_kernel: match std::env::var("SEMIGRAPH_GEMM_KERNEL").as_deref() {
                Ok("reg128") => GemmKernel::Reg128,
                _ => GemmKernel::Tile16,
            },
        })
    }

    /// Forces the CSR SpMV kernel of matrices built from now on (`None`: choose per matrix
    /// with [`CsrKernel::choose`]).
    pub fn set_csr_kernel(&mut self, k: Option<CsrKernel>) {
        self.csr_kernel = k;
    }

    /// Chooses the dense GEMM kernel (default [`GemmKernel::Tile16`], or `reg128` from the
    /// environment variable `SEMIGRAPH_GEMM_KERNEL`).
    pub fn set_gemm_kernel(&mut self, k: GemmKernel) {
        self.gemm_kernel = k;
    }

    /// The CSR kernel a matrix uses, if it is stored as CSR.
    pub fn csr_kernel_of<S: Semiring>(&self, a: &GpuMatrix<S>) -> Option<CsrKernel> {
        match &a.storage {
            Storage::Csr(c) => Some(c.kernel),
            _ => None,
        }
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
            } else if k.applies_to(Some(<S::T as Scalar>::TYPE)) {
                self.dev.func::<S>(k)?;
            }
        }
        Ok(())
    }

    fn mask_args<'a, 'm: 'a>(&'a self, mask: Mask<'m, Self>, len: usize) -> MaskArgs<'a> {
        match mask {
            Mask::All => MaskArgs {
                buf: &self.dummy,
                mode: 0,
                size: 1,
                zero: 0,
            },
            Mask::Keep(m) | Mask::Skip(m) => {
                assert_eq!(m.len, len, "mask length");
                MaskArgs {
                    buf: m.buf,
                    mode: if matches!(mask, Mask::Keep(_)) { 1 } else { 2 },
                    size: m.size,
                    zero: m.zero,
                }
            }
        }
    }

    fn alloc_vals<S: Semiring>(&self, len: usize, what: &str) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.zeros::<u8>(len * size_of::<S::T>(), what)
    }

    /// `len` values of `S`, every one `v`.
    fn filled<S: Semiring>(
        &self,
        len: usize,
        v: S::T,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        let bytes = len as u64 * size_of::<S::T>() as u64;
        self.dev.check_fits(what, bytes)?;
        let mut buf = self.alloc_vals::<S>(len, what)?;
        if len > 0 && bits(v) != 0 {
            self.apply_raw::<S>(&mut buf, len, Mask::All, 0, bits(v))?;
        }
        Ok(buf)
    }

    fn apply_raw<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
        op: i32,
        c: u64,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::Apply)?;
        let m = self.mask_args(mask, len);
        let n = len as u64;
        launch!(
            self,
            f,
            cfg_stride(n),
            [y, &n, m.buf, &m.mode, &m.size, &m.zero, &op, &c]
        );
        Ok(())
    }

    fn ewise_raw<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        x: &CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
        op: i32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::Ewise)?;
        let m = self.mask_args(mask, len);
        let n = len as u64;
        launch!(
            self,
            f,
            cfg_stride(n),
            [y, x, &n, m.buf, &m.mode, &m.size, &m.zero, &op]
        );
        Ok(())
    }

    /// Compacts the entries of `len` values in `src` into a sparse vector of length `n`;
    /// indices are positions, or `map[position]` when a map is given.
    fn compact_raw<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        self.compact_flagged::<S>(src, None, len, n, map)
    }

    /// As [`GpuBackend::compact_raw`], keeping the positions whose flag byte is non-zero
    /// when `flags` is given (entries that may hold the zero).
    fn compact_flagged<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        flags: Option<&CudaSlice<u8>>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        let use_flags: i32 = flags.is_some() as i32;
        let flags = flags.unwrap_or(&self.dummy);
        to_u32("a compacted vector", len)?;
        let tile = (BLOCK * ITEMS) as usize;
        let nb = len.div_ceil(tile).max(1);
        let nb32 = nb as u32;
        let mut counts = self.dev.zeros::<u32>(nb + 1, "compaction counts")?;
        let lenu = len as u64;
        let grid = LaunchConfig {
            grid_dim: (nb32, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let fc = self.dev.func::<S>(Kernel::CompactCount)?;
        launch!(
            self,
            fc,
            grid,
            [src, flags, &use_flags, &lenu, &ITEMS, &mut counts]
        );
        let fs = self.dev.func_any(Kernel::Scan)?;
        let one = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (1024, 1, 1),
            shared_mem_bytes: 0,
        };
        launch!(self, fs, one, [&mut counts, &nb32]);
        let total = self.read_u32(&counts, nb)? as usize;
        let mut idx = self.dev.zeros::<u32>(total, "sparse indices")?;
        let mut vals = self.alloc_vals::<S>(total, "sparse values")?;
        if total > 0 {
            let fw = self.dev.func::<S>(Kernel::CompactWrite)?;
            let use_map: i32 = map.is_some() as i32;
            match map {
                Some(mp) => {
                    launch!(
                        self,
                        fw,
                        grid,
                        [
                            src, flags, &use_flags, &lenu, &ITEMS, &counts, mp, &use_map, &mut idx,
                            &mut vals
                        ]
                    )
                }
                None => {
                    launch!(
                        self,
                        fw,
                        grid,
                        [
                            src,
                            flags,
                            &use_flags,
                            &lenu,
                            &ITEMS,
                            &counts,
                            &self.dummy,
                            &use_map,
                            &mut idx,
                            &mut vals
                        ]
                    )
                }
            }
        }
        Ok(GpuSparse {
            n,
            nnz: total,
            idx,
            vals,
            _s: PhantomData,
        })
    }

    fn read_u32(&self, buf: &CudaSlice<u32>, at: usize) -> Result<u32, GpuError> {
        let mut v = [0u32];
        self.dev
            .stream
            .memcpy_dtoh(&buf.slice(at..at + 1), &mut v[..])
            .map_err(|e| driver("read a count", e))?;
        self.dev.sync()?;
        Ok(v[0])
    }

    fn read_u64(&self, buf: &CudaSlice<u64>) -> Result<u64, GpuError> {
        Ok(self.dev.download(buf, 1)?[0])
    }

    fn read_vals<S: Semiring>(
        &self,
        buf: &CudaSlice<u8>,
        len: usize,
    ) -> Result<Vec<S::T>, GpuError> {
        let bytes = self.dev.download(buf, len * size_of::<S::T>())?;
        Ok(scalars_from::<S::T>(&bytes))
    }

    fn upload_vals<S: Semiring>(&self, v: &[S::T], what: &str) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.upload::<u8>(bytes_of(v), what)
    }

    fn dev_csr<S: Semiring>(&self, a: &Csr<S>) -> Result<DevCsr, GpuError> {
        let max_row = (0..a.nrows()).map(|i| a.row_len(i)).max().unwrap_or(0);
        let kernel = self
            .csr_kernel
            .unwrap_or_else(|| CsrKernel::choose(a.nrows(), a.nnz(), max_row));
        let plan = match kernel {
            CsrKernel::Adaptive => {
                let p = AdaptivePlan::new(a.row_ptr());
                let flat: Vec<u32> = p.blocks.iter().flatten().copied().collect();
                Some(DevPlan {
                    nblocks: to_u32("adaptive blocks", p.blocks.len())?,
                    blocks: self.dev.upload(&flat, "adaptive plan")?,
                    slots: self.dev.upload(&p.slots, "adaptive slots")?,
                    nslots: p.long_rows.len() as u32,
                    long_rows: self.dev.upload(&p.long_rows, "adaptive long rows")?,
                })
            }
            _ => None,
        };
        Ok(DevCsr {
            rp: self.dev.upload(a.row_ptr(), "CSR row pointers")?,
            ci: self.dev.upload(a.col_idx(), "CSR columns")?,
            vals: self.upload_vals::<S>(a.vals(), "CSR values")?,
            kernel,
            plan,
        })
    }

    fn dev_ell<S: Semiring>(&self, e: &semigraph_formats::Ell<S>) -> Result<DevEll, GpuError> {
        Ok(DevEll {
            width: to_u32("ELL width", e.width())?,
            ci: self.dev.upload(e.col_idx(), "ELL columns")?,
            vals: self.upload_vals::<S>(e.vals(), "ELL values")?,
        })
    }

    fn dev_coo<S: Semiring>(&self, c: &semigraph_formats::Coo<S>) -> Result<DevCoo, GpuError> {
        Ok(DevCoo {
            nnz: to_u32("COO entries", c.nnz())?,
            rows: self.dev.upload(&c.rows, "COO rows")?,
            cols: self.dev.upload(&c.cols, "COO columns")?,
            vals: self.upload_vals::<S>(&c.vals, "COO values")?,
        })
    }

    /// The CSR of `a` for push products.
    fn push_csr<'m, S: Semiring>(&self, a: &'m GpuMatrix<S>) -> Result<&'m DevCsr, GpuError> {
        if let Storage::Csr(c) = &a.storage {
            return Ok(c);
        }
        if let Some(c) = a.push.get() {
            return Ok(c);
        }
        let host = a
            .host
            .as_ref()
            .expect("non-CSR matrices keep their host CSR");
        let c = self.dev_csr(host)?;
        Ok(a.push.get_or_init(|| c))
    }

    /// Row-kernel launch of ELL into `y` with the given mask/accum.
    #[allow(clippy::too_many_arguments)]
    fn ell_into<S: Semiring>(
        &self,
        e: &DevEll,
        x: &CudaSlice<u8>,
        y: &mut CudaSlice<u8>,
        nrows: u32,
        k: u32,
        m: &MaskArgs<'_>,
        accum: i32,
    ) -> Result<(), GpuError> {
        let f = self.dev.func::<S>(Kernel::SpmvEll)?;
        launch!(
            self,
            f,
            cfg1(nrows as u64 * k as u64),
            [
                &e.ci, &e.vals, x, y, &nrows, &k, &e.width, m.buf, &m.mode, &m.size, &m.zero,
                &accum
            ]
        );
        Ok(())
    }

    fn coo_into<S: Semiring>(
        &self,
        c: &DevCoo,
        x: &CudaSlice<u8>,
        t: &mut CudaSlice<u8>,
        k: u32,
        m: &MaskArgs<'_>,
    ) -> Result<(), GpuError> {
        if c.nnz == 0 {
            return Ok(());
        }
        let f = self.dev.func::<S>(Kernel::SpmvCoo)?;
        launch!(
            self,
            f,
            cfg1(c.nnz as u64 * k as u64),
            [
                &c.rows, &c.cols, &c.vals, x, t, &c.nnz, &k, m.buf, &m.mode, &m.size, &m.zero
            ]
        );
        Ok(())
    }
}

fn bytes_for<S: Semiring>(m: &SparseMatrix<S>) -> u64 {
    let v = size_of::<S::T>() as u64;
    match m {
        SparseMatrix::Csr(c) => (c.nrows() as u64 + 1) * 4 + c.nnz() as u64 * (4 + v),
        SparseMatrix::Ell(e) => (e.width() * e.nrows()) as u64 * (4 + v),
        SparseMatrix::Dia(d) => d.offsets().len() as u64 * (8 + d.nrows() as u64 * v),
        SparseMatrix::Coo(c) => c.nnz() as u64 * (8 + v),
        SparseMatrix::Hyb(h) => {
            (h.ell.width() * h.ell.nrows()) as u64 * (4 + v) + h.coo.nnz() as u64 * (8 + v)
        }
        SparseMatrix::Dense(d) => (d.nrows() * d.ncols()) as u64 * v,
    }
}

impl Backend for GpuBackend {
    type Matrix<S: Semiring> = GpuMatrix<S>;
    type Dense<S: Semiring> = GpuDense<S>;
    type Sparse<S: Semiring> = GpuSparse<S>;
    type Queue<S: Semiring> = GpuQueue<S>;
    type MaskRef<'a> = GpuMask<'a>;

    fn name(&self) -> String {
        format!("gpu ({}, {})", self.dev.name, self.dev.arch)
    }

    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn synchronize(&self) -> AlgoResult<()> {
        Ok(self.dev.sync()?)
    }

    fn counters(&self) -> semigraph_algos::Counters {
        self.dev.counters()
    }

    fn queue<S: Semiring>(&self, n: usize) -> AlgoResult<GpuQueue<S>> {
        Ok(self.q_new(n)?)
    }

    fn queue_set<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_set(q, idx, vals, steps)?)
    }

    fn queue_len<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<QueueInfo> {
        Ok(self.q_len(q)?)
    }

    fn read_queue<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(Vec<u32>, Vec<S::T>)> {
        Ok(self.q_read(q)?)
    }

    fn relax_step<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        from: &GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        to: &mut GpuQueue<S>,
    ) -> AlgoResult<()> {
        Ok(self.q_relax_step(d, out, from, a, mask, to)?)
    }

    fn relax_steps<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        max_steps: usize,
        limit: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_relax_steps(d, out, q, spare, a, mask, max_steps, limit)?)
    }

    fn assign_queue<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        q: &GpuQueue<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        Ok(self.q_assign(y, q, value)?)
    }

    fn split_queue<S: Semiring>(
        &self,
        from: &GpuQueue<S>,
        d: &GpuDense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut GpuQueue<S>,
        outside: Option<&mut GpuQueue<S>>,
    ) -> AlgoResult<()> {
        Ok(self.q_split(from, d, lo, hi, inside, outside)?)
    }

    fn reduce_queue<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(QueueInfo, S::T)> {
        Ok(self.q_reduce(q)?)
    }

    fn queue_clear<S: Semiring>(&self, q: &mut GpuQueue<S>) -> AlgoResult<()> {
        Ok(self.q_clear(q)?)
    }

    fn improve_dense_queue<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
        to: &mut GpuQueue<S>,
        steps: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_improve_dense(d, t, to, steps)?)
    }

    fn queue_to_dense<S: Semiring>(&self, q: &GpuQueue<S>, x: &mut GpuDense<S>) -> AlgoResult<()> {
        Ok(self.q_to_dense(q, x)?)
    }

    fn matrix<S: Semiring>(
        &self,
        a: &Csr<S>,
        format: Format,
        opts: &ConvertOptions,
    ) -> AlgoResult<GpuMatrix<S>> {
        to_u32("matrix rows", a.nrows() + 1)?;
        to_u32("matrix columns", a.ncols() + 1)?;
        to_u32("matrix entries", a.nnz())?;
        let host = SparseMatrix::from_csr(a, format, opts)?;
        let what = format!("a {}x{} {format:?} matrix", a.nrows(), a.ncols());
        self.dev.check_fits(&what, bytes_for(&host))?;
        let storage = match &host {
            SparseMatrix::Csr(c) => Storage::Csr(self.dev_csr(c)?),
            SparseMatrix::Ell(e) => Storage::Ell(self.dev_ell(e)?),
            SparseMatrix::Dia(d) => Storage::Dia {
                ndiag: to_u32("DIA diagonals", d.offsets().len())?,
                offs: self.dev.upload(d.offsets(), "DIA offsets")?,
                data: self.upload_vals::<S>(d.data(), "DIA data")?,
            },
            SparseMatrix::Coo(c) => Storage::Coo(self.dev_coo(c)?),
            SparseMatrix::Hyb(h) => Storage::Hyb(self.dev_ell(&h.ell)?, self.dev_coo(&h.coo)?),
            SparseMatrix::Dense(d) => {
                Storage::Dense(self.upload_vals::<S>(d.vals(), "dense matrix")?)
            }
        };
        Ok(GpuMatrix {
            info: MatrixInfo {
                nrows: a.nrows(),
                ncols: a.ncols(),
                nnz: a.nnz(),
                format,
            },
            storage,
            push: OnceLock::new(),
            host: (format != Format::Csr).then(|| a.clone()),
        })
    }

    fn matrix_info<S: Semiring>(&self, a: &GpuMatrix<S>) -> MatrixInfo {
        a.info
    }

    fn dense<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        data: &[S::T],
    ) -> AlgoResult<GpuDense<S>> {
        assert_eq!(data.len(), rows * cols, "dense data length");
        let what = format!("a {rows}x{cols} array");
        self.dev
            .check_fits(&what, std::mem::size_of_val(data) as u64)?;
        Ok(GpuDense {
            buf: self.upload_vals::<S>(data, &what)?,
            rows,
            cols,
            _s: PhantomData,
        })
    }

    fn dense_filled<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        value: S::T,
    ) -> AlgoResult<GpuDense<S>> {
        let what = format!("a {rows}x{cols} array");
        Ok(GpuDense {
            buf: self.filled::<S>(rows * cols, value, &what)?,
            rows,
            cols,
            _s: PhantomData,
        })
    }

    fn dense_shape<S: Semiring>(&self, x: &GpuDense<S>) -> (usize, usize) {
        (x.rows, x.cols)
    }

    fn read_dense<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<Vec<S::T>> {
        Ok(self.read_vals::<S>(&x.buf, x.len())?)
    }

    fn set<S: Semiring>(&self, x: &mut GpuDense<S>, i: usize, value: S::T) -> AlgoResult<()> {
        assert!(i < x.len(), "position {i} out of range ({})", x.len());
        let sz = size_of::<S::T>();
        let v = [value];
        self.dev
            .stream
            .memcpy_htod(bytes_of(&v), &mut x.buf.slice_mut(i * sz..(i + 1) * sz))
            .map_err(|e| driver("set a value", e))?;
        Ok(())
    }

    fn sparse<S: Semiring>(
        &self,
        n: usize,
        idx: &[u32],
        vals: &[S::T],
    ) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(idx.len(), vals.len(), "sparse indices and values");
        assert!(
            idx.windows(2).all(|w| w[0] < w[1]) && idx.last().is_none_or(|&l| (l as usize) < n),
            "sparse indices must be sorted, distinct and below {n}"
        );
        Ok(GpuSparse {
            n,
            nnz: idx.len(),
            idx: self.dev.upload(idx, "sparse indices")?,
            vals: self.upload_vals::<S>(vals, "sparse values")?,
            _s: PhantomData,
        })
    }

    fn sparse_nnz<S: Semiring>(&self, x: &GpuSparse<S>) -> usize {
        x.nnz
    }

    fn read_sparse<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<(Vec<u32>, Vec<S::T>)> {
        Ok((
            self.dev.download(&x.idx, x.nnz)?,
            self.read_vals::<S>(&x.vals, x.nnz)?,
        ))
    }

    fn to_dense<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<GpuDense<S>> {
        let mut d = self.dense_filled::<S>(x.n, 1, S::zero())?;
        self.scatter::<S>(&mut d.buf, &x.idx, Some(&x.vals), x.nnz, 0, 0, None)?;
        Ok(d)
    }

    fn compact<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<GpuSparse<S>> {
        Ok(self.compact_raw::<S>(&x.buf, x.len(), x.len(), None)?)
    }

    fn mask<'a, M: Semiring>(&'a self, m: &'a GpuDense<M>) -> GpuMask<'a> {
        GpuMask {
            buf: &m.buf,
            len: m.len(),
            size: size_of::<M::T>() as i32,
            zero: bits(M::zero()),
        }
    }

    fn mxm<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuMatrix<S>,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(
            x.rows, ncols,
            "mxm: x has {} rows, A has {ncols} columns",
            x.rows
        );
        assert_eq!((y.rows, y.cols), (nrows, x.cols), "mxm: y shape");
        if y.len() == 0 {
            return Ok(());
        }
        let k = to_u32("vectors per product", x.cols)?;
        let n32 = nrows as u32;
        let m = self.mask_args(mask, y.len());
        let acc: i32 = (accum == Accum::Add) as i32;
        let outs = nrows as u64 * k as u64;
        // Kernels that combine partial results atomically write a zeroed temporary `t`; the
        // masked accumulation into `y` follows as an element-wise pass.
        let via_temp =
            |me: &Self, y: &mut GpuDense<S>, fill: &TempFill<'_>| -> Result<(), GpuError> {
                let mut t = me.filled::<S>(y.len(), S::zero(), "product temporary")?;
                fill(&mut t, &m)?;
                let len = y.len();
                me.ewise_raw::<S>(&mut y.buf, &t, len, mask, acc)
            };
        match &a.storage {
            Storage::Csr(c) => match c.kernel {
                CsrKernel::Scalar => {
                    let f = self.dev.func::<S>(Kernel::SpmvCsrScalar)?;
                    launch!(
                        self,
                        f,
                        cfg1(outs),
                        [
                            &c.rp, &c.ci, &c.vals, &x.buf, &mut y.buf, &n32, &k, m.buf, &m.mode,
                            &m.size, &m.zero, &acc
                        ]
                    );
                }
                CsrKernel::Vector(vw) => {
                    assert!(vw.is_power_of_two() && vw <= 32, "sub-warp width {vw}");
                    let f = self.dev.func::<S>(Kernel::SpmvCsrVector)?;
                    launch!(
                        self,
                        f,
                        cfg1(outs * vw as u64),
                        [
                            &c.rp, &c.ci, &c.vals, &x.buf, &mut y.buf, &n32, &k, m.buf, &m.mode,
                            &m.size, &m.zero, &acc, &vw
                        ]
                    );
                }
                CsrKernel::Adaptive => {
                    let p = c.plan.as_ref().expect("adaptive CSR has a plan");
                    let mut part = self.filled::<S>(
                        p.nslots as usize * k as usize,
                        S::zero(),
                        "adaptive partial rows",
                    )?;
                    if p.nblocks > 0 {
                        let f = self.dev.func::<S>(Kernel::SpmvCsrAdaptive)?;
                        let cfg = LaunchConfig {
                            grid_dim: (p.nblocks, k, 1),
                            block_dim: (ADAPTIVE_THREADS, 1, 1),
                            shared_mem_bytes: 0,
                        };
                        launch!(
                            self,
                            f,
                            cfg,
                            [
                                &c.rp, &c.ci, &c.vals, &x.buf, &mut y.buf, &k, &p.blocks, &p.slots,
                                &mut part, m.buf, &m.mode, &m.size, &m.zero, &acc
                            ]
                        );
                    }
                    if p.nslots > 0 {
                        let f = self.dev.func::<S>(Kernel::SpmvCsrAdaptiveFinish)?;
                        launch!(
                            self,
                            f,
                            cfg1(p.nslots as u64 * k as u64),
                            [
                                &p.long_rows,
                                &part,
                                &mut y.buf,
                                &p.nslots,
                                &k,
                                m.buf,
                                &m.mode,
                                &m.size,
                                &m.zero,
                                &acc
                            ]
                        );
                    }
                }
                CsrKernel::Split(chunk) => {
                    let nnz = a.info.nnz as u32;
                    via_temp(self, y, &|t, m| {
                        if nnz == 0 {
                            return Ok(());
                        }
                        let f = self.dev.func::<S>(Kernel::SpmvCsrSplit)?;
                        let pieces = (nnz as u64).div_ceil(chunk as u64) * k as u64;
                        launch!(
                            self,
                            f,
                            cfg1(pieces),
                            [
                                &c.rp, &c.ci, &c.vals, &x.buf, t, &n32, &k, m.buf, &m.mode,
                                &m.size, &m.zero, &nnz, &chunk
                            ]
                        );
                        Ok(())
                    })?;
                }
            },
            Storage::Ell(e) => self.ell_into::<S>(e, &x.buf, &mut y.buf, n32, k, &m, acc)?,
            Storage::Dia { ndiag, offs, data } => {
                let f = self.dev.func::<S>(Kernel::SpmvDia)?;
                let nc = ncols as u32;
                launch!(
                    self,
                    f,
                    cfg1(outs),
                    [
                        offs, data, &x.buf, &mut y.buf, &n32, &nc, &k, ndiag, m.buf, &m.mode,
                        &m.size, &m.zero, &acc
                    ]
                );
            }
            Storage::Coo(c) => via_temp(self, y, &|t, m| self.coo_into::<S>(c, &x.buf, t, k, m))?,
            Storage::Hyb(e, c) => via_temp(self, y, &|t, m| {
                let all = self.mask_args(Mask::All, 0);
                self.ell_into::<S>(e, &x.buf, t, n32, k, &all, 0)?;
                self.coo_into::<S>(c, &x.buf, t, k, m)
            })?,
            Storage::Dense(d) => {
                let f = self.dev.func::<S>(Kernel::SpmvDense)?;
                let nc = ncols as u32;
                launch!(
                    self,
                    f,
                    cfg1(outs * 32),
                    [
                        d, &x.buf, &mut y.buf, &n32, &nc, &k, m.buf, &m.mode, &m.size, &m.zero,
                        &acc
                    ]
                );
            }
        }
        Ok(())
    }

    fn vxm<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
    ) -> AlgoResult<GpuSparse<S>> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(x.n, nrows, "vxm: x has length {}, A has {nrows} rows", x.n);
        let c = self.push_csr(a)?;
        let mut t = self.filled::<S>(ncols, S::zero(), "push product temporary")?;
        let m = self.mask_args(mask, ncols);
        if x.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::VxmCsr)?;
            let nx = x.nnz as u32;
            launch!(
                self,
                f,
                cfg1(x.nnz as u64 * 32),
                [
                    &c.rp, &c.ci, &c.vals, &x.idx, &x.vals, &nx, &mut t, m.buf, &m.mode, &m.size,
                    &m.zero
                ]
            );
        }
        Ok(self.compact_raw::<S>(&t, ncols, ncols, None)?)
    }

    fn gemm<S: Semiring>(
        &self,
        c: &mut GpuDense<S>,
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
        // Output tile per block of 16 x 16 threads: 16 x 16 (one output per thread) or
        // 128 x 128 (8 x 8 per thread).
        let (kernel, tile) = match self.gemm_kernel {
            GemmKernel::Tile16 => (Kernel::Gemm, 16),
            GemmKernel::Reg128 => (Kernel::GemmReg, 128),
        };
        let f = self.dev.func::<S>(kernel)?;
        let cfg = LaunchConfig {
            grid_dim: (n.div_ceil(tile), m.div_ceil(tile), 1),
            block_dim: (16, 16, 1),
            shared_mem_bytes: 0,
        };
        launch!(
            self,
            f,
            cfg,
            [&a.buf, &b.buf, &mut c.buf, &m, &n, &kk, &acc]
        );
        Ok(())
    }

    fn ewise<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!((y.rows, y.cols), (x.rows, x.cols), "ewise shapes");
        let op = match op {
            Ewise::Add => 1,
            Ewise::Mul => 2,
        };
        let len = y.len();
        Ok(self.ewise_raw::<S>(&mut y.buf, &x.buf, len, mask, op)?)
    }

    fn apply<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> AlgoResult<()> {
        let (op, c) = match op {
            UnaryOp::Fill(c) => (0, c),
            UnaryOp::MulBy(c) => (1, c),
            UnaryOp::AddTo(c) => (2, c),
        };
        let len = y.len();
        Ok(self.apply_raw::<S>(&mut y.buf, len, mask, op, bits(c))?)
    }

    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        at: &GpuSparse<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        assert_eq!(at.n, y.len(), "assign_at: lengths");
        Ok(self.scatter::<S>(&mut y.buf, &at.idx, None, at.nnz, bits(value), 0, None)?)
    }

    fn reduce<S: Semiring>(&self, x: &GpuDense<S>, mask: Mask<'_, Self>) -> AlgoResult<S::T> {
        Ok(self.reduce_raw::<S>(&x.buf, x.len(), mask)?)
    }

    fn reduce_sparse<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<S::T> {
        Ok(self.reduce_raw::<S>(&x.vals, x.nnz, Mask::All)?)
    }

    fn nvals<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<usize> {
        let mut out = self.dev.zeros::<u64>(1, "count")?;
        let n = x.len() as u64;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::Count)?;
            launch!(self, f, cfg_stride(n), [&x.buf, &n, &mut out]);
        }
        Ok(self.read_u64(&out)? as usize)
    }

    fn improve<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuSparse<S>,
    ) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(t.n, d.len(), "improve: lengths");
        let mut out = self.alloc_vals::<S>(t.nnz, "relaxation results")?;
        let mut changed = self.dev.zeros::<u8>(t.nnz, "relaxation flags")?;
        if t.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::Improve)?;
            let nnz = t.nnz as u32;
            launch!(
                self,
                f,
                cfg_stride(t.nnz as u64),
                [&mut d.buf, &t.idx, &t.vals, &nnz, &mut out, &mut changed]
            );
        }
        Ok(self.compact_flagged::<S>(&out, Some(&changed), t.nnz, t.n, Some(&t.idx))?)
    }

    fn improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
    ) -> AlgoResult<usize> {
        assert_eq!((d.rows, d.cols), (t.rows, t.cols), "improve_dense shapes");
        let mut out = self.dev.zeros::<u64>(1, "count")?;
        let n = d.len() as u64;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::ImproveDense)?;
            launch!(self, f, cfg_stride(n), [&mut d.buf, &t.buf, &n, &mut out]);
        }
        Ok(self.read_u64(&out)? as usize)
    }

    fn union<S: Semiring>(&self, a: &GpuSparse<S>, b: &GpuSparse<S>) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(a.n, b.n, "union: lengths");
        // Positions are marked, not tested for the zero: `add` of two entries may be the zero
        // (plus-times with negatives), and the union still has that position.
        let mut t = self.filled::<S>(a.n, S::zero(), "union temporary")?;
        let mut mark = self.dev.zeros::<u8>(a.n, "union marks")?;
        self.scatter::<S>(&mut t, &a.idx, Some(&a.vals), a.nnz, 0, 0, Some(&mut mark))?;
        self.scatter::<S>(&mut t, &b.idx, Some(&b.vals), b.nnz, 0, 1, Some(&mut mark))?;
        Ok(self.compact_flagged::<S>(&t, Some(&mark), a.n, a.n, None)?)
    }

    fn select_range<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> AlgoResult<GpuSparse<S>> {
        let mut out = self.alloc_vals::<S>(x.nnz, "range selection")?;
        let mut flags = self.dev.zeros::<u8>(x.nnz, "range selection flags")?;
        if x.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::SelectRange)?;
            let (nnz, lo, hi) = (x.nnz as u32, bits(lo), bits(hi));
            launch!(
                self,
                f,
                cfg_stride(x.nnz as u64),
                [&x.vals, &nnz, &lo, &hi, &mut out, &mut flags]
            );
        }
        Ok(self.compact_flagged::<S>(&out, Some(&flags), x.nnz, x.n, Some(&x.idx))?)
    }

    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut GpuDense<Parents>,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        d: &GpuDense<S>,
        at: &GpuSparse<M>,
    ) -> AlgoResult<()> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(
            x.n, nrows,
            "witness: x has length {}, A has {nrows} rows",
            x.n
        );
        assert_eq!(d.len(), ncols, "witness: d has the wrong length");
        assert_eq!(p.len(), ncols, "witness: p has the wrong length");
        assert_eq!(at.n, ncols, "witness: at has the wrong length");
        if at.nnz == 0 {
            return Ok(());
        }
        self.scatter::<Parents>(&mut p.buf, &at.idx, None, at.nnz, bits(NO_PARENT), 0, None)?;
        if x.nnz == 0 {
            return Ok(());
        }
        let mut target = self.dev.zeros::<u8>(ncols, "witness targets")?;
        self.scatter::<OrAnd>(&mut target, &at.idx, None, at.nnz, bits(true), 0, None)?;
        let c = self.push_csr(a)?;
        let f = self.dev.func::<S>(Kernel::Witness)?;
        let nx = x.nnz as u32;
        launch!(
            self,
            f,
            cfg1(x.nnz as u64 * 32),
            [
                &c.rp, &c.ci, &c.vals, &x.idx, &x.vals, &nx, &d.buf, &target, &mut p.buf
            ]
        );
        Ok(())
    }
}

impl GpuBackend {
    #[allow(clippy::too_many_arguments)]
    fn scatter<S: Semiring>(
        &self,
        y: &mut CudaSlice<u8>,
        idx: &CudaSlice<u32>,
        vals: Option<&CudaSlice<u8>>,
        nnz: usize,
        c: u64,
        op: i32,
        mark: Option<&mut CudaSlice<u8>>,
    ) -> Result<(), GpuError> {
        if nnz == 0 {
            return Ok(());
        }
        let f = self.dev.func::<S>(Kernel::Scatter)?;
        let n = nnz as u32;
        let use_vals: i32 = vals.is_some() as i32;
        let v = vals.unwrap_or(&self.dummy);
        let use_mark: i32 = mark.is_some() as i32;
        match mark {
            Some(mk) => launch!(
                self,
                f,
                cfg_stride(nnz as u64),
                [y, idx, v, &n, &use_vals, &c, &op, mk, &use_mark]
            ),
            None => launch!(
                self,
                f,
                cfg_stride(nnz as u64),
                [y, idx, v, &n, &use_vals, &c, &op, &self.dummy, &use_mark]
            ),
        }
        Ok(())
    }

    fn reduce_raw<S: Semiring>(
        &self,
        x: &CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
    ) -> Result<S::T, GpuError> {
        let mut out = self.filled::<S>(1, S::zero(), "reduction")?;
        if len > 0 {
            let f = self.dev.func::<S>(Kernel::Reduce)?;
            let m = self.mask_args(mask, len);
            let n = len as u64;
            launch!(
                self,
                f,
                cfg_stride(n),
                [x, &n, m.buf, &m.mode, &m.size, &m.zero, &mut out]
            );
        }
        Ok(self.read_vals::<S>(&out, 1)?[0])
    }
}
