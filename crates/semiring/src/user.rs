//! User-defined semirings: the [`semiring!`](crate::semiring!) macro.

/// Defines a semiring from its Rust operations and their CUDA spelling, side by side.
///
/// The CUDA expressions are written over `a` and `b` (and `k`, the inner index, an
/// `unsigned long long`, for `mul`), use nothing from `std::`, and may call device functions
/// given in `cuda_helpers`. Zero and one are written once, in Rust: their CUDA literals are
/// derived from the values. The atomic `add` of the GPU kernels is a compare-and-swap loop
/// over `add`.
///
/// A product that depends on where it is taken (a parent or witness semiring) adds
/// `mul_at: |a, b, k| ...`, the product of `A(i, k)` and `x(k)` given the inner index `k` (a
/// `u64`), as [`Semiring::mul_at`](crate::Semiring::mul_at); the products of the backends
/// call it, and `mul`'s CUDA expression, which receives `k` too, must compute the same.
/// `mul` stays the index-free product that the laws are checked on, and
/// [`Semiring::USES_INDEX`](crate::Semiring::USES_INDEX) becomes true:
///
/// ```
/// use semigraph_semiring::{check_semiring, semiring, Semiring};
///
/// semiring! {
///     /// `(min, secondi)` over `u32`: the smallest inner index that meets an entry.
///     pub struct FirstIndex: u32 {
///         name: "first_index",
///         zero: u32::MAX,
///         one: 0,
///         add: |a, b| a.min(b) => "min(a, b)",
///         mul: |a, b| if a == u32::MAX || b == u32::MAX { u32::MAX } else { b }
///             => "(a == 0xFFFFFFFFu || b == 0xFFFFFFFFu) ? 0xFFFFFFFFu : (unsigned int)k",
///         mul_at: |a, b, k| if a == u32::MAX || b == u32::MAX { u32::MAX } else { k as u32 },
///     }
/// }
///
/// assert!(FirstIndex::USES_INDEX);
/// assert_eq!(FirstIndex::mul_at(3, 5, 7), 7);
/// assert_eq!(FirstIndex::mul_at(u32::MAX, 5, 7), u32::MAX);
/// assert!(check_semiring::<FirstIndex>().is_ok());
/// ```
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
///
/// A semiring whose `add` and `mul` are among [`Op`](crate::Op)'s (`+`, `*`, min, max, or
/// a selection) may say so with `ops: (Add, Mul),` after the other fields: products over it
/// can then be checked for results the type cannot hold (integer overflow), as the built-ins
/// are; without it ([`Op::Opaque`](crate::Op::Opaque)) they are not.
///
/// ```
/// use semigraph_semiring::{semiring, Op, Semiring};
///
/// semiring! {
///     /// `(max, *)` over `i64`.
///     pub struct MaxTimesInt: i64 {
///         name: "max_times_int",
///         zero: i64::MIN,
///         one: 1,
///         add: |a, b| a.max(b) => "b > a ? b : a",
///         mul: |a, b| if a == i64::MIN || b == i64::MIN { i64::MIN } else { a.wrapping_mul(b) }
///             => "(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : a * b",
///         ops: (Max, Times),
///     }
/// }
///
/// assert_eq!((MaxTimesInt::ADD, MaxTimesInt::MUL), (Op::Max, Op::Times));
/// ```
///
/// One definition may serve several value types: `struct Name<T: Bound + ...>: T` (traits in
/// scope, named without a path) defines the semiring for every `T` the bounds admit, with `zero`,
/// `one` and the operations written over `T` (through [`Number`](crate::Number), say); the
/// CUDA expressions are the same text for every type, and each type gets its own kernels
/// (the kernel key carries the type).
///
/// ```
/// use semigraph_semiring::{check_semiring, semiring, Number, Semiring};
///
/// semiring! {
///     /// `(max, *)` over any number type: most reliable paths.
///     pub struct MaxTimes<T: Number>: T {
///         name: "max_times",
///         zero: T::ZERO,
///         one: T::ONE,
///         add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
///         mul: |a, b| a.times(b) => "a * b",
///     }
/// }
///
/// assert_eq!(MaxTimes::<f32>::mul(0.5, 0.25), 0.125);
/// assert_eq!(MaxTimes::<f64>::full_name(), "max_times_f64");
/// assert_eq!(MaxTimes::<i64>::add(3, 5), 5);
/// assert!(check_semiring::<MaxTimes<u32>>().is_ok());
/// ```
#[macro_export]
macro_rules! semiring {
    // The `Semiring` impl, for `$self_ty` with generic parameters `$gen`.
    (@impl [$($gen:tt)*] $self_ty:ty, $t:ty, {
        name: $sname:literal,
        zero: $zero:expr,
        one: $one:expr,
        add: |$aa:ident, $ab:ident| $add:expr => $add_cu:literal,
        mul: |$ma:ident, $mb:ident| $mul:expr => $mul_cu:literal,
        $(mul_at: |$xa:ident, $xb:ident, $xk:ident| $mul_at:expr,)?
        $(terminal: |$ta:ident| $term:expr => $term_cu:literal,)?
        $(cuda_helpers: $helpers:literal,)?
        $(ops: ($add_op:ident, $mul_op:ident),)?
    }) => {
        impl<$($gen)*> $crate::Semiring for $self_ty {
            type T = $t;
            const NAME: &'static str = $sname;
            const HAS_TERMINAL: bool = false $(|| { let _ = stringify!($term); true })?;
            const USES_INDEX: bool = false $(|| { let _ = stringify!($mul_at); true })?;
            $(
                const ADD: $crate::Op = $crate::Op::$add_op;
                const MUL: $crate::Op = $crate::Op::$mul_op;
            )?
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
                fn mul_at($xa: $t, $xb: $t, $xk: u64) -> $t {
                    $mul_at
                }
            )?
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
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident : $t:ty { $($body:tt)* }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;

        $crate::semiring!(@impl [] $name, $t, { $($body)* });
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident < $g:ident : $bound:ident $(+ $more:ident)* > : $t:ty {
            $($body:tt)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name<$g>(::core::marker::PhantomData<fn() -> $g>);

        impl<$g> ::core::clone::Clone for $name<$g> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<$g> ::core::marker::Copy for $name<$g> {}
        impl<$g> ::core::default::Default for $name<$g> {
            fn default() -> Self {
                $name(::core::marker::PhantomData)
            }
        }
        impl<$g> ::core::cmp::PartialEq for $name<$g> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<$g> ::core::cmp::Eq for $name<$g> {}
        impl<$g> ::core::fmt::Debug for $name<$g> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(::core::stringify!($name))
            }
        }

        $crate::semiring!(@impl [$g: $bound $(+ $more)* + 'static] $name<$g>, $t, { $($body)* });
    };
}
