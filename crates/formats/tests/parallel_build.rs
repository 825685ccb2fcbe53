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
