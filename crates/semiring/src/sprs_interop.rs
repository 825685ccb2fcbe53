//! `sprs` interop: a value newtype that makes `sprs` products semiring products.
//!
//! `sprs` multiplies with `num_traits::Zero`, `+=` and `*`. [`SrVal`] wraps a value of a
//! semiring `S` so that `Zero` is `S::zero()`, `+` is `S::add` and `*` is `S::mul`: a plain
//! `&a * &b` on `sprs` matrices then computes the `S` product. This is how the CPU results
//! of semigraph are checked against an independent sparse library.
//!
//! ```
//! use semigraph_semiring::{MinPlus, SrVal};
//! use sprs::TriMat;
//!
//! // a -> b costs 3, b -> c costs 4: min-plus squaring finds a -> c in 7.
//! let mut t = TriMat::new((3, 3));
//! t.add_triplet(0, 1, SrVal::<MinPlus<i32>>::new(3));
//! t.add_triplet(1, 2, SrVal::new(4));
//! let a = t.to_csr::<usize>();
//! let a2 = &a * &a;
//! assert_eq!(a2.get(0, 2).map(|v| v.get()), Some(7));
//! ```
//!
//! The index semirings ([`crate::Semiring::USES_INDEX`]) need the inner index, which `sprs`
//! does not pass: their `*` is the index-free [`crate::Semiring::mul`].

use std::fmt;
use std::ops::{Add, AddAssign, Mul};

use crate::semiring::Semiring;

/// A value of semiring `S` whose arithmetic is `S`'s (see the [module docs](self)).
#[repr(transparent)]
pub struct SrVal<S: Semiring>(pub S::T);

impl<S: Semiring> SrVal<S> {
    /// Wraps a value.
    pub fn new(v: S::T) -> Self {
        SrVal(v)
    }
    /// The wrapped value.
    pub fn get(self) -> S::T {
        self.0
    }
}

impl<S: Semiring> Clone for SrVal<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S: Semiring> Copy for SrVal<S> {}
impl<S: Semiring> PartialEq for SrVal<S> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<S: Semiring> fmt::Debug for SrVal<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}
/// The default is the semiring zero, so accumulators start at the right value.
impl<S: Semiring> Default for SrVal<S> {
    fn default() -> Self {
        SrVal(S::zero())
    }
}
impl<S: Semiring> Add for SrVal<S> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        SrVal(S::add(self.0, rhs.0))
    }
}
impl<S: Semiring> AddAssign for SrVal<S> {
    fn add_assign(&mut self, rhs: Self) {
        self.0 = S::add(self.0, rhs.0);
    }
}
impl<S: Semiring> Mul for SrVal<S> {
    type Output = Self;
    fn mul(self, rhs: Self) -> Self {
        SrVal(S::mul(self.0, rhs.0))
    }
}
impl<'a, S: Semiring> Mul<&'a SrVal<S>> for &'a SrVal<S> {
    type Output = SrVal<S>;
    fn mul(self, rhs: &'a SrVal<S>) -> SrVal<S> {
        SrVal(S::mul(self.0, rhs.0))
    }
}
impl<S: Semiring> num_traits::Zero for SrVal<S> {
    fn zero() -> Self {
        SrVal(S::zero())
    }
    fn is_zero(&self) -> bool {
        S::is_zero(self.0)
    }
}
