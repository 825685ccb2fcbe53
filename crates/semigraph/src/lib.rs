//! semigraph: graph algorithms as linear algebra over semirings, on NVIDIA GPUs and on the
//! CPU, behind one `use`.
//!
//! The pieces are their own crates, re-exported here:
//! - [`semiring`]: the semirings (min-plus, max-plus, max-min, or-and, plus-times, the parent
//!   semirings, and user-defined ones through `semiring!`), each with its CPU operations and
//!   the CUDA source of the same operations;
//! - [`formats`]: sparse storage (CSR, COO, ELL, DIA, HYB, dense), graph file readers and
//!   writers, generators;
//! - [`algos`]: the `Backend` interface, the CPU backend, and the algorithms (BFS,
//!   Bellman-Ford, delta-stepping, APSP, transitive closure, reachability, widest paths);
//! - `gpu` (feature `gpu`, on by default): the GPU backend, whose kernels are generated per
//!   semiring and compiled at run time.
//!
//! [`prelude`] holds what a program usually needs:
//!
//! ```
//! use semigraph::prelude::*;
//!
//! // A graph from arcs (tail, head, weight), 0-based.
//! let a = arcs_to_csr::<MinPlus<i32>>(4, &[(0, 1, 5), (1, 2, 1), (0, 2, 9), (2, 3, 2)])?;
//! let cpu = CpuBackend::new();
//! let g = Graph::new(&cpu, &a, GraphOptions::default())?;
//! let sp = bellman_ford(&g, 0)?;
//! assert_eq!(sp.distance(3), Some(8));
//! assert_eq!(sp.path_to(3), Some(vec![0, 1, 2, 3]));
//!
//! // All pairs, on the same graph (every algorithm takes a `Graph`).
//! let all = apsp(&g, &ApspOptions::default())?;
//! assert_eq!(all.distance(1, 3), Some(3));
//!
//! // The same graph as a pattern, breadth first, and its weights as widths: views share the
//! // backend's matrices (nothing is converted or uploaded again).
//! let r = bfs(&g.pattern::<BfsSemiring>()?, 0, &BfsOptions::default())?;
//! assert_eq!(r.level(3), Some(2));
//! assert_eq!(widest_path(&g.view::<MaxMin<i32>>()?, 0)?[3], 2);
//! # Ok::<(), semigraph::algos::Error>(())
//! ```
//!
//! Features: `gpu` (default) as above; `sprs` and `ndarray` for conversions to and from those
//! crates (`formats::interop`); `serde` for the algorithms' result types (docs/ARCHITECTURE.md,
//! "Optional features").
//!
//! The same algorithms run on the GPU with `GpuBackend::new()?` in place of
//! `CpuBackend::new()` (see `examples/shortest_paths.rs`).

pub use semigraph_algos as algos;
pub use semigraph_formats as formats;
#[cfg(feature = "gpu")]
pub use semigraph_gpu as gpu;
pub use semigraph_semiring as semiring;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct Readme;

/// The names most programs use: semirings, matrices and graph files, backends, algorithms.
pub mod prelude {
    pub use semigraph_algos::{
        Apsp, ApspMethod, ApspOptions, Bfs, BfsOptions, BfsSemiring, DeltaGraph, Direction,
        Distance, PageRankOptions, ResidentBfs, ShortestPaths, SsspMethod, apsp, bellman_ford, bfs,
        bfs_multi, bfs_resident, cdlp, delta_stepping, lcc, negative_cycle, pagerank, reachability,
        sssp_choice, sssp_choice_of, transitive_closure, triangle_count, triangles_per_vertex, wcc,
        widest_path,
    };
    // The registry: every algorithm by name, as the command line and Python run them.
    pub use semigraph_algos::{algorithms, registry};
    // The backend's role traits (their methods need them in scope) and the types they speak.
    pub use semigraph_algos::prelude::*;
    pub use semigraph_formats::io::{ReadOptions, read_graph};
    pub use semigraph_formats::{
        ConvertOptions, Csr, EdgeList, Format, SparseMatrix, Stats, Storage,
    };
    #[cfg(feature = "gpu")]
    pub use semigraph_gpu::GpuBackend;
    pub use semigraph_semiring::{
        MaxMin, MaxPlus, MinMax, MinPlus, OrAnd, PlusTimes, Scalar, Semiring, bf16, check_semiring,
        check_semiring_with, f16, semiring,
    };
}
