//! Products of a matrix and a dense or sparse vector (SpMV, SpMM with each mask and
//! accumulation, SpMSpV with masks, witnesses, relaxation steps) on each format, against
//! references computed from the entries; and, first, the sparse x sparse products.

use semigraph_algos::testing::unlimited;
use semigraph_algos::{Accum, Frontier, Mask};
use semigraph_formats::Format;
use semigraph_semiring::testing::TestValue;
use semigraph_semiring::{OrAnd, Semiring};

use super::{
    check_matrix_operators, check_relax_fixpoint, check_relax_fixpoint_deferred, check_relax_step,
    check_sparse_products, check_terms, check_witness, entries, random_csr, random_values,
};

/// Every backend operation that involves a matrix, on `format`, against references:
/// SpMV and SpMM with each mask and accumulation, SpMSpV with masks.
pub fn check_matrix_ops<B: Frontier, S: Semiring>(b: &B, format: Format)
where
    S::T: TestValue,
{
    check_sparse_products::<B, S>(b, format);
    check_matrix_operators::<B, S>(b, format);
    // `iso`: every entry holds one value (a backend may store one value for all).
    for (seed, (nrows, ncols), iso) in [
        (11u64, (37usize, 29usize), false),
        (12, (64, 64), false),
        (13, (1, 5), false),
        (14, (5, 1), false),
        (15, (37, 29), true),
    ] {
        let mut a = random_csr::<S>(nrows, ncols, 6, seed);
        if let Some(&v) = a.vals().iter().find(|v| !S::is_zero(**v)).filter(|_| iso) {
            a = a.map::<S>(|_| v);
        }
        let m = b.matrix(&a, format, &unlimited()).expect("matrix");
        let info = b.matrix_info(&m);
        assert_eq!(
            (info.nrows, info.ncols, info.nnz, info.format),
            (nrows, ncols, a.nnz(), format)
        );
        let e = entries(&a);
        for k in [1usize, 3, 9] {
            let x = random_values::<S>(ncols * k, seed + 100);
            let y0 = random_values::<S>(nrows * k, seed + 200);
            let mvals = random_values::<OrAnd>(nrows * k, seed + 300);
            let xd = b.dense::<S>(ncols, k, &x).unwrap();
            let md = b.dense::<OrAnd>(nrows, k, &mvals).unwrap();
            let mut terms = vec![Vec::new(); nrows * k];
            for &(i, j, w) in &e {
                for c in 0..k {
                    let xv = x[j * k + c];
                    if !S::is_zero(xv) {
                        terms[i * k + c].push(S::mul_at(w, xv, j as u64));
                    }
                }
            }
            for accum in [Accum::Replace, Accum::Add] {
                for mk in 0..3 {
                    let mut y = b.dense::<S>(nrows, k, &y0).unwrap();
                    let mask: Mask<'_, B> = match mk {
                        0 => Mask::All,
                        1 => b.keep(&md),
                        _ => b.skip(&md),
                    };
                    let allowed: Vec<bool> = (0..nrows * k)
                        .map(|i| match mk {
                            0 => true,
                            1 => mvals[i],
                            _ => !mvals[i],
                        })
                        .collect();
                    b.mxm(&mut y, mask, accum, &m, &xd).expect("mxm");
                    let got = b.read_dense(&y).unwrap();
                    check_terms::<S>(
                        &format!("mxm {format:?} k={k} {accum:?} mask#{mk}"),
                        &got,
                        &y0,
                        &terms,
                        accum,
                        &allowed,
                    );
                }
            }
        }
        // SpMSpV: x (+).(x) A over a sparse x, with a complemented mask.
        let xv = random_values::<S>(nrows, seed + 400);
        let (idx, vals): (Vec<u32>, Vec<S::T>) = xv
            .iter()
            .enumerate()
            .filter(|(_, v)| !S::is_zero(**v))
            .map(|(i, v)| (i as u32, *v))
            .unzip();
        let xs = b.sparse::<S>(nrows, &idx, &vals).unwrap();
        let mvals = random_values::<OrAnd>(ncols, seed + 500);
        let md = b.dense::<OrAnd>(ncols, 1, &mvals).unwrap();
        for mk in 0..2 {
            let mask: Mask<'_, B> = if mk == 0 { Mask::All } else { b.skip(&md) };
            let allowed: Vec<bool> = (0..ncols).map(|j| mk == 0 || !mvals[j]).collect();
            let t = b.vxm(&xs, &m, mask).expect("vxm");
            let (ti, tv) = b.read_sparse(&t).unwrap();
            assert!(
                ti.windows(2).all(|w| w[0] < w[1]),
                "vxm output indices sorted"
            );
            let mut got = vec![S::zero(); ncols];
            for (&i, &v) in ti.iter().zip(&tv) {
                assert!(!S::is_zero(v), "vxm returned an explicit zero");
                assert!(allowed[i as usize], "vxm wrote a masked position");
                got[i as usize] = v;
            }
            let mut terms = vec![Vec::new(); ncols];
            for &(i, j, w) in &e {
                if allowed[j] && !S::is_zero(xv[i]) {
                    terms[j].push(S::mul_at(w, xv[i], i as u64));
                }
            }
            let zeros = vec![S::zero(); ncols];
            check_terms::<S>(
                &format!("vxm {format:?} mask#{mk}"),
                &got,
                &zeros,
                &terms,
                Accum::Replace,
                &vec![true; ncols],
            );
        }
        check_witness::<B, S>(b, &m, &e, &xs, &idx, &vals, seed);
        check_relax_step::<B, S>(b, &m, &e, nrows, ncols, seed);
        if nrows == ncols {
            check_relax_fixpoint::<B, S>(b, &m, &e, nrows, seed);
            check_relax_fixpoint_deferred::<B, S>(b, &m, &e, nrows, seed);
        }
    }
}
