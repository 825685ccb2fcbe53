//! `semigraph`: graph algorithms as semiring linear algebra, from the command line.
//!
//! Run `semigraph --help` for the subcommands and options, and `semigraph demo` for a
//! self-checking tour that needs no data.

mod bench;
mod demo;
mod output;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use semigraph_algos::{
    ApspOptions, Backend, BfsOptions, BfsSemiring, CpuBackend, DeltaGraph, Direction, Distance,
    DistanceType, DistanceTypeError, Graph, GraphOptions, Mask, apsp, bellman_ford, bfs,
    delta_stepping, distance_type,
};
use semigraph_formats::edgelist::WeightSpec;
use semigraph_formats::io::{OutputFormat, ReadOptions, read_graph, write_graph};
use semigraph_formats::{EdgeList, Format, Stats, Weights, generate};
use semigraph_gpu::GpuBackend;
use semigraph_semiring::{MinPlus, Semiring};
use serde_json::json;

use output::{Header, Output, fmt_duration, write_vertices};

/// Graph algorithms as semiring linear algebra (CPU now; NVIDIA GPUs with semigraph-gpu).
#[derive(Parser)]
#[command(name = "semigraph", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    opts: Common,
    #[command(subcommand)]
    cmd: Cmd,
}

/// Options shared by every subcommand.
#[derive(Args, Clone, Debug)]
struct Common {
    /// Where to compute: auto (the GPU when present, else the CPU), cpu or gpu.
    #[arg(long, global = true, value_enum, default_value_t = BackendChoice::Auto)]
    backend: BackendChoice,
    /// Read every edge of an edge list as two arcs (formats that declare symmetry, such as
    /// symmetric Matrix Market, PACE and undirected GML, apply it themselves).
    #[arg(long, global = true)]
    undirected: bool,
    /// Write the result to FILE (atomically: a temporary file, then a rename) instead of stdout.
    #[arg(long, short = 'o', global = true, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// No progress bars or notes on stderr.
    #[arg(long, short = 'q', global = true)]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BackendChoice {
    Auto,
    Cpu,
    Gpu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DistChoice {
    Auto,
    I32,
    I64,
    F32,
    F64,
}

impl DistChoice {
    fn wanted(self) -> Option<DistanceType> {
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
enum SsspAlgo {
    BellmanFord,
    DeltaStepping,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DirectionArg {
    Auto,
    Push,
    Pull,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GenKind {
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DemoSize {
    Small,
    Medium,
    Large,
}

#[derive(Subcommand)]
enum Cmd {
    /// Breadth-first search: level and parent of every vertex.
    Bfs {
        /// The graph file (Matrix Market, DIMACS, PACE, edge list, adjacency, LDBC, GML; gz/xz).
        file: PathBuf,
        /// The source vertex, in the file's numbering.
        #[arg(long, short = 's')]
        source: i64,
        /// Push, pull, or switch automatically.
        #[arg(long, value_enum, default_value_t = DirectionArg::Auto)]
        direction: DirectionArg,
        /// Format of the pull (SpMV) matrix: auto, csr, ell, dia, coo, hyb or dense (push
        /// steps always read CSR).
        #[arg(long, default_value = "auto")]
        format: String,
    },
    /// Single-source shortest paths: distance and predecessor of every vertex.
    Sssp {
        /// The graph file.
        file: PathBuf,
        /// The source vertex, in the file's numbering.
        #[arg(long, short = 's')]
        source: i64,
        /// The algorithm.
        #[arg(long, value_enum, default_value_t = SsspAlgo::BellmanFord)]
        algo: SsspAlgo,
        /// Bucket width of delta-stepping (default: automatic, see the docs).
        #[arg(long)]
        delta: Option<f64>,
        /// Distance type: auto (the narrowest that holds every path length exactly: i32 or
        /// i64 for integer weights, f64 for real ones), i32, i64, f32 or f64 (refused when it
        /// cannot hold the answer exactly).
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
    },
    /// All-pairs shortest paths, written as a Matrix Market matrix of distances.
    Apsp {
        /// The graph file.
        file: PathBuf,
        /// Also write the next-hop matrix (Matrix Market, 1-based) to this file.
        #[arg(long, value_name = "FILE")]
        next_hop: Option<PathBuf>,
        /// Distance type, as for `sssp`.
        #[arg(long, value_enum, default_value_t = DistChoice::Auto)]
        distances: DistChoice,
    },
    /// y = A x with x all `one`, in any built-in semiring and type; reports the median time.
    /// Weights become semiring values (a file without weights gives `one` on every arc);
    /// or-and and the secondi semirings use the structure only.
    Spmv {
        /// The graph file.
        file: PathBuf,
        /// plus-times, min-plus, max-plus, max-min, min-max, or-and, min-secondi, any-secondi.
        #[arg(long, default_value = "plus-times")]
        semiring: String,
        /// Value type: f16, bf16, f32, f64, i32, i64, u32, bool.
        #[arg(long = "type", default_value = "f32")]
        ty: String,
        /// Timed repetitions (after one warm-up).
        #[arg(long, default_value_t = 20)]
        repeat: usize,
        /// Storage format: auto, csr, ell, dia, coo, hyb or dense.
        #[arg(long, default_value = "auto")]
        format: String,
    },
    /// Structure statistics and the recommended format.
    Stats {
        /// The graph file.
        file: PathBuf,
    },
    /// Converts a graph file to another file format (by the --output name or --to).
    Convert {
        /// The graph file.
        file: PathBuf,
        /// Output format: mtx, gr, el, ldbc, gml (default: from the output name).
        #[arg(long)]
        to: Option<String>,
    },
    /// Generates a graph and writes it (format from the --output name).
    Generate {
        /// What to generate.
        #[arg(value_enum)]
        kind: GenKind,
        #[command(flatten)]
        gen_args: GenArgs,
    },
    /// Benchmarks on the GPU (needs an NVIDIA GPU).
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
    },
}

/// The size, weights and seed of a generated graph.
#[derive(Args, Clone, Debug)]
struct GenArgs {
    /// Grid rows.
    #[arg(long, default_value_t = 100)]
    rows: usize,
    /// Grid columns.
    #[arg(long, default_value_t = 100)]
    cols: usize,
    /// log2 of the vertex count (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    scale: u32,
    /// Arcs per vertex (kronecker, urand).
    #[arg(long, default_value_t = 16)]
    edge_factor: u32,
    /// Vertices (path, star, complete).
    #[arg(long, default_value_t = 100)]
    n: usize,
    /// Integer weights drawn from LO..=HI ("unit" for none on generated graphs).
    #[arg(long, default_value = "1..100")]
    weights: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Subcommand)]
enum BenchCmd {
    /// SpMV per format and semiring against cuSPARSE's CSR SpMV (plus-times f32) on the same
    /// matrix, in one run: median device time of --runs runs (at least 20) after warm-up,
    /// compile time apart, effective bandwidth and the ratio to cuSPARSE.
    Spmv {
        /// The graph file (or --generate).
        file: Option<PathBuf>,
        /// Generate the graph instead of reading a file (sizes as for `generate`).
        #[arg(long, value_enum)]
        generate: Option<GenKind>,
        #[command(flatten)]
        gen_args: GenArgs,
        /// Semirings, comma-separated: min-plus:f32, plus-times:f32, min-plus:i32, min-plus:f64, or-and:bool.
        #[arg(long, default_value = "min-plus:f32,plus-times:f32")]
        semirings: String,
        /// Formats, comma-separated (csr runs each CSR kernel).
        #[arg(long, default_value = "csr,ell,dia,coo,hyb")]
        formats: String,
        /// Timed runs per configuration (at least 20).
        #[arg(long, default_value_t = 20)]
        runs: usize,
    },
}

/// Builds the graph `kind` with `a`'s sizes.
fn generated(kind: GenKind, a: &GenArgs) -> Res<EdgeList> {
    let w = parse_weights(&a.weights)?;
    if matches!(kind, GenKind::Kronecker | GenKind::Urand) && a.scale > 30 {
        return Err(CliError(format!(
            "--scale {} is too large (at most 30: 32-bit ids)",
            a.scale
        )));
    }
    let big = |v: usize| v > u32::MAX as usize;
    if (kind == GenKind::Grid && (big(a.rows.saturating_mul(a.cols))))
        || (kind == GenKind::Complete && big(a.n.saturating_mul(a.n)))
    {
        return Err(CliError("the graph does not fit 32-bit ids".into()));
    }
    let mut g = match kind {
        GenKind::Grid => {
            let (lo, hi) = w.unwrap_or((1, 1));
            generate::grid(a.rows, a.cols, lo, hi, a.seed)
        }
        GenKind::Kronecker => generate::kronecker(a.scale, a.edge_factor, a.seed),
        GenKind::Urand => generate::urand(a.scale, a.edge_factor, a.seed),
        GenKind::Path => generate::path(a.n),
        GenKind::Star => generate::star(a.n),
        GenKind::Complete => generate::complete(a.n),
    };
    if kind != GenKind::Grid {
        g.assign_weights(match w {
            None => WeightSpec::Unit,
            Some((lo, hi)) => WeightSpec::Uniform {
                lo,
                hi,
                seed: a.seed,
            },
        });
    }
    Ok(g)
}

/// An error for the user: printed as `semigraph: error: ...`, exit status 1.
#[derive(Debug)]
struct CliError(String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! cli_error_from {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError(e.to_string())
            }
        }
    )*};
}
cli_error_from!(
    semigraph_algos::Error,
    semigraph_formats::ReadError,
    semigraph_formats::FormatError,
    semigraph_gpu::GpuError,
    std::io::Error
);

type Res<T> = Result<T, CliError>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("semigraph: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Res<ExitCode> {
    let c = cli.opts;
    match cli.cmd {
        Cmd::Bfs {
            file,
            source,
            direction,
            format,
        } => {
            let g = load(&file, &c)?;
            let s = source_of(&g, source, &file)?;
            let direction = match direction {
                DirectionArg::Auto => Direction::Auto,
                DirectionArg::Push => Direction::Push,
                DirectionArg::Pull => Direction::Pull,
            };
            let job = BfsJob {
                g: &g,
                source: s,
                direction,
                format: format_of(&format)?,
            };
            let (header, r) = dispatch(&c, job)?;
            let mut h = Header::new(&command_line(), &file, &g);
            h.extend(header);
            h.push(
                "reached",
                format!(
                    "{} of {} vertices, depth {}",
                    r.reached,
                    g.num_vertices(),
                    r.depth
                ),
            );
            let out = Output::new(&c);
            write_vertices(
                &out,
                &h,
                &g,
                |v| r.level(v).map(|l| l.to_string()),
                |v| r.parent(v),
            )?;
        }
        Cmd::Sssp {
            file,
            source,
            algo,
            delta,
            distances,
        } => {
            let g = load_weighted(&file, &c)?;
            let s = source_of(&g, source, &file)?;
            let (ty, why) = pick_distances(&g, &file, g.num_vertices(), distances)?;
            let (mut header, dist, pred) = match ty {
                DistanceType::I32 => run_sssp::<i32>(&c, &g, s, algo, delta)?,
                DistanceType::I64 => run_sssp::<i64>(&c, &g, s, algo, delta)?,
                DistanceType::F32 => run_sssp::<f32>(&c, &g, s, algo, delta)?,
                DistanceType::F64 => run_sssp::<f64>(&c, &g, s, algo, delta)?,
            };
            header.push(("distances".into(), format!("{ty}{why}")));
            let mut h = Header::new(&command_line(), &file, &g);
            h.extend(header);
            let out = Output::new(&c);
            write_vertices(
                &out,
                &h,
                &g,
                |v| dist[v].clone(),
                |v| {
                    if v == s || pred[v] == u32::MAX {
                        (v == s && dist[v].is_some()).then_some(s as u32)
                    } else {
                        Some(pred[v])
                    }
                },
            )?;
        }
        Cmd::Apsp {
            file,
            next_hop,
            distances,
        } => {
            let g = load_weighted(&file, &c)?;
            let (ty, why) = pick_distances(&g, &file, 2 * g.num_vertices(), distances)?;
            let mut h = Header::new(&command_line(), &file, &g);
            let out = Output::new(&c);
            macro_rules! run_apsp {
                ($d:ty, $integer:expr) => {{
                    let (hh, r) = dispatch(
                        &c,
                        ApspJob::<$d> {
                            g: &g,
                            next_hop: next_hop.is_some(),
                            _d: Default::default(),
                        },
                    )?;
                    h.extend(hh);
                    h.push("distances", format!("{ty}{why}"));
                    output::write_apsp(&out, &h, &r, next_hop.as_deref(), $integer)?;
                }};
            }
            match ty {
                DistanceType::I32 => run_apsp!(i32, true),
                DistanceType::I64 => run_apsp!(i64, true),
                DistanceType::F32 => run_apsp!(f32, false),
                DistanceType::F64 => run_apsp!(f64, false),
            }
        }
        Cmd::Spmv {
            file,
            semiring,
            ty,
            repeat,
            format,
        } => {
            let g = load(&file, &c)?;
            let key = format!("{}_{}", semiring.replace('-', "_"), ty);
            let format = format_of(&format)?;
            let mut h = Header::new(&command_line(), &file, &g);
            let out = Output::new(&c);
            macro_rules! try_one {
                ($label:ident, $s:ty) => {
                    if key == stringify!($label) {
                        let (hh, y) = dispatch(
                            &c,
                            SpmvJob::<$s> {
                                g: &g,
                                format,
                                repeat: repeat.max(1),
                                _s: Default::default(),
                            },
                        )?;
                        h.extend(hh);
                        write_vertices(&out, &h, &g, |v| Some(y[v].to_string()), |_| None)?;
                        return Ok(ExitCode::SUCCESS);
                    }
                };
            }
            semigraph_semiring::for_each_builtin!(try_one);
            return Err(CliError(format!(
                "no built-in semiring {semiring} over {ty} (e.g. plus-times f32, min-plus i32, or-and bool, min-secondi u32; max-plus has no u32)"
            )));
        }
        Cmd::Stats { file } => {
            let g = load(&file, &c)?;
            let a = g.to_pattern_csr::<semigraph_semiring::OrAnd, u32>()?;
            let st = Stats::of(&a);
            let out = Output::new(&c);
            out.write(|w| {
                if c.json {
                    let v = json!({
                        "file": file.display().to_string(),
                        "rows": st.nrows, "cols": st.ncols, "nnz": st.nnz,
                        "row_len": {"min": st.row_len_min, "max": st.row_len_max, "mean": st.row_len_mean, "stddev": st.row_len_stddev},
                        "diagonals": st.diagonals, "bandwidth": st.bandwidth,
                        "ell_fill": st.ell_fill, "dia_fill": st.dia_fill,
                        "hyb": {"width": st.hyb_width, "coo_share": st.hyb_coo_share, "ell_fill": st.hyb_ell_fill},
                        "recommended": st.recommended.name(), "reason": st.reason,
                    });
                    writeln!(w, "{}", serde_json::to_string_pretty(&v).expect("serializable"))
                } else {
                    writeln!(w, "# {}", command_line())?;
                    writeln!(w, "{st}")
                }
            })?;
        }
        Cmd::Convert { file, to } => {
            let g = load(&file, &c)?;
            let path = c
                .output
                .as_ref()
                .ok_or_else(|| CliError("convert needs --output FILE".into()))?;
            let fmt = match to.as_deref() {
                None => None,
                Some(t) => Some(
                    OutputFormat::from_path(Path::new(&format!("x.{t}"))).ok_or_else(|| {
                        CliError(format!(
                            "unknown output format {t:?} (mtx, gr, el, ldbc (v/e), gml)"
                        ))
                    })?,
                ),
            };
            save(&c, path, &g, fmt)?;
        }
        Cmd::Generate { kind, gen_args } => {
            let path = c
                .output
                .as_ref()
                .ok_or_else(|| CliError("generate needs --output FILE".into()))?;
            let g = generated(kind, &gen_args)?;
            save(&c, path, &g, None)?;
        }
        Cmd::Demo { size } => {
            return demo::run(&c, size);
        }
        Cmd::Bench {
            what:
                BenchCmd::Spmv {
                    file,
                    generate,
                    gen_args,
                    semirings,
                    formats,
                    runs,
                },
        } => {
            let (g, label) = match (file, generate) {
                (Some(f), None) => (load(&f, &c)?, f.display().to_string()),
                (None, Some(kind)) => {
                    let g = generated(kind, &gen_args)?;
                    let label = match kind {
                        GenKind::Grid => format!("grid {}x{}", gen_args.rows, gen_args.cols),
                        GenKind::Kronecker | GenKind::Urand => format!(
                            "{kind:?} scale {} edge factor {}",
                            gen_args.scale, gen_args.edge_factor
                        )
                        .to_lowercase(),
                        _ => format!("{kind:?} n={}", gen_args.n).to_lowercase(),
                    };
                    (g, label)
                }
                _ => {
                    return Err(CliError(
                        "bench spmv needs a FILE or --generate KIND (not both)".into(),
                    ));
                }
            };
            let formats = formats
                .split(',')
                .map(|f| f.trim().parse::<Format>().map_err(CliError))
                .collect::<Res<Vec<_>>>()?;
            let semirings: Vec<String> =
                semirings.split(',').map(|s| s.trim().to_string()).collect();
            bench::spmv(&c, &g, &label, &semirings, &formats, runs)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `g` to `path` (atomically) and says so.
fn save(c: &Common, path: &Path, g: &EdgeList, fmt: Option<OutputFormat>) -> Res<()> {
    write_graph(path, g, fmt).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let msg = format!(
        "wrote {} ({} vertices, {} arcs)",
        path.display(),
        g.num_vertices(),
        g.len()
    );
    note(c, &msg);
    Ok(())
}

fn note(c: &Common, msg: &str) {
    if !c.quiet {
        eprintln!("semigraph: {msg}");
    }
}

fn command_line() -> String {
    std::env::args()
        .map(|a| if a.contains(' ') { format!("{a:?}") } else { a })
        .collect::<Vec<_>>()
        .join(" ")
}

fn load(file: &Path, c: &Common) -> Res<EdgeList> {
    Ok(read_graph(
        file,
        &ReadOptions {
            undirected: c.undirected,
            quiet: c.quiet,
            ..Default::default()
        },
    )?)
}

/// [`load`], with weight 1 on every arc of a file that has no weights (so distances count
/// hops; a pattern read into min-plus would otherwise weigh its semiring `one`, 0).
fn load_weighted(file: &Path, c: &Common) -> Res<EdgeList> {
    let mut g = load(file, c)?;
    if matches!(g.weights, Weights::None) {
        g.assign_weights(WeightSpec::Unit);
    }
    Ok(g)
}

/// An algorithm error with vertex ids in the input's numbering.
fn labelled(g: &EdgeList, e: semigraph_algos::Error) -> CliError {
    match e {
        semigraph_algos::Error::NegativeCycle { cycle } => {
            let ids: Vec<String> = cycle
                .iter()
                .chain(cycle.first())
                .map(|&v| g.vertex_label(v as usize).to_string())
                .collect();
            CliError(format!(
                "negative cycle through {} vertices: {}",
                cycle.len(),
                ids.join(" -> ")
            ))
        }
        semigraph_algos::Error::NegativeWeight {
            algorithm,
            from,
            to,
            weight,
        } => CliError(format!(
            "{algorithm} needs non-negative weights; arc {} -> {} has weight {weight} (use --algo bellman-ford)",
            g.vertex_label(from),
            g.vertex_label(to)
        )),
        e => e.into(),
    }
}

fn source_of(g: &EdgeList, label: i64, file: &Path) -> Res<usize> {
    g.vertex_of_label(label).ok_or_else(|| {
        let n = g.num_vertices();
        let range = if n == 0 {
            "it has no vertices".to_string()
        } else if g.labels.is_some() {
            "see its .v file for the vertex ids".to_string()
        } else {
            format!(
                "its ids are {}..={}",
                g.vertex_label(0),
                g.vertex_label(n - 1)
            )
        };
        CliError(format!(
            "source {label} is not a vertex of {}: {range}",
            file.display()
        ))
    })
}

fn format_of(format: &str) -> Res<Option<Format>> {
    if format == "auto" {
        Ok(None)
    } else {
        format.parse::<Format>().map(Some).map_err(CliError)
    }
}

/// The distance type for shortest paths over `g` (see [`distance_type`]), and a note for the
/// output header saying how it was chosen; errors name the file, and the line or arc.
fn pick_distances(
    g: &EdgeList,
    file: &Path,
    walk_arcs: usize,
    choice: DistChoice,
) -> Res<(DistanceType, String)> {
    match distance_type(g, walk_arcs, choice.wanted()) {
        Ok(ty) => {
            let why = match choice {
                DistChoice::Auto => " (auto: the narrowest type that holds every path length)",
                _ => "",
            };
            Ok((ty, why.to_string()))
        }
        Err(DistanceTypeError::NonFinite {
            line: Some(line),
            value,
        }) => Err(CliError(format!(
            "{}:{line}: weight {value} is not a finite number; shortest paths need finite weights",
            file.display()
        ))),
        Err(DistanceTypeError::Inexact { arc, weight, ty }) => Err(CliError(format!(
            "{}: arc {} -> {} has weight {weight}, which {ty} distances cannot hold exactly \
             (use --distances auto)",
            file.display(),
            g.vertex_label(g.src[arc] as usize),
            g.vertex_label(g.dst[arc] as usize)
        ))),
        Err(e) => Err(CliError(format!("{}: {e}", file.display()))),
    }
}

fn parse_weights(s: &str) -> Res<Option<(i64, i64)>> {
    if s == "unit" {
        return Ok(None);
    }
    let bad = || {
        CliError(format!(
            "--weights {s:?}: expected LO..HI (integers, LO <= HI) or unit"
        ))
    };
    let (lo, hi) = s.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (i64, i64) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim()
            .trim_start_matches('=')
            .parse()
            .map_err(|_| bad())?,
    );
    if lo > hi {
        return Err(bad());
    }
    Ok(Some((lo, hi)))
}

/// Shortest paths with `D` distances: the header lines, each distance as text (`None` if
/// unreachable) and the predecessors.
fn run_sssp<D: Distance + semigraph_formats::WeightValue>(
    c: &Common,
    g: &EdgeList,
    source: usize,
    algo: SsspAlgo,
    delta: Option<f64>,
) -> Res<(Lines, Vec<Option<String>>, Vec<u32>)> {
    let job = SsspJob::<D> {
        g,
        source,
        algo,
        delta: delta.map(D::from_f64),
    };
    let (h, sp) = dispatch(c, job)?;
    let dist = sp
        .dist
        .iter()
        .map(|d| (*d != D::INFINITY).then(|| d.to_string()))
        .collect();
    Ok((h, dist, sp.pred))
}

/// `key: value` lines for an output header.
type Lines = Vec<(String, String)>;

/// Work that runs on whichever backend was chosen.
trait Job {
    type Out;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)>;
}

/// Opens the GPU for `--backend gpu` (an error says why not) or `auto` (`None`, with the
/// reason, when there is none: the caller falls back to the CPU and says so).
fn open_gpu(c: &Common) -> Res<std::result::Result<GpuBackend, String>> {
    match c.backend {
        BackendChoice::Cpu => Ok(Err("--backend cpu".into())),
        BackendChoice::Gpu => GpuBackend::new()
            .map(Ok)
            .map_err(|e| CliError(format!("--backend gpu: {e}"))),
        BackendChoice::Auto => Ok(GpuBackend::new().map_err(|e| e.to_string())),
    }
}

/// Runs `job` on the backend `--backend` names: `gpu` fails when no GPU can be used; `auto`
/// uses the GPU when there is one, else the CPU, and says which (and why) in the output
/// header and, unless `--quiet`, on stderr.
fn dispatch<J: Job>(c: &Common, job: J) -> Res<(Lines, J::Out)> {
    let (mut h, out, name, note) = match open_gpu(c)? {
        Ok(gpu) => {
            let spin = spinner(c, &format!("running on {}", gpu.name()));
            let r = job.run(&gpu);
            spin.finish_and_clear();
            let (h, out) = r?;
            let stats = gpu.compile_stats();
            let note = format!(
                " ({} kernels compiled in {:.2} s, {} from the disk cache in {:.3} s)",
                stats.compiled,
                stats.compile_time.as_secs_f64(),
                stats.from_disk,
                stats.disk_time.as_secs_f64()
            );
            (h, out, gpu.name(), note)
        }
        Err(why) => {
            let cpu = CpuBackend::new();
            let note = if c.backend == BackendChoice::Auto {
                if !c.quiet {
                    eprintln!("semigraph: no usable GPU ({why}); running on the CPU");
                }
                " (auto: no usable GPU)".to_string()
            } else {
                String::new()
            };
            let spin = spinner(c, &format!("running on {}", cpu.name()));
            let r = job.run(&cpu);
            spin.finish_and_clear();
            let (h, out) = r?;
            (h, out, cpu.name(), note)
        }
    };
    h.insert(0, ("backend".into(), format!("{name}{note}")));
    Ok((h, out))
}

/// A spinner with elapsed time on stderr while a long run works (only on a terminal, and not
/// with `--quiet`).
fn spinner(c: &Common, msg: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if c.quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let p = indicatif::ProgressBar::new_spinner();
    p.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .expect("valid template"),
    );
    p.set_message(msg.to_string());
    p.enable_steady_tick(Duration::from_millis(120));
    p
}

/// Arcs leaving reached vertices: the edges a traversal from the source examines.
fn reached_arcs(g: &EdgeList, reached: impl Fn(usize) -> bool) -> usize {
    g.src.iter().filter(|&&s| reached(s as usize)).count()
}

struct BfsJob<'a> {
    g: &'a EdgeList,
    source: usize,
    direction: Direction,
    format: Option<Format>,
}

impl Job for BfsJob<'_> {
    type Out = semigraph_algos::Bfs;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_pattern_csr::<BfsSemiring, u32>()?;
        let t0 = Instant::now();
        let gr = Graph::new(
            b,
            &a,
            GraphOptions {
                format: self.format,
                pull: true,
                ..Default::default()
            },
        )?;
        let upload = t0.elapsed();
        let t1 = Instant::now();
        let r = bfs(
            &gr,
            self.source,
            &BfsOptions {
                direction: self.direction,
            },
        )?;
        let time = t1.elapsed();
        let arcs = reached_arcs(self.g, |v| r.levels[v] != u32::MAX);
        let fmt = gr.pull_info().map(|i| i.format.name()).unwrap_or("csr");
        Ok((
            vec![
                ("format".into(), format!("{fmt} (pull), csr (push)")),
                (
                    "time".into(),
                    format!(
                        "build {}, bfs {} ({} push + {} pull levels), {}",
                        fmt_duration(upload),
                        fmt_duration(time),
                        r.push_steps,
                        r.pull_steps,
                        output::teps(arcs, time)
                    ),
                ),
            ],
            r,
        ))
    }
}

struct SsspJob<'a, D> {
    g: &'a EdgeList,
    source: usize,
    algo: SsspAlgo,
    delta: Option<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for SsspJob<'_, D> {
    type Out = semigraph_algos::ShortestPaths<D>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_csr::<MinPlus<D>, u32>()?;
        let t0 = Instant::now();
        let (sp, upload, time, extra) = match self.algo {
            SsspAlgo::BellmanFord => {
                let gr = Graph::new(b, &a, GraphOptions::default())?;
                let upload = t0.elapsed();
                let t1 = Instant::now();
                let sp = bellman_ford(&gr, self.source).map_err(|e| labelled(self.g, e))?;
                let time = t1.elapsed();
                let label = format!("bellman-ford, {} rounds", sp.rounds);
                (sp, upload, time, label)
            }
            SsspAlgo::DeltaStepping => {
                let gr = DeltaGraph::new(b, &a, self.delta).map_err(|e| labelled(self.g, e))?;
                let upload = t0.elapsed();
                let t1 = Instant::now();
                let sp = delta_stepping(&gr, self.source)?;
                (
                    sp,
                    upload,
                    t1.elapsed(),
                    format!("delta-stepping, delta {}", gr.delta()),
                )
            }
        };
        let arcs = reached_arcs(self.g, |v| sp.dist[v] != D::INFINITY);
        Ok((
            vec![
                ("algorithm".into(), extra),
                (
                    "time".into(),
                    format!(
                        "build {}, sssp {}, {}",
                        fmt_duration(upload),
                        fmt_duration(time),
                        output::teps(arcs, time)
                    ),
                ),
                (
                    "reached".into(),
                    format!("{} of {} vertices", sp.reached(), self.g.num_vertices()),
                ),
            ],
            sp,
        ))
    }
}

struct ApspJob<'a, D> {
    g: &'a EdgeList,
    next_hop: bool,
    _d: std::marker::PhantomData<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for ApspJob<'_, D> {
    type Out = semigraph_algos::Apsp<D>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_csr::<MinPlus<D>, u32>()?;
        let t = Instant::now();
        let r = apsp(
            b,
            &a,
            &ApspOptions {
                next_hop: self.next_hop,
            },
        )
        .map_err(|e| labelled(self.g, e))?;
        let time = t.elapsed();
        Ok((
            vec![(
                "time".into(),
                format!(
                    "apsp {} ({} squarings of a {n}x{n} matrix)",
                    fmt_duration(time),
                    r.rounds,
                    n = r.n
                ),
            )],
            r,
        ))
    }
}

struct SpmvJob<'a, S: Semiring> {
    g: &'a EdgeList,
    format: Option<Format>,
    repeat: usize,
    _s: std::marker::PhantomData<S>,
}

impl<S: Semiring> Job for SpmvJob<'_, S>
where
    S::T: semigraph_formats::WeightValue,
{
    type Out = Vec<S::T>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        // Boolean and parent semirings read the structure only (any weight means "an arc").
        let a = if S::NAME == "or_and" || S::NAME.ends_with("secondi") {
            self.g.to_pattern_csr::<S, u32>()?
        } else {
            self.g.to_csr::<S, u32>()?
        };
        let format = self.format.unwrap_or_else(|| Stats::of(&a).recommend().0);
        let t0 = Instant::now();
        let m = b.matrix(&a, format, &Default::default())?;
        let upload = t0.elapsed();
        let x = b.dense_filled::<S>(a.ncols(), 1, S::one())?;
        let mut y = b.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        b.mxm(&mut y, Mask::All, Default::default(), &m, &x)?;
        b.synchronize()?;
        let mut times = Vec::with_capacity(self.repeat);
        for _ in 0..self.repeat {
            let t = Instant::now();
            b.mxm(&mut y, Mask::All, Default::default(), &m, &x)?;
            b.synchronize()?;
            times.push(t.elapsed());
        }
        times.sort();
        let median = times[times.len() / 2];
        Ok((
            vec![
                ("semiring".into(), S::full_name()),
                ("format".into(), format.name().into()),
                (
                    "time".into(),
                    format!(
                        "build {}, spmv median {} of {} runs after a warm-up, {:.3} GFLOP/s-equivalent",
                        fmt_duration(upload),
                        fmt_duration(median),
                        self.repeat,
                        2.0 * a.nnz() as f64 / median.as_secs_f64().max(1e-12) / 1e9
                    ),
                ),
            ],
            b.read_dense(&y)?,
        ))
    }
}
