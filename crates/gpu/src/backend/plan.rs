//! Kernel choices: how CSR SpMV is computed ([`CsrKernel`], and [`AdaptivePlan`] for
//! CSR-Adaptive) and which dense GEMM kernel runs ([`GemmKernel`]).

use semigraph_formats::Csr;
use semigraph_semiring::{ScalarType, Semiring};

/// How CSR SpMV is computed ([`GpuBackend::set_csr_kernel`](crate::GpuBackend::set_csr_kernel)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsrKernel {
    /// A thread per row.
    Scalar,
    /// A sub-warp of this many lanes (2, 4, 8, 16 or 32) per row.
    Vector(u32),
    /// Each thread takes this many consecutive entries (load-balanced).
    Split(u32),
    /// CSR-Adaptive: blocks of short rows through shared memory, long rows a block each
    /// (split over several blocks beyond [`ADAPTIVE_PIECE`] entries); planned per matrix.
    Adaptive,
}

/// How dense GEMM is computed ([`GpuBackend::set_gemm_kernel`](crate::GpuBackend::set_gemm_kernel)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmKernel {
    /// 16 x 16 shared-memory tiles, one output per thread ([`Kernel::Gemm`](crate::Kernel::Gemm)).
    Tile16,
    /// Register tiles, 8 x 8 outputs per thread ([`Kernel::GemmReg`](crate::Kernel::GemmReg)),
    /// with the semiring's fast multiply-add when the operands allow it.
    Reg128,
}

impl GemmKernel {
    /// The kernel for values of type `t`, from `semigraph bench gemm --n 8192` on the H100
    /// (the GPU benchmark log in git history): register tiles for every type of 2 bytes or more (1.2x to 5x
    /// faster than 16 x 16 tiles), 16 x 16 tiles for 1-byte values (`bool`: 165 ms against
    /// 207 ms).
    pub fn choose(t: ScalarType) -> GemmKernel {
        if t.size_bytes() == 1 {
            GemmKernel::Tile16
        } else {
            GemmKernel::Reg128
        }
    }
}

/// The kernel and form a dense GEMM runs ([`GpuBackend::gemm_path`](crate::GpuBackend::gemm_path)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmPath {
    /// [`GemmKernel::Tile16`].
    Tile16,
    /// [`GemmKernel::Reg128`], the semiring's exact `add(c, mul(a, b))`.
    Reg128,
    /// [`GemmKernel::Reg128`] with the semiring's fast multiply-add.
    Reg128Fast,
    /// The packed 16-bit form ([`Kernel::GemmPacked`](crate::Kernel::GemmPacked)): two outputs
    /// per instruction.
    Packed16,
}

impl GemmPath {
    /// `tile16`, `reg128`, `reg128+fast` or `packed16x2`.
    pub fn name(self) -> &'static str {
        match self {
            GemmPath::Tile16 => "tile16",
            GemmPath::Reg128 => "reg128",
            GemmPath::Reg128Fast => "reg128+fast",
            GemmPath::Packed16 => "packed16x2",
        }
    }
}

/// What [`CsrKernel::choose`] looks at: the row lengths, and how far entries lie from the
/// diagonal (whether neighbouring rows read neighbouring parts of `x`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowShape {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// Stored entries.
    pub nnz: usize,
    /// Longest row.
    pub max_row: usize,
    /// Standard deviation of the row length.
    pub stddev: f64,
    /// Largest `|column - row|` of an entry.
    pub bandwidth: usize,
}

impl RowShape {
    /// The shape of a CSR matrix known by its row pointers only (built on the device): the
    /// row lengths exactly, the bandwidth taken as the widest (`ncols`).
    pub fn of_row_ptr(rp: &[u32], ncols: usize) -> RowShape {
        use rayon::prelude::*;
        let n = rp.len().saturating_sub(1);
        // Pieces of rows on every core (a transpose's plan is made at its first product).
        let (max_row, sum_sq) = rp
            .par_windows(2)
            .with_min_len(1 << 14)
            .map(|w| (w[1] - w[0]) as usize)
            .fold(|| (0, 0.0), |(m, s), l| (m.max(l), s + (l * l) as f64))
            .reduce(|| (0, 0.0), |a, b| (a.0.max(b.0), a.1 + b.1));
        let nnz = rp.last().copied().unwrap_or(0) as usize;
        let mean = nnz as f64 / n.max(1) as f64;
        RowShape {
            nrows: n,
            ncols,
            nnz,
            max_row,
            stddev: (sum_sq / n.max(1) as f64 - mean * mean).max(0.0).sqrt(),
            bandwidth: ncols,
        }
    }

    /// The shape of `a`, in two parallel passes (its rows, its entries).
    pub fn of<S: Semiring>(a: &Csr<S>) -> RowShape {
        RowShape::of_pattern(a.ncols(), a.row_ptr(), a.col_idx())
    }

    /// The shape of the CSR pattern `rp`, `ci` of `ncols` columns: [`RowShape::of_row_ptr`]
    /// with the bandwidth measured (compiled once, not once per semiring).
    fn of_pattern(ncols: usize, rp: &[u32], ci: &[u32]) -> RowShape {
        use rayon::prelude::*;
        let bandwidth = (0..rp.len().saturating_sub(1))
            .into_par_iter()
            .with_min_len(4096)
            .map(|i| {
                let cols = &ci[rp[i] as usize..rp[i + 1] as usize];
                cols.iter()
                    .map(|&j| (j as usize).abs_diff(i))
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        RowShape {
            bandwidth,
            ..RowShape::of_row_ptr(rp, ncols)
        }
    }

    /// The shape in a matrix's [`Features`](semigraph_formats::Features).
    pub fn from_features(f: &semigraph_formats::Features) -> RowShape {
        RowShape {
            nrows: f.nrows,
            ncols: f.ncols,
            nnz: f.nnz,
            max_row: f.row_len_max,
            stddev: f.row_len_stddev,
            bandwidth: f.bandwidth,
        }
    }

    /// [`is_skewed`](semigraph_formats::select::is_skewed): a few rows far longer than the
    /// rest (the format choice uses the same test).
    pub fn skewed(&self) -> bool {
        semigraph_formats::select::is_skewed(self.nrows, self.nnz, self.max_row, self.stddev)
    }

    /// [`is_local`](semigraph_formats::select::is_local): entries near the diagonal.
    pub fn local(&self) -> bool {
        semigraph_formats::select::is_local(self.bandwidth, self.ncols)
    }
}

/// Entries per shared-memory block of [`CsrKernel::Adaptive`] (`SG_AD_ENTRIES`).
pub const ADAPTIVE_ENTRIES: usize = 1024;
/// Threads per block of [`CsrKernel::Adaptive`] (`SG_AD_THREADS`), also its most rows per block.
pub const ADAPTIVE_THREADS: u32 = 256;
/// Entries of one block's piece of a long row in [`CsrKernel::Adaptive`].
pub const ADAPTIVE_PIECE: usize = 8192;
/// Rows per piece of an [`AdaptivePlan`] made on every core.
pub const ADAPTIVE_ROWS: usize = 1 << 16;

/// The host plan of [`CsrKernel::Adaptive`]: per block `[r0, r1, p0, p1]` and a slot (the
/// index of a split row, `u32::MAX` otherwise), and the split rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AdaptivePlan {
    /// `[r0, r1, p0, p1]` per block.
    pub blocks: Vec<[u32; 4]>,
    /// The split row's slot per block (`u32::MAX` for blocks of whole rows).
    pub slots: Vec<u32>,
    /// The rows split over several blocks, by slot.
    pub long_rows: Vec<u32>,
}

impl AdaptivePlan {
    /// Plans `rp` (CSR row pointers): consecutive rows of at most [`ADAPTIVE_ENTRIES`]
    /// entries together fill a block (at most [`ADAPTIVE_THREADS`] rows); a longer row gets
    /// blocks of its own, one per [`ADAPTIVE_PIECE`] entries.
    ///
    /// Made by pieces of [`ADAPTIVE_ROWS`] rows on every core (blocks never span two pieces),
    /// so the plan does not depend on the thread count.
    pub fn new(rp: &[u32]) -> AdaptivePlan {
        use rayon::prelude::*;
        let n = rp.len().saturating_sub(1);
        let parts: Vec<AdaptivePlan> = (0..n.div_ceil(ADAPTIVE_ROWS))
            .into_par_iter()
            .map(|c| Self::rows(rp, c * ADAPTIVE_ROWS, ((c + 1) * ADAPTIVE_ROWS).min(n)))
            .collect();
        let mut plan = AdaptivePlan::default();
        for p in parts {
            // A piece's slots index its own split rows: past those of the pieces before it.
            let base = plan.long_rows.len() as u32;
            plan.blocks.extend(p.blocks);
            plan.slots.extend(
                p.slots
                    .iter()
                    .map(|&s| if s == u32::MAX { s } else { s + base }),
            );
            plan.long_rows.extend(p.long_rows);
        }
        plan
    }

    /// The plan of rows `lo..n` (greedy, in order).
    fn rows(rp: &[u32], lo: usize, n: usize) -> AdaptivePlan {
        let mut plan = AdaptivePlan::default();
        let mut r = lo;
        while r < n {
            let len = (rp[r + 1] - rp[r]) as usize;
            if len > ADAPTIVE_ENTRIES {
                let slot = if len > ADAPTIVE_PIECE {
                    plan.long_rows.push(r as u32);
                    (plan.long_rows.len() - 1) as u32
                } else {
                    u32::MAX
                };
                let mut p = rp[r] as usize;
                while p < rp[r + 1] as usize {
                    let e = (p + ADAPTIVE_PIECE).min(rp[r + 1] as usize);
                    plan.blocks
                        .push([r as u32, r as u32 + 1, p as u32, e as u32]);
                    plan.slots.push(slot);
                    p = e;
                }
                r += 1;
                continue;
            }
            let (start, p0) = (r, rp[r] as usize);
            while r < n
                && r - start < ADAPTIVE_THREADS as usize
                && rp[r + 1] as usize - p0 <= ADAPTIVE_ENTRIES
            {
                r += 1;
            }
            plan.blocks.push([start as u32, r as u32, p0 as u32, rp[r]]);
            plan.slots.push(u32::MAX);
        }
        plan
    }
}

impl CsrKernel {
    /// Every kernel, at the widths and piece sizes the benches and the format study run.
    pub const ALL: [CsrKernel; 8] = [
        CsrKernel::Scalar,
        CsrKernel::Vector(2),
        CsrKernel::Vector(4),
        CsrKernel::Vector(8),
        CsrKernel::Vector(16),
        CsrKernel::Vector(32),
        CsrKernel::Split(8),
        CsrKernel::Adaptive,
    ];

    /// The choice for a matrix of this shape, fitted on the format study of
    /// `semigraph bench formats` (52 matrices, H100, docs/FORMATS.md; per matrix the fastest of
    /// the eight kernels, min-plus `f32` and the other non-terminal semirings):
    /// - adaptive for skewed rows (the longest over 64 times the mean and over 256, or a
    ///   standard deviation above the mean: power-law graphs) and for rows of 256 entries or
    ///   more (dense-ish), where a sub-warp of 32 left most of the time on the longest rows;
    /// - a thread per row for rows of at most 3 entries (road networks), and for rows of at most
    ///   9 when the entries lie near the diagonal (bandwidth at most an eighth of the columns)
    ///   and there are 300,000 rows or more: neighbouring threads then read neighbouring parts of
    ///   `x`;
    /// - else a sub-warp of 2 lanes up to 9 entries per row, 4 up to 48, 8 up to 128, 32 beyond:
    ///   about a quarter of the mean, narrower than the mean (32 lanes for 17-entry rows, the
    ///   earlier rule, measured 0.3-0.5 of the best).
    ///
    /// `SEMIGRAPH_CSR_KERNEL` (`scalar`, `vector8`, `split8`, `adaptive`, ...) overrides it.
    pub fn choose(s: &RowShape) -> CsrKernel {
        if let Some(k) = std::env::var("SEMIGRAPH_CSR_KERNEL")
            .ok()
            .and_then(|v| CsrKernel::parse(&v))
        {
            return k;
        }
        let mean = s.nnz as f64 / s.nrows.max(1) as f64;
        if s.skewed() || mean >= 256.0 {
            return CsrKernel::Adaptive;
        }
        if mean <= 3.0 {
            CsrKernel::Scalar
        } else if mean <= 9.0 {
            if s.local() && s.nrows >= 300_000 {
                CsrKernel::Scalar
            } else {
                CsrKernel::Vector(2)
            }
        } else if mean <= 48.0 {
            CsrKernel::Vector(4)
        } else if mean <= 128.0 {
            CsrKernel::Vector(8)
        } else {
            CsrKernel::Vector(32)
        }
    }

    /// The kernel for a masked product in a semiring whose row sums may stop at their first
    /// non-zero term ([`Semiring::FIRST_WINS`](semigraph_semiring::Semiring::FIRST_WINS)):
    /// sub-warps of two lanes, which stop at the first pair of entries with a hit (the adaptive
    /// and split kernels stage or split rows and compute every term). On an H100, BFS pull
    /// levels of Kronecker 20 / 22 took 0.72 / 1.19 ms per search with widths 2, 0.74 / 1.23 with
    /// 4, 0.92 / 2.03 with 16 and 1.19 / 3.11 with 32 (the benchmark log in git history). The scalar kernel
    /// (short rows) and an explicit `SEMIGRAPH_CSR_KERNEL` stay as they are.
    pub fn for_early_exit(self) -> CsrKernel {
        if matches!(self, CsrKernel::Scalar) || std::env::var_os("SEMIGRAPH_CSR_KERNEL").is_some() {
            self
        } else {
            CsrKernel::Vector(2)
        }
    }

    /// The kernel for a product with `k` vectors (SpMM): from 32 on, a thread per output,
    /// whose warps take 32 consecutive columns of one row and so read each stored entry's row
    /// of `X` coalesced (sub-warp and adaptive kernels read one column per row, 4 or 8 bytes
    /// per row of `X`). Measured on the H100 (APSP by sources, n = 10,000, 8 arcs per vertex,
    /// blocks of 10,000 columns, the benchmark log in git history): 234 ms with the automatic sub-warp
    /// kernel, 130 ms with this one. Split kernels and an explicit `SEMIGRAPH_CSR_KERNEL` stay.
    pub fn for_columns(self, k: u32) -> CsrKernel {
        let forced = std::env::var_os("SEMIGRAPH_CSR_KERNEL").is_some();
        if k >= 32 && !forced && matches!(self, CsrKernel::Vector(_) | CsrKernel::Adaptive) {
            CsrKernel::Scalar
        } else {
            self
        }
    }

    /// Reads `scalar`, `vectorW`, `splitC` or `adaptive`.
    pub fn parse(s: &str) -> Option<CsrKernel> {
        let num = |p: &str| s.strip_prefix(p).and_then(|n| n.parse::<u32>().ok());
        match s {
            "scalar" => Some(CsrKernel::Scalar),
            "adaptive" => Some(CsrKernel::Adaptive),
            _ => num("vector")
                .filter(|w| w.is_power_of_two() && (2..=32).contains(w))
                .map(CsrKernel::Vector)
                .or_else(|| num("split").filter(|&c| c > 0).map(CsrKernel::Split)),
        }
    }

    /// The name [`CsrKernel::parse`] reads.
    pub fn name(self) -> String {
        match self {
            CsrKernel::Scalar => "scalar".into(),
            CsrKernel::Vector(w) => format!("vector{w}"),
            CsrKernel::Split(c) => format!("split{c}"),
            CsrKernel::Adaptive => "adaptive".into(),
        }
    }
}
