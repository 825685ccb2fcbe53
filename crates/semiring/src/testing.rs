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
