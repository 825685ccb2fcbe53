//! Kernel templates of operators of one's own ([`semigraph_semiring::ops`]) and of the
//! matrix-level operations: `apply`, element-wise union/intersection and scatter with an
//! operator on dense arrays, gather by an index array, and, over the rows of a CSR matrix,
//! copy (row extraction), map (`apply`), select, merge (element-wise), reduce and densify.
//!
//! The operator's prelude ([`CudaOp::prelude_after`](semigraph_semiring::ops::CudaOp)) defines
//! `sg_apply`, `sg_op2`, `sg_op2_union`, `sg_atomic_op2` or `sg_keep`. The row kernels write
//! each output row to its segment (`off`) as keys `column << 32` and values, with `cnt` entries,
//! for the gather phase shared with the sparse products.

use super::Kernel;

/// The loop of the row kernels that read one row of `A` per output row: `SG_MAP(v)` and
/// `SG_KEEP(v, i, j)` are defined before it by each kernel.
macro_rules! rows_loop {
    () => {
        r#"// Output row k from row r = (use_src ? src[k] : k) of A: each entry v != zero at (r, j)
// with SG_KEEP(v, r, j), as SG_MAP(v) when that is not the zero; written from off[k] on,
// cnt[k] of them. A warp per row, its lanes on consecutive entries, the kept ones compacted
// in column order by a ballot.
extern "C" __global__ void KERNEL(PARAMS) {
    sr_t s = sr_from_bits(sbits);
    (void)s;
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long k = sg_gid() >> 5; k < nrows; k += nwarps) {
        sg_idx_t r = use_src ? src[k] : (sg_idx_t)k;
        unsigned long long p = off[k];
        sg_idx_t e1 = rp[r + 1];
        for (sg_idx_t e0 = rp[r]; e0 < e1; e0 += 32) {
            sg_idx_t e = e0 + lane, j = 0;
            sr_t v = SR_ZERO;
            bool has = false;
            if (e < e1) {
                v = av[e];
                j = ci[e];
                if (!sr_is_zero(v) && (SG_KEEP(v, r, j))) {
                    v = SG_MAP(v);
                    has = !sr_is_zero(v);
                }
            }
            unsigned int bal = __ballot_sync(SG_FULL, has);
            if (has) {
                unsigned long long at = p + __popc(bal & ((1u << lane) - 1u));
                tk[at] = (unsigned long long)j << 32;
                tv[at] = v;
            }
            p += __popc(bal);
        }
        if (lane == 0) cnt[k] = (unsigned int)(p - off[k]);
    }
}
"#
    };
}

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list (declared in [`crate::params`]).
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::ApplyOp => {
            r#"// y(i) = sg_apply(y(i), s, side) at the entries of y the mask allows.
extern "C" __global__ void KERNEL(PARAMS) {
    sr_t s = sr_from_bits(sbits);
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        if (!sr_is_zero(y[i]) && SG_ALLOWS(i)) y[i] = sg_apply(y[i], s, side);
    }
}
"#
        }
        Kernel::EwiseOp => {
            r#"// y(i) = the union (how 0) or intersection (how 1) of y(i) and x(i) under sg_op2, where
// the mask allows.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        if (!SG_ALLOWS(i)) continue;
        sr_t a = y[i], b = x[i];
        if (how == 0) y[i] = sg_op2_union(a, b);
        else y[i] = (sr_is_zero(a) || sr_is_zero(b)) ? SR_ZERO : sg_op2(a, b);
    }
}
"#
        }
        Kernel::ScatterOp => {
            r#"// w(idx(k)) = sg_op2_union(w(idx(k)), u(k)) for each entry u(k) whose index lies in w,
// atomically.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < n; k += sg_nthreads()) {
        sr_t v = u[k];
        unsigned long long i = idx[k];
        if (!sr_is_zero(v) && i < wlen) sg_atomic_op2(&w[i], v);
    }
}
"#
        }
        Kernel::Gather => {
            r#"// w(k) = u(idx(k)), the zero for an index past the end of u.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < n; k += sg_nthreads()) {
        unsigned long long i = idx[k];
        w[k] = i < ulen ? u[i] : SR_ZERO;
    }
}
"#
        }
        Kernel::RowsCopy => concat!(
            "#define SG_KEEP(v, i, j) true\n#define SG_MAP(v) (v)\n",
            rows_loop!()
        ),
        Kernel::RowsMap => concat!(
            "#define SG_KEEP(v, i, j) true\n#define SG_MAP(v) sg_apply(v, s, side)\n",
            rows_loop!()
        ),
        Kernel::RowsSelect => concat!(
            "#define SG_KEEP(v, i, j) sg_keep(v, (unsigned long long)(i), (unsigned long long)(j), s)\n\
             #define SG_MAP(v) (v)\n",
            rows_loop!()
        ),
        Kernel::RowsMerge => {
            r#"// Row i of A .op. B: the union (how 0) or intersection (how 1) of the entries of the two
// sorted rows, sg_op2 where both have one, results that are the zero dropped; written from
// off[i] on, cnt[i] of them.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long i = sg_gid(); i < nrows; i += sg_nthreads()) {
        unsigned long long p = off[i];
        sg_idx_t x = arp[i], x1 = arp[i + 1], y = brp[i], y1 = brp[i + 1];
        while (x < x1 || y < y1) {
            sg_idx_t ja = x < x1 ? aci[x] : 0xffffffffu, jb = y < y1 ? bci[y] : 0xffffffffu;
            sr_t a = SR_ZERO, b = SR_ZERO;
            sg_idx_t j;
            if (x < x1 && (y >= y1 || ja <= jb)) { a = av[x]; j = ja; ++x; }
            else j = jb;
            if (y < y1 && bci[y] == j) { b = bv[y]; ++y; }
            sr_t v;
            if (how == 0) v = sg_op2_union(a, b);
            else v = (sr_is_zero(a) || sr_is_zero(b)) ? SR_ZERO : sg_op2(a, b);
            if (sr_is_zero(v)) continue;
            tk[p] = (unsigned long long)j << 32;
            tv[p] = v;
            ++p;
        }
        cnt[i] = (unsigned int)(p - off[i]);
    }
}
"#
        }
        Kernel::RowReduce => {
            r#"// y(i) = add over row i of A; a warp per row, its lanes on every 32nd entry, then
// combined by shuffles.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        sr_t acc = SR_ZERO;
        for (sg_idx_t e = rp[i] + lane; e < rp[i + 1]; e += 32) acc = sr_add(acc, av[e]);
        for (unsigned int o = 16; o > 0; o >>= 1) acc = sr_add(acc, sr_shfl_down(acc, o, 32));
        if (lane == 0) y[i] = acc;
    }
}
"#
        }
        Kernel::RowArg => {
            r#"// y(i) = the column of row i's best entry: the first, in column order, that no later
// entry improves (sr_improves); 0xffffffff for a row with no entry. A warp per row: each
// lane the best of every 32nd entry, then the lanes' bests combined by shuffles (the
// better, or of two that neither improves the smaller column).
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned int lane = threadIdx.x & 31u;
    unsigned long long nwarps = sg_nthreads() >> 5;
    for (unsigned long long i = sg_gid() >> 5; i < nrows; i += nwarps) {
        unsigned int arg = 0xffffffffu;
        sr_t best = SR_ZERO;
        for (sg_idx_t e = rp[i] + lane; e < rp[i + 1]; e += 32) {
            sr_t v = av[e];
            if (sr_is_zero(v)) continue;
            if (arg == 0xffffffffu || sr_improves(best, v)) { best = v; arg = ci[e]; }
        }
        for (unsigned int o = 16; o > 0; o >>= 1) {
            sr_t ob = sr_shfl_down(best, o, 32);
            unsigned int oa = __shfl_down_sync(SG_FULL, arg, o, 32);
            if (oa != 0xffffffffu && (arg == 0xffffffffu || sr_improves(best, ob)
                    || (!sr_improves(ob, best) && oa < arg))) {
                best = ob;
                arg = oa;
            }
        }
        if (lane == 0) y[i] = arg;
    }
}
"#
        }
        Kernel::IndexFill => {
            r#"// Row k of an index matrix: `one` at column idx[k] (at rp[k]) where idx[k] < ncols.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long k = sg_gid(); k < n; k += sg_nthreads()) {
        unsigned int j = idx[k];
        if (j < ncols) { ci[rp[k]] = j; vals[rp[k]] = SR_ONE; }
    }
}
"#
        }
        Kernel::RowsToDense => {
            r#"// y(i, j) = A(i, j) for each stored entry (y starts as the zero), row-major.
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long i = sg_gid(); i < nrows; i += sg_nthreads()) {
        for (sg_idx_t e = rp[i]; e < rp[i + 1]; ++e) y[i * ncols + ci[e]] = av[e];
    }
}
"#
        }
        _ => return None,
    })
}
