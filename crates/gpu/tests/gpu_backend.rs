//! The shared backend suite (every format x operation x built-in semiring, and the
//! algorithms against the CPU oracles) on the GPU backend. Without a GPU every test prints
//! `SKIPPED`; under `SEMIGRAPH_REQUIRE_GPU=1` it fails instead.

semigraph_algos::backend_test_suite!(semigraph_gpu::GpuBackend::new());
