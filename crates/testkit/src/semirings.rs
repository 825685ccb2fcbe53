//! Semirings as a user writes them with `semiring!` (an index-aware product, values of a type
//! no built-in uses, one definition for several value types): defined once in
//! [`semigraph_semiring::testing::user`], re-exported here for the suites.

pub use semigraph_semiring::testing::user::{CountWalks, FirstIndex, MaxTimes};
