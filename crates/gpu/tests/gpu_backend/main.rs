//! The shared backend suite (every format x operation x semiring: a cover of the
//! built-ins, all with `--features semigraph-testkit/every-semiring`; and the algorithms against the CPU oracles) on the GPU backend, plus the opt-in GEMM kernel
//! against the CPU. Where no GPU can be opened every test is reported as ignored, with the
//! reason; under `SEMIGRAPH_REQUIRE_GPU=1` they run and fail instead.

use std::process::ExitCode;

use semigraph_algos::CpuBackend;
use semigraph_algos::prelude::*;
use semigraph_gpu::{CsrKernel, GpuBackend};
use semigraph_semiring::{MaxMin, MinPlus, OrAnd, PlusTimes, f16};
use semigraph_testkit::harness::{Failed, Harness, Needs};

mod gemm;
use gemm::*;

/// APSP on LAGraph's Floyd-Warshall inputs (`test_FW_2003`, `test_FW_2500`, positive integer
/// weights) on the GPU by both methods, with next hops: the distances equal the CPU backend's
/// and, from every 25th source, a binary-heap Dijkstra's; the next hops rebuild paths of the
/// reported length.
fn apsp_on_lagraph_fw_inputs() -> Result<(), Failed> {
    use semigraph_algos::testing::oracle_dijkstra;
    use semigraph_algos::{ApspMethod, ApspOptions, Graph, GraphOptions, apsp};
    use semigraph_formats::io::{ReadOptions, read_graph};
    let gpu = GpuBackend::new()?;
    let cpu = CpuBackend::new();
    for name in ["lagraph/test_FW_2003.mtx", "lagraph/test_FW_2500.mtx"] {
        let g = read_graph(semigraph_testkit::data::path(name), &ReadOptions::default())?;
        let a = g.to_csr::<MinPlus<i32>, u32>()?;
        let n = a.nrows();
        let arcs: Vec<(usize, usize, i64)> = a.iter().map(|(i, j, w)| (i, j, w as i64)).collect();
        let want = apsp(
            &Graph::new(&cpu, &a, GraphOptions::default())?,
            &ApspOptions::default(),
        )?;
        let ga = Graph::new(&gpu, &a, GraphOptions::default())?;
        for method in [ApspMethod::Squaring, ApspMethod::Sources] {
            let opts = ApspOptions {
                next_hop: true,
                method,
            };
            let r = apsp(&ga, &opts)?;
            if r.dist != want.dist {
                let i = (0..n * n).find(|&i| r.dist[i] != want.dist[i]).unwrap_or(0);
                return Err(format!(
                    "{name} {method:?}: ({}, {}) is {} on the GPU, {} on the CPU",
                    i / n,
                    i % n,
                    r.dist[i],
                    want.dist[i]
                )
                .into());
            }
            for s in (0..n).step_by(25) {
                let d = oracle_dijkstra(n, &arcs, s);
                for (v, &dv) in d.iter().enumerate() {
                    let got = r.distance(s, v).map(i64::from);
                    if got != dv {
                        return Err(format!(
                            "{name} {method:?}: {s} -> {v}: {got:?}, Dijkstra {dv:?}"
                        )
                        .into());
                    }
                    if let (Some(len), Some(p)) = (dv, r.path(s, v)) {
                        let sum: i64 = p
                            .windows(2)
                            .map(|e| {
                                a.get(e[0] as usize, e[1] as usize)
                                    .map_or(i64::MAX / 4, i64::from)
                            })
                            .sum();
                        if sum != len {
                            return Err(format!(
                                "{name} {method:?}: path {s} -> {v} weighs {sum}, not {len}"
                            )
                            .into());
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Every CSR kernel, forced, through the suite's matrix checks (SpMV and SpMM with every mask
/// and accumulation, SpMSpV) for semirings of each kind of value: the automatic choice picks
/// among them by the matrix's shape, so each must be right on every matrix.
fn csr_kernel_ops(k: CsrKernel) -> Result<(), Failed> {
    use semigraph_formats::Format;
    use semigraph_testkit::backend_suite::check_matrix_ops;
    let mut gpu = GpuBackend::new()?;
    gpu.set_csr_kernel(Some(k));
    check_matrix_ops::<GpuBackend, MinPlus<f32>>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, MinPlus<i64>>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, OrAnd>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, PlusTimes<f64>>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, MaxMin<f16>>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, semigraph_semiring::MinSecondI<u32>>(&gpu, Format::Csr);
    check_matrix_ops::<GpuBackend, semigraph_semiring::MinPlusPred<i32>>(&gpu, Format::Csr);
    Ok(())
}

/// Transfers from several threads at once on one device (as the ranks of a distributed run
/// on one GPU): each arrives whole whether it got the staging buffer or went through pageable
/// memory, and none waits for another's buffer (rayon workers run the copies).
fn concurrent_transfers_arrive_whole() -> Result<(), Failed> {
    use rayon::prelude::*;
    let gpu = GpuBackend::new()?;
    let results: Vec<Result<(), String>> = (0..8u32)
        .into_par_iter()
        .map(|t| {
            let len = (3 << 20) + t as usize * 4099;
            let want: Vec<u32> = (0..len as u32).map(|i| i.wrapping_mul(t + 7)).collect();
            let x = gpu
                .dense::<semigraph_algos::Parents>(len, 1, &want)
                .map_err(|e| e.to_string())?;
            let got = gpu.read_dense(&x).map_err(|e| e.to_string())?;
            if got != want {
                return Err(format!("thread {t}: {len} values differ"));
            }
            Ok(())
        })
        .collect();
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; ").into())
    }
}

/// Arrays uploaded to and read back from the device arrive whole and in order at every size
/// around the staged transfers' thresholds (64 KiB; the 64 MiB page-locked buffer, passed
/// through in pieces, the last one cut short; uploads in halves of it), and after a larger
/// transfer has grown the buffer; `read_dense_into` writes exactly its slice.
fn downloads_arrive_whole() -> Result<(), Failed> {
    let gpu = GpuBackend::new()?;
    let piece = 1usize << 20; // u32 values per 4 MiB
    for len in [
        0,
        1,
        16_383,
        16_384,
        piece - 1,
        piece,
        piece + 1,
        16 * piece + 5,
        2 * piece,
        3,
    ] {
        let want: Vec<u32> = (0..len as u32)
            .map(|i| i.wrapping_mul(2_654_435_761) ^ 0x5bd1_e995)
            .collect();
        let x = gpu.dense::<semigraph_algos::Parents>(len, 1, &want)?;
        let got = gpu.read_dense(&x)?;
        let mut into = vec![7u32; len + 2];
        gpu.read_dense_into(&x, &mut into[1..=len])?;
        if into[0] != 7 || into[len + 1] != 7 || into[1..=len] != want[..] {
            return Err(format!("{len} values: read_dense_into differs").into());
        }
        if got != want {
            let at = (0..len).find(|&i| got.get(i) != want.get(i)).unwrap_or(len);
            return Err(format!(
                "{len} values: {} read back, first difference at {at}",
                got.len()
            )
            .into());
        }
    }
    // Eight-byte values, several pieces.
    let want: Vec<f64> = (0..3 * piece + 7).map(|i| i as f64 * 0.25 - 1e3).collect();
    let x = gpu.dense::<MinPlus<f64>>(want.len(), 1, &want)?;
    if gpu.read_dense(&x)? != want {
        return Err("f64 values differ after a staged read".into());
    }
    Ok(())
}

/// Results sized on the device by scans of every length around the scan's tiles (2,048
/// values) and past one pass of its tile-sum scan (1,024 tiles): a `3 x n` matrix transposed
/// (column counts and row pointers over `n`), transposed back, and its rows extracted in
/// reverse, all equal to the CPU's.
fn sizing_scans_cross_tiles() -> Result<(), Failed> {
    let (gpu, cpu) = (GpuBackend::new()?, CpuBackend::new());
    let opts = semigraph_formats::ConvertOptions::default();
    for n in [1usize, 2047, 2048, 2049, 2048 * 1024 + 3, 5_000_011] {
        let arcs: Vec<(u32, u32, i32)> = (0..3u32)
            .flat_map(|i| {
                (0..n as u32)
                    .filter(move |&j| (j.wrapping_mul(2_654_435_761) >> 7) % 5 == i)
                    .map(move |j| (i, j, (i + 1) as i32 * (j % 1000) as i32 + 1))
            })
            .collect();
        let mut rp = vec![0u32; 4];
        for &(i, _, _) in &arcs {
            rp[i as usize + 1] += 1;
        }
        for i in 0..3 {
            rp[i + 1] += rp[i];
        }
        let a = semigraph_formats::Csr::<PlusTimes<i32>>::try_from_parts(
            3,
            n,
            rp,
            arcs.iter().map(|x| x.1).collect(),
            arcs.iter().map(|x| x.2).collect(),
        )
        .map_err(|e| format!("{n}: {e}"))?;
        let (ga, ca) = (
            gpu.matrix(&a, semigraph_formats::Format::Csr, &opts)?,
            cpu.matrix(&a, semigraph_formats::Format::Csr, &opts)?,
        );
        let (gt, ct) = (gpu.transpose_matrix(&ga)?, cpu.transpose_matrix(&ca)?);
        if gpu.read_matrix(&gt)? != cpu.read_matrix(&ct)? {
            return Err(format!("3x{n}: the transposes differ").into());
        }
        if gpu.read_matrix(&gpu.transpose_matrix(&gt)?)? != a {
            return Err(format!("3x{n}: transposed twice, not the matrix").into());
        }
        let rows: Vec<u32> = (0..n as u32).rev().collect();
        let (ge, ce) = (gpu.extract_rows(&gt, &rows)?, cpu.extract_rows(&ct, &rows)?);
        if gpu.read_matrix(&ge)? != cpu.read_matrix(&ce)? {
            return Err(format!("{n}x3: the extracted rows differ").into());
        }
    }
    Ok(())
}

/// Transposes with columns of every sorting path: one of more than 2,048 entries (sorted by a
/// block in global memory), some between 33 and 2,048 (in shared memory), the rest short; a
/// stored zero among them dropped. Equal to the CPU's, and back again to the matrix.
fn transposes_with_long_columns() -> Result<(), Failed> {
    let (gpu, cpu) = (GpuBackend::new()?, CpuBackend::new());
    let opts = semigraph_formats::ConvertOptions::default();
    for n in [2049usize, 5000, 70_001] {
        let mut arcs: Vec<(u32, u32, i32)> = Vec::new();
        for i in 0..n as u32 {
            arcs.push((i, 0, (i % 13) as i32 - 6)); // a zero every 13 rows
            if i % 3 == 0 {
                arcs.push((i, 1 + i % 40, 1 + (i % 5) as i32));
            }
            arcs.push((i, n as u32 - 1 - i % 7, 2));
        }
        let a = semigraph_algos::arcs_to_csr::<PlusTimes<i32>>(n, &arcs)?;
        let (ga, ca) = (
            gpu.matrix(&a, semigraph_formats::Format::Csr, &opts)?,
            cpu.matrix(&a, semigraph_formats::Format::Csr, &opts)?,
        );
        let (gt, ct) = (gpu.transpose_matrix(&ga)?, cpu.transpose_matrix(&ca)?);
        let want = cpu.read_matrix(&ct)?;
        if gpu.read_matrix(&gt)? != want {
            return Err(format!("{n}: the transposes differ").into());
        }
        let back = gpu.read_matrix(&gpu.transpose_matrix(&gt)?)?;
        if back != cpu.read_matrix(&cpu.transpose_matrix(&ct)?)? {
            return Err(format!("{n}: transposed twice differs").into());
        }
    }
    Ok(())
}

/// A kernel profile saved by one backend loads its kernels in the next (`preload_kernels`):
/// the same BFS then takes every kernel from the preloaded ones, none compiled or read, and
/// gives the same result. Without a disk cache nothing is saved or loaded.
fn kernels_loaded_ahead_from_a_profile() -> Result<(), Failed> {
    let tag = format!("test-preload-{}", std::process::id());
    let a = semigraph_formats::generate::kronecker(10, 8, 3)
        .to_pattern_csr::<semigraph_algos::BfsSemiring, u32>()?;
    let opts = GraphOptions {
        pull: true,
        ..Default::default()
    };
    let first = GpuBackend::new()?;
    let r1 = semigraph_algos::bfs(&Graph::new(&first, &a, opts)?, 0, &Default::default())?;
    first.save_kernel_profile(&tag)?;
    let second = GpuBackend::new()?;
    let loaded = second.preload_kernels(&tag);
    let r2 = semigraph_algos::bfs(&Graph::new(&second, &a, opts)?, 0, &Default::default())?;
    assert_eq!(r1, r2);
    let (st1, st2) = (first.compile_stats(), second.compile_stats());
    let Some(dir) = second.compiler().cache_dir() else {
        assert_eq!((loaded, st2.preloaded), (0, 0));
        return Ok(());
    };
    let used = st1.compiled + st1.from_disk + st1.from_memory + st1.preloaded;
    assert!(used >= 2, "the first BFS loaded {used} kernels");
    assert_eq!(
        (st2.preloaded, st2.compiled, st2.from_disk, st2.from_memory),
        (used, 0, 0, 0),
        "the second backend's kernels all came from the profile"
    );
    // One line per kernel file (two requests of one source share a file), each loaded ahead.
    let file = dir
        .join("profiles")
        .join(format!("{tag}-{}.txt", second.compiler().arch()));
    let lines = std::fs::read_to_string(&file)?.lines().count();
    assert!((1..=used).contains(&lines), "{lines} profile lines");
    assert_eq!(loaded, lines, "every kernel of the profile loaded ahead");
    // An invalid tag is refused, not written outside the cache.
    assert!(second.save_kernel_profile("../escape").is_err());
    assert_eq!(second.preload_kernels("../escape"), 0);
    std::fs::remove_file(&file)?;
    Ok(())
}

fn main() -> ExitCode {
    let needs = Needs::gpu(GpuBackend::new().err().map(|e| e.to_string()));
    let mut h = Harness::new();
    semigraph_testkit::backend_suite::register(&mut h, Some(&needs), GpuBackend::new);
    h.test_needing(&needs, "downloads_arrive_whole", downloads_arrive_whole);
    h.test_needing(
        &needs,
        "kernels_loaded_ahead_from_a_profile",
        kernels_loaded_ahead_from_a_profile,
    );
    h.test_needing(
        &needs,
        "concurrent_transfers_arrive_whole",
        concurrent_transfers_arrive_whole,
    );
    h.test_needing(&needs, "sizing_scans_cross_tiles", sizing_scans_cross_tiles);
    h.test_needing(
        &needs,
        "transposes_with_long_columns",
        transposes_with_long_columns,
    );
    // Min-plus takes its fast multiply-add on operands in its domain (non-negative integers;
    // floats without NaN, -inf, -0), and the exact form otherwise: both must match the CPU.
    h.test_needing(&needs, "gemm_reg128::min_plus_f32", || {
        gemm_reg128::<MinPlus<f32>>(f32_fast, [true, false], |v| v as f32)
    });
    h.test_needing(&needs, "gemm_reg128::min_plus_f32_negative_zero", || {
        gemm_reg128::<MinPlus<f32>>(
            f32_fast,
            [true, true],
            |v| if v == 5 { -0.0 } else { v as f32 },
        )
    });
    h.test_needing(&needs, "gemm_reg128::min_plus_f64", || {
        gemm_reg128::<MinPlus<f64>>(f64_fast, [true, false], |v| v as f64 * 0.5)
    });
    // -inf among the operands: the exact form, where the zero (inf) annihilates it.
    h.test_needing(
        &needs,
        "gemm_reg128::min_plus_f64_negative_infinity",
        || {
            gemm_reg128::<MinPlus<f64>>(f64_fast, [true, true], |v| {
                if v == 5 {
                    f64::NEG_INFINITY
                } else {
                    v as f64 * 0.5
                }
            })
        },
    );
    h.test_needing(&needs, "gemm_reg128::min_plus_i32_near_max", || {
        // Sums past i32::MAX saturate to infinity on both paths.
        gemm_reg128::<MinPlus<i32>>(|x| x >= 0, [true, false], |v| i32::MAX - 20 + v as i32)
    });
    h.test_needing(&needs, "gemm_reg128::min_plus_i32_negative", || {
        gemm_reg128::<MinPlus<i32>>(|x| x >= 0, [true, true], |v| v as i32 - 3)
    });
    h.test_needing(&needs, "gemm_packed::min_plus_i32", gemm_packed_i32);
    // A user's generic semiring, (max, *), instantiated for f64.
    h.test_needing(&needs, "gemm_reg128::user_generic_f64", || {
        gemm_reg128::<semigraph_testkit::semirings::MaxTimes<f64>>(never, [false, true], |v| {
            v as f64 * 0.25
        })
    });
    // A user's u64 semiring, with products that wrap past 2^64.
    h.test_needing(&needs, "gemm_reg128::user_u64", || {
        gemm_reg128::<semigraph_testkit::semirings::CountWalks>(never, [false, true], |v| {
            v.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        })
    });
    h.test_needing(
        &needs,
        "apsp_on_lagraph_fw_inputs",
        apsp_on_lagraph_fw_inputs,
    );
    for k in CsrKernel::ALL {
        h.test_needing(&needs, format!("csr_kernel::{}", k.name()), move || {
            csr_kernel_ops(k)
        });
    }
    h.test_needing(&needs, "gemm_reg128::min_plus_i64", || {
        gemm_reg128::<MinPlus<i64>>(|x| x >= 0, [true, true], |v| v as i64 - 3)
    });
    h.test_needing(&needs, "gemm_reg128::min_plus_i64_near_max", || {
        gemm_reg128::<MinPlus<i64>>(|x| x >= 0, [true, false], |v| i64::MAX - 20 + v as i64)
    });
    h.test_needing(&needs, "gemm_reg128::min_plus_f16", || {
        gemm_reg128::<MinPlus<f16>>(never, [false, true], |v| f16::from_f32(v as f32))
    });
    h.test_needing(&needs, "gemm_reg128::max_min_i32", || {
        gemm_reg128::<MaxMin<i32>>(never, [false, true], |v| v as i32)
    });
    h.test_needing(&needs, "gemm_reg128::plus_times_f64", || {
        gemm_reg128::<PlusTimes<f64>>(never, [false, true], |v| v as f64)
    });
    h.test_needing(&needs, "gemm_reg128::or_and_bool", || {
        gemm_reg128::<OrAnd>(never, [false, true], |_| true)
    });
    h.run()
}
