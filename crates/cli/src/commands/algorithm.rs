//! Every algorithm of the registry (`semigraph_algos::registry`) as a command:
//! `semigraph NAME FILE --arg VALUE ...`, its arguments, help and output from the algorithm's
//! entry, run on the backend `--backend` chooses and written as text or JSON (`-o`).
//!
//! The commands written by hand ([`HAND_WRITTEN`]: BFS and SSSP, with multi-source runs, a
//! push/pull choice and distance types) are left to their own modules.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Arg, ArgMatches, Args as _, Command, FromArgMatches};
use semigraph_algos::algorithms;
use semigraph_algos::registry::{self, Args, Base, GraphViews, Info, Kind, Reads};
use semigraph_algos::{Frontier, GraphOptions};
use semigraph_formats::EdgeList;
use semigraph_semiring::OrAnd;
use serde_json::json;

use crate::args::{Common, RunOpts, given_in, reads_of, with_params};
use crate::checks::plan_with;
use crate::columns::{fact_field, write_output};
use crate::error::{CliError, Res};
use crate::files::{load_pattern, load_weighted, source_of};
use crate::jobs::{
    Built, Job, Lines, Prepared, arcs_for_the_device, builds_from_arcs, job_graph, ms,
};
use crate::output::{Field, Header, Output, command_line, fmt_duration};

/// Registry algorithms whose commands are written by hand.
pub(crate) const HAND_WRITTEN: &[&str] = &["bfs", "sssp"];

/// The registry's algorithms that are commands.
fn commands() -> impl Iterator<Item = &'static Info> {
    algorithms::infos()
        .iter()
        .filter(|i| !HAND_WRITTEN.contains(&i.name))
}

/// A registry algorithm's command line: its file, its arguments as given, the run's options.
#[derive(Clone, Debug)]
pub struct AlgoCmd {
    /// The algorithm.
    pub info: &'static Info,
    /// The graph file.
    pub file: PathBuf,
    /// Each argument's value as given (`None`: its default).
    pub given: Vec<(&'static str, Option<String>)>,
    /// Backend, input and output options.
    pub opts: RunOpts,
}

/// The clap command of one algorithm.
fn command_of(info: &'static Info) -> Command {
    let cmd = Command::new(info.command).arg(
        Arg::new("file")
            .required(true)
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help("The graph file"),
    );
    // The options' group sets the command's text: the algorithm's is set after it.
    RunOpts::augment_args(with_params(cmd, info, false)).about(info.summary)
}

impl FromArgMatches for AlgoCmd {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let missing = || clap::Error::new(clap::error::ErrorKind::MissingSubcommand);
        let (name, sub) = m.subcommand().ok_or_else(missing)?;
        let info = commands().find(|i| i.command == name).ok_or_else(missing)?;
        let given = given_in(info, sub, false);
        Ok(AlgoCmd {
            info,
            file: sub
                .get_one::<PathBuf>("file")
                .cloned()
                .ok_or_else(missing)?,
            given,
            opts: RunOpts::from_arg_matches(sub)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Subcommand for AlgoCmd {
    fn augment_subcommands(mut cmd: Command) -> Command {
        for info in commands() {
            cmd = cmd.subcommand(command_of(info));
        }
        cmd
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        Self::augment_subcommands(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        commands().any(|i| i.command == name)
    }
}

impl AlgoCmd {
    /// The arguments, vertices given in the file's numbering turned into indices.
    pub(crate) fn args(&self, g: &EdgeList) -> Res<Args> {
        let mut given = Vec::with_capacity(self.given.len());
        for (p, (_, text)) in self.info.params.iter().zip(&self.given) {
            let text = match (p.kind, text) {
                (Kind::Vertex, Some(t)) => {
                    let label: i64 = t
                        .parse()
                        .map_err(|_| CliError(format!("--{}: {t}", p.name)))?;
                    Some(source_of(g, label, &self.file)?.to_string())
                }
                (Kind::Pairs, Some(path)) => Some(pairs_of(g, Path::new(path), &self.file)?),
                (Kind::Labels, Some(path)) => Some(labels_of(g, Path::new(path), &self.file)?),
                (_, t) => t.clone(),
            };
            given.push(text);
        }
        let mut given = given.into_iter();
        Ok(Args::parse(self.info.params, g.num_vertices(), |_| {
            given.next().flatten()
        })?)
    }
}

/// The pairs of vertices in `path` (lines `u v` in the ids of `file`; `#` and `%` lines are
/// comments) as [`Kind::Pairs`] text of vertex indices.
fn pairs_of(g: &EdgeList, path: &Path, file: &Path) -> Res<String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("--pairs {}: {e}", path.display())))?;
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let mut words = line.split_ascii_whitespace();
        let (Some(u), Some(v)) = (words.next(), words.next()) else {
            return Err(CliError(format!(
                "{} line {}: expected two vertex ids, found {line:?}",
                path.display(),
                i + 1
            )));
        };
        for (w, sep) in [(u, ' '), (v, '\n')] {
            let label: i64 = w.parse().map_err(|_| {
                CliError(format!(
                    "{} line {}: {w:?} is not a vertex id",
                    path.display(),
                    i + 1
                ))
            })?;
            let v = source_of(g, label, file)
                .map_err(|e| CliError(format!("{} line {}: {}", path.display(), i + 1, e.0)))?;
            out.push_str(&v.to_string());
            out.push(sep);
        }
    }
    Ok(out)
}

/// The labels in `path` (lines `id label` in the ids of `file`, every vertex once; `#` and `%`
/// lines are comments) as [`Kind::Labels`] text: a label per vertex, in vertex order.
fn labels_of(g: &EdgeList, path: &Path, file: &Path) -> Res<String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("--partition {}: {e}", path.display())))?;
    let n = g.num_vertices();
    let mut labels: Vec<Option<i64>> = vec![None; n];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let at = |why: String| CliError(format!("{} line {}: {why}", path.display(), i + 1));
        let mut words = line.split_ascii_whitespace();
        let (Some(id), Some(label)) = (words.next(), words.next()) else {
            return Err(at(format!(
                "expected a vertex id and a label, found {line:?}"
            )));
        };
        let id: i64 = id
            .parse()
            .map_err(|_| at(format!("{id:?} is not a vertex id")))?;
        let label: i64 = label
            .parse()
            .map_err(|_| at(format!("{label:?} is not an integer label")))?;
        let v = source_of(g, id, file).map_err(|e| at(e.0))?;
        if labels[v].replace(label).is_some() {
            return Err(at(format!("vertex {id} is labelled twice")));
        }
    }
    if let Some(v) = labels.iter().position(Option::is_none) {
        return Err(CliError(format!(
            "{}: vertex {} has no label (every vertex needs one)",
            path.display(),
            g.vertex_label(v)
        )));
    }
    let words: Vec<String> = labels.iter().map(|l| l.unwrap_or(0).to_string()).collect();
    Ok(words.join(" "))
}

/// Runs `semigraph NAME FILE ...` and writes its result.
pub(crate) fn exec(c: &Common, cmd: &AlgoCmd) -> Res<()> {
    let file = &cmd.file;
    let reads = reads_of(cmd.info, &cmd.given);
    let g = match reads {
        Reads::Structure => load_pattern(file, c)?,
        _ => load_weighted(file, c)?,
    };
    let args = cmd.args(&g)?;
    if cmd.info.distributed && (crate::multi::wanted(c) || crate::multi::past_offsets(c, &g)) {
        return crate::multi::algorithm(c, file, cmd.info, &args, &g);
    }
    let (header, out) = crate::jobs::dispatch(
        c,
        AlgoJob {
            file,
            g: &g,
            info: cmd.info,
            reads,
            args,
            csr: Prepared::new(),
        },
    )?;
    let mut h = Header::new(&command_line(), file, &g);
    h.extend(header);
    write_output(&Output::new(c), &h, &g, &out.columns)?;
    crate::process::keep_until_exit((g, out));
    Ok(())
}

/// One registry algorithm on a graph file, on whichever backend [`crate::jobs::dispatch`]
/// chose.
struct AlgoJob<'a> {
    file: &'a Path,
    g: &'a EdgeList,
    info: &'static Info,
    /// What this call reads (the entry's form, resolved by the arguments).
    reads: Reads,
    args: Args,
    /// The pattern of `g` (algorithms that read the structure), once prepared.
    csr: Prepared<OrAnd>,
}

impl Job for AlgoJob<'_> {
    type Out = registry::Output;

    fn file(&self) -> &Path {
        self.file
    }

    fn prepare(&mut self, gpu: bool) -> Res<()> {
        // A GPU builds the CSR from unsorted arcs itself (`Graph::from_arcs`); weights are
        // converted when the graph is built.
        if self.reads != Reads::Structure || arcs_for_the_device(gpu, self.g) {
            return Ok(());
        }
        self.csr.build(self.file, self.g)
    }

    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, registry::Output)> {
        let structure = self.reads == Reads::Structure;
        // What reads the structure reads A^T too (pulls, or the undirected graph).
        let opts = GraphOptions {
            pull: structure,
            ..Default::default()
        };
        let (n, nnz) = (self.g.num_vertices(), self.g.len());
        let work = algorithms::host_bytes(
            self.info.name,
            b.kind(),
            n,
            nnz,
            rayon::current_num_threads(),
        );
        let (value_bytes, built) = match structure {
            true => (
                size_of::<f64>(),
                self.csr.is_built() || builds_from_arcs(b, self.g, Some(&self.csr)),
            ),
            false => (
                size_of::<f64>(),
                builds_from_arcs::<B, OrAnd>(b, self.g, None),
            ),
        };
        plan_with(b, self.g, value_bytes, (opts.pull, false), built, work)?;
        let (views, build) = views(b, self.file, self.g, self.reads, Some(self.csr), opts)?;
        let g = self.g;
        let views = views.with_ids(move |v| g.vertex_label(v));
        let t = Instant::now();
        let out = algorithms::run(self.info.name, &views, &self.args)
            .expect("a command of the registry")
            .map_err(|e| crate::error::labelled(self.g, e))?;
        let run = t.elapsed();
        crate::process::keep_until_exit(views);
        let mut lines: Lines = out.facts.iter().map(fact_field).collect();
        lines.push(Field::with(
            "time",
            format!(
                "build {}, {} {}",
                fmt_duration(build),
                self.info.command,
                fmt_duration(run)
            ),
            json!({"build_ms": ms(build), "run_ms": ms(run)}),
        ));
        Ok((lines, out))
    }
}

/// The graph of `g` on `b` in the form `reads` names, and its build's time.
fn views<'b, B: Frontier>(
    b: &'b B,
    file: &Path,
    g: &EdgeList,
    reads: Reads,
    csr: Option<Prepared<OrAnd>>,
    opts: GraphOptions,
) -> Res<(GraphViews<'b, B>, std::time::Duration)> {
    Ok(match reads {
        Reads::Structure => {
            let Built { graph, build, .. } = job_graph(b, file, g, csr, true, opts)?;
            (GraphViews::new(Base::Structure(graph)), build)
        }
        Reads::Distances => {
            let Built { graph, build, .. } = job_graph(b, file, g, None, false, opts)?;
            (GraphViews::new(Base::Distances(graph)), build)
        }
        Reads::Capacities => {
            let Built { graph, build, .. } = job_graph(b, file, g, None, false, opts)?;
            (GraphViews::new(Base::Capacities(graph)), build)
        }
        Reads::StructureOrDistances(_) => unreachable!("resolved by reads_of"),
    })
}
