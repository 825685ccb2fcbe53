//! `bench pagerank|wcc|cdlp|lcc|tc`: a Graphalytics kernel on each backend, measured as
//! `bench bfs` (median of the runs after a warm-up, counters), every run checked against the
//! CPU backend's result (exactly for labels and triangles, within `1e-9` relative for ranks and
//! coefficients).

use semigraph_algos::{PageRankOptions, cdlp, lcc, pagerank, triangle_count, wcc};

use super::*;
use crate::kernels::GraphKernel;

/// What one run returns, and the steps it took.
#[derive(Clone, PartialEq)]
enum Out {
    Reals(Vec<f64>, usize),
    Labels(Vec<u32>, usize),
    Count(u64),
}

impl Out {
    fn steps(&self) -> usize {
        match self {
            Out::Reals(_, s) | Out::Labels(_, s) => *s,
            Out::Count(_) => 1,
        }
    }
}

/// Runs `k` once on `gr`.
fn run<B: Frontier>(gr: &Graph<'_, B, OrAnd>, k: GraphKernel) -> semigraph_algos::Result<Out> {
    Ok(match k {
        GraphKernel::PageRank(o) => {
            let pr = pagerank(gr, &o)?;
            Out::Reals(pr.ranks, pr.iterations)
        }
        GraphKernel::Wcc => {
            let c = wcc(gr)?;
            Out::Labels(c.labels, c.rounds)
        }
        GraphKernel::Cdlp(it) => Out::Labels(cdlp(gr, it)?, it),
        GraphKernel::Lcc => Out::Reals(lcc(gr)?, 1),
        GraphKernel::Tc => Out::Count(triangle_count(gr)?),
    })
}

/// `got` against the CPU's `want`.
fn check(got: &Out, want: &Out) -> Result<(), String> {
    match (got, want) {
        (Out::Reals(g, _), Out::Reals(w, _)) => {
            match (0..w.len()).find(|&v| (g[v] - w[v]).abs() > 1e-9 * w[v].abs()) {
                Some(v) => Err(format!("vertex {v}: {} (CPU {})", g[v], w[v])),
                None => Ok(()),
            }
        }
        (Out::Labels(g, _), Out::Labels(w, _)) => match (0..w.len()).find(|&v| g[v] != w[v]) {
            Some(v) => Err(format!("vertex {v}: label {} (CPU {})", g[v], w[v])),
            None => Ok(()),
        },
        (Out::Count(g), Out::Count(w)) if g == w => Ok(()),
        (Out::Count(g), Out::Count(w)) => Err(format!("{g} triangles (CPU {w})")),
        _ => Err("a different kind of result".into()),
    }
}

/// `bench pagerank|wcc|cdlp|lcc|tc`.
pub(crate) fn kernel_bench(c: &Common, b: &AlgoBench, k: GraphKernel) -> Res<()> {
    let runs = b.runs.max(10);
    let (g, label) = graph(c, b, false)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let a = csr_of::<OrAnd>(&file, &g, true)?;
    // A^T built with the graph (untimed, as `bench bfs`): PageRank pulls along it, the others
    // read the undirected graph A + A^T from it.
    let opts = GraphOptions {
        pull: true,
        ..Default::default()
    };
    let reference = reference(b, || {
        Ok(run(&Graph::new(&CpuBackend::new(), &a, opts)?, k)?)
    })?;
    let what = match k {
        GraphKernel::PageRank(o) => format!("{} iterations, damping {}", o.iterations, o.damping),
        GraphKernel::Wcc => "FastSV".into(),
        GraphKernel::Cdlp(it) => format!("{it} iterations"),
        GraphKernel::Lcc => "S*W_L^T masked by S".into(),
        GraphKernel::Tc => "L*L^T masked by L".into(),
    };
    let rows = each_backend(
        &b.backends,
        |gpu| rows_of(gpu, &a, &g, k, opts, runs, reference.as_ref(), &what),
        |cpu| rows_of(cpu, &a, &g, k, opts, runs, reference.as_ref(), &what),
    )?;
    let steps = match k {
        GraphKernel::Wcc => "rounds",
        GraphKernel::Lcc | GraphKernel::Tc => "products",
        _ => "iterations",
    };
    report(c, k.name(), &label, &g, None, steps, &rows)
}

/// One backend's row: the graph uploaded once, then the kernel timed.
#[allow(clippy::too_many_arguments)]
fn rows_of<B: Frontier>(
    be: &B,
    a: &Csr<OrAnd>,
    g: &EdgeList,
    k: GraphKernel,
    opts: GraphOptions,
    runs: usize,
    reference: Option<&Out>,
    what: &str,
) -> Res<Vec<Row>> {
    let gr = Graph::new(be, a, opts)?;
    let (times, out, counters, verdict) =
        measure(be, runs, || run(&gr, k), against(reference, check))?;
    let (median, min) = median_min(times);
    Ok(vec![Row {
        backend: be.name(),
        what: what.into(),
        median,
        min,
        steps: out.steps(),
        arcs: g.len() * out.steps(),
        counters,
        check: verdict,
    }])
}

/// The options of `bench pagerank`: LDBC's form, fixed iterations.
pub(crate) fn pagerank_options(iterations: usize, damping: f64) -> PageRankOptions {
    PageRankOptions {
        damping,
        iterations,
        tolerance: None,
    }
}
