//! The shared backend suite on the CPU backend: every format x semiring x operation
//! (a cover of the built-in semirings, all with `--features semigraph-testkit/every-semiring`),
//! and every algorithm against the oracles (see `semigraph_testkit::backend_suite`); then the
//! tests that relax again with every relaxation step on the parallel path, with every
//! traversal step in each form, and with a team of threads for every traversal's levels.

use std::process::ExitCode;

use semigraph_algos::CpuBackend;
use semigraph_algos::cpu::TraversalStep;
use semigraph_formats::Format;
use semigraph_testkit::backend_suite::{check_algorithms, check_queue_buckets, check_queue_levels};
use semigraph_testkit::harness::{Failed, Harness};

fn main() -> ExitCode {
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register(&mut h, None, || Ok::<_, String>(CpuBackend::new()));
    // Again with every relaxation step on the parallel (sorting) path, which the small test
    // frontiers never take by default: the tests that relax, under `par::`.
    semigraph_testkit::backend_suite::register_relaxation(&mut h, "par::", None, || {
        Ok::<_, String>(CpuBackend::with_parallel_threshold(0))
    });
    // Again with every traversal step in each form (the default times both on its first
    // steps), under `branching::` and `branchless::`.
    semigraph_testkit::backend_suite::register_relaxation(&mut h, "branching::", None, || {
        Ok::<_, String>(CpuBackend::new().with_traversal_step(TraversalStep::Branching))
    });
    semigraph_testkit::backend_suite::register_relaxation(&mut h, "branchless::", None, || {
        Ok::<_, String>(CpuBackend::new().with_traversal_step(TraversalStep::Branchless))
    });
    // Again with a team of two threads for every traversal's levels and every relaxation by
    // buckets in one call (by default graphs under 32,768 vertices take one thread): the
    // levels, the buckets and the algorithms.
    let team = || CpuBackend::new().with_levels_threads(2);
    h.test("team::queues::levels", move || {
        check_queue_levels(&team()).map_err(Failed::from)
    });
    h.test("team::queues::buckets", move || {
        check_queue_buckets(&team()).map_err(Failed::from)
    });
    h.test("team::csr::algorithms", move || {
        check_algorithms(&team(), Format::Csr).map_err(|e| Failed::from(e.to_string()))
    });
    h.run()
}
