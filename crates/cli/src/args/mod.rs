//! The command line: subcommands and their options (clap).
//!
//! - `options.rs`: the option groups subcommands flatten, and [`Common`];
//! - `values.rs`: value enums and the semiring syntax;
//! - `generate.rs`: generator kinds and sizes;
//! - `bench.rs`: the `bench` subcommands.

mod bench;
mod generate;
mod options;
mod values;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use semigraph_algos::{ApspMethod, Direction, DistanceType, SsspMethod};
use semigraph_formats::{Combine, Format};

pub use bench::{AlgoBench, BenchCmd};
pub use generate::{GenArgs, GenKind, GenLine};
pub use options::{
    BackendOpt, Common, InputOpt, JsonOpt, PlainReportOpts, ReportOpts, RunOpts, WriteOpt,
};
pub use values::*;

/// Graph algorithms as semiring linear algebra (CPU now; NVIDIA GPUs with semigraph-gpu).
#[derive(Parser)]
#[command(name = "semigraph", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
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
        #[arg(long, value_parser = named::<Direction>(), default_value = "auto")]
        direction: Direction,
        /// Format of the pull (SpMV) matrix (push steps always read CSR).
        #[arg(long, value_parser = auto_or::<Format>(), default_value = "auto")]
        format: Choice<Format>,
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
        /// The algorithm: auto picks Bellman-Ford when a weight is negative; the fixpoint
        /// (buckets relaxed in any order, then the predecessors) for graphs of short rows with
        /// positive weights; otherwise delta-stepping on the CPU, Bellman-Ford on a GPU.
        #[arg(long, value_parser = named::<SsspMethod>(), default_value = "auto")]
        algo: SsspMethod,
        /// Bucket width of delta-stepping and of the fixpoint (default: automatic, see the docs).
        #[arg(long)]
        delta: Option<f64>,
        /// Distance type: auto (the narrowest that holds every path length exactly: i32 or
        /// i64 for integer weights, f64 for real ones), i32, i64, f32 or f64 (refused when it
        /// cannot hold the answer exactly).
        #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
        distances: Choice<DistanceType>,
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
        #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
        distances: Choice<DistanceType>,
        /// How: repeated squaring, blocks of single-source runs, or the cheaper by estimate.
        #[arg(long, value_parser = named::<ApspMethod>(), default_value = "auto")]
        method: ApspMethod,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// PageRank (LDBC Graphalytics definition: PR starts at 1/n, dangling vertices' rank spread
    /// evenly), one line `id rank` per vertex. Arc weights are ignored.
    Pagerank {
        /// The graph file.
        file: PathBuf,
        /// Iterations: exactly this many unless --tolerance stops sooner (default: at most 100,
        /// stopping at an L1 change of 1e-9).
        #[arg(long)]
        iterations: Option<usize>,
        /// The damping factor, in [0, 1].
        #[arg(long, default_value_t = 0.85)]
        damping: f64,
        /// Stop once one iteration changes the ranks by at most this much (L1 norm).
        #[arg(long)]
        tolerance: Option<f64>,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Weakly connected components (`FastSV`): one line `id label` per vertex, the label the
    /// smallest vertex id of the component.
    Wcc {
        /// The graph file.
        file: PathBuf,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Community detection by label propagation (LDBC Graphalytics definition): one line
    /// `id label` per vertex.
    Cdlp {
        /// The graph file.
        file: PathBuf,
        /// Iterations.
        #[arg(long, default_value_t = 10)]
        iterations: usize,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Local clustering coefficients (LDBC Graphalytics definition: in- and out-neighbours,
    /// arcs counted per direction): one line `id coefficient` per vertex.
    Lcc {
        /// The graph file.
        file: PathBuf,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// Triangles of the undirected simple graph (arcs in either direction): `# triangles: T`,
    /// then one line `id triangles` per vertex.
    Tc {
        /// The graph file.
        file: PathBuf,
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
        #[arg(long, value_parser = auto_or::<Format>(), default_value = "auto")]
        format: Choice<Format>,
        /// Most values (padding included) ELL or DIA may store per entry.
        #[arg(long, default_value_t = 8.0)]
        max_fill: f64,
        #[command(flatten)]
        opts: RunOpts,
    },
    /// The product C = A (+).(x) B of two sparse matrices, under an optional mask (`SpGEMM`), in
    /// any built-in semiring, written in Matrix Market (entries equal to the semiring's zero
    /// are not stored). The files' weights become semiring values (or-and and the secondi
    /// semirings read the structure only).
    Spgemm {
        /// The left matrix (any graph or matrix file).
        a: PathBuf,
        /// The right matrix.
        b: PathBuf,
        /// The semiring and its value type, as name:type.
        #[arg(long, default_value = "plus-times:f64", value_parser = semiring_parser())]
        semiring: String,
        /// Only where this matrix has an entry (with --complement: where it has none).
        #[arg(long)]
        mask: Option<PathBuf>,
        /// Complement the mask.
        #[arg(long, requires = "mask")]
        complement: bool,
        /// Multiply by B^T (B's rows as columns) instead of B.
        #[arg(long)]
        transpose_b: bool,
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
        #[arg(long, value_parser = named::<Combine>())]
        combine: Option<Combine>,
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
        #[arg(long, value_parser = named::<Combine>())]
        combine: Option<Combine>,
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

impl Cmd {
    /// The command's name when it runs on a backend chosen by `--backend`: its GPU can be
    /// opened while the input is read, and the kernels its earlier runs used loaded meanwhile
    /// (the name tags their profile).
    pub fn backend_command(&self) -> Option<&'static str> {
        Some(match self {
            Cmd::Bfs { .. } => "bfs",
            Cmd::Sssp { .. } => "sssp",
            Cmd::Apsp { .. } => "apsp",
            Cmd::Spmv { .. } => "spmv",
            Cmd::Spgemm { .. } => "spgemm",
            Cmd::Pagerank { .. } => "pagerank",
            Cmd::Wcc { .. } => "wcc",
            Cmd::Cdlp { .. } => "cdlp",
            Cmd::Lcc { .. } => "lcc",
            Cmd::Tc { .. } => "tc",
            _ => return None,
        })
    }

    /// The run's options, from the subcommand's own.
    pub fn common(&self) -> Common {
        match self {
            Cmd::Bfs { opts, .. }
            | Cmd::Sssp { opts, .. }
            | Cmd::Apsp { opts, .. }
            | Cmd::Spmv { opts, .. }
            | Cmd::Spgemm { opts, .. }
            | Cmd::Pagerank { opts, .. }
            | Cmd::Wcc { opts, .. }
            | Cmd::Cdlp { opts, .. }
            | Cmd::Lcc { opts, .. }
            | Cmd::Tc { opts, .. } => opts.common(),
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
                BenchCmd::Spmv { opts, .. } | BenchCmd::Spgemm { opts, .. } => opts.common(),
                BenchCmd::Bfs { bench }
                | BenchCmd::Pagerank { bench, .. }
                | BenchCmd::Wcc { bench }
                | BenchCmd::Cdlp { bench, .. }
                | BenchCmd::Lcc { bench }
                | BenchCmd::Tc { bench }
                | BenchCmd::Sssp { bench, .. }
                | BenchCmd::Apsp { bench, .. } => bench.opts.common(),
                BenchCmd::Gemm { opts, .. } | BenchCmd::Formats { opts, .. } => opts.common(),
            },
        }
    }
}
