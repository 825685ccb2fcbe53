//! `impl Operators for GpuBackend`: operators of one's own on dense arrays (one thread per
//! position) and on matrices (one thread per row, each writing its output row to a segment,
//! then the gather phase shared with the sparse products, [`GpuBackend::gather_segments`]).

use cudarc::driver::CudaFunction;
use semigraph_algos::{Bound, Combine, Error as AlgoError, Operators};
use semigraph_semiring::ops::{BinaryOperator, SelectOperator, UnaryOperator};

use super::sizing::Words;
use super::*;

/// The scalar bits and side of a bound binary operator (`side` 1: the scalar comes first).
fn bound_args<T: Scalar>(c: Bound<T>) -> (u64, i32) {
    match c {
        Bound::First(c) => (bits(c), 1),
        Bound::Second(c) => (bits(c), 0),
    }
}

fn how_arg(how: Combine) -> i32 {
    match how {
        Combine::Union => 0,
        Combine::Intersection => 1,
    }
}

/// Which row kernel and its operator, for [`GpuBackend::rows_map`].
enum RowOp {
    /// Copy rows (extraction).
    Copy,
    /// Map by an operator already compiled: the function, the scalar bits and side.
    Map(CudaFunction, u64, i32),
    /// Keep by a select operator: the function and the scalar bits.
    Select(CudaFunction, u64),
}

impl GpuBackend {
    /// `y(i) = sg_apply(y(i), s, side)` at the allowed entries, with `f` the [`Kernel::ApplyOp`]
    /// of an operator.
    fn apply_with<S: Semiring>(
        &self,
        f: CudaFunction,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        sbits: u64,
        side: i32,
    ) -> Result<(), GpuError> {
        let n = y.len() as u64;
        if n == 0 {
            return Ok(());
        }
        let m = self.mask_args(mask, y.len());
        ApplyOpArgs {
            y: &mut y.buf,
            n,
            mask: m,
            sbits,
            side,
        }
        .launch(&self.dev, &f, cfg_stride(n))
    }

    /// Output row `k` from row `src[k]` of `a` (or row `k`), copied, mapped or selected, as a
    /// new CSR matrix.
    fn rows_map<S: Semiring>(
        &self,
        a: &GpuMatrix<S>,
        src: Option<&[u32]>,
        op: RowOp,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let c = self.push_csr(a)?;
        let (m, n) = (a.info.nrows, a.info.ncols);
        self.rows_of::<S>(&c.rp, &c.ci, c.vals.arg(), m, n, src, op)
    }

    /// Row `k` of an `m x ncols` CSR matrix (`rp`, `ci`, `vals` on the device) from row
    /// `src[k]` (or row `k`), copied without its zeros: a new CSR matrix.
    pub(super) fn copy_rows<S: Semiring>(
        &self,
        rp: &CudaSlice<u32>,
        ci: &CudaSlice<u32>,
        vals: &CudaSlice<u8>,
        m: usize,
        ncols: usize,
        src: Option<&[u32]>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        self.rows_of::<S>(rp, ci, MatValsArg::full(vals), m, ncols, src, RowOp::Copy)
    }

    /// [`GpuBackend::copy_rows`] with each row copied, mapped or selected by `op`.
    #[allow(clippy::too_many_arguments)]
    fn rows_of<S: Semiring>(
        &self,
        rp: &CudaSlice<u32>,
        ci: &CudaSlice<u32>,
        vals: MatValsArg<'_>,
        m: usize,
        n: usize,
        src: Option<&[u32]>,
        op: RowOp,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let out_rows = src.map_or(m, <[u32]>::len);
        let srcd = match src {
            Some(s) if !s.is_empty() => Some(self.dev.upload(s, "row indices")?),
            _ => None,
        };
        let lens = self.row_lens(rp, None, srcd.as_ref(), out_rows)?;
        let (offd, total) = self.offsets_dev(Words::Wide(&lens), out_rows)?;
        self.dev.check_fits(
            &format!("the {total} entries of a {out_rows}x{n} matrix"),
            total * (8 + 2 * size_of::<S::T>() as u64),
        )?;
        let mut tk = self.dev.uninit::<u64>(total.max(1) as usize, "row keys")?;
        let mut tv = self.uninit_vals::<S>(total.max(1) as usize, "row values")?;
        let mut cnt = self.dev.uninit::<u32>(out_rows.max(1), "row lengths")?;
        if out_rows > 0 {
            let (f, sbits, side) = match op {
                RowOp::Copy => (self.dev.func::<S>(Kernel::RowsCopy)?, 0, 0),
                RowOp::Map(f, s, side) => (f, s, side),
                RowOp::Select(f, s) => (f, s, 0),
            };
            RowsMapArgs {
                rp,
                ci,
                av: vals,
                src: srcd.as_ref().unwrap_or(&self.dummy_idx),
                use_src: src.is_some() as i32,
                nrows: out_rows as u64,
                off: &offd,
                sbits,
                side,
                tk: &mut tk,
                tv: &mut tv,
                cnt: &mut cnt,
            }
            .launch(&self.dev, &f, cfg_warps(out_rows as u64))?;
        }
        self.gather_segments(out_rows, n, &offd, &cnt, &tk, &tv)
    }

    /// `A .op. B` row by row under the operator `O`.
    fn merge_rows<S: Semiring, O: BinaryOperator<S::T>>(
        &self,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
        how: Combine,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let (m, n) = (a.info.nrows, a.info.ncols);
        assert_eq!(
            (m, n),
            (b.info.nrows, b.info.ncols),
            "ewise_matrix: shapes differ"
        );
        let (ca, cb) = (self.push_csr(a)?, self.push_csr(b)?);
        let lens = self.row_lens(&ca.rp, Some(&cb.rp), None, m)?;
        let (offd, total) = self.offsets_dev(Words::Wide(&lens), m)?;
        self.dev.check_fits(
            &format!("the up to {total} entries of an element-wise {m}x{n} result"),
            total * (8 + 2 * size_of::<S::T>() as u64),
        )?;
        let mut tk = self.dev.uninit::<u64>(total.max(1) as usize, "row keys")?;
        let mut tv = self.uninit_vals::<S>(total.max(1) as usize, "row values")?;
        let mut cnt = self.dev.uninit::<u32>(m.max(1), "row lengths")?;
        if m > 0 {
            let f = self.dev.func_op::<S, O>(Kernel::RowsMerge, O::cuda)?;
            RowsMergeArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: ca.vals.arg(),
                brp: &cb.rp,
                bci: &cb.ci,
                bv: cb.vals.arg(),
                how: how_arg(how),
                nrows: m as u64,
                off: &offd,
                tk: &mut tk,
                tv: &mut tv,
                cnt: &mut cnt,
            }
            .launch(&self.dev, &f, cfg_stride(m as u64))?;
        }
        self.gather_segments(m, n, &offd, &cnt, &tk, &tv)
    }
}

impl Operators for GpuBackend {
    fn apply_op<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
    ) -> AlgoResult<()> {
        let f = self.dev.func_op::<S, F>(Kernel::ApplyOp, F::cuda)?;
        Ok(self.apply_with(f, y, mask, 0, 0)?)
    }

    fn apply_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        c: Bound<S::T>,
    ) -> AlgoResult<()> {
        let f = self.dev.func_op::<S, F>(Kernel::ApplyOp, F::cuda)?;
        let (sbits, side) = bound_args(c);
        Ok(self.apply_with(f, y, mask, sbits, side)?)
    }

    fn ewise_op<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        how: Combine,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!(
            (y.rows, y.cols),
            (x.rows, x.cols),
            "ewise_op: shapes differ"
        );
        let n = y.len() as u64;
        if n == 0 {
            return Ok(());
        }
        let f = self.dev.func_op::<S, F>(Kernel::EwiseOp, F::cuda)?;
        let m = self.mask_args(mask, y.len());
        EwiseOpArgs {
            y: &mut y.buf,
            x: &x.buf,
            n,
            mask: m,
            how: how_arg(how),
        }
        .launch(&self.dev, &f, cfg_stride(n))?;
        Ok(())
    }

    fn gather<S: Semiring, I: Semiring<T = u32>>(
        &self,
        u: &GpuDense<S>,
        idx: &GpuDense<I>,
    ) -> AlgoResult<GpuDense<S>> {
        let n = idx.len();
        let mut w = self.alloc_vals::<S>(n.max(1), "gathered values")?;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::Gather)?;
            GatherArgs {
                w: &mut w,
                idx: &idx.buf,
                n: n as u64,
                u: &u.buf,
                ulen: u.len() as u64,
            }
            .launch(&self.dev, &f, cfg_stride(n as u64))?;
        }
        Ok(GpuDense {
            buf: w,
            rows: n,
            cols: 1,
            _s: PhantomData,
        })
    }

    fn scatter_op<S: Semiring, F: BinaryOperator<S::T>, I: Semiring<T = u32>>(
        &self,
        w: &mut GpuDense<S>,
        idx: &GpuDense<I>,
        u: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!(idx.len(), u.len(), "scatter_op: index and value lengths");
        let n = u.len() as u64;
        if n == 0 {
            return Ok(());
        }
        let f = self.dev.func_op::<S, F>(Kernel::ScatterOp, F::cuda)?;
        let wlen = w.len() as u64;
        ScatterOpArgs {
            w: &mut w.buf,
            wlen,
            idx: &idx.buf,
            u: &u.buf,
            n,
        }
        .launch(&self.dev, &f, cfg_stride(n))?;
        Ok(())
    }

    fn apply_matrix<S: Semiring, F: UnaryOperator<S::T>>(
        &self,
        a: &GpuMatrix<S>,
    ) -> AlgoResult<GpuMatrix<S>> {
        let f = self.dev.func_op::<S, F>(Kernel::RowsMap, F::cuda)?;
        Ok(self.rows_map(a, None, RowOp::Map(f, 0, 0))?)
    }

    fn apply_matrix_bound<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &GpuMatrix<S>,
        c: Bound<S::T>,
    ) -> AlgoResult<GpuMatrix<S>> {
        let f = self.dev.func_op::<S, F>(Kernel::RowsMap, F::cuda)?;
        let (sbits, side) = bound_args(c);
        Ok(self.rows_map(a, None, RowOp::Map(f, sbits, side))?)
    }

    fn select<S: Semiring, P: SelectOperator<S::T>>(
        &self,
        a: &GpuMatrix<S>,
        s: S::T,
    ) -> AlgoResult<GpuMatrix<S>> {
        let f = self.dev.func_op::<S, P>(Kernel::RowsSelect, P::cuda)?;
        Ok(self.rows_map(a, None, RowOp::Select(f, bits(s)))?)
    }

    fn ewise_matrix<S: Semiring, F: BinaryOperator<S::T>>(
        &self,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
        how: Combine,
    ) -> AlgoResult<GpuMatrix<S>> {
        Ok(self.merge_rows::<S, F>(a, b, how)?)
    }

    fn extract_rows<S: Semiring>(
        &self,
        a: &GpuMatrix<S>,
        rows: &[u32],
    ) -> AlgoResult<GpuMatrix<S>> {
        let m = a.info.nrows;
        if let Some(&r) = rows.iter().find(|&&r| r as usize >= m) {
            return Err(AlgoError::InvalidArgument(format!(
                "row {r} is out of range: the matrix has {m} rows"
            )));
        }
        Ok(self.rows_map(a, Some(rows), RowOp::Copy)?)
    }

    fn index_matrix<S: Semiring, I: Semiring<T = u32>>(
        &self,
        idx: &GpuDense<I>,
        ncols: usize,
    ) -> AlgoResult<GpuMatrix<S>> {
        let n = idx.len();
        let mut lens = self.dev.uninit::<u32>(n.max(1), "index matrix rows")?;
        if n > 0 {
            IndexLensArgs {
                idx: &idx.buf,
                n: n as u64,
                ncols: ncols as u64,
                lens: &mut lens,
            }
            .launch(
                &self.dev,
                &self.dev.func_any(Kernel::IndexLens)?,
                cfg_stride(n as u64),
            )?;
        }
        let (rp, nnz) = self.row_ptr_dev(&lens, n)?;
        let mut ci = self.dev.uninit::<u32>(nnz.max(1), "CSR columns")?;
        let mut vals = self.uninit_vals::<S>(nnz.max(1), "CSR values")?;
        if nnz > 0 {
            IndexFillArgs {
                idx: &idx.buf,
                n: n as u64,
                ncols: ncols as u64,
                rp: &rp,
                ci: &mut ci,
                vals: &mut vals,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(Kernel::IndexFill)?,
                cfg_stride(n as u64),
            )?;
        }
        Ok(self.csr_matrix(
            n,
            ncols,
            nnz,
            self.csr_from_device((n, ncols), rp, ci, vals, false),
        ))
    }

    fn reduce_rows_arg<S: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<GpuDense<Parents>> {
        let m = a.info.nrows;
        let c = self.push_csr(a)?;
        let mut y = self.dev.uninit::<u8>(4 * m.max(1), "row arg-bests")?;
        if m > 0 {
            RowArgArgs {
                rp: &c.rp,
                ci: &c.ci,
                av: c.vals.arg(),
                nrows: m as u64,
                y: &mut y,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(Kernel::RowArg)?,
                cfg_warps(m as u64),
            )?;
        }
        Ok(GpuDense {
            buf: y,
            rows: m,
            cols: 1,
            _s: PhantomData,
        })
    }

    fn reduce_rows<S: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<GpuDense<S>> {
        let m = a.info.nrows;
        let c = self.push_csr(a)?;
        let mut y = self.alloc_vals::<S>(m.max(1), "row reductions")?;
        if m > 0 {
            let f = self.dev.func::<S>(Kernel::RowReduce)?;
            RowReduceArgs {
                rp: &c.rp,
                av: c.vals.arg(),
                nrows: m as u64,
                y: &mut y,
            }
            .launch(&self.dev, &f, cfg_warps(m as u64))?;
        }
        Ok(GpuDense {
            buf: y,
            rows: m,
            cols: 1,
            _s: PhantomData,
        })
    }

    fn matrix_to_dense<S: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<GpuDense<S>> {
        let (m, n) = (a.info.nrows, a.info.ncols);
        let len = m.checked_mul(n).ok_or_else(|| {
            AlgoError::InvalidArgument(format!("a {m} x {n} dense array does not fit in memory"))
        })?;
        let c = self.push_csr(a)?;
        let mut y = self.filled::<S>(len.max(1), S::zero(), "dense matrix")?;
        if m > 0 && n > 0 {
            let f = self.dev.func::<S>(Kernel::RowsToDense)?;
            RowsToDenseArgs {
                rp: &c.rp,
                ci: &c.ci,
                av: c.vals.arg(),
                nrows: m as u64,
                ncols: n as u64,
                y: &mut y,
            }
            .launch(&self.dev, &f, cfg_stride(m as u64))?;
        }
        Ok(GpuDense {
            buf: y,
            rows: m,
            cols: n,
            _s: PhantomData,
        })
    }
}
