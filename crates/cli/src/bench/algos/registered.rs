//! `bench NAME` for every algorithm of the registry: the algorithm on each backend, measured
//! as `bench bfs` (median of the runs after a warm-up, counters), every run checked against
//! the CPU backend's result (reals within `1e-9` relative, the rest exactly).

use semigraph_algos::algorithms;
use semigraph_algos::registry::{self, Args, Base, GraphViews, Info, Kind, Reads};
use semigraph_semiring::{MaxMin, MinPlus};

use super::*;

/// The graph on the host in the form the algorithm reads.
enum Host {
    Structure(Csr<OrAnd>),
    Distances(Csr<MinPlus<f64>>),
    Capacities(Csr<MaxMin<f64>>),
}

impl Host {
    /// The graph on `b` (`A^T` built with it when the structure is read: pulls, or the
    /// undirected graph; untimed, as `bench bfs`).
    fn views<'b, B: Frontier>(&'b self, b: &'b B) -> semigraph_algos::Result<GraphViews<'b, B>> {
        let pull = GraphOptions {
            pull: true,
            ..Default::default()
        };
        Ok(GraphViews::new(match self {
            Host::Structure(a) => Base::Structure(Graph::new(b, a, pull)?),
            Host::Distances(a) => Base::Distances(Graph::new(b, a, GraphOptions::default())?),
            Host::Capacities(a) => Base::Capacities(Graph::new(b, a, GraphOptions::default())?),
        }))
    }
}

/// `bench NAME`.
pub(crate) fn algorithm_bench(c: &Common, a: &crate::args::BenchAlgo) -> Res<()> {
    let (info, b) = (a.info, &a.bench);
    let runs = b.runs.max(10);
    let reads = crate::args::reads_of(info, &a.given);
    let (g, label) = graph(c, b, reads != Reads::Structure)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    let source = match info.params.iter().any(|p| p.kind == Kind::Vertex) {
        true => Some(source(&g, b)?),
        false => None,
    };
    let mut given = a.given.iter();
    let mut vertices = 0;
    let last = g.num_vertices().saturating_sub(1);
    let args = Args::parse(info.params, g.num_vertices(), |p| {
        let text = given.next().and_then(|(_, t)| t.clone());
        match p.kind {
            // The benchmark's source; a second required vertex (a flow's sink) the last
            // vertex (the first if the source is the last); an optional one (a path's
            // target) left out.
            Kind::Vertex if !p.optional => {
                vertices += 1;
                match (vertices, source) {
                    (1, s) => s.map(|s| s.to_string()),
                    (_, Some(s)) if s == last => Some("0".into()),
                    _ => Some(last.to_string()),
                }
            }
            Kind::Vertex => None,
            // A partition: each vertex its own label (the same work as any other).
            Kind::Labels => Some(
                (0..g.num_vertices())
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => text,
        }
    })?;
    let host = match reads {
        Reads::Structure => Host::Structure(csr_of::<OrAnd>(&file, &g, true)?),
        Reads::Capacities => Host::Capacities(csr_of(&file, &g, false)?),
        _ => Host::Distances(csr_of(&file, &g, false)?),
    };
    let run = |views: &GraphViews<'_, _>| {
        algorithms::run(info.name, views, &args).expect("an algorithm of the registry")
    };
    let reference = reference(b, || Ok(run(&host.views(&CpuBackend::new())?)?))?;
    let what = method(info, &args);
    let rows = each_backend(
        &b.backends,
        |gpu| rows_of(gpu, &host, &g, info, &args, runs, reference.as_ref(), &what),
        |cpu| rows_of(cpu, &host, &g, info, &args, runs, reference.as_ref(), &what),
    )?;
    report(c, info.command, &label, &g, source, info.steps, &rows)
}

/// The row's description: the method and the arguments that are not vertices.
fn method(info: &Info, args: &Args) -> String {
    let shown: Vec<String> = info
        .params
        .iter()
        .filter(|p| p.kind != Kind::Vertex)
        .filter_map(|p| match args.get(p.name) {
            registry::Value::Absent => None,
            registry::Value::Int(i) => Some(format!("{} {i}", p.name)),
            registry::Value::Real(x) => Some(format!("{} {x}", p.name)),
            registry::Value::Word(w) => Some(format!("{} {w}", p.name)),
            registry::Value::Flag(b) => Some(format!("{} {b}", p.name)),
            registry::Value::Pairs(x) => Some(format!("{} {}", p.name, x.len())),
            registry::Value::Labels(_) => Some(format!("{} singletons", p.name)),
        })
        .collect();
    match shown.is_empty() {
        true => info.method.to_string(),
        false => format!("{}, {}", info.method, shown.join(", ")),
    }
}

/// One backend's row: the graph uploaded once, then the algorithm timed.
#[allow(clippy::too_many_arguments)]
fn rows_of<B: Frontier>(
    be: &B,
    host: &Host,
    g: &EdgeList,
    info: &Info,
    args: &Args,
    runs: usize,
    reference: Option<&registry::Output>,
    what: &str,
) -> Res<Vec<Row>> {
    let views = host.views(be)?;
    let check = |got: &registry::Output, want: &registry::Output| match got.difference(want) {
        Some(d) => Err(d),
        None => Ok(()),
    };
    let (times, out, counters, verdict) = measure(
        be,
        runs,
        || algorithms::run(info.name, &views, args).expect("an algorithm of the registry"),
        against(reference, check),
    )?;
    let (median, min) = median_min(times);
    Ok(vec![Row {
        backend: be.name(),
        what: what.into(),
        median,
        min,
        steps: out.steps,
        arcs: g.len() * out.steps,
        counters,
        check: verdict,
    }])
}
