//! Work that runs on whichever backend was chosen: BFS, SSSP, APSP and SpMV runs, the
//! backend choice (`--backend`) and the progress spinner.

use std::time::{Duration, Instant};

use semigraph_algos::{
    ApspOptions, Backend, BfsOptions, BfsSemiring, CpuBackend, DeltaGraph, Direction, Distance,
    Graph, GraphOptions, Mask, apsp, bellman_ford, bfs, delta_stepping,
};
use semigraph_formats::{EdgeList, Format, Stats};
use semigraph_gpu::GpuBackend;
use semigraph_semiring::{MinPlus, Semiring};

use crate::args::{BackendChoice, Common, SsspAlgo};
use crate::output::{self, fmt_duration};
use crate::{CliError, Res, labelled};

/// Shortest paths with `D` distances: the header lines, each distance as text (`None` if
/// unreachable) and the predecessors.
pub(crate) fn run_sssp<D: Distance + semigraph_formats::WeightValue>(
    c: &Common,
    g: &EdgeList,
    source: usize,
    algo: SsspAlgo,
    delta: Option<f64>,
) -> Res<(Lines, Vec<Option<String>>, Vec<u32>)> {
    let job = SsspJob::<D> {
        g,
        source,
        algo,
        delta: delta.map(D::from_f64),
    };
    let (h, sp) = dispatch(c, job)?;
    let dist = sp
        .dist
        .iter()
        .map(|d| (*d != D::INFINITY).then(|| d.to_string()))
        .collect();
    Ok((h, dist, sp.pred))
}

/// `key: value` lines for an output header.
pub(crate) type Lines = Vec<(String, String)>;

/// Work that runs on whichever backend was chosen.
pub(crate) trait Job {
    type Out;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)>;
}

/// Opens the GPU for `--backend gpu` (an error says why not) or `auto` (`None`, with the
/// reason, when there is none: the caller falls back to the CPU and says so).
pub(crate) fn open_gpu(c: &Common) -> Res<std::result::Result<GpuBackend, String>> {
    match c.backend {
        BackendChoice::Cpu => Ok(Err("--backend cpu".into())),
        BackendChoice::Gpu => GpuBackend::new()
            .map(Ok)
            .map_err(|e| CliError(format!("--backend gpu: {e}"))),
        BackendChoice::Auto => Ok(GpuBackend::new().map_err(|e| e.to_string())),
    }
}

/// Runs `job` on the backend `--backend` names: `gpu` fails when no GPU can be used; `auto`
/// uses the GPU when there is one, else the CPU, and says which (and why) in the output
/// header and, unless `--quiet`, on stderr.
pub(crate) fn dispatch<J: Job>(c: &Common, job: J) -> Res<(Lines, J::Out)> {
    let (mut h, out, name, note) = match open_gpu(c)? {
        Ok(gpu) => {
            let spin = spinner(c, &format!("running on {}", gpu.name()));
            let r = job.run(&gpu);
            spin.finish_and_clear();
            let (h, out) = r?;
            let stats = gpu.compile_stats();
            let note = format!(
                " ({} kernels compiled in {:.2} s, {} from the disk cache in {:.3} s)",
                stats.compiled,
                stats.compile_time.as_secs_f64(),
                stats.from_disk,
                stats.disk_time.as_secs_f64()
            );
            (h, out, gpu.name(), note)
        }
        Err(why) => {
            let cpu = CpuBackend::new();
            let note = if c.backend == BackendChoice::Auto {
                if !c.quiet {
                    eprintln!("semigraph: no usable GPU ({why}); running on the CPU");
                }
                " (auto: no usable GPU)".to_string()
            } else {
                String::new()
            };
            let spin = spinner(c, &format!("running on {}", cpu.name()));
            let r = job.run(&cpu);
            spin.finish_and_clear();
            let (h, out) = r?;
            (h, out, cpu.name(), note)
        }
    };
    h.insert(0, ("backend".into(), format!("{name}{note}")));
    Ok((h, out))
}

/// A spinner with elapsed time on stderr while a long run works (only on a terminal, and not
/// with `--quiet`).
pub(crate) fn spinner(c: &Common, msg: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if c.quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let p = indicatif::ProgressBar::new_spinner();
    p.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} {elapsed}")
            .expect("valid template"),
    );
    p.set_message(msg.to_string());
    p.enable_steady_tick(Duration::from_millis(120));
    p
}

/// Arcs leaving reached vertices: the edges a traversal from the source examines.
pub(crate) fn reached_arcs(g: &EdgeList, reached: impl Fn(usize) -> bool) -> usize {
    g.src.iter().filter(|&&s| reached(s as usize)).count()
}

pub(crate) struct BfsJob<'a> {
    pub(crate) g: &'a EdgeList,
    pub(crate) source: usize,
    pub(crate) direction: Direction,
    pub(crate) format: Option<Format>,
}

impl Job for BfsJob<'_> {
    type Out = semigraph_algos::Bfs;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_pattern_csr::<BfsSemiring, u32>()?;
        let t0 = Instant::now();
        let gr = Graph::new(
            b,
            &a,
            GraphOptions {
                format: self.format,
                pull: true,
                ..Default::default()
            },
        )?;
        let upload = t0.elapsed();
        let t1 = Instant::now();
        let r = bfs(
            &gr,
            self.source,
            &BfsOptions {
                direction: self.direction,
            },
        )?;
        let time = t1.elapsed();
        let arcs = reached_arcs(self.g, |v| r.levels[v] != u32::MAX);
        let fmt = gr.pull_info().map(|i| i.format.name()).unwrap_or("csr");
        Ok((
            vec![
                ("format".into(), format!("{fmt} (pull), csr (push)")),
                (
                    "time".into(),
                    format!(
                        "build {}, bfs {} ({} push + {} pull levels), {}",
                        fmt_duration(upload),
                        fmt_duration(time),
                        r.push_steps,
                        r.pull_steps,
                        output::teps(arcs, time)
                    ),
                ),
            ],
            r,
        ))
    }
}

pub(crate) struct SsspJob<'a, D> {
    pub(crate) g: &'a EdgeList,
    pub(crate) source: usize,
    pub(crate) algo: SsspAlgo,
    pub(crate) delta: Option<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for SsspJob<'_, D> {
    type Out = semigraph_algos::ShortestPaths<D>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_csr::<MinPlus<D>, u32>()?;
        let t0 = Instant::now();
        let (sp, upload, time, extra) = match self.algo {
            SsspAlgo::BellmanFord => {
                let gr = Graph::new(b, &a, GraphOptions::default())?;
                let upload = t0.elapsed();
                let t1 = Instant::now();
                let sp = bellman_ford(&gr, self.source).map_err(|e| labelled(self.g, e))?;
                let time = t1.elapsed();
                let label = format!("bellman-ford, {} rounds", sp.rounds);
                (sp, upload, time, label)
            }
            SsspAlgo::DeltaStepping => {
                let gr = DeltaGraph::new(b, &a, self.delta).map_err(|e| labelled(self.g, e))?;
                let upload = t0.elapsed();
                let t1 = Instant::now();
                let sp = delta_stepping(&gr, self.source)?;
                (
                    sp,
                    upload,
                    t1.elapsed(),
                    format!("delta-stepping, delta {}", gr.delta()),
                )
            }
        };
        let arcs = reached_arcs(self.g, |v| sp.dist[v] != D::INFINITY);
        Ok((
            vec![
                ("algorithm".into(), extra),
                (
                    "time".into(),
                    format!(
                        "build {}, sssp {}, {}",
                        fmt_duration(upload),
                        fmt_duration(time),
                        output::teps(arcs, time)
                    ),
                ),
                (
                    "reached".into(),
                    format!("{} of {} vertices", sp.reached(), self.g.num_vertices()),
                ),
            ],
            sp,
        ))
    }
}

pub(crate) struct ApspJob<'a, D> {
    pub(crate) g: &'a EdgeList,
    pub(crate) next_hop: bool,
    pub(crate) _d: std::marker::PhantomData<D>,
}

impl<D: Distance + semigraph_formats::WeightValue> Job for ApspJob<'_, D> {
    type Out = semigraph_algos::Apsp<D>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        let a = self.g.to_csr::<MinPlus<D>, u32>()?;
        let t = Instant::now();
        let r = apsp(
            b,
            &a,
            &ApspOptions {
                next_hop: self.next_hop,
            },
        )
        .map_err(|e| labelled(self.g, e))?;
        let time = t.elapsed();
        Ok((
            vec![(
                "time".into(),
                format!(
                    "apsp {} ({} squarings of a {n}x{n} matrix)",
                    fmt_duration(time),
                    r.rounds,
                    n = r.n
                ),
            )],
            r,
        ))
    }
}

pub(crate) struct SpmvJob<'a, S: Semiring> {
    pub(crate) g: &'a EdgeList,
    pub(crate) format: Option<Format>,
    pub(crate) repeat: usize,
    pub(crate) _s: std::marker::PhantomData<S>,
}

impl<S: Semiring> Job for SpmvJob<'_, S>
where
    S::T: semigraph_formats::WeightValue,
{
    type Out = Vec<S::T>;
    fn run<B: Backend>(self, b: &B) -> Res<(Lines, Self::Out)> {
        // Boolean and parent semirings read the structure only (any weight means "an arc").
        let a = if S::NAME == "or_and" || S::NAME.ends_with("secondi") {
            self.g.to_pattern_csr::<S, u32>()?
        } else {
            self.g.to_csr::<S, u32>()?
        };
        let format = self.format.unwrap_or_else(|| Stats::of(&a).recommend().0);
        let t0 = Instant::now();
        let m = b.matrix(&a, format, &Default::default())?;
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
        Ok((
            vec![
                ("semiring".into(), S::full_name()),
                ("format".into(), format.name().into()),
                (
                    "time".into(),
                    format!(
                        "build {}, spmv median {} of {} runs after a warm-up, {:.3} GFLOP/s-equivalent",
                        fmt_duration(upload),
                        fmt_duration(median),
                        self.repeat,
                        2.0 * a.nnz() as f64 / median.as_secs_f64().max(1e-12) / 1e9
                    ),
                ),
            ],
            b.read_dense(&y)?,
        ))
    }
}
