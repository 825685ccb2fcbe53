//! Products of a matrix and a dense or sparse vector (SpMV, SpMM with each mask and
//! accumulation, SpMSpV with masks, witnesses, relaxation steps) on each format, against
//! references computed from the entries; and, first, the sparse x sparse products.

use semigraph_algos::testing::unlimited;
use semigraph_algos::{Accum, Frontier, Mask};
use semigraph_formats::Format;
use semigraph_semiring::testing::{TestValue, test_value};
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
    if format == Format::Csr {
        check_long_vector::<B, S>(b);
    }
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

/// SpMV with a vector longer than a core's cache (over 1 MiB of values), mostly empty (a
/// traversal's frontier: a backend may test its entries in a bitmap) and mostly stored (read
/// whole), with and without a complemented mask, against the terms of the entries.
fn check_long_vector<B: Frontier, S: Semiring>(b: &B)
where
    S::T: TestValue,
{
    let (nrows, ncols) = (97usize, (1usize << 20) / size_of::<S::T>() + 3);
    // Rows as short as the other products' (sums of a few terms, which 16-bit floats add
    // exactly in any order).
    let a = random_csr::<S>(nrows, ncols, 6, 31);
    let m = b.matrix(&a, Format::Csr, &unlimited()).expect("matrix");
    let e = entries(&a);
    let full = random_values::<S>(ncols, 32);
    // One stored entry in 3.
    let sparse: Vec<S::T> = (0..ncols)
        .map(|j| match j.wrapping_mul(2_654_435_761) % 3 {
            0 if S::is_zero(full[j]) => test_value::<S>(7, false),
            0 => full[j],
            _ => S::zero(),
        })
        .collect();
    let mvals = random_values::<OrAnd>(nrows, 33);
    let md = b.dense::<OrAnd>(nrows, 1, &mvals).unwrap();
    for (what, x) in [("mostly empty", &sparse), ("mostly stored", &full)] {
        let xd = b.dense::<S>(ncols, 1, x).unwrap();
        let mut terms = vec![Vec::new(); nrows];
        for &(i, j, w) in &e {
            if !S::is_zero(x[j]) {
                terms[i].push(S::mul_at(w, x[j], j as u64));
            }
        }
        assert!(
            terms.iter().filter(|t| !t.is_empty()).count() > nrows / 3,
            "{what}: many rows meet a stored entry"
        );
        let y0 = random_values::<S>(nrows, 34);
        for skip in [false, true] {
            let mut y = b.dense::<S>(nrows, 1, &y0).unwrap();
            let mask: Mask<'_, B> = if skip { b.skip(&md) } else { Mask::All };
            let allowed: Vec<bool> = (0..nrows).map(|i| !skip || !mvals[i]).collect();
            b.mxm(&mut y, mask, Accum::Replace, &m, &xd).expect("mxm");
            check_terms::<S>(
                &format!("mxm, a vector of {ncols} {what}, skip mask {skip}"),
                &b.read_dense(&y).unwrap(),
                &y0,
                &terms,
                Accum::Replace,
                &allowed,
            );
        }
    }
}
