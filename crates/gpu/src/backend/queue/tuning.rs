//! The limits of the queue kernels: defaults measured on the GPU machines, each overridden by
//! an environment variable read once.

use std::sync::OnceLock;

#[cfg(doc)]
use crate::codegen::Kernel;

/// Threads of the one block of [`Kernel::QueueRelaxLoop`] (its tile holds this many entries).
pub(super) const LOOP_BLOCK: u32 = 1024;

/// Longest frontier that [`Kernel::QueueRelaxLoop`] runs by default: frontiers past one tile
/// are read a tile at a time, which on road graphs (NY: up to 1,173 entries and 3,465 arcs a
/// level) keeps every level in the one block instead of a launch of the whole GPU per step.
pub(super) const LOOP_ENTRIES: usize = 4 * LOOP_BLOCK as usize;

/// Most arcs of a step that [`Kernel::QueueRelaxLoop`] runs by default: past them the step's
/// arcs take the one block longer than a launch of the whole GPU (H200, Bellman-Ford on NY
/// with weights 1..1000: 15.3 ms with 4,096, 16.1 ms with 8,192; BFS levels of NY have at
/// most 3,465 arcs).
pub(super) const LOOP_ARCS: u32 = 4096;

/// Longest frontier that [`Kernel::QueueRelaxGrid`] runs by default: past it a step has work
/// enough to fill the GPU, and runs as its own launches with a grid sized to it.
pub(super) const GRID_ENTRIES: usize = 1 << 16;

/// Threads of each block of [`Kernel::QueueRelaxGrid`] (one block per multiprocessor).
pub(super) const GRID_BLOCK: u32 = 512;

/// Most appends of [`Kernel::QueueRelaxAsync`]'s worklist, per vertex (its 8-byte slots are
/// allocated for the run): a traversal past them has improved each vertex eight times on
/// average, and steps would do less work. BFS on road graphs appends 1.2-3.4 times as many
/// entries as vertices, now and then about 4 times (NY on 4 or 16 blocks: 2 of 6 runs).
pub(super) const FIX_APPENDS: usize = 8;

/// Most entries waiting at once in [`Kernel::QueueRelaxAsync`]'s worklist before it stops, at
/// least (a frontier this wide fills the GPU in steps, which do no repeated work); graphs of
/// more than a million vertices allow one per [`FIX_VERTICES_PER_PENDING`] vertices (H100:
/// NE, 1.5 M vertices, stopped at 8,192 and ran its levels in 47 ms instead of 7.3; uniform
/// random graphs of 2^20 vertices lose 8-20% to the stop at 32,768).
pub(super) const FIX_PENDING: usize = 1 << 15;

/// Vertices per entry allowed to wait in the fixpoint's worklist past [`FIX_PENDING`].
pub(super) const FIX_VERTICES_PER_PENDING: usize = 32;

/// Vertices per block of [`Kernel::QueueRelaxAsync`] by default, with at least
/// [`FIX_MIN_BLOCKS`] and at most a block per multiprocessor (H200, BFS when it took this
/// kernel: NY, 264 k vertices, 3.36 ms on 4 blocks, 4.96 on one, 3.45 on 16; NE, 1.5 M, 8.35
/// ms on 4, 6.99 on 16).
pub(super) const FIX_VERTICES_PER_BLOCK: usize = 1 << 16;

/// Fewest blocks of [`Kernel::QueueRelaxAsync`] by default. Its users now are shortest paths
/// (the fixpoint a bucket), where more blocks pay on road networks under a million vertices
/// (H200, SSSP weights 1..1000, resident medians of two rounds: NY 7.60-7.89 ms on 4 blocks,
/// 6.81-7.33 on 8, 6.83-6.99 on 16, 7.14-7.24 on 32, 8.6 on 64; BAY 6.47 on 4, 5.42 on 16;
/// FLA, 16 either way, 19.3-19.7); BFS takes the levels kernels.
pub(super) const FIX_MIN_BLOCKS: u32 = 16;

/// Longest frontier of [`Kernel::QueueLevels`] by default (two queues of this many entries
/// beside the visited set in shared memory; fewer where the visited set leaves less room):
/// road networks' levels are far shorter (NY: at most 1,173 vertices, NE 3,170).
pub(super) const LEVELS_ENTRIES: usize = 8192;

/// Average frontier of [`Kernel::QueueLevels`] past which (after its first 64 levels) the
/// one block hands its frontier over ([`Kernel::QueueLevelsGrid`]): a level of the block
/// costs a fixed latency plus a few nanoseconds a vertex, more than a level over every
/// multiprocessor once most levels need more than one pass of the block's 1,024 threads.
/// Chosen with [`LEVELS_NARROW`] (the grid hands narrow levels back). H200, resident BFS
/// (ms), hand-over / hand-back 768 / none (the code before the hand-back, one round), then
/// 768 / 512, 768 / 768, **640 / 512**, 512 / 512 (the mean of two rounds): NE 4.49 / 4.42 /
/// 4.39 / **4.21** / 4.25, FLA 5.03 / 5.00 / 4.92 / **4.95** / 5.02, NW 6.28 / 6.36 / 6.32 /
/// **6.19** / 5.91, BAY 1.67 / 1.48 / 1.44 / **1.50** / 1.56, NY 1.34 / 1.40 / 1.35 /
/// **1.38** / 1.36, grid 1000 x 1000 4.06 / 4.09 / 4.10 / **4.09** / 4.72
/// (the benchmark log in git history, thirty-seventh session).
pub(super) const LEVELS_WIDE: u32 = 640;

/// Frontier below which [`Kernel::QueueLevelsGrid`] hands the levels back to
/// [`Kernel::QueueLevels`]'s block (`SEMIGRAPH_LEVELS_NARROW`; 0: never): a narrow level costs
/// the block a fixed latency and a few nanoseconds a vertex, the grid a grid barrier (a road
/// network's last levels, after its frontiers were wide for a while). H200, hand-over at 768,
/// hand-back never / 128 / 256 / 512 (ms): BAY 1.67 / 1.64 / 1.52 / 1.52, FLA 5.03 / 5.03 /
/// 4.91 / 4.99, NE 4.49 / 4.50 / 4.50 / 4.41, the others level (see [`LEVELS_WIDE`]).
pub(super) const LEVELS_NARROW: u32 = 512;

/// Frontier above which a block resumed after a hand-back hands its levels over again
/// (`SEMIGRAPH_LEVELS_AGAIN`; at least [`LEVELS_NARROW`]): far enough above it that a
/// frontier near either does not go back and forth.
pub(super) const LEVELS_AGAIN: u32 = 1024;

/// Most hand-backs a traversal ([`LEVELS_NARROW`]): each costs a launch and a read of the
/// counts; after them the grid runs to the end.
pub(super) const LEVELS_TURNS: u32 = 16;

/// Fewest entries of [`Kernel::QueueLevels`]'s queues: a graph whose visited set leaves less
/// room in shared memory (past about 1.8 million vertices on an H100) runs its levels as steps.
pub(super) const LEVELS_MIN_ENTRIES: usize = 1024;

/// Blocks (of [`GRID_BLOCK`] threads) of [`Kernel::QueueLevelsGrid`] by default, at most one
/// per multiprocessor (so by default one on each): the wide levels that
/// [`Kernel::QueueLevels`]'s block hands back (H200, NE: 4.6 ms on 32 blocks, 4.4 on 132).
pub(super) const LEVELS_GRID_BLOCKS: u32 = 1024;

/// Most levels of a stage of [`Kernel::QueueLevelsGrid`] by default: past its first level
/// each block goes on alone from the vertices it found, where the most it could find fits its
/// shared queues (one grid barrier for several levels: road networks' narrow frontiers).
pub(super) const LEVELS_SUB: u32 = 4;

/// Entries of each of the two shared queues of [`Kernel::QueueLevelsGrid`]'s sub-levels by
/// default (fewer where the multiprocessor's shared memory leaves less room).
pub(super) const LEVELS_SUB_ENTRIES: u32 = 32768;

/// When a frontier runs its steps in one block ([`Kernel::QueueRelaxLoop`]) or in one
/// cooperative launch ([`Kernel::QueueRelaxGrid`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tuning {
    /// Longest frontier (`SEMIGRAPH_LOOP_ENTRIES`, default [`LOOP_ENTRIES`]; 0 turns the one
    /// block off).
    pub(super) loop_entries: usize,
    /// Most arcs of a step's frontier (`SEMIGRAPH_LOOP_ARCS`, default [`LOOP_ARCS`]).
    pub(super) loop_arcs: u32,
    /// Longest frontier of the cooperative launch (`SEMIGRAPH_GRID_ENTRIES`, default
    /// [`GRID_ENTRIES`]; 0 turns it off).
    pub(super) grid_entries: usize,
    /// Most entries waiting at once in the fixpoint's worklist (`SEMIGRAPH_FIX_PENDING`,
    /// default [`FIX_PENDING`]; 0 turns the fixpoint kernel off).
    pub(super) fix_pending: usize,
    /// Blocks of the fixpoint kernel (`SEMIGRAPH_FIX_BLOCKS`; 0, the default, sizes them to
    /// the graph: [`FIX_VERTICES_PER_BLOCK`]).
    pub(super) fix_blocks: u32,
    /// Most appends of the fixpoint's worklist per vertex (`SEMIGRAPH_FIX_APPENDS`, default
    /// [`FIX_APPENDS`]; at least 1).
    pub(super) fix_appends: usize,
    /// Longest frontier of the one-block levels kernel (`SEMIGRAPH_LEVELS_ENTRIES`, default
    /// [`LEVELS_ENTRIES`]; 0 turns it off).
    pub(super) levels_entries: usize,
    /// Average frontier past which the one block hands its levels over (`SEMIGRAPH_LEVELS_WIDE`,
    /// default [`LEVELS_WIDE`]).
    pub(super) levels_wide: u32,
    /// Blocks of the levels over the whole GPU (`SEMIGRAPH_LEVELS_GRID`, default
    /// [`LEVELS_GRID_BLOCKS`]; 0 turns them off: the frontier the block hands back goes to the
    /// caller).
    pub(super) levels_grid: u32,
    /// Whether the levels over the whole GPU also run from the seeds where the one block
    /// cannot (`SEMIGRAPH_LEVELS_GRID_SEEDS`, 1 or 0).
    pub(super) levels_grid_seeds: bool,
    /// Most levels of a stage of the levels over the whole GPU (`SEMIGRAPH_LEVELS_SUB`,
    /// default [`LEVELS_SUB`]; 1: a grid barrier every level).
    pub(super) levels_sub: u32,
    /// Entries of each shared queue of those stages (`SEMIGRAPH_LEVELS_SUB_ENTRIES`, default
    /// [`LEVELS_SUB_ENTRIES`]).
    pub(super) levels_sub_entries: u32,
    /// Whether the one-block levels kernel reads a graph's rows as four slots each
    /// ([`Kernel::QueueLevelsRows`], 16 bytes a vertex, made once a graph;
    /// `SEMIGRAPH_LEVELS_ROWS4`, 1 by default, 0 reads the CSR alone).
    pub(super) levels_rows4: bool,
    /// Frontier below which the grid hands the levels back (`SEMIGRAPH_LEVELS_NARROW`,
    /// default [`LEVELS_NARROW`]; 0: never).
    pub(super) levels_narrow: u32,
    /// Frontier above which a resumed block hands over again (`SEMIGRAPH_LEVELS_AGAIN`,
    /// default [`LEVELS_AGAIN`]).
    pub(super) levels_again: u32,
}

/// The one-block limits: defaults measured on an H100 (the benchmark log in git history), or
/// `SEMIGRAPH_LOOP_ENTRIES` / `SEMIGRAPH_LOOP_ARCS` (read once; 0 entries turns the
/// one-block path off).
pub(super) fn get() -> Tuning {
    static T: OnceLock<Tuning> = OnceLock::new();
    *T.get_or_init(|| {
        let env = |k: &str| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
        };
        Tuning {
            loop_entries: env("SEMIGRAPH_LOOP_ENTRIES")
                .map_or(LOOP_ENTRIES, |v| v.min(u32::MAX as u64) as usize),
            loop_arcs: env("SEMIGRAPH_LOOP_ARCS")
                .map_or(LOOP_ARCS, |v| v.min(u32::MAX as u64) as u32),
            grid_entries: env("SEMIGRAPH_GRID_ENTRIES")
                .map_or(GRID_ENTRIES, |v| v.min(u32::MAX as u64) as usize),
            fix_pending: env("SEMIGRAPH_FIX_PENDING")
                .map_or(FIX_PENDING, |v| v.min(u32::MAX as u64) as usize),
            fix_blocks: env("SEMIGRAPH_FIX_BLOCKS").map_or(0, |v| v.min(1024) as u32),
            fix_appends: env("SEMIGRAPH_FIX_APPENDS")
                .map_or(FIX_APPENDS, |v| v.clamp(1, 1024) as usize),
            levels_entries: env("SEMIGRAPH_LEVELS_ENTRIES")
                .map_or(LEVELS_ENTRIES, |v| v.min(1 << 24) as usize),
            levels_wide: env("SEMIGRAPH_LEVELS_WIDE")
                .map_or(LEVELS_WIDE, |v| v.min(u32::MAX as u64) as u32),
            levels_grid: env("SEMIGRAPH_LEVELS_GRID")
                .map_or(LEVELS_GRID_BLOCKS, |v| v.min(1024) as u32),
            levels_grid_seeds: env("SEMIGRAPH_LEVELS_GRID_SEEDS").is_some_and(|v| v != 0),
            levels_sub: env("SEMIGRAPH_LEVELS_SUB").map_or(LEVELS_SUB, |v| v.clamp(1, 64) as u32),
            levels_sub_entries: env("SEMIGRAPH_LEVELS_SUB_ENTRIES")
                .map_or(LEVELS_SUB_ENTRIES, |v| v.min(1 << 20) as u32),
            levels_rows4: env("SEMIGRAPH_LEVELS_ROWS4").is_none_or(|v| v != 0),
            levels_narrow: env("SEMIGRAPH_LEVELS_NARROW")
                .map_or(LEVELS_NARROW, |v| v.min(u32::MAX as u64) as u32),
            levels_again: env("SEMIGRAPH_LEVELS_AGAIN")
                .map_or(LEVELS_AGAIN, |v| v.min(u32::MAX as u64) as u32),
        }
    })
}
