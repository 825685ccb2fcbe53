//! Cooperative cancellation: the long algorithms check between their steps (BFS levels,
//! relaxation rounds, delta-stepping buckets, PageRank and label-propagation iterations,
//! `FastSV` rounds, APSP squarings) whether their caller asked them to stop, and then return
//! [`Error::Interrupted`] with nothing half-written. A binding that runs an algorithm on
//! another thread calls [`request`] when its user presses Ctrl-C (Python does), and [`clear`]
//! before the next run. One flag for the process: a request stops every run in progress.
//!
//! ```
//! use semigraph_algos::{arcs_to_csr, bfs, cancel, BfsOptions, BfsSemiring, CpuBackend, Error, Graph, GraphOptions};
//! use semigraph_semiring::MinPlus;
//!
//! let a = arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 1), (1, 2, 1)])?;
//! let cpu = CpuBackend::new();
//! let g = Graph::new(&cpu, &a, GraphOptions::default())?.pattern::<BfsSemiring>()?;
//! cancel::request();
//! assert!(matches!(bfs(&g, 0, &BfsOptions::default()), Err(Error::Interrupted)));
//! cancel::clear();
//! assert_eq!(bfs(&g, 0, &BfsOptions::default())?.level(2), Some(2));
//! # Ok::<(), Error>(())
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks every algorithm running in this process to stop at its next step.
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Withdraws a [`request`]: algorithms started from now on run to the end.
pub fn clear() {
    REQUESTED.store(false, Ordering::Relaxed);
}

/// Whether a stop was requested and not cleared.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// `Err(Error::Interrupted)` if a stop was requested: called between an algorithm's steps.
pub(crate) fn check() -> Result<()> {
    if requested() {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}
