//! Choosing a distance type that holds every path length of a graph exactly.
//!
//! Shortest paths run in [`MinPlus`](semigraph_semiring::MinPlus) over `i32`, `i64`, `f32` or
//! `f64` ([`Distance`](crate::Distance)). Integer sums saturate at the type's bounds and the
//! largest value means "no path", so a type too narrow for the graph would print `inf` for a
//! reachable vertex or a wrong negative distance. [`distance_type`] picks the narrowest type
//! that provably holds every value the algorithm computes, or says why none does.

use semigraph_formats::{EdgeList, Weights};

/// A distance type of the shortest-path algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DistanceType {
    /// 32-bit integers.
    I32,
    /// 64-bit integers.
    I64,
    /// Single precision (exact only for weights and sums that `f32` holds).
    F32,
    /// Double precision.
    F64,
}

impl DistanceType {
    /// `i32`, `i64`, `f32` or `f64`.
    pub fn name(self) -> &'static str {
        match self {
            DistanceType::I32 => "i32",
            DistanceType::I64 => "i64",
            DistanceType::F32 => "f32",
            DistanceType::F64 => "f64",
        }
    }
}

impl semigraph_formats::Named for DistanceType {
    const VALUES: &'static [DistanceType] = &[
        DistanceType::I32,
        DistanceType::I64,
        DistanceType::F32,
        DistanceType::F64,
    ];
    fn name(self) -> &'static str {
        DistanceType::name(self)
    }
}

impl std::fmt::Display for DistanceType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DistanceType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "i32" => DistanceType::I32,
            "i64" => DistanceType::I64,
            "f32" => DistanceType::F32,
            "f64" => DistanceType::F64,
            _ => return Err(format!("unknown distance type {s:?} (i32, i64, f32, f64)")),
        })
    }
}

/// Why no distance type fits a graph (or the one asked for does not).
#[derive(Clone, Debug, PartialEq)]
pub enum DistanceTypeError {
    /// A weight is `inf`, `-inf` or `NaN`; `line` is its line in the file, if known.
    NonFinite {
        /// The line of the file.
        line: Option<u64>,
        /// The value.
        value: f64,
    },
    /// The arc `k` has a weight the requested type cannot hold exactly.
    Inexact {
        /// Index of the arc in the edge list.
        arc: usize,
        /// The weight as written.
        weight: String,
        /// The requested type.
        ty: DistanceType,
    },
    /// Path lengths may reach `bound` in absolute value, beyond what the type holds.
    TooLong {
        /// The largest absolute value a computed distance may take.
        bound: u128,
        /// The widest type that was considered.
        ty: DistanceType,
    },
}

impl std::fmt::Display for DistanceTypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DistanceTypeError::NonFinite { line, value } => {
                if let Some(l) = line {
                    write!(f, "line {l}: ")?;
                }
                write!(
                    f,
                    "weight {value} is not a finite number; shortest paths need finite weights"
                )
            }
            DistanceTypeError::Inexact { weight, ty, .. } => write!(
                f,
                "weight {weight} cannot be held exactly in {ty} distances (choose a wider type)"
            ),
            DistanceTypeError::TooLong { bound, ty } => write!(
                f,
                "path lengths of this graph may reach {bound} in absolute value, beyond what \
                 {ty} distances hold exactly; refused rather than risk a wrong answer"
            ),
        }
    }
}

impl std::error::Error for DistanceTypeError {}

/// The distance type for shortest paths over `g`: the narrowest type that holds every value
/// the algorithm computes, or `want` if given and it does.
///
/// - Integer weights (or none: unit weights): with `P` the longest a simple path can be
///   (`min((n - 1) * max w+, sum of w+)`) and `N` the most negative a walk of `walk_arcs`
///   arcs can be (`walk_arcs * max |w-|`, 0 without negative weights), `i32` if `P` and `N`
///   stay below `i32::MAX` (which means "no path"), else `i64` if they stay below
///   `i64::MAX`, else an error. `walk_arcs` is `n` for Bellman-Ford (a change in round `n`
///   is a negative cycle) and `2n` for APSP by squaring.
/// - Real weights: `f64`; an error naming the line if a weight is `inf`, `-inf` or `NaN`, or if
///   path lengths could leave the `f64` range. `f32` only when asked for, and only if every
///   weight is exactly an `f32` (sums still round in `f32`).
///
/// # Example
/// ```
/// use semigraph_algos::{distance_type, DistanceType};
/// use semigraph_formats::{EdgeList, Weights};
///
/// let mut g = EdgeList::new(4, 4);
/// g.src = vec![0, 1, 2];
/// g.dst = vec![1, 2, 3];
/// g.weights = Weights::Int(vec![1 << 30; 3]); // 3 * 2^30 > i32::MAX
/// assert_eq!(distance_type(&g, 4, None), Ok(DistanceType::I64));
/// g.weights = Weights::Int(vec![7; 3]);
/// assert_eq!(distance_type(&g, 4, None), Ok(DistanceType::I32));
/// ```
pub fn distance_type(
    g: &EdgeList,
    walk_arcs: usize,
    want: Option<DistanceType>,
) -> Result<DistanceType, DistanceTypeError> {
    if let Some((line, value)) = g.first_nonfinite {
        return Err(DistanceTypeError::NonFinite {
            line: Some(line),
            value,
        });
    }
    let n = g.num_vertices() as u128;
    let walk = walk_arcs as u128;
    match &g.weights {
        Weights::Real(w) => {
            if let Some(&value) = w.iter().find(|x| !x.is_finite()) {
                return Err(DistanceTypeError::NonFinite { line: None, value });
            }
            let max = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            // The largest |distance|: a walk of `walk` arcs of the heaviest weight.
            if max * (walk.max(1) as f64) >= f64::MAX {
                return Err(DistanceTypeError::TooLong {
                    bound: u128::MAX,
                    ty: DistanceType::F64,
                });
            }
            match want {
                None | Some(DistanceType::F64) => Ok(DistanceType::F64),
                Some(DistanceType::F32) => match w.iter().position(|&x| (x as f32) as f64 != x) {
                    Some(arc) => Err(DistanceTypeError::Inexact {
                        arc,
                        weight: w[arc].to_string(),
                        ty: DistanceType::F32,
                    }),
                    None => {
                        // Sums must be exact too: in units of the finest weight, every path
                        // length is an integer, exact in f32 below 2^24 units.
                        integer_type(real_units(w), n, walk, Some(DistanceType::F32))
                    }
                },
                Some(ty) => match w.iter().position(|x| x.fract() != 0.0) {
                    Some(arc) => Err(DistanceTypeError::Inexact {
                        arc,
                        weight: w[arc].to_string(),
                        ty,
                    }),
                    // Integral reals: treat as integers.
                    None => integer_type(w.iter().map(|&x| x as i128), n, walk, Some(ty)),
                },
            }
        }
        // One pass over the weights, no copy of them (a graph of a billion arcs).
        Weights::None => integer_type([1].into_iter(), n, walk, want),
        Weights::Int(w) => integer_type(w.iter().map(|&x| x as i128), n, walk, want),
        Weights::UInt(w) => integer_type(w.iter().map(|&x| x as i128), n, walk, want),
    }
}

/// Real weights as integers in units of the finest of them (`2^e` for the least `e` such that
/// every weight is a multiple of `2^e`): sums of weights are exact in a binary float type
/// exactly when these integer sums fit its significand. Units beyond `2^100` are capped
/// there (far past any significand).
fn real_units(w: &[f64]) -> impl Iterator<Item = i128> + '_ {
    // The exponent of the lowest set bit of x's significand.
    let low_bit = |x: f64| -> i32 {
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i32;
        let mant = bits & ((1u64 << 52) - 1);
        let (m, e) = if exp == 0 {
            (mant, -1074)
        } else {
            (mant | (1u64 << 52), exp - 1075)
        };
        e + m.trailing_zeros() as i32
    };
    let finest = w
        .iter()
        .filter(|x| **x != 0.0)
        .map(|&x| low_bit(x))
        .min()
        .unwrap_or(0);
    w.iter().map(move |&x| {
        let u = x.abs() * 2f64.powi(-finest.clamp(-1074, 1023));
        let u = if u.is_finite() {
            u.min(2f64.powi(100))
        } else {
            2f64.powi(100)
        };
        let u = u as i128;
        if x < 0.0 { -u } else { u }
    })
}

fn integer_type(
    w: impl Iterator<Item = i128>,
    n: u128,
    walk: u128,
    want: Option<DistanceType>,
) -> Result<DistanceType, DistanceTypeError> {
    let (mut max_pos, mut sum_pos, mut max_neg) = (0u128, 0u128, None::<u128>);
    for x in w {
        if x > 0 {
            max_pos = max_pos.max(x as u128);
            sum_pos = sum_pos.saturating_add(x as u128);
        } else if x < 0 {
            max_neg = Some(max_neg.unwrap_or(0).max(x.unsigned_abs()));
        }
    }
    let longest = n.saturating_sub(1).saturating_mul(max_pos).min(sum_pos);
    let lowest = max_neg.map_or(0, |m| walk.saturating_mul(m));
    // Every weight must itself be a value of the type, even where no path uses it (a
    // self-loop on a one-vertex graph).
    let bound = longest.max(lowest).max(max_pos).max(max_neg.unwrap_or(0));
    let fits = |ty: DistanceType| match ty {
        DistanceType::I32 => bound < i32::MAX as u128,
        DistanceType::I64 => bound < i64::MAX as u128,
        // Integers below 2^24 (2^53) are exact in f32 (f64), and so are their sums below it.
        DistanceType::F32 => bound < 1 << 24,
        DistanceType::F64 => bound < 1 << 53,
    };
    match want {
        Some(ty) if fits(ty) => Ok(ty),
        Some(ty) => Err(DistanceTypeError::TooLong { bound, ty }),
        None if fits(DistanceType::I32) => Ok(DistanceType::I32),
        None if fits(DistanceType::I64) => Ok(DistanceType::I64),
        None => Err(DistanceTypeError::TooLong {
            bound,
            ty: DistanceType::I64,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(w: Vec<i64>) -> EdgeList {
        let n = w.len() + 1;
        let mut g = EdgeList::new(n, n);
        g.src = (0..w.len() as u32).collect();
        g.dst = (1..=w.len() as u32).collect();
        g.weights = Weights::Int(w);
        g
    }

    #[test]
    fn integer_bounds() {
        // Three arcs of 2^30: the path 0 -> 3 is 3 * 2^30, beyond i32.
        assert_eq!(
            distance_type(&chain(vec![1 << 30; 3]), 4, None),
            Ok(DistanceType::I64)
        );
        // A path of exactly i32::MAX would read as "no path" in i32.
        assert_eq!(
            distance_type(&chain(vec![i32::MAX as i64 - 5, 5]), 3, None),
            Ok(DistanceType::I64)
        );
        assert_eq!(
            distance_type(&chain(vec![i32::MAX as i64 - 6, 5]), 3, None),
            Ok(DistanceType::I32)
        );
        // Negative weights: walks of up to `walk` arcs.
        assert_eq!(
            distance_type(&chain(vec![-(1 << 30); 3]), 4, None),
            Ok(DistanceType::I64)
        );
        assert!(matches!(
            distance_type(&chain(vec![i64::MAX / 2; 3]), 4, None),
            Err(DistanceTypeError::TooLong { .. })
        ));
        assert!(matches!(
            distance_type(&chain(vec![1 << 30; 3]), 4, Some(DistanceType::I32)),
            Err(DistanceTypeError::TooLong { .. })
        ));
        // No weights: unit lengths.
        let mut g = chain(vec![1; 3]);
        g.weights = Weights::None;
        assert_eq!(distance_type(&g, 4, None), Ok(DistanceType::I32));
    }

    #[test]
    fn reals() {
        let mut g = chain(vec![1; 3]);
        g.weights = Weights::Real(vec![0.5, 1e39, 1e-50]);
        assert_eq!(distance_type(&g, 4, None), Ok(DistanceType::F64));
        assert!(matches!(
            distance_type(&g, 4, Some(DistanceType::F32)),
            Err(DistanceTypeError::Inexact { arc: 1, .. })
        ));
        g.weights = Weights::Real(vec![0.5, 0.25, 3.0]);
        assert_eq!(
            distance_type(&g, 4, Some(DistanceType::F32)),
            Ok(DistanceType::F32)
        );
        g.first_nonfinite = Some((7, f64::NEG_INFINITY));
        let e = distance_type(&g, 4, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 7: weight -inf is not a finite number; shortest paths need finite weights"
        );
    }
}
