//! Helpers for tests of semirings and of code generic over them (other crates' tests use
//! them too, as nalgebra-sparse ships its proptest strategies).

use crate::{DistPred, PackedDist, Scalar, Semiring, bf16, f16};

/// Small exact values of a scalar type: every semiring law holds exactly on them (no
/// rounding, no overflow), so results can be compared with `==`.
pub trait TestValue: Scalar {
    /// Half-width of the range of small values that keeps every law exact for this type.
    const RANGE: i32;
    /// The value for `i`, clamped into `-RANGE..=RANGE` first.
    fn from_small(i: i32) -> Self;
}

impl TestValue for bool {
    const RANGE: i32 = 1;
    fn from_small(i: i32) -> Self {
        i.rem_euclid(2) == 1
    }
}
impl TestValue for i32 {
    const RANGE: i32 = 1000;
    fn from_small(i: i32) -> Self {
        i
    }
}
impl TestValue for i64 {
    const RANGE: i32 = 1000;
    fn from_small(i: i32) -> Self {
        i as i64 * 1_000_003
    }
}
impl TestValue for u32 {
    const RANGE: i32 = 1000;
    fn from_small(i: i32) -> Self {
        i.unsigned_abs()
    }
}
impl TestValue for u64 {
    const RANGE: i32 = 1000;
    fn from_small(i: i32) -> Self {
        i.unsigned_abs() as u64 * 1_000_003
    }
}
impl TestValue for f32 {
    const RANGE: i32 = 100;
    fn from_small(i: i32) -> Self {
        i as f32
    }
}
impl TestValue for f64 {
    const RANGE: i32 = 1000;
    fn from_small(i: i32) -> Self {
        i as f64 * 0.5
    }
}
impl TestValue for f16 {
    const RANGE: i32 = 8;
    fn from_small(i: i32) -> Self {
        f16::from_f32(i as f32)
    }
}
impl TestValue for bf16 {
    const RANGE: i32 = 4;
    fn from_small(i: i32) -> Self {
        bf16::from_f32(i as f32)
    }
}
impl<D: PackedDist + TestValue> TestValue for DistPred<D> {
    const RANGE: i32 = 100;
    fn from_small(i: i32) -> Self {
        DistPred::new(D::from_small(i), i.unsigned_abs() % 7)
    }
}

/// A value of semiring `S` for test input `i`: the semiring zero when `zero` is set,
/// otherwise a small exact value that is **not** the zero (non-negative for the index
/// semirings, whose values are vertex ids).
pub fn test_value<S: Semiring>(i: i32, zero: bool) -> S::T
where
    S::T: TestValue,
{
    if zero {
        return S::zero();
    }
    let r = <S::T as TestValue>::RANGE;
    let i = if S::USES_INDEX && S::NAME != "min_plus_pred" {
        i.rem_euclid(r + 1)
    } else {
        i.clamp(-r, r)
    };
    let v = <S::T as TestValue>::from_small(i);
    if S::is_zero(v) { S::one() } else { v }
}

/// Semirings as a user writes them with [`semiring!`](macro@crate::semiring): an index-aware product
/// (`FirstIndex`), values of a type no built-in uses (`CountWalks`), one definition for
/// several value types (`MaxTimes`). The tests of every crate that check what users may
/// define use these.
pub mod user {
    use crate::Number;

    crate::semiring! {
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

    crate::semiring! {
        /// Walks counted modulo 2^64: plus-times over `u64`, wrapping.
        pub struct CountWalks: u64 {
            name: "count_walks",
            zero: 0,
            one: 1,
            add: |a, b| a.wrapping_add(b) => "a + b",
            mul: |a, b| a.wrapping_mul(b) => "a * b",
        }
    }

    crate::semiring! {
        /// `(max, *)` over any number type, defined once: most reliable paths.
        pub struct MaxTimes<T: Number>: T {
            name: "max_times",
            zero: T::ZERO,
            one: T::ONE,
            add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
            mul: |a, b| a.times(b) => "a * b",
        }
    }
}
