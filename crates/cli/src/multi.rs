//! Distributed runs of `bfs`, `sssp`, `pagerank`, `wcc` and `apsp` (`semigraph_algos::dist`
//! over `semigraph_gpu::GpuComm`), written as the one-device commands write their results:
//! `--gpus N` with N > 1 splits the graph over N GPUs of this host (NCCL), and a graph of more
//! arcs than one CSR's 32-bit row offsets count (2^32 - 1) runs on one GPU as blocks below
//! that limit ([`past_offsets`]).

use std::path::Path;

use semigraph_algos::algorithms;
use semigraph_algos::dist::{self, Communicator, DistGraph, DistOptions};
use semigraph_algos::registry::{Args, Column, Info, Values};
use semigraph_algos::{
    BfsOptions, BfsSemiring, Direction, Distance, DistanceType, PageRankOptions,
};
use semigraph_formats::EdgeList;
use semigraph_gpu::{GpuComm, NcclComm, SharedComm};
use semigraph_semiring::MinPlus;
use serde_json::json;

use crate::args::{BackendChoice, Common};
use crate::columns::write_output;
use crate::error::{CliError, Res};
use crate::files::csr_of;
use crate::output::command_line;
use crate::output::{Field, Header, Output, write_apsp, write_vertices};

/// Whether `cmd` runs here from the start: `--gpus` above 1.
pub(crate) fn wanted(c: &Common) -> bool {
    c.gpus > 1
}

/// Whether a one-GPU command's graph `g` runs here once read: more arcs than one CSR's 32-bit
/// row offsets count, on a GPU (`--backend` not `cpu`). The graph is then split into the
/// fewest blocks below that limit ([`dist::blocks_for`]), all on one GPU.
pub(crate) fn past_offsets(c: &Common, g: &EdgeList) -> bool {
    c.gpus <= 1 && c.backend != BackendChoice::Cpu && g.len() > u32::MAX as usize
}

/// Refuses `--gpus` above 1 where it does not apply: with `--backend cpu`, or for a command
/// (`distributed`: whether it has a distributed form).
pub(crate) fn refuse(c: &Common, distributed: bool) -> Res<()> {
    if c.backend == BackendChoice::Cpu {
        return Err(CliError("--gpus is for GPUs: drop --backend cpu".into()));
    }
    if !distributed {
        return Err(CliError(format!(
            "--gpus above 1 is for {} and apsp",
            algorithms::infos()
                .iter()
                .filter(|i| i.distributed)
                .map(|i| i.command)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// A registry algorithm with a distributed form, over the ranks: the graph split, the
/// algorithm's distributed run, the result written as the one-device command writes it.
pub(crate) fn algorithm(
    c: &Common,
    file: &Path,
    info: &Info,
    args: &Args,
    g: &EdgeList,
) -> Res<()> {
    match info.name {
        "pagerank" => {
            let opts = PageRankOptions::of(args);
            pagerank(c, file, g, &opts)
        }
        "wcc" => wcc(c, file, g),
        other => Err(CliError(format!(
            "{other} has no distributed form in this command line yet"
        ))),
    }
}

/// The ranks for `g`: `c.gpus` GPUs through NCCL, or (one GPU) the fewest blocks of 32-bit
/// row offsets on the GPU the command opened.
fn ranks(c: &Common, file: &Path, g: &EdgeList) -> Res<GpuComm> {
    if c.gpus > 1 {
        return NcclComm::new(c.gpus)
            .map(GpuComm::from)
            .map_err(|e| CliError(format!("--gpus {}: {e}", c.gpus)));
    }
    let gpu = crate::opening::open_gpu(c)?.gpu.map_err(|why| {
        CliError(format!(
            "{}: {} arcs take a GPU (more than one CSR's 32-bit row offsets count on the \
             CPU): {why}",
            file.display(),
            g.len()
        ))
    })?;
    blocks_on(gpu, file, g)
}

/// `g` as the fewest blocks of 32-bit row offsets ([`dist::blocks_for`]), all ranks on `gpu`.
pub(crate) fn blocks_on(gpu: semigraph_gpu::GpuBackend, file: &Path, g: &EdgeList) -> Res<GpuComm> {
    let k = dist::blocks_for(g).map_err(|e| named(file, e))?;
    SharedComm::new(gpu, k)
        .map(GpuComm::from)
        .map_err(|e| CliError(e.to_string()))
}

/// The header's line of the ranks and of the time from the split to the end.
fn ranks_field(comm: &GpuComm, t: std::time::Duration) -> Field {
    Field::with(
        "gpus",
        format!("{}, {:.3} s", comm.describe(), t.as_secs_f64()),
        json!({"gpus": match comm { GpuComm::Nccl(n) => n.ranks(), GpuComm::Shared(_) => 1 },
            "ranks": comm.ranks(), "ms": t.as_secs_f64() * 1e3}),
    )
}

/// BFS from one source of `s` over the ranks, written as `bfs` writes it.
pub(crate) fn bfs(
    c: &Common,
    file: &Path,
    g: &EdgeList,
    s: &[usize],
    direction: Direction,
) -> Res<()> {
    let s = one_source(s)?;
    let opts = BfsOptions { direction };
    let (r, field) = on_ranks::<BfsSemiring, _>(c, (file, g), Split::Pattern(g), PUSH, |dg| {
        dist::bfs(dg, s, &opts)
    })?;
    let mut h = Header::new(&command_line(), file, g);
    h.push(field);
    crate::output::write_bfs(&Output::new(c), h, g, &r)
}

/// Bellman-Ford from one source of `s` in `ty` distances over the ranks, written as `sssp`
/// writes it.
pub(crate) fn sssp(
    c: &Common,
    file: &Path,
    g: &EdgeList,
    s: &[usize],
    ty: DistanceType,
) -> Res<()> {
    let s = one_source(s)?;
    match ty {
        DistanceType::I32 => sssp_in::<i32>(c, file, g, s),
        DistanceType::I64 => sssp_in::<i64>(c, file, g, s),
        DistanceType::F32 => sssp_in::<f32>(c, file, g, s),
        DistanceType::F64 => sssp_in::<f64>(c, file, g, s),
    }
}

/// PageRank over the ranks, written as `pagerank` writes it.
pub(crate) fn pagerank(c: &Common, file: &Path, g: &EdgeList, opts: &PageRankOptions) -> Res<()> {
    kernel(c, file, g, kernel_blocks(true), |dg, _| {
        let r = dist::pagerank(dg, opts)?;
        Ok((
            format!("{} iterations", r.iterations),
            Column {
                name: "ranks",
                values: Values::Real(r.ranks),
            },
        ))
    })
}

/// WCC over the ranks, written as `wcc` writes it.
pub(crate) fn wcc(c: &Common, file: &Path, g: &EdgeList) -> Res<()> {
    kernel(c, file, g, kernel_blocks(false), |dg, _| {
        let r = dist::wcc(dg)?;
        let count = r.count();
        Ok((
            format!("{count} components, {} rounds", r.rounds),
            Column {
                name: "labels",
                values: Values::Class(r.labels),
            },
        ))
    })
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

fn one_source(s: &[usize]) -> Res<usize> {
    match s {
        [s] => Ok(*s),
        _ => Err(CliError(
            "a graph split over GPUs (--gpus), or into blocks on one GPU (past 2^32 - 1 arcs), \
             runs one source at a time"
                .into(),
        )),
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
    pub(crate) fn split<'c, C: Communicator>(
        &self,
        comm: &'c C,
        blocks: DistOptions,
    ) -> semigraph_algos::Result<DistGraph<'c, C, S>>
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

/// The ranks for `g` opened ([`ranks`]), the graph split over them as `from` says and `f` run
/// on it; returns `f`'s result and the header's `gpus` field (the ranks, and the time from
/// the split to the end).
fn on_ranks<S: semigraph_semiring::Semiring, R>(
    c: &Common,
    (file, g): (&Path, &EdgeList),
    from: Split<'_, S>,
    blocks: DistOptions,
    f: impl FnOnce(&DistGraph<'_, GpuComm, S>) -> semigraph_algos::Result<R>,
) -> Res<(R, Field)>
where
    S::T: semigraph_formats::WeightValue,
{
    let comm = ranks(c, file, g)?;
    let t = std::time::Instant::now();
    let dg = from.split(&comm, blocks).map_err(|e| named(file, e))?;
    let r = f(&dg).map_err(|e| named(file, e))?;
    Ok((r, ranks_field(&comm, t.elapsed())))
}

fn named(file: &Path, e: semigraph_algos::Error) -> CliError {
    CliError(format!("{}: {e}", file.display()))
}

fn sssp_in<D: Distance>(c: &Common, file: &Path, g: &EdgeList, s: usize) -> Res<()> {
    // Past 32-bit offsets the ranks take their arcs straight from the list.
    let a = match g.len() > u32::MAX as usize {
        true => None,
        false => Some(csr_of::<MinPlus<D>>(file, g, false)?),
    };
    let from = a.as_ref().map_or(Split::Arcs(g), Split::Csr);
    let (r, field) = on_ranks(c, (file, g), from, PUSH, |dg| dist::bellman_ford(dg, s))?;
    let mut h = Header::new(&command_line(), file, g);
    h.push(field);
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
pub(crate) fn apsp<D: Distance + semigraph_formats::io::npy::NpyElem>(
    c: &Common,
    file: &Path,
    g: &EdgeList,
    mut h: Header,
    next_hop: Option<&Path>,
    integer: bool,
) -> Res<()> {
    let a = csr_of::<MinPlus<D>>(file, g, false)?;
    let blocks = DistOptions {
        push: false,
        out: false,
        packed: false,
    };
    let (r, field) = on_ranks(c, (file, g), Split::Csr(&a), blocks, |dg| {
        dist::apsp(dg, next_hop.is_some())
    })?;
    h.push(field);
    write_apsp(&Output::new(c), &h, &r, next_hop, integer)
}

/// PageRank or WCC: the graph's pattern split over the ranks, `f` run on it (given the file's
/// graph, for its numbering), the values written as the one-device command writes them.
fn kernel(
    c: &Common,
    file: &Path,
    g: &EdgeList,
    blocks: DistOptions,
    f: impl FnOnce(
        &DistGraph<'_, GpuComm, semigraph_semiring::OrAnd>,
        &EdgeList,
    ) -> semigraph_algos::Result<(String, Column)>,
) -> Res<()> {
    let ((what, values), field) = on_ranks(c, (file, g), Split::Pattern(g), blocks, |dg| f(dg, g))?;
    let mut h = Header::new(&command_line(), file, g);
    h.push(field);
    h.push(Field::text("result", what));
    write_output(&Output::new(c), &h, g, &[values])
}
