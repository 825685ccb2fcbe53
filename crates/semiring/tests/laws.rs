#![allow(missing_docs)]
//! The semiring laws, as property tests, for every built-in semiring and value type.

use proptest::prelude::*;
use semigraph_semiring::check::check_laws_on;
use semigraph_semiring::testing::TestValue;
use semigraph_semiring::{Semiring, check_semiring, for_each_builtin};

/// Picks a value: the semiring zero, its one, or a small exact number.
fn pick<S: Semiring>(sel: u8, i: i32) -> S::T
where
    S::T: TestValue,
{
    match sel % 8 {
        0 => S::zero(),
        1 => S::one(),
        // The index semirings compute on vertex indices, which are never negative.
        _ if S::USES_INDEX && S::NAME != "min_plus_pred" => {
            <S::T as TestValue>::from_small(i.clamp(0, <S::T>::RANGE))
        }
        _ => <S::T as TestValue>::from_small(i.clamp(-<S::T>::RANGE, <S::T>::RANGE)),
    }
}

/// The laws of the library's own checker ([`check_laws_on`]), on random picks.
fn check_laws<S: Semiring>(a: S::T, b: S::T, c: S::T, k: u64) -> Result<(), TestCaseError> {
    check_laws_on::<S>(a, b, c, k).map_err(|e| TestCaseError::fail(e.to_string()))
}

/// Every built-in semiring passes the deterministic check users run on theirs.
#[test]
fn builtins_pass_check_semiring() {
    macro_rules! check {
        ($label:ident, $s:ty) => {
            if let Err(e) = check_semiring::<$s>() {
                panic!("{e}");
            }
        };
    }
    for_each_builtin!(check);
}

macro_rules! law_test {
    ($label:ident, $s:ty) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]
            #[test]
            fn $label(sa in any::<u8>(), ia in any::<i32>(), sb in any::<u8>(), ib in any::<i32>(),
                      sc in any::<u8>(), ic in any::<i32>(), k in 0u64..1000) {
                type S = $s;
                let r = |i: i32| i % 2000 - 1000;
                check_laws::<S>(pick::<S>(sa, r(ia)), pick::<S>(sb, r(ib)), pick::<S>(sc, r(ic)), k)?;
            }
        }
    };
}

mod laws {
    use super::*;
    for_each_builtin!(law_test);
}
