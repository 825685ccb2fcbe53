//! The counts the documentation and comments quote are the code's: the built-in semirings
//! (`for_each_builtin!`) and the cover the suites run (`for_each_cover_semiring!`), wherever
//! README.md, docs/ or a source file names one ("all 49 built-in semirings", "14 of the 49
//! built-in semirings", "the cover of 14").

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every text the counts may be quoted in: README.md, docs/*.md, the crates' sources and
/// tests, the Python package's sources.
fn texts() -> Vec<(PathBuf, String)> {
    let mut files = vec![root().join("README.md")];
    let mut dirs = vec![
        root().join("docs"),
        root().join("crates"),
        root().join("python/src"),
    ];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d)
            .expect("a folder of the repository")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("target") && !p.ends_with("snapshots") {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "md" || x == "rs") {
                files.push(p);
            }
        }
    }
    files
        .into_iter()
        .map(|p| {
            let t = std::fs::read_to_string(&p).unwrap_or_default();
            // Lines wrap anywhere: read every run of whitespace (and comment marks) as one space.
            let t = t.replace("///", " ").replace("//!", " ").replace("//", " ");
            (p, t.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .collect()
}

/// The numbers between `before` and `after` in `text`.
fn quoted(text: &str, before: &str, after: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(before) {
        rest = &rest[i + before.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && rest[digits.len()..].starts_with(after) {
            out.push(digits.parse().expect("digits"));
        }
    }
    out
}

#[test]
fn quoted_semiring_counts_are_the_codes() {
    let mut builtins = 0;
    macro_rules! count {
        ($label:ident, $t:ty) => {
            builtins += 1;
        };
    }
    semigraph_semiring::for_each_builtin!(count);
    let mut cover = 0;
    macro_rules! count_cover {
        ($label:ident, $t:ty) => {
            cover += 1;
        };
    }
    semigraph_testkit::for_each_cover_semiring!(count_cover);
    assert_eq!(builtins, semigraph_semiring::names::builtin_names().len());
    let rules: [(&str, &str, usize); 9] = [
        ("all ", " built-in semirings", builtins),
        ("of the ", " built-in semirings", builtins),
        ("All ", " built-in semirings", builtins),
        ("all ", " (semiring, type)", builtins),
        ("all ", " preludes", builtins),
        ("all ", " with `--features", builtins),
        ("over all ", " the test", builtins),
        (" for ", " of the ", cover),
        ("cover of ", " ", cover),
    ];
    let mut seen = 0;
    for (path, text) in texts() {
        for (before, after, want) in rules {
            for n in quoted(&text, before, after) {
                seen += 1;
                assert_eq!(
                    n,
                    want,
                    "{}: \"{before}{n}{after}\" (the code has {want})",
                    path.display()
                );
            }
        }
    }
    assert!(
        seen >= 5,
        "the counts are quoted in several places ({seen} found)"
    );
}
