//! `impl Objects for GpuBackend`: the handles in device memory (matrices in every format,
//! dense arrays, sparse vectors, masks), their read-back and compaction; the sparse
//! matrices' upload is in `uploads.rs`.

use super::uploads::{bytes_for, csr_bytes};
use super::*;

impl Objects for GpuBackend {
    fn read_matrix<S: Semiring>(&self, a: &GpuMatrix<S>) -> AlgoResult<Csr<S>> {
        Ok(self.read_csr(a)?)
    }

    fn same_pattern<S: Semiring>(&self, a: &GpuMatrix<S>, b: &GpuMatrix<S>) -> AlgoResult<bool> {
        Ok(self.same_pattern_dev(a, b)?)
    }

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

    fn counters(&self) -> semigraph_algos::Counters {
        self.dev.counters()
    }

    fn synchronize(&self) -> AlgoResult<()> {
        Ok(self.dev.sync()?)
    }

    fn matrix_from_arcs<S: Semiring>(
        &self,
        shape: (usize, usize),
        src: &[u32],
        dst: &[u32],
        vals: Option<&[S::T]>,
    ) -> AlgoResult<GpuMatrix<S>> {
        Ok(self.csr_from_arcs(shape, src, dst, vals)?)
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
        let what = format!("a {}x{} {format:?} matrix", a.nrows(), a.ncols());
        let storage = if format == Format::Csr {
            // Uploaded from the caller's arrays (no host copy).
            self.dev
                .check_fits(&what, csr_bytes::<S>(a.nrows(), a.nnz()))?;
            Storage::Csr(self.dev_csr(a)?)
        } else {
            let host = SparseMatrix::from_csr(a, format, opts)?;
            self.dev.check_fits(&what, bytes_for(&host))?;
            match &host {
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

    fn matrix_info<S: Semiring>(&self, a: &GpuMatrix<S>) -> MatrixInfo {
        a.info
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

    fn dense_as<S: Semiring, S2: Semiring<T = S::T>>(&self, x: GpuDense<S>) -> GpuDense<S2> {
        GpuDense {
            buf: x.buf,
            rows: x.rows,
            cols: x.cols,
            _s: PhantomData,
        }
    }

    fn read_dense<S: Semiring>(&self, x: &GpuDense<S>) -> AlgoResult<Vec<S::T>> {
        Ok(self.read_vals::<S>(&x.buf, x.len())?)
    }

    fn read_dense_into<S: Semiring>(&self, x: &GpuDense<S>, out: &mut [S::T]) -> AlgoResult<()> {
        assert_eq!(out.len(), x.len(), "read_dense_into: lengths differ");
        Ok(self.dev.download_scalars_into::<S::T>(&x.buf, out)?)
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
}

impl GpuBackend {
    pub(super) fn mask_args<'a, 'm: 'a>(&'a self, mask: Mask<'m, Self>, len: usize) -> MaskArg<'a> {
        match mask {
            Mask::All => MaskArg {
                buf: &self.dummy,
                mode: 0,
                size: 1,
                zero: 0,
            },
            Mask::Keep(m) | Mask::Skip(m) => {
                assert_eq!(m.len, len, "mask length");
                MaskArg {
                    buf: m.buf,
                    mode: if matches!(mask, Mask::Keep(_)) { 1 } else { 2 },
                    size: m.size,
                    zero: m.zero,
                }
            }
        }
    }

    pub(super) fn alloc_vals<S: Semiring>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.zeros::<u8>(len * size_of::<S::T>(), what)
    }

    /// [`GpuBackend::alloc_vals`] not zeroed: for an output kernels write whole
    /// ([`Device::uninit`]).
    pub(super) fn uninit_vals<S: Semiring>(
        &self,
        len: usize,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.uninit::<u8>(len * size_of::<S::T>(), what)
    }

    /// `len` values of `S`, every one `v`.
    pub(super) fn filled<S: Semiring>(
        &self,
        len: usize,
        v: S::T,
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        let bytes = len as u64 * size_of::<S::T>() as u64;
        self.dev.check_fits(what, bytes)?;
        let mut buf = self.alloc_vals::<S>(len, what)?;
        if len > 0 && bits(v) != 0 {
            self.apply_raw::<S>(&mut buf, len, Mask::All, 0, bits(v))?;
        }
        Ok(buf)
    }

    pub(super) fn read_u32(&self, buf: &CudaSlice<u32>, at: usize) -> Result<u32, GpuError> {
        self.read_word(buf, at)
    }

    pub(super) fn read_u64(&self, buf: &CudaSlice<u64>) -> Result<u64, GpuError> {
        self.read_word(buf, 0)
    }

    /// Element `at` of a device array, read back (waits for the stream).
    pub(super) fn read_word<T: cudarc::driver::DeviceRepr + Default + Copy>(
        &self,
        buf: &CudaSlice<T>,
        at: usize,
    ) -> Result<T, GpuError> {
        let mut v = [T::default()];
        self.dev
            .stream
            .memcpy_dtoh(&buf.slice(at..at + 1), &mut v[..])
            .map_err(|e| driver("read a count", e))?;
        self.dev.sync()?;
        Ok(v[0])
    }

    pub(super) fn read_vals<S: Semiring>(
        &self,
        buf: &CudaSlice<u8>,
        len: usize,
    ) -> Result<Vec<S::T>, GpuError> {
        self.dev.download_scalars::<S::T>(buf, len)
    }

    /// The `nnz` values of a CSR matrix, read back (an iso-valued matrix's one value
    /// repeated).
    pub(super) fn read_mat_vals<S: Semiring>(
        &self,
        v: &DevVals,
        nnz: usize,
    ) -> Result<Vec<S::T>, GpuError> {
        if v.iso {
            let one = self.read_vals::<S>(&v.buf, 1)?;
            return Ok(vec![one[0]; nnz]);
        }
        self.read_vals::<S>(&v.buf, nnz)
    }

    /// [`Objects::same_pattern`] on the device: the two CSR forms' row pointers and columns
    /// compared where they are, one flag read back.
    fn same_pattern_dev<S: Semiring>(
        &self,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
    ) -> Result<bool, GpuError> {
        let (ia, ib) = (a.info, b.info);
        if (ia.nrows, ia.ncols, ia.nnz) != (ib.nrows, ib.ncols, ib.nnz) {
            return Ok(false);
        }
        let (ca, cb) = (self.push_csr(a)?, self.push_csr(b)?);
        if Arc::ptr_eq(&ca.rp, &cb.rp) && Arc::ptr_eq(&ca.ci, &cb.ci) {
            return Ok(true);
        }
        let mut differ = self.dev.zeros::<u32>(1, "pattern comparison flag")?;
        let f = self.dev.func_any(Kernel::WordsDiffer)?;
        for (x, y, n) in [(&ca.rp, &cb.rp, ia.nrows + 1), (&ca.ci, &cb.ci, ia.nnz)] {
            if n > 0 {
                WordsDifferArgs {
                    a: x,
                    b: y,
                    n: n as u64,
                    differ: &mut differ,
                }
                .launch(&self.dev, &f, cfg_stride(n as u64))?;
            }
        }
        Ok(self.dev.download(&differ, 1)?[0] == 0)
    }

    /// Compacts the entries of `len` values in `src` into a sparse vector of length `n`;
    /// indices are positions, or `map[position]` when a map is given.
    pub(super) fn compact_raw<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        self.compact_flagged::<S>(src, None, len, n, map)
    }

    /// As [`GpuBackend::compact_raw`], keeping the positions whose flag byte is non-zero
    /// when `flags` is given (entries that may hold the zero).
    pub(super) fn compact_flagged<S: Semiring>(
        &self,
        src: &CudaSlice<u8>,
        flags: Option<&CudaSlice<u8>>,
        len: usize,
        n: usize,
        map: Option<&CudaSlice<u32>>,
    ) -> Result<GpuSparse<S>, GpuError> {
        let use_flags: i32 = flags.is_some() as i32;
        let flags = flags.unwrap_or(&self.dummy);
        to_u32("a compacted vector", len)?;
        let tile = (BLOCK * ITEMS) as usize;
        let nb = len.div_ceil(tile).max(1);
        let nb32 = nb as u32;
        let mut counts = self.dev.zeros::<u32>(nb + 1, "compaction counts")?;
        let lenu = len as u64;
        let grid = LaunchConfig {
            grid_dim: (nb32, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let fc = self.dev.func::<S>(Kernel::CompactCount)?;
        CompactCountArgs {
            x: src,
            flags,
            use_flags,
            n: lenu,
            items: ITEMS,
            counts: &mut counts,
        }
        .launch(&self.dev, &fc, grid)?;
        let fs = self.dev.func_any(Kernel::Scan)?;
        let one = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (1024, 1, 1),
            shared_mem_bytes: 0,
        };
        ScanArgs {
            counts: &mut counts,
            nb: nb32,
        }
        .launch(&self.dev, &fs, one)?;
        let total = self.read_u32(&counts, nb)? as usize;
        let mut idx = self.dev.zeros::<u32>(total, "sparse indices")?;
        let mut vals = self.alloc_vals::<S>(total, "sparse values")?;
        if total > 0 {
            let fw = self.dev.func::<S>(Kernel::CompactWrite)?;
            let use_map: i32 = map.is_some() as i32;
            match map {
                Some(mp) => CompactWriteArgs {
                    x: src,
                    flags,
                    use_flags,
                    n: lenu,
                    items: ITEMS,
                    offs: &counts,
                    map: mp,
                    use_map,
                    out_idx: &mut idx,
                    out_vals: &mut vals,
                }
                .launch(&self.dev, &fw, grid)?,
                None => CompactWriteArgs {
                    x: src,
                    flags,
                    use_flags,
                    n: lenu,
                    items: ITEMS,
                    offs: &counts,
                    map: &self.dummy_idx,
                    use_map,
                    out_idx: &mut idx,
                    out_vals: &mut vals,
                }
                .launch(&self.dev, &fw, grid)?,
            }
        }
        Ok(GpuSparse {
            n,
            nnz: total,
            idx,
            vals,
            _s: PhantomData,
        })
    }
}
