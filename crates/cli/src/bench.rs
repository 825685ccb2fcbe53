//! `semigraph bench spmv`: SpMV per format and semiring on the GPU against cuSPARSE, in one run.

use std::time::Instant;

use semigraph_algos::{Backend, Mask};
use semigraph_formats::{EdgeList, Format, Stats};
use semigraph_gpu::bench::{CusparseSpmv, Timing};
use semigraph_gpu::{CsrKernel, GpuBackend};
use semigraph_semiring::{MinPlus, OrAnd, PlusTimes, Scalar, Semiring};
use serde_json::json;

use crate::output::Output;
use crate::{CliError, Common, Res};

/// One measured configuration.
struct Row {
    semiring: String,
    format: String,
    compile_ms: f64,
    median_ms: f64,
    min_ms: f64,
    gbs: f64,
    ratio: f64,
    check: String,
}

/// Bytes an SpMV must move at least: the CSR arrays, `x` once and `y` once.
fn min_bytes(nrows: usize, ncols: usize, nnz: usize, val: usize) -> f64 {
    ((nrows + 1) * 4 + nnz * (4 + val) + ncols * val + nrows * val) as f64
}

/// Test value `i`: a small integer 1..13 (exact in every semiring, type and summation order),
/// never the zero.
pub(crate) fn test_value_at<S: Semiring>(i: usize) -> S::T
where
    S::T: semigraph_formats::WeightValue,
{
    let v = <S::T as semigraph_formats::WeightValue>::from_weight(semigraph_formats::Weight::Int(
        (i.wrapping_mul(7919) % 13 + 1) as i64,
    ))
    .unwrap_or_else(S::one);
    if S::is_zero(v) { S::one() } else { v }
}

/// Test values for `x` ([`test_value_at`] 0..n).
fn x_values<S: Semiring>(n: usize) -> Vec<S::T>
where
    S::T: semigraph_formats::WeightValue,
{
    (0..n).map(test_value_at::<S>).collect()
}

/// Times every format (and CSR kernel) of semiring `S` on `g`.
fn bench_semiring<S: Semiring>(
    gpu: &mut GpuBackend,
    g: &EdgeList,
    formats: &[Format],
    runs: usize,
    peer_ms: f64,
    rows: &mut Vec<Row>,
    quiet: bool,
) -> Res<()>
where
    S::T: semigraph_formats::WeightValue,
{
    let a = if S::NAME == "or_and" {
        g.to_pattern_csr::<S, u32>()?
    } else {
        g.to_csr::<S, u32>()?
    };
    let x = x_values::<S>(a.ncols());
    let want = a.spmv(&x);
    let bytes = min_bytes(a.nrows(), a.ncols(), a.nnz(), size_of::<S::T>());
    let max_row = (0..a.nrows()).map(|i| a.row_len(i)).max().unwrap_or(0);
    let auto = CsrKernel::choose(a.nrows(), a.nnz(), max_row);
    let mut variants: Vec<(Format, Option<CsrKernel>)> = Vec::new();
    for &f in formats {
        if f == Format::Csr {
            for k in [
                CsrKernel::Scalar,
                CsrKernel::Vector(4),
                CsrKernel::Vector(8),
                CsrKernel::Vector(32),
                CsrKernel::Split(8),
                CsrKernel::Adaptive,
            ] {
                variants.push((f, Some(k)));
            }
        } else {
            variants.push((f, None));
        }
    }
    let xd = gpu.dense::<S>(a.ncols(), 1, &x)?;
    for (format, kernel) in variants {
        gpu.set_csr_kernel(kernel);
        let name = match kernel {
            Some(k) => format!("csr/{}{}", k.name(), if k == auto { " (auto)" } else { "" }),
            None => format.name().to_string(),
        };
        let m = match gpu.matrix(&a, format, &Default::default()) {
            Ok(m) => m,
            Err(e) => {
                if !quiet {
                    eprintln!("semigraph bench: {} {name}: skipped: {e}", S::full_name());
                }
                continue;
            }
        };
        let mut y = gpu.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        let before = gpu.compile_stats();
        let t0 = Instant::now();
        gpu.mxm(&mut y, Mask::All, Default::default(), &m, &xd)?;
        gpu.synchronize()?;
        let first_ms = t0.elapsed().as_secs_f64() * 1e3;
        let after = gpu.compile_stats();
        let compile_ms =
            (after.compile_time + after.disk_time - before.compile_time - before.disk_time)
                .as_secs_f64()
                * 1e3;
        let got = gpu.read_dense(&y)?;
        let check = check::<S>(&got, &want);
        let t: Timing = gpu.time(3, runs, || -> Res<()> {
            gpu.mxm(&mut y, Mask::All, Default::default(), &m, &xd)?;
            Ok(())
        })?;
        let med = t.median_ms();
        if !quiet {
            eprintln!(
                "semigraph bench: {} {name}: {:.3} ms (first call {:.1} ms, compile {:.1} ms)",
                S::full_name(),
                med,
                first_ms,
                compile_ms
            );
        }
        rows.push(Row {
            semiring: S::full_name(),
            format: name,
            compile_ms,
            median_ms: med,
            min_ms: t.min_ms(),
            gbs: bytes / (med * 1e6),
            ratio: med / peer_ms,
            check,
        });
    }
    gpu.set_csr_kernel(None);
    Ok(())
}

/// `ok`, or what differs: exact for selecting semirings, relative 1e-5 for plus-times floats
/// (summation order differs).
fn check<S: Semiring>(got: &[S::T], want: &[S::T]) -> String {
    let float = matches!(
        <S::T as Scalar>::TYPE.name(),
        "f16" | "bf16" | "f32" | "f64"
    );
    let bad = got
        .iter()
        .zip(want)
        .filter(|(g, w)| {
            if g.to_bits64() == w.to_bits64() || *g == *w {
                return false;
            }
            if S::NAME == "plus_times" && float {
                let (g, w) = (
                    g.to_string().parse::<f64>().unwrap_or(f64::NAN),
                    w.to_string().parse::<f64>().unwrap_or(f64::NAN),
                );
                return (g - w).abs() > 1e-5 * w.abs().max(1.0);
            }
            true
        })
        .count();
    if bad == 0 {
        "ok".into()
    } else {
        format!("{bad} of {} differ from the CPU", want.len())
    }
}

/// Runs the SpMV benchmark on `g` and writes the table.
pub fn spmv(
    c: &Common,
    g: &EdgeList,
    label: &str,
    semirings: &[String],
    formats: &[Format],
    runs: usize,
) -> Res<()> {
    let mut gpu = GpuBackend::new().map_err(|e| CliError(format!("bench needs a GPU: {e}")))?;
    let runs = runs.max(20);
    let pt = g.to_csr::<PlusTimes<f32>, u32>()?;
    let st = Stats::of(&pt);
    let copy = gpu.copy_bandwidth(1 << 30, 20)?;
    let xs = x_values::<PlusTimes<f32>>(pt.ncols());
    let mut peer = CusparseSpmv::new(&gpu, &pt, &xs)?;
    let peer_t = gpu.time(3, runs, || peer.run())?;
    let peer_ms = peer_t.median_ms();
    let peer_check = check::<PlusTimes<f32>>(&peer.result()?, &pt.spmv(&xs));
    let peer_bytes = min_bytes(pt.nrows(), pt.ncols(), pt.nnz(), 4);
    drop(peer);
    let mut rows = Vec::new();
    for s in semirings {
        match s.as_str() {
            "min-plus:f32" => bench_semiring::<MinPlus<f32>>(
                &mut gpu, g, formats, runs, peer_ms, &mut rows, c.quiet,
            )?,
            "plus-times:f32" => bench_semiring::<PlusTimes<f32>>(
                &mut gpu, g, formats, runs, peer_ms, &mut rows, c.quiet,
            )?,
            "min-plus:i32" => bench_semiring::<MinPlus<i32>>(
                &mut gpu, g, formats, runs, peer_ms, &mut rows, c.quiet,
            )?,
            "min-plus:f64" => bench_semiring::<MinPlus<f64>>(
                &mut gpu, g, formats, runs, peer_ms, &mut rows, c.quiet,
            )?,
            "or-and:bool" => {
                bench_semiring::<OrAnd>(&mut gpu, g, formats, runs, peer_ms, &mut rows, c.quiet)?
            }
            other => {
                return Err(CliError(format!(
                    "bench: unknown semiring {other} (min-plus:f32, plus-times:f32, min-plus:i32, min-plus:f64, or-and:bool)"
                )));
            }
        }
    }
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let v = json!({
                "graph": label, "nrows": pt.nrows(), "nnz": pt.nnz(), "device": gpu.device_name(),
                "runs": runs, "copy_gbs": copy,
                "cusparse": {"median_ms": peer_ms, "min_ms": peer_t.min_ms(), "gbs": peer_bytes / (peer_ms * 1e6), "check": peer_check},
                "rows": rows.iter().map(|r| json!({"semiring": r.semiring, "format": r.format,
                    "compile_ms": r.compile_ms, "median_ms": r.median_ms, "min_ms": r.min_ms,
                    "gbs": r.gbs, "ratio_to_cusparse": r.ratio, "check": r.check})).collect::<Vec<_>>(),
            });
            writeln!(w, "{v:#}")?;
            return Ok(());
        }
        writeln!(w, "# SpMV on {} ({})", label, gpu.device_name())?;
        writeln!(
            w,
            "# {} rows, {} entries, max row {}, recommended format {}; median of {runs} runs after 3 warm-ups (CUDA events); compile time apart",
            pt.nrows(),
            pt.nnz(),
            st.row_len_max,
            st.recommend().0.name()
        )?;
        writeln!(w, "# device copy bandwidth (read + write): {copy:.0} GB/s; GB/s below = minimal CSR bytes / time")?;
        writeln!(
            w,
            "{:<16} {:<22} {:>10} {:>10} {:>10} {:>8} {:>9} {:>10}  check",
            "semiring", "format", "median ms", "min ms", "compile ms", "GB/s", "% copy", "/cuSPARSE"
        )?;
        writeln!(
            w,
            "{:<16} {:<22} {:>10.4} {:>10.4} {:>10} {:>8.0} {:>8.0}% {:>10.2}  {}",
            "plus_times_f32",
            "cuSPARSE CSR",
            peer_ms,
            peer_t.min_ms(),
            "-",
            peer_bytes / (peer_ms * 1e6),
            100.0 * peer_bytes / (peer_ms * 1e6) / copy,
            1.0,
            peer_check
        )?;
        for r in &rows {
            writeln!(
                w,
                "{:<16} {:<22} {:>10.4} {:>10.4} {:>10.1} {:>8.0} {:>8.0}% {:>10.2}  {}",
                r.semiring,
                r.format,
                r.median_ms,
                r.min_ms,
                r.compile_ms,
                r.gbs,
                100.0 * r.gbs / copy,
                r.ratio,
                r.check
            )?;
        }
        Ok(())
    })?;
    Ok(())
}
