//! Dense semiring GEMM on the GPU (the kernel `GemmKernel::choose` picks, with the semiring's
//! fast multiply-add where the operands allow it) against cuBLAS SGEMM of the same order,
//! timed with CUDA events (`iter_custom`), compile time kept out by a warm-up. The order is
//! `SEMIGRAPH_BENCH_GEMM_N` (default 4096); the values are 1..13, as `semigraph bench gemm`.
//!
//! Without a GPU (or without cuBLAS for the peer) it prints `SKIPPED` and measures nothing.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use semigraph_algos::prelude::*;
use semigraph_algos::{Accum, Mask};
use semigraph_gpu::GpuBackend;
use semigraph_gpu::peers::{CublasSgemm, cublas_present};
use semigraph_semiring::{MaxMin, MinPlus, PlusTimes, Semiring};

fn order() -> usize {
    std::env::var("SEMIGRAPH_BENCH_GEMM_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096)
}

/// One semiring's GEMM of order `n` on values `value(i)`.
fn bench_semiring<S: Semiring>(
    c: &mut Criterion,
    gpu: &GpuBackend,
    n: usize,
    value: impl Fn(usize) -> S::T,
) {
    let a: Vec<S::T> = (0..n * n).map(&value).collect();
    let b: Vec<S::T> = (0..n * n).map(|i| value(i + 12345)).collect();
    let (da, db) = (
        gpu.dense::<S>(n, n, &a).expect("A"),
        gpu.dense::<S>(n, n, &b).expect("B"),
    );
    let mut dc = gpu.dense_filled::<S>(n, n, S::zero()).expect("C");
    let path = gpu.gemm_path(&da, &db).expect("operand check");
    let name = format!("{}_{}", S::full_name(), path.name());
    let mut group = c.benchmark_group(format!("gemm/{n}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function(name, |bch| {
        bch.iter_custom(|iters| {
            let t = gpu
                .time(1, iters as usize, || {
                    gpu.gemm(&mut dc, Mask::All, Accum::Replace, &da, &db)
                })
                .expect("GEMM");
            Duration::from_secs_f64(t.runs_ms.iter().sum::<f64>() / 1e3)
        })
    });
    group.finish();
}

fn gemm(c: &mut Criterion) {
    let gpu = match GpuBackend::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("SKIPPED: no GPU backend: {e}");
            return;
        }
    };
    let n = order();
    let v = |i: usize| (i.wrapping_mul(7919) % 13 + 1) as f32;
    if cublas_present() {
        let (a, b): (Vec<f32>, Vec<f32>) = (
            (0..n * n).map(v).collect(),
            (0..n * n).map(|i| v(i + 12345)).collect(),
        );
        let mut peer = CublasSgemm::new(&gpu, n, &a, &b).expect("cuBLAS");
        let mut group = c.benchmark_group(format!("gemm/{n}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(5));
        group.bench_function("cublas_sgemm_f32", |bch| {
            bch.iter_custom(|iters| {
                let t = gpu.time(1, iters as usize, || peer.run()).expect("SGEMM");
                Duration::from_secs_f64(t.runs_ms.iter().sum::<f64>() / 1e3)
            })
        });
        group.finish();
    } else {
        eprintln!("SKIPPED: cuBLAS SGEMM (libcublas not found)");
    }
    // 1..=13: the packed 16-bit form; 10,001..=10,013: the 32-bit fast form.
    bench_semiring::<MinPlus<i32>>(c, &gpu, n, |i| (i.wrapping_mul(7919) % 13 + 1) as i32);
    bench_semiring::<MinPlus<i32>>(c, &gpu, n, |i| (i.wrapping_mul(7919) % 13 + 10_001) as i32);
    bench_semiring::<MinPlus<f32>>(c, &gpu, n, v);
    bench_semiring::<MaxMin<f32>>(c, &gpu, n, v);
    bench_semiring::<PlusTimes<f32>>(c, &gpu, n, v);
}

criterion_group!(benches, gemm);
criterion_main!(benches);
