//! Semiring-independent traversal kernels: the levels of a traversal from a queue's vertices in
//! one block, with the visited set and the frontier in shared memory (road networks: a level is
//! two reads of global memory and one barrier, not a launch or a round of atomics in L2).

use super::Kernel;

/// The expansion of one frontier entry a thread, shared by both levels kernels (after the
/// semiring-independent helpers): the visited set, the counter and the next frontier may be in
/// shared or device memory (generic pointers).
pub(super) const HELPERS: &str = r#"#define SG_LV_ARCS 4u
// No arc in a slot of a row's four (sg_lv_expand4's r4), or in a lane's share of a chunk.
#define SG_LV_NONE 0xffffffffu
// The fourth slot of a row of more than four arcs: the rest (from its fourth) are in ci.
#define SG_LV_MORE 0xfffffffeu
// One chunk of arcs a lane (j[u] = SG_LV_NONE: none): each target that claim.take(j) takes
// (the visited set's bit, or a lower level) is new, and the warp's new vertices are handed to
// `put` together (put(total, b, j, fresh): b[u] the lanes whose u-th arc found one, fresh this
// lane's bits). Every lane of the warp calls it together.
template <class Claim, class Put>
__device__ __forceinline__ void sg_lv_chunk(const sg_idx_t* j, const Claim& claim,
        const Put& put) {
    unsigned int fresh = 0u;
#pragma unroll
    for (unsigned int u = 0; u < SG_LV_ARCS; ++u)
        if (j[u] != SG_LV_NONE && claim.take(j[u])) fresh |= 1u << u;
    unsigned int b[SG_LV_ARCS], total = 0u;
#pragma unroll
    for (unsigned int u = 0; u < SG_LV_ARCS; ++u) {
        b[u] = __ballot_sync(SG_FULL, (fresh >> u) & 1u);
        total += __popc(b[u]);
    }
    if (total != 0u) put(total, b, j, fresh);
}
// The row of frontier vertex k (has: this lane has one; claim.live(k): k is still at the level
// it was queued at) from its arc `skip` on, along rp, ci, through sg_lv_chunk: the lanes of a
// warp go through their rows together, SG_LV_ARCS arcs a lane at a time, the column ids read
// before any is taken. The visited set, the counter and the next frontier may be in shared
// or device memory (generic pointers). Every lane of the warp calls it together.
template <class Claim, class Put>
__device__ __forceinline__ void sg_lv_expand(bool has, sg_idx_t k, unsigned int skip,
        const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci, const Claim& claim,
        const Put& put) {
    unsigned int st = 0u, deg = 0u;
    if (has) {
        st = rp[k] + skip;
        const unsigned int end = rp[k + 1];
        deg = claim.live(k) ? end - st : 0u;
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
            j[u] = r + u < deg ? ci[st + r + u] : SG_LV_NONE;
        sg_lv_chunk(j, claim, put);
    }
}
// sg_lv_expand with the rows in four slots r4 (QueueLevelsRows): a row's first arcs come from
// its slots in one 16-byte read, and rp and ci are read only for rows of more than four arcs
// (from their fourth): one read of global memory a vertex instead of two to three for a road
// network's rows, which bounds a level of one block (a multiprocessor's reads, not its
// threads). r4 == nullptr: sg_lv_expand. Every lane of the warp calls it together.
template <class Claim, class Put>
__device__ __forceinline__ void sg_lv_expand4(bool has, sg_idx_t k, const uint4* __restrict__ r4,
        const sg_idx_t* __restrict__ rp, const sg_idx_t* __restrict__ ci, const Claim& claim,
        const Put& put) {
    if (r4 == nullptr) {
        sg_lv_expand(has, k, 0u, rp, ci, claim, put);
        return;
    }
    uint4 c = make_uint4(SG_LV_NONE, SG_LV_NONE, SG_LV_NONE, SG_LV_NONE);
    if (has && claim.live(k)) c = r4[k];
    const bool more = c.w == SG_LV_MORE;
    const sg_idx_t j[SG_LV_ARCS] = {c.x, c.y, c.z, more ? SG_LV_NONE : c.w};
    sg_lv_chunk(j, claim, put);
    if (__any_sync(SG_FULL, more)) sg_lv_expand(more, k, 3u, rp, ci, claim, put);
}
// A vertex is new when it sets its bit in the visited set `seen` (shared or device memory);
// its level is written when its frontier is logged. A queued vertex is always live (its
// level is never lowered).
struct sg_lv_claim_bit {
    unsigned int* seen;
    __device__ __forceinline__ bool live(sg_idx_t) const { return true; }
    __device__ __forceinline__ bool take(sg_idx_t j) const {
        const unsigned int bit = 1u << (j & 31u);
        return !(atomicOr(&seen[j >> 5], bit) & bit);
    }
};
// A vertex is new when `up` lowers its level (lv: u32::MAX where not reached; read through
// L2, where the atomics are); a queued vertex is live while its level is the one it was
// queued at (`up - 1`), not lowered since (whoever lowered it expands it).
struct sg_lv_claim_min {
    unsigned int* lv;
    unsigned int up;
    __device__ __forceinline__ bool live(sg_idx_t k) const { return __ldcg(&lv[k]) == up - 1u; }
    __device__ __forceinline__ bool take(sg_idx_t j) const { return atomicMin(&lv[j], up) > up; }
};
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
// The vertex of entry e of a stage's frontier f, read (through L2) once its tag, the stage's,
// is there: no fence orders a block's entries before its arrival at the stage's word.
__device__ __forceinline__ sg_idx_t sg_lvg_entry(const unsigned long long* f,
        unsigned long long e, unsigned int tag) {
    unsigned long long x;
    do {
        x = *(const volatile unsigned long long*)&f[e];
    } while ((unsigned int)(x >> 32) != tag);
    return (sg_idx_t)x;
}
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
            r#"// Levels of a traversal along A's structure (rp, ci, and with use4 its rows' four slots r4;
// n vertices) from the vertices of the queue (qi; length qh[0]) in one block, one barrier a
// level: the visited set is a bitmap of n bits and the frontier two queues of qcap entries,
// all in dynamic shared memory (ceil(n / 32) + 2 qcap words). Each frontier, as it is
// expanded, is appended to the log lg (n entries: level << 32 | vertex, written together by
// consecutive threads, not a scattered write a vertex); QueueLevelsLog then writes lv[j] = the
// level of every vertex logged (a seed 0; other positions untouched). out[0] = vertices
// reached, out[1] = the last level, out[2] = 0 done, 1 where a frontier outgrew qcap (stopped;
// the frontiers before it logged), 2 where the frontiers grew wide (on average more than
// `wide` vertices a level, past the first 64 levels: work for more than one block): then the
// frontier where it stopped is written back to the queue (qi, qv = its level, qh = its
// length, the level and the vertices reached before it) and its levels to lv, the frontiers
// before it logged. out[3] = entries logged (the log's end), out[4] = its start. again != 0:
// resumed where QueueLevelsGrid handed narrow levels back: the visited set is copied from bits
// (ceil(n / 32) words), the frontier is qi's qh[0] vertices at level qh[1] (every one visited,
// its level written), qh[2] vertices reached before it (the log goes on from there); the
// block hands over again (stop 2) once a frontier has more than `again` vertices, or where the
// next one outgrows its queues (then from the frontier before it, rewound). A thread takes
// frontier entries t, t + blockDim.x, ... (sg_lv_expand4, on shared memory).
extern "C" __global__ void __launch_bounds__(1024) KERNEL(PARAMS) {
    extern __shared__ unsigned int sg_lv_sm[];
    // s_cnt[level % 3]: the frontier's length; [(level + 1) % 3]: the next one's, counted.
    __shared__ unsigned int s_cnt[3];
    const unsigned int words = (unsigned int)((n + 31ull) >> 5);
    unsigned int* seen = sg_lv_sm;
    sg_idx_t* qa = sg_lv_sm + words;
    sg_idx_t* qb = qa + qcap;
    const uint4* rows = use4 ? reinterpret_cast<const uint4*>(r4) : nullptr;
    const unsigned int t = threadIdx.x, nt = blockDim.x;
    const unsigned long long nseeds = qh[0];
    unsigned long long reached = 0;
    unsigned int level = 0, stop = 0;
    if (again != 0u) {
        // Resumed: the visited set and the frontier as the grid left them (nseeds <= qcap),
        // without the entries whose level was lowered after they were queued (each vertex
        // at the frontier's level is there once); the vertices reached before it, those
        // dropped included.
        level = (unsigned int)qh[1];
        sg_idx_t* q0 = (level & 1u) ? qb : qa;
        for (unsigned int w = t; w < words; w += nt) seen[w] = __ldcg(&bits[w]);
        if (t < 3u) s_cnt[t] = 0u;
        __syncthreads();
        for (unsigned long long e = t; e < nseeds; e += nt) {
            const sg_idx_t j = qi[e];
            if (__ldcg(&lv[j]) == level) q0[atomicAdd(&s_cnt[level % 3u], 1u)] = j;
        }
        __syncthreads();
        reached = qh[2] + nseeds - s_cnt[level % 3u];
    } else {
        for (unsigned int w = t; w < words; w += nt) seen[w] = 0u;
        if (t < 3u) s_cnt[t] = 0u;
        __syncthreads();
        for (unsigned long long e = t; e < nseeds; e += nt) {
            sg_idx_t j = qi[e];
            unsigned int bit = 1u << (j & 31u);
            if (!(atomicOr(&seen[j >> 5], bit) & bit)) {
                unsigned int pos = atomicAdd(&s_cnt[0], 1u);
                if (pos < qcap) qa[pos] = j;
            }
        }
    }
    __syncthreads();
    const unsigned long long start = reached;
    // The frontier expanded last (its length), for a resumed block's rewind.
    unsigned int prev = 0u;
    const sg_lv_claim_bit claim = {seen};
    for (;;) {
        // Every thread reads the same length after the barrier.
        unsigned int len = s_cnt[level % 3u];
        bool rewound = false;
        if (len > qcap && again != 0u) {
            // Outgrown after a resume (the seeds are gone): hand over from the frontier
            // before it, still whole in the other queue, its log entries dropped.
            level -= 1u;
            len = prev;
            reached -= prev;
            rewound = true;
        } else if (len > qcap) {
            stop = 1u;
            break;
        }
        if (len == 0u) break;
        const sg_idx_t* cur = (level & 1u) ? qb : qa;
        const bool wide_now = again != 0u
            ? rewound || len > again
            : level >= 64u && reached + len > (unsigned long long)wide * (level + 1u);
        if (wide_now) {
            // Handed back: the frontier, each vertex with its level.
            for (unsigned int e = t; e < len; e += nt) {
                const sg_idx_t j = cur[e];
                qi[e] = j;
                qv[e] = level;
                lv[j] = level;
            }
            if (t == 0u) { qh[0] = len; qh[1] = level; qh[2] = reached; qh[3] = 0ull; }
            stop = 2u;
            break;
        }
        unsigned long long* log = lg + reached;
        const unsigned long long tag = (unsigned long long)level << 32;
        reached += len;
        prev = len;
        // The counter of the frontier before this one is the next level's: cleared now, used
        // after this level's barrier.
        if (t == 0u) s_cnt[(level + 2u) % 3u] = 0u;
        sg_idx_t* nxt = (level & 1u) ? qa : qb;
        unsigned int* ncnt = &s_cnt[(level + 1u) % 3u];
        const sg_lv_put_block put = {ncnt, nxt, qcap};
        for (unsigned int base = 0; base < len; base += nt) {
            const bool has = base + t < len;
            const sg_idx_t k = cur[has ? base + t : 0u];
            if (has) log[base + t] = tag | k;
            sg_lv_expand4(has, k, rows, rp, ci, claim, put);
        }
        __syncthreads();
        level += 1u;
    }
    if (t == 0u) {
        out[0] = reached;
        out[1] = level > 0u ? level - 1u : 0u;
        out[2] = stop;
        out[3] = reached;
        out[4] = start;
    }
}
"#
        }
        Kernel::QueueLevelsLog => {
            r#"// lv[j] = level for each entry (level << 32 | j) of the log lg up to out[3] that
// QueueLevels wrote, from out[4] on.
extern "C" __global__ void KERNEL(PARAMS) {
    const unsigned long long len = out[3];
    for (unsigned long long e = out[4] + sg_gid(); e < len; e += sg_nthreads()) {
        const unsigned long long x = lg[e];
        lv[(sg_idx_t)x] = (unsigned int)(x >> 32);
    }
}
"#
        }
        Kernel::QueueLevelsRows => {
            r#"// The rows of A (rp, ci; n rows) as four slots each for QueueLevels (sg_lv_expand4):
// r4[4 i + u] = the u-th arc of row i, SG_LV_NONE past its end; a row of more than four arcs
// holds its first three and SG_LV_MORE (its arcs from the fourth on are read from ci).
extern "C" __global__ void KERNEL(PARAMS) {
    for (unsigned long long i = sg_gid(); i < n; i += sg_nthreads()) {
        const sg_idx_t st = rp[i], deg = rp[i + 1] - st;
        sg_idx_t s[4];
#pragma unroll
        for (unsigned int u = 0; u < 4u; ++u) s[u] = u < deg ? ci[st + u] : SG_LV_NONE;
        if (deg > 4u) s[3] = SG_LV_MORE;
        reinterpret_cast<uint4*>(r4)[i] = make_uint4(s[0], s[1], s[2], s[3]);
    }
}
"#
        }
        Kernel::QueueLevelsGrid => {
            r#"// Levels of a traversal along A's structure (rp, ci; n vertices; no row longer than maxdeg)
// over the whole grid (a cooperative launch: every block resident), in stages of one or more
// levels. lv: u32::MAX at every vertex not reached (the levels below the first frontier's
// are final); a vertex is taken by lowering its level (atomicMin), so a level found too high
// is corrected by whoever finds it lower, who then expands it again. Stage s expands the
// frontier at level L (each entry whose level is still L) over every block; where the most a
// block's share can reach in k - 1 more levels fits its shared queues (2 x half entries of
// dynamic shared memory: entries a block takes <= 32 ceil(len / 32 blocks), times maxdeg a
// level), the block goes on alone k - 1 levels from the vertices it found (sub-levels, one
// block barrier each), and only the vertices it finds at L + k go to the next frontier
// (k <= kmax): after the stage's barrier every level up to L + k is final, since each vertex
// at its final level was expanded by the block that set it. Stage s's frontier goes to fa (s
// even) or fb (s odd), n entries each, entry = ((epoch + s) << 32) | vertex (other stages'
// and launches' entries carry other tags: the host moves epoch past every tag a launch may
// use); a block's new vertices are placed by sg_lvg_stage_end, which is also the stage's
// barrier (sync[0], sync[1]: zero at launch; sync[2] counts the blocks that finished, sync[3]
// and [4] the vertices reached and the deepest level; all left zero). fresh = 0: from the
// frontier QueueLevels handed back (qi, qh[0] entries at level qh[1]); fresh = 1: from the
// seeds in qi (qh[0] entries, repeats once), each at level 0 (lv all u32::MAX). narrow != 0:
// where a frontier after the first stage has fewer than `narrow` vertices, the levels are
// handed back to QueueLevels: the frontier to qi (qh = its length, its level, the vertices
// reached before it) and the visited set to bits (ceil(n / 32) words), out[3] = 1 (else 0).
// out[0] = vertices reached (lv below u32::MAX,
// the levels before the frontier included), out[1] = the deepest level, out[2] = stages. A
// thread takes frontier entries gid, gid + threads, ... (gid counts warps across the blocks
// first; sg_lv_expand on device memory: its atomics in L2); an entry of another block is
// read, through L2, once its tag is there.
extern "C" __global__ void __launch_bounds__(512) KERNEL(PARAMS) {
    extern __shared__ sg_idx_t sg_lvg_sub[];
    __shared__ sg_idx_t s_buf[SG_LVG_BUF];
    // s_cnt: this block's vertices for the next frontier; s_sub[i % 3]: sub-level i's queue.
    __shared__ unsigned int s_cnt, s_sub[3];
    // Entry gid of a pass: the warps of the grid taken block by block (warp 0 of every block,
    // then warp 1, ...), so that a narrow frontier is spread over every multiprocessor, not
    // over the first blocks' (a multiprocessor's reads in flight bound a level, not the work).
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned long long gid =
        ((unsigned long long)(threadIdx.x >> 5) * gridDim.x + blockIdx.x) * 32ull + lane;
    const unsigned long long nthreads = sg_nthreads();
    unsigned int base[2] = {0u, 0u};
    unsigned long long len = qh[0];
    unsigned int level = 0, s = 0;
    if (threadIdx.x == 0) s_cnt = 0u;
    __syncthreads();
    if (fresh) {
        // Stage 0: the seeds, once each (lv all u32::MAX: the host filled it).
        const sg_lv_put_grid put = {&s_cnt, s_buf, SG_LVG_BUF, &sync[0], 0u, fa,
                                    (unsigned long long)epoch << 32};
        const sg_lv_claim_min claim = {lv, 0u};
        for (unsigned long long e0 = gid & ~31ull; e0 < len; e0 += nthreads) {
            unsigned long long e = e0 + lane;
            unsigned int fr = 0u;
            sg_idx_t j[SG_LV_ARCS] = {0u, 0u, 0u, 0u};
            if (e < len) {
                j[0] = qi[e];
                fr = claim.take(j[0]) ? 1u : 0u;
            }
            unsigned int b[SG_LV_ARCS] = {__ballot_sync(SG_FULL, fr), 0u, 0u, 0u};
            if (b[0] != 0u) put(__popc(b[0]), b, j, fr);
        }
        len = sg_lvg_stage_end(&sync[0], &base[0], 0u, &s_cnt, s_buf, fa,
                               (unsigned long long)epoch << 32);
        s = 1u;
    } else {
        level = (unsigned int)qh[1];
    }
    // Stage s expands the frontier stage s - 1 placed (the handed-back one at s = 0).
    bool back = false;
    while (len > 0ull) {
        if (narrow != 0u && s > 0u && len < narrow) {
            // Narrow again (every block sees the same len): the frontier back to the block.
            const unsigned long long* cur = (s & 1u) ? fa : fb;
            const unsigned int ctag = epoch + s - 1u;
            for (unsigned long long e = gid; e < len; e += nthreads)
                qi[e] = sg_lvg_entry(cur, e, ctag);
            back = true;
            break;
        }
        // The stage's levels: the most a block can take from the frontier, times maxdeg for
        // each level it goes on alone, must fit a shared queue.
        unsigned int k = 1u;
        {
            const unsigned long long per = 32ull * gridDim.x;
            unsigned long long most = (len + per - 1ull) / per * 32ull;
            while (k < kmax) {
                most *= maxdeg;
                if (most > half) break;
                ++k;
            }
        }
        if (k > 1u) {
            if (threadIdx.x == 0) {
                s_sub[1] = 0u;
                s_sub[2] = 0u;
            }
            __syncthreads();
        }
        const unsigned long long* cur = (s & 1u) ? fa : fb;
        const unsigned int ctag = epoch + s - 1u;
        unsigned long long* nxt = (s & 1u) ? fb : fa;
        const unsigned long long tag = (unsigned long long)(epoch + s) << 32;
        unsigned long long* word = &sync[s & 1u];
        const sg_lv_put_grid pub = {&s_cnt, s_buf, SG_LVG_BUF, word, base[s & 1u], nxt, tag};
        const sg_lv_claim_min claim0 = {lv, level + 1u};
        const sg_lv_put_block loc0 = {&s_sub[1], sg_lvg_sub, half};
        for (unsigned long long b0 = 0; b0 < len; b0 += nthreads) {
            const bool has = b0 + gid < len;
            sg_idx_t v = 0u;
            if (has && s == 0u) {
                v = qi[b0 + gid];
            } else if (has) {
                v = sg_lvg_entry(cur, b0 + gid, ctag);
            }
            if (k == 1u) sg_lv_expand(has, v, 0u, rp, ci, claim0, pub);
            else sg_lv_expand(has, v, 0u, rp, ci, claim0, loc0);
        }
        // Sub-levels 1 .. k - 1: the block's own new vertices (queue i at (i & 1) ? 0 : half).
        for (unsigned int i = 1u; i < k; ++i) {
            __syncthreads();
            const unsigned int qlen = s_sub[i % 3u];
            if (threadIdx.x == 0) s_sub[(i + 2u) % 3u] = 0u;
            const sg_idx_t* q = sg_lvg_sub + ((i & 1u) ? 0u : half);
            const sg_lv_claim_min claim = {lv, level + i + 1u};
            const sg_lv_put_block loc = {&s_sub[(i + 1u) % 3u],
                                         sg_lvg_sub + ((i & 1u) ? half : 0u), half};
            for (unsigned int b0 = 0; b0 < qlen; b0 += blockDim.x) {
                const bool has = b0 + threadIdx.x < qlen;
                const sg_idx_t v = has ? q[b0 + threadIdx.x] : 0u;
                if (i + 1u < k) sg_lv_expand(has, v, 0u, rp, ci, claim, loc);
                else sg_lv_expand(has, v, 0u, rp, ci, claim, pub);
            }
        }
        len = sg_lvg_stage_end(word, &base[s & 1u], s, &s_cnt, s_buf, nxt, tag);
        ++s;
        level += k;
    }
    // The vertices reached and the deepest level, over lv (every level final now), a warp
    // 32 vertices at a time (handed back: their visited bits, one word).
    unsigned long long cnt = 0ull, deepest = 0ull;
    for (unsigned long long jb = (unsigned long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31u);
         jb < n; jb += nthreads) {
        const unsigned long long j = jb + lane;
        const unsigned int x = j < n ? __ldcg(&lv[j]) : 0xffffffffu;
        const unsigned int word = __ballot_sync(SG_FULL, x != 0xffffffffu);
        if (back && lane == 0u) bits[jb >> 5] = word;
        if (x != 0xffffffffu) {
            ++cnt;
            deepest = x > deepest ? x : deepest;
        }
    }
    for (unsigned int o = 16; o > 0; o >>= 1) {
        cnt += __shfl_xor_sync(SG_FULL, cnt, o);
        const unsigned long long d = __shfl_xor_sync(SG_FULL, deepest, o);
        deepest = d > deepest ? d : deepest;
    }
    if (lane == 0u && cnt != 0ull) {
        atomicAdd(&sync[3], cnt);
        atomicMax(&sync[4], deepest);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&sync[2], 1ull) == gridDim.x - 1) {
            __threadfence();
            out[0] = atomicAdd(&sync[3], 0ull);
            out[1] = atomicAdd(&sync[4], 0ull);
            out[2] = s;
            out[3] = back ? 1ull : 0ull;
            if (back) {
                qh[0] = len;
                qh[1] = level;
                qh[2] = out[0] - len;
            }
            sync[0] = 0;
            sync[1] = 0;
            sync[2] = 0;
            sync[3] = 0;
            sync[4] = 0;
        }
    }
}
"#
        }
        _ => return None,
    })
}
