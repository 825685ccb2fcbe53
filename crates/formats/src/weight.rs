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
            Weight::Real(v) => f.write_str(&real_text(*v, *v)),
        }
    }
}

/// The text of a real `x` that reads back as `x` and means `x`: an integral value as all its
/// digits (`1073741824`, never the shortest-digits-padded-with-zeros `1073741800` that reads
/// back as the same float but another integer) up to `2^63`, other values as the shortest text that
/// round-trips in their own type (`short`: `x` as an `f32` for single precision, so `0.1f32`
/// prints `0.1`), with an exponent when very large or very small (`1e39`, `1e-50`).
pub fn real_text<F: std::fmt::Display + std::fmt::LowerExp>(x: f64, short: F) -> String {
    // Integral values within i64 print as integers; beyond, in exponent form, which reads
    // back as a real (an integer that long would be refused by the readers' exact rule).
    const EXACT_INT: f64 = 9223372036854775808.0; // 2^63
    if x.is_finite() && x.fract() == 0.0 && x.abs() < EXACT_INT {
        if x == 0.0 && x.is_sign_negative() {
            return "-0".into();
        }
        return (x as i128).to_string();
    }
    if x.is_finite() && x != 0.0 && (x.abs() >= 1e16 || x.abs() < 1e-5) {
        return format!("{short:e}");
    }
    short.to_string()
}

/// A value type that graph weights convert to and from.
///
/// Conversions are exact or refused: an integer type takes only integral weights in its
/// range; `f16`/`bf16`/`f32` take any real they hold once rounded to nearest (infinities
/// included), and refuse a finite one beyond their range (`70000` is no `f16`: it would
/// become `inf`); `bool` takes 0 and 1. NaN is never accepted.
pub trait WeightValue: Scalar {
    /// The value of a weight, or `None` if it cannot be represented.
    fn from_weight(w: Weight) -> Option<Self>;
    /// The weight that writes this value back.
    fn to_weight(self) -> Weight;
    /// The value as text that reads back as this value and means it exactly where it is an
    /// integer ([`real_text`] for reals: `2^30` in `f32` prints `1073741824`, `0.1f32` prints
    /// `0.1`).
    fn text(self) -> String {
        self.to_weight().to_string()
    }
}

fn int_of(w: Weight) -> Option<i128> {
    match w {
        Weight::Int(v) => Some(v as i128),
        Weight::UInt(v) => Some(v as i128),
        Weight::Real(v) if v.fract() == 0.0 && v.is_finite() => Some(v as i128),
        Weight::Real(_) => None,
    }
}

/// `w` rounded to a narrower float by `narrow`, unless a finite weight would become infinite.
fn narrowed<T: Copy>(w: Weight, narrow: fn(f64) -> T, finite: fn(T) -> bool) -> Option<T> {
    let x = real_of(w)?;
    let t = narrow(x);
    (finite(t) || !x.is_finite()).then_some(t)
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
    fn text(self) -> String {
        self.to_string()
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
        narrowed(w, |x| x as f32, f32::is_finite)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self as f64)
    }
    fn text(self) -> String {
        real_text(self as f64, self)
    }
}

impl WeightValue for f16 {
    fn from_weight(w: Weight) -> Option<Self> {
        narrowed(w, f16::from_f64, f16::is_finite)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self.to_f64())
    }
    fn text(self) -> String {
        real_text(self.to_f64(), self.to_f32())
    }
}

impl WeightValue for bf16 {
    fn from_weight(w: Weight) -> Option<Self> {
        narrowed(w, bf16::from_f64, bf16::is_finite)
    }
    fn to_weight(self) -> Weight {
        Weight::Real(self.to_f64())
    }
    fn text(self) -> String {
        real_text(self.to_f64(), self.to_f32())
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
    fn text(self) -> String {
        self.dist().text()
    }
}
