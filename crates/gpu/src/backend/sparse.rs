//! Sparse x sparse products and matrix transposes on the device, and reading a matrix back.
//!
//! Both build their output the same way: each output row's values are written to a segment of
//! a temporary array, keyed by column (and, for a product, by the term's position, so that the
//! terms of one column combine in increasing `k`, as on the CPU); one thread per row sorts its
//! segment (a heap sort), combines equal columns and drops the zeros; the row lengths come
//! back to the host for the row pointers, and a last kernel gathers the rows into CSR arrays.
//! The temporary holds every term of the product (12 to 16 bytes each), checked against free
//! device memory before anything is allocated.

use semigraph_algos::MatrixMask;

use super::*;

/// Rows of at most this many values are sorted by one thread.
const SMALL_ROW: u32 = 32;
/// Rows of up to this many values are sorted by a block in shared memory (the kernels'
/// `SG_SORT_CAP`); a product's rows with more terms take a dense accumulator.
const BLOCK_ROW: u32 = 2048;
/// At most this many blocks take a product's long rows at once (each holds an accumulator of
/// a row's width).
const LONG_BLOCKS: usize = 264;

impl GpuBackend {
    /// [`Products::spgemm`] on the device (`b_t`: `b` holds `B^T`).
    pub(super) fn spgemm_dev<S: Semiring>(
        &self,
        mask: MatrixMask<'_, Self, S>,
        a: &GpuMatrix<S>,
        b: &GpuMatrix<S>,
        b_t: bool,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let (bk, bn) = match b_t {
            false => (b.info.nrows, b.info.ncols),
            true => (b.info.ncols, b.info.nrows),
        };
        let (m, n) = (a.info.nrows, bn);
        assert_eq!(
            a.info.ncols, bk,
            "spgemm: A has {} columns, B has {bk} rows",
            a.info.ncols
        );
        let (mmode, mk) = match mask {
            MatrixMask::All => (0, None),
            MatrixMask::Keep(x) => (1, Some(x)),
            MatrixMask::Skip(x) => (2, Some(x)),
        };
        if let Some(x) = mk {
            assert_eq!(
                (x.info.nrows, x.info.ncols),
                (m, n),
                "spgemm: the mask has the wrong shape"
            );
        }
        if let (1, Some(x)) = (mmode, mk) {
            // The mask bounds the output: one dot product per mask entry, with the rows of B^T.
            return match b_t {
                true => self.spgemm_dot(x, a, b),
                false => self.spgemm_dot(x, a, &self.transpose_dev(b)?),
            };
        }
        let bt;
        let b = match b_t {
            true => {
                bt = self.transpose_dev(b)?;
                &bt
            }
            false => b,
        };
        let (ca, cb) = (self.push_csr(a)?, self.push_csr(b)?);
        let cm = match mk {
            Some(x) => Some(self.push_csr(x)?),
            None => None,
        };
        // Phase 1: each row's terms, bounded; their offsets from the host.
        let mut ub = self.dev.zeros::<u64>(m.max(1), "spgemm row bounds")?;
        if m > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmBound)?;
            SpgemmBoundArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                brp: &cb.rp,
                nrows: m as u64,
                ub: &mut ub,
            }
            .launch(&self.dev, &f, cfg_stride(m as u64))?;
        }
        let bounds = self.dev.download(&ub, m)?;
        if let Some(&u) = bounds.iter().find(|&&u| u > u32::MAX as u64) {
            return Err(GpuError::TooLarge {
                what: "terms of one row of a sparse product".into(),
                value: u,
                max: u32::MAX as u64,
            });
        }
        let (off, total) = offsets(bounds.iter().copied(), m);
        let long: Vec<u32> = (0..m as u32)
            .filter(|&i| bounds[i as usize] > BLOCK_ROW as u64)
            .collect();
        // The long rows' blocks, each with a dense accumulator of n values and flags.
        let blocks = long.len().min(LONG_BLOCKS);
        let per_term = 8 + size_of::<S::T>() as u64;
        let workspace = (blocks * n) as u64 * (size_of::<S::T>() as u64 + 1);
        self.dev.check_fits(
            &format!("the {total} terms of a {m}x{n} sparse product"),
            total * per_term + workspace,
        )?;
        let offd = self.dev.upload(&off, "spgemm offsets")?;
        let mut tk = self
            .dev
            .zeros::<u64>(total.max(1) as usize, "spgemm keys")?;
        let mut tv = self.alloc_vals::<S>(total.max(1) as usize, "spgemm terms")?;
        let mut used = self.dev.zeros::<u32>(m.max(1), "spgemm row terms")?;
        let (mrp, mci, mv) = match cm {
            Some(c) => (&*c.rp, &*c.ci, &*c.vals),
            None => (&self.dummy_idx, &self.dummy_idx, &self.dummy),
        };
        // Phase 2: the terms of the rows that are not long.
        if m > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmExpand)?;
            SpgemmExpandArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: &ca.vals,
                brp: &cb.rp,
                bci: &cb.ci,
                bv: &cb.vals,
                mrp,
                mci,
                mv,
                mmode,
                nrows: m as u64,
                off: &offd,
                ub: &ub,
                long_min: BLOCK_ROW as u64,
                tk: &mut tk,
                tv: &mut tv,
                used: &mut used,
            }
            .launch(&self.dev, &f, cfg_stride(m as u64 * 32))?;
        }
        // Phase 3: each row sorted and combined (by one thread, a block, or for the long
        // rows a block with a dense accumulator), then gathered.
        let mut cnt = self.sort_segments::<S>(m, &offd, &mut tk, &mut tv, &used, &ub, &bounds)?;
        if !long.is_empty() {
            let rows = self.dev.upload(&long, "spgemm long rows")?;
            let mut accs = self.alloc_vals::<S>((blocks * n).max(1), "spgemm accumulators")?;
            let mut flags = self.dev.zeros::<u8>((blocks * n).max(1), "spgemm flags")?;
            let f = self.dev.func::<S>(Kernel::SpgemmLong)?;
            SpgemmLongArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: &ca.vals,
                brp: &cb.rp,
                bci: &cb.ci,
                bv: &cb.vals,
                mrp,
                mci,
                mv,
                mmode,
                rows: &rows,
                nrows: long.len() as u64,
                ncols: n as u64,
                off: &offd,
                accs: &mut accs,
                flags: &mut flags,
                tk: &mut tk,
                tv: &mut tv,
                cnt: &mut cnt,
            }
            .launch(&self.dev, &f, cfg_blocks(blocks))?;
        }
        self.gather_segments(m, n, &offd, &cnt, &tk, &tv)
    }

    /// `C<M> = A (+).(x) B` by dot products, given `B^T` (`bt`): for each entry of `M` the
    /// intersection of a row of `A` and a row of `B^T`; nothing is formed outside the mask, and
    /// the results, in the mask's order, need no sort.
    fn spgemm_dot<S: Semiring>(
        &self,
        mask: &GpuMatrix<S>,
        a: &GpuMatrix<S>,
        bt: &GpuMatrix<S>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let (m, n, mnnz) = (mask.info.nrows, mask.info.ncols, mask.info.nnz);
        let (ca, cbt, cm) = (self.push_csr(a)?, self.push_csr(bt)?, self.push_csr(mask)?);
        self.dev.check_fits(
            &format!("the {mnnz} mask entries of a {m}x{n} sparse product"),
            mnnz as u64 * (8 + 2 * size_of::<S::T>() as u64),
        )?;
        let mut tv = self.alloc_vals::<S>(mnnz.max(1), "spgemm values")?;
        if m > 0 && mnnz > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmDot)?;
            SpgemmDotArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: &ca.vals,
                btrp: &cbt.rp,
                btci: &cbt.ci,
                btv: &cbt.vals,
                mrp: &cm.rp,
                mci: &cm.ci,
                mv: &cm.vals,
                nrows: m as u64,
                mnnz: mnnz as u64,
                tv: &mut tv,
            }
            .launch(&self.dev, &f, cfg_stride(mnnz as u64))?;
        }
        // The mask's pattern with the products as values, without the zeros.
        let mrp = self.dev.download(&cm.rp, m + 1)?;
        self.copy_rows(&cm.rp, &cm.ci, &tv, &mrp, n, None)
    }

    /// [`ElementWise::transpose_matrix`] on the device.
    pub(super) fn transpose_dev<S: Semiring>(
        &self,
        a: &GpuMatrix<S>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let (m, n, nnz) = (a.info.nrows, a.info.ncols, a.info.nnz);
        let c = self.push_csr(a)?;
        self.dev.check_fits(
            &format!("the transpose of a {m}x{n} matrix"),
            nnz as u64 * (8 + 2 * size_of::<S::T>() as u64 + 4),
        )?;
        let mut cnt = self.dev.zeros::<u32>(n.max(1), "transpose column counts")?;
        if nnz > 0 {
            let f = self.dev.func::<S>(Kernel::ColCount)?;
            ColCountArgs {
                ci: &c.ci,
                nnz: nnz as u64,
                cnt: &mut cnt,
            }
            .launch(&self.dev, &f, cfg_stride(nnz as u64))?;
        }
        let counts: Vec<u64> = self
            .dev
            .download(&cnt, n)?
            .into_iter()
            .map(u64::from)
            .collect();
        let (off, _) = offsets(counts.iter().copied(), n);
        let offd = self.dev.upload(&off, "transpose offsets")?;
        let mut cursor = self.dev.zeros::<u32>(n.max(1), "transpose cursors")?;
        let mut tk = self.dev.zeros::<u64>(nnz.max(1), "transpose keys")?;
        let mut tv = self.alloc_vals::<S>(nnz.max(1), "transpose values")?;
        if m > 0 && nnz > 0 {
            let f = self.dev.func::<S>(Kernel::ColScatter)?;
            ColScatterArgs {
                rp: &c.rp,
                ci: &c.ci,
                av: &c.vals,
                nrows: m as u64,
                off: &offd,
                cursor: &mut cursor,
                tk: &mut tk,
                tv: &mut tv,
            }
            .launch(&self.dev, &f, cfg_stride(m as u64))?;
        }
        self.sorted_rows::<S>(n, m, &offd, &mut tk, &mut tv, &cnt, &counts)
    }

    /// [`Objects::read_matrix`] on the device: the matrix's CSR, without its zeros.
    pub(super) fn read_csr<S: Semiring>(&self, a: &GpuMatrix<S>) -> Result<Csr<S>, GpuError> {
        let (m, n, nnz) = (a.info.nrows, a.info.ncols, a.info.nnz);
        let c = self.push_csr(a)?;
        let rp = self.dev.download(&c.rp, m + 1)?;
        let ci = self.dev.download(&c.ci, nnz)?;
        let vals = self.read_vals::<S>(&c.vals, nnz)?;
        let invalid = |e: semigraph_formats::FormatError| GpuError::Driver {
            what: "reading a matrix back".into(),
            message: format!("the device CSR is invalid: {e}"),
        };
        Csr::try_from_parts(m, n, rp, ci, vals)
            .and_then(Csr::without_zeros)
            .map_err(invalid)
    }

    /// The last phases of a transpose: each column's `lens[j]` keyed values at `off` sorted,
    /// then gathered into a new CSR matrix.
    #[allow(clippy::too_many_arguments)]
    fn sorted_rows<S: Semiring>(
        &self,
        nrows: usize,
        ncols: usize,
        off: &CudaSlice<u64>,
        tk: &mut CudaSlice<u64>,
        tv: &mut CudaSlice<u8>,
        len: &CudaSlice<u32>,
        lens: &[u64],
    ) -> Result<GpuMatrix<S>, GpuError> {
        let sel = match lens.is_empty() {
            true => self.dev.zeros::<u64>(1, "row lengths")?,
            false => self.dev.upload(lens, "row lengths")?,
        };
        let cnt = self.sort_segments::<S>(nrows, off, tk, tv, len, &sel, lens)?;
        self.gather_segments(nrows, ncols, off, &cnt, tk, tv)
    }

    /// Sorts each row's `len[i]` keyed values at `off[i]` by key, combines those of one column
    /// with `add` in key order, drops the zeros, and returns each row's count. Rows are
    /// classified by `sel` (on the device) and `sel_host`, the same lengths or bounds of them:
    /// at most [`SMALL_ROW`] or more than [`BLOCK_ROW`] by one thread (a heap sort), between
    /// by a block in shared memory.
    #[allow(clippy::too_many_arguments)]
    fn sort_segments<S: Semiring>(
        &self,
        nrows: usize,
        off: &CudaSlice<u64>,
        tk: &mut CudaSlice<u64>,
        tv: &mut CudaSlice<u8>,
        len: &CudaSlice<u32>,
        sel: &CudaSlice<u64>,
        sel_host: &[u64],
    ) -> Result<CudaSlice<u32>, GpuError> {
        let mut cnt = self.dev.zeros::<u32>(nrows.max(1), "row lengths")?;
        if nrows == 0 {
            return Ok(cnt);
        }
        let f = self.dev.func::<S>(Kernel::SortRows)?;
        SortRowsArgs {
            off,
            len,
            sel,
            tk,
            tv,
            cnt: &mut cnt,
            nrows: nrows as u64,
            small: SMALL_ROW,
            big: BLOCK_ROW,
        }
        .launch(&self.dev, &f, cfg_stride(nrows as u64))?;
        let medium: Vec<u32> = (0..nrows as u32)
            .filter(|&i| (SMALL_ROW as u64 + 1..=BLOCK_ROW as u64).contains(&sel_host[i as usize]))
            .collect();
        if !medium.is_empty() {
            let rows = self.dev.upload(&medium, "rows sorted by blocks")?;
            let f = self.dev.func::<S>(Kernel::SortRowsBlock)?;
            SortRowsBlockArgs {
                off,
                len,
                rows: &rows,
                nrows: medium.len() as u64,
                tk,
                tv,
                cnt: &mut cnt,
            }
            .launch(
                &self.dev,
                &f,
                cfg_blocks(medium.len().min(MAX_GRID as usize)),
            )?;
        }
        Ok(cnt)
    }

    /// The last phase of every operation that writes each output row to a segment of a
    /// temporary (keys `column << 32` in increasing order, and values, from `off[i]` on,
    /// `cnt[i]` of them): the row lengths come back for the row pointers, and the rows are
    /// gathered into a new CSR matrix.
    pub(super) fn gather_segments<S: Semiring>(
        &self,
        nrows: usize,
        ncols: usize,
        off: &CudaSlice<u64>,
        cnt: &CudaSlice<u32>,
        tk: &CudaSlice<u64>,
        tv: &CudaSlice<u8>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let lens = self.dev.download(cnt, nrows)?;
        let mut rp = Vec::with_capacity(nrows + 1);
        let mut nnz = 0u64;
        rp.push(0u32);
        for &l in &lens {
            nnz += l as u64;
            rp.push(to_u32("matrix entries", nnz as usize)?);
        }
        let nnz = nnz as usize;
        let rpd = self.dev.upload(&rp, "CSR row pointers")?;
        let mut ci = self.dev.zeros::<u32>(nnz.max(1), "CSR columns")?;
        let mut vals = self.alloc_vals::<S>(nnz.max(1), "CSR values")?;
        if nrows > 0 && nnz > 0 {
            let f = self.dev.func::<S>(Kernel::GatherRows)?;
            GatherRowsArgs {
                off,
                cnt,
                tk,
                tv,
                rp: &rpd,
                ci: &mut ci,
                vals: &mut vals,
                nrows: nrows as u64,
            }
            .launch(&self.dev, &f, cfg_stride(nrows as u64))?;
        }
        let shape = RowShape::of_row_ptr(&rp, ncols);
        let dev = self.csr_on_device(&rp, shape, rpd, ci, vals)?;
        Ok(GpuMatrix {
            info: MatrixInfo {
                nrows,
                ncols,
                nnz,
                format: Format::Csr,
            },
            storage: Storage::Csr(dev),
            push: None,
            _s: PhantomData,
        })
    }
}

/// The exclusive prefix sums of `lens` (the start of each of `n` segments, at least one
/// element so that an empty matrix still has a buffer) and their total.
pub(super) fn offsets(lens: impl Iterator<Item = u64>, n: usize) -> (Vec<u64>, u64) {
    let mut off = Vec::with_capacity(n.max(1));
    let mut total = 0u64;
    for l in lens {
        off.push(total);
        total += l;
    }
    off.resize(n.max(1), total);
    (off, total)
}
