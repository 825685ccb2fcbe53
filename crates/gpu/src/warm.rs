//! Kernel profiles: which disk-cache entries a kind of work loaded, so that the next process
//! doing that work loads them before it needs them.
//!
//! A process's first call of an algorithm spends about as long loading its kernels (each
//! CUBIN read from the disk cache, `cuModuleLoadData`, `cuModuleGetFunction`) as running
//! them; a warm process pays nothing. A profile is a list of cache file names, written at the
//! end of a piece of work under a tag (`cli-bfs`, say, in
//! `<kernel cache>/profiles/<tag>-<arch>.txt`); [`GpuBackend::preload_kernels`] loads the
//! entries it names, typically on a thread that runs while the input is read. A preloaded
//! kernel is used only once a request's generated source gives the same cache identity as the
//! file, so a stale or foreign profile costs loading time, never a wrong kernel.
//!
//! [`GpuBackend::preload_kernels`]: crate::GpuBackend::preload_kernels

use std::path::{Path, PathBuf};

/// The most entries a profile keeps (the newest first): enough for any algorithm's kernels on
/// every kind of graph, few enough to load in a few milliseconds.
pub(crate) const PROFILE_MAX: usize = 48;

/// The profile file of `tag` for architecture `arch` in the cache folder `dir`; `None` for a
/// tag that is empty or holds characters other than ASCII letters, digits, `-` and `_`.
pub(crate) fn profile_path(dir: &Path, tag: &str, arch: &str) -> Option<PathBuf> {
    let ok = !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| dir.join("profiles").join(format!("{tag}-{arch}.txt")))
}

/// Whether `name` can be a cache file name: a kernel's name (a C identifier), `-`, a hash
/// and `.cubin`; no folder, no way out of the cache folder.
pub(crate) fn is_entry_name(name: &str) -> bool {
    name.ends_with(".cubin")
        && !name.starts_with('.')
        && name.len() <= 512
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The entry names a profile file lists (none if it cannot be read; lines that cannot be
/// cache file names are skipped).
pub(crate) fn read_profile(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|s| {
            s.lines()
                .map(str::trim)
                .filter(|l| is_entry_name(l))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `used` (in order of first use) followed by the entries of `old` it does not hold, at most
/// [`PROFILE_MAX`].
pub(crate) fn merge_profile(used: &[String], old: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(PROFILE_MAX);
    for name in used.iter().chain(old) {
        if out.len() == PROFILE_MAX {
            break;
        }
        if is_entry_name(name) && !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_names_stay_inside_the_cache() {
        let d = Path::new("/cache");
        assert_eq!(
            profile_path(d, "cli-bfs", "sm_90"),
            Some(PathBuf::from("/cache/profiles/cli-bfs-sm_90.txt"))
        );
        for bad in ["", "../x", "a/b", "a b", "x.txt"] {
            assert_eq!(profile_path(d, bad, "sm_90"), None, "{bad:?}");
        }
        assert!(is_entry_name("queue_relax__hops__u32-00ff.cubin"));
        for bad in [
            "../k.cubin",
            "a/k.cubin",
            ".tmp-1.cubin",
            "k.txt",
            "",
            "a\0b.cubin",
        ] {
            assert!(!is_entry_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn profiles_put_the_newest_first_and_stay_bounded() {
        let names = |r: std::ops::Range<usize>| -> Vec<String> {
            r.map(|i| format!("k{i}.cubin")).collect()
        };
        let merged = merge_profile(&names(0..3), &names(2..6));
        assert_eq!(merged, names(0..6));
        let merged = merge_profile(&names(100..100 + PROFILE_MAX), &names(0..10));
        assert_eq!(merged, names(100..100 + PROFILE_MAX));
        let junk = vec!["../x.cubin".to_string(), "k1.cubin".to_string()];
        assert_eq!(merge_profile(&junk, &[]), vec!["k1.cubin".to_string()]);

        let dir = std::env::temp_dir().join(format!("semigraph-profile-{}", std::process::id()));
        let path = profile_path(&dir, "t", "sm_90").expect("a valid tag");
        crate::compiler::write_atomic(&path, b"k1.cubin\n../evil.cubin\n\nk2.cubin\n")
            .expect("a temporary folder is writable");
        assert_eq!(read_profile(&path), vec!["k1.cubin", "k2.cubin"]);
        assert!(read_profile(&dir.join("absent.txt")).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
