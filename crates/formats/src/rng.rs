//! [`Rng`]: the counter-based random numbers of the generators and of seeded weights.

/// A counter-based random number generator: `at(k)` is the `SplitMix64` finaliser of
/// `seed` and `k`, so the `k`-th draw needs no state and no order.
#[derive(Clone, Copy, Debug)]
pub struct Rng {
    seed: u64,
}

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            seed: mix(seed ^ 0x5851_f42d_4c95_7f2d),
        }
    }
    /// The `k`-th 64-bit draw.
    #[inline]
    pub fn at(&self, k: u64) -> u64 {
        mix(self
            .seed
            .wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
    }
    /// A draw uniform in `0..n` (`n > 0`), by 128-bit multiply (bias below 2^-64 * n).
    #[inline]
    pub fn below(&self, k: u64, n: u64) -> u64 {
        ((self.at(k) as u128 * n as u128) >> 64) as u64
    }
    /// A draw uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&self, k: u64) -> f64 {
        (self.at(k) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
