//! The shared backend suite (every format x operation x built-in semiring, and the
//! algorithms against the CPU oracles) on the GPU backend. Where no GPU can be opened every
//! test is reported as ignored, with the reason; under `SEMIGRAPH_REQUIRE_GPU=1` they run
//! and fail instead.

use std::process::ExitCode;

use semigraph_gpu::GpuBackend;
use semigraph_testkit::harness::{Harness, Needs};

fn main() -> ExitCode {
    let needs = Needs::gpu(GpuBackend::new().err().map(|e| e.to_string()));
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register(&mut h, Some(&needs), GpuBackend::new);
    h.run()
}
