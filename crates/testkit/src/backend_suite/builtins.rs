//! The built-in operators ([`semigraph_semiring::ops`]) on a backend against their own CPU
//! functions, value by value, on the values where implementations part ways: zeros of both
//! signs, one and minus one, the extremes of the type, infinities and NaN, and integer
//! division by zero and of the smallest value by minus one.

use semigraph_algos::testing::unlimited;
use semigraph_algos::{Backend, Combine, Mask};
use semigraph_formats::{Coo, Format};
use semigraph_semiring::ops::*;
use semigraph_semiring::{MinPlus, Number, OrAnd, PlusTimes, Scalar, Semiring, bf16, f16};

/// Equal, or both NaN (a NaN's payload differs between CPU and GPU arithmetic).
#[allow(clippy::eq_op)]
fn agrees<T: Scalar>(a: T, b: T) -> bool {
    a.to_bits64() == b.to_bits64() || (a != a && b != b)
}

/// Unary and binary operators over semiring `S` on every value (pair) of `vals`, and the
/// select operators on a matrix holding them; `what` names the operator in failures.
struct Probe<'a, B: Backend, S: Semiring> {
    b: &'a B,
    vals: Vec<S::T>,
}

impl<B: Backend, S: Semiring> Probe<'_, B, S> {
    fn unary<F: UnaryOperator<S::T>>(&self) {
        let mut y = self.b.dense::<S>(self.vals.len(), 1, &self.vals).unwrap();
        self.b.apply_op::<S, F>(&mut y, Mask::All).unwrap();
        let got = self.b.read_dense(&y).unwrap();
        for (&x, &g) in self.vals.iter().zip(&got) {
            let want = if S::is_zero(x) { x } else { F::apply(x) };
            assert!(
                agrees(g, want),
                "{} {}({x:?}): got {g:?}, want {want:?}",
                S::full_name(),
                F::name()
            );
        }
    }

    fn binary<F: BinaryOperator<S::T>>(&self) {
        let n = self.vals.len();
        let a: Vec<S::T> = (0..n * n).map(|p| self.vals[p / n]).collect();
        let c: Vec<S::T> = (0..n * n).map(|p| self.vals[p % n]).collect();
        let mut y = self.b.dense::<S>(n * n, 1, &a).unwrap();
        let x = self.b.dense::<S>(n * n, 1, &c).unwrap();
        self.b
            .ewise_op::<S, F>(&mut y, Mask::All, Combine::Intersection, &x)
            .unwrap();
        let got = self.b.read_dense(&y).unwrap();
        for p in 0..n * n {
            let want = if S::is_zero(a[p]) || S::is_zero(c[p]) {
                S::zero()
            } else {
                F::apply(a[p], c[p])
            };
            assert!(
                agrees(got[p], want),
                "{} {}({:?}, {:?}): got {:?}, want {want:?}",
                S::full_name(),
                F::name(),
                a[p],
                c[p],
                got[p]
            );
        }
    }

    fn select<P: SelectOperator<S::T>>(&self, s: S::T) {
        let n = self.vals.len();
        let entries: Vec<(u32, u32, S::T)> = (0..n)
            .flat_map(|i| (0..3).map(move |d| (i, (i + d * 5) % n)))
            .map(|(i, j)| (i as u32, j as u32, self.vals[(i * 3 + j) % n]))
            .filter(|e| !S::is_zero(e.2))
            .collect();
        let mut e = entries.clone();
        e.sort_by_key(|e| (e.0, e.1));
        e.dedup_by_key(|e| (e.0, e.1));
        let coo = Coo::<S>::try_from_triplets(
            n,
            n,
            e.iter().map(|e| e.0).collect(),
            e.iter().map(|e| e.1).collect(),
            e.iter().map(|e| e.2).collect(),
        )
        .unwrap();
        let a = self
            .b
            .matrix(&coo.to_csr(), Format::Csr, &unlimited())
            .unwrap();
        let got: Vec<(usize, usize, u64)> = self
            .b
            .read_matrix(&self.b.select::<S, P>(&a, s).unwrap())
            .unwrap()
            .iter()
            .map(|(i, j, v)| (i, j, v.to_bits64()))
            .collect();
        let want: Vec<(usize, usize, u64)> = e
            .iter()
            .filter(|e| P::keep(e.2, e.0 as u64, e.1 as u64, s))
            .map(|e| (e.0 as usize, e.1 as usize, e.2.to_bits64()))
            .collect();
        assert_eq!(got, want, "{} select {}", S::full_name(), P::name());
    }
}

macro_rules! numbers {
    ($probe:expr, $s:expr) => {{
        let p = $probe;
        p.unary::<Identity>();
        p.unary::<Abs>();
        p.unary::<Neg>();
        p.unary::<Minv>();
        p.unary::<One>();
        p.unary::<LNot>();
        p.binary::<First>();
        p.binary::<Second>();
        p.binary::<Pair>();
        p.binary::<Plus>();
        p.binary::<Minus>();
        p.binary::<Times>();
        p.binary::<Div>();
        p.binary::<Min>();
        p.binary::<Max>();
        p.binary::<Eq>();
        p.binary::<Ne>();
        p.binary::<Lt>();
        p.binary::<Le>();
        p.binary::<Gt>();
        p.binary::<Ge>();
        p.binary::<LOr>();
        p.binary::<LAnd>();
        p.select::<Tril>($s);
        p.select::<Triu>($s);
        p.select::<StrictTril>($s);
        p.select::<StrictTriu>($s);
        p.select::<Diag>($s);
        p.select::<Offdiag>($s);
        p.select::<ValueEq>($s);
        p.select::<ValueNe>($s);
        p.select::<ValueLt>($s);
        p.select::<ValueLe>($s);
        p.select::<ValueGt>($s);
        p.select::<ValueGe>($s);
    }};
}

/// Every built-in operator of a number type `T`, under plus-times (zero 0) and min-plus (zero
/// the largest value), so that every probe value is an entry under one of them.
fn number_type<B: Backend, T: Number + Arith>(b: &B, vals: &[T]) {
    let s = vals[2];
    numbers!(
        Probe::<B, PlusTimes<T>> {
            b,
            vals: vals.to_vec()
        },
        s
    );
    numbers!(
        Probe::<B, MinPlus<T>> {
            b,
            vals: vals.to_vec()
        },
        s
    );
}

fn floats<T: Number + Arith>(from_f64: impl Fn(f64) -> T) -> Vec<T> {
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        -3.0,
        7.0,
        0.1,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ]
    .into_iter()
    .map(from_f64)
    .collect()
}

/// Every built-in operator of every type on backend `b`, against the operators' CPU functions.
pub fn check_builtin_operators<B: Backend>(b: &B) {
    number_type(b, &floats(|v| v as f32));
    number_type(b, &floats(|v| v));
    number_type(b, &floats(f16::from_f64));
    number_type(b, &floats(bf16::from_f64));
    number_type(b, &[0i32, 1, -1, 7, -7, 3, i32::MIN, i32::MAX, 1 << 20]);
    number_type(b, &[0i64, 1, -1, 7, -7, 3, i64::MIN, i64::MAX, 1 << 40]);
    number_type(b, &[0u32, 1, 2, 7, 3, u32::MAX, 1 << 31]);
    let p = Probe::<B, OrAnd> {
        b,
        vals: vec![true, false, true, true, false],
    };
    p.unary::<Identity>();
    p.unary::<LNot>();
    p.unary::<One>();
    p.binary::<First>();
    p.binary::<Second>();
    p.binary::<Pair>();
    p.binary::<LOr>();
    p.binary::<LAnd>();
    p.binary::<LXor>();
    p.binary::<Eq>();
    p.binary::<Ne>();
    p.binary::<Min>();
    p.binary::<Max>();
    p.select::<Tril>(true);
    p.select::<ValueEq>(true);
    p.select::<ValueNe>(false);
}
