//! The semiring zero's rules in products, on every backend: in the path semirings the zero (an
//! infinity) annihilates `+` whatever the other operand (`inf + -inf` is min-plus's `inf`, no
//! entry, never NaN), and both zeros of a float are plus-times' zero (`0 * -4 = -0` is not
//! stored). Values at the edges of the types, so not in the suite's small test values.

use semigraph_algos::{Frontier, Mask, MatrixMask};
use semigraph_formats::{ConvertOptions, Coo, Csr, Format};
use semigraph_semiring::{MaxPlus, MinPlus, PlusTimes, Semiring, f16};

/// `A B` on backend `b` for `A` of `a_entries` (`m x k`) and `B` of `b_entries` (`k x n`),
/// as host entries.
fn product<B: Frontier, S: Semiring>(
    b: &B,
    (m, k, n): (usize, usize, usize),
    a: &[(usize, usize, S::T)],
    bb: &[(usize, usize, S::T)],
) -> Result<Vec<(usize, usize, S::T)>, String> {
    let csr = |r: usize, c: usize, e: &[(usize, usize, S::T)]| -> Result<Csr<S>, String> {
        let (rows, cols, vals) = (
            e.iter().map(|x| x.0 as u32).collect(),
            e.iter().map(|x| x.1 as u32).collect(),
            e.iter().map(|x| x.2).collect(),
        );
        Coo::<S>::try_from_triplets(r, c, rows, cols, vals)
            .map(|m| m.to_csr())
            .map_err(|e| e.to_string())
    };
    let opts = ConvertOptions::default();
    let run = || -> semigraph_algos::Result<Csr<S>> {
        let da = b.matrix(&csr(m, k, a).expect("sorted entries"), Format::Csr, &opts)?;
        let db = b.matrix(&csr(k, n, bb).expect("sorted entries"), Format::Csr, &opts)?;
        b.read_matrix(&b.spgemm(MatrixMask::All, &da, &db)?)
    };
    let c = run().map_err(|e| e.to_string())?;
    Ok(c.iter().collect())
}

/// `y = A x` on backend `b` (`A` one row).
fn row_times<B: Frontier, S: Semiring>(b: &B, a: &[S::T], x: &[S::T]) -> Result<S::T, String> {
    let n = a.len();
    let csr =
        Csr::<S>::try_from_parts(1, n, vec![0, n as u32], (0..n as u32).collect(), a.to_vec())
            .map_err(|e| e.to_string())?;
    let run = || -> semigraph_algos::Result<Vec<S::T>> {
        let da = b.matrix(&csr, Format::Csr, &ConvertOptions::default())?;
        let dx = b.dense::<S>(n, 1, x)?;
        let mut y = b.dense_filled::<S>(1, 1, S::zero())?;
        b.mxm(&mut y, Mask::All, Default::default(), &da, &dx)?;
        b.read_dense(&y)
    };
    Ok(run().map_err(|e| e.to_string())?[0])
}

/// The zero annihilates in the path semirings and `-0` is plus-times' zero, on `b`.
pub fn check_zero_rules<B: Frontier>(b: &B) -> Result<(), String> {
    macro_rules! annihilates {
        ($s:ty, $inf:expr, $ninf:expr) => {{
            // Row [zero, -zero] times column [-zero, zero]: two terms, each with the zero.
            let (z, nz) = ($inf, $ninf);
            let c = product::<B, $s>(
                b,
                (1, 2, 1),
                &[(0, 0, z), (0, 1, nz)],
                &[(0, 0, nz), (1, 0, z)],
            )?;
            if !c.is_empty() {
                return Err(format!(
                    "{}: zero times its opposite gave {c:?}",
                    <$s>::full_name()
                ));
            }
            let y = row_times::<B, $s>(b, &[nz], &[z])?;
            if !<$s>::is_zero(y) {
                return Err(format!(
                    "{}: y = [-zero] [zero] is {y:?}",
                    <$s>::full_name()
                ));
            }
        }};
    }
    annihilates!(MinPlus<f64>, f64::INFINITY, f64::NEG_INFINITY);
    annihilates!(MinPlus<f32>, f32::INFINITY, f32::NEG_INFINITY);
    annihilates!(MaxPlus<f64>, f64::NEG_INFINITY, f64::INFINITY);
    annihilates!(MaxPlus<f16>, f16::NEG_INFINITY, f16::INFINITY);
    macro_rules! negative_zero {
        ($s:ty, $t:ty) => {{
            // [0 1] [[-4 0] [0 1]]: (0, 0) is 0 * -4 = -0, the zero; (0, 1) is 1.
            let zero: $t = 0.0;
            let c = product::<B, $s>(
                b,
                (1, 2, 2),
                &[(0, 0, zero), (0, 1, 1.0)],
                &[(0, 0, -4.0), (1, 1, 1.0)],
            )?;
            if c != vec![(0, 1, 1.0)] {
                return Err(format!("{}: -0 stored: {c:?}", <$s>::full_name()));
            }
        }};
    }
    negative_zero!(PlusTimes<f64>, f64);
    negative_zero!(PlusTimes<f32>, f32);
    Ok(())
}
