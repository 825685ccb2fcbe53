//! The automatic format choice, fitted on the format study (`semigraph bench formats
//! benches/corpus/formats.txt`: 52 matrices of 12 structures, every format and GPU CSR kernel
//! timed on an H100 and on the CPU backend with 16 threads; the table is
//! `docs/formats/study-h100.csv`, the findings in docs/FORMATS.md).
//!
//! What the study found, and the rules below encode:
//! - **GPU.** CSR (with the kernel `semigraph-gpu` picks for the row lengths) is fastest or
//!   close on most structures, and the only safe choice for skewed rows (power-law graphs:
//!   ELL and DIA pad by factors of hundreds, HYB's atomics and COO lose 15-60%). DIA wins on
//!   stencils and ordered meshes once they are large enough to fill the GPU (at 90,000 rows the
//!   launch of a DIA product over every diagonal is not amortised): it reads no column
//!   indices. ELL wins where rows are short and equal but their entries are scattered (shuffled
//!   meshes, random rectangular matrices with a fixed degree): a thread per row reads the
//!   column-major slots coalesced, where CSR's sub-warps gather. HYB wins for long uniform
//!   rows of scattered entries (random graphs of degree 64). Dense storage never won on the
//!   GPU (CSR's adaptive kernel streams long rows faster than the dense kernel), and COO never.
//! - **CPU backend.** CSR won everywhere except dense-ish matrices (a quarter or more of the
//!   values stored), where dense storage's contiguous rows won by 1.5x to 4x.

use crate::format::Format;

/// Rows an ordered (DIA) matrix needs before DIA beats CSR on the GPU.
pub const GPU_DIA_MIN_ROWS: usize = 120_000;
/// DIA's values stored per entry up to which it is chosen.
pub const GPU_DIA_MAX_FILL: f64 = 1.2;
/// Rows a scattered matrix needs before ELL or HYB beat CSR on the GPU.
pub const GPU_ELL_MIN_ROWS: usize = 200_000;
/// Mean row length up to which scattered, equal rows go to ELL.
pub const GPU_ELL_MAX_MEAN: f64 = 9.0;
/// ELL's values stored per entry up to which it is chosen.
pub const GPU_ELL_MAX_FILL: f64 = 1.1;
/// Mean row length from which scattered rows go to HYB.
pub const GPU_HYB_MIN_MEAN: f64 = 32.0;
/// Share of stored values from which the CPU backend takes dense storage.
pub const CPU_DENSE_MIN_DENSITY: f64 = 0.25;
/// The most values dense storage is chosen for (256 MiB of `f32`).
pub const DENSE_MAX_VALUES: f64 = (1u64 << 26) as f64;

/// ELL's values stored per entry up to which scattered long rows go to HYB.
pub const GPU_HYB_MAX_ELL_FILL: f64 = 2.0;

/// Entries lie near the diagonal (a bandwidth of at most an eighth of the columns), so that
/// neighbouring rows read neighbouring parts of `x`.
pub fn is_local(bandwidth: usize, ncols: usize) -> bool {
    bandwidth <= ncols / 8
}

/// A few rows far longer than the rest: the longest over 64 times the mean (and over 256),
/// or a standard deviation above the mean with 4 or more entries per row on average.
pub fn is_skewed(nrows: usize, nnz: usize, max_row: usize, stddev: f64) -> bool {
    let mean = nnz as f64 / nrows.max(1) as f64;
    (max_row > 256 && max_row as f64 > 64.0 * mean.max(1.0)) || (mean >= 4.0 && stddev > mean)
}

/// The scalar structure features a format choice is made from: [`Stats`](crate::Stats) without the
/// histogram and the recommendation (so a choice can be recomputed from a table of them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// Stored entries.
    pub nnz: usize,
    /// Mean row length.
    pub row_len_mean: f64,
    /// Longest row.
    pub row_len_max: usize,
    /// Standard deviation of the row length.
    pub row_len_stddev: f64,
    /// Rows with no entry.
    pub empty_rows: usize,
    /// Occupied diagonals.
    pub diagonals: usize,
    /// Largest `|column - row|`.
    pub bandwidth: usize,
    /// ELL values stored per entry.
    pub ell_fill: f64,
    /// DIA values stored per entry.
    pub dia_fill: f64,
    /// HYB's ELL width.
    pub hyb_width: usize,
    /// Share of the entries in HYB's COO tail.
    pub hyb_coo_share: f64,
    /// HYB's ELL values stored per ELL entry.
    pub hyb_ell_fill: f64,
}

impl Features {
    /// Mean row length.
    fn mean(&self) -> f64 {
        self.nnz as f64 / self.nrows.max(1) as f64
    }
    /// [`is_local`] for this matrix.
    pub fn local(&self) -> bool {
        is_local(self.bandwidth, self.ncols)
    }
    /// [`is_skewed`] for this matrix.
    pub fn skewed(&self) -> bool {
        is_skewed(self.nrows, self.nnz, self.row_len_max, self.row_len_stddev)
    }
}

/// The format for a matrix with features `f` on a GPU (`gpu`) or the CPU backend, and why
/// (see the module docs for the study behind each rule).
///
/// GPU: CSR for no entries, skewed rows or rows of 256 or more; DIA when it stores at most 1.2
/// values per entry and there are at least 120,000 rows; for scattered entries (bandwidth
/// over an eighth of the columns) and at least 200,000 rows, ELL when it stores at most 1.1
/// values per entry and rows hold at most 9, HYB when rows hold 32 or more and ELL would
/// store at most 2 values per entry; CSR otherwise. CPU: dense when at least a quarter of the
/// values are entries (at most 2^26 values), CSR otherwise.
///
/// ```
/// use semigraph_formats::{generate, select::choose_format, Format, Stats};
/// use semigraph_semiring::OrAnd;
///
/// let grid = generate::stencil(&[400, 400], 5).to_pattern_csr::<OrAnd, u32>()?;
/// assert_eq!(choose_format(&Stats::of(&grid).features(), true).0, Format::Dia);
/// let kron = generate::kronecker(12, 16, 1).to_pattern_csr::<OrAnd, u32>()?;
/// assert_eq!(choose_format(&Stats::of(&kron).features(), true).0, Format::Csr);
/// # Ok::<(), semigraph_formats::FormatError>(())
/// ```
pub fn choose_format(f: &Features, gpu: bool) -> (Format, String) {
    let mean = f.mean();
    if f.nnz == 0 {
        return (Format::Csr, "no entries".into());
    }
    if !gpu {
        let cells = f.nrows as f64 * f.ncols as f64;
        let density = f.nnz as f64 / cells;
        if cells <= DENSE_MAX_VALUES && density >= CPU_DENSE_MIN_DENSITY {
            return (
                Format::Dense,
                format!("density {density:.2} >= {CPU_DENSE_MIN_DENSITY}"),
            );
        }
        return (
            Format::Csr,
            "sparse rows: CSR (fastest on the CPU backend but for dense-ish matrices)".into(),
        );
    }
    if f.skewed() {
        return (
            Format::Csr,
            format!(
                "skewed rows (mean {mean:.1}, max {}, stddev {:.1}): CSR, adaptive kernel",
                f.row_len_max, f.row_len_stddev
            ),
        );
    }
    if mean >= 256.0 {
        return (
            Format::Csr,
            format!("long rows (mean {mean:.0}): CSR, adaptive kernel"),
        );
    }
    if f.dia_fill <= GPU_DIA_MAX_FILL && f.nrows >= GPU_DIA_MIN_ROWS {
        return (
            Format::Dia,
            format!(
                "{} diagonals, DIA fill {:.2} <= {GPU_DIA_MAX_FILL}",
                f.diagonals, f.dia_fill
            ),
        );
    }
    if !f.local() && f.nrows >= GPU_ELL_MIN_ROWS {
        if f.ell_fill <= GPU_ELL_MAX_FILL && mean <= GPU_ELL_MAX_MEAN {
            return (
                Format::Ell,
                format!(
                    "scattered equal rows of {mean:.1}: ELL fill {:.2}",
                    f.ell_fill
                ),
            );
        }
        if mean >= GPU_HYB_MIN_MEAN && f.ell_fill <= GPU_HYB_MAX_ELL_FILL {
            return (
                Format::Hyb,
                format!(
                    "scattered long rows of {mean:.1}: HYB width {}, {:.1}% in COO",
                    f.hyb_width,
                    100.0 * f.hyb_coo_share
                ),
            );
        }
    }
    (
        Format::Csr,
        format!(
            "rows of {mean:.1} (max {}), {}: CSR",
            f.row_len_max,
            if f.local() {
                "near the diagonal"
            } else {
                "scattered"
            }
        ),
    )
}
