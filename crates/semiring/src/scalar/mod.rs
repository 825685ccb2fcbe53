//! Value types a semiring computes on, with their CUDA spelling.

use std::fmt;
use std::marker::PhantomData;

use half::{bf16, f16};

/// Every value type that semigraph's kernels are generated for.
///
/// The [`ScalarType::name`] is the short name used in kernel keys (`f32`, `dpf32`, ...),
/// so a kernel name seen in a profiler can be read back with [`ScalarType::from_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ScalarType {
    /// `bool` (1 byte; CUDA `bool`).
    Bool,
    /// `i32` (CUDA `int`).
    I32,
    /// `i64` (CUDA `long long`).
    I64,
    /// `u32` (CUDA `unsigned int`).
    U32,
    /// `u64` (CUDA `unsigned long long`).
    U64,
    /// IEEE half precision (`half::f16`, CUDA `__half`).
    F16,
    /// bfloat16 (`half::bf16`, CUDA `__nv_bfloat16`).
    Bf16,
    /// `f32` (CUDA `float`).
    F32,
    /// `f64` (CUDA `double`).
    F64,
    /// [`DistPred<f32>`]: an `f32` distance and a `u32` predecessor packed in 64 bits.
    DistPredF32,
    /// [`DistPred<i32>`]: an `i32` distance and a `u32` predecessor packed in 64 bits.
    DistPredI32,
}

impl ScalarType {
    /// All scalar types, in a fixed order.
    pub const ALL: [ScalarType; 11] = [
        ScalarType::Bool,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::U32,
        ScalarType::U64,
        ScalarType::F16,
        ScalarType::Bf16,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::DistPredF32,
        ScalarType::DistPredI32,
    ];

    /// Short name used in kernel keys and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::U32 => "u32",
            ScalarType::U64 => "u64",
            ScalarType::F16 => "f16",
            ScalarType::Bf16 => "bf16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
            ScalarType::DistPredF32 => "dpf32",
            ScalarType::DistPredI32 => "dpi32",
        }
    }

    /// Inverse of [`ScalarType::name`].
    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The CUDA C++ type of a value.
    pub const fn cuda_type(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I32 => "int",
            ScalarType::I64 => "long long",
            ScalarType::U32 => "unsigned int",
            ScalarType::U64 => "unsigned long long",
            ScalarType::F16 => "sg_f16",
            ScalarType::Bf16 => "sg_bf16",
            ScalarType::F32 => "float",
            ScalarType::F64 => "double",
            ScalarType::DistPredF32 | ScalarType::DistPredI32 => "unsigned long long",
        }
    }

    /// CUDA definitions this type needs, if any.
    ///
    /// `f16` and `bf16` are defined here rather than through `cuda_fp16.h`/`cuda_bf16.h`,
    /// which NVRTC does not ship: a 2-byte struct with `+`, `-`, `*`, `/` and comparisons computed in
    /// `f32` and rounded once to nearest-even, which is exactly how `half` computes on the
    /// CPU (an `f32` result of two 16-bit operands, rounded once, is correctly rounded).
    pub const fn cuda_type_prelude(self) -> Option<&'static str> {
        match self {
            ScalarType::F16 => Some(CUDA_F16),
            ScalarType::Bf16 => Some(CUDA_BF16),
            _ => None,
        }
    }

    /// Size of one value in bytes (the same on the host and on the device).
    pub const fn size_bytes(self) -> usize {
        match self {
            ScalarType::Bool => 1,
            ScalarType::F16 | ScalarType::Bf16 => 2,
            ScalarType::I32 | ScalarType::U32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::U64 | ScalarType::F64 => 8,
            ScalarType::DistPredF32 | ScalarType::DistPredI32 => 8,
        }
    }

    /// Whether the type is a floating-point type (results are compared with a tolerance).
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::F16 | ScalarType::Bf16 | ScalarType::F32 | ScalarType::F64
        )
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! cuda_half_type {
    ($t:literal, $to_f32:literal, $from_f32:literal) => {
        concat!(
            "struct ",
            $t,
            " { unsigned short x; };\n",
            "__device__ __forceinline__ ",
            $t,
            " ",
            $t,
            "_bits(unsigned int b) { ",
            $t,
            " h; h.x = (unsigned short)b; return h; }\n",
            "__device__ __forceinline__ float ",
            $t,
            "_to_f32(",
            $t,
            " h) { ",
            $to_f32,
            " }\n",
            "__device__ __forceinline__ ",
            $t,
            " ",
            $t,
            "_from_f32(float f) { ",
            $t,
            " h; ",
            $from_f32,
            " return h; }\n",
            "__device__ __forceinline__ ",
            $t,
            " operator+(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_from_f32(",
            $t,
            "_to_f32(a) + ",
            $t,
            "_to_f32(b)); }\n",
            "__device__ __forceinline__ ",
            $t,
            " operator*(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_from_f32(",
            $t,
            "_to_f32(a) * ",
            $t,
            "_to_f32(b)); }\n",
            "__device__ __forceinline__ ",
            $t,
            " operator-(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_from_f32(",
            $t,
            "_to_f32(a) - ",
            $t,
            "_to_f32(b)); }\n",
            "__device__ __forceinline__ ",
            $t,
            " operator/(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_from_f32(",
            $t,
            "_to_f32(a) / ",
            $t,
            "_to_f32(b)); }\n",
            "__device__ __forceinline__ bool operator<=(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_to_f32(a) <= ",
            $t,
            "_to_f32(b); }\n",
            "__device__ __forceinline__ bool operator>=(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_to_f32(a) >= ",
            $t,
            "_to_f32(b); }\n",
            "__device__ __forceinline__ bool operator<(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_to_f32(a) < ",
            $t,
            "_to_f32(b); }\n",
            "__device__ __forceinline__ bool operator>(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_to_f32(a) > ",
            $t,
            "_to_f32(b); }\n",
            "__device__ __forceinline__ bool operator==(",
            $t,
            " a, ",
            $t,
            " b) { return ",
            $t,
            "_to_f32(a) == ",
            $t,
            "_to_f32(b); }\n",
            "__device__ __forceinline__ bool operator!=(",
            $t,
            " a, ",
            $t,
            " b) { return !(a == b); }\n",
        )
    };
}

const CUDA_F16: &str = cuda_half_type!(
    "sg_f16",
    "float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h.x)); return f;",
    "asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h.x) : \"f\"(f));"
);
const CUDA_BF16: &str = cuda_half_type!(
    "sg_bf16",
    "return __uint_as_float(((unsigned int)h.x) << 16);",
    "asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h.x) : \"f\"(f));"
);

mod sealed {
    /// Implemented by this crate's value types only (see [`super::Scalar`]).
    pub trait Sealed {}
}

/// A value type a semiring computes on.
///
/// Implemented for `bool`, `i32`, `i64`, `u32`, `f16`, `bf16`, `f32`, `f64` and the packed
/// [`DistPred`] pairs, and sealed: no other type can implement it. The host and device
/// representations are identical (same size, same bits, no padding), so the GPU backend copies
/// vectors of them as bytes; a type from outside could not be held to that.
pub trait Scalar:
    sealed::Sealed
    + Copy
    + Default
    + PartialEq
    + PartialOrd
    + fmt::Debug
    + fmt::Display
    + Send
    + Sync
    + 'static
{
    /// The runtime tag of this type.
    const TYPE: ScalarType;

    /// The value's bits, zero-extended to 64 bits.
    fn to_bits64(self) -> u64;

    /// The value whose [`Scalar::to_bits64`] is `bits` (the bits above the type's width
    /// ignored): a value kept in a 64-bit atomic word and read back.
    ///
    /// ```
    /// use semigraph_semiring::Scalar;
    /// assert_eq!(f32::from_bits64((-2.5f32).to_bits64()), -2.5);
    /// assert_eq!(i32::from_bits64((-7i32).to_bits64()), -7);
    /// ```
    fn from_bits64(bits: u64) -> Self;

    /// A CUDA C++ expression of type [`ScalarType::cuda_type`] that is exactly this value,
    /// bit for bit (infinities and negative zero included).
    fn cuda_literal(self) -> String;
}

impl sealed::Sealed for bool {}
impl Scalar for bool {
    const TYPE: ScalarType = ScalarType::Bool;
    fn to_bits64(self) -> u64 {
        self as u64
    }
    fn from_bits64(bits: u64) -> bool {
        bits & 1 != 0
    }
    fn cuda_literal(self) -> String {
        if self { "true".into() } else { "false".into() }
    }
}

impl sealed::Sealed for i32 {}
impl Scalar for i32 {
    const TYPE: ScalarType = ScalarType::I32;
    fn to_bits64(self) -> u64 {
        self as u32 as u64
    }
    fn from_bits64(bits: u64) -> i32 {
        bits as u32 as i32
    }
    fn cuda_literal(self) -> String {
        if self == i32::MIN {
            "(-2147483647 - 1)".into()
        } else {
            format!("({self})")
        }
    }
}

impl sealed::Sealed for i64 {}
impl Scalar for i64 {
    const TYPE: ScalarType = ScalarType::I64;
    fn to_bits64(self) -> u64 {
        self as u64
    }
    fn from_bits64(bits: u64) -> i64 {
        bits as i64
    }
    fn cuda_literal(self) -> String {
        if self == i64::MIN {
            "(-9223372036854775807LL - 1LL)".into()
        } else {
            format!("({self}LL)")
        }
    }
}

impl sealed::Sealed for u32 {}
impl Scalar for u32 {
    const TYPE: ScalarType = ScalarType::U32;
    fn to_bits64(self) -> u64 {
        self as u64
    }
    fn from_bits64(bits: u64) -> u32 {
        bits as u32
    }
    fn cuda_literal(self) -> String {
        format!("({self}u)")
    }
}

impl sealed::Sealed for u64 {}
impl Scalar for u64 {
    const TYPE: ScalarType = ScalarType::U64;
    fn to_bits64(self) -> u64 {
        self
    }
    fn from_bits64(bits: u64) -> u64 {
        bits
    }
    fn cuda_literal(self) -> String {
        format!("({self}ull)")
    }
}

impl sealed::Sealed for f16 {}
impl Scalar for f16 {
    const TYPE: ScalarType = ScalarType::F16;
    fn to_bits64(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_bits64(bits: u64) -> f16 {
        f16::from_bits(bits as u16)
    }
    fn cuda_literal(self) -> String {
        format!("sg_f16_bits(0x{:04x}u)", self.to_bits())
    }
}

impl sealed::Sealed for bf16 {}
impl Scalar for bf16 {
    const TYPE: ScalarType = ScalarType::Bf16;
    fn to_bits64(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_bits64(bits: u64) -> bf16 {
        bf16::from_bits(bits as u16)
    }
    fn cuda_literal(self) -> String {
        format!("sg_bf16_bits(0x{:04x}u)", self.to_bits())
    }
}

impl sealed::Sealed for f32 {}
impl Scalar for f32 {
    const TYPE: ScalarType = ScalarType::F32;
    fn to_bits64(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_bits64(bits: u64) -> f32 {
        f32::from_bits(bits as u32)
    }
    fn cuda_literal(self) -> String {
        format!("__int_as_float(0x{:08x})", self.to_bits())
    }
}

impl sealed::Sealed for f64 {}
impl Scalar for f64 {
    const TYPE: ScalarType = ScalarType::F64;
    fn to_bits64(self) -> u64 {
        self.to_bits()
    }
    fn from_bits64(bits: u64) -> f64 {
        f64::from_bits(bits)
    }
    fn cuda_literal(self) -> String {
        format!("__longlong_as_double(0x{:016x}LL)", self.to_bits())
    }
}

mod packed;
pub use packed::{DistPred, NO_PRED, PackedDist};

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_bits64` reads back every type's bits, infinities, NaN and negative zero included.
    #[test]
    fn bits64_round_trip() {
        fn same<T: Scalar>(xs: &[T]) {
            for &x in xs {
                assert_eq!(
                    T::from_bits64(x.to_bits64()).to_bits64(),
                    x.to_bits64(),
                    "{x:?}"
                );
            }
        }
        same(&[true, false]);
        same(&[0i32, -1, i32::MIN, i32::MAX]);
        same(&[0i64, -1, i64::MIN, i64::MAX]);
        same(&[0u32, u32::MAX]);
        same(&[0u64, u64::MAX]);
        same(&[f16::NEG_INFINITY, f16::from_f32(-0.0), f16::NAN, f16::MAX]);
        same(&[bf16::NEG_INFINITY, bf16::from_f32(-0.0), bf16::NAN]);
        same(&[f32::NEG_INFINITY, -0.0f32, f32::NAN, f32::MIN_POSITIVE]);
        same(&[f64::INFINITY, -0.0f64, f64::NAN, f64::MIN_POSITIVE]);
        same(&[DistPred::new(-1.5f32, 3), DistPred::unreachable()]);
        same(&[DistPred::<i32>::unreachable()]);
    }
}
