//! The shared backend suite on the GPU backend, its first part: every format x built-in
//! semiring x matrix operation against the CPU (see
//! `semigraph_testkit::backend_suite::register_matrix_ops`; the rest is `gpu_backend`, a
//! second test binary so that the two compile side by side). Where no GPU can be opened every
//! test is reported as ignored, with the reason; under `SEMIGRAPH_REQUIRE_GPU=1` they run and
//! fail instead.

use std::process::ExitCode;

use semigraph_gpu::GpuBackend;
use semigraph_testkit::harness::{Harness, Needs};

fn main() -> ExitCode {
    let needs = Needs::gpu(GpuBackend::new().err().map(|e| e.to_string()));
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register_matrix_ops(
        &mut h,
        "",
        Some(&needs),
        GpuBackend::new,
    );
    h.run()
}
