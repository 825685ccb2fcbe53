//! Sizing sparse results on the device: exclusive scans (offsets of row segments, CSR row
//! pointers), row lengths, and the rows of a length class listed. A product, transpose or
//! extraction reads back only totals (a few words), never a per-row array.

use super::*;

/// A device array of row lengths (or bounds) of either width.
#[derive(Clone, Copy)]
pub(super) enum Words<'a> {
    /// 64-bit words.
    Wide(&'a CudaSlice<u64>),
    /// 32-bit words.
    Narrow(&'a CudaSlice<u32>),
}

impl<'a> Words<'a> {
    /// The kernels' `(x64, x32, wide)` arguments.
    fn args(self, b: &'a GpuBackend) -> (&'a CudaSlice<u64>, &'a CudaSlice<u32>, i32) {
        match self {
            Words::Wide(x) => (x, &b.dummy_idx, 1),
            Words::Narrow(x) => (&b.dummy_word, x, 0),
        }
    }
}

/// Threads of a scan block and values per thread (the kernels' `SG_SCAN_THREADS`,
/// `SG_SCAN_ITEMS`).
const SCAN_THREADS: u32 = 256;
const SCAN_ITEMS: u64 = 8;

impl GpuBackend {
    /// The exclusive prefix sums of the `n` values of `x`, and their total last (`n + 1`
    /// offsets, 64-bit); returns them and the total (read back: one word).
    pub(super) fn offsets_dev(
        &self,
        x: Words<'_>,
        n: usize,
    ) -> Result<(CudaSlice<u64>, u64), GpuError> {
        let mut off = self.dev.uninit::<u64>(n + 1, "segment offsets")?;
        let total = self.scan(x, n, Some(&mut off), None)?;
        Ok((off, total))
    }

    /// CSR row pointers from `n` row lengths (32-bit, `n + 1` of them) and the entries, or
    /// [`GpuError::TooLarge`] past `u32::MAX` entries.
    pub(super) fn row_ptr_dev(
        &self,
        lens: &CudaSlice<u32>,
        n: usize,
    ) -> Result<(CudaSlice<u32>, usize), GpuError> {
        let mut rp = self.dev.uninit::<u32>(n + 1, "CSR row pointers")?;
        let total = self.scan(Words::Narrow(lens), n, None, Some(&mut rp))?;
        if total > u32::MAX as u64 {
            return Err(GpuError::TooLarge {
                what: "entries of a sparse result".into(),
                value: total,
                max: u32::MAX as u64,
            });
        }
        Ok((rp, total as usize))
    }

    /// The scan behind [`GpuBackend::offsets_dev`] and [`GpuBackend::row_ptr_dev`]: into
    /// `y64` or `y32` (`n + 1` values); the total, read back.
    fn scan(
        &self,
        x: Words<'_>,
        n: usize,
        y64: Option<&mut CudaSlice<u64>>,
        y32: Option<&mut CudaSlice<u32>>,
    ) -> Result<u64, GpuError> {
        let nb = (n as u64).div_ceil(SCAN_THREADS as u64 * SCAN_ITEMS).max(1);
        let mut sums = self.dev.uninit::<u64>(nb as usize + 1, "scan tile sums")?;
        let (x64, x32, xwide) = x.args(self);
        let tiles = LaunchConfig {
            grid_dim: (to_u32("scan tiles", nb as usize)?, 1, 1),
            block_dim: (SCAN_THREADS, 1, 1),
            shared_mem_bytes: 0,
        };
        ScanReduceArgs {
            x64,
            x32,
            wide: xwide,
            n: n as u64,
            sums: &mut sums,
        }
        .launch(&self.dev, &self.dev.func_any(Kernel::ScanReduce)?, tiles)?;
        ScanSumsArgs {
            sums: &mut sums,
            nb,
        }
        .launch(
            &self.dev,
            &self.dev.func_any(Kernel::ScanSums)?,
            LaunchConfig {
                grid_dim: (1, 1, 1),
                block_dim: (1024, 1, 1),
                shared_mem_bytes: 0,
            },
        )?;
        let f = self.dev.func_any(Kernel::ScanDown)?;
        // The unused output is a scratch word; the kernel writes only the other.
        let mut scratch = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        let Scratch { idx, hdr, .. } = &mut *scratch;
        let (y64, y32, ywide) = match (y64, y32) {
            (Some(y), _) => (y, idx, 1),
            (None, Some(y)) => (hdr, y, 0),
            (None, None) => unreachable!("a scan writes somewhere"),
        };
        ScanDownArgs {
            x64,
            x32,
            xwide,
            n: n as u64,
            sums: &sums,
            y64,
            y32,
            ywide,
        }
        .launch(&self.dev, &f, tiles)?;
        drop(scratch);
        self.read_word(&sums, nb as usize)
    }

    /// The length of each of `nrows` rows of a CSR matrix (row pointers `arp`): row `src[k]`
    /// (or `k`), plus row `k` of `brp` when given.
    pub(super) fn row_lens(
        &self,
        arp: &CudaSlice<u32>,
        brp: Option<&CudaSlice<u32>>,
        src: Option<&CudaSlice<u32>>,
        nrows: usize,
    ) -> Result<CudaSlice<u64>, GpuError> {
        let mut lens = self.dev.uninit::<u64>(nrows.max(1), "row lengths")?;
        if nrows > 0 {
            RowLensArgs {
                arp,
                brp: brp.unwrap_or(&self.dummy_idx),
                use_b: brp.is_some() as i32,
                src: src.unwrap_or(&self.dummy_idx),
                use_src: src.is_some() as i32,
                nrows: nrows as u64,
                lens: &mut lens,
            }
            .launch(
                &self.dev,
                &self.dev.func_any(Kernel::RowLens)?,
                cfg_stride(nrows as u64),
            )?;
        }
        Ok(lens)
    }

    /// The rows `i < nrows` with `lo < sel[i] <= hi`, listed on the device in no particular
    /// order, and `[their number, the largest sel[i]]` on the device (`stats`).
    pub(super) fn rows_between(
        &self,
        sel: Words<'_>,
        nrows: usize,
        lo: u64,
        hi: u64,
    ) -> Result<(CudaSlice<u32>, CudaSlice<u64>), GpuError> {
        let mut rows = self.dev.uninit::<u32>(nrows.max(1), "listed rows")?;
        let mut stats = self.dev.zeros::<u64>(2, "row class counts")?;
        if nrows > 0 {
            let (sel64, sel32, wide) = sel.args(self);
            RowClassesArgs {
                sel64,
                sel32,
                wide,
                nrows: nrows as u64,
                lo,
                hi,
                rows: &mut rows,
                stats: &mut stats,
            }
            .launch(
                &self.dev,
                &self.dev.func_any(Kernel::RowClasses)?,
                cfg_stride(nrows as u64),
            )?;
        }
        Ok((rows, stats))
    }
}
