//! What the CPU backend's teams of threads share: the team's size, the process's one team
//! slot, lines of their own for what threads write often, and spinning waits. A team is a
//! set of threads (rayon's, or started for the call) that meet at a spinning barrier (one
//! atomic addition per thread) many times in one call: the levels of a traversal (`levels.rs`) and the rounds of a
//! relaxation by buckets (`buckets.rs`), where a fork-join of rayon's tasks per round would
//! cost more than the round.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Graphs of fewer vertices run on one thread whatever the team's size: their whole
/// traversal costs less than starting a team.
pub(super) const TEAM_MIN_N: usize = 1 << 15;

/// The team's size for a call over `n` vertices: `set` where the backend was given one
/// ([`CpuBackend::with_levels_threads`](super::CpuBackend::with_levels_threads)), else
/// `SEMIGRAPH_CPU_LEVELS_THREADS` (read once), else rayon's thread count up to 16 (measured
/// on 16 cores, the benchmark log in git history: 16 threads as fast as 8 on levels of a few hundred
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

/// Where a team's threads meet, arrival after arrival (numbered from 0, each thread making
/// every one), each arrival one atomic addition that also sums what the threads bring (a
/// count each, below `2^32` in all): the arrival's parity picks one of two words, whose high
/// half counts the arrivals since the start and whose low half sums this arrival's counts.
/// The last to arrive copies the word to a line of its own for the others to wait on, and
/// clears the sum for the next arrival of that parity, which no thread can make before every
/// thread has left this one (the arrival between comes first). No leader, one barrier.
pub(super) struct Barrier {
    sync: [Line<AtomicU64>; 2],
    done: [Line<AtomicU64>; 2],
    threads: u32,
}

/// One thread's arrival at a [`Barrier`]: `at` is where its count starts among the arrival's
/// (the sum of those that arrived before it).
pub(super) struct Arrived {
    parity: usize,
    /// The arrivals at this parity's word once every thread has made this one.
    target: u32,
    pub(super) at: usize,
}

impl Barrier {
    /// A barrier for `threads` threads.
    pub(super) fn new(threads: usize) -> Barrier {
        Barrier {
            sync: [Line(AtomicU64::new(0)), Line(AtomicU64::new(0))],
            done: [Line(AtomicU64::new(0)), Line(AtomicU64::new(0))],
            threads: threads as u32,
        }
    }

    /// Arrival number `arrival` (the same in every thread) bringing `count`. What a thread
    /// wrote before it is seen by every thread after its [`wait`](Barrier::wait).
    pub(super) fn arrive(&self, arrival: u32, count: usize) -> Arrived {
        let parity = (arrival % 2) as usize;
        let add = (1 << 32) | count as u64;
        let prev = self.sync[parity].0.fetch_add(add, Ordering::AcqRel);
        // Arrivals at this word: `threads` for each arrival of its parity so far (mod 2^32).
        let target = (arrival / 2 + 1).wrapping_mul(self.threads);
        if ((prev >> 32) as u32).wrapping_add(1) == target {
            let all = prev + add;
            self.sync[parity]
                .0
                .store(all & !0xffff_ffff, Ordering::Relaxed);
            self.done[parity].0.store(all, Ordering::Release);
        }
        Arrived {
            parity,
            target,
            at: prev as u32 as usize,
        }
    }

    /// Waits until every thread has made the arrival `a`: the sum of its counts, or `None`
    /// once `panicked` says a thread of the team panicked.
    pub(super) fn wait(&self, a: &Arrived, panicked: &AtomicBool) -> Option<usize> {
        let done = &self.done[a.parity].0;
        wait(|| {
            if panicked.load(Ordering::Relaxed) {
                return Some(None);
            }
            let v = done.load(Ordering::Acquire);
            ((((v >> 32) as u32).wrapping_sub(a.target) as i32) >= 0)
                .then_some(Some(v as u32 as usize))
        })
    }
}

/// Whose threads a team's members run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Members {
    /// rayon's (one `broadcast`), where the caller is not one of them and they are enough;
    /// else started for the call. Starting 15 threads costs 0.44 ms on the 16-core GPU host,
    /// waking rayon's tens of microseconds, against a road network's whole BFS of 4-5 ms: the
    /// levels' team, NY's BFS on 16 threads 4.5-4.9 -> 3.6-4.4 ms (the benchmark log in git history,
    /// thirty-eighth session). A pool of the team's own beside rayon's was slower: the two
    /// shared the cores while rayon's still spun from the call's setup.
    Rayon,
    /// Started for the call (the caller's thread is the first): the buckets' team, whose
    /// medians on rayon's threads were worse in both calls that measured it (NY's SSSP 12-14
    /// -> 11-32 ms; the cause not found).
    Started,
}

/// Runs `work(me)` for `me` in `0..threads` on `members`' threads and returns each one's
/// answer in order. A panic in any member sets `panicked` (which the team's waits must
/// watch, so that the others stop waiting for the member that panicked) and is raised again
/// here once every member has ended.
pub(super) fn run_team<T: Send>(
    threads: usize,
    members: Members,
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
    let on_rayon = members == Members::Rayon
        && rayon::current_thread_index().is_none()
        && threads <= rayon::current_num_threads();
    let ends: Vec<std::thread::Result<T>> = if on_rayon {
        // Every member at once on a thread of its own: the pool's threads run no other
        // work from this thread (it waits), and only one team runs at a time (`TeamSlot`).
        // Work that other threads of the program gave rayon delays the team until it ends
        // (the members that started wait at the first barrier), never past it: a member
        // waits on nothing but the team.
        rayon::broadcast(|ctx| (ctx.index() < threads).then(|| run(ctx.index())))
            .into_iter()
            .take(threads)
            .map(|end| end.unwrap_or_else(|| Err(Box::new("a team member did not run"))))
            .collect()
    } else {
        std::thread::scope(|s| {
            let run = &run;
            let others: Vec<_> = (1..threads).map(|i| s.spawn(move || run(i))).collect();
            let mut ends = vec![run(0)];
            ends.extend(others.into_iter().map(|h| h.join().unwrap_or_else(Err)));
            ends
        })
    };
    ends.into_iter()
        .map(|end| end.unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Teams of each kind of members; of rayon's threads where the pool holds them (1 and 2
    /// threads on a machine of 2 cores or more), of threads started for a team larger than
    /// the pool (3 on 2 cores) or from one of rayon's threads (3 in a pool of 2): every member runs at once
    /// (they all meet at a barrier), the answers come back in order, and a member's panic
    /// reaches the caller once the others, told by `panicked`, have stopped waiting.
    #[test]
    fn teams_meet_answer_in_order_and_raise_a_panic() {
        for members in [Members::Rayon, Members::Started] {
            for threads in [1, 2, 3] {
                check_team(threads, members);
            }
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
            pool.expect("a pool of two threads")
                .install(|| check_team(3, members));
        }
    }

    fn check_team(threads: usize, members: Members) {
        let barrier = Barrier::new(threads);
        let panicked = AtomicBool::new(false);
        let got = run_team(threads, members, &panicked, |me| {
            let a = barrier.arrive(0, me);
            (me, barrier.wait(&a, &panicked))
        });
        let sum = threads * (threads - 1) / 2;
        let want: Vec<_> = (0..threads).map(|me| (me, Some(sum))).collect();
        assert_eq!(got, want, "{threads} threads");

        let barrier = Barrier::new(threads);
        let panicked = AtomicBool::new(false);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_team(threads, members, &panicked, |me| {
                assert!(me + 1 < threads, "the last member fails");
                let a = barrier.arrive(0, 1);
                barrier.wait(&a, &panicked)
            })
        }));
        assert!(r.is_err(), "{threads} threads: the panic is raised");
        assert!(panicked.load(Ordering::Acquire));
    }
}
