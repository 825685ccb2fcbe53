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
//! | [`MinSecondI`] | min | k | MAX | 0 | `u32`, `i32`, `i64` (BFS parents, smallest) |
//! | [`AnySecondI`] | any | k | MAX | 0 | `u32`, `i32`, `i64` (BFS parents, any) |
//! | [`MinPlusPred`] | lexicographic min | (d+w, k) | (inf, -) | (0, -) | [`DistPred`] of `f32`, `i32` |
//!
//! "Numbers" are `f16`, `bf16`, `f32`, `f64`, `i32`, `i64` and `u32`. Integer `+` in the
//! path semirings saturates, and the zero (an infinity) annihilates; integer `+` and `*` in
//! [`PlusTimes`] wrap, as they do in CUDA.

use std::fmt;
use std::marker::PhantomData;

use half::{bf16, f16};

use crate::scalar::{DistPred, NO_PRED, PackedDist, Scalar};
use crate::semiring::{CudaSemiring, Semiring};

/// Which native atomic a family needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// `atomicAdd`.
    Plus,
    /// `atomicMin`.
    Min,
    /// `atomicMax`.
    Max,
}

/// A numeric value type: the arithmetic the built-in semirings need, on the CPU and in CUDA.
pub trait Number: Scalar {
    /// The smallest value (`-inf` for floats).
    const LOWEST: Self;
    /// The largest value (`+inf` for floats).
    const HIGHEST: Self;
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Whether this is a floating-point type.
    const IS_FLOAT: bool;
    /// `a + b`, wrapping for integers.
    fn plus(self, b: Self) -> Self;
    /// `a * b`, wrapping for integers.
    fn times(self, b: Self) -> Self;
    /// `a + b`, saturating for integers.
    fn sat_plus(self, b: Self) -> Self;
    /// CUDA for [`Number::plus`] over `a`, `b`.
    const CUDA_PLUS: &'static str;
    /// CUDA for [`Number::times`] over `a`, `b`.
    const CUDA_TIMES: &'static str;
    /// CUDA for [`Number::sat_plus`] over `a`, `b`.
    const CUDA_SAT_PLUS: &'static str;
    /// Device functions the expressions above use.
    const CUDA_HELPERS: &'static str = "";
    /// A faster CUDA form of min-plus's inner step `min(c, a + b)` and the operand domain
    /// where it equals the exact one bit for bit ([`CudaSemiring::fast_fma`]); `None`: none.
    const CUDA_MIN_PLUS_FAST: Option<(&'static str, &'static str)> = None;
    /// A native atomic statement over `p`, `v` for `op`, if CUDA has one for this type.
    fn native_atomic(op: AtomicOp) -> Option<&'static str>;
}

/// Numbers with a meaningful "minus infinity" (floats and signed integers), needed by
/// [`MaxPlus`], whose zero is the lowest value and whose one is 0.
pub trait SignedNumber: Number {}

/// Integers usable as vertex indices by the index semirings.
pub trait IndexNumber: Number {
    /// Converts an inner index (a vertex id) to this type.
    fn from_index(k: u64) -> Self;
}

macro_rules! float_number {
    ($t:ty, $lo:expr, $hi:expr, $zero:expr, $one:expr, $add:expr) => {
        float_number!($t, $lo, $hi, $zero, $one, $add, None);
    };
    ($t:ty, $lo:expr, $hi:expr, $zero:expr, $one:expr, $add:expr, $fast:expr) => {
        impl Number for $t {
            const LOWEST: Self = $lo;
            const HIGHEST: Self = $hi;
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            const IS_FLOAT: bool = true;
            #[inline]
            fn plus(self, b: Self) -> Self {
                self + b
            }
            #[inline]
            fn times(self, b: Self) -> Self {
                self * b
            }
            #[inline]
            fn sat_plus(self, b: Self) -> Self {
                self + b
            }
            const CUDA_PLUS: &'static str = "a + b";
            const CUDA_TIMES: &'static str = "a * b";
            const CUDA_SAT_PLUS: &'static str = "a + b";
            const CUDA_MIN_PLUS_FAST: Option<(&'static str, &'static str)> = $fast;
            fn native_atomic(op: AtomicOp) -> Option<&'static str> {
                match op {
                    AtomicOp::Plus => $add,
                    _ => None,
                }
            }
        }
        impl SignedNumber for $t {}
    };
}

float_number!(
    f32,
    f32::NEG_INFINITY,
    f32::INFINITY,
    0.0,
    1.0,
    Some("atomicAdd(p, v);"),
    // Without NaN, -inf and -0 among the operands, no sum is NaN or -0, so `fminf` (one
    // instruction) picks what `b < a ? b : a` picks.
    Some((
        "a >= -3.402823466e38f && __float_as_uint(a) != 0x80000000u",
        "fminf(c, a + b)"
    ))
);
float_number!(
    f64,
    f64::NEG_INFINITY,
    f64::INFINITY,
    0.0,
    1.0,
    // No fast form: with `fmin` the register-tile kernel measured slower (217 ms against
    // 183 ms at n = 8192 on the H100, docs/BENCH-GPU.md).
    Some("atomicAdd(p, v);")
);
// 16-bit floats are semigraph's own CUDA structs (see `ScalarType::cuda_type_prelude`):
// their atomics are compare-and-swap loops.
float_number!(
    f16,
    f16::NEG_INFINITY,
    f16::INFINITY,
    f16::ZERO,
    f16::ONE,
    None
);
float_number!(
    bf16,
    bf16::NEG_INFINITY,
    bf16::INFINITY,
    bf16::ZERO,
    bf16::ONE,
    None
);

impl Number for i32 {
    const LOWEST: Self = i32::MIN;
    const HIGHEST: Self = i32::MAX;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const IS_FLOAT: bool = false;
    fn plus(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
    fn times(self, b: Self) -> Self {
        self.wrapping_mul(b)
    }
    fn sat_plus(self, b: Self) -> Self {
        self.saturating_add(b)
    }
    const CUDA_PLUS: &'static str = "(int)((unsigned int)a + (unsigned int)b)";
    const CUDA_TIMES: &'static str = "(int)((unsigned int)a * (unsigned int)b)";
    const CUDA_SAT_PLUS: &'static str = "sg_sat_add(a, b)";
    // Non-negative operands (infinity, i32::MAX, included): their sum as unsigned cannot
    // wrap, and the minimum with c <= i32::MAX is what saturating at i32::MAX and taking the
    // minimum give. __viaddmin_u32 is one DPX instruction on sm_90 (emulated before).
    const CUDA_MIN_PLUS_FAST: Option<(&'static str, &'static str)> = Some((
        "a >= 0",
        "(int)__viaddmin_u32((unsigned int)a, (unsigned int)b, (unsigned int)c)",
    ));
    const CUDA_HELPERS: &'static str = "\
__device__ __forceinline__ int sg_sat_add(int a, int b) {
    long long s = (long long)a + (long long)b;
    return s > 2147483647LL ? 2147483647 : (s < -2147483648LL ? (-2147483647 - 1) : (int)s);
}
";
    fn native_atomic(op: AtomicOp) -> Option<&'static str> {
        Some(match op {
            AtomicOp::Plus => "atomicAdd(p, v);",
            AtomicOp::Min => "atomicMin(p, v);",
            AtomicOp::Max => "atomicMax(p, v);",
        })
    }
}
impl SignedNumber for i32 {}

impl Number for i64 {
    const LOWEST: Self = i64::MIN;
    const HIGHEST: Self = i64::MAX;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const IS_FLOAT: bool = false;
    fn plus(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
    fn times(self, b: Self) -> Self {
        self.wrapping_mul(b)
    }
    fn sat_plus(self, b: Self) -> Self {
        self.saturating_add(b)
    }
    const CUDA_PLUS: &'static str = "(long long)((unsigned long long)a + (unsigned long long)b)";
    const CUDA_TIMES: &'static str = "(long long)((unsigned long long)a * (unsigned long long)b)";
    const CUDA_SAT_PLUS: &'static str = "sg_sat_add(a, b)";
    // As for i32: non-negative operands cannot wrap as unsigned.
    const CUDA_MIN_PLUS_FAST: Option<(&'static str, &'static str)> = Some((
        "a >= 0",
        "(long long)ullmin((unsigned long long)a + (unsigned long long)b, (unsigned long long)c)",
    ));
    const CUDA_HELPERS: &'static str = "\
__device__ __forceinline__ long long sg_sat_add(long long a, long long b) {
    long long s = (long long)((unsigned long long)a + (unsigned long long)b);
    if (((a ^ s) & (b ^ s)) < 0) return a < 0 ? (-9223372036854775807LL - 1LL) : 9223372036854775807LL;
    return s;
}
";
    fn native_atomic(op: AtomicOp) -> Option<&'static str> {
        Some(match op {
            AtomicOp::Plus => "atomicAdd((unsigned long long*)p, (unsigned long long)v);",
            AtomicOp::Min => "atomicMin(p, v);",
            AtomicOp::Max => "atomicMax(p, v);",
        })
    }
}
impl SignedNumber for i64 {}

impl Number for u32 {
    const LOWEST: Self = 0;
    const HIGHEST: Self = u32::MAX;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const IS_FLOAT: bool = false;
    fn plus(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
    fn times(self, b: Self) -> Self {
        self.wrapping_mul(b)
    }
    fn sat_plus(self, b: Self) -> Self {
        self.saturating_add(b)
    }
    const CUDA_PLUS: &'static str = "a + b";
    const CUDA_TIMES: &'static str = "a * b";
    const CUDA_SAT_PLUS: &'static str = "sg_sat_add(a, b)";
    const CUDA_HELPERS: &'static str = "\
__device__ __forceinline__ unsigned int sg_sat_add(unsigned int a, unsigned int b) {
    unsigned int s = a + b;
    return s < a ? 0xffffffffu : s;
}
";
    fn native_atomic(op: AtomicOp) -> Option<&'static str> {
        Some(match op {
            AtomicOp::Plus => "atomicAdd(p, v);",
            AtomicOp::Min => "atomicMin(p, v);",
            AtomicOp::Max => "atomicMax(p, v);",
        })
    }
}

impl IndexNumber for u32 {
    fn from_index(k: u64) -> Self {
        k as u32
    }
}
impl IndexNumber for i32 {
    fn from_index(k: u64) -> Self {
        k as i32
    }
}
impl IndexNumber for i64 {
    fn from_index(k: u64) -> Self {
        k as i64
    }
}

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

/// `a + b` where an infinite operand (`inf`) annihilates: plain `+` for floats, saturating
/// `+` with an explicit check for integers.
#[inline]
fn path_plus<T: Number>(a: T, b: T, inf: T) -> T {
    if !T::IS_FLOAT && (a == inf || b == inf) {
        inf
    } else {
        a.sat_plus(b)
    }
}

fn cuda_path_plus<T: Number>() -> String {
    if T::IS_FLOAT {
        T::CUDA_SAT_PLUS.to_string()
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
        match T::CUDA_MIN_PLUS_FAST {
            Some((domain, fma)) => c.fast_fma(domain, fma),
            None => c,
        }
    }
}

impl<T: SignedNumber> Semiring for MaxPlus<T> {
    type T = T;
    const NAME: &'static str = "max_plus";
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

impl<T: IndexNumber> Semiring for MinSecondI<T> {
    type T = T;
    const NAME: &'static str = "min_secondi";
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
