//! One matrix through several semirings ([`Objects::view`](semigraph_algos::Objects::view), [`Objects::pattern`](semigraph_algos::Objects::pattern)) on every
//! format: each view's pull and push products against the host matrix retyped or patterned
//! in the same semiring.

use semigraph_algos::testing::{same, unlimited};
use semigraph_algos::{Accum, BfsSemiring, Frontier, Mask};
use semigraph_formats::{Csr, Format, view_value};
use semigraph_semiring::testing::TestValue;
use semigraph_semiring::{MaxMin, MinMax, MinPlus, OrAnd, PlusTimes, Semiring};

use super::{random_csr, random_values};

/// The non-zero entries of a dense vector, as a sparse vector's indices and values.
fn nonzeros<S: Semiring>(v: &[S::T]) -> (Vec<u32>, Vec<S::T>) {
    let idx: Vec<u32> = (0..v.len() as u32).collect();
    nonzeros_of::<S>(&idx, v)
}

/// The entries of a sparse vector whose values are not the zero (`==`, so that plus-times's
/// `-0.0`, from a zero entry times a negative value, counts as zero).
fn nonzeros_of<S: Semiring>(idx: &[u32], vals: &[S::T]) -> (Vec<u32>, Vec<S::T>) {
    idx.iter()
        .zip(vals)
        .filter(|(_, v)| !same::<S>(**v, S::zero()))
        .map(|(i, v)| (*i, *v))
        .unzip()
}

/// `m` (semiring `S`, on `b`) computes what the host matrix `a` does: `A x` (`mxm`) and
/// `x A` over a sparse `x` (`vxm`, which walks the matrix's CSR form).
fn check_products<B: Frontier, S: Semiring>(
    b: &B,
    what: &str,
    m: &B::Matrix<S>,
    a: &Csr<S>,
    seed: u64,
) where
    S::T: TestValue,
{
    let what = format!("{what} ({})", S::full_name());
    let (nrows, ncols) = (a.nrows(), a.ncols());
    let x = random_values::<S>(ncols, seed);
    let mut y = b.dense_filled::<S>(nrows, 1, S::zero()).unwrap();
    b.mxm(
        &mut y,
        Mask::All,
        Accum::Replace,
        m,
        &b.dense::<S>(ncols, 1, &x).unwrap(),
    )
    .expect("mxm");
    let (got, want) = (b.read_dense(&y).unwrap(), a.mxv(&x));
    assert!(
        got.iter().zip(&want).all(|(g, w)| same::<S>(*g, *w)),
        "{what}: mxm: got {got:?}, want {want:?}"
    );
    let (xi, xv) = nonzeros::<S>(&random_values::<S>(nrows, seed + 1));
    let full = {
        let mut d = vec![S::zero(); nrows];
        for (i, v) in xi.iter().zip(&xv) {
            d[*i as usize] = *v;
        }
        d
    };
    let x = b.sparse::<S>(nrows, &xi, &xv).unwrap();
    let (gi, gv) = b
        .read_sparse(&b.vxm(&x, m, Mask::All).expect("vxm"))
        .unwrap();
    // Terms that cancel, or zero entries (plus-times), may leave outputs equal to the zero.
    let (gi, gv) = nonzeros_of::<S>(&gi, &gv);
    let (wi, wv) = nonzeros::<S>(&a.vxm(&full));
    assert_eq!(gi, wi, "{what}: vxm positions");
    assert!(
        gv.iter().zip(&wv).all(|(g, w)| same::<S>(*g, *w)),
        "{what}: vxm: got {gv:?}, want {wv:?}"
    );
    // Read back whole (a shared pattern's values written out), without stored zeros.
    let got = b.read_matrix(m).expect("read_matrix");
    let want = a.clone().without_zeros().expect("valid");
    assert_eq!(
        (got.row_ptr(), got.col_idx()),
        (want.row_ptr(), want.col_idx()),
        "{what}: read_matrix structure"
    );
    assert!(
        got.vals()
            .iter()
            .zip(want.vals())
            .all(|(g, w)| same::<S>(*g, *w)),
        "{what}: read_matrix values"
    );
}

/// Views and patterns of a min-plus matrix in `format`: a min-max view (the same zero: shares
/// everything, allocates and launches nothing), a max-min view (another zero: its own value
/// arrays), the patterns in or-and, the BFS parent semiring and plus-times (which counts
/// walks), a pattern of a view, and views used after their source was dropped. A recoded
/// view or a pattern makes only value arrays (at most two, HYB's) and never waits.
pub fn check_views<B: Frontier>(b: &B, format: Format) {
    type W = MinPlus<i32>;
    for (seed, (nrows, ncols)) in [(21u64, (37usize, 29usize)), (22, (64, 64)), (23, (1, 5))] {
        let a = random_csr::<W>(nrows, ncols, 6, seed);
        // Some entries equal to min-plus's zero: no arc in any pattern, in every format.
        let holed = Csr::<W>::try_from_parts(
            nrows,
            ncols,
            a.row_ptr().to_vec(),
            a.col_idx().to_vec(),
            a.vals()
                .iter()
                .enumerate()
                .map(|(k, v)| if k % 4 == 1 { W::zero() } else { *v })
                .collect(),
        )
        .expect("same structure");
        let what = |s: &str| format!("{format:?} {nrows}x{ncols} {s}");

        let m = b.matrix(&a, format, &unlimited()).expect("matrix");
        let before = b.counters();
        let same = b.view::<W, MinMax<i32>>(&m).expect("view");
        let cost = b.counters() - before;
        assert_eq!(
            (cost.allocations, cost.launches),
            (0, 0),
            "{}",
            what("view cost")
        );
        assert_eq!(
            b.matrix_info(&same),
            b.matrix_info(&m),
            "{}",
            what("view info")
        );
        let as_minmax = a.map(view_value::<W, MinMax<i32>>);
        check_products(b, &what("min-max view"), &same, &as_minmax, seed);
        let before = b.counters();
        let w = b.view::<W, MaxMin<i32>>(&m).expect("view");
        let cost = b.counters() - before;
        assert!(
            cost.allocations <= 2 && cost.syncs == 0,
            "{}: {cost:?}",
            what("view cost")
        );
        let as_maxmin = a.map(view_value::<W, MaxMin<i32>>);
        check_products(b, &what("max-min view"), &w, &as_maxmin, seed + 5);
        let back = b.view::<MaxMin<i32>, W>(&w).expect("view of a view");
        drop(m);
        check_products(
            b,
            &what("view of a view, source dropped"),
            &back,
            &a,
            seed + 10,
        );
        check_products(
            b,
            &what("view, source dropped"),
            &same,
            &as_minmax,
            seed + 15,
        );
        check_products(
            b,
            &what("pattern of a view"),
            &b.pattern::<MaxMin<i32>, OrAnd>(&w).expect("pattern"),
            &a.pattern::<OrAnd>(),
            seed + 20,
        );
        // A pattern of a matrix without zeros (the CPU shares its structure), a pattern of
        // that pattern, both used after their source was dropped.
        let m = b.matrix(&a, format, &unlimited()).expect("matrix");
        let p = b.pattern::<W, PlusTimes<f64>>(&m).expect("pattern");
        let pp = b
            .pattern::<PlusTimes<f64>, OrAnd>(&p)
            .expect("pattern of a pattern");
        drop(m);
        check_products(
            b,
            &what("pattern, source dropped"),
            &p,
            &a.pattern::<PlusTimes<f64>>(),
            seed + 25,
        );
        check_products(
            b,
            &what("pattern of a pattern"),
            &pp,
            &a.pattern::<OrAnd>(),
            seed + 27,
        );

        let h = b.matrix(&holed, format, &unlimited()).expect("matrix");
        let before = b.counters();
        let p = b.pattern::<W, OrAnd>(&h).expect("pattern");
        let cost = b.counters() - before;
        assert!(cost.allocations <= 2, "{}: {cost:?}", what("pattern cost"));
        assert_eq!(cost.syncs, 0, "{}", what("pattern waits"));
        check_products(
            b,
            &what("or-and pattern"),
            &p,
            &holed.pattern::<OrAnd>(),
            seed + 30,
        );
        let p = b.pattern::<W, BfsSemiring>(&h).expect("pattern");
        check_products(
            b,
            &what("parent pattern"),
            &p,
            &holed.pattern::<BfsSemiring>(),
            seed + 40,
        );
        let p = b.pattern::<W, PlusTimes<f64>>(&h).expect("pattern");
        drop(h);
        check_products(
            b,
            &what("counting pattern"),
            &p,
            &holed.pattern::<PlusTimes<f64>>(),
            seed + 50,
        );
    }
}
