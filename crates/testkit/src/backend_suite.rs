//! The test suite every backend runs, written once: each operation of the
//! [`Backend`] interface on every format and built-in semiring, checked against references
//! computed from the inputs, and every algorithm checked against the oracles of
//! [`semigraph_algos::testing`]. [`register`] adds it to a [`Harness`], one test per (format,
//! semiring), one per semiring for the dense operations and one per format for the
//! algorithms.
//!
//! Values come from [`semigraph_semiring::testing::test_value`]: small integers, so every sum
//! and product in these tests is exact in every type (f16 and bf16 included), whatever order a
//! backend adds in. Results are therefore compared exactly (`==`, so `-0.0` equals `0.0`); the
//! one semiring whose answer depends on order, `any_secondi`, is checked for validity: each
//! output must be one of the terms it could have picked.

use semigraph_algos::testing::{
    TestGraph, check_bfs, check_negative_cycle, check_shortest_paths, oracle_bellman_ford,
    oracle_bfs, oracle_dijkstra, oracle_floyd_warshall, picks_any, same, unlimited,
};
use semigraph_algos::{Accum, Backend, Error, Ewise, Mask, Result, UnaryOp};
use semigraph_formats::generate::Rng;
use semigraph_formats::{Csr, Format};
use semigraph_semiring::testing::{TestValue, test_value};
use semigraph_semiring::{OrAnd, Semiring};

use crate::harness::{Failed, Harness, Needs};

/// Checks `got` against, per output position, the old value, the product terms (in order)
/// and the accumulation used.
#[track_caller]
fn check_terms<S: Semiring>(
    what: &str,
    got: &[S::T],
    old: &[S::T],
    terms: &[Vec<S::T>],
    accum: Accum,
    allowed: &[bool],
) {
    assert_eq!(got.len(), terms.len(), "{what}: length");
    for i in 0..got.len() {
        let t = terms[i].iter().fold(S::zero(), |a, &b| S::add(a, b));
        let want = if !allowed[i] {
            old[i]
        } else if accum == Accum::Add {
            S::add(old[i], t)
        } else {
            t
        };
        let ok = if picks_any::<S>() && allowed[i] && (accum != Accum::Add || S::is_zero(old[i])) {
            let nz: Vec<S::T> = terms[i]
                .iter()
                .copied()
                .filter(|v| !S::is_zero(*v))
                .collect();
            if nz.is_empty() {
                S::is_zero(got[i])
            } else {
                nz.iter().any(|&v| same::<S>(v, got[i]))
            }
        } else {
            same::<S>(got[i], want)
        };
        assert!(
            ok,
            "{what} ({}): position {i}: got {:?}, want {:?}",
            S::full_name(),
            got[i],
            want
        );
    }
}

/// A random `nrows x ncols` matrix with up to `per_row` entries per row (test values).
pub fn random_csr<S: Semiring>(nrows: usize, ncols: usize, per_row: usize, seed: u64) -> Csr<S>
where
    S::T: TestValue,
{
    let rng = Rng::new(seed);
    let mut arcs = Vec::new();
    let mut k = 0u64;
    for i in 0..nrows {
        let len = rng.below(k, per_row as u64 + 1);
        k += 1;
        for _ in 0..len {
            let j = rng.below(k, ncols.max(1) as u64) as usize;
            let v = test_value::<S>(rng.below(k + 1, 41) as i32 - 20, false);
            k += 2;
            if ncols > 0 {
                arcs.push((i as u32, j as u32, v));
            }
        }
    }
    // Duplicates keep the first value, so the reference sees exactly the stored entries.
    arcs.sort_by_key(|a| (a.0, a.1));
    arcs.dedup_by_key(|a| (a.0, a.1));
    let coo = semigraph_formats::Coo::<S>::try_from_triplets(
        nrows,
        ncols,
        arcs.iter().map(|a| a.0).collect(),
        arcs.iter().map(|a| a.1).collect(),
        arcs.iter().map(|a| a.2).collect(),
    )
    .expect("in range");
    coo.to_csr()
}

/// `len` random test values, about a third of them the zero (no entry).
pub fn random_values<S: Semiring>(len: usize, seed: u64) -> Vec<S::T>
where
    S::T: TestValue,
{
    let rng = Rng::new(seed ^ 0x5eed);
    (0..len)
        .map(|k| {
            test_value::<S>(
                rng.below(2 * k as u64, 41) as i32 - 20,
                rng.below(2 * k as u64 + 1, 3) == 0,
            )
        })
        .collect()
}

/// Dropping entries a semiring format cannot hold (DIA and dense drop explicit zeros: none
/// are generated) leaves the matrix as it is; this returns its stored entries.
fn entries<S: Semiring>(a: &Csr<S>) -> Vec<(usize, usize, S::T)> {
    a.iter().collect()
}

/// Every backend operation that involves a matrix, on `format`, against references:
/// SpMV and SpMM with each mask and accumulation, SpMSpV with masks.
pub fn check_matrix_ops<B: Backend, S: Semiring>(b: &B, format: Format)
where
    S::T: TestValue,
{
    for (seed, (nrows, ncols)) in [
        (11u64, (37usize, 29usize)),
        (12, (64, 64)),
        (13, (1, 5)),
        (14, (5, 1)),
    ] {
        let a = random_csr::<S>(nrows, ncols, 6, seed);
        let m = b.matrix(&a, format, &unlimited()).expect("matrix");
        let info = b.matrix_info(&m);
        assert_eq!(
            (info.nrows, info.ncols, info.nnz, info.format),
            (nrows, ncols, a.nnz(), format)
        );
        let e = entries(&a);
        for k in [1usize, 3, 9] {
            let x = random_values::<S>(ncols * k, seed + 100);
            let y0 = random_values::<S>(nrows * k, seed + 200);
            let mvals = random_values::<OrAnd>(nrows * k, seed + 300);
            let xd = b.dense::<S>(ncols, k, &x).unwrap();
            let md = b.dense::<OrAnd>(nrows, k, &mvals).unwrap();
            let mut terms = vec![Vec::new(); nrows * k];
            for &(i, j, w) in &e {
                for c in 0..k {
                    let xv = x[j * k + c];
                    if !S::is_zero(xv) {
                        terms[i * k + c].push(S::mul_at(w, xv, j as u64));
                    }
                }
            }
            for accum in [Accum::Replace, Accum::Add] {
                for mk in 0..3 {
                    let mut y = b.dense::<S>(nrows, k, &y0).unwrap();
                    let mask: Mask<'_, B> = match mk {
                        0 => Mask::All,
                        1 => b.keep(&md),
                        _ => b.skip(&md),
                    };
                    let allowed: Vec<bool> = (0..nrows * k)
                        .map(|i| match mk {
                            0 => true,
                            1 => mvals[i],
                            _ => !mvals[i],
                        })
                        .collect();
                    b.mxm(&mut y, mask, accum, &m, &xd).expect("mxm");
                    let got = b.read_dense(&y).unwrap();
                    check_terms::<S>(
                        &format!("mxm {format:?} k={k} {accum:?} mask#{mk}"),
                        &got,
                        &y0,
                        &terms,
                        accum,
                        &allowed,
                    );
                }
            }
        }
        // SpMSpV: x (+).(x) A over a sparse x, with a complemented mask.
        let xv = random_values::<S>(nrows, seed + 400);
        let (idx, vals): (Vec<u32>, Vec<S::T>) = xv
            .iter()
            .enumerate()
            .filter(|(_, v)| !S::is_zero(**v))
            .map(|(i, v)| (i as u32, *v))
            .unzip();
        let xs = b.sparse::<S>(nrows, &idx, &vals).unwrap();
        let mvals = random_values::<OrAnd>(ncols, seed + 500);
        let md = b.dense::<OrAnd>(ncols, 1, &mvals).unwrap();
        for mk in 0..2 {
            let mask: Mask<'_, B> = if mk == 0 { Mask::All } else { b.skip(&md) };
            let allowed: Vec<bool> = (0..ncols).map(|j| mk == 0 || !mvals[j]).collect();
            let t = b.vxm(&xs, &m, mask).expect("vxm");
            let (ti, tv) = b.read_sparse(&t).unwrap();
            assert!(
                ti.windows(2).all(|w| w[0] < w[1]),
                "vxm output indices sorted"
            );
            let mut got = vec![S::zero(); ncols];
            for (&i, &v) in ti.iter().zip(&tv) {
                assert!(!S::is_zero(v), "vxm returned an explicit zero");
                assert!(allowed[i as usize], "vxm wrote a masked position");
                got[i as usize] = v;
            }
            let mut terms = vec![Vec::new(); ncols];
            for &(i, j, w) in &e {
                if allowed[j] && !S::is_zero(xv[i]) {
                    terms[j].push(S::mul_at(w, xv[i], i as u64));
                }
            }
            let zeros = vec![S::zero(); ncols];
            check_terms::<S>(
                &format!("vxm {format:?} mask#{mk}"),
                &got,
                &zeros,
                &terms,
                Accum::Replace,
                &vec![true; ncols],
            );
        }
        check_witness::<B, S>(b, &m, &e, &xs, &idx, &vals, seed);
        check_relax_step::<B, S>(b, &m, &e, nrows, ncols, seed);
    }
}

/// `true` if `add` returns one of its operands on the test values (min, max, or, the secondi
/// semirings) and [`Semiring::improves`] means "`add` changes the old value": the semirings whose
/// relaxation step is defined ([`Backend::relax_step`]; `MinPlusPred`, whose improvement
/// ignores ties of distance, is not one).
fn selecting<S: Semiring>() -> bool
where
    S::T: TestValue,
{
    // Its ties of distance (with another predecessor) are not improvements, which test values
    // (distinct distances) would not show.
    if S::NAME == "min_plus_pred" {
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

/// The state a relaxation step reads and writes, on the host (the reference).
#[derive(Clone)]
struct StepState<S: Semiring> {
    d: Vec<S::T>,
    parents: Vec<u32>,
    steps: Vec<u32>,
    queue: Vec<(u32, S::T)>,
    step: usize,
}

/// One reference relaxation step (see [`Backend::relax_step`]).
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

/// [`Backend::relax_step`] and [`Backend::relax_steps`] against the reference: a random frontier
/// queue (with repeated vertices), random distances, a random mask, with and without the
/// visited-set option; the values, the output queue, the witnesses, the step numbers, the
/// step count and the running total must match.
fn check_relax_step<B: Backend, S: Semiring>(
    b: &B,
    m: &B::Matrix<S>,
    e: &[(usize, usize, S::T)],
    nrows: usize,
    ncols: usize,
    seed: u64,
) where
    S::T: TestValue,
{
    use semigraph_algos::{NO_PARENT, Parents, StepOutputs};
    if !selecting::<S>() || picks_any::<S>() {
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
        let (gi, gv) = b.read_queue(q).unwrap();
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
    for (masked, only_new) in [(false, false), (true, false), (false, true)] {
        let masked_out = |j: usize| masked && mv[j];
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
        b.relax_step(
            &mut d,
            StepOutputs {
                parents: Some(&mut p),
                steps: Some(&mut st),
                only_new,
            },
            &from,
            m,
            mask,
            &mut to,
        )
        .expect("relax_step");
        let want = reference_step(e, &start, &masked_out, only_new);
        let what = format!("relax_step masked={masked} only_new={only_new}");
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
                want2 = reference_step(e, &want2, &masked_out, only_new);
                total += want2.queue.len();
            }
            // With the length read first (a GPU may then run the steps in one block) or not;
            // a backend may stop early, so the caller loops on the step count, as algorithms
            // do, and must progress whenever it read the length.
            if masked || only_new {
                b.queue_len(&q).unwrap();
            }
            let (target, mut ran, mut stalls) = (want2.step, want.step, 0);
            while ran < target {
                b.relax_steps(
                    &mut d,
                    StepOutputs {
                        parents: Some(&mut p),
                        steps: Some(&mut st),
                        only_new,
                    },
                    &mut q,
                    &mut spare,
                    m,
                    mask,
                    target - ran,
                    usize::MAX,
                )
                .expect("relax_steps");
                let now = b.queue_len(&q).unwrap().steps;
                stalls = if now == ran { stalls + 1 } else { 0 };
                assert!(stalls < 2, "relax_steps {name}: no progress after a read");
                ran = now;
            }
            let what = format!("relax_steps masked={masked} only_new={only_new}");
            same_state(b, &what, &want2, &d, &p, &st, &q, total);
            // An empty frontier is a no-op.
            let mut empty = b.queue::<S>(ncols).unwrap();
            b.queue_clear(&mut empty).unwrap();
            let before = b.read_dense(&d).unwrap();
            b.relax_step(
                &mut d,
                StepOutputs::none(),
                &empty,
                m,
                Mask::All,
                &mut spare,
            )
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
fn check_queue_ops<B: Backend, S: Semiring>(b: &B)
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
    let (ri, rv) = b.read_queue(&q).unwrap();
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
    // reduce_queue.
    let (info, total) = b.reduce_queue(&q).unwrap();
    assert_eq!(info.len, qi.len());
    let want_total = qv.iter().fold(S::zero(), |a, &v| S::add(a, v));
    assert!(
        same::<S>(total, want_total) || picks_any::<S>(),
        "reduce_queue {name}"
    );
    let empty = b.queue::<S>(n).unwrap();
    let (ie, ze) = b.reduce_queue(&empty).unwrap();
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
    b.split_queue(&q, &d, lo, hi, &mut inside, Some(&mut outside))
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
        let (gi, gv) = b.read_queue(qq).unwrap();
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
    b.assign_queue(&mut y, &uq, c).unwrap();
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
        b.improve_dense_queue(&mut dd, &t, &mut out, 11).unwrap();
        let gd = b.read_dense(&dd).unwrap();
        let (gi, gv) = b.read_queue(&out).unwrap();
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

/// [`Backend::witness`] against a reference: `d` is the product `x (+).(x) A` itself (so
/// that terms attain it), targets are a random subset of the positions (some without an
/// entry), and positions outside it must keep their old value.
fn check_witness<B: Backend, S: Semiring>(
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

/// The backend operations without a sparse matrix: GEMM, element-wise, apply, reductions,
/// compaction, relaxation, union.
pub fn check_dense_ops<B: Backend, S: Semiring>(b: &B)
where
    S::T: TestValue,
{
    // GEMM with a small inner dimension (exact sums).
    let (m, p, n) = (9usize, 7usize, 11usize);
    let av = random_values::<S>(m * p, 1);
    let bv = random_values::<S>(p * n, 2);
    let c0 = random_values::<S>(m * n, 3);
    let (a, bb) = (
        b.dense::<S>(m, p, &av).unwrap(),
        b.dense::<S>(p, n, &bv).unwrap(),
    );
    for accum in [Accum::Replace, Accum::Add] {
        let mut c = b.dense::<S>(m, n, &c0).unwrap();
        b.gemm(&mut c, accum, &a, &bb).expect("gemm");
        let mut terms = vec![Vec::new(); m * n];
        for i in 0..m {
            for k in 0..p {
                for j in 0..n {
                    if !S::is_zero(av[i * p + k]) && !S::is_zero(bv[k * n + j]) {
                        terms[i * n + j].push(S::mul_at(av[i * p + k], bv[k * n + j], k as u64));
                    }
                }
            }
        }
        check_terms::<S>(
            &format!("gemm {accum:?}"),
            &b.read_dense(&c).unwrap(),
            &c0,
            &terms,
            accum,
            &vec![true; m * n],
        );
    }

    let len = 300;
    let xv = random_values::<S>(len, 4);
    let yv = random_values::<S>(len, 5);
    let mv = random_values::<OrAnd>(len, 6);
    let x = b.dense::<S>(len, 1, &xv).unwrap();
    let md = b.dense::<OrAnd>(len, 1, &mv).unwrap();
    assert_eq!(b.dense_shape(&x), (len, 1));
    // ewise and apply under a mask.
    for op in [Ewise::Add, Ewise::Mul] {
        let mut y = b.dense::<S>(len, 1, &yv).unwrap();
        b.ewise(&mut y, b.keep(&md), op, &x).unwrap();
        let got = b.read_dense(&y).unwrap();
        for i in 0..len {
            let want = if !mv[i] {
                yv[i]
            } else if op == Ewise::Add {
                S::add(yv[i], xv[i])
            } else {
                S::mul_at(yv[i], xv[i], 0)
            };
            assert!(
                same::<S>(got[i], want) || (picks_any::<S>() && op == Ewise::Add),
                "ewise {op:?} {}: {i}",
                S::full_name()
            );
        }
    }
    let c = test_value::<S>(3, false);
    for op in [UnaryOp::Fill(c), UnaryOp::MulBy(c), UnaryOp::AddTo(c)] {
        let mut y = b.dense::<S>(len, 1, &yv).unwrap();
        b.apply(&mut y, b.skip(&md), op).unwrap();
        let got = b.read_dense(&y).unwrap();
        for i in 0..len {
            let want = if mv[i] {
                yv[i]
            } else {
                match op {
                    UnaryOp::Fill(c) => c,
                    UnaryOp::MulBy(c) => S::mul_at(yv[i], c, 0),
                    UnaryOp::AddTo(c) => S::add(yv[i], c),
                }
            };
            assert!(
                same::<S>(got[i], want),
                "apply {op:?} {}: {i}",
                S::full_name()
            );
        }
    }
    // reductions and counts
    let nz = xv.iter().filter(|v| !S::is_zero(**v)).count();
    assert_eq!(b.nvals(&x).unwrap(), nz, "nvals {}", S::full_name());
    let total = b.reduce(&x, b.keep(&md)).unwrap();
    let want = xv
        .iter()
        .zip(&mv)
        .filter(|(_, m)| **m)
        .fold(S::zero(), |a, (v, _)| S::add(a, *v));
    assert!(
        same::<S>(total, want) || picks_any::<S>(),
        "reduce {}",
        S::full_name()
    );
    // compact / to_dense round trip
    let s = b.compact(&x).unwrap();
    assert_eq!(b.sparse_nnz(&s), nz);
    let back = b.read_dense(&b.to_dense(&s).unwrap()).unwrap();
    assert!(
        back.iter().zip(&xv).all(|(a, b)| same::<S>(*a, *b)),
        "compact/to_dense {}",
        S::full_name()
    );
    // select_range: lo <= v < hi in the value type's order.
    let (si, sv) = b.read_sparse(&s).unwrap();
    for (lo_k, hi_k) in [(-5, 7), (0, 0), (3, -3), (-20, 20)] {
        let (lo, hi) = (test_value::<S>(lo_k, false), test_value::<S>(hi_k, false));
        let sel = b.select_range(&s, lo, hi).unwrap();
        let (gi, gv) = b.read_sparse(&sel).unwrap();
        let (wi, wv): (Vec<u32>, Vec<S::T>) = si
            .iter()
            .zip(&sv)
            .filter(|(_, v)| (**v).partial_cmp(&lo).is_some_and(|o| o.is_ge()) && **v < hi)
            .map(|(i, v)| (*i, *v))
            .unzip();
        assert_eq!(gi, wi, "select_range [{lo}, {hi}) {}", S::full_name());
        assert!(
            gv.iter().zip(&wv).all(|(a, b)| same::<S>(*a, *b)),
            "select_range values {}",
            S::full_name()
        );
    }
    let sr = b.reduce_sparse(&s).unwrap();
    let want = xv.iter().fold(S::zero(), |a, v| S::add(a, *v));
    assert!(
        same::<S>(sr, want) || picks_any::<S>(),
        "reduce_sparse {}",
        S::full_name()
    );
    // improve (sparse and dense)
    let (ti, tv) = b
        .read_sparse(&b.compact(&b.dense::<S>(len, 1, &yv).unwrap()).unwrap())
        .unwrap();
    let t = b.sparse::<S>(len, &ti, &tv).unwrap();
    let mut d = b.dense::<S>(len, 1, &xv).unwrap();
    let changed = b.improve(&mut d, &t).unwrap();
    let (ci, cv) = b.read_sparse(&changed).unwrap();
    let got = b.read_dense(&d).unwrap();
    let mut want_idx = Vec::new();
    for i in 0..len {
        let better = !S::is_zero(yv[i]) && S::improves(xv[i], yv[i]);
        let w = if better { S::add(xv[i], yv[i]) } else { xv[i] };
        assert!(same::<S>(got[i], w), "improve {}: {i}", S::full_name());
        if better {
            want_idx.push(i as u32);
        }
    }
    assert_eq!(ci, want_idx, "improve changed set {}", S::full_name());
    assert!(
        ci.iter()
            .zip(&cv)
            .all(|(&i, &v)| same::<S>(v, got[i as usize]))
    );
    let mut d = b.dense::<S>(len, 1, &xv).unwrap();
    let nchanged = b
        .improve_dense(&mut d, &b.dense::<S>(len, 1, &yv).unwrap())
        .unwrap();
    let expect = (0..len).filter(|&i| S::improves(xv[i], yv[i])).count();
    assert_eq!(nchanged, expect, "improve_dense count {}", S::full_name());
    // union, assign_at
    let u = b.union(&s, &t).unwrap();
    let (ui, uv) = b.read_sparse(&u).unwrap();
    for (&i, &v) in ui.iter().zip(&uv) {
        let want = S::add(xv[i as usize], yv[i as usize]);
        assert!(
            same::<S>(v, want) || picks_any::<S>(),
            "union {}: {i}",
            S::full_name()
        );
    }
    let union_idx: Vec<u32> = (0..len as u32)
        .filter(|&i| !S::is_zero(xv[i as usize]) || !S::is_zero(yv[i as usize]))
        .collect();
    assert_eq!(ui, union_idx, "union indices {}", S::full_name());
    let mut y = b.dense::<S>(len, 1, &yv).unwrap();
    b.assign_at(&mut y, &s, c).unwrap();
    let got = b.read_dense(&y).unwrap();
    for i in 0..len {
        let want = if S::is_zero(xv[i]) { yv[i] } else { c };
        assert!(same::<S>(got[i], want), "assign_at {}", S::full_name());
    }
    check_queue_ops::<B, S>(b);
    // set and unit
    let mut z = b.dense_filled::<S>(4, 2, S::zero()).unwrap();
    b.set(&mut z, 5, c).unwrap();
    let got = b.read_dense(&z).unwrap();
    assert!(same::<S>(got[5], c) && got.iter().filter(|v| !S::is_zero(**v)).count() == 1);
}
/// The graphs the algorithm suite runs on.
pub fn test_graphs() -> Vec<TestGraph> {
    use semigraph_formats::generate;
    let mut k = generate::kronecker(7, 8, 3);
    k.assign_weights(semigraph_formats::edgelist::WeightSpec::Uniform {
        lo: 1,
        hi: 20,
        seed: 4,
    });
    // Hubs of thousands of arcs, frontiers wider than a GPU block of threads: the paths where
    // a GPU spreads one vertex's arcs over many threads.
    let mut hubs = generate::kronecker(9, 16, 11);
    hubs.assign_weights(semigraph_formats::edgelist::WeightSpec::Uniform {
        lo: 1,
        hi: 1000,
        seed: 12,
    });
    vec![
        TestGraph::from_edges("grid 9x13", &generate::grid(9, 13, 0, 9, 1)),
        TestGraph::from_edges("kronecker scale 9", &hubs),
        TestGraph::from_edges("star 1100", &generate::star(1100)),
        TestGraph::from_edges("kronecker scale 7", &k),
        TestGraph::from_edges("path 40", &generate::path(40)),
        TestGraph::from_edges("star 30", &generate::star(30)),
        TestGraph::random(60, 150, 0, 5, 7),
        TestGraph::random(50, 40, 1, 100, 8),
        TestGraph {
            name: "single vertex".into(),
            n: 1,
            arcs: vec![],
        },
    ]
}

/// Every algorithm on `b` with pull matrices in `format`, against the oracles.
pub fn check_algorithms<B: Backend>(b: &B, format: Format) -> Result<()> {
    use semigraph_algos::{Graph, GraphOptions};
    let opts = GraphOptions {
        format: Some(format),
        pull: true,
        convert: unlimited(),
    };
    for tg in test_graphs() {
        trace(&tg.name, "bfs");
        let a = tg.csr::<i32>();
        let pattern = a.pattern::<semigraph_algos::BfsSemiring>();
        let g = Graph::new(b, &pattern, opts)?;
        let sources: Vec<usize> = [0, tg.n / 2, tg.n - 1].into_iter().collect();
        for &s in &sources {
            for dir in [
                semigraph_algos::Direction::Auto,
                semigraph_algos::Direction::Push,
                semigraph_algos::Direction::Pull,
            ] {
                let r =
                    semigraph_algos::bfs(&g, s, &semigraph_algos::BfsOptions { direction: dir })?;
                check_bfs(&pattern, &r);
            }
        }
        let multi = semigraph_algos::bfs_multi(&g, &sources)?;
        for r in &multi {
            check_bfs(&pattern, r);
        }
        // Reachability agrees with BFS.
        let gr = Graph::new(b, &a.pattern::<OrAnd>(), GraphOptions::default())?;
        let reach = semigraph_algos::reachability(&gr, sources[1])?;
        let lv = oracle_bfs(&pattern, sources[1]);
        assert_eq!(
            reach,
            lv.iter().map(|l| l.is_some()).collect::<Vec<_>>(),
            "{}",
            tg.name
        );

        trace(&tg.name, "shortest paths");
        check_shortest_paths_in::<B, i32>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, i64>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, f32>(b, &tg, &sources, opts)?;
        check_shortest_paths_in::<B, f64>(b, &tg, &sources, opts)?;
        if tg.n <= 200 {
            let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("no negative cycle");
            // Every method in i32; squaring (the packed and the unpacked next hops) in the
            // others.
            check_apsp_in::<B, i32>(b, &tg, &fw, true)?;
            check_apsp_in::<B, i64>(b, &tg, &fw, false)?;
            check_apsp_in::<B, f64>(b, &tg, &fw, false)?;
            let tc = semigraph_algos::transitive_closure(b, &a.pattern::<OrAnd>())?;
            assert_eq!(
                tc,
                fw.iter().map(|d| d.is_some()).collect::<Vec<_>>(),
                "closure {}",
                tg.name
            );
        }
    }
    // Negative weights: DAGs (no cycle) against textbook Bellman-Ford; then cycles.
    for seed in 0..4 {
        let tg = TestGraph::random_dag(40, 120, -20, 30, seed);
        let a = tg.csr::<i32>();
        let gp = Graph::new(b, &a, opts)?;
        let want = oracle_bellman_ford(tg.n, &tg.arcs, 0).expect("a DAG has no cycle");
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp, 0)?, &want);
        let a64 = tg.csr::<i64>();
        let gp64 = Graph::new(b, &a64, opts)?;
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp64, 0)?, &want);
        let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("a DAG has no cycle");
        check_apsp_in::<B, i32>(b, &tg, &fw, true)?;
        check_apsp_in::<B, i64>(b, &tg, &fw, false)?;
    }
    for seed in 0..6 {
        let tg = TestGraph::random(30, 70, -6, 20, 100 + seed);
        let a = tg.csr::<i32>();
        let gp = Graph::new(b, &a, opts)?;
        match (
            oracle_bellman_ford(tg.n, &tg.arcs, 0),
            semigraph_algos::bellman_ford(&gp, 0),
        ) {
            (Ok(want), Ok(sp)) => check_shortest_paths(&tg.arcs, &sp, &want),
            (Err(()), Err(Error::NegativeCycle { cycle })) => {
                check_negative_cycle(&tg.arcs, &cycle)
            }
            (w, g) => panic!("{}: oracle {w:?}, bellman_ford {g:?}", tg.name),
        }
        for method in [
            semigraph_algos::ApspMethod::Squaring,
            semigraph_algos::ApspMethod::Sources,
        ] {
            let opts = semigraph_algos::ApspOptions {
                method,
                ..Default::default()
            };
            match (
                oracle_floyd_warshall(tg.n, &tg.arcs),
                semigraph_algos::apsp(b, &a, &opts),
            ) {
                (Ok(_), Ok(_)) => {}
                (Err(_), Err(Error::NegativeCycle { cycle })) => {
                    check_negative_cycle(&tg.arcs, &cycle)
                }
                (w, g) => panic!(
                    "{} ({method:?}): oracle {w:?}, apsp {:?}",
                    tg.name,
                    g.map(|r| r.rounds)
                ),
            }
        }
    }
    Ok(())
}

/// Bellman-Ford and delta-stepping (automatic delta and delta 1) from each source in
/// distance type `D`, against Dijkstra.
fn check_shortest_paths_in<B: Backend, D: semigraph_algos::Distance>(
    b: &B,
    tg: &TestGraph,
    sources: &[usize],
    opts: semigraph_algos::GraphOptions,
) -> Result<()> {
    let a = tg.csr::<D>();
    let gp = semigraph_algos::Graph::new(b, &a, opts)?;
    let gd = semigraph_algos::DeltaGraph::new(b, &a, None)?;
    let gd1 = semigraph_algos::DeltaGraph::new(b, &a, Some(D::ONE))?;
    for &s in sources {
        let want = oracle_dijkstra(tg.n, &tg.arcs, s);
        trace(&tg.name, "bellman-ford");
        check_shortest_paths(&tg.arcs, &semigraph_algos::bellman_ford(&gp, s)?, &want);
        trace(&tg.name, "delta-stepping");
        check_shortest_paths(&tg.arcs, &semigraph_algos::delta_stepping(&gd, s)?, &want);
        trace(&tg.name, "delta-stepping, delta 1");
        check_shortest_paths(&tg.arcs, &semigraph_algos::delta_stepping(&gd1, s)?, &want);
    }
    Ok(())
}

/// With `SEMIGRAPH_TEST_TRACE` set, prints the phase a long test is in (to stderr, with the
/// seconds since the first call), to find where one stalls.
fn trace(graph: &str, what: &str) {
    static START: std::sync::OnceLock<Option<std::time::Instant>> = std::sync::OnceLock::new();
    let start = START.get_or_init(|| {
        std::env::var_os("SEMIGRAPH_TEST_TRACE").map(|_| std::time::Instant::now())
    });
    if let Some(t) = start {
        eprintln!("[{:9.3}s] {graph}: {what}", t.elapsed().as_secs_f64());
    }
}

/// APSP in distance type `D`, with and without next hops, against Floyd-Warshall; every
/// next-hop path has the reported length.
fn check_apsp_in<B: Backend, D: semigraph_algos::Distance>(
    b: &B,
    tg: &TestGraph,
    fw: &[Option<i64>],
    every_method: bool,
) -> Result<()> {
    let n = tg.n;
    let mut w = std::collections::HashMap::new();
    for &(u, v, x) in &tg.arcs {
        let e = w.entry((u, v)).or_insert(x);
        *e = (*e).min(x);
    }
    let a = tg.csr::<D>();
    use semigraph_algos::ApspMethod;
    let runs = [
        (ApspMethod::Squaring, false),
        (ApspMethod::Squaring, true),
        (ApspMethod::Sources, true),
        (ApspMethod::Auto, false),
    ];
    for (method, next_hop) in runs.into_iter().take(if every_method { 4 } else { 2 }) {
        let opts = semigraph_algos::ApspOptions { next_hop, method };
        let r = semigraph_algos::apsp(b, &a, &opts)?;
        assert_ne!(r.method, ApspMethod::Auto, "apsp says which method ran");
        if method != ApspMethod::Auto {
            assert_eq!(r.method, method);
        }
        for i in 0..n {
            for j in 0..n {
                let want = fw[i * n + j];
                assert_eq!(
                    r.distance(i, j).map(|d| d.to_f64() as i64),
                    want,
                    "apsp ({:?}) {} in {}: {i}->{j}",
                    method,
                    tg.name,
                    std::any::type_name::<D>()
                );
                if !next_hop {
                    continue;
                }
                let path = r.path(i, j);
                assert_eq!(path.is_some(), want.is_some(), "apsp path {i}->{j} exists");
                if let Some(p) = path {
                    let len: i64 = p
                        .windows(2)
                        .map(|e| w[&(e[0] as usize, e[1] as usize)])
                        .sum();
                    assert_eq!(Some(len), want, "apsp path {i}->{j} has the distance");
                }
            }
        }
    }
    Ok(())
}

/// One test body of the suite, run on a freshly made backend.
type Body<B> = Box<dyn FnOnce(&B) -> std::result::Result<(), Failed> + Send>;

/// Turns a panic-free `Result` of the checks into a test outcome.
fn outcome(r: Result<()>) -> std::result::Result<(), Failed> {
    r.map_err(|e| Failed::from(e.to_string()))
}

/// Adds the whole backend suite to `h`: for each format, one test per built-in semiring
/// running [`check_matrix_ops`] (`FORMAT::SEMIRING`) and one running [`check_algorithms`]
/// (`FORMAT::algorithms`); one test per semiring running [`check_dense_ops`]
/// (`dense_ops::SEMIRING`).
///
/// `make` builds the backend inside each test (tests run on several threads). `needs` is what
/// the backend needs beyond the CPU (`None` for the CPU backend): where it is missing the
/// tests are reported as ignored (see [`Harness::test_needing`]).
pub fn register<B, E>(
    h: &mut Harness,
    needs: Option<&Needs>,
    make: fn() -> std::result::Result<B, E>,
) where
    B: Backend + 'static,
    E: std::fmt::Display + 'static,
{
    register_prefixed(h, "", needs, make)
}

/// [`register`] with every test name prefixed by `prefix` (for a second configuration of the
/// same backend).
pub fn register_prefixed<B, E>(
    h: &mut Harness,
    prefix: &'static str,
    needs: Option<&Needs>,
    make: fn() -> std::result::Result<B, E>,
) where
    B: Backend + 'static,
    E: std::fmt::Display + 'static,
{
    let add = |h: &mut Harness, name: String, f: Body<B>| {
        let body = move || {
            let b = make().map_err(|e| Failed::from(format!("the backend did not open: {e}")))?;
            f(&b)
        };
        match needs {
            Some(n) => h.test_needing(n, name, body),
            None => h.test(name, body),
        }
    };
    let formats = [
        ("coo", Format::Coo),
        ("csr", Format::Csr),
        ("ell", Format::Ell),
        ("dia", Format::Dia),
        ("hyb", Format::Hyb),
        ("dense", Format::Dense),
    ];
    for (fname, format) in formats {
        macro_rules! one {
            ($label:ident, $s:ty) => {
                add(
                    h,
                    format!("{prefix}{fname}::{}", stringify!($label)),
                    Box::new(move |b: &B| {
                        check_matrix_ops::<B, $s>(b, format);
                        Ok(())
                    }),
                );
            };
        }
        semigraph_semiring::for_each_builtin!(one);
        add(
            h,
            format!("{prefix}{fname}::algorithms"),
            Box::new(move |b: &B| outcome(check_algorithms(b, format))),
        );
    }
    macro_rules! dense {
        ($label:ident, $s:ty) => {
            add(
                h,
                format!("{prefix}dense_ops::{}", stringify!($label)),
                Box::new(|b: &B| {
                    check_dense_ops::<B, $s>(b);
                    Ok(())
                }),
            );
        };
    }
    semigraph_semiring::for_each_builtin!(dense);
}
