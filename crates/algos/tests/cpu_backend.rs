//! The shared backend suite on the CPU backend: every format x built-in semiring x operation,
//! and every algorithm against the oracles.

use semigraph_algos::CpuBackend;

semigraph_algos::backend_test_suite!(Ok::<_, String>(CpuBackend::new()));
