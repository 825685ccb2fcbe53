//! Distances packed with their predecessor in one `u64` ([`DistPred`]), so that the
//! lexicographic minimum of `(distance, predecessor)` is one 64-bit minimum.

use super::*;

/// A distance type that packs into 32 bits with an order-preserving encoding, so that the
/// lexicographic minimum of `(distance, predecessor)` is the minimum of one `u64`.
pub trait PackedDist:
    Copy + PartialOrd + fmt::Debug + fmt::Display + Send + Sync + 'static
{
    /// The packed scalar type tag.
    const TYPE: ScalarType;
    /// "No path": the largest distance.
    const INFINITY: Self;
    /// Zero distance.
    const ZERO: Self;
    /// The encoding: `a < b` if and only if `encode(a) < encode(b)` (for non-NaN values).
    fn encode(self) -> u32;
    /// Inverse of [`PackedDist::encode`].
    fn decode(bits: u32) -> Self;
    /// Saturating addition; any operand at [`PackedDist::INFINITY`] gives infinity.
    fn sat_add(self, other: Self) -> Self;
    /// CUDA device functions `sg_dp_enc`, `sg_dp_dec` and `sg_dp_add` for this type.
    const CUDA_HELPERS: &'static str;
}

impl PackedDist for f32 {
    const TYPE: ScalarType = ScalarType::DistPredF32;
    const INFINITY: f32 = f32::INFINITY;
    const ZERO: f32 = 0.0;
    fn encode(self) -> u32 {
        let b = self.to_bits();
        if b & 0x8000_0000 != 0 {
            !b
        } else {
            b | 0x8000_0000
        }
    }
    fn decode(bits: u32) -> f32 {
        f32::from_bits(if bits & 0x8000_0000 != 0 {
            bits & 0x7fff_ffff
        } else {
            !bits
        })
    }
    fn sat_add(self, other: f32) -> f32 {
        self + other
    }
    const CUDA_HELPERS: &'static str = "\
__device__ __forceinline__ unsigned int sg_dp_enc(float d) {
    unsigned int b = __float_as_uint(d);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ float sg_dp_dec(unsigned int e) {
    return __uint_as_float((e & 0x80000000u) ? (e & 0x7fffffffu) : ~e);
}
__device__ __forceinline__ float sg_dp_add(float a, float b) { return a + b; }
#define SG_DP_INF __int_as_float(0x7f800000)
";
}

impl PackedDist for i32 {
    const TYPE: ScalarType = ScalarType::DistPredI32;
    const INFINITY: i32 = i32::MAX;
    const ZERO: i32 = 0;
    fn encode(self) -> u32 {
        (self as u32) ^ 0x8000_0000
    }
    fn decode(bits: u32) -> i32 {
        (bits ^ 0x8000_0000) as i32
    }
    fn sat_add(self, other: i32) -> i32 {
        if self == i32::MAX || other == i32::MAX {
            i32::MAX
        } else {
            self.saturating_add(other)
        }
    }
    const CUDA_HELPERS: &'static str = "\
__device__ __forceinline__ unsigned int sg_dp_enc(int d) { return ((unsigned int)d) ^ 0x80000000u; }
__device__ __forceinline__ int sg_dp_dec(unsigned int e) { return (int)(e ^ 0x80000000u); }
__device__ __forceinline__ int sg_dp_add(int a, int b) {
    if (a == 2147483647 || b == 2147483647) return 2147483647;
    long long s = (long long)a + (long long)b;
    return s > 2147483647LL ? 2147483647 : (s < -2147483648LL ? (-2147483647 - 1) : (int)s);
}
#define SG_DP_INF 2147483647
";
}

/// A `(distance, predecessor)` pair packed in one `u64`: the encoded distance in the high
/// 32 bits and the predecessor in the low 32 bits.
///
/// Comparing two packed values compares distances first and breaks ties by the smaller
/// predecessor, so the minimum is deterministic and a single 64-bit `atomicMin` on the GPU.
///
/// ```
/// use semigraph_semiring::DistPred;
/// let a = DistPred::new(2.5f32, 7);
/// assert_eq!((a.dist(), a.pred()), (2.5, 7));
/// assert!(DistPred::new(1.0f32, 9) < DistPred::new(2.0, 0));
/// assert!(DistPred::new(-1.0f32, 9) < DistPred::new(0.0, 0));
/// assert!(DistPred::new(2.0f32, 3) < DistPred::new(2.0, 4));
/// ```
#[repr(transparent)]
pub struct DistPred<D>(u64, PhantomData<D>);

/// The predecessor of a [`DistPred`] that has none.
pub const NO_PRED: u32 = u32::MAX;

impl<D: PackedDist> DistPred<D> {
    /// Packs a distance and a predecessor.
    pub fn new(dist: D, pred: u32) -> Self {
        DistPred(((dist.encode() as u64) << 32) | pred as u64, PhantomData)
    }
    /// The distance.
    pub fn dist(self) -> D {
        D::decode((self.0 >> 32) as u32)
    }
    /// The predecessor ([`NO_PRED`] for none).
    pub fn pred(self) -> u32 {
        self.0 as u32
    }
    /// The packed bits.
    pub fn bits(self) -> u64 {
        self.0
    }
    /// Rebuilds a pair from [`DistPred::bits`].
    pub fn from_bits(bits: u64) -> Self {
        DistPred(bits, PhantomData)
    }
    /// "Unreachable": infinite distance, no predecessor.
    pub fn unreachable() -> Self {
        Self::new(D::INFINITY, NO_PRED)
    }
}

impl<D> Clone for DistPred<D> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D> Copy for DistPred<D> {}
impl<D> PartialEq for DistPred<D> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<D> Eq for DistPred<D> {}
impl<D> PartialOrd for DistPred<D> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<D> Ord for DistPred<D> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<D> std::hash::Hash for DistPred<D> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}
impl<D: PackedDist> Default for DistPred<D> {
    fn default() -> Self {
        Self::unreachable()
    }
}
impl<D: PackedDist> fmt::Debug for DistPred<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DistPred({:?}, {})", self.dist(), self.pred() as i64)
    }
}
impl<D: PackedDist> fmt::Display for DistPred<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pred() == NO_PRED {
            write!(f, "{}@-", self.dist())
        } else {
            write!(f, "{}@{}", self.dist(), self.pred())
        }
    }
}

impl<D: PackedDist> sealed::Sealed for DistPred<D> {}
impl<D: PackedDist> Scalar for DistPred<D> {
    const TYPE: ScalarType = D::TYPE;
    fn to_bits64(self) -> u64 {
        self.0
    }
    fn from_bits64(bits: u64) -> Self {
        DistPred(bits, PhantomData)
    }
    fn cuda_literal(self) -> String {
        format!("0x{:016x}ULL", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in ScalarType::ALL {
            assert_eq!(ScalarType::from_name(t.name()), Some(t));
        }
        assert_eq!(ScalarType::from_name("f128"), None);
    }

    #[test]
    fn packed_order_matches_value_order() {
        let xs = [
            f32::NEG_INFINITY,
            -3.5,
            -0.0,
            0.0,
            1e-30,
            2.0,
            1e30,
            f32::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(w[0].encode() <= w[1].encode(), "{w:?}");
            assert_eq!(f32::decode(w[0].encode()).to_bits(), w[0].to_bits());
        }
        let is = [i32::MIN, -5, 0, 7, i32::MAX];
        for w in is.windows(2) {
            assert!(w[0].encode() < w[1].encode());
            assert_eq!(i32::decode(w[0].encode()), w[0]);
        }
    }

    #[test]
    fn literals_are_exact() {
        assert_eq!(f32::INFINITY.cuda_literal(), "__int_as_float(0x7f800000)");
        assert_eq!(i32::MIN.cuda_literal(), "(-2147483647 - 1)");
        assert_eq!(u32::MAX.cuda_literal(), "(4294967295u)");
        assert_eq!(f16::INFINITY.cuda_literal(), "sg_f16_bits(0x7c00u)");
    }
}
