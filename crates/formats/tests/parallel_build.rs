#![allow(missing_docs)]
//! The builds on every core (CSR from arcs, transposes, statistics) give what one core gives,
//! whatever the thread count: run in pools of 1, 4 and 7 threads.

use semigraph_formats::generate::{self, Rng};
use semigraph_formats::{Csr, EdgeList, Stats, Weights};
use semigraph_semiring::{MinPlus, PlusTimes};

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
        .install(f)
}

/// A Kronecker graph (hubs, repeated arcs) with real weights, so that the order in which
/// repeated arcs are added shows in the bits of the sums.
fn graph() -> EdgeList {
    let mut g = generate::kronecker(12, 16, 7);
    let rng = Rng::new(3);
    g.weights = Weights::Real(
        (0..g.len())
            .map(|k| rng.unit(k as u64) * 3.0 + 0.1)
            .collect(),
    );
    g
}

#[test]
fn csr_transpose_and_stats_do_not_depend_on_the_thread_count() {
    let g = graph();
    let one = in_pool(1, || {
        let a = g.to_csr::<PlusTimes<f64>, u32>().unwrap();
        let t = a.try_transpose().unwrap();
        (a, t)
    });
    assert!(one.0.nnz() < g.len(), "the graph has repeated arcs");
    for threads in [4, 7] {
        let (a, t, stats) = in_pool(threads, || {
            let a = g.to_csr::<PlusTimes<f64>, u32>().unwrap();
            let t = a.try_transpose().unwrap();
            let s = Stats::of(&a);
            (a, t, s)
        });
        assert_eq!(a, one.0, "CSR on {threads} threads");
        assert_eq!(t, one.1, "transpose on {threads} threads");
        assert_eq!(
            format!("{stats:?}"),
            format!("{:?}", in_pool(1, || Stats::of(&one.0))),
            "statistics on {threads} threads"
        );
    }
    // The transpose is the arcs reversed.
    let rev = EdgeList {
        src: g.dst.clone(),
        dst: g.src.clone(),
        ..g.clone()
    };
    let want: Csr<PlusTimes<f64>> = in_pool(1, || rev.to_csr().unwrap());
    assert_eq!(one.1.row_ptr(), want.row_ptr());
    assert_eq!(one.1.col_idx(), want.col_idx());
    // A pattern too (values all one, repeats added).
    let p1 = in_pool(1, || g.to_pattern_csr::<MinPlus<f32>, u32>().unwrap());
    let p4 = in_pool(4, || g.to_pattern_csr::<MinPlus<f32>, u32>().unwrap());
    assert_eq!(p1, p4);
}

/// Arcs already in CSR order with repeats, over many chunks of 4,096 rows (what a binary CSR
/// file gives): the same matrix, bit for bit, as the same arcs in another order (repeats in
/// the same order among themselves), on 1, 4 and 7 threads; an arc out of range is named.
#[test]
fn sorted_arcs_with_repeats_build_the_same_matrix() {
    let mut g = generate::kronecker(14, 8, 9);
    let rng = Rng::new(5);
    g.weights = Weights::Real((0..g.len()).map(|k| rng.unit(k as u64) + 0.25).collect());
    // The list in CSR order, stably: repeats keep their order.
    let mut order: Vec<usize> = (0..g.len()).collect();
    order.sort_by_key(|&k| (g.src[k], g.dst[k]));
    let Weights::Real(w) = &g.weights else {
        unreachable!()
    };
    let sorted = EdgeList {
        src: order.iter().map(|&k| g.src[k]).collect(),
        dst: order.iter().map(|&k| g.dst[k]).collect(),
        weights: Weights::Real(order.iter().map(|&k| w[k]).collect()),
        ..g.clone()
    };
    let want = in_pool(1, || g.to_csr::<PlusTimes<f64>, u32>().unwrap());
    assert!(want.nnz() < g.len(), "the graph has repeated arcs");
    // Against sums made here, in list order.
    let mut sums = std::collections::BTreeMap::<(u32, u32), f64>::new();
    for ((&i, &j), &x) in g.src.iter().zip(&g.dst).zip(w) {
        *sums.entry((i, j)).or_insert(0.0) += x;
    }
    let got: Vec<((u32, u32), f64)> = want
        .iter()
        .map(|(i, j, v)| ((i as u32, j as u32), v))
        .collect();
    assert!(
        got.iter().eq(sums
            .iter()
            .map(|(&k, &v)| (k, v))
            .collect::<Vec<_>>()
            .iter()),
        "the sums of repeated arcs"
    );
    assert!(g.nrows > 3 * 4096, "several chunks of rows");
    for threads in [1, 4, 7] {
        let a = in_pool(threads, || sorted.to_csr::<PlusTimes<f64>, u32>().unwrap());
        assert_eq!(a, want, "sorted arcs on {threads} threads");
        let p = in_pool(threads, || {
            sorted.to_pattern_csr::<PlusTimes<f64>, u32>().unwrap()
        });
        let q = in_pool(1, || g.to_pattern_csr::<PlusTimes<f64>, u32>().unwrap());
        assert_eq!(p, q, "sorted pattern on {threads} threads");
    }
    let mut bad = sorted.clone();
    let k = bad.len() * 3 / 4;
    bad.dst[k] = bad.ncols as u32;
    bad.dst[k + 10] = bad.ncols as u32 + 5;
    let e = in_pool(4, || bad.to_pattern_csr::<MinPlus<f32>, u32>().unwrap_err());
    assert!(e.to_string().contains(&format!("arc {k} ")), "{e}");
}
