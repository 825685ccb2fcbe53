//! `semigraph bench ...`: the benchmarks' subcommands and their options.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use semigraph_algos::{ApspMethod, DistanceType, SsspMethod};
use semigraph_formats::Format;

use super::{
    Choice, GenArgs, GenKind, PlainReportOpts, ReportOpts, RunOpts, auto_or, named, semiring_parser,
};

#[derive(Subcommand)]
pub enum BenchCmd {
    /// SpMV per format and semiring against a peer library's CSR SpMV (plus-times f32) on the
    /// same matrix, in one run: on the GPU cuSPARSE (median device time), on the CPU backend
    /// (`--backend cpu`, or `auto` without a GPU) sprs on one core (host clock); median of
    /// --runs runs (at least 20) after warm-up, compile time apart, effective bandwidth and the
    /// ratio to the peer.
    Spmv {
        /// The graph file (or --generate).
        file: Option<PathBuf>,
        /// Generate the graph instead of reading a file (sizes as for `generate`).
        #[arg(long, value_enum)]
        generate: Option<GenKind>,
        #[command(flatten)]
        gen_args: GenArgs,
        /// Semirings, comma-separated (this bench runs min-plus:f32, plus-times:f32,
        /// min-plus:i32, min-plus:f64, or-and:bool).
        #[arg(long, value_delimiter = ',', default_value = "min-plus:f32,plus-times:f32", value_parser = semiring_parser())]
        semirings: Vec<String>,
        /// Formats, comma-separated (csr runs each CSR kernel).
        #[arg(
            long,
            value_parser = named::<Format>(),
            value_delimiter = ',',
            default_value = "csr,ell,dia,coo,hyb"
        )]
        formats: Vec<Format>,
        /// Timed runs per configuration (at least 20).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Sparse x sparse products of a graph's pattern (plus-times f32), in one run: `A*A` on
    /// the GPU backend, cuSPARSE's product and the CPU backend, and triangle counting's masked
    /// `L*L^T<L>` (L the strictly lower triangle of the symmetrised pattern) on both backends;
    /// GPU: median device time of --runs runs (at least 5) after a warm-up, each the whole
    /// product from resident operands; CPU: median of 3; every result checked against the
    /// CPU backend's. A product the GPU refuses for its size is reported as such (and not run
    /// on the CPU or cuSPARSE).
    Spgemm {
        /// The graph file (or --generate).
        file: Option<PathBuf>,
        /// Generate the graph instead of reading a file (sizes as for `generate`).
        #[arg(long, value_enum)]
        generate: Option<GenKind>,
        #[command(flatten)]
        gen_args: GenArgs,
        /// Timed GPU runs per product (at least 5).
        #[arg(long, default_value_t = 10)]
        runs: usize,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Breadth-first search on each backend after a warm-up: median and minimum of --runs
    /// runs, levels, microseconds per level, edges traversed per second, kernel launches,
    /// host synchronisations and device allocations per run; every run checked against the
    /// CPU backend.
    Bfs {
        #[command(flatten)]
        bench: AlgoBench,
    },
    /// Single-source shortest paths, measured as `bench bfs` (steps are rounds).
    Sssp {
        #[command(flatten)]
        bench: AlgoBench,
        /// The algorithm.
        #[arg(long, value_parser = named::<SsspMethod>(), default_value = "auto")]
        algo: SsspMethod,
        /// Bucket width of delta-stepping and of the fixpoint (default: automatic per backend).
        #[arg(long)]
        delta: Option<f64>,
        /// Distance type, as for `sssp`.
        #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
        distances: Choice<DistanceType>,
    },
    /// Dense semiring GEMM, C = A (+).(x) B of order --n, for each semiring and type, against
    /// cuBLAS SGEMM of the same order, in one run: median device time of --runs runs after a
    /// warm-up (compile time apart), pairs per second, the fraction of the device's
    /// instruction ceiling, and sampled entries checked on the host.
    Gemm {
        /// The order of the matrices.
        #[arg(long, default_value_t = 4096)]
        n: usize,
        /// Semirings, comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            value_parser = semiring_parser(),
            default_value = "min-plus:f32,min-plus:i32,min-plus:f64,min-plus:f16,max-min:f32,plus-times:f32,or-and:bool"
        )]
        semirings: Vec<String>,
        /// Semirings to run a second time with the test values (1..=13) multiplied by 10,000 in
        /// the semiring (min-plus: 10,000 added), so that min-plus i32 leaves its packed 16-bit
        /// form for the 32-bit one; comma-separated, or `none`.
        #[arg(long, value_delimiter = ',', default_value = "min-plus:i32")]
        wide: Vec<String>,
        /// Timed runs per semiring (at least 10).
        #[arg(long, default_value_t = 10)]
        runs: usize,
        #[command(flatten)]
        opts: PlainReportOpts,
    },
    /// The format-selection study: every matrix of a corpus manifest in every format and CSR
    /// kernel, for each semiring, on the GPU and the CPU backend (median of --runs runs, at
    /// least 20, after warm-up; compile time apart); writes the table as CSV to --output
    /// (rewritten after each matrix) and prints, per backend and semiring, how each selector
    /// (the automatic choice, the earlier hand rules, CUSP's HYB/ELL choice, each format
    /// alone) compares with the fastest variant. `--from TABLE.csv` summarises (and draws) an
    /// earlier run instead of measuring.
    Formats {
        /// The corpus manifest (`name | structure | fit|holdout | generate ...|file ...`).
        manifest: Option<PathBuf>,
        /// Summarise this CSV of an earlier run instead of measuring.
        #[arg(long, value_name = "TABLE.csv", conflicts_with = "manifest")]
        from: Option<PathBuf>,
        /// Semirings on the GPU, comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            value_parser = semiring_parser(),
            default_value = "min-plus:f32,or-and:bool,min-plus:i32,plus-times:f32,max-min:f32"
        )]
        semirings: Vec<String>,
        /// Semirings on the CPU backend, comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            value_parser = semiring_parser(),
            default_value = "min-plus:f32,or-and:bool,min-plus:i32,plus-times:f32,max-min:f32"
        )]
        cpu_semirings: Vec<String>,
        /// Backends, comma-separated: gpu, cpu.
        #[arg(long, default_value = "gpu,cpu")]
        backends: String,
        /// Timed runs per variant (at least 20).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Start no new matrix after this many seconds.
        #[arg(long, default_value_t = f64::INFINITY)]
        max_seconds: f64,
        /// Only these matrices (names, comma-separated).
        #[arg(long, default_value = "")]
        only: String,
        /// Draw the figures (SVG) into this folder.
        #[arg(long, value_name = "DIR")]
        plots: Option<PathBuf>,
        /// Matrices with more entries than this run only the first --large-semirings
        /// semirings of each list.
        #[arg(long, default_value_t = usize::MAX)]
        large_nnz: usize,
        /// Semirings a large matrix runs (see --large-nnz).
        #[arg(long, default_value_t = 1)]
        large_semirings: usize,
        /// Share of `x` that is set (the rest the semiring's zero) for semirings whose add has
        /// a terminal value (or-and): with a full `x` every row would stop at its first entry;
        /// a sparse `x`, like a BFS frontier, makes rows read on. The other semirings use a
        /// full `x`.
        #[arg(long, default_value_t = 0.02, value_name = "SHARE")]
        terminal_x_density: f64,
        #[command(flatten)]
        opts: PlainReportOpts,
    },
    /// PageRank (LDBC form: fixed iterations), measured as `bench bfs`; every run checked
    /// against the CPU backend (within 1e-9 relative).
    Pagerank {
        #[command(flatten)]
        bench: AlgoBench,
        /// Iterations.
        #[arg(long, default_value_t = 20)]
        iterations: usize,
        /// The damping factor.
        #[arg(long, default_value_t = 0.85)]
        damping: f64,
    },
    /// Weakly connected components (`FastSV`), measured as `bench bfs` (steps are rounds); every
    /// run checked against the CPU backend.
    Wcc {
        #[command(flatten)]
        bench: AlgoBench,
    },
    /// Community detection by label propagation, measured as `bench bfs`.
    Cdlp {
        #[command(flatten)]
        bench: AlgoBench,
        /// Iterations.
        #[arg(long, default_value_t = 10)]
        iterations: usize,
    },
    /// Local clustering coefficients, measured as `bench bfs`.
    Lcc {
        #[command(flatten)]
        bench: AlgoBench,
    },
    /// The triangle count (Sandia's L*L^T masked by L), measured as `bench bfs`.
    Tc {
        #[command(flatten)]
        bench: AlgoBench,
    },
    /// All-pairs shortest paths, measured as `bench bfs` (steps are squarings or rounds).
    Apsp {
        #[command(flatten)]
        bench: AlgoBench,
        /// Distance type, as for `apsp`.
        #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
        distances: Choice<DistanceType>,
        /// The method, as for `apsp`.
        #[arg(long, value_parser = named::<ApspMethod>(), default_value = "auto")]
        method: ApspMethod,
    },
}

/// The graph, sources, backends and runs of an algorithm benchmark.
#[derive(Args, Clone, Debug)]
pub struct AlgoBench {
    /// The graph file (or --generate).
    pub file: Option<PathBuf>,
    /// Generate the graph instead of reading a file (sizes as for `generate`).
    #[arg(long, value_enum)]
    pub generate: Option<GenKind>,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// The source vertex in the file's numbering (default: the first vertex, or for generated
    /// graphs the vertex with the most arcs).
    #[arg(long, short = 's')]
    pub source: Option<i64>,
    /// Backends, comma-separated: gpu, cpu.
    #[arg(long, default_value = "gpu,cpu")]
    pub backends: String,
    /// Timed runs per backend (at least 10), after one untimed warm-up run.
    #[arg(long, default_value_t = 10)]
    pub runs: usize,
    /// Give a file without weights seeded random integer weights LO..HI (`sssp`, `apsp`;
    /// default: unit weights; --seed seeds them).
    #[arg(long, value_name = "LO..HI")]
    pub assign_weights: Option<String>,
    /// Do not check the runs against the CPU backend (no CPU reference is computed: for
    /// graphs too large for it); rows say `unchecked`. Setup rows (`Graph::new`) run once on
    /// graphs of 2^26 arcs or more, checked or not.
    #[arg(long)]
    pub no_check: bool,
    /// Several GPUs: run the distributed algorithm (one GPU a rank, NCCL) on each count of
    /// this comma-separated list (e.g. 1,2,4) against the one-GPU algorithm, every run
    /// checked against it (bfs, sssp, pagerank, wcc, apsp; --runs counts from 1 here).
    #[arg(long, value_name = "LIST")]
    pub gpus: Option<String>,
    #[command(flatten)]
    pub opts: ReportOpts,
}
