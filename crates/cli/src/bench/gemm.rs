//! `semigraph bench gemm`: dense semiring GEMM for each semiring and type against cuBLAS SGEMM,
//! in one run.

use semigraph_algos::prelude::*;
use semigraph_algos::{Accum, Mask};
use semigraph_gpu::peers::{CublasSgemm, lane_ops_per_second};
use semigraph_gpu::{GemmKernel, GpuBackend, Kernel};
use semigraph_semiring::{PlusTimes, Scalar, Semiring};
use serde_json::json;

use super::spmv::test_value_at;
use crate::args::Common;
use crate::error::{CliError, Res};
use crate::output::Output;

/// One measured semiring.
struct Row {
    semiring: String,
    kernel: String,
    compile_ms: f64,
    median_ms: f64,
    min_ms: f64,
    check: String,
}

/// Operands: the test values (1..=13), or those multiplied by `offset` in the semiring.
#[derive(Clone, Copy)]
struct Values {
    offset: i64,
}

/// Times `C = A (+).(x) B` of order `n` in semiring `S`; checks 64 sampled entries against the
/// host.
fn bench_one<S: Semiring>(
    gpu: &GpuBackend,
    kernel: GemmKernel,
    n: usize,
    runs: usize,
    rows: &mut Vec<Row>,
    values: Values,
) -> Res<()>
where
    S::T: semigraph_formats::WeightValue,
{
    let value = |i: usize| -> S::T {
        let v = test_value_at::<S>(i);
        if values.offset == 0 {
            return v;
        }
        let w = semigraph_formats::Weight::Int(values.offset);
        <S::T as semigraph_formats::WeightValue>::from_weight(w)
            .map(|o| S::mul(v, o))
            .unwrap_or(v)
    };
    let a: Vec<S::T> = (0..n * n).map(value).collect();
    let b: Vec<S::T> = (0..n * n).map(|i| value(i + 12345)).collect();
    let before = gpu.compile_stats();
    let k = match kernel {
        GemmKernel::Tile16 => Kernel::Gemm,
        GemmKernel::Reg128 => Kernel::GemmReg,
    };
    gpu.warm_up::<S>(&[k, Kernel::GemmPacked, Kernel::FastCheck])?;
    let after = gpu.compile_stats();
    let compile_ms =
        (after.compile_time + after.disk_time - before.compile_time - before.disk_time)
            .as_secs_f64()
            * 1e3;
    let (da, db) = (gpu.dense::<S>(n, n, &a)?, gpu.dense::<S>(n, n, &b)?);
    // The register-tile kernel takes the semiring's packed 16-bit form or its fast
    // multiply-add when every operand lies in that form's domain (checked on the device); the
    // row says which ran.
    let kname = gpu.gemm_path(&da, &db)?.name().to_string();
    let mut dc = gpu.dense_filled::<S>(n, n, S::zero())?;
    let t = gpu.time(1, runs, || {
        gpu.gemm(&mut dc, Mask::All, Accum::Replace, &da, &db)
    })?;
    let c = gpu.read_dense(&dc)?;
    let mut bad = 0;
    for s in 0..64usize {
        let (i, j) = ((s * 7_919 + 11) % n, (s * 104_729 + 5) % n);
        let mut acc = S::zero();
        for k in 0..n {
            acc = S::add(acc, S::mul_at(a[i * n + k], b[k * n + j], k as u64));
        }
        if acc.to_bits64() != c[i * n + j].to_bits64() {
            bad += 1;
        }
    }
    let check = if bad == 0 {
        "ok (64 sampled entries)".to_string()
    } else {
        format!("MISMATCH in {bad} of 64 sampled entries")
    };
    rows.push(Row {
        semiring: if values.offset == 0 {
            S::full_name()
        } else {
            format!("{} (x{})", S::full_name(), values.offset)
        },
        kernel: kname,
        compile_ms,
        median_ms: t.median_ms(),
        min_ms: t.min_ms(),
        check,
    });
    Ok(())
}

/// `bench gemm` runs any built-in semiring (`name:type`); a `+wide` suffix multiplies the test
/// values (1..=13) by 10,000 in the semiring (min-plus: adds it), so that they leave 16-bit
/// packing.
fn dispatch(
    gpu: &GpuBackend,
    k: GemmKernel,
    s: &str,
    n: usize,
    runs: usize,
    rows: &mut Vec<Row>,
) -> Res<()> {
    let (s, values) = match s.strip_suffix("+wide") {
        Some(base) => (base, Values { offset: 10_000 }),
        None => (s, Values { offset: 0 }),
    };
    crate::bench::for_semiring!(s, bench_one, gpu, k, n, runs, rows, values)
}

/// `semigraph bench gemm --n N`: each semiring's GEMM of order `n`, then cuBLAS SGEMM on
/// operands of the same order, in one run (CUDA events, medians, compile time apart).
pub(crate) fn gemm_bench(c: &Common, n: usize, semirings: &[String], runs: usize) -> Res<()> {
    if n == 0 {
        return Err(CliError("bench gemm: --n must be at least 1".into()));
    }
    let mut gpu = GpuBackend::new().map_err(|e| CliError(format!("bench needs a GPU: {e}")))?;
    let runs = runs.max(10);
    let mut rows = Vec::new();
    for s in semirings {
        for k in [GemmKernel::Tile16, GemmKernel::Reg128] {
            gpu.set_gemm_kernel(Some(k));
            dispatch(&gpu, k, s, n, runs, &mut rows)?;
        }
    }
    gpu.set_gemm_kernel(None);
    let fa: Vec<f32> = (0..n * n).map(test_value_at::<PlusTimes<f32>>).collect();
    let fb: Vec<f32> = (0..n * n)
        .map(|i| test_value_at::<PlusTimes<f32>>(i + 12345))
        .collect();
    let mut peer = CublasSgemm::new(&gpu, n, &fa, &fb)?;
    let peer_t = gpu.time(2, runs, || peer.run())?;
    let pc = peer.result()?;
    let (i, j) = (n / 3, n / 2);
    let want: f64 = (0..n)
        .map(|k| fa[i * n + k] as f64 * fb[k * n + j] as f64)
        .sum();
    let peer_check = if ((pc[i * n + j] as f64 - want) / want).abs() < 1e-4 {
        "ok (1 sampled entry)"
    } else {
        "MISMATCH"
    };
    drop(peer);
    let lane_ops = lane_ops_per_second(&gpu)?;
    let pairs = (n as f64).powi(3);
    let peer_ms = peer_t.median_ms();
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let v = json!({
                "n": n, "device": gpu.device_name(), "runs": runs,
                "lane_ops_per_second": lane_ops,
                "cublas_sgemm": {"median_ms": peer_ms, "min_ms": peer_t.min_ms(), "check": peer_check},
                "rows": rows.iter().map(|r| json!({"semiring": r.semiring, "kernel": r.kernel, "compile_ms": r.compile_ms,
                    "median_ms": r.median_ms, "min_ms": r.min_ms,
                    "pairs_per_second": pairs / (r.median_ms * 1e-3),
                    "fraction_of_ceiling": 2.0 * pairs / (r.median_ms * 1e-3) / lane_ops,
                    "time_vs_cublas": r.median_ms / peer_ms, "check": r.check})).collect::<Vec<_>>(),
            });
            writeln!(w, "{v:#}")?;
            return Ok(());
        }
        writeln!(w, "# GEMM n = {n} on {}; median of {runs} runs (CUDA events), compile time apart", gpu.device_name())?;
        writeln!(
            w,
            "# ceiling: SMs x 128 lanes x max SM clock = {:.1} T instructions/s; a semiring pair (add + multiply) takes 2, so {:.2} T pairs/s",
            lane_ops / 1e12,
            lane_ops / 2e12
        )?;
        writeln!(
            w,
            "{:<18} {:<7} {:>10} {:>10} {:>10} {:>12} {:>10} {:>10}  check",
            "semiring", "kernel", "median ms", "min ms", "compile ms", "T pairs/s", "% ceiling", "/cuBLAS"
        )?;
        writeln!(
            w,
            "{:<18} {:<7} {:>10.3} {:>10.3} {:>10} {:>12.2} {:>10} {:>10.2}  {}",
            "cuBLAS SGEMM f32",
            "-",
            peer_ms,
            peer_t.min_ms(),
            "-",
            pairs / (peer_ms * 1e-3) / 1e12,
            "-",
            1.0,
            peer_check
        )?;
        for r in &rows {
            let rate = pairs / (r.median_ms * 1e-3);
            writeln!(
                w,
                "{:<18} {:<7} {:>10.3} {:>10.3} {:>10.1} {:>12.2} {:>9.1}% {:>10.2}  {}",
                r.semiring,
                r.kernel,
                r.median_ms,
                r.min_ms,
                r.compile_ms,
                rate / 1e12,
                100.0 * 2.0 * rate / lane_ops,
                r.median_ms / peer_ms,
                r.check
            )?;
        }
        Ok(())
    })?;
    Ok(())
}
