//! Graphs over several devices: a 1-D row partition of the matrix, vectors in blocks of each
//! rank's vertices (made whole on every rank where a product reads them), and collectives
//! between the ranks.
//!
//! - [`Partition`]: which vertices (rows) each rank owns, balanced by arcs.
//! - [`Communicator`]: the ranks' backends and the collectives (all-gather of the owned rows,
//!   all-gather of sparse blocks held in work queues, or of their vertices alone as a set,
//!   all-reduce by the semiring's `add`);
//!   [`LocalComm`] simulates `k` ranks in one process (any backend, even one shared by every
//!   rank), `semigraph-gpu`'s `NcclComm` is one GPU a rank through NCCL.
//! - [`DistGraph`]: the matrix split over the ranks, each rank holding its vertices' in-arcs
//!   (and, as asked, the same arcs for pushing and its vertices' out-arcs), made from a host
//!   CSR ([`DistGraph::new`]) or straight from an edge list ([`DistGraph::from_edges`]: no CSR
//!   of the whole graph, which may then pass 2^32 - 1 arcs), with helpers for
//!   blocks of vectors ([`DistGraph::local_unit`], [`DistGraph::whole`]), and its pull blocks
//!   over the vertices with out-arcs alone ([`Packed`]) for products that read every vertex.
//! - [`Grid`] and [`Summa`]: a square grid of ranks holding a dense matrix in blocks, and the
//!   semiring GEMM over it by SUMMA; [`apsp_grid`] squares `D` so, no rank holding it whole.
//! - Algorithms, each the one-device algebra with its products split over the ranks and an
//!   all-gather of its output blocks after each (of only the new vertices for the
//!   traversals): [`bfs`], [`bellman_ford`], [`pagerank`], [`wcc`] (and their `_resident`
//!   forms, results left on rank 0; [`bfs_blocks`], BFS's left in blocks on the ranks), and
//!   [`apsp`] (min-plus squaring with the rows of `D`
//!   split). Results equal the one-device results
//!   (levels, distances and components exactly; PageRank to rounding).
//!
//! ```
//! use semigraph_algos::dist::{self, DistGraph, DistOptions, LocalComm};
//! use semigraph_algos::{bfs, BfsOptions, BfsSemiring, CpuBackend, Graph, GraphOptions};
//! use semigraph_formats::generate;
//!
//! let a = generate::grid(20, 30, 1, 9, 7).to_csr::<BfsSemiring, u32>()?;
//! let cpu = CpuBackend::new();
//! let comm = LocalComm::new(vec![&cpu; 3]); // three ranks on one backend
//! let g = DistGraph::new(&comm, &a, DistOptions::default())?;
//! let one = bfs(&Graph::new(&cpu, &a, GraphOptions::default())?, 0, &BfsOptions::default())?;
//! assert_eq!(dist::bfs(&g, 0, &BfsOptions::default())?.levels, one.levels);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod apsp;
mod build;
mod comm;
mod graph;
mod graphalytics;
mod grid;
mod partition;
mod plan;
mod traverse;

pub use apsp::{apsp, apsp_grid};
pub use comm::{Communicator, DenseOf, Group, LocalComm, QueueOf, Reduce};
pub use graph::{DistGraph, DistOptions, MatrixOf, Packed};
pub use graphalytics::{pagerank, pagerank_resident, wcc, wcc_resident};
pub use grid::{Grid, Summa};
pub use partition::Partition;
pub use plan::{blocks_for, split_host_bytes};
pub use traverse::{DistBfs, bellman_ford, bfs, bfs_blocks, bfs_resident};
