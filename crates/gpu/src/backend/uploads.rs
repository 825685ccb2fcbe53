//! Sparse matrices into device memory: CSR (with its SpMV plan), ELL and COO, a pattern's
//! one value for all, and the bytes each takes.

use super::*;
use rayon::prelude::*;

impl GpuBackend {
    pub(super) fn upload_vals<S: Semiring>(
        &self,
        v: &[S::T],
        what: &str,
    ) -> Result<CudaSlice<u8>, GpuError> {
        self.dev.upload::<u8>(bytes_of(v), what)
    }

    pub(super) fn dev_csr<S: Semiring>(&self, a: &Csr<S>) -> Result<DevCsr, GpuError> {
        let rp = self.dev.upload(a.row_ptr(), "CSR row pointers")?;
        let ci = self.dev.upload(a.col_idx(), "CSR columns")?;
        // One value for all when every entry holds the same bits (a pattern, an unweighted
        // graph): half the memory, and no value traffic in the products.
        let v = a.vals();
        let (iso, zero_free) = iso_and_zero_free(v, S::is_zero);
        let vals = DevVals {
            buf: Arc::new(self.upload_vals::<S>(if iso { &v[..1] } else { v }, "CSR values")?),
            iso,
            zero_free,
        };
        let tune = self.csr_tune(a.row_ptr(), RowShape::of(a))?;
        Ok(DevCsr {
            rp: Arc::new(rp),
            ci: Arc::new(ci),
            vals,
            nrows: a.nrows(),
            ncols: a.ncols(),
            tune: Arc::new(OnceLock::from(tune)),
        })
    }

    /// A CSR matrix built on the device (`zero_free`: known to hold no stored zero): its
    /// SpMV kernel is chosen on first use ([`GpuBackend::tune_of`]).
    pub(super) fn csr_from_device(
        &self,
        (nrows, ncols): (usize, usize),
        rp: CudaSlice<u32>,
        ci: CudaSlice<u32>,
        vals: CudaSlice<u8>,
        zero_free: bool,
    ) -> DevCsr {
        DevCsr {
            rp: Arc::new(rp),
            ci: Arc::new(ci),
            vals: DevVals::full(vals, zero_free),
            nrows,
            ncols,
            tune: Arc::new(OnceLock::new()),
        }
    }

    /// The SpMV kernel and plan of `c`, chosen now from its row pointers (read back) if it
    /// was built on the device and not used yet.
    pub(super) fn tune_of<'c>(&self, c: &'c DevCsr) -> Result<&'c CsrTune, GpuError> {
        if let Some(t) = c.tune.get() {
            return Ok(t);
        }
        let rp = self.dev.download(&c.rp, c.nrows + 1)?;
        let tune = self.csr_tune(&rp, RowShape::of_row_ptr(&rp, c.ncols))?;
        Ok(c.tune.get_or_init(|| tune))
    }

    /// The SpMV kernel of a CSR matrix chosen from `shape` (or the one forced), and the
    /// adaptive kernel's plan made from the row pointers `rp`.
    fn csr_tune(&self, rp: &[u32], shape: RowShape) -> Result<CsrTune, GpuError> {
        let kernel = self.csr_kernel.unwrap_or_else(|| CsrKernel::choose(&shape));
        let plan = match kernel {
            CsrKernel::Adaptive => {
                let p = AdaptivePlan::new(rp);
                let flat: Vec<u32> = p.blocks.iter().flatten().copied().collect();
                Some(DevPlan {
                    nblocks: to_u32("adaptive blocks", p.blocks.len())?,
                    blocks: self.dev.upload(&flat, "adaptive plan")?,
                    slots: self.dev.upload(&p.slots, "adaptive slots")?,
                    nslots: p.long_rows.len() as u32,
                    long_rows: self.dev.upload(&p.long_rows, "adaptive long rows")?,
                })
            }
            _ => None,
        };
        Ok(CsrTune {
            kernel,
            plan,
            max_row: shape.max_row,
            rows4: OnceLock::new(),
        })
    }

    pub(super) fn dev_ell<S: Semiring>(
        &self,
        e: &semigraph_formats::Ell<S>,
    ) -> Result<DevEll, GpuError> {
        Ok(DevEll {
            width: to_u32("ELL width", e.width())?,
            ci: Arc::new(self.dev.upload(e.col_idx(), "ELL columns")?),
            vals: Arc::new(self.upload_vals::<S>(e.vals(), "ELL values")?),
        })
    }

    pub(super) fn dev_coo<S: Semiring>(
        &self,
        c: &semigraph_formats::Coo<S>,
    ) -> Result<DevCoo, GpuError> {
        Ok(DevCoo {
            nnz: to_u32("COO entries", c.nnz())?,
            rows: Arc::new(self.dev.upload(&c.rows, "COO rows")?),
            cols: Arc::new(self.dev.upload(&c.cols, "COO columns")?),
            vals: Arc::new(self.upload_vals::<S>(&c.vals, "COO values")?),
        })
    }
}

/// The device bytes of a CSR matrix of `nrows` rows and `nnz` entries (u32 indices).
pub(super) fn csr_bytes<S: Semiring>(nrows: usize, nnz: usize) -> u64 {
    (nrows as u64 + 1) * 4 + nnz as u64 * (4 + size_of::<S::T>() as u64)
}

/// The device bytes of `m` in its format.
pub(super) fn bytes_for<S: Semiring>(m: &SparseMatrix<S>) -> u64 {
    let v = size_of::<S::T>() as u64;
    match m {
        SparseMatrix::Csr(c) => csr_bytes::<S>(c.nrows(), c.nnz()),
        SparseMatrix::Ell(e) => (e.width() * e.nrows()) as u64 * (4 + v),
        SparseMatrix::Dia(d) => d.offsets().len() as u64 * (8 + d.nrows() as u64 * v),
        SparseMatrix::Coo(c) => c.nnz() as u64 * (8 + v),
        SparseMatrix::Hyb(h) => {
            (h.ell.width() * h.ell.nrows()) as u64 * (4 + v) + h.coo.nnz() as u64 * (8 + v)
        }
        SparseMatrix::Dense(d) => (d.nrows() * d.ncols()) as u64 * v,
    }
}

/// Whether every value in `v` holds the same bits (`iso`), and whether none is the zero
/// (`is_zero`): two passes on every core, generic over the value type (compiled once for the
/// semirings of a type, not once per semiring).
fn iso_and_zero_free<T: Scalar>(v: &[T], is_zero: fn(T) -> bool) -> (bool, bool) {
    let iso = v
        .first()
        .is_some_and(|f| v.par_iter().all(|x| bits(*x) == bits(*f)));
    let zero_free = match iso {
        true => !is_zero(v[0]),
        false => !v.par_iter().any(|x| is_zero(*x)),
    };
    (iso, zero_free)
}
