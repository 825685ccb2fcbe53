#![allow(missing_docs)]
//! Inputs on which the semirings must give different answers, the CUDA source of each
//! semiring, and sprs interop.

use std::path::PathBuf;

use proptest::prelude::*;
use semigraph_semiring::testing::user::FirstIndex; // (min, secondi) over u32, index-aware
use semigraph_semiring::*;

/// `y = A x` over dense rows, `None` = missing entry.
fn spmv<S: Semiring>(a: &[Vec<Option<S::T>>], x: &[S::T]) -> Vec<S::T> {
    a.iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .fold(S::zero(), |acc, (k, v)| match v {
                    Some(v) => S::add(acc, S::mul_at(*v, x[k], k as u64)),
                    None => acc,
                })
        })
        .collect()
}

#[test]
fn semirings_give_different_answers() {
    // row 0: entries 2 and 5; row 1: entries 4 and 0 (an explicit zero is a real entry);
    // row 2: empty.
    let a = vec![
        vec![Some(2), Some(5)],
        vec![Some(4), Some(0)],
        vec![None, None],
    ];
    let x = [3, 1];
    assert_eq!(spmv::<PlusTimes<i32>>(&a, &x), vec![11, 12, 0]);
    assert_eq!(spmv::<MinPlus<i32>>(&a, &x), vec![5, 1, i32::MAX]);
    assert_eq!(spmv::<MaxPlus<i32>>(&a, &x), vec![6, 7, i32::MIN]);
    assert_eq!(spmv::<MaxMin<i32>>(&a, &x), vec![2, 3, i32::MIN]);
    assert_eq!(spmv::<MinMax<i32>>(&a, &x), vec![3, 1, i32::MAX]);
    let af: Vec<Vec<Option<f32>>> = a
        .iter()
        .map(|r| r.iter().map(|v| v.map(|v| v as f32)).collect())
        .collect();
    assert_eq!(
        spmv::<MinPlus<f32>>(&af, &[3.0, f32::INFINITY]),
        vec![5.0, 7.0, f32::INFINITY]
    );
    assert_eq!(
        spmv::<PlusTimes<f32>>(&af, &[3.0, 1.0]),
        vec![11.0, 12.0, 0.0]
    );
    // Parents: y[i] = the smallest index of a frontier vertex with an edge to i.
    let pat = vec![vec![None, Some(0u32), Some(0)], vec![Some(0), None, None]];
    let frontier = [u32::MAX, 0, 0]; // vertices 1 and 2 are in the frontier
    assert_eq!(spmv::<MinSecondI<u32>>(&pat, &frontier), vec![1, u32::MAX]);
    // (distance, predecessor): reach 0 from 1 (dist 3) + 2 or from 2 (dist 1) + 5.
    let w = vec![vec![
        None,
        Some(DistPred::new(2.0f32, 0)),
        Some(DistPred::new(5.0, 0)),
    ]];
    let d = [
        DistPred::unreachable(),
        DistPred::new(3.0f32, 9),
        DistPred::new(1.0, 9),
    ];
    let y = spmv::<MinPlusPred<f32>>(&w, &d);
    assert_eq!((y[0].dist(), y[0].pred()), (5.0, 1));
    // Tie on the distance: the smaller predecessor wins.
    let d = [
        DistPred::unreachable(),
        DistPred::new(4.0f32, 9),
        DistPred::new(1.0, 9),
    ];
    let y = spmv::<MinPlusPred<f32>>(&w, &d);
    assert_eq!((y[0].dist(), y[0].pred()), (6.0, 1));
    assert!(spmv::<OrAnd>(&[vec![Some(true), None]], &[true, false])[0]);
    assert!(!spmv::<OrAnd>(&[vec![None, Some(true)]], &[true, false])[0]);
}

#[test]
fn cuda_source_contains_the_operators() {
    let mp = MinPlus::<f32>::cuda().prelude();
    assert!(
        mp.contains("sr_add(sr_t a, sr_t b) { return (b < a ? b : a); }"),
        "{mp}"
    );
    // The zero (inf) annihilates: inf + -inf (NaN) is inf.
    assert!(
        mp.contains("return (((a + b) == (a + b) ? (a + b) : SR_ZERO)); }"),
        "{mp}"
    );
    assert!(
        mp.contains("#define SR_ZERO (__int_as_float(0x7f800000))"),
        "{mp}"
    );
    let pt = PlusTimes::<f32>::cuda().prelude();
    assert!(
        pt.contains("return (a + b); }") && pt.contains("return (a * b); }"),
        "{pt}"
    );
    assert!(pt.contains("atomicAdd(p, v);"), "{pt}");
    assert_ne!(mp, pt);
    let mpi = MinPlus::<i32>::cuda().prelude();
    assert!(
        mpi.contains("sg_sat_add(a, b)") && mpi.contains("atomicMin(p, v);"),
        "{mpi}"
    );
    let oa = OrAnd::cuda().prelude();
    assert!(
        oa.contains("(a || b)") && oa.contains("(a && b)") && oa.contains("atomicCAS"),
        "{oa}"
    );
    assert!(oa.contains("#define SR_HAS_TERMINAL 1"), "{oa}");
    let h = MinPlus::<f16>::cuda().prelude();
    assert!(
        h.contains("struct sg_f16") && h.contains("typedef sg_f16 sr_t;"),
        "{h}"
    );
    assert!(!h.contains("#include"), "NVRTC ships no headers: {h}");
}

/// Every built-in's CUDA prelude equals its committed snapshot in `tests/snapshots/`
/// (`SEMIGRAPH_UPDATE_SNAPSHOTS=1` rewrites them).
#[test]
fn cuda_preludes_match_snapshots() {
    // At run time: cargo sets CARGO_MANIFEST_DIR for the tests it runs; a staged binary runs
    // from the crate or from the repository root.
    let dir = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(d) => PathBuf::from(d).join("tests/snapshots"),
        None if PathBuf::from("tests/snapshots").is_dir() => PathBuf::from("tests/snapshots"),
        None => PathBuf::from("crates/semiring/tests/snapshots"),
    };
    let update = std::env::var_os("SEMIGRAPH_UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    macro_rules! snap {
        ($label:ident, $s:ty) => {{
            let c = <$s>::cuda();
            assert_eq!(c.full_name(), <$s>::full_name());
            let path = dir.join(format!("{}.cuh", c.full_name()));
            let src = c.prelude();
            if update {
                std::fs::write(&path, &src).unwrap();
            } else {
                match std::fs::read_to_string(&path) {
                    Ok(old) if old == src => {}
                    _ => failures.push(path.display().to_string()),
                }
            }
        }};
    }
    for_each_builtin!(snap);
    assert!(
        failures.is_empty(),
        "snapshots differ (rerun with SEMIGRAPH_UPDATE_SNAPSHOTS=1 after review): {failures:?}"
    );
}

#[test]
fn kernel_key_names_are_valid() {
    macro_rules! check {
        ($label:ident, $s:ty) => {
            assert!(semigraph_semiring::semiring::is_key_name(<$s>::NAME));
            assert_eq!(stringify!($label), <$s>::full_name());
        };
    }
    for_each_builtin!(check);
}

semiring! {
    /// A user-defined semiring: (max, *) over f64.
    pub struct MaxTimes: f64 {
        name: "max_times",
        zero: 0.0,
        one: 1.0,
        add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
        mul: |a, b| a * b => "a * b",
        terminal: |a| a == f64::INFINITY => "a == __longlong_as_double(0x7ff0000000000000LL)",
    }
}

#[test]
fn user_defined_semiring() {
    let a = vec![vec![Some(0.5), Some(0.9)]];
    assert_eq!(spmv::<MaxTimes>(&a, &[0.5, 0.5]), vec![0.45]);
    let c = MaxTimes::cuda();
    assert_eq!(c.atomic, AtomicAdd::Cas);
    assert!(
        c.prelude()
            .contains("#define SR_ZERO (__longlong_as_double(0x0000000000000000LL))")
    );
    assert!(MaxTimes::HAS_TERMINAL && MaxTimes::is_terminal(f64::INFINITY));
}

#[test]
fn user_defined_index_semiring() {
    // Row 0 meets x at columns 1 and 2, row 1 at none: the first column that meets wins.
    let m = u32::MAX;
    let a = vec![vec![Some(1), Some(1), Some(1)], vec![Some(1), None, None]];
    assert_eq!(spmv::<FirstIndex>(&a, &[m, 4, 4]), vec![1, m]);
    const { assert!(FirstIndex::USES_INDEX && !MaxTimes::USES_INDEX) };
    assert_eq!(FirstIndex::mul(3, 5), 5);
    assert!(FirstIndex::cuda().prelude().contains("(unsigned int)k"));
}

#[test]
#[should_panic(expected = "must be non-empty and use only")]
fn bad_user_name_is_refused() {
    semiring! {
        struct Bad: i32 {
            name: "Bad Name",
            zero: 0,
            one: 1,
            add: |a, b| a + b => "a + b",
            mul: |a, b| a * b => "a * b",
        }
    }
    let _ = Bad::cuda();
}

/// Dense min-plus product, `None` = missing.
fn dense_mm<S: Semiring>(a: &[Vec<Option<S::T>>], b: &[Vec<Option<S::T>>]) -> Vec<Vec<S::T>> {
    let n = b[0].len();
    a.iter()
        .map(|row| {
            (0..n)
                .map(|j| {
                    row.iter()
                        .enumerate()
                        .fold(S::zero(), |acc, (k, v)| match (v, b[k][j]) {
                            (Some(x), Some(y)) => S::add(acc, S::mul(*x, y)),
                            _ => acc,
                        })
                })
                .collect()
        })
        .collect()
}

fn to_sprs<S: Semiring>(a: &[Vec<Option<S::T>>]) -> sprs::CsMat<SrVal<S>> {
    let mut t = sprs::TriMat::new((a.len(), a[0].len()));
    for (i, row) in a.iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            if let Some(v) = v {
                t.add_triplet(i, j, SrVal::new(*v));
            }
        }
    }
    t.to_csr()
}

fn matrix(n: usize) -> impl Strategy<Value = Vec<Vec<Option<i32>>>> {
    prop::collection::vec(
        prop::collection::vec(prop::option::weighted(0.4, -20i32..50), n),
        n,
    )
}

proptest! {
    /// sprs computes min-plus (and max-min) products equal to a dense reference.
    #[test]
    fn sprs_product_is_the_semiring_product(a in matrix(6), b in matrix(6)) {
        fn check<S: Semiring<T = i32>>(a: &[Vec<Option<i32>>], b: &[Vec<Option<i32>>]) -> Result<(), TestCaseError> {
            let want = dense_mm::<S>(a, b);
            let got = &to_sprs::<S>(a) * &to_sprs::<S>(b);
            for (i, row) in want.iter().enumerate() {
                for (j, w) in row.iter().enumerate() {
                    let g = got.get(i, j).map(|v| v.get()).unwrap_or(S::zero());
                    prop_assert_eq!(g, *w, "{} at ({}, {})", S::full_name(), i, j);
                }
            }
            Ok(())
        }
        check::<MinPlus<i32>>(&a, &b)?;
        check::<MaxMin<i32>>(&a, &b)?;
        check::<PlusTimes<i32>>(&a, &b)?;
    }
}
