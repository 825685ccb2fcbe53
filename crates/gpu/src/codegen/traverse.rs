//! Semiring-independent traversal kernels: the levels of a traversal from a queue's vertices in
//! one block, with the visited set and the frontier in shared memory (road networks: a level is
//! two reads of global memory and one barrier, not a launch or a round of atomics in L2).

use super::Kernel;

/// The expansion of one frontier entry a thread, shared by both levels kernels (after the
/// semiring-independent helpers): the visited set, the counter and the next frontier may be in
/// shared or device memory (generic pointers).
pub(super) const HELPERS: &str = r#"#define SG_LV_ARCS 4u
// The row of frontier vertex k (has: this lane has one) along rp, ci: each target whose bit in
// `seen` this call sets gets level `up` (lv), and the warp's new vertices are handed to `put`
// together (put(total, b, j, fresh): b[u] the lanes whose u-th arc found one, j[u] its target,
// fresh this lane's bits). The lanes of a warp go through their rows together, SG_LV_ARCS arcs
// a lane at a time, the column ids read before any is visited. The visited set may be in
// shared or device memory (a generic pointer). Every lane of the warp calls it together.
template <class Put>
__device__ __forceinline__ void sg_lv_expand(bool has, sg_idx_t k,
        const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci, unsigned int* seen,
        unsigned int* lv, unsigned int up, const Put& put) {
    unsigned int st = 0u, deg = 0u;
    if (has) {
        st = rp[k];
        deg = rp[k + 1] - st;
    }
    unsigned int md = deg;
    for (unsigned int o = 16; o > 0; o >>= 1) {
        unsigned int v = __shfl_xor_sync(SG_FULL, md, o);
        md = v > md ? v : md;
    }
    for (unsigned int r = 0; r < md; r += SG_LV_ARCS) {
        sg_idx_t j[SG_LV_ARCS];
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u)
            j[u] = r + u < deg ? ci[st + r + u] : 0xffffffffu;
        unsigned int fresh = 0u;
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            if (j[u] == 0xffffffffu) continue;
            unsigned int bit = 1u << (j[u] & 31u);
            if (!(atomicOr(&seen[j[u] >> 5], bit) & bit)) {
                fresh |= 1u << u;
                lv[j[u]] = up;
            }
        }
        unsigned int b[SG_LV_ARCS], total = 0u;
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            b[u] = __ballot_sync(SG_FULL, (fresh >> u) & 1u);
            total += __popc(b[u]);
        }
        if (total != 0u) put(total, b, j, fresh);
    }
}
// The one block's next frontier: slots from the shared counter *cnt, those past cap counted,
// not stored.
struct sg_lv_put_block {
    unsigned int* cnt;
    sg_idx_t* nxt;
    unsigned int cap;
    __device__ __forceinline__ void operator()(unsigned int total, const unsigned int* b,
            const sg_idx_t* j, unsigned int fresh) const {
        const unsigned int lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
        unsigned int pos = 0u;
        if (lane == 0u) pos = atomicAdd(cnt, total);
        pos = __shfl_sync(SG_FULL, pos, 0);
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            unsigned int s = pos + __popc(b[u] & below);
            if (((fresh >> u) & 1u) && s < cap) nxt[s] = j[u];
            pos += __popc(b[u]);
        }
    }
};
// A block's share of the grid's next frontier: its new vertices wait in shared memory (sbuf,
// cap entries, *scnt of them) until the block learns where its part of the frontier starts
// (sg_lvg_stage_end); a warp whose vertices do not fit takes slots in the frontier itself
// (nxt: (tag << 32) | vertex) by adding to the low half of the stage's count word (*word,
// whose low half was `base` when the stage began).
struct sg_lv_put_grid {
    unsigned int* scnt;
    sg_idx_t* sbuf;
    unsigned int cap;
    unsigned long long* word;
    unsigned int base;
    unsigned long long* nxt;
    unsigned long long tag;
    __device__ __forceinline__ void operator()(unsigned int total, const unsigned int* b,
            const sg_idx_t* j, unsigned int fresh) const {
        const unsigned int lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
        unsigned int pos = 0u, direct = 0u;
        if (lane == 0u) {
            unsigned int old = *(volatile unsigned int*)scnt;
            for (;;) {
                if (old + total > cap) {
                    direct = 1u;
                    break;
                }
                unsigned int w = atomicCAS(scnt, old, old + total);
                if (w == old) break;
                old = w;
            }
            pos = direct ? (unsigned int)atomicAdd(word, (unsigned long long)total) - base : old;
        }
        pos = __shfl_sync(SG_FULL, pos, 0);
        direct = __shfl_sync(SG_FULL, direct, 0);
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            if ((fresh >> u) & 1u) {
                unsigned int s = pos + __popc(b[u] & below);
                if (direct) nxt[s] = tag | j[u];
                else sbuf[s] = j[u];
            }
            pos += __popc(b[u]);
        }
    }
};
"#;

/// Helpers of [`Kernel::QueueLevelsGrid`] (after [`HELPERS`]): the end of a stage, which is
/// both the grid's barrier and the count of the next frontier.
pub(super) const GRID_HELPERS: &str = r#"#define SG_LVG_BUF 4096u
// The end of stage s for the calling block (every thread calls it): the block adds its arrival
// (the high half) and its vertices waiting in shared memory (the low half) to the stage's
// count word (*word, sync[s & 1]: both halves only grow during a launch), which places them
// in the frontier (nxt, tagged), then waits until every block of the grid has arrived. The
// next frontier's length is the word's low half less *base (its value when the stage began;
// updated). No fence: a frontier entry is read only once its tag is there, the visited set
// changes only by atomics whose results were waited for, and the levels are read after the
// launch.
__device__ __forceinline__ unsigned long long sg_lvg_stage_end(unsigned long long* word,
        unsigned int* base, unsigned int s, unsigned int* scnt, const sg_idx_t* sbuf,
        unsigned long long* nxt, unsigned long long tag) {
    __shared__ unsigned int s_off, s_len;
    __shared__ unsigned long long s_word;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int c = *scnt;
        const unsigned long long old = atomicAdd(word, (1ull << 32) | c);
        s_off = (unsigned int)old - *base;
        s_len = c;
        *scnt = 0u;
    }
    __syncthreads();
    const unsigned int c = s_len, off = s_off;
    for (unsigned int e = threadIdx.x; e < c; e += blockDim.x) nxt[off + e] = tag | sbuf[e];
    if (threadIdx.x == 0) {
        // Arrivals at this word: gridDim.x for each stage of its parity so far (modulo 2^32).
        const unsigned int want = gridDim.x * (s / 2u + 1u);
        unsigned long long v;
        do {
            v = *(volatile unsigned long long*)word;
        } while ((int)((unsigned int)(v >> 32) - want) < 0);
        s_word = v;
    }
    __syncthreads();
    const unsigned int now = (unsigned int)s_word;
    const unsigned long long len = now - *base;
    *base = now;
    return len;
}
"#;

/// The template of a kernel of this file; `KERNEL` stands for its name.
pub(super) fn body(kernel: Kernel) -> Option<&'static str> {
    Some(match kernel {
        Kernel::QueueLevels => {
            r#"// Levels of a traversal along A's structure (rp, ci; n vertices) from the vertices of the
// queue (qi; length qh[0]) in one block, one barrier a level: the visited set is a bitmap of n
// bits and the frontier two queues of qcap entries, all in dynamic shared memory
// (ceil(n / 32) + 2 qcap words). lv[j] = the level of every vertex reached (a seed 0); other
// positions untouched. out[0] = vertices reached, out[1] = the last level, out[2] = 0 done,
// 1 where a frontier outgrew qcap (stopped; lv holds the levels so far), 2 where the frontiers
// grew wide (on average more than `wide` vertices a level, past the first 64 levels: work for
// more than one block): then the frontier where it stopped is written back to the queue (qi,
// qv = its level, qh = its length, the level and the vertices reached before it; lv holds the
// level of every vertex up to it; with `save`, gseen = the visited set, ceil(n / 32) words).
// A thread takes frontier entries t, t + blockDim.x, ... (sg_lv_expand, on shared memory).
extern "C" __global__ void __launch_bounds__(1024) KERNEL(PARAMS) {
    extern __shared__ unsigned int sg_lv_sm[];
    // s_cnt[level % 3]: the frontier's length; [(level + 1) % 3]: the next one's, counted.
    __shared__ unsigned int s_cnt[3];
    const unsigned int words = (unsigned int)((n + 31ull) >> 5);
    unsigned int* seen = sg_lv_sm;
    sg_idx_t* qa = sg_lv_sm + words;
    sg_idx_t* qb = qa + qcap;
    const unsigned int t = threadIdx.x, nt = blockDim.x;
    for (unsigned int w = t; w < words; w += nt) seen[w] = 0u;
    if (t < 3u) s_cnt[t] = 0u;
    __syncthreads();
    const unsigned long long nseeds = qh[0];
    for (unsigned long long e = t; e < nseeds; e += nt) {
        sg_idx_t j = qi[e];
        unsigned int bit = 1u << (j & 31u);
        if (!(atomicOr(&seen[j >> 5], bit) & bit)) {
            unsigned int pos = atomicAdd(&s_cnt[0], 1u);
            if (pos < qcap) qa[pos] = j;
            lv[j] = 0u;
        }
    }
    __syncthreads();
    unsigned long long reached = 0;
    unsigned int level = 0, stop = 0;
    for (;;) {
        // Every thread reads the same length after the barrier.
        const unsigned int len = s_cnt[level % 3u];
        if (len > qcap) {
            stop = 1u;
            break;
        }
        if (len == 0u) break;
        const sg_idx_t* cur = (level & 1u) ? qb : qa;
        if (level >= 64u && reached + len > (unsigned long long)wide * (level + 1u)) {
            // Handed back: the frontier, each vertex with its level.
            for (unsigned int e = t; e < len; e += nt) {
                qi[e] = cur[e];
                qv[e] = level;
            }
            if (save)
                for (unsigned int w = t; w < words; w += nt) gseen[w] = seen[w];
            if (t == 0u) { qh[0] = len; qh[1] = level; qh[2] = reached; qh[3] = 0ull; }
            stop = 2u;
            break;
        }
        reached += len;
        // The counter of the frontier before this one is the next level's: cleared now, used
        // after this level's barrier.
        if (t == 0u) s_cnt[(level + 2u) % 3u] = 0u;
        sg_idx_t* nxt = (level & 1u) ? qa : qb;
        unsigned int* ncnt = &s_cnt[(level + 1u) % 3u];
        const unsigned int up = level + 1u;
        const sg_lv_put_block put = {ncnt, nxt, qcap};
        for (unsigned int base = 0; base < len; base += nt)
            sg_lv_expand(base + t < len, cur[(base + t < len) ? base + t : 0u], rp, ci, seen, lv,
                         up, put);
        __syncthreads();
        level = up;
    }
    if (t == 0u) {
        out[0] = reached;
        out[1] = level > 0u ? level - 1u : 0u;
        out[2] = stop;
    }
}
"#
        }
        Kernel::QueueLevelsGrid => {
            r#"// Levels of a traversal along A's structure (rp, ci; n vertices) over the whole grid (a
// cooperative launch: every block resident), in stages, each one level: the visited set is a
// bitmap of n bits in device memory (seen, ceil(n / 32) words); stage s's new frontier goes to
// fa (s even) or fb (s odd), n entries each, entry = ((epoch + s) << 32) | vertex (entries of
// other stages and launches carry other tags: the host moves epoch past every tag a launch
// used, out[2] stages); a block's new vertices are placed by sg_lvg_stage_end, which is also
// the stage's barrier (sync[0], sync[1]: zero at launch; sync[2] counts the blocks that
// finished; all left zero). fresh = 0: from the frontier QueueLevels handed back (qi, qh[0]
// entries at level qh[1], qh[2] vertices reached before it; seen holds every vertex up to it);
// fresh = 1: from the seeds in qi (qh[0] entries, repeats once; seen all zero), each at level
// 0 (stage 0 places them). lv[j] = the level of every vertex reached. out[0] = vertices
// reached, out[1] = the last level, out[2] = stages. A thread takes frontier entries gid, gid +
// threads, ... (gid counts warps across the blocks first; sg_lv_expand on device memory: its
// atomics in L2); an entry of another block is read, through L2, once its tag is there.
extern "C" __global__ void __launch_bounds__(512) KERNEL(PARAMS) {
    __shared__ sg_idx_t s_buf[SG_LVG_BUF];
    __shared__ unsigned int s_cnt;
    // Entry gid of a pass: the warps of the grid taken block by block (warp 0 of every block,
    // then warp 1, ...), so that a narrow frontier is spread over every multiprocessor, not
    // over the first blocks' (a multiprocessor's reads in flight bound a level, not the work).
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned long long gid =
        ((unsigned long long)(threadIdx.x >> 5) * gridDim.x + blockIdx.x) * 32ull + lane;
    const unsigned long long nthreads = sg_nthreads();
    unsigned int base[2] = {0u, 0u};
    unsigned long long reached = 0, len = qh[0];
    unsigned int level = 0, s = 0;
    if (threadIdx.x == 0) s_cnt = 0u;
    __syncthreads();
    if (fresh) {
        // Stage 0: the seeds, once each.
        const sg_lv_put_grid put = {&s_cnt, s_buf, SG_LVG_BUF, &sync[0], 0u, fa,
                                    (unsigned long long)epoch << 32};
        for (unsigned long long e0 = gid & ~31ull; e0 < len; e0 += nthreads) {
            unsigned long long e = e0 + lane;
            unsigned int fr = 0u;
            sg_idx_t j[SG_LV_ARCS] = {0u, 0u, 0u, 0u};
            if (e < len) {
                j[0] = qi[e];
                unsigned int bit = 1u << (j[0] & 31u);
                if (!(atomicOr(&seen[j[0] >> 5], bit) & bit)) {
                    fr = 1u;
                    lv[j[0]] = 0u;
                }
            }
            unsigned int b[SG_LV_ARCS] = {__ballot_sync(SG_FULL, fr), 0u, 0u, 0u};
            if (b[0] != 0u) put(__popc(b[0]), b, j, fr);
        }
        len = sg_lvg_stage_end(&sync[0], &base[0], 0u, &s_cnt, s_buf, fa,
                               (unsigned long long)epoch << 32);
        s = 1u;
    } else {
        level = (unsigned int)qh[1];
        reached = qh[2];
    }
    unsigned int depth = level;
    // Stage s expands the frontier stage s - 1 placed (the handed-back one at s = 0).
    while (len > 0ull) {
        reached += len;
        depth = level;
        const unsigned long long* cur = (s & 1u) ? fa : fb;
        const unsigned int ctag = epoch + s - 1u;
        unsigned long long* nxt = (s & 1u) ? fb : fa;
        const unsigned long long tag = (unsigned long long)(epoch + s) << 32;
        unsigned long long* word = &sync[s & 1u];
        const sg_lv_put_grid put = {&s_cnt, s_buf, SG_LVG_BUF, word, base[s & 1u], nxt, tag};
        for (unsigned long long b0 = 0; b0 < len; b0 += nthreads) {
            const bool has = b0 + gid < len;
            sg_idx_t k = 0u;
            if (has && s == 0u) {
                k = qi[b0 + gid];
            } else if (has) {
                unsigned long long x;
                do {
                    x = *(const volatile unsigned long long*)&cur[b0 + gid];
                } while ((unsigned int)(x >> 32) != ctag);
                k = (sg_idx_t)x;
            }
            sg_lv_expand(has, k, rp, ci, seen, lv, level + 1u, put);
        }
        len = sg_lvg_stage_end(word, &base[s & 1u], s, &s_cnt, s_buf, nxt, tag);
        ++s;
        ++level;
    }
    if (gid == 0ull) {
        out[0] = reached;
        out[1] = depth;
        out[2] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&sync[2], 1ull) == gridDim.x - 1) {
            sync[0] = 0;
            sync[1] = 0;
            sync[2] = 0;
        }
    }
}
"#
        }
        _ => return None,
    })
}
