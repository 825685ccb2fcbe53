//! Criterion benchmarks of semigraph live in `benches/`; this crate has no library code.
