//! User-defined semirings: the [`semiring!`](crate::semiring!) macro.

/// Defines a semiring from its Rust operations and their CUDA spelling, side by side.
///
/// The CUDA expressions are written over `a` and `b` (and `k`, the inner index, for `mul`),
/// use nothing from `std::`, and may call device functions given in `cuda_helpers`. Zero and
/// one are written once, in Rust: their CUDA literals are derived from the values. The
/// atomic `add` of the GPU kernels is a compare-and-swap loop over `add`.
///
/// ```
/// use semigraph_semiring::{semiring, Semiring};
///
/// semiring! {
///     /// `(max, *)` over `f64`: the most reliable path when weights are probabilities.
///     pub struct MaxTimes: f64 {
///         name: "max_times",
///         zero: 0.0,
///         one: 1.0,
///         add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
///         mul: |a, b| a * b => "a * b",
///     }
/// }
///
/// assert_eq!(MaxTimes::add(0.5, 0.25), 0.5);
/// assert_eq!(MaxTimes::mul(0.5, 0.25), 0.125);
/// assert_eq!(MaxTimes::full_name(), "max_times_f64");
/// let cuda = MaxTimes::cuda();
/// assert!(cuda.prelude().contains("return (a * b);"));
/// ```
#[macro_export]
macro_rules! semiring {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident : $t:ty {
            name: $sname:literal,
            zero: $zero:expr,
            one: $one:expr,
            add: |$aa:ident, $ab:ident| $add:expr => $add_cu:literal,
            mul: |$ma:ident, $mb:ident| $mul:expr => $mul_cu:literal,
            $(terminal: |$ta:ident| $term:expr => $term_cu:literal,)?
            $(cuda_helpers: $helpers:literal,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;

        impl $crate::Semiring for $name {
            type T = $t;
            const NAME: &'static str = $sname;
            const HAS_TERMINAL: bool = false $(|| { let _ = stringify!($term); true })?;
            fn zero() -> $t {
                $zero
            }
            fn one() -> $t {
                $one
            }
            #[inline]
            fn add($aa: $t, $ab: $t) -> $t {
                $add
            }
            #[inline]
            fn mul($ma: $t, $mb: $t) -> $t {
                $mul
            }
            $(
                #[inline]
                fn is_terminal($ta: $t) -> bool {
                    $term
                }
            )?
            fn cuda() -> $crate::CudaSemiring {
                let c = $crate::CudaSemiring::new::<Self>($add_cu, $mul_cu);
                $(let c = c.terminal($term_cu);)?
                $(let c = c.helpers($helpers);)?
                c
            }
        }
    };
}
