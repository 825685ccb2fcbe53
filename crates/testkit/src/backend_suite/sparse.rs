//! Sparse x sparse products, matrix transpose and matrix read-back, against references
//! computed from the inputs: each output position's terms `mul(A(i, k), B(k, j), k)` in
//! increasing `k`, under each kind of matrix mask, also from `B^T` (`spgemm_t`); sampled
//! dense-dense products (`sddmm`) at a mask's entries.

use semigraph_algos::testing::unlimited;
use semigraph_algos::{Backend, MatrixMask};
use semigraph_formats::{Csr, Format};
use semigraph_semiring::Semiring;
use semigraph_semiring::testing::TestValue;

use super::{check_terms, random_csr, random_values};
use semigraph_algos::Accum;

/// `A^T` and `read_matrix` on `format`, then `C<mask> = A (+).(x) B` for every mask kind, on
/// shapes that include single rows and columns.
pub fn check_sparse_products<B: Backend, S: Semiring>(b: &B, format: Format)
where
    S::T: TestValue,
{
    // The last shape has rows of every kind a GPU product distinguishes: up to 32 terms, up
    // to 2,048 (sorted by a block), more (a dense accumulator), with up to 4,096 distinct
    // columns (listed) and more (found by a scan). `iso`: every entry of A and B holds one
    // value (a backend may store such a matrix with one value for all).
    for (seed, (m, k, n), (per_a, per_b), iso) in [
        (21u64, (37usize, 29usize, 23usize), (5usize, 5usize), false),
        (22, (16, 16, 16), (5, 5), false),
        (23, (1, 5, 7), (5, 5), false),
        (24, (6, 1, 4), (5, 5), false),
        (25, (12, 64, 6000), (64, 160), false),
        // Rows of B^T (columns of B) far longer than the rows of A: searched, not walked.
        (26, (9, 300, 10), (2, 10), false),
        (27, (37, 29, 23), (5, 5), true),
        // Rows of up to 320 terms (sorted by a block on a GPU), in a few columns.
        (28, (20, 40, 300), (8, 40), true),
        // Long rows over short rows of B (a label matrix's shape): a GPU takes most chunks
        // of A's row by sorting their few terms at once, the others one row of B at a time.
        (29, (8, 3000, 200), (3000, 4), false),
        // Rows of A and of B^T of hundreds of entries: a GPU's masked dot products take such
        // an intersection by a whole warp.
        (30, (6, 400, 6), (300, 300), false),
    ] {
        let (mut a, mut bb) = (
            random_csr::<S>(m, k, per_a, seed),
            random_csr::<S>(k, n, per_b, seed + 1),
        );
        if let Some(&v) = a.vals().iter().find(|v| !S::is_zero(**v)).filter(|_| iso) {
            (a, bb) = (a.map::<S>(|_| v), bb.map::<S>(|_| v));
        }
        let mk = random_csr::<S>(m, n, 6, seed + 2);
        let da = b.matrix(&a, format, &unlimited()).expect("matrix A");
        let db = b.matrix(&bb, format, &unlimited()).expect("matrix B");
        let dm = b.matrix(&mk, format, &unlimited()).expect("mask");
        let dbt = b
            .matrix(&bb.transpose(), format, &unlimited())
            .expect("matrix B^T");
        // Read-back and transpose: the stored entries that are not the zero.
        let nonzero = |c: &Csr<S>| -> Vec<(usize, usize, S::T)> {
            c.iter().filter(|e| !S::is_zero(e.2)).collect()
        };
        let got = b.read_matrix(&da).expect("read_matrix");
        assert_eq!(got.iter().collect::<Vec<_>>(), nonzero(&a), "read_matrix");
        let t = b
            .read_matrix(&b.transpose_matrix(&da).expect("transpose_matrix"))
            .expect("read_matrix");
        let mut want_t: Vec<(usize, usize, S::T)> =
            nonzero(&a).into_iter().map(|(i, j, v)| (j, i, v)).collect();
        want_t.sort_by_key(|e| (e.0, e.1));
        assert_eq!((t.nrows(), t.ncols()), (k, m), "transpose_matrix: shape");
        assert_eq!(t.iter().collect::<Vec<_>>(), want_t, "transpose_matrix");
        // Pattern comparison: a matrix against itself, its transpose and its symmetric
        // closure's (entries that are not the zero, so that every backend stores the same).
        let a0 = a.clone().without_zeros().expect("without_zeros");
        let d0 = b.matrix(&a0, format, &unlimited()).expect("matrix");
        let t0 = b.transpose_matrix(&d0).expect("transpose_matrix");
        let same = |x, y| b.same_pattern(x, y).expect("same_pattern");
        assert!(same(&d0, &d0), "same_pattern: a matrix and itself");
        let symmetric = m == k
            && a0
                .transpose()
                .iter()
                .map(|e| (e.0, e.1))
                .eq(a0.iter().map(|e| (e.0, e.1)));
        assert_eq!(
            same(&d0, &t0),
            symmetric,
            "same_pattern: a {m}x{k} matrix and its transpose"
        );
        if m == k {
            // Each position once (no repeats for `add` to combine).
            let arcs: Vec<(u32, u32, S::T)> = a0
                .iter()
                .flat_map(|(i, j, v)| [((i, j), v), ((j, i), v)])
                .collect::<std::collections::BTreeMap<_, _>>()
                .into_iter()
                .map(|((i, j), v)| (i as u32, j as u32, v))
                .collect();
            let sym = semigraph_algos::arcs_to_csr::<S>(m, &arcs)
                .expect("arcs_to_csr")
                .without_zeros()
                .expect("without_zeros");
            let ds = b.matrix(&sym, format, &unlimited()).expect("matrix");
            let ts = b.transpose_matrix(&ds).expect("transpose_matrix");
            assert!(
                same(&ds, &ts),
                "same_pattern: a symmetric matrix and its transpose"
            );
            assert_eq!(
                same(&ds, &d0),
                sym.nnz() == a0.nnz(),
                "same_pattern: A + A^T and A"
            );
        }
        // Terms per output position, in increasing k.
        let mut terms = vec![Vec::new(); m * n];
        for (i, kk, av) in a.iter() {
            for (j, bv) in bb.row(kk).0.iter().zip(bb.row(kk).1) {
                terms[i * n + *j as usize].push((kk, S::mul_at(av, *bv, kk as u64)));
            }
        }
        let terms: Vec<Vec<S::T>> = terms
            .into_iter()
            .map(|mut t| {
                t.sort_by_key(|e| e.0);
                t.into_iter().map(|e| e.1).collect()
            })
            .collect();
        let mut has = vec![false; m * n];
        for (i, j, v) in mk.iter() {
            has[i * n + j] = !S::is_zero(v);
        }
        // The sampled dense-dense product at the mask's entries: X (m x k) and Y (n x k),
        // the terms mul(X(i, t), Y(j, t), t) in increasing t.
        let (xv, yv) = (
            random_values::<S>(m * k, seed + 3),
            random_values::<S>(n * k, seed + 4),
        );
        let (dx, dy) = (
            b.dense::<S>(m, k, &xv).expect("dense X"),
            b.dense::<S>(n, k, &yv).expect("dense Y"),
        );
        let sampled = b
            .read_matrix(&b.sddmm(&dm, &dx, &dy).expect("sddmm"))
            .expect("read");
        let mut dense = vec![S::zero(); m * n];
        for (i, j, v) in sampled.iter() {
            assert!(
                has[i * n + j],
                "sddmm: an entry ({i}, {j}) outside the mask"
            );
            dense[i * n + j] = v;
        }
        let sampled_terms: Vec<Vec<S::T>> = (0..m * n)
            .map(|p| {
                let (i, j) = (p / n, p % n);
                (0..k)
                    .map(|t| S::mul_at(xv[i * k + t], yv[j * k + t], t as u64))
                    .collect()
            })
            .collect();
        check_terms::<S>(
            &format!("sddmm {m}x{n} (k {k})"),
            &dense,
            &vec![S::zero(); m * n],
            &sampled_terms,
            Accum::Replace,
            &has,
        );
        assert!(
            b.sddmm(&dm, &dy, &dx).is_err() || m == n,
            "sddmm: X and Y of the wrong shapes were accepted"
        );
        for kind in 0..3 {
            let mask = match kind {
                0 => MatrixMask::All,
                1 => MatrixMask::Keep(&dm),
                _ => MatrixMask::Skip(&dm),
            };
            let c = b.spgemm(mask, &da, &db).expect("spgemm");
            // The same product from B^T.
            let ct = b.spgemm_t(mask, &da, &dbt).expect("spgemm_t");
            assert_eq!(
                b.read_matrix(&ct)
                    .expect("read_matrix")
                    .iter()
                    .collect::<Vec<_>>(),
                b.read_matrix(&c)
                    .expect("read_matrix")
                    .iter()
                    .collect::<Vec<_>>(),
                "spgemm_t (mask kind {kind}) differs from spgemm"
            );
            let info = b.matrix_info(&c);
            assert_eq!((info.nrows, info.ncols), (m, n), "spgemm: shape");
            let c = b.read_matrix(&c).expect("read_matrix");
            assert!(
                c.vals().iter().all(|v| !S::is_zero(*v)),
                "spgemm (mask kind {kind}): an entry holds the zero"
            );
            let mut dense = vec![S::zero(); m * n];
            for (i, j, v) in c.iter() {
                dense[i * n + j] = v;
            }
            let allowed: Vec<bool> = (0..m * n)
                .map(|p| match kind {
                    0 => true,
                    1 => has[p],
                    _ => !has[p],
                })
                .collect();
            let zeros = vec![S::zero(); m * n];
            check_terms::<S>(
                &format!("spgemm {m}x{k}x{n} (mask kind {kind})"),
                &dense,
                &zeros,
                &terms,
                Accum::Replace,
                &allowed,
            );
        }
    }
}
