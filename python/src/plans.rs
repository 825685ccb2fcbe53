//! What a call will hold in host memory, checked against the machine before it starts (the
//! library's bounds, as the `semigraph` command checks them): a graph or a run too large is a
//! `MemoryError` naming the bytes, never an interpreter abort half-way.

use pyo3::exceptions::{PyIndexError, PyMemoryError};
use pyo3::prelude::*;
use semigraph_algos::memory::{Kernel, kernel_host_bytes};
use semigraph_algos::{
    ApspMethod, BackendKind, apsp_host_bytes, graph_host_bytes, traversal_host_bytes,
};

use crate::backends::Choice;

fn kind(choice: Choice) -> BackendKind {
    match choice {
        Choice::Cpu => BackendKind::Cpu,
        Choice::Gpu => BackendKind::Gpu,
    }
}

/// Refuses `what` on `n` vertices when `needed` bytes exceed what the machine has.
pub(crate) fn fits(what: &str, n: usize, needed: u64) -> PyResult<()> {
    semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
        PyMemoryError::new_err(format!(
            "{what} of {n} vertices needs {} of memory, {} are available; refused before \
             allocating",
            semigraph_formats::error::fmt_bytes(needed),
            semigraph_formats::error::fmt_bytes(available)
        ))
    })
}

/// The arrays of `n` rows and `nnz` entries copied out of NumPy.
fn arrays(n: usize, nnz: usize, value_bytes: usize) -> u64 {
    (n as u64 + 1)
        .saturating_mul(4)
        .saturating_add((nnz as u64).saturating_mul(4 + value_bytes as u64))
}

/// A `Graph` of `n` vertices and `nnz` entries (distances with a pull matrix; with its
/// structure and capacities `apart`, two more), the arrays' copy included.
pub(crate) fn graph(choice: Choice, n: usize, nnz: usize, apart: bool) -> u64 {
    let one = semigraph_formats::csr_build_bytes::<u32>(n, n, nnz, 8)
        .saturating_add(graph_host_bytes(kind(choice), n, nnz, 8, true));
    let all = if apart { one.saturating_mul(3) } else { one };
    all.saturating_add(arrays(n, nnz, 8))
}

/// A pattern of `n` vertices and `nnz` entries without a pull matrix, and one BFS over it.
pub(crate) fn pattern_bfs(choice: Choice, n: usize, nnz: usize) -> u64 {
    arrays(n, nnz, 0)
        .saturating_add(semigraph_formats::csr_build_bytes::<u32>(n, n, nnz, 4))
        .saturating_add(graph_host_bytes(kind(choice), n, nnz, 4, false))
        .saturating_add(traversal_host_bytes(kind(choice), n, 4))
}

/// A traversal with `value_bytes`-byte values.
pub(crate) fn traversal(choice: Choice, n: usize, value_bytes: usize) -> u64 {
    traversal_host_bytes(kind(choice), n, value_bytes)
}

/// A Graphalytics kernel.
pub(crate) fn kernel(choice: Choice, k: Kernel, n: usize, nnz: usize) -> u64 {
    kernel_host_bytes(kind(choice), k, n, nnz, rayon::current_num_threads())
}

/// All-pairs shortest paths in `f64` (the larger of its two methods' peaks).
pub(crate) fn apsp(choice: Choice, n: usize, next_hop: bool) -> u64 {
    [ApspMethod::Squaring, ApspMethod::Sources]
        .into_iter()
        .map(|m| apsp_host_bytes(kind(choice), n, 8, next_hop, m))
        .max()
        .unwrap_or(0)
}

/// A vertex id from Python: `IndexError` unless it lies in `0..n` (a negative one included,
/// which as an unsigned argument was an `OverflowError`).
pub(crate) fn vertex(v: i64, n: usize) -> PyResult<usize> {
    match usize::try_from(v) {
        Ok(u) if u < n => Ok(u),
        _ => Err(PyIndexError::new_err(format!(
            "vertex {v} is out of range: the graph has {n} vertices (0..{n})"
        ))),
    }
}
