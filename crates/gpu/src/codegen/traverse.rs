//! Semiring-independent traversal kernels: the levels of a traversal from a queue's vertices in
//! one block, with the visited set and the frontier in shared memory (road networks: a level is
//! two reads of global memory and one barrier, not a launch or a round of atomics in L2).

use super::Kernel;

/// The expansion of one frontier entry a thread, shared by both levels kernels (after the
/// semiring-independent helpers): the visited set, the counter and the next frontier may be in
/// shared or device memory (generic pointers).
pub(super) const HELPERS: &str = r#"#define SG_LV_ARCS 4u
// The row of frontier vertex k (has: this lane has one) along rp, ci: each target whose bit in
// `seen` this call sets takes a slot of the next frontier (nxt, from *ncnt; slots past cap are
// counted, not stored) and level `up` (lv). The lanes of a warp go through their rows together,
// SG_LV_ARCS arcs a lane at a time, the column ids read before any is visited, and a warp's new
// vertices take their slots with one atomic. Every lane of the warp calls it together.
__device__ __forceinline__ void sg_lv_expand(bool has, sg_idx_t k,
        const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci, unsigned int* seen,
        unsigned int* ncnt, sg_idx_t* nxt, unsigned int cap, unsigned int* lv, unsigned int up) {
    const unsigned int lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
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
            if (!(atomicOr(&seen[j[u] >> 5], bit) & bit)) fresh |= 1u << u;
        }
        unsigned int b[SG_LV_ARCS], total = 0u;
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            b[u] = __ballot_sync(SG_FULL, (fresh >> u) & 1u);
            total += __popc(b[u]);
        }
        if (total == 0u) continue;
        unsigned int pos = 0u;
        if (lane == 0u) pos = atomicAdd(ncnt, total);
        pos = __shfl_sync(SG_FULL, pos, 0);
#pragma unroll
        for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
            if ((fresh >> u) & 1u) {
                unsigned int s = pos + __popc(b[u] & below);
                if (s < cap) nxt[s] = j[u];
                lv[j[u]] = up;
            }
            pos += __popc(b[u]);
        }
    }
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
        for (unsigned int base = 0; base < len; base += nt)
            sg_lv_expand(base + t < len, cur[(base + t < len) ? base + t : 0u], rp, ci, seen,
                         ncnt, nxt, qcap, lv, up);
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
// cooperative launch: every block resident), one grid-wide barrier a level (sg_grid_sync on
// sync[0]; zero at launch and left zero): the visited set is a bitmap of n bits in device
// memory (seen, ceil(n / 32) words, then 3 level counters: the counter of level i + 1 zero at
// launch), the frontier alternates between qi and qb (n entries each). fresh = 0: the frontier
// handed back by QueueLevels (qi, qh[0] entries at level qh[1], qh[2] vertices reached before
// it; seen holds every vertex up to it); fresh = 1: from the seeds in qi (qh[0] entries,
// repeats once; seen all zero), each at level 0. lv[j] = the level of every vertex reached.
// out[0] = vertices reached, out[1] = the last level, out[2] = 0. A thread takes frontier
// entries gid, gid + threads, ... (sg_lv_expand, on device memory: its atomics in L2); frontier
// entries and counters other blocks wrote are read through L2 (volatile).
extern "C" __global__ void __launch_bounds__(512) KERNEL(PARAMS) {
    const unsigned long long words = (n + 31ull) >> 5;
    unsigned int* cnt = seen + words;
    const unsigned long long gid = sg_gid(), nthreads = sg_nthreads();
    const unsigned int lane = threadIdx.x & 31u, below = (1u << lane) - 1u;
    unsigned long long bar = 0, reached = 0, len = qh[0];
    unsigned int level = 0;
    const sg_idx_t* cur = qi;
    sg_idx_t* nxt = qb;
    if (fresh) {
        // The seeds, once each, into qb: the frontier of level 0.
        for (unsigned long long e0 = gid & ~31ull; e0 < len; e0 += nthreads) {
            unsigned long long e = e0 + lane;
            bool fr = false;
            sg_idx_t j = 0;
            if (e < len) {
                j = qi[e];
                unsigned int bit = 1u << (j & 31u);
                fr = !(atomicOr(&seen[j >> 5], bit) & bit);
            }
            unsigned int b = __ballot_sync(SG_FULL, fr);
            if (b == 0u) continue;
            unsigned int pos = 0u;
            if (lane == 0u) pos = atomicAdd(&cnt[0], __popc(b));
            pos = __shfl_sync(SG_FULL, pos, 0);
            if (fr) {
                qb[pos + __popc(b & below)] = j;
                lv[j] = 0u;
            }
        }
        sg_grid_sync(sync, &bar);
        len = *(volatile unsigned int*)&cnt[0];
        cur = qb;
        nxt = qi;
    } else {
        level = (unsigned int)qh[1];
        reached = qh[2];
    }
    unsigned int depth = level;
    for (unsigned int i = 0; len > 0ull; ++i) {
        reached += len;
        depth = level;
        // The counter of the frontier before this one is the next level's but one: cleared
        // now, used after this level's barrier.
        if (gid == 0ull) cnt[(i + 2u) % 3u] = 0u;
        unsigned int* ncnt = &cnt[(i + 1u) % 3u];
        const unsigned int up = level + 1u;
        for (unsigned long long base = 0; base < len; base += nthreads) {
            bool has = base + gid < len;
            sg_lv_expand(has, has ? *(const volatile sg_idx_t*)&cur[base + gid] : 0u, rp, ci,
                         seen, ncnt, nxt, 0xffffffffu, lv, up);
        }
        sg_grid_sync(sync, &bar);
        len = *(volatile unsigned int*)ncnt;
        const sg_idx_t* t = cur;
        cur = nxt;
        nxt = (sg_idx_t*)t;
        level = up;
    }
    if (gid == 0ull) {
        out[0] = reached;
        out[1] = depth;
        out[2] = 0ull;
    }
    sg_grid_done(sync);
}
"#
        }
        _ => return None,
    })
}
