//! The commands, in the shape of cargo's: each non-algorithm command is a file holding its
//! arguments and an `exec`; every algorithm of the registry is a command through
//! [`algorithm`] (BFS and SSSP keep commands of their own, with more options).

pub(crate) mod algorithm;
pub(crate) mod algorithms;
pub(crate) mod apsp;
pub(crate) mod bfs;
pub(crate) mod convert;
pub(crate) mod demo;
pub(crate) mod generate;
pub(crate) mod spgemm;
pub(crate) mod spmv;
pub(crate) mod sssp;
pub(crate) mod stats;

use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::args::{BenchCmd, Common};
use crate::error::{CliError, Res};
use crate::files;

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
    Bfs(bfs::BfsArgs),
    /// Single-source shortest paths: distance and predecessor of every vertex.
    Sssp(sssp::SsspArgs),
    /// All-pairs shortest paths, written as a Matrix Market matrix of distances.
    Apsp(apsp::ApspArgs),
    #[command(flatten)]
    Algorithm(algorithm::AlgoCmd),
    /// Lists the algorithms (`--markdown`: the algorithm reference).
    Algorithms(algorithms::AlgorithmsArgs),
    /// y = A x with x all `one`, in any built-in semiring and type; reports the median time.
    Spmv(spmv::SpmvArgs),
    /// The product C = A (+).(x) B of two sparse matrices, under an optional mask (`SpGEMM`),
    /// in any built-in semiring, written in Matrix Market.
    Spgemm(spgemm::SpgemmArgs),
    /// Structure statistics and the recommended format.
    Stats(stats::StatsArgs),
    /// Converts a graph file to another file format (by the --output name or --to).
    Convert(convert::ConvertArgs),
    /// Generates a graph and writes it (format from the --output name).
    Generate(generate::GenerateArgs),
    /// Benchmarks: SpMV per format, BFS/SSSP/APSP, the registry's algorithms, semiring GEMM
    /// and the format study, on the GPU and (but GEMM) the CPU backend.
    Bench {
        #[command(subcommand)]
        what: BenchCmd,
    },
    /// Generates a road-like grid and a Kronecker graph, runs BFS, both SSSP algorithms and
    /// APSP, checks every result against an independent oracle and prints a table.
    Demo(demo::DemoArgs),
}

impl Cmd {
    /// The command's name when it runs on a backend chosen by `--backend`: its GPU can be
    /// opened while the input is read, and the kernels its earlier runs used loaded meanwhile
    /// (the name tags their profile).
    pub fn backend_command(&self) -> Option<&'static str> {
        Some(match self {
            Cmd::Bfs(_) => "bfs",
            Cmd::Sssp(_) => "sssp",
            Cmd::Apsp(_) => "apsp",
            Cmd::Spmv(_) => "spmv",
            Cmd::Spgemm(_) => "spgemm",
            Cmd::Algorithm(a) => a.info.command,
            _ => return None,
        })
    }

    /// Whether the command has a form over several GPUs (`--gpus N`).
    fn distributed(&self) -> bool {
        match self {
            Cmd::Bfs(_) | Cmd::Sssp(_) | Cmd::Apsp(_) => true,
            Cmd::Algorithm(a) => a.info.distributed,
            _ => false,
        }
    }

    /// The run's options, from the subcommand's own.
    pub fn common(&self) -> Common {
        match self {
            Cmd::Bfs(a) => a.opts.common(),
            Cmd::Sssp(a) => a.opts.common(),
            Cmd::Apsp(a) => a.opts.common(),
            Cmd::Algorithm(a) => a.opts.common(),
            Cmd::Spmv(a) => a.opts.common(),
            Cmd::Spgemm(a) => a.opts.common(),
            Cmd::Stats(a) => a.opts.common(),
            Cmd::Convert(a) => Common::with(None, Some(&a.input), &a.write, None),
            Cmd::Generate(a) => Common::with(None, None, &a.write, None),
            Cmd::Algorithms(a) => Common::with(None, None, &a.write, None),
            Cmd::Demo(a) => Common::with(Some(&a.backend), None, &a.write, Some(&a.json)),
            Cmd::Bench { what } => what.common(),
        }
    }

    /// The input graph file the command reads, and a second file it writes besides
    /// `--output` (APSP's `--next-hop`).
    fn files(&self) -> (Option<&Path>, Option<&Path>) {
        match self {
            Cmd::Bfs(a) => (Some(&a.file), None),
            Cmd::Sssp(a) => (Some(&a.file), None),
            Cmd::Apsp(a) => (Some(&a.file), a.next_hop.as_deref()),
            Cmd::Algorithm(a) => (Some(&a.file), None),
            Cmd::Spmv(a) => (Some(&a.file), None),
            Cmd::Spgemm(a) => (Some(&a.a), None),
            Cmd::Stats(a) => (Some(&a.file), None),
            Cmd::Convert(a) => (Some(&a.file), None),
            Cmd::Bench {
                what: BenchCmd::Spmv { file, .. } | BenchCmd::Spgemm { file, .. },
            } => (file.as_deref(), None),
            _ => (None, None),
        }
    }
}

/// Runs the command line's command.
pub(crate) fn exec(cli: Cli) -> Res<ExitCode> {
    let c = cli.cmd.common();
    guard_outputs(&c, &cli.cmd)?;
    if crate::multi::wanted(&c) {
        // Each distributed command opens its GPUs itself (NCCL).
        crate::multi::refuse(&c, cli.cmd.distributed())?;
    } else if let Some(command) = cli.cmd.backend_command() {
        crate::opening::open_gpu_early(&c, command);
    }
    match cli.cmd {
        Cmd::Bfs(a) => bfs::exec(&c, a)?,
        Cmd::Sssp(a) => sssp::exec(&c, a)?,
        Cmd::Apsp(a) => apsp::exec(&c, a)?,
        Cmd::Algorithm(a) => algorithm::exec(&c, &a)?,
        Cmd::Spmv(a) => spmv::exec(&c, a)?,
        Cmd::Spgemm(a) => spgemm::exec(&c, a)?,
        Cmd::Stats(a) => stats::exec(&c, a)?,
        Cmd::Convert(a) => convert::exec(&c, a)?,
        Cmd::Generate(a) => generate::exec(&c, a)?,
        Cmd::Algorithms(a) => algorithms::exec(&c, a)?,
        Cmd::Demo(a) => return demo::exec(&c, a.size),
        Cmd::Bench { what } => crate::bench::run(&c, what)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses outputs that would overwrite the command's input graph.
fn guard_outputs(c: &Common, cmd: &Cmd) -> Res<()> {
    let (input, extra) = cmd.files();
    if let (Some(o), Some(x)) = (c.output.as_deref(), extra) {
        for a in files::graph_files(o) {
            if files::graph_files(x)
                .iter()
                .any(|b| files::same_target(&a, b))
            {
                return Err(CliError(format!(
                    "--output {} and --next-hop {} name the same file: one would overwrite the other",
                    o.display(),
                    x.display()
                )));
            }
        }
    }
    let Some(input) = input else { return Ok(()) };
    let inputs = files::graph_files(input);
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    for out in c.output.iter().map(|p| p.as_path()).chain(extra) {
        for o in files::graph_files(out) {
            files::refuse_overwriting_input(&o, &inputs)?;
        }
    }
    Ok(())
}
