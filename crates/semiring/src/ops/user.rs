//! User-defined operators: [`unary_op!`](crate::unary_op), [`binary_op!`](crate::binary_op)
//! and [`select_op!`](crate::select_op).

/// Defines a unary operator from its Rust function and its CUDA spelling, side by side: an
/// expression over `x` (of the value type, `sr_t` in CUDA) that uses nothing from `std::` and
/// may call device functions given in `cuda_helpers`.
///
/// ```
/// use semigraph_semiring::ops::UnaryOperator;
/// use semigraph_semiring::unary_op;
///
/// unary_op! {
///     /// `x * x` over `f32`.
///     pub struct Square: f32 { name: "square", op: |x| x * x => "x * x" }
/// }
/// assert_eq!(<Square as UnaryOperator<f32>>::apply(3.0), 9.0);
/// ```
///
/// `struct Name<T: Bound + ...>: T` defines it for every `T` the bounds admit (the marker
/// `Name` itself has no parameter; the CUDA text is the same for every type):
///
/// ```
/// use semigraph_semiring::ops::UnaryOperator;
/// use semigraph_semiring::{unary_op, Number};
///
/// unary_op! {
///     /// `x + x`.
///     pub struct Twice<T: Number>: T { name: "twice", op: |x| x.plus(x) => "x + x" }
/// }
/// assert_eq!(<Twice as UnaryOperator<i64>>::apply(21), 42);
/// assert_eq!(<Twice as UnaryOperator<f32>>::apply(1.5), 3.0);
/// ```
#[macro_export]
macro_rules! unary_op {
    (@impl [$($gen:tt)*] $name:ident, $t:ty, {
        name: $key:literal, op: |$x:ident| $cpu:expr => $cu:literal $(, cuda_helpers: $h:literal)? $(,)?
    }) => {
        impl<$($gen)*> $crate::ops::UnaryOperator<$t> for $name {
            fn name() -> ::std::string::String {
                $key.into()
            }
            #[inline]
            fn apply($x: $t) -> $t {
                $cpu
            }
            fn cuda() -> $crate::ops::CudaOp {
                let c = $crate::ops::CudaOp::new::<$t>($crate::ops::OpKind::Unary, $key, $cu);
                $(let c = c.helpers($h);)?
                c
            }
        }
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::unary_op!(@impl [] $name, $t, { $($body)* });
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident < $g:ident : $b:ident $(+ $more:ident)* > : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::unary_op!(@impl [$g: $b $(+ $more)*] $name, $t, { $($body)* });
    };
}

/// Defines a binary operator from its Rust function and its CUDA spelling: an expression over
/// `a` and `b`. Forms as [`unary_op!`](crate::unary_op).
///
/// ```
/// use semigraph_semiring::ops::BinaryOperator;
/// use semigraph_semiring::binary_op;
///
/// binary_op! {
///     /// The mean of `a` and `b` over `f64`.
///     pub struct Mean: f64 { name: "mean", op: |a, b| (a + b) * 0.5 => "(a + b) * 0.5" }
/// }
/// assert_eq!(<Mean as BinaryOperator<f64>>::apply(1.0, 2.0), 1.5);
/// ```
#[macro_export]
macro_rules! binary_op {
    (@impl [$($gen:tt)*] $name:ident, $t:ty, {
        name: $key:literal, op: |$a:ident, $b:ident| $cpu:expr => $cu:literal $(, cuda_helpers: $h:literal)? $(,)?
    }) => {
        impl<$($gen)*> $crate::ops::BinaryOperator<$t> for $name {
            fn name() -> ::std::string::String {
                $key.into()
            }
            #[inline]
            fn apply($a: $t, $b: $t) -> $t {
                $cpu
            }
            fn cuda() -> $crate::ops::CudaOp {
                let c = $crate::ops::CudaOp::new::<$t>($crate::ops::OpKind::Binary, $key, $cu);
                $(let c = c.helpers($h);)?
                c
            }
        }
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::binary_op!(@impl [] $name, $t, { $($body)* });
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident < $g:ident : $b:ident $(+ $more:ident)* > : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::binary_op!(@impl [$g: $b $(+ $more)*] $name, $t, { $($body)* });
    };
}

/// Defines a select predicate from its Rust function and its CUDA spelling: a `bool`
/// expression over the value `x`, its row `i` and column `j` (`u64`; `unsigned long long` in
/// CUDA) and the scalar argument `s`. Forms as [`unary_op!`](crate::unary_op).
///
/// ```
/// use semigraph_semiring::ops::SelectOperator;
/// use semigraph_semiring::select_op;
///
/// select_op! {
///     /// Entries within `s` of the diagonal (a band), over `f32`.
///     pub struct Band: f32 {
///         name: "band",
///         keep: |x, i, j, s| (i as f32 - j as f32).abs() <= s => "fabsf((float)i - (float)j) <= s",
///     }
/// }
/// assert!(<Band as SelectOperator<f32>>::keep(7.0, 3, 4, 1.0));
/// assert!(!<Band as SelectOperator<f32>>::keep(7.0, 3, 5, 1.0));
/// ```
#[macro_export]
macro_rules! select_op {
    (@impl [$($gen:tt)*] $name:ident, $t:ty, {
        name: $key:literal,
        keep: |$x:ident, $i:ident, $j:ident, $s:ident| $cpu:expr => $cu:literal $(, cuda_helpers: $h:literal)? $(,)?
    }) => {
        impl<$($gen)*> $crate::ops::SelectOperator<$t> for $name {
            fn name() -> ::std::string::String {
                $key.into()
            }
            #[inline]
            fn keep($x: $t, $i: u64, $j: u64, $s: $t) -> bool {
                let _ = ($x, $i, $j, $s);
                $cpu
            }
            fn cuda() -> $crate::ops::CudaOp {
                let c = $crate::ops::CudaOp::new::<$t>($crate::ops::OpKind::Select, $key, $cu);
                $(let c = c.helpers($h);)?
                c
            }
        }
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::select_op!(@impl [] $name, $t, { $($body)* });
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident < $g:ident : $b:ident $(+ $more:ident)* > : $t:ty { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis struct $name;
        $crate::select_op!(@impl [$g: $b $(+ $more)*] $name, $t, { $($body)* });
    };
}
