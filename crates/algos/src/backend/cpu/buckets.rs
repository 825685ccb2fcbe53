//! A relaxation by buckets on a team of threads
//! ([`Frontier::queue_relax_buckets`](crate::backend::Frontier::queue_relax_buckets) on the
//! CPU backend from 32,768 vertices), in the manner of the GAP benchmark suite's
//! delta-stepping: values in 64-bit atomic words lowered by compare-and-swap, each thread's
//! improvements of later buckets kept in buckets of its own, and a bucket's rounds shared out
//! in equal slices. The team meets once a round in one atomic addition per thread (the
//! barrier of `levels.rs`), which also reserves the places of what each thread found for the
//! round after.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;
use semigraph_semiring::{Scalar, Semiring};

use super::Rows;
use super::team::{Barrier, Line, Members, run_team, wait};
use crate::backend::Buckets;
use crate::error::{Error, Result};

/// Buckets a thread keeps in a ring (bucket `b` in slot `b % RING`); later ones wait in one
/// overflow list until the ring reaches them.
const RING: u64 = 64;

/// Why a team stopped, kept in [`Team::why`] (the larger code wins).
const LIMIT: u32 = 1;
const CANCEL: u32 = 2;

/// Relaxes from `seeds` along `rows` (square) into `d` to the fixpoint, bucket by bucket, on
/// `threads` threads (at least 2). Returns the appends, `None` past `limit` (each thread's
/// share), [`Error::Interrupted`] at a stop requested; `d` holds the values reached in every
/// case (each that of some path). A panic in a thread (a [`Buckets`] of the caller's) stops
/// the others and is raised again here.
pub(super) fn relax_buckets<S: Semiring>(
    rows: Rows<'_, S>,
    d: &mut [S::T],
    seeds: &[u32],
    buckets: &dyn Buckets<S::T>,
    limit: usize,
    threads: usize,
) -> Result<Option<usize>> {
    let n = d.len();
    let zeros =
        || -> Vec<AtomicU32> { (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect() };
    let team = Team {
        rows,
        buckets,
        word: d
            .par_iter()
            .map(|x| AtomicU64::new(x.to_bits64()))
            .collect(),
        mark: zeros(),
        queue: [zeros(), zeros()],
        barrier: Barrier::new(threads),
        least: (0..threads)
            .map(|_| Line([AtomicU64::new(u64::MAX), AtomicU64::new(u64::MAX)]))
            .collect(),
        stop_at: Line(AtomicU32::new(u32::MAX)),
        why: Line(AtomicU32::new(0)),
        panicked: Line(AtomicBool::new(false)),
        share: (limit / threads).max(1),
        threads,
    };
    let t = &team;
    let appends: usize = run_team(threads, Members::Started, &team.panicked.0, |me| {
        t.work(
            me,
            &seeds[seeds.len() * me / threads..seeds.len() * (me + 1) / threads],
        )
    })
    .into_iter()
    .sum();
    d.par_iter_mut()
        .zip(&team.word)
        .for_each(|(x, w)| *x = S::T::from_bits64(w.load(Ordering::Relaxed)));
    match team.why.0.load(Ordering::Relaxed) {
        0 => Ok(Some(appends)),
        LIMIT => Ok(None),
        _ => Err(Error::Interrupted),
    }
}

/// What the team shares.
struct Team<'a, S: Semiring> {
    rows: Rows<'a, S>,
    buckets: &'a dyn Buckets<S::T>,
    /// Each vertex's value, as [`Scalar::to_bits64`].
    word: Vec<AtomicU64>,
    /// The last round a vertex was queued for (or taken from a thread's bucket in), so that
    /// it is relaxed once a round. Rounds are counted in 32 bits: the team stops as at its
    /// limit before they would wrap (and a mark match a round again).
    mark: Vec<AtomicU32>,
    /// Per arrival parity: the entries (vertex plus one; 0 not written yet) found before that
    /// arrival for the round after it; a reader sets its entry back to 0.
    queue: [Vec<AtomicU32>; 2],
    /// Each round's end (an arrival a round), which also places the entries found.
    barrier: Barrier,
    /// Per thread and arrival parity: the earliest bucket it holds, written before an
    /// arrival at which it found nothing for the round after (read when no thread did).
    least: Vec<Line<[AtomicU64; 2]>>,
    /// The first arrival after which the team stops (`u32::MAX`: none). Lowered before an
    /// arrival, so every thread reads the same answer after it (a thread that already runs
    /// the next round may lower it to the next arrival meanwhile: hence an arrival, not a
    /// flag).
    stop_at: Line<AtomicU32>,
    /// Why the team stops ([`LIMIT`], [`CANCEL`]); 0 while it goes on.
    why: Line<AtomicU32>,
    /// A thread panicked: the waits give up.
    panicked: Line<AtomicBool>,
    /// Appends a thread makes before the team stops.
    share: usize,
    threads: usize,
}

/// A thread's buckets ahead of the team's: a ring of [`RING`] buckets from `base`, and the
/// later ones in one list.
struct Ahead {
    base: u64,
    ring: Vec<Vec<u32>>,
    /// Bit `b % RING` set: ring bucket `b` holds entries.
    full: u64,
    overflow: Vec<u32>,
    /// The earliest bucket in `overflow` (`u64::MAX`: none).
    overflow_least: u64,
}

impl Ahead {
    fn new() -> Ahead {
        Ahead {
            base: 0,
            ring: (0..RING).map(|_| Vec::new()).collect(),
            full: 0,
            overflow: Vec::new(),
            overflow_least: u64::MAX,
        }
    }

    fn push(&mut self, b: u64, j: u32) {
        if b < self.base.saturating_add(RING) {
            self.ring[(b % RING) as usize].push(j);
            self.full |= 1 << (b % RING);
        } else {
            self.overflow.push(j);
            self.overflow_least = self.overflow_least.min(b);
        }
    }

    /// The earliest bucket held (`u64::MAX`: none).
    fn least(&self) -> u64 {
        let ring = match self.full {
            0 => u64::MAX,
            f => self.base + u64::from(f.rotate_right((self.base % RING) as u32).trailing_zeros()),
        };
        ring.min(self.overflow_least)
    }

    /// Moves the ring to start at `b` (no bucket held is earlier) and takes bucket `b`'s
    /// entries into `out` (emptied first). Overflow entries the ring now reaches go back into
    /// it by their present bucket (`bucket_of`), or are dropped where settled before `b`.
    fn take(&mut self, b: u64, bucket_of: impl Fn(u32) -> u64, out: &mut Vec<u32>) {
        self.base = b;
        if self.overflow_least < b.saturating_add(RING) {
            self.overflow_least = u64::MAX;
            for j in std::mem::take(&mut self.overflow) {
                let at = bucket_of(j);
                if at >= b && at != u64::MAX {
                    self.push(at, j);
                }
            }
        }
        out.clear();
        let slot = (b % RING) as usize;
        std::mem::swap(&mut self.ring[slot], out);
        self.full &= !(1 << slot);
    }
}

impl<S: Semiring> Team<'_, S> {
    fn value(&self, k: u32) -> S::T {
        S::T::from_bits64(self.word[k as usize].load(Ordering::Relaxed))
    }

    /// Whether a thread asked the team to stop for a panic (the waits give up then).
    fn panicked(&self) -> bool {
        self.panicked.0.load(Ordering::Relaxed)
    }

    /// Thread `me`'s part from its `seeds`: rounds until no thread holds anything. Returns
    /// its appends.
    fn work(&self, me: usize, seeds: &[u32]) -> usize {
        let mut ahead = Ahead::new();
        for &k in seeds {
            let b = self.buckets.bucket(self.value(k));
            if b != u64::MAX {
                ahead.push(b, k);
            }
        }
        let (mut found, mut taken) = (Vec::new(), Vec::new());
        let mut appends = 0usize;
        let (mut arrival, mut bucket) = (0u32, 0u64);
        loop {
            // Arrive: say what was found for the next round (and, where nothing, the earliest
            // bucket held), and whether to stop.
            let p = (arrival % 2) as usize;
            if found.is_empty() {
                self.least[me].0[p].store(ahead.least(), Ordering::Relaxed);
            }
            for (stop, why) in [
                (appends > self.share || arrival >= u32::MAX - 4, LIMIT),
                (crate::cancel::requested(), CANCEL),
            ] {
                if stop {
                    self.why.0.fetch_max(why, Ordering::Relaxed);
                    self.stop_at.0.fetch_min(arrival, Ordering::Relaxed);
                }
            }
            let arrived = self.barrier.arrive(arrival, found.len());
            let at = arrived.at;
            for (slot, &j) in self.queue[p][at..at + found.len()].iter().zip(&found) {
                slot.store(j + 1, Ordering::Release);
            }
            found.clear();
            let Some(next) = self.barrier.wait(&arrived, &self.panicked.0) else {
                return appends;
            };
            if self.stop_at.0.load(Ordering::Relaxed) <= arrival {
                return appends;
            }
            arrival += 1;
            let round = arrival;
            if next == 0 {
                // The bucket is settled: on to the earliest any thread holds.
                let least = self
                    .least
                    .iter()
                    .map(|l| l.0[p].load(Ordering::Relaxed))
                    .min();
                match least {
                    Some(b) if b != u64::MAX => bucket = b,
                    _ => return appends,
                }
                let bucket_of = |j: u32| self.buckets.bucket(self.value(j));
                ahead.take(bucket, bucket_of, &mut taken);
                for &k in &taken {
                    let b = bucket_of(k);
                    if b > bucket && b != u64::MAX {
                        ahead.push(b, k);
                    } else if b == bucket && self.take_once(k, round) {
                        appends += self.relax(k, bucket, round, &mut found, &mut ahead);
                    }
                    // Else settled in an earlier bucket: not relaxed again.
                }
                continue;
            }
            // A round of the bucket: this thread's slice of what the last round found.
            let mine = next * me / self.threads..next * (me + 1) / self.threads;
            for e in mine {
                let slot = &self.queue[p][e];
                let Some(k) = wait(|| {
                    if self.panicked() {
                        return Some(None);
                    }
                    match slot.load(Ordering::Acquire) {
                        0 => None,
                        k => Some(Some(k - 1)),
                    }
                }) else {
                    return appends;
                };
                slot.store(0, Ordering::Relaxed);
                appends += self.relax(k, bucket, round, &mut found, &mut ahead);
            }
        }
    }

    /// Whether this thread takes `k` from its own bucket in round `round`: not if another
    /// thread took it in this round or queued it for the next (the next round relaxes it).
    /// A compare-and-swap, so that the mark of a vertex queued for the next round (set by a
    /// swap in [`Team::relax`]) is never overwritten: a vertex enters the next round's queue
    /// once, and the queue of `n` places holds every round's.
    fn take_once(&self, k: u32, round: u32) -> bool {
        let mark = &self.mark[k as usize];
        let m = mark.load(Ordering::Relaxed);
        m != round
            && m != round.wrapping_add(1)
            && mark
                .compare_exchange(m, round, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Relaxes the arcs of `k` in round `round` of bucket `bucket`: improvements of this
    /// bucket (or an earlier one) go to `found` for the next round (each vertex once a
    /// round), later ones to `ahead`. Returns the improvements made.
    fn relax(
        &self,
        k: u32,
        bucket: u64,
        round: u32,
        found: &mut Vec<u32>,
        ahead: &mut Ahead,
    ) -> usize {
        let x = self.value(k);
        let (cols, vals) = self.rows.row(k as usize);
        let mut made = 0;
        for (e, &j) in cols.iter().enumerate() {
            let t = S::mul_at(vals.at(e), x, u64::from(k));
            if S::is_zero(t) {
                continue;
            }
            let w = &self.word[j as usize];
            let mut old = w.load(Ordering::Relaxed);
            let new = loop {
                let now = S::T::from_bits64(old);
                let new = S::add(now, t);
                if new.to_bits64() == old {
                    break None;
                }
                match w.compare_exchange_weak(
                    old,
                    new.to_bits64(),
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break Some(new),
                    Err(seen) => old = seen,
                }
            };
            let Some(new) = new else { continue };
            made += 1;
            let b = self.buckets.bucket(new);
            if b <= bucket {
                let next = round.wrapping_add(1);
                if self.mark[j as usize].swap(next, Ordering::Relaxed) != next {
                    found.push(j);
                }
            } else {
                ahead.push(b, j);
            }
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use semigraph_formats::{ConvertOptions, Format};
    use semigraph_semiring::MinPlus;

    use crate::prelude::*;
    use crate::{Buckets, Width, arcs_to_csr};

    /// A `side` x `side` grid, each vertex joined to its neighbours both ways, with weights
    /// 1..=100 from a fixed sequence.
    fn grid(side: u32) -> semigraph_formats::Csr<MinPlus<i32>> {
        let mut arcs = Vec::new();
        let mut w = 12345u64;
        let mut next = || {
            w = w
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (w >> 33) as i32 % 100 + 1
        };
        for r in 0..side {
            for c in 0..side {
                let v = r * side + c;
                if c + 1 < side {
                    arcs.push((v, v + 1, next()));
                    arcs.push((v + 1, v, next()));
                }
                if r + 1 < side {
                    arcs.push((v, v + side, next()));
                    arcs.push((v + side, v, next()));
                }
            }
        }
        arcs_to_csr::<MinPlus<i32>>((side * side) as usize, &arcs).unwrap()
    }

    /// The values from `seeds` (at 0): on one thread through the backend (a bucket a call),
    /// on a team through the team itself (not through the process's one slot, which tests
    /// running side by side may hold).
    fn run(
        threads: usize,
        a: &semigraph_formats::Csr<MinPlus<i32>>,
        seeds: &[u32],
        buckets: &dyn Buckets<i32>,
        limit: usize,
    ) -> (Option<usize>, Vec<i32>) {
        let b = CpuBackend::new().with_levels_threads(1);
        let n = a.nrows();
        let m = b
            .matrix(a, Format::Csr, &ConvertOptions::default())
            .unwrap();
        let mut start = vec![i32::MAX; n];
        for &s in seeds {
            start[s as usize] = 0;
        }
        if threads > 1 {
            let got = super::relax_buckets(m.rows(), &mut start, seeds, buckets, limit, threads);
            return (got.unwrap(), start);
        }
        let mut d = b.dense::<MinPlus<i32>>(n, 1, &start).unwrap();
        let (mut q, mut spare) = (b.queue(n).unwrap(), b.queue(n).unwrap());
        b.queue_set(&mut q, seeds, &vec![0; seeds.len()], 0)
            .unwrap();
        let got = b
            .queue_relax_buckets(
                RelaxStep::new(&mut d, &m),
                &mut q,
                &mut spare,
                buckets,
                limit,
            )
            .unwrap();
        (got, b.read_dense(&d).unwrap())
    }

    /// Every team size (more threads than cores included) reaches the one thread's values,
    /// with narrow buckets (many rounds and buckets), wide ones, and buckets past the ring
    /// (a width of 1 against weights up to 100), from one seed and from several.
    #[test]
    fn teams_equal_one_thread() {
        let a = grid(90);
        for seeds in [vec![0u32], vec![8099, 77, 77, 4000]] {
            for width in [1, 20, 1000, i32::MAX / 4] {
                let one = run(1, &a, &seeds, &Width(width), usize::MAX);
                assert!(one.0.is_some());
                assert!(one.1.iter().all(|&x| x < i32::MAX), "a grid is connected");
                for threads in [2, 3, 7, 16] {
                    let team = run(threads, &a, &seeds, &Width(width), usize::MAX);
                    assert!(team.0.is_some(), "{threads} threads, width {width}");
                    assert!(
                        team.1 == one.1,
                        "{threads} threads, width {width}, seeds {seeds:?}"
                    );
                }
            }
        }
    }

    /// Past its limit a team stops (`None`) with values of some path, never below the
    /// fixpoint.
    #[test]
    fn limit_stops() {
        let a = grid(60);
        let (_, want) = run(1, &a, &[0], &Width(1), usize::MAX);
        let (got, d) = run(4, &a, &[0], &Width(1_000_000), 100);
        assert_eq!(got, None);
        assert!(d.iter().zip(&want).all(|(g, w)| g >= w));
    }

    /// A bucket whose relaxation stops (here at the limit of improvements, on one thread: a
    /// bucket a call) is taken again in narrower buckets, from the values it left, to the
    /// fixpoint; [`Buckets::narrower`] is asked once a stop.
    #[test]
    fn a_stopped_bucket_goes_on_narrower() {
        use std::sync::atomic::{AtomicU32, Ordering};
        struct Counted(Width<i32>, AtomicU32);
        impl Buckets<i32> for Counted {
            fn bucket(&self, x: i32) -> u64 {
                self.0.bucket(x)
            }
            fn bound(&self, b: u64) -> i32 {
                self.0.bound(b)
            }
            // Positive weights: narrower buckets are allowed.
            fn narrower(&self, k: u32) -> Option<Box<dyn Buckets<i32> + '_>> {
                self.1.fetch_add(1, Ordering::Relaxed);
                let w = self.0.0 >> k;
                (w > 0).then(|| Box::new(Width(w)) as Box<dyn Buckets<i32>>)
            }
        }
        let a = grid(60);
        let (_, want) = run(1, &a, &[0], &Width(1), usize::MAX);
        // (width, limit, stops, whether the narrower buckets reach the fixpoint)
        for (width, limit, stops, done) in [
            (4000, 6000, 1, true),
            (1_000_000, 4000, 2, true),
            (1_000_000, 100, crate::backend::NARROWINGS, false),
        ] {
            let c = Counted(Width(width), AtomicU32::new(0));
            let (got, d) = run(1, &a, &[0], &c, limit);
            assert_eq!(
                c.1.load(Ordering::Relaxed),
                stops,
                "width {width}, limit {limit}"
            );
            assert_eq!(got.is_some(), done, "width {width}, limit {limit}");
            match done {
                true => assert_eq!(d, want, "width {width}, limit {limit}"),
                false => assert!(d.iter().zip(&want).all(|(g, w)| g >= w)),
            }
        }
    }

    /// A panic in a caller's `Buckets` on one thread of a team reaches the caller; the other
    /// threads do not wait for it forever.
    #[test]
    fn a_panic_reaches_the_caller() {
        struct Fails;
        impl Buckets<i32> for Fails {
            fn bucket(&self, x: i32) -> u64 {
                assert!(x < 500, "no bucket for {x}");
                x as u64 / 10
            }
            fn bound(&self, b: u64) -> i32 {
                (b as i32 + 1) * 10
            }
        }
        let a = grid(40);
        let r = std::panic::catch_unwind(|| run(4, &a, &[0], &Fails, usize::MAX));
        assert!(r.is_err());
    }
}
