//! Kernel generation and compilation, without a GPU: snapshot tests of generated sources and
//! NVRTC compilation of each kernel (every kernel, every semiring of the testkit's cover and
//! every built-in operator, though not every combination); under `SEMIGRAPH_LONG_TESTS=1`,
//! of every kernel for every built-in semiring and every operator over every type.
//!
//! NVRTC runs without a GPU. Without `libnvrtc` the tests that compile are reported as
//! ignored, with the reason; under `SEMIGRAPH_REQUIRE_NVRTC=1` (set by CI) they run and fail
//! instead. The every-kernel sweep is reported as ignored without `SEMIGRAPH_LONG_TESTS=1`
//! (CI sets it in a step of its own).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;
use semigraph_gpu::codegen::{self, Kernel, KernelKey};
use semigraph_gpu::{Compiler, GpuError, nvrtc_present};
use semigraph_semiring::{CudaSemiring, MinPlus, MinPlusPred, OrAnd, PlusTimes, Semiring, bf16};
use semigraph_testkit::harness::{Harness, Needs, ok};

mod cache;
mod cases;
use cache::{
    CACHE_WORKER, cache_worker, disk_cache_is_used_and_survives_corruption,
    two_processes_share_the_disk_cache,
};
use cases::{
    Case, all_kernels, builtin_operator_kernels, builtins, cover, key_of, operator_cover, rotation,
    source_of,
};

fn main() -> ExitCode {
    if let Some(dir) = std::env::var_os(CACHE_WORKER) {
        return cache_worker(PathBuf::from(dir));
    }
    let nvrtc = Needs::nvrtc((!nvrtc_present()).then(|| {
        "libnvrtc.so was not found (pip install \"nvidia-cuda-nvrtc==13.0.*\" and put its \
         nvidia/cu13/lib on LD_LIBRARY_PATH)"
            .to_string()
    }));
    let mut h = Harness::new();
    h.test(
        "every_key_is_unique_and_decodes",
        ok(every_key_is_unique_and_decodes),
    );
    h.test(
        "generated_sources_match_snapshots",
        ok(generated_sources_match_snapshots),
    );
    h.test(
        "adaptive_plans_cover_every_row_and_entry_once",
        ok(adaptive_plans_cover_every_row_and_entry_once),
    );
    h.test_needing(
        &nvrtc,
        "each_kernel_compiles_with_nvrtc",
        ok(|| {
            let mut v = rotation(all_kernels(&cover()));
            v.extend(operator_cover(builtin_operator_kernels()));
            compile_with_nvrtc(&v);
        }),
    );
    // All 49 built-in semirings and every built-in operator over every type: 3,200 kernels,
    // over two minutes on 2 cores, so not in the default `cargo test`; CI runs it in a step
    // of its own.
    let long_on = std::env::var("SEMIGRAPH_LONG_TESTS").is_ok_and(|v| v == "1");
    let long = Needs::new(
        "long",
        "SEMIGRAPH_LONG_TESTS=1",
        "SEMIGRAPH_LONG_TESTS",
        (!long_on).then(|| {
            "the every-kernel sweep (every built-in semiring and operator: 3,200 kernels, 2-3 \
             minutes on 2 cores) runs under SEMIGRAPH_LONG_TESTS=1, as CI runs it"
                .to_string()
        }),
    );
    h.test_needing(
        &long,
        "every_kernel_compiles_with_nvrtc",
        ok(|| {
            let ops = builtin_operator_kernels();
            assert!(ops.len() > 250, "{} operator kernels", ops.len());
            let mut v = all_kernels(&builtins());
            v.extend(ops);
            compile_with_nvrtc(&v);
        }),
    );
    h.test_needing(
        &nvrtc,
        "compile_errors_carry_key_options_log_and_source",
        ok(compile_errors_carry_key_options_log_and_source),
    );
    h.test_needing(&nvrtc, "user_semirings_compile", ok(user_semirings_compile));
    h.test_needing(
        &nvrtc,
        "disk_cache_is_used_and_survives_corruption",
        ok(disk_cache_is_used_and_survives_corruption),
    );
    h.test_needing(
        &nvrtc,
        "two_processes_share_the_disk_cache",
        ok(two_processes_share_the_disk_cache),
    );
    h.run()
}

fn every_key_is_unique_and_decodes() {
    let mut seen = std::collections::HashSet::new();
    for case in all_kernels(&builtins())
        .iter()
        .chain(&builtin_operator_kernels())
    {
        let key = key_of(case);
        let name = key.name();
        assert!(seen.insert(name.clone()), "duplicate key {name}");
        assert_eq!(KernelKey::parse(&name).as_ref(), Some(&key));
        let src = source_of(case);
        assert!(src.contains(&format!(" {name}(")), "{name}: kernel symbol");
        assert!(!src.contains("std::"), "{name}: NVRTC has no std");
        assert!(!src.contains("KERNEL"), "{name}: template placeholder left");
    }
    assert!(seen.len() > 700, "{} kernels", seen.len());
}

fn generated_sources_match_snapshots() {
    // Found at run time (the staged binary runs elsewhere): beside the repository's data, or
    // above the working directory (where SEMIGRAPH_DATA names a copy of the data elsewhere).
    const SNAPSHOTS: &str = "crates/gpu/tests/snapshots";
    let data = semigraph_testkit::data::dir().expect("the repository's data directory");
    let cwd = std::env::current_dir().expect("the working directory");
    let dir = data
        .parent()
        .into_iter()
        .chain(cwd.ancestors())
        .map(|a| a.join(SNAPSHOTS))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| {
            panic!(
                "{SNAPSHOTS} not found beside {} or above {}",
                data.display(),
                cwd.display()
            )
        });
    let update = std::env::var_os("SEMIGRAPH_UPDATE_SNAPSHOTS").is_some();
    let cases: Vec<(Kernel, Option<CudaSemiring>)> = vec![
        (Kernel::SpmvCsrVector, Some(MinPlus::<f32>::cuda())),
        (Kernel::SpmvEll, Some(OrAnd::cuda())),
        (Kernel::SpmvCoo, Some(PlusTimes::<bf16>::cuda())),
        (Kernel::VxmCsr, Some(MinPlusPred::<i32>::cuda())),
        (Kernel::Gemm, Some(MinPlus::<f64>::cuda())),
        (Kernel::GemmReg, Some(MinPlus::<f64>::cuda())),
        (Kernel::CompactWrite, Some(MinPlus::<i32>::cuda())),
        (Kernel::SelectRange, Some(MinPlusPred::<f32>::cuda())),
        (Kernel::Witness, Some(MinPlus::<i64>::cuda())),
        (Kernel::QueueRelaxLoop, Some(MinPlus::<f32>::cuda())),
        (Kernel::Scan, None),
        (Kernel::QueueLevels, None),
    ];
    let mut failures = Vec::new();
    for (k, sr) in cases {
        let name = KernelKey::new(k, sr.as_ref()).name();
        let path = dir.join(format!("{name}.cu"));
        let src = codegen::source(k, sr.as_ref());
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &src).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(src.as_str()) {
            failures.push(path.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "generated sources differ from snapshots (review, then rerun with \
         SEMIGRAPH_UPDATE_SNAPSHOTS=1): {failures:?}"
    );
}

/// Compiles `kernels` with NVRTC for `sm_90` and fails with every compile error.
fn compile_with_nvrtc(kernels: &[Case]) {
    // No disk cache: CI must really compile every kernel. NVRTC's fastest mode: every source
    // is parsed, checked and turned into machine code (ptxas runs), with little optimisation,
    // which takes about three quarters of the time (55 s against 71 s here for 2,540 kernels).
    let c = Compiler::new("sm_90")
        .unwrap()
        .with_cache_dir(None)
        .with_fast_compile();
    let start = Instant::now();
    let results: Vec<(Kernel, f64, Option<String>)> = kernels
        .par_iter()
        .map(|case| {
            let (key, src, k) = (key_of(case), source_of(case), &case.0);
            let t = Instant::now();
            let failure = match c.compile(&key, &src) {
                Ok(out) if out.cubin.starts_with(b"\x7fELF") => None,
                Ok(_) => Some(format!("{key}: not an ELF CUBIN")),
                Err(e) => Some(e.to_string()),
            };
            (*k, t.elapsed().as_secs_f64(), failure)
        })
        .collect();
    // Where the compile time goes, by kernel: the three costliest.
    let mut by_kind: Vec<(Kernel, f64, usize)> = Vec::new();
    for (k, secs, _) in &results {
        match by_kind.iter_mut().find(|(x, ..)| x == k) {
            Some(e) => (e.1, e.2) = (e.1 + secs, e.2 + 1),
            None => by_kind.push((*k, *secs, 1)),
        }
    }
    by_kind.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<String> = by_kind
        .iter()
        .take(3)
        .map(|(k, secs, n)| format!("{k:?} {secs:.1} s ({n})"))
        .collect();
    eprintln!(
        "compiled {} kernels for sm_90 with NVRTC {:?} in {:.1} s (costliest: {})",
        kernels.len(),
        c.nvrtc_version(),
        start.elapsed().as_secs_f64(),
        top.join(", ")
    );
    let failures: Vec<String> = results.into_iter().filter_map(|r| r.2).collect();
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Every kernel a user's semiring can use compiles (`check_cuda`, as a user runs it): an
/// index semiring (`mul_at`), one over `u64`, and one generic semiring for three types.
fn user_semirings_compile() {
    use semigraph_testkit::semirings::{CountWalks, FirstIndex, MaxTimes};
    semigraph_gpu::check_cuda::<MaxTimes<f32>>().unwrap();
    semigraph_gpu::check_cuda::<MaxTimes<f64>>().unwrap();
    semigraph_gpu::check_cuda::<MaxTimes<semigraph_semiring::f16>>().unwrap();
    const { assert!(FirstIndex::USES_INDEX) };
    semigraph_gpu::check_cuda::<FirstIndex>().unwrap();
    semigraph_semiring::check_semiring::<CountWalks>().unwrap();
    semigraph_gpu::check_cuda::<CountWalks>().unwrap();
}

fn compile_errors_carry_key_options_log_and_source() {
    let c = Compiler::new("sm_90").unwrap().with_cache_dir(None);
    let key = KernelKey::new(Kernel::Reduce, Some(&MinPlus::<f32>::cuda()));
    let src = "extern \"C\" __global__ void broken() { undeclared_thing(); }";
    match c.compile(&key, src) {
        Err(e @ GpuError::Compile { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(&key.name()), "{msg}");
            assert!(msg.contains("--gpu-architecture=sm_90"), "{msg}");
            assert!(msg.contains("undeclared_thing"), "{msg}");
            assert!(msg.contains("identifier"), "NVRTC log: {msg}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
}

fn adaptive_plans_cover_every_row_and_entry_once() {
    use semigraph_gpu::backend::ADAPTIVE_ROWS;
    // Row lengths: empty rows, short rows, one of exactly the block size, medium and long
    // rows (a whole block, split into pieces), and a run of many tiny rows.
    let mut lens = vec![0usize, 3, 0, 1024, 1025, 5000, 20000, 8192, 8193, 7];
    lens.extend(std::iter::repeat_n(1, 600));
    lens.push(0);
    let p = check_plan(&lens);
    assert_eq!(p.long_rows, vec![6, 8], "rows longer than a piece");
    // Several pieces of rows planned on every core: long rows at and around the pieces'
    // edges, the rest of mixed lengths; the same plan on 1 and 4 threads.
    let mut lens: Vec<usize> = (0..3 * ADAPTIVE_ROWS + 77)
        .map(|i| (i * 7919) % 13)
        .collect();
    for at in [ADAPTIVE_ROWS - 1, ADAPTIVE_ROWS, 2 * ADAPTIVE_ROWS + 1, 5] {
        lens[at] = 9000 + at % 5;
    }
    let p = check_plan(&lens);
    assert_eq!(p.long_rows.len(), 4, "rows longer than a piece");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| check_plan(&lens));
    assert_eq!(one, p, "plans on 1 and on several threads");
}

/// The adaptive plan of rows of lengths `lens`, checked: its blocks cover every row and entry
/// once, in order, within the kernel's limits; a split row's pieces name its slot.
fn check_plan(lens: &[usize]) -> semigraph_gpu::AdaptivePlan {
    use semigraph_gpu::AdaptivePlan;
    use semigraph_gpu::backend::{ADAPTIVE_ENTRIES, ADAPTIVE_PIECE, ADAPTIVE_THREADS};
    let mut rp = vec![0u32];
    for l in lens {
        rp.push(rp.last().unwrap() + *l as u32);
    }
    let p = AdaptivePlan::new(&rp);
    assert_eq!(p.blocks.len(), p.slots.len());
    let (mut next_row, mut next_entry) = (0u32, 0u32);
    for (b, &[r0, r1, p0, p1]) in p.blocks.iter().enumerate() {
        assert!(r1 > r0 && p1 >= p0, "block {b}: {r0}..{r1}, {p0}..{p1}");
        assert_eq!(p0, next_entry, "block {b} starts where the last ended");
        next_entry = p1;
        if r1 - r0 > 1 {
            assert_eq!((r0, p0, p1), (next_row, rp[r0 as usize], rp[r1 as usize]));
            assert!(r1 - r0 <= ADAPTIVE_THREADS && (p1 - p0) as usize <= ADAPTIVE_ENTRIES);
            next_row = r1;
        } else {
            assert!((p1 - p0) as usize <= ADAPTIVE_PIECE.max(ADAPTIVE_ENTRIES));
            let whole = p0 == rp[r0 as usize] && p1 == rp[r1 as usize];
            assert_eq!(
                whole,
                p.slots[b] == u32::MAX,
                "block {b}: slot only for pieces"
            );
            if !whole {
                assert_eq!(p.long_rows[p.slots[b] as usize], r0);
            }
            if p1 == rp[r1 as usize] {
                next_row = r1;
            }
        }
    }
    assert_eq!(
        (next_row as usize, next_entry),
        (lens.len(), *rp.last().unwrap())
    );
    p
}
