//! The relaxation step, the work queues and the witnesses, against host references.

use super::*;

/// `true` if `add` returns one of its operands on the test values (min, max, or, the secondi
/// semirings) and [`Semiring::improves`] means "`add` changes the old value": the semirings whose
/// relaxation step is defined ([`Frontier::queue_relax`]; `MinPlusPred`, whose improvement
/// ignores ties of distance, is not one).
fn selecting<S: Semiring>() -> bool
where
    S::T: TestValue,
{
    // A semiring with its own improvement rule (min-plus with predecessors: a tie of distance
    // with another predecessor is no improvement), which test values (distinct distances)
    // would not show.
    if S::cuda().improves.is_some() {
        return false;
    }
    (-6..=6).all(|a| {
        (-6..=6).all(|b| {
            let (x, y) = (test_value::<S>(a, false), test_value::<S>(b, false));
            let s = S::add(x, y);
            (same::<S>(s, x) || same::<S>(s, y)) && S::improves(x, y) != same::<S>(s, x)
        })
    })
}

/// Whether relaxation is defined for `S` ([`Frontier::queue_relax`]): a selecting semiring
/// whose `add` keeps one particular operand (not `any`).
pub(super) fn relaxes<S: Semiring>() -> bool
where
    S::T: TestValue,
{
    selecting::<S>() && !picks_any::<S>()
}

/// The state a relaxation step reads and writes, on the host (the reference).
#[derive(Clone)]
struct StepState<S: Semiring> {
    d: Vec<S::T>,
    parents: Vec<u32>,
    steps: Vec<u32>,
    queue: Vec<(u32, S::T)>,
    step: usize,
}

/// One reference relaxation step (see [`Frontier::queue_relax`]).
fn reference_step<S: Semiring>(
    e: &[(usize, usize, S::T)],
    st: &StepState<S>,
    masked_out: &dyn Fn(usize) -> bool,
    only_new: bool,
) -> StepState<S> {
    use semigraph_algos::NO_PARENT;
    use semigraph_semiring::Scalar;
    let ncols = st.d.len();
    let mut terms: Vec<Vec<(S::T, u32)>> = vec![Vec::new(); ncols];
    for &(k, x) in &st.queue {
        for &(i, j, w) in e {
            if i != k as usize || masked_out(j) || (only_new && st.steps[j] != NO_PARENT) {
                continue;
            }
            let t = S::mul_at(w, x, k as u64);
            if !S::is_zero(t) && S::improves(st.d[j], t) {
                terms[j].push((t, k));
            }
        }
    }
    let mut next = st.clone();
    next.queue.clear();
    next.step = st.step + usize::from(!st.queue.is_empty());
    for (j, terms) in terms.iter().enumerate() {
        if terms.is_empty() {
            continue;
        }
        let best = terms.iter().fold(S::zero(), |a, t| S::add(a, t.0));
        if S::improves(st.d[j], best) {
            let new = S::add(st.d[j], best);
            next.d[j] = new;
            next.queue.push((j as u32, new));
            next.steps[j] = next.step as u32;
            next.parents[j] = terms
                .iter()
                .filter(|t| t.0.to_bits64() == new.to_bits64())
                .map(|t| t.1)
                .min()
                .unwrap_or(NO_PARENT);
        }
    }
    next
}

/// One reference step with an optional deferral ([`semigraph_algos::Defer`]): the entries
/// not below `bound` go to `far` (all of them, in order) instead of being relaxed; the step
/// count advances whenever the input had entries.
fn reference_deferred<S: Semiring>(
    e: &[(usize, usize, S::T)],
    st: &StepState<S>,
    masked_out: &dyn Fn(usize) -> bool,
    only_new: bool,
    bound: Option<S::T>,
    far: &mut Vec<(u32, S::T)>,
) -> StepState<S> {
    let Some(bound) = bound else {
        return reference_step(e, st, masked_out, only_new);
    };
    let mut kept = st.clone();
    kept.queue.clear();
    for &(i, x) in &st.queue {
        if x < bound {
            kept.queue.push((i, x));
        } else {
            far.push((i, x));
        }
    }
    if kept.queue.is_empty() {
        let mut next = st.clone();
        next.queue.clear();
        next.step = st.step + usize::from(!st.queue.is_empty());
        return next;
    }
    reference_step(e, &kept, masked_out, only_new)
}

/// The far queue of a deferral holds each deferred vertex once, with one of its deferred
/// values.
fn check_far<B: Frontier, S: Semiring>(b: &B, far: &B::Queue<S>, want: &[(u32, S::T)], what: &str) {
    let (gi, gv) = b.queue_read(far).unwrap();
    let mut wi: Vec<u32> = want.iter().map(|p| p.0).collect();
    wi.sort_unstable();
    wi.dedup();
    assert_eq!(gi, wi, "{what} {}: far vertices", S::full_name());
    for (i, v) in gi.iter().zip(&gv) {
        assert!(
            want.iter().any(|&(j, x)| j == *i && same::<S>(x, *v)),
            "{what} {}: far value {v:?} of {i} was not deferred",
            S::full_name()
        );
    }
}

/// [`Frontier::queue_relax`] and [`Frontier::queue_relax_steps`] against the reference: a random frontier
/// queue (with repeated vertices), random distances, a random mask, with and without the
/// visited-set option; the values, the output queue, the witnesses, the step numbers, the
/// step count and the running total must match.
pub(super) fn check_relax_step<B: Frontier, S: Semiring>(
    b: &B,
    m: &B::Matrix<S>,
    e: &[(usize, usize, S::T)],
    nrows: usize,
    ncols: usize,
    seed: u64,
) where
    S::T: TestValue,
{
    use semigraph_algos::{Defer, NO_PARENT, Parents, RelaxStep, StepOutputs};
    if !relaxes::<S>() {
        return;
    }
    let name = S::full_name();
    let rng = Rng::new(seed ^ 0x4e1a);
    let xv = random_values::<S>(nrows, seed + 600);
    let mut queue = Vec::new();
    for (i, v) in xv.iter().enumerate() {
        if !S::is_zero(*v) {
            queue.push((i as u32, *v));
            if rng.below(i as u64, 5) == 0 {
                // A vertex queued twice (as far piles of delta-stepping may hold).
                let v2 = test_value::<S>(rng.below(100 + i as u64, 41) as i32 - 20, false);
                queue.push((i as u32, v2));
            }
        }
    }
    // Shuffled: queues have no order.
    let k = queue.len();
    for a in 0..k {
        let c = rng.below(500 + a as u64, k as u64) as usize;
        queue.swap(a, c);
    }
    let d0 = random_values::<S>(ncols, seed + 700);
    let mv = random_values::<OrAnd>(ncols, seed + 800);
    let md = b.dense::<OrAnd>(ncols, 1, &mv).unwrap();
    let steps0: Vec<u32> = (0..ncols)
        .map(|j| {
            if rng.below(900 + j as u64, 3) == 0 {
                1
            } else {
                NO_PARENT
            }
        })
        .collect();
    let start = StepState::<S> {
        d: d0.clone(),
        parents: vec![7u32; ncols],
        steps: steps0.clone(),
        queue: queue.clone(),
        step: 5,
    };
    let same_state = |b: &B,
                      what: &str,
                      want: &StepState<S>,
                      d: &B::Dense<S>,
                      p: &B::Dense<Parents>,
                      st: &B::Dense<Parents>,
                      q: &B::Queue<S>,
                      total: usize| {
        let got_d = b.read_dense(d).unwrap();
        assert!(
            got_d.iter().zip(&want.d).all(|(a, c)| same::<S>(*a, *c)),
            "{what} {name}: d {got_d:?} want {:?}",
            want.d
        );
        let (gi, gv) = b.queue_read(q).unwrap();
        let mut wq = want.queue.clone();
        wq.sort_by_key(|p| p.0);
        let (wi, wv): (Vec<u32>, Vec<S::T>) = wq.into_iter().unzip();
        assert_eq!(gi, wi, "{what} {name}: queue");
        assert!(
            gv.iter().zip(&wv).all(|(a, c)| same::<S>(*a, *c)),
            "{what}: values"
        );
        assert_eq!(
            b.read_dense(p).unwrap(),
            want.parents,
            "{what} {name}: parents"
        );
        assert_eq!(
            b.read_dense(st).unwrap(),
            want.steps,
            "{what} {name}: steps"
        );
        let info = b.queue_len(q).unwrap();
        assert_eq!(
            (info.len, info.steps, info.total),
            (wi.len(), want.step, total),
            "{what} {name}: queue info"
        );
    };
    let bound = test_value::<S>(3, false);
    for (masked, only_new, deferred) in [
        (false, false, false),
        (true, false, false),
        (false, true, false),
        (false, false, true),
    ] {
        let masked_out = |j: usize| masked && mv[j];
        let bound = deferred.then_some(bound);
        let mut far = b.queue::<S>(nrows).unwrap();
        b.queue_clear(&mut far).unwrap();
        let mut far_want = Vec::new();
        let (qi, qv): (Vec<u32>, Vec<S::T>) = queue.iter().copied().unzip();
        let mut from = b.queue::<S>(nrows).unwrap();
        b.queue_set(&mut from, &qi, &qv, 5).unwrap();
        let mut to = b.queue::<S>(ncols).unwrap();
        // Left over from an earlier step: relax_step clears it.
        b.queue_set(&mut to, &[0], &[test_value::<S>(1, false)], 9)
            .unwrap();
        let mut d = b.dense::<S>(ncols, 1, &d0).unwrap();
        let mut p = b.dense::<Parents>(ncols, 1, &start.parents).unwrap();
        let mut st = b.dense::<Parents>(ncols, 1, &steps0).unwrap();
        let mask: Mask<'_, B> = if masked { b.skip(&md) } else { Mask::All };
        let step = RelaxStep {
            d: &mut d,
            a: m,
            mask,
            out: StepOutputs {
                parents: Some(&mut p),
                steps: Some(&mut st),
                only_new,
            },
            defer: bound.map(|bound| Defer {
                bound,
                far: &mut far,
            }),
        };
        b.queue_relax(step, &from, &mut to).expect("relax_step");
        let want = reference_deferred(e, &start, &masked_out, only_new, bound, &mut far_want);
        let what = format!("relax_step masked={masked} only_new={only_new} deferred={deferred}");
        if deferred {
            check_far(b, &far, &far_want, &what);
        }
        same_state(
            b,
            &what,
            &want,
            &d,
            &p,
            &st,
            &to,
            queue.len() + want.queue.len(),
        );
        // Several steps at once (square matrices chain), against as many reference steps.
        if nrows == ncols {
            let mut q = to;
            let mut spare = b.queue::<S>(ncols).unwrap();
            let mut want2 = want.clone();
            let mut total = queue.len() + want.queue.len();
            for _ in 0..3 {
                want2 = reference_deferred(e, &want2, &masked_out, only_new, bound, &mut far_want);
                total += want2.queue.len();
            }
            // With the length read first (a GPU may then run the steps in one block) or not;
            // a backend may stop early, so the caller loops on the step count, as algorithms
            // do, and must progress whenever it read the length.
            if masked || only_new || deferred {
                b.queue_len(&q).unwrap();
            }
            let (target, mut ran, mut stalls) = (want2.step, want.step, 0);
            while ran < target {
                let step = RelaxStep {
                    d: &mut d,
                    a: m,
                    mask,
                    out: StepOutputs {
                        parents: Some(&mut p),
                        steps: Some(&mut st),
                        only_new,
                    },
                    defer: bound.map(|bound| Defer {
                        bound,
                        far: &mut far,
                    }),
                };
                b.queue_relax_steps(step, &mut q, &mut spare, target - ran, usize::MAX)
                    .expect("relax_steps");
                let now = b.queue_len(&q).unwrap().steps;
                stalls = if now == ran { stalls + 1 } else { 0 };
                assert!(stalls < 2, "relax_steps {name}: no progress after a read");
                ran = now;
            }
            let what =
                format!("relax_steps masked={masked} only_new={only_new} deferred={deferred}");
            same_state(b, &what, &want2, &d, &p, &st, &q, total);
            if deferred {
                check_far(b, &far, &far_want, &what);
            }
            // An empty frontier is a no-op.
            let mut empty = b.queue::<S>(ncols).unwrap();
            b.queue_clear(&mut empty).unwrap();
            let before = b.read_dense(&d).unwrap();
            b.queue_relax(RelaxStep::new(&mut d, m), &empty, &mut spare)
                .unwrap();
            assert_eq!(b.queue_len(&spare).unwrap().len, 0);
            assert!(
                b.read_dense(&d)
                    .unwrap()
                    .iter()
                    .zip(&before)
                    .all(|(a, c)| same::<S>(*a, *c))
            );
        }
    }
}

/// The other queue operations: set/read, split (with stale entries), min, clear, dense
/// relaxation into a queue, a queue as a dense vector, assignment at a queue's entries.
pub(super) fn check_queue_ops<B: Frontier, S: Semiring>(b: &B)
where
    S::T: TestValue,
{
    use semigraph_semiring::Scalar;
    let n = 300;
    let name = S::full_name();
    let dv = random_values::<S>(n, 31);
    let d = b.dense::<S>(n, 1, &dv).unwrap();
    let rng = Rng::new(77);
    // Entries: current values of d, and some stale ones (another value).
    let (mut qi, mut qv) = (Vec::new(), Vec::new());
    for i in 0..n as u32 {
        if S::is_zero(dv[i as usize]) {
            continue;
        }
        qi.push(i);
        qv.push(dv[i as usize]);
        if rng.below(i as u64, 4) == 0 {
            qi.push(i);
            qv.push(test_value::<S>(
                rng.below(1000 + i as u64, 41) as i32 - 20,
                false,
            ));
        }
    }
    let mut q = b.queue::<S>(n).unwrap();
    b.queue_set(&mut q, &qi, &qv, 3).unwrap();
    let (ri, rv) = b.queue_read(&q).unwrap();
    assert_eq!(ri.len(), qi.len(), "read_queue {name}");
    assert!(ri.windows(2).all(|w| w[0] <= w[1]), "read_queue sorted");
    let mut want: Vec<(u32, u64)> = qi
        .iter()
        .zip(&qv)
        .map(|(i, v)| (*i, v.to_bits64()))
        .collect();
    let mut got: Vec<(u32, u64)> = ri
        .iter()
        .zip(&rv)
        .map(|(i, v)| (*i, v.to_bits64()))
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want, "read_queue {name}");
    // queue_arcs: the row lengths of the queue's vertices (repeats counted each time), from a
    // matrix stored as CSR and from one stored otherwise.
    let a = random_csr::<S>(n, n, 9, 5);
    let rp = a.row_ptr();
    let want_arcs: usize = qi
        .iter()
        .map(|&i| (rp[i as usize + 1] - rp[i as usize]) as usize)
        .sum();
    for format in [Format::Csr, Format::Ell] {
        let m = b.matrix(&a, format, &unlimited()).expect("matrix");
        let (info, arcs) = b.queue_arcs(&q, &m).unwrap();
        assert_eq!(
            (info.len, info.steps, arcs),
            (qi.len(), 3, want_arcs),
            "queue_arcs {name} {format:?}"
        );
        let (ie, ae) = b.queue_arcs(&b.queue::<S>(n).unwrap(), &m).unwrap();
        assert_eq!((ie.len, ae), (0, 0), "queue_arcs of an empty queue {name}");
    }
    // reduce_queue.
    let (info, total) = b.queue_reduce(&q).unwrap();
    assert_eq!(info.len, qi.len());
    let want_total = qv.iter().fold(S::zero(), |a, &v| S::add(a, v));
    assert!(
        same::<S>(total, want_total) || picks_any::<S>(),
        "reduce_queue {name}"
    );
    let empty = b.queue::<S>(n).unwrap();
    let (ie, ze) = b.queue_reduce(&empty).unwrap();
    assert!(
        ie.len == 0 && S::is_zero(ze),
        "reduce_queue of an empty queue {name}"
    );
    // split_queue into two queues that already hold entries.
    let (lo, hi) = (test_value::<S>(-5, false), test_value::<S>(7, false));
    let mut inside = b.queue::<S>(n).unwrap();
    let mut outside = b.queue::<S>(n).unwrap();
    let one = test_value::<S>(1, false);
    b.queue_set(&mut inside, &[0], &[one], 1).unwrap();
    b.queue_set(&mut outside, &[1], &[one], 8).unwrap();
    b.queue_split(&q, &d, lo, hi, &mut inside, Some(&mut outside))
        .unwrap();
    let (mut wi, mut wo) = (vec![(0u32, one.to_bits64())], vec![(1u32, one.to_bits64())]);
    let mut seen = std::collections::HashSet::new();
    for &i in &qi {
        if !seen.insert(i) {
            continue; // a vertex is appended once
        }
        let v = dv[i as usize];
        if v < lo {
            continue;
        }
        if v < hi { &mut wi } else { &mut wo }.push((i, v.to_bits64()));
    }
    for (qq, mut w, steps, what) in [(&inside, wi, 3, "inside"), (&outside, wo, 8, "outside")] {
        let (gi, gv) = b.queue_read(qq).unwrap();
        let mut g: Vec<(u32, u64)> = gi
            .iter()
            .zip(&gv)
            .map(|(i, v)| (*i, v.to_bits64()))
            .collect();
        g.sort();
        w.sort();
        assert_eq!(g, w, "split_queue {what} {name}");
        assert_eq!(
            b.queue_len(qq).unwrap().steps,
            steps,
            "split_queue {what} steps"
        );
    }
    // queue_clear keeps the step count.
    b.queue_clear(&mut inside).unwrap();
    let i0 = b.queue_len(&inside).unwrap();
    assert_eq!((i0.len, i0.steps), (0, 3));
    // queue_to_dense: the entries of a queue without repeats.
    let mut uq = b.queue::<S>(n).unwrap();
    let ui: Vec<u32> = (0..n as u32).filter(|i| i % 3 == 1).collect();
    let uv: Vec<S::T> = ui
        .iter()
        .map(|&i| test_value::<S>(i as i32 % 13 - 6, false))
        .collect();
    b.queue_set(&mut uq, &ui, &uv, 0).unwrap();
    let mut x = b.dense::<S>(n, 1, &dv).unwrap();
    b.queue_to_dense(&uq, &mut x).unwrap();
    let gx = b.read_dense(&x).unwrap();
    for i in 0..n {
        let want = if i % 3 == 1 { uv[i / 3] } else { S::zero() };
        assert!(same::<S>(gx[i], want), "queue_to_dense {name}: {i}");
    }
    // assign_queue.
    let c = test_value::<S>(4, false);
    let mut y = b.dense::<S>(n, 1, &dv).unwrap();
    b.queue_assign(&mut y, &uq, c).unwrap();
    let gy = b.read_dense(&y).unwrap();
    for i in 0..n {
        let want = if i % 3 == 1 { c } else { dv[i] };
        assert!(same::<S>(gy[i], want), "assign_queue {name}: {i}");
    }
    // improve_dense_queue (selecting semirings: the changed set is exact).
    if selecting::<S>() && !picks_any::<S>() {
        let tv = random_values::<S>(n, 41);
        let t = b.dense::<S>(n, 1, &tv).unwrap();
        let mut dd = b.dense::<S>(n, 1, &dv).unwrap();
        let mut out = b.queue::<S>(n).unwrap();
        b.queue_improve_dense(&mut dd, &t, &mut out, 11).unwrap();
        let gd = b.read_dense(&dd).unwrap();
        let (gi, gv) = b.queue_read(&out).unwrap();
        let mut wi = Vec::new();
        for i in 0..n {
            let better = S::improves(dv[i], tv[i]);
            let w = if better { S::add(dv[i], tv[i]) } else { dv[i] };
            assert!(same::<S>(gd[i], w), "improve_dense_queue {name}: {i}");
            if better {
                wi.push(i as u32);
            }
        }
        assert_eq!(gi, wi, "improve_dense_queue {name}: queue");
        assert!(
            gi.iter()
                .zip(&gv)
                .all(|(&i, &v)| same::<S>(v, gd[i as usize]))
        );
        let info = b.queue_len(&out).unwrap();
        assert_eq!((info.steps, info.total), (11, wi.len()));
    }
}

/// [`Products::witness`](semigraph_algos::Products::witness) against a reference: `d` is the product `x (+).(x) A` itself (so
/// that terms attain it), targets are a random subset of the positions (some without an
/// entry), and positions outside it must keep their old value.
pub(super) fn check_witness<B: Frontier, S: Semiring>(
    b: &B,
    m: &B::Matrix<S>,
    e: &[(usize, usize, S::T)],
    xs: &B::Sparse<S>,
    xi: &[u32],
    xv: &[S::T],
    seed: u64,
) where
    S::T: TestValue,
{
    use semigraph_algos::{NO_PARENT, Parents};
    use semigraph_semiring::Scalar;
    let ncols = b.matrix_info(m).ncols;
    let t = b.vxm(xs, m, Mask::All).expect("vxm");
    let (ti, tv) = b.read_sparse(&t).unwrap();
    let mut dv = vec![S::zero(); ncols];
    for (&i, &v) in ti.iter().zip(&tv) {
        dv[i as usize] = v;
    }
    let d = b.dense::<S>(ncols, 1, &dv).unwrap();
    let rng = Rng::new(seed ^ 0x717);
    let at: Vec<u32> = (0..ncols as u32)
        .filter(|&j| rng.below(j as u64, 3) != 0)
        .collect();
    let at_s = b
        .sparse::<OrAnd>(ncols, &at, &vec![true; at.len()])
        .unwrap();
    let p0: Vec<u32> = (0..ncols as u64)
        .map(|j| {
            if rng.below(1000 + j, 4) == 0 {
                NO_PARENT
            } else {
                rng.below(2000 + j, 1000) as u32
            }
        })
        .collect();
    let mut p = b.dense::<Parents>(ncols, 1, &p0).unwrap();
    b.witness(&mut p, xs, m, &d, &at_s).expect("witness");
    let got = b.read_dense(&p).unwrap();
    let mut want = p0.clone();
    for &j in &at {
        want[j as usize] = NO_PARENT;
    }
    for &(k, j, w) in e {
        let Ok(pos) = xi.binary_search(&(k as u32)) else {
            continue;
        };
        let term = S::mul_at(w, xv[pos], k as u64);
        if at.binary_search(&(j as u32)).is_ok()
            && !S::is_zero(term)
            && term.to_bits64() == dv[j].to_bits64()
        {
            want[j] = want[j].min(k as u32);
        }
    }
    assert_eq!(got, want, "witness ({})", S::full_name());
}
