//! Work queues of the CPU backend: the host-memory form of [`Frontier::Queue`] and its fused
//! relaxation step.
//!
//! [`Frontier::Queue`]: crate::Frontier::Queue

use rayon::prelude::*;
use semigraph_semiring::{Scalar, Semiring};

use super::{CpuBackend, TraversalStep};
use super::{CpuDense, Rows, Vals, allows, check_mask};
use crate::backend::NO_PARENT;
use crate::backend::{Defer, Parents, QueueInfo, RelaxStep, StepOutputs};
use crate::error::Result;

/// A work queue of the CPU backend.
#[derive(Clone, Debug)]
pub struct CpuQueue<S: Semiring> {
    pub(super) n: usize,
    pub(super) idx: Vec<u32>,
    pub(super) vals: Vec<S::T>,
    pub(super) steps: usize,
    /// Entries of the queues before this one along a chain of steps.
    pub(super) before: usize,
    /// `member[i] == stamp`: `i` was appended since the last clear (sized on first use).
    member: Vec<u32>,
    stamp: u32,
    /// `member` does not yet mark `idx` (a traversal step leaves it to the first append,
    /// which few steps are followed by: one random write a vertex saved).
    unmarked: bool,
    /// The two step forms as timed along this chain of steps ([`TraversalStep::Auto`]).
    pub(super) times: FormTimes,
}

impl<S: Semiring> CpuQueue<S> {
    pub(super) fn new(n: usize) -> Self {
        CpuQueue {
            n,
            idx: Vec::new(),
            vals: Vec::new(),
            steps: 0,
            before: 0,
            member: Vec::new(),
            stamp: 1,
            unmarked: false,
            times: FormTimes::default(),
        }
    }

    /// Forgets who was appended (after a clear, a set or a step).
    pub(super) fn new_generation(&mut self) {
        if self.stamp == u32::MAX {
            self.member.iter_mut().for_each(|m| *m = 0);
            self.stamp = 0;
        }
        self.stamp += 1;
        self.unmarked = false;
    }

    /// The membership marked for every entry (sized on first use).
    fn mark(&mut self) {
        if self.member.len() < self.n {
            self.member.resize(self.n, 0);
        }
        if self.unmarked {
            for &j in &self.idx {
                self.member[j as usize] = self.stamp;
            }
            self.unmarked = false;
        }
    }

    /// Appends `(i, v)` unless `i` was appended since the last generation.
    pub(super) fn append(&mut self, i: u32, v: S::T) {
        self.mark();
        if self.member[i as usize] != self.stamp {
            self.member[i as usize] = self.stamp;
            self.idx.push(i);
            self.vals.push(v);
        }
    }

    pub(super) fn info(&self) -> QueueInfo {
        QueueInfo {
            len: self.idx.len(),
            total: self.before + self.idx.len(),
            steps: self.steps,
        }
    }
}

/// Frontiers with fewer entries relax in place, sequentially: rayon's fork-join and dealing the
/// terms out cost more than their arcs (measured on the NY road network: 31.6 ms per BFS with this
/// threshold against 65 ms with 256).
pub(super) const PAR_ENTRIES: usize = 1 << 14;

/// The default [`TraversalStep`]: `SEMIGRAPH_CPU_STEP` (read once), else `Auto`.
pub(super) fn default_step_form() -> TraversalStep {
    static F: std::sync::OnceLock<TraversalStep> = std::sync::OnceLock::new();
    *F.get_or_init(|| match std::env::var("SEMIGRAPH_CPU_STEP").as_deref() {
        Ok("branching") => TraversalStep::Branching,
        Ok("branchless") => TraversalStep::Branchless,
        _ => TraversalStep::Auto,
    })
}

/// What a chain of traversal steps measured of the two forms of [`TraversalStep::Auto`]
/// (carried from queue to queue along the chain): nanoseconds and arcs of each, and the
/// choice once made.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct FormTimes {
    ns: [u64; 2],
    arcs: [u64; 2],
    chosen: Option<bool>,
}

impl FormTimes {
    /// Whether the next step runs branchless, and whether it is timed.
    fn next(&self, form: TraversalStep) -> (bool, bool) {
        match (form, self.chosen) {
            (TraversalStep::Branching, _) => (false, false),
            (TraversalStep::Branchless, _) => (true, false),
            (TraversalStep::Auto, Some(c)) => (c, false),
            // The form with fewer arcs so far.
            (TraversalStep::Auto, None) => (self.arcs[1] < self.arcs[0], true),
        }
    }

    /// Adds a timed step; chooses once each form has scanned enough arcs.
    fn add(&mut self, branchless: bool, ns: u64, arcs: u64) {
        let f = usize::from(branchless);
        self.ns[f] += ns;
        self.arcs[f] += arcs;
        if self.arcs.iter().all(|&a| a >= TraversalStep::SAMPLE_ARCS) {
            // ns per arc, compared without division.
            let (a, b) = (
                u128::from(self.ns[1]) * u128::from(self.arcs[0]),
                u128::from(self.ns[0]) * u128::from(self.arcs[1]),
            );
            self.chosen = Some(a < b);
        }
    }
}

pub(super) fn relax_step<S: Semiring>(
    step: RelaxStep<'_, '_, CpuBackend, S>,
    from: &CpuQueue<S>,
    to: &mut CpuQueue<S>,
    par_entries: usize,
    form: TraversalStep,
) -> Result<()> {
    let RelaxStep {
        d,
        a,
        mask,
        out,
        defer,
    } = step;
    let c = a.rows();
    assert_eq!(
        from.n,
        c.nrows(),
        "relax_step: from has n {}, A has {} rows",
        from.n,
        c.nrows()
    );
    assert_eq!(
        d.data.len(),
        c.ncols(),
        "relax_step: d has the wrong length"
    );
    assert_eq!(to.n, c.ncols(), "relax_step: to has the wrong n");
    check_mask(&mask, c.ncols());
    to.idx.clear();
    to.vals.clear();
    to.new_generation();
    to.steps = from.steps + usize::from(!from.idx.is_empty());
    to.before = from.before + from.idx.len();
    to.times = from.times;
    // With a deferral, the entries below the bound are the step's input; the others wait in
    // `far`.
    let kept;
    let from = match defer {
        Some(Defer { bound, far }) => {
            assert_eq!(far.n, from.n, "relax_step: the far queue has the wrong n");
            let mut k = CpuQueue::new(from.n);
            for (&i, &x) in from.idx.iter().zip(&from.vals) {
                if x < bound {
                    k.idx.push(i);
                    k.vals.push(x);
                } else {
                    far.append(i, x);
                }
            }
            kept = k;
            &kept
        }
        None => from,
    };
    if from.idx.is_empty() {
        return Ok(());
    }
    let StepOutputs {
        parents,
        mut steps,
        only_new,
    } = out;
    let small = from.idx.len() < par_entries;
    if let (Some(s), true, None, true) = (steps.as_deref_mut(), only_new, &parents, small) {
        // A traversal's step: the step numbers are the visited set and the membership at once.
        let mut times = to.times;
        let (branchless, timed) = times.next(form);
        let start = timed.then(std::time::Instant::now);
        let arcs = match branchless {
            true => relax_marking_branchless(c, d, s, &mask, from, to),
            false => relax_marking_branching(c, d, s, &mask, from, to),
        };
        if let Some(t) = start {
            times.add(branchless, t.elapsed().as_nanos() as u64, arcs as u64);
        }
        to.times = times;
        return Ok(());
    }
    {
        // The visited set as it was before the step (`steps` is written only at the end).
        let seen = steps.as_deref().filter(|_| only_new).map(|s| &s.data);
        let allowed =
            |j: u32| seen.is_none_or(|s| s[j as usize] == NO_PARENT) && allows(&mask, j as usize);
        if small {
            relax_in_place(c, d, parents, from, &allowed, to);
        } else {
            relax_partitioned(c, d, parents, from, &allowed, to);
        }
    }
    if let Some(s) = steps {
        let step = to.steps as u32;
        for &j in &to.idx {
            s.data[j as usize] = step;
        }
    }
    Ok(())
}

/// A term of a relaxation: target `j`, value `t`, source `k`.
type Term<T> = (u32, T, u32);

/// The parallel step for large frontiers, in two passes without a sort: pieces of the
/// frontier (one task each) deal the terms `(j, t, k)` that improve `d(j)` as it is before
/// the step into lists by range of `j`; then each range of targets (one task each, owning its
/// slice of `d`, of the membership and of the witnesses) applies its lists in order, as
/// [`relax_in_place`] does: each term against the value so far, so the final value is the
/// `add` of the improving terms; the first improvement of a vertex appends it, and a second
/// pass over the range's terms finds the witnesses (the smallest source whose term equals the
/// final value). The output lists the ranges in order.
fn relax_partitioned<S: Semiring>(
    c: Rows<'_, S>,
    d: &mut CpuDense<S>,
    parents: Option<&mut CpuDense<Parents>>,
    from: &CpuQueue<S>,
    allowed: &(impl Fn(u32) -> bool + Sync),
    to: &mut CpuQueue<S>,
) {
    let n = d.data.len();
    let threads = rayon::current_num_threads().max(1);
    let width = n.div_ceil(threads * 8).max(1 << 12);
    let ranges = n.div_ceil(width);
    let piece = from.idx.len().div_ceil(threads * 4).max(1);
    let old = &d.data;
    // Pass 1: each piece's terms, dealt by range of targets.
    let dealt: Vec<Vec<Vec<Term<S::T>>>> = from
        .idx
        .par_chunks(piece)
        .zip(from.vals.par_chunks(piece))
        .map(|(ids, xs)| {
            let mut lists: Vec<Vec<Term<S::T>>> = vec![Vec::new(); ranges];
            for (&k, &x) in ids.iter().zip(xs) {
                for (j, w) in c.entries(k as usize) {
                    if !allowed(j) {
                        continue;
                    }
                    let t = S::mul_at(w, x, u64::from(k));
                    if !S::is_zero(t) && S::improves(old[j as usize], t) {
                        lists[j as usize / width].push((j, t, k));
                    }
                }
            }
            lists
        })
        .collect();
    // Pass 2: each range of targets applies its terms from every piece, in order.
    if to.member.len() < to.n {
        to.member.resize(to.n, 0);
    }
    let stamp = to.stamp;
    let mut witness: Vec<Option<&mut [u32]>> = match parents {
        Some(p) => p.data.chunks_mut(width).map(Some).collect(),
        None => (0..ranges).map(|_| None).collect(),
    };
    let out: Vec<Vec<u32>> = d
        .data
        .par_chunks_mut(width)
        .zip(to.member.par_chunks_mut(width))
        .zip(witness.par_iter_mut())
        .enumerate()
        .map(|(r, ((dr, member), witness))| {
            let lo = r * width;
            let terms = || dealt.iter().flat_map(|lists| &lists[r]);
            let mut appended = Vec::new();
            for &(j, t, _) in terms() {
                let i = j as usize - lo;
                if !S::improves(dr[i], t) {
                    continue;
                }
                dr[i] = S::add(dr[i], t);
                if member[i] != stamp {
                    member[i] = stamp;
                    appended.push(j);
                }
            }
            if let Some(p) = witness.as_deref_mut() {
                for &j in &appended {
                    p[j as usize - lo] = NO_PARENT;
                }
                for &(j, t, k) in terms() {
                    let i = j as usize - lo;
                    if member[i] == stamp && t.to_bits64() == dr[i].to_bits64() {
                        p[i] = p[i].min(k);
                    }
                }
            }
            appended
        })
        .collect();
    let d = &d.data;
    for list in out {
        to.vals.extend(list.iter().map(|&j| d[j as usize]));
        to.idx.extend(list);
    }
}

/// [`relax_marking_branching`] without a branch on the outcome of an arc: whether a target is
/// new is a coin toss on a road network's frontier, so each arc writes its target's value and
/// step back (changed or not) and its id one past the output's end, which advances only for a
/// first improvement ([`TraversalStep`] says when). Returns the arcs scanned.
fn relax_marking_branchless<S: Semiring>(
    c: Rows<'_, S>,
    d: &mut CpuDense<S>,
    steps: &mut CpuDense<Parents>,
    mask: &crate::backend::Mask<'_, CpuBackend>,
    from: &CpuQueue<S>,
    to: &mut CpuQueue<S>,
) -> usize {
    let step = to.steps as u32;
    debug_assert_ne!(step, NO_PARENT);
    let (s, d) = (&mut steps.data[..], &mut d.data[..]);
    let mut arcs = 0;
    let all = matches!(mask, crate::backend::Mask::All);
    let out = &mut to.idx;
    let mut len = out.len();
    // The arc (k, j) of value w from entry (k, x), the output's length before and after.
    let mut arc = |out: &mut [u32], len: usize, j: u32, w: S::T, k: u32, x: S::T| {
        let ju = j as usize;
        let sj = s[ju];
        let t = S::mul_at(w, x, u64::from(k));
        let old = d[ju];
        let ok = (sj == NO_PARENT || sj == step)
            & (all || allows(mask, ju))
            & !S::is_zero(t)
            & S::improves(old, t);
        d[ju] = if ok { S::add(old, t) } else { old };
        let first = ok & (sj != step);
        s[ju] = if first { step } else { sj };
        out[len] = j;
        len + usize::from(first)
    };
    for (&k, &x) in from.idx.iter().zip(&from.vals) {
        let (cols, vals) = c.row(k as usize);
        arcs += cols.len();
        // Room for every arc of the row past the output's end.
        if out.len() < len + cols.len() {
            out.resize((len + cols.len()).max(2 * out.len()), 0);
        }
        match vals {
            // A pattern: no value array to read (a second cache miss per row).
            Vals::All(w) => {
                for &j in cols {
                    len = arc(out, len, j, w, k, x);
                }
            }
            Vals::Stored(v) => {
                for (&j, &w) in cols.iter().zip(v) {
                    len = arc(out, len, j, w, k, x);
                }
            }
        }
    }
    out.truncate(len);
    to.vals.extend(to.idx.iter().map(|&j| d[j as usize]));
    // Appends after the step see the step's entries as members (as after `relax_in_place`):
    // marked by the first append (`CpuQueue::mark`), which few traversal steps are followed by.
    to.unmarked = true;
    arcs
}

/// The sequential step of a traversal (only vertices never reached may improve, their step
/// numbers written, no witnesses): `steps` is both the visited set and the output's
/// membership. A vertex is allowed while its step is empty or this step's (then it was not
/// reached before the step: the visited set as read before the step, as the mask says); its
/// first improvement writes its step and appends it. One array read per arc where
/// [`relax_in_place`] reads two, and no pass over the output afterwards. Returns the arcs
/// scanned.
fn relax_marking_branching<S: Semiring>(
    c: Rows<'_, S>,
    d: &mut CpuDense<S>,
    steps: &mut CpuDense<Parents>,
    mask: &crate::backend::Mask<'_, CpuBackend>,
    from: &CpuQueue<S>,
    to: &mut CpuQueue<S>,
) -> usize {
    let step = to.steps as u32;
    debug_assert_ne!(step, NO_PARENT);
    let (s, d) = (&mut steps.data[..], &mut d.data[..]);
    let all = matches!(mask, crate::backend::Mask::All);
    let idx = &mut to.idx;
    let mut arcs = 0;
    let mut arc = |j: u32, w: S::T, k: u32, x: S::T| {
        let ju = j as usize;
        let sj = s[ju];
        if (sj != NO_PARENT && sj != step) || !(all || allows(mask, ju)) {
            return;
        }
        let t = S::mul_at(w, x, u64::from(k));
        let old = d[ju];
        if S::is_zero(t) || !S::improves(old, t) {
            return;
        }
        d[ju] = S::add(old, t);
        if sj != step {
            s[ju] = step;
            idx.push(j);
        }
    };
    for (&k, &x) in from.idx.iter().zip(&from.vals) {
        let (cols, vals) = c.row(k as usize);
        arcs += cols.len();
        match vals {
            // A pattern: no value array to read (a second cache miss per row).
            Vals::All(w) => cols.iter().for_each(|&j| arc(j, w, k, x)),
            Vals::Stored(v) => cols.iter().zip(v).for_each(|(&j, &w)| arc(j, w, k, x)),
        }
    }
    to.vals.extend(to.idx.iter().map(|&j| d[j as usize]));
    // Appends after the step see the step's entries as members (as after `relax_in_place`):
    // marked by the first append (`CpuQueue::mark`), which few traversal steps are followed by.
    to.unmarked = true;
    arcs
}

/// The sequential step for small frontiers: terms improve `d` in place (each against the value
/// so far, so the final value is the same `add` over the improving terms), the first
/// improvement of a vertex appends it, and a second pass finds the witnesses. No sort.
fn relax_in_place<S: Semiring>(
    c: Rows<'_, S>,
    d: &mut CpuDense<S>,
    parents: Option<&mut CpuDense<Parents>>,
    from: &CpuQueue<S>,
    allowed: &(impl Fn(u32) -> bool + Sync),
    to: &mut CpuQueue<S>,
) {
    if to.member.len() < to.n {
        to.member.resize(to.n, 0);
    }
    let stamp = to.stamp;
    for (&k, &x) in from.idx.iter().zip(&from.vals) {
        for (j, w) in c.entries(k as usize) {
            if !allowed(j) {
                continue;
            }
            let t = S::mul_at(w, x, k as u64);
            let old = d.data[j as usize];
            if S::is_zero(t) || !S::improves(old, t) {
                continue;
            }
            d.data[j as usize] = S::add(old, t);
            if to.member[j as usize] != stamp {
                to.member[j as usize] = stamp;
                to.idx.push(j);
            }
        }
    }
    to.vals.extend(to.idx.iter().map(|&j| d.data[j as usize]));
    if let Some(p) = parents {
        for &j in &to.idx {
            p.data[j as usize] = NO_PARENT;
        }
        for (&k, &x) in from.idx.iter().zip(&from.vals) {
            for (j, w) in c.entries(k as usize) {
                if to.member[j as usize] != stamp || !allowed(j) {
                    continue;
                }
                let t = S::mul_at(w, x, k as u64);
                if !S::is_zero(t) && t.to_bits64() == d.data[j as usize].to_bits64() {
                    let e = &mut p.data[j as usize];
                    *e = (*e).min(k);
                }
            }
        }
    }
}

pub(super) fn split_queue<S: Semiring>(
    from: &CpuQueue<S>,
    d: &CpuDense<S>,
    lo: S::T,
    hi: S::T,
    inside: &mut CpuQueue<S>,
    mut outside: Option<&mut CpuQueue<S>>,
) -> Result<()> {
    assert_eq!(d.data.len(), from.n, "split_queue: d has the wrong length");
    for &i in &from.idx {
        let v = d.data[i as usize];
        if v < lo {
            continue; // below the last threshold: settled already
        }
        if v < hi {
            inside.append(i, v);
        } else if let Some(o) = outside.as_deref_mut() {
            o.append(i, v);
        }
    }
    inside.steps = inside.steps.max(from.steps);
    if let Some(o) = outside {
        o.steps = o.steps.max(from.steps);
    }
    Ok(())
}

pub(super) fn improve_dense_queue<S: Semiring>(
    d: &mut CpuDense<S>,
    t: &CpuDense<S>,
    to: &mut CpuQueue<S>,
    steps: usize,
) -> Result<()> {
    assert_eq!(
        d.data.len(),
        t.data.len(),
        "improve_dense_queue: lengths differ"
    );
    assert_eq!(
        to.n,
        d.data.len(),
        "improve_dense_queue: to has the wrong n"
    );
    let (idx, vals): (Vec<u32>, Vec<S::T>) = d
        .data
        .par_iter_mut()
        .zip(&t.data)
        .enumerate()
        .with_min_len(4096)
        .filter_map(|(i, (dv, &tv))| {
            S::improves(*dv, tv).then(|| {
                *dv = S::add(*dv, tv);
                (i as u32, *dv)
            })
        })
        .unzip();
    to.idx = idx;
    to.vals = vals;
    to.steps = steps;
    to.before = 0;
    to.new_generation();
    Ok(())
}
