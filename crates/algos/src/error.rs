//! The one error type of the algorithms and backends.
//!
//! Error policy (the same in every semigraph crate): a broken *contract* between pieces of code
//! (a vector of the wrong length handed to a backend, a handle used with a matrix of another
//! shape) panics, because it is a bug in the caller; everything that depends on the input or
//! the machine (a source out of range, a negative cycle, memory, a missing GPU, a kernel that
//! fails to compile) is returned as an [`Error`].

use rayon::prelude::*;
use semigraph_formats::FormatError;

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

/// Elements from which [`try_vec`] and [`try_copy`] write on every thread of rayon's pool. A
/// fresh allocation's pages are mapped at their first write (the kernel clears each, a
/// microsecond or so a 4 KiB page), so on one thread a fresh 16 MiB array costs milliseconds:
/// the n-long arrays of one run on a graph of millions of vertices, which the first run of a
/// process (the CLI's one-shot) pays and later runs, reusing the allocator's memory, do not.
const PAR_FILL: usize = 1 << 18;

/// Reserves `n` elements, reporting failure as [`Error::OutOfMemory`].
fn try_reserved<T>(n: usize, what: &str) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| Error::OutOfMemory {
        what: what.to_string(),
        needed: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        available: None,
    })?;
    Ok(out)
}

/// Allocates `n` copies of `v`, reporting failure as [`Error::OutOfMemory`]; written on every
/// thread from [`PAR_FILL`] elements.
pub(crate) fn try_vec<T: Clone + Send + Sync>(n: usize, v: T, what: &str) -> Result<Vec<T>> {
    let mut out = try_reserved(n, what)?;
    if n >= PAR_FILL {
        out.par_extend(rayon::iter::repeat_n(v, n));
    } else {
        out.resize(n, v);
    }
    Ok(out)
}

/// A copy of `data`, reporting failure as [`Error::OutOfMemory`]; written on every thread
/// from [`PAR_FILL`] elements.
pub(crate) fn try_copy<T: Copy + Send + Sync>(data: &[T], what: &str) -> Result<Vec<T>> {
    let mut out = try_reserved(data.len(), what)?;
    if data.len() >= PAR_FILL {
        out.par_extend(data.par_iter().copied());
    } else {
        out.extend_from_slice(data);
    }
    Ok(out)
}
