//! The repository's test data (`data/` at the root; see its README for sources, licences and
//! known answers).
//!
//! Where it is looked for, in order:
//! 1. `$SEMIGRAPH_DATA`, when set (test binaries carried to another machine, or the larger
//!    data set of the developers' machines);
//! 2. `data/` beside the crate being tested, from `$CARGO_MANIFEST_DIR` as cargo sets it when it
//!    runs the test (read at run time, never a path fixed at build time);
//! 3. `data/` in the working directory or one of its ancestors.
//!
//! A folder counts only if it holds `SHA256SUMS`. Files over 32 KB are stored xz-compressed
//! (`NAME.xz`); [`path`] finds `NAME` or `NAME.xz`, so either layout works.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn is_data_dir(p: &Path) -> bool {
    p.join("SHA256SUMS").is_file()
}

/// The test data folder, or why it was not found.
pub fn dir() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("SEMIGRAPH_DATA") {
        let d = PathBuf::from(d);
        return if d.is_dir() {
            Ok(d)
        } else {
            Err(format!("SEMIGRAPH_DATA={} is not a folder", d.display()))
        };
    }
    let mut tried = Vec::new();
    if let Some(m) = std::env::var_os("CARGO_MANIFEST_DIR") {
        for a in Path::new(&m).ancestors() {
            let d = a.join("data");
            if is_data_dir(&d) {
                return Ok(d);
            }
        }
        tried.push(format!("the ancestors of {}", Path::new(&m).display()));
    }
    if let Ok(cwd) = std::env::current_dir() {
        for a in cwd.ancestors() {
            let d = a.join("data");
            if is_data_dir(&d) {
                return Ok(d);
            }
        }
        tried.push(format!("the ancestors of {}", cwd.display()));
    }
    Err(format!(
        "the test data folder (data/ with SHA256SUMS, at the repository root) was not found in {}; \
         set SEMIGRAPH_DATA to it",
        tried.join(" or ")
    ))
}

/// The path of `rel` (e.g. `"lagraph/karate.mtx"`) in the test data: `rel` itself, or
/// `rel.xz` where the file is stored compressed. Panics, naming what was looked for, when
/// neither exists: a test that needs a missing file fails, it never skips.
#[track_caller]
pub fn path(rel: &str) -> PathBuf {
    let d = dir().unwrap_or_else(|e| panic!("{e}"));
    let plain = d.join(rel);
    if plain.exists() {
        return plain;
    }
    let xz = d.join(format!("{rel}.xz"));
    if xz.exists() {
        return xz;
    }
    panic!(
        "test data file {rel} not found: neither {} nor {} exists",
        plain.display(),
        xz.display()
    )
}

/// [`path`] as a string (for command lines).
#[track_caller]
pub fn path_str(rel: &str) -> String {
    path(rel).display().to_string()
}

/// The SHA-256 of a file, in hex.
pub fn sha256_file(p: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(p)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Checks `SHA256SUMS` of the data folder `d` (lines `HEX  ./path` or `HEX  path`): every
/// listed file exists with its checksum, and every file of the folder (but `SHA256SUMS`
/// itself and the folder's `README.md`) is listed. Returns the number of files checked, or every problem found.
pub fn verify_checksums(d: &Path) -> Result<usize, Vec<String>> {
    let sums = std::fs::read_to_string(d.join("SHA256SUMS"))
        .map_err(|e| vec![format!("{}: {e}", d.join("SHA256SUMS").display())])?;
    let mut listed = BTreeMap::new();
    let mut problems = Vec::new();
    for (k, line) in sums.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match line.split_once("  ") {
            Some((hex, name)) if hex.len() == 64 => {
                let name = name.trim().trim_start_matches("./").to_string();
                listed.insert(name, hex.to_ascii_lowercase());
            }
            _ => problems.push(format!("SHA256SUMS line {}: {line:?}", k + 1)),
        }
    }
    let mut present = Vec::new();
    collect_files(d, d, &mut present);
    for rel in &present {
        if rel != "SHA256SUMS" && rel != "README.md" && !listed.contains_key(rel) {
            problems.push(format!("{rel} is not listed in SHA256SUMS"));
        }
    }
    for (name, hex) in &listed {
        match sha256_file(&d.join(name)) {
            Ok(h) if &h == hex => {}
            Ok(h) => problems.push(format!("{name}: checksum {h}, SHA256SUMS says {hex}")),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(listed.len())
    } else {
        Err(problems)
    }
}

fn collect_files(root: &Path, d: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(d) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(root, &p, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}
