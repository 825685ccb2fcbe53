//! The options subcommands take (each flattens the groups it uses), and [`Common`], the run's
//! options whichever subcommand gave them.

use std::path::PathBuf;

use clap::Args;

use super::BackendChoice;

/// The options of a run, whichever subcommand they came from (those a subcommand does not
/// take keep their defaults).
#[derive(Clone, Debug, Default)]
pub struct Common {
    /// Where to compute.
    pub backend: BackendChoice,
    /// GPUs to split the graph over (1: one device, the usual path).
    pub gpus: usize,
    /// Read every edge of an edge list as two arcs.
    pub undirected: bool,
    /// The input's format, where its name does not tell (`None`: from the name).
    pub input_format: Option<semigraph_formats::io::InputFormat>,
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
    /// Split the graph over this many GPUs of this host (NCCL; bfs, sssp, pagerank, wcc, apsp):
    /// each GPU holds a block of the vertices' arcs. 1: one device.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub gpus: u32,
}

/// `--undirected`.
#[derive(Args, Clone, Debug)]
pub struct InputOpt {
    /// Read every edge of an edge list as two arcs (formats that declare symmetry, such as
    /// symmetric Matrix Market, PACE and undirected GML, apply it themselves).
    #[arg(long)]
    pub undirected: bool,
    /// The input's format when its name does not tell it (a file without an extension, or
    /// `-` for standard input): mtx, gr (DIMACS or PACE), el (edge list), adj, gml. LDBC
    /// needs its two named files.
    #[arg(long, value_name = "FORMAT", value_parser = parse_input_format)]
    pub input_format: Option<semigraph_formats::io::InputFormat>,
}

fn parse_input_format(s: &str) -> Result<semigraph_formats::io::InputFormat, String> {
    s.parse()
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
    pub(crate) fn with(
        backend: Option<&BackendOpt>,
        input: Option<&InputOpt>,
        write: &WriteOpt,
        json: Option<&JsonOpt>,
    ) -> Common {
        Common {
            backend: backend.map_or(BackendChoice::Auto, |b| b.backend),
            gpus: backend.map_or(1, |b| b.gpus as usize),
            undirected: input.is_some_and(|i| i.undirected),
            input_format: input.and_then(|i| i.input_format),
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
