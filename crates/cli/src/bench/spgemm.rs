//! `semigraph bench spgemm`: sparse x sparse products on the GPU against cuSPARSE's
//! `SpGEMM` (plus-times `f32`) and the CPU backend, in one run: `A (+).(x) A` of a graph's pattern, and
//! the masked product of triangle counting, `L (+).(x) L^T` masked by `L` (`L` the strictly
//! lower triangle of the symmetrised pattern).

use std::time::Instant;

use semigraph_algos::prelude::*;
use semigraph_algos::{CpuBackend, MatrixMask};
use semigraph_formats::{ConvertOptions, Csr, EdgeList, Format};
use semigraph_gpu::GpuBackend;
use semigraph_gpu::peers::{CusparseSpgemm, Timing};
use semigraph_semiring::PlusTimes;
use semigraph_semiring::ops::StrictTril;
use serde_json::json;

use crate::args::Common;
use crate::error::{CliError, Res};
use crate::output::Output;

type F32 = PlusTimes<f32>;

/// One measured product.
struct Row {
    what: &'static str,
    engine: String,
    median_ms: f64,
    min_ms: f64,
    nnz: usize,
    check: String,
}

/// Median and minimum of host-clock runs of `f` after one warm-up run.
fn host_time(runs: usize, mut f: impl FnMut() -> Res<()>) -> Res<Timing> {
    f()?;
    let mut runs_ms = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        f()?;
        runs_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(Timing { runs_ms })
}

/// Whether two products have the same entries, values within a relative `tol`.
fn same(got: &Csr<F32>, want: &Csr<F32>, tol: f32) -> String {
    let (g, w): (Vec<_>, Vec<_>) = (got.iter().collect(), want.iter().collect());
    if g.len() != w.len() {
        return format!("MISMATCH: {} entries, want {}", g.len(), w.len());
    }
    match g
        .iter()
        .zip(&w)
        .position(|(a, b)| a.0 != b.0 || a.1 != b.1 || (a.2 - b.2).abs() > tol * b.2.abs().max(1.0))
    {
        None if tol == 0.0 => "equal".into(),
        None => format!("equal within {tol:e}"),
        Some(k) => format!(
            "MISMATCH at ({}, {}): {} want {}",
            g[k].0, g[k].1, g[k].2, w[k].2
        ),
    }
}

/// The product `A (+).(x) B` (or `A (+).(x) B^T` under the mask, `t`) on `b`.
fn product<B: Backend>(
    b: &B,
    a: &B::Matrix<F32>,
    mask: Option<&B::Matrix<F32>>,
) -> Res<B::Matrix<F32>> {
    Ok(match mask {
        None => b.spgemm(MatrixMask::All, a, a)?,
        Some(m) => b.spgemm_t(MatrixMask::Keep(m), a, a)?,
    })
}

/// Times both products on the GPU, cuSPARSE and the CPU backend; writes the table.
pub(crate) fn spgemm_bench(c: &Common, g: &EdgeList, label: &str, runs: usize) -> Res<()> {
    let gpu = GpuBackend::new().map_err(|e| CliError(format!("bench spgemm needs a GPU: {e}")))?;
    let cpu = CpuBackend::new();
    let runs = runs.max(5);
    let cpu_runs = 3;
    let opts = ConvertOptions::default();
    let a = g.to_pattern_csr::<F32, u32>()?;
    // L: the strictly lower triangle of A + A^T (the pattern, ones).
    let l = {
        let ca = cpu.matrix(&a, Format::Csr, &opts)?;
        let sym = cpu.plus_transpose(&ca)?;
        let ones = cpu.apply_matrix_bound::<F32, semigraph_semiring::ops::Pair>(
            &sym,
            semigraph_algos::Bound::Second(1.0),
        )?;
        cpu.read_matrix(&cpu.select::<F32, StrictTril>(&ones, 0.0)?)?
    };
    let mut rows = Vec::new();
    for (what, m, masked) in [("A*A", &a, false), ("L*L^T<L>", &l, true)] {
        // The GPU backend, resident operands; each run is the whole product.
        let ga = gpu.matrix(m, Format::Csr, &opts)?;
        let gmask = masked.then_some(&ga);
        // A product refused for its size (Kronecker 18's A*A: 9.5 G terms) is reported, and
        // the others still run.
        let got = match product(&gpu, &ga, gmask) {
            Ok(c) => gpu.read_matrix(&c)?,
            Err(e) => {
                rows.push(Row {
                    what,
                    engine: format!("semigraph gpu ({})", gpu.device_name()),
                    median_ms: f64::NAN,
                    min_ms: f64::NAN,
                    nnz: 0,
                    check: format!("refused: {}", e.0),
                });
                continue;
            }
        };
        let t = gpu.time(1, runs, || product(&gpu, &ga, gmask).map(drop))?;
        // The CPU backend.
        let ca = cpu.matrix(m, Format::Csr, &opts)?;
        let cmask = masked.then_some(&ca);
        let ct = host_time(cpu_runs, || product(&cpu, &ca, cmask).map(drop))?;
        let want = cpu.read_matrix(&product(&cpu, &ca, cmask)?)?;
        rows.push(Row {
            what,
            engine: format!("semigraph gpu ({})", gpu.device_name()),
            median_ms: t.median_ms(),
            min_ms: t.min_ms(),
            nnz: got.nnz(),
            check: format!("vs cpu: {}", same(&got, &want, 0.0)),
        });
        rows.push(Row {
            what,
            engine: format!("semigraph cpu ({} threads)", rayon::current_num_threads()),
            median_ms: ct.median_ms(),
            min_ms: ct.min_ms(),
            nnz: want.nnz(),
            check: "reference".into(),
        });
        if !masked {
            // cuSPARSE computes the unmasked product only; where it fails (its workspace on
            // a large product), the row says so.
            let peer = (|| -> Res<(Timing, Csr<F32>)> {
                let mut peer = CusparseSpgemm::new(&gpu, m, m)?;
                let pt = gpu.time(1, runs, || peer.run().map(drop))?;
                Ok((pt, peer.result()?.without_zeros()?))
            })();
            rows.push(match peer {
                Ok((pt, pc)) => Row {
                    what,
                    engine: "cuSPARSE SpGEMM".into(),
                    median_ms: pt.median_ms(),
                    min_ms: pt.min_ms(),
                    nnz: pc.nnz(),
                    check: format!("vs cpu: {}", same(&pc, &want, 1e-5)),
                },
                Err(e) => Row {
                    what,
                    engine: "cuSPARSE SpGEMM".into(),
                    median_ms: f64::NAN,
                    min_ms: f64::NAN,
                    nnz: 0,
                    check: format!("failed: {}", e.0),
                },
            });
        } else {
            let triangles: f64 = want.vals().iter().map(|&v| v as f64).sum();
            rows.push(Row {
                what,
                engine: "triangles".into(),
                median_ms: f64::NAN,
                min_ms: f64::NAN,
                nnz: triangles as usize,
                check: "sum of the masked product".into(),
            });
        }
    }
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let v = json!({
                "graph": label, "vertices": a.nrows(), "arcs": a.nnz(), "lower_triangle": l.nnz(),
                "runs": runs, "cpu_runs": cpu_runs,
                "rows": rows.iter().map(|r| json!({"product": r.what, "engine": r.engine,
                    "median_ms": r.median_ms, "min_ms": r.min_ms, "nnz": r.nnz, "check": r.check}))
                    .collect::<Vec<_>>(),
            });
            return writeln!(w, "{v:#}");
        }
        writeln!(
            w,
            "# SpGEMM on {label}: {} vertices, {} arcs, L has {} entries; plus-times f32 of the pattern",
            a.nrows(),
            a.nnz(),
            l.nnz()
        )?;
        writeln!(
            w,
            "# GPU: median of {runs} runs (CUDA events) after a warm-up, each the whole product from resident operands, compile time apart; CPU: median of {cpu_runs} (host clock)"
        )?;
        writeln!(
            w,
            "{:<10} {:<40} {:>11} {:>11} {:>12}  check",
            "product", "engine", "median ms", "min ms", "entries"
        )?;
        for r in &rows {
            writeln!(
                w,
                "{:<10} {:<40} {:>11.3} {:>11.3} {:>12}  {}",
                r.what, r.engine, r.median_ms, r.min_ms, r.nnz, r.check
            )?;
        }
        Ok(())
    })
}
