//! The jobs `dispatch` runs on the chosen backend: BFS, SSSP, APSP and SpMV (the graph
//! kernels' job is in `kernels.rs`).

use std::time::{Duration, Instant};

use semigraph_algos::{
    ApspOptions, BfsOptions, BfsSemiring, DeltaGraph, Direction, Distance, Frontier, Graph,
    GraphOptions, Mask, apsp, bellman_ford, bfs, delta_stepping,
};
use semigraph_formats::{ConvertOptions, EdgeList, Format, Stats, Weight};
use semigraph_semiring::{MinPlus, Semiring};

use serde_json::json;

use crate::checks::{exact_product, plan};
use crate::error::labelled;
use crate::error::{CliError, Res};
use crate::files::csr_of;
use crate::output::{self, Field, fmt_duration};
use semigraph_algos::SsspMethod;

use crate::args::Common;
use crate::jobs::{
    Built, Job, Lines, Prepared, Runs, arcs_for_the_device, builds_from_arcs, dispatch, fill_hint,
    job_graph, ms, mteps, reached_arcs,
};

pub(crate) struct BfsJob<'a> {
    pub(crate) file: &'a std::path::Path,
    pub(crate) g: &'a EdgeList,
    pub(crate) sources: Vec<usize>,
    pub(crate) direction: Direction,
    pub(crate) format: Option<Format>,
    pub(crate) max_fill: f64,
    /// The pattern of `g`, once [`Job::prepare`] built it.
    pub(crate) csr: Prepared<BfsSemiring>,
}

impl Job for BfsJob<'_> {
    type Out = Runs<semigraph_algos::Bfs>;
    fn file(&self) -> &std::path::Path {
        self.file
    }
    fn prepare(&mut self, gpu: bool) -> Res<()> {
        // A GPU builds the CSR from unsorted arcs itself (`Graph::from_arcs`).
        if arcs_for_the_device(gpu, self.g) {
            return Ok(());
        }
        self.csr.build(self.file, self.g)
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Self::Out)> {
        plan(
            b,
            self.g,
            size_of::<<BfsSemiring as Semiring>::T>(),
            (true, true),
            self.csr.is_built() || builds_from_arcs(b, self.g, Some(&self.csr)),
        )?;
        let opts = GraphOptions {
            format: self.format,
            pull: true,
            convert: ConvertOptions {
                max_fill: self.max_fill,
                ..Default::default()
            },
        };
        let Built {
            graph: gr,
            csr,
            build: upload,
        } = job_graph(b, self.file, self.g, Some(self.csr), true, opts)?;
        let mut runs = Runs::new();
        let (mut time, mut arcs, mut push, mut pull) = (Duration::ZERO, 0, 0, 0);
        for &s in &self.sources {
            let t1 = Instant::now();
            let r = bfs(
                &gr,
                s,
                &BfsOptions {
                    direction: self.direction,
                },
            )?;
            time += t1.elapsed();
            arcs += reached_arcs(self.g, |v| r.levels[v] != u32::MAX);
            push += r.push_steps;
            pull += r.pull_steps;
            if self.sources.len() == 1 {
                runs.one = Some(r);
            } else {
                let sum: u64 = r
                    .levels
                    .iter()
                    .filter(|&&l| l != u32::MAX)
                    .map(|&l| l as u64)
                    .sum();
                runs.summary
                    .push((s, r.reached, r.depth.to_string(), sum.to_string()));
            }
        }
        let fmt = gr.pull_info().map(|i| i.format.name()).unwrap_or("csr");
        crate::process::keep_until_exit(gr);
        Ok((
            vec![
                Field::with(
                    "format",
                    format!("{fmt} (pull), csr (push)"),
                    json!({"pull": fmt, "push": "csr"}),
                ),
                Field::with(
                    "time",
                    format!(
                        "csr {}, build {}, bfs {} ({} source{}, {push} push + {pull} pull levels), {}",
                        csr.map_or("on the device".into(), fmt_duration),
                        fmt_duration(upload),
                        fmt_duration(time),
                        self.sources.len(),
                        if self.sources.len() == 1 { "" } else { "s" },
                        output::teps(arcs, time)
                    ),
                    json!({"csr_ms": csr.map(ms), "build_ms": ms(upload), "bfs_ms": ms(time),
                        "sources": self.sources.len(), "push_levels": push,
                        "pull_levels": pull, "mteps": mteps(arcs, time)}),
                ),
            ],
            runs,
        ))
    }
}

pub(crate) struct SsspJob<'a, D> {
    pub(crate) file: &'a std::path::Path,
    pub(crate) g: &'a EdgeList,
    pub(crate) sources: Vec<usize>,
    pub(crate) algo: SsspMethod,
    pub(crate) delta: Option<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for SsspJob<'_, D> {
    type Out = Runs<semigraph_algos::ShortestPaths<D>>;
    fn file(&self) -> &std::path::Path {
        self.file
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Self::Out)> {
        plan(
            b,
            self.g,
            size_of::<D>(),
            (false, true),
            builds_from_arcs::<B, MinPlus<D>>(b, self.g, None),
        )?;
        let from =
            job_graph::<B, MinPlus<D>>(b, self.file, self.g, None, false, GraphOptions::default())?;
        let t0 = Instant::now();
        enum Run<'b, B: Frontier, D: Distance> {
            Bf(Graph<'b, B, MinPlus<D>>),
            Fixpoint(Graph<'b, B, MinPlus<D>>),
            Delta(DeltaGraph<'b, B, D>),
        }
        let (gr, csr, built_time) = (from.graph, from.csr, from.build);
        let algo = match self.algo {
            SsspMethod::Auto => semigraph_algos::sssp_choice_of(&gr),
            other => other,
        };
        let built = match algo {
            SsspMethod::BellmanFord | SsspMethod::Auto => Run::Bf(gr),
            SsspMethod::Fixpoint => Run::Fixpoint(gr),
            SsspMethod::DeltaStepping => {
                Run::Delta(DeltaGraph::from_graph(gr, self.delta).map_err(|e| labelled(self.g, e))?)
            }
        };
        let upload = t0.elapsed() + built_time;
        let (mut time, mut arcs, mut rounds) = (Duration::ZERO, 0, 0);
        let mut runs = Runs::new();
        for &s in &self.sources {
            let t1 = Instant::now();
            let sp = match &built {
                Run::Bf(gr) => bellman_ford(gr, s),
                Run::Fixpoint(gr) => semigraph_algos::fixpoint_paths(gr, s, self.delta),
                Run::Delta(gr) => delta_stepping(gr, s),
            }
            .map_err(|e| labelled(self.g, e))?;
            time += t1.elapsed();
            rounds += sp.rounds;
            arcs += reached_arcs(self.g, |v| sp.dist[v] != D::INFINITY);
            if self.sources.len() == 1 {
                runs.one = Some(sp);
            } else {
                let reached: Vec<D> = sp
                    .dist
                    .iter()
                    .copied()
                    .filter(|d| *d != D::INFINITY)
                    .collect();
                let max = reached.iter().copied().fold(None, |m: Option<D>, d| {
                    Some(m.map_or(d, |m| if d > m { d } else { m }))
                });
                // Integer sums exactly (i128), real sums in f64.
                let sum = if D::INTEGER {
                    let exact = |d: &D| match d.to_weight() {
                        Weight::Int(x) => x as i128,
                        Weight::UInt(x) => x as i128,
                        Weight::Real(x) => x as i128,
                    };
                    reached.iter().map(exact).sum::<i128>().to_string()
                } else {
                    let sum = reached.iter().map(|d| d.to_f64()).sum::<f64>();
                    semigraph_formats::real_text(sum, sum)
                };
                let max = max.map_or("-".to_string(), |m| m.text());
                runs.summary.push((s, reached.len(), max, sum));
            }
        }
        let algorithm = match &built {
            Run::Bf(_) => Field::with(
                "algorithm",
                format!("bellman-ford, {rounds} rounds"),
                json!({"name": "bellman-ford", "rounds": rounds}),
            ),
            Run::Fixpoint(_) => Field::with(
                "algorithm",
                format!("fixpoint, {rounds} rounds"),
                json!({"name": "fixpoint", "rounds": rounds}),
            ),
            Run::Delta(gr) => Field::with(
                "algorithm",
                format!("delta-stepping, delta {}, {rounds} rounds", gr.delta()),
                json!({"name": "delta-stepping", "delta": gr.delta().to_f64(), "rounds": rounds}),
            ),
        };
        let mut lines = vec![
            algorithm,
            Field::with(
                "time",
                format!(
                    "csr {}, build {}, sssp {} ({} source{}), {}",
                    csr.map_or("on the device".into(), fmt_duration),
                    fmt_duration(upload),
                    fmt_duration(time),
                    self.sources.len(),
                    if self.sources.len() == 1 { "" } else { "s" },
                    output::teps(arcs, time)
                ),
                json!({"csr_ms": csr.map(ms), "build_ms": ms(upload), "sssp_ms": ms(time),
                    "sources": self.sources.len(), "mteps": mteps(arcs, time)}),
            ),
        ];
        if let Some(sp) = &runs.one {
            lines.push(Field::with(
                "reached",
                format!("{} of {} vertices", sp.reached(), self.g.num_vertices()),
                json!({"vertices": sp.reached(), "of": self.g.num_vertices()}),
            ));
        }
        Ok((lines, runs))
    }
}

pub(crate) struct ApspJob<'a, D> {
    pub(crate) file: &'a std::path::Path,
    pub(crate) g: &'a EdgeList,
    pub(crate) next_hop: bool,
    pub(crate) method: semigraph_algos::ApspMethod,
    pub(crate) _d: std::marker::PhantomData<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for ApspJob<'_, D> {
    type Out = semigraph_algos::Apsp<D>;
    fn file(&self) -> &std::path::Path {
        self.file
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Self::Out)> {
        // APSP checks its n x n results itself, before it starts.
        plan(b, self.g, size_of::<D>(), (false, false), false)?;
        let a = csr_of::<MinPlus<D>>(self.file, self.g, false)?;
        let g = Graph::new(b, &a, GraphOptions::default())?;
        let t = Instant::now();
        let r = apsp(
            &g,
            &ApspOptions {
                next_hop: self.next_hop,
                method: self.method,
            },
        )
        .map_err(|e| labelled(self.g, e))?;
        let time = t.elapsed();
        let how = match r.method {
            semigraph_algos::ApspMethod::Sources => format!(
                "{} relaxation rounds at most, blocks of sources over a {n}x{n} matrix",
                r.rounds,
                n = r.n
            ),
            _ => format!("{} squarings of a {n}x{n} matrix", r.rounds, n = r.n),
        };
        let (why, method) = if self.method == semigraph_algos::ApspMethod::Auto {
            // The estimate apsp chose by (O(m)), for the header.
            let (sq, so) = semigraph_algos::apsp_costs(&a);
            let discount = semigraph_algos::apsp_squaring_discount(b.kind());
            (
                format!(
                    "chosen by estimate: squaring {sq:.2e}, sources {so:.2e} operations; a \
                     squaring operation counts 1/{discount} of a sources one on this backend"
                ),
                json!({"name": r.method.name(), "chosen_by": "estimate",
                    "squaring_operations": sq, "sources_operations": so,
                    "squaring_discount": discount}),
            )
        } else {
            (
                "asked for".to_string(),
                json!({"name": r.method.name(), "chosen_by": "asked for"}),
            )
        };
        Ok((
            vec![
                Field::with("method", format!("{} ({why})", r.method.name()), method),
                Field::with(
                    "time",
                    format!("apsp {} ({how})", fmt_duration(time)),
                    json!({"apsp_ms": ms(time), "steps": r.rounds, "n": r.n}),
                ),
            ],
            r,
        ))
    }
}

pub(crate) struct SpmvJob<'a, S: Semiring> {
    pub(crate) file: &'a std::path::Path,
    pub(crate) g: &'a EdgeList,
    pub(crate) format: Option<Format>,
    pub(crate) max_fill: f64,
    pub(crate) repeat: usize,
    pub(crate) _s: std::marker::PhantomData<S>,
}

impl<S: Semiring> Job for SpmvJob<'_, S>
where
    S::T: semigraph_formats::WeightValue,
{
    type Out = Vec<S::T>;
    fn file(&self) -> &std::path::Path {
        self.file
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Self::Out)> {
        // The matrix (as a push matrix would be), x and y.
        plan(b, self.g, size_of::<S::T>(), (false, true), false)?;
        // Boolean and parent semirings read the structure only (any weight means "an arc").
        let a = csr_of::<S>(self.file, self.g, S::reads_structure_only())?;
        // y = A 1: the product with a column of ones, checked for results the type
        // cannot hold.
        let ones = semigraph_formats::Csr::<S>::try_from_parts(
            a.ncols(),
            1,
            (0..=a.ncols() as u32).collect(),
            vec![0; a.ncols()],
            vec![S::one(); a.ncols()],
        )?;
        let sums = if S::ADD == semigraph_semiring::Op::Plus {
            "sums to"
        } else {
            "gives"
        };
        exact_product::<S, S>(self.file, (&a, &ones, None), |i, _| {
            format!("row {} of A {sums}", self.g.vertex_label(i))
        })?;
        let format = self.format.unwrap_or_else(|| {
            let gpu = b.kind() == semigraph_algos::BackendKind::Gpu;
            Stats::choose_format(&Stats::of(&a).features(), gpu).0
        });
        let t0 = Instant::now();
        let opts = ConvertOptions {
            max_fill: self.max_fill,
            ..Default::default()
        };
        let m = b
            .matrix(&a, format, &opts)
            .map_err(|e| fill_hint(self.file, e.into()))?;
        let upload = t0.elapsed();
        let x = b.dense_filled::<S>(a.ncols(), 1, S::one())?;
        let mut y = b.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        b.mxm(&mut y, Mask::All, Default::default(), &m, &x)?;
        b.synchronize()?;
        let mut times = Vec::with_capacity(self.repeat);
        for _ in 0..self.repeat {
            let t = Instant::now();
            b.mxm(&mut y, Mask::All, Default::default(), &m, &x)?;
            b.synchronize()?;
            times.push(t.elapsed());
        }
        times.sort();
        let median = times[times.len() / 2];
        let gflops = 2.0 * a.nnz() as f64 / median.as_secs_f64().max(1e-12) / 1e9;
        // A float sum that overflowed in the backend's order of additions.
        let y = b.read_dense(&y)?;
        semigraph_algos::exact::check_results::<S>(
            y.iter().enumerate().map(|(i, &v)| (i, 0, v)),
            &[a.vals()],
        )
        .map_err(|e| {
            let at = |i: usize, _| format!("row {} of A gives", self.g.vertex_label(i));
            CliError(format!("{}: {}", self.file.display(), e.message::<S>(at)))
        })?;
        Ok((
            vec![
                Field::text("semiring", S::full_name()),
                Field::text("format", format.name().into()),
                Field::with(
                    "time",
                    format!(
                        "build {}, spmv median {} of {} runs after a warm-up, {gflops:.3} GFLOP/s-equivalent",
                        fmt_duration(upload),
                        fmt_duration(median),
                        self.repeat,
                    ),
                    json!({"build_ms": ms(upload), "spmv_median_ms": ms(median),
                        "runs": self.repeat, "gflops": gflops}),
                ),
            ],
            y,
        ))
    }
}

/// Distances as text (`None` if unreachable) and predecessors of one run.
pub(crate) type DistPred = (Vec<Option<String>>, Vec<u32>);

/// Shortest paths with `D` distances from each source: the header lines and the runs.
pub(crate) fn run_sssp<D: Distance + semigraph_formats::WeightValue>(
    c: &Common,
    file: &std::path::Path,
    g: &EdgeList,
    sources: Vec<usize>,
    algo: SsspMethod,
    delta: Option<f64>,
) -> Res<(Lines, Runs<DistPred>)> {
    let job = SsspJob::<D> {
        file,
        g,
        sources,
        algo,
        delta: delta.map(D::from_f64),
    };
    let (h, runs) = dispatch(c, job)?;
    let one = runs.one.map(|sp| {
        let dist = sp
            .dist
            .iter()
            .map(|d| (*d != D::INFINITY).then(|| d.text()))
            .collect();
        (dist, sp.pred)
    });
    Ok((
        h,
        Runs {
            one,
            summary: runs.summary,
        },
    ))
}
