//! Element-wise operations of the CPU backend, parallel over positions with rayon.

use super::*;

impl ElementWise for CpuBackend {
    fn transpose_matrix<S: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuMatrix<S>> {
        // The stored CSR itself when it holds no zero (no copy of it).
        let t = if a.zero_free() {
            a.csr().try_transpose()?
        } else {
            self.read_matrix(a)?.try_transpose()?
        };
        let nnz = t.nnz();
        Ok(CpuMatrix::new(SparseMatrix::Csr(t), nnz))
    }

    fn ewise<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &CpuDense<S>,
    ) -> Result<()> {
        assert_eq!((y.rows, y.cols), (x.rows, x.cols), "ewise: shapes differ");
        check_mask(&mask, y.data.len());
        runs(&mut y.data, &mask, |first, ys, ok| {
            let xs = &x.data[first..first + ys.len()];
            match op {
                Ewise::Add => each2(ys, xs, ok, |y, x| *y = S::add(*y, x)),
                Ewise::Mul => each2(ys, xs, ok, |y, x| *y = S::mul_at(*y, x, 0)),
            }
        });
        Ok(())
    }

    fn apply<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> Result<()> {
        check_mask(&mask, y.data.len());
        runs(&mut y.data, &mask, |_, ys, ok| match op {
            UnaryOp::Fill(c) => each(ys, ok, |y| *y = c),
            UnaryOp::MulBy(c) => each(ys, ok, |y| *y = S::mul_at(*y, c, 0)),
            UnaryOp::AddTo(c) => each(ys, ok, |y| *y = S::add(*y, c)),
        });
        Ok(())
    }

    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        at: &CpuSparse<M>,
        value: S::T,
    ) -> Result<()> {
        assert_eq!(at.n, y.data.len(), "assign_at: lengths differ");
        for &i in &at.idx {
            y.data[i as usize] = value;
        }
        Ok(())
    }

    fn transpose<S: Semiring>(&self, x: &CpuDense<S>) -> Result<CpuDense<S>> {
        Ok(CpuDense {
            rows: x.cols,
            cols: x.rows,
            data: products::transpose(&x.data, x.rows, x.cols)?,
        })
    }

    fn improve<S: Semiring>(&self, d: &mut CpuDense<S>, t: &CpuSparse<S>) -> Result<CpuSparse<S>> {
        assert_eq!(t.n, d.data.len(), "improve: lengths differ");
        let dd = &d.data;
        let (idx, vals): (Vec<u32>, Vec<S::T>) = t
            .idx
            .par_iter()
            .zip(&t.vals)
            .with_min_len(1024)
            .filter_map(|(&i, &v)| {
                let old = dd[i as usize];
                S::improves(old, v).then(|| (i, S::add(old, v)))
            })
            .unzip();
        for (&i, &v) in idx.iter().zip(&vals) {
            d.data[i as usize] = v;
        }
        Ok(CpuSparse { n: t.n, idx, vals })
    }

    fn improve_dense<S: Semiring>(&self, d: &mut CpuDense<S>, t: &CpuDense<S>) -> Result<usize> {
        assert_eq!(
            (d.rows, d.cols),
            (t.rows, t.cols),
            "improve_dense: shapes differ"
        );
        Ok(d.data
            .par_iter_mut()
            .zip(&t.data)
            .with_min_len(4096)
            .map(|(dv, &tv)| {
                let better = S::improves(*dv, tv);
                if better {
                    *dv = S::add(*dv, tv);
                }
                better as usize
            })
            .sum())
    }

    fn union<S: Semiring>(&self, a: &CpuSparse<S>, b: &CpuSparse<S>) -> Result<CpuSparse<S>> {
        assert_eq!(a.n, b.n, "union: lengths differ");
        let (mut i, mut j) = (0, 0);
        let mut idx = Vec::with_capacity(a.idx.len() + b.idx.len());
        let mut vals = Vec::with_capacity(idx.capacity());
        while i < a.idx.len() || j < b.idx.len() {
            let take_a = j == b.idx.len() || (i < a.idx.len() && a.idx[i] <= b.idx[j]);
            let take_b = i == a.idx.len() || (j < b.idx.len() && b.idx[j] <= a.idx[i]);
            let (k, v) = match (take_a, take_b) {
                (true, true) => (a.idx[i], S::add(a.vals[i], b.vals[j])),
                (true, false) => (a.idx[i], a.vals[i]),
                _ => (b.idx[j], b.vals[j]),
            };
            i += take_a as usize;
            j += take_b as usize;
            idx.push(k);
            vals.push(v);
        }
        Ok(CpuSparse { n: a.n, idx, vals })
    }

    fn select_range<S: Semiring>(
        &self,
        x: &CpuSparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> Result<CpuSparse<S>> {
        let (idx, vals) = x
            .idx
            .iter()
            .zip(&x.vals)
            .filter(|(_, v)| (**v).partial_cmp(&lo).is_some_and(|o| o.is_ge()) && **v < hi)
            .map(|(i, v)| (*i, *v))
            .unzip();
        Ok(CpuSparse { n: x.n, idx, vals })
    }
}
