//! The kernel cache on disk: used, rebuilt when corrupted, shared by two processes.

use std::path::PathBuf;
use std::process::ExitCode;

use semigraph_gpu::codegen::{self, Kernel, KernelKey};
use semigraph_gpu::{Compiler, Origin};
use semigraph_semiring::{CudaSemiring, MinPlus, Semiring};

pub(crate) fn disk_cache_is_used_and_survives_corruption() {
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

/// Set to a cache folder, the test binary is a worker of
/// [`two_processes_share_the_disk_cache`] instead of running tests.
pub(crate) const CACHE_WORKER: &str = "SEMIGRAPH_TEST_CACHE_WORKER";

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
pub(crate) fn cache_worker(dir: PathBuf) -> ExitCode {
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

pub(crate) fn two_processes_share_the_disk_cache() {
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
