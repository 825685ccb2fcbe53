//! Semiring-independent kernels that size sparse results on the device: an exclusive scan of
//! any length (tile sums, their scan, the tiles' scans), row lengths of a CSR matrix (or of
//! two, for a merge; or of listed rows), and the rows whose length lies in a range, listed.
//! With them a product, transpose or extraction finds its offsets and row pointers without
//! reading the row lengths back: one 8-byte total per result.

use super::Kernel;

/// Helpers of this file's kernels (they have no semiring prelude): the index type, the full
/// warp, the grid-stride bounds, a load from a 64- or 32-bit array, and a block's sum.
pub(super) const HELPERS: &str = r#"typedef unsigned int sg_idx_t;
#define SG_FULL 0xffffffffu
#define SG_SCAN_ITEMS 8
#define SG_SCAN_THREADS 256
__device__ __forceinline__ unsigned long long sg_gid() {
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned long long sg_nthreads() {
    return (unsigned long long)gridDim.x * blockDim.x;
}
__device__ __forceinline__ unsigned long long sg_load(const unsigned long long* __restrict__ x64,
        const unsigned int* __restrict__ x32, int wide, unsigned long long i) {
    return wide ? x64[i] : (unsigned long long)x32[i];
}
// The exclusive prefix of v over the block's threads (in thread order) and the block's total.
__device__ __forceinline__ unsigned long long sg_block_scan(unsigned long long v,
        unsigned long long* total) {
    __shared__ unsigned long long warp_tot[32];
    unsigned int lane = threadIdx.x & 31u, wid = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    unsigned long long x = v;
    for (unsigned int o = 1; o < 32; o <<= 1) {
        unsigned long long y = __shfl_up_sync(SG_FULL, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warp_tot[wid] = x;
    __syncthreads();
    unsigned long long before = 0, all = 0;
    for (unsigned int w = 0; w < nw; ++w) {
        if (w < wid) before += warp_tot[w];
        all += warp_tot[w];
    }
    __syncthreads();
    *total = all;
    return before + x - v;
}
"#;

/// The template of `kernel` if it is one of this file's.
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::ScanReduce => {
            r#"// Exclusive scan, pass 1: sums[b] = the sum of tile b of x (SG_SCAN_THREADS * SG_SCAN_ITEMS
// values, blocks of SG_SCAN_THREADS threads; x64 when wide, else x32).
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long tile = (unsigned long long)blockDim.x * SG_SCAN_ITEMS;
    unsigned long long lo = blockIdx.x * tile, s = 0, total;
    for (unsigned int r = 0; r < SG_SCAN_ITEMS; ++r) {
        unsigned long long i = lo + (unsigned long long)r * blockDim.x + threadIdx.x;
        if (i < n) s += sg_load(x64, x32, wide, i);
    }
    sg_block_scan(s, &total);
    if (threadIdx.x == 0) sums[blockIdx.x] = total;
}
"#
        }
        Kernel::ScanSums => {
            r#"// Exclusive scan, pass 2, one block: sums[0..nb) scanned in place, sums[nb] = the total.
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ unsigned long long carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (unsigned long long b0 = 0; b0 < nb; b0 += blockDim.x) {
        unsigned long long b = b0 + threadIdx.x, v = b < nb ? sums[b] : 0, total;
        unsigned long long before = sg_block_scan(v, &total);
        if (b < nb) sums[b] = carry + before;
        __syncthreads();
        if (threadIdx.x == 0) carry += total;
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[nb] = carry;
}
"#
        }
        Kernel::ScanDown => {
            r#"// Exclusive scan, pass 3: each tile's values scanned from sums[b] (pass 2), to y64 (wide)
// or y32 (narrowed: the caller checks the total, sums[nb]); y[n] = the total. Blocks of
// SG_SCAN_THREADS threads, as pass 1.
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ unsigned long long sh[SG_SCAN_THREADS * SG_SCAN_ITEMS];
    unsigned long long tile = (unsigned long long)blockDim.x * SG_SCAN_ITEMS;
    unsigned long long lo = blockIdx.x * tile, total;
    for (unsigned int r = 0; r < SG_SCAN_ITEMS; ++r) {
        unsigned int t = r * blockDim.x + threadIdx.x;
        unsigned long long i = lo + t;
        sh[t] = i < n ? sg_load(x64, x32, xwide, i) : 0;
    }
    __syncthreads();
    unsigned long long s = 0;
    for (unsigned int r = 0; r < SG_SCAN_ITEMS; ++r) s += sh[threadIdx.x * SG_SCAN_ITEMS + r];
    unsigned long long run = sums[blockIdx.x] + sg_block_scan(s, &total);
    for (unsigned int r = 0; r < SG_SCAN_ITEMS; ++r) {
        unsigned int t = threadIdx.x * SG_SCAN_ITEMS + r;
        unsigned long long v = sh[t];
        sh[t] = run;
        run += v;
    }
    __syncthreads();
    for (unsigned int r = 0; r < SG_SCAN_ITEMS; ++r) {
        unsigned int t = r * blockDim.x + threadIdx.x;
        unsigned long long i = lo + t;
        if (i < n) {
            if (ywide) y64[i] = sh[t]; else y32[i] = (unsigned int)sh[t];
        }
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        if (ywide) y64[n] = sums[gridDim.x]; else y32[n] = (unsigned int)sums[gridDim.x];
    }
}
"#
        }
        Kernel::WordsDiffer => {
            r#"// differ[0] = 1 when a[k] != b[k] for some k < n (differ starts at zero).
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < n; k += sg_nthreads()) {
        if (a[k] != b[k]) { differ[0] = 1u; return; }
    }
}
"#
        }
        Kernel::RowLens => {
            r#"// lens[k] = the length of row r of A (r = src[k] when use_src, else k), plus that of row
// k of B when use_b (the room of a merge of the two rows).
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < nrows; k += sg_nthreads()) {
        unsigned long long r = use_src ? src[k] : k;
        unsigned long long l = arp[r + 1] - arp[r];
        if (use_b) l += brp[k + 1] - brp[k];
        lens[k] = l;
    }
}
"#
        }
        Kernel::RowClasses => {
            r#"// Appends to `rows` each row i whose sel[i] (sel64 when wide, else sel32) lies in (lo, hi],
// in no particular order: stats[0] = their number; stats[1] = the largest sel[i] of all rows
// (both start at zero).
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long most = 0;
    for (unsigned long long i = sg_gid(); i < nrows; i += sg_nthreads()) {
        unsigned long long s = sg_load(sel64, sel32, wide, i);
        if (s > most) most = s;
        if (s > lo && s <= hi) rows[atomicAdd(&stats[0], 1ull)] = (unsigned int)i;
    }
    for (unsigned int o = 16; o > 0; o >>= 1) {
        unsigned long long y = __shfl_down_sync(SG_FULL, most, o);
        if (y > most) most = y;
    }
    if ((threadIdx.x & 31u) == 0 && most > 0) atomicMax(&stats[1], most);
}
"#
        }
        Kernel::IndexLens => {
            r#"// lens[k] = 1 where idx[k] names a column (< ncols), else 0: the rows of an index matrix.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < n; k += sg_nthreads()) lens[k] = idx[k] < ncols ? 1u : 0u;
}
"#
        }
        _ => return None,
    })
}
