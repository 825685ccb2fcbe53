//! Reductions of the CPU backend.

use super::*;

impl Reductions for CpuBackend {
    fn reduce<S: Semiring>(&self, x: &CpuDense<S>, mask: Mask<'_, Self>) -> Result<S::T> {
        check_mask(&mask, x.data.len());
        // Runs of positions, each summed in order by one loop (the mask read a run at a
        // time), the runs' sums then added in order: the same sum on every run.
        const RUN: usize = 4096;
        let sums: Vec<S::T> =
            x.data
                .par_chunks(RUN)
                .enumerate()
                .map(|(c, xs)| {
                    let (m, keep) = match &mask {
                        Mask::All => {
                            return xs.iter().fold(S::zero(), |a, &v| S::add(a, v));
                        }
                        Mask::Keep(m) => (m, true),
                        Mask::Skip(m) => (m, false),
                    };
                    let mut has = [false; RUN];
                    let has = &mut has[..xs.len()];
                    m.has_run(c * RUN, has);
                    xs.iter().zip(has.iter()).fold(S::zero(), |a, (&v, &h)| {
                        if h == keep { S::add(a, v) } else { a }
                    })
                })
                .collect();
        Ok(sums.into_iter().fold(S::zero(), S::add))
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
