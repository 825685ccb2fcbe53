//! Conversions between the weights of graph files and the value types of semirings.

use semigraph_semiring::{DistPred, NO_PRED, PackedDist, Scalar, bf16, f16};

/// One weight as a file stores it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Weight {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer that may exceed `i64` (`uint64` files).
    UInt(u64),
    /// A real number.
    Real(f64),
}

impl std::fmt::Display for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Weight::Int(v) => write!(f, "{v}"),
            Weight::UInt(v) => write!(f, "{v}"),
            Weight::Real(v) => write!(f, "{v}"),
        }
    }
}

/// A value type that graph weights convert to and from.
///
/// Conversions are exact or refused: an integer type takes only integral weights in its
/// range; `f16`/`bf16`/`f32` take any finite or infinite real (rounded to nearest);
/// `bool` takes 0 and 1. NaN is never accepted.
pub trait WeightValue: Scalar {
    /// The value of a weight, or `None` if it cannot be represented.
    fn from_weight(w: Weight) -> Option<Self>;
    /// The weight that writes this value back.
    fn to_weight(self) -> Weight;
}

fn int_of(w: Weight) -> Option<i128> {
    match w {
        Weight::Int(v) => Some(v as i128),
        Weight::UInt(v) => Some(v as i128),
        Weight::Real(v) if v.fract() == 0.0 && v.is_finite() => Some(v as i128),
        Weight::Real(_) => None,
    }
}

fn real_of(w: Weight) -> Option<f64> {
    match w {
        Weight::Int(v) => Some(v as f64),
        Weight::UInt(v) => Some(v as f64),
        Weight::Real(v) if v.is_nan() => None,
        Weight::Real(v) => Some(v),
    }
}

macro_rules! int_weight {
    ($t:ty, $w:ident) => {
        impl WeightValue for $t {
            fn from_weight(w: Weight) -> Option<Self> {
                int_of(w).and_then(|v| <$t>::try_from(v).ok())
            }
            fn to_weight(self) -> Weight {
                Weight::$w(self as _)
            }
        }
    };
}
int_weight!(i32, Int);
int_weight!(i64, Int);
int_weight!(u32, Int);
int_weight!(u64, UInt);

impl WeightValue for bool {
    fn from_weight(w: Weight) -> Option<Self> {
        match int_of(w) {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        }
    }
    fn to_weight(self) -> Weight {
        Weight::Int(self as i64)
    }
}

impl WeightValue for f64 {
    fn from_weight(w: Weight) -> Option<Self> {
        real_of(w)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self)
    }
}

impl WeightValue for f32 {
    fn from_weight(w: Weight) -> Option<Self> {
        real_of(w).map(|v| v as f32)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self as f64)
    }
}

impl WeightValue for f16 {
    fn from_weight(w: Weight) -> Option<Self> {
        real_of(w).map(f16::from_f64)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self.to_f64())
    }
}

impl WeightValue for bf16 {
    fn from_weight(w: Weight) -> Option<Self> {
        real_of(w).map(bf16::from_f64)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self.to_f64())
    }
}

impl<D: PackedDist + WeightValue> WeightValue for DistPred<D> {
    /// The weight becomes the distance; there is no predecessor.
    fn from_weight(w: Weight) -> Option<Self> {
        D::from_weight(w).map(|d| DistPred::new(d, NO_PRED))
    }
    fn to_weight(self) -> Weight {
        self.dist().to_weight()
    }
}
