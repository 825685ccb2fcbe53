#![allow(missing_docs)]
//! Every format converts to every other and back without loss, for every built-in semiring
//! and value type, checked against a dense reference; SpMV agrees in every format.

use proptest::prelude::*;
use semigraph_formats::{
    ConvertOptions, Coo, Csr, Dense, Dia, Ell, Format, FormatError, Hyb, SparseMatrix, Storage,
};
use semigraph_semiring::testing::{TestValue, test_value};
use semigraph_semiring::{MinPlus, OrAnd, Semiring, SrVal};

/// Random triplets: `(row, col, small value, is the semiring zero)`, duplicates allowed.
fn triplets(max: usize) -> impl Strategy<Value = (usize, usize, Vec<(usize, usize, i32)>)> {
    (1..=max, 1..=max).prop_flat_map(|(r, c)| {
        (
            Just(r),
            Just(c),
            prop::collection::vec((0..r, 0..c, -1000i32..1000), 0..(r * c + 4)),
        )
    })
}

/// The dense reference: duplicates combined with `add` in order, missing = zero.
fn dense_ref<S: Semiring>(
    r: usize,
    c: usize,
    t: &[(usize, usize, S::T)],
) -> Vec<Vec<Option<S::T>>> {
    let mut d = vec![vec![None; c]; r];
    for &(i, j, v) in t {
        d[i][j] = Some(match d[i][j] {
            None => v,
            Some(old) => S::add(old, v),
        });
    }
    d
}

fn spmv_ref<S: Semiring>(d: &[Vec<Option<S::T>>], x: &[S::T]) -> Vec<S::T> {
    d.iter()
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

/// SpMV results are equal to the reference, except for `any`, which may keep any of the
/// row's products: then the result must be one of them (zero only when all are).
fn check_spmv<S: Semiring>(
    d: &[Vec<Option<S::T>>],
    x: &[S::T],
    got: &[S::T],
    want: &[S::T],
    f: Format,
) -> Result<(), TestCaseError> {
    if S::NAME != "any_secondi" {
        prop_assert_eq!(got, want, "{} spmv in {}", S::full_name(), f);
        return Ok(());
    }
    for (i, row) in d.iter().enumerate() {
        let products: Vec<S::T> = row
            .iter()
            .enumerate()
            .filter_map(|(k, v)| v.map(|v| S::mul_at(v, x[k], k as u64)))
            .filter(|p| !S::is_zero(*p))
            .collect();
        if products.is_empty() {
            prop_assert!(S::is_zero(got[i]), "row {i} in {f}");
        } else {
            prop_assert!(
                products.contains(&got[i]),
                "row {i} in {f}: {:?} not in {products:?}",
                got[i]
            );
        }
    }
    Ok(())
}

fn check_all_formats<S: Semiring>(
    r: usize,
    c: usize,
    raw: &[(usize, usize, i32)],
) -> Result<(), TestCaseError>
where
    S::T: TestValue,
{
    // Values are never the semiring zero here: DIA and dense cannot store that (see
    // `explicit_entries_survive` for what each format keeps).
    let t: Vec<(usize, usize, S::T)> = raw
        .iter()
        .map(|&(i, j, v)| (i, j, test_value::<S>(v, false)))
        .collect();
    let mut coo = Coo::<S, u32>::new(r, c).unwrap();
    for &(i, j, v) in &t {
        coo.push(i, j, v);
    }
    let want = dense_ref::<S>(r, c, &t);
    let csr = coo.to_csr();
    // CSR equals the dense reference, entry by entry (pattern and values).
    for (i, row) in want.iter().enumerate() {
        for (j, w) in row.iter().enumerate() {
            let got = csr.get(i, j);
            // A combination of duplicates may itself be the zero (e.g. plus-times 3 + -3).
            prop_assert!(got == *w, "{} ({i},{j}): {got:?} != {w:?}", S::full_name());
        }
    }
    let x: Vec<S::T> = (0..c)
        .map(|k| test_value::<S>(k as i32 * 7 - 11, k % 5 == 3))
        .collect();
    let y_ref = spmv_ref::<S>(&want, &x);
    check_spmv::<S>(&want, &x, &csr.spmv(&x), &y_ref, Format::Csr)?;
    let opts = ConvertOptions {
        max_fill: f64::INFINITY,
        ..Default::default()
    };
    let base = SparseMatrix::Coo(coo);
    // Entries whose combined value is the semiring zero are dropped by DIA and dense only.
    let csr_no_zero = {
        let mut c2 = Coo::<S, u32>::new(r, c).unwrap();
        for (i, j, v) in csr.iter() {
            if !S::is_zero(v) {
                c2.push(i, j, v);
            }
        }
        c2.to_csr()
    };
    for f1 in Format::ALL {
        let a = base.convert(f1, &opts).unwrap();
        prop_assert_eq!(a.format(), f1);
        prop_assert_eq!(a.shape(), (r, c));
        check_spmv::<S>(&want, &x, &a.spmv(&x), &y_ref, f1)?;
        for f2 in Format::ALL {
            let b = a.convert(f2, &opts).unwrap();
            let back = b.to_csr().unwrap();
            let lossy = [f1, f2]
                .iter()
                .any(|f| matches!(f, Format::Dia | Format::Dense));
            let expected = if lossy { &csr_no_zero } else { &csr };
            prop_assert!(
                &back == expected,
                "{}: {} -> {} -> csr differs",
                S::full_name(),
                f1,
                f2
            );
        }
    }
    // The transpose of the transpose is the matrix, and transposes agree with the reference.
    let tr = csr.transpose();
    prop_assert!(tr.transpose() == csr);
    for (i, j, v) in tr.iter() {
        prop_assert!(want[j][i] == Some(v));
    }
    Ok(())
}

macro_rules! format_test {
    ($label:ident, $s:ty) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]
            #[test]
            fn $label((r, c, t) in triplets(7)) {
                check_all_formats::<$s>(r, c, &t)?;
            }
        }
    };
}

mod all_formats {
    use super::*;
    // The suites' semirings: a cover of the built-ins (every one with the testkit's feature
    // `every-semiring`).
    semigraph_testkit::for_each_suite_semiring!(format_test);
}

#[test]
fn explicit_entries_survive() {
    // A literal 0 is a real min-plus entry (a free edge): every format keeps it.
    type S = MinPlus<f32>;
    let mut coo = Coo::<S>::new(2, 3).unwrap();
    coo.push(0, 0, 0.0);
    coo.push(1, 2, f32::INFINITY); // the semiring zero, stored explicitly
    coo.push(1, 1, 5.0);
    let csr = coo.to_csr();
    assert_eq!(csr.nnz(), 3);
    let opts = ConvertOptions::default();
    for f in Format::ALL {
        let back = SparseMatrix::from_csr(&csr, f, &opts)
            .unwrap()
            .to_csr()
            .unwrap();
        assert_eq!(back.get(0, 0), Some(0.0), "{f} lost the zero-weight edge");
        assert_eq!(back.get(1, 1), Some(5.0), "{f}");
        // COO, CSR, ELL and HYB keep an entry equal to the semiring zero; DIA and dense
        // cannot tell it from padding (it contributes nothing to any product).
        let keeps = !matches!(f, Format::Dia | Format::Dense);
        assert_eq!(back.get(1, 2).is_some(), keeps, "{f}");
    }
}

#[test]
fn ell_and_dia_padding_is_the_semiring_zero() {
    type S = MinPlus<f32>;
    let mut coo = Coo::<S>::new(3, 3).unwrap();
    coo.push(0, 0, 1.0);
    coo.push(0, 1, 2.0);
    coo.push(2, 2, 0.0);
    let csr = coo.to_csr();
    let opts = ConvertOptions::default();
    let ell = Ell::from_csr(&csr, &opts).unwrap();
    // Column-major, width 2: slot 0 of rows 0,1,2 then slot 1.
    assert_eq!(
        ell.vals(),
        &[1.0, f32::INFINITY, 0.0, 2.0, f32::INFINITY, f32::INFINITY]
    );
    assert_eq!(ell.col_idx(), &[0, u32::MAX, 2, 1, u32::MAX, u32::MAX]);
    let dia = Dia::from_csr(&csr, &opts).unwrap();
    assert_eq!(dia.offsets(), &[0, 1]);
    assert_eq!(
        dia.data(),
        &[1.0, f32::INFINITY, 0.0, 2.0, f32::INFINITY, f32::INFINITY]
    );
    // With or-and the padding is `false`.
    let b: Csr<OrAnd> = csr.pattern();
    assert_eq!(
        Ell::from_csr(&b, &opts).unwrap().vals(),
        &[true, false, true, true, false, false]
    );
}

#[test]
fn duplicates_combine_with_the_semiring_add() {
    let mut coo = Coo::<MinPlus<i32>>::new(2, 2).unwrap();
    coo.push(0, 1, 7);
    coo.push(0, 1, 3);
    coo.push(0, 1, 9);
    assert_eq!(coo.to_csr().get(0, 1), Some(3)); // scipy's minimum-of-duplicates
    let mut coo = Coo::<semigraph_semiring::PlusTimes<i32>>::new(2, 2).unwrap();
    coo.push(0, 1, 7);
    coo.push(0, 1, 3);
    assert_eq!(coo.to_csr().get(0, 1), Some(10));
}

#[test]
fn padded_formats_refuse_excessive_fill_before_allocating() {
    let g = semigraph_formats::generate::star(100_000);
    let a: Csr<MinPlus<f32>> = g.to_csr().unwrap();
    let e = Ell::from_csr(&a, &ConvertOptions::default()).unwrap_err();
    match e {
        FormatError::FillTooLarge {
            format: Format::Ell,
            stored,
            nnz,
            ..
        } => {
            assert_eq!((stored, nnz), (99_999 * 100_000, 99_999));
        }
        e => panic!("{e}"),
    }
    assert!(e.to_string().contains("ell would store"), "{e}");
    assert!(matches!(
        Dense::from_csr(&a, &ConvertOptions::default()),
        Err(FormatError::FillTooLarge { .. })
    ));
    // HYB handles the star: one ELL column, nothing in COO... or all in COO.
    let h = Hyb::from_csr(&a, &ConvertOptions::default()).unwrap();
    assert_eq!(h.nnz(), a.nnz());
}

#[test]
fn sizes_that_overflow_the_index_type_are_errors() {
    let e = Coo::<MinPlus<f32>, u32>::new(u32::MAX as usize + 1, 1).unwrap_err();
    assert!(
        matches!(e, FormatError::IndexOverflow { what: "rows", .. }),
        "{e}"
    );
    assert!(Coo::<MinPlus<f32>, u64>::new(u32::MAX as usize + 1, 1).is_ok());
    let bad = Csr::<MinPlus<f32>>::try_from_parts(2, 2, vec![0, 2, 1], vec![0, 1], vec![1.0, 2.0]);
    assert!(matches!(bad, Err(FormatError::InvalidStructure { .. })));
    let bad = Csr::<MinPlus<f32>>::try_from_parts(1, 2, vec![0, 2], vec![1, 0], vec![1.0, 2.0]);
    assert!(
        bad.unwrap_err()
            .to_string()
            .contains("not strictly increasing")
    );
}

#[test]
#[should_panic(expected = "x has 3 entries, the matrix 2 columns")]
fn wrong_vector_length_panics() {
    let a = Csr::<MinPlus<f32>>::empty(2, 2).unwrap();
    let _ = a.spmv(&[0.0; 3]);
}

#[test]
fn stats_and_recommendations() {
    use semigraph_formats::{Stats, generate};
    let grid: Csr<MinPlus<f32>> = generate::grid(64, 64, 1, 100, 1).to_csr().unwrap();
    let s = Stats::of(&grid);
    assert_eq!(
        (
            s.features.nrows,
            s.features.diagonals,
            s.features.bandwidth,
            s.features.row_len_max,
            s.row_len_min
        ),
        (4096, 4, 64, 4, 2)
    );
    // 4,096 rows are too few for DIA to beat CSR on a GPU (the format study); 160,000 are not.
    assert_eq!(s.recommended, Format::Csr, "{s}");
    let big: Csr<MinPlus<f32>> = generate::stencil(&[400, 400], 5).to_csr().unwrap();
    assert_eq!(Stats::of(&big).recommended, Format::Dia);
    let kron: Csr<MinPlus<f32>> = generate::kronecker(12, 16, 1).to_csr().unwrap();
    let s = Stats::of(&kron);
    assert_eq!(s.recommended, Format::Csr, "{s}");
    assert!(s.features.row_len_stddev > s.features.row_len_mean);
    let u: Csr<MinPlus<f32>> = generate::urand(12, 8, 1).to_csr().unwrap();
    let s = Stats::of(&u);
    assert_eq!(s.recommended, Format::Csr, "{s}");
    let total: usize = s.row_len_histogram.iter().map(|b| b.2).sum();
    assert_eq!(total, 4096);
    // Scattered rows of one length, enough of them: ELL on a GPU, CSR on the CPU.
    let r: Csr<MinPlus<f32>> = generate::bipartite(300_000, 30_000, 8, 1).to_csr().unwrap();
    let s = Stats::of(&r);
    assert_eq!(
        (s.recommended, s.recommended_cpu),
        (Format::Ell, Format::Csr),
        "{s}"
    );
    let full: Csr<MinPlus<f32>> = generate::complete(20).to_csr().unwrap();
    let s = Stats::of(&full);
    assert_eq!(
        (s.recommended, s.recommended_cpu),
        (Format::Csr, Format::Dense),
        "{s}"
    );
}

#[test]
fn transpose_statistics_without_the_transpose() {
    use semigraph_formats::{Stats, generate};
    let one_way = {
        let mut g = generate::kronecker(11, 8, 3);
        g.dst.iter_mut().for_each(|d| *d = (*d * 7 + 3) % 2048);
        g
    };
    let cases: Vec<Csr<MinPlus<f32>>> = vec![
        generate::grid(30, 40, 1, 9, 1).to_csr().unwrap(),
        generate::kronecker(12, 16, 1).to_csr().unwrap(),
        one_way.to_csr().unwrap(),
        generate::bipartite(3_000, 700, 5, 2).to_csr().unwrap(),
        generate::bipartite(200, 5_000, 9, 4).to_csr().unwrap(),
        Csr::empty(0, 5).unwrap(),
        Csr::empty(6, 3).unwrap(),
    ];
    for a in &cases {
        let t = Stats::of_transpose(a);
        assert_eq!(
            t,
            Stats::of(&a.try_transpose().unwrap()),
            "{}x{}",
            a.nrows(),
            a.ncols()
        );
    }
    // A directed graph's transpose has other row lengths than the graph.
    let a = &cases[2];
    assert_ne!(
        Stats::of(a).row_len_histogram,
        Stats::of_transpose(a).row_len_histogram
    );
}

proptest! {
    /// Our CSR SpMV equals sprs's product with the same semiring values.
    #[test]
    fn csr_spmv_matches_sprs((r, c, t) in triplets(9), xs in prop::collection::vec(-50i32..50, 9)) {
        type S = MinPlus<i32>;
        let mut coo = Coo::<S>::new(r, c).unwrap();
        let mut tri = sprs::TriMat::new((r, c));
        for &(i, j, v) in &t {
            coo.push(i, j, v);
        }
        let csr = coo.to_csr();
        for (i, j, v) in csr.iter() {
            tri.add_triplet(i, j, SrVal::<S>::new(v));
        }
        let a: sprs::CsMat<SrVal<S>> = tri.to_csr();
        let x: Vec<i32> = xs[..c].to_vec();
        let xv = sprs::CsVec::new(c, (0..c).collect(), x.iter().map(|v| SrVal::<S>::new(*v)).collect());
        let y = &a * &xv;
        let ours = csr.spmv(&x);
        for (i, o) in ours.iter().enumerate() {
            let theirs = y.get(i).map(|v| v.get()).unwrap_or(S::zero());
            prop_assert_eq!(*o, theirs, "row {}", i);
        }
    }
}

/// Every format through the `Storage` trait: the reference SpMV equals CSR's, the entry count
/// is kept, and the CSR comes back unchanged.
fn storage_round_trip<F: Storage<MinPlus<f32>>>(a: &Csr<MinPlus<f32>>) {
    let f = F::from_csr(a, &ConvertOptions::default()).unwrap();
    let x: Vec<f32> = (0..a.ncols()).map(|j| (j % 7) as f32).collect();
    assert_eq!(f.spmv(&x), a.spmv(&x), "{}", F::FORMAT);
    assert_eq!(f.nnz(), a.nnz(), "{}", F::FORMAT);
    assert_eq!(f.shape(), (a.nrows(), a.ncols()), "{}", F::FORMAT);
    assert_eq!(f.to_csr().unwrap(), *a, "{}", F::FORMAT);
}

#[test]
fn every_format_is_a_storage() {
    // A band of three diagonals with a few entries missing, 40 x 40.
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    for i in 0..40u32 {
        for j in [i.saturating_sub(1), i, (i + 1).min(39)] {
            if (i * 7 + j) % 11 != 0 && !(r.last() == Some(&i) && c.last() == Some(&j)) {
                r.push(i);
                c.push(j);
                v.push((i + j) as f32);
            }
        }
    }
    let a = Coo::<MinPlus<f32>>::try_from_triplets(40, 40, r, c, v)
        .unwrap()
        .to_csr();
    storage_round_trip::<Coo<_>>(&a);
    storage_round_trip::<Csr<_>>(&a);
    storage_round_trip::<Ell<_>>(&a);
    storage_round_trip::<Dia<_>>(&a);
    storage_round_trip::<Hyb<_>>(&a);
    storage_round_trip::<Dense<_>>(&a);
}
