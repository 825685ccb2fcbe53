//! The built-in operators.
//!
//! | kind | operators | types |
//! |---|---|---|
//! | binary | [`First`], [`Second`], [`Pair`] (one), [`Plus`], [`Minus`], [`Times`], [`Div`], [`Min`], [`Max`], [`Eq`](struct@Eq), [`Ne`], [`Lt`], [`Le`], [`Gt`], [`Ge`] (one or zero), [`LOr`], [`LAnd`] | numbers |
//! | binary | [`First`], [`Second`], [`Pair`], [`LOr`], [`LAnd`], [`LXor`], [`Eq`](struct@Eq), [`Ne`], [`Min`] (and), [`Max`] (or) | `bool` |
//! | unary | [`Identity`], [`Abs`], [`Neg`], [`Minv`] (`1/x`), [`One`], [`LNot`] | numbers |
//! | unary | [`Identity`], [`LNot`], [`One`] | `bool` |
//! | select | [`Tril`], [`Triu`], [`StrictTril`], [`StrictTriu`], [`Diag`], [`Offdiag`] | every value type |
//! | select | [`ValueEq`], [`ValueNe`] | numbers, `bool` |
//! | select | [`ValueLt`], [`ValueLe`], [`ValueGt`], [`ValueGe`] (the value against the scalar) | numbers |
//!
//! "Numbers" are `f16`, `bf16`, `f32`, `f64`, `i32`, `i64` and `u32`. Integer arithmetic wraps
//! (as CUDA's does); integer division by zero gives the zero for `0 / 0` and the type's largest
//! (smallest) value for a positive (negative) numerator, as SuiteSparse:GraphBLAS defines it.
//! Comparisons return the one or the zero of the operand type (GraphBLAS's `GxB_ISLT`, ...).

use half::{bf16, f16};

use super::{BinaryOperator, CudaOp, OpKind, SelectOperator, UnaryOperator};
use crate::number::Number;
use crate::scalar::Scalar;

/// The arithmetic the built-in operators need beyond [`Number`], on the CPU and in CUDA, with
/// the same results bit for bit.
pub trait Arith: Number {
    /// `a - b` (wrapping for integers).
    fn minus(self, b: Self) -> Self;
    /// `a / b` (integers: see the [module docs](self) for division by zero).
    fn divide(self, b: Self) -> Self;
    /// `|x|` (wrapping for integers: the smallest value stays itself).
    fn absolute(self) -> Self;
    /// `-x` (wrapping for integers).
    fn negate(self) -> Self;
    /// CUDA `a - b`.
    const CUDA_MINUS: &'static str;
    /// CUDA `a / b`.
    const CUDA_DIVIDE: &'static str;
    /// CUDA `|x|`.
    const CUDA_ABS: &'static str;
    /// CUDA `-x`.
    const CUDA_NEG: &'static str;
}

macro_rules! float_arith {
    ($t:ty, $abs:expr, $neg:expr, $cabs:literal, $cneg:literal) => {
        impl Arith for $t {
            fn minus(self, b: Self) -> Self {
                self - b
            }
            fn divide(self, b: Self) -> Self {
                self / b
            }
            fn absolute(self) -> Self {
                ($abs)(self)
            }
            fn negate(self) -> Self {
                ($neg)(self)
            }
            const CUDA_MINUS: &'static str = "a - b";
            const CUDA_DIVIDE: &'static str = "a / b";
            const CUDA_ABS: &'static str = $cabs;
            const CUDA_NEG: &'static str = $cneg;
        }
    };
}

float_arith!(f32, |x: f32| x.abs(), |x: f32| -x, "fabsf(x)", "-x");
float_arith!(f64, |x: f64| x.abs(), |x: f64| -x, "fabs(x)", "-x");
float_arith!(
    f16,
    |x: f16| f16::from_bits(x.to_bits() & 0x7fff),
    |x: f16| f16::from_bits(x.to_bits() ^ 0x8000),
    "sg_f16_bits(x.x & 0x7fffu)",
    "sg_f16_bits(x.x ^ 0x8000u)"
);
float_arith!(
    bf16,
    |x: bf16| bf16::from_bits(x.to_bits() & 0x7fff),
    |x: bf16| bf16::from_bits(x.to_bits() ^ 0x8000),
    "sg_bf16_bits(x.x & 0x7fffu)",
    "sg_bf16_bits(x.x ^ 0x8000u)"
);

macro_rules! signed_arith {
    ($t:ty, $u:literal, $div:literal) => {
        impl Arith for $t {
            fn minus(self, b: Self) -> Self {
                self.wrapping_sub(b)
            }
            fn divide(self, b: Self) -> Self {
                if b == 0 {
                    if self == 0 {
                        0
                    } else if self < 0 {
                        <$t>::MIN
                    } else {
                        <$t>::MAX
                    }
                } else {
                    self.wrapping_div(b)
                }
            }
            fn absolute(self) -> Self {
                self.wrapping_abs()
            }
            fn negate(self) -> Self {
                self.wrapping_neg()
            }
            const CUDA_MINUS: &'static str = concat!("(sr_t)((", $u, ")a - (", $u, ")b)");
            const CUDA_DIVIDE: &'static str = $div;
            const CUDA_ABS: &'static str = concat!("x < 0 ? (sr_t)(0 - (", $u, ")x) : x");
            const CUDA_NEG: &'static str = concat!("(sr_t)(0 - (", $u, ")x)");
        }
    };
}

signed_arith!(
    i32,
    "unsigned int",
    "b == 0 ? (a == 0 ? 0 : (a < 0 ? (-2147483647 - 1) : 2147483647)) \
     : (b == -1 ? (int)(0u - (unsigned int)a) : a / b)"
);
signed_arith!(
    i64,
    "unsigned long long",
    "b == 0 ? (a == 0 ? 0LL : (a < 0 ? (-9223372036854775807LL - 1LL) : 9223372036854775807LL)) \
     : (b == -1 ? (long long)(0ull - (unsigned long long)a) : a / b)"
);

impl Arith for u32 {
    fn minus(self, b: Self) -> Self {
        self.wrapping_sub(b)
    }
    fn divide(self, b: Self) -> Self {
        match (self, b) {
            (0, 0) => 0,
            (_, 0) => u32::MAX,
            _ => self / b,
        }
    }
    fn absolute(self) -> Self {
        self
    }
    fn negate(self) -> Self {
        self.wrapping_neg()
    }
    const CUDA_MINUS: &'static str = "a - b";
    const CUDA_DIVIDE: &'static str = "b == 0u ? (a == 0u ? 0u : 0xffffffffu) : a / b";
    const CUDA_ABS: &'static str = "x";
    const CUDA_NEG: &'static str = "0u - x";
}

macro_rules! marker {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
    )*};
}

marker! {
    /// `a` (binary), `x` (unary: [`Identity`] is the unary form).
    First;
    /// `b`.
    Second;
    /// The one of the type, whatever the operands (GraphBLAS's `PAIR`, `ONEB`).
    Pair;
    /// `a + b`.
    Plus;
    /// `a - b`.
    Minus;
    /// `a * b`.
    Times;
    /// `a / b`.
    Div;
    /// The smaller of `a` and `b` (`b < a ? b : a`); `and` over `bool`.
    Min;
    /// The larger (`b > a ? b : a`); `or` over `bool`.
    Max;
    /// One if `a == b`, else zero.
    Eq;
    /// One if `a != b`, else zero.
    Ne;
    /// One if `a < b`, else zero.
    Lt;
    /// One if `a <= b`, else zero.
    Le;
    /// One if `a > b`, else zero.
    Gt;
    /// One if `a >= b`, else zero.
    Ge;
    /// One if `a` or `b` is not zero, else zero.
    LOr;
    /// One if `a` and `b` are both not zero, else zero.
    LAnd;
    /// `a != b` over `bool`.
    LXor;
    /// `x`.
    Identity;
    /// `|x|`.
    Abs;
    /// `-x`.
    Neg;
    /// `1 / x`.
    Minv;
    /// The one of the type.
    One;
    /// One if `x` is zero, else zero.
    LNot;
    /// Entries on or below the diagonal: `j <= i`.
    Tril;
    /// Entries on or above the diagonal: `j >= i`.
    Triu;
    /// Entries below the diagonal: `j < i`.
    StrictTril;
    /// Entries above the diagonal: `j > i`.
    StrictTriu;
    /// Entries on the diagonal: `j == i`.
    Diag;
    /// Entries off the diagonal: `j != i`.
    Offdiag;
    /// Entries whose value equals the scalar: `x == s`.
    ValueEq;
    /// `x != s`.
    ValueNe;
    /// `x < s`.
    ValueLt;
    /// `x <= s`.
    ValueLe;
    /// `x > s`.
    ValueGt;
    /// `x >= s`.
    ValueGe;
}

/// The one and the zero of `T` as CUDA literals.
fn one_zero<T: Number>() -> (String, String) {
    (T::ONE.cuda_literal(), T::ZERO.cuda_literal())
}

macro_rules! binary {
    ($op:ident, $key:literal, [$($g:tt)*] $t:ty, |$a:ident, $b:ident| $cpu:expr, $cuda:expr) => {
        impl<$($g)*> BinaryOperator<$t> for $op {
            fn name() -> String {
                $key.into()
            }
            #[inline]
            fn apply($a: $t, $b: $t) -> $t {
                $cpu
            }
            fn cuda() -> CudaOp {
                CudaOp::new::<$t>(OpKind::Binary, $key, $cuda)
            }
        }
    };
}

macro_rules! unary {
    ($op:ident, $key:literal, [$($g:tt)*] $t:ty, |$x:ident| $cpu:expr, $cuda:expr) => {
        impl<$($g)*> UnaryOperator<$t> for $op {
            fn name() -> String {
                $key.into()
            }
            #[inline]
            fn apply($x: $t) -> $t {
                $cpu
            }
            fn cuda() -> CudaOp {
                CudaOp::new::<$t>(OpKind::Unary, $key, $cuda)
            }
        }
    };
}

macro_rules! select {
    ($op:ident, $key:literal, [$($g:tt)*] $t:ty, |$x:ident, $i:ident, $j:ident, $s:ident| $cpu:expr, $cuda:expr) => {
        select!($op, $key, [$($g)*] $t, |$x, $i, $j, $s| $cpu, $cuda, |i| { let _ = i; None });
    };
    ($op:ident, $key:literal, [$($g:tt)*] $t:ty, |$x:ident, $i:ident, $j:ident, $s:ident| $cpu:expr, $cuda:expr, |$r:ident| $columns:expr) => {
        impl<$($g)*> SelectOperator<$t> for $op {
            fn name() -> String {
                $key.into()
            }
            #[inline]
            fn keep($x: $t, $i: u64, $j: u64, $s: $t) -> bool {
                let _ = ($x, $i, $j, $s);
                $cpu
            }
            fn cuda() -> CudaOp {
                CudaOp::new::<$t>(OpKind::Select, $key, $cuda)
            }
            fn columns($r: u64) -> Option<(u64, u64)> {
                $columns
            }
        }
    };
}

/// One or zero of `T` for a condition.
#[inline]
fn is<T: Number>(c: bool) -> T {
    if c { T::ONE } else { T::ZERO }
}

/// A condition over `a` and `b` as the one or zero of the type, in CUDA.
fn cuda_is<T: Number>(cond: &str) -> String {
    let (one, zero) = one_zero::<T>();
    format!("({cond}) ? {one} : {zero}")
}

binary!(First, "first", [T: Number] T, |a, b| { let _ = b; a }, "a");
binary!(Second, "second", [T: Number] T, |a, b| { let _ = a; b }, "b");
binary!(Pair, "pair", [T: Number] T, |a, b| { let _ = (a, b); T::ONE }, one_zero::<T>().0);
binary!(Plus, "plus", [T: Number] T, |a, b| a.plus(b), T::CUDA_PLUS);
binary!(Times, "times", [T: Number] T, |a, b| a.times(b), T::CUDA_TIMES);
binary!(Minus, "minus", [T: Arith] T, |a, b| a.minus(b), T::CUDA_MINUS);
binary!(Div, "div", [T: Arith] T, |a, b| a.divide(b), T::CUDA_DIVIDE);
binary!(Min, "min", [T: Number] T, |a, b| if b < a { b } else { a }, "b < a ? b : a");
binary!(Max, "max", [T: Number] T, |a, b| if b > a { b } else { a }, "b > a ? b : a");
binary!(Eq, "eq", [T: Number] T, |a, b| is(a == b), cuda_is::<T>("a == b"));
binary!(Ne, "ne", [T: Number] T, |a, b| is(a != b), cuda_is::<T>("a != b"));
binary!(Lt, "lt", [T: Number] T, |a, b| is(a < b), cuda_is::<T>("a < b"));
binary!(Le, "le", [T: Number] T, |a, b| is(a <= b), cuda_is::<T>("a <= b"));
binary!(Gt, "gt", [T: Number] T, |a, b| is(a > b), cuda_is::<T>("a > b"));
binary!(Ge, "ge", [T: Number] T, |a, b| is(a >= b), cuda_is::<T>("a >= b"));
binary!(LOr, "lor", [T: Number] T, |a, b| is(a != T::ZERO || b != T::ZERO),
    { let z = one_zero::<T>().1; cuda_is::<T>(&format!("a != {z} || b != {z}")) });
binary!(LAnd, "land", [T: Number] T, |a, b| is(a != T::ZERO && b != T::ZERO),
    { let z = one_zero::<T>().1; cuda_is::<T>(&format!("a != {z} && b != {z}")) });

binary!(First, "first", [] bool, |a, b| { let _ = b; a }, "a");
binary!(Second, "second", [] bool, |a, b| { let _ = a; b }, "b");
binary!(Pair, "pair", [] bool, |a, b| { let _ = (a, b); true }, "true");
binary!(LOr, "lor", [] bool, |a, b| a || b, "a || b");
binary!(LAnd, "land", [] bool, |a, b| a && b, "a && b");
binary!(LXor, "lxor", [] bool, |a, b| a != b, "a != b");
binary!(Eq, "eq", [] bool, |a, b| a == b, "a == b");
binary!(Ne, "ne", [] bool, |a, b| a != b, "a != b");
binary!(Min, "min", [] bool, |a, b| a && b, "a && b");
binary!(Max, "max", [] bool, |a, b| a || b, "a || b");

unary!(Identity, "identity", [T: Number] T, |x| x, "x");
unary!(Abs, "abs", [T: Arith] T, |x| x.absolute(), T::CUDA_ABS);
unary!(Neg, "neg", [T: Arith] T, |x| x.negate(), T::CUDA_NEG);
impl<T: Arith> UnaryOperator<T> for Minv {
    fn name() -> String {
        "minv".into()
    }
    #[inline]
    fn apply(x: T) -> T {
        T::ONE.divide(x)
    }
    fn cuda() -> CudaOp {
        let one = one_zero::<T>().0;
        CudaOp::new::<T>(OpKind::Unary, "minv", format!("sg_divide({one}, x)")).helpers(&format!(
            "__device__ __forceinline__ sr_t sg_divide(sr_t a, sr_t b) {{ return ({}); }}",
            T::CUDA_DIVIDE
        ))
    }
}
unary!(One, "one", [T: Number] T, |x| { let _ = x; T::ONE }, one_zero::<T>().0);
unary!(LNot, "lnot", [T: Number] T, |x| is(x == T::ZERO),
    { let z = one_zero::<T>().1; cuda_is::<T>(&format!("x == {z}")) });
unary!(Identity, "identity", [] bool, |x| x, "x");
unary!(LNot, "lnot", [] bool, |x| !x, "!x");
unary!(One, "one", [] bool, |x| { let _ = x; true }, "true");

select!(Tril, "tril", [T: Scalar] T, |x, i, j, s| j <= i, "j <= i", |i| Some((0, i + 1)));
select!(Triu, "triu", [T: Scalar] T, |x, i, j, s| j >= i, "j >= i", |i| Some((i, u64::MAX)));
select!(StrictTril, "strict_tril", [T: Scalar] T, |x, i, j, s| j < i, "j < i", |i| Some((0, i)));
select!(StrictTriu, "strict_triu", [T: Scalar] T, |x, i, j, s| j > i, "j > i", |i| Some((i + 1, u64::MAX)));
select!(Diag, "diag", [T: Scalar] T, |x, i, j, s| j == i, "j == i", |i| Some((i, i + 1)));
select!(Offdiag, "offdiag", [T: Scalar] T, |x, i, j, s| j != i, "j != i");
select!(ValueEq, "value_eq", [T: Number] T, |x, i, j, s| x == s, "x == s");
select!(ValueNe, "value_ne", [T: Number] T, |x, i, j, s| x != s, "x != s");
select!(ValueLt, "value_lt", [T: Number] T, |x, i, j, s| x < s, "x < s");
select!(ValueLe, "value_le", [T: Number] T, |x, i, j, s| x <= s, "x <= s");
select!(ValueGt, "value_gt", [T: Number] T, |x, i, j, s| x > s, "x > s");
select!(ValueGe, "value_ge", [T: Number] T, |x, i, j, s| x >= s, "x >= s");
select!(ValueEq, "value_eq", [] bool, |x, i, j, s| x == s, "x == s");
select!(ValueNe, "value_ne", [] bool, |x, i, j, s| x != s, "x != s");

#[cfg(test)]
mod tests {
    use super::*;

    /// Where an operator names its columns, they are exactly the entries `keep` keeps.
    fn columns_agree<P: SelectOperator<i32>>() -> bool {
        (0..7u64).all(|i| match P::columns(i) {
            Some((lo, hi)) => (0..7u64).all(|j| P::keep(5, i, j, 0) == (lo <= j && j < hi)),
            None => true,
        })
    }

    #[test]
    fn positional_columns_match_keep() {
        assert!(columns_agree::<Tril>());
        assert!(columns_agree::<Triu>());
        assert!(columns_agree::<StrictTril>());
        assert!(columns_agree::<StrictTriu>());
        assert!(columns_agree::<Diag>());
        assert!(
            <Tril as SelectOperator<i32>>::columns(3).is_some()
                && <Offdiag as SelectOperator<i32>>::columns(3).is_none()
        );
        assert!(<ValueGt as SelectOperator<i32>>::columns(0).is_none());
    }
}
