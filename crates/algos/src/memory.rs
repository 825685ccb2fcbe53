//! What a run holds on the host, known before it starts, so that a graph too large for the
//! machine is refused with the bytes needed and available rather than failing half-way.
//!
//! Each figure is an upper bound of the peak above what the caller already holds, checked by
//! a test that measures the peak with a counting allocator (`tests/memory_plan.rs`). Stages
//! that can need more than these bounds say so at the time, before allocating: a padded pull
//! format (ELL, DIA, HYB, dense) checks its storage when it is converted.

use crate::backend::BackendKind;

/// Allowance for the small allocations beside the arrays counted.
const SLACK: u64 = 1 << 16;

/// Bytes of a CSR matrix of `n` rows and `nnz` entries with `u32` indices.
fn csr(n: usize, nnz: usize, value_bytes: usize) -> u64 {
    (n as u64 + 1)
        .saturating_mul(4)
        .saturating_add((nnz as u64).saturating_mul(4 + value_bytes as u64))
}

/// Host bytes [`Graph::new`](crate::Graph::new) holds at its peak for an `n`-vertex graph of
/// `nnz` arcs with `value_bytes`-byte values on a backend of `kind` (its input CSR already
/// held), with a CSR pull matrix when `pull`, on the current thread pool: on the CPU backend the push and pull copies, the
/// transpose and the structure statistics that choose the pull format; on a GPU the
/// statistics (a CSR pull matrix is transposed on the device) or, for a pull matrix in
/// another format, the transpose and its host copy on the way up. A pull matrix in a padded
/// format checks its own storage when converted.
pub fn graph_host_bytes(
    kind: BackendKind,
    n: usize,
    nnz: usize,
    value_bytes: usize,
    pull: bool,
) -> u64 {
    let one = csr(n, nnz, value_bytes);
    let push = match kind {
        BackendKind::Cpu => one,
        BackendKind::Gpu => 0,
    };
    if !pull {
        return push.saturating_add(SLACK);
    }
    // The statistics of A^T (a few words per row), then the transpose at its peak on this
    // thread pool (its result is the CSR pull matrix; another pull format converts it and
    // checks its own storage).
    let stats = semigraph_formats::Stats::host_bytes(n, n);
    let transpose = semigraph_formats::transpose_bytes::<u32>(n, nnz, value_bytes);
    push.saturating_add(stats.max(transpose))
        .saturating_add(SLACK)
}

/// Host bytes a traversal ([`bfs`](fn@crate::bfs), [`bellman_ford`](crate::bellman_ford),
/// [`delta_stepping`](crate::delta_stepping), reachability, widest paths) holds at its peak
/// on `n` vertices with `value_bytes`-byte values on a backend of `kind`, its result
/// included: on the CPU backend the distances or levels, the predecessors, two frontier
/// queues and their scratch; on a GPU the results as read back.
pub fn traversal_host_bytes(kind: BackendKind, n: usize, value_bytes: usize) -> u64 {
    let per_vertex = match kind {
        BackendKind::Cpu => 6 * value_bytes as u64 + 64,
        BackendKind::Gpu => 2 * value_bytes as u64 + 16,
    };
    (n as u64)
        .saturating_mul(per_vertex)
        .saturating_add(1 << 20)
}

/// The Graphalytics kernels, for [`kernel_host_bytes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// [`pagerank`](crate::pagerank).
    PageRank,
    /// [`wcc`](crate::wcc).
    Wcc,
    /// [`cdlp`](crate::cdlp).
    Cdlp,
    /// [`lcc`](crate::lcc).
    Lcc,
    /// [`triangle_count`](crate::triangle_count) and
    /// [`triangles_per_vertex`](crate::triangles_per_vertex).
    Triangles,
}

/// Host bytes a Graphalytics kernel holds at its peak on a graph already built (`n`
/// vertices, `nnz` arcs), on a backend of `kind` with `threads` workers, its result
/// included: on the CPU backend its vectors, the undirected pattern (`A + A^T`, up to twice
/// the arcs), the masked products' matrices (triangles and LCC) and the dense rows of marks
/// or counts each worker keeps (products, label counts); on a GPU the result read back.
///
/// ```
/// use semigraph_algos::{BackendKind, memory::{kernel_host_bytes, Kernel}};
/// let lcc = kernel_host_bytes(BackendKind::Cpu, Kernel::Lcc, 1_000_000, 10_000_000, 16);
/// let gpu = kernel_host_bytes(BackendKind::Gpu, Kernel::Lcc, 1_000_000, 10_000_000, 16);
/// assert!(gpu < lcc);
/// ```
pub fn kernel_host_bytes(
    kind: BackendKind,
    kernel: Kernel,
    n: usize,
    nnz: usize,
    threads: usize,
) -> u64 {
    let n64 = n as u64;
    let result = n64.saturating_mul(8);
    if kind == BackendKind::Gpu {
        return result.saturating_add(SLACK);
    }
    // The undirected pattern with `vb`-byte values.
    let sym = |vb: usize| csr(n, nnz.saturating_mul(2), vb);
    // A dense row of `u32` marks (or an accumulator) a worker.
    let marks = n64.saturating_mul(4).saturating_mul(threads.max(1) as u64);
    let work = match kernel {
        Kernel::PageRank => n64.saturating_mul(6 * 8),
        Kernel::Wcc => n64.saturating_mul(8 * 4),
        Kernel::Cdlp => n64
            .saturating_mul(10 * 4)
            .saturating_add(sym(4))
            .saturating_add((nnz as u64).saturating_mul(8 * 8))
            .saturating_add(marks.saturating_mul(3)),
        Kernel::Lcc => sym(8)
            .saturating_mul(5)
            .saturating_add(marks)
            .saturating_add(n64.saturating_mul(8 * 8)),
        Kernel::Triangles => sym(8)
            .saturating_mul(4)
            .saturating_add(marks)
            .saturating_add(n64.saturating_mul(4 * 8)),
    };
    result.saturating_add(work).saturating_add(SLACK)
}
