//! Kernel templates of sparse x sparse products (Gustavson's rows: each row's terms bounded,
//! expanded, then sorted by column and combined in the order of `k` by [`super::sparse`]'s
//! phases, or accumulated densely for long rows), masked products by dot products, and sampled
//! dense-dense products. Their helpers are [`super::sparse::HELPERS`].

use super::Kernel;

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list (declared in [`crate::params`]).
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::SpgemmBound => {
            r#"// ub[i] = the number of terms of row i of A (+).(x) B: the lengths of the rows of B
// that row i of A names. A warp per row, its lanes on the row's entries (a hub's row is not
// left to one thread).
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        unsigned long long s = 0;
        for (sg_idx_t e = arp[i] + lane; e < arp[i + 1]; e += 32) {
            sg_idx_t k = aci[e];
            s += (unsigned long long)(brp[k + 1] - brp[k]);
        }
        for (unsigned int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(SG_FULL, s, o);
        if (lane == 0) ub[i] = s;
    }
}
"#
        }
        Kernel::SpgemmExpand => {
            r#"// Row i's terms mul(A(i, k), B(k, j), k) where the mask allows (i, j), written from off[i]
// on as keys (j << 32 | position) and values, in the order of k; used[i] = their number.
// mmode 0: no mask; 1: only where the mask has an entry; 2: only where it has none (an entry
// is a stored value that is not the zero).
// Rows with more than `long_min` terms (ub) are left to [`Kernel::SpgemmLong`]: used[i] = 0.
// A warp per row, taking the row's entries 32 at a time: where the rows of B they name hold
// at most SG_NARROW entries each, a lane per entry of A walks its row of B (the lanes' places
// from a warp prefix sum of their counts, so the order is still that of k); otherwise the
// lanes take consecutive entries of each row of B in turn, so the writes of one row of B are
// contiguous.
#define SG_NARROW 8
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        if (ub[i] > long_min) {
            if (lane == 0) used[i] = 0;
            continue;
        }
        unsigned long long base = off[i], p = base;
        sg_idx_t m0 = mmode != 0 ? mrp[i] : 0, m1 = mmode != 0 ? mrp[i + 1] : 0;
        sg_idx_t a1 = arp[i + 1];
        for (sg_idx_t e0 = arp[i]; e0 < a1; e0 += 32) {
            sg_idx_t e = e0 + lane, k = 0, q0 = 0, q1 = 0;
            if (e < a1) { k = aci[e]; q0 = brp[k]; q1 = brp[k + 1]; }
            unsigned int widest = (unsigned int)(q1 - q0);
            for (unsigned int o = 16; o > 0; o >>= 1) {
                widest = max(widest, __shfl_xor_sync(SG_FULL, widest, o));
            }
            if (widest <= SG_NARROW) {
                unsigned int c = 0;
                for (sg_idx_t q = q0; q < q1; ++q) {
                    if (mmode == 0 || (mmode == 1) == sg_row_has(mci, mv, m0, m1, bci[q])) ++c;
                }
                unsigned int incl = c;
                for (unsigned int o = 1; o < 32; o <<= 1) {
                    unsigned int y = __shfl_up_sync(SG_FULL, incl, o);
                    if (lane >= o) incl += y;
                }
                unsigned long long at = p + incl - c;
                if (c != 0) {
                    sr_t a = av[e];
                    for (sg_idx_t q = q0; q < q1; ++q) {
                        sg_idx_t j = bci[q];
                        if (mmode != 0 && (mmode == 1) != sg_row_has(mci, mv, m0, m1, j)) continue;
                        tk[at] = ((unsigned long long)j << 32) | (at - base);
                        tv[at] = sr_mul(a, bv[q], (unsigned long long)k);
                        ++at;
                    }
                }
                p += __shfl_sync(SG_FULL, incl, 31);
                continue;
            }
            sg_idx_t e1 = min(a1, e0 + 32);
            for (sg_idx_t f = e0; f < e1; ++f) {
                sg_idx_t kf = aci[f];
                sr_t a = av[f];
                sg_idx_t r1 = brp[kf + 1];
                for (sg_idx_t r0 = brp[kf]; r0 < r1; r0 += 32) {
                    sg_idx_t q = r0 + lane, j = 0;
                    bool ok = q < r1;
                    if (ok) {
                        j = bci[q];
                        if (mmode != 0 && (mmode == 1) != sg_row_has(mci, mv, m0, m1, j)) ok = false;
                    }
                    unsigned int bal = __ballot_sync(SG_FULL, ok);
                    if (ok) {
                        unsigned long long at = p + __popc(bal & ((1u << lane) - 1u));
                        tk[at] = ((unsigned long long)j << 32) | (at - base);
                        tv[at] = sr_mul(a, bv[q], (unsigned long long)kf);
                    }
                    p += __popc(bal);
                }
            }
        }
        if (lane == 0) used[i] = (unsigned int)(p - base);
    }
}
"#
        }
        Kernel::SpgemmDot => {
            r#"// A masked product by dot products: for each entry p of the mask (its row i found in mrp),
// C(i, j) = the terms mul(A(i, k), B(k, j), k) over the k in both row i of A and row j of
// B^T, combined in increasing k (the shorter row walked, the longer searched): tv[p], the
// zero where the mask's value is the zero or no k meets.
// A warp takes 32 consecutive entries, a lane each; an entry whose shorter row holds more
// than SG_DOT_WARP entries is taken by the whole warp instead, after the others (its lanes
// search 32 of the shorter row's entries at a time, and the terms found are combined in lane
// order, which is the order of k): a hub's intersections do not hold up a warp.
#define SG_DOT_WARP 128
__device__ __forceinline__ sr_t sg_dot_shfl(sr_t v, unsigned int from) {
    return sr_from_word((sr_word_t)__shfl_sync(SG_FULL, (unsigned long long)sr_to_word(v), from));
}
// The term of a meeting k: at place w of the walked row and s of the searched one (the walked
// row A's where a_walks, else B^T's), multiplied in the order A, B.
__device__ __forceinline__ sr_t sg_dot_term(const sg_vals av, const sg_vals btv, bool a_walks,
        sg_idx_t w, sg_idx_t s, sg_idx_t k) {
    return a_walks ? sr_mul(av[w], btv[s], (unsigned long long)k)
                   : sr_mul(av[s], btv[w], (unsigned long long)k);
}
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long p0 = (sg_gid() >> 5) * 32; p0 < mnnz; p0 += nwarps * 32) {
        unsigned long long p = p0 + lane;
        sg_idx_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;
        if (p < mnnz && !sr_is_zero(mv[p])) {
            sg_idx_t i = (sg_idx_t)sg_row_of(mrp, nrows, p), j = mci[p];
            a0 = arp[i]; a1 = arp[i + 1]; b0 = btrp[j]; b1 = btrp[j + 1];
        }
        bool coop = min(a1 - a0, b1 - b0) > SG_DOT_WARP;
        sr_t acc = SR_ZERO;
        bool any = false;
        if (!coop) {
            // The shorter row walked, the longer searched from the last place found.
            bool a_walks = a1 - a0 <= b1 - b0;
            const sg_idx_t* wci = a_walks ? aci : btci;
            const sg_idx_t* sci = a_walks ? btci : aci;
            sg_idx_t w1 = a_walks ? a1 : b1, from = a_walks ? b0 : a0, s1 = a_walks ? b1 : a1;
            for (sg_idx_t e = a_walks ? a0 : b0; e < w1; ++e) {
                sg_idx_t k = wci[e], l = sg_lower_bound(sci, from, s1, k);
                from = l;
                if (l < s1 && sci[l] == k) {
                    sr_t t = sg_dot_term(av, btv, a_walks, e, l, k);
                    acc = any ? sr_add(acc, t) : t;
                    any = true;
                }
            }
        }
        unsigned int big = __ballot_sync(SG_FULL, coop);
        while (big != 0) {
            unsigned int owner = __ffs(big) - 1;
            big &= big - 1;
            sg_idx_t xa0 = __shfl_sync(SG_FULL, a0, owner), xa1 = __shfl_sync(SG_FULL, a1, owner);
            sg_idx_t xb0 = __shfl_sync(SG_FULL, b0, owner), xb1 = __shfl_sync(SG_FULL, b1, owner);
            bool a_walks = xa1 - xa0 <= xb1 - xb0;
            const sg_idx_t* wci = a_walks ? aci : btci;
            const sg_idx_t* sci = a_walks ? btci : aci;
            sg_idx_t w0 = a_walks ? xa0 : xb0, w1 = a_walks ? xa1 : xb1;
            sg_idx_t s0 = a_walks ? xb0 : xa0, s1 = a_walks ? xb1 : xa1;
            sr_t wacc = SR_ZERO;
            bool wany = false;
            for (sg_idx_t e0 = w0; e0 < w1; e0 += 32) {
                sg_idx_t e = e0 + lane;
                bool hit = false;
                sr_t t = SR_ZERO;
                if (e < w1) {
                    sg_idx_t k = wci[e], l = sg_lower_bound(sci, s0, s1, k);
                    if (l < s1 && sci[l] == k) { t = sg_dot_term(av, btv, a_walks, e, l, k); hit = true; }
                }
                unsigned int hits = __ballot_sync(SG_FULL, hit);
                while (hits != 0) {
                    unsigned int h = __ffs(hits) - 1;
                    hits &= hits - 1;
                    sr_t v = sg_dot_shfl(t, h);
                    wacc = wany ? sr_add(wacc, v) : v;
                    wany = true;
                }
            }
            if (lane == owner) acc = wacc;
        }
        if (p < mnnz) tv[p] = acc;
    }
}
"#
        }
        Kernel::Sddmm => {
            r#"// A sampled dense-dense product: for each entry p of the mask (its row i found in mrp),
// C(i, j) = the terms mul(X(i, t), Y(j, t), t) over the k columns of X (nrows x k) and Y
// (row-major), combined in increasing t: tv[p], the zero where the mask's value is the zero.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long p = sg_gid(); p < mnnz; p += sg_nthreads()) {
        const sr_t* xi = x + sg_row_of(mrp, nrows, p) * k;
        const sr_t* yj = y + (unsigned long long)mci[p] * k;
        sr_t acc = SR_ZERO;
        if (!sr_is_zero(mv[p])) {
            for (unsigned int t = 0; t < k; ++t) acc = sr_add(acc, sr_mul(xi[t], yj[t], t));
        }
        tv[p] = acc;
    }
}
"#
        }
        Kernel::SpgemmLong => {
            r#"// The rows of a product listed in `rows` (the long ones), a block per row with a dense
// accumulator of `ncols` values and flags per block (flags zero between rows). Row i of A is
// taken in chunks of SG_CHUNK entries, whose k, A(i, k) and row bounds of B are read into
// shared memory at once; every warp then walks the chunk's k in increasing order, its lanes
// on the entries of row k of B, and keeps the terms of its own columns (j % warps = warp):
// no two threads meet on a column, each column's terms are combined in increasing k (as
// everywhere else), the first stored as it is, and the warps need no barrier between k's.
// A row of B of SG_WIDE entries or more is taken by the whole block instead (its columns
// are distinct), between barriers.
// A chunk whose rows of B hold at most SG_TERMS terms in all (rows of B of a few entries,
// such as a label or assignment matrix's one) is taken at once instead: each thread writes
// the terms of its entries of A to shared memory, keyed by column and place in the chunk,
// the block sorts them, and the first thread of each column's run adds the run to the
// accumulator in order (its columns distinct from the other threads').
// The touched columns are listed (up to SG_LIST_CAP, sorted
// in shared memory) or, past that, found by a scan of all columns; the results that are not
// the zero go to the row's segment in column order, cnt[i] of them.
#define SG_LIST_CAP 4096
#define SG_CHUNK 256
#define SG_WIDE 128
#define SG_TERMS 512
extern "C" __global__ void KERNEL(PARAMS) {
    __shared__ unsigned int list[SG_LIST_CAP];
    __shared__ unsigned int nlist, base, nterms;
    __shared__ sg_idx_t ck[SG_CHUNK], cb0[SG_CHUNK], cb1[SG_CHUNK];
    __shared__ sr_t ca[SG_CHUNK];
    __shared__ unsigned int cst[SG_CHUNK];
    __shared__ unsigned long long tkey[SG_TERMS];
    __shared__ sr_t tval[SG_TERMS];
    __shared__ unsigned int warp_sums[32];
    sr_t* acc = accs + (unsigned long long)blockIdx.x * ncols;
    unsigned char* f = flags + (unsigned long long)blockIdx.x * ncols;
    unsigned int lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (unsigned long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        sg_idx_t i = rows[r];
        sg_idx_t m0 = mmode != 0 ? mrp[i] : 0, m1 = mmode != 0 ? mrp[i + 1] : 0;
        if (threadIdx.x == 0) { nlist = 0; base = 0; }
        __syncthreads();
        // Term mul(A(i, k), B(k, j)) into the accumulator, where the mask allows column j.
        auto sg_long_term = [&](sg_idx_t k, sr_t a, sr_t b, sg_idx_t j) {
            if (mmode != 0 && (mmode == 1) != sg_row_has(mci, mv, m0, m1, j)) return;
            sr_t t = sr_mul(a, b, (unsigned long long)k);
            if (f[j]) {
                acc[j] = sr_add(acc[j], t);
            } else {
                acc[j] = t;
                f[j] = 1;
                unsigned int s = atomicAdd(&nlist, 1u);
                if (s < SG_LIST_CAP) list[s] = j;
            }
        };
        for (sg_idx_t e0 = arp[i]; e0 < arp[i + 1]; e0 += SG_CHUNK) {
            unsigned int len = min((unsigned int)(arp[i + 1] - e0), (unsigned int)SG_CHUNK);
            for (unsigned int t = threadIdx.x; t < len; t += blockDim.x) {
                sg_idx_t k = aci[e0 + t];
                ck[t] = k;
                ca[t] = av[e0 + t];
                cb0[t] = brp[k];
                cb1[t] = brp[k + 1];
                cst[t] = (unsigned int)min((unsigned long long)(cb1[t] - cb0[t]),
                                           (unsigned long long)SG_TERMS + 1);
            }
            __syncthreads();
            // Each entry's first place among the chunk's terms (a scan by the first warp).
            if (wid == 0) {
                const unsigned int per = SG_CHUNK / 32;
                unsigned int own = 0;
                for (unsigned int u = 0; u < per; ++u) {
                    if (lane * per + u < len) own += cst[lane * per + u];
                }
                unsigned int incl = own;
                for (unsigned int o = 1; o < 32; o <<= 1) {
                    unsigned int y = __shfl_up_sync(SG_FULL, incl, o);
                    if (lane >= o) incl += y;
                }
                unsigned int run = incl - own;
                for (unsigned int u = 0; u < per; ++u) {
                    unsigned int x = lane * per + u;
                    if (x < len) { unsigned int c = cst[x]; cst[x] = run; run += c; }
                }
                if (lane == 31) nterms = incl;
            }
            __syncthreads();
            unsigned int nt = nterms;
            if (nt <= SG_TERMS) {
                for (unsigned int t = threadIdx.x; t < len; t += blockDim.x) {
                    unsigned int at = cst[t];
                    for (sg_idx_t q = cb0[t]; q < cb1[t]; ++q, ++at) {
                        sg_idx_t j = bci[q];
                        bool ok = mmode == 0 || (mmode == 1) == sg_row_has(mci, mv, m0, m1, j);
                        tkey[at] = ok ? (((unsigned long long)j << 32) | at) : ~0ull;
                        if (ok) tval[at] = sr_mul(ca[t], bv[q], (unsigned long long)ck[t]);
                    }
                }
                unsigned int p2 = 1;
                while (p2 < nt) p2 <<= 1;
                for (unsigned int t = nt + threadIdx.x; t < p2; t += blockDim.x) tkey[t] = ~0ull;
                __syncthreads();
                sg_block_sort(tkey, tval, p2);
                for (unsigned int t = threadIdx.x; t < nt; t += blockDim.x) {
                    unsigned long long key = tkey[t];
                    if (key == ~0ull) continue;
                    sg_idx_t j = (sg_idx_t)(key >> 32);
                    if (t > 0 && (tkey[t - 1] >> 32) == (key >> 32)) continue;
                    bool had = f[j] != 0;
                    sr_t v = had ? sr_add(acc[j], tval[t]) : tval[t];
                    for (unsigned int q = t + 1; q < nt && tkey[q] != ~0ull
                            && (tkey[q] >> 32) == (key >> 32); ++q) {
                        v = sr_add(v, tval[q]);
                    }
                    acc[j] = v;
                    if (!had) {
                        f[j] = 1;
                        unsigned int s = atomicAdd(&nlist, 1u);
                        if (s < SG_LIST_CAP) list[s] = j;
                    }
                }
                __syncthreads();
                continue;
            }
            for (unsigned int c = 0; c < len;) {
                // A run of narrow rows of B by the warps, each on its own columns...
                unsigned int d = c;
                while (d < len && cb1[d] - cb0[d] < SG_WIDE) ++d;
                for (; c < d; ++c) {
                    for (sg_idx_t q = cb0[c] + lane; q < cb1[c]; q += 32) {
                        sg_idx_t j = bci[q];
                        if (j % nw == wid) sg_long_term(ck[c], ca[c], bv[q], j);
                    }
                }
                // ...then a wide one by the whole block, between barriers.
                if (c < len) {
                    __syncthreads();
                    for (sg_idx_t q = cb0[c] + threadIdx.x; q < cb1[c]; q += blockDim.x) {
                        sg_long_term(ck[c], ca[c], bv[q], bci[q]);
                    }
                    __syncthreads();
                    ++c;
                }
            }
            __syncthreads();
        }
        unsigned int d = nlist;
        bool listed = d <= SG_LIST_CAP;
        if (listed) {
            unsigned int p2 = 1;
            while (p2 < d) p2 <<= 1;
            for (unsigned int t = d + threadIdx.x; t < p2; t += blockDim.x) list[t] = 0xffffffffu;
            __syncthreads();
            for (unsigned int size = 2; size <= p2; size <<= 1) {
                for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
                    for (unsigned int t = threadIdx.x; t < p2; t += blockDim.x) {
                        unsigned int u = t ^ stride;
                        if (u > t) {
                            unsigned int x = list[t], y = list[u];
                            if ((x > y) == ((t & size) == 0)) { list[t] = y; list[u] = x; }
                        }
                    }
                    __syncthreads();
                }
            }
        }
        unsigned long long limit = listed ? d : ncols, p0 = off[i];
        for (unsigned long long c0 = 0; c0 < limit; c0 += blockDim.x) {
            unsigned long long x = c0 + threadIdx.x;
            bool has = false;
            sr_t v = SR_ZERO;
            unsigned long long c = 0;
            if (x < limit) {
                c = listed ? list[x] : x;
                if (f[c]) { v = acc[c]; f[c] = 0; has = !sr_is_zero(v); }
            }
            unsigned int total, before = sg_block_rank(has, warp_sums, total);
            if (has) { tk[p0 + base + before] = c << 32; tv[p0 + base + before] = v; }
            __syncthreads();
            if (threadIdx.x == 0) base += total;
            __syncthreads();
        }
        if (threadIdx.x == 0) cnt[i] = base;
        __syncthreads();
    }
}
"#
        }
        _ => return None,
    })
}
