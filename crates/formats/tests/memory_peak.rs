#![allow(missing_docs)]
//! The memory a conversion announces is the memory it uses: a counting allocator measures the
//! peak of `EdgeList::to_csr`, `to_pattern_csr` and `Csr::try_transpose` above what was held
//! before the call, and each must stay within the estimate the call checks against the
//! machine (`EdgeList::csr_bytes`, `transpose_bytes`) before it allocates.

use std::sync::Mutex;

use peak_alloc::PeakAlloc;
use semigraph_formats::{EdgeList, Weights, generate, transpose_bytes};
use semigraph_semiring::{MinPlus, OrAnd, PlusTimes};

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// One measurement at a time (tests run on several threads).
static ONE: Mutex<()> = Mutex::new(());

/// Bytes allocated at the peak of `f` above what was allocated before it, and its result.
fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    let r = f();
    (ALLOC.peak_usage() - before, r)
}

/// Graphs of the shapes that stress a conversion's memory differently: many vertices and few
/// arcs, one row holding every arc (with repeats), a grid, a skewed Kronecker graph,
/// rectangular.
fn shapes() -> Vec<(&'static str, EdgeList)> {
    let mut sparse = EdgeList::new(1_000_000, 1_000_000);
    sparse.src = vec![5, 999_999];
    sparse.dst = vec![999_999, 5];
    sparse.weights = Weights::Int(vec![3, 4]);
    let mut star = EdgeList::new(1000, 1000);
    star.src = vec![0; 200_000];
    star.dst = (0..200_000u32).map(|k| (k * 7919) % 1000).collect();
    star.weights = Weights::Int((0..200_000).collect());
    let mut rect = EdgeList::new(10, 100_000);
    rect.src = (0..50_000u32).map(|k| k % 10).collect();
    rect.dst = (0..50_000u32).map(|k| (k * 31) % 100_000).collect();
    let mut kron = generate::kronecker(14, 16, 3);
    kron.weights = Weights::Real((0..kron.len()).map(|k| k as f64 * 0.5).collect());
    vec![
        ("sparse", sparse),
        ("star", star),
        ("rectangular", rect),
        ("grid", generate::grid(300, 300, 1, 9, 1)),
        ("kronecker", kron),
    ]
}

#[test]
fn conversions_stay_within_their_estimates() {
    let _one = ONE.lock().unwrap();
    // On one core and on every core of a pool of 4 (the builds differ: `csr_build_bytes`).
    for threads in [1, 4] {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
            .install(check_estimates);
    }
}

fn check_estimates() {
    for (name, g) in shapes() {
        let est = g.csr_bytes::<f64, u32>() as usize;
        let (peak, a) = peak_of(|| g.to_csr::<MinPlus<f64>, u32>().unwrap());
        assert!(
            peak <= est,
            "{name}: to_csr used {peak} bytes, estimated {est}"
        );
        // The estimate is the real figure, not a blanket over-estimate (arcs already in CSR
        // order are copied as they are, in less).
        let sorted = (1..g.len()).all(|k| (g.src[k - 1], g.dst[k - 1]) <= (g.src[k], g.dst[k]));
        assert!(
            sorted || est <= 2 * peak + 4096,
            "{name}: estimated {est}, used {peak}"
        );
        let est_t = transpose_bytes::<u32>(a.ncols(), a.nnz(), 8) as usize;
        let (peak_t, _t) = peak_of(|| a.try_transpose().unwrap());
        assert!(
            peak_t <= est_t,
            "{name}: transpose used {peak_t}, estimated {est_t}"
        );

        let est = g.csr_bytes::<bool, u32>() as usize;
        let (peak, p) = peak_of(|| g.to_pattern_csr::<OrAnd, u32>().unwrap());
        assert!(
            peak <= est,
            "{name}: to_pattern_csr used {peak}, estimated {est}"
        );
        drop(p);
        let est = g.csr_bytes::<i64, u64>() as usize;
        if let Ok((peak, _)) =
            std::panic::catch_unwind(|| peak_of(|| g.to_csr::<PlusTimes<i64>, u64>().unwrap()))
        {
            assert!(
                peak <= est,
                "{name}: u64 to_csr used {peak}, estimated {est}"
            );
        }
    }
}

#[test]
fn conversions_agree_with_the_reference() {
    // The counting-sort build equals COO -> CSR (sorted rows, repeats combined in order).
    let _one = ONE.lock().unwrap();
    for (name, g) in shapes() {
        if matches!(g.weights, Weights::Real(_)) {
            let a = g.to_csr::<PlusTimes<f64>, u32>().unwrap();
            let r = g.to_coo::<PlusTimes<f64>, u32>().unwrap().to_csr();
            assert_eq!(a, r, "{name}");
        } else {
            let a = g.to_csr::<PlusTimes<i64>, u32>().unwrap();
            let r = g.to_coo::<PlusTimes<i64>, u32>().unwrap().to_csr();
            assert_eq!(a, r, "{name}");
            assert_eq!(a.transpose().transpose(), a, "{name}");
        }
    }
}
