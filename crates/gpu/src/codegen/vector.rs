//! Kernel templates over dense and sparse vectors: element-wise operations, scatter,
//! reductions, compaction, improvement and witnesses, scan, recoding.

use super::Kernel;

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list where [`crate::params`] declares one.
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::Ewise => {
            r#"// y<mask> = op(y, x): op 0 replace (y = x), 1 add, 2 mul (index 0).
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
        Kernel::FastCheck => {
            r#"// bad[0] = 1 if a value of x[0..n) lies outside the domain of the semiring's fast
// multiply-add (sr_fast_ok); bad[1] = 1 if one lies outside its packed 16-bit domain
// (sr_packed_ok; always, for a semiring without a packed form). Both are zeroed before.
extern "C" __global__ void KERNEL(PARAMS) {
    bool ok = true, pk = true;
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        sr_t v = x[i];
        ok = ok && sr_fast_ok(v);
#ifdef SR_HAS_PACKED16
        pk = pk && sr_packed_ok(v);
#else
        pk = false;
#endif
    }
    if (__any_sync(SG_FULL, !ok) && (threadIdx.x & 31) == 0) bad[0] = 1u;
    if (__any_sync(SG_FULL, !pk) && (threadIdx.x & 31) == 0) bad[1] = 1u;
}
"#
        }
        Kernel::Count => {
            r#"// out[0] += number of entries (values that are not SR_ZERO) of x.
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
extern "C" __global__ void KERNEL(PARAMS) {
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
            r#"// For each entry (xi[e], xv[e]) of a sparse x, a group of `lanes` threads (a power of two up
// to a warp) walks row k = xi[e] of A: where target[j] is set and the term mul(A(k, j), x(k),
// k) is not the zero and equals d[j] bit for bit, p[j] = min(p[j], k). p[j] was reset to the
// largest index for every target j.
extern "C" __global__ void KERNEL(PARAMS) {
    const unsigned long long t = sg_gid();
    const unsigned long long e = t / lanes;
    const unsigned int lane = (unsigned int)(t & (lanes - 1u));
    if (e >= nx) return;
    sg_idx_t kk = xi[e];
    sr_t v = xv[e];
    sg_idx_t end = rp[kk + 1];
    for (sg_idx_t q = rp[kk] + lane; q < end; q += lanes) {
        sg_idx_t j = ci[q];
        if (!target[j]) continue;
        sr_t r = sr_mul(av[q], v, kk);
        if (!sr_is_zero(r) && sr_to_word(r) == sr_to_word(d[j])) atomicMin(&p[j], (unsigned int)kk);
    }
}
"#
        }
        Kernel::Scan => {
            r#"// In place exclusive scan of counts[0..nb); counts[nb] = the total. One block of 1024 threads.
extern "C" __global__ void KERNEL(PARAMS) {
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
        Kernel::Recode => {
            r#"// y[i] (ysize bytes) = yzero where x[i] (xsize bytes) is the bits xzero, else x[i] (keep,
// equal sizes) or yone: values of one semiring recoded for another (a view or a pattern).
__device__ __forceinline__ unsigned long long sg_load_bits(const unsigned char* p, int size,
                                                           unsigned long long i) {
    if (size == 1) return p[i];
    if (size == 2) return ((const unsigned short*)p)[i];
    if (size == 4) return ((const unsigned int*)p)[i];
    return ((const unsigned long long*)p)[i];
}
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long w = sg_load_bits(x, xsize, i);
        unsigned long long v = w == xzero ? yzero : (keep ? w : yone);
        if (ysize == 1) y[i] = (unsigned char)v;
        else if (ysize == 2) ((unsigned short*)y)[i] = (unsigned short)v;
        else if (ysize == 4) ((unsigned int*)y)[i] = (unsigned int)v;
        else ((unsigned long long*)y)[i] = v;
    }
}
"#
        }
        _ => return None,
    })
}
