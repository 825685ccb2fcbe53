//! Kernel templates over a sparse or dense matrix: SpMV in each format, SpMSpV (`vxm`),
//! dense GEMM.

use super::Kernel;

/// The store of a GEMM's register tile, one row of 8 outputs at a time: columns
/// `c0 + (j < 4 ? 0 : gap) + (j & 3)`, through the mask and the accumulation. Out of line
/// (`__noinline__`): inlined 64 times, the masked stores made NVRTC take five times longer on
/// each GEMM kernel (2.1 s against 0.4 s), for code that runs once per thread.
macro_rules! gemm_put_row {
    () => {
        r#"struct sg_gemm_row { sr_t v[8]; };
__device__ __noinline__ void sg_gemm_put_row(sr_t* c, unsigned int r, unsigned int n,
        unsigned int c0, unsigned int gap, sg_gemm_row row, int accum, SG_MASK_PARAMS) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        unsigned int cc = c0 + (j < 4 ? 0 : gap) + (j & 3);
        unsigned long long at = (unsigned long long)r * n + cc;
        if (cc < n && SG_ALLOWS(at)) sg_store(c, at, row.v[j], accum);
    }
}
"#
    };
}

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list where [`crate::params`] declares one.
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::Transpose => {
            r#"// y (cols x rows) = x^T (x: rows x cols, row-major). Blocks of 32 x 8 threads take 32 x 32
// tiles in turn (grid-stride over the tiles); each tile passes through shared memory so that
// reads and writes are both coalesced (rows padded by one value against bank conflicts).
extern "C" __global__ void __launch_bounds__(256) KERNEL(PARAMS) {
    __shared__ sr_t tile[32][33];
    unsigned long long tr = (rows + 31) / 32, tc = (cols + 31) / 32;
    for (unsigned long long t = blockIdx.x; t < tr * tc; t += gridDim.x) {
        unsigned long long r0 = (t / tc) * 32, c0 = (t % tc) * 32;
        for (unsigned int dy = threadIdx.y; dy < 32; dy += 8) {
            unsigned long long r = r0 + dy, c = c0 + threadIdx.x;
            if (r < rows && c < cols) tile[dy][threadIdx.x] = x[r * cols + c];
        }
        __syncthreads();
        for (unsigned int dy = threadIdx.y; dy < 32; dy += 8) {
            unsigned long long c = c0 + dy, r = r0 + threadIdx.x;
            if (r < rows && c < cols) y[c * rows + r] = tile[threadIdx.x][dy];
        }
        __syncthreads();
    }
}
"#
        }
        Kernel::SpmvCsrScalar => {
            r#"extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long g = sg_gid();
    if (g >= (unsigned long long)nrows * k) return;
    if (!SG_ALLOWS(g)) return;
    unsigned int i = (unsigned int)(g / k), c = (unsigned int)(g % k);
    sr_t acc = SR_ZERO;
    sg_idx_t end = rp[i + 1];
    for (sg_idx_t p = rp[i]; p < end; ++p) {
        sg_idx_t j = ci[p];
        acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
        if ((SR_HAS_TERMINAL && sr_is_terminal(acc)) || (SR_FIRST_WINS && !sr_is_zero(acc))) break;
    }
    sg_store(y, g, acc, accum);
}
"#
        }
        Kernel::SpmvCsrVector => {
            r#"// A sub-warp of `vw` lanes (a power of two <= 32) per output; block size a multiple of 32.
// Lane `lane` of the sub-warp (lanes `sub`) adds its share of the terms of output `out`.
__device__ __forceinline__ sr_t sg_vector_part(const sg_idx_t* __restrict__ rp,
        const sg_idx_t* __restrict__ ci, const sg_vals av, const sr_t* __restrict__ x,
        unsigned int k, unsigned long long out, unsigned int vw, unsigned int lane, unsigned int sub) {
    sr_t acc = SR_ZERO;
    unsigned int i = (unsigned int)(out / k), c = (unsigned int)(out % k);
    sg_idx_t end = rp[i + 1];
#if SR_FIRST_WINS
    // The sub-warp takes the row vw entries at a time and stops after the first piece with a
    // non-zero term: columns increase, so the row's sum is in that piece.
    for (sg_idx_t base = rp[i]; base < end; base += vw) {
        sg_idx_t p = base + lane;
        if (p < end) {
            sg_idx_t j = ci[p];
            acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
        }
        if (__any_sync(sub, !sr_is_zero(acc))) break;
    }
#else
    for (sg_idx_t p = rp[i] + lane; p < end; p += vw) {
        sg_idx_t j = ci[p];
        acc = sr_add(acc, sr_mul(av[p], x[(unsigned long long)j * k + c], j));
        if (SR_HAS_TERMINAL && sr_is_terminal(acc)) break;
    }
#endif
    return acc;
}

// Unmasked: one sub-warp per output. Masked (mmode != 0): one thread per output (whole warps);
// each warp tests the mask of its 32 outputs, then its 32 / vw sub-warps take the allowed
// ones in turn, so an output the mask excludes costs one test, not a sub-warp.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long total = (unsigned long long)nrows * k;
    unsigned int lane32 = threadIdx.x & 31, lane = threadIdx.x & (vw - 1);
    unsigned int sub = vw == 32 ? SG_FULL : ((1u << vw) - 1u) << (lane32 & ~(vw - 1));
    if (mmode != 0) {
        unsigned long long first = sg_gid() & ~31ull;
        unsigned long long mine = first + lane32;
        unsigned int live = __ballot_sync(SG_FULL, mine < total && SG_ALLOWS(mine));
        unsigned int per = 32 / vw, sw = lane32 / vw;
        while (live) {
            unsigned int cnt = __popc(live);
            bool go = sw < cnt;
            unsigned long long out = go ? first + __fns(live, 0, (int)sw + 1) : 0;
            sr_t acc = go ? sg_vector_part(rp, ci, av, x, k, out, vw, lane, sub) : SR_ZERO;
            for (unsigned int off = vw >> 1; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, vw));
            if (go && lane == 0) sg_store(y, out, acc, accum);
            live = cnt <= per ? 0u : live & ~((1u << __fns(live, 0, (int)per + 1)) - 1u);
        }
        return;
    }
    unsigned long long out = sg_gid() / vw;
    bool go = out < total;
    sr_t acc = go ? sg_vector_part(rp, ci, av, x, k, out, vw, lane, sub) : SR_ZERO;
    for (unsigned int off = vw >> 1; off > 0; off >>= 1) acc = sr_add(acc, sr_shfl_down(acc, off, vw));
    if (go && lane == 0) sg_store(y, out, acc, accum);
}
"#
        }
        Kernel::SpmvCsrSplit => {
            r#"// Thread g takes entries [chunk * (g / k), +chunk) of column g % k; it finds its first row by
// binary search and adds each row's partial sum into t (zero-initialised) atomically.
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void __launch_bounds__(SG_AD_THREADS) KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
            r#"// C<mask> (rows x n) = accum(C, A (rows x kk) (+).(x) B (kk x n)), row-major; 16 x 16 tiles,
// block (16, 16). Out-of-range tile slots load SR_ZERO, which annihilates.
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ sr_t as[16][17];
    __shared__ sr_t bs[16][17];
    unsigned int tx = threadIdx.x, ty = threadIdx.y;
    unsigned int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    sr_t acc = SR_ZERO;
    for (unsigned int t0 = 0; t0 < kk; t0 += 16) {
        as[ty][tx] = (row < rows && t0 + tx < kk) ? a[(unsigned long long)row * kk + t0 + tx] : SR_ZERO;
        bs[ty][tx] = (t0 + ty < kk && col < n) ? b[(unsigned long long)(t0 + ty) * n + col] : SR_ZERO;
        __syncthreads();
        for (unsigned int q = 0; q < 16; ++q) acc = sr_add(acc, sr_mul(as[ty][q], bs[q][tx], t0 + q));
        __syncthreads();
    }
    unsigned long long at = (unsigned long long)row * n + col;
    if (row < rows && col < n && SG_ALLOWS(at)) sg_store(c, at, acc, accum);
}
"#
        }
        Kernel::GemmReg => concat!(
            gemm_put_row!(),
            r#"// C<mask> (rows x n) = accum(C, A (rows x kk) (+).(x) B (kk x n)), row-major (the mask, any
// semiring, has C's shape; excluded outputs keep their value). Register tiles: a block of
// 16 x 16 threads computes a 128 x 128 tile of C, each thread 8 x 8 outputs held in
// registers (rows ty * 4 + {0..3} and 64 + ty * 4 + {0..3}, columns likewise from tx), so
// that its 8 values of A and 8 of B per inner index are four runs of 4 adjacent values in
// shared memory, each read in one access (16 bytes for 4-byte values). A's and B's 128 x 16
// slices are staged in shared memory (A transposed, padded against bank conflicts), double
// buffered: while one slice is combined, the next of A is read into registers, and the next
// of B is copied by asynchronous copies (cp.async, 16 bytes each) into B's second buffer
// where the block's 128 columns lie inside B, its rows are 16-byte aligned and kk is a
// multiple of 16 (4-byte values), else read into registers like A. Out-of-range slots load SR_ZERO, which annihilates. Each output adds its terms in the
// order of the inner index, as the CPU does. When the semiring has a fast multiply-add and
// bad[0] == 0 (every operand in its domain, checked by FastCheck before), the inner step is
// sr_fast_fma.
#define SG_GEMM_BM 128
#define SG_GEMM_BK 16
#define SG_GEMM_LD (SG_GEMM_BM + 4)
// Four adjacent values; aligned so that one shared-memory access reads them (any row of
// SG_GEMM_LD values and any offset of 4 values keep that alignment).
struct __align__(sizeof(sr_t) % 4 == 0 ? 16 : (sizeof(sr_t) % 2 == 0 ? 8 : 4)) sg_gemm_v4 {
    sr_t v[4];
};
template <bool FAST>
__device__ __forceinline__ void sg_gemm_reg_slice(sr_t (&acc)[8][8],
        const sr_t (*as)[SG_GEMM_LD], const sr_t (*bs)[SG_GEMM_LD],
        unsigned int tx, unsigned int ty, unsigned int t0) {
    // Unrolled by 2 only: the 8 x 8 body is already 64 pairs, and full unrolling made
    // this kernel take 1 s of NVRTC time per semiring.
#pragma unroll 2
    for (int q = 0; q < SG_GEMM_BK; ++q) {
        sg_gemm_v4 a0 = *(const sg_gemm_v4*)&as[q][ty * 4];
        sg_gemm_v4 a1 = *(const sg_gemm_v4*)&as[q][64 + ty * 4];
        sg_gemm_v4 b0 = *(const sg_gemm_v4*)&bs[q][tx * 4];
        sg_gemm_v4 b1 = *(const sg_gemm_v4*)&bs[q][64 + tx * 4];
        sr_t ra[8] = {a0.v[0], a0.v[1], a0.v[2], a0.v[3], a1.v[0], a1.v[1], a1.v[2], a1.v[3]};
        sr_t rb[8] = {b0.v[0], b0.v[1], b0.v[2], b0.v[3], b1.v[0], b1.v[1], b1.v[2], b1.v[3]};
#pragma unroll
        for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
                acc[i][j] = FAST ? sr_fast_fma(acc[i][j], ra[i], rb[j])
                                 : sr_add(acc[i][j], sr_mul(ra[i], rb[j], t0 + q));
    }
}
// Thread tid's 8 values of a slice W values wide starting at (r0, c0) of a rows x cols
// row-major array (A's slice: W = SG_GEMM_BK at (row0, t0); B's: W = SG_GEMM_BM at (t0, col0));
// positions outside the array load SR_ZERO.
template <unsigned int W>
__device__ __forceinline__ void sg_gemm_fetch(sr_t (&p)[8], const sr_t* __restrict__ src,
        unsigned int rows, unsigned int cols, unsigned int r0, unsigned int c0, unsigned int tid) {
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        unsigned int e = tid + 256u * r;
        unsigned int gr = r0 + e / W, gc = c0 + e % W;
        p[r] = (gr < rows && gc < cols) ? src[(unsigned long long)gr * cols + gc] : SR_ZERO;
    }
}
// B's slice at inner index t0 copied to bs asynchronously, 16 bytes a copy (4-byte values,
// every row inside B and 16-byte aligned: see the kernel).
__device__ __forceinline__ void sg_gemm_copy_b(sr_t (*bs)[SG_GEMM_LD], const sr_t* __restrict__ b,
        unsigned int n, unsigned int col0, unsigned int tid, unsigned int t0) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        unsigned int ch = tid + 256u * h, br = ch / 32, bc = (ch % 32) * 4;
        unsigned int dst = (unsigned int)__cvta_generic_to_shared(&bs[br][bc]);
        const sr_t* src = b + (unsigned long long)(t0 + br) * n + col0 + bc;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
    }
    asm volatile("cp.async.commit_group;\n" ::);
}
// B's buffers: two for 4-byte values (asynchronous copies), one otherwise (static shared
// memory stays within 48 KiB for 8-byte values).
#define SG_GEMM_BSTAGES (sizeof(sr_t) == 4 ? 2 : 1)
// Two blocks per SM for values of up to 4 bytes (at most 128 registers: 1-2% faster on the
// H100); wider values need more registers for their 64 accumulators than that leaves.
extern "C" __global__ void __launch_bounds__(256, sizeof(sr_t) <= 4 ? 2 : 1) KERNEL(PARAMS) {
    __shared__ __align__(16) sr_t as[SG_GEMM_BK][SG_GEMM_LD];
    __shared__ __align__(16) sr_t bs[SG_GEMM_BSTAGES][SG_GEMM_BK][SG_GEMM_LD];
    unsigned int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    unsigned int row0 = blockIdx.y * SG_GEMM_BM, col0 = blockIdx.x * SG_GEMM_BM;
#ifdef SR_HAS_PACKED16
    if (bad[1] == 0) return;  // every operand packs: the packed kernel computes C
#endif
    bool fast = SR_HAS_FAST_FMA && bad[0] == 0;
    // The same for the whole block: B's slices by asynchronous copies.
    bool async_b = SG_GEMM_BSTAGES == 2 && n % 4 == 0 && kk % SG_GEMM_BK == 0 &&
                   col0 + SG_GEMM_BM <= n;
    sr_t acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = SR_ZERO;
    sr_t pa[8], pb[8];
    sg_gemm_fetch<SG_GEMM_BK>(pa, a, rows, kk, row0, 0, tid);
    if (async_b) sg_gemm_copy_b(bs[0], b, n, col0, tid, 0);
    else sg_gemm_fetch<SG_GEMM_BM>(pb, b, kk, n, 0, col0, tid);
    int st = 0;
    for (unsigned int t0 = 0; t0 < kk; t0 += SG_GEMM_BK) {
        bool more = t0 + SG_GEMM_BK < kk;
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            unsigned int e = tid + 256u * r;
            as[e % SG_GEMM_BK][e / SG_GEMM_BK] = pa[r];
            if (!async_b) bs[0][e / SG_GEMM_BM][e % SG_GEMM_BM] = pb[r];
        }
        if (async_b) {
            // The next slice into the other buffer; then wait for this one only.
            if (more) {
                sg_gemm_copy_b(bs[st ^ 1], b, n, col0, tid, t0 + SG_GEMM_BK);
                asm volatile("cp.async.wait_group 1;\n" ::);
            } else {
                asm volatile("cp.async.wait_group 0;\n" ::);
            }
        }
        __syncthreads();
        if (more) {
            sg_gemm_fetch<SG_GEMM_BK>(pa, a, rows, kk, row0, t0 + SG_GEMM_BK, tid);
            if (!async_b) sg_gemm_fetch<SG_GEMM_BM>(pb, b, kk, n, t0 + SG_GEMM_BK, col0, tid);
        }
        // Each buffer named by a constant index: through bs[st] the shared-memory reads lose
        // their constant addresses (min-plus f32 2.9% slower on the H100).
        if (st == 0) {
            if (fast) sg_gemm_reg_slice<true>(acc, as, bs[0], tx, ty, t0);
            else sg_gemm_reg_slice<false>(acc, as, bs[0], tx, ty, t0);
        } else {
            if (fast) sg_gemm_reg_slice<true>(acc, as, bs[SG_GEMM_BSTAGES - 1], tx, ty, t0);
            else sg_gemm_reg_slice<false>(acc, as, bs[SG_GEMM_BSTAGES - 1], tx, ty, t0);
        }
        __syncthreads();
        if (async_b) st ^= 1;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        unsigned int r = row0 + (i < 4 ? 0 : 64) + ty * 4 + (i & 3);
        if (r >= rows) continue;
        sg_gemm_row row;
#pragma unroll
        for (int j = 0; j < 8; ++j) row.v[j] = acc[i][j];
        sg_gemm_put_row(c, r, n, col0 + tx * 4, 64, row, accum, m, mmode, msize, mzero);
    }
}
"#
        ),
        Kernel::GemmPacked => concat!(
            gemm_put_row!(),
            r#"// C<mask> (rows x n) = accum(C, A (rows x kk) (+).(x) B (kk x n)) on 16-bit halves: values are encoded
// by sr_packed_enc on their way into shared memory (A duplicated into both halves of a word,
// B as pairs of adjacent columns), each step is one sr_packed_fma2 for two outputs, and
// results are decoded by sr_packed_dec. A block of 16 x 16 threads computes 128 x 128
// outputs; thread (tx, ty) rows ty * 8 .. +8 and columns tx * 8 .. +8 (4 words), reading its
// operands from shared memory 16 bytes at a time; the next slice is read from global memory
// into registers while this one is combined. Runs only when bad[1] == 0 (every operand in
// the packed domain, see FastCheck); the register-tile kernel runs otherwise.
#define SG_PK_BK 16
#ifdef SR_HAS_PACKED16
// Thread tid's share of the slice at inner index t0, encoded: 8 words of A (a value in both
// halves) and 4 of B (two adjacent columns); z is the encoded zero.
__device__ __forceinline__ void sg_gemm_packed_fetch(unsigned int (&pa)[8], unsigned int (&pb)[4],
        const sr_t* __restrict__ a, const sr_t* __restrict__ b, unsigned int rows,
        unsigned int n, unsigned int kk, unsigned int row0, unsigned int col0,
        unsigned int tid, unsigned int t0, unsigned int z) {
#pragma unroll
    for (int r = 0; r < 8; ++r) {
        unsigned int e = tid + 256u * r;
        unsigned int gr = row0 + e / SG_PK_BK, gc = t0 + e % SG_PK_BK;
        unsigned int h = (gr < rows && gc < kk) ? sr_packed_enc(a[(unsigned long long)gr * kk + gc]) & 0xFFFFu : z;
        pa[r] = h | (h << 16);
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        unsigned int e = tid + 256u * r;
        unsigned int hr = t0 + e / 64, hc = col0 + 2 * (e % 64);
        unsigned long long at = (unsigned long long)hr * n + hc;
        unsigned int lo = (hr < kk && hc < n) ? sr_packed_enc(b[at]) & 0xFFFFu : z;
        unsigned int hi = (hr < kk && hc + 1 < n) ? sr_packed_enc(b[at + 1]) & 0xFFFFu : z;
        pb[r] = lo | (hi << 16);
    }
}
extern "C" __global__ void __launch_bounds__(256) KERNEL(PARAMS) {
    if (bad[1] != 0) return;
    __shared__ __align__(16) unsigned int as2[SG_PK_BK][128 + 4];
    __shared__ __align__(16) unsigned int bs2[SG_PK_BK][64];
    unsigned int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    unsigned int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
    const unsigned int z = sr_packed_enc(SR_ZERO) & 0xFFFFu;
    unsigned int acc[8][4];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = z | (z << 16);
    unsigned int pa[8], pb[4];  // the next slice, encoded, read while this one is combined
    sg_gemm_packed_fetch(pa, pb, a, b, rows, n, kk, row0, col0, tid, 0, z);
    for (unsigned int t0 = 0; t0 < kk; t0 += SG_PK_BK) {
#pragma unroll
        for (int r = 0; r < 8; ++r) {
            unsigned int e = tid + 256u * r;
            as2[e % SG_PK_BK][e / SG_PK_BK] = pa[r];
        }
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            unsigned int e = tid + 256u * r;
            bs2[e / 64][e % 64] = pb[r];
        }
        __syncthreads();
        if (t0 + SG_PK_BK < kk)
            sg_gemm_packed_fetch(pa, pb, a, b, rows, n, kk, row0, col0, tid, t0 + SG_PK_BK, z);
#pragma unroll 4
        for (int q = 0; q < SG_PK_BK; ++q) {
            uint4 a0 = *(const uint4*)&as2[q][ty * 8], a1 = *(const uint4*)&as2[q][ty * 8 + 4];
            uint4 b0 = *(const uint4*)&bs2[q][tx * 4];
            unsigned int ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            unsigned int rb[4] = {b0.x, b0.y, b0.z, b0.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j) acc[i][j] = sr_packed_fma2(acc[i][j], ra[i], rb[j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        unsigned int r = row0 + ty * 8 + i;
        if (r >= rows) continue;
        sg_gemm_row row;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            row.v[2 * j] = sr_packed_dec(acc[i][j] & 0xFFFFu);
            row.v[2 * j + 1] = sr_packed_dec(acc[i][j] >> 16);
        }
        sg_gemm_put_row(c, r, n, col0 + tx * 8, 4, row, accum, m, mmode, msize, mzero);
    }
}
#endif
"#
        ),
        _ => return None,
    })
}
