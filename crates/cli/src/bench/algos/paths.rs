//! `bench sssp` and `bench apsp`.

use super::*;

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
    let reference = reference(b, || {
        bellman_ford(&Graph::new(&cpu, &a, GraphOptions::default())?, s)
            .map_err(|e| crate::error::labelled(g, e))
    })?;
    let check = against(reference.as_ref(), |r: &ShortestPaths<D>, w| {
        check_sssp(&a, w, r)
    });
    #[allow(clippy::too_many_arguments)]
    fn one<B: Frontier, D: Distance>(
        be: &B,
        a: &Csr<MinPlus<D>>,
        g: &EdgeList,
        s: usize,
        algo: SsspMethod,
        delta: Option<f64>,
        runs: usize,
        check: &dyn Fn(&ShortestPaths<D>) -> Result<(), Miss>,
    ) -> Res<Row> {
        let algo = resolve_algo(algo, be, a);
        let (times, r, counters, verdict, what) = match algo {
            SsspMethod::DeltaStepping => {
                let gd = DeltaGraph::new(be, a, delta.map(D::from_f64))
                    .map_err(|e| crate::error::labelled(g, e))?;
                let (t, r, c, v) = measure(be, runs, || delta_stepping(&gd, s), check)?;
                (t, r, c, v, format!("delta-stepping, delta {}", gd.delta()))
            }
            SsspMethod::Fixpoint => {
                let gr = Graph::new(be, a, GraphOptions::default())?;
                let run = || semigraph_algos::fixpoint_paths(&gr, s, delta.map(D::from_f64));
                let (t, r, c, v) = measure(be, runs, run, check)?;
                (t, r, c, v, "fixpoint".to_string())
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
    report(c, "sssp", label, g, Some(s), "rounds", &rows)
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
    let samples: Vec<usize> = (0..8.min(n)).map(|k| k * n / 8.min(n).max(1)).collect();
    let rows_ref = reference(b, || {
        let gc = Graph::new(&cpu, &a, GraphOptions::default())?;
        samples
            .iter()
            .map(|&s| bellman_ford(&gc, s).map(|r| r.dist))
            .collect::<semigraph_algos::Result<Vec<Vec<D>>>>()
            .map_err(|e| crate::error::labelled(g, e))
    })?;
    let check = against(
        rows_ref.as_ref(),
        |r: &semigraph_algos::Apsp<D>, rows_ref| {
            for (k, &s) in samples.iter().enumerate() {
                let row = &r.dist[s * n..(s + 1) * n];
                if let Some(j) = (0..n).find(|&j| row[j].to_bits64() != rows_ref[k][j].to_bits64())
                {
                    return Err(format!(
                        "{s} -> {j}: {} (CPU single-source {})",
                        row[j], rows_ref[k][j]
                    ));
                }
            }
            Ok(())
        },
    );
    fn one<B: Frontier, D: Distance>(
        be: &B,
        a: &Csr<MinPlus<D>>,
        runs: usize,
        method: ApspMethod,
        check: &dyn Fn(&semigraph_algos::Apsp<D>) -> Result<(), Miss>,
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
    report(c, "apsp", label, g, None, "steps", &rows)
}
