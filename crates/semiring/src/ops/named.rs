//! The built-in operators by name, for callers that choose one at run time (the CLI, Python):
//! [`NamedOps`] finds the operator of a name for a value type and hands its type to a visitor,
//! so that the caller's code is compiled once per operator and runs with it as a type.
//!
//! ```
//! use semigraph_semiring::ops::{BinaryOperator, BinaryVisitor, NamedOps};
//!
//! /// Applies the operator it is given to 2 and 5.
//! struct At25;
//! impl BinaryVisitor<i32> for At25 {
//!     type Output = i32;
//!     fn visit<F: BinaryOperator<i32>>(self) -> i32 {
//!         F::apply(2, 5)
//!     }
//! }
//! assert_eq!(i32::binary_named("minus", At25), Some(-3));
//! assert_eq!(i32::binary_named("lxor", At25), None); // a bool operator
//! assert!(bool::binary_names().contains(&"lxor"));
//! ```

use half::{bf16, f16};

use super::builtin::*;
use super::{BinaryOperator, SelectOperator, UnaryOperator};
use crate::scalar::{DistPred, PackedDist, Scalar};

/// Receives the unary operator [`NamedOps::unary_named`] found, as a type.
pub trait UnaryVisitor<T: Scalar> {
    /// What the visit returns.
    type Output;
    /// Runs with `F` the operator.
    fn visit<F: UnaryOperator<T>>(self) -> Self::Output;
}

/// Receives the binary operator [`NamedOps::binary_named`] found, as a type.
pub trait BinaryVisitor<T: Scalar> {
    /// What the visit returns.
    type Output;
    /// Runs with `F` the operator.
    fn visit<F: BinaryOperator<T>>(self) -> Self::Output;
}

/// Receives the select operator [`NamedOps::select_named`] found, as a type.
pub trait SelectVisitor<T: Scalar> {
    /// What the visit returns.
    type Output;
    /// Runs with `P` the operator.
    fn visit<P: SelectOperator<T>>(self) -> Self::Output;
}

/// The built-in operators of a value type, by the names their [`name`](UnaryOperator::name)
/// functions give (`plus`, `lt`, `minv`, `tril`, `value_gt`, ...; the table in
/// [`builtin`](super::builtin)).
pub trait NamedOps: Scalar {
    /// The unary operators of the type.
    fn unary_names() -> &'static [&'static str];
    /// The binary operators of the type.
    fn binary_names() -> &'static [&'static str];
    /// The select operators of the type.
    fn select_names() -> &'static [&'static str];
    /// `v` run with the unary operator `name`; `None` where the type has none of that name.
    fn unary_named<V: UnaryVisitor<Self>>(name: &str, v: V) -> Option<V::Output>;
    /// `v` run with the binary operator `name`; `None` where the type has none of that name.
    fn binary_named<V: BinaryVisitor<Self>>(name: &str, v: V) -> Option<V::Output>;
    /// `v` run with the select operator `name`; `None` where the type has none of that name.
    fn select_named<V: SelectVisitor<Self>>(name: &str, v: V) -> Option<V::Output>;
}

/// `match name { "a" => Some(v.visit::<A>()), ... }` and the list of the names.
macro_rules! table {
    ($names:ident, $named:ident, $visitor:ident, [$($op:ident),* $(,)?]) => {
        fn $names() -> &'static [&'static str] {
            &[$(stringify!($op)),*]
        }
        fn $named<V: $visitor<Self>>(name: &str, v: V) -> Option<V::Output> {
            match name {
                $(stringify!($op) => Some(v.visit::<table!(@ty $op)>()),)*
                _ => None,
            }
        }
    };
    (@ty identity) => { Identity };
    (@ty abs) => { Abs };
    (@ty neg) => { Neg };
    (@ty minv) => { Minv };
    (@ty one) => { One };
    (@ty lnot) => { LNot };
    (@ty first) => { First };
    (@ty second) => { Second };
    (@ty pair) => { Pair };
    (@ty plus) => { Plus };
    (@ty minus) => { Minus };
    (@ty times) => { Times };
    (@ty div) => { Div };
    (@ty min) => { Min };
    (@ty max) => { Max };
    (@ty eq) => { Eq };
    (@ty ne) => { Ne };
    (@ty lt) => { Lt };
    (@ty le) => { Le };
    (@ty gt) => { Gt };
    (@ty ge) => { Ge };
    (@ty lor) => { LOr };
    (@ty land) => { LAnd };
    (@ty lxor) => { LXor };
    (@ty tril) => { Tril };
    (@ty triu) => { Triu };
    (@ty strict_tril) => { StrictTril };
    (@ty strict_triu) => { StrictTriu };
    (@ty diag) => { Diag };
    (@ty offdiag) => { Offdiag };
    (@ty value_eq) => { ValueEq };
    (@ty value_ne) => { ValueNe };
    (@ty value_lt) => { ValueLt };
    (@ty value_le) => { ValueLe };
    (@ty value_gt) => { ValueGt };
    (@ty value_ge) => { ValueGe };
}

macro_rules! number_ops {
    ($($t:ty),*) => {$(
        impl NamedOps for $t {
            table!(unary_names, unary_named, UnaryVisitor, [identity, abs, neg, minv, one, lnot]);
            table!(binary_names, binary_named, BinaryVisitor, [
                first, second, pair, plus, minus, times, div, min, max, eq, ne, lt, le, gt, ge,
                lor, land,
            ]);
            table!(select_names, select_named, SelectVisitor, [
                tril, triu, strict_tril, strict_triu, diag, offdiag, value_eq, value_ne,
                value_lt, value_le, value_gt, value_ge,
            ]);
        }
    )*};
}
number_ops!(f16, bf16, f32, f64, i32, i64, u32);

impl NamedOps for bool {
    table!(
        unary_names,
        unary_named,
        UnaryVisitor,
        [identity, lnot, one]
    );
    table!(
        binary_names,
        binary_named,
        BinaryVisitor,
        [first, second, pair, lor, land, lxor, eq, ne, min, max,]
    );
    table!(
        select_names,
        select_named,
        SelectVisitor,
        [
            tril,
            triu,
            strict_tril,
            strict_triu,
            diag,
            offdiag,
            value_eq,
            value_ne,
        ]
    );
}

/// A packed distance and predecessor has no built-in operator: its values combine only through
/// the semiring of shortest paths with predecessors.
impl<D: PackedDist> NamedOps for DistPred<D> {
    fn unary_names() -> &'static [&'static str] {
        &[]
    }
    fn binary_names() -> &'static [&'static str] {
        &[]
    }
    fn select_names() -> &'static [&'static str] {
        &[]
    }
    fn unary_named<V: UnaryVisitor<Self>>(_: &str, _: V) -> Option<V::Output> {
        None
    }
    fn binary_named<V: BinaryVisitor<Self>>(_: &str, _: V) -> Option<V::Output> {
        None
    }
    fn select_named<V: SelectVisitor<Self>>(_: &str, _: V) -> Option<V::Output> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name the operator gives itself.
    struct Name;
    impl<T: Scalar> BinaryVisitor<T> for Name {
        type Output = String;
        fn visit<F: BinaryOperator<T>>(self) -> String {
            F::name()
        }
    }
    impl<T: Scalar> UnaryVisitor<T> for Name {
        type Output = String;
        fn visit<F: UnaryOperator<T>>(self) -> String {
            F::name()
        }
    }
    impl<T: Scalar> SelectVisitor<T> for Name {
        type Output = String;
        fn visit<P: SelectOperator<T>>(self) -> String {
            P::name()
        }
    }

    fn names_agree<T: NamedOps>() {
        for n in T::binary_names() {
            assert_eq!(T::binary_named(n, Name).as_deref(), Some(*n));
        }
        for n in T::unary_names() {
            assert_eq!(T::unary_named(n, Name).as_deref(), Some(*n));
        }
        for n in T::select_names() {
            assert_eq!(T::select_named(n, Name).as_deref(), Some(*n));
        }
        assert_eq!(T::binary_named("no_such", Name), None);
    }

    #[test]
    fn every_name_finds_the_operator_that_gives_it() {
        names_agree::<f16>();
        names_agree::<bf16>();
        names_agree::<f32>();
        names_agree::<f64>();
        names_agree::<i32>();
        names_agree::<i64>();
        names_agree::<u32>();
        names_agree::<bool>();
    }
}
