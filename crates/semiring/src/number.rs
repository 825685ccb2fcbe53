//! Numeric value types of the built-in semirings: [`Number`] (the arithmetic on the CPU and
//! its CUDA source, including an optional fast min-plus step), [`SignedNumber`],
//! [`IndexNumber`], and their implementations for `f16`, `bf16`, `f32`, `f64`, `i32`, `i64`
//! and `u32`.

use half::{bf16, f16};

use crate::scalar::Scalar;

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
    /// where it equals the exact one bit for bit ([`CudaSemiring::fast_fma`](crate::CudaSemiring::fast_fma)); `None`: none.
    const CUDA_MIN_PLUS_FAST: Option<(&'static str, &'static str)> = None;
    /// A packed 16-bit form of min-plus's inner step, as `(domain, encode, decode, fma2)`
    /// ([`crate::Packed16`]); `None`: none.
    const CUDA_MIN_PLUS_PACKED16: Option<[&'static str; 4]> = None;
    /// A native atomic statement over `p`, `v` for `op`, if CUDA has one for this type.
    fn native_atomic(op: AtomicOp) -> Option<&'static str>;
}

/// Numbers with a meaningful "minus infinity" (floats and signed integers), needed by
/// [`MaxPlus`](crate::MaxPlus), whose zero is the lowest value and whose one is 0.
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
    Some("atomicAdd(p, v);"),
    // Without NaN and -inf among the operands the zero (inf) needs no test to annihilate
    // (inf + finite is inf): the plain add and compare. Not `fmin`: the register-tile
    // kernel measured slower with it (217 ms against 183 ms at n = 8192 on the H100).
    Some(("a >= -1.7976931348623157e308", "(a + b < c ? a + b : c)"))
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
    // Operands in 0..=8191 or infinity (encoded as 16383): a sum of two finite ones is at most
    // 16382, one with infinity at least 16383, two infinities 32766, so no half overflows and
    // a result decodes exactly (>= 16383 is infinity, as saturating at i32::MAX gives).
    // __viaddmin_s16x2 computes min(a + b, c) on both halves: one DPX instruction on sm_90.
    const CUDA_MIN_PLUS_PACKED16: Option<[&'static str; 4]> = Some([
        "(a >= 0 && a <= 8191) || a == 2147483647",
        "a == 2147483647 ? 16383u : (unsigned int)a",
        "h >= 16383u ? 2147483647 : (int)h",
        "__viaddmin_s16x2(a, b, c)",
    ]);
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
