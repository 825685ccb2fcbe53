//! Numbers wide enough for a product's exact value: 192-bit integers, and `f64` marked where
//! an operation on finite operands left the semiring's type.

use std::fmt;

use semigraph_formats::{Weight, WeightValue};
use semigraph_semiring::{Op, Scalar, ScalarType, Semiring};

use super::Why;

/// Numbers wide enough to hold a product's exact value, with the operations of [`Op`].
pub(super) trait Wide: Copy + Send + Sync + fmt::Debug {
    /// The value of an operand (`None` for one the check cannot follow, such as NaN).
    fn of<T: WeightValue>(v: T) -> Option<Self>;
    fn zero() -> Self;
    fn plus(self, o: Self) -> Self;
    fn times(self, o: Self) -> Self;
    /// `self < o`.
    fn less(self, o: Self) -> bool;
    /// Whether type `T` holds the value, and if not why not.
    fn holds<S: Semiring>(self, path: bool) -> Option<Why>;
    /// Whether type `T` holds every value of `[lo, hi]` with room to spare (a bound).
    fn within<S: Semiring>(lo: Self, hi: Self, path: bool) -> bool;
    fn text(self) -> String;
}

pub(super) fn min_w<W: Wide>(a: W, b: W) -> W {
    if b.less(a) { b } else { a }
}

pub(super) fn max_w<W: Wide>(a: W, b: W) -> W {
    if a.less(b) { b } else { a }
}

/// A 192-bit integer `hi * 2^128 + lo`: exact for sums of up to 2^63 products of 64-bit
/// integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Int {
    hi: i64,
    lo: u128,
}

impl Int {
    fn from_i128(x: i128) -> Int {
        Int {
            hi: if x < 0 { -1 } else { 0 },
            lo: x as u128,
        }
    }
    fn to_i128(self) -> Option<i128> {
        match self.hi {
            0 if self.lo <= i128::MAX as u128 => Some(self.lo as i128),
            -1 if self.lo > i128::MAX as u128 => Some(self.lo as i128),
            _ => None,
        }
    }
    fn neg(self) -> Int {
        let (lo, carry) = (!self.lo).overflowing_add(1);
        Int {
            hi: (!self.hi).wrapping_add(carry as i64),
            lo,
        }
    }
    fn range<S: Semiring>() -> (i128, i128) {
        match <S::T as Scalar>::TYPE {
            ScalarType::I32 => (i32::MIN.into(), i32::MAX.into()),
            ScalarType::I64 => (i64::MIN.into(), i64::MAX.into()),
            ScalarType::U32 => (0, u32::MAX.into()),
            _ => (0, u64::MAX.into()),
        }
    }
    /// The zero of a path semiring (`add` min: the largest value; max: the smallest).
    fn path_zero<S: Semiring>() -> i128 {
        let (lo, hi) = Int::range::<S>();
        if matches!(S::ADD, Op::Min) { hi } else { lo }
    }
}

impl Wide for Int {
    fn of<T: WeightValue>(v: T) -> Option<Int> {
        Some(Int::from_i128(match v.to_weight() {
            Weight::Int(x) => x.into(),
            Weight::UInt(x) => x.into(),
            Weight::Real(x) => x as i128,
        }))
    }
    fn zero() -> Int {
        Int::from_i128(0)
    }
    fn plus(self, o: Int) -> Int {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        Int {
            hi: self.hi.wrapping_add(o.hi).wrapping_add(carry as i64),
            lo,
        }
    }
    fn times(self, o: Int) -> Int {
        // Operands and bounds of single products fit in 65 bits: their magnitudes' product
        // fits in 128.
        let (Some(a), Some(b)) = (self.to_i128(), o.to_i128()) else {
            unreachable!("products are of single values")
        };
        let m = a.unsigned_abs().saturating_mul(b.unsigned_abs());
        let p = Int { hi: 0, lo: m };
        if (a < 0) != (b < 0) { p.neg() } else { p }
    }
    fn less(self, o: Int) -> bool {
        (self.hi, self.lo) < (o.hi, o.lo)
    }
    fn holds<S: Semiring>(self, path: bool) -> Option<Why> {
        let (lo, hi) = Int::range::<S>();
        match self.to_i128() {
            Some(x) if x < lo || x > hi => Some(Why::OutOfRange),
            Some(x) if path && x == Int::path_zero::<S>() => Some(Why::IsZero),
            Some(_) => None,
            None => Some(Why::OutOfRange),
        }
    }
    fn within<S: Semiring>(lo: Int, hi: Int, path: bool) -> bool {
        let (tlo, thi) = Int::range::<S>();
        match (lo.to_i128(), hi.to_i128()) {
            (Some(l), Some(h)) => {
                let z = Int::path_zero::<S>();
                l >= tlo && h <= thi && !(path && l <= z && z <= h)
            }
            _ => false,
        }
    }
    fn text(self) -> String {
        match self.to_i128() {
            Some(x) => x.to_string(),
            None => format!(
                "about {:e}",
                self.hi as f64 * 2f64.powi(128) + self.lo as f64
            ),
        }
    }
}

/// A real computed in `f64`, marked where an operation on finite operands left the type
/// (`over`), or made NaN of operands that are not (`undefined`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Real {
    v: f64,
    over: bool,
    undefined: bool,
    /// The least magnitude that the type rounds to an infinity.
    max: f64,
}

impl Real {
    fn op(self, o: Real, r: f64) -> Real {
        let finite = self.v.is_finite() && o.v.is_finite();
        Real {
            v: r,
            over: self.over || o.over || (finite && !(r.is_finite() && r.abs() < self.max)),
            undefined: self.undefined
                || o.undefined
                || (r.is_nan() && !self.v.is_nan() && !o.v.is_nan()),
            max: self.max,
        }
    }
    /// The least magnitude type `t` rounds to an infinity: its largest finite value and
    /// half a step beyond.
    fn max_of(t: ScalarType) -> f64 {
        match t {
            ScalarType::F16 => 65520.0,
            ScalarType::Bf16 => f64::from(semigraph_semiring::bf16::MAX) + 2f64.powi(119),
            ScalarType::F32 => f64::from(f32::MAX) + 2f64.powi(103),
            _ => f64::INFINITY,
        }
    }
}

impl Wide for Real {
    fn of<T: WeightValue>(v: T) -> Option<Real> {
        let v = match v.to_weight() {
            Weight::Real(x) => x,
            Weight::Int(x) => x as f64,
            Weight::UInt(x) => x as f64,
        };
        (!v.is_nan()).then_some(Real {
            v,
            over: false,
            undefined: false,
            max: Real::max_of(T::TYPE),
        })
    }
    fn zero() -> Real {
        Real {
            v: 0.0,
            over: false,
            undefined: false,
            max: f64::INFINITY,
        }
    }
    fn plus(self, o: Real) -> Real {
        let max = self.max.min(o.max);
        Real { max, ..self }.op(o, self.v + o.v)
    }
    fn times(self, o: Real) -> Real {
        let max = self.max.min(o.max);
        Real { max, ..self }.op(o, self.v * o.v)
    }
    fn less(self, o: Real) -> bool {
        self.v < o.v
    }
    fn holds<S: Semiring>(self, _path: bool) -> Option<Why> {
        if self.undefined {
            Some(Why::Undefined)
        } else if self.over {
            Some(Why::OutOfRange)
        } else {
            None
        }
    }
    fn within<S: Semiring>(lo: Real, hi: Real, _path: bool) -> bool {
        // Half the range: the backends add in other orders, with rounding.
        let room = Real::max_of(<S::T as Scalar>::TYPE).min(f64::MAX) / 2.0;
        lo.v >= -room && hi.v <= room
    }
    fn text(self) -> String {
        if self.undefined {
            "inf - inf".into()
        } else if self.over {
            "beyond the type's largest finite value".into()
        } else {
            semigraph_formats::real_text(self.v, self.v)
        }
    }
}
