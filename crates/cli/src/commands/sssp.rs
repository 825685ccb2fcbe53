//! `semigraph sssp`: single-source shortest paths in the narrowest exact distance type, from
//! one source (distances and predecessors) or every source of a DIMACS source file.

use std::path::PathBuf;

use semigraph_algos::{DistanceType, SsspMethod};

use crate::algo_jobs::run_sssp;
use crate::args::{Choice, Common, RunOpts, auto_or, named};
use crate::checks::{distances_field, pick_distances};
use crate::error::Res;
use crate::files::{load_weighted, sources_of};
use crate::output::{Header, Output, command_line, write_summary, write_vertices};

/// Single-source shortest paths: distance and predecessor of every vertex.
#[derive(clap::Args, Clone, Debug)]
pub struct SsspArgs {
    /// The graph file.
    pub file: PathBuf,
    /// The source vertex, in the file's numbering.
    #[arg(long, short = 's', required_unless_present = "sources")]
    pub source: Option<i64>,
    /// Run from every source of a DIMACS source file (`p aux sp ss K`, `s V` lines, ids in
    /// the graph file's numbering) and print one summary line per source.
    #[arg(long, value_name = "FILE.ss", conflicts_with = "source")]
    pub sources: Option<PathBuf>,
    /// The algorithm: auto picks Bellman-Ford when a weight is negative; the fixpoint
    /// (buckets relaxed in any order, then the predecessors) for graphs of short rows with
    /// positive weights; otherwise delta-stepping on the CPU, Bellman-Ford on a GPU.
    #[arg(long, value_parser = named::<SsspMethod>(), default_value = "auto")]
    pub algo: SsspMethod,
    /// Bucket width of delta-stepping and of the fixpoint (default: automatic, see the docs).
    #[arg(long)]
    pub delta: Option<f64>,
    /// Distance type: auto (the narrowest that holds every path length exactly: i32 or
    /// i64 for integer weights, f64 for real ones), i32, i64, f32 or f64 (refused when it
    /// cannot hold the answer exactly).
    #[arg(long, value_parser = auto_or::<DistanceType>(), default_value = "auto")]
    pub distances: Choice<DistanceType>,
    #[command(flatten)]
    pub opts: RunOpts,
}

/// Runs `semigraph sssp`.
pub(crate) fn exec(c: &Common, a: SsspArgs) -> Res<()> {
    let file = &a.file;
    let g = load_weighted(file, c)?;
    let srcs = sources_of(&g, a.source, a.sources.as_deref(), file)?;
    let s = srcs[0];
    let (ty, why) = pick_distances(&g, file, g.num_vertices(), a.distances)?;
    if crate::multi::wanted(c) || crate::multi::past_offsets(c, &g) {
        return crate::multi::sssp(c, file, &g, &srcs, ty);
    }
    let (algo, delta) = (a.algo, a.delta);
    let (mut header, runs) = match ty {
        DistanceType::I32 => run_sssp::<i32>(c, file, &g, srcs, algo, delta)?,
        DistanceType::I64 => run_sssp::<i64>(c, file, &g, srcs, algo, delta)?,
        DistanceType::F32 => run_sssp::<f32>(c, file, &g, srcs, algo, delta)?,
        DistanceType::F64 => run_sssp::<f64>(c, file, &g, srcs, algo, delta)?,
    };
    header.push(distances_field(ty, &why));
    let mut h = Header::new(&command_line(), file, &g);
    h.extend(header);
    let out = Output::new(c);
    match runs.one {
        Some((dist, pred)) => write_vertices(
            &out,
            &h,
            &g,
            g.num_vertices(),
            |v| dist[v].clone(),
            |v| {
                if v == s || pred[v] == u32::MAX {
                    (v == s && dist[v].is_some()).then_some(s as u32)
                } else {
                    Some(pred[v])
                }
            },
        ),
        None => write_summary(
            &out,
            &h,
            &g,
            ["max_distance", "sum_of_distances"],
            &runs.summary,
        ),
    }
}
