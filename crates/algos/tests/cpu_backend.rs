//! The shared backend suite on the CPU backend: every format x built-in semiring x operation,
//! and every algorithm against the oracles (see `semigraph_testkit::backend_suite`).

use std::process::ExitCode;

use semigraph_algos::CpuBackend;
use semigraph_testkit::harness::Harness;

fn main() -> ExitCode {
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register(&mut h, None, || Ok::<_, String>(CpuBackend::new()));
    h.run()
}
