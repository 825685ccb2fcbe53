//! Test support shared by semigraph's crates; never a dependency of library code.
//!
//! - [`data`]: where the repository's test graphs are (`data/` at the root, or
//!   `$SEMIGRAPH_DATA`), and the check of their checksums;
//! - [`harness`]: a test harness (over `libtest-mimic`) for test binaries whose tests need a
//!   GPU or NVRTC: where that is missing they are reported as **ignored**, with the reason,
//!   never as passed; `SEMIGRAPH_REQUIRE_GPU=1` / `SEMIGRAPH_REQUIRE_NVRTC=1` make them run,
//!   and fail, instead;
//! - [`backend_suite`]: the test suite every backend runs (every operation x format x
//!   built-in semiring, and every algorithm), registered into a [`harness::Harness`];
//! - [`compare`]: a backend against the CPU backend on many random graphs, exactly;
//! - [`semirings`]: semirings as users define them (an index-aware product, `u64` values).

pub mod backend_suite;
pub mod compare;
pub mod data;
pub mod harness;
pub mod semirings;
