#![allow(missing_docs, dead_code)]
//! Test values for every scalar type: small exact integers, so float laws hold exactly.

use semigraph_semiring::{DistPred, PackedDist, Scalar, bf16, f16};

pub trait TestValue: Scalar {
    /// Half-width of the range of small values that keeps every law exact for this type.
    const RANGE: i32;
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
