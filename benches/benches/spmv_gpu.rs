//! SpMV on the GPU per format (min-plus f32) against cuSPARSE's CSR SpMV (plus-times f32) on
//! the same matrix, timed with CUDA events (`iter_custom`), compile time kept out by a
//! warm-up. The graph: a 2-D grid of `SEMIGRAPH_BENCH_GRID`² vertices (default 4096², 16.8M)
//! and a Kronecker graph of scale `SEMIGRAPH_BENCH_SCALE` (default 22).
//!
//! Without a GPU it prints `SKIPPED` and measures nothing.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use semigraph_algos::Mask;
use semigraph_algos::prelude::*;
use semigraph_formats::{Csr, Format, generate};
use semigraph_gpu::GpuBackend;
use semigraph_gpu::peers::CusparseSpmv;
use semigraph_semiring::{MinPlus, PlusTimes};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn bench_graph(c: &mut Criterion, gpu: &GpuBackend, label: &str, g: &semigraph_formats::EdgeList) {
    let a: Csr<MinPlus<f32>> = g.to_csr().expect("f32 weights");
    let pt: Csr<PlusTimes<f32>> = g.to_csr().expect("f32 weights");
    let x: Vec<f32> = (0..a.ncols()).map(|i| (i % 13 + 1) as f32).collect();
    let mut group = c.benchmark_group(format!("spmv/{label}"));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3));
    let mut peer = CusparseSpmv::new(gpu, &pt, &x).expect("cuSPARSE");
    group.bench_function("cusparse_csr_plus_times_f32", |b| {
        b.iter_custom(|iters| {
            let t = gpu
                .time(1, iters as usize, || peer.run())
                .expect("cuSPARSE SpMV");
            Duration::from_secs_f64(t.runs_ms.iter().sum::<f64>() / 1e3)
        })
    });
    drop(peer);
    let xd = gpu.dense::<MinPlus<f32>>(a.ncols(), 1, &x).expect("x");
    for format in [
        Format::Csr,
        Format::Ell,
        Format::Dia,
        Format::Coo,
        Format::Hyb,
    ] {
        let Ok(m) = gpu.matrix(&a, format, &Default::default()) else {
            continue; // a format the matrix does not fit (fill limits)
        };
        let mut y = gpu
            .dense_filled::<MinPlus<f32>>(a.nrows(), 1, f32::INFINITY)
            .expect("y");
        group.bench_function(format!("{}_min_plus_f32", format.name()), |b| {
            b.iter_custom(|iters| {
                let t = gpu
                    .time(1, iters as usize, || {
                        gpu.mxm(&mut y, Mask::All, Default::default(), &m, &xd)
                    })
                    .expect("SpMV");
                Duration::from_secs_f64(t.runs_ms.iter().sum::<f64>() / 1e3)
            })
        });
    }
    group.finish();
}

fn spmv(c: &mut Criterion) {
    let gpu = match GpuBackend::new() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("SKIPPED: no GPU backend: {e}");
            return;
        }
    };
    let side = env_or("SEMIGRAPH_BENCH_GRID", 4096);
    bench_graph(
        c,
        &gpu,
        &format!("grid{side}"),
        &generate::grid(side, side, 1, 100, 1),
    );
    let scale = env_or("SEMIGRAPH_BENCH_SCALE", 22) as u32;
    let mut k = generate::kronecker(scale, 16, 1);
    k.assign_weights(semigraph_formats::edgelist::WeightSpec::Uniform {
        lo: 1,
        hi: 100,
        seed: 1,
    });
    bench_graph(c, &gpu, &format!("kronecker{scale}"), &k);
}

criterion_group!(benches, spmv);
criterion_main!(benches);
