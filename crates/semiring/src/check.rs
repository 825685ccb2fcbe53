//! Checking a semiring before it is used: its name, and its laws on sample values.
//!
//! A semiring is accepted by the type system as soon as it compiles; a wrong `zero`, an `add`
//! that is not associative or a name that cannot stand in a kernel key would otherwise show up
//! only as wrong answers, or as an error when a GPU kernel is first built.
//! [`check_semiring`] finds these at once. (The GPU crate compiles the CUDA side with NVRTC:
//! `semigraph_gpu::check_cuda`.)

use std::fmt;

use crate::semiring::is_key_name;
use crate::testing::TestValue;
use crate::{Scalar, Semiring};

/// What [`check_semiring`] found wrong with a semiring.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemiringProblem {
    /// The semiring ([`Semiring::full_name`]).
    pub semiring: String,
    /// The law or rule broken, with the values that break it.
    pub what: String,
}

impl fmt::Display for SemiringProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "semiring {}: {}", self.semiring, self.what)
    }
}

impl std::error::Error for SemiringProblem {}

/// Whether `add` may return either operand (GraphBLAS's `any`): commutative and distributive
/// only up to which valid value it keeps.
fn picks_any<S: Semiring>() -> bool {
    S::ADD == crate::Op::Any
}

/// The semiring laws on the values `a`, `b`, `c` and the inner index `k`: `(T, add, zero)` a
/// commutative monoid (for `any`: the sum is one of the operands, zero only if both are); `mul`
/// associative with `zero` annihilating (also through [`Semiring::mul_at`]) and `one` a left
/// and a right identity (where [`Semiring::ONE_LEFT`] and [`Semiring::ONE_RIGHT`] say so; not
/// a right one for semirings whose product is an index); `mul`
/// distributing over `add` on both sides (except for `any`); a terminal value absorbing every
/// addition. Values are compared with `==` (so `-0.0 == 0.0`).
///
/// # Errors
/// The first law broken, with the values.
pub fn check_laws_on<S: Semiring>(
    a: S::T,
    b: S::T,
    c: S::T,
    k: u64,
) -> Result<(), SemiringProblem> {
    let (z, o) = (S::zero(), S::one());
    let fail = |law: &str| {
        Err(SemiringProblem {
            semiring: S::full_name(),
            what: format!("{law} fails for a = {a:?}, b = {b:?}, c = {c:?} (inner index {k})"),
        })
    };
    if S::add(S::add(a, b), c) != S::add(a, S::add(b, c)) {
        return fail("add is not associative: (a + b) + c != a + (b + c)");
    }
    if picks_any::<S>() {
        let s = S::add(a, b);
        if !(s == a || s == b) || S::is_zero(s) != (S::is_zero(a) && S::is_zero(b)) {
            return fail("any: a + b is not one of a, b (or is zero without both being zero)");
        }
    } else if S::add(a, b) != S::add(b, a) {
        return fail("add is not commutative: a + b != b + a");
    }
    if S::add(z, a) != a || S::add(a, z) != a {
        return fail("zero is not the identity of add: zero + a != a");
    }
    if S::mul(S::mul(a, b), c) != S::mul(a, S::mul(b, c)) {
        return fail("mul is not associative: (a * b) * c != a * (b * c)");
    }
    if S::mul(z, a) != z || S::mul(a, z) != z {
        return fail("zero does not annihilate: zero * a != zero");
    }
    if S::mul_at(z, a, k) != z || S::mul_at(a, z, k) != z {
        return fail("zero does not annihilate through mul_at");
    }
    if S::ONE_LEFT && S::mul(o, a) != a {
        return fail("one is not a left identity of mul: one * a != a");
    }
    if !S::USES_INDEX && S::ONE_RIGHT && S::mul(a, o) != a {
        return fail("one is not a right identity of mul: a * one != a");
    }
    if !picks_any::<S>() {
        if S::mul(a, S::add(b, c)) != S::add(S::mul(a, b), S::mul(a, c)) {
            return fail("mul does not distribute over add: a * (b + c) != a * b + a * c");
        }
        if S::mul_at(a, S::add(b, c), k) != S::add(S::mul_at(a, b, k), S::mul_at(a, c, k)) {
            return fail("mul_at does not distribute over add");
        }
        if S::mul(S::add(a, b), c) != S::add(S::mul(a, c), S::mul(b, c)) {
            return fail("mul does not distribute over add: (a + b) * c != a * c + b * c");
        }
    }
    for v in [a, b, c] {
        if S::is_terminal(v) {
            if !S::HAS_TERMINAL {
                return fail("is_terminal holds for a value but HAS_TERMINAL is false");
            }
            if !S::is_terminal(S::add(v, a)) || !S::is_terminal(S::add(b, v)) {
                return fail("a terminal value does not absorb addition");
            }
        }
    }
    Ok(())
}

/// Checks a semiring before use: its [`Semiring::NAME`] can stand in a kernel key
/// (`[a-z0-9_]`, no double underscore), `zero` is not `one`, and [`check_laws_on`] holds for
/// every triple of the sample values (zero, one, and the small exact numbers -6..=6 of the
/// value type, non-negative for semirings whose product is an index) at inner indices 0 and 7.
/// A semiring whose laws hold only on part of its type (`(max, *)` on non-negative numbers)
/// is checked on that part with [`check_semiring_with`].
///
/// # Errors
/// The first problem found, naming the semiring, the rule and the values.
///
/// # Example
/// ```
/// use semigraph_semiring::{check_semiring, semiring, MinPlus};
///
/// assert!(check_semiring::<MinPlus<f32>>().is_ok());
///
/// semiring! {
///     /// Not a semiring: subtraction is neither associative nor commutative.
///     pub struct MinMinus: i32 {
///         name: "min_minus",
///         zero: i32::MAX,
///         one: 0,
///         add: |a, b| a.min(b) => "min(a, b)",
///         mul: |a, b| a.saturating_sub(b) => "a - b",
///     }
/// }
/// let e = check_semiring::<MinMinus>().unwrap_err();
/// assert!(e.to_string().contains("mul is not associative"), "{e}");
/// ```
pub fn check_semiring<S: Semiring>() -> Result<(), SemiringProblem>
where
    S::T: TestValue,
{
    let lo = if S::USES_INDEX && S::NAME != "min_plus_pred" {
        0
    } else {
        -6
    };
    let r = <S::T as TestValue>::RANGE;
    let samples: Vec<S::T> = (lo..=6)
        .map(|i| <S::T as TestValue>::from_small(i.clamp(-r, r)))
        .collect();
    check_semiring_with::<S>(&samples)
}

/// [`check_semiring`] on the values a semiring is meant for: `samples` (zero and one are
/// added), for a semiring whose laws hold only on part of its type. Values are compared
/// exactly, so pick samples on which the type's arithmetic is exact (small integers; for
/// floats, short dyadic fractions such as 0.5 or 0.375): with 0.9, `(0.75 * 0.75) * 0.9` and
/// `0.75 * (0.75 * 0.9)` round differently.
///
/// # Errors
/// As [`check_semiring`].
///
/// # Example
/// ```
/// use semigraph_semiring::{check_semiring, check_semiring_with, semiring};
///
/// semiring! {
///     /// `(max, *)`: a semiring on the non-negative numbers only.
///     pub struct MaxTimes: f64 {
///         name: "max_times",
///         zero: 0.0,
///         one: 1.0,
///         add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
///         mul: |a, b| a * b => "a * b",
///     }
/// }
/// // (0 max 1) * -3 = -3, but 0 * -3 max 1 * -3 = 0: not distributive on negatives.
/// assert!(check_semiring::<MaxTimes>().is_err());
/// assert!(check_semiring_with::<MaxTimes>(&[0.25, 0.5, 0.75, 2.0]).is_ok());
/// ```
pub fn check_semiring_with<S: Semiring>(samples: &[S::T]) -> Result<(), SemiringProblem> {
    let problem = |what: String| {
        Err(SemiringProblem {
            semiring: S::full_name(),
            what,
        })
    };
    if !is_key_name(S::NAME) {
        return problem(format!(
            "the name {:?} cannot stand in a kernel key (use [a-z0-9_], no double underscore)",
            S::NAME
        ));
    }
    if S::zero().to_bits64() == S::one().to_bits64() {
        return problem(format!("zero and one are the same value ({:?})", S::zero()));
    }
    let mut all = vec![S::zero(), S::one()];
    all.extend_from_slice(samples);
    for &a in &all {
        for &b in &all {
            for &c in &all {
                for k in [0, 7] {
                    check_laws_on::<S>(a, b, c, k)?;
                }
            }
        }
    }
    Ok(())
}
