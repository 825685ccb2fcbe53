//! The one error type of the algorithms and backends.
//!
//! Error policy (the same in every semigraph crate): a broken *contract* between pieces of code
//! (a vector of the wrong length handed to a backend, a handle used with a matrix of another
//! shape) panics, because it is a bug in the caller; everything that depends on the input or
//! the machine (a source out of range, a negative cycle, memory, a missing GPU, a kernel that
//! fails to compile) is returned as an [`Error`].

use rayon::prelude::*;
use semigraph_formats::{FormatError, memory};

/// What can go wrong in an algorithm or a backend.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A vertex id outside `0..n`.
    #[error("vertex {vertex} is out of range: the graph has {n} vertices (0..{n})")]
    VertexOutOfRange {
        /// The offending id (0-based).
        vertex: usize,
        /// Number of vertices.
        n: usize,
    },
    /// A negative cycle reachable from the source; `cycle` lists its vertices in edge order
    /// (`cycle[0] -> cycle[1] -> ... -> cycle[0]`, 0-based ids).
    #[error("negative cycle through {} vertices: {}", cycle.len(), fmt_cycle(cycle))]
    NegativeCycle {
        /// The vertices of one negative cycle, in order.
        cycle: Vec<u32>,
    },
    /// An algorithm that needs a graph without cycles found one; `cycle` lists its vertices
    /// in arc order (`cycle[0] -> cycle[1] -> ... -> cycle[0]`, 0-based ids).
    #[error("{algorithm} needs a graph without cycles; cycle through {} vertices: {}", cycle.len(), fmt_cycle(cycle))]
    Cycle {
        /// What needed no cycle.
        algorithm: &'static str,
        /// The vertices of one cycle, in order.
        cycle: Vec<u32>,
    },
    /// No path leads from `source` to `target`.
    #[error("no path from vertex {from} to vertex {to}")]
    NoPath {
        /// The first vertex (0-based).
        from: usize,
        /// The last vertex (0-based).
        to: usize,
    },
    /// An algorithm that needs non-negative weights found a negative one.
    #[error("{algorithm} needs non-negative weights; edge {from} -> {to} has weight {weight}")]
    NegativeWeight {
        /// The algorithm.
        algorithm: &'static str,
        /// Tail of the edge (0-based).
        from: usize,
        /// Head of the edge (0-based).
        to: usize,
        /// The weight, as text.
        weight: String,
    },
    /// An argument that makes no sense (a zero delta, a non-square matrix for APSP, ...).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// Not enough memory for a buffer, found before the work starts.
    #[error("out of memory: {what} needs {}{}; refused before allocating", semigraph_formats::error::fmt_bytes(*needed), available.map(|a| format!(", {} are available", semigraph_formats::error::fmt_bytes(a))).unwrap_or_default())]
    OutOfMemory {
        /// What the memory was for.
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes available, where the backend knows.
        available: Option<u64>,
    },
    /// A matrix could not be converted to the requested format.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// An iteration to a tolerance did not reach it in the iterations allowed.
    #[error("{algorithm} did not converge in {iterations} iterations")]
    NotConverged {
        /// The algorithm.
        algorithm: &'static str,
        /// The iterations run.
        iterations: usize,
    },
    /// The run stopped because its caller asked it to ([`cancel::request`](crate::cancel::request)).
    #[error("interrupted")]
    Interrupted,
    /// A backend-specific failure (driver, compiler, kernel launch), with its own message.
    #[error("{backend} backend: {source}")]
    Backend {
        /// Which backend.
        backend: &'static str,
        /// The backend's error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

fn fmt_cycle(c: &[u32]) -> String {
    let mut s: Vec<String> = c.iter().take(20).map(|v| v.to_string()).collect();
    if c.len() > 20 {
        s.push("...".into());
    }
    if let Some(f) = c.first() {
        s.push(f.to_string());
    }
    s.join(" -> ")
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Checks `vertex < n`.
pub fn check_vertex(vertex: usize, n: usize) -> Result<()> {
    if vertex < n {
        Ok(())
    } else {
        Err(Error::VertexOutOfRange { vertex, n })
    }
}

/// Refuses an `nrows x ncols` matrix that is not square as an adjacency matrix; the number
/// of vertices otherwise.
pub(crate) fn check_square(nrows: usize, ncols: usize) -> Result<usize> {
    if nrows != ncols {
        return Err(Error::InvalidArgument(format!(
            "an adjacency matrix must be square, this one is {nrows}x{ncols}"
        )));
    }
    Ok(nrows)
}

/// The formats crate's refusal `(needed, available)` (0: not known) as
/// [`Error::OutOfMemory`] naming `what`.
fn out_of_memory(what: &str, (needed, available): (u64, u64)) -> Error {
    Error::OutOfMemory {
        what: what.to_string(),
        needed,
        available: (available > 0).then_some(available),
    }
}

/// Allocates `n` copies of `v`, reporting failure as [`Error::OutOfMemory`]
/// ([`memory::try_filled`]: large arrays written, so their pages first touched, on every
/// thread, which a process's first run would otherwise pay on one).
pub(crate) fn try_vec<T: Clone + Send + Sync>(n: usize, v: T, what: &str) -> Result<Vec<T>> {
    memory::try_filled(n, v).map_err(|e| out_of_memory(what, e))
}

/// A copy of `data`, reporting failure as [`Error::OutOfMemory`]; large ones written on every
/// thread, as [`try_vec`]'s.
pub(crate) fn try_copy<T: Copy + Send + Sync>(data: &[T], what: &str) -> Result<Vec<T>> {
    let mut out = memory::try_with_capacity(data.len()).map_err(|e| out_of_memory(what, e))?;
    // From `try_filled`'s length: below it a call into rayon's pool costs more than the copy.
    if data.len() < 1 << 16 {
        out.extend_from_slice(data);
    } else {
        out.par_extend(data.par_iter().copied());
    }
    Ok(out)
}
