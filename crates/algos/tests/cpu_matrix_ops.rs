//! The shared backend suite on the CPU backend, its first part: every format x built-in
//! semiring x matrix operation (see `semigraph_testkit::backend_suite::register_matrix_ops`;
//! the rest is `cpu_backend`, a second test binary so that the two compile side by side).
//! Twice: once with relaxation steps in place (small frontiers) and once in parallel.

use std::process::ExitCode;

use semigraph_algos::CpuBackend;
use semigraph_testkit::harness::Harness;

fn main() -> ExitCode {
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register_matrix_ops(&mut h, "", None, || {
        Ok::<_, String>(CpuBackend::new())
    });
    // The relaxation steps of the matrix checks on the parallel (sorting) path too.
    semigraph_testkit::backend_suite::register_matrix_ops(&mut h, "par::", None, || {
        Ok::<_, String>(CpuBackend::with_parallel_threshold(0))
    });
    h.run()
}
