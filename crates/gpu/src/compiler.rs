//! NVRTC compilation of generated kernels, with an in-memory and an on-disk cache.
//!
//! A kernel is compiled to a CUBIN for one architecture (`sm_90` on the H100/H200). Its cache
//! identity is a hash of the generated source, the NVRTC options (which name the
//! architecture) and the NVRTC version; the file holds that identity, the binary's length and
//! a checksum, so a stale, foreign or truncated file is recognised, ignored and rebuilt. Files
//! are written to a temporary name and renamed into place, so concurrent processes never read
//! half a file.
//!
//! Cache folder: `$SEMIGRAPH_KERNEL_CACHE` if set (`off` disables the disk cache), else the
//! user's cache directory (`~/.cache/semigraph/kernels` on Linux).

use std::collections::HashMap;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use cudarc::nvrtc::{result, sys};

use crate::codegen::{Kernel, KernelKey};
use crate::error::GpuError;

/// Where a compiled kernel came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// This process had it already.
    Memory,
    /// Read from the disk cache.
    Disk,
    /// Compiled by NVRTC now.
    Compiled,
}

/// A compiled kernel.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The CUBIN.
    pub cubin: Arc<Vec<u8>>,
    /// Where it came from.
    pub origin: Origin,
    /// Time spent getting it (compiling, or reading the cache).
    pub time: Duration,
}

/// Compiles kernels for one GPU architecture through NVRTC.
#[derive(Debug)]
pub struct Compiler {
    arch: String,
    version: (i32, i32),
    options: Vec<String>,
    dir: Option<PathBuf>,
    memory: bool,
}

/// Whether `libnvrtc` can be loaded (checked before any NVRTC call: cudarc panics without it).
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen the library by its candidate names; no NVRTC call is made.
    unsafe { sys::is_culib_present() }
}

fn memory_cache() -> &'static Mutex<HashMap<u64, Arc<Vec<u8>>>> {
    static CACHE: OnceLock<Mutex<HashMap<u64, Arc<Vec<u8>>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A 64-bit hash of `parts` with a seed (two seeds give two independent hashes), eight bytes a
/// step: each word is mixed in by a multiplication and a shift (both invertible, so any change
/// of one word changes the hash), each part's length closes it. FNV-1a's byte-at-a-time loop
/// took about 2 ms of a process's first BFS, hashing the sources and checking the CUBINs of its
/// eight kernels read from the disk cache.
fn hash64(seed: u64, parts: &[&[u8]]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, w: u64| {
        let x = (h ^ w).wrapping_mul(K);
        x ^ (x >> 32)
    };
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for p in parts {
        let mut words = p.chunks_exact(8);
        for w in &mut words {
            h = mix(h, u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        h = mix(h, u64::from_le_bytes(last));
        h = mix(h, p.len() as u64);
    }
    h
}

const MAGIC: &str = "semigraph-kernel-cache v2";

impl Compiler {
    /// A compiler for `arch` (e.g. `sm_90`), with the default cache folder.
    ///
    /// # Errors
    /// [`GpuError::LibraryMissing`] when `libnvrtc` cannot be loaded.
    pub fn new(arch: &str) -> Result<Compiler, GpuError> {
        if !nvrtc_present() {
            return Err(GpuError::LibraryMissing {
                library: "libnvrtc",
                hint: "install the CUDA toolkit, or `pip install \"nvidia-cuda-nvrtc==13.0.*\"` \
                       and add site-packages/nvidia/cu13/lib to LD_LIBRARY_PATH",
            });
        }
        let (mut major, mut minor) = (0, 0);
        // SAFETY: the library is present (checked above); both pointers are valid for writes.
        unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .map_err(|e| GpuError::Nvrtc {
                what: "nvrtcVersion".into(),
                message: format!("{e:?}"),
            })?;
        let options = vec![
            format!("--gpu-architecture={arch}"),
            "--std=c++17".to_string(),
            "--generate-line-info".to_string(),
        ];
        Ok(Compiler {
            arch: arch.to_string(),
            version: (major, minor),
            options,
            dir: default_dir(),
            memory: true,
        })
    }

    /// The same compiler with another disk cache folder (`None`: no disk cache).
    pub fn with_cache_dir(mut self, dir: Option<PathBuf>) -> Compiler {
        self.dir = dir;
        self
    }

    /// The same compiler with NVRTC's fastest compilation (`--Ofast-compile=max`: the source
    /// parsed and checked as always, machine code barely optimised). For checks that every
    /// kernel compiles (CI compiles thousands), never for kernels that run: the option is part
    /// of a kernel's cache identity, so such binaries are never mistaken for optimised ones.
    pub fn with_fast_compile(mut self) -> Compiler {
        self.options.push("--Ofast-compile=max".to_string());
        self
    }

    /// The same compiler without the process-wide memory cache (every call reads the disk
    /// cache or compiles; for tests and cache tools).
    pub fn without_memory_cache(mut self) -> Compiler {
        self.memory = false;
        self
    }

    /// The target architecture, e.g. `sm_90`.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// The NVRTC version, `(major, minor)`.
    pub fn nvrtc_version(&self) -> (i32, i32) {
        self.version
    }

    /// The NVRTC options used for every kernel.
    pub fn options(&self) -> &[String] {
        &self.options
    }

    /// The disk cache folder, if any.
    pub fn cache_dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The cache identity of `src` under this compiler: its 64-bit hash (which names the cache
    /// file) and the full identity line the file holds.
    pub(crate) fn identity(&self, src: &str) -> (u64, String) {
        let opts = self.options.join(" ");
        let ver = format!("{}.{}", self.version.0, self.version.1);
        let parts: [&[u8]; 3] = [src.as_bytes(), opts.as_bytes(), ver.as_bytes()];
        let h1 = hash64(0, &parts);
        let h2 = hash64(0x9e37_79b9_7f4a_7c15, &parts);
        (
            h1,
            format!(
                "{h1:016x}{h2:016x} nvrtc {ver} {opts} ({} bytes)",
                src.len()
            ),
        )
    }

    /// The CUBIN of `key` from source `src`: from memory, from disk, or compiled now (and then
    /// stored in both caches).
    ///
    /// # Errors
    /// [`GpuError::Compile`] with the key, options, NVRTC log and source when NVRTC rejects
    /// the source; [`GpuError::Nvrtc`] when NVRTC itself fails.
    pub fn compile(&self, key: &KernelKey, src: &str) -> Result<Compiled, GpuError> {
        self.compile_identified(key, src, self.identity(src))
    }

    /// [`compile`](Self::compile) with the identity of `src` known.
    pub(crate) fn compile_identified(
        &self,
        key: &KernelKey,
        src: &str,
        (h, identity): (u64, String),
    ) -> Result<Compiled, GpuError> {
        let start = Instant::now();
        let cached = self
            .memory
            .then(|| {
                memory_cache()
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&h)
                    .cloned()
            })
            .flatten();
        if let Some(c) = cached {
            return Ok(Compiled {
                cubin: c.clone(),
                origin: Origin::Memory,
                time: start.elapsed(),
            });
        }
        let file = self
            .dir
            .as_ref()
            .map(|d| d.join(entry_name(&key.name(), h)));
        if let Some(bin) = file.as_deref().and_then(|f| read_entry(f, &identity)) {
            let bin = Arc::new(bin);
            memory_cache()
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .insert(h, bin.clone());
            return Ok(Compiled {
                cubin: bin,
                origin: Origin::Disk,
                time: start.elapsed(),
            });
        }
        let bin = Arc::new(self.nvrtc(key, src)?);
        if let Some(f) = &file {
            // A cache that cannot be written costs time later, never correctness.
            let _ = write_entry(f, &identity, &bin);
        }
        memory_cache()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(h, bin.clone());
        Ok(Compiled {
            cubin: bin,
            origin: Origin::Compiled,
            time: start.elapsed(),
        })
    }

    /// Runs NVRTC on `src` and returns the CUBIN.
    fn nvrtc(&self, key: &KernelKey, src: &str) -> Result<Vec<u8>, GpuError> {
        let nv = |what: &str, e: result::NvrtcError| GpuError::Nvrtc {
            what: format!("{what} ({key})"),
            message: format!("{e:?}"),
        };
        let csrc = CString::new(src).expect("generated source has no NUL bytes");
        let cname = CString::new(format!("{}.cu", key.name())).expect("key has no NUL bytes");
        let prog = result::create_program(&csrc, Some(&cname)).map_err(|e| nv("create", e))?;
        // SAFETY: `prog` was created above and is destroyed once below; the option strings
        // are copied by `compile_program`.
        let compiled = unsafe { result::compile_program(prog, &self.options) };
        let out = match compiled {
            Ok(()) => cubin(prog).map_err(|e| nv("get CUBIN", e)),
            Err(_) => {
                // SAFETY: `prog` is live (destroyed below).
                let log = unsafe { result::get_program_log(prog) }
                    .map(|l| {
                        let bytes: Vec<u8> =
                            l.iter().map(|&c| c as u8).take_while(|&c| c != 0).collect();
                        String::from_utf8_lossy(&bytes).into_owned()
                    })
                    .unwrap_or_else(|e| format!("(no log: {e:?})"));
                Err(GpuError::Compile {
                    key: key.name(),
                    options: self.options.join(" "),
                    log,
                    source_code: src.to_string(),
                })
            }
        };
        // SAFETY: `prog` was created above and not destroyed before.
        let _ = unsafe { result::destroy_program(prog) };
        out
    }
}

/// The CUBIN of a compiled program.
fn cubin(prog: sys::nvrtcProgram) -> Result<Vec<u8>, result::NvrtcError> {
    let mut size = 0usize;
    // SAFETY: `prog` is a live, compiled program; `size` is valid for writes.
    unsafe { sys::nvrtcGetCUBINSize(prog, &mut size) }.result()?;
    let mut buf = vec![0u8; size];
    // SAFETY: `buf` holds `size` bytes, the size NVRTC reported for this program's CUBIN.
    unsafe { sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr().cast()) }.result()?;
    Ok(buf)
}

fn default_dir() -> Option<PathBuf> {
    match std::env::var_os("SEMIGRAPH_KERNEL_CACHE") {
        Some(v) if v == "off" => None,
        Some(v) if !v.is_empty() => Some(PathBuf::from(v)),
        _ => dirs::cache_dir().map(|d| d.join("semigraph").join("kernels")),
    }
}

/// The cache file name of kernel `name` whose identity hashes to `h`.
pub(crate) fn entry_name(name: &str, h: u64) -> String {
    format!("{name}-{h:016x}.cubin")
}

/// The kernel name and identity hash of a cache file name made by [`entry_name`]; `None` for
/// any other name.
pub(crate) fn parse_entry_name(file: &str) -> Option<(&str, u64)> {
    let (name, h) = file.strip_suffix(".cubin")?.rsplit_once('-')?;
    Some((name, u64::from_str_radix(h, 16).ok()?))
}

/// Reads a cache file; `None` unless it is complete and made for `identity`.
fn read_entry(path: &Path, identity: &str) -> Option<Vec<u8>> {
    read_any_entry(path).and_then(|(id, bin)| (id == identity).then_some(bin))
}

/// Reads a complete cache file of any identity: the identity line and the CUBIN (a file
/// named in a kernel profile, whose source is not known yet; the identity is compared when it
/// is).
pub(crate) fn read_any_entry(path: &Path) -> Option<(String, Vec<u8>)> {
    let data = std::fs::read(path).ok()?;
    let mut rest = data.as_slice();
    let mut line = || {
        let nl = rest.iter().position(|&b| b == b'\n')?;
        let l = std::str::from_utf8(&rest[..nl]).ok()?.to_string();
        rest = &rest[nl + 1..];
        Some(l)
    };
    if line()? != MAGIC {
        return None;
    }
    let identity = line()?;
    let len: usize = line()?.parse().ok()?;
    let sum = u64::from_str_radix(&line()?, 16).ok()?;
    (rest.len() == len && hash64(0, &[rest]) == sum).then(|| (identity, rest.to_vec()))
}

/// Writes a cache file through a temporary name and a rename.
fn write_entry(path: &Path, identity: &str, bin: &[u8]) -> std::io::Result<()> {
    let mut data = format!(
        "{MAGIC}\n{identity}\n{}\n{:016x}\n",
        bin.len(),
        hash64(0, &[bin])
    )
    .into_bytes();
    data.extend_from_slice(bin);
    write_atomic(path, &data)
}

/// Writes `data` to `path` through a temporary name in the same folder and a rename, so that
/// a concurrent reader sees the old file or the new one, never half of one.
pub(crate) fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("cache files live in a folder");
    std::fs::create_dir_all(dir)?;
    // Unique per process (pid) and within it (a counter).
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".tmp-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&tmp, data)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The kernels [`check_cuda`] compiles: one of each kind of use a semiring's CUDA source gets
/// (element-wise operations and constants, a row product, the atomic improvement of the
/// relaxation kernels, the dense GEMM with its fast multiply-add, and the packed GEMM where the
/// semiring has a packed form).
const CHECKED_KERNELS: [Kernel; 5] = [
    Kernel::Apply,
    Kernel::SpmvCsrScalar,
    Kernel::QueueRelax,
    Kernel::GemmReg,
    Kernel::GemmPacked,
];

/// Compiles the CUDA side of semiring `S` with NVRTC (for `sm_90`, no disk cache), as the GPU
/// backend would on first use: a mistake in its CUDA expressions, helpers or type is found now,
/// with the NVRTC log, rather than when a GPU kernel is first built. Needs NVRTC, not a GPU.
/// Check the Rust side with [`semigraph_semiring::check_semiring`].
///
/// # Errors
/// [`GpuError::LibraryMissing`] without NVRTC; [`GpuError::Compile`] (the kernel key, NVRTC
/// options, log and generated source) for source NVRTC rejects.
///
/// # Example
/// ```
/// use semigraph_gpu::{check_cuda, nvrtc_present, GpuError};
/// use semigraph_semiring::{semiring, MinPlus};
///
/// semiring! {
///     /// A typo in the CUDA spelling of `mul`.
///     pub struct Broken: f32 {
///         name: "broken",
///         zero: f32::INFINITY,
///         one: 0.0,
///         add: |a, b| a.min(b) => "fminf(a, b)",
///         mul: |a, b| a + b => "a +* b",
///     }
/// }
/// if nvrtc_present() {
///     assert!(check_cuda::<MinPlus<f32>>().is_ok());
///     match check_cuda::<Broken>() {
///         Err(GpuError::Compile { key, log, .. }) => {
///             assert!(key.contains("__broken__f32__"), "{key}");
///             assert!(!log.is_empty());
///         }
///         other => panic!("expected a compile error, got {other:?}"),
///     }
/// }
/// ```
pub fn check_cuda<S: semigraph_semiring::Semiring>() -> Result<(), GpuError> {
    let sr = S::cuda();
    let c = Compiler::new("sm_90")?
        .with_cache_dir(None)
        .without_memory_cache();
    for k in CHECKED_KERNELS
        .into_iter()
        .filter(|k| k.applies_to(Some(&sr)))
    {
        let key = KernelKey::new(k, Some(&sr));
        c.compile(&key, &crate::codegen::source(k, Some(&sr)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names_decode() {
        let name = entry_name("sg__relax__queue__hops__u32__u32__async", 0xfeed_beef);
        assert_eq!(
            parse_entry_name(&name),
            Some(("sg__relax__queue__hops__u32__u32__async", 0xfeed_beef))
        );
        for bad in ["k.cubin", "k-zz.cubin", "k-12.txt", ""] {
            assert_eq!(parse_entry_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn cache_entries_round_trip_and_reject_damage() {
        let dir = std::env::temp_dir().join(format!("sg-cache-test-{}", std::process::id()));
        let f = dir.join("k.cubin");
        write_entry(&f, "id one", b"\x7fELF binary\nwith newline").unwrap();
        assert_eq!(
            read_entry(&f, "id one").as_deref(),
            Some(&b"\x7fELF binary\nwith newline"[..])
        );
        assert_eq!(read_entry(&f, "id two"), None, "another identity");
        let mut data = std::fs::read(&f).unwrap();
        data.pop();
        std::fs::write(&f, &data).unwrap();
        assert_eq!(read_entry(&f, "id one"), None, "truncated");
        let n = data.len();
        data.push(b'y');
        data[n - 3] ^= 1;
        std::fs::write(&f, &data).unwrap();
        assert_eq!(read_entry(&f, "id one"), None, "corrupted");
        // Every single flipped byte (the last word's padding included) changes the hash.
        let bin = b"\x7fELF binary\nwith newline".to_vec();
        for i in 0..bin.len() {
            let mut other = bin.clone();
            other[i] ^= 0x10;
            assert_ne!(hash64(0, &[&bin]), hash64(0, &[&other]), "byte {i}");
        }
        assert_ne!(
            hash64(0, &[b"ab", b""]),
            hash64(0, &[b"a", b"b"]),
            "part lengths"
        );
        std::fs::write(&f, b"garbage").unwrap();
        assert_eq!(read_entry(&f, "id one"), None, "garbage");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
