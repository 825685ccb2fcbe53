//! `semigraph bfs`: breadth-first search from one source (levels and parents) or from every
//! source of a DIMACS source file (a summary line each).

use std::path::PathBuf;

use semigraph_algos::Direction;
use semigraph_formats::Format;

use crate::algo_jobs::BfsJob;
use crate::args::{Choice, Common, RunOpts, auto_or, named};
use crate::error::Res;
use crate::files::{load_pattern, sources_of};
use crate::jobs::dispatch;
use crate::output::{Header, Output, command_line, write_bfs, write_summary};

/// Breadth-first search: level and parent of every vertex.
#[derive(clap::Args, Clone, Debug)]
pub struct BfsArgs {
    /// The graph file (Matrix Market, DIMACS, PACE, edge list, adjacency, LDBC, GML; gz/xz).
    pub file: PathBuf,
    /// The source vertex, in the file's numbering.
    #[arg(long, short = 's', required_unless_present = "sources")]
    pub source: Option<i64>,
    /// Run from every source of a DIMACS source file (`p aux sp ss K`, `s V` lines, ids in
    /// the graph file's numbering) and print one summary line per source.
    #[arg(long, value_name = "FILE.ss", conflicts_with = "source")]
    pub sources: Option<PathBuf>,
    /// Push, pull, or switch automatically.
    #[arg(long, value_parser = named::<Direction>(), default_value = "auto")]
    pub direction: Direction,
    /// Format of the pull (SpMV) matrix (push steps always read CSR).
    #[arg(long, value_parser = auto_or::<Format>(), default_value = "auto")]
    pub format: Choice<Format>,
    /// Most values (padding included) ELL or DIA may store per entry.
    #[arg(long, default_value_t = 8.0)]
    pub max_fill: f64,
    #[command(flatten)]
    pub opts: RunOpts,
}

/// Runs `semigraph bfs`.
pub(crate) fn exec(c: &Common, a: BfsArgs) -> Res<()> {
    let g = load_pattern(&a.file, c)?;
    let srcs = sources_of(&g, a.source, a.sources.as_deref(), &a.file)?;
    if crate::multi::wanted(c) || crate::multi::past_offsets(c, &g) {
        return crate::multi::bfs(c, &a.file, &g, &srcs, a.direction);
    }
    let job = BfsJob {
        file: &a.file,
        g: &g,
        sources: srcs,
        direction: a.direction,
        format: a.format.0,
        max_fill: a.max_fill,
        csr: crate::jobs::Prepared::new(),
    };
    let (header, runs) = dispatch(c, job)?;
    let mut h = Header::new(&command_line(), &a.file, &g);
    h.extend(header);
    let out = Output::new(c);
    match &runs.one {
        Some(r) => write_bfs(&out, h, &g, r)?,
        None => write_summary(&out, &h, &g, ["depth", "sum_of_levels"], &runs.summary)?,
    }
    crate::process::keep_until_exit((g, runs));
    Ok(())
}
