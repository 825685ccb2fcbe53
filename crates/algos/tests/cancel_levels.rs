//! A stop requested ([`cancel`]) ends a traversal's levels in one call
//! ([`Frontier::queue_levels`]) with `Interrupted` and `levels` as it was, on one thread and on
//! a team of threads; cleared, the same call runs to its end. Alone in its process: the
//! request is the process's.

use semigraph_algos::prelude::*;
use semigraph_algos::{BfsSemiring, Error, cancel};
use semigraph_formats::{ConvertOptions, Format};

#[test]
fn a_stop_ends_the_levels_on_one_thread_and_on_a_team() {
    // A path of 5,000 vertices: 4,999 levels.
    let n = 5_000u32;
    let arcs: Vec<(u32, u32, u32)> = (0..n - 1).map(|i| (i, i + 1, 0)).collect();
    let a = arcs_to_csr::<BfsSemiring>(n as usize, &arcs).unwrap();
    for threads in [1, 2] {
        let b = CpuBackend::new().with_levels_threads(threads);
        let m = b
            .matrix(&a, Format::Csr, &ConvertOptions::default())
            .unwrap();
        let run = || {
            let mut q = b.queue::<Parents>(n as usize).unwrap();
            b.queue_set(&mut q, &[0], &[0], 0).unwrap();
            let mut levels = b.dense_filled::<Parents>(n as usize, 1, u32::MAX).unwrap();
            let mut parents = b.dense_filled::<Parents>(n as usize, 1, 7).unwrap();
            let found = b.queue_levels(&m, &mut q, &mut levels, Some(&mut parents));
            (
                found,
                b.read_dense(&levels).unwrap(),
                b.read_dense(&parents).unwrap(),
            )
        };
        cancel::request();
        let (stopped, levels, parents) = run();
        cancel::clear();
        assert!(
            matches!(stopped, Err(Error::Interrupted)),
            "{threads} threads: {stopped:?}"
        );
        assert!(
            levels.iter().all(|&l| l == u32::MAX),
            "{threads} threads: levels written"
        );
        assert!(
            parents.iter().all(|&p| p == 7),
            "{threads} threads: parents written"
        );
        let (found, levels, parents) = run();
        let found = found.unwrap().unwrap();
        assert_eq!(
            (found.reached, found.depth),
            (n as usize, n - 1),
            "{threads} threads"
        );
        assert_eq!(levels[n as usize - 1], n - 1);
        assert_eq!(parents[n as usize - 1], n - 2);
    }
}
