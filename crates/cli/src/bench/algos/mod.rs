//! `semigraph bench bfs|sssp|apsp`: an algorithm on each backend, timed after a warm-up, with
//! its steps, rate and work counters, and every run checked against the CPU backend.

use std::path::Path;
use std::time::{Duration, Instant};

use semigraph_algos::{
    ApspMethod, ApspOptions, Bfs, BfsOptions, BfsSemiring, Counters, CpuBackend, DeltaGraph,
    Direction, Distance, DistanceType, Frontier, Graph, GraphOptions, ShortestPaths, apsp,
    bellman_ford, bfs, bfs_resident, delta_stepping, reachability,
};
use semigraph_formats::edgelist::{WeightSpec, Weights};
use semigraph_formats::{Csr, EdgeList};
use semigraph_gpu::GpuBackend;
use semigraph_semiring::{MinPlus, OrAnd, Semiring};
use serde_json::json;

use crate::args::{AlgoBench, Choice, Common, GenKind};
use crate::checks::pick_distances;
use crate::error::{CliError, Res};
use crate::files::source_of;
use crate::files::{csr_of, generated, load, load_weighted, parse_weights};
use crate::jobs::resolve_algo;
use crate::output::{Output, fmt_duration};
use semigraph_algos::SsspMethod;

/// One backend's measurements.
struct Row {
    backend: String,
    what: String,
    median: Duration,
    min: Duration,
    steps: usize,
    arcs: usize,
    counters: Counters,
    check: String,
}

/// The benchmark graph and its label: a file, or a generated graph.
fn graph(c: &Common, b: &AlgoBench, weighted: bool) -> Res<(EdgeList, String)> {
    match (&b.file, b.generate) {
        (Some(f), None) => {
            let g = match (&b.assign_weights, weighted) {
                (Some(spec), true) => {
                    let mut g = load(f, c)?;
                    if !matches!(g.weights, Weights::None) {
                        return Err(CliError(format!(
                            "{}: --assign-weights is for files without weights, and this one has them",
                            f.display()
                        )));
                    }
                    let (lo, hi) = parse_weights(spec)
                        .map_err(|e| CliError(e.0.replace("--weights", "--assign-weights")))?
                        .unwrap_or((1, 1));
                    g.assign_weights(WeightSpec::Uniform {
                        lo,
                        hi,
                        seed: b.gen_args.seed,
                    });
                    g
                }
                (_, true) => load_weighted(f, c)?,
                (_, false) => load(f, c)?,
            };
            Ok((g, f.display().to_string()))
        }
        (None, Some(_)) if b.assign_weights.is_some() => Err(CliError(
            "--assign-weights is for files; generated graphs take --weights LO..HI".into(),
        )),
        (None, Some(kind)) => {
            let g = generated(kind, &b.gen_args)?;
            let a = &b.gen_args;
            let label = match kind {
                GenKind::Grid => format!("grid {}x{}", a.rows, a.cols),
                GenKind::Kronecker | GenKind::Urand => format!(
                    "{} scale {} edge factor {}",
                    format!("{kind:?}").to_lowercase(),
                    a.scale,
                    a.edge_factor
                ),
                _ => format!("{} n={}", format!("{kind:?}").to_lowercase(), a.n),
            };
            Ok((g, label))
        }
        _ => Err(CliError("give a FILE or --generate KIND (not both)".into())),
    }
}

/// The source: `--source` in the file's numbering, else vertex 0 of a file, else the vertex
/// with the most arcs of a generated graph (in the giant component of a Kronecker graph).
fn source(g: &EdgeList, b: &AlgoBench) -> Res<usize> {
    match b.source {
        Some(s) => source_of(g, s, b.file.as_deref().unwrap_or(Path::new("(generated)"))),
        None if b.generate.is_some() => {
            let mut deg = vec![0u32; g.num_vertices()];
            for &s in &g.src {
                deg[s as usize] += 1;
            }
            Ok((0..deg.len())
                .max_by_key(|&v| (deg[v], std::cmp::Reverse(v)))
                .unwrap_or(0))
        }
        None => Ok(0),
    }
}

fn median_min(mut t: Vec<Duration>) -> (Duration, Duration) {
    t.sort();
    (t[t.len() / 2], t[0])
}

/// Why a run's result is not reported `ok`.
enum Miss {
    /// It differs from the CPU backend's (why).
    Wrong(String),
    /// There is nothing to check it against (`--no-check`).
    Unchecked,
}

impl From<String> for Miss {
    fn from(e: String) -> Miss {
        Miss::Wrong(e)
    }
}

/// The CPU backend's result that every run is checked against, made by `make`; none with
/// `--no-check` (for graphs too large to check on the CPU in reasonable time).
fn reference<T>(b: &AlgoBench, make: impl FnOnce() -> Res<T>) -> Res<Option<T>> {
    if b.no_check {
        Ok(None)
    } else {
        make().map(Some)
    }
}

/// A check of each result by `check(got, want)` against `want`, or [`Miss::Unchecked`]
/// without one.
fn against<'w, R, W>(
    want: Option<&'w W>,
    check: impl Fn(&R, &W) -> Result<(), String> + 'w,
) -> impl Fn(&R) -> Result<(), Miss> + 'w {
    move |got| match want {
        Some(w) => check(got, w).map_err(Miss::Wrong),
        None => Err(Miss::Unchecked),
    }
}

/// Timed runs of a setup row (a `Graph::new`): 5, or one on graphs of [`SETUP_ONCE_ARCS`] or
/// more, where each costs seconds.
fn setup_runs(arcs: usize, runs: usize) -> usize {
    if arcs >= SETUP_ONCE_ARCS {
        1
    } else {
        runs.min(5)
    }
}

/// Graphs with at least this many arcs (Kronecker 22) time their setup once.
const SETUP_ONCE_ARCS: usize = 1 << 26;

/// Runs `run` once untimed, then `runs` times: times, the last result, the last run's counters,
/// and a check of every result.
fn measure<B: Frontier, R>(
    b: &B,
    runs: usize,
    mut run: impl FnMut() -> semigraph_algos::Result<R>,
    check: impl Fn(&R) -> Result<(), Miss>,
) -> Res<(Vec<Duration>, R, Counters, String)> {
    let mut last = run()?;
    let mut times = Vec::with_capacity(runs);
    let mut counters = Counters::default();
    let mut verdict = check(&last).err();
    for _ in 0..runs {
        let c0 = b.counters();
        let t = Instant::now();
        last = run()?;
        times.push(t.elapsed());
        counters = b.counters() - c0;
        if verdict.is_none() {
            verdict = check(&last).err();
        }
    }
    let check = match verdict {
        None => format!("ok ({} runs)", runs + 1),
        Some(Miss::Unchecked) => format!("unchecked ({} runs, --no-check)", runs + 1),
        Some(Miss::Wrong(e)) => format!("WRONG: {e}"),
    };
    Ok((times, last, counters, check))
}

/// Arcs leaving vertices that `reached` accepts.
fn arcs_from(g: &EdgeList, reached: impl Fn(usize) -> bool) -> usize {
    g.src.iter().filter(|&&s| reached(s as usize)).count()
}

/// The backends of `--backends`, each run through `f`; a GPU that cannot be opened gives a
/// row that says why.
fn each_backend(
    list: &str,
    mut f_gpu: impl FnMut(&GpuBackend) -> Res<Vec<Row>>,
    mut f_cpu: impl FnMut(&CpuBackend) -> Res<Vec<Row>>,
) -> Res<Vec<Row>> {
    let mut rows = Vec::new();
    for name in list.split(',').map(str::trim) {
        match name {
            "gpu" => match GpuBackend::new() {
                Ok(g) => rows.extend(f_gpu(&g)?),
                Err(e) => rows.push(Row {
                    backend: "gpu".into(),
                    what: String::new(),
                    median: Duration::ZERO,
                    min: Duration::ZERO,
                    steps: 0,
                    arcs: 0,
                    counters: Counters::default(),
                    check: format!("not run: {e}"),
                }),
            },
            "cpu" => rows.extend(f_cpu(&CpuBackend::new())?),
            other => {
                return Err(CliError(format!(
                    "unknown backend {other:?} in --backends (gpu, cpu)"
                )));
            }
        }
    }
    Ok(rows)
}

mod breadth_first;
pub(crate) mod multi;
mod paths;
mod registered;

pub(crate) use breadth_first::bfs_bench;
pub(crate) use paths::{apsp_bench, sssp_bench};
pub(crate) use registered::algorithm_bench;

fn report(
    c: &Common,
    what: &str,
    label: &str,
    g: &EdgeList,
    s: Option<usize>,
    steps: &str,
    rows: &[Row],
) -> Res<()> {
    let out = Output::new(c);
    let rate_name = if what == "apsp" { "Gpairs/s" } else { "MTEPS" };
    out.write(|w| {
        if c.json {
            let v = json!({
                "bench": what,
                "graph": label,
                "vertices": g.num_vertices(),
                "arcs": g.len(),
                "source": s.map(|s| g.vertex_label(s)),
                "rows": rows.iter().map(|r| json!({
                    "backend": r.backend,
                    "algorithm": r.what,
                    "median_ms": r.median.as_secs_f64() * 1e3,
                    "min_ms": r.min.as_secs_f64() * 1e3,
                    steps: r.steps,
                    "us_per_step": r.median.as_secs_f64() * 1e6 / r.steps.max(1) as f64,
                    "edges": r.arcs,
                    "rate": rate(r, what),
                    "launches": r.counters.launches,
                    "syncs": r.counters.syncs,
                    "allocations": r.counters.allocations,
                    "check": r.check,
                })).collect::<Vec<_>>(),
            });
            writeln!(w, "{v}")
        } else {
            writeln!(
                w,
                "# bench {what}: {label} ({} vertices, {} arcs){}",
                g.num_vertices(),
                g.len(),
                s.map_or(String::new(), |s| format!(", source {}", g.vertex_label(s)))
            )?;
            writeln!(
                w,
                "{:<34} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}  check / algorithm",
                "backend",
                "median",
                "min",
                steps,
                "us/step",
                rate_name,
                "launches",
                "syncs",
                "allocs"
            )?;
            for r in rows {
                writeln!(
                    w,
                    "{:<34} {:>10} {:>10} {:>9} {:>9.2} {:>9.1} {:>9} {:>7} {:>7}  {} / {}",
                    r.backend,
                    fmt_duration(r.median),
                    fmt_duration(r.min),
                    r.steps,
                    r.median.as_secs_f64() * 1e6 / r.steps.max(1) as f64,
                    rate(r, what),
                    r.counters.launches,
                    r.counters.syncs,
                    r.counters.allocations,
                    r.check,
                    r.what
                )?;
            }
            Ok(())
        }
    })
}

/// Millions of edges traversed per second (BFS, SSSP), or billions of (min, +) pairs per
/// second (APSP).
fn rate(r: &Row, what: &str) -> f64 {
    let secs = r.median.as_secs_f64().max(1e-12);
    if what == "apsp" {
        r.arcs as f64 / secs / 1e9
    } else {
        r.arcs as f64 / secs / 1e6
    }
}
