//! The built-in semirings.
//!
//! | marker | add | mul | zero | one | types |
//! |---|---|---|---|---|---|
//! | [`PlusTimes`] | `+` | `*` | 0 | 1 | all numbers |
//! | [`MinPlus`] | min | `+` | +inf / MAX | 0 | all numbers |
//! | [`MaxPlus`] | max | `+` | -inf / MIN | 0 | floats, signed integers |
//! | [`MaxMin`] | max | min | -inf / MIN | +inf / MAX | all numbers (widest path) |
//! | [`MinMax`] | min | max | +inf / MAX | -inf / MIN | all numbers (minimax path) |
//! | [`OrAnd`] | or | and | false | true | `bool` (reachability) |
//! | [`MinSecond`] | min | second (`b`) | +inf / MAX | 0 (left identity) | `u32`, `i64`, `f64` (labels along arcs: `FastSV`, label propagation) |
//! | [`MinFirst`] | min | first (`a`) | +inf / MAX | 0 (right identity) | `u32`, `i64`, `f64` |
//! | [`MinSecondI`] | min | k | MAX | 0 | `u32`, `i32`, `i64` (BFS parents, smallest) |
//! | [`AnySecondI`] | any | k | MAX | 0 | `u32`, `i32`, `i64` (BFS parents, any) |
//! | [`MinPlusPred`] | lexicographic min | (d+w, k) | (inf, -) | (0, -) | [`DistPred`] of `f32`, `i32` |
//!
//! "Numbers" are `f16`, `bf16`, `f32`, `f64`, `i32`, `i64` and `u32`. In the path semirings
//! the zero (an infinity) annihilates `+` for every type (`inf + -inf` is min-plus's `inf`,
//! not NaN), and integer `+` saturates; integer `+` and `*` in [`PlusTimes`] wrap, as they do
//! in CUDA. What each operation computes is declared ([`Semiring::ADD`], [`Semiring::MUL`]),
//! so that callers can find a product's exact value and refuse one the type cannot hold.

use std::fmt;
use std::marker::PhantomData;

use crate::number::{AtomicOp, IndexNumber, Number, SignedNumber};
use crate::scalar::{DistPred, NO_PRED, PackedDist, Scalar};
use crate::semiring::{CudaSemiring, Op, Semiring};

#[inline]
fn min<T: PartialOrd>(a: T, b: T) -> T {
    // The same expression as the CUDA `(b < a ? b : a)`, so NaN behaves identically.
    if b < a { b } else { a }
}

#[inline]
fn max<T: PartialOrd>(a: T, b: T) -> T {
    if b > a { b } else { a }
}

const CUDA_MIN: &str = "b < a ? b : a";
const CUDA_MAX: &str = "b > a ? b : a";

/// Declares a zero-sized marker type generic over its value type.
macro_rules! marker {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        pub struct $name<T>(PhantomData<fn() -> T>);
        impl<T> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<T> Copy for $name<T> {}
        impl<T> PartialEq for $name<T> {
            fn eq(&self, _: &Self) -> bool {
                true
            }
        }
        impl<T> Eq for $name<T> {}
        impl<T> Default for $name<T> {
            fn default() -> Self {
                $name(PhantomData)
            }
        }
        impl<T> fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}<{}>", stringify!($name), std::any::type_name::<T>())
            }
        }
    };
}

marker!(
    /// `(+, *)` with zero 0 and one 1: ordinary linear algebra (`PageRank`, path counting).
    PlusTimes
);
marker!(
    /// `(min, +)` with zero +inf and one 0: shortest paths (Bellman-Ford, APSP).
    MinPlus
);
marker!(
    /// `(min, second)` with zero +inf / MAX: `A (+).(x) x` takes, for each row, the smallest
    /// `x(k)` over its entries (GraphBLAS's `MIN_SECOND`: labels along arcs, `FastSV`'s
    /// minimum of the neighbours' parents). The product of two entries is the right one (zero
    /// if either is zero); `one` (0) is a left identity only.
    MinSecond
);
marker!(
    /// `(min, first)` with zero +inf / MAX: the smallest matrix entry of each row meeting an
    /// entry of `x` (GraphBLAS's `MIN_FIRST`). `one` (0) is a right identity only.
    MinFirst
);
marker!(
    /// `(max, +)` with zero -inf and one 0: longest paths in DAGs, critical paths.
    MaxPlus
);
marker!(
    /// `(max, min)` with zero -inf and one +inf: widest (bottleneck) paths.
    MaxMin
);
marker!(
    /// `(min, max)` with zero +inf and one -inf: minimax paths (the largest edge on the path
    /// is as small as possible).
    MinMax
);
marker!(
    /// `(min, secondi)`: `mul_at(a, x, k) = k`, so `y[i]` is the smallest index `k` of a
    /// vector entry that reaches `i`: the smallest BFS parent. Zero is `MAX`.
    MinSecondI
);
marker!(
    /// `(any, secondi)`: like [`MinSecondI`] but the addition keeps whichever non-zero value
    /// it sees first, so a GPU may return any valid parent (and stop at the first).
    AnySecondI
);
marker!(
    /// `(lexicographic min, (d + w, k))` over packed [`DistPred`] pairs: shortest distances
    /// with predecessors in one product. `mul_at(w, (d, p), k) = (d + w, k)`; ties on the
    /// distance go to the smallest predecessor, so results are deterministic.
    MinPlusPred
);

impl<T: Number> Semiring for PlusTimes<T> {
    type T = T;
    const NAME: &'static str = "plus_times";
    const ADD: Op = Op::Plus;
    const MUL: Op = Op::Times;
    fn zero() -> T {
        T::ZERO
    }
    fn one() -> T {
        T::ONE
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        a.plus(b)
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        a.times(b)
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>(T::CUDA_PLUS, T::CUDA_TIMES)
            .helpers(T::CUDA_HELPERS)
            .native_atomic(T::native_atomic(AtomicOp::Plus))
    }
}

/// `a + b` where the semiring's zero (`inf`, an infinity) annihilates: integer `+`
/// saturates, with an explicit test for the zero; for floats `inf + x` is `inf` already but
/// for `inf + -inf`, which is NaN, so a NaN sum is the zero (one test of the sum, cheaper in
/// the relaxation kernels than two of the operands).
#[inline]
fn path_plus<T: Number>(a: T, b: T, inf: T) -> T {
    if T::IS_FLOAT {
        let r = a.sat_plus(b);
        #[allow(clippy::eq_op)] // false only for NaN
        if r == r { r } else { inf }
    } else if a == inf || b == inf {
        inf
    } else {
        a.sat_plus(b)
    }
}

fn cuda_path_plus<T: Number>() -> String {
    if T::IS_FLOAT {
        "((a + b) == (a + b) ? (a + b) : SR_ZERO)".to_string()
    } else {
        format!(
            "(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : {}",
            T::CUDA_SAT_PLUS
        )
    }
}

impl<T: Number> Semiring for MinPlus<T> {
    type T = T;
    const NAME: &'static str = "min_plus";
    const ADD: Op = Op::Min;
    const MUL: Op = Op::Plus;
    const HAS_TERMINAL: bool = true;
    fn zero() -> T {
        T::HIGHEST
    }
    fn one() -> T {
        T::ZERO
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        min(a, b)
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        path_plus(a, b, T::HIGHEST)
    }
    fn is_terminal(a: T) -> bool {
        a == T::LOWEST
    }
    fn cuda() -> CudaSemiring {
        let c = CudaSemiring::new::<Self>(CUDA_MIN, cuda_path_plus::<T>())
            .terminal(format!("a == {}", T::LOWEST.cuda_literal()))
            .helpers(T::CUDA_HELPERS)
            .native_atomic(T::native_atomic(AtomicOp::Min));
        let c = match T::CUDA_MIN_PLUS_FAST {
            Some((domain, fma)) => c.fast_fma(domain, fma),
            None => c,
        };
        match T::CUDA_MIN_PLUS_PACKED16 {
            Some([domain, encode, decode, fma2]) => c.packed16(crate::Packed16 {
                domain: domain.into(),
                encode: encode.into(),
                decode: decode.into(),
                fma2: fma2.into(),
            }),
            None => c,
        }
    }
}

impl<T: SignedNumber> Semiring for MaxPlus<T> {
    type T = T;
    const NAME: &'static str = "max_plus";
    const ADD: Op = Op::Max;
    const MUL: Op = Op::Plus;
    const HAS_TERMINAL: bool = true;
    fn zero() -> T {
        T::LOWEST
    }
    fn one() -> T {
        T::ZERO
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        max(a, b)
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        path_plus(a, b, T::LOWEST)
    }
    fn is_terminal(a: T) -> bool {
        a == T::HIGHEST
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>(CUDA_MAX, cuda_path_plus::<T>())
            .terminal(format!("a == {}", T::HIGHEST.cuda_literal()))
            .helpers(T::CUDA_HELPERS)
            .native_atomic(T::native_atomic(AtomicOp::Max))
    }
}

impl<T: Number> Semiring for MaxMin<T> {
    type T = T;
    const NAME: &'static str = "max_min";
    const ADD: Op = Op::Max;
    const MUL: Op = Op::Min;
    const HAS_TERMINAL: bool = true;
    fn zero() -> T {
        T::LOWEST
    }
    fn one() -> T {
        T::HIGHEST
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        max(a, b)
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        min(a, b)
    }
    fn is_terminal(a: T) -> bool {
        a == T::HIGHEST
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>(CUDA_MAX, CUDA_MIN)
            .terminal(format!("a == {}", T::HIGHEST.cuda_literal()))
            .native_atomic(T::native_atomic(AtomicOp::Max))
    }
}

impl<T: Number> Semiring for MinMax<T> {
    type T = T;
    const NAME: &'static str = "min_max";
    const ADD: Op = Op::Min;
    const MUL: Op = Op::Max;
    const HAS_TERMINAL: bool = true;
    fn zero() -> T {
        T::HIGHEST
    }
    fn one() -> T {
        T::LOWEST
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        min(a, b)
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        max(a, b)
    }
    fn is_terminal(a: T) -> bool {
        a == T::LOWEST
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>(CUDA_MIN, CUDA_MAX)
            .terminal(format!("a == {}", T::LOWEST.cuda_literal()))
            .native_atomic(T::native_atomic(AtomicOp::Min))
    }
}

/// `(or, and)` over `bool`: reachability and BFS without parents. `true` is terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrAnd;

impl Semiring for OrAnd {
    type T = bool;
    const NAME: &'static str = "or_and";
    const ADD: Op = Op::Select;
    const MUL: Op = Op::Select;
    const HAS_TERMINAL: bool = true;
    fn zero() -> bool {
        false
    }
    fn one() -> bool {
        true
    }
    #[inline]
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline]
    fn mul(a: bool, b: bool) -> bool {
        a & b
    }
    fn is_terminal(a: bool) -> bool {
        a
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>("a || b", "a && b").terminal("a")
    }
}

/// `(min, second)` and `(min, first)`: the product keeps one operand unless either is zero;
/// `one` (0) is an identity on the other side only.
macro_rules! min_keep {
    ($marker:ident, $name:literal, $one_side:ident, |$a:ident, $b:ident| $keep:expr, $cuda:literal) => {
        impl<T: Number> Semiring for $marker<T> {
            type T = T;
            const NAME: &'static str = $name;
            const ADD: Op = Op::Min;
            const MUL: Op = Op::Select;
            const $one_side: bool = false;
            fn zero() -> T {
                T::HIGHEST
            }
            fn one() -> T {
                T::ZERO
            }
            #[inline]
            fn add(a: T, b: T) -> T {
                min(a, b)
            }
            #[inline]
            fn mul($a: T, $b: T) -> T {
                if $a == T::HIGHEST || $b == T::HIGHEST {
                    T::HIGHEST
                } else {
                    $keep
                }
            }
            fn cuda() -> CudaSemiring {
                CudaSemiring::new::<Self>(
                    CUDA_MIN,
                    concat!("(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : ", $cuda),
                )
                .native_atomic(T::native_atomic(AtomicOp::Min))
            }
        }
    };
}

min_keep!(MinSecond, "min_second", ONE_RIGHT, |a, b| b, "b");
min_keep!(MinFirst, "min_first", ONE_LEFT, |a, b| a, "a");

impl<T: IndexNumber> Semiring for MinSecondI<T> {
    type T = T;
    const NAME: &'static str = "min_secondi";
    const ADD: Op = Op::Min;
    const MUL: Op = Op::Select;
    const USES_INDEX: bool = true;
    const HAS_TERMINAL: bool = true;
    const FIRST_WINS: bool = true;
    fn zero() -> T {
        T::HIGHEST
    }
    fn one() -> T {
        T::ZERO
    }
    #[inline]
    fn add(a: T, b: T) -> T {
        min(a, b)
    }
    /// Without an index, `second`: `b` unless an operand is zero.
    #[inline]
    fn mul(a: T, b: T) -> T {
        if a == T::HIGHEST || b == T::HIGHEST {
            T::HIGHEST
        } else {
            b
        }
    }
    #[inline]
    fn mul_at(a: T, b: T, k: u64) -> T {
        if a == T::HIGHEST || b == T::HIGHEST {
            T::HIGHEST
        } else {
            T::from_index(k)
        }
    }
    fn is_terminal(a: T) -> bool {
        a == T::ZERO
    }
    fn cuda() -> CudaSemiring {
        let ty = <T as Scalar>::TYPE.cuda_type();
        CudaSemiring::new::<Self>(
            CUDA_MIN,
            format!("(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : ({ty})k"),
        )
        .terminal(format!("a == {}", T::ZERO.cuda_literal()))
        .native_atomic(T::native_atomic(AtomicOp::Min))
    }
}

impl<T: IndexNumber> Semiring for AnySecondI<T> {
    type T = T;
    const NAME: &'static str = "any_secondi";
    const ADD: Op = Op::Any;
    const MUL: Op = Op::Select;
    const USES_INDEX: bool = true;
    const HAS_TERMINAL: bool = true;
    fn zero() -> T {
        T::HIGHEST
    }
    fn one() -> T {
        T::ZERO
    }
    /// Keeps `a` unless it is zero. Associative; commutative up to which valid value is kept.
    #[inline]
    fn add(a: T, b: T) -> T {
        if a == T::HIGHEST { b } else { a }
    }
    #[inline]
    fn mul(a: T, b: T) -> T {
        if a == T::HIGHEST || b == T::HIGHEST {
            T::HIGHEST
        } else {
            b
        }
    }
    #[inline]
    fn mul_at(a: T, b: T, k: u64) -> T {
        if a == T::HIGHEST || b == T::HIGHEST {
            T::HIGHEST
        } else {
            T::from_index(k)
        }
    }
    fn is_terminal(a: T) -> bool {
        a != T::HIGHEST
    }
    fn cuda() -> CudaSemiring {
        let ty = <T as Scalar>::TYPE.cuda_type();
        CudaSemiring::new::<Self>(
            "a == SR_ZERO ? b : a",
            format!("(a == SR_ZERO || b == SR_ZERO) ? SR_ZERO : ({ty})k"),
        )
        .terminal("a != SR_ZERO")
    }
}

impl<D: PackedDist> Semiring for MinPlusPred<D> {
    type T = DistPred<D>;
    const NAME: &'static str = "min_plus_pred";
    const USES_INDEX: bool = true;
    fn zero() -> DistPred<D> {
        DistPred::unreachable()
    }
    fn one() -> DistPred<D> {
        DistPred::new(D::ZERO, NO_PRED)
    }
    #[inline]
    fn add(a: DistPred<D>, b: DistPred<D>) -> DistPred<D> {
        if b < a { b } else { a }
    }
    /// Only a strictly smaller distance improves; a tie keeps the old predecessor.
    #[inline]
    fn improves(old: DistPred<D>, new: DistPred<D>) -> bool {
        (new.bits() >> 32) < (old.bits() >> 32)
    }
    /// Without an index the product keeps `b`'s predecessor.
    #[inline]
    fn mul(a: DistPred<D>, b: DistPred<D>) -> DistPred<D> {
        Self::pred_plus(a, b, b.pred())
    }
    #[inline]
    fn mul_at(a: DistPred<D>, b: DistPred<D>, k: u64) -> DistPred<D> {
        Self::pred_plus(a, b, k as u32)
    }
    fn cuda() -> CudaSemiring {
        CudaSemiring::new::<Self>(CUDA_MIN, "sg_dp_mul(a, b, (unsigned int)k)")
            .improves("(b >> 32) < (a >> 32)")
            .helpers(D::CUDA_HELPERS)
            .helpers(
                "__device__ __forceinline__ unsigned long long sg_dp_mul(unsigned long long a, \
                 unsigned long long b, unsigned int pred) {
    if (a == SR_ZERO || b == SR_ZERO) return SR_ZERO;
    unsigned int ea = (unsigned int)(a >> 32), eb = (unsigned int)(b >> 32);
    if (ea == sg_dp_enc(SG_DP_INF) || eb == sg_dp_enc(SG_DP_INF)) return SR_ZERO;
    unsigned int e = sg_dp_enc(sg_dp_add(sg_dp_dec(ea), sg_dp_dec(eb)));
    if (e == sg_dp_enc(SG_DP_INF)) return SR_ZERO;
    return ((unsigned long long)e << 32) | (unsigned long long)pred;
}
",
            )
            .native_atomic(Some("atomicMin(p, v);"))
    }
}

impl<D: PackedDist> MinPlusPred<D> {
    #[inline]
    fn pred_plus(a: DistPred<D>, b: DistPred<D>, pred: u32) -> DistPred<D> {
        let inf = D::INFINITY;
        if a.dist() == inf || b.dist() == inf {
            return DistPred::unreachable();
        }
        let d = a.dist().sat_add(b.dist());
        if d == inf {
            DistPred::unreachable()
        } else {
            DistPred::new(d, pred)
        }
    }
}
