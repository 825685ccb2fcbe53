//! The check against exact references: 128-bit sums of random matrices at the limits.
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
