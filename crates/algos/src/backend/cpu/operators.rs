//! Operators of one's own on the CPU backend: dense arrays in parallel over positions, matrices
//! in parallel over blocks of rows.

use semigraph_semiring::ops::{BinaryOperator, SelectOperator, UnaryOperator};

use super::matrix::entry_values;
use super::*;
use crate::backend::{Bound, Combine, NO_PARENT, Operators};

/// Rows per parallel block of a matrix operation.
const ROW_BLOCK: usize = 2048;

/// One block of rows of a result: each row's length, then the columns and values of all
/// (and, for a whole matrix, its row pointers in place of the lengths).
type RowBlock<T> = (Vec<u32>, Vec<u32>, Vec<T>);

/// What makes row `i` of a result: `row(i, cols, vals)` appends its entries.
type RowFn<'a, T> = dyn Fn(usize, &mut Vec<u32>, &mut Vec<T>) + Sync + 'a;

/// A new CSR matrix of `nrows x ncols` whose row `i` is what `row(i, cols, vals)` appends
/// (columns increasing), built in parallel over blocks of rows.
fn build_rows<S: Semiring>(
    nrows: usize,
    ncols: usize,
    row: impl Fn(usize, &mut Vec<u32>, &mut Vec<S::T>) + Sync,
) -> Result<CpuMatrix<S>> {
    let (rp, ci, vals) = row_blocks::<S::T>(nrows, &row)?;
    let nnz = vals.len();
    let csr = Csr::try_from_parts(nrows, ncols, rp, ci, vals)?;
    Ok(CpuMatrix::new(SparseMatrix::Csr(csr), nnz))
}

/// [`build_rows`]'s work, generic over the value type with `row` a trait object (called once
/// a row): the parallel loop is compiled once per value type, not once per semiring and
/// operator. Returns the row pointers, columns and values.
fn row_blocks<T: Scalar>(nrows: usize, row: &RowFn<'_, T>) -> Result<RowBlock<T>> {
    let blocks: Vec<RowBlock<T>> = (0..nrows.div_ceil(ROW_BLOCK))
        .into_par_iter()
        .map(|b| {
            let (mut lens, mut ci, mut vals) = (Vec::new(), Vec::new(), Vec::new());
            for i in b * ROW_BLOCK..((b + 1) * ROW_BLOCK).min(nrows) {
                let before = ci.len();
                row(i, &mut ci, &mut vals);
                lens.push((ci.len() - before) as u32);
            }
            (lens, ci, vals)
        })
        .collect();
    let nnz: usize = blocks.iter().map(|b| b.1.len()).sum();
    if nnz > u32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "the result has {nnz} entries; CSR with 32-bit indices holds at most {}",
            u32::MAX
        )));
    }
    let mut rp = try_vec(nrows + 1, 0u32, "row pointers")?;
    let (mut ci, mut vals) = (Vec::with_capacity(nnz), Vec::with_capacity(nnz));
    let mut i = 0;
    for (lens, c, v) in blocks {
        for l in lens {
            rp[i + 1] = rp[i] + l;
            i += 1;
        }
        ci.extend_from_slice(&c);
        vals.extend_from_slice(&v);
    }
    Ok((rp, ci, vals))
}

/// `C<M> = X (+).(x) Y^T` at the entries of `mask` ([`Products::sddmm`]), rows in parallel.
pub(super) fn sddmm<S: Semiring>(
    mask: &CpuMatrix<S>,
    x: &CpuDense<S>,
    y: &CpuDense<S>,
) -> Result<CpuMatrix<S>> {
    let m = mask.rows();
    let (nrows, ncols) = (m.nrows(), m.ncols());
    crate::backend::check_sddmm((nrows, ncols), (x.rows, x.cols), (y.rows, y.cols))?;
    let k = x.cols;
    let vals = entry_values(&m, S::zero(), |i, j, _| {
        let (xi, yj) = (&x.data[i * k..(i + 1) * k], &y.data[j as usize * k..][..k]);
        let mut acc = S::zero();
        for (t, (&a, &b)) in xi.iter().zip(yj).enumerate() {
            acc = S::add(acc, S::mul_at(a, b, t as u64));
        }
        acc
    })?;
    CpuMatrix::from_entry_values(&m, vals)
}

/// Row `i` of `a` without its stored zeros, as `(column, value)` pairs (a pattern's rows
/// read in place, not written out).
fn entries<'a, S: Semiring>(a: &Rows<'a, S>, i: usize) -> impl Iterator<Item = (u32, S::T)> + 'a {
    a.entries(i).filter(|(_, v)| !S::is_zero(*v))
}

/// `f(a, b)` where both are entries, the entry where one is, the zero where none.
#[inline]
fn union<S: Semiring, F: BinaryOperator<S::T>>(a: S::T, b: S::T) -> S::T {
    match (S::is_zero(a), S::is_zero(b)) {
        (false, false) => F::apply(a, b),
        (true, _) => b,
        (false, true) => a,
    }
}

#[inline]
fn bound<T: Scalar, F: BinaryOperator<T>>(x: T, c: Bound<T>) -> T {
    match c {
        Bound::First(c) => F::apply(c, x),
        Bound::Second(c) => F::apply(x, c),
    }
}

impl CpuBackend {
    /// `y<mask>(i) = f(y(i))` at the allowed entries.
    fn map_entries<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        f: impl Fn(S::T) -> S::T + Sync,
    ) {
        check_mask(&mask, y.data.len());
        runs(&mut y.data, &mask, |_, ys, ok| {
            each(ys, ok, |v| {
                if !S::is_zero(*v) {
                    *v = f(*v);
                }
            })
        });
    }

    /// A new matrix of `f(i, j, v)` at each entry of `a`, results equal to the zero dropped.
    fn map_matrix<S: Semiring>(
        &self,
        a: &CpuMatrix<S>,
        f: impl Fn(usize, u32, S::T) -> Option<S::T> + Sync,
    ) -> Result<CpuMatrix<S>> {
        let c = a.rows();
        let vals = entry_values(&c, S::zero(), |i, j, v| f(i, j, v).unwrap_or_else(S::zero))?;
        CpuMatrix::from_entry_values(&c, vals)
    }
}

impl Operators for CpuBackend {
    fn apply_op<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
    ) -> Result<()> {
        self.map_entries(y, mask, F::apply);
        Ok(())
    }

    fn apply_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        c: Bound<S::T>,
    ) -> Result<()> {
        self.map_entries(y, mask, |x| bound::<S::T, F>(x, c));
        Ok(())
    }

    fn ewise_op<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        how: Combine,
        x: &CpuDense<S>,
    ) -> Result<()> {
        assert_eq!(
            (y.rows, y.cols),
            (x.rows, x.cols),
            "ewise_op: shapes differ"
        );
        check_mask(&mask, y.data.len());
        runs(&mut y.data, &mask, |first, ys, ok| {
            let xs = &x.data[first..first + ys.len()];
            match how {
                Combine::Union => each2(ys, xs, ok, |y, x| *y = union::<S, F>(*y, x)),
                Combine::Intersection => each2(ys, xs, ok, |y, x| {
                    *y = match S::is_zero(*y) || S::is_zero(x) {
                        true => S::zero(),
                        false => F::apply(*y, x),
                    }
                }),
            }
        });
        Ok(())
    }

    fn gather<S: Semiring, I: Semiring<T = u32>>(
        &self,
        u: &CpuDense<S>,
        idx: &CpuDense<I>,
    ) -> Result<CpuDense<S>> {
        let data = idx
            .data
            .par_iter()
            .with_min_len(4096)
            .map(|&k| u.data.get(k as usize).copied().unwrap_or_else(S::zero))
            .collect();
        Ok(CpuDense {
            rows: idx.data.len(),
            cols: 1,
            data,
        })
    }

    fn scatter_op<S: Semiring, F: BinaryOperator<S::T>, I: Semiring<T = u32>>(
        &self,
        w: &mut CpuDense<S>,
        idx: &CpuDense<I>,
        u: &CpuDense<S>,
    ) -> Result<()> {
        assert_eq!(
            idx.data.len(),
            u.data.len(),
            "scatter_op: index and value lengths"
        );
        let (n, len) = (w.data.len(), idx.data.len());
        // Each target sees its updates in input order, as a sequential loop (the operator
        // need not commute).
        let (ks, us) = (&idx.data, &u.data);
        super::scatter(
            &mut w.data,
            len,
            self.par_entries,
            |e| ((ks[e] as usize) < n && !S::is_zero(us[e])).then_some((ks[e], us[e])),
            |t, v| *t = union::<S, F>(*t, v),
        );
        Ok(())
    }

    fn apply_matrix<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        a: &CpuMatrix<S>,
    ) -> Result<CpuMatrix<S>> {
        self.map_matrix(a, |_, _, v| Some(F::apply(v)))
    }

    fn apply_matrix_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &CpuMatrix<S>,
        c: Bound<S::T>,
    ) -> Result<CpuMatrix<S>> {
        self.map_matrix(a, |_, _, v| Some(bound::<S::T, F>(v, c)))
    }

    fn select<S: Semiring, P: SelectOperator<S::T>>(
        &self,
        a: &CpuMatrix<S>,
        s: S::T,
    ) -> Result<CpuMatrix<S>> {
        if P::columns(0).is_some() && a.zero_free() {
            // Positions only: each row's kept columns are one slice of the sorted row.
            let r = a.rows();
            let rp = r.row_ptr();
            let ranges: Vec<(u32, u32)> = (0..r.nrows())
                .into_par_iter()
                .with_min_len(4096)
                .map(|i| {
                    let (cols, _) = r.row(i);
                    let (lo, hi) = P::columns(i as u64).expect("a positional operator");
                    let at = |c: u64| cols.partition_point(|&j| (j as u64) < c) as u32;
                    (rp[i] + at(lo), rp[i] + at(hi))
                })
                .collect();
            return CpuMatrix::from_ranges(&r, &ranges);
        }
        let r = a.rows();
        let cols = r.col_idx();
        CpuMatrix::compacted(&r, |i, e| {
            let v = r.value(e);
            (!S::is_zero(v) && P::keep(v, i as u64, u64::from(cols[e]), s)).then_some(v)
        })
    }

    fn ewise_matrix<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &CpuMatrix<S>,
        b: &CpuMatrix<S>,
        how: Combine,
    ) -> Result<CpuMatrix<S>> {
        let (ca, cb) = (a.rows(), b.rows());
        assert_eq!(
            (ca.nrows(), ca.ncols()),
            (cb.nrows(), cb.ncols()),
            "ewise_matrix: shapes differ"
        );
        build_rows(ca.nrows(), ca.ncols(), |i, ci, vals| {
            let mut push = |j: u32, v: S::T| {
                if !S::is_zero(v) {
                    ci.push(j);
                    vals.push(v);
                }
            };
            let (mut x, mut y) = (entries(&ca, i).peekable(), entries(&cb, i).peekable());
            loop {
                match (x.peek().copied(), y.peek().copied()) {
                    (Some((j, u)), Some((k, v))) if j == k => {
                        push(j, F::apply(u, v));
                        x.next();
                        y.next();
                    }
                    (Some((j, u)), Some((k, _))) if j < k => {
                        if how == Combine::Union {
                            push(j, u);
                        }
                        x.next();
                    }
                    (Some((j, u)), None) => {
                        if how == Combine::Union {
                            push(j, u);
                        }
                        x.next();
                    }
                    (_, Some((k, v))) => {
                        if how == Combine::Union {
                            push(k, v);
                        }
                        y.next();
                    }
                    (None, None) => break,
                }
            }
        })
    }

    fn extract_rows<S: Semiring>(&self, a: &CpuMatrix<S>, rows: &[u32]) -> Result<CpuMatrix<S>> {
        let c = a.rows();
        if let Some(&r) = rows.iter().find(|&&r| r as usize >= c.nrows()) {
            return Err(Error::InvalidArgument(format!(
                "row {r} is out of range: the matrix has {} rows",
                c.nrows()
            )));
        }
        build_rows(rows.len(), c.ncols(), |k, ci, vals| {
            for (j, v) in entries(&c, rows[k] as usize) {
                ci.push(j);
                vals.push(v);
            }
        })
    }

    fn index_matrix<S: Semiring, I: Semiring<T = u32>>(
        &self,
        idx: &CpuDense<I>,
        ncols: usize,
    ) -> Result<CpuMatrix<S>> {
        build_rows(idx.data.len(), ncols, |k, ci, vals| {
            let j = idx.data[k];
            if (j as usize) < ncols {
                ci.push(j);
                vals.push(S::one());
            }
        })
    }

    fn reduce_rows_arg<S: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuDense<Parents>> {
        let c = a.rows();
        let data = (0..c.nrows())
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| {
                let mut best: Option<(u32, S::T)> = None;
                for (j, v) in c.entries(i).filter(|(_, v)| !S::is_zero(*v)) {
                    if best.is_none_or(|(_, b)| S::improves(b, v)) {
                        best = Some((j, v));
                    }
                }
                best.map_or(NO_PARENT, |(j, _)| j)
            })
            .collect();
        Ok(CpuDense {
            rows: c.nrows(),
            cols: 1,
            data,
        })
    }

    fn reduce_rows<S: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuDense<S>> {
        let c = a.rows();
        let data = (0..c.nrows())
            .into_par_iter()
            .with_min_len(1024)
            .map(|i| c.entries(i).fold(S::zero(), |s, (_, v)| S::add(s, v)))
            .collect();
        Ok(CpuDense {
            rows: c.nrows(),
            cols: 1,
            data,
        })
    }

    fn matrix_to_dense<S: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuDense<S>> {
        let c = a.rows();
        let (m, n) = (c.nrows(), c.ncols());
        let len = m.checked_mul(n).ok_or_else(|| {
            Error::InvalidArgument(format!("a {m} x {n} dense array does not fit in memory"))
        })?;
        let mut data = try_vec(len, S::zero(), "dense matrix")?;
        if n > 0 {
            data.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
                for (j, v) in entries(&c, i) {
                    row[j as usize] = v;
                }
            });
        }
        Ok(CpuDense {
            rows: m,
            cols: n,
            data,
        })
    }
}
