#![allow(missing_docs)]
//! The semiring laws, as property tests, for every built-in semiring and value type.

use proptest::prelude::*;
use semigraph_semiring::testing::TestValue;
use semigraph_semiring::{Semiring, for_each_builtin};

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

fn eq<S: Semiring>(x: S::T, y: S::T) -> bool {
    x == y
}

fn check_laws<S: Semiring>(a: S::T, b: S::T, c: S::T, k: u64) -> Result<(), TestCaseError> {
    let (z, o) = (S::zero(), S::one());
    let name = S::full_name();
    let ctx = || format!("{name}: a={a:?} b={b:?} c={c:?}");
    // (T, add, zero) is a commutative monoid.
    prop_assert!(
        eq::<S>(S::add(S::add(a, b), c), S::add(a, S::add(b, c))),
        "add assoc {}",
        ctx()
    );
    if S::NAME != "any_secondi" {
        prop_assert!(eq::<S>(S::add(a, b), S::add(b, a)), "add comm {}", ctx());
    } else {
        // any: the result is one of the operands, and zero only if both are zero.
        let s = S::add(a, b);
        prop_assert!(s == a || s == b, "any picks an operand {}", ctx());
        prop_assert!(
            S::is_zero(s) == (S::is_zero(a) && S::is_zero(b)),
            "{}",
            ctx()
        );
    }
    prop_assert!(
        eq::<S>(S::add(z, a), a) && eq::<S>(S::add(a, z), a),
        "add identity {}",
        ctx()
    );
    // mul is associative, zero annihilates, one is a left identity (and a right one
    // except for the index semirings, whose product is an index).
    prop_assert!(
        eq::<S>(S::mul(S::mul(a, b), c), S::mul(a, S::mul(b, c))),
        "mul assoc {}",
        ctx()
    );
    prop_assert!(
        eq::<S>(S::mul(z, a), z) && eq::<S>(S::mul(a, z), z),
        "annihilation {}",
        ctx()
    );
    prop_assert!(
        eq::<S>(S::mul_at(z, a, k), z) && eq::<S>(S::mul_at(a, z, k), z),
        "annihilation at k {}",
        ctx()
    );
    prop_assert!(eq::<S>(S::mul(o, a), a), "left identity {}", ctx());
    if !S::USES_INDEX {
        prop_assert!(eq::<S>(S::mul(a, o), a), "right identity {}", ctx());
    }
    // mul distributes over add, on both sides (with the inner index too).
    if S::NAME != "any_secondi" {
        prop_assert!(
            eq::<S>(S::mul(a, S::add(b, c)), S::add(S::mul(a, b), S::mul(a, c))),
            "left distributivity {}",
            ctx()
        );
        prop_assert!(
            eq::<S>(
                S::mul_at(a, S::add(b, c), k),
                S::add(S::mul_at(a, b, k), S::mul_at(a, c, k))
            ),
            "left distributivity at k {}",
            ctx()
        );
        prop_assert!(
            eq::<S>(S::mul(S::add(a, b), c), S::add(S::mul(a, c), S::mul(b, c))),
            "right distributivity {}",
            ctx()
        );
    }
    // A terminal value absorbs every addition.
    for v in [a, b, c] {
        if S::is_terminal(v) {
            prop_assert!(S::HAS_TERMINAL, "{}", ctx());
            prop_assert!(
                S::is_terminal(S::add(v, a)) && S::is_terminal(S::add(b, v)),
                "terminal {}",
                ctx()
            );
        }
    }
    Ok(())
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
