//! `semigraph bench ...`: the benchmarks' subcommands and their options.

use std::path::PathBuf;

use clap::{ArgMatches, Args, Command, FromArgMatches, Subcommand};
use semigraph_algos::algorithms;
use semigraph_algos::registry::Info;

use semigraph_algos::{ApspMethod, DistanceType, SsspMethod};
use semigraph_formats::Format;

use super::{
    Choice, GenArgs, GenKind, PlainReportOpts, ReportOpts, RunOpts, auto_or, given_in, named,
    semiring_parser, with_params,
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
    /// Every algorithm of the registry (`bench pagerank`, `bench wcc`, `bench tc`, ...),
    /// measured as `bench bfs`; every run checked against the CPU backend.
    #[command(flatten)]
    Algorithm(BenchAlgo),
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

impl BenchCmd {
    /// The run's options, from the benchmark's own.
    pub fn common(&self) -> super::Common {
        match self {
            BenchCmd::Spmv { opts, .. } | BenchCmd::Spgemm { opts, .. } => opts.common(),
            BenchCmd::Algorithm(a) => a.bench.opts.common(),
            BenchCmd::Bfs { bench }
            | BenchCmd::Sssp { bench, .. }
            | BenchCmd::Apsp { bench, .. } => bench.opts.common(),
            BenchCmd::Gemm { opts, .. } | BenchCmd::Formats { opts, .. } => opts.common(),
        }
    }
}

/// Registry algorithms whose benchmarks are written by hand (`bench bfs`, `bench sssp`).
pub const BENCH_HAND_WRITTEN: &[&str] = &["bfs", "sssp"];

/// The registry's algorithms that are benchmarks.
fn benchmarks() -> impl Iterator<Item = &'static Info> {
    algorithms::infos()
        .iter()
        .filter(|i| !BENCH_HAND_WRITTEN.contains(&i.name))
}

/// `bench NAME`: a registry algorithm's benchmark, its arguments as given (the benchmark's
/// defaults for the rest).
#[derive(Clone, Debug)]
pub struct BenchAlgo {
    /// The algorithm.
    pub info: &'static Info,
    /// Each argument's value as given (vertex arguments: the benchmark's source).
    pub given: Vec<(&'static str, Option<String>)>,
    /// The graph, backends and runs.
    pub bench: AlgoBench,
}

impl FromArgMatches for BenchAlgo {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = m.subcommand().ok_or_else(missing)?;
        let info = benchmarks()
            .find(|i| i.command == name)
            .ok_or_else(missing)?;
        Ok(BenchAlgo {
            info,
            given: given_in(info, sub, true),
            bench: AlgoBench::from_arg_matches(sub)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Subcommand for BenchAlgo {
    fn augment_subcommands(mut cmd: Command) -> Command {
        for info in benchmarks() {
            let about = format!(
                "{}; measured as `bench bfs` (steps are {}), every run checked against the \
                 CPU backend.",
                info.summary, info.steps
            );
            // The benchmark's own options first: an argument of the same name gives way.
            let sub = with_params(
                AlgoBench::augment_args(Command::new(info.command)),
                info,
                true,
            );
            cmd = cmd.subcommand(sub.about(about));
        }
        cmd
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        benchmarks().any(|i| i.command == name)
    }
}
