//! The test suite every backend runs, written once: reference operations, oracles (queue BFS,
//! binary-heap Dijkstra, Floyd-Warshall), property checks, and [`backend_test_suite!`], which
//! expands into one `#[test]` per (format, built-in semiring) for a backend.
//!
//! Values come from [`semigraph_semiring::testing::test_value`]: small integers, so every sum
//! and product in these tests is exact in every type (f16 and bf16 included), whatever order a
//! backend adds in. Results are therefore compared exactly (`==`, so `-0.0` equals `0.0`); the
//! one semiring whose answer depends on order, `any_secondi`, is checked for validity: each
//! output must be one of the terms it could have picked.
//!
//! [`backend_test_suite!`]: crate::backend_test_suite

use std::collections::{BinaryHeap, VecDeque};

use semigraph_formats::generate::Rng;
use semigraph_formats::{Csr, Format};
use semigraph_semiring::testing::{TestValue, test_value};
use semigraph_semiring::{MinPlus, OrAnd, Scalar, Semiring};

use crate::backend::{Accum, Backend, Ewise, Mask, UnaryOp};
use crate::{Error, Result};

/// Returns the backend, or `None` after printing why the tests are skipped. With
/// `SEMIGRAPH_REQUIRE_GPU=1` a missing backend panics instead, so a skip cannot pass as a run.
pub fn backend_or_skip<B, E: std::fmt::Display>(made: std::result::Result<B, E>) -> Option<B> {
    match made {
        Ok(b) => Some(b),
        Err(e) => {
            if std::env::var("SEMIGRAPH_REQUIRE_GPU").is_ok_and(|v| v == "1") {
                panic!("backend unavailable and SEMIGRAPH_REQUIRE_GPU=1: {e}");
            }
            eprintln!("SKIPPED: backend unavailable: {e}");
            None
        }
    }
}

/// `a` and `b` are the same value (`==`, or bitwise equal).
pub fn same<S: Semiring>(a: S::T, b: S::T) -> bool {
    a == b || a.to_bits64() == b.to_bits64()
}

/// `true` for semirings whose `add` may pick any of its operands (results are checked for
/// validity, not equality).
pub fn picks_any<S: Semiring>() -> bool {
    S::NAME == "any_secondi"
}

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
        for k in [1usize, 3] {
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
    }
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
    // set and unit
    let mut z = b.dense_filled::<S>(4, 2, S::zero()).unwrap();
    b.set(&mut z, 5, c).unwrap();
    let got = b.read_dense(&z).unwrap();
    assert!(same::<S>(got[5], c) && got.iter().filter(|v| !S::is_zero(**v)).count() == 1);
}

/// Conversion options without fill limits (test matrices are small).
pub fn unlimited() -> semigraph_formats::ConvertOptions {
    semigraph_formats::ConvertOptions {
        max_fill: f64::INFINITY,
        ..Default::default()
    }
}

// ---- oracles -----------------------------------------------------------------------------

/// Queue BFS levels from `source` over the arcs of `a` (`None` = unreached).
pub fn oracle_bfs<S: Semiring>(a: &Csr<S>, source: usize) -> Vec<Option<u32>> {
    let mut level = vec![None; a.nrows()];
    level[source] = Some(0);
    let mut q = VecDeque::from([source]);
    while let Some(u) = q.pop_front() {
        for &v in a.row(u).0 {
            let v = v as usize;
            if level[v].is_none() {
                level[v] = Some(level[u].unwrap() + 1);
                q.push_back(v);
            }
        }
    }
    level
}

/// Binary-heap Dijkstra over `i64` weights (must be non-negative).
pub fn oracle_dijkstra(n: usize, arcs: &[(usize, usize, i64)], source: usize) -> Vec<Option<i64>> {
    let mut adj = vec![Vec::new(); n];
    for &(u, v, w) in arcs {
        assert!(w >= 0, "Dijkstra oracle needs non-negative weights");
        adj[u].push((v, w));
    }
    let mut dist = vec![None; n];
    let mut heap = BinaryHeap::from([std::cmp::Reverse((0i64, source))]);
    while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
        if dist[u].is_some() {
            continue;
        }
        dist[u] = Some(d);
        for &(v, w) in &adj[u] {
            if dist[v].is_none() {
                heap.push(std::cmp::Reverse((d + w, v)));
            }
        }
    }
    dist
}

/// Floyd-Warshall over `i64` weights: `Some(dist)` per pair, `None` if unreachable; `Err` with
/// a vertex on a negative cycle.
pub fn oracle_floyd_warshall(
    n: usize,
    arcs: &[(usize, usize, i64)],
) -> std::result::Result<Vec<Option<i64>>, usize> {
    let mut d = vec![None; n * n];
    for i in 0..n {
        d[i * n + i] = Some(0);
    }
    for &(u, v, w) in arcs {
        let e = &mut d[u * n + v];
        *e = Some(e.map_or(w, |x: i64| x.min(w)));
    }
    for k in 0..n {
        for i in 0..n {
            let Some(ik) = d[i * n + k] else { continue };
            for j in 0..n {
                if let Some(kj) = d[k * n + j] {
                    let e = &mut d[i * n + j];
                    if e.is_none_or(|x| ik + kj < x) {
                        *e = Some(ik + kj);
                    }
                }
            }
        }
    }
    match (0..n).find(|&i| d[i * n + i].is_some_and(|x| x < 0)) {
        Some(v) => Err(v),
        None => Ok(d),
    }
}

/// Bellman-Ford over `i64` weights, textbook (all arcs, `n - 1` rounds, then one check).
/// `Err(())` if a negative cycle is reachable.
#[allow(clippy::result_unit_err)]
pub fn oracle_bellman_ford(
    n: usize,
    arcs: &[(usize, usize, i64)],
    source: usize,
) -> std::result::Result<Vec<Option<i64>>, ()> {
    let mut d: Vec<Option<i64>> = vec![None; n];
    d[source] = Some(0);
    for _ in 0..n {
        let mut changed = false;
        for &(u, v, w) in arcs {
            if let Some(du) = d[u]
                && d[v].is_none_or(|dv| du + w < dv)
            {
                d[v] = Some(du + w);
                changed = true;
            }
        }
        if !changed {
            return Ok(d);
        }
    }
    Err(())
}

// ---- property checks ---------------------------------------------------------------------

/// Checks a BFS result against the queue oracle and its own parent tree: the levels equal the
/// oracle's; every reached non-source vertex has a reached parent with an arc to it and a
/// level one lower; the parent is the smallest such vertex.
#[allow(clippy::needless_range_loop)]
pub fn check_bfs<S: Semiring>(a: &Csr<S>, r: &crate::Bfs) {
    let want = oracle_bfs(a, r.source);
    let at = a.transpose();
    for v in 0..a.nrows() {
        assert_eq!(r.level(v), want[v], "level of {v} from {}", r.source);
        match (r.level(v), r.parent(v)) {
            (None, None) => {}
            (Some(0), Some(p)) => assert_eq!((v, p as usize), (r.source, r.source)),
            (Some(l), Some(p)) => {
                let p = p as usize;
                assert!(a.get(p, v).is_some(), "parent arc {p} -> {v} missing");
                assert_eq!(r.level(p), Some(l - 1), "parent of {v} one level up");
                let smallest = at
                    .row(v)
                    .0
                    .iter()
                    .map(|&u| u as usize)
                    .find(|&u| r.level(u) == Some(l - 1));
                assert_eq!(smallest, Some(p), "parent of {v} is the smallest candidate");
            }
            other => panic!("vertex {v}: level/parent disagree: {other:?}"),
        }
    }
}

/// Checks shortest paths against exact `want` distances and the path properties: no arc can
/// relax a distance (`d(v) <= d(u) + w`), and predecessors rebuild a path of the reported
/// length.
#[allow(clippy::needless_range_loop)]
pub fn check_shortest_paths<D: crate::Distance>(
    arcs: &[(usize, usize, i64)],
    sp: &crate::ShortestPaths<D>,
    want: &[Option<i64>],
) {
    let n = want.len();
    let val = |d: D| d.to_f64() as i64;
    for v in 0..n {
        assert_eq!(
            sp.distance(v).map(val),
            want[v],
            "distance of {v} from {}",
            sp.source
        );
    }
    let mut w = std::collections::HashMap::new();
    for &(u, v, x) in arcs {
        let e = w.entry((u, v)).or_insert(x);
        *e = (*e).min(x);
        if let (Some(du), Some(dv)) = (sp.distance(u), sp.distance(v)) {
            assert!(val(dv) <= val(du) + x, "arc {u} -> {v} relaxes {}", val(dv));
        }
    }
    for v in 0..n {
        if let Some(dv) = sp.distance(v) {
            let path = sp
                .path_to(v)
                .unwrap_or_else(|| panic!("no path rebuilt to {v}"));
            assert_eq!(path[0] as usize, sp.source);
            let len: i64 = path
                .windows(2)
                .map(|p| w[&(p[0] as usize, p[1] as usize)])
                .sum();
            assert_eq!(len, val(dv), "path to {v} has the reported length");
        }
    }
}

/// Checks that `cycle` is a cycle of `arcs` with negative total weight.
pub fn check_negative_cycle(arcs: &[(usize, usize, i64)], cycle: &[u32]) {
    assert!(!cycle.is_empty(), "an empty cycle");
    let mut total = 0;
    for k in 0..cycle.len() {
        let (u, v) = (cycle[k] as usize, cycle[(k + 1) % cycle.len()] as usize);
        let w = arcs
            .iter()
            .filter(|a| a.0 == u && a.1 == v)
            .map(|a| a.2)
            .min()
            .unwrap_or_else(|| panic!("cycle uses a missing arc {u} -> {v}"));
        total += w;
    }
    assert!(
        total < 0,
        "cycle {cycle:?} has weight {total}, not negative"
    );
}

/// A graph with integer weights for the algorithm suite.
#[derive(Clone, Debug)]
pub struct TestGraph {
    /// Name for messages.
    pub name: String,
    /// Vertices.
    pub n: usize,
    /// Arcs `(u, v, w)`.
    pub arcs: Vec<(usize, usize, i64)>,
}

impl TestGraph {
    /// As a min-plus CSR (parallel arcs keep the lightest).
    pub fn csr<D: crate::Distance>(&self) -> Csr<MinPlus<D>> {
        let arcs: Vec<(u32, u32, D)> = self
            .arcs
            .iter()
            .map(|&(u, v, w)| (u as u32, v as u32, D::from_f64(w as f64)))
            .collect();
        crate::arcs_to_csr(self.n, &arcs).expect("valid arcs")
    }

    /// From an edge list with integer weights (unit weights if it has none).
    pub fn from_edges(name: &str, g: &semigraph_formats::EdgeList) -> TestGraph {
        let arcs = (0..g.len())
            .map(|k| {
                let w = g.weights.get(k).map_or(1, |w| {
                    <i64 as semigraph_formats::WeightValue>::from_weight(w)
                        .expect("test graphs have integer weights")
                });
                (g.src[k] as usize, g.dst[k] as usize, w)
            })
            .collect();
        TestGraph {
            name: name.into(),
            n: g.num_vertices(),
            arcs,
        }
    }

    /// Random arcs with weights in `lo..=hi`.
    pub fn random(n: usize, m: usize, lo: i64, hi: i64, seed: u64) -> TestGraph {
        let rng = Rng::new(seed);
        let arcs = (0..m as u64)
            .map(|k| {
                let u = rng.below(3 * k, n as u64) as usize;
                let v = rng.below(3 * k + 1, n as u64) as usize;
                (u, v, lo + rng.below(3 * k + 2, (hi - lo + 1) as u64) as i64)
            })
            .collect();
        TestGraph {
            name: format!("random n={n} m={m} w={lo}..={hi} seed={seed}"),
            n,
            arcs,
        }
    }

    /// Random arcs `u -> v` with `u < v` only (a DAG: no cycle, negative weights are safe).
    pub fn random_dag(n: usize, m: usize, lo: i64, hi: i64, seed: u64) -> TestGraph {
        let mut g = TestGraph::random(n, m, lo, hi, seed);
        g.arcs.retain(|a| a.0 != a.1);
        for a in &mut g.arcs {
            if a.0 > a.1 {
                std::mem::swap(&mut a.0, &mut a.1);
            }
        }
        g.name = format!("dag {}", g.name);
        g
    }
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
    vec![
        TestGraph::from_edges("grid 9x13", &generate::grid(9, 13, 0, 9, 1)),
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
    use crate::{Graph, GraphOptions};
    let opts = GraphOptions {
        format: Some(format),
        pull: true,
        convert: unlimited(),
    };
    for tg in test_graphs() {
        let a = tg.csr::<i32>();
        let pattern = a.pattern::<crate::BfsSemiring>();
        let g = Graph::new(b, &pattern, opts)?;
        let sources: Vec<usize> = [0, tg.n / 2, tg.n - 1].into_iter().collect();
        for &s in &sources {
            for dir in [
                crate::Direction::Auto,
                crate::Direction::Push,
                crate::Direction::Pull,
            ] {
                let r = crate::bfs(&g, s, &crate::BfsOptions { direction: dir })?;
                check_bfs(&pattern, &r);
            }
        }
        let multi = crate::bfs_multi(&g, &sources)?;
        for r in &multi {
            check_bfs(&pattern, r);
        }
        // Reachability agrees with BFS.
        let gr = Graph::new(b, &a.pattern::<OrAnd>(), GraphOptions::default())?;
        let reach = crate::reachability(&gr, sources[1])?;
        let lv = oracle_bfs(&pattern, sources[1]);
        assert_eq!(
            reach,
            lv.iter().map(|l| l.is_some()).collect::<Vec<_>>(),
            "{}",
            tg.name
        );

        let gp = Graph::new(b, &crate::with_pred(&a), opts)?;
        let gd = crate::DeltaGraph::new(b, &a, None)?;
        let gd1 = crate::DeltaGraph::new(b, &a, Some(1))?;
        for &s in &sources {
            let want = oracle_dijkstra(tg.n, &tg.arcs, s);
            check_shortest_paths(&tg.arcs, &crate::bellman_ford(&gp, s)?, &want);
            check_shortest_paths(&tg.arcs, &crate::delta_stepping(&gd, s)?, &want);
            check_shortest_paths(&tg.arcs, &crate::delta_stepping(&gd1, s)?, &want);
            let af = tg.csr::<f32>();
            let gpf = Graph::new(b, &crate::with_pred(&af), opts)?;
            check_shortest_paths(&tg.arcs, &crate::bellman_ford(&gpf, s)?, &want);
        }
        if tg.n <= 200 {
            let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("no negative cycle");
            for next_hop in [false, true] {
                let r = crate::apsp(b, &a, &crate::ApspOptions { next_hop })?;
                for i in 0..tg.n {
                    for j in 0..tg.n {
                        assert_eq!(
                            r.distance(i, j).map(|d| d as i64),
                            fw[i * tg.n + j],
                            "apsp {} {i}->{j}",
                            tg.name
                        );
                        if next_hop && let Some(p) = r.path(i, j) {
                            let len: i64 = p
                                .windows(2)
                                .map(|e| {
                                    tg.arcs
                                        .iter()
                                        .filter(|a| a.0 == e[0] as usize && a.1 == e[1] as usize)
                                        .map(|a| a.2)
                                        .min()
                                        .expect("path arc exists")
                                })
                                .sum();
                            assert_eq!(Some(len), fw[i * tg.n + j], "apsp path {i}->{j}");
                        }
                        if next_hop {
                            assert_eq!(r.path(i, j).is_some(), fw[i * tg.n + j].is_some());
                        }
                    }
                }
            }
            let tc = crate::transitive_closure(b, &a.pattern::<OrAnd>())?;
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
        let gp = Graph::new(b, &crate::with_pred(&a), opts)?;
        let want = oracle_bellman_ford(tg.n, &tg.arcs, 0).expect("a DAG has no cycle");
        check_shortest_paths(&tg.arcs, &crate::bellman_ford(&gp, 0)?, &want);
        let fw = oracle_floyd_warshall(tg.n, &tg.arcs).expect("a DAG has no cycle");
        let r = crate::apsp(b, &a, &crate::ApspOptions { next_hop: true })?;
        assert!((0..tg.n * tg.n).all(|k| r.dist[k] as i64 == fw[k].unwrap_or(i32::MAX as i64)));
    }
    for seed in 0..6 {
        let tg = TestGraph::random(30, 70, -6, 20, 100 + seed);
        let a = tg.csr::<i32>();
        let gp = Graph::new(b, &crate::with_pred(&a), opts)?;
        match (
            oracle_bellman_ford(tg.n, &tg.arcs, 0),
            crate::bellman_ford(&gp, 0),
        ) {
            (Ok(want), Ok(sp)) => check_shortest_paths(&tg.arcs, &sp, &want),
            (Err(()), Err(Error::NegativeCycle { cycle })) => {
                check_negative_cycle(&tg.arcs, &cycle)
            }
            (w, g) => panic!("{}: oracle {w:?}, bellman_ford {g:?}", tg.name),
        }
        match (
            oracle_floyd_warshall(tg.n, &tg.arcs),
            crate::apsp(b, &a, &Default::default()),
        ) {
            (Ok(_), Ok(_)) => {}
            (Err(_), Err(Error::NegativeCycle { cycle })) => check_negative_cycle(&tg.arcs, &cycle),
            (w, g) => panic!("{}: oracle {w:?}, apsp {:?}", tg.name, g.map(|r| r.rounds)),
        }
    }
    Ok(())
}

/// Expands into the whole backend test suite for the backend that `$make` builds
/// (`$make` is an expression of type `Result<B, E: Display>`; an `Err` skips, or fails under
/// `SEMIGRAPH_REQUIRE_GPU=1`): for each format, one test per built-in semiring running
/// [`check_matrix_ops`] and one running [`check_algorithms`]; one test per semiring running
/// [`check_dense_ops`].
#[macro_export]
macro_rules! backend_test_suite {
    ($make:expr) => {
        $crate::__format_suite!(coo, Coo, $make);
        $crate::__format_suite!(csr, Csr, $make);
        $crate::__format_suite!(ell, Ell, $make);
        $crate::__format_suite!(dia, Dia, $make);
        $crate::__format_suite!(hyb, Hyb, $make);
        $crate::__format_suite!(dense, Dense, $make);
        mod dense_ops {
            #[allow(unused_imports)]
            use super::*;
            macro_rules! one {
                ($label:ident, $s:ty) => {
                    #[test]
                    fn $label() {
                        if let Some(b) = $crate::testing::backend_or_skip($make) {
                            $crate::testing::check_dense_ops::<_, $s>(&b);
                        }
                    }
                };
            }
            $crate::__semiring::for_each_builtin!(one);
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __format_suite {
    ($m:ident, $fmt:ident, $make:expr) => {
        mod $m {
            #[allow(unused_imports)]
            use super::*;
            macro_rules! one {
                ($label:ident, $s:ty) => {
                    #[test]
                    fn $label() {
                        if let Some(b) = $crate::testing::backend_or_skip($make) {
                            $crate::testing::check_matrix_ops::<_, $s>(&b, $crate::__Format::$fmt);
                        }
                    }
                };
            }
            $crate::__semiring::for_each_builtin!(one);
            #[test]
            fn algorithms() {
                if let Some(b) = $crate::testing::backend_or_skip($make) {
                    $crate::testing::check_algorithms(&b, $crate::__Format::$fmt)
                        .expect("algorithms");
                }
            }
        }
    };
}
