//! What the CPU backend's teams of threads share: the team's size, the process's one team
//! slot, lines of their own for what threads write often, and spinning waits. A team is a
//! set of scoped threads that meet at a spinning barrier (one atomic addition per thread)
//! many times in one call: the levels of a traversal (`levels.rs`) and the rounds of a
//! relaxation by buckets (`buckets.rs`), where a fork-join of rayon's tasks per round would
//! cost more than the round.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Graphs of fewer vertices run on one thread whatever the team's size: their whole
/// traversal costs less than starting a team.
pub(super) const TEAM_MIN_N: usize = 1 << 15;

/// The team's size for a call over `n` vertices: `set` where the backend was given one
/// ([`CpuBackend::with_levels_threads`](super::CpuBackend::with_levels_threads)), else
/// `SEMIGRAPH_CPU_LEVELS_THREADS` (read once), else rayon's thread count up to 16 (measured
/// on 16 cores, docs/BENCH-ALGOS.md: 16 threads as fast as 8 on levels of a few hundred
/// vertices, road networks', and faster on wider ones; more threads wait longer at each
/// level's barrier); without `set`, one thread below 32,768 vertices.
pub(super) fn team_size(n: usize, set: Option<usize>) -> usize {
    static T: OnceLock<Option<usize>> = OnceLock::new();
    if let Some(t) = set {
        return t.max(1);
    }
    if n < TEAM_MIN_N {
        return 1;
    }
    let env = *T.get_or_init(|| {
        std::env::var("SEMIGRAPH_CPU_LEVELS_THREADS")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    env.unwrap_or_else(|| rayon::current_num_threads().min(16))
        .max(1)
}

/// The process's one team, taken for a call and given back when dropped. Teams run side by
/// side (threads of a program, tests) would wait on each other's preempted threads at every
/// barrier: a call that finds the slot taken runs on its own thread.
pub(super) struct TeamSlot;

static TEAM_BUSY: AtomicBool = AtomicBool::new(false);

impl TeamSlot {
    /// The slot, unless another call holds it.
    pub(super) fn take() -> Option<TeamSlot> {
        (!TEAM_BUSY.swap(true, Ordering::Acquire)).then_some(TeamSlot)
    }
}

impl Drop for TeamSlot {
    fn drop(&mut self) {
        TEAM_BUSY.store(false, Ordering::Release);
    }
}

/// A value alone on its cache line (what the team's threads write often).
#[repr(align(128))]
pub(super) struct Line<T>(pub(super) T);

/// Spins until `ready` gives a value; after 1,024 spins (tens of microseconds) lets the other
/// threads run at each try (more threads than cores: tests in parallel, or a busy machine).
pub(super) fn wait<T>(mut ready: impl FnMut() -> Option<T>) -> T {
    let mut spins = 0u32;
    loop {
        if let Some(v) = ready() {
            return v;
        }
        if spins < 1 << 10 {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}

/// Runs `work(me)` for `me` in `0..threads`, on this thread (`me` 0) and `threads - 1` scoped
/// threads, and returns each one's answer in order. A panic in any of them sets `panicked`
/// (which the team's waits must watch, so that the others stop waiting for the thread that
/// panicked) and is raised again here once every thread has ended.
pub(super) fn run_team<T: Send>(
    threads: usize,
    panicked: &AtomicBool,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let run = |me: usize| {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(me)));
        if r.is_err() {
            panicked.store(true, Ordering::Release);
        }
        r
    };
    let ends: Vec<std::thread::Result<T>> = std::thread::scope(|s| {
        let run = &run;
        let others: Vec<_> = (1..threads).map(|i| s.spawn(move || run(i))).collect();
        let mut ends = vec![run(0)];
        ends.extend(others.into_iter().map(|h| h.join().unwrap_or_else(Err)));
        ends
    });
    ends.into_iter()
        .map(|end| end.unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        .collect()
}
