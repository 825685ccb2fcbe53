//! `impl Reductions for GpuBackend`: reductions to one value and entry counts.

use super::*;

impl Reductions for GpuBackend {
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
            CountArgs {
                x: &x.buf,
                n,
                out: &mut out,
            }
            .launch(&self.dev, &f, cfg_stride(n))?;
        }
        Ok(self.read_u64(&out)? as usize)
    }
}

impl GpuBackend {
    pub(super) fn reduce_raw<S: Semiring>(
        &self,
        x: &CudaSlice<u8>,
        len: usize,
        mask: Mask<'_, Self>,
    ) -> Result<S::T, GpuError> {
        let mut out = self.filled::<S>(1, S::zero(), "reduction")?;
        if len > 0 {
            let f = self.dev.func::<S>(Kernel::Reduce)?;
            let m = self.mask_args(mask, len);
            let n = len as u64;
            ReduceArgs {
                x,
                n,
                mask: m,
                out: &mut out,
            }
            .launch(&self.dev, &f, cfg_stride(n))?;
        }
        Ok(self.read_vals::<S>(&out, 1)?[0])
    }
}
