//! Graph algorithms as semiring linear algebra, over one backend interface.
//!
//! - [`Backend`]: what an algorithm may ask of a CPU or GPU (SpMV/SpMM with masks and
//!   accumulation, SpMSpV, semiring GEMM, element-wise ops, reductions, relaxation).
//! - [`CpuBackend`]: the multi-threaded reference backend.
//! - [`Graph`]: an adjacency matrix held by a backend, in push (CSR `A`) and pull (`A^T`, any
//!   format) form.
//! - Algorithms: [`bfs`](fn@bfs) and [`bfs_multi`], [`bellman_ford`], [`delta_stepping`], [`apsp`](fn@apsp),
//!   [`transitive_closure`], [`reachability`], [`widest_path`], and [`path_closure`] for any
//!   selecting semiring; the LDBC Graphalytics kernels [`pagerank`], [`wcc`] (`FastSV`),
//!   [`cdlp`], [`lcc`], and [`triangle_count`] / [`triangles_per_vertex`].
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

pub mod algorithms;
pub mod apsp;
pub mod backend;
pub mod bfs;
pub mod cancel;
pub mod centrality;
pub mod combinatorial;
pub mod communities;
pub mod components;
pub mod cores;
pub mod dist;
pub mod dist_type;
pub mod error;
pub mod exact;
pub mod graph;
pub mod links;
pub mod memory;
pub mod paths;
mod peel;
pub mod rank;
pub mod registry;
pub mod relax;
pub mod scc;
pub mod similarity;
mod squaring;
pub mod sssp;
#[cfg(feature = "testing")]
pub mod testing;
pub mod toposort;
mod traverse;
pub mod triangles;
pub mod truss;

/// The traits and types for calling a backend's methods: `use semigraph_algos::prelude::*;`.
///
/// A method of a role trait ([`Objects`], [`Products`], [`ElementWise`], [`Reductions`],
/// [`Operators`], [`Frontier`]) is callable on a concrete backend (`CpuBackend`, `GpuBackend`) only with its
/// trait in scope; generic code bound by `B: Backend` needs nothing more.
///
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_semiring::MinPlus;
///
/// let b = CpuBackend::new();
/// let x = b.dense::<MinPlus<i32>>(3, 1, &[4, 2, 7])?;
/// assert_eq!(b.reduce(&x, Mask::All)?, 2);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub mod prelude {
    pub use crate::backend::{
        Accum, Backend, BackendKind, Bound, Combine, Counters, Defer, ElementWise, Ewise, Frontier,
        Mask, MatrixInfo, MatrixMask, NO_PARENT, Objects, Operators, Parents, Products, QueueInfo,
        Reductions, RelaxStep, StepOutputs, UNREACHED, UnaryOp,
    };
    pub use crate::{CpuBackend, Graph, GraphOptions, arcs_to_csr};
}

pub use apsp::{
    Apsp, ApspMethod, ApspOptions, apsp, apsp_choice, apsp_costs, apsp_host_bytes,
    apsp_squaring_discount, transitive_closure,
};
pub use backend::cpu::{self, CpuBackend};
pub use backend::{
    Accum, Backend, BackendKind, Bound, Buckets, Combine, Counters, Defer, ElementWise, Ewise,
    Frontier, LevelsFound, Mask, MatrixInfo, MatrixMask, Objects, Operators, Parents, Products,
    QueueInfo, Reductions, RelaxStep, StepOutputs, UnaryOp, cloned,
};
pub use bfs::{
    Bfs, BfsOptions, BfsSemiring, Direction, NO_PARENT, ResidentBfs, UNREACHED, bfs, bfs_multi,
    bfs_resident,
};
pub use communities::{cdlp, cdlp_from};
pub use components::{Components, LabelSemiring, ResidentComponents, wcc, wcc_resident};
pub use dist_type::{DistanceType, DistanceTypeError, distance_type};
pub use error::{Error, Result, check_vertex};
pub use graph::{Graph, GraphOptions, Transposed, arcs_to_csr};
pub use memory::{graph_host_bytes, traversal_host_bytes};
pub use paths::{path_closure, reachability, widest_path};
pub use peel::PlusPair;
pub use rank::{
    PageRank, PageRankOptions, PageRankSemiring, ResidentPageRank, pagerank, pagerank_resident,
};
pub use relax::negative_cycle;
pub use sssp::{
    DeltaGraph, Distance, FIXPOINT_DELTA_FACTOR, ShortestPaths, SsspMethod, Width, auto_delta,
    bellman_ford, delta_stepping, fixpoint_paths, sssp_choice, sssp_choice_of,
};
pub use triangles::{VertexOrder, lcc, triangle_count, triangle_count_in, triangles_per_vertex};
