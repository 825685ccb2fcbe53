//! Reads a graph file, runs BFS and Bellman-Ford on the CPU and, where a GPU can be opened,
//! on the GPU, and checks that both agree.
//!
//! `cargo run --release -p semigraph --example shortest_paths [FILE] [SOURCE]` (default: the
//! repository's rome99 road graph, or `$SEMIGRAPH_DATA/dimacs9-rome99/rome99.gr.xz` where that
//! is set; source 1 in the file's numbering). Options (`--...`, such as a test runner's) are
//! ignored.

use std::path::PathBuf;

use semigraph::prelude::*;

/// The repository's rome99 graph: under `$SEMIGRAPH_DATA` when set (compressed or not), else
/// beside the sources.
fn rome99() -> PathBuf {
    let data = std::env::var_os("SEMIGRAPH_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data"),
        PathBuf::from,
    );
    let xz = data.join("dimacs9-rome99/rome99.gr.xz");
    if xz.exists() {
        xz
    } else {
        data.join("dimacs9-rome99/rome99.gr")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let file = args.next().map_or_else(rome99, PathBuf::from);
    let source: i64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let g = read_graph(&file, &ReadOptions::default())?;
    let s = g
        .vertex_of_label(source)
        .ok_or_else(|| format!("{source} is not a vertex of {}", file.display()))?;
    let a: Csr<MinPlus<i64>> = g.to_csr()?;
    println!(
        "{}: {} vertices, {} arcs",
        file.display(),
        a.nrows(),
        a.nnz()
    );

    let cpu = CpuBackend::new();
    let graph = Graph::new(&cpu, &a, GraphOptions::default())?;
    let sp = bellman_ford(&graph, s)?;
    let far = (0..a.nrows())
        .filter_map(|v| sp.distance(v).map(|d| (d, v)))
        .max()
        .ok_or("no vertex reached")?;
    println!(
        "CPU: {} of {} vertices reached; the farthest is {} at distance {}, {} arcs away",
        sp.reached(),
        a.nrows(),
        g.vertex_label(far.1),
        far.0,
        sp.path_to(far.1).map_or(0, |p| p.len() - 1)
    );
    // The same graph's arcs, breadth first: a pattern shares the backend's matrix.
    let levels = bfs(&graph.pattern::<BfsSemiring>()?, s, &BfsOptions::default())?;
    println!("CPU: BFS depth {}", levels.depth);

    match GpuBackend::new() {
        Ok(gpu) => {
            let sg = bellman_ford(&Graph::new(&gpu, &a, GraphOptions::default())?, s)?;
            assert_eq!(sg.dist, sp.dist, "GPU and CPU distances differ");
            println!("GPU ({}): the same distances", gpu.device_name());
        }
        Err(e) => println!("GPU: not run ({e})"),
    }
    Ok(())
}
