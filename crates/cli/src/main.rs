//! `semigraph`: graph algorithms as semiring linear algebra, from the command line.
//!
//! Run `semigraph --help` for the subcommands and options, and `semigraph demo` for a
//! self-checking tour that needs no data.

mod algo_jobs;
mod args;
mod bench;
mod checks;
mod demo;
mod files;
mod jobs;
mod kernels;
mod multi;
mod opening;
mod output;
mod process;
mod spgemm;

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;
use semigraph_algos::DistanceType;
use semigraph_formats::io::OutputFormat;
use semigraph_formats::{Combine, EdgeList, Stats, WeightValue};
use serde_json::json;

use args::{Cli, Cmd, Common};
use checks::{distances_field, pick_distances};
use files::{generated, load, load_pattern, load_weighted, save, source_of};
use jobs::{ApspJob, BfsJob, SpmvJob, dispatch, run_sssp};
use output::Field;
use output::{Header, Output, write_summary, write_vertices};

/// An error for the user: printed as `semigraph: error: ...`, exit status 1.
#[derive(Debug)]
struct CliError(String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! cli_error_from {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError(e.to_string())
            }
        }
    )*};
}
cli_error_from!(
    semigraph_algos::Error,
    semigraph_formats::ReadError,
    semigraph_formats::FormatError,
    semigraph_gpu::GpuError,
    std::io::Error
);

type Res<T> = Result<T, CliError>;

fn main() -> ExitCode {
    process::on_signals();
    process::start_worker_threads();
    // Result arrays read back from the GPU reuse heap pages (see the function).
    semigraph_gpu::host::keep_large_allocations();
    let cli = Cli::parse_from(process::common_flags_last(std::env::args_os().collect()));
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("semigraph: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Res<ExitCode> {
    let c = cli.cmd.common();
    guard_outputs(&c, &cli.cmd)?;
    if multi::wanted(&c) {
        return multi::run(&c, &cli.cmd).map(|()| ExitCode::SUCCESS);
    }
    if let Some(command) = cli.cmd.backend_command() {
        opening::open_gpu_early(&c, command);
    }
    match cli.cmd {
        Cmd::Bfs {
            file,
            source,
            sources,
            direction,
            format,
            max_fill,
            ..
        } => {
            let g = load_pattern(&file, &c)?;
            let srcs = sources_of(&g, source, sources.as_deref(), &file)?;
            if multi::past_offsets(&c, &g) {
                multi::bfs(&c, &file, &g, &srcs, direction)?;
                return Ok(ExitCode::SUCCESS);
            }
            let job = BfsJob {
                file: &file,
                g: &g,
                sources: srcs,
                direction,
                format: format.0,
                max_fill,
                csr: jobs::Prepared::new(),
            };
            let (header, runs) = dispatch(&c, job)?;
            let mut h = Header::new(&command_line(), &file, &g);
            h.extend(header);
            let out = Output::new(&c);
            match &runs.one {
                Some(r) => write_bfs(&out, h, &g, r)?,
                None => write_summary(&out, &h, &g, ["depth", "sum_of_levels"], &runs.summary)?,
            }
            process::keep_until_exit((g, runs));
        }
        Cmd::Pagerank {
            ref file,
            iterations,
            damping,
            tolerance,
            ..
        } => {
            let opts = semigraph_algos::PageRankOptions::from_args(iterations, damping, tolerance);
            run_kernel(&c, file, kernels::GraphKernel::PageRank(opts))?;
        }
        Cmd::Wcc { ref file, .. } => run_kernel(&c, file, kernels::GraphKernel::Wcc)?,
        Cmd::Cdlp {
            ref file,
            iterations,
            ..
        } => run_kernel(&c, file, kernels::GraphKernel::Cdlp(iterations))?,
        Cmd::Lcc { ref file, .. } => run_kernel(&c, file, kernels::GraphKernel::Lcc)?,
        Cmd::Tc { ref file, .. } => run_kernel(&c, file, kernels::GraphKernel::Tc)?,
        Cmd::Sssp {
            file,
            source,
            sources,
            algo,
            delta,
            distances,
            ..
        } => {
            let g = load_weighted(&file, &c)?;
            let srcs = sources_of(&g, source, sources.as_deref(), &file)?;
            let s = srcs[0];
            let (ty, why) = pick_distances(&g, &file, g.num_vertices(), distances)?;
            if multi::past_offsets(&c, &g) {
                multi::sssp(&c, &file, &g, &srcs, ty)?;
                return Ok(ExitCode::SUCCESS);
            }
            let (mut header, runs) = match ty {
                DistanceType::I32 => run_sssp::<i32>(&c, &file, &g, srcs, algo, delta)?,
                DistanceType::I64 => run_sssp::<i64>(&c, &file, &g, srcs, algo, delta)?,
                DistanceType::F32 => run_sssp::<f32>(&c, &file, &g, srcs, algo, delta)?,
                DistanceType::F64 => run_sssp::<f64>(&c, &file, &g, srcs, algo, delta)?,
            };
            header.push(distances_field(ty, &why));
            let mut h = Header::new(&command_line(), &file, &g);
            h.extend(header);
            let out = Output::new(&c);
            match runs.one {
                Some((dist, pred)) => write_vertices(
                    &out,
                    &h,
                    &g,
                    g.num_vertices(),
                    |v| dist[v].clone(),
                    |v| {
                        if v == s || pred[v] == u32::MAX {
                            (v == s && dist[v].is_some()).then_some(s as u32)
                        } else {
                            Some(pred[v])
                        }
                    },
                )?,
                None => write_summary(
                    &out,
                    &h,
                    &g,
                    ["max_distance", "sum_of_distances"],
                    &runs.summary,
                )?,
            }
        }
        Cmd::Apsp {
            file,
            next_hop,
            distances,
            method,
            ..
        } => {
            let g = load_weighted(&file, &c)?;
            let (ty, why) = pick_distances(&g, &file, 2 * g.num_vertices(), distances)?;
            let mut h = Header::new(&command_line(), &file, &g);
            let out = Output::new(&c);
            macro_rules! run_apsp {
                ($d:ty, $integer:expr) => {{
                    let (hh, r) = dispatch(
                        &c,
                        ApspJob::<$d> {
                            file: &file,
                            g: &g,
                            next_hop: next_hop.is_some(),
                            method,
                            _d: Default::default(),
                        },
                    )?;
                    h.extend(hh);
                    h.push(distances_field(ty, &why));
                    output::write_apsp(&out, &h, &r, next_hop.as_deref(), $integer)?;
                }};
            }
            match ty {
                DistanceType::I32 => run_apsp!(i32, true),
                DistanceType::I64 => run_apsp!(i64, true),
                DistanceType::F32 => run_apsp!(f32, false),
                DistanceType::F64 => run_apsp!(f64, false),
            }
        }
        Cmd::Spgemm {
            a,
            b,
            semiring,
            mask,
            complement,
            transpose_b,
            ..
        } => {
            if c.json {
                return Err(CliError(
                    "spgemm writes Matrix Market; --json does not apply".into(),
                ));
            }
            let ga = load(&a, &c)?;
            let gb = load(&b, &c)?;
            let gm = match &mask {
                Some(m) => Some(load(m, &c)?),
                None => None,
            };
            let mut h = Header::new(&command_line(), &a, &ga);
            let out = Output::new(&c);
            let ran = semigraph_semiring::with_builtin!(&semiring, S => {
                let (hh, product) = dispatch(
                    &c,
                    spgemm::SpgemmJob::<S> {
                        a: (&a, &ga),
                        b: (&b, &gb),
                        mask: mask.as_deref().zip(gm.as_ref()),
                        complement,
                        transpose_b,
                        _s: Default::default(),
                    },
                )?;
                h.extend(hh);
                spgemm::write_mtx(&out, h.fields(), &product)?;
            });
            if ran.is_some() {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(CliError(format!("no built-in semiring {semiring}")));
        }
        Cmd::Spmv {
            file,
            semiring,
            repeat,
            format,
            max_fill,
            ..
        } => {
            let g = load(&file, &c)?;
            let format = format.0;
            let mut h = Header::new(&command_line(), &file, &g);
            let out = Output::new(&c);
            let ran = semigraph_semiring::with_builtin!(&semiring, S => {
                let (hh, y) = dispatch(
                    &c,
                    SpmvJob::<S> {
                        file: &file,
                        g: &g,
                        format,
                        max_fill,
                        repeat: repeat.max(1),
                        _s: Default::default(),
                    },
                )?;
                h.extend(hh);
                write_vertices(&out, &h, &g, y.len(), |v| Some(y[v].text()), |_| None)?;
            });
            if ran.is_some() {
                return Ok(ExitCode::SUCCESS);
            }
            return Err(CliError(format!("no built-in semiring {semiring}")));
        }
        Cmd::Stats { file, .. } => {
            let g = load(&file, &c)?;
            let a = files::csr_of::<semigraph_semiring::OrAnd>(&file, &g, true)?;
            let needed = Stats::host_bytes(a.nrows(), a.ncols());
            semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
                CliError(format!(
                    "{}: its statistics need {} of memory, {} are available; refused before \
                     allocating",
                    file.display(),
                    semigraph_formats::error::fmt_bytes(needed),
                    semigraph_formats::error::fmt_bytes(available)
                ))
            })?;
            let st = Stats::of(&a);
            let out = Output::new(&c);
            out.write(|w| {
                if c.json {
                    let x = &st.features;
                    let v = json!({
                        "file": file.display().to_string(),
                        "rows": x.nrows, "cols": x.ncols, "nnz": x.nnz,
                        "row_len": {"min": st.row_len_min, "max": x.row_len_max, "mean": x.row_len_mean, "stddev": x.row_len_stddev},
                        "diagonals": x.diagonals, "bandwidth": x.bandwidth,
                        "ell_fill": x.ell_fill, "dia_fill": x.dia_fill,
                        "hyb": {"width": x.hyb_width, "coo_share": x.hyb_coo_share, "ell_fill": x.hyb_ell_fill},
                        "recommended": st.recommended.name(), "reason": st.reason,
                        "recommended_cpu": st.recommended_cpu.name(), "reason_cpu": st.reason_cpu,
                    });
                    writeln!(w, "{}", serde_json::to_string_pretty(&v).expect("serializable"))
                } else {
                    writeln!(w, "# {}", command_line())?;
                    writeln!(w, "{st}")
                }
            })?;
        }
        Cmd::Convert {
            file, to, combine, ..
        } => {
            let mut g = load(&file, &c)?;
            let path = c
                .output
                .as_ref()
                .ok_or_else(|| CliError("convert needs --output FILE".into()))?;
            let fmt = match to.as_deref() {
                None => None,
                Some(t) => Some(
                    OutputFormat::from_path(Path::new(&format!("x.{t}"))).ok_or_else(|| {
                        CliError(format!(
                            "unknown output format {t:?} (mtx, gr, el, ldbc (v/e), gml)"
                        ))
                    })?,
                ),
            };
            if let Some(how) = combine {
                combine_arcs(&c, &mut g, how)?;
            }
            save(&c, path, &g, fmt).map_err(|e| {
                if e.0.contains("appears twice") {
                    CliError(format!(
                        "{e} (pass --combine min|max|sum|first to merge repeated arcs)"
                    ))
                } else {
                    e
                }
            })?;
        }
        Cmd::Generate {
            kind,
            gen_args,
            combine,
            ..
        } => {
            let path = c
                .output
                .as_ref()
                .ok_or_else(|| CliError("generate needs --output FILE".into()))?;
            let mut g = generated(kind, &gen_args)?;
            let to_mtx = OutputFormat::from_path(path) == Some(OutputFormat::MatrixMarket);
            match (combine, to_mtx) {
                (Some(how), _) => combine_arcs(&c, &mut g, how)?,
                (None, true) => combine_arcs(&c, &mut g, Combine::Min)?,
                (None, false) => {}
            }
            save(&c, path, &g, None)?;
        }
        Cmd::Demo { size, .. } => {
            return demo::run(&c, size);
        }
        Cmd::Bench { what } => bench::run(&c, what)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Merges repeated arcs and says how many.
fn combine_arcs(c: &Common, g: &mut EdgeList, how: Combine) -> Res<()> {
    let removed = g.combine_parallel(how)?;
    if removed > 0 {
        note(
            c,
            &format!(
                "merged {removed} repeated arcs (kept the {} weight)",
                format!("{how:?}").to_lowercase()
            ),
        );
    }
    Ok(())
}

/// Runs one of the graph kernels on `file` and writes its per-vertex values.
fn run_kernel(c: &Common, file: &Path, kernel: kernels::GraphKernel) -> Res<()> {
    let g = load_pattern(file, c)?;
    if multi::past_offsets(c, &g) {
        match &kernel {
            kernels::GraphKernel::PageRank(o) => return multi::pagerank(c, file, &g, o),
            kernels::GraphKernel::Wcc => return multi::wcc(c, file, &g),
            _ => {}
        }
    }
    let (header, values) = dispatch(
        c,
        kernels::KernelJob {
            file,
            g: &g,
            kernel,
            csr: jobs::Prepared::new(),
        },
    )?;
    let mut h = Header::new(&command_line(), file, &g);
    h.extend(header);
    kernels::write_values(&Output::new(c), &h, &g, &values)?;
    process::keep_until_exit((g, values));
    Ok(())
}

/// A BFS from one source: the `reached` header line, then each vertex's level and parent.
pub(crate) fn write_bfs(
    out: &Output,
    mut h: Header,
    g: &EdgeList,
    r: &semigraph_algos::Bfs,
) -> Res<()> {
    h.push(Field::with(
        "reached",
        format!(
            "{} of {} vertices, depth {}",
            r.reached,
            g.num_vertices(),
            r.depth
        ),
        serde_json::json!({"vertices": r.reached, "of": g.num_vertices(), "depth": r.depth}),
    ));
    write_vertices(
        out,
        &h,
        g,
        g.num_vertices(),
        |v| r.level(v).map(|l| l.to_string()),
        |v| r.parent(v),
    )
}

/// Refuses outputs that would overwrite the command's input graph.
fn guard_outputs(c: &Common, cmd: &Cmd) -> Res<()> {
    let (input, extra): (Option<&Path>, Option<&Path>) = match cmd {
        Cmd::Bfs { file, .. }
        | Cmd::Pagerank { file, .. }
        | Cmd::Wcc { file, .. }
        | Cmd::Cdlp { file, .. }
        | Cmd::Lcc { file, .. }
        | Cmd::Tc { file, .. }
        | Cmd::Sssp { file, .. }
        | Cmd::Spmv { file, .. }
        | Cmd::Spgemm { a: file, .. }
        | Cmd::Stats { file, .. }
        | Cmd::Convert { file, .. } => (Some(file), None),
        Cmd::Apsp { file, next_hop, .. } => (Some(file), next_hop.as_deref()),
        Cmd::Bench {
            what: args::BenchCmd::Spmv { file, .. } | args::BenchCmd::Spgemm { file, .. },
        } => (file.as_deref(), None),
        _ => (None, None),
    };
    if let (Some(o), Some(x)) = (c.output.as_deref(), extra) {
        for a in files::graph_files(o) {
            if files::graph_files(x)
                .iter()
                .any(|b| files::same_target(&a, b))
            {
                return Err(CliError(format!(
                    "--output {} and --next-hop {} name the same file: one would overwrite the other",
                    o.display(),
                    x.display()
                )));
            }
        }
    }
    let Some(input) = input else { return Ok(()) };
    let inputs = files::graph_files(input);
    let inputs: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    for out in c.output.iter().map(|p| p.as_path()).chain(extra) {
        for o in files::graph_files(out) {
            files::refuse_overwriting_input(&o, &inputs)?;
        }
    }
    Ok(())
}

/// The sources of a run: `--source`, or every source of a DIMACS `.ss` file (its ids in the
/// graph file's numbering).
pub(crate) fn sources_of(
    g: &EdgeList,
    source: Option<i64>,
    sources: Option<&Path>,
    file: &Path,
) -> Res<Vec<usize>> {
    match (source, sources) {
        (Some(s), None) => Ok(vec![source_of(g, s, file)?]),
        (None, Some(ss)) => {
            let ids = semigraph_formats::io::read_sources(ss)?;
            if ids.is_empty() {
                return Err(CliError(format!("{}: no sources", ss.display())));
            }
            ids.iter()
                .map(|&v| source_of(g, v as i64 + 1, file))
                .collect()
        }
        _ => Err(CliError("give --source or --sources (not both)".into())),
    }
}

pub(crate) fn note(c: &Common, msg: &str) {
    if !c.quiet {
        eprintln!("semigraph: {msg}");
    }
}

pub(crate) fn command_line() -> String {
    std::env::args()
        .map(|a| if a.contains(' ') { format!("{a:?}") } else { a })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An algorithm error with vertex ids in the input's numbering.
pub(crate) fn labelled(g: &EdgeList, e: semigraph_algos::Error) -> CliError {
    match e {
        semigraph_algos::Error::NegativeCycle { cycle } => {
            // A cycle of a million vertices is named by its first few.
            const SHOWN: usize = 20;
            let ids: Vec<String> = cycle
                .iter()
                .chain(cycle.first())
                .take(SHOWN + 1)
                .map(|&v| g.vertex_label(v as usize).to_string())
                .collect();
            let more = if cycle.len() > SHOWN {
                format!(" -> ... ({} more)", cycle.len() - SHOWN)
            } else {
                String::new()
            };
            CliError(format!(
                "negative cycle through {} vertices: {}{more}",
                cycle.len(),
                ids.join(" -> ")
            ))
        }
        semigraph_algos::Error::NegativeWeight {
            algorithm,
            from,
            to,
            weight,
        } => CliError(format!(
            "{algorithm} needs non-negative weights; arc {} -> {} has weight {weight} (use --algo bellman-ford)",
            g.vertex_label(from),
            g.vertex_label(to)
        )),
        e => e.into(),
    }
}
