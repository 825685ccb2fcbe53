//! The GPU backend against the CPU backend on thousands of random graphs (sizes, densities,
//! weight ranges, negative weights and cycles, structured shapes): BFS levels and parents,
//! Bellman-Ford distances and predecessors in i32, i64 and f64, delta-stepping distances,
//! negative cycles and APSP, all exactly equal (see `semigraph_testkit::compare`).
//!
//! `SEMIGRAPH_RANDOM_GRAPHS` sets the number of graphs (default 2000), in 20 tests.

use std::process::ExitCode;

use semigraph_gpu::GpuBackend;
use semigraph_testkit::compare::{compare_graph, random_graph};
use semigraph_testkit::harness::{Harness, Needs};

fn main() -> ExitCode {
    let needs = Needs::gpu(GpuBackend::new().err().map(|e| e.to_string()));
    let total: u64 = std::env::var("SEMIGRAPH_RANDOM_GRAPHS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let chunks = 20u64;
    let per = total.div_ceil(chunks);
    let mut h = Harness::new();
    for c in 0..chunks {
        let range = c * per..((c + 1) * per).min(total);
        h.test_needing(&needs, format!("random_graphs_{c:02}"), move || {
            let b = GpuBackend::new().map_err(|e| e.to_string())?;
            for k in range {
                let (tg, negative) = random_graph(k);
                compare_graph(&b, &tg, negative, k);
            }
            Ok(())
        });
    }
    h.run()
}
