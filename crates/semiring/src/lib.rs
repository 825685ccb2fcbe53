//! Semirings for semigraph: graph algorithms as linear algebra.
//!
//! A semiring is the only thing an algorithm names. Each one is a zero-sized marker type that
//! implements [`Semiring`]: its value type, zero, one, add, mul, an optional terminal value,
//! and the **CUDA source** of the same operations ([`Semiring::cuda`]), so the CPU backend
//! and the kernels generated for the GPU come from one definition.
//!
//! ```
//! use semigraph_semiring::{MinPlus, OrAnd, PlusTimes, Semiring};
//!
//! // The same "dot product" of a row and a vector, in three semirings.
//! fn dot<S: Semiring>(row: &[S::T], x: &[S::T]) -> S::T {
//!     row.iter().zip(x).fold(S::zero(), |acc, (&a, &b)| S::add(acc, S::mul(a, b)))
//! }
//! assert_eq!(dot::<PlusTimes<f32>>(&[1.0, 2.0], &[3.0, 4.0]), 11.0); // 1*3 + 2*4
//! assert_eq!(dot::<MinPlus<f32>>(&[1.0, 2.0], &[3.0, 4.0]), 4.0); //  min(1+3, 2+4)
//! assert!(dot::<OrAnd>(&[false, true], &[true, true]));
//! ```
//!
//! * [`scalar`]: the value types (`bool`, `i32`, `i64`, `u32`, `f16`, `bf16`, `f32`, `f64`,
//!   and the packed `(distance, predecessor)` pairs [`DistPred`]).
//! * [`builtin`]: plus-times, min-plus, max-plus, max-min, min-max, or-and, min-second and
//!   min-first, the parent semirings min-secondi and any-secondi, and min-plus with
//!   predecessors.
//! * [`semiring!`]: user-defined semirings.
//! * [`ops`]: operators of one's own (unary, binary, select), built-in or defined with
//!   [`unary_op!`], [`binary_op!`], [`select_op!`], each with its CPU function and CUDA source.
//! * [`SrVal`]: `sprs` interop, so `sprs` products compute semiring products.
//! * [`CudaSemiring::prelude`]: the CUDA header a kernel template includes.

pub mod builtin;
pub mod check;
pub mod names;
pub mod number;
pub mod ops;
pub mod scalar;
pub mod semiring;
pub mod sprs_interop;
pub mod testing;
mod user;

pub use builtin::{
    AnySecondI, MaxMin, MaxPlus, MinFirst, MinMax, MinPlus, MinPlusPred, MinSecond, MinSecondI,
    OrAnd, PlusTimes,
};
pub use check::{SemiringProblem, check_semiring, check_semiring_with};
pub use half::{bf16, f16};
pub use number::{AtomicOp, IndexNumber, Number, SignedNumber};
pub use scalar::{DistPred, NO_PRED, PackedDist, Scalar, ScalarType};
pub use semiring::{AtomicAdd, CudaSemiring, Op, Packed16, Semiring};
pub use sprs_interop::SrVal;

/// Calls a generic macro once for every built-in semiring over every value type it supports,
/// as `$mac!(Label, SemiringType);` (with `, extra` tokens after the type when given as
/// `for_each_builtin!(mac, extra)`). Tests use it to run one body over all of them; it is the
/// one list of built-ins (names to types: [`with_builtin!`]).
///
/// ```
/// use semigraph_semiring::{for_each_builtin, Semiring};
/// let mut names = Vec::new();
/// macro_rules! collect { ($label:ident, $s:ty) => { names.push(<$s>::full_name()); }; }
/// for_each_builtin!(collect);
/// assert!(names.contains(&"min_plus_f32".to_string()));
/// assert!(names.contains(&"or_and_bool".to_string()));
/// assert_eq!(names.len(), 49);
/// ```
#[macro_export]
macro_rules! for_each_builtin {
    ($mac:path $(, $($extra:tt)*)?) => {
        $mac!(plus_times_f16, $crate::PlusTimes<$crate::f16> $(, $($extra)*)?);
        $mac!(plus_times_bf16, $crate::PlusTimes<$crate::bf16> $(, $($extra)*)?);
        $mac!(plus_times_f32, $crate::PlusTimes<f32> $(, $($extra)*)?);
        $mac!(plus_times_f64, $crate::PlusTimes<f64> $(, $($extra)*)?);
        $mac!(plus_times_i32, $crate::PlusTimes<i32> $(, $($extra)*)?);
        $mac!(plus_times_i64, $crate::PlusTimes<i64> $(, $($extra)*)?);
        $mac!(plus_times_u32, $crate::PlusTimes<u32> $(, $($extra)*)?);
        $mac!(min_plus_f16, $crate::MinPlus<$crate::f16> $(, $($extra)*)?);
        $mac!(min_plus_bf16, $crate::MinPlus<$crate::bf16> $(, $($extra)*)?);
        $mac!(min_plus_f32, $crate::MinPlus<f32> $(, $($extra)*)?);
        $mac!(min_plus_f64, $crate::MinPlus<f64> $(, $($extra)*)?);
        $mac!(min_plus_i32, $crate::MinPlus<i32> $(, $($extra)*)?);
        $mac!(min_plus_i64, $crate::MinPlus<i64> $(, $($extra)*)?);
        $mac!(min_plus_u32, $crate::MinPlus<u32> $(, $($extra)*)?);
        $mac!(max_plus_f16, $crate::MaxPlus<$crate::f16> $(, $($extra)*)?);
        $mac!(max_plus_bf16, $crate::MaxPlus<$crate::bf16> $(, $($extra)*)?);
        $mac!(max_plus_f32, $crate::MaxPlus<f32> $(, $($extra)*)?);
        $mac!(max_plus_f64, $crate::MaxPlus<f64> $(, $($extra)*)?);
        $mac!(max_plus_i32, $crate::MaxPlus<i32> $(, $($extra)*)?);
        $mac!(max_plus_i64, $crate::MaxPlus<i64> $(, $($extra)*)?);
        $mac!(max_min_f16, $crate::MaxMin<$crate::f16> $(, $($extra)*)?);
        $mac!(max_min_bf16, $crate::MaxMin<$crate::bf16> $(, $($extra)*)?);
        $mac!(max_min_f32, $crate::MaxMin<f32> $(, $($extra)*)?);
        $mac!(max_min_f64, $crate::MaxMin<f64> $(, $($extra)*)?);
        $mac!(max_min_i32, $crate::MaxMin<i32> $(, $($extra)*)?);
        $mac!(max_min_i64, $crate::MaxMin<i64> $(, $($extra)*)?);
        $mac!(max_min_u32, $crate::MaxMin<u32> $(, $($extra)*)?);
        $mac!(min_max_f16, $crate::MinMax<$crate::f16> $(, $($extra)*)?);
        $mac!(min_max_bf16, $crate::MinMax<$crate::bf16> $(, $($extra)*)?);
        $mac!(min_max_f32, $crate::MinMax<f32> $(, $($extra)*)?);
        $mac!(min_max_f64, $crate::MinMax<f64> $(, $($extra)*)?);
        $mac!(min_max_i32, $crate::MinMax<i32> $(, $($extra)*)?);
        $mac!(min_max_i64, $crate::MinMax<i64> $(, $($extra)*)?);
        $mac!(min_max_u32, $crate::MinMax<u32> $(, $($extra)*)?);
        $mac!(or_and_bool, $crate::OrAnd $(, $($extra)*)?);
        $mac!(min_second_u32, $crate::MinSecond<u32> $(, $($extra)*)?);
        $mac!(min_second_i64, $crate::MinSecond<i64> $(, $($extra)*)?);
        $mac!(min_second_f64, $crate::MinSecond<f64> $(, $($extra)*)?);
        $mac!(min_first_u32, $crate::MinFirst<u32> $(, $($extra)*)?);
        $mac!(min_first_i64, $crate::MinFirst<i64> $(, $($extra)*)?);
        $mac!(min_first_f64, $crate::MinFirst<f64> $(, $($extra)*)?);
        $mac!(min_secondi_u32, $crate::MinSecondI<u32> $(, $($extra)*)?);
        $mac!(min_secondi_i32, $crate::MinSecondI<i32> $(, $($extra)*)?);
        $mac!(min_secondi_i64, $crate::MinSecondI<i64> $(, $($extra)*)?);
        $mac!(any_secondi_u32, $crate::AnySecondI<u32> $(, $($extra)*)?);
        $mac!(any_secondi_i32, $crate::AnySecondI<i32> $(, $($extra)*)?);
        $mac!(any_secondi_i64, $crate::AnySecondI<i64> $(, $($extra)*)?);
        $mac!(min_plus_pred_dpf32, $crate::MinPlusPred<f32> $(, $($extra)*)?);
        $mac!(min_plus_pred_dpi32, $crate::MinPlusPred<i32> $(, $($extra)*)?);
    };
}
