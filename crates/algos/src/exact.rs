//! Exact products: whether every result of `C<M> = A (+).(x) B` over a semiring is the exact
//! value its operations define, so that a caller can print the product or refuse it, never
//! print a wrapped, saturated or overflowed number.
//!
//! Integer `+` and `*` wrap in plus-times (as in C, CUDA and GraphBLAS) and saturate in the
//! path semirings, whose zero is the type's largest or smallest value; floats overflow to an
//! infinity. [`check_product`] finds the exact value of each result in wider numbers (192-bit
//! integers; `f64` with a mark where an operation on finite operands left the type) from
//! what the semiring declares its operations to be ([`Semiring::ADD`], [`Semiring::MUL`]),
//! and names the first one the type does not hold. It costs a pass over the operands: a row
//! whose results provably stay in range (interval bounds from the rows of `B`) is not
//! multiplied; only the others are, on the host, as the product would.
//! [`check_results`] looks at results already computed in a floating-point type: an infinity
//! or NaN made from finite operands is an overflow.

use std::collections::HashMap;
use std::fmt;

use rayon::prelude::*;
use semigraph_formats::{Csr, Weight, WeightValue};
use semigraph_semiring::{Op, Scalar, ScalarType, Semiring};

/// A result of a product that the semiring's type does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inexact {
    /// The result's row.
    pub row: usize,
    /// The result's column.
    pub col: usize,
    /// Its exact value as text (where known: a NaN has none).
    pub value: String,
    /// Why it cannot be given.
    pub why: Why,
}

/// Why a result cannot be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The exact value lies beyond the type's range.
    OutOfRange,
    /// The exact value is the type's value that stands for the semiring's zero (min-plus's
    /// `i32::MAX` means "no path"), so the result would vanish.
    IsZero,
    /// There is no value: `inf + -inf` or `0 * inf` of operands that are not NaN.
    Undefined,
}

impl fmt::Display for Inexact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, j, v) = (self.row, self.col, &self.value);
        match self.why {
            Why::OutOfRange => write!(f, "entry ({i}, {j}) is {v}"),
            Why::IsZero => write!(f, "entry ({i}, {j}) is {v}, the value that means no entry"),
            Why::Undefined => write!(f, "entry ({i}, {j}) has no value ({v})"),
        }
    }
}

/// The built-in semiring of the same operations over a wider type that holds what `S`'s
/// type cannot (`plus-times:i64` for `plus-times:i32`), as the command line names it, with
/// `(rounded)` where the wider type is a float that rounds integers.
///
/// ```
/// use semigraph_algos::exact::wider;
/// use semigraph_semiring::{MinPlus, PlusTimes, f16};
/// assert_eq!(wider::<PlusTimes<i32>>(), "plus-times:i64");
/// assert_eq!(wider::<MinPlus<f16>>(), "min-plus:f32");
/// assert_eq!(wider::<PlusTimes<i64>>(), "plus-times:f64 (rounded)");
/// ```
pub fn wider<S: Semiring>() -> String {
    let name = S::NAME.replace('_', "-");
    match <S::T as Scalar>::TYPE {
        ScalarType::I32 | ScalarType::U32 => format!("{name}:i64"),
        ScalarType::F16 | ScalarType::Bf16 => format!("{name}:f32"),
        ScalarType::I64 | ScalarType::U64 => format!("{name}:f64 (rounded)"),
        _ => format!("{name}:f64"),
    }
}

/// Checks that every result of `C<M> = A (+).(x) B` that `mask` keeps (`(M, false)`: where
/// `M` has an entry; `(M, true)`: where it has none; `None`: everywhere) is its exact value
/// in `S`'s type.
///
/// Only semirings that declare their operations are checked: `add` one of `+`, min, max,
/// and `mul` one of `+`, `*` (or `add` `+` over any product); selecting semirings (or-and,
/// max-min, min-second, ...) never leave their type. Integer results must lie in the type's
/// range, and in a path semiring (`add` min or max over `+`) differ from the zero the type
/// stands in for. Floating-point results must not overflow the type (or be NaN from
/// operands that are not). Operands equal to the zero are no entries.
///
/// # Errors
/// The first result (in row order) that fails, as [`Inexact`].
///
/// # Complexity
/// `O(nnz(A) + nnz(B))` for the bounds; rows the bounds cannot clear are multiplied on the
/// host (`O` of their products' terms), on every core.
///
/// # Example
/// ```
/// use semigraph_algos::exact::{check_product, Why};
/// use semigraph_formats::Csr;
/// use semigraph_semiring::{MinPlus, PlusTimes};
///
/// let a = Csr::<PlusTimes<i32>>::try_from_parts(2, 2, vec![0, 1, 2], vec![1, 0], vec![2_000_000_000, 2_000_000_000])?;
/// let e = check_product::<_, PlusTimes<i32>>(&a, &a, None).unwrap_err();
/// assert_eq!((e.row, e.col, e.value.as_str(), e.why), (0, 0, "4000000000000000000", Why::OutOfRange));
/// let small = Csr::<PlusTimes<i32>>::try_from_parts(2, 2, vec![0, 1, 2], vec![1, 0], vec![3, 4])?;
/// assert!(check_product::<_, PlusTimes<i32>>(&small, &small, None).is_ok());
/// let p = Csr::<MinPlus<i32>>::try_from_parts(2, 2, vec![0, 1, 2], vec![1, 0], vec![i32::MAX - 1, 1])?;
/// assert_eq!(check_product::<_, MinPlus<i32>>(&p, &p, None).unwrap_err().why, Why::IsZero);
/// # Ok::<(), semigraph_formats::FormatError>(())
/// ```
pub fn check_product<S: Semiring, M: Semiring>(
    a: &Csr<S>,
    b: &Csr<S>,
    mask: Option<(&Csr<M>, bool)>,
) -> Result<(), Inexact>
where
    S::T: WeightValue,
{
    let checked = matches!(S::ADD, Op::Plus)
        || (matches!(S::ADD, Op::Min | Op::Max) && matches!(S::MUL, Op::Plus | Op::Times));
    if !checked || matches!(S::MUL, Op::Opaque) {
        return Ok(());
    }
    match <S::T as Scalar>::TYPE {
        ScalarType::I32 | ScalarType::I64 | ScalarType::U32 | ScalarType::U64 => {
            check_in::<S, M, Int>(a, b, mask)
        }
        ScalarType::F16 | ScalarType::Bf16 | ScalarType::F32 | ScalarType::F64 => {
            check_in::<S, M, Real>(a, b, mask)
        }
        _ => Ok(()),
    }
}

/// Checks results computed in a floating-point semiring (entries `(row, col, value)`, for
/// a product over operands `inputs`): a result that is infinite or NaN where every operand
/// is finite overflowed the type (NaN: `inf - inf` of overflowed terms); one that is NaN
/// where no operand is NaN has no value. Integer and selecting semirings pass.
///
/// # Errors
/// The first such result, as [`Inexact`].
pub fn check_results<S: Semiring>(
    results: impl Iterator<Item = (usize, usize, S::T)>,
    inputs: &[&[S::T]],
) -> Result<(), Inexact>
where
    S::T: WeightValue,
{
    if !<S::T as Scalar>::TYPE.is_float()
        || !(matches!(S::ADD, Op::Plus) || matches!(S::MUL, Op::Plus | Op::Times))
    {
        return Ok(());
    }
    let real = |v: S::T| match v.to_weight() {
        Weight::Real(x) => x,
        Weight::Int(x) => x as f64,
        Weight::UInt(x) => x as f64,
    };
    let mut scanned: Option<(bool, bool)> = None; // (every operand finite, some NaN)
    for (row, col, v) in results {
        let x = real(v);
        if x.is_finite() || S::is_zero(v) {
            continue;
        }
        let (finite, nan) = *scanned.get_or_insert_with(|| {
            let all = |f: fn(f64) -> bool| {
                inputs
                    .par_iter()
                    .all(|s| s.par_iter().all(|&v| S::is_zero(v) || f(real(v))))
            };
            (all(f64::is_finite), !all(|x| !x.is_nan()))
        });
        if x.is_nan() && !nan {
            let value = if finite {
                "an overflow"
            } else {
                "infinities of both signs met"
            };
            return Err(Inexact {
                row,
                col,
                value: value.into(),
                why: if finite {
                    Why::OutOfRange
                } else {
                    Why::Undefined
                },
            });
        }
        if finite {
            return Err(Inexact {
                row,
                col,
                value: format!("beyond {}'s largest finite value", type_name::<S>()),
                why: Why::OutOfRange,
            });
        }
    }
    Ok(())
}

fn type_name<S: Semiring>() -> &'static str {
    <S::T as Scalar>::TYPE.name()
}

/// Numbers wide enough to hold a product's exact value, with the operations of [`Op`].
trait Wide: Copy + Send + Sync + fmt::Debug {
    /// The value of an operand (`None` for one the check cannot follow, such as NaN).
    fn of<T: WeightValue>(v: T) -> Option<Self>;
    fn zero() -> Self;
    fn plus(self, o: Self) -> Self;
    fn times(self, o: Self) -> Self;
    /// `self < o`.
    fn less(self, o: Self) -> bool;
    /// Whether type `T` holds the value, and if not why not.
    fn holds<S: Semiring>(self, path: bool) -> Option<Why>;
    /// Whether type `T` holds every value of `[lo, hi]` with room to spare (a bound).
    fn within<S: Semiring>(lo: Self, hi: Self, path: bool) -> bool;
    fn text(self) -> String;
}

fn min_w<W: Wide>(a: W, b: W) -> W {
    if b.less(a) { b } else { a }
}

fn max_w<W: Wide>(a: W, b: W) -> W {
    if a.less(b) { b } else { a }
}

/// A 192-bit integer `hi * 2^128 + lo`: exact for sums of up to 2^63 products of 64-bit
/// integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Int {
    hi: i64,
    lo: u128,
}

impl Int {
    fn from_i128(x: i128) -> Int {
        Int {
            hi: if x < 0 { -1 } else { 0 },
            lo: x as u128,
        }
    }
    fn to_i128(self) -> Option<i128> {
        match self.hi {
            0 if self.lo <= i128::MAX as u128 => Some(self.lo as i128),
            -1 if self.lo > i128::MAX as u128 => Some(self.lo as i128),
            _ => None,
        }
    }
    fn neg(self) -> Int {
        let (lo, carry) = (!self.lo).overflowing_add(1);
        Int {
            hi: (!self.hi).wrapping_add(carry as i64),
            lo,
        }
    }
    fn range<S: Semiring>() -> (i128, i128) {
        match <S::T as Scalar>::TYPE {
            ScalarType::I32 => (i32::MIN.into(), i32::MAX.into()),
            ScalarType::I64 => (i64::MIN.into(), i64::MAX.into()),
            ScalarType::U32 => (0, u32::MAX.into()),
            _ => (0, u64::MAX.into()),
        }
    }
    /// The zero of a path semiring (`add` min: the largest value; max: the smallest).
    fn path_zero<S: Semiring>() -> i128 {
        let (lo, hi) = Int::range::<S>();
        if matches!(S::ADD, Op::Min) { hi } else { lo }
    }
}

impl Wide for Int {
    fn of<T: WeightValue>(v: T) -> Option<Int> {
        Some(Int::from_i128(match v.to_weight() {
            Weight::Int(x) => x.into(),
            Weight::UInt(x) => x.into(),
            Weight::Real(x) => x as i128,
        }))
    }
    fn zero() -> Int {
        Int::from_i128(0)
    }
    fn plus(self, o: Int) -> Int {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        Int {
            hi: self.hi.wrapping_add(o.hi).wrapping_add(carry as i64),
            lo,
        }
    }
    fn times(self, o: Int) -> Int {
        // Operands and bounds of single products fit in 65 bits: their magnitudes' product
        // fits in 128.
        let (Some(a), Some(b)) = (self.to_i128(), o.to_i128()) else {
            unreachable!("products are of single values")
        };
        let m = a.unsigned_abs().saturating_mul(b.unsigned_abs());
        let p = Int { hi: 0, lo: m };
        if (a < 0) != (b < 0) { p.neg() } else { p }
    }
    fn less(self, o: Int) -> bool {
        (self.hi, self.lo) < (o.hi, o.lo)
    }
    fn holds<S: Semiring>(self, path: bool) -> Option<Why> {
        let (lo, hi) = Int::range::<S>();
        match self.to_i128() {
            Some(x) if x < lo || x > hi => Some(Why::OutOfRange),
            Some(x) if path && x == Int::path_zero::<S>() => Some(Why::IsZero),
            Some(_) => None,
            None => Some(Why::OutOfRange),
        }
    }
    fn within<S: Semiring>(lo: Int, hi: Int, path: bool) -> bool {
        let (tlo, thi) = Int::range::<S>();
        match (lo.to_i128(), hi.to_i128()) {
            (Some(l), Some(h)) => {
                let z = Int::path_zero::<S>();
                l >= tlo && h <= thi && !(path && l <= z && z <= h)
            }
            _ => false,
        }
    }
    fn text(self) -> String {
        match self.to_i128() {
            Some(x) => x.to_string(),
            None => format!(
                "about {:e}",
                self.hi as f64 * 2f64.powi(128) + self.lo as f64
            ),
        }
    }
}

/// A real computed in `f64`, marked where an operation on finite operands left the type
/// (`over`), or made NaN of operands that are not (`undefined`).
#[derive(Clone, Copy, Debug)]
struct Real {
    v: f64,
    over: bool,
    undefined: bool,
    /// The least magnitude that the type rounds to an infinity.
    max: f64,
}

impl Real {
    fn op(self, o: Real, r: f64) -> Real {
        let finite = self.v.is_finite() && o.v.is_finite();
        Real {
            v: r,
            over: self.over || o.over || (finite && !(r.is_finite() && r.abs() < self.max)),
            undefined: self.undefined
                || o.undefined
                || (r.is_nan() && !self.v.is_nan() && !o.v.is_nan()),
            max: self.max,
        }
    }
    /// The least magnitude type `t` rounds to an infinity: its largest finite value and
    /// half a step beyond.
    fn max_of(t: ScalarType) -> f64 {
        match t {
            ScalarType::F16 => 65520.0,
            ScalarType::Bf16 => f64::from(semigraph_semiring::bf16::MAX) + 2f64.powi(119),
            ScalarType::F32 => f64::from(f32::MAX) + 2f64.powi(103),
            _ => f64::INFINITY,
        }
    }
}

impl Wide for Real {
    fn of<T: WeightValue>(v: T) -> Option<Real> {
        let v = match v.to_weight() {
            Weight::Real(x) => x,
            Weight::Int(x) => x as f64,
            Weight::UInt(x) => x as f64,
        };
        (!v.is_nan()).then_some(Real {
            v,
            over: false,
            undefined: false,
            max: Real::max_of(T::TYPE),
        })
    }
    fn zero() -> Real {
        Real {
            v: 0.0,
            over: false,
            undefined: false,
            max: f64::INFINITY,
        }
    }
    fn plus(self, o: Real) -> Real {
        let max = self.max.min(o.max);
        Real { max, ..self }.op(o, self.v + o.v)
    }
    fn times(self, o: Real) -> Real {
        let max = self.max.min(o.max);
        Real { max, ..self }.op(o, self.v * o.v)
    }
    fn less(self, o: Real) -> bool {
        self.v < o.v
    }
    fn holds<S: Semiring>(self, _path: bool) -> Option<Why> {
        if self.undefined {
            Some(Why::Undefined)
        } else if self.over {
            Some(Why::OutOfRange)
        } else {
            None
        }
    }
    fn within<S: Semiring>(lo: Real, hi: Real, _path: bool) -> bool {
        // Half the range: the backends add in other orders, with rounding.
        let room = Real::max_of(<S::T as Scalar>::TYPE).min(f64::MAX) / 2.0;
        lo.v >= -room && hi.v <= room
    }
    fn text(self) -> String {
        if self.undefined {
            "inf - inf".into()
        } else if self.over {
            "beyond the type's largest finite value".into()
        } else {
            semigraph_formats::real_text(self.v, self.v)
        }
    }
}

/// The term `mul(a, b)` at inner index `k`, in wide numbers.
fn term<S: Semiring, W: Wide>(a: S::T, b: S::T, k: usize) -> Option<W>
where
    S::T: WeightValue,
{
    match S::MUL {
        Op::Plus => Some(W::of(a)?.plus(W::of(b)?)),
        Op::Times => Some(W::of(a)?.times(W::of(b)?)),
        // A selection (or min, max) never leaves the type: computed in it.
        _ => W::of(S::mul_at(a, b, k as u64)),
    }
}

/// The sum of two terms, or of a bound on them.
fn add<S: Semiring, W: Wide>(acc: W, t: W) -> W {
    match S::ADD {
        Op::Plus => acc.plus(t),
        Op::Min => min_w(acc, t),
        _ => max_w(acc, t),
    }
}

fn check_in<S: Semiring, M: Semiring, W: Wide>(
    a: &Csr<S>,
    b: &Csr<S>,
    mask: Option<(&Csr<M>, bool)>,
) -> Result<(), Inexact>
where
    S::T: WeightValue,
{
    let path = matches!(S::ADD, Op::Min | Op::Max);
    // Each row of B's interval of values.
    let rows_b: Vec<RowB<W>> = (0..b.nrows())
        .into_par_iter()
        .map(|k| interval::<S, W>(b.row(k).1))
        .collect();
    let suspect = |i: usize| -> bool {
        let (cols, vals) = a.row(i);
        let mut acc: Option<(W, W)> = None;
        for (&k, &v) in cols.iter().zip(vals) {
            if S::is_zero(v) {
                continue;
            }
            let (lo, hi) = match rows_b[k as usize] {
                RowB::Empty => continue,
                RowB::Unknown => return true,
                RowB::Bound(lo, hi) => (lo, hi),
            };
            let (Some(t1), Some(t2)) = (term_bound::<S, W>(v, lo), term_bound::<S, W>(v, hi))
            else {
                return true;
            };
            let (mut tl, mut th) = (min_w(t1, t2), max_w(t1, t2));
            if !matches!(S::MUL, Op::Plus | Op::Times) {
                // A selection: an operand, one of B's values, the one or the index.
                let (Some(av), Some(one), Some(idx)) =
                    (W::of(v), W::of(S::one()), W::of(b.ncols() as u64))
                else {
                    return true;
                };
                tl = min_w(min_w(tl, av), min_w(one, W::zero()));
                th = max_w(max_w(th, av), max_w(one, idx));
            }
            acc = Some(match (acc, S::ADD) {
                // In a sum, a term may be absent from a result: it counts as zero.
                (None, Op::Plus) => (min_w(tl, W::zero()), max_w(th, W::zero())),
                (Some((l, h)), Op::Plus) => {
                    (l.plus(min_w(tl, W::zero())), h.plus(max_w(th, W::zero())))
                }
                (None, _) => (tl, th),
                (Some((l, h)), _) => (min_w(l, tl), max_w(h, th)),
            });
        }
        acc.is_some_and(|(l, h)| !W::within::<S>(l, h, path))
    };
    let bad = (0..a.nrows())
        .into_par_iter()
        .filter(|&i| suspect(i))
        .find_map_first(|i| exact_row::<S, M, W>(a, b, mask, i, path));
    match bad {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The values of a row of `B` that are not the zero, as a bound.
#[derive(Clone, Copy)]
enum RowB<W> {
    /// No values.
    Empty,
    /// The smallest and the largest.
    Bound(W, W),
    /// A value the check cannot follow (NaN): the row's products are computed.
    Unknown,
}

fn interval<S: Semiring, W: Wide>(vals: &[S::T]) -> RowB<W>
where
    S::T: WeightValue,
{
    let mut out = RowB::Empty;
    for &v in vals {
        if S::is_zero(v) {
            continue;
        }
        let Some(w) = W::of(v) else {
            return RowB::Unknown;
        };
        out = match out {
            RowB::Bound(l, h) => RowB::Bound(min_w(l, w), max_w(h, w)),
            _ => RowB::Bound(w, w),
        };
    }
    out
}

/// `mul(a, b)` for a bound `b` of B's values (a selection's bound is found by the caller).
fn term_bound<S: Semiring, W: Wide>(a: S::T, b: W) -> Option<W>
where
    S::T: WeightValue,
{
    match S::MUL {
        Op::Plus => Some(W::of(a)?.plus(b)),
        Op::Times => Some(W::of(a)?.times(b)),
        _ => Some(b),
    }
}

/// Row `i` of the product computed exactly: its first result (by column) the type does not
/// hold, among those the mask keeps.
fn exact_row<S: Semiring, M: Semiring, W: Wide>(
    a: &Csr<S>,
    b: &Csr<S>,
    mask: Option<(&Csr<M>, bool)>,
    i: usize,
    path: bool,
) -> Option<Inexact>
where
    S::T: WeightValue,
{
    let mut acc: HashMap<u32, W> = HashMap::new();
    let (cols, vals) = a.row(i);
    for (&k, &av) in cols.iter().zip(vals) {
        if S::is_zero(av) {
            continue;
        }
        let (bc, bv) = b.row(k as usize);
        for (&j, &bw) in bc.iter().zip(bv) {
            if S::is_zero(bw) {
                continue;
            }
            let Some(t) = term::<S, W>(av, bw, k as usize) else {
                continue; // NaN operands: no exact value to compare with
            };
            acc.entry(j)
                .and_modify(|s| *s = add::<S, W>(*s, t))
                .or_insert(t);
        }
    }
    let kept = |j: u32| match mask {
        None => true,
        Some((m, complement)) => m.row(i).0.binary_search(&j).is_ok() != complement,
    };
    let mut found: Vec<(u32, W, Why)> = acc
        .into_iter()
        .filter(|&(j, _)| kept(j))
        .filter_map(|(j, v)| v.holds::<S>(path).map(|why| (j, v, why)))
        .collect();
    found.sort_by_key(|f| f.0);
    found.first().map(|&(j, v, why)| Inexact {
        row: i,
        col: j as usize,
        value: v.text(),
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use semigraph_semiring::{MaxMin, MaxPlus, MinPlus, OrAnd, PlusTimes, f16};

    fn csr<S: Semiring>(n: usize, m: usize, e: &[(usize, usize, S::T)]) -> Csr<S> {
        let (r, c, v) = (
            e.iter().map(|x| x.0 as u32).collect(),
            e.iter().map(|x| x.1 as u32).collect(),
            e.iter().map(|x| x.2).collect(),
        );
        semigraph_formats::Coo::<S>::try_from_triplets(n, m, r, c, v)
            .unwrap()
            .to_csr()
    }

    /// Every result against 128-bit sums, for random small matrices at the type's limits.
    #[test]
    fn integer_products_are_exact_or_named() {
        let mut seed = 7u64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..300 {
            let n = 1 + rnd(4) as usize;
            let pick = [
                i32::MIN,
                i32::MIN + 1,
                -2,
                -1,
                1,
                2,
                46341,
                1 << 30,
                i32::MAX - 1,
            ];
            let mut e = Vec::new();
            for i in 0..n {
                for j in 0..n {
                    if rnd(2) == 0 {
                        e.push((i, j, pick[rnd(pick.len() as u64) as usize]));
                    }
                }
            }
            let a = csr::<PlusTimes<i32>>(n, n, &e);
            let truth = (0..n).find_map(|i| {
                (0..n).find_map(|j| {
                    let s: i128 = (0..n)
                        .filter_map(|k| Some(a.get(i, k)? as i128 * a.get(k, j)? as i128))
                        .sum();
                    let any = (0..n).any(|k| a.get(i, k).is_some() && a.get(k, j).is_some());
                    (any && (s < i32::MIN as i128 || s > i32::MAX as i128)).then_some((i, j))
                })
            });
            let got = check_product::<_, PlusTimes<i32>>(&a, &a, None)
                .err()
                .map(|e| (e.row, e.col));
            assert_eq!(got, truth, "{e:?}");
            let p = a.clone().retype::<MinPlus<i32>>();
            let truth = (0..n).find_map(|i| {
                (0..n).find_map(|j| {
                    let m = (0..n)
                        .filter_map(|k| {
                            let (x, y) = (p.get(i, k)?, p.get(k, j)?);
                            (x != i32::MAX && y != i32::MAX).then_some(x as i128 + y as i128)
                        })
                        .min()?;
                    (m < i32::MIN as i128 || m >= i32::MAX as i128).then_some((i, j))
                })
            });
            let got = check_product::<_, MinPlus<i32>>(&p, &p, None)
                .err()
                .map(|e| (e.row, e.col));
            assert_eq!(got, truth, "{e:?}");
        }
    }

    #[test]
    fn masks_limit_the_check_and_selections_pass() {
        let big = 2_000_000_000i32;
        let a = csr::<PlusTimes<i32>>(2, 2, &[(0, 1, big), (1, 0, big)]);
        let keep = csr::<OrAnd>(2, 2, &[(0, 1, true)]);
        assert!(check_product(&a, &a, Some((&keep, false))).is_ok());
        assert_eq!(
            check_product(&a, &a, Some((&keep, true))).unwrap_err().row,
            0
        );
        let m = a.clone().retype::<MaxMin<i32>>();
        assert!(check_product::<_, OrAnd>(&m, &m, None).is_ok());
        let x = a.retype::<MaxPlus<i32>>();
        assert_eq!(
            check_product::<_, OrAnd>(&x, &x, None).unwrap_err().why,
            Why::OutOfRange
        );
        let neg = csr::<MaxPlus<i32>>(1, 1, &[(0, 0, i32::MIN / 2)]);
        // -2^31 exactly: max-plus's zero.
        assert_eq!(
            check_product::<_, OrAnd>(&neg, &neg, None).unwrap_err().why,
            Why::IsZero
        );
    }

    #[test]
    fn floats_overflow_is_named() {
        let h = |x: f32| f16::from_f32(x);
        let a = csr::<MinPlus<f16>>(1, 1, &[(0, 0, h(60000.0))]);
        let e = check_product::<_, OrAnd>(&a, &a, None).unwrap_err();
        assert_eq!(e.why, Why::OutOfRange);
        let ok = csr::<MinPlus<f16>>(1, 1, &[(0, 0, h(20000.0))]);
        assert!(check_product::<_, OrAnd>(&ok, &ok, None).is_ok());
        let inf = csr::<PlusTimes<f64>>(1, 2, &[(0, 0, f64::INFINITY), (0, 1, f64::NEG_INFINITY)]);
        let col = csr::<PlusTimes<f64>>(2, 1, &[(0, 0, 1.0), (1, 0, 1.0)]);
        assert_eq!(
            check_product::<_, OrAnd>(&inf, &col, None).unwrap_err().why,
            Why::Undefined
        );
        let c = [(0, 0, f64::INFINITY)];
        let e = check_results::<PlusTimes<f64>>(c.into_iter(), &[&[1e300, 1e300]]).unwrap_err();
        assert_eq!(e.why, Why::OutOfRange);
        assert!(check_results::<PlusTimes<f64>>(c.into_iter(), &[&[f64::INFINITY]]).is_ok());
    }
}
