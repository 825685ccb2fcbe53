//! CUDA C++ generation: one kernel per [`KernelKey`], from a semiring's [`CudaSemiring`].
//!
//! A generated source is the semiring's prelude ([`CudaSemiring::prelude`]), the shared helpers
//! of this module ([`COMMON`]) and one kernel template. Its one `extern "C"` kernel is named by
//! its key ([`KernelKey::name`]), so a name seen in a profiler or an error reads back into the
//! key with [`KernelKey::parse`]. Nothing from `std::` is used: NVRTC has no C++ library.
//!
//! Every template is generic over the semiring through the prelude's names only (`sr_t`,
//! `SR_ZERO`, `sr_add`, `sr_mul`, `sr_is_terminal`, `sr_atomic_add`, `sr_is_zero`,
//! `sr_improves`); padding is always `SR_ZERO`, never a literal 0.

use std::fmt;

use semigraph_semiring::{CudaSemiring, ScalarType};

/// The index type of every generated kernel (row pointers, column indices, sparse indices).
pub const INDEX_TYPE: &str = "u32";

/// Which kernel: the operation, the format it reads and the variant, as one enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// SpMV/SpMM over CSR, a thread per output (row, column).
    SpmvCsrScalar,
    /// SpMV/SpMM over CSR, a sub-warp of 2 to 32 lanes per output (row, column).
    SpmvCsrVector,
    /// SpMV/SpMM over CSR, load-balanced: each thread takes an equal slice of the entries
    /// (row splitting), and partial rows meet through the semiring's atomic add.
    SpmvCsrSplit,
    /// SpMV/SpMM over CSR, adaptive (CSR-Adaptive): blocks of short rows stream their
    /// entries' products through shared memory, a long row gets a block (or several) of its
    /// own; planned on the host per matrix.
    SpmvCsrAdaptive,
    /// The second pass of [`Kernel::SpmvCsrAdaptive`]: the rows split over several blocks.
    SpmvCsrAdaptiveFinish,
    /// SpMV/SpMM over column-major ELL, a thread per output.
    SpmvEll,
    /// SpMV/SpMM over DIA, a thread per output.
    SpmvDia,
    /// SpMV/SpMM over COO, a thread per entry and atomic adds (also HYB's overflow part).
    SpmvCoo,
    /// Dense GEMV/GEMM-by-vectors over a row-major matrix, a warp per output.
    SpmvDense,
    /// SpMSpV (push): a warp per frontier entry scatters along its CSR row with atomic adds.
    VxmCsr,
    /// Dense semiring GEMM, 16 x 16 tiles through shared memory.
    Gemm,
    /// `y<mask> = op(y, x)`: replace, add or mul.
    Ewise,
    /// `y<mask> = op(y, c)`: fill, mul by, add to.
    Apply,
    /// `y[idx[e]] = v` or `add(y[idx[e]], v)` for the entries of a sparse vector.
    Scatter,
    /// `add` over the allowed positions, into one value.
    Reduce,
    /// Number of entries (values that are not the zero).
    Count,
    /// Compaction, pass 1: entries per tile.
    CompactCount,
    /// Compaction, pass 3: writes the entries of each tile at its scanned offset.
    CompactWrite,
    /// Sparse relaxation: `d[i] = add(d[i], v)` where `sr_improves`, and what changed.
    Improve,
    /// Dense relaxation: as [`Kernel::Improve`] at every position, counting changes.
    ImproveDense,
    /// Value-range selection: flags the entries with `lo <= v < hi`.
    SelectRange,
    /// Witnesses of a push product: the smallest frontier index whose term attains `d(j)`.
    Witness,
    /// Compaction, pass 2: exclusive scan of the tile counts (semiring-independent).
    Scan,
    /// A queue relaxation step, phase 1: terms along the frontier's arcs, atomic improvement,
    /// each improved vertex appended once.
    QueueRelax,
    /// Phase 2: the witness (smallest frontier vertex attaining it) of each improvement.
    QueueWitness,
    /// Phase 3: the output queue's values from the final distances.
    QueueFill,
    /// Routes a queue's vertices by their current value into two queues (near/far).
    QueueSplit,
    /// `add` over a queue's values.
    QueueReduce,
    /// Dense relaxation that enqueues the improved positions.
    QueueImproveDense,
    /// Scatters a queue's values (or a constant) into a dense array.
    QueueScatter,
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 30] = [
        Kernel::SpmvCsrScalar,
        Kernel::SpmvCsrVector,
        Kernel::SpmvCsrSplit,
        Kernel::SpmvCsrAdaptive,
        Kernel::SpmvCsrAdaptiveFinish,
        Kernel::SpmvEll,
        Kernel::SpmvDia,
        Kernel::SpmvCoo,
        Kernel::SpmvDense,
        Kernel::VxmCsr,
        Kernel::Gemm,
        Kernel::Ewise,
        Kernel::Apply,
        Kernel::Scatter,
        Kernel::Reduce,
        Kernel::Count,
        Kernel::CompactCount,
        Kernel::CompactWrite,
        Kernel::Improve,
        Kernel::ImproveDense,
        Kernel::SelectRange,
        Kernel::Witness,
        Kernel::Scan,
        Kernel::QueueRelax,
        Kernel::QueueWitness,
        Kernel::QueueFill,
        Kernel::QueueSplit,
        Kernel::QueueReduce,
        Kernel::QueueImproveDense,
        Kernel::QueueScatter,
    ];

    /// `(operation, format, variant)`: the three key fields this kernel fills.
    pub const fn parts(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kernel::SpmvCsrScalar => ("spmv", "csr", "scalar"),
            Kernel::SpmvCsrVector => ("spmv", "csr", "vector"),
            Kernel::SpmvCsrSplit => ("spmv", "csr", "split"),
            Kernel::SpmvCsrAdaptive => ("spmv", "csr", "adaptive"),
            Kernel::SpmvCsrAdaptiveFinish => ("spmv", "csr", "adaptive_finish"),
            Kernel::SpmvEll => ("spmv", "ell", "thread"),
            Kernel::SpmvDia => ("spmv", "dia", "thread"),
            Kernel::SpmvCoo => ("spmv", "coo", "atomic"),
            Kernel::SpmvDense => ("spmv", "dense", "warp"),
            Kernel::VxmCsr => ("vxm", "csr", "warp"),
            Kernel::Gemm => ("gemm", "dense", "tile16"),
            Kernel::Ewise => ("ewise", "vec", "base"),
            Kernel::Apply => ("apply", "vec", "base"),
            Kernel::Scatter => ("scatter", "vec", "base"),
            Kernel::Reduce => ("reduce", "vec", "base"),
            Kernel::Count => ("count", "vec", "base"),
            Kernel::CompactCount => ("compact", "vec", "count"),
            Kernel::CompactWrite => ("compact", "vec", "write"),
            Kernel::Improve => ("improve", "sparse", "base"),
            Kernel::ImproveDense => ("improve", "vec", "base"),
            Kernel::SelectRange => ("select_range", "sparse", "base"),
            Kernel::Witness => ("witness", "csr", "warp"),
            Kernel::Scan => ("scan", "vec", "base"),
            Kernel::QueueRelax => ("relax", "queue", "lanes"),
            Kernel::QueueWitness => ("witness", "queue", "lanes"),
            Kernel::QueueFill => ("fill", "queue", "base"),
            Kernel::QueueSplit => ("split", "queue", "base"),
            Kernel::QueueReduce => ("reduce", "queue", "base"),
            Kernel::QueueImproveDense => ("improve", "queue", "dense"),
            Kernel::QueueScatter => ("scatter", "queue", "base"),
        }
    }

    /// Whether this kernel exists for semiring values of type `t` (`None`: the kernel is
    /// semiring-independent).
    pub fn applies_to(self, t: Option<ScalarType>) -> bool {
        match self {
            Kernel::Scan => t.is_none(),
            _ => t.is_some(),
        }
    }
}

/// The decodable name of a generated kernel:
/// `sg__{operation}__{format}__{semiring}__{value type}__{index type}__{variant}`, e.g.
/// `sg__spmv__csr__min_plus__f32__u32__vector`. Semiring-independent kernels use the semiring
/// name `none` and the value type `u32`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// The kernel template.
    pub kernel: Kernel,
    /// Semiring name ([`semigraph_semiring::Semiring::NAME`]) or `none`.
    pub semiring: String,
    /// Value type name ([`ScalarType::name`]).
    pub value_type: String,
}

impl KernelKey {
    /// The key of `kernel` for semiring `sr` (or of a semiring-independent kernel).
    pub fn new(kernel: Kernel, sr: Option<&CudaSemiring>) -> KernelKey {
        match sr {
            Some(sr) => KernelKey {
                kernel,
                semiring: sr.name.to_string(),
                value_type: sr.value_type.name().to_string(),
            },
            None => KernelKey {
                kernel,
                semiring: "none".into(),
                value_type: "u32".into(),
            },
        }
    }

    /// The kernel's name (its `extern "C"` symbol).
    pub fn name(&self) -> String {
        let (op, format, variant) = self.kernel.parts();
        format!(
            "sg__{op}__{format}__{}__{}__{INDEX_TYPE}__{variant}",
            self.semiring, self.value_type
        )
    }

    /// Reads a name made by [`KernelKey::name`] back into its key; `None` for any other
    /// string.
    pub fn parse(name: &str) -> Option<KernelKey> {
        let f: Vec<&str> = name.split("__").collect();
        let [sg, op, format, semiring, value_type, index, variant] = f.as_slice() else {
            return None;
        };
        if *sg != "sg" || *index != INDEX_TYPE {
            return None;
        }
        let kernel = Kernel::ALL
            .into_iter()
            .find(|k| k.parts() == (*op, *format, *variant))?;
        Some(KernelKey {
            kernel,
            semiring: semiring.to_string(),
            value_type: value_type.to_string(),
        })
    }
}

impl fmt::Display for KernelKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Helpers shared by every semiring kernel (after the semiring prelude): the index type,
/// the ELL sentinel, mask tests over a mask array of any element size, the masked store with
/// accumulation, and warp shuffles of semiring values.
pub const COMMON: &str = r#"typedef unsigned int sg_idx_t;
#define SG_SENTINEL 0xffffffffu
#define SG_FULL 0xffffffffu
// A mask is a dense array of any semiring: `msize` bytes per element, `mzero` the bits of its
// zero. mode 0: every position; 1: where the mask has an entry; 2: where it has none.
#define SG_MASK_PARAMS const unsigned char* __restrict__ m, int mmode, int msize, unsigned long long mzero
#define SG_ALLOWS(i) sg_mask_allows(m, mmode, msize, mzero, (unsigned long long)(i))
__device__ __forceinline__ bool sg_mask_allows(const unsigned char* m, int mode, int msize,
                                               unsigned long long mzero, unsigned long long i) {
    if (mode == 0) return true;
    unsigned long long w;
    if (msize == 1) w = m[i];
    else if (msize == 2) w = ((const unsigned short*)m)[i];
    else if (msize == 4) w = ((const unsigned int*)m)[i];
    else w = ((const unsigned long long*)m)[i];
    bool entry = w != mzero;
    return mode == 1 ? entry : !entry;
}
// y[i] = t (accum 0) or add(y[i], t) (accum 1).
__device__ __forceinline__ void sg_store(sr_t* y, unsigned long long i, sr_t t, int accum) {
    y[i] = accum ? sr_add(y[i], t) : t;
}
__device__ __forceinline__ sr_t sr_shfl_down(sr_t v, unsigned int off, int width) {
    if (sizeof(sr_word_t) == 8) {
        unsigned long long w = (unsigned long long)sr_to_word(v);
        w = __shfl_down_sync(SG_FULL, w, off, width);
        return sr_from_word((sr_word_t)w);
    } else {
        unsigned int w = (unsigned int)sr_to_word(v);
        w = __shfl_down_sync(SG_FULL, w, off, width);
        return sr_from_word((sr_word_t)w);
    }
}
__device__ __forceinline__ sr_t sr_from_bits(unsigned long long b) { return sr_from_word((sr_word_t)b); }
__device__ __forceinline__ unsigned long long sg_gid() {
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned long long sg_nthreads() {
    return (unsigned long long)gridDim.x * blockDim.x;
}
"#;

/// The complete CUDA source of `key` for semiring `sr` (`None` for semiring-independent
/// kernels). Panics if the kernel does not apply to the semiring's type (a contract).
pub fn source(kernel: Kernel, sr: Option<&CudaSemiring>) -> String {
    assert!(
        kernel.applies_to(sr.map(|s| s.value_type)),
        "kernel {kernel:?} does not exist for {:?}",
        sr.map(|s| s.full_name())
    );
    let key = KernelKey::new(kernel, sr);
    let name = key.name();
    let mut s = format!("// {name} (generated by semigraph-gpu)\n");
    if let Some(sr) = sr {
        s.push_str(&sr.prelude());
        s.push_str(COMMON);
    }
    let mut b = body(kernel).replace("KERNEL", &name);
    if let Some(params) = crate::params::c_params(kernel) {
        b = b.replace("PARAMS", &params);
    }
    s.push_str(&b);
    s
}

/// The template of one kernel; `KERNEL` stands for its name.
fn body(kernel: Kernel) -> &'static str {
    match kernel {
        Kernel::SpmvCsrScalar => {
            r#"extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sr_t* __restrict__ av, const sr_t* __restrict__ x, sr_t* __restrict__ y,
        unsigned int nrows, unsigned int k, SG_MASK_PARAMS, int accum) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nrows * k) return;
    if (!SG_ALLOWS(g)) return;
    unsigned int i = (unsigned int)(g / k), c = (unsigned int)(g % k);
    sr_t acc = SR_ZERO;
    sg_idx_t end = rp[i + 1];
    for (sg_idx_t p = rp[i]; p < end; ++p) {
        sg_idx_t j = ci[p];
        acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
        if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
    }
    sg_store(y, g, acc, accum);
}
"#
        }
        Kernel::SpmvCsrVector => {
            r#"// A sub-warp of `vw` lanes (a power of two <= 32) per output; block size a multiple of 32.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sr_t* __restrict__ av, const sr_t* __restrict__ x, sr_t* __restrict__ y,
        unsigned int nrows, unsigned int k, SG_MASK_PARAMS, int accum, unsigned int vw) {
    unsigned long long g = sg_gid();
    unsigned long long out = g / vw;
    unsigned int lane = threadIdx.x & (vw - 1);
    bool go = out < (unsigned long long)nrows * k && SG_ALLOWS(out);
    sr_t acc = SR_ZERO;
    if (go) {
        unsigned int i = (unsigned int)(out / k), c = (unsigned int)(out % k);
        sg_idx_t end = rp[i + 1];
        for (sg_idx_t p = rp[i] + lane; p < end; p += vw) {
            sg_idx_t j = ci[p];
            acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
            if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
        }
    }
    for (unsigned int off = vw >> 1; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, vw));
    if (go && lane == 0) sg_store(y, out, acc, accum);
}
"#
        }
        Kernel::SpmvCsrSplit => {
            r#"// Thread g takes entries [chunk * (g / k), +chunk) of column g % k; it finds its first row by
// binary search and adds each row's partial sum into t (zero-initialised) atomically.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sr_t* __restrict__ av, const sr_t* __restrict__ x, sr_t* t,
        unsigned int nrows, unsigned int k, SG_MASK_PARAMS, unsigned int nnz, unsigned int chunk) {
    unsigned long long g = sg_gid();
    unsigned long long piece = g / k;
    unsigned int c = (unsigned int)(g % k);
    if (piece * chunk >= nnz || nrows == 0) return;
    unsigned int p0 = (unsigned int)(piece * chunk);
    unsigned int p1 = p0 + chunk < nnz ? p0 + chunk : nnz;
    unsigned int lo = 0, hi = nrows - 1;
    while (lo < hi) {
        unsigned int mid = lo + (hi - lo) / 2;
        if (rp[mid + 1] <= p0) lo = mid + 1; else hi = mid;
    }
    unsigned int r = lo;
    sg_idx_t end = rp[r + 1];
    sr_t acc = SR_ZERO;
    for (unsigned int p = p0; p < p1; ++p) {
        while (p >= end) {
            if (!sr_is_zero(acc) && SG_ALLOWS((unsigned long long)r * k + c))
                sr_atomic_add(&t[(unsigned long long)r * k + c], acc);
            acc = SR_ZERO;
            ++r;
            end = rp[r + 1];
        }
        sg_idx_t j = ci[p];
        acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
    }
    if (!sr_is_zero(acc) && SG_ALLOWS((unsigned long long)r * k + c))
        sr_atomic_add(&t[(unsigned long long)r * k + c], acc);
}
"#
        }
        Kernel::SpmvCsrAdaptive => {
            r#"// CSR-Adaptive, a block of SG_AD_THREADS threads per planned block b (blockIdx.x), column
// blockIdx.y. Plan entry b: rows [r0, r1), entries [p0, p1), slot.
// - Several rows (r1 - r0 > 1, at most SG_AD_THREADS rows and SG_AD_ENTRIES entries): the block
//   writes the products of entries [p0, p1) to shared memory (coalesced), then a group of
//   threads per row reduces the row from there and stores it.
// - One row: the block reduces entries [p0, p1) of row r0 (a whole row, stored directly, or a
//   piece of a long row, added atomically into part[slot[b] * k + c], zero-initialised and
//   finished by the next kernel).
#define SG_AD_THREADS 256
#define SG_AD_ENTRIES 1024
extern "C" __global__ void __launch_bounds__(SG_AD_THREADS) KERNEL(const sg_idx_t* __restrict__ rp,
        const sg_idx_t* __restrict__ ci, const sr_t* __restrict__ av, const sr_t* __restrict__ x,
        sr_t* __restrict__ y, unsigned int k, const uint4* __restrict__ plan,
        const unsigned int* __restrict__ slot, sr_t* part, SG_MASK_PARAMS, int accum) {
    __shared__ sr_t sm[SG_AD_ENTRIES];
    __shared__ sr_t wp[SG_AD_THREADS / 32];
    uint4 pb = plan[blockIdx.x];
    unsigned int r0 = pb.x, r1 = pb.y, p0 = pb.z, p1 = pb.w;
    unsigned int c = blockIdx.y;
    if (r1 - r0 > 1) {
        for (unsigned int p = p0 + threadIdx.x; p < p1; p += SG_AD_THREADS) {
            sg_idx_t j = ci[p];
            sm[p - p0] = sr_mul(av[p], x[(unsigned long long)j * k + c], j);
        }
        __syncthreads();
        // tpr threads (a power of two <= 32) per row.
        unsigned int nr = r1 - r0, tpr = SG_AD_THREADS / nr;
        tpr = tpr >= 32 ? 32 : (1u << (31 - __clz(tpr)));
        unsigned int g = threadIdx.x / tpr, l = threadIdx.x & (tpr - 1);
        unsigned long long out = (unsigned long long)(r0 + g) * k + c;
        bool go = g < nr && SG_ALLOWS(out);
        sr_t acc = SR_ZERO;
        if (go) {
            sg_idx_t e = rp[r0 + g + 1] - p0;
            for (sg_idx_t q = rp[r0 + g] - p0 + l; q < e; q += tpr) acc = sr_add(acc, sm[q]);
        }
        for (unsigned int off = tpr >> 1; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, tpr));
        if (go && l == 0) sg_store(y, out, acc, accum);
        return;
    }
    unsigned long long out = (unsigned long long)r0 * k + c;
    bool whole = p0 == rp[r0] && p1 == rp[r0 + 1];
    if (whole && !SG_ALLOWS(out)) return;
    sr_t acc = SR_ZERO;
    for (unsigned int p = p0 + threadIdx.x; p < p1; p += SG_AD_THREADS) {
        sg_idx_t j = ci[p];
        acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
    }
    for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
    unsigned int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) wp[w] = acc;
    __syncthreads();
    if (w == 0) {
        acc = lane < SG_AD_THREADS / 32 ? wp[lane] : SR_ZERO;
        for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
        if (lane == 0) {
            if (whole) sg_store(y, out, acc, accum);
            else if (!sr_is_zero(acc)) sr_atomic_add(&part[(unsigned long long)slot[blockIdx.x] * k + c], acc);
        }
    }
}
"#
        }
        Kernel::SpmvCsrAdaptiveFinish => {
            r#"// Stores the long rows that CSR-Adaptive split over several blocks: row rows[s] of column c
// gets part[s * k + c] (masked, accumulated).
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rows, const sr_t* __restrict__ part,
        sr_t* __restrict__ y, unsigned int nslots, unsigned int k, SG_MASK_PARAMS, int accum) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nslots * k) return;
    unsigned int s = (unsigned int)(g / k), c = (unsigned int)(g % k);
    unsigned long long out = (unsigned long long)rows[s] * k + c;
    if (SG_ALLOWS(out)) sg_store(y, out, part[g], accum);
}
"#
        }
        Kernel::SpmvEll => {
            r#"// Column-major ELL: slot s of row i at s * nrows + i; padding has column SG_SENTINEL and
// value SR_ZERO and comes after a row's entries.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ ci, const sr_t* __restrict__ av,
        const sr_t* __restrict__ x, sr_t* __restrict__ y, unsigned int nrows, unsigned int k,
        unsigned int width, SG_MASK_PARAMS, int accum) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nrows * k) return;
    if (!SG_ALLOWS(g)) return;
    unsigned int i = (unsigned int)(g / k), c = (unsigned int)(g % k);
    sr_t acc = SR_ZERO;
    for (unsigned int s = 0; s < width; ++s) {
        unsigned long long slot = (unsigned long long)s * nrows + i;
        sg_idx_t j = ci[slot];
        if (j == SG_SENTINEL) break;
        acc = sr_add(acc, sr_mul(av[slot], x[(unsigned long long)j * k + c], j));
        if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
    }
    sg_store(y, g, acc, accum);
}
"#
        }
        Kernel::SpmvDia => {
            r#"// DIA: diagonal d (column offset offs[d]) stores row i's entry at d * nrows + i.
extern "C" __global__ void KERNEL(const long long* __restrict__ offs, const sr_t* __restrict__ data,
        const sr_t* __restrict__ x, sr_t* __restrict__ y, unsigned int nrows, unsigned int ncols,
        unsigned int k, unsigned int ndiag, SG_MASK_PARAMS, int accum) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nrows * k) return;
    if (!SG_ALLOWS(g)) return;
    unsigned int i = (unsigned int)(g / k), c = (unsigned int)(g % k);
    sr_t acc = SR_ZERO;
    for (unsigned int d = 0; d < ndiag; ++d) {
        long long j = (long long)i + offs[d];
        if (j < 0 || j >= (long long)ncols) continue;
        sr_t v = data[(unsigned long long)d * nrows + i];
        if (sr_is_zero(v)) continue;
        acc = sr_add(acc, sr_mul(v, x[(unsigned long long)j * k + c], (unsigned long long)j));
        if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
    }
    sg_store(y, g, acc, accum);
}
"#
        }
        Kernel::SpmvCoo => {
            r#"// A thread per (entry, column) adds its product into t (zero-initialised) atomically.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rows, const sg_idx_t* __restrict__ cols,
        const sr_t* __restrict__ av, const sr_t* __restrict__ x, sr_t* t, unsigned int nnz,
        unsigned int k, SG_MASK_PARAMS) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nnz * k) return;
    unsigned int e = (unsigned int)(g / k), c = (unsigned int)(g % k);
    unsigned long long out = (unsigned long long)rows[e] * k + c;
    if (!SG_ALLOWS(out)) return;
    sg_idx_t j = cols[e];
    sr_t v = sr_mul(av[e], x[(unsigned long long)j * k + c], j);
    if (!sr_is_zero(v)) sr_atomic_add(&t[out], v);
}
"#
        }
        Kernel::SpmvDense => {
            r#"// Row-major dense a (nrows x ncols): a warp per output, lanes stride along the row.
extern "C" __global__ void KERNEL(const sr_t* __restrict__ a, const sr_t* __restrict__ x,
        sr_t* __restrict__ y, unsigned int nrows, unsigned int ncols, unsigned int k,
        SG_MASK_PARAMS, int accum) {
    unsigned long long out = sg_gid() / 32;
    unsigned int lane = threadIdx.x & 31;
    bool go = out < (unsigned long long)nrows * k && SG_ALLOWS(out);
    sr_t acc = SR_ZERO;
    if (go) {
        unsigned int i = (unsigned int)(out / k), c = (unsigned int)(out % k);
        const sr_t* row = a + (unsigned long long)i * ncols;
        for (unsigned int j = lane; j < ncols; j += 32) {
            acc = sr_add(acc, sr_mul(row[j], x[(unsigned long long)j * k + c], j));
            if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
        }
    }
    for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
    if (go && lane == 0) sg_store(y, out, acc, accum);
}
"#
        }
        Kernel::VxmCsr => {
            r#"// t(j) = add_k mul(A(k, j), x(k), k) over the entries (xi, xv) of a sparse x: a warp per
// entry walks row k of A. t is zero-initialised; masked-out outputs are skipped.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sr_t* __restrict__ av, const sg_idx_t* __restrict__ xi, const sr_t* __restrict__ xv,
        unsigned int nx, sr_t* t, SG_MASK_PARAMS) {
    unsigned long long e = sg_gid() / 32;
    unsigned int lane = threadIdx.x & 31;
    if (e >= nx) return;
    sg_idx_t kk = xi[e];
    sr_t v = xv[e];
    sg_idx_t end = rp[kk + 1];
    for (sg_idx_t p = rp[kk] + lane; p < end; p += 32) {
        sg_idx_t j = ci[p];
        if (!SG_ALLOWS(j)) continue;
        sr_t r = sr_mul(av[p], v, kk);
        if (!sr_is_zero(r)) sr_atomic_add(&t[j], r);
    }
}
"#
        }
        Kernel::Gemm => {
            r#"// C (m x n) = accum(C, A (m x kk) (+).(x) B (kk x n)), row-major; 16 x 16 tiles, block (16, 16).
// Out-of-range tile slots load SR_ZERO, which annihilates.
extern "C" __global__ void KERNEL(const sr_t* __restrict__ a, const sr_t* __restrict__ b,
        sr_t* __restrict__ c, unsigned int m, unsigned int n, unsigned int kk, int accum) {
    __shared__ sr_t as[16][17];
    __shared__ sr_t bs[16][17];
    unsigned int tx = threadIdx.x, ty = threadIdx.y;
    unsigned int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    sr_t acc = SR_ZERO;
    for (unsigned int t0 = 0; t0 < kk; t0 += 16) {
        as[ty][tx] = (row < m && t0 + tx < kk) ? a[(unsigned long long)row * kk + t0 + tx] : SR_ZERO;
        bs[ty][tx] = (t0 + ty < kk && col < n) ? b[(unsigned long long)(t0 + ty) * n + col] : SR_ZERO;
        __syncthreads();
        for (unsigned int q = 0; q < 16; ++q) acc = sr_add(acc, sr_mul(as[ty][q], bs[q][tx], t0 + q));
        __syncthreads();
    }
    if (row < m && col < n) sg_store(c, (unsigned long long)row * n + col, acc, accum);
}
"#
        }
        Kernel::Ewise => {
            r#"// y<mask> = op(y, x): op 0 replace (y = x), 1 add, 2 mul (index 0).
extern "C" __global__ void KERNEL(sr_t* __restrict__ y, const sr_t* __restrict__ x,
        unsigned long long n, SG_MASK_PARAMS, int op) {
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        if (!SG_ALLOWS(i)) continue;
        sr_t v = x[i];
        y[i] = op == 0 ? v : (op == 1 ? sr_add(y[i], v) : sr_mul(y[i], v, 0ull));
    }
}
"#
        }
        Kernel::Apply => {
            r#"// y<mask> = op(y, c): op 0 fill, 1 mul by (index 0), 2 add to; c given as its bits.
extern "C" __global__ void KERNEL(sr_t* __restrict__ y, unsigned long long n, SG_MASK_PARAMS,
        int op, unsigned long long cbits) {
    sr_t cv = sr_from_bits(cbits);
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        if (!SG_ALLOWS(i)) continue;
        y[i] = op == 0 ? cv : (op == 1 ? sr_mul(y[i], cv, 0ull) : sr_add(y[i], cv));
    }
}
"#
        }
        Kernel::Scatter => {
            r#"// For e < nnz: v = use_vals ? vals[e] : c; y[idx[e]] = v (op 0) or add(y[idx[e]], v) (op 1);
// and mark[idx[e]] = 1 if use_mark. Indices are distinct, so no two threads touch one position.
extern "C" __global__ void KERNEL(sr_t* __restrict__ y, const sg_idx_t* __restrict__ idx,
        const sr_t* __restrict__ vals, unsigned int nnz, int use_vals, unsigned long long cbits,
        int op, unsigned char* __restrict__ mark, int use_mark) {
    sr_t cv = sr_from_bits(cbits);
    for (unsigned long long e = sg_gid(); e < nnz; e += sg_nthreads()) {
        sg_idx_t i = idx[e];
        sr_t v = use_vals ? vals[e] : cv;
        y[i] = op == 0 ? v : sr_add(y[i], v);
        if (use_mark) mark[i] = 1;
    }
}
"#
        }
        Kernel::Reduce => {
            r#"// out[0] = add(out[0], add over allowed x[i]); out starts at SR_ZERO. Block size 256.
extern "C" __global__ void KERNEL(const sr_t* __restrict__ x, unsigned long long n, SG_MASK_PARAMS,
        sr_t* out) {
    __shared__ sr_t part[32];
    sr_t acc = SR_ZERO;
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads())
        if (SG_ALLOWS(i)) acc = sr_add(acc, x[i]);
    for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
    unsigned int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    if (lane == 0) part[w] = acc;
    __syncthreads();
    if (w == 0) {
        acc = lane < (blockDim.x >> 5) ? part[lane] : SR_ZERO;
        for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
        if (lane == 0 && !sr_is_zero(acc)) sr_atomic_add(out, acc);
    }
}
"#
        }
        Kernel::Count => {
            r#"// out[0] += number of entries (values that are not SR_ZERO) of x.
extern "C" __global__ void KERNEL(const sr_t* __restrict__ x, unsigned long long n,
        unsigned long long* out) {
    unsigned int cnt = 0;
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) cnt += !sr_is_zero(x[i]);
    for (unsigned int off = 16; off > 0; off >>= 1) cnt += __shfl_down_sync(SG_FULL, cnt, off);
    if ((threadIdx.x & 31) == 0 && cnt) atomicAdd(out, (unsigned long long)cnt);
}
"#
        }
        Kernel::CompactCount => {
            r#"// Tile b = positions [b * blockDim.x * items, +blockDim.x * items); counts[b] = the positions
// kept: where flags[i] != 0 if use_flags, else where x[i] is an entry (not SR_ZERO).
extern "C" __global__ void KERNEL(const sr_t* __restrict__ x, const unsigned char* __restrict__ flags,
        int use_flags, unsigned long long n, unsigned int items, unsigned int* counts) {
    unsigned long long base = (unsigned long long)blockIdx.x * blockDim.x * items;
    unsigned int cnt = 0;
    for (unsigned int it = 0; it < items; ++it) {
        unsigned long long i = base + (unsigned long long)it * blockDim.x + threadIdx.x;
        cnt += __syncthreads_count(i < n && (use_flags ? flags[i] != 0 : !sr_is_zero(x[i])));
    }
    if (threadIdx.x == 0) counts[blockIdx.x] = cnt;
}
"#
        }
        Kernel::CompactWrite => {
            r#"// Writes tile b's kept positions (as in the count pass), in order, from offs[b]:
// out_idx = map ? map[i] : i, out_vals = x[i].
extern "C" __global__ void KERNEL(const sr_t* __restrict__ x, const unsigned char* __restrict__ flags,
        int use_flags, unsigned long long n,
        unsigned int items, const unsigned int* __restrict__ offs, const sg_idx_t* __restrict__ map,
        int use_map, sg_idx_t* __restrict__ out_idx, sr_t* __restrict__ out_vals) {
    __shared__ unsigned int wsum[32];
    __shared__ unsigned int base_s, total_s;
    unsigned int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if (threadIdx.x == 0) base_s = offs[blockIdx.x];
    unsigned long long tile = (unsigned long long)blockIdx.x * blockDim.x * items;
    for (unsigned int it = 0; it < items; ++it) {
        unsigned long long i = tile + (unsigned long long)it * blockDim.x + threadIdx.x;
        bool pred = i < n && (use_flags ? flags[i] != 0 : !sr_is_zero(x[i]));
        unsigned int bal = __ballot_sync(SG_FULL, pred);
        if (lane == 0) wsum[w] = __popc(bal);
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned int s = 0;
            for (unsigned int q = 0; q < nw; ++q) { unsigned int t = wsum[q]; wsum[q] = s; s += t; }
            total_s = s;
        }
        __syncthreads();
        if (pred) {
            unsigned int o = base_s + wsum[w] + __popc(bal & ((1u << lane) - 1u));
            out_idx[o] = use_map ? map[i] : (sg_idx_t)i;
            out_vals[o] = x[i];
        }
        __syncthreads();
        if (threadIdx.x == 0) base_s += total_s;
        __syncthreads();
    }
}
"#
        }
        Kernel::Improve => {
            r#"// For each entry (idx[e], vals[e]) of a sparse t: where sr_improves(d[i], v), d[i] = add(d[i], v),
// out[e] = the new value and changed[e] = 1 (the new value may be SR_ZERO: plus-times
// with negatives); elsewhere changed[e] = 0. Indices are distinct.
extern "C" __global__ void KERNEL(sr_t* __restrict__ d, const sg_idx_t* __restrict__ idx,
        const sr_t* __restrict__ vals, unsigned int nnz, sr_t* __restrict__ out,
        unsigned char* __restrict__ changed) {
    for (unsigned long long e = sg_gid(); e < nnz; e += sg_nthreads()) {
        sg_idx_t i = idx[e];
        sr_t old = d[i], v = vals[e];
        bool better = sr_improves(old, v);
        if (better) {
            sr_t nv = sr_add(old, v);
            d[i] = nv;
            out[e] = nv;
        }
        changed[e] = better;
    }
}
"#
        }
        Kernel::ImproveDense => {
            r#"// d[i] = add(d[i], t[i]) where sr_improves(d[i], t[i]); count[0] += the number of such i.
extern "C" __global__ void KERNEL(sr_t* __restrict__ d, const sr_t* __restrict__ t,
        unsigned long long n, unsigned long long* count) {
    unsigned int cnt = 0;
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        sr_t old = d[i], v = t[i];
        if (sr_improves(old, v)) { d[i] = sr_add(old, v); ++cnt; }
    }
    for (unsigned int off = 16; off > 0; off >>= 1) cnt += __shfl_down_sync(SG_FULL, cnt, off);
    if ((threadIdx.x & 31) == 0 && cnt) atomicAdd(count, (unsigned long long)cnt);
}
"#
        }
        Kernel::SelectRange => {
            r#"// flags[e] = (lo <= x[e] < hi) in the value type's order, out[e] = x[e]; lo and hi as bits.
extern "C" __global__ void KERNEL(const sr_t* __restrict__ x, unsigned int nnz,
        unsigned long long lo_bits, unsigned long long hi_bits, sr_t* __restrict__ out,
        unsigned char* __restrict__ flags) {
    sr_t lo = sr_from_bits(lo_bits), hi = sr_from_bits(hi_bits);
    for (unsigned long long e = sg_gid(); e < nnz; e += sg_nthreads()) {
        sr_t v = x[e];
        out[e] = v;
        flags[e] = !(v < lo) && v < hi;
    }
}
"#
        }
        Kernel::Witness => {
            r#"// For each entry (xi[e], xv[e]) of a sparse x, a warp walks row k = xi[e] of A: where
// target[j] is set and the term mul(A(k, j), x(k), k) is not the zero and equals d[j] bit for
// bit, p[j] = min(p[j], k). p[j] was reset to the largest index for every target j.
extern "C" __global__ void KERNEL(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sr_t* __restrict__ av, const sg_idx_t* __restrict__ xi, const sr_t* __restrict__ xv,
        unsigned int nx, const sr_t* __restrict__ d, const unsigned char* __restrict__ target,
        unsigned int* p) {
    unsigned long long e = sg_gid() / 32;
    unsigned int lane = threadIdx.x & 31;
    if (e >= nx) return;
    sg_idx_t kk = xi[e];
    sr_t v = xv[e];
    sg_idx_t end = rp[kk + 1];
    for (sg_idx_t q = rp[kk] + lane; q < end; q += 32) {
        sg_idx_t j = ci[q];
        if (!target[j]) continue;
        sr_t r = sr_mul(av[q], v, kk);
        if (!sr_is_zero(r) && sr_to_word(r) == sr_to_word(d[j])) atomicMin(&p[j], (unsigned int)kk);
    }
}
"#
        }
        Kernel::QueueRelax => {
            r#"// Phase 1 of a relaxation step from the queue (qi, qv; length qh[0]) along CSR A: `lanes`
// threads per entry k walk row k. A term t = mul(A(k, j), x, k) that the mask allows, is not
// the zero and improves d[j] (read now: a stale read is never lower than the value) is added
// atomically; the first thread to mark j in this step (member[j] != stamp) resets its parent
// and appends j to the output queue (length th[0], zero at launch). Thread 0 sets the output's
// step count and entries-before.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    if (sg_gid() == 0) { th[1] = qh[1] + (len > 0 ? 1ull : 0ull); th[2] = qh[2] + len; }
    unsigned long long total = len * lanes;
    for (unsigned long long g = sg_gid(); g < total; g += sg_nthreads()) {
        unsigned long long e = g / lanes;
        unsigned int lane = (unsigned int)(g % lanes);
        sg_idx_t kk = qi[e];
        sr_t x = qv[e];
        sg_idx_t end = rp[kk + 1];
        for (sg_idx_t p = rp[kk] + lane; p < end; p += lanes) {
            sg_idx_t j = ci[p];
            if (!SG_ALLOWS(j)) continue;
            sr_t t = sr_mul(av[p], x, kk);
            if (sr_is_zero(t) || !sr_improves(d[j], t)) continue;
            sr_atomic_add(&d[j], t);
            if (atomicExch(&member[j], stamp) != stamp) {
                if (use_parents) parents[j] = SG_SENTINEL;
                unsigned long long pos = atomicAdd(&th[0], 1ull);
                ti[pos] = j;
            }
        }
    }
}
"#
        }
        Kernel::QueueWitness => {
            r#"// Phase 2: for each vertex j improved in this step (member[j] == stamp), the smallest frontier
// vertex k whose term mul(A(k, j), x, k) equals the final d[j] bit for bit.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long total = qh[0] * lanes;
    for (unsigned long long g = sg_gid(); g < total; g += sg_nthreads()) {
        unsigned long long e = g / lanes;
        unsigned int lane = (unsigned int)(g % lanes);
        sg_idx_t kk = qi[e];
        sr_t x = qv[e];
        sg_idx_t end = rp[kk + 1];
        for (sg_idx_t p = rp[kk] + lane; p < end; p += lanes) {
            sg_idx_t j = ci[p];
            if (member[j] != stamp || !SG_ALLOWS(j)) continue;
            sr_t t = sr_mul(av[p], x, kk);
            if (!sr_is_zero(t) && sr_to_word(t) == sr_to_word(d[j])) atomicMin(&parents[j], (unsigned int)kk);
        }
    }
}
"#
        }
        Kernel::QueueFill => {
            r#"// Phase 3: tv[e] = d[ti[e]] for the entries of the output queue.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = th[0];
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) tv[e] = d[ti[e]];
}
"#
        }
        Kernel::QueueSplit => {
            r#"// Routes each vertex i of the queue by its current value v = d[i]: lo <= v < hi to the inside
// queue, v >= hi to the outside queue (if any), v < lo dropped; a receiving queue holds a vertex
// once (member == stamp). Thread 0 raises each receiving queue's step count to the input's.
extern "C" __global__ void KERNEL(PARAMS) {
    sr_t vlo = sr_from_bits(lo), vhi = sr_from_bits(hi);
    unsigned long long len = qh[0];
    if (sg_gid() == 0) {
        atomicMax(&ih[1], qh[1]);
        if (use_outside) atomicMax(&oh[1], qh[1]);
    }
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) {
        sg_idx_t i = qi[e];
        sr_t v = d[i];
        if (v < vlo) continue;
        if (v < vhi) {
            if (atomicExch(&imember[i], istamp) != istamp) {
                unsigned long long pos = atomicAdd(&ih[0], 1ull);
                ii[pos] = i;
                iv[pos] = v;
            }
        } else if (use_outside) {
            if (atomicExch(&omember[i], ostamp) != ostamp) {
                unsigned long long pos = atomicAdd(&oh[0], 1ull);
                oi[pos] = i;
                ov[pos] = v;
            }
        }
    }
}
"#
        }
        Kernel::QueueReduce => {
            r#"// out[0] = add(out[0], every value of the queue): a warp reduction per block, then the
// semiring's atomic add (out[0] starts at SR_ZERO).
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    sr_t acc = SR_ZERO;
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) acc = sr_add(acc, qv[e]);
    for (unsigned int off = 16; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, 32));
    if ((threadIdx.x & 31) == 0 && !sr_is_zero(acc)) sr_atomic_add(out, acc);
}
"#
        }
        Kernel::QueueImproveDense => {
            r#"// d[i] = add(d[i], t[i]) where sr_improves(d[i], t[i]), appending i with its new value to the
// output queue (length th[0], zero at launch; steps set to `steps`, entries-before to 0).
extern "C" __global__ void KERNEL(PARAMS) {
    if (sg_gid() == 0) { th[1] = steps; th[2] = 0; }
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        sr_t old = d[i], v = t[i];
        if (sr_improves(old, v)) {
            sr_t nv = sr_add(old, v);
            d[i] = nv;
            unsigned long long pos = atomicAdd(&th[0], 1ull);
            ti[pos] = (sg_idx_t)i;
            tv[pos] = nv;
        }
    }
}
"#
        }
        Kernel::QueueScatter => {
            r#"// y[qi[e]] = qv[e] (use_vals) or the value with bits c, for the entries of the queue.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    sr_t cv = sr_from_bits(c);
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) y[qi[e]] = use_vals ? qv[e] : cv;
}
"#
        }
        Kernel::Scan => {
            r#"// In place exclusive scan of counts[0..nb); counts[nb] = the total. One block of 1024 threads.
extern "C" __global__ void KERNEL(unsigned int* counts, unsigned int nb) {
    __shared__ unsigned int part[1024];
    unsigned int t = threadIdx.x, per = (nb + blockDim.x - 1) / blockDim.x;
    unsigned int lo = t * per, hi = lo + per < nb ? lo + per : nb;
    unsigned int s = 0;
    for (unsigned int i = lo; i < hi; ++i) s += counts[i];
    part[t] = s;
    __syncthreads();
    for (unsigned int off = 1; off < blockDim.x; off <<= 1) {
        unsigned int v = t >= off ? part[t - off] : 0u;
        __syncthreads();
        part[t] += v;
        __syncthreads();
    }
    unsigned int run = part[t] - s;
    for (unsigned int i = lo; i < hi; ++i) { unsigned int c = counts[i]; counts[i] = run; run += c; }
    if (t == blockDim.x - 1) counts[nb] = part[t];
}
"#
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use semigraph_semiring::{MinPlus, Semiring};

    #[test]
    fn keys_round_trip() {
        let sr = MinPlus::<f32>::cuda();
        for k in Kernel::ALL {
            let key = if k.applies_to(None) {
                KernelKey::new(k, None)
            } else {
                KernelKey::new(k, Some(&sr))
            };
            assert_eq!(KernelKey::parse(&key.name()), Some(key.clone()), "{key}");
        }
        assert_eq!(
            KernelKey::new(Kernel::SpmvCsrVector, Some(&sr)).name(),
            "sg__spmv__csr__min_plus__f32__u32__vector"
        );
        assert_eq!(
            KernelKey::parse("sg__spmv__csr__min_plus__f32__u64__vector"),
            None
        );
        assert_eq!(KernelKey::parse("spmv"), None);
    }
}
