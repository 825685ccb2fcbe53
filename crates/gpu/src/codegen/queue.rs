//! Kernel templates over work queues (see `crate::backend::queue`).

use super::Kernel;

/// The template of `kernel` if it is one of this file's; `KERNEL` stands for its name,
/// `PARAMS` for its parameter list where [`crate::params`] declares one.
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::QueueRelax => {
            r#"// Phase 1 of a relaxation step from the queue (qi, qv; length qh[0]) along CSR A
// (sg_relax_phase): improved vertices to the output queue (ti, th), deferred entries (with
// use_defer) to the far queue.
extern "C" __global__ void KERNEL(PARAMS) {
    SG_TILE_SHARED;
    unsigned long long len = qh[0];
    if (sg_gid() == 0) { th[1] = qh[1] + (len > 0 ? 1ull : 0ull); th[2] = qh[2] + len; th[3] = 0; }
    sg_relax_phase(rp, ci, av, qi, qv, len, d, m, mmode, msize, mzero, seen, only_new, member,
                   stamp, parents, use_parents, ti, &th[0], use_defer, sr_from_bits(bound), fi,
                   fv, fh, fmember, fstamp, s_k, s_x, s_start, s_off, s_warp);
}
"#
        }
        Kernel::QueueWitness => {
            r#"// Phase 2: the witnesses of the vertices improved in this step (sg_witness_phase).
extern "C" __global__ void KERNEL(PARAMS) {
    SG_TILE_SHARED;
    sg_witness_phase(rp, ci, av, qi, qv, qh[0], d, m, mmode, msize, mzero, member, stamp, parents,
                     use_defer, sr_from_bits(bound), s_k, s_x, s_start, s_off, s_warp);
}
"#
        }
        Kernel::QueueFill => {
            r#"// Phase 3: tv[e] = d[ti[e]] for the entries of the output queue, and with use_steps the step
// number (the output's step count) of each.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = th[0];
    unsigned int step = (unsigned int)th[1];
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) {
        sg_idx_t j = ti[e];
        tv[e] = d[j];
        if (use_steps) steps[j] = step;
    }
}
"#
        }
        Kernel::QueueRelaxLoop => {
            r#"// Up to `max_steps` relaxation steps of a small frontier in one block: phases 1 (relax), 2
// (witnesses) and 3 (values, step numbers) of each step as in QueueRelax, QueueWitness and
// QueueFill, separated by __syncthreads instead of launches. A frontier of at most blockDim.x
// entries is kept as a tile in shared memory from one step to the next; a longer one (up to
// `limit` entries) is read from its queue in global memory a tile at a time (the queues in
// global memory are always written too).
// The frontier starts in queue A; A and B alternate (B is the target of even steps, with stamp
// bstamp + step / 2; A of odd ones, astamp + step / 2). Stops before a step whose frontier is
// empty, or has more than `limit` entries or more than `arc_limit` arcs (then A's header word
// 3 is 1, else 0). At the end the frontier is in A (copied from B after an odd number of
// steps) and A's membership (stamp afinal) is exactly its entries.
extern "C" __global__ void __launch_bounds__(1024) KERNEL(PARAMS) {
    SG_TILE_SHARED;
    __shared__ sg_idx_t s_next[SG_TILE];
    __shared__ unsigned long long s_count, s_arcs;
    unsigned int tid = threadIdx.x, nt = blockDim.x;
    // Every thread keeps the header of the current frontier.
    unsigned long long len = ah[0], done = ah[1], before = ah[2];
    int in_a = 1, limited = 0;
    // tiled: the frontier is the tile in shared memory (at most nt entries).
    bool tiled = len > 0 && len <= nt && len <= limit;
    // Deferred entries (use_defer: not below `bound`) get no arcs in a tile, and are appended to
    // the far queue when the step that consumes them runs.
    sr_t vb = sr_from_bits(bound);
    if (tiled) sg_load_tile(rp, ai, avals, 0, (unsigned int)len, s_k, s_x, s_start, s_off, s_warp,
                            use_defer ? 1 : 0, vb, fi, fv, fh, fmember, fstamp);
    for (unsigned int step = 0; step < max_steps; ++step) {
        if (len == 0) break;
        if (len > limit) { limited = 1; break; }
        sg_idx_t* ci_ = in_a ? ai : bi;  // the current frontier's queue
        sr_t* cv_ = in_a ? avals : bvals;
        unsigned long long arcs;
        if (tiled) {
            arcs = s_off[(unsigned int)len];
        } else {
            // The frontier's arcs, counted before any is relaxed (deferred entries included).
            if (tid == 0) s_arcs = 0;
            __syncthreads();
            unsigned long long own = 0;
            for (unsigned long long f = tid; f < len; f += nt) {
                sg_idx_t j = ci_[f];
                own += (unsigned long long)(rp[j + 1] - rp[j]);
            }
            for (unsigned int off = 16; off > 0; off >>= 1) own += __shfl_down_sync(SG_FULL, own, off);
            if ((tid & 31u) == 0 && own != 0) atomicAdd(&s_arcs, own);
            __syncthreads();
            arcs = s_arcs;
        }
        if (arcs > arc_limit) { limited = 1; break; }
        if (tiled && use_defer && tid < len && !(s_x[tid] < vb))
            sg_defer_entry(s_k[tid], s_x[tid], fi, fv, fh, fmember, fstamp);
        sg_idx_t* ti = in_a ? bi : ai;
        sr_t* tv = in_a ? bvals : avals;
        unsigned long long* th = in_a ? bh : ah;
        unsigned int* tm = in_a ? bmember : amember;
        unsigned int stamp = (in_a ? bstamp : astamp) + step / 2;
        if (tid == 0) s_count = 0;
        __syncthreads();
        // Phase 1 (and 2), a tile of the frontier at a time.
        for (int phase = 1; phase <= (use_parents ? 2 : 1); ++phase) {
            for (unsigned long long base = 0; base < len; base += nt) {
                unsigned int cnt = (unsigned int)(len - base < nt ? len - base : nt);
                // A frontier longer than a tile is loaded tile by tile (its deferred entries go
                // to the far queue in phase 1's load).
                if (!tiled) sg_load_tile(rp, ci_, cv_, base, cnt, s_k, s_x, s_start, s_off, s_warp,
                                         use_defer ? (phase == 1 ? 2 : 1) : 0, vb, fi, fv, fh,
                                         fmember, fstamp);
                unsigned int tarcs = s_off[cnt], e = 0;
                for (unsigned int g0 = tid & ~31u; g0 < tarcs; g0 += nt) {
                    SG_TILE_ARC(g0, tarcs, cnt, e, ok, p, j);
                    if (phase == 1) {
                        unsigned long long pos = sg_relax_arc(ok && SG_ALLOWS(j), s_k[e], s_x[e], j, av,
                                                              p, d, steps, only_new, tm, stamp,
                                                              parents, use_parents, ti, &s_count);
                        if (pos < SG_TILE) s_next[pos] = j;
                    } else if (ok && tm[j] == stamp && SG_ALLOWS(j)) {
                        sg_witness_arc(s_k[e], s_x[e], j, av[p], d, parents);
                    }
                }
                __syncthreads();
            }
        }
        unsigned long long c = s_count;
        unsigned int next = (unsigned int)(done + 1);
        tiled = c > 0 && c <= nt && c <= limit;
        if (tiled) {
            // The new frontier's values, step numbers and tile at once.
            unsigned int deg = 0;
            if (tid < c) {
                sg_idx_t j = s_next[tid];
                sr_t v = d[j];
                tv[tid] = v;
                if (use_steps) steps[j] = next;
                s_k[tid] = j;
                s_x[tid] = v;
                if (use_defer && !(v < vb)) {
                    s_start[tid] = 0;
                } else {
                    sg_idx_t st = rp[j];
                    deg = rp[j + 1] - st;
                    s_start[tid] = st;
                }
            }
            sg_tile_scan(deg, (unsigned int)c, s_off, s_warp);
        } else {
            for (unsigned long long f = tid; f < c; f += nt) {
                sg_idx_t j = f < SG_TILE ? s_next[f] : ti[f];
                tv[f] = d[j];
                if (use_steps) steps[j] = next;
            }
            // The next step reads these values (and the appended ids) from global memory.
            __threadfence_block();
            __syncthreads();
        }
        if (tid == 0) { th[0] = c; th[1] = done + 1; th[2] = before + len; }
        before += len;
        done += 1;
        len = c;
        in_a = !in_a;
    }
    __syncthreads();
    for (unsigned long long f = tid; f < len; f += nt) {
        sg_idx_t j = in_a ? ai[f] : bi[f];
        if (!in_a) { ai[f] = j; avals[f] = bvals[f]; }
        amember[j] = afinal;
    }
    if (tid == 0) { ah[0] = len; ah[1] = done; ah[2] = before; ah[3] = (unsigned long long)limited; }
}
"#
        }
        Kernel::QueueRelaxGrid => {
            r#"// Up to `max_steps` relaxation steps in one cooperative launch (every block resident at
// once): each step's phases 1 (relax), 2 (witnesses) and 3 (values, step numbers) as in
// QueueRelax, QueueWitness and QueueFill, phase 1 and phases 2 + 3 separated by grid-wide
// barriers (sg_grid_sync on sync[0]) instead of launches: for frontiers past what QueueRelaxLoop's one block takes, whose
// steps are too short to fill the GPU, so that the launches between them are what they cost.
// The frontier starts in queue A; A and B alternate as in QueueRelaxLoop (B is the target of
// even steps, with stamp bstamp + step / 2; A of odd ones, astamp + step / 2); the output
// queue of a step was emptied by the step before (the first one's by the host). Stops before
// a step whose frontier is empty or has more than `limit` entries (then A's header word 3 is 1,
// else 0). At the end the frontier is in A (copied from B after an odd number of steps) and
// A's membership (stamp afinal) is exactly its entries. `sync` (8 words) is zero at launch and
// left zero.
extern "C" __global__ void __launch_bounds__(512) KERNEL(PARAMS) {
    SG_TILE_SHARED;
    unsigned long long bar = 0;
    int in_a = 1, limited = 0;
    sr_t vb = sr_from_bits(bound);
    for (unsigned int step = 0; step < max_steps; ++step) {
        sg_idx_t* qi = in_a ? ai : bi;
        sr_t* qv = in_a ? avals : bvals;
        unsigned long long* qh = in_a ? ah : bh;
        sg_idx_t* ti = in_a ? bi : ai;
        sr_t* tv = in_a ? bvals : avals;
        unsigned long long* th = in_a ? bh : ah;
        unsigned int* tm = in_a ? bmember : amember;
        unsigned int stamp = (in_a ? bstamp : astamp) + step / 2;
        unsigned long long len = *(volatile unsigned long long*)&qh[0];
        if (len == 0) break;
        if (len > limit) { limited = 1; break; }
        // Phase 1 (QueueRelax).
        if (sg_gid() == 0) {
            volatile unsigned long long* vq = qh;
            th[1] = vq[1] + 1ull; th[2] = vq[2] + len; th[3] = 0;
        }
        sg_relax_phase(rp, ci, av, qi, qv, len, d, m, mmode, msize, mzero, steps, only_new, tm,
                       stamp, parents, use_parents, ti, &th[0], use_defer, vb, fi, fv, fh, fmember,
                       fstamp, s_k, s_x, s_start, s_off, s_warp);
        sg_grid_sync(sync, &bar);
        // Phase 2 (QueueWitness).
        if (use_parents)
            sg_witness_phase(rp, ci, av, qi, qv, len, d, m, mmode, msize, mzero, tm, stamp, parents,
                             use_defer, vb, s_k, s_x, s_start, s_off, s_warp);
        // Phase 3 (QueueFill) beside phase 2, with no barrier between: neither reads what the
        // other writes (phase 2 reads the input queue, d, the mask and the membership, and
        // writes parents; phase 3 reads d and writes the output queue's values and the step
        // numbers). Values are read through L2 (other blocks wrote them in this launch); the
        // input queue is emptied for the step after next to write.
        unsigned long long c = *(volatile unsigned long long*)&th[0];
        unsigned int next = (unsigned int)*(volatile unsigned long long*)&th[1];
        for (unsigned long long e = sg_gid(); e < c; e += sg_nthreads()) {
            sg_idx_t j = *(volatile sg_idx_t*)&ti[e];
            tv[e] = sg_ld_l2(&d[j]);
            if (use_steps) steps[j] = next;
        }
        if (sg_gid() == 0) qh[0] = 0;
        sg_grid_sync(sync, &bar);
        in_a = !in_a;
    }
    // The final frontier into A, each entry with A's final stamp.
    unsigned long long len = *(volatile unsigned long long*)&(in_a ? ah : bh)[0];
    for (unsigned long long f = sg_gid(); f < len; f += sg_nthreads()) {
        sg_idx_t j;
        if (in_a) {
            j = *(volatile sg_idx_t*)&ai[f];
        } else {
            j = *(volatile sg_idx_t*)&bi[f];
            ai[f] = j;
            avals[f] = bvals[f];
        }
        amember[j] = afinal;
    }
    if (sg_gid() == 0) {
        if (!in_a) { ah[0] = bh[0]; ah[1] = bh[1]; ah[2] = bh[2]; }
        ah[3] = (unsigned long long)limited;
    }
    sg_grid_done(sync);
}
"#
        }
        Kernel::QueueRelaxAsync => {
            r#"// Relaxation to a fixpoint in any order (Frontier::queue_relax_fixpoint), for values of at most
// 4 bytes: a worklist of (vertex, value) entries, one appended at every improvement, taken by
// warps as it fills, with no step barrier. Slot s of the worklist is entry s of the seed queue
// (qi, qv; length qh[0]) below that length, then wl[s - seeds]: the value's bits << 32 | the
// vertex + 1 (0: not written yet; `cap` slots, zero at launch), one 64-bit store, so an entry
// is read whole and carries its value (no fence orders it against the update). ctr (zero at
// launch): [0] slots taken, [1] slots appended, [2] appended minus finished (mod 2^64: with
// the seeds, the work outstanding), [3] stopped (appends past `cap`, or work outstanding past
// `spill`). An entry whose vertex has a better value by the time it is taken is skipped (the
// improvement appended its own). A warp takes 32 slots at a time and leaves once nothing is
// outstanding; slots are written in order, so a warp's slots are written by the time it waits
// on them or the work is done. With use_defer, an entry not below `bound` when taken goes to the
// far queue (fi, fv, fh; a vertex once by fmember == fstamp) instead of relaxing its arcs.
extern "C" __global__ void __launch_bounds__(1024) KERNEL(PARAMS) {
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned long long seeds = qh[0];
    const sr_t vb = sr_from_bits(bound);
    volatile unsigned long long* vc = ctr;
    for (;;) {
        unsigned long long base = 0;
        if (lane == 0) base = atomicAdd(&ctr[0], 32ull);
        base = __shfl_sync(SG_FULL, base, 0);
        if (base >= seeds + cap) return;
        unsigned long long slot = base + lane;
        bool mine = slot < seeds + cap;
        for (;;) {
            sg_idx_t k = SG_SENTINEL;
            sr_t x = SR_ZERO;
            // Read beside the slots, so that the check adds no wait to an entry's path.
            unsigned long long stop = lane == 0 ? vc[3] : 0ull;
            if (mine) {
                if (slot < seeds) {
                    k = qi[slot];
                    x = qv[slot];
                } else {
                    unsigned long long w = *(volatile unsigned long long*)&wl[slot - seeds];
                    if (w != 0ull) {
                        k = (sg_idx_t)(w & 0xffffffffull) - 1u;
                        x = sr_from_word((sr_word_t)(w >> 32));
                    }
                }
            }
            bool ready = k != SG_SENTINEL;
            if (__shfl_sync(SG_FULL, (unsigned int)(stop != 0ull), 0)) return;
            unsigned int rb = __ballot_sync(SG_FULL, ready);
            if (rb == 0u) {
                if (__ballot_sync(SG_FULL, mine) == 0u) break;
                // Nothing written yet: leave once nothing is outstanding (lane 0's reading,
                // for the whole warp).
                bool idle = lane == 0 && seeds + vc[2] == 0ull;
                if (__shfl_sync(SG_FULL, (unsigned int)idle, 0)) return;
                __nanosleep(32);
                continue;
            }
            mine = mine && !ready;
            sg_idx_t st = 0;
            unsigned int deg = 0;
            if (ready) {
                sr_t now = sg_unit_value(sg_unit_load(&d[k]), &d[k]);
                st = rp[k];
                deg = rp[k + 1] - st;
                if (sr_improves(x, now)) {
                    deg = 0u;  // stale: a better value was appended
                } else if (use_defer && !(x < vb)) {
                    sg_defer_entry(k, x, fi, fv, fh, fmember, fstamp);
                    deg = 0u;
                }
            }
            // Rows of more than 32 arcs by the whole warp, a lane an arc.
            unsigned int lb;
            while ((lb = __ballot_sync(SG_FULL, deg > 32u)) != 0u) {
                unsigned int src = __ffs(lb) - 1u;
                sg_idx_t kk = __shfl_sync(SG_FULL, k, src);
                sr_t xx = sg_shfl_val(x, src);
                sg_idx_t s0 = __shfl_sync(SG_FULL, st, src);
                unsigned int dd = __shfl_sync(SG_FULL, deg, src);
                for (unsigned int o = 0; o < dd; o += 32u)
                    sg_fix_arc(o + lane < dd, kk, xx, s0 + o + lane, ci, av, d, wl, seeds, cap,
                               spill, ctr);
                if (lane == src) deg = 0u;
            }
            // The others lane by lane.
            unsigned int md = deg;
            for (unsigned int o = 16; o > 0; o >>= 1) {
                unsigned int v = __shfl_xor_sync(SG_FULL, md, o);
                md = v > md ? v : md;
            }
            for (unsigned int r = 0; r < md; ++r)
                sg_fix_arc(r < deg, k, x, st + r, ci, av, d, wl, seeds, cap, spill, ctr);
            // Finished, after their appends were counted.
            if (lane == 0) atomicAdd(&ctr[2], 0ull - (unsigned long long)__popc(rb));
        }
    }
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
        Kernel::QueueArcs => {
            r#"// out[0] += the lengths of the CSR rows of the queue's vertices (the arcs a push step from
// the queue scans): a warp reduction, then one atomic per warp.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    unsigned long long acc = 0;
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) {
        sg_idx_t i = qi[e];
        acc += (unsigned long long)(rp[i + 1] - rp[i]);
    }
    for (unsigned int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0 && acc != 0) atomicAdd(out, acc);
}
"#
        }
        Kernel::QueueImproveDense => {
            r#"// d[i] = add(d[i], t[i]) where sr_improves(d[i], t[i]), appending i with its new value to the
// output queue (length th[0], zero at launch; steps set to `steps`, entries-before to 0). Whole
// warps iterate together: the appends take one atomic per warp.
extern "C" __global__ void KERNEL(PARAMS) {
    if (sg_gid() == 0) { th[1] = steps; th[2] = 0; th[3] = 0; }
    unsigned long long lane = threadIdx.x & 31u;
    for (unsigned long long w = sg_gid() - lane; w < n; w += sg_nthreads()) {
        unsigned long long i = w + lane;
        bool app = false;
        sr_t nv = SR_ZERO;
        if (i < n) {
            sr_t old = d[i], v = t[i];
            if (sr_improves(old, v)) {
                nv = sr_add(old, v);
                d[i] = nv;
                app = true;
            }
        }
        unsigned long long pos = sg_append_slot(app, &th[0]);
        if (app) {
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
        Kernel::QueueShift => {
            r#"// qi[e] += c for the entries of the queue.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) qi[e] += (sg_idx_t)c;
}
"#
        }
        Kernel::QueueMark => {
            r#"// Bit qi[e] + c of the bitmap `bits` (zero at launch where the queue's bits fall) set for the
// entries of the queue; bits[at] = the queue's step count.
extern "C" __global__ void KERNEL(PARAMS) {
    unsigned long long len = qh[0];
    if (sg_gid() == 0) bits[at] = (unsigned int)qh[1];
    for (unsigned long long e = sg_gid(); e < len; e += sg_nthreads()) {
        unsigned long long j = (unsigned long long)qi[e] + c;
        atomicOr(&bits[j >> 5], 1u << (unsigned int)(j & 31ull));
    }
}
"#
        }
        Kernel::QueueFromMarks => {
            r#"// The output queue (length th[0], zero at launch) receives every j whose bit is set in
// `bits` (`words` words) with the value of bits c; its step count becomes the largest of the
// `k` words after the bitmap, its entries-before 0. A block takes blockDim.x (at most 256) consecutive words at a time: their
// set bits are numbered in order (a scan within each warp, then over the warps), staged in
// shared memory and written out contiguously after one atomic for the block.
#define SG_FM_THREADS 256u
extern "C" __global__ void __launch_bounds__(256) KERNEL(PARAMS) {
    __shared__ sg_idx_t s_ids[SG_FM_THREADS * 32u];
    __shared__ unsigned int s_warp[SG_FM_THREADS / 32u];
    __shared__ unsigned int s_total;
    __shared__ unsigned long long s_base;
    if (sg_gid() == 0) {
        unsigned int steps = 0u;
        for (unsigned int r = 0u; r < k; ++r) steps = max(steps, bits[words + r]);
        th[1] = (unsigned long long)steps;
        th[2] = 0;
        th[3] = 0;
    }
    const sr_t cv = sr_from_bits(c);
    const unsigned int t = threadIdx.x, lane = t & 31u, wid = t >> 5, nwarps = blockDim.x >> 5;
    const unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long w0 = (unsigned long long)blockIdx.x * blockDim.x; w0 < words; w0 += step) {
        const unsigned long long w = w0 + t;
        unsigned int word = w < words ? bits[w] : 0u;
        const unsigned int cnt = __popc(word);
        unsigned int incl = cnt;
        for (unsigned int off = 1u; off < 32u; off <<= 1) {
            unsigned int v = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += v;
        }
        if (lane == 31u) s_warp[wid] = incl;
        __syncthreads();
        if (t == 0u) {
            unsigned int acc = 0u;
            for (unsigned int i = 0u; i < nwarps; ++i) {
                unsigned int v = s_warp[i];
                s_warp[i] = acc;
                acc += v;
            }
            s_total = acc;
            s_base = acc != 0u ? atomicAdd(&th[0], (unsigned long long)acc) : 0ull;
        }
        __syncthreads();
        unsigned int pos = s_warp[wid] + incl - cnt;
        while (word != 0u) {
            const unsigned int b = (unsigned int)(__ffs(word) - 1);
            word &= word - 1u;
            s_ids[pos++] = (sg_idx_t)(w * 32ull + b);
        }
        __syncthreads();
        const unsigned int total = s_total;
        const unsigned long long base = s_base;
        for (unsigned int j = t; j < total; j += blockDim.x) {
            ti[base + j] = s_ids[j];
            tv[base + j] = cv;
        }
        __syncthreads();
    }
}
"#
        }
        _ => return None,
    })
}
