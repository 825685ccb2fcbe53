//! Kernel templates over sparse matrices: the phases that sparse x sparse products
//! ([`super::spgemm`]), matrix transposes and CSR builds from arcs share (each output row's
//! keyed values scattered to a segment, sorted by column and combined in key order, then
//! gathered), and the helpers of those kernels.

use super::Kernel;

/// Helpers of the sparse-matrix kernels: is `j` a valued entry of a sorted row, and a block's
/// combination of a sorted row's runs.
pub(super) const HELPERS: &str = r#"
// The row of a CSR matrix (row pointers rp, nrows rows) that holds entry p.
__device__ unsigned long long sg_row_of(const sg_idx_t* rp, unsigned long long nrows,
        unsigned long long p) {
    unsigned long long lo = 0, hi = nrows;
    while (hi - lo > 1) {
        unsigned long long mid = (lo + hi) / 2;
        if (rp[mid] <= p) lo = mid; else hi = mid;
    }
    return lo;
}
// This thread's rank among the threads of its block that have an item (has), in thread
// order, and the block's count of items in total: a ballot per warp, the warps' counts in
// sums (shared, one per warp; blockDim.x a multiple of 32). Every thread of the block calls
// it; sums is written again only after a barrier.
__device__ __forceinline__ unsigned int sg_block_rank(bool has, unsigned int* sums,
        unsigned int& total) {
    unsigned int lane = threadIdx.x & 31u, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    unsigned int bal = __ballot_sync(SG_FULL, has);
    if (lane == 0) sums[wid] = __popc(bal);
    __syncthreads();
    unsigned int before = __popc(bal & ((1u << lane) - 1u));
    total = 0;
    for (unsigned int w = 0; w < nw; ++w) {
        if (w < wid) before += sums[w];
        total += sums[w];
    }
    return before;
}
// A block combines the runs of equal columns of n sorted keyed values (sk, sv): the first
// value of each run sums the run in key order, and the sums that are not the zero go, in
// order, to k and v (a block prefix count of the runs); returns their number (to every
// thread). Each chunk reads everything it needs before any thread writes, and writes only
// below what later chunks read, so k, v may be sk, sv.
__device__ unsigned int sg_combine_runs(const unsigned long long* sk, const sr_t* sv,
        unsigned long long* k, sr_t* v, unsigned int n) {
    __shared__ unsigned int warp_sums[32];
    __shared__ unsigned int wbase;
    if (threadIdx.x == 0) wbase = 0;
    __syncthreads();
    for (unsigned int t0 = 0; t0 < n; t0 += blockDim.x) {
        unsigned int t = t0 + threadIdx.x;
        bool has = false;
        unsigned long long col = 0;
        sr_t acc = SR_ZERO;
        if (t < n) {
            col = sk[t] >> 32;
            if (t == 0 || (sk[t - 1] >> 32) != col) {
                acc = sv[t];
                for (unsigned int q = t + 1; q < n && (sk[q] >> 32) == col; ++q) {
                    acc = sr_add(acc, sv[q]);
                }
                has = !sr_is_zero(acc);
            }
        }
        unsigned int total, before = sg_block_rank(has, warp_sums, total);
        if (has) { k[wbase + before] = col << 32; v[wbase + before] = acc; }
        __syncthreads();
        if (threadIdx.x == 0) wbase += total;
        __syncthreads();
    }
    unsigned int w = wbase;
    __syncthreads();
    return w;
}
// The first place in the sorted ci[lo..hi) whose column is not below j (hi if none).
__device__ __forceinline__ sg_idx_t sg_lower_bound(const sg_idx_t* __restrict__ ci,
        sg_idx_t lo, sg_idx_t hi, sg_idx_t j) {
    while (lo < hi) {
        sg_idx_t mid = lo + (hi - lo) / 2;
        if (ci[mid] < j) lo = mid + 1; else hi = mid;
    }
    return lo;
}
__device__ __forceinline__ bool sg_row_has(const sg_idx_t* __restrict__ ci,
        const sg_vals v, sg_idx_t lo, sg_idx_t hi, sg_idx_t j) {
    sg_idx_t at = sg_lower_bound(ci, lo, hi, j);
    return at < hi && ci[at] == j && !sr_is_zero(v[at]);
}
// A block sorts the p2 (a power of two) keyed values sk, sv in shared memory by key: a
// bitonic network, a barrier after each stage. Every thread of the block calls it, after a
// barrier that follows the writes of sk and sv.
__device__ void sg_block_sort(unsigned long long* sk, sr_t* sv, unsigned int p2) {
    for (unsigned int size = 2; size <= p2; size <<= 1) {
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            for (unsigned int t = threadIdx.x; t < p2; t += blockDim.x) {
                unsigned int u = t ^ stride;
                if (u > t) {
                    unsigned long long a = sk[t], b = sk[u];
                    if ((a > b) == ((t & size) == 0)) {
                        sk[t] = b; sk[u] = a;
                        sr_t x = sv[t]; sv[t] = sv[u]; sv[u] = x;
                    }
                }
            }
            __syncthreads();
        }
    }
}
"#;

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list (declared in [`crate::params`]).
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::SortRows => {
            r#"// Sorts row i's len[i] keyed values from off[i] by key, combines those of one column with
// add in key order, drops the zeros, and leaves the row's entries at the front of its
// segment: cnt[i] of them. A warp per row, a value per lane: the keys (column << 32, then a
// product's term position or an arc's place in its list; nothing for a transpose) sorted
// with each value's place by a bitonic network of shuffles, each value then read from its
// place into the warp's slots in shared memory, and each run of a column summed by its first
// lane.
// Only rows of at most `small` (<= 32) values: [`Kernel::SortRowsBlock`] and
// [`Kernel::SortRowsLong`] sort the others (a product's long rows have none here:
// [`Kernel::SpgemmLong`] writes them).
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ sr_t slots[1024];
    unsigned int lane = threadIdx.x & 31u;
    sr_t* st = slots + (threadIdx.x & ~31u);
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        unsigned int n = len[i];
        if (n > small) continue;
        unsigned long long* k = tk + off[i];
        sr_t* v = tv + off[i];
        // The whole key sorts (its low half orders a column's values: a product's term
        // positions, an arc's place in its list; not where a scatter happened to put the
        // value), the value's place travelling with it.
        unsigned long long key = lane < n ? k[lane] : ~0ull;
        unsigned int at = lane;
        for (unsigned int size = 2; size <= 32; size <<= 1) {
            for (unsigned int stride = size >> 1; stride > 0; stride >>= 1) {
                unsigned long long o = __shfl_xor_sync(SG_FULL, key, stride);
                unsigned int oat = __shfl_xor_sync(SG_FULL, at, stride);
                bool low = (lane & stride) == 0, up = (lane & size) == 0;
                if ((low == up) ? o < key : o > key) {
                    key = o;
                    at = oat;
                }
            }
        }
        if (lane < n) st[lane] = v[at];
        unsigned long long prev = __shfl_up_sync(SG_FULL, key, 1);
        bool head = lane < n && (lane == 0 || (prev >> 32) != (key >> 32));
        unsigned int heads = __ballot_sync(SG_FULL, head);
        __syncwarp();
        sr_t acc = SR_ZERO;
        if (head) {
            unsigned int later = lane == 31 ? 0u : heads & (0xffffffffu << (lane + 1));
            unsigned int end = later != 0 ? __ffs(later) - 1 : n;
            acc = st[lane];
            for (unsigned int q = lane + 1; q < end; ++q) acc = sr_add(acc, st[q]);
        }
        bool has = head && !sr_is_zero(acc);
        unsigned int kept = __ballot_sync(SG_FULL, has);
        if (has) {
            unsigned int w = __popc(kept & ((1u << lane) - 1u));
            k[w] = (key >> 32) << 32;
            v[w] = acc;
        }
        if (lane == 0) cnt[i] = __popc(kept);
        __syncwarp();
    }
}
"#
        }
        Kernel::GatherRows => {
            r#"// Copies row i's cnt[i] entries from its segment at off[i] to the CSR arrays at rp[i]; a
// warp per row, its lanes on consecutive entries.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        unsigned int c = cnt[i];
        unsigned long long o = off[i];
        sg_idx_t r0 = rp[i];
        for (unsigned int r = lane; r < c; r += 32) {
            ci[r0 + r] = (sg_idx_t)(tk[o + r] >> 32);
            vals[r0 + r] = tv[o + r];
        }
    }
}
"#
        }
        Kernel::ColCount => {
            r#"// cnt[j] += the entries of column j (cnt starts at zero).
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long e = sg_gid(); e < nnz; e += sg_nthreads()) atomicAdd(&cnt[ci[e]], 1u);
}
"#
        }
        Kernel::ColScatter => {
            r#"// Each entry (i, j, v) of A to column j's segment of the transpose, from off[j] on (the
// place within the segment from an atomic cursor, zero at the start): key i << 32, value v.
// A warp per row, its lanes on the row's entries.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        for (sg_idx_t e = rp[i] + lane; e < rp[i + 1]; e += 32) {
            sg_idx_t j = ci[e];
            unsigned long long p = off[j] + atomicAdd(&cursor[j], 1u);
            tk[p] = (unsigned long long)i << 32;
            tv[p] = av[e];
        }
    }
}
"#
        }
        Kernel::CooScatter => {
            r#"// Each arc k (src[k] -> dst[k], value av[k]) to row src[k]'s segment, from off[src[k]] on (the
// place within the segment from an atomic cursor, zero at the start): key dst[k] << 32 | k
// (m < 2^32), so that a row sorted by key has its columns in order and repeated arcs in the
// order they are listed.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < m; k += sg_nthreads()) {
        sg_idx_t i = src[k];
        unsigned long long p = off[i] + atomicAdd(&cursor[i], 1u);
        tk[p] = ((unsigned long long)dst[k] << 32) | k;
        tv[p] = av[k];
    }
}
"#
        }
        Kernel::SortRowsBlock => {
            r#"// As [`Kernel::SortRows`] for the rows listed in `rows` (count[0] of them, at most
// SG_SORT_CAP values each), a block per row: a bitonic sort of the keyed values in shared memory, then the values of
// one column combined with add in key order (by the thread at the column's first value), the
// zeros dropped.
#define SG_SORT_CAP 2048
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ unsigned long long sk[SG_SORT_CAP];
    __shared__ sr_t sv[SG_SORT_CAP];
    unsigned long long nrows = count[0];
    for (unsigned long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        sg_idx_t i = rows[r];
        unsigned long long* k = tk + off[i];
        sr_t* v = tv + off[i];
        unsigned int n = len[i], p2 = 1;
        while (p2 < n) p2 <<= 1;
        for (unsigned int t = threadIdx.x; t < p2; t += blockDim.x) {
            if (t < n) { sk[t] = k[t]; sv[t] = v[t]; } else { sk[t] = 0xffffffffffffffffull; }
        }
        __syncthreads();
        sg_block_sort(sk, sv, p2);
        unsigned int w = sg_combine_runs(sk, sv, k, v, n);
        if (threadIdx.x == 0) cnt[i] = w;
        __syncthreads();
    }
}
"#
        }
        Kernel::SortRowsLong => {
            r#"// As [`Kernel::SortRows`] for the rows listed in `rows` (count[0] of them, more than
// SG_SORT_CAP values each: a transpose's long columns), a block per row sorting in place in
// global memory: a bitonic network whose merges start with a flip, so that every comparison
// puts the smaller key first and the positions past n act as +inf without being stored;
// then the runs combined as by [`Kernel::SortRowsBlock`].
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long nrows = count[0];
    for (unsigned long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        sg_idx_t i = rows[r];
        unsigned long long* k = tk + off[i];
        sr_t* v = tv + off[i];
        unsigned int n = len[i], p2 = 1;
        while (p2 < n) p2 <<= 1;
        for (unsigned int size = 2; size <= p2; size <<= 1) {
            for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
                for (unsigned int t = threadIdx.x; t < p2 / 2; t += blockDim.x) {
                    unsigned int lo = (t / stride) * 2 * stride + t % stride, hi = lo + stride;
                    // The first step of each merge compares mirror positions (the flip).
                    if (stride == size / 2) hi = (lo / size) * size + size - 1 - lo % size;
                    if (hi < n && k[hi] < k[lo]) {
                        unsigned long long a = k[lo]; k[lo] = k[hi]; k[hi] = a;
                        sr_t x = v[lo]; v[lo] = v[hi]; v[hi] = x;
                    }
                }
                __syncthreads();
            }
        }
        unsigned int w = sg_combine_runs(k, v, k, v, n);
        if (threadIdx.x == 0) cnt[i] = w;
        __syncthreads();
    }
}
"#
        }
        _ => return None,
    })
}
