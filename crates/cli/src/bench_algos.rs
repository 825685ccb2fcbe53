//! `semigraph bench bfs|sssp|apsp`: an algorithm on each backend, timed after a warm-up, with
//! its steps, rate and work counters, and every run checked against the CPU backend.

use std::path::Path;
use std::time::{Duration, Instant};

use semigraph_algos::{
    ApspMethod, ApspOptions, Bfs, BfsOptions, BfsSemiring, Counters, CpuBackend, DeltaGraph,
    Distance, DistanceType, Frontier, Graph, GraphOptions, ShortestPaths, apsp, bellman_ford, bfs,
    bfs_resident, delta_stepping, reachability,
};
use semigraph_formats::edgelist::{WeightSpec, Weights};
use semigraph_formats::{Csr, EdgeList};
use semigraph_gpu::GpuBackend;
use semigraph_semiring::{MinPlus, OrAnd, Semiring};
use serde_json::json;

use crate::args::{AlgoBench, Choice, Common, GenKind};
use crate::checks::pick_distances;
use crate::files::{csr_of, generated, load, load_weighted, parse_weights};
use crate::jobs::resolve_algo;
use crate::output::{Output, fmt_duration};
use crate::{CliError, Res, source_of};
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

/// Runs `run` once untimed, then `runs` times: times, the last result, the last run's counters,
/// and a check of every result.
fn measure<B: Frontier, R>(
    b: &B,
    runs: usize,
    mut run: impl FnMut() -> semigraph_algos::Result<R>,
    check: impl Fn(&R) -> Result<(), String>,
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
    let check = verdict.map_or_else(
        || format!("ok ({} runs)", runs + 1),
        |e| format!("WRONG: {e}"),
    );
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

/// `bench bfs`.
pub(crate) fn bfs_bench(c: &Common, b: &AlgoBench) -> Res<()> {
    let runs = b.runs.max(10);
    let (g, label) = graph(c, b, false)?;
    let s = source(&g, b)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let a = csr_of::<BfsSemiring>(&file, &g, true)?;
    let reference = bfs(
        &Graph::new(
            &CpuBackend::new(),
            &a,
            GraphOptions {
                pull: true,
                ..Default::default()
            },
        )?,
        s,
        &BfsOptions::default(),
    )?;
    let check = |r: &Bfs| check_bfs(&a, &reference, r);
    /// Two rows: levels and parents copied to the host, and left on the backend
    /// ([`bfs_resident`], read after the clock stops to be checked).
    fn one<B: Frontier>(
        be: &B,
        a: &Csr<BfsSemiring>,
        g: &EdgeList,
        s: usize,
        runs: usize,
        check: &dyn Fn(&Bfs) -> Result<(), String>,
    ) -> Res<Vec<Row>> {
        // Setting the graph up: an upload (host conversion, transpose, transfer of A and
        // A^T), against a pattern of the uploaded graph in another semiring (no transfer).
        let opts = GraphOptions {
            pull: true,
            ..Default::default()
        };
        let setup = |what: &str, times, counters, check| {
            let (median, min) = median_min(times);
            Row {
                backend: format!("{} [setup]", be.name()),
                what: what.into(),
                median,
                min,
                steps: 1,
                arcs: 2 * a.nnz(),
                counters,
                check,
            }
        };
        let (times, gr, counters, verdict) = measure(
            be,
            runs.min(5),
            || {
                let gr = Graph::new(be, a, opts)?;
                be.synchronize()?;
                Ok(gr)
            },
            |_| Ok(()),
        )?;
        let upload = setup(
            "Graph::new (convert, transpose, upload A and A^T)",
            times,
            counters,
            verdict,
        );
        let first = bfs(&gr, s, &BfsOptions::default())?;
        check(&first).map_err(|e| CliError(format!("BFS on the uploaded graph: {e}")))?;
        let reached: Vec<bool> = first.levels.iter().map(|&l| l != u32::MAX).collect();
        let (times, _, counters, verdict) = measure(
            be,
            runs,
            || {
                let p = gr.pattern::<OrAnd>()?;
                be.synchronize()?;
                Ok(p)
            },
            |p| match reachability(p, s) {
                Ok(r) if r == reached => Ok(()),
                Ok(_) => Err("reachability on the pattern differs from BFS".into()),
                Err(e) => Err(e.to_string()),
            },
        )?;
        let pattern = setup(
            "Graph::pattern::<OrAnd> of that graph",
            times,
            counters,
            verdict,
        );
        let row = |name: String, times, r: &Bfs, counters, check| {
            let (median, min) = median_min(times);
            Row {
                backend: name,
                what: format!("{} push + {} pull levels", r.push_steps, r.pull_steps),
                median,
                min,
                steps: r.depth as usize + 1,
                arcs: arcs_from(g, |v| r.levels[v] != u32::MAX),
                counters,
                check,
            }
        };
        let (times, r, counters, verdict) =
            measure(be, runs, || bfs(&gr, s, &BfsOptions::default()), check)?;
        let host = row(be.name(), times, &r, counters, verdict);
        let (times, r, counters, verdict) = measure(
            be,
            runs,
            || {
                let r = bfs_resident(&gr, s, &BfsOptions::default())?;
                be.synchronize()?;
                Ok(r)
            },
            |r| check(&r.read(be).map_err(|e| e.to_string())?),
        )?;
        let r = r.read(be)?;
        let resident = row(
            format!("{} [resident]", be.name()),
            times,
            &r,
            counters,
            verdict,
        );
        Ok(vec![upload, pattern, host, resident])
    }
    let rows = each_backend(
        &b.backends,
        |gpu| one(gpu, &a, &g, s, runs, &check),
        |cpu| one(cpu, &a, &g, s, runs, &check),
    )?;
    report(c, "bfs", &label, &g, s, "levels", &rows)
}

/// Levels equal to the reference, and a valid BFS tree (each parent one level up, with an arc).
fn check_bfs(a: &Csr<BfsSemiring>, want: &Bfs, got: &Bfs) -> Result<(), String> {
    if got.levels != want.levels {
        let v = (0..want.levels.len())
            .find(|&v| got.levels[v] != want.levels[v])
            .unwrap_or(0);
        return Err(format!(
            "vertex {v}: level {} (CPU {})",
            got.levels[v], want.levels[v]
        ));
    }
    for v in 0..got.levels.len() {
        let (l, p) = (got.levels[v], got.parents[v]);
        if l == u32::MAX || v == got.source {
            continue;
        }
        if p as usize >= got.levels.len()
            || got.levels[p as usize] != l - 1
            || a.get(p as usize, v).is_none()
        {
            return Err(format!(
                "vertex {v}: parent {p} is not one level up along an arc"
            ));
        }
    }
    Ok(())
}

/// `bench sssp`.
pub(crate) fn sssp_bench(
    c: &Common,
    b: &AlgoBench,
    algo: SsspMethod,
    delta: Option<f64>,
    distances: Choice<DistanceType>,
) -> Res<()> {
    let (g, label) = graph(c, b, true)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let (ty, _) = pick_distances(&g, &file, g.num_vertices(), distances)?;
    match ty {
        DistanceType::I32 => sssp_typed::<i32>(c, b, &g, &label, algo, delta),
        DistanceType::I64 => sssp_typed::<i64>(c, b, &g, &label, algo, delta),
        DistanceType::F32 => sssp_typed::<f32>(c, b, &g, &label, algo, delta),
        DistanceType::F64 => sssp_typed::<f64>(c, b, &g, &label, algo, delta),
    }
}

fn sssp_typed<D: Distance>(
    c: &Common,
    b: &AlgoBench,
    g: &EdgeList,
    label: &str,
    algo: SsspMethod,
    delta: Option<f64>,
) -> Res<()> {
    let runs = b.runs.max(10);
    let s = source(g, b)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let a = csr_of::<MinPlus<D>>(&file, g, false)?;
    let cpu = CpuBackend::new();
    let reference = bellman_ford(&Graph::new(&cpu, &a, GraphOptions::default())?, s)
        .map_err(|e| crate::labelled(g, e))?;
    let check = |r: &ShortestPaths<D>| check_sssp(&a, &reference, r);
    #[allow(clippy::too_many_arguments)]
    fn one<B: Frontier, D: Distance>(
        be: &B,
        a: &Csr<MinPlus<D>>,
        g: &EdgeList,
        s: usize,
        algo: SsspMethod,
        delta: Option<f64>,
        runs: usize,
        check: &dyn Fn(&ShortestPaths<D>) -> Result<(), String>,
    ) -> Res<Row> {
        let algo = resolve_algo(algo, be, a);
        let (times, r, counters, verdict, what) = match algo {
            SsspMethod::DeltaStepping => {
                let gd = DeltaGraph::new(be, a, delta.map(D::from_f64))
                    .map_err(|e| crate::labelled(g, e))?;
                let (t, r, c, v) = measure(be, runs, || delta_stepping(&gd, s), check)?;
                (t, r, c, v, format!("delta-stepping, delta {}", gd.delta()))
            }
            _ => {
                let gr = Graph::new(be, a, GraphOptions::default())?;
                let (t, r, c, v) = measure(be, runs, || bellman_ford(&gr, s), check)?;
                (t, r, c, v, "bellman-ford".to_string())
            }
        };
        let (median, min) = median_min(times);
        Ok(Row {
            backend: be.name(),
            what: format!("{what}, {}", std::any::type_name::<D>()),
            median,
            min,
            steps: r.rounds,
            arcs: arcs_from(g, |v| r.dist[v] != D::INFINITY),
            counters,
            check: verdict,
        })
    }
    let rows = each_backend(
        &b.backends,
        |gpu| one(gpu, &a, g, s, algo, delta, runs, &check).map(|r| vec![r]),
        |cpu| one(cpu, &a, g, s, algo, delta, runs, &check).map(|r| vec![r]),
    )?;
    report(c, "sssp", label, g, s, "rounds", &rows)
}

/// Distances equal to the reference bit for bit, and every predecessor on a tight arc.
fn check_sssp<D: Distance>(
    a: &Csr<MinPlus<D>>,
    want: &ShortestPaths<D>,
    got: &ShortestPaths<D>,
) -> Result<(), String> {
    for v in 0..want.dist.len() {
        if got.dist[v].to_bits64() != want.dist[v].to_bits64() {
            return Err(format!(
                "vertex {v}: distance {} (CPU {})",
                got.dist[v], want.dist[v]
            ));
        }
        let p = got.pred[v];
        if v == got.source || got.dist[v] == D::INFINITY {
            continue;
        }
        let w = (p != u32::MAX).then(|| a.get(p as usize, v)).flatten();
        let tight = w.is_some_and(|w| {
            MinPlus::<D>::mul(w, got.dist[p as usize]).to_bits64() == got.dist[v].to_bits64()
        });
        if !tight {
            return Err(format!(
                "vertex {v}: predecessor {p} is not on a shortest path"
            ));
        }
    }
    Ok(())
}

/// `bench apsp`: checked on sampled rows against single-source runs on the CPU.
pub(crate) fn apsp_bench(
    c: &Common,
    b: &AlgoBench,
    distances: Choice<DistanceType>,
    method: ApspMethod,
) -> Res<()> {
    let (g, label) = graph(c, b, true)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let (ty, _) = pick_distances(&g, &file, 2 * g.num_vertices(), distances)?;
    match ty {
        DistanceType::I32 => apsp_typed::<i32>(c, b, &g, &label, method),
        DistanceType::I64 => apsp_typed::<i64>(c, b, &g, &label, method),
        DistanceType::F32 => apsp_typed::<f32>(c, b, &g, &label, method),
        DistanceType::F64 => apsp_typed::<f64>(c, b, &g, &label, method),
    }
}

fn apsp_typed<D: Distance>(
    c: &Common,
    b: &AlgoBench,
    g: &EdgeList,
    label: &str,
    method: ApspMethod,
) -> Res<()> {
    let runs = b.runs.max(10);
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let a = csr_of::<MinPlus<D>>(&file, g, false)?;
    let n = a.nrows();
    let cpu = CpuBackend::new();
    let gc = Graph::new(&cpu, &a, GraphOptions::default())?;
    let samples: Vec<usize> = (0..8.min(n)).map(|k| k * n / 8.min(n).max(1)).collect();
    let rows_ref: Vec<Vec<D>> = samples
        .iter()
        .map(|&s| bellman_ford(&gc, s).map(|r| r.dist))
        .collect::<semigraph_algos::Result<_>>()
        .map_err(|e| crate::labelled(g, e))?;
    let check = |r: &semigraph_algos::Apsp<D>| {
        for (k, &s) in samples.iter().enumerate() {
            let row = &r.dist[s * n..(s + 1) * n];
            if let Some(j) = (0..n).find(|&j| row[j].to_bits64() != rows_ref[k][j].to_bits64()) {
                return Err(format!(
                    "{s} -> {j}: {} (CPU single-source {})",
                    row[j], rows_ref[k][j]
                ));
            }
        }
        Ok(())
    };
    fn one<B: Frontier, D: Distance>(
        be: &B,
        a: &Csr<MinPlus<D>>,
        runs: usize,
        method: ApspMethod,
        check: &dyn Fn(&semigraph_algos::Apsp<D>) -> Result<(), String>,
    ) -> Res<Row> {
        let opts = ApspOptions {
            method,
            ..Default::default()
        };
        let g = Graph::new(be, a, GraphOptions::default())?;
        let (times, r, counters, verdict) = measure(be, runs, || apsp(&g, &opts), check)?;
        let (median, min) = median_min(times);
        let n = a.nrows();
        Ok(Row {
            backend: be.name(),
            what: format!("{}, {}", r.method.name(), std::any::type_name::<D>()),
            median,
            min,
            steps: r.rounds,
            // (min, +) pairs: per squaring n^3, per round of sources m n (an upper bound:
            // every block runs the most rounds), reported in the rate column.
            arcs: match r.method {
                ApspMethod::Sources => a.nnz() * n * r.rounds,
                _ => n * n * n * r.rounds,
            },
            counters,
            check: verdict,
        })
    }
    let rows = each_backend(
        &b.backends,
        |gpu| one(gpu, &a, runs, method, &check).map(|r| vec![r]),
        |cpu| one(cpu, &a, runs, method, &check).map(|r| vec![r]),
    )?;
    report(c, "apsp", label, g, 0, "steps", &rows)
}

fn report(
    c: &Common,
    what: &str,
    label: &str,
    g: &EdgeList,
    s: usize,
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
                "source": g.vertex_label(s),
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
                if what == "apsp" {
                    String::new()
                } else {
                    format!(", source {}", g.vertex_label(s))
                }
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
