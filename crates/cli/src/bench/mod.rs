//! `semigraph bench ...`: SpMV per format against cuSPARSE (`spmv`), the algorithms
//! (`algos`: BFS, SSSP, APSP, the Graphalytics kernels), semiring GEMM against cuBLAS (`gemm`), sparse products against cuSPARSE
//! (`spgemm`) and the format study
//! (`study`). Benchmark code lives here, apart from the commands users run; the GPU peers it
//! times against are `semigraph_gpu::peers` (the `peers` feature).

pub(crate) mod algos;
pub(crate) mod gemm;
pub(crate) mod spgemm;
pub(crate) mod spmv;
pub(crate) mod study;

use crate::args::Common;
use crate::args::{BenchCmd, GenKind};
use crate::error::{CliError, Res};
use crate::files::{generated, load};

pub(crate) use spmv::for_semiring;

/// Runs one `bench` subcommand.
pub(crate) fn run(c: &Common, what: BenchCmd) -> Res<()> {
    let c = c.clone();
    use algos::multi::DistAlgo;
    let dist = match &what {
        BenchCmd::Bfs { bench } => Some((bench, DistAlgo::Bfs)),
        BenchCmd::Sssp { bench, .. } => Some((bench, DistAlgo::Sssp)),
        BenchCmd::Algorithm(a) => match a.info.name {
            "pagerank" => {
                let args = semigraph_algos::registry::Args::parse(a.info.params, 0, |p| {
                    a.given
                        .iter()
                        .find(|(k, _)| *k == p.name)
                        .and_then(|(_, t)| t.clone())
                })?;
                Some((
                    &a.bench,
                    DistAlgo::PageRank(semigraph_algos::PageRankOptions::of(&args)),
                ))
            }
            "wcc" => Some((&a.bench, DistAlgo::Wcc)),
            _ => None,
        },
        BenchCmd::Apsp { bench, .. } => Some((bench, DistAlgo::Apsp)),
        _ => None,
    };
    match dist {
        Some((bench, algo)) if bench.gpus.is_some() => {
            let gpus = bench.gpus.clone().unwrap_or_default();
            return algos::multi::bench(&c, bench, algo, &gpus);
        }
        _ => {}
    }
    if let BenchCmd::Algorithm(a) = &what
        && a.bench.gpus.is_some()
    {
        return Err(CliError(
            "--gpus is for bench bfs, sssp, pagerank, wcc and apsp".into(),
        ));
    }
    match what {
        BenchCmd::Bfs { bench } => algos::bfs_bench(&c, &bench)?,
        BenchCmd::Algorithm(a) => algos::algorithm_bench(&c, &a)?,
        BenchCmd::Sssp {
            bench,
            algo,
            delta,
            distances,
            ..
        } => algos::sssp_bench(&c, &bench, algo, delta, distances)?,
        BenchCmd::Apsp {
            bench,
            distances,
            method,
            ..
        } => algos::apsp_bench(&c, &bench, distances, method)?,
        BenchCmd::Formats {
            manifest,
            from,
            semirings,
            cpu_semirings,
            backends,
            runs,
            max_seconds,
            only,
            plots,
            large_nnz,
            large_semirings,
            terminal_x_density,
            ..
        } => {
            let list = |s: &str| -> Vec<String> {
                s.split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            };
            let backends = list(&backends);
            if let Some(b) = backends.iter().find(|b| *b != "gpu" && *b != "cpu") {
                return Err(CliError(format!(
                    "--backends: unknown backend {b} (gpu, cpu)"
                )));
            }
            study::run(
                &c,
                &study::StudyArgs {
                    manifest,
                    from,
                    semirings,
                    cpu_semirings,
                    gpu: backends.iter().any(|b| b == "gpu"),
                    cpu: backends.iter().any(|b| b == "cpu"),
                    runs,
                    max_seconds,
                    only: list(&only),
                    plots,
                    large_nnz,
                    large_semirings,
                    terminal_x_density,
                },
            )?
        }
        BenchCmd::Gemm {
            n,
            semirings,
            wide,
            runs,
            ..
        } => {
            // Each semiring, then those of --wide again with wide operands.
            let mut list = semirings.clone();
            list.extend(
                wide.iter()
                    .filter(|w| w.as_str() != "none")
                    .map(|w| format!("{w}+wide")),
            );
            gemm::gemm_bench(&c, n, &list, runs)?
        }
        BenchCmd::Spgemm {
            file,
            generate,
            gen_args,
            runs,
            ..
        } => {
            let (g, label) = graph_of(&c, file, generate, &gen_args, "spgemm")?;
            spgemm::spgemm_bench(&c, &g, &label, runs)?;
        }
        BenchCmd::Spmv {
            file,
            generate,
            gen_args,
            semirings,
            formats,
            runs,
            ..
        } => {
            let (g, label) = graph_of(&c, file, generate, &gen_args, "spmv")?;
            spmv::spmv(&c, &g, &label, &semirings, &formats, runs)?;
        }
    }
    Ok(())
}

/// The graph of a bench: a FILE or a generated one, and its label.
fn graph_of(
    c: &Common,
    file: Option<std::path::PathBuf>,
    generate: Option<GenKind>,
    gen_args: &crate::args::GenArgs,
    bench: &str,
) -> Res<(semigraph_formats::EdgeList, String)> {
    Ok({
        {
            match (file, generate) {
                (Some(f), None) => (load(&f, c)?, f.display().to_string()),
                (None, Some(kind)) => {
                    let g = generated(kind, gen_args)?;
                    let label = match kind {
                        GenKind::Grid => format!("grid {}x{}", gen_args.rows, gen_args.cols),
                        GenKind::Kronecker | GenKind::Urand => format!(
                            "{kind:?} scale {} edge factor {}",
                            gen_args.scale, gen_args.edge_factor
                        )
                        .to_lowercase(),
                        _ => format!("{kind:?} n={}", gen_args.n).to_lowercase(),
                    };
                    (g, label)
                }
                _ => {
                    return Err(CliError(format!(
                        "bench {bench} needs a FILE or --generate KIND (not both)"
                    )));
                }
            }
        }
    })
}
