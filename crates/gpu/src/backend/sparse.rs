//! Sparse x sparse products, matrix transposes and CSR matrices from arcs on the device, and
//! reading a matrix back.
//!
//! All three build their output the same way: each output row's values are written to a
//! segment of a temporary array, keyed by column (and, for a product, by the term's position,
//! so that the terms of one column combine in increasing `k`, as on the CPU; for arcs, by their
//! place in the list, so that repeated arcs combine in list order); each row's segment is sorted
//! (by a thread, or by a block in shared memory), equal columns combined and the zeros
//! dropped; the row pointers are scanned on the device from the row lengths, and a last kernel
//! gathers the rows into CSR arrays. Offsets and row classes are found on the device too
//! ([`super::sizing`]): only totals come back to the host. The temporary holds every term of
//! the product (12 to 16 bytes each), checked against free device memory before anything is
//! allocated.

use rayon::prelude::*;
use semigraph_algos::MatrixMask;

use super::sizing::Words;
use super::*;

/// Rows of at most this many values are sorted by a warp (a value per lane).
const SMALL_ROW: u32 = 32;
/// Rows of up to this many values are sorted by a block in shared memory (the kernels'
/// `SG_SORT_CAP`); a product's rows with more terms take a dense accumulator.
const BLOCK_ROW: u32 = 2048;
/// At most this many blocks take a product's long rows at once (each holds an accumulator of
/// a row's width).
const LONG_BLOCKS: usize = 528;

/// The temporary a scatter writes each output row's entries to ([`GpuBackend::csr_from_scatter`]):
/// row `i`'s segment starts at `off[i]`, `cursor[i]` counts the entries placed there, `tk`
/// and `tv` hold their keys and values.
struct Segments<'a> {
    off: &'a CudaSlice<u64>,
    cursor: &'a mut CudaSlice<u32>,
    tk: &'a mut CudaSlice<u64>,
    tv: &'a mut CudaSlice<u8>,
}

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
        // Phase 1: each row's terms, bounded; their offsets, the long rows listed, on the
        // device (three words read back).
        let mut ub = self.dev.uninit::<u64>(m.max(1), "spgemm row bounds")?;
        if m > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmBound)?;
            SpgemmBoundArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                brp: &cb.rp,
                nrows: m as u64,
                ub: &mut ub,
            }
            .launch(&self.dev, &f, cfg_warps(m as u64))?;
        }
        let (long, long_stats) =
            self.rows_between(Words::Wide(&ub), m, BLOCK_ROW as u64, u64::MAX)?;
        let (offd, total) = self.offsets_dev(Words::Wide(&ub), m)?;
        let stats = self.dev.download(&long_stats, 2)?;
        let (nlong, widest) = (stats[0] as usize, stats[1]);
        if widest > u32::MAX as u64 {
            return Err(GpuError::TooLarge {
                what: "terms of one row of a sparse product".into(),
                value: widest,
                max: u32::MAX as u64,
            });
        }
        // The long rows' blocks, each with a dense accumulator of n values and flags.
        let blocks = nlong.min(LONG_BLOCKS);
        let per_term = 8 + size_of::<S::T>() as u64;
        let workspace = (blocks * n) as u64 * (size_of::<S::T>() as u64 + 1);
        self.dev.check_fits(
            &format!("the {total} terms of a {m}x{n} sparse product"),
            total * per_term + workspace,
        )?;
        let mut tk = self
            .dev
            .uninit::<u64>(total.max(1) as usize, "spgemm keys")?;
        let mut tv = self.uninit_vals::<S>(total.max(1) as usize, "spgemm terms")?;
        let mut used = self.dev.uninit::<u32>(m.max(1), "spgemm row terms")?;
        let (mrp, mci, mv) = match cm {
            Some(c) => (&*c.rp, &*c.ci, c.vals.arg()),
            None => (
                &self.dummy_idx,
                &self.dummy_idx,
                MatValsArg::full(&self.dummy),
            ),
        };
        // Phase 2: the terms of the rows that are not long.
        if m > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmExpand)?;
            SpgemmExpandArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: ca.vals.arg(),
                brp: &cb.rp,
                bci: &cb.ci,
                bv: cb.vals.arg(),
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
            .launch(&self.dev, &f, cfg_warps(m as u64))?;
        }
        // Phase 3: each row sorted and combined (by one thread, a block, or for the long
        // rows a block with a dense accumulator), then gathered.
        let mut cnt = self.sort_segments::<S>(m, &offd, &mut tk, &mut tv, &used)?;
        if nlong > 0 {
            let mut accs = self.alloc_vals::<S>((blocks * n).max(1), "spgemm accumulators")?;
            let mut flags = self.dev.zeros::<u8>((blocks * n).max(1), "spgemm flags")?;
            let f = self.dev.func::<S>(Kernel::SpgemmLong)?;
            SpgemmLongArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: ca.vals.arg(),
                brp: &cb.rp,
                bci: &cb.ci,
                bv: cb.vals.arg(),
                mrp,
                mci,
                mv,
                mmode,
                rows: &long,
                nrows: nlong as u64,
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
        let mut tv = self.uninit_vals::<S>(mnnz.max(1), "spgemm values")?;
        if m > 0 && mnnz > 0 {
            let f = self.dev.func::<S>(Kernel::SpgemmDot)?;
            SpgemmDotArgs {
                arp: &ca.rp,
                aci: &ca.ci,
                av: ca.vals.arg(),
                btrp: &cbt.rp,
                btci: &cbt.ci,
                btv: cbt.vals.arg(),
                mrp: &cm.rp,
                mci: &cm.ci,
                mv: cm.vals.arg(),
                nrows: m as u64,
                mnnz: mnnz as u64,
                tv: &mut tv,
            }
            .launch(&self.dev, &f, cfg_stride(mnnz as u64))?;
        }
        // The mask's pattern with the products as values, without the zeros.
        self.copy_rows(&cm.rp, &cm.ci, &tv, m, n, None)
    }

    /// [`Products::sddmm`](semigraph_algos::Products::sddmm) on the device (shapes checked):
    /// one dot product per mask entry, in the mask's order, then the mask's pattern with those
    /// values copied without the zeros.
    pub(super) fn sddmm_dev<S: Semiring>(
        &self,
        mask: &GpuMatrix<S>,
        x: &GpuDense<S>,
        y: &GpuDense<S>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let (m, n, mnnz) = (mask.info.nrows, mask.info.ncols, mask.info.nnz);
        let cm = self.push_csr(mask)?;
        self.dev.check_fits(
            &format!("the {mnnz} mask entries of a {m}x{n} sampled product"),
            mnnz as u64 * (8 + 2 * size_of::<S::T>() as u64),
        )?;
        let mut tv = self.uninit_vals::<S>(mnnz.max(1), "sddmm values")?;
        if m > 0 && mnnz > 0 {
            let f = self.dev.func::<S>(Kernel::Sddmm)?;
            SddmmArgs {
                mrp: &cm.rp,
                mci: &cm.ci,
                mv: cm.vals.arg(),
                x: &x.buf,
                y: &y.buf,
                nrows: m as u64,
                mnnz: mnnz as u64,
                k: x.cols as u32,
                tv: &mut tv,
            }
            .launch(&self.dev, &f, cfg_stride(mnnz as u64))?;
        }
        self.copy_rows(&cm.rp, &cm.ci, &tv, m, n, None)
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
        let scatter = |s: Segments<'_>| {
            if m == 0 {
                return Ok(());
            }
            ColScatterArgs {
                rp: &c.rp,
                ci: &c.ci,
                av: c.vals.arg(),
                nrows: m as u64,
                off: s.off,
                cursor: s.cursor,
                tk: s.tk,
                tv: s.tv,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(Kernel::ColScatter)?,
                cfg_warps(m as u64),
            )
        };
        self.csr_from_scatter((n, m), (&c.ci, nnz), scatter, Some((&c.vals, false)))
    }

    /// A CSR matrix built on the device from the arcs `src[k] -> dst[k]` of an `nrows x ncols`
    /// matrix, with values `vals[k]` (`None`: every arc `S::one()`), as
    /// [`EdgeList::to_csr`](semigraph_formats::EdgeList::to_csr) builds it on the host: each
    /// row's columns in increasing order, repeated arcs combined with `S::add` in the order
    /// they are listed. Entries equal to the semiring's zero are dropped, as in every matrix
    /// the device builds (the host's build keeps stored zeros: its
    /// [`Csr::without_zeros`](semigraph_formats::Csr::without_zeros) is this matrix). Without
    /// values and without repeated arcs the matrix holds one value for all (as an uploaded
    /// pattern does).
    ///
    /// The arcs are uploaded once, counted by row, placed in their rows by one scatter keyed
    /// by column and list position, and each row sorted and its repeats combined there (the
    /// phases of the device transpose and of the sparse products): the host only checks the
    /// ids.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] when `src`, `dst` (and `vals`) differ in length or an id is
    /// out of range; [`GpuError::TooLarge`] from `2^32` arcs on; [`GpuError::OutOfMemory`]
    /// (before any allocation) when the arcs, their keyed copies and the result do not fit.
    ///
    /// # Complexity
    /// `O(m)` work for the count and the scatter, each row's sort `O(len log len)`; the arcs
    /// cross the bus once (8 bytes an arc and the values).
    pub fn csr_from_arcs<S: Semiring>(
        &self,
        (nrows, ncols): (usize, usize),
        src: &[u32],
        dst: &[u32],
        vals: Option<&[S::T]>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let m = src.len();
        if dst.len() != m || vals.is_some_and(|v| v.len() != m) {
            return Err(GpuError::InvalidInput(format!(
                "{m} sources, {} targets and {} values: one of each per arc",
                dst.len(),
                vals.map_or(m, <[S::T]>::len)
            )));
        }
        if m > u32::MAX as usize || nrows > u32::MAX as usize || ncols > u32::MAX as usize {
            return Err(GpuError::TooLarge {
                what: format!("a {nrows}x{ncols} matrix of {m} arcs"),
                value: m.max(nrows).max(ncols) as u64,
                max: u32::MAX as u64,
            });
        }
        let largest = |ids: &[u32]| ids.par_iter().copied().max();
        for (ids, bound, what) in [(src, nrows, "source"), (dst, ncols, "target")] {
            if let Some(big) = largest(ids).filter(|&b| b as usize >= bound) {
                return Err(GpuError::InvalidInput(format!(
                    "an arc's {what} is {big}, past the {bound} of a {nrows}x{ncols} matrix"
                )));
            }
        }
        let vb = size_of::<S::T>() as u64;
        self.dev.check_fits(
            &format!("a {nrows}x{ncols} matrix built from {m} arcs"),
            m as u64 * (8 + vb + 8 + vb + 4 + vb) + nrows as u64 * 24,
        )?;
        let src_d = self.dev.upload(src, "the arcs' sources")?;
        let dst_d = self.dev.upload(dst, "the arcs' targets")?;
        let av = match vals {
            Some(v) => DevVals::full(self.upload_vals::<S>(v, "the arcs' values")?, false),
            None => DevVals {
                buf: Arc::new(self.upload_vals::<S>(&[S::one()], "the arcs' value")?),
                iso: true,
                zero_free: !S::is_zero(S::one()),
            },
        };
        let scatter = |s: Segments<'_>| {
            CooScatterArgs {
                src: &src_d,
                dst: &dst_d,
                av: av.arg(),
                m: m as u64,
                off: s.off,
                cursor: s.cursor,
                tk: s.tk,
                tv: s.tv,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(Kernel::CooScatter)?,
                cfg_stride(m as u64),
            )
        };
        // Repeats of one value that `add` leaves as it is (a pattern's `or`, `min`) keep it.
        let one = S::one();
        let same = bits(S::add(one, one)) == bits(one);
        self.csr_from_scatter((nrows, ncols), (&src_d, m), scatter, Some((&av, same)))
    }

    /// The phases every build of a CSR matrix from scattered entries shares (the transpose,
    /// the build from arcs): each output row's entries counted from `rows` (an entry's output
    /// row, one word for each of the `entries`), the segment offsets scanned, `scatter` writing each entry's
    /// key (`column << 32 | position`) and value to its row's segment, the rows sorted and
    /// combined ([`GpuBackend::sort_segments`]) and gathered. `iso`: the values of the input
    /// when they are one for all, and whether entries of that value combine into it: kept
    /// for the output when they do, or when no entry was combined or dropped.
    fn csr_from_scatter<S: Semiring>(
        &self,
        (nrows, ncols): (usize, usize),
        (rows, entries): (&CudaSlice<u32>, usize),
        scatter: impl FnOnce(Segments<'_>) -> Result<(), GpuError>,
        iso: Option<(&DevVals, bool)>,
    ) -> Result<GpuMatrix<S>, GpuError> {
        let mut cnt = self.dev.zeros::<u32>(nrows.max(1), "entries per row")?;
        if entries > 0 {
            ColCountArgs {
                ci: rows,
                nnz: entries as u64,
                cnt: &mut cnt,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(Kernel::ColCount)?,
                cfg_stride(entries as u64),
            )?;
        }
        let (off, _) = self.offsets_dev(Words::Narrow(&cnt), nrows)?;
        let mut cursor = self.dev.zeros::<u32>(nrows.max(1), "row cursors")?;
        let mut tk = self.dev.uninit::<u64>(entries.max(1), "keyed entries")?;
        let mut tv = self.uninit_vals::<S>(entries.max(1), "keyed values")?;
        if entries > 0 {
            scatter(Segments {
                off: &off,
                cursor: &mut cursor,
                tk: &mut tk,
                tv: &mut tv,
            })?;
        }
        drop(cursor);
        let kept = self.sort_segments::<S>(nrows, &off, &mut tk, &mut tv, &cnt)?;
        let mut t = self.gather_segments(nrows, ncols, &off, &kept, &tk, &tv)?;
        // One value for all stays so (unless it is the zero, whose entries the sort dropped:
        // then there are none; or entries were combined into sums of it).
        if let (Storage::Csr(tc), Some((v, same))) = (&mut t.storage, iso)
            && v.iso
            && (same || t.info.nnz == entries)
        {
            tc.vals = v.clone();
        }
        Ok(t)
    }

    /// [`Objects::read_matrix`] on the device: the matrix's CSR, without its zeros.
    pub(super) fn read_csr<S: Semiring>(&self, a: &GpuMatrix<S>) -> Result<Csr<S>, GpuError> {
        let (m, n, nnz) = (a.info.nrows, a.info.ncols, a.info.nnz);
        let c = self.push_csr(a)?;
        let rp = self.dev.download(&c.rp, m + 1)?;
        let ci = self.dev.download(&c.ci, nnz)?;
        let vals = self.read_mat_vals::<S>(&c.vals, nnz)?;
        let invalid = |e: semigraph_formats::FormatError| GpuError::Driver {
            what: "reading a matrix back".into(),
            message: format!("the device CSR is invalid: {e}"),
        };
        Csr::try_from_parts(m, n, rp, ci, vals)
            .and_then(Csr::without_zeros)
            .map_err(invalid)
    }

    /// Sorts each row's `len[i]` keyed values at `off[i]` by key, combines those of one column
    /// with `add` in key order, drops the zeros, and returns each row's count. Rows of at
    /// most [`SMALL_ROW`] values are sorted by a warp (a value per lane), those up to
    /// [`BLOCK_ROW`] by a block in shared memory, longer ones by a block in global memory
    /// (both listed on the device).
    fn sort_segments<S: Semiring>(
        &self,
        nrows: usize,
        off: &CudaSlice<u64>,
        tk: &mut CudaSlice<u64>,
        tv: &mut CudaSlice<u8>,
        len: &CudaSlice<u32>,
    ) -> Result<CudaSlice<u32>, GpuError> {
        let mut cnt = self.dev.uninit::<u32>(nrows.max(1), "row lengths")?;
        if nrows == 0 {
            return Ok(cnt);
        }
        let f = self.dev.func::<S>(Kernel::SortRows)?;
        SortRowsArgs {
            off,
            len,
            tk,
            tv,
            cnt: &mut cnt,
            nrows: nrows as u64,
            small: SMALL_ROW,
        }
        .launch(&self.dev, &f, cfg_warps(nrows as u64))?;
        for (kernel, lo, hi) in [
            (Kernel::SortRowsBlock, SMALL_ROW as u64, BLOCK_ROW as u64),
            (Kernel::SortRowsLong, BLOCK_ROW as u64, u64::MAX),
        ] {
            let (rows, count) = self.rows_between(Words::Narrow(len), nrows, lo, hi)?;
            // As many blocks as could have a row; those past the listed count do nothing.
            SortRowsBlockArgs {
                off,
                len,
                rows: &rows,
                count: &count,
                tk,
                tv,
                cnt: &mut cnt,
            }
            .launch(
                &self.dev,
                &self.dev.func::<S>(kernel)?,
                cfg_blocks(nrows.min(MAX_GRID as usize)),
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
        let (rpd, nnz) = self.row_ptr_dev(cnt, nrows)?;
        let mut ci = self.dev.uninit::<u32>(nnz.max(1), "CSR columns")?;
        let mut vals = self.uninit_vals::<S>(nnz.max(1), "CSR values")?;
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
            .launch(&self.dev, &f, cfg_warps(nrows as u64))?;
        }
        // Every producer drops the zeros from its rows.
        let dev = self.csr_from_device((nrows, ncols), rpd, ci, vals, true);
        Ok(self.csr_matrix(nrows, ncols, nnz, dev))
    }

    /// A CSR matrix handle of `dev`, `nrows x ncols` with `nnz` entries.
    pub(super) fn csr_matrix<S: Semiring>(
        &self,
        nrows: usize,
        ncols: usize,
        nnz: usize,
        dev: DevCsr,
    ) -> GpuMatrix<S> {
        GpuMatrix {
            info: MatrixInfo {
                nrows,
                ncols,
                nnz,
                format: Format::Csr,
            },
            storage: Storage::Csr(dev),
            push: None,
            _s: PhantomData,
        }
    }
}
