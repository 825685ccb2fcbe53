//! Device helpers of the relaxation kernels (`codegen/queue.rs`): atomic improvement,
//! warp-aggregated appends, arc-balanced tiles of queue entries in shared memory, the work on
//! one arc, the phases of a step over the grid, and the grid-wide barrier.

/// Helpers of the relaxation kernels (after [`super::COMMON`]): the atomic improvement,
/// warp-aggregated appends, arc-balanced tiles of queue entries in shared memory, and the work
/// on one arc.
pub(super) const HELPERS: &str = r#"// The atomic unit holding *p (8 or 4 bytes, or the 4-byte word around a 1- or 2-byte value),
// read now.
__device__ __forceinline__ unsigned long long sg_unit_load(const sr_t* p) {
    if (sizeof(sr_t) == 8) return *(const volatile unsigned long long*)p;
    if (sizeof(sr_t) == 4) return *(const volatile unsigned int*)p;
    return *(const volatile unsigned int*)((unsigned long long)p & ~3ull);
}
// The value at p within the atomic unit u read from it by sg_unit_load.
__device__ __forceinline__ sr_t sg_unit_value(unsigned long long u, const sr_t* p) {
    if (sizeof(sr_t) == 8 || sizeof(sr_t) == 4) return sr_from_word((sr_word_t)u);
    unsigned int shift = (unsigned int)((unsigned long long)p & 3ull) * 8u;
    unsigned int mask = sizeof(sr_t) == 1 ? 0xffu : 0xffffu;
    return sr_from_word((sr_word_t)(((unsigned int)u >> shift) & mask));
}
// Atomically *p = add(*p, v) if v improves *p as it is at that instant, starting from the unit
// `old` read earlier; true if this call changed *p (a thread that read a stale value never
// reports a change).
__device__ __forceinline__ bool sr_atomic_improve_from(sr_t* p, sr_t v, unsigned long long old) {
    if (sizeof(sr_t) == 8) {
        unsigned long long* wp = (unsigned long long*)p;
        unsigned long long assumed;
        do {
            assumed = old;
            sr_t cur = sr_from_word((sr_word_t)assumed);
            if (!sr_improves(cur, v)) return false;
            old = atomicCAS(wp, assumed, (unsigned long long)sr_to_word(sr_add(cur, v)));
        } while (old != assumed);
        return true;
    } else if (sizeof(sr_t) == 4) {
        unsigned int* wp = (unsigned int*)p;
        unsigned int o = (unsigned int)old, assumed;
        do {
            assumed = o;
            sr_t cur = sr_from_word((sr_word_t)assumed);
            if (!sr_improves(cur, v)) return false;
            o = atomicCAS(wp, assumed, (unsigned int)sr_to_word(sr_add(cur, v)));
        } while (o != assumed);
        return true;
    } else {
        unsigned long long addr = (unsigned long long)p;
        unsigned int* wp = (unsigned int*)(addr & ~3ull);
        unsigned int shift = (unsigned int)(addr & 3ull) * 8u;
        unsigned int mask = sizeof(sr_t) == 1 ? 0xffu : 0xffffu;
        unsigned int o = (unsigned int)old, assumed;
        do {
            assumed = o;
            sr_t cur = sr_from_word((sr_word_t)((assumed >> shift) & mask));
            if (!sr_improves(cur, v)) return false;
            unsigned int nb = (unsigned int)sr_to_word(sr_add(cur, v)) & mask;
            o = atomicCAS(wp, assumed, (assumed & ~(mask << shift)) | (nb << shift));
        } while (o != assumed);
        return true;
    }
}
// A slot for each lane with `app`: one atomicAdd on *count per warp. Every lane of the warp
// calls it together (a mask of the lanes that happen to be converged, __activemask, is not
// enough: a lane left behind in a divergent loop would never reach the ballot). Lanes without
// `app` get an unspecified value.
__device__ __forceinline__ unsigned long long sg_append_slot(bool app, unsigned long long* count) {
    unsigned int b = __ballot_sync(SG_FULL, app);
    if (b == 0u) return 0ull;
    unsigned int lane = threadIdx.x & 31u;
    unsigned int leader = __ffs(b) - 1u;
    unsigned long long base = 0ull;
    if (lane == leader) base = atomicAdd(count, (unsigned long long)__popc(b));
    base = __shfl_sync(SG_FULL, base, leader);
    return base + (unsigned long long)__popc(b & ((1u << lane) - 1u));
}
// The value at p read through L2 (a volatile load of its own size): what other blocks of a
// cooperative launch wrote (an SM's L1 is not kept coherent with other SMs' writes).
__device__ __forceinline__ sr_t sg_ld_l2(const sr_t* p) {
    return sr_from_word(*(const volatile sr_word_t*)p);
}
// Appends a deferred entry (k, x) to the far queue unless k is there already.
__device__ __forceinline__ void sg_defer_entry(sg_idx_t k, sr_t x, sg_idx_t* fi, sr_t* fv,
                                               unsigned long long* fh, unsigned int* fmember,
                                               unsigned int fstamp) {
    if (atomicExch(&fmember[k], fstamp) != fstamp) {
        unsigned long long pos = atomicAdd(&fh[0], 1ull);
        fi[pos] = k;
        fv[pos] = x;
    }
}
// Tiles of up to SG_TILE queue entries (blockDim.x <= SG_TILE, a multiple of 32), entry e at
// thread e: row k, value x, the row's first arc, and the exclusive running arc count (off[cnt]
// = the tile's arcs).
#define SG_TILE 1024
#define SG_TILE_SHARED __shared__ sg_idx_t s_k[SG_TILE], s_start[SG_TILE]; \
    __shared__ unsigned int s_off[SG_TILE + 1], s_warp[32]; __shared__ sr_t s_x[SG_TILE]
// The running arc counts of a tile whose thread e holds entry e's `deg` (0 past cnt). Called by
// every thread of the block; ends with __syncthreads.
__device__ void sg_tile_scan(unsigned int deg, unsigned int cnt, unsigned int* s_off,
                             unsigned int* s_warp) {
    unsigned int tid = threadIdx.x, lane = tid & 31u, w = tid >> 5, nw = (blockDim.x + 31u) >> 5;
    unsigned int inc = deg;
    for (unsigned int o = 1; o < 32; o <<= 1) {
        unsigned int v = __shfl_up_sync(SG_FULL, inc, o);
        if (lane >= o) inc += v;
    }
    if (lane == 31) s_warp[w] = inc;
    __syncthreads();
    if (w == 0) {
        unsigned int v = lane < nw ? s_warp[lane] : 0u, vi = v;
        for (unsigned int o = 1; o < 32; o <<= 1) {
            unsigned int u = __shfl_up_sync(SG_FULL, vi, o);
            if (lane >= o) vi += u;
        }
        if (lane < nw) s_warp[lane] = vi - v;
    }
    __syncthreads();
    unsigned int excl = s_warp[w] + inc - deg;
    if (tid < cnt) s_off[tid] = excl;
    if (tid + 1 == cnt) s_off[cnt] = excl + deg;
    __syncthreads();
}
// Loads entries [base, base + cnt) of a queue (cnt <= blockDim.x) as a tile. With `defer`, an
// entry whose value is not below `bound` is deferred: it gets no arcs, and with defer == 2 it
// is appended to the far queue (fi, fv, length *fh), each vertex once (fmember == fstamp).
// Every thread calls it; ends with __syncthreads.
__device__ void sg_load_tile(const sg_idx_t* __restrict__ rp, const sg_idx_t* qi, const sr_t* qv,
                             unsigned long long base, unsigned int cnt, sg_idx_t* s_k, sr_t* s_x,
                             sg_idx_t* s_start, unsigned int* s_off, unsigned int* s_warp,
                             int defer, sr_t bound, sg_idx_t* fi, sr_t* fv, unsigned long long* fh,
                             unsigned int* fmember, unsigned int fstamp) {
    unsigned int tid = threadIdx.x, deg = 0;
    if (tid < cnt) {
        // Through L2: in a cooperative launch other blocks wrote the queue (an SM's L1 is not
        // kept coherent with their writes).
        sg_idx_t kk = *(const volatile sg_idx_t*)&qi[base + tid];
        sr_t x = sg_ld_l2(&qv[base + tid]);
        s_k[tid] = kk;
        s_x[tid] = x;
        if (defer && !(x < bound)) {
            s_start[tid] = 0;
            if (defer == 2) sg_defer_entry(kk, x, fi, fv, fh, fmember, fstamp);
        } else {
            sg_idx_t st = rp[kk];
            deg = rp[kk + 1] - st;
            s_start[tid] = st;
        }
    }
    sg_tile_scan(deg, cnt, s_off, s_warp);
}
// Parts per tile of a step over a queue of len entries (grid-stride over tiles of blockDim.x
// entries): when the queue has fewer tiles than the grid has blocks, each tile's arcs are
// shared by gridDim.x / tiles blocks.
__device__ __forceinline__ unsigned int sg_tile_parts(unsigned long long len) {
    unsigned long long tiles = (len + blockDim.x - 1) / blockDim.x;
    return tiles == 0 || tiles >= gridDim.x ? 1u : (unsigned int)(gridDim.x / tiles);
}
__device__ __forceinline__ unsigned long long sg_tile_items(unsigned long long len,
                                                            unsigned int parts) {
    return (len + blockDim.x - 1) / blockDim.x * parts;
}
// Work item w: loads its tile (cnt entries) and sets [lo, hi), the part's arcs of the tile
// (parts of at least blockDim.x arcs; empty for the parts a small tile does not need). Every
// thread calls it; ends with __syncthreads.
__device__ void sg_tile_work(const sg_idx_t* __restrict__ rp, const sg_idx_t* qi, const sr_t* qv,
                             unsigned long long len, unsigned long long w, unsigned int parts,
                             unsigned int* cnt, unsigned int* lo, unsigned int* hi, sg_idx_t* s_k,
                             sr_t* s_x, sg_idx_t* s_start, unsigned int* s_off,
                             unsigned int* s_warp, int defer, sr_t bound, sg_idx_t* fi, sr_t* fv,
                             unsigned long long* fh, unsigned int* fmember, unsigned int fstamp) {
    unsigned int nt = blockDim.x, part = (unsigned int)(w % parts);
    unsigned long long base = w / parts * nt;
    *cnt = (unsigned int)(len - base < nt ? len - base : nt);
    sg_load_tile(rp, qi, qv, base, *cnt, s_k, s_x, s_start, s_off, s_warp, defer, bound, fi, fv,
                 fh, fmember, fstamp);
    unsigned int arcs = s_off[*cnt];
    unsigned int chunk = (arcs + parts - 1) / parts;
    chunk = chunk < nt ? nt : chunk;
    unsigned long long l = (unsigned long long)part * chunk, h = l + chunk;
    *lo = (unsigned int)(l < arcs ? l : arcs);
    *hi = (unsigned int)(h < arcs ? h : arcs);
}
// The tile entry that holds arc g: the last e >= from with off[e] <= g (off[from] <= g).
__device__ __forceinline__ unsigned int sg_tile_entry(const unsigned int* off, unsigned int from,
                                                      unsigned int cnt, unsigned int g) {
    unsigned int lo = from, hi = cnt;
    while (hi - lo > 1) {
        unsigned int mid = (lo + hi) >> 1;
        if (off[mid] <= g) lo = mid; else hi = mid;
    }
    return lo;
}
// Arc g0 + lane of a tile (ok: it exists; then e is its entry, from e on, p its position in A
// and j its column). The loops over a tile's arcs step by whole warps (g0 is the same in every
// lane), so that every lane of a warp reaches the warp-wide appends of sg_relax_arc together.
#define SG_TILE_ARC(g0, arcs, cnt, e, ok, p, j) \
    unsigned int g_ = (g0) + (threadIdx.x & 31u); \
    bool ok = g_ < (arcs); \
    sg_idx_t p = 0, j = 0; \
    if (ok) { e = sg_tile_entry(s_off, e, (cnt), g_); p = s_start[e] + (g_ - s_off[e]); j = ci[p]; }
// Arc (k, j) at position p of A (values av) in a relaxation step from entry (k, x): if
// `allowed` (the arc exists and the mask allows j), a term t = mul(A(k, j), x, k) that (with
// only_new) goes to a j never reached (seen[j] empty) and is not the zero improves d[j] atomically; the thread whose update first
// changed d[j] in this step (member[j] != stamp) resets j's parent and appends j to the output
// (length *count). Returns j's slot, or ~0 if this thread did not append. Every lane of the
// warp calls it together (the appends are aggregated per warp).
__device__ __forceinline__ unsigned long long sg_relax_arc(bool allowed, sg_idx_t kk, sr_t x,
        sg_idx_t j, const sg_vals av, sg_idx_t p, sr_t* d, const unsigned int* seen,
        int only_new, unsigned int* member, unsigned int stamp, unsigned int* parents,
        int use_parents, sg_idx_t* ti, unsigned long long* count) {
    bool app = false;
    if (allowed) {
        // Both loads in flight together.
        unsigned int sn = only_new ? *(const volatile unsigned int*)&seen[j] : SG_SENTINEL;
        unsigned long long old = sg_unit_load(&d[j]);
        sr_t t = sr_mul(av[p], x, kk);
        if (sn == SG_SENTINEL && !sr_is_zero(t) && sr_improves(sg_unit_value(old, &d[j]), t)) {
            // A term that improves d[j] as read in this step means that d[j] improves in this
            // step: by this thread's update, or by the one that made it fail (the update fails
            // only once d[j] has changed since the read). So the first such thread appends j,
            // and its claim is issued beside the update instead of after it.
            app = atomicExch(&member[j], stamp) != stamp;
            sr_atomic_improve_from(&d[j], t, old);
        }
    }
    if (app && use_parents) parents[j] = SG_SENTINEL;
    unsigned long long pos = sg_append_slot(app, count);
    if (!app) return ~0ull;
    ti[pos] = j;
    return pos;
}
// Arc (k, j) of an improved j: k is a witness if its term equals the final d[j] bit for bit.
__device__ __forceinline__ void sg_witness_arc(sg_idx_t kk, sr_t x, sg_idx_t j, sr_t a,
                                               const sr_t* d, unsigned int* parents) {
    sr_t t = sr_mul(a, x, kk);
    if (!sr_is_zero(t) && sr_to_word(t) == sr_to_word(sg_ld_l2(&d[j])))
        atomicMin(&parents[j], (unsigned int)kk);
}
// Phase 1 of a step over the grid (QueueRelax's body, and each step's of QueueRelaxGrid): the
// len entries of the queue (qi, qv) relaxed along CSR A, arc-balanced: the queue is cut into
// tiles of blockDim.x entries and each tile's arcs into parts (as many as the grid has blocks
// per tile), a block takes (tile, part) items grid-stride and its threads share the part's
// arcs evenly, so one long row is spread over many blocks. Improved vertices go to ti (length
// *tcount). With use_defer, entries not below vb go to the far queue instead. Every thread of
// every block calls it; s_* are the kernel's tile arrays (SG_TILE_SHARED).
__device__ void sg_relax_phase(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sg_vals av, const sg_idx_t* qi, const sr_t* qv, unsigned long long len, sr_t* d,
        SG_MASK_PARAMS, const unsigned int* seen, int only_new, unsigned int* member,
        unsigned int stamp, unsigned int* parents, int use_parents, sg_idx_t* ti,
        unsigned long long* tcount, int use_defer, sr_t vb, sg_idx_t* fi, sr_t* fv,
        unsigned long long* fh, unsigned int* fmember, unsigned int fstamp, sg_idx_t* s_k,
        sr_t* s_x, sg_idx_t* s_start, unsigned int* s_off, unsigned int* s_warp) {
    unsigned int parts = sg_tile_parts(len);
    for (unsigned long long w = blockIdx.x; w < sg_tile_items(len, parts); w += gridDim.x) {
        unsigned int cnt, lo, hi, e = 0;
        sg_tile_work(rp, qi, qv, len, w, parts, &cnt, &lo, &hi, s_k, s_x, s_start, s_off, s_warp,
                     use_defer ? 2 : 0, vb, fi, fv, fh, fmember, fstamp);
        for (unsigned int g0 = lo + (threadIdx.x & ~31u); g0 < hi; g0 += blockDim.x) {
            SG_TILE_ARC(g0, hi, cnt, e, ok, p, j);
            sg_relax_arc(ok && SG_ALLOWS(j), s_k[e], s_x[e], j, av, p, d, seen, only_new, member,
                         stamp, parents, use_parents, ti, tcount);
        }
        __syncthreads();
    }
}
// Phase 2 over the grid (QueueWitness's body, and each step's of QueueRelaxGrid): for each
// vertex j improved in the step (member[j] == stamp, read through L2), the smallest frontier
// vertex k whose term equals the final d[j] bit for bit; work split as in phase 1 (deferred
// entries have no arcs: phase 1 appended them to the far queue).
__device__ void sg_witness_phase(const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci,
        const sg_vals av, const sg_idx_t* qi, const sr_t* qv, unsigned long long len,
        const sr_t* d, SG_MASK_PARAMS, const unsigned int* member, unsigned int stamp,
        unsigned int* parents, int use_defer, sr_t vb, sg_idx_t* s_k, sr_t* s_x,
        sg_idx_t* s_start, unsigned int* s_off, unsigned int* s_warp) {
    unsigned int parts = sg_tile_parts(len);
    for (unsigned long long w = blockIdx.x; w < sg_tile_items(len, parts); w += gridDim.x) {
        unsigned int cnt, lo, hi, e = 0;
        sg_tile_work(rp, qi, qv, len, w, parts, &cnt, &lo, &hi, s_k, s_x, s_start, s_off, s_warp,
                     use_defer ? 1 : 0, vb, nullptr, nullptr, nullptr, nullptr, 0u);
        for (unsigned int g0 = lo + (threadIdx.x & ~31u); g0 < hi; g0 += blockDim.x) {
            SG_TILE_ARC(g0, hi, cnt, e, ok, p, j);
            if (ok && *(const volatile unsigned int*)&member[j] == stamp && SG_ALLOWS(j))
                sg_witness_arc(s_k[e], s_x[e], j, av[p], d, parents);
        }
        __syncthreads();
    }
}
"#;

/// The grid-wide barrier of [`Kernel::QueueRelaxGrid`] (semiring-independent, after
/// [`super::COMMON`]).
///
/// [`Kernel::QueueRelaxGrid`]: super::Kernel::QueueRelaxGrid
pub(super) const GRID_SYNC: &str = r#"// A barrier of the whole grid (every block resident: a cooperative launch) on the count *bar
// (zero at launch); *phase is the calling thread's count of barriers passed times gridDim.x.
// Writes before it are visible after it to reads through L2 (volatile or atomic: an SM's L1
// is not kept coherent with other SMs' writes).
__device__ __forceinline__ void sg_grid_sync(unsigned long long* bar, unsigned long long* phase) {
    __syncthreads();
    if (threadIdx.x == 0) {
        *phase += gridDim.x;
        __threadfence();
        atomicAdd(bar, 1ull);
        while (*(volatile unsigned long long*)bar < *phase) {}
        __threadfence();
    }
    __syncthreads();
}
// The end of a launch that used sg_grid_sync on sync[0]: the last block to finish zeroes
// sync[0] and sync[1] for the next launch (stream order makes that one see zeros).
__device__ __forceinline__ void sg_grid_done(unsigned long long* sync) {
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&sync[1], 1ull) == gridDim.x - 1) { sync[0] = 0; sync[1] = 0; }
    }
}
"#;

/// Helpers of [`Kernel::QueueRelaxAsync`](super::Kernel::QueueRelaxAsync) (after [`HELPERS`]):
/// a warp shuffle of a semiring value, and the work on one arc with its append to the worklist.
pub(super) const ASYNC_HELPERS: &str = r#"// The value v of lane src, in every lane of the warp.
__device__ __forceinline__ sr_t sg_shfl_val(sr_t v, unsigned int src) {
    if (sizeof(sr_word_t) == 8) {
        unsigned long long w = (unsigned long long)sr_to_word(v);
        return sr_from_word((sr_word_t)__shfl_sync(SG_FULL, w, src));
    }
    unsigned int w = (unsigned int)sr_to_word(v);
    return sr_from_word((sr_word_t)__shfl_sync(SG_FULL, w, src));
}
// Arc p of A from entry (k, x) in QueueRelaxAsync (if ok): where the term improves d[j], the
// entry (j, term) is appended to the worklist, the work outstanding counted before the slot is
// taken; appends past `cap`, or work outstanding past `spill`, stop the run (ctr[3]). The swap
// first guesses that d[j] is the zero (a vertex not reached yet), so a first visit, or a
// visit that does not improve, is one atomic. Every lane of the warp calls it together.
__device__ __forceinline__ void sg_fix_arc(bool ok, sg_idx_t kk, sr_t x, unsigned long long p,
        const sg_idx_t* __restrict__ ci, const sg_vals av, sr_t* d, unsigned long long* wl,
        unsigned long long seeds, unsigned long long cap, unsigned long long spill,
        unsigned long long* ctr) {
    bool app = false;
    sg_idx_t j = 0;
    sr_t t = SR_ZERO;
    if (ok) {
        j = ci[p];
        t = sr_mul(av[p], x, kk);
        unsigned long long guess = sizeof(sr_t) >= 4 ? (unsigned long long)sr_to_word(SR_ZERO)
                                                     : sg_unit_load(&d[j]);
        app = !sr_is_zero(t) && sr_atomic_improve_from(&d[j], t, guess);
    }
    unsigned int b = __ballot_sync(SG_FULL, app);
    if (b == 0u) return;
    unsigned int lane = threadIdx.x & 31u, leader = __ffs(b) - 1u;
    unsigned long long pos = 0;
    if (lane == leader) {
        unsigned long long c = (unsigned long long)__popc(b);
        unsigned long long work = seeds + atomicAdd(&ctr[2], c) + c;
        pos = atomicAdd(&ctr[1], c);
        if (pos + c > cap || work > spill) ctr[3] = 1ull;
    }
    pos = __shfl_sync(SG_FULL, pos, leader) + (unsigned long long)__popc(b & ((1u << lane) - 1u));
    if (app && pos < cap)
        *(volatile unsigned long long*)&wl[pos] =
            ((unsigned long long)sr_to_word(t) << 32) | (unsigned long long)(j + 1u);
}
"#;
