//! [`Frontier::queue_relax_fixpoint`] against a host fixpoint.

use super::queues::relaxes;
use super::*;

/// A host fixpoint from `start` over the arcs `e` (Gauss-Seidel, at most `n + 2` rounds).
pub(super) struct HostFixpoint<T> {
    /// The values at the end.
    pub want: Vec<T>,
    /// Rounds run (the last one changed nothing where it converged).
    pub rounds: usize,
    /// Improvements made.
    pub improved: usize,
    /// Whether a round changed nothing.
    pub converged: bool,
}

pub(super) fn host_fixpoint<S: Semiring>(
    start: &[S::T],
    e: &[(usize, usize, S::T)],
    n: usize,
) -> HostFixpoint<S::T> {
    let mut want = start.to_vec();
    let (mut rounds, mut improved, mut converged) = (0, 0usize, false);
    while rounds <= n + 1 {
        rounds += 1;
        let mut changed = false;
        for &(i, j, w) in e {
            if S::is_zero(want[i]) {
                continue;
            }
            let t = S::mul_at(w, want[i], i as u64);
            if !S::is_zero(t) && S::improves(want[j], t) {
                want[j] = S::add(want[j], t);
                changed = true;
                improved += 1;
            }
        }
        if !changed {
            converged = true;
            break;
        }
    }
    HostFixpoint {
        want,
        rounds,
        improved,
        converged,
    }
}

/// The entries of `start` that are not the zero, as the ids and values of a queue: every
/// vertex with a value queued, as the fixpoint checks start.
pub(super) fn seeds_of<S: Semiring>(start: &[S::T]) -> (Vec<u32>, Vec<S::T>) {
    start
        .iter()
        .enumerate()
        .filter(|(_, v)| !S::is_zero(**v))
        .map(|(i, v)| (i as u32, *v))
        .unzip()
}

/// [`Frontier::queue_relax_fixpoint`] against a host fixpoint: every vertex with a random value
/// queued, relaxed until nothing improves. Where the host converges in at most `n` rounds with
/// at most `n` improvements the backend must reach the fixpoint (values equal, appends counted;
/// a GPU's own bound on appends is `8 n`); where it does not converge (a negative cycle) the
/// backend must stop (`None`) within its limit; in between, it may do either.
pub(super) fn check_relax_fixpoint<B: Frontier, S: Semiring>(
    b: &B,
    m: &B::Matrix<S>,
    e: &[(usize, usize, S::T)],
    n: usize,
    seed: u64,
) where
    S::T: TestValue,
{
    use semigraph_algos::RelaxStep;
    if !relaxes::<S>() {
        return;
    }
    let name = S::full_name();
    let start = random_values::<S>(n, seed + 650);
    let HostFixpoint {
        want,
        rounds,
        improved,
        converged,
    } = host_fixpoint::<S>(&start, e, n);
    let (idx, vals) = seeds_of::<S>(&start);
    let mut d = b.dense::<S>(n, 1, &start).unwrap();
    let mut q = b.queue::<S>(n).unwrap();
    let mut spare = b.queue::<S>(n).unwrap();
    b.queue_set(&mut q, &idx, &vals, 0).unwrap();
    // Unbounded where the host converged (a backend may still stop at its own bounds, which
    // an easy instance must not reach), else bounded.
    let limit = if converged { usize::MAX } else { 8 * n + 8 };
    let got = b
        .queue_relax_fixpoint(RelaxStep::new(&mut d, m), &mut q, &mut spare, limit)
        .expect("relax_fixpoint");
    match got {
        Some(appends) => {
            assert!(
                converged,
                "relax_fixpoint {name}: a fixpoint where the host found none"
            );
            let gd = b.read_dense(&d).unwrap();
            for (j, (g, w)) in gd.iter().zip(&want).enumerate() {
                assert!(
                    same::<S>(*g, *w),
                    "relax_fixpoint {name}: d[{j}] = {g:?}, want {w:?}"
                );
            }
            // A vertex that changed was appended, or waited already (a seed, or an entry
            // not yet taken when it improved again).
            let changed = gd
                .iter()
                .zip(&start)
                .filter(|(g, s)| !same::<S>(**g, **s))
                .count();
            assert!(
                appends + idx.len() >= changed,
                "relax_fixpoint {name}: {appends} appends and {} seeds for {changed} vertices changed",
                idx.len()
            );
        }
        None => assert!(
            !converged || rounds > n || improved > n,
            "relax_fixpoint {name}: stopped on an easy instance ({improved} improvements, {rounds} rounds)"
        ),
    }
}

/// [`Frontier::queue_relax_fixpoint`] with a deferral, for semirings that prefer smaller values
/// (`one < zero`: min-plus, min-max, ...), the order a deferral's bound assumes: against the
/// host fixpoint over the arcs of vertices below the bound. Every seeded or improved vertex
/// whose final value is not below the bound waits in far; nothing else does.
pub(super) fn check_relax_fixpoint_deferred<B: Frontier, S: Semiring>(
    b: &B,
    m: &B::Matrix<S>,
    e: &[(usize, usize, S::T)],
    n: usize,
    seed: u64,
) where
    S::T: TestValue,
{
    use semigraph_algos::RelaxStep;
    let below = |a: S::T, b: S::T| a.partial_cmp(&b) == Some(std::cmp::Ordering::Less);
    if !relaxes::<S>() || !below(S::one(), S::zero()) {
        return;
    }
    let name = S::full_name();
    let start = random_values::<S>(n, seed + 651);
    let mut present: Vec<S::T> = start.iter().copied().filter(|v| !S::is_zero(*v)).collect();
    if present.is_empty() {
        return;
    }
    present.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let bound = present[present.len() / 2];
    // The host: relax only from values below the bound, until nothing improves.
    let mut want = start.clone();
    let mut rounds = 0;
    loop {
        rounds += 1;
        if rounds > n + 2 {
            return; // no fixpoint (a negative cycle below the bound): nothing to compare
        }
        let mut changed = false;
        for &(i, j, w) in e {
            if S::is_zero(want[i]) || !below(want[i], bound) {
                continue;
            }
            let t = S::mul_at(w, want[i], i as u64);
            if !S::is_zero(t) && S::improves(want[j], t) {
                want[j] = S::add(want[j], t);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let (idx, vals) = seeds_of::<S>(&start);
    let mut d = b.dense::<S>(n, 1, &start).unwrap();
    let (mut q, mut spare, mut far) = (
        b.queue::<S>(n).unwrap(),
        b.queue::<S>(n).unwrap(),
        b.queue::<S>(n).unwrap(),
    );
    b.queue_set(&mut q, &idx, &vals, 0).unwrap();
    let step = RelaxStep::new(&mut d, m).defer(bound, &mut far);
    let got = b
        .queue_relax_fixpoint(step, &mut q, &mut spare, usize::MAX)
        .expect("relax_fixpoint, deferred");
    assert!(
        got.is_some(),
        "relax_fixpoint {name}, deferred: stopped on an easy instance"
    );
    let gd = b.read_dense(&d).unwrap();
    for (j, (g, w)) in gd.iter().zip(&want).enumerate() {
        assert!(
            same::<S>(*g, *w),
            "relax_fixpoint {name}, deferred below {bound:?}: d[{j}] = {g:?}, want {w:?}"
        );
    }
    let (waiting, _) = b.queue_read(&far).unwrap();
    let mut in_far = vec![false; n];
    for &j in &waiting {
        assert!(
            !std::mem::replace(&mut in_far[j as usize], true),
            "relax_fixpoint {name}, deferred: {j} waits twice"
        );
    }
    for j in 0..n {
        let touched = !S::is_zero(start[j]) || !same::<S>(gd[j], start[j]);
        let above = !S::is_zero(gd[j]) && !below(gd[j], bound);
        assert!(
            !in_far[j] || touched,
            "relax_fixpoint {name}, deferred: {j} waits, never reached"
        );
        assert!(
            in_far[j] || !(touched && above),
            "relax_fixpoint {name}, deferred: {j} (value {:?}, bound {bound:?}) does not wait",
            gd[j]
        );
    }
}
