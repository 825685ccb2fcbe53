//! `impl Backend for GpuBackend` and `impl Frontier for GpuBackend`: each operation of the interface as launches of generated
//! kernels (the products are in `products.rs`, the work queues' kernels in `queue.rs`, the raw
//! launches in `raw.rs`).

use super::raw::bytes_for;
use super::*;
use semigraph_algos::Frontier;

impl Backend for GpuBackend {
    type Matrix<S: Semiring> = GpuMatrix<S>;
    type Dense<S: Semiring> = GpuDense<S>;
    type Sparse<S: Semiring> = GpuSparse<S>;
    type MaskRef<'a> = GpuMask<'a>;

    fn name(&self) -> String {
        format!("gpu ({}, {})", self.dev.name, self.dev.arch)
    }

    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }

    fn synchronize(&self) -> AlgoResult<()> {
        Ok(self.dev.sync()?)
    }

    fn counters(&self) -> semigraph_algos::Counters {
        self.dev.counters()
    }

    fn matrix<S: Semiring>(
        &self,
        a: &Csr<S>,
        format: Format,
        opts: &ConvertOptions,
    ) -> AlgoResult<GpuMatrix<S>> {
        to_u32("matrix rows", a.nrows() + 1)?;
        to_u32("matrix columns", a.ncols() + 1)?;
        to_u32("matrix entries", a.nnz())?;
        let host = SparseMatrix::from_csr(a, format, opts)?;
        let what = format!("a {}x{} {format:?} matrix", a.nrows(), a.ncols());
        self.dev.check_fits(&what, bytes_for(&host))?;
        let storage = match &host {
            SparseMatrix::Csr(c) => Storage::Csr(self.dev_csr(c)?),
            SparseMatrix::Ell(e) => Storage::Ell(self.dev_ell(e)?),
            SparseMatrix::Dia(d) => Storage::Dia {
                ndiag: to_u32("DIA diagonals", d.offsets().len())?,
                offs: Arc::new(self.dev.upload(d.offsets(), "DIA offsets")?),
                data: Arc::new(self.upload_vals::<S>(d.data(), "DIA data")?),
            },
            SparseMatrix::Coo(c) => Storage::Coo(self.dev_coo(c)?),
            SparseMatrix::Hyb(h) => Storage::Hyb(self.dev_ell(&h.ell)?, self.dev_coo(&h.coo)?),
            SparseMatrix::Dense(d) => {
                Storage::Dense(Arc::new(self.upload_vals::<S>(d.vals(), "dense matrix")?))
            }
        };
        Ok(GpuMatrix {
            info: MatrixInfo {
                nrows: a.nrows(),
                ncols: a.ncols(),
                nnz: a.nnz(),
                format,
            },
            storage,
            push: (format != Format::Csr).then(|| {
                Arc::new(Push {
                    cell: OnceLock::new(),
                    from: PushFrom::Host(Box::new(a.clone())),
                })
            }),
            _s: PhantomData,
        })
    }

    fn view<S: Semiring, S2: Semiring<T = S::T>>(
        &self,
        a: &GpuMatrix<S>,
    ) -> AlgoResult<GpuMatrix<S2>> {
        Ok(self.view_of::<S, S2>(a)?)
    }

    fn pattern<S: Semiring, P: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<GpuMatrix<P>> {
        Ok(self.pattern_of::<S, P>(a)?)
    }

    fn matrix_info<S: Semiring>(&self, a: &GpuMatrix<S>) -> MatrixInfo {
        a.info
    }

    fn dense<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        data: &[S::T],
    ) -> AlgoResult<GpuDense<S>> {
        assert_eq!(data.len(), rows * cols, "dense data length");
        let what = format!("a {rows}x{cols} array");
        self.dev
            .check_fits(&what, std::mem::size_of_val(data) as u64)?;
        Ok(GpuDense {
            buf: self.upload_vals::<S>(data, &what)?,
            rows,
            cols,
            _s: PhantomData,
        })
    }

    fn dense_filled<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        value: S::T,
    ) -> AlgoResult<GpuDense<S>> {
        let what = format!("a {rows}x{cols} array");
        Ok(GpuDense {
            buf: self.filled::<S>(rows * cols, value, &what)?,
            rows,
            cols,
            _s: PhantomData,
        })
    }

    fn dense_shape<S: Semiring>(&self, x: &GpuDense<S>) -> (usize, usize) {
        (x.rows, x.cols)
    }

    fn read_dense<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<Vec<S::T>> {
        Ok(self.read_vals::<S>(&x.buf, x.len())?)
    }

    fn transpose<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<GpuDense<S>> {
        self.transpose_dense(x)
    }

    fn set<S: Semiring>(&self, x: &mut GpuDense<S>, i: usize, value: S::T) -> AlgoResult<()> {
        assert!(i < x.len(), "position {i} out of range ({})", x.len());
        let sz = size_of::<S::T>();
        let v = [value];
        self.dev
            .stream
            .memcpy_htod(bytes_of(&v), &mut x.buf.slice_mut(i * sz..(i + 1) * sz))
            .map_err(|e| driver("set a value", e))?;
        Ok(())
    }

    fn sparse<S: Semiring>(
        &self,
        n: usize,
        idx: &[u32],
        vals: &[S::T],
    ) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(idx.len(), vals.len(), "sparse indices and values");
        assert!(
            idx.windows(2).all(|w| w[0] < w[1]) && idx.last().is_none_or(|&l| (l as usize) < n),
            "sparse indices must be sorted, distinct and below {n}"
        );
        Ok(GpuSparse {
            n,
            nnz: idx.len(),
            idx: self.dev.upload(idx, "sparse indices")?,
            vals: self.upload_vals::<S>(vals, "sparse values")?,
            _s: PhantomData,
        })
    }

    fn sparse_nnz<S: Semiring>(&self, x: &GpuSparse<S>) -> usize {
        x.nnz
    }

    fn read_sparse<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<(Vec<u32>, Vec<S::T>)> {
        Ok((
            self.dev.download(&x.idx, x.nnz)?,
            self.read_vals::<S>(&x.vals, x.nnz)?,
        ))
    }

    fn to_dense<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<GpuDense<S>> {
        let mut d = self.dense_filled::<S>(x.n, 1, S::zero())?;
        self.scatter::<S>(&mut d.buf, &x.idx, Some(&x.vals), x.nnz, 0, 0, None)?;
        Ok(d)
    }

    fn compact<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<GpuSparse<S>> {
        Ok(self.compact_raw::<S>(&x.buf, x.len(), x.len(), None)?)
    }

    fn mask<'a, M: Semiring>(&'a self, m: &'a GpuDense<M>) -> GpuMask<'a> {
        GpuMask {
            buf: &m.buf,
            len: m.len(),
            size: size_of::<M::T>() as i32,
            zero: bits(M::zero()),
        }
    }

    fn mxm<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuMatrix<S>,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        self.mxm_product(y, mask, accum, a, x)
    }

    fn vxm<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
    ) -> AlgoResult<GpuSparse<S>> {
        self.vxm_product(x, a, mask)
    }

    fn gemm<S: Semiring>(
        &self,
        c: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &GpuDense<S>,
        b: &GpuDense<S>,
    ) -> AlgoResult<()> {
        self.gemm_product(c, mask, accum, a, b)
    }

    fn ewise<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &GpuDense<S>,
    ) -> AlgoResult<()> {
        assert_eq!((y.rows, y.cols), (x.rows, x.cols), "ewise shapes");
        let op = match op {
            Ewise::Add => 1,
            Ewise::Mul => 2,
        };
        let len = y.len();
        Ok(self.ewise_raw::<S>(&mut y.buf, &x.buf, len, mask, op)?)
    }

    fn apply<S: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> AlgoResult<()> {
        let (op, c) = match op {
            UnaryOp::Fill(c) => (0, c),
            UnaryOp::MulBy(c) => (1, c),
            UnaryOp::AddTo(c) => (2, c),
        };
        let len = y.len();
        Ok(self.apply_raw::<S>(&mut y.buf, len, mask, op, bits(c))?)
    }

    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        at: &GpuSparse<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        assert_eq!(at.n, y.len(), "assign_at: lengths");
        Ok(self.scatter::<S>(&mut y.buf, &at.idx, None, at.nnz, bits(value), 0, None)?)
    }

    fn reduce<S: Semiring>(&self, x: &GpuDense<S>, mask: Mask<'_, Self>) -> AlgoResult<S::T> {
        Ok(self.reduce_raw::<S>(&x.buf, x.len(), mask)?)
    }

    fn reduce_sparse<S: Semiring>(&self, x: &GpuSparse<S>) -> AlgoResult<S::T> {
        Ok(self.reduce_raw::<S>(&x.vals, x.nnz, Mask::All)?)
    }

    fn nvals<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<usize> {
        let mut out = self.dev.zeros::<u64>(1, "count")?;
        let n = x.len() as u64;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::Count)?;
            launch!(self, f, cfg_stride(n), [&x.buf, &n, &mut out]);
        }
        Ok(self.read_u64(&out)? as usize)
    }

    fn improve<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuSparse<S>,
    ) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(t.n, d.len(), "improve: lengths");
        let mut out = self.alloc_vals::<S>(t.nnz, "relaxation results")?;
        let mut changed = self.dev.zeros::<u8>(t.nnz, "relaxation flags")?;
        if t.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::Improve)?;
            let nnz = t.nnz as u32;
            launch!(
                self,
                f,
                cfg_stride(t.nnz as u64),
                [&mut d.buf, &t.idx, &t.vals, &nnz, &mut out, &mut changed]
            );
        }
        Ok(self.compact_flagged::<S>(&out, Some(&changed), t.nnz, t.n, Some(&t.idx))?)
    }

    fn improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
    ) -> AlgoResult<usize> {
        assert_eq!((d.rows, d.cols), (t.rows, t.cols), "improve_dense shapes");
        let mut out = self.dev.zeros::<u64>(1, "count")?;
        let n = d.len() as u64;
        if n > 0 {
            let f = self.dev.func::<S>(Kernel::ImproveDense)?;
            launch!(self, f, cfg_stride(n), [&mut d.buf, &t.buf, &n, &mut out]);
        }
        Ok(self.read_u64(&out)? as usize)
    }

    fn union<S: Semiring>(&self, a: &GpuSparse<S>, b: &GpuSparse<S>) -> AlgoResult<GpuSparse<S>> {
        assert_eq!(a.n, b.n, "union: lengths");
        // Positions are marked, not tested for the zero: `add` of two entries may be the zero
        // (plus-times with negatives), and the union still has that position.
        let mut t = self.filled::<S>(a.n, S::zero(), "union temporary")?;
        let mut mark = self.dev.zeros::<u8>(a.n, "union marks")?;
        self.scatter::<S>(&mut t, &a.idx, Some(&a.vals), a.nnz, 0, 0, Some(&mut mark))?;
        self.scatter::<S>(&mut t, &b.idx, Some(&b.vals), b.nnz, 0, 1, Some(&mut mark))?;
        Ok(self.compact_flagged::<S>(&t, Some(&mark), a.n, a.n, None)?)
    }

    fn select_range<S: Semiring>(
        &self,
        x: &GpuSparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> AlgoResult<GpuSparse<S>> {
        let mut out = self.alloc_vals::<S>(x.nnz, "range selection")?;
        let mut flags = self.dev.zeros::<u8>(x.nnz, "range selection flags")?;
        if x.nnz > 0 {
            let f = self.dev.func::<S>(Kernel::SelectRange)?;
            let (nnz, lo, hi) = (x.nnz as u32, bits(lo), bits(hi));
            launch!(
                self,
                f,
                cfg_stride(x.nnz as u64),
                [&x.vals, &nnz, &lo, &hi, &mut out, &mut flags]
            );
        }
        Ok(self.compact_flagged::<S>(&out, Some(&flags), x.nnz, x.n, Some(&x.idx))?)
    }

    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut GpuDense<Parents>,
        x: &GpuSparse<S>,
        a: &GpuMatrix<S>,
        d: &GpuDense<S>,
        at: &GpuSparse<M>,
    ) -> AlgoResult<()> {
        let MatrixInfo { nrows, ncols, .. } = a.info;
        assert_eq!(
            x.n, nrows,
            "witness: x has length {}, A has {nrows} rows",
            x.n
        );
        assert_eq!(d.len(), ncols, "witness: d has the wrong length");
        assert_eq!(p.len(), ncols, "witness: p has the wrong length");
        assert_eq!(at.n, ncols, "witness: at has the wrong length");
        if at.nnz == 0 {
            return Ok(());
        }
        self.scatter::<Parents>(&mut p.buf, &at.idx, None, at.nnz, bits(NO_PARENT), 0, None)?;
        if x.nnz == 0 {
            return Ok(());
        }
        let mut target = self.dev.zeros::<u8>(ncols, "witness targets")?;
        self.scatter::<OrAnd>(&mut target, &at.idx, None, at.nnz, bits(true), 0, None)?;
        let c = self.push_csr(a)?;
        let f = self.dev.func::<S>(Kernel::Witness)?;
        let nx = x.nnz as u32;
        launch!(
            self,
            f,
            cfg1(x.nnz as u64 * 32),
            [
                &*c.rp, &*c.ci, &*c.vals, &x.idx, &x.vals, &nx, &d.buf, &target, &mut p.buf
            ]
        );
        Ok(())
    }
}

impl Frontier for GpuBackend {
    type Queue<S: Semiring> = GpuQueue<S>;

    fn queue<S: Semiring>(&self, n: usize) -> AlgoResult<GpuQueue<S>> {
        Ok(self.q_new(n)?)
    }

    fn queue_set<S: Semiring>(
        &self,
        q: &mut GpuQueue<S>,
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_set(q, idx, vals, steps)?)
    }

    fn queue_len<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<QueueInfo> {
        Ok(self.q_len(q)?)
    }

    fn queue_read<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(Vec<u32>, Vec<S::T>)> {
        Ok(self.q_read(q)?)
    }

    fn queue_relax<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        from: &GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        defer: Option<Defer<'_, Self, S>>,
        to: &mut GpuQueue<S>,
    ) -> AlgoResult<()> {
        Ok(self.q_relax_step(d, out, from, a, mask, defer, to)?)
    }

    fn queue_relax_steps<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        out: StepOutputs<'_, Self>,
        q: &mut GpuQueue<S>,
        spare: &mut GpuQueue<S>,
        a: &GpuMatrix<S>,
        mask: Mask<'_, Self>,
        defer: Option<Defer<'_, Self, S>>,
        max_steps: usize,
        limit: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_relax_steps(d, out, q, spare, a, mask, defer, max_steps, limit)?)
    }

    fn queue_assign<S: Semiring, M: Semiring>(
        &self,
        y: &mut GpuDense<S>,
        q: &GpuQueue<M>,
        value: S::T,
    ) -> AlgoResult<()> {
        Ok(self.q_assign(y, q, value)?)
    }

    fn queue_split<S: Semiring>(
        &self,
        from: &GpuQueue<S>,
        d: &GpuDense<S>,
        lo: S::T,
        hi: S::T,
        inside: &mut GpuQueue<S>,
        outside: Option<&mut GpuQueue<S>>,
    ) -> AlgoResult<()> {
        Ok(self.q_split(from, d, lo, hi, inside, outside)?)
    }

    fn queue_reduce<S: Semiring>(&self, q: &GpuQueue<S>) -> AlgoResult<(QueueInfo, S::T)> {
        Ok(self.q_reduce(q)?)
    }

    fn queue_arcs<S: Semiring, M: Semiring>(
        &self,
        q: &GpuQueue<S>,
        a: &GpuMatrix<M>,
    ) -> AlgoResult<(QueueInfo, usize)> {
        Ok(self.q_arcs(q, a)?)
    }

    fn queue_clear<S: Semiring>(&self, q: &mut GpuQueue<S>) -> AlgoResult<()> {
        Ok(self.q_clear(q)?)
    }

    fn queue_improve_dense<S: Semiring>(
        &self,
        d: &mut GpuDense<S>,
        t: &GpuDense<S>,
        to: &mut GpuQueue<S>,
        steps: usize,
    ) -> AlgoResult<()> {
        Ok(self.q_improve_dense(d, t, to, steps)?)
    }

    fn queue_to_dense<S: Semiring>(&self, q: &GpuQueue<S>, x: &mut GpuDense<S>) -> AlgoResult<()> {
        Ok(self.q_to_dense(q, x)?)
    }
}
