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
use semigraph_gpu::{Compiler, GpuError, Origin, nvrtc_present};
use semigraph_semiring::ops::{CudaOp, OpKind};
use semigraph_semiring::{CudaSemiring, MinPlus, MinPlusPred, OrAnd, PlusTimes, Semiring, bf16};
use semigraph_testkit::harness::{Harness, Needs, ok};

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
    // All 50 built-in semirings and every built-in operator over every type: 3,200 kernels,
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

/// The CUDA description of each semiring of the testkit's cover: each value type and each
/// add/multiply family (the semiring-independent kernels and those of an operator are then
/// all there too, see [`all_kernels`]).
fn cover() -> Vec<CudaSemiring> {
    let mut v = Vec::new();
    macro_rules! push {
        ($label:ident, $s:ty) => {
            v.push(<$s>::cuda());
        };
    }
    semigraph_testkit::for_each_cover_semiring!(push);
    v
}

/// Every built-in semiring's CUDA description.
fn builtins() -> Vec<CudaSemiring> {
    let mut v = Vec::new();
    macro_rules! push {
        ($label:ident, $s:ty) => {
            v.push(<$s>::cuda());
        };
    }
    semigraph_semiring::for_each_builtin!(push);
    v
}

/// One kernel to generate: a kernel, its semiring (`None`: semiring-independent) and, for the
/// kernels of an operator, the operator.
type Case = (Kernel, Option<CudaSemiring>, Option<CudaOp>);

fn key_of((k, sr, op): &Case) -> KernelKey {
    match (sr, op) {
        (Some(sr), Some(op)) => KernelKey::with_op(*k, sr, op),
        _ => KernelKey::new(*k, sr.as_ref()),
    }
}

fn source_of((k, sr, op): &Case) -> String {
    match (sr, op) {
        (Some(sr), Some(op)) => codegen::source_op(*k, sr, op),
        _ => codegen::source(*k, sr.as_ref()),
    }
}

/// A test operator of `kind` over `sr`'s value type that compiles for every type.
fn test_op(kind: OpKind, sr: &CudaSemiring) -> CudaOp {
    let expr = match kind {
        OpKind::Unary => "x",
        OpKind::Binary => "a",
        OpKind::Select => "j <= i",
    };
    CudaOp {
        name: "test".into(),
        kind,
        value_type: sr.value_type,
        expr: expr.into(),
        helpers: String::new(),
    }
}

/// Every (kernel, semiring) pair that exists for the semirings `semirings`, and every
/// semiring-independent kernel; the kernels of an operator with a test operator of each kind
/// they take, for the first semiring of each value type.
fn all_kernels(semirings: &[CudaSemiring]) -> Vec<Case> {
    let mut v: Vec<Case> = Kernel::ALL
        .into_iter()
        .filter(|k| k.applies_to(None))
        .map(|k| (k, None, None))
        .collect();
    let mut types = std::collections::HashSet::new();
    for sr in semirings.iter().cloned() {
        let first_of_type = types.insert(sr.value_type);
        for k in Kernel::ALL.into_iter().filter(|k| k.applies_to(Some(&sr))) {
            if k.op_kinds().is_empty() {
                v.push((k, Some(sr.clone()), None));
            } else if first_of_type {
                for &kind in k.op_kinds() {
                    v.push((k, Some(sr.clone()), Some(test_op(kind, &sr))));
                }
            }
        }
    }
    v
}

/// The kernels of `cases` that the default run compiles: each kernel (with each kind of
/// operator it takes) once, over one of the semirings it exists for, the semiring rotating
/// from one kernel to the next through the cover; so every kernel and every semiring of the
/// cover is compiled, though not every pair (`every_kernel_compiles_with_nvrtc` compiles
/// every pair of every built-in semiring).
fn rotation(cases: Vec<Case>) -> Vec<Case> {
    type Group = ((Kernel, Option<OpKind>), Vec<Case>);
    let mut groups: Vec<Group> = Vec::new();
    for case in cases {
        let key = (case.0, case.2.as_ref().map(|op| op.kind));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(case),
            None => groups.push((key, vec![case])),
        }
    }
    groups
        .into_iter()
        .enumerate()
        .map(|(i, (_, mut v))| v.swap_remove(i % v.len()))
        .collect()
}

/// The kernels of [`builtin_operator_kernels`] that the default run compiles: every one over
/// `bool`, and over the seven number types each (kernel, operator) once, the type rotating
/// from one operator to the next (so each type still comes with a seventh of them).
fn operator_cover(all: Vec<Case>) -> Vec<Case> {
    use semigraph_semiring::ScalarType;
    let mut types: Vec<ScalarType> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    all.into_iter()
        .filter(|case| {
            let t = case
                .1
                .as_ref()
                .expect("operator kernels have a semiring")
                .value_type;
            if t == ScalarType::Bool {
                return true;
            }
            let g = types.iter().position(|&x| x == t).unwrap_or_else(|| {
                types.push(t);
                types.len() - 1
            });
            let j = seen.entry(t).or_insert(0usize);
            *j += 1;
            (*j - 1) % 7 == g % 7
        })
        .collect()
}

/// Every built-in operator over each type it exists for, in the kernels that take its kind
/// (one semiring of that type).
fn builtin_operator_kernels() -> Vec<Case> {
    use semigraph_semiring::ops::*;
    let mut v: Vec<Case> = Vec::new();
    macro_rules! per_type {
        ($sr:ty, [$($u:ty),*], [$($b:ty),*], [$($s:ty),*]) => {{
            type T = <$sr as Semiring>::T;
            let sr = <$sr>::cuda();
            $(v.push((Kernel::ApplyOp, Some(sr.clone()), Some(<$u as UnaryOperator<T>>::cuda())));)*
            $(v.push((Kernel::EwiseOp, Some(sr.clone()), Some(<$b as BinaryOperator<T>>::cuda())));
              v.push((Kernel::ScatterOp, Some(sr.clone()), Some(<$b as BinaryOperator<T>>::cuda())));)*
            $(v.push((Kernel::RowsSelect, Some(sr.clone()), Some(<$s as SelectOperator<T>>::cuda())));)*
        }};
    }
    macro_rules! number {
        ($($sr:ty),*) => {$(
            per_type!($sr, [Identity, Abs, Neg, Minv, One, LNot],
                [First, Second, Pair, Plus, Minus, Times, Div, Min, Max, Eq, Ne, Lt, Le, Gt, Ge, LOr, LAnd],
                [Tril, Triu, StrictTril, StrictTriu, Diag, Offdiag, ValueEq, ValueNe, ValueLt, ValueLe, ValueGt, ValueGe]);
        )*};
    }
    number!(
        PlusTimes<semigraph_semiring::f16>,
        PlusTimes<bf16>,
        PlusTimes<f32>,
        PlusTimes<f64>,
        PlusTimes<i32>,
        PlusTimes<i64>,
        PlusTimes<u32>
    );
    per_type!(
        OrAnd,
        [Identity, LNot, One],
        [First, Second, Pair, LOr, LAnd, LXor, Eq, Ne, Min, Max],
        [Tril, Diag, ValueEq, ValueNe]
    );
    v
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

fn disk_cache_is_used_and_survives_corruption() {
    let dir = std::env::temp_dir().join(format!("sg-kernel-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // A source no other test compiles, so the process-wide memory cache cannot answer.
    let sr = MinPlus::<f32>::cuda();
    let key = KernelKey::new(Kernel::Count, Some(&sr));
    let src = format!(
        "{}// disk cache test {}\n",
        codegen::source(Kernel::Count, Some(&sr)),
        std::process::id()
    );
    let c = Compiler::new("sm_90")
        .unwrap()
        .with_cache_dir(Some(dir.clone()));
    let first = c.compile(&key, &src).unwrap();
    assert_eq!(first.origin, Origin::Compiled);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(
        files.len(),
        1,
        "one cache file, no temporary left: {files:?}"
    );
    assert!(
        files[0]
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with(&key.name())
    );
    let c = c.without_memory_cache();
    assert_eq!(c.compile(&key, &src).unwrap().origin, Origin::Disk);
    // A damaged entry is ignored, rebuilt and rewritten.
    let mut data = std::fs::read(&files[0]).unwrap();
    let n = data.len();
    data[n - 1] ^= 0xff;
    std::fs::write(&files[0], &data).unwrap();
    let again = c.compile(&key, &src).unwrap();
    assert_eq!(again.origin, Origin::Compiled);
    assert_eq!(again.cubin, first.cubin);
    assert_eq!(c.compile(&key, &src).unwrap().origin, Origin::Disk);
    let _ = std::fs::remove_dir_all(&dir);
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

/// Set to a cache folder, the test binary is a worker of
/// [`two_processes_share_the_disk_cache`] instead of running tests.
const CACHE_WORKER: &str = "SEMIGRAPH_TEST_CACHE_WORKER";

/// The kernels both workers compile: every kernel of min-plus f32 and of or-and.
fn shared_kernels() -> Vec<(Kernel, CudaSemiring)> {
    let mut v = Vec::new();
    for sr in [MinPlus::<f32>::cuda()] {
        for k in Kernel::ALL {
            if k.applies_to(Some(&sr)) && k.op_kinds().is_empty() {
                v.push((k, sr.clone()));
            }
        }
    }
    v
}

/// A worker: compiles [`shared_kernels`] through the disk cache in `dir` (no memory cache),
/// in an order of its own, and prints how many came from where.
fn cache_worker(dir: PathBuf) -> ExitCode {
    let c = Compiler::new("sm_90")
        .expect("compiler")
        .with_cache_dir(Some(dir))
        .without_memory_cache();
    let mut kernels = shared_kernels();
    if std::process::id() % 2 == 1 {
        kernels.reverse();
    }
    let (mut compiled, mut disk) = (0, 0);
    for (k, sr) in &kernels {
        let key = KernelKey::new(*k, Some(sr));
        match c.compile(&key, &codegen::source(*k, Some(sr))) {
            Ok(out) if out.cubin.starts_with(b"\x7fELF") => match out.origin {
                Origin::Compiled => compiled += 1,
                _ => disk += 1,
            },
            Ok(_) => {
                eprintln!("{key}: not an ELF CUBIN");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("compiled {compiled} from-disk {disk}");
    ExitCode::SUCCESS
}

fn two_processes_share_the_disk_cache() {
    let dir = std::env::temp_dir().join(format!("sg-cache-2proc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let me = std::env::current_exe().unwrap();
    let spawn = || {
        std::process::Command::new(&me)
            .env(CACHE_WORKER, &dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let mut total = 0;
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "worker failed: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let n: Vec<usize> = text
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(n.len(), 2, "{text}");
        assert_eq!(n[0] + n[1], shared_kernels().len(), "{text}");
        total += n[0];
    }
    // Each kernel compiled at least once; no temporary left; every entry valid and the same
    // CUBIN as a fresh compile.
    assert!(total >= shared_kernels().len(), "{total}");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with(".tmp-")),
        "temporaries left: {names:?}"
    );
    assert_eq!(names.len(), shared_kernels().len(), "{names:?}");
    let from_disk = Compiler::new("sm_90")
        .unwrap()
        .with_cache_dir(Some(dir.clone()))
        .without_memory_cache();
    let fresh = Compiler::new("sm_90")
        .unwrap()
        .with_cache_dir(None)
        .without_memory_cache();
    // Every entry read back; one in five compared with a fresh compile (each compile takes
    // a fifth of a second on 2 cores).
    for (i, (k, sr)) in shared_kernels().into_iter().enumerate() {
        let key = KernelKey::new(k, Some(&sr));
        let src = codegen::source(k, Some(&sr));
        let d = from_disk.compile(&key, &src).unwrap();
        assert_eq!(d.origin, Origin::Disk, "{key}");
        assert!(d.cubin.starts_with(b"\x7fELF"), "{key}: not an ELF CUBIN");
        if i % 5 == 0 {
            assert_eq!(d.cubin, fresh.compile(&key, &src).unwrap().cubin, "{key}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
