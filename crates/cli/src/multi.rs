//! `--gpus N` with N > 1: `bfs`, `sssp`, `pagerank`, `wcc` and `apsp` with the graph split over N GPUs
//! of this host (`semigraph_algos::dist` over `semigraph_gpu::NcclComm`), written as the
//! one-device commands write their results.

use std::path::Path;

use semigraph_algos::dist::{self, DistGraph, DistOptions};
use semigraph_algos::{
    ApspMethod, BfsOptions, BfsSemiring, Distance, DistanceType, PageRankOptions,
};
use semigraph_gpu::NcclComm;
use semigraph_semiring::MinPlus;
use serde_json::json;

use crate::args::{BackendChoice, Cmd, Common};
use crate::checks::{distances_field, pick_distances};
use crate::files::{csr_of, load, load_weighted};
use crate::kernels::{Values, write_values};
use crate::output::{Field, Header, Output, write_apsp, write_vertices};
use crate::{CliError, Res, command_line, sources_of};

/// Whether `cmd` runs here: `--gpus` above 1.
pub(crate) fn wanted(c: &Common) -> bool {
    c.gpus > 1
}

/// Runs `cmd` on `c.gpus` GPUs.
pub(crate) fn run(c: &Common, cmd: &Cmd) -> Res<()> {
    if c.backend == BackendChoice::Cpu {
        return Err(CliError("--gpus is for GPUs: drop --backend cpu".into()));
    }
    let open = || NcclComm::new(c.gpus).map_err(|e| CliError(format!("--gpus {}: {e}", c.gpus)));
    let gpus = |t: std::time::Duration| {
        Field::with(
            "gpus",
            format!("{} (NCCL), {:.3} s", c.gpus, t.as_secs_f64()),
            json!({"gpus": c.gpus, "ms": t.as_secs_f64() * 1e3}),
        )
    };
    match cmd {
        Cmd::Bfs {
            file,
            source,
            sources,
            direction,
            ..
        } => {
            let g = load(file, c)?;
            let s = one_source(&sources_of(&g, *source, sources.as_deref(), file)?)?;
            let opts = BfsOptions {
                direction: *direction,
            };
            let (r, t) = on_gpus::<BfsSemiring, _>(file, Split::Pattern(&g), PUSH, &open, |dg| {
                dist::bfs(dg, s, &opts)
            })?;
            let mut h = Header::new(&command_line(), file, &g);
            h.push(gpus(t));
            crate::write_bfs(&Output::new(c), h, &g, &r)
        }
        Cmd::Sssp {
            file,
            source,
            sources,
            distances,
            ..
        } => {
            let g = load_weighted(file, c)?;
            let s = one_source(&sources_of(&g, *source, sources.as_deref(), file)?)?;
            let (ty, _) = pick_distances(&g, file, g.num_vertices(), *distances)?;
            match ty {
                DistanceType::I32 => sssp::<i32>(c, file, &g, s, &open, &gpus),
                DistanceType::I64 => sssp::<i64>(c, file, &g, s, &open, &gpus),
                DistanceType::F32 => sssp::<f32>(c, file, &g, s, &open, &gpus),
                DistanceType::F64 => sssp::<f64>(c, file, &g, s, &open, &gpus),
            }
        }
        Cmd::Pagerank {
            file,
            iterations,
            damping,
            tolerance,
            ..
        } => {
            let opts = PageRankOptions::from_args(*iterations, *damping, *tolerance);
            kernel(c, file, kernel_blocks(true), &open, &gpus, |dg, _| {
                let r = dist::pagerank(dg, &opts)?;
                Ok((
                    format!("{} iterations", r.iterations),
                    Values::Real(r.ranks),
                ))
            })
        }
        Cmd::Wcc { file, .. } => kernel(c, file, kernel_blocks(false), &open, &gpus, |dg, g| {
            let r = dist::wcc(dg)?;
            let count = r.count();
            // Labels as the smallest vertex id of each component in the file's numbering.
            Ok((
                format!("{count} components, {} rounds", r.rounds),
                Values::Int(crate::kernels::smallest_label(g, &r.labels)),
            ))
        }),
        Cmd::Apsp {
            file,
            next_hop,
            distances,
            method,
            ..
        } => {
            if *method == ApspMethod::Sources {
                return Err(CliError(
                    "--gpus runs APSP by squaring: use --method squaring or auto".into(),
                ));
            }
            let g = load_weighted(file, c)?;
            let (ty, why) = pick_distances(&g, file, 2 * g.num_vertices(), *distances)?;
            let mut h = Header::new(&command_line(), file, &g);
            h.push(distances_field(ty, &why));
            let next = next_hop.as_deref();
            match ty {
                DistanceType::I32 => apsp::<i32>(c, file, &g, h, next, true, &open, &gpus),
                DistanceType::I64 => apsp::<i64>(c, file, &g, h, next, true, &open, &gpus),
                DistanceType::F32 => apsp::<f32>(c, file, &g, h, next, false, &open, &gpus),
                DistanceType::F64 => apsp::<f64>(c, file, &g, h, next, false, &open, &gpus),
            }
        }
        _ => Err(CliError(
            "--gpus above 1 is for bfs, sssp, pagerank, wcc and apsp".into(),
        )),
    }
}

/// The blocks of the traversals (push and pull, no out-blocks).
const PUSH: DistOptions = DistOptions {
    push: true,
    out: false,
    packed: false,
};

/// The blocks of the graph kernels (pull and out-blocks; packed columns for PageRank).
const fn kernel_blocks(packed: bool) -> DistOptions {
    DistOptions {
        push: false,
        out: true,
        packed,
    }
}

type Gpus<'a> = &'a dyn Fn(std::time::Duration) -> Field;

fn one_source(s: &[usize]) -> Res<usize> {
    match s {
        [s] => Ok(*s),
        _ => Err(CliError("--gpus runs one source at a time".into())),
    }
}

/// What a split graph is made from: a host CSR (APSP reads it), the arcs with their weights
/// (`DistGraph::from_edges`) or the arcs alone (`pattern_from_edges`); from the arcs, no CSR
/// of the whole graph is made (a file may hold more arcs than 32-bit offsets count).
pub(crate) enum Split<'g, S: semigraph_semiring::Semiring> {
    Csr(&'g semigraph_formats::Csr<S>),
    Arcs(&'g semigraph_formats::EdgeList),
    Pattern(&'g semigraph_formats::EdgeList),
}

impl<'g, S: semigraph_semiring::Semiring> Split<'g, S>
where
    S::T: semigraph_formats::WeightValue,
{
    /// The graph split over `comm`'s ranks, its blocks made as the variant says.
    pub(crate) fn split<'c>(
        &self,
        comm: &'c NcclComm,
        blocks: DistOptions,
    ) -> semigraph_algos::Result<DistGraph<'c, NcclComm, S>>
    where
        'g: 'c,
    {
        match *self {
            Split::Csr(a) => DistGraph::new(comm, a, blocks),
            Split::Arcs(g) => DistGraph::from_edges(comm, g, blocks),
            Split::Pattern(g) => DistGraph::pattern_from_edges(comm, g, blocks),
        }
    }
}

/// The graph split over the GPUs (the communicator opened, then the blocks made) and `f` run
/// on it; returns `f`'s result and the time from the split to its end (the header's `gpus`
/// field).
fn on_gpus<S: semigraph_semiring::Semiring, R>(
    file: &Path,
    from: Split<'_, S>,
    blocks: DistOptions,
    open: &dyn Fn() -> Res<NcclComm>,
    f: impl FnOnce(&DistGraph<'_, NcclComm, S>) -> semigraph_algos::Result<R>,
) -> Res<(R, std::time::Duration)>
where
    S::T: semigraph_formats::WeightValue,
{
    let comm = open()?;
    let t = std::time::Instant::now();
    let dg = from.split(&comm, blocks).map_err(|e| named(file, e))?;
    let r = f(&dg).map_err(|e| named(file, e))?;
    Ok((r, t.elapsed()))
}

fn named(file: &Path, e: semigraph_algos::Error) -> CliError {
    CliError(format!("{}: {e}", file.display()))
}

fn sssp<D: Distance>(
    c: &Common,
    file: &Path,
    g: &semigraph_formats::EdgeList,
    s: usize,
    open: &dyn Fn() -> Res<NcclComm>,
    gpus: Gpus<'_>,
) -> Res<()> {
    // Past 32-bit offsets the ranks take their arcs straight from the list.
    let a = match g.len() > u32::MAX as usize {
        true => None,
        false => Some(csr_of::<MinPlus<D>>(file, g, false)?),
    };
    let from = a.as_ref().map_or(Split::Arcs(g), Split::Csr);
    let (r, t) = on_gpus(file, from, PUSH, open, |dg| dist::bellman_ford(dg, s))?;
    let mut h = Header::new(&command_line(), file, g);
    h.push(gpus(t));
    h.push(Field::text(
        "algorithm",
        format!("bellman-ford, {} rounds", r.rounds),
    ));
    write_vertices(
        &Output::new(c),
        &h,
        g,
        g.num_vertices(),
        |v| r.distance(v).map(|d| d.to_string()),
        |v| {
            if v == s {
                r.distance(v).map(|_| s as u32)
            } else {
                r.pred.get(v).copied().filter(|&p| p != u32::MAX)
            }
        },
    )
}

/// APSP by squaring with the rows of `D` split over the GPUs, written as `apsp` writes it.
#[allow(clippy::too_many_arguments)]
fn apsp<D: Distance + semigraph_formats::io::npy::NpyElem>(
    c: &Common,
    file: &Path,
    g: &semigraph_formats::EdgeList,
    mut h: Header,
    next_hop: Option<&Path>,
    integer: bool,
    open: &dyn Fn() -> Res<NcclComm>,
    gpus: Gpus<'_>,
) -> Res<()> {
    let a = csr_of::<MinPlus<D>>(file, g, false)?;
    let blocks = DistOptions {
        push: false,
        out: false,
        packed: false,
    };
    let (r, t) = on_gpus(file, Split::Csr(&a), blocks, open, |dg| {
        dist::apsp(dg, next_hop.is_some())
    })?;
    h.push(gpus(t));
    write_apsp(&Output::new(c), &h, &r, next_hop, integer)
}

/// PageRank or WCC: the graph's pattern split over the GPUs, `f` run on it (given the file's
/// graph, for its numbering), the values written as the one-device command writes them.
fn kernel(
    c: &Common,
    file: &Path,
    blocks: DistOptions,
    open: &dyn Fn() -> Res<NcclComm>,
    gpus: Gpus<'_>,
    f: impl FnOnce(
        &DistGraph<'_, NcclComm, semigraph_semiring::OrAnd>,
        &semigraph_formats::EdgeList,
    ) -> semigraph_algos::Result<(String, Values)>,
) -> Res<()> {
    let g = load(file, c)?;
    let ((what, values), t) = on_gpus(file, Split::Pattern(&g), blocks, open, |dg| f(dg, &g))?;
    let mut h = Header::new(&command_line(), file, &g);
    h.push(gpus(t));
    h.push(Field::text("result", what));
    write_values(&Output::new(c), &h, &g, &values)
}
