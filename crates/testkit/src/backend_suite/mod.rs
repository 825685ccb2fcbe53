//! The test suite every backend runs, written once: each operation of the
//! [`Backend`](semigraph_algos::Backend) interface on every format and every semiring of the
//! suite ([`for_each_suite_semiring!`](crate::for_each_suite_semiring): a cover of the
//! built-in semirings, or all of them with the feature `every-semiring`), checked against
//! references computed from the inputs, and every algorithm checked against the oracles of
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
use semigraph_algos::{Accum, Error, Ewise, Frontier, Mask, Result, UnaryOp};
use semigraph_formats::generate::Rng;
use semigraph_formats::{Csr, Format};
use semigraph_semiring::testing::{TestValue, test_value};
use semigraph_semiring::{OrAnd, Semiring};

use crate::harness::{Failed, Harness, Needs};

mod algorithms;
mod buckets;
mod builtins;
mod centrality;
mod combinatorial;
mod communities;
mod fixpoint;
mod graphalytics;
mod graphs;
mod levels;
mod operators;
mod products;
mod queues;
mod registry;
mod similarity;
mod sparse;
mod structure;
mod views;
mod zeros;
pub use algorithms::{check_algorithms, check_all_pairs, test_graphs};
pub use buckets::check_queue_buckets;
pub use builtins::check_builtin_operators;
pub use centrality::{
    check_betweenness, check_closeness, check_edge_betweenness, check_power,
    check_weighted_betweenness, check_weighted_closeness,
};
pub use combinatorial::check_combinatorial;
pub use communities::check_communities;
use fixpoint::{check_relax_fixpoint, check_relax_fixpoint_deferred};
pub use graphalytics::{check_graphalytics_ldbc, check_graphalytics_random, check_wcc_blocks};
pub use levels::{check_queue_levels, check_queue_levels_small};
pub use operators::{check_dense_operators, check_matrix_operators};
pub use products::check_matrix_ops;
use queues::{check_queue_ops, check_relax_step, check_witness};
pub use registry::check_registry;
pub use similarity::{check_link_scores, check_similarity};
pub use sparse::check_sparse_products;
pub use structure::{check_hits, check_paths, check_structure, check_truss};
pub use views::check_views;
pub use zeros::check_zero_rules;

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

/// The backend operations without a sparse matrix: GEMM, element-wise, apply, reductions,
/// compaction, relaxation, union.
pub fn check_dense_ops<B: Frontier, S: Semiring>(b: &B)
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
    let mvals = random_values::<OrAnd>(m * n, 4);
    let md = b.dense::<OrAnd>(m, n, &mvals).unwrap();
    for (accum, mk) in [
        (Accum::Replace, 0),
        (Accum::Add, 0),
        (Accum::Replace, 1),
        (Accum::Add, 1),
        (Accum::Add, 2),
    ] {
        let mut c = b.dense::<S>(m, n, &c0).unwrap();
        let mask: Mask<'_, B> = match mk {
            0 => Mask::All,
            1 => b.keep(&md),
            _ => b.skip(&md),
        };
        let allowed: Vec<bool> = (0..m * n)
            .map(|i| match mk {
                0 => true,
                1 => mvals[i],
                _ => !mvals[i],
            })
            .collect();
        b.gemm(&mut c, mask, accum, &a, &bb).expect("gemm");
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
            &format!("gemm {accum:?} mask#{mk}"),
            &b.read_dense(&c).unwrap(),
            &c0,
            &terms,
            accum,
            &allowed,
        );
    }

    // transpose, on shapes around the 32 x 32 tiles of the GPU kernel.
    for (r, c) in [(1, 1), (1, 70), (33, 1), (31, 65), (64, 32), (0, 5)] {
        let v = random_values::<S>(r * c, 7 + r as u64);
        let t = b
            .transpose(&b.dense::<S>(r, c, &v).unwrap())
            .expect("transpose");
        assert_eq!(
            b.dense_shape(&t),
            (c, r),
            "transpose shape {}",
            S::full_name()
        );
        let got = b.read_dense(&t).unwrap();
        for i in 0..r {
            for j in 0..c {
                assert!(
                    same::<S>(got[j * r + i], v[i * c + j]),
                    "transpose {r}x{c} at ({i}, {j}) {}",
                    S::full_name()
                );
            }
        }
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
    check_dense_operators::<B, S>(b);
}
/// One test body of the suite, run on a freshly made backend.
type Body<B> = Box<dyn FnOnce(&B) -> std::result::Result<(), Failed> + Send>;

/// A check that reports its failure as a message.
type Check<B> = fn(&B) -> std::result::Result<(), String>;

/// Turns a panic-free `Result` of the checks into a test outcome.
fn outcome(r: Result<()>) -> std::result::Result<(), Failed> {
    r.map_err(|e| Failed::from(e.to_string()))
}

/// Adds the whole backend suite to `h`: for each format, one test per semiring of the suite
/// running [`check_matrix_ops`] (`FORMAT::SEMIRING`) and one running [`check_algorithms`]
/// (`FORMAT::algorithms`); one test per semiring running [`check_dense_ops`]
/// (`dense_ops::SEMIRING`); [`check_all_pairs`] (`all_pairs`), the queue, graph, Graphalytics
/// and operator checks once each.
///
/// `make` builds the backend inside each test (tests run on several threads). `needs` is what
/// the backend needs beyond the CPU (`None` for the CPU backend): where it is missing the
/// tests are reported as ignored (see [`Harness::test_needing`]).
pub fn register<B, E>(
    h: &mut Harness,
    needs: Option<&Needs>,
    make: fn() -> std::result::Result<B, E>,
) where
    B: Frontier + 'static,
    E: std::fmt::Display + 'static,
{
    register_in(h, "", needs, make, &Format::ALL, true)
}

/// The tests of the suite whose work a backend's relaxation settings change, with every test
/// name prefixed by `prefix` (a second configuration of the same backend, such as a CPU
/// backend that takes the parallel relaxation path at once): for CSR, one test per built-in
/// semiring running [`check_matrix_ops`] (relaxation and queue steps included) and one
/// running [`check_algorithms`]; the Graphalytics checks. Relaxation reads `A` in CSR
/// whatever the pull format, so the other formats would repeat the same steps.
pub fn register_relaxation<B, E>(
    h: &mut Harness,
    prefix: &'static str,
    needs: Option<&Needs>,
    make: fn() -> std::result::Result<B, E>,
) where
    B: Frontier + 'static,
    E: std::fmt::Display + 'static,
{
    register_in(h, prefix, needs, make, &[Format::Csr], false)
}

/// The suite's tests for `formats`, names prefixed by `prefix`; `whole` adds the tests that
/// no relaxation setting changes (views, dense operations, built-in operators, the
/// centralities and similarities).
fn register_in<B, E>(
    h: &mut Harness,
    prefix: &'static str,
    needs: Option<&Needs>,
    make: fn() -> std::result::Result<B, E>,
    formats: &[Format],
    whole: bool,
) where
    B: Frontier + 'static,
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
    // Every format the library has (`Format::ALL` for the whole suite): a new one is checked
    // with no change here.
    for &format in formats {
        let fname = format.name();
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
        crate::for_each_suite_semiring!(one);
        if whole {
            add(
                h,
                format!("{prefix}{fname}::views"),
                Box::new(move |b: &B| {
                    check_views(b, format);
                    Ok(())
                }),
            );
        }
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
    if whole {
        crate::for_each_suite_semiring!(dense);
    }
    let others: [(&str, Check<B>); 25] = [
        ("products::zeros", check_zero_rules::<B>),
        ("graphs::from_arcs", graphs::check_graph_from_arcs::<B>),
        ("all_pairs", |b| {
            check_all_pairs(b).map_err(|e| e.to_string())
        }),
        ("queues::levels", check_queue_levels::<B>),
        ("queues::levels_small", check_queue_levels_small::<B>),
        ("queues::buckets", check_queue_buckets::<B>),
        ("graphalytics::ldbc", check_graphalytics_ldbc::<B>),
        ("graphalytics::random", check_graphalytics_random::<B>),
        ("graphalytics::wcc_blocks", check_wcc_blocks::<B>),
        ("registry::every_algorithm", check_registry::<B>),
        ("centrality::betweenness", check_betweenness::<B>),
        ("centrality::edge_betweenness", check_edge_betweenness::<B>),
        (
            "centrality::weighted_betweenness",
            check_weighted_betweenness::<B>,
        ),
        (
            "centrality::weighted_closeness",
            check_weighted_closeness::<B>,
        ),
        ("centrality::closeness", check_closeness::<B>),
        ("centrality::power", check_power::<B>),
        ("centrality::hits", check_hits::<B>),
        ("structure::cores_components_order", check_structure::<B>),
        ("structure::truss", check_truss::<B>),
        ("structure::paths", check_paths::<B>),
        ("similarity::measures", check_similarity::<B>),
        ("links::scores", check_link_scores::<B>),
        (
            "combinatorial::sets_colors_matchings",
            check_combinatorial::<B>,
        ),
        ("communities::louvain_modularity", check_communities::<B>),
        ("operators::builtins", |b| {
            check_builtin_operators(b);
            Ok(())
        }),
    ];
    // What no relaxation setting changes: the built-in operators, graphs from arcs, all
    // pairs, and the algorithms of dense sweeps and masked products (the centralities, the
    // similarities), which take no relaxation or traversal step but the weighted
    // betweenness's distances (the queue's buckets and steps, which the variants check
    // through SSSP).
    let settled = [
        "operators",
        "graphs",
        "all_pairs",
        "centrality",
        "similarity",
        "links",
        "combinatorial",
        "communities",
    ];
    for (name, f) in others {
        if !whole && settled.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let body = move |b: &B| f(b).map_err(Failed::from);
        add(h, format!("{prefix}{name}"), Box::new(body));
    }
}
