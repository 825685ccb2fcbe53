//! Reductions of the CPU backend.

use super::*;

impl Reductions for CpuBackend {
    fn reduce<S: Semiring>(&self, x: &CpuDense<S>, mask: Mask<'_, Self>) -> Result<S::T> {
        check_mask(&mask, x.data.len());
        Ok(x.data
            .par_iter()
            .enumerate()
            .with_min_len(4096)
            .filter(|(i, _)| allows(&mask, *i))
            .map(|(_, v)| *v)
            .reduce(S::zero, S::add))
    }

    fn reduce_sparse<S: Semiring>(&self, x: &CpuSparse<S>) -> Result<S::T> {
        Ok(x.vals.iter().fold(S::zero(), |a, &b| S::add(a, b)))
    }

    fn nvals<S: Semiring>(&self, x: &CpuDense<S>) -> Result<usize> {
        Ok(x.data
            .par_iter()
            .with_min_len(4096)
            .filter(|v| !S::is_zero(**v))
            .count())
    }
}
