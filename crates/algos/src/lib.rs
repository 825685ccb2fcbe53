//! Graph algorithms as semiring linear algebra, over one backend interface.
//!
//! - [`Backend`]: what an algorithm may ask of a CPU or GPU (SpMV/SpMM with masks and
//!   accumulation, SpMSpV, semiring GEMM, element-wise ops, reductions, relaxation).
//! - [`CpuBackend`]: the multi-threaded reference backend.
//! - [`Graph`]: an adjacency matrix held by a backend, in push (CSR `A`) and pull (`A^T`, any
//!   format) form.
//! - Algorithms: [`bfs`](fn@bfs) and [`bfs_multi`], [`bellman_ford`], [`delta_stepping`], [`apsp`](fn@apsp),
//!   [`transitive_closure`], [`reachability`], [`widest_path`], and [`path_closure`] for any
//!   selecting semiring.
//!
//! ```
//! use semigraph_algos::{bfs, BfsOptions, CpuBackend, Graph, GraphOptions};
//! use semigraph_formats::generate;
//!
//! let grid = generate::grid(3, 4, 1, 9, 7).to_csr::<semigraph_algos::BfsSemiring, u32>()?;
//! let cpu = CpuBackend::new();
//! let g = Graph::new(&cpu, &grid, GraphOptions { pull: true, ..Default::default() })?;
//! let r = bfs(&g, 0, &BfsOptions::default())?;
//! assert_eq!(r.depth, 5); // corner to corner: 2 + 3 hops
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod apsp;
pub mod backend;
pub mod bfs;
pub mod cpu;
pub mod dist_type;
pub mod error;
pub mod graph;
pub mod memory;
pub mod paths;
pub mod relax;
mod squaring;
pub mod sssp;
#[cfg(feature = "testing")]
pub mod testing;

pub use apsp::{
    Apsp, ApspMethod, ApspOptions, apsp, apsp_choice, apsp_costs, apsp_host_bytes,
    apsp_squaring_discount, transitive_closure,
};
pub use backend::{
    Accum, Backend, BackendKind, Counters, Defer, Ewise, Frontier, Mask, MatrixInfo, Parents,
    QueueInfo, StepOutputs, UnaryOp,
};
pub use bfs::{
    Bfs, BfsOptions, BfsSemiring, Direction, NO_PARENT, ResidentBfs, UNREACHED, bfs, bfs_multi,
    bfs_resident,
};
pub use cpu::CpuBackend;
pub use dist_type::{DistanceType, DistanceTypeError, distance_type};
pub use error::{Error, Result, check_vertex};
pub use graph::{Graph, GraphOptions, arcs_to_csr};
pub use memory::{graph_host_bytes, traversal_host_bytes};
pub use paths::{path_closure, reachability, widest_path};
pub use relax::negative_cycle;
pub use sssp::{
    DeltaGraph, Distance, ShortestPaths, SsspMethod, auto_delta, bellman_ford, delta_stepping,
    sssp_choice,
};
