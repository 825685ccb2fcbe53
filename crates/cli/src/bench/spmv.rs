//! `semigraph bench spmv`: SpMV per format and semiring on the GPU against cuSPARSE, or on the
//! CPU backend against sprs, in one run.

use std::time::{Duration, Instant};

use semigraph_algos::prelude::*;
use semigraph_algos::{CpuBackend, Mask};
use semigraph_formats::{EdgeList, Format, Stats};
use semigraph_gpu::peers::{CusparseSpmv, Timing};
use semigraph_gpu::{CsrKernel, GpuBackend};
use semigraph_semiring::{PlusTimes, Scalar, Semiring};
use serde_json::json;

use crate::args::BackendChoice;
use crate::args::Common;
use crate::error::{CliError, Res};
use crate::output::Output;

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

/// Test values for `x` ([`test_value_at`] 0..n); with `density < 1`, only that share of the
/// positions (picked by a fixed hash of the position) holds a value, the rest `S::zero()`.
fn x_values<S: Semiring>(n: usize, density: f64) -> Vec<S::T>
where
    S::T: semigraph_formats::WeightValue,
{
    (0..n)
        .map(|i| {
            if density >= 1.0 || kept(i, density) {
                test_value_at::<S>(i)
            } else {
                S::zero()
            }
        })
        .collect()
}

/// Whether position `i` is among the `density` share that [`x_values`] sets.
fn kept(i: usize, density: f64) -> bool {
    let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40; // 24 well-mixed bits
    (h as f64) < density * (1u64 << 24) as f64
}

/// The matrix of `g` in semiring `S` (the pattern for or-and), `x`, the CPU reference
/// `A x`, and the bytes an SpMV moves at least. `x` is full, except for a semiring with a
/// terminal value (or-and), where only `terminal_x_density` of it is set: a full `x` would
/// stop every row at its first entry, a sparse one (a BFS frontier) makes rows read on.
pub(crate) struct Problem<S: Semiring> {
    pub(crate) a: semigraph_formats::Csr<S>,
    pub(crate) x: Vec<S::T>,
    pub(crate) want: Vec<S::T>,
    pub(crate) bytes: f64,
}

impl<S: Semiring> Problem<S>
where
    S::T: semigraph_formats::WeightValue,
{
    pub(crate) fn of(g: &EdgeList, terminal_x_density: f64) -> Res<Self> {
        let a = if S::reads_structure_only() {
            g.to_pattern_csr::<S, u32>()?
        } else {
            g.to_csr::<S, u32>()?
        };
        let density = if S::HAS_TERMINAL {
            terminal_x_density
        } else {
            1.0
        };
        let x = x_values::<S>(a.ncols(), density);
        let want = a.spmv(&x);
        let bytes = min_bytes(a.nrows(), a.ncols(), a.nnz(), size_of::<S::T>());
        Ok(Problem { a, x, want, bytes })
    }
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
    let Problem { a, x, want, bytes } = Problem::<S>::of(g, 1.0)?;
    let auto = CsrKernel::choose(&semigraph_gpu::RowShape::of(&a));
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
pub(crate) fn check<S: Semiring>(got: &[S::T], want: &[S::T]) -> String {
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
            // A float sum depends on the order of its terms.
            if S::ADD == semigraph_semiring::Op::Plus && float {
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

/// Runs `$bench::<S>($args...)` for the built-in semiring named `$s` (`min-plus:f32`, ...).
macro_rules! for_semiring {
    ($s:expr, $bench:ident, $($arg:expr),*) => {{
        let s: &str = $s;
        semigraph_semiring::with_builtin!(s, S => $bench::<S>($($arg),*)).unwrap_or_else(|| {
            Err(CliError(format!(
                "bench: no built-in semiring {s} (`semigraph spmv --help` lists them)"
            )))
        })
    }};
}
pub(crate) use for_semiring;

/// The reference row of a table: the peer library on plus-times f32.
struct Peer {
    name: &'static str,
    median_ms: f64,
    min_ms: f64,
    gbs: f64,
    check: String,
}

/// Runs the SpMV benchmark on `g` and writes the table: on the GPU (cuSPARSE as the peer)
/// unless `--backend cpu`, or `auto` finds no GPU; then on the CPU backend (sprs's CSR
/// product, one core, as the peer).
pub fn spmv(
    c: &Common,
    g: &EdgeList,
    label: &str,
    semirings: &[String],
    formats: &[Format],
    runs: usize,
) -> Res<()> {
    let gpu = match c.backend {
        BackendChoice::Cpu => None,
        BackendChoice::Gpu => {
            Some(GpuBackend::new().map_err(|e| CliError(format!("bench spmv on the GPU: {e}")))?)
        }
        BackendChoice::Auto => GpuBackend::new().ok(),
    };
    match gpu {
        Some(gpu) => spmv_gpu(c, gpu, g, label, semirings, formats, runs),
        None => spmv_cpu(c, g, label, semirings, formats, runs),
    }
}

/// The GPU: every format and CSR kernel of each semiring, against cuSPARSE's CSR SpMV.
fn spmv_gpu(
    c: &Common,
    mut gpu: GpuBackend,
    g: &EdgeList,
    label: &str,
    semirings: &[String],
    formats: &[Format],
    runs: usize,
) -> Res<()> {
    let runs = runs.max(20);
    let pt = g.to_csr::<PlusTimes<f32>, u32>()?;
    let copy = gpu.copy_bandwidth(1 << 30, 20)?;
    let xs = x_values::<PlusTimes<f32>>(pt.ncols(), 1.0);
    let mut cusparse = CusparseSpmv::new(&gpu, &pt, &xs)?;
    let peer_t = gpu.time(3, runs, || cusparse.run())?;
    let peer_ms = peer_t.median_ms();
    let peer = Peer {
        name: "cuSPARSE CSR",
        median_ms: peer_ms,
        min_ms: peer_t.min_ms(),
        gbs: min_bytes(pt.nrows(), pt.ncols(), pt.nnz(), 4) / (peer_ms * 1e6),
        check: check::<PlusTimes<f32>>(&cusparse.result()?, &pt.spmv(&xs)),
    };
    drop(cusparse);
    let mut rows = Vec::new();
    for s in semirings {
        for_semiring!(
            s.as_str(),
            bench_semiring,
            &mut gpu,
            g,
            formats,
            runs,
            peer_ms,
            &mut rows,
            c.quiet
        )?;
    }
    write_table(
        c,
        label,
        gpu.device_name(),
        &pt,
        runs,
        copy,
        &peer,
        &rows,
        "CUDA events",
    )
}

/// The CPU backend: every format of each semiring, against sprs's sequential CSR product.
fn spmv_cpu(
    c: &Common,
    g: &EdgeList,
    label: &str,
    semirings: &[String],
    formats: &[Format],
    runs: usize,
) -> Res<()> {
    let runs = runs.max(20);
    let cpu = CpuBackend::new();
    let pt = g.to_csr::<PlusTimes<f32>, u32>()?;
    let xs = x_values::<PlusTimes<f32>>(pt.ncols(), 1.0);
    let sp = pt.to_sprs();
    let mut y = vec![0f32; pt.nrows()];
    let peer_times = time_host(runs, || {
        y.fill(0.0);
        sprs::prod::mul_acc_mat_vec_csr(sp.view(), &xs[..], &mut y[..]);
    });
    let (peer_ms, peer_min) = median_min_ms(peer_times);
    let peer = Peer {
        name: "sprs CSR (1 core)",
        median_ms: peer_ms,
        min_ms: peer_min,
        gbs: min_bytes(pt.nrows(), pt.ncols(), pt.nnz(), 4) / (peer_ms * 1e6),
        check: check::<PlusTimes<f32>>(&y, &pt.spmv(&xs)),
    };
    let copy = host_copy_bandwidth();
    let mut rows = Vec::new();
    for s in semirings {
        for_semiring!(
            s.as_str(),
            bench_semiring_cpu,
            &cpu,
            g,
            formats,
            runs,
            peer_ms,
            &mut rows,
            c.quiet
        )?;
    }
    write_table(
        c,
        label,
        &cpu.name(),
        &pt,
        runs,
        copy,
        &peer,
        &rows,
        "host clock",
    )
}

/// Times every format of semiring `S` on the CPU backend.
fn bench_semiring_cpu<S: Semiring>(
    cpu: &CpuBackend,
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
    let Problem { a, x, want, bytes } = Problem::<S>::of(g, 1.0)?;
    let xd = cpu.dense::<S>(a.ncols(), 1, &x)?;
    for &format in formats {
        let m = match cpu.matrix(&a, format, &Default::default()) {
            Ok(m) => m,
            Err(e) => {
                if !quiet {
                    eprintln!(
                        "semigraph bench: {} {}: skipped: {e}",
                        S::full_name(),
                        format.name()
                    );
                }
                continue;
            }
        };
        let mut y = cpu.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        cpu.mxm(&mut y, Mask::All, Default::default(), &m, &xd)?;
        let check = check::<S>(&cpu.read_dense(&y)?, &want);
        let mut failed = None;
        let times = time_host(runs, || {
            if let Err(e) = cpu.mxm(&mut y, Mask::All, Default::default(), &m, &xd) {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let (med, min) = median_min_ms(times);
        rows.push(Row {
            semiring: S::full_name(),
            format: format.name().to_string(),
            compile_ms: 0.0,
            median_ms: med,
            min_ms: min,
            gbs: bytes / (med * 1e6),
            ratio: med / peer_ms,
            check,
        });
    }
    Ok(())
}

/// `runs` timings of `f` on the host clock after 3 untimed calls.
pub(crate) fn time_host(runs: usize, mut f: impl FnMut()) -> Vec<Duration> {
    for _ in 0..3 {
        f();
    }
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect()
}

/// Median and minimum, in milliseconds.
pub(crate) fn median_min_ms(mut t: Vec<Duration>) -> (f64, f64) {
    t.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(t[t.len() / 2]), ms(t[0]))
}

/// The host's copy bandwidth (read + write, GB/s): 256 MiB copied by every thread in 1 MiB
/// pieces, the best of 5.
fn host_copy_bandwidth() -> f64 {
    use rayon::prelude::*;
    let n = 256 << 20;
    let src = vec![1u8; n];
    let mut dst = vec![0u8; n];
    let best = (0..5)
        .map(|_| {
            let t = Instant::now();
            dst.par_chunks_mut(1 << 20)
                .zip(src.par_chunks(1 << 20))
                .for_each(|(d, s)| d.copy_from_slice(s));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    2.0 * n as f64 / best / 1e9
}

/// Prints (or writes as JSON) the table of a run.
#[allow(clippy::too_many_arguments)]
fn write_table(
    c: &Common,
    label: &str,
    device: &str,
    pt: &semigraph_formats::Csr<PlusTimes<f32>>,
    runs: usize,
    copy: f64,
    peer: &Peer,
    rows: &[Row],
    clock: &str,
) -> Res<()> {
    let st = Stats::of(pt);
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let v = json!({
                "graph": label, "nrows": pt.nrows(), "nnz": pt.nnz(), "device": device,
                "runs": runs, "copy_gbs": copy,
                "peer": {"name": peer.name, "median_ms": peer.median_ms, "min_ms": peer.min_ms,
                    "gbs": peer.gbs, "check": peer.check},
                "rows": rows.iter().map(|r| json!({"semiring": r.semiring, "format": r.format,
                    "compile_ms": r.compile_ms, "median_ms": r.median_ms, "min_ms": r.min_ms,
                    "gbs": r.gbs, "ratio_to_peer": r.ratio, "check": r.check})).collect::<Vec<_>>(),
            });
            writeln!(w, "{v:#}")?;
            return Ok(());
        }
        writeln!(w, "# SpMV on {label} ({device})")?;
        writeln!(
            w,
            "# {} rows, {} entries, max row {}, recommended format {}; median of {runs} runs after 3 warm-ups ({clock}); compile time apart",
            pt.nrows(),
            pt.nnz(),
            st.features.row_len_max,
            st.recommend().0.name()
        )?;
        writeln!(w, "# copy bandwidth (read + write): {copy:.0} GB/s; GB/s below = minimal CSR bytes / time")?;
        writeln!(
            w,
            "{:<16} {:<22} {:>10} {:>10} {:>10} {:>8} {:>9} {:>10}  check",
            "semiring", "format", "median ms", "min ms", "compile ms", "GB/s", "% copy", "/peer"
        )?;
        writeln!(
            w,
            "{:<16} {:<22} {:>10.4} {:>10.4} {:>10} {:>8.0} {:>8.0}% {:>10.2}  {}",
            "plus_times_f32",
            peer.name,
            peer.median_ms,
            peer.min_ms,
            "-",
            peer.gbs,
            100.0 * peer.gbs / copy,
            1.0,
            peer.check
        )?;
        for r in rows {
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
