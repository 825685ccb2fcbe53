//! One stored value seen through another semiring: the rules behind views and patterns
//! ([`SparseMatrix::view`](crate::SparseMatrix::view),
//! [`SparseMatrix::pattern`](crate::SparseMatrix::pattern), [`Csr::pattern`](crate::Csr::pattern)
//! and the backends' `view` and `pattern`). A value equal to the semiring's zero is no entry.

use semigraph_semiring::Semiring;

/// A value of semiring `S` seen as an entry of a pattern in semiring `P`: `P::zero()` if it
/// is `S`'s zero ([`Semiring::is_zero`], bit for bit), else `P::one()`.
///
/// ```
/// use semigraph_formats::pattern_value;
/// use semigraph_semiring::{MinPlus, OrAnd};
/// assert!(pattern_value::<MinPlus<f32>, OrAnd>(2.5));
/// assert!(!pattern_value::<MinPlus<f32>, OrAnd>(f32::INFINITY));
/// ```
pub fn pattern_value<S: Semiring, P: Semiring>(v: S::T) -> P::T {
    if S::is_zero(v) { P::zero() } else { P::one() }
}

/// A value of semiring `S` seen in semiring `S2` of the same value type: `S2::zero()` if it is
/// `S`'s zero (no entry stays no entry, e.g. min-plus's `+inf` padding becomes max-min's
/// `-inf`), else the value itself.
///
/// ```
/// use semigraph_formats::view_value;
/// use semigraph_semiring::{MaxMin, MinPlus};
/// assert_eq!(view_value::<MinPlus<i32>, MaxMin<i32>>(7), 7);
/// assert_eq!(view_value::<MinPlus<i32>, MaxMin<i32>>(i32::MAX), i32::MIN);
/// ```
pub fn view_value<S: Semiring, S2: Semiring<T = S::T>>(v: S::T) -> S::T {
    if S::is_zero(v) { S2::zero() } else { v }
}
