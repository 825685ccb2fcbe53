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

impl Inexact {
    /// The message of this result in semiring `S`: `what(row, col)` says where it is
    /// (`entry (1, 2) of the product is`), followed by the value, why `S`'s type cannot
    /// give it and a semiring that would ([`wider`]).
    pub fn message<S: Semiring>(&self, what: impl Fn(usize, usize) -> String) -> String {
        let t = <S::T as Scalar>::TYPE;
        let name = format!("{}:{}", S::NAME.replace('_', "-"), t.name());
        let at = what(self.row, self.col);
        let v = &self.value;
        match self.why {
            Why::OutOfRange => {
                let verb = if t.is_float() {
                    "overflow to infinity"
                } else if S::ADD == Op::Plus {
                    "wrap around"
                } else {
                    "saturate"
                };
                format!(
                    "{at} {v}, which {} cannot hold (in {name} it would {verb}); use {}",
                    t.name(),
                    wider::<S>()
                )
            }
            Why::IsZero => format!(
                "{at} {v}, the value {name} keeps for \"no entry\" (the result would vanish); \
                 use {}",
                wider::<S>()
            ),
            Why::Undefined => format!("{at} undefined: {v} (NaN)"),
        }
    }
}

/// Whether [`check_product`] checks products over `S` (whose operations can leave its
/// type): `add` `+` over any product, or min/max over `+` or `*`, in a numeric type. A
/// caller may skip preparing a check's operands otherwise.
pub fn is_checked<S: Semiring>() -> bool {
    let ops = matches!(S::ADD, Op::Plus)
        || (matches!(S::ADD, Op::Min | Op::Max) && matches!(S::MUL, Op::Plus | Op::Times));
    ops && !matches!(S::MUL, Op::Opaque)
        && matches!(
            <S::T as Scalar>::TYPE,
            ScalarType::I32
                | ScalarType::I64
                | ScalarType::U32
                | ScalarType::U64
                | ScalarType::F16
                | ScalarType::Bf16
                | ScalarType::F32
                | ScalarType::F64
        )
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
    if !is_checked::<S>() {
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

mod rows;
#[cfg(test)]
mod tests;
mod wide;

use rows::check_in;
use wide::{Int, Real};
