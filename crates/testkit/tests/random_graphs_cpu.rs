//! The random graphs of `semigraph_testkit::compare` on the CPU backend: every result checked
//! against the oracles (the GPU runs the same graphs against the CPU in
//! `crates/gpu/tests/gpu_vs_cpu.rs`).

#[test]
fn random_graphs_on_the_cpu_match_the_oracles() {
    let cpu = semigraph_algos::CpuBackend::new();
    let n: u64 = std::env::var("SEMIGRAPH_RANDOM_GRAPHS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let mut negative_graphs = 0;
    for k in 0..n {
        let (tg, negative) = semigraph_testkit::compare::random_graph(k);
        negative_graphs += negative as u32;
        semigraph_testkit::compare::compare_graph(&cpu, &tg, negative, k);
    }
    assert!(negative_graphs > 0, "no graph with negative weights drawn");
}
