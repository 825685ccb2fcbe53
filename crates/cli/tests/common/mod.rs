//! What the command's end-to-end tests share: running the built binary (plainly, under a memory
//! limit), reading its output, and files in a temporary folder.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn bin() -> PathBuf {
    std::env::var_os("SEMIGRAPH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_semigraph")))
}

pub fn semigraph(args: &[&str]) -> Output {
    Command::new(bin()).args(args).output().expect("runs")
}

/// Runs under an address-space limit of `mib` MiB (`ulimit -v`) beyond the binary itself, as a
/// memory-limited user would: the limit is `mib` MiB plus the binary's file size, since what
/// the process maps before its first allocation grows with the build (a debug binary maps
/// about 250 MiB before `main`, a release one a fraction of that).
pub fn semigraph_limited(mib: u64, args: &[&str]) -> Output {
    let own = std::fs::metadata(bin()).map_or(0, |m| m.len()) / 1024;
    let script = format!("ulimit -v {} && exec \"$0\" \"$@\"", mib * 1024 + own);
    // As on a machine of 16 cores, whatever this one has: the worker threads' stacks and
    // allocator arenas must fit the limit too (they did not on the 16-core GPU machine).
    Command::new("sh")
        .env("RAYON_NUM_THREADS", "16")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .output()
        .expect("runs")
}

pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("semigraph-cli-rel-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn file(name: &str, body: &[u8]) -> String {
    let p = dir().join(name);
    std::fs::write(&p, body).unwrap();
    p.display().to_string()
}

/// The `id value parent` lines of a vertex result, as (id, value).
pub fn values(o: &Output) -> Vec<(String, String)> {
    out(o)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t[0].to_string(), t[1].to_string())
        })
        .collect()
}

/// A failure with status 1, a message, no panic.
#[track_caller]
pub fn refused(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(1), "{}{}", out(o), err(o));
    let e = err(o);
    assert!(e.contains("semigraph: error: "), "{e}");
    assert!(e.contains(needle), "expected {needle:?} in: {e}");
    assert!(!e.contains("panicked"), "{e}");
}
