//! A semiring of one's own, end to end: `(max, *)` over `f64`, the most reliable path when an
//! arc's weight is the probability that it works.
//!
//! Defined with `semiring!`; checked (its laws on sample values, and its CUDA source with NVRTC
//! where NVRTC is installed); run as a label-correcting loop written from `Backend` calls, on
//! the CPU and, where one can be opened, on the GPU; checked against `sprs` products in the
//! same semiring (`SrVal`).
//!
//! `cargo run --release -p semigraph --example user_semiring`

use semigraph::prelude::*;
use semigraph::semiring::SrVal;
use sprs::TriMat;

semiring! {
    /// `(max, *)` over `f64`: the probability of the most reliable path.
    pub struct MaxTimes: f64 {
        name: "max_times",
        zero: 0.0,
        one: 1.0,
        add: |a, b| if b > a { b } else { a } => "b > a ? b : a",
        mul: |a, b| a * b => "a * b",
    }
}

/// The reliability of the best path from `source` to every vertex: `r = e(source)`, then
/// `r = r (+) A^T (x) r` until nothing improves (at most `n` rounds: with probabilities at most
/// 1 no cycle helps).
fn most_reliable<B: Frontier>(
    g: &Graph<'_, B, MaxTimes>,
    source: usize,
) -> semigraph::algos::Result<(Vec<f64>, usize)> {
    let (b, n) = (g.backend(), g.n());
    let at = g.require_pull("most reliable paths")?;
    let mut r = b.unit::<MaxTimes>(n, source, 1.0)?;
    let mut t = b.dense_filled::<MaxTimes>(n, 1, 0.0)?;
    let mut rounds = 0;
    while rounds < n {
        rounds += 1;
        b.mxm(&mut t, Mask::All, Accum::Replace, at, &r)?;
        if b.improve_dense(&mut r, &t)? == 0 {
            break;
        }
    }
    Ok((b.read_dense(&r)?, rounds))
}

/// The same fixed point with `sprs`, whose products are `MaxTimes` products on `SrVal`.
fn with_sprs(n: usize, arcs: &[(u32, u32, f64)], source: usize) -> Vec<f64> {
    let mut t = TriMat::new((n, n));
    for &(u, v, p) in arcs {
        t.add_triplet(v as usize, u as usize, SrVal::<MaxTimes>::new(p)); // A^T
    }
    let at = t.to_csr::<usize>();
    let mut r = vec![0.0; n];
    r[source] = 1.0;
    loop {
        let mut col = TriMat::new((n, 1));
        for (i, &x) in r.iter().enumerate().filter(|p| *p.1 > 0.0) {
            col.add_triplet(i, 0, SrVal::<MaxTimes>::new(x));
        }
        let y = &at * &col.to_csc::<usize>();
        let mut changed = false;
        for (v, (i, _)) in y.iter() {
            let nv = MaxTimes::add(r[i], v.get());
            changed |= nv != r[i];
            r[i] = nv;
        }
        if !changed {
            return r;
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Check the semiring before using it, on the values it is meant for: (max, *) is a
    //    semiring on the non-negative numbers only (check_semiring::<MaxTimes>() says so), and
    //    the samples are exact in f64 so that the laws can be compared exactly.
    check_semiring_with::<MaxTimes>(&[0.125, 0.375, 0.5, 0.75, 2.0])?;
    if semigraph::gpu::nvrtc_present() {
        semigraph::gpu::check_cuda::<MaxTimes>()?;
        println!("MaxTimes: laws hold on the samples; its CUDA compiles with NVRTC");
    } else {
        println!("MaxTimes: laws hold on the samples (no NVRTC here: CUDA not compiled)");
    }

    // 2. A graph whose arcs carry probabilities (deterministic, 300 vertices, 3 arcs each).
    let n = 300usize;
    let mut arcs = Vec::new();
    for i in 0..n as u32 {
        for (j, step) in [(0u32, 1u32), (1, 7), (2, 31)] {
            let v = (i * 13 + step * (j + 1)) % n as u32;
            let p = 0.5 + f64::from((i * 31 + j * 17) % 50) / 100.0;
            arcs.push((i, v, p));
        }
    }
    arcs.sort_by_key(|a| (a.0, a.1));
    arcs.dedup_by_key(|a| (a.0, a.1));
    let a = arcs_to_csr::<MaxTimes>(n, &arcs)?;
    let opts = GraphOptions {
        pull: true,
        ..Default::default()
    };

    // 3. Run it on the CPU, check against sprs.
    let cpu = CpuBackend::new();
    let (r, rounds) = most_reliable(&Graph::new(&cpu, &a, opts)?, 0)?;
    assert_eq!(r, with_sprs(n, &arcs, 0), "CPU and sprs differ");
    let best = (1..n).max_by(|&x, &y| r[x].total_cmp(&r[y])).unwrap_or(0);
    println!(
        "CPU: {rounds} rounds; the equal of sprs; most reliable target {best} ({:.4}), least {:.3e}",
        r[best],
        r.iter().copied().fold(1.0, f64::min)
    );

    // 4. The same on the GPU, where there is one: the same bits (max is exact, and each
    //    candidate is the same product).
    match GpuBackend::new() {
        Ok(gpu) => {
            let (rg, _) = most_reliable(&Graph::new(&gpu, &a, opts)?, 0)?;
            assert_eq!(rg, r, "GPU and CPU differ");
            println!("GPU ({}): the same values", gpu.device_name());
        }
        Err(e) => println!("GPU: not run ({e})"),
    }
    Ok(())
}
