//! Work that runs on whichever backend was chosen: the `Job` trait, the backend choice
//! (`--backend`, `dispatch`), the host CSR a job prepares, and the progress spinner; the
//! jobs themselves are in `algo_jobs.rs`.

use std::time::{Duration, Instant};

use semigraph_algos::prelude::*;
use semigraph_algos::{CpuBackend, Distance, Frontier};
use semigraph_formats::{Csr, EdgeList};
use semigraph_semiring::{MinPlus, Semiring};

use serde_json::json;

use crate::args::{BackendChoice, Common};
use crate::error::{CliError, Res};
use crate::files::{csr_error, csr_of};
use crate::output::{Field, fmt_duration};
use semigraph_algos::SsspMethod;

/// `--algo auto` resolved by the library's choice ([`semigraph_algos::sssp_choice`]).
pub(crate) fn resolve_algo<B: Frontier, D: Distance>(
    algo: SsspMethod,
    b: &B,
    a: &semigraph_formats::Csr<MinPlus<D>>,
) -> SsspMethod {
    match algo {
        SsspMethod::Auto => semigraph_algos::sssp_choice(b.kind(), a),
        other => other,
    }
}

/// An error building a matrix of `file`, naming the file; a fill limit says which flag
/// raises it.
pub(crate) fn fill_hint(file: &std::path::Path, e: CliError) -> CliError {
    let hint = if e.0.contains("`max_fill`") {
        " (--max-fill)"
    } else {
        ""
    };
    CliError(format!("{}: {}{hint}", file.display(), e.0))
}

/// Milliseconds of `d`, for JSON.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Millions of arcs per second.
pub(crate) fn mteps(arcs: usize, t: Duration) -> f64 {
    arcs as f64 / t.as_secs_f64().max(1e-9) / 1e6
}

/// The fields of an output header.
pub(crate) type Lines = Vec<Field>;

/// Work that runs on whichever backend was chosen.
pub(crate) trait Job {
    type Out;
    /// The graph file the job reads: its errors are reported as `FILE: message`.
    fn file(&self) -> &std::path::Path;
    /// What needs no backend (the host CSR), done before [`dispatch`] waits for the GPU that
    /// is opening meanwhile (`opening::open_gpu_early`); `gpu`: the job may run on a GPU
    /// (`--backend` is not `cpu`), which may build what it needs itself.
    fn prepare(&mut self, _gpu: bool) -> Res<()> {
        Ok(())
    }
    fn run<B: Frontier>(self, b: &B) -> Res<(Lines, Self::Out)>;
}

/// A job's host CSR of `g`'s arcs (the pattern), built by [`Job::prepare`] (or by
/// [`job_graph`] if nothing prepared it and the backend builds no matrix from arcs), with the
/// time it took.
pub(crate) struct Prepared<S: Semiring>(Option<(Csr<S, u32>, Duration)>);

impl<S: Semiring> Prepared<S>
where
    S::T: semigraph_formats::WeightValue,
{
    pub(crate) fn new() -> Self {
        Prepared(None)
    }

    /// Builds the pattern CSR of `g` now (refused with the bytes when the host cannot hold
    /// its build).
    pub(crate) fn build(&mut self, file: &std::path::Path, g: &EdgeList) -> Res<()> {
        let t = Instant::now();
        let a = csr_of::<S>(file, g, true)?;
        self.0 = Some((a, t.elapsed()));
        Ok(())
    }

    pub(crate) fn is_built(&self) -> bool {
        self.0.is_some()
    }
}

/// A job's graph ([`job_graph`]) and what building it took.
pub(crate) struct Built<'b, B: Frontier, S: Semiring> {
    pub(crate) graph: Graph<'b, B, S>,
    /// The host CSR's build; `None` where the backend built `A` from the arcs.
    pub(crate) csr: Option<Duration>,
    /// The graph's build on the backend (from the host CSR, or from the arcs).
    pub(crate) build: Duration,
}

/// Whether [`job_graph`] builds `A` on `b` from the arcs: on a GPU (one upload of the arcs,
/// sorted there; the host's build from unsorted arcs took 1.1-1.3 s of a Kronecker 22 run),
/// for a square matrix whose arcs are not in CSR order already (a binary CSR file's: the
/// host takes those in one pass and uploads half the bytes), unless the host CSR was
/// prepared.
pub(crate) fn builds_from_arcs<B: Frontier, S: Semiring>(
    b: &B,
    g: &EdgeList,
    prepared: Option<&Prepared<S>>,
) -> bool {
    prepared.is_none_or(|p| p.0.is_none())
        && arcs_for_the_device(b.kind() == semigraph_algos::BackendKind::Gpu, g)
}

/// Whether a GPU (`gpu`) would build `g`'s matrix from its arcs ([`builds_from_arcs`]):
/// what a [`Job::prepare`] asks before building the host CSR.
pub(crate) fn arcs_for_the_device(gpu: bool, g: &EdgeList) -> bool {
    gpu && g.nrows == g.ncols && !g.in_csr_order()
}

/// The graph of `g`'s arcs on `b` with `opts` (`pattern`: every arc `S::one()`, the weights
/// not read), as [`builds_from_arcs`] says: from the arcs on the backend
/// ([`Graph::from_arcs`]), else from the host CSR (`prepared`'s, or built now) that the
/// graph keeps. Errors name the file.
pub(crate) fn job_graph<'b, B: Frontier, S: Semiring>(
    b: &'b B,
    file: &std::path::Path,
    g: &EdgeList,
    prepared: Option<Prepared<S>>,
    pattern: bool,
    opts: GraphOptions,
) -> Res<Built<'b, B, S>>
where
    S::T: semigraph_formats::WeightValue,
{
    let hint = |e: semigraph_algos::Error| fill_hint(file, e.into());
    if builds_from_arcs(b, g, prepared.as_ref()) {
        let vals = match pattern {
            true => None,
            false => g.values::<S>().map_err(|e| csr_error(file, g, e))?,
        };
        let t = Instant::now();
        match Graph::from_arcs(b, g.nrows, &g.src, &g.dst, vals.as_deref(), opts) {
            Ok(graph) => {
                return Ok(Built {
                    graph,
                    csr: None,
                    build: t.elapsed(),
                });
            }
            // The device's build holds the arcs, their keyed copies and the matrix at once
            // (refused before allocating): where they do not fit, the host builds the CSR
            // and the device holds the graph alone.
            Err(semigraph_algos::Error::OutOfMemory { .. }) => {}
            Err(e) => return Err(hint(e)),
        }
    }
    let (a, csr) = match prepared.and_then(|p| p.0) {
        Some(built) => built,
        None => {
            let t = Instant::now();
            (csr_of::<S>(file, g, pattern)?, t.elapsed())
        }
    };
    let t = Instant::now();
    let graph = Graph::from_csr(b, a, opts).map_err(hint)?;
    Ok(Built {
        graph,
        csr: Some(csr),
        build: t.elapsed(),
    })
}

/// `e` as `FILE: message`, unless it already names the file.
fn named(file: &std::path::Path, e: CliError) -> CliError {
    let f = file.display().to_string();
    if e.0.starts_with(&f) {
        e
    } else {
        CliError(format!("{f}: {}", e.0))
    }
}

/// Runs `job` on the backend `--backend` names: `gpu` fails when no GPU can be used; `auto`
/// uses the GPU when there is one, else the CPU, and says which (and why) in the output
/// header and, unless `--quiet`, on stderr.
pub(crate) fn dispatch<J: Job>(c: &Common, mut job: J) -> Res<(Lines, J::Out)> {
    let file = job.file().to_path_buf();
    job.prepare(c.backend != BackendChoice::Cpu)
        .map_err(|e| named(&file, e))?;
    let waiting = Instant::now();
    let opened = crate::opening::open_gpu(c)?;
    let waited = waiting.elapsed();
    let open = opened.took;
    let (mut h, out, name, note, detail) = match &opened.gpu {
        Ok(gpu) => {
            let spin = spinner(c, &format!("running on {}", gpu.name()));
            let r = job.run(gpu).map_err(|e| named(&file, e));
            spin.finish_and_clear();
            let (h, out) = r?;
            opened.save_profile();
            let stats = gpu.compile_stats();
            let loaded = opened.profile.as_ref().map_or(0, |p| p.1);
            let note = format!(
                " ({} kernels compiled in {:.2} s, {} from the disk cache in {:.3} s, {} of {} \
                 loaded ahead)",
                stats.compiled,
                stats.compile_time.as_secs_f64(),
                stats.from_disk,
                stats.disk_time.as_secs_f64(),
                stats.preloaded,
                loaded
            );
            let detail = json!({"kernels_compiled": stats.compiled,
                "compile_ms": ms(stats.compile_time), "kernels_from_disk": stats.from_disk,
                "disk_ms": ms(stats.disk_time), "kernels_loaded_ahead": loaded,
                "kernels_used_ahead": stats.preloaded});
            (h, out, gpu.name(), note, detail)
        }
        Err(why) => {
            let cpu = CpuBackend::new();
            let fallback = c.backend == BackendChoice::Auto;
            let note = if fallback {
                if !c.quiet {
                    eprintln!("semigraph: no usable GPU ({why}); running on the CPU");
                }
                " (auto: no usable GPU)".to_string()
            } else {
                String::new()
            };
            let spin = spinner(c, &format!("running on {}", cpu.name()));
            let r = job.run(&cpu).map_err(|e| named(&file, e));
            spin.finish_and_clear();
            let (h, out) = r?;
            let detail = if fallback {
                json!({"no_gpu": why.to_string()})
            } else {
                json!({})
            };
            (h, out, cpu.name(), note, detail)
        }
    };
    let mut backend = json!({"name": name});
    if let (Some(b), Some(d)) = (backend.as_object_mut(), detail.as_object()) {
        b.extend(d.clone());
    }
    h.insert(0, Field::with("backend", format!("{name}{note}"), backend));
    // What the run waited for before its algorithm: the file read, the backend opened.
    let read = crate::files::last_read();
    h.insert(
        1,
        Field::with(
            "setup",
            format!(
                "read {}, backend opened in {} ({} of it after the read)",
                read.map_or("-".into(), fmt_duration),
                fmt_duration(open),
                fmt_duration(waited.min(open))
            ),
            json!({"read_ms": read.map(ms), "open_ms": ms(open),
                "open_after_read_ms": ms(waited.min(open))}),
        ),
    );
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

/// What a run from one or several sources returns: the whole result when there is one
/// source, else one summary line per source (results are dropped as they come, so a file of
/// a thousand sources needs the memory of one run).
pub(crate) struct Runs<R> {
    /// The result of a single-source run.
    pub(crate) one: Option<R>,
    /// Per source: `source reached depth-or-max sum` (vertex ids as 0-based indices).
    pub(crate) summary: Vec<(usize, usize, String, String)>,
}

impl<R> Runs<R> {
    pub(crate) fn new() -> Self {
        Runs {
            one: None,
            summary: Vec::new(),
        }
    }
}
