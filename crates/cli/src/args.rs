//! The command line: subcommands and their options (clap).

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use semigraph_algos::DistanceType;

/// Graph algorithms as semiring linear algebra (CPU now; NVIDIA GPUs with semigraph-gpu).
#[derive(Parser)]
#[command(name = "semigraph", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// The options of a run, whichever subcommand they came from (those a subcommand does not
/// take keep their defaults).
#[derive(Clone, Debug, Default)]
pub struct Common {
    /// Where to compute.
    pub backend: BackendChoice,
    /// Read every edge of an edge list as two arcs.
    pub undirected: bool,
    /// Write the result here instead of stdout.
    pub output: Option<PathBuf>,
    /// Write JSON instead of text.
    pub json: bool,
    /// No progress bars or notes on stderr.
    pub quiet: bool,
}

/// `--backend`.
#[derive(Args, Clone, Debug)]
pub struct BackendOpt {
    /// Where to compute: auto (the GPU when present, else the CPU), cpu or gpu.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
}

/// `--undirected`.
#[derive(Args, Clone, Debug)]
pub struct InputOpt {
    /// Read every edge of an edge list as two arcs (formats that declare symmetry, such as
    /// symmetric Matrix Market, PACE and undirected GML, apply it themselves).
    #[arg(long)]
    pub undirected: bool,
}

/// `--output`, `--quiet`.
#[derive(Args, Clone, Debug)]
pub struct WriteOpt {
    /// Write the result to FILE (atomically: a temporary file, then a rename) instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No progress bars or notes on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `--json`.
#[derive(Args, Clone, Debug)]
pub struct JsonOpt {
    /// Write JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The options of a computation on a graph file: backend, input, output.
#[derive(Args, Clone, Debug)]
pub struct RunOpts {
    #[command(flatten)]
    pub backend: BackendOpt,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub write: WriteOpt,
    #[command(flatten)]
    pub json: JsonOpt,
}

/// The options of a report on a graph file that runs on no backend of its choosing.
#[derive(Args, Clone, Debug)]
pub struct ReportOpts {
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub write: WriteOpt,
    #[command(flatten)]
    pub json: JsonOpt,
}

/// The options of a report with no graph file.
#[derive(Args, Clone, Debug)]
pub struct PlainReportOpts {
    #[command(flatten)]
    pub write: WriteOpt,
    #[command(flatten)]
    pub json: JsonOpt,
}

impl Common {
    fn with(
        backend: Option<&BackendOpt>,
        input: Option<&InputOpt>,
        write: &WriteOpt,
        json: Option<&JsonOpt>,
    ) -> Common {
        Common {
            backend: backend.map_or(BackendChoice::Auto, |b| b.backend),
            undirected: input.is_some_and(|i| i.undirected),
            output: write.output.clone(),
            json: json.is_some_and(|j| j.json),
            quiet: write.quiet,
        }
    }
}

impl RunOpts {
    pub fn common(&self) -> Common {
        Common::with(
            Some(&self.backend),
            Some(&self.input),
            &self.write,
            Some(&self.json),
        )
    }
}

impl ReportOpts {
    pub fn common(&self) -> Common {
        Common::with(None, Some(&self.input), &self.write, Some(&self.json))
    }
}

impl PlainReportOpts {
    pub fn common(&self) -> Common {
        Common::with(None, None, &self.write, Some(&self.json))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum BackendChoice {
    #[default]
    Auto,
    Cpu,
    Gpu,
}

/// Every built-in semiring as `name:type` (`min-plus:f32`, `or-and:bool`,
/// `min-plus-pred:dpi32`), from `Semiring::full_name` (`min_plus_f32`): the one syntax of
/// `spmv --semiring` and the benches' `--semirings`.
pub fn semiring_specs() -> Vec<String> {
    let mut v = Vec::new();
    macro_rules! push {
        ($label:ident, $s:ty) => {
            v.push(spec_of(&<$s as semigraph_semiring::Semiring>::full_name()));
        };
    }
    semigraph_semiring::for_each_builtin!(push);
    v
}

/// `min_plus_f32` -> `min-plus:f32`.
pub fn spec_of(full_name: &str) -> String {
    match full_name.rsplit_once('_') {
        Some((name, ty)) => format!("{}:{ty}", name.replace('_', "-")),
        None => full_name.to_string(),
    }
}

/// A clap parser accepting exactly the built-in semirings (`--help` lists them).
pub fn semiring_parser() -> PossibleValuesParser {
    // clap keeps `&'static str` values: the list is made once per process.
    static SPECS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let specs = SPECS.get_or_init(|| {
        semiring_specs()
            .into_iter()
            .map(|s| &*Box::leak(s.into_boxed_str()))
            .collect()
    });
    PossibleValuesParser::new(specs.iter().copied())
}

/// `--format` of a product's matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// The automatic choice for the backend (docs/FORMATS.md).
    Auto,
    Csr,
    Ell,
    Dia,
    Coo,
    Hyb,
    Dense,
}

impl FormatArg {
    /// The format, `None` for auto.
    pub fn format(self) -> Option<semigraph_formats::Format> {
        use semigraph_formats::Format;
        match self {
            FormatArg::Auto => None,
            FormatArg::Csr => Some(Format::Csr),
            FormatArg::Ell => Some(Format::Ell),
            FormatArg::Dia => Some(Format::Dia),
            FormatArg::Coo => Some(Format::Coo),
            FormatArg::Hyb => Some(Format::Hyb),
            FormatArg::Dense => Some(Format::Dense),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DistChoice {
    Auto,
    I32,
    I64,
    F32,
    F64,
}

impl DistChoice {
    pub fn wanted(self) -> Option<DistanceType> {
        match self {
            DistChoice::Auto => None,
            DistChoice::I32 => Some(DistanceType::I32),
            DistChoice::I64 => Some(DistanceType::I64),
            DistChoice::F32 => Some(DistanceType::F32),
            DistChoice::F64 => Some(DistanceType::F64),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CombineArg {
    Min,
    Max,
    Sum,
    First,
}

impl CombineArg {
    pub fn combine(self) -> semigraph_formats::Combine {
        match self {
            CombineArg::Min => semigraph_formats::Combine::Min,
            CombineArg::Max => semigraph_formats::Combine::Max,
            CombineArg::Sum => semigraph_formats::Combine::Sum,
            CombineArg::First => semigraph_formats::Combine::First,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SsspAlgo {
    /// Bellman-Ford on a GPU or with negative weights, delta-stepping otherwise.
    Auto,
    BellmanFord,
    DeltaStepping,
}

/// `apsp --method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ApspMethodArg {
    /// The cheaper of the two, estimated from the graph's size, arcs and depth.
    Auto,
    /// Repeated min-plus squaring of the dense matrix (semiring GEMM).
    Squaring,
    /// Bellman-Ford from blocks of sources at once (SpMM over an n x k block).
    Sources,
}

impl ApspMethodArg {
    pub fn method(self) -> semigraph_algos::ApspMethod {
        match self {
            ApspMethodArg::Auto => semigraph_algos::ApspMethod::Auto,
            ApspMethodArg::Squaring => semigraph_algos::ApspMethod::Squaring,
            ApspMethodArg::Sources => semigraph_algos::ApspMethod::Sources,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DirectionArg {
    Auto,
    Push,
    Pull,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenKind {
    /// A road-like grid (--rows, --cols), integer weights.
    Grid,
    /// A Graph500 Kronecker graph (--scale, --edge-factor).
    Kronecker,
    /// A uniform random graph (--scale, --edge-factor as the degree).
    Urand,
    /// A path of --n vertices.
    Path,
    /// A star of --n vertices.
    Star,
    /// A complete digraph of --n vertices.
    Complete,
    /// A stencil matrix on a grid of --dims (2-D: --points 5 or 9; 3-D: 7 or 27).
    Stencil,
    /// An --n x --n banded matrix: the diagonal and positions within --bandwidth of it with
    /// probability --density.
    Banded,
    /// A triangle mesh on --rows x --cols points (7 entries per inner row); --shuffle numbers
    /// the points at random.
    Mesh,
    /// A Chung-Lu power-law graph: --n vertices, --edge-factor arcs per vertex, degree
    /// exponent --exponent.
    ChungLu,
    /// A rectangular --rows x --cols random matrix, --edge-factor entries per row.
    Bipartite,
    /// --blocks square blocks of --block-size on the diagonal, entries with probability
    /// --density.
    BlockDiagonal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DemoSize {
    Small,
    Medium,
    Large,
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Breadth-first search: level and parent of every vertex.
    Bfs {
        /// The graph file (Matrix Market, DIMACS, PACE, edge list, adjacency, LDBC, GML; gz/xz).
        file: PathBuf,
        /// The source vertex, in the file's numbering.
        #[arg(long, short = 's', required_unless_present = "sources")]
        source: Option<i64>,
        /// Run from every source of a DIMACS source file (`p aux sp ss K`, `s V` lines, ids in
        /// the graph file's numbering) and print one summary line per source.
        #[arg(long, value_name = "FILE.ss", conflicts_with = "source")]
        sources: Option<PathBuf>,
        /// Push, pull, or switch automatically.
        #[arg(long, value_enum, default_value_t = DirectionArg::Auto)]
        direction: DirectionArg,
        /// Format of the pull (SpMV) matrix (push steps always read CSR).
        #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
        format: FormatArg,
        /// Most values (padding included) ELL or DIA may store per entry.
        #[arg(long, default_value_t = 8.0)]
        max_fill: f64,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Single-source shortest paths: distance and predecessor of every vertex.
    Sssp {
        /// The graph file.
        file: PathBuf,
        /// The source vertex, in the file's numbering.
        #[arg(long, short = 's', required_unless_present = "sources")]
        source: Option<i64>,
        /// Run from every source of a DIMACS source file (`p aux sp ss K`, `s V` lines, ids in
        /// the graph file's numbering) and print one summary line per source.
        #[arg(long, value_name = "FILE.ss", conflicts_with = "source")]
        sources: Option<PathBuf>,
        /// The algorithm: auto picks Bellman-Ford on a GPU (frontier relaxation, no bucket
        /// bookkeeping) or when a weight is negative, delta-stepping otherwise.
        #[arg(long, value_enum, default_value_t = SsspAlgo::Auto)]
        algo: SsspAlgo,
        /// Bucket width of delta-stepping (default: automatic, see the docs).
        #[arg(long)]
        delta: Option<f64>,
        /// Distance type: auto (the narrowest that holds every path length exactly: i32 or
        /// i64 for integer weights, f64 for real ones), i32, i64, f32 or f64 (refused when it
        /// cannot hold the answer exactly).
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// All-pairs shortest paths, written as a Matrix Market matrix of distances.
    Apsp {
        /// The graph file.
        file: PathBuf,
        /// Also write the next-hop matrix to this file: Matrix Market (1-based), or a `NumPy`
        /// array (`u32`, 0-based, 4294967295 for none) for a name ending in `.npy`. An
        /// --output name ending in `.npy` likewise gets the distances as a `NumPy` array.
        #[arg(long, value_name = "FILE")]
        next_hop: Option<PathBuf>,
        /// Distance type, as for `sssp`.
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
        /// How: repeated squaring, blocks of single-source runs, or the cheaper by estimate.
        #[arg(long, value_enum, default_value_t = ApspMethodArg::Auto)]
        method: ApspMethodArg,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// y = A x with x all `one`, in any built-in semiring and type; reports the median time.
    /// Weights become semiring values (a file without weights gives `one` on every arc);
    /// or-and and the secondi semirings use the structure only.
    Spmv {
        /// The graph file.
        file: PathBuf,
        /// The semiring and its value type, as name:type.
        #[arg(long, default_value = "plus-times:f32", value_parser = semiring_parser())]
        semiring: String,
        /// Timed repetitions (after one warm-up).
        #[arg(long, default_value_t = 20)]
        repeat: usize,
        /// Storage format.
        #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
        format: FormatArg,
        /// Most values (padding included) ELL or DIA may store per entry.
        #[arg(long, default_value_t = 8.0)]
        max_fill: f64,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Structure statistics and the recommended format.
    Stats {
        /// The graph file.
        file: PathBuf,
        #[command(flatten)]
        opts: ReportOpts,
    },
    /// Converts a graph file to another file format (by the --output name or --to).
    Convert {
        /// The graph file.
        file: PathBuf,
        /// Output format: mtx, gr, el, ldbc, gml (default: from the output name).
        #[arg(long)]
        to: Option<String>,
        /// Merge repeated arcs u -> v into one, keeping the min, max, sum or first weight
        /// (Matrix Market forbids repeated entries; other formats keep them unless asked).
        #[arg(long, value_enum)]
        combine: Option<CombineArg>,
        #[command(flatten)]
        input: InputOpt,
        #[command(flatten)]
        write: WriteOpt,
    },
    /// Generates a graph and writes it (format from the --output name).
    Generate {
        /// What to generate.
        #[arg(value_enum)]
        kind: GenKind,
        #[command(flatten)]
        gen_args: GenArgs,
        /// Merge repeated arcs (Kronecker and uniform graphs repeat some) keeping the min,
        /// max, sum or first weight. Default: min when the output is Matrix Market, which
        /// forbids repeats; otherwise they are kept.
        #[arg(long, value_enum)]
        combine: Option<CombineArg>,
        #[command(flatten)]
        write: WriteOpt,
    },
    /// Benchmarks: SpMV per format, BFS/SSSP/APSP, semiring GEMM and the format study, on the
    /// GPU and (but GEMM) the CPU backend.
    Bench {
        #[command(subcommand)]
        what: BenchCmd,
    },
    /// Generates a road-like grid and a Kronecker graph, runs BFS, both SSSP algorithms and
    /// APSP, checks every result against an independent oracle and prints a table.
    Demo {
        /// Graph sizes.
        #[arg(long, value_enum, default_value_t = DemoSize::Medium)]
        size: DemoSize,
        #[command(flatten)]
        backend: BackendOpt,
        #[command(flatten)]
        write: WriteOpt,
        #[command(flatten)]
        json: JsonOpt,
    },
}

/// A generator and its arguments as one line of a corpus manifest (`stencil --dims 1000x1000`).
#[derive(Parser)]
#[command(no_binary_name = true)]
pub struct GenLine {
    /// What to generate.
    #[arg(value_enum)]
    pub kind: GenKind,
    #[command(flatten)]
    pub args: GenArgs,
}

/// The size, weights and seed of a generated graph.
#[derive(Args, Clone, Debug)]
pub struct GenArgs {
    /// Grid rows.
    #[arg(long, default_value_t = 100)]
    pub rows: usize,
    /// Grid columns.
    #[arg(long, default_value_t = 100)]
    pub cols: usize,
    /// log2 of the vertex count (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    pub scale: u32,
    /// Arcs per vertex (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    pub edge_factor: u32,
    /// Vertices (path, star, complete).
    #[arg(long, default_value_t = 100)]
    pub n: usize,
    /// Grid sizes of a stencil, e.g. 1000x1000 or 100x100x100.
    #[arg(long, default_value = "100x100")]
    pub dims: String,
    /// Points of a stencil: 5 or 9 (2-D), 7 or 27 (3-D).
    #[arg(long, default_value_t = 5)]
    pub points: usize,
    /// Half-width of a band (banded).
    #[arg(long, default_value_t = 8)]
    pub bandwidth: usize,
    /// Probability of an entry (banded, block-diagonal).
    #[arg(long, default_value_t = 1.0)]
    pub density: f64,
    /// Degree exponent (chung-lu), above 1.
    #[arg(long, default_value_t = 2.5)]
    pub exponent: f64,
    /// Kronecker quadrant probabilities a,b,c (Graph500: 0.57,0.19,0.19).
    #[arg(long, default_value = "0.57,0.19,0.19")]
    pub abc: String,
    /// Number the points of a mesh at random.
    #[arg(long)]
    pub shuffle: bool,
    /// Diagonal blocks (block-diagonal).
    #[arg(long, default_value_t = 100)]
    pub blocks: usize,
    /// Size of each diagonal block (block-diagonal).
    #[arg(long, default_value_t = 64)]
    pub block_size: usize,
    /// Integer weights drawn from LO..=HI ("unit" for none on generated graphs).
    #[arg(long, default_value = "1..100")]
    pub weights: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

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
            value_enum,
            value_delimiter = ',',
            default_value = "csr,ell,dia,coo,hyb"
        )]
        formats: Vec<FormatArg>,
        /// Timed runs per configuration (at least 20).
        #[arg(long, default_value_t = 20)]
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
        #[arg(long, value_enum, default_value_t = SsspAlgo::Auto)]
        algo: SsspAlgo,
        /// Bucket width of delta-stepping (default: automatic per backend).
        #[arg(long)]
        delta: Option<f64>,
        /// Distance type, as for `sssp`.
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
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
        #[arg(long, value_delimiter = ',', value_parser = semiring_parser(), default_value = "min-plus:f32,or-and:bool")]
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
        #[command(flatten)]
        opts: PlainReportOpts,
    },
    /// All-pairs shortest paths, measured as `bench bfs` (steps are squarings or rounds).
    Apsp {
        #[command(flatten)]
        bench: AlgoBench,
        /// Distance type, as for `apsp`.
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
        /// The method, as for `apsp`.
        #[arg(long, value_enum, default_value_t = ApspMethodArg::Auto)]
        method: ApspMethodArg,
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
    #[command(flatten)]
    pub opts: ReportOpts,
}

impl Cmd {
    /// The run's options, from the subcommand's own.
    pub fn common(&self) -> Common {
        match self {
            Cmd::Bfs { opts, .. }
            | Cmd::Sssp { opts, .. }
            | Cmd::Apsp { opts, .. }
            | Cmd::Spmv { opts, .. } => opts.common(),
            Cmd::Stats { opts, .. } => opts.common(),
            Cmd::Convert { input, write, .. } => Common::with(None, Some(input), write, None),
            Cmd::Generate { write, .. } => Common::with(None, None, write, None),
            Cmd::Demo {
                backend,
                write,
                json,
                ..
            } => Common::with(Some(backend), None, write, Some(json)),
            Cmd::Bench { what } => match what {
                BenchCmd::Spmv { opts, .. } => opts.common(),
                BenchCmd::Bfs { bench }
                | BenchCmd::Sssp { bench, .. }
                | BenchCmd::Apsp { bench, .. } => bench.opts.common(),
                BenchCmd::Gemm { opts, .. } | BenchCmd::Formats { opts, .. } => opts.common(),
            },
        }
    }
}
