//! One matrix seen through several semirings ([`Objects::view`](semigraph_algos::Objects::view),
//! [`Objects::pattern`](semigraph_algos::Objects::pattern)). Views share the device buffers
//! (behind [`Arc`]); a view whose zero differs, or a pattern, shares the index arrays and gets
//! value arrays of its own, written on the device by [`Kernel::Recode`]. The CSR that push
//! products walk (for a matrix stored in another format) is built on first use and shared or
//! recoded likewise.

use super::*;
use crate::params::RecodeArgs;

impl Recode {
    /// `S`'s values as `T`'s: kept (`keep`, equal sizes) or made the one; the zero mapped to
    /// the zero.
    fn of<S: Semiring, T: Semiring>(keep: bool) -> Recode {
        Recode {
            xsize: size_of::<S::T>() as i32,
            xzero: bits(S::zero()),
            ysize: size_of::<T::T>() as i32,
            yzero: bits(T::zero()),
            yone: bits(T::one()),
            keep: keep as i32,
        }
    }
}

impl GpuBackend {
    /// The CSR of `a` for push products: its storage, or the shared push CSR built on first
    /// use.
    pub(super) fn push_csr<'m, S: Semiring>(
        &self,
        a: &'m GpuMatrix<S>,
    ) -> Result<&'m DevCsr, GpuError> {
        match (&a.storage, &a.push) {
            (Storage::Csr(c), _) => Ok(c),
            (_, Some(p)) => self.push_of(p),
            (_, None) => unreachable!("a matrix not stored in CSR has a push source"),
        }
    }

    fn push_of<'p>(&self, p: &'p Push) -> Result<&'p DevCsr, GpuError> {
        if let Some(c) = p.cell.get() {
            return Ok(c);
        }
        let c = match &p.from {
            PushFrom::Host(h) => h.upload(self)?,
            PushFrom::Recode(src, r) => {
                let src = self.push_of(src)?;
                self.recode_csr(src, r, false)?
            }
        };
        Ok(p.cell.get_or_init(|| c))
    }

    /// A new array holding the values of `x` (`r.xsize` bytes each) recoded by `r`.
    fn recode_vals(&self, x: &CudaSlice<u8>, r: &Recode) -> Result<Shared<u8>, GpuError> {
        let n = x.len() / r.xsize as usize;
        let mut y = self
            .dev
            .zeros::<u8>(n * r.ysize as usize, "recoded matrix values")?;
        if n > 0 {
            let f = self.dev.func_any(Kernel::Recode)?;
            RecodeArgs {
                x,
                y: &mut y,
                n: n as u64,
                xsize: r.xsize,
                xzero: r.xzero,
                ysize: r.ysize,
                yzero: r.yzero,
                yone: r.yone,
                keep: r.keep,
            }
            .launch(&self.dev, &f, cfg_stride(n as u64))?;
        }
        Ok(Arc::new(y))
    }

    /// `c` with its values recoded by `r`: an iso-valued matrix stays one (its one value
    /// recoded); `to_one` (a pattern of a matrix without stored zeros) makes one of the
    /// target's one.
    fn recode_csr(&self, c: &DevCsr, r: &Recode, to_one: bool) -> Result<DevCsr, GpuError> {
        let vals = if to_one {
            let one = &r.yone.to_le_bytes()[..r.ysize as usize];
            DevVals {
                buf: Arc::new(self.dev.upload::<u8>(one, "pattern value")?),
                iso: true,
                zero_free: true,
            }
        } else {
            // A value that is not the source's zero may be the target's: not known.
            DevVals {
                buf: self.recode_vals(&c.vals.buf, r)?,
                iso: c.vals.iso,
                zero_free: false,
            }
        };
        Ok(DevCsr { vals, ..c.clone() })
    }

    fn recode_ell(&self, e: &DevEll, r: &Recode) -> Result<DevEll, GpuError> {
        Ok(DevEll {
            vals: self.recode_vals(&e.vals, r)?,
            ..e.clone()
        })
    }

    fn recode_coo(&self, c: &DevCoo, r: &Recode) -> Result<DevCoo, GpuError> {
        Ok(DevCoo {
            vals: self.recode_vals(&c.vals, r)?,
            ..c.clone()
        })
    }

    /// `a` with every value array recoded by `r` (index arrays shared).
    fn recode<S: Semiring, T: Semiring>(
        &self,
        a: &GpuMatrix<S>,
        r: Recode,
    ) -> Result<GpuMatrix<T>, GpuError> {
        let storage = match &a.storage {
            Storage::Csr(c) => {
                // A pattern of a matrix without stored zeros is iso-valued: every entry one.
                let to_one = r.keep == 0 && c.vals.zero_free && a.info.nnz > 0;
                Storage::Csr(self.recode_csr(c, &r, to_one)?)
            }
            Storage::Ell(e) => Storage::Ell(self.recode_ell(e, &r)?),
            Storage::Dia { ndiag, offs, data } => Storage::Dia {
                ndiag: *ndiag,
                offs: offs.clone(),
                data: self.recode_vals(data, &r)?,
            },
            Storage::Coo(c) => Storage::Coo(self.recode_coo(c, &r)?),
            Storage::Hyb(e, c) => Storage::Hyb(self.recode_ell(e, &r)?, self.recode_coo(c, &r)?),
            Storage::Dense(d) => Storage::Dense(self.recode_vals(d, &r)?),
        };
        Ok(GpuMatrix {
            info: a.info,
            storage,
            push: a.push.as_ref().map(|src| {
                Arc::new(Push {
                    cell: OnceLock::new(),
                    from: PushFrom::Recode(src.clone(), r),
                })
            }),
            _s: PhantomData,
        })
    }

    /// See [`Objects::view`](semigraph_algos::Objects::view): shared outright when the zeros
    /// are the same bits.
    pub(super) fn view_of<S: Semiring, T: Semiring<T = S::T>>(
        &self,
        a: &GpuMatrix<S>,
    ) -> Result<GpuMatrix<T>, GpuError> {
        if bits(S::zero()) == bits(T::zero()) {
            return Ok(GpuMatrix {
                info: a.info,
                storage: a.storage.clone(),
                push: a.push.clone(),
                _s: PhantomData,
            });
        }
        self.recode(a, Recode::of::<S, T>(true))
    }

    /// See [`Objects::pattern`](semigraph_algos::Objects::pattern).
    pub(super) fn pattern_of<S: Semiring, P: Semiring>(
        &self,
        a: &GpuMatrix<S>,
    ) -> Result<GpuMatrix<P>, GpuError> {
        self.recode(a, Recode::of::<S, P>(false))
    }
}
