//! The GPU backend against the CPU backend on thousands of random graphs (sizes, densities,
//! weight ranges, negative weights and cycles, structured shapes): BFS levels and parents,
//! Bellman-Ford distances and predecessors in i32, i64 and f64, delta-stepping distances,
//! negative cycles and APSP, all exactly equal (see `semigraph_testkit::compare`).
//!
//! `SEMIGRAPH_RANDOM_GRAPHS` sets the number of graphs (default 2000), in 20 tests.
//!
//! The distributed algorithms (`semigraph_algos::dist`) on the GPU against one GPU: with `k`
//! simulated ranks on one GPU (exchanging through the host, `LocalComm`, and by copies within
//! the GPU, `SharedComm`), and on 2..=N real GPUs through NCCL (`NcclComm`; these need
//! several GPUs and NCCL, `SEMIGRAPH_REQUIRE_GPUS=1` makes their absence a failure).

use std::process::ExitCode;

use semigraph_algos::dist::{
    self, Communicator, DistGraph, DistOptions, LocalComm, Partition, Reduce,
};
use semigraph_algos::testing::TestGraph;
use semigraph_algos::{
    ApspMethod, ApspOptions, BfsOptions, BfsSemiring, Graph, GraphOptions, PageRankOptions,
};
use semigraph_formats::generate;
use semigraph_gpu::{GpuBackend, GpuComm, NcclComm, SharedComm};
use semigraph_testkit::compare::{compare_graph, random_graph};
use semigraph_testkit::harness::{Harness, Needs};

fn main() -> ExitCode {
    let needs = Needs::gpu(GpuBackend::new().err().map(|e| e.to_string()));
    let total: u64 = std::env::var("SEMIGRAPH_RANDOM_GRAPHS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let chunks = 20u64;
    let per = total.div_ceil(chunks);
    let mut h = Harness::new();
    for c in 0..chunks {
        let range = c * per..((c + 1) * per).min(total);
        h.test_needing(&needs, format!("random_graphs_{c:02}"), move || {
            let b = GpuBackend::new().map_err(|e| e.to_string())?;
            for k in range {
                let (tg, negative) = random_graph(k);
                compare_graph(&b, &tg, negative, k);
            }
            Ok(())
        });
    }
    h.test_needing(&needs, "csr_from_arcs_equals_the_host_build", || {
        Ok(csr_from_arcs_cases()?)
    });
    h.test_needing(&needs, "bfs_pulls_after_a_hub_as_on_the_cpu", || {
        Ok(bfs_after_a_hub()?)
    });
    h.test_needing(&needs, "distributed_ranks_on_one_gpu", || {
        let b = GpuBackend::new().map_err(|e| e.to_string())?;
        for k in [1, 3, 4] {
            same_as_one_gpu(&LocalComm::new(vec![&b; k]), &b)?;
        }
        Ok(())
    });
    h.test_needing(&needs, "distributed_blocks_sharing_one_gpu", || {
        // Ranks that share one backend and exchange by copies within the GPU (`SharedComm`),
        // through the `GpuComm` the CLI runs.
        for k in [1, 2, 3, 5] {
            let b = GpuBackend::new().map_err(|e| e.to_string())?;
            let comm = GpuComm::from(SharedComm::new(b, k).map_err(|e| e.to_string())?);
            same_as_one_gpu(&comm, comm.backend(0))?;
        }
        Ok(())
    });
    let count = semigraph_gpu::device_count();
    let gpus = Needs::new(
        "needs-gpus",
        "2 or more NVIDIA GPUs and NCCL",
        "SEMIGRAPH_REQUIRE_GPUS",
        match (count, semigraph_gpu::nccl_present()) {
            (c, _) if c < 2 => Some(format!("{c} GPU(s) present")),
            (_, false) => Some("NCCL (libnccl.so) not found".into()),
            _ => None,
        },
    );
    h.test_needing(&gpus, "distributed_nccl_equals_one_gpu", move || {
        let one = GpuBackend::new().map_err(|e| e.to_string())?;
        for k in 2..=count.max(2) {
            let comm = NcclComm::new(k).map_err(|e| e.to_string())?;
            same_as_one_gpu(&comm, &one)?;
        }
        Ok(())
    });
    h.run()
}

/// All-reduce by sum (f64), min (u32) and max (or on bool) over `comm`'s ranks.
fn collectives<C: Communicator<Backend = GpuBackend>>(comm: &C) -> Result<(), String> {
    use semigraph_algos::prelude::*;
    use semigraph_semiring::{MinSecond, OrAnd, PlusTimes};
    let k = comm.ranks();
    let e = |e: semigraph_algos::Error| e.to_string();
    let each = |f: &dyn Fn(usize) -> Vec<f64>| -> Result<Vec<_>, String> {
        (0..k)
            .map(|r| {
                comm.backend(r)
                    .dense::<PlusTimes<f64>>(3, 1, &f(r))
                    .map_err(e)
            })
            .collect()
    };
    let mut s = each(&|r| vec![r as f64, 1.0, 0.5])?;
    comm.all_reduce::<PlusTimes<f64>>(&mut s, Reduce::Sum)
        .map_err(e)?;
    let kf = k as f64;
    let want = vec![kf * (kf - 1.0) / 2.0, kf, kf / 2.0];
    let mut m: Vec<_> = (0..k)
        .map(|r| {
            comm.backend(r)
                .dense::<MinSecond<u32>>(2, 1, &[10 + r as u32, 7 - r as u32])
                .map_err(e)
        })
        .collect::<Result<_, _>>()?;
    comm.all_reduce::<MinSecond<u32>>(&mut m, Reduce::Min)
        .map_err(e)?;
    let mut o: Vec<_> = (0..k)
        .map(|r| {
            comm.backend(r)
                .dense::<OrAnd>(2, 1, &[r == 1, false])
                .map_err(e)
        })
        .collect::<Result<_, _>>()?;
    comm.all_reduce::<OrAnd>(&mut o, Reduce::Max).map_err(e)?;
    for r in 0..k {
        let b = comm.backend(r);
        if b.read_dense(&s[r]).map_err(e)? != want
            || b.read_dense(&m[r]).map_err(e)? != vec![10, 8 - k as u32]
            || b.read_dense(&o[r]).map_err(e)? != vec![k > 1, false]
        {
            return Err(format!("all-reduce on {k} ranks: rank {r} differs"));
        }
    }
    // All-gather of sparse blocks over an even split of 10 * k vertices: rank r holds local
    // ids 1, 3 and 4 valued 7 * global id (rank 1 none).
    let part = Partition::even(10 * k, k).map_err(e)?;
    let mut local = Vec::new();
    let mut want = (vec![], vec![]);
    for r in 0..k {
        let b = comm.backend(r);
        let mut q = b.queue::<MinSecond<u32>>(part.range(r).len()).map_err(e)?;
        let lo = part.range(r).start as u32;
        let ids: &[u32] = if r == 1 { &[] } else { &[4, 1, 3] };
        let vals: Vec<u32> = ids.iter().map(|i| 7 * (i + lo)).collect();
        b.queue_set(&mut q, ids, &vals, 5).map_err(e)?;
        local.push(q);
        let mut g: Vec<u32> = ids.iter().map(|i| i + lo).collect();
        g.sort();
        want.1.extend(g.iter().map(|i| 7 * i));
        want.0.extend(g);
    }
    let mut whole: Vec<_> = (0..k)
        .map(|r| comm.backend(r).queue::<MinSecond<u32>>(10 * k).map_err(e))
        .collect::<Result<_, _>>()?;
    let info = comm
        .all_gather_queue::<MinSecond<u32>>(&mut local, &mut whole, &part)
        .map_err(e)?;
    for r in 0..k {
        let b = comm.backend(r);
        let got = b.queue_read(&whole[r]).map_err(e)?;
        let len = b.queue_len(&whole[r]).map_err(e)?;
        if got != want || (info.len, len.len, len.steps) != (want.0.len(), want.0.len(), 5) {
            return Err(format!(
                "queue all-gather on {k} ranks: rank {r} holds {got:?} ({len:?}), want {want:?}"
            ));
        }
        if b.queue_len(&local[r]).map_err(e)?.len != 0 {
            return Err(format!(
                "queue all-gather: rank {r}'s local queue not emptied"
            ));
        }
    }
    for dense in [false, true] {
        for per in [10, 4099] {
            gather_set(comm, per, dense)?;
        }
    }
    Ok(())
}

/// The all-gather of a set (`all_gather_set`, by ids and as a bitmap) over an even split of
/// `per * k` vertices (blocks that do not start at a multiple of 32): rank `r` holds every
/// vertex whose local id `i` has `(i * (r + 3)) % 7 < 3` (rank 1 none), with step count
/// `3 + r`; every rank's whole queue must hold them all, each valued 9, with the largest step
/// count, and the local queues must be emptied.
fn gather_set<C: Communicator<Backend = GpuBackend>>(
    comm: &C,
    per: usize,
    dense: bool,
) -> Result<(), String> {
    use semigraph_algos::prelude::*;
    use semigraph_semiring::MinSecond;
    let k = comm.ranks();
    let e = |e: semigraph_algos::Error| e.to_string();
    let part = Partition::even(per * k, k).map_err(e)?;
    let (mut local, mut want) = (Vec::new(), Vec::new());
    for r in 0..k {
        let b = comm.backend(r);
        let own = part.range(r);
        let mut q = b.queue::<MinSecond<u32>>(own.len()).map_err(e)?;
        let ids: Vec<u32> = (0..own.len() as u32)
            .rev()
            .filter(|i| r != 1 && (*i as usize * (r + 3)) % 7 < 3)
            .collect();
        b.queue_set(&mut q, &ids, &vec![1; ids.len()], 3 + r)
            .map_err(e)?;
        want.extend(ids.iter().map(|i| i + own.start as u32));
        local.push(q);
    }
    want.sort();
    let mut whole: Vec<_> = (0..k)
        .map(|r| comm.backend(r).queue::<MinSecond<u32>>(per * k).map_err(e))
        .collect::<Result<_, _>>()?;
    let info = comm
        .all_gather_set::<MinSecond<u32>>(&mut local, &mut whole, &part, 9, dense)
        .map_err(e)?;
    let what = format!("set all-gather (dense {dense}) of {per} x {k} vertices");
    if (info.len, info.steps) != (want.len(), 2 + k) {
        return Err(format!("{what}: {info:?}, want {} entries", want.len()));
    }
    for r in 0..k {
        let b = comm.backend(r);
        let (idx, vals) = b.queue_read(&whole[r]).map_err(e)?;
        let len = b.queue_len(&whole[r]).map_err(e)?;
        if idx != want
            || vals.iter().any(|&v| v != 9)
            || (len.len, len.steps) != (want.len(), 2 + k)
        {
            return Err(format!(
                "{what}: rank {r} holds {} entries ({len:?})",
                idx.len()
            ));
        }
        if b.queue_len(&local[r]).map_err(e)?.len != 0 {
            return Err(format!("{what}: rank {r}'s local queue not emptied"));
        }
    }
    Ok(())
}

/// BFS from a hub of 9,000 arcs (more than one block's step may take) in a graph of 600,000
/// vertices, whose neighbours lead to 900,000 arcs: the level after the hub's must pull
/// (Beamer's rule), on the GPU as on the CPU. A GPU that declined the hub's step in one block
/// used to batch the next step unread, pushing 900,000 arcs.
fn bfs_after_a_hub() -> Result<(), String> {
    use semigraph_algos::{CpuBackend, arcs_to_csr};
    let (n, hub_arcs, fan) = (600_000u32, 9_000u32, 100u32);
    let mut arcs: Vec<(u32, u32, u32)> = (1..=hub_arcs).map(|v| (0, v, 1)).collect();
    let mut x = 12345u64;
    for v in 1..=hub_arcs {
        for _ in 0..fan {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let w = hub_arcs + 1 + ((x >> 33) as u32) % (n - hub_arcs - 1);
            arcs.push((v, w, 1));
        }
    }
    let a = arcs_to_csr::<BfsSemiring>(n as usize, &arcs).map_err(|e| e.to_string())?;
    let opts = GraphOptions {
        pull: true,
        ..Default::default()
    };
    let gpu = GpuBackend::new().map_err(|e| e.to_string())?;
    let cpu = CpuBackend::new();
    let on_gpu = bfs_steps(&Graph::new(&gpu, &a, opts).map_err(|e| e.to_string())?)?;
    let on_cpu = bfs_steps(&Graph::new(&cpu, &a, opts).map_err(|e| e.to_string())?)?;
    if on_gpu.2 != on_cpu.2 {
        return Err("BFS levels differ between the GPU and the CPU".into());
    }
    if (on_gpu.0, on_gpu.1) != (on_cpu.0, on_cpu.1) || on_gpu.1 == 0 {
        return Err(format!(
            "push/pull levels: GPU {}/{}, CPU {}/{} (the level after the hub must pull)",
            on_gpu.0, on_gpu.1, on_cpu.0, on_cpu.1
        ));
    }
    Ok(())
}

/// BFS from vertex 0: push and pull levels, and the levels.
fn bfs_steps<B: semigraph_algos::Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
) -> Result<(u32, u32, Vec<u32>), String> {
    let r =
        semigraph_algos::bfs_resident(g, 0, &BfsOptions::default()).map_err(|e| e.to_string())?;
    let levels = g
        .backend()
        .read_dense(&r.levels)
        .map_err(|e| e.to_string())?;
    Ok((r.push_steps, r.pull_steps, levels))
}

/// Every distributed algorithm over `comm` against the one-GPU algorithm on `one`.
fn same_as_one_gpu<C: Communicator<Backend = GpuBackend>>(
    comm: &C,
    one: &GpuBackend,
) -> Result<(), String> {
    let k = comm.ranks();
    collectives(comm)?;
    let graphs = [
        TestGraph::from_edges("kronecker 13", &generate::kronecker(13, 16, 4)),
        TestGraph::from_edges("grid 60x80", &generate::grid(60, 80, 1, 1000, 2)),
        TestGraph::random(3000, 9000, 0, 50, 8),
    ];
    let e = |e: semigraph_algos::Error| e.to_string();
    for g in &graphs {
        let what = format!("{} on {k} ranks", g.name);
        let a = g.csr::<i32>();
        let single = Graph::new(
            one,
            &a,
            GraphOptions {
                pull: true,
                ..Default::default()
            },
        )
        .map_err(e)?;
        let many = DistGraph::new(comm, &a, DistOptions::default()).map_err(e)?;
        let pat = a.pattern::<BfsSemiring>();
        let gp = Graph::new(
            one,
            &pat,
            GraphOptions {
                pull: true,
                ..Default::default()
            },
        )
        .map_err(e)?;
        let want = semigraph_algos::bfs(&gp, 0, &BfsOptions::default()).map_err(e)?;
        let got = dist::bfs(&many.pattern().map_err(e)?, 0, &BfsOptions::default()).map_err(e)?;
        if got.levels != want.levels {
            return Err(format!("{what}: BFS levels differ"));
        }
        semigraph_algos::testing::check_bfs(&pat, &got).map_err(|m| format!("{what}: {m}"))?;
        let want = semigraph_algos::bellman_ford(&single, 0).map_err(e)?;
        let got = dist::bellman_ford(&many, 0).map_err(e)?;
        if got.dist != want.dist {
            return Err(format!("{what}: Bellman-Ford distances differ"));
        }
        let opts = PageRankOptions {
            damping: 0.85,
            iterations: 20,
            tolerance: None,
        };
        let want = semigraph_algos::pagerank(&single, &opts).map_err(e)?;
        let got = dist::pagerank(&many, &opts).map_err(e)?;
        for (v, (x, y)) in got.ranks.iter().zip(&want.ranks).enumerate() {
            if (x - y).abs() > 1e-6 * y.abs() {
                return Err(format!("{what}: PageRank of {v}: {x} vs {y}"));
            }
        }
        if dist::wcc(&many).map_err(e)?.labels != semigraph_algos::wcc(&single).map_err(e)?.labels {
            return Err(format!("{what}: WCC labels differ"));
        }
    }
    // APSP on a graph small enough for n x n.
    let g = TestGraph::random(700, 4000, 1, 100, 3);
    let a = g.csr::<f32>();
    let single = Graph::new(one, &a, GraphOptions::default()).map_err(e)?;
    let opts = ApspOptions {
        next_hop: false,
        method: ApspMethod::Squaring,
    };
    let want = semigraph_algos::apsp(&single, &opts).map_err(e)?;
    let many = DistGraph::new(
        comm,
        &a,
        DistOptions {
            push: false,
            out: false,
            packed: false,
        },
    )
    .map_err(e)?;
    let got = dist::apsp(&many, false).map_err(e)?;
    if got.dist != want.dist {
        return Err(format!("APSP on {k} ranks: distances differ"));
    }
    // The same on a square grid of the ranks (SUMMA), where the ranks make one.
    if k.isqrt() * k.isqrt() == k {
        let got = dist::apsp_grid(comm, &a, false).map_err(e)?;
        if got.dist != want.dist {
            return Err(format!("APSP on a grid of {k} ranks: distances differ"));
        }
    }
    Ok(())
}

/// `GpuBackend::csr_from_arcs` against the host's COO-to-CSR (without its stored zeros) on
/// arcs with repeats (combined in list order: floating-point sums bit for bit), rows of every
/// sort class (a warp's, a block's, a long one), a rectangular matrix, no arcs, a repeat that
/// sums to zero, arcs without values; and its refusals.
fn csr_from_arcs_cases() -> Result<(), String> {
    use semigraph_algos::Objects;
    use semigraph_formats::{Coo, Csr};
    use semigraph_semiring::{MinPlus, OrAnd, PlusTimes, Semiring};
    fn same<S: Semiring>(
        b: &GpuBackend,
        (nrows, ncols): (usize, usize),
        arcs: &[(u32, u32)],
        vals: Option<&[S::T]>,
        what: &str,
    ) -> Result<(), String> {
        let (src, dst): (Vec<u32>, Vec<u32>) = arcs.iter().copied().unzip();
        let v: Vec<S::T> = vals.map_or_else(|| vec![S::one(); arcs.len()], <[S::T]>::to_vec);
        let host: Csr<S> = Coo::<S>::try_from_triplets(nrows, ncols, src.clone(), dst.clone(), v)
            .map_err(|e| e.to_string())?
            .to_csr()
            .without_zeros()
            .map_err(|e| e.to_string())?;
        let m = b
            .csr_from_arcs::<S>((nrows, ncols), &src, &dst, vals)
            .map_err(|e| format!("{what}: {e}"))?;
        let got = b.read_matrix(&m).map_err(|e| format!("{what}: {e}"))?;
        let bits = |c: &Csr<S>| -> Vec<u64> {
            c.vals()
                .iter()
                .map(|x| semigraph_semiring::Scalar::to_bits64(*x))
                .collect()
        };
        if (got.row_ptr(), got.col_idx(), bits(&got))
            != (host.row_ptr(), host.col_idx(), bits(&host))
        {
            return Err(format!("{what}: the device's CSR differs from the host's"));
        }
        Ok(())
    }
    let b = GpuBackend::new().map_err(|e| e.to_string())?;
    // Arcs from a fixed generator: many repeats, a row of each sort class.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) % k) as u32
    };
    let n = 3000usize;
    let mut arcs: Vec<(u32, u32)> = (0..40_000).map(|_| (next(n as u64), next(200))).collect();
    arcs.extend((0..5000).map(|_| (7, next(n as u64)))); // a long row (past a block's 2,048)
    arcs.extend((0..300).map(|_| (11, next(400)))); // a block's row, with repeats
    arcs.extend([(5, 5), (5, 5), (n as u32 - 1, 0)]); // a self loop twice, the last row
    let reals: Vec<f64> = (0..arcs.len())
        .map(|_| f64::from(next(1000)) / 7.0 - 50.0)
        .collect();
    let ints: Vec<i32> = (0..arcs.len()).map(|_| next(100) as i32 - 20).collect();
    same::<PlusTimes<f64>>(&b, (n, n), &arcs, Some(&reals), "plus-times f64")?;
    same::<MinPlus<i32>>(&b, (n, n), &arcs, Some(&ints), "min-plus i32")?;
    same::<OrAnd>(&b, (n, n), &arcs, None, "a pattern")?;
    let wide: Vec<(u32, u32)> = (0..20_000).map(|_| (next(7), next(90_000))).collect();
    same::<MinPlus<i32>>(&b, (7, 90_000), &wide, None, "7 x 90,000")?;
    same::<PlusTimes<f64>>(&b, (5, 5), &[], Some(&[]), "no arcs")?;
    same::<PlusTimes<f64>>(
        &b,
        (3, 3),
        &[(1, 2), (1, 2), (0, 1)],
        Some(&[1.5, -1.5, 2.0]),
        "a zero sum",
    )?;
    // Refusals, before any work.
    fn bad<T>(r: Result<T, semigraph_gpu::GpuError>, what: &str) -> Result<(), String> {
        match r {
            Err(semigraph_gpu::GpuError::InvalidInput(_)) => Ok(()),
            Err(e) => Err(format!("{what}: {e}")),
            Ok(_) => Err(format!("{what}: accepted")),
        }
    }
    bad(
        b.csr_from_arcs::<OrAnd>((3, 3), &[0, 1], &[1], None),
        "lengths differ",
    )?;
    bad(
        b.csr_from_arcs::<OrAnd>((3, 3), &[0, 3], &[1, 1], None),
        "a source past the rows",
    )?;
    bad(
        b.csr_from_arcs::<OrAnd>((3, 2), &[0, 1], &[1, 2], None),
        "a target past the columns",
    )?;
    bad(
        b.csr_from_arcs::<PlusTimes<f64>>((3, 3), &[0], &[1], Some(&[1.0, 2.0])),
        "values of another length",
    )?;
    Ok(())
}
