//! The levels (and parents) of a traversal on the CPU backend
//! ([`Frontier::queue_levels`](crate::backend::Frontier::queue_levels)): one queue of the
//! vertices in the order they are reached, a level after another, each vertex's level and
//! parent packed in one word (`level << 32 | parent`), so that the smaller word is the lower
//! level and then the smaller parent: an arc `k -> j` from level `d` offers `(d + 1) << 32 |
//! k` and keeps the smaller. On one thread a loop without a branch on an arc's outcome; on a
//! team of threads, each thread takes an equal slice of a level's frontier, lowers words by
//! an atomic minimum (after a plain read shows it would change), and the team meets once a
//! level in one atomic addition per thread (a road network's thousand levels of a few
//! hundred vertices each cost a barrier of a microsecond or two, not a fork-join of rayon's
//! tasks). Graphs of short rows (the only ones BFS sends here) keep equal slices even.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::team::{Barrier, Line, Members, TEAM_MIN_N, TeamSlot, run_team, wait};
use crate::backend::NO_PARENT;

/// Not reached: level and parent `u32::MAX`.
const UNSEEN: u64 = u64::MAX;

fn pack(level: u32, parent: u32) -> u64 {
    (u64::from(level) << 32) | u64::from(parent)
}

/// The levels from `seeds` along the rows `row_ptr`/`col_idx` (square) into `levels`, whose
/// every position but the seeds' holds `u32::MAX` (and keeps it where not reached), and, where
/// given, every parent into `parents` (the smallest vertex one level up with an arc to it; a
/// seed its own; [`NO_PARENT`] where not reached); on `threads` threads (on one while another
/// traversal of the process holds the team). Returns the
/// vertices reached and the last level; `None`, with `levels` and `parents` as they were, if
/// a stop was requested ([`cancel`](crate::cancel), checked once a level).
pub(super) fn levels(
    row_ptr: &[u32],
    col_idx: &[u32],
    seeds: &[u32],
    levels: &mut [u32],
    parents: Option<&mut [u32]>,
    threads: usize,
) -> Option<(usize, u32)> {
    let n = levels.len();
    // One team at a time in the process (see `TeamSlot`).
    let slot = (threads > 1).then(TeamSlot::take).flatten();
    if slot.is_none() {
        let mut word: Vec<u64> = vec![UNSEEN; n];
        // Each seed once (a seed's position in `levels` may hold anything), at level 0.
        let mut queue = Vec::with_capacity(n + 1);
        for &s in seeds {
            if word[s as usize] == UNSEEN {
                word[s as usize] = pack(0, s);
                queue.push(s);
            }
        }
        let found = one_thread(row_ptr, col_idx, queue, &mut word)?;
        unpack(&|i| word[i], levels, parents);
        return Some(found);
    }
    let word: Vec<AtomicU64> = (0..n)
        .into_par_iter()
        .map(|_| AtomicU64::new(UNSEEN))
        .collect();
    let mut once = Vec::with_capacity(seeds.len());
    for &s in seeds {
        let w = &word[s as usize];
        if w.load(Ordering::Relaxed) == UNSEEN {
            w.store(pack(0, s), Ordering::Relaxed);
            once.push(s);
        }
    }
    let found = team(row_ptr, col_idx, &once, &word, threads)?;
    unpack(&|i| word[i].load(Ordering::Relaxed), levels, parents);
    Some(found)
}

/// Each word's level into `levels` (where reached: the others hold `u32::MAX` already) and its
/// parent into `parents`; by pieces on every thread from 32,768 vertices.
fn unpack(word: &(impl Fn(usize) -> u64 + Sync), levels: &mut [u32], parents: Option<&mut [u32]>) {
    const PIECE: usize = 1 << 14;
    let piece = |at: usize, l: &mut [u32], p: Option<&mut [u32]>| {
        for (i, l) in l.iter_mut().enumerate() {
            let w = word(at + i);
            if w != UNSEEN {
                *l = (w >> 32) as u32;
            }
        }
        for (i, p) in p.into_iter().flatten().enumerate() {
            let w = word(at + i);
            *p = if w != UNSEEN { w as u32 } else { NO_PARENT };
        }
    };
    let wide = levels.len() >= TEAM_MIN_N;
    match parents {
        Some(p) if wide => levels
            .par_chunks_mut(PIECE)
            .zip(p.par_chunks_mut(PIECE))
            .enumerate()
            .for_each(|(c, (l, p))| piece(c * PIECE, l, Some(p))),
        None if wide => levels
            .par_chunks_mut(PIECE)
            .enumerate()
            .for_each(|(c, l)| piece(c * PIECE, l, None)),
        p => piece(0, levels, p),
    }
}

/// The loop on one thread: `queue[start..end]` is the frontier at level `depth`. Each arc
/// writes its target's word back (lowered or not) and its id past the queue's end, which
/// advances only for a vertex not reached before: no branch on the outcome, which is a coin
/// toss on a road network's frontier.
fn one_thread(
    row_ptr: &[u32],
    col_idx: &[u32],
    mut queue: Vec<u32>,
    word: &mut [u64],
) -> Option<(usize, u32)> {
    let mut tail = queue.len();
    // One slot past the last vertex for the write of an arc that reaches nothing new.
    queue.resize(word.len() + 1, 0);
    let (mut start, mut depth) = (0, 0u32);
    loop {
        let end = tail;
        for e in start..end {
            let k = queue[e];
            let offer = pack(depth + 1, k);
            let row = row_ptr[k as usize] as usize..row_ptr[k as usize + 1] as usize;
            for &j in &col_idx[row] {
                let w = &mut word[j as usize];
                let old = *w;
                *w = old.min(offer);
                queue[tail] = j;
                tail += usize::from(old == UNSEEN);
            }
        }
        if tail == end {
            return Some((end, depth));
        }
        if crate::cancel::requested() {
            return None;
        }
        (start, depth) = (end, depth + 1);
    }
}

/// What the team shares. Each level, thread `t` expands the `t`-th of `threads` equal slices
/// of the frontier, then in one arrival at the [`Barrier`] (one atomic addition) says it
/// arrived and reserves the places of the vertices it found, writes them there, and waits
/// until every thread has arrived: then every thread knows the next frontier's bounds from
/// the same sum, with no leader, no shared cursor and one barrier a level. A
/// place is written once in a traversal, with the vertex plus one, so a reader of an entry
/// still being written waits for it to be non-zero.
struct Team<'a> {
    row_ptr: &'a [u32],
    col_idx: &'a [u32],
    word: &'a [AtomicU64],
    /// Every vertex reached plus one, in the order of its level; 0 not written yet.
    queue: Vec<AtomicU32>,
    /// The end of each level (an arrival a level), which also places the vertices found.
    barrier: Barrier,
    /// The first level at whose end a stop was requested (`u32::MAX`: none). Set before an
    /// arrival, so every thread reads the same answer once all have arrived.
    stop_at: Line<AtomicU32>,
    /// A thread panicked: the waits give up (and the panic reaches the caller).
    panicked: Line<AtomicBool>,
    threads: usize,
}

fn team(
    row_ptr: &[u32],
    col_idx: &[u32],
    seeds: &[u32],
    word: &[AtomicU64],
    threads: usize,
) -> Option<(usize, u32)> {
    if seeds.is_empty() {
        return Some((0, 0));
    }
    let queue: Vec<AtomicU32> = (0..word.len())
        .into_par_iter()
        .map(|_| AtomicU32::new(0))
        .collect();
    for (slot, &s) in queue.iter().zip(seeds) {
        slot.store(s + 1, Ordering::Relaxed);
    }
    let t = Team {
        row_ptr,
        col_idx,
        word,
        queue,
        barrier: Barrier::new(threads),
        stop_at: Line(AtomicU32::new(u32::MAX)),
        panicked: Line(AtomicBool::new(false)),
        threads,
    };
    let seeds = seeds.len();
    // Every thread ends at the same level with the same answer.
    run_team(threads, Members::Rayon, &t.panicked.0, |me| {
        t.work(me, seeds)
    })
    .into_iter()
    .next()
    .flatten()
}

impl Team<'_> {
    /// Whether a thread of the team panicked (the waits give up then).
    fn panicked(&self) -> bool {
        self.panicked.0.load(Ordering::Relaxed)
    }

    /// Thread `me`'s part, from the first `seeds` entries of the queue: the levels until one
    /// finds nothing (the vertices reached and the last level), or `None` at a stop.
    fn work(&self, me: usize, seeds: usize) -> Option<(usize, u32)> {
        let mut found = Vec::new();
        let (mut start, mut end, mut depth) = (0usize, seeds, 0u32);
        loop {
            let len = end - start;
            let mine = start + len * me / self.threads..start + len * (me + 1) / self.threads;
            for e in mine {
                let k = wait(|| match self.queue[e].load(Ordering::Acquire) {
                    _ if self.panicked() => Some(None),
                    0 => None,
                    k => Some(Some(k - 1)),
                })?;
                let offer = pack(depth + 1, k);
                let row = self.row_ptr[k as usize] as usize..self.row_ptr[k as usize + 1] as usize;
                for &j in &self.col_idx[row] {
                    let w = &self.word[j as usize];
                    // The plain read skips what cannot change (most arcs) without an atomic
                    // write; the minimum says who reached the vertex first.
                    if w.load(Ordering::Relaxed) > offer
                        && w.fetch_min(offer, Ordering::Relaxed) == UNSEEN
                    {
                        found.push(j);
                    }
                }
            }
            if crate::cancel::requested() {
                self.stop_at.0.fetch_min(depth, Ordering::Relaxed);
            }
            let arrived = self.barrier.arrive(depth, found.len());
            let at = end + arrived.at;
            for (slot, &j) in self.queue[at..at + found.len()].iter().zip(&found) {
                slot.store(j + 1, Ordering::Release);
            }
            found.clear();
            let next = self.barrier.wait(&arrived, &self.panicked.0)?;
            if self.stop_at.0.load(Ordering::Relaxed) <= depth {
                return None;
            }
            if next == 0 {
                return Some((end, depth));
            }
            (start, end, depth) = (end, end + next, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square grid's rows, each vertex joined to its neighbours both ways.
    fn grid(side: u32) -> (Vec<u32>, Vec<u32>) {
        let (mut rp, mut ci) = (vec![0u32], Vec::new());
        for r in 0..side {
            for c in 0..side {
                let v = r * side + c;
                let mut row = Vec::new();
                if r > 0 {
                    row.push(v - side);
                }
                if c > 0 {
                    row.push(v - 1);
                }
                if c + 1 < side {
                    row.push(v + 1);
                }
                if r + 1 < side {
                    row.push(v + side);
                }
                ci.extend(row);
                rp.push(ci.len() as u32);
            }
        }
        (rp, ci)
    }

    /// Every team size (more threads than cores included) gives the one thread's levels and
    /// parents, from one seed and from several with a repeat.
    #[test]
    fn teams_equal_one_thread() {
        let side = 120u32;
        let (rp, ci) = grid(side);
        let n = (side * side) as usize;
        for seeds in [vec![0u32], vec![n as u32 - 1, 77, 77, 5000]] {
            let run = |threads| {
                let mut lv = vec![u32::MAX; n];
                let mut p = vec![0u32; n];
                let found = levels(&rp, &ci, &seeds, &mut lv, Some(&mut p), threads).unwrap();
                (found, lv, p)
            };
            let one = run(1);
            assert_eq!(one.0.0, n, "a grid is connected");
            for threads in [2, 3, 7, 16] {
                assert!(run(threads) == one, "{threads} threads, seeds {seeds:?}");
            }
        }
    }

    /// A panic in one thread of a team (here an arc to a vertex past the end, which a CSR's
    /// construction refuses) reaches the caller; the other threads do not wait for it
    /// forever.
    #[test]
    fn a_panic_reaches_the_caller() {
        // 0 -> 1 -> 9 (no such vertex) on 2 vertices, seeds 0 and 1 on different threads.
        let (rp, ci) = (vec![0u32, 1, 2], vec![1u32, 9]);
        let r = std::panic::catch_unwind(|| {
            let mut lv = vec![u32::MAX; 2];
            levels(&rp, &ci, &[0, 1], &mut lv, None, 2)
        });
        assert!(r.is_err());
    }

    /// A vertex no seed reaches keeps `u32::MAX` and gets no parent; no seeds reach nothing.
    #[test]
    fn unreached_and_no_seeds() {
        // 0 -> 1, 2 alone.
        let (rp, ci) = (vec![0u32, 1, 1, 1], vec![1u32]);
        for threads in [1, 2] {
            let (mut lv, mut p) = (vec![u32::MAX; 3], vec![7u32; 3]);
            let found = levels(&rp, &ci, &[0], &mut lv, Some(&mut p), threads).unwrap();
            assert_eq!(found, (2, 1));
            assert_eq!((lv, p), (vec![0, 1, u32::MAX], vec![0, 0, NO_PARENT]));
            let mut lv = vec![u32::MAX; 3];
            assert_eq!(levels(&rp, &ci, &[], &mut lv, None, threads), Some((0, 0)));
            assert_eq!(lv, vec![u32::MAX; 3]);
        }
    }
}
