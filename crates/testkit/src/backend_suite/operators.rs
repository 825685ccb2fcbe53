//! Operators of one's own ([`Operators`](semigraph_algos::Operators)) against references
//! computed on the host from the same inputs. The operators are the semiring's own `add` and
//! `mul` ([`SemiringAdd`], [`SemiringMul`]), which exist for every semiring, two test operators
//! written in terms of the semiring's CUDA names, and the index predicates of the built-ins.

use semigraph_algos::testing::{picks_any, same, unlimited};
use semigraph_algos::{Backend, Bound, Combine, Mask, Parents};
use semigraph_formats::{Csr, Format};
use semigraph_semiring::ops::{
    BinaryOperator, CudaOp, OpKind, SelectOperator, SemiringAdd, SemiringMul, StrictTril,
    UnaryOperator,
};
use semigraph_semiring::testing::TestValue;
use semigraph_semiring::{Scalar, Semiring};

use super::{random_csr, random_values};

/// `x ↦ mul(x, x)` in the semiring it is used with (a test operator: its CUDA names the
/// kernel's semiring).
struct Square<S>(std::marker::PhantomData<S>);
impl<S: Semiring> UnaryOperator<S::T> for Square<S> {
    fn name() -> String {
        "test_square".into()
    }
    fn apply(x: S::T) -> S::T {
        S::mul_at(x, x, 0)
    }
    fn cuda() -> CudaOp {
        CudaOp::new::<S::T>(OpKind::Unary, "test_square", "sr_mul(x, x, 0)")
    }
}

/// Entries whose value equals the scalar, bit for bit (a test predicate).
struct SameBits<S>(std::marker::PhantomData<S>);
impl<S: Semiring> SelectOperator<S::T> for SameBits<S> {
    fn name() -> String {
        "test_same_bits".into()
    }
    fn keep(x: S::T, _: u64, _: u64, s: S::T) -> bool {
        x.to_bits64() == s.to_bits64()
    }
    fn cuda() -> CudaOp {
        CudaOp::new::<S::T>(
            OpKind::Select,
            "test_same_bits",
            "sr_to_word(x) == sr_to_word(s)",
        )
    }
}

type Triplets<T> = Vec<(usize, usize, T)>;

fn nonzero<S: Semiring>(c: &Csr<S>) -> Triplets<S::T> {
    c.iter().filter(|e| !S::is_zero(e.2)).collect()
}

#[track_caller]
fn same_triplets<S: Semiring>(what: &str, got: &Csr<S>, want: &Triplets<S::T>) {
    let got: Triplets<S::T> = got.iter().collect();
    let ok = got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.0 == w.0 && g.1 == w.1 && same::<S>(g.2, w.2));
    assert!(
        ok,
        "{what} ({}): got {got:?}, want {want:?}",
        S::full_name()
    );
}

#[track_caller]
fn same_values<S: Semiring>(what: &str, got: &[S::T], want: &[S::T]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            same::<S>(*g, *w),
            "{what} ({}): position {i}: got {g:?}, want {w:?}",
            S::full_name()
        );
    }
}

/// The union of two values under `f`, as the backends define it.
fn union<S: Semiring, F: BinaryOperator<S::T>>(a: S::T, b: S::T) -> S::T {
    match (S::is_zero(a), S::is_zero(b)) {
        (false, false) => F::apply(a, b),
        (true, _) => b,
        (false, true) => a,
    }
}

fn element<S: Semiring, F: BinaryOperator<S::T>>(how: Combine, a: S::T, b: S::T) -> S::T {
    match how {
        Combine::Union => union::<S, F>(a, b),
        Combine::Intersection if S::is_zero(a) || S::is_zero(b) => S::zero(),
        Combine::Intersection => F::apply(a, b),
    }
}

/// The dense-array operators: apply (unary and bound, masked), union and intersection
/// (masked), gather and scatter with an accumulator.
pub fn check_dense_operators<B: Backend, S: Semiring>(b: &B)
where
    S::T: TestValue,
{
    let n = 97;
    let yv = random_values::<S>(n, 31);
    let xv = random_values::<S>(n, 32);
    let mv = random_values::<S>(n, 33);
    let m = b.dense::<S>(n, 1, &mv).unwrap();
    let allowed = |i: usize| !S::is_zero(mv[i]);
    let c = xv
        .iter()
        .copied()
        .find(|v| !S::is_zero(*v))
        .unwrap_or_else(S::one);
    // apply: only entries, only where the mask allows.
    let mut y = b.dense::<S>(n, 1, &yv).unwrap();
    b.apply_op::<S, Square<S>>(&mut y, b.keep(&m)).unwrap();
    let want: Vec<S::T> = (0..n)
        .map(|i| {
            if !S::is_zero(yv[i]) && allowed(i) {
                S::mul_at(yv[i], yv[i], 0)
            } else {
                yv[i]
            }
        })
        .collect();
    same_values::<S>("apply_op", &b.read_dense(&y).unwrap(), &want);
    for bound in [Bound::First(c), Bound::Second(c)] {
        let mut y = b.dense::<S>(n, 1, &yv).unwrap();
        b.apply_bound::<S, SemiringMul<S>>(&mut y, Mask::All, bound)
            .unwrap();
        let want: Vec<S::T> = yv
            .iter()
            .map(|&v| match (S::is_zero(v), bound) {
                (true, _) => v,
                (false, Bound::First(c)) => S::mul_at(c, v, 0),
                (false, Bound::Second(c)) => S::mul_at(v, c, 0),
            })
            .collect();
        same_values::<S>(
            &format!("apply_bound {bound:?}"),
            &b.read_dense(&y).unwrap(),
            &want,
        );
    }
    // Union and intersection, masked and complemented.
    let x = b.dense::<S>(n, 1, &xv).unwrap();
    for how in [Combine::Union, Combine::Intersection] {
        for kind in 0..3 {
            let mut y = b.dense::<S>(n, 1, &yv).unwrap();
            let mask = match kind {
                0 => Mask::All,
                1 => b.keep(&m),
                _ => b.skip(&m),
            };
            b.ewise_op::<S, SemiringAdd<S>>(&mut y, mask, how, &x)
                .unwrap();
            let want: Vec<S::T> = (0..n)
                .map(|i| {
                    let ok = match kind {
                        0 => true,
                        1 => allowed(i),
                        _ => !allowed(i),
                    };
                    if ok {
                        element::<S, SemiringAdd<S>>(how, yv[i], xv[i])
                    } else {
                        yv[i]
                    }
                })
                .collect();
            same_values::<S>(
                &format!("ewise_op {how:?} mask kind {kind}"),
                &b.read_dense(&y).unwrap(),
                &want,
            );
        }
    }
    // Gather and scatter by an index array with repeats and indices out of range.
    let idxv: Vec<u32> = (0..n as u32)
        .map(|k| match k % 7 {
            0 => u32::MAX,
            1 => n as u32 + k,
            _ => (k * 13) % (n as u32 / 2),
        })
        .collect();
    let idx = b.dense::<Parents>(n, 1, &idxv).unwrap();
    let g = b.read_dense(&b.gather(&x, &idx).unwrap()).unwrap();
    let want: Vec<S::T> = idxv
        .iter()
        .map(|&k| xv.get(k as usize).copied().unwrap_or_else(S::zero))
        .collect();
    same_values::<S>("gather", &g, &want);
    let mut w = b.dense::<S>(n, 1, &yv).unwrap();
    b.scatter_op::<S, SemiringAdd<S>, _>(&mut w, &idx, &x)
        .unwrap();
    let got = b.read_dense(&w).unwrap();
    let mut meets: Vec<Vec<S::T>> = yv.iter().map(|&v| vec![v]).collect();
    for (&k, &v) in idxv.iter().zip(&xv) {
        if (k as usize) < n && !S::is_zero(v) {
            meets[k as usize].push(v);
        }
    }
    for (i, vals) in meets.iter().enumerate() {
        let want = vals[1..]
            .iter()
            .fold(vals[0], |a, &v| union::<S, SemiringAdd<S>>(a, v));
        let ok = if picks_any::<S>() && vals.len() > 1 {
            vals.iter().any(|&v| same::<S>(v, got[i]))
        } else {
            same::<S>(got[i], want)
        };
        assert!(
            ok,
            "scatter_op ({}): position {i}: got {:?}, want {want:?} from {vals:?}",
            S::full_name(),
            got[i]
        );
    }
}

/// The matrix operators on `format`: apply, select, union and intersection, row extraction,
/// submatrices, row and column reductions, densification, the diagonal and `A (+) A^T`.
pub fn check_matrix_operators<B: Backend, S: Semiring>(b: &B, format: Format)
where
    S::T: TestValue,
{
    let (m, n) = (29usize, 23usize);
    let a = random_csr::<S>(m, n, 5, 41);
    let c = random_csr::<S>(m, n, 5, 42);
    let sq = random_csr::<S>(n, n, 4, 43);
    let da = b.matrix(&a, format, &unlimited()).expect("matrix A");
    let dc = b.matrix(&c, format, &unlimited()).expect("matrix C");
    let dsq = b.matrix(&sq, format, &unlimited()).expect("square matrix");
    let ea = nonzero(&a);
    let read = |x: &B::Matrix<S>| b.read_matrix(x).expect("read_matrix");
    let keep_nonzero = |t: Triplets<S::T>| -> Triplets<S::T> {
        t.into_iter().filter(|e| !S::is_zero(e.2)).collect()
    };
    // apply
    let want = keep_nonzero(
        ea.iter()
            .map(|&(i, j, v)| (i, j, S::mul_at(v, v, 0)))
            .collect(),
    );
    same_triplets::<S>(
        "apply_matrix",
        &read(&b.apply_matrix::<S, Square<S>>(&da).unwrap()),
        &want,
    );
    let s = ea.first().map_or_else(S::one, |e| e.2);
    let want = keep_nonzero(
        ea.iter()
            .map(|&(i, j, v)| (i, j, S::mul_at(s, v, 0)))
            .collect(),
    );
    let got = b
        .apply_matrix_bound::<S, SemiringMul<S>>(&da, Bound::First(s))
        .unwrap();
    same_triplets::<S>("apply_matrix_bound", &read(&got), &want);
    // select: by position, by value
    let want: Triplets<S::T> = ea.iter().copied().filter(|e| e.1 < e.0).collect();
    same_triplets::<S>(
        "select strict_tril",
        &read(&b.select::<S, StrictTril>(&da, s).unwrap()),
        &want,
    );
    let want: Triplets<S::T> = ea
        .iter()
        .copied()
        .filter(|e| e.2.to_bits64() == s.to_bits64())
        .collect();
    same_triplets::<S>(
        "select by value",
        &read(&b.select::<S, SameBits<S>>(&da, s).unwrap()),
        &want,
    );
    // union and intersection
    let (dense_a, dense_c) = (to_dense::<S>(&a), to_dense::<S>(&c));
    for how in [Combine::Union, Combine::Intersection] {
        let got = read(&b.ewise_matrix::<S, SemiringMul<S>>(&da, &dc, how).unwrap());
        let want = keep_nonzero(
            (0..m * n)
                .map(|p| {
                    let v = element::<S, SemiringMul<S>>(how, dense_a[p], dense_c[p]);
                    (p / n, p % n, v)
                })
                .collect(),
        );
        same_triplets::<S>(&format!("ewise_matrix {how:?}"), &got, &want);
    }
    // Rows (repeated), a submatrix, out of range refused.
    let rows = [3u32, 0, 3, 28];
    let want: Triplets<S::T> = rows
        .iter()
        .enumerate()
        .flat_map(|(k, &r)| {
            ea.iter()
                .filter(move |e| e.0 == r as usize)
                .map(move |e| (k, e.1, e.2))
        })
        .collect();
    same_triplets::<S>(
        "extract_rows",
        &read(&b.extract_rows(&da, &rows).unwrap()),
        &want,
    );
    assert!(
        b.extract_rows(&da, &[m as u32]).is_err(),
        "extract_rows: a row out of range"
    );
    let cols = [5u32, 1, 5];
    let sub = read(&b.extract(&da, &rows, &cols).unwrap());
    let want: Triplets<S::T> = keep_nonzero(
        (0..rows.len() * cols.len())
            .map(|p| {
                let (k, l) = (p / cols.len(), p % cols.len());
                (k, l, dense_a[rows[k] as usize * n + cols[l] as usize])
            })
            .collect(),
    );
    same_triplets::<S>("extract", &sub, &want);
    // Reductions, dense, row and column.
    let want: Vec<S::T> = (0..m)
        .map(|i| (0..n).fold(S::zero(), |acc, j| S::add(acc, dense_a[i * n + j])))
        .collect();
    let got = b.read_dense(&b.reduce_rows(&da).unwrap()).unwrap();
    check_sums::<S>(
        "reduce_rows",
        &got,
        &want,
        (0..m)
            .map(|i| (0..n).map(|j| dense_a[i * n + j]).collect())
            .collect(),
    );
    let want: Vec<S::T> = (0..n)
        .map(|j| (0..m).fold(S::zero(), |acc, i| S::add(acc, dense_a[i * n + j])))
        .collect();
    let got = b.read_dense(&b.reduce_cols(&da).unwrap()).unwrap();
    check_sums::<S>(
        "reduce_cols",
        &got,
        &want,
        (0..n)
            .map(|j| (0..m).map(|i| dense_a[i * n + j]).collect())
            .collect(),
    );
    same_values::<S>(
        "matrix_to_dense",
        &b.read_dense(&b.matrix_to_dense(&da).unwrap()).unwrap(),
        &dense_a,
    );
    same_values::<S>(
        "row",
        &b.read_dense(&b.row(&da, 3).unwrap()).unwrap(),
        &dense_a[3 * n..4 * n],
    );
    let col: Vec<S::T> = (0..m).map(|i| dense_a[i * n + 5]).collect();
    same_values::<S>(
        "column",
        &b.read_dense(&b.column(&da, 5).unwrap()).unwrap(),
        &col,
    );
    // The diagonal and A (+) A^T of a square matrix.
    let dsqv = to_dense::<S>(&sq);
    let diag: Vec<S::T> = (0..n).map(|i| dsqv[i * n + i]).collect();
    same_values::<S>(
        "diagonal",
        &b.read_dense(&b.diagonal(&dsq).unwrap()).unwrap(),
        &diag,
    );
    let want = keep_nonzero(
        (0..n * n)
            .map(|p| {
                let (i, j) = (p / n, p % n);
                (
                    i,
                    j,
                    union::<S, SemiringAdd<S>>(dsqv[i * n + j], dsqv[j * n + i]),
                )
            })
            .collect(),
    );
    let got = read(&b.plus_transpose(&dsq).unwrap());
    if picks_any::<S>() {
        // `any` may pick either operand: check the pattern and that each value is one of them.
        assert_eq!(got.nnz(), want.len(), "plus_transpose: entries");
        for (i, j, v) in got.iter() {
            assert!(
                same::<S>(v, dsqv[i * n + j]) || same::<S>(v, dsqv[j * n + i]),
                "plus_transpose ({i}, {j})"
            );
        }
    } else {
        same_triplets::<S>("plus_transpose", &got, &want);
    }
}

/// Row sums, or for `any` a value among each row's entries.
#[track_caller]
fn check_sums<S: Semiring>(what: &str, got: &[S::T], want: &[S::T], terms: Vec<Vec<S::T>>) {
    if !picks_any::<S>() {
        return same_values::<S>(what, got, want);
    }
    for (i, t) in terms.iter().enumerate() {
        let nz: Vec<S::T> = t.iter().copied().filter(|v| !S::is_zero(*v)).collect();
        let ok = if nz.is_empty() {
            S::is_zero(got[i])
        } else {
            nz.iter().any(|&v| same::<S>(v, got[i]))
        };
        assert!(
            ok,
            "{what} ({}): position {i}: got {:?} from {nz:?}",
            S::full_name(),
            got[i]
        );
    }
}

fn to_dense<S: Semiring>(a: &Csr<S>) -> Vec<S::T> {
    let mut d = vec![S::zero(); a.nrows() * a.ncols()];
    for (i, j, v) in a.iter() {
        d[i * a.ncols() + j] = v;
    }
    d
}
