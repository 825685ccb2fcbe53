//! Semirings as a user writes them with `semiring!`, for the tests that check what users may
//! define: an index-aware product, values of a type no built-in uses, one definition for
//! several value types.

use semigraph_semiring::Number;

semigraph_semiring::semiring! {
    /// `(min, secondi)` over `u32`, with its index-aware product (`mul_at`): the smallest
    /// inner index that meets an entry.
    pub struct FirstIndex: u32 {
        name: "first_index",
        zero: u32::MAX,
        one: 0,
        add: |a, b| a.min(b) => "min(a, b)",
        mul: |a, b| if a == u32::MAX || b == u32::MAX { u32::MAX } else { b }
            => "(a == 0xFFFFFFFFu || b == 0xFFFFFFFFu) ? 0xFFFFFFFFu : (unsigned int)k",
        mul_at: |a, b, k| if a == u32::MAX || b == u32::MAX { u32::MAX } else { k as u32 },
    }
}

semigraph_semiring::semiring! {
    /// Walks counted modulo 2^64: plus-times over `u64`, wrapping.
    pub struct CountWalks: u64 {
        name: "count_walks",
        zero: 0,
        one: 1,
        add: |a, b| a.wrapping_add(b) => "a + b",
        mul: |a, b| a.wrapping_mul(b) => "a * b",
    }
}

semigraph_semiring::semiring! {
    /// `(max, *)` over any number type, defined once: most reliable paths.
    pub struct MaxTimes<T: Number>: T {
        name: "max_times",
        zero: T::ZERO,
        one: T::ONE,
        add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
        mul: |a, b| a.times(b) => "a * b",
    }
}
