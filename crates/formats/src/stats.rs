//! Structure statistics and a first format recommendation.

use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;
use semigraph_semiring::Semiring;

use crate::csr::Csr;
use crate::format::Format;
use crate::hyb::hyb_width;
use crate::index::Index;
use crate::select::Features;

/// Structure statistics of a matrix (pattern only): the [`Features`] a format choice is made
/// from, the shortest row and the row-length histogram, and the choice on each backend.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Rows, columns, entries, row lengths, diagonals, bandwidth and the fills of the padded
    /// formats.
    pub features: Features,
    /// Shortest row.
    pub row_len_min: usize,
    /// Row-length histogram in power-of-two buckets: `(lo, hi, rows)` counts the rows with
    /// `lo <= length <= hi` (`0..=0`, `1..=1`, `2..=3`, `4..=7`, ...).
    pub row_len_histogram: Vec<(usize, usize, usize)>,
    /// The format [`Stats::choose_format`] picks on a GPU.
    pub recommended: Format,
    /// Why.
    pub reason: String,
    /// The format [`Stats::choose_format`] picks on the CPU backend.
    pub recommended_cpu: Format,
    /// Why.
    pub reason_cpu: String,
}

impl Stats {
    /// The scalar features of these statistics.
    pub fn features(&self) -> Features {
        self.features
    }

    /// Bytes [`Stats::of`] or [`Stats::of_transpose`] allocates for an `nrows x ncols`
    /// matrix, at most: a histogram of row lengths (a word per possible length), a flag per
    /// diagonal and, for the transpose, a count per column.
    pub fn host_bytes(nrows: usize, ncols: usize) -> u64 {
        8 * (nrows.max(ncols) as u64 + 1) + nrows as u64 + 5 * ncols as u64 + 4096
    }

    /// Computes the statistics of `a`.
    pub fn of<S: Semiring, I: Index>(a: &Csr<S, I>) -> Stats {
        let (diagonals, bandwidth) = diagonals(a.ncols(), a.row_ptr(), a.col_idx());
        Stats::from_rows(
            (a.nrows(), a.ncols(), a.nnz()),
            RowLens::Pointers(a.row_ptr()),
            diagonals,
            bandwidth,
        )
    }

    /// The statistics of `a^T`, equal to `Stats::of(&a.try_transpose()?)`, without the
    /// transpose: the rows of `a^T` are the columns of `a` (counted on every core), its
    /// diagonals are those of `a` mirrored (as many, the same bandwidth). A backend that
    /// transposes on its own device chooses the transpose's format from these.
    pub fn of_transpose<S: Semiring, I: Index>(a: &Csr<S, I>) -> Stats {
        let counts: Vec<AtomicU32> = (0..a.ncols()).map(|_| AtomicU32::new(0)).collect();
        a.col_idx().par_chunks(1 << 16).for_each(|cols| {
            for &j in cols {
                counts[j.to_usize()].fetch_add(1, Ordering::Relaxed);
            }
        });
        let (diagonals, bandwidth) = diagonals(a.ncols(), a.row_ptr(), a.col_idx());
        let counts: Vec<u32> = counts.into_iter().map(AtomicU32::into_inner).collect();
        Stats::from_rows(
            (a.ncols(), a.nrows(), a.nnz()),
            RowLens::<I>::Counts(&counts),
            diagonals,
            bandwidth,
        )
    }

    /// [`Stats::of_transpose`] with `a`'s column counts (the rows of `a^T`) counted elsewhere:
    /// `col_counts[j]` entries in column `j` (a GPU counts them where it transposes; its
    /// transpose drops stored zeros, so with zeros in `a` the counts are the transpose's, while
    /// the entry count stays `a`'s: a difference the format choice tolerates).
    ///
    /// # Panics
    /// If `col_counts` does not have one count per column of `a`.
    pub fn of_transpose_counted<S: Semiring, I: Index>(a: &Csr<S, I>, col_counts: &[u32]) -> Stats {
        assert_eq!(col_counts.len(), a.ncols(), "one count per column");
        let (diagonals, bandwidth) = diagonals(a.ncols(), a.row_ptr(), a.col_idx());
        Stats::from_rows(
            (a.ncols(), a.nrows(), a.nnz()),
            RowLens::<I>::Counts(col_counts),
            diagonals,
            bandwidth,
        )
    }

    /// The statistics of an `n x ncols` matrix of `nnz` entries whose row `i` holds
    /// `row_len(i)` of them, on `diagonals` diagonals within `bandwidth` of the main one.
    fn from_rows<I: Index>(
        (n, ncols, nnz): (usize, usize, usize),
        row_lens: RowLens<'_, I>,
        diagonals: usize,
        bandwidth: usize,
    ) -> Stats {
        // Row lengths one at a time (no array of them: see `Stats::host_bytes`).
        let lens = || (0..n).map(|i| row_lens.get(i));
        let max = lens().max().unwrap_or(0);
        let min = lens().min().unwrap_or(0);
        let mean = if n == 0 { 0.0 } else { nnz as f64 / n as f64 };
        let var = if n == 0 {
            0.0
        } else {
            lens().map(|l| (l as f64 - mean).powi(2)).sum::<f64>() / n as f64
        };
        let mut buckets: Vec<(usize, usize, usize)> = vec![(0, 0, 0)];
        let mut hist = vec![0usize; max + 1];
        for l in lens() {
            hist[l] += 1;
            let b = if l == 0 {
                0
            } else {
                (usize::BITS - l.leading_zeros()) as usize
            };
            while buckets.len() <= b {
                let k = buckets.len();
                buckets.push((1 << (k - 1), (1 << k) - 1, 0));
            }
            buckets[b].2 += 1;
        }
        let per_entry = |stored: f64| if nnz == 0 { 1.0 } else { stored / nnz as f64 };
        let w = hyb_width(&hist, n);
        let ell_part: usize = lens().map(|l| l.min(w)).sum();
        let empty_rows = buckets
            .first()
            .filter(|b| b.0 == 0 && b.1 == 0)
            .map_or(0, |b| b.2);
        let mut s = Stats {
            features: Features {
                nrows: n,
                ncols,
                nnz,
                row_len_mean: mean,
                row_len_max: max,
                row_len_stddev: var.sqrt(),
                empty_rows,
                diagonals,
                bandwidth,
                ell_fill: per_entry((n * max) as f64),
                dia_fill: per_entry(diagonals as f64 * n as f64),
                hyb_width: w,
                hyb_coo_share: if nnz == 0 {
                    0.0
                } else {
                    (nnz - ell_part) as f64 / nnz as f64
                },
                hyb_ell_fill: if ell_part == 0 {
                    1.0
                } else {
                    (w * n) as f64 / ell_part as f64
                },
            },
            row_len_min: min,
            row_len_histogram: buckets,
            recommended: Format::Csr,
            reason: String::new(),
            recommended_cpu: Format::Csr,
            reason_cpu: String::new(),
        };
        (s.recommended, s.reason) = s.recommend();
        (s.recommended_cpu, s.reason_cpu) = Stats::choose_format(&s.features(), false);
        s
    }

    /// The format [`Stats::choose_format`] picks for these statistics on a GPU, and why.
    pub fn recommend(&self) -> (Format, String) {
        Stats::choose_format(&self.features(), true)
    }

    /// The automatic format choice for a matrix with features `f`, on a GPU (`gpu`) or on the
    /// CPU backend, and why.
    pub fn choose_format(f: &Features, gpu: bool) -> (Format, String) {
        crate::select::choose_format(f, gpu)
    }
}

/// Where [`Stats::from_rows`] reads the length of each row: data rather than a closure, so
/// that the statistics are compiled once per index type, not once per semiring and caller.
#[derive(Clone, Copy)]
enum RowLens<'a, I> {
    /// A CSR's row pointers.
    Pointers(&'a [I]),
    /// A count per row.
    Counts(&'a [u32]),
}

impl<I: Index> RowLens<'_, I> {
    #[inline]
    fn get(&self, i: usize) -> usize {
        match self {
            RowLens::Pointers(p) => p[i + 1].to_usize() - p[i].to_usize(),
            RowLens::Counts(c) => c[i] as usize,
        }
    }
}

/// The diagonals of the CSR pattern (`row_ptr`, `col_idx`, `ncols` columns) holding an
/// entry (a bit each, set on every core) and its bandwidth (the largest `|column - row|`).
fn diagonals<I: Index>(ncols: usize, row_ptr: &[I], col_idx: &[I]) -> (usize, usize) {
    let n = row_ptr.len() - 1;
    let present: Vec<AtomicU64> = (0..(n + ncols).div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let bandwidth = (0..n)
        .into_par_iter()
        .with_min_len(1 << 10)
        .map(|i| {
            let cols = &col_idx[row_ptr[i].to_usize()..row_ptr[i + 1].to_usize()];
            let mut far = 0usize;
            for &j in cols {
                let (j, d) = (j.to_usize(), j.to_usize() + n - i);
                let (word, bit) = (&present[d / 64], 1u64 << (d % 64));
                // Read first: a banded matrix sets the same few bits from every thread.
                if word.load(Ordering::Relaxed) & bit == 0 {
                    word.fetch_or(bit, Ordering::Relaxed);
                }
                far = far.max(i.abs_diff(j));
            }
            far
        })
        .max()
        .unwrap_or(0);
    let diagonals = present
        .iter()
        .map(|w| w.load(Ordering::Relaxed).count_ones() as usize)
        .sum::<usize>();
    (diagonals, bandwidth)
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = &self.features;
        writeln!(f, "rows            {}", x.nrows)?;
        writeln!(f, "columns         {}", x.ncols)?;
        writeln!(f, "entries         {}", x.nnz)?;
        writeln!(
            f,
            "row length      min {} / max {} / mean {:.3} / stddev {:.3}",
            self.row_len_min, x.row_len_max, x.row_len_mean, x.row_len_stddev
        )?;
        for (lo, hi, c) in &self.row_len_histogram {
            if *c > 0 {
                writeln!(f, "  rows of length {lo:>6}..={hi:<6} {c}")?;
            }
        }
        writeln!(f, "diagonals       {}", x.diagonals)?;
        writeln!(f, "bandwidth       {}", x.bandwidth)?;
        writeln!(f, "ELL fill        {:.3}", x.ell_fill)?;
        writeln!(f, "DIA fill        {:.3}", x.dia_fill)?;
        writeln!(
            f,
            "HYB             width {}, ELL fill {:.3}, COO share {:.3}",
            x.hyb_width, x.hyb_ell_fill, x.hyb_coo_share
        )?;
        writeln!(
            f,
            "recommended     {} on a GPU ({})",
            self.recommended, self.reason
        )?;
        write!(
            f,
            "                {} on the CPU ({})",
            self.recommended_cpu, self.reason_cpu
        )
    }
}
