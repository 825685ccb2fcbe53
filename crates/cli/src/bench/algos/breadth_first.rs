//! `bench bfs`.

use super::*;

/// `bench bfs`.
pub(crate) fn bfs_bench(c: &Common, b: &AlgoBench) -> Res<()> {
    let runs = b.runs.max(10);
    let (g, label) = graph(c, b, false)?;
    let s = source(&g, b)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let a = csr_of::<BfsSemiring>(&file, &g, true)?;
    // The CPU's level steps (push only): not the one-call levels that the CPU backend's
    // default takes on graphs of short rows, so that its runs are checked by other code.
    let reference = reference(b, || {
        let opts = GraphOptions {
            pull: true,
            ..Default::default()
        };
        let push = BfsOptions {
            direction: Direction::Push,
        };
        Ok(bfs(&Graph::new(&CpuBackend::new(), &a, opts)?, s, &push)?)
    })?;
    let check = against(reference.as_ref(), |r: &Bfs, w| check_bfs(&a, w, r));
    /// Two rows: levels and parents copied to the host, and left on the backend
    /// ([`bfs_resident`], read after the clock stops to be checked).
    fn one<B: Frontier>(
        be: &B,
        a: &Csr<BfsSemiring>,
        g: &EdgeList,
        s: usize,
        runs: usize,
        check: &dyn Fn(&Bfs) -> Result<(), Miss>,
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
        // The same graph from the arcs (a GPU sorts them on the device), its host CSR
        // checked against the host's build; dropped before the upload is timed.
        let from_arcs = if g.nrows == g.ncols {
            let (times, built, counters, verdict) = measure(
                be,
                setup_runs(a.nnz(), runs),
                || {
                    let gr = Graph::<B, BfsSemiring>::from_arcs(
                        be, g.nrows, &g.src, &g.dst, None, opts,
                    )?;
                    be.synchronize()?;
                    Ok(gr)
                },
                |gr| match gr.csr() == a {
                    true => Ok(()),
                    false => Err(Miss::Wrong("the CSR differs from the host's build".into())),
                },
            )?;
            drop(built);
            Some(setup(
                "Graph::from_arcs (the arcs to CSR on the backend, A^T)",
                times,
                counters,
                verdict,
            ))
        } else {
            None
        };
        let (times, gr, counters, verdict) = measure(
            be,
            setup_runs(a.nnz(), runs),
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
        if let Err(Miss::Wrong(e)) = check(&first) {
            return Err(CliError(format!("BFS on the uploaded graph: {e}")));
        }
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
                Ok(_) => Err(Miss::Wrong(
                    "reachability on the pattern differs from BFS".into(),
                )),
                Err(e) => Err(Miss::Wrong(e.to_string())),
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
        let mut rows = vec![upload];
        rows.extend(from_arcs);
        rows.extend([pattern, host, resident]);
        Ok(rows)
    }
    let rows = each_backend(
        &b.backends,
        |gpu| one(gpu, &a, &g, s, runs, &check),
        |cpu| one(cpu, &a, &g, s, runs, &check),
    )?;
    report(c, "bfs", &label, &g, Some(s), "levels", &rows)
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
