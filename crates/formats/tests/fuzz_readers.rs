#![allow(missing_docs)]
//! Mutation fuzzing of every reader, as property tests (no nightly toolchain needed).
//!
//! Seeds are the small files of the repository's `data/` plus a few written here (PACE, GML,
//! DIMACS sources); each case applies 1 to 8 random mutations (byte flips, inserted tokens
//! chosen to hit parsers' edges: huge numbers, `inf`, `nan`, brackets, quotes, `%%` and CR
//! line ends; deletions, duplications, truncations), optionally gzip- or xz-compresses the
//! result, and reads it. The properties: the reader never panics or aborts; an error names
//! the file, cuts long tokens and has a line where one is to blame; a graph it accepts is
//! consistent (`EdgeList::validate`) and converts to a matrix without panicking.
//!
//! `SEMIGRAPH_FUZZ_CASES` sets the cases per reader (default 64, as CI runs it;
//! docs/RELIABILITY.md records longer runs).

use std::io::Write;
use std::path::PathBuf;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use semigraph_formats::io::{InputFormat, ReadOptions, read_graph, read_sources};

/// Seed files: `(extension to write the case under, bytes)`.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let d = semigraph_testkit::data::dir().unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    fn walk(d: &std::path::Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&d, &mut files);
    files.sort();
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let Ok(meta) = std::fs::metadata(&p) else {
            continue;
        };
        if meta.len() > 32768 || name == "SHA256SUMS" {
            continue;
        }
        let mut bytes = std::fs::read(&p).unwrap();
        let name = match name.strip_suffix(".xz") {
            Some(n) => {
                let mut d = liblzma::read::XzDecoder::new(&bytes[..]);
                let mut raw = Vec::new();
                std::io::Read::read_to_end(&mut d, &mut raw).unwrap();
                if raw.len() > 1 << 17 {
                    continue;
                }
                bytes = raw;
                n.to_string()
            }
            None => name,
        };
        let ext = match name.rsplit_once('.') {
            Some((_, e)) if ["mtx", "gr", "el", "txt", "adj", "e", "gml"].contains(&e) => {
                e.to_string()
            }
            _ if name.ends_with("-input") => "adj".into(),
            _ => continue,
        };
        out.push((ext, bytes));
    }
    out.push((
        "gr".into(),
        b"c PACE\np tw 5 4\n1 2\n2 3\n3 4\n4 5\n".to_vec(),
    ));
    out.push((
        "gr".into(),
        b"c DIMACS\np sp 4 5\na 1 2 7\na 2 3 -2\na 3 4 1000000\na 4 1 3\na 1 3 9\n".to_vec(),
    ));
    out.push((
        "gml".into(),
        b"Creator \"x\"\ngraph [\n directed 1\n node [ id 1 label \"a\" ]\n node [ id 2 ]\n \
          edge [ source 1 target 2 value 2.5 attr [ x 1 ] ]\n]\n"
            .to_vec(),
    ));
    out.push((
        "wel".into(),
        b"# weighted\n0 1 2.5\n1 2 -3\n2 0 1e300\n".to_vec(),
    ));
    out
}

/// One mutation.
#[derive(Clone, Debug)]
enum Mutation {
    /// The number at (or after) a position becomes another number: the structure stays
    /// valid, the values hit the edges.
    Renumber(usize, &'static [u8]),
    Flip(usize, u8),
    Insert(usize, &'static [u8]),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

const TOKENS: &[&[u8]] = &[
    b"0",
    b"-1",
    b"4294967295",
    b"4294967296",
    b"18446744073709551616",
    b"9223372036854775809",
    b"9007199254740993",
    b"-0",
    b"99999999999999999999999999",
    b"-9223372036854775808",
    b"1e39",
    b"1e-50",
    b"inf",
    b"-inf",
    b"nan",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\t",
    b"[",
    b"]",
    b"\"",
    b"%%",
    b"%%MatrixMarket matrix coordinate real symmetric\n",
    b"p sp 3 2\n",
    b"p tw 3 2\n",
    b"a 1 2 3\n",
    b"graph [",
    b"node [ id 1 ]",
    b"edge [ source 1 target 9 ]",
    b"#",
    b"\x00",
    b"\xff\xfe",
];

const NUMBERS: &[&[u8]] = &[
    b"0",
    b"1",
    b"-1",
    b"2147483647",
    b"2147483648",
    b"4294967295",
    b"4294967296",
    b"9223372036854775807",
    b"-9223372036854775809",
    b"18446744073709551616",
    b"9223372036854775809",
    b"9007199254740993",
    b"-0",
    b"1e39",
    b"1e-50",
    b"3.5",
    b"inf",
    b"-inf",
    b"nan",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), 0..NUMBERS.len()).prop_map(|(p, t)| Mutation::Renumber(p, NUMBERS[t])),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Flip(p, b)),
        1 => (any::<usize>(), 0..TOKENS.len()).prop_map(|(p, t)| Mutation::Insert(p, TOKENS[t])),
        1 => (any::<usize>(), 1usize..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        1 => (any::<usize>(), 1usize..200).prop_map(|(p, n)| Mutation::Duplicate(p, n)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(mut b: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let len = b.len();
        let at = |p: usize| if len == 0 { 0 } else { p % (len + 1) };
        match *m {
            Mutation::Renumber(p, t) => {
                let start = at(p);
                if let Some(i) = b[start..].iter().position(|c| c.is_ascii_digit()) {
                    let i = start + i;
                    let mut j = i;
                    while j < len && (b[j].is_ascii_digit() || b[j] == b'.') {
                        j += 1;
                    }
                    b.splice(i..j, t.iter().copied());
                }
            }
            Mutation::Flip(p, x) if len > 0 => b[p % len] = x,
            Mutation::Flip(..) => {}
            Mutation::Insert(p, t) => {
                let p = at(p);
                b.splice(p..p, t.iter().copied());
            }
            Mutation::Delete(p, n) => {
                let p = at(p);
                let e = (p + n).min(len);
                b.drain(p..e);
            }
            Mutation::Duplicate(p, n) => {
                let p = at(p);
                let e = (p + n).min(len);
                let chunk = b[p..e].to_vec();
                b.splice(e..e, chunk);
            }
            Mutation::Truncate(p) => b.truncate(at(p)),
        }
    }
    b
}

fn compress(b: &[u8], how: u8) -> (Vec<u8>, &'static str) {
    match how % 4 {
        1 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(b).unwrap();
            (e.finish().unwrap(), ".gz")
        }
        2 => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(b).unwrap();
            (e.finish().unwrap(), ".xz")
        }
        _ => (b.to_vec(), ""),
    }
}

fn cases() -> u32 {
    std::env::var("SEMIGRAPH_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

/// Fuzzes the readers of the seeds whose extension is in `exts`.
fn fuzz(label: &str, exts: &[&str], format: Option<InputFormat>) {
    let seeds: Vec<(String, Vec<u8>)> = seeds()
        .into_iter()
        .filter(|(e, _)| exts.contains(&e.as_str()))
        .collect();
    assert!(!seeds.is_empty(), "no seeds for {label}");
    let dir = std::env::temp_dir().join(format!("semigraph-fuzz-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0..seeds.len(),
        prop::collection::vec(mutation(), 0..8),
        any::<u8>(),
    );
    let accepted = std::sync::atomic::AtomicUsize::new(0);
    let rejected = std::sync::atomic::AtomicUsize::new(0);
    let result = runner.run(&strategy, |(k, muts, how)| {
        let (ext, seed) = &seeds[k];
        let (bytes, suffix) = compress(&apply(seed.clone(), &muts), how);
        let path = dir.join(format!("case.{ext}{suffix}"));
        std::fs::write(&path, &bytes).unwrap();
        let opts = ReadOptions {
            format,
            ..Default::default()
        };
        match read_graph(&path, &opts) {
            Err(e) => {
                rejected.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let msg = e.to_string();
                if std::env::var_os("SEMIGRAPH_FUZZ_VERBOSE").is_some() {
                    eprintln!("{msg}");
                }
                prop_assert!(msg.len() < 2000, "{} bytes: {}", msg.len(), &msg[..200]);
                prop_assert!(msg.starts_with(&path.display().to_string()), "{msg}");
            }
            Ok(g) => {
                accepted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                prop_assert!(g.validate().is_ok(), "{:?}", g.validate());
                if g.num_vertices() <= 1 << 20 {
                    let _ = g.to_pattern_csr::<semigraph_semiring::OrAnd, u32>();
                    let _ = g.to_csr::<semigraph_semiring::MinPlus<f64>, u32>();
                    // Written out and read back, every weight is the same number (printed
                    // exactly), every vertex is still there.
                    let el = path.with_extension("out.el");
                    if semigraph_formats::io::write_graph(&el, &g, None).is_ok() {
                        let h = read_graph(&el, &ReadOptions::default()).unwrap();
                        prop_assert_eq!(h.num_vertices(), g.num_vertices());
                        prop_assert_eq!(&h.src, &g.src);
                        prop_assert_eq!(&h.dst, &g.dst);
                        for k in 0..g.len() {
                            let (a, b) = (g.weights.get(k), h.weights.get(k));
                            prop_assert_eq!(
                                a.map(|w| w.to_string()),
                                b.map(|w| w.to_string()),
                                "arc {}",
                                k
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{label}: {e}");
    }
    eprintln!(
        "fuzz {label}: {} seeds, {} cases read: {} accepted, {} rejected with an error",
        seeds.len(),
        accepted.load(std::sync::atomic::Ordering::Relaxed)
            + rejected.load(std::sync::atomic::Ordering::Relaxed),
        accepted.load(std::sync::atomic::Ordering::Relaxed),
        rejected.load(std::sync::atomic::Ordering::Relaxed)
    );
}

#[test]
fn fuzz_matrix_market() {
    fuzz("mtx", &["mtx"], None);
}

#[test]
fn fuzz_dimacs_and_pace() {
    fuzz("gr", &["gr"], None);
}

#[test]
fn fuzz_edge_lists() {
    fuzz("el", &["el", "txt", "wel"], None);
}

#[test]
fn fuzz_adjacency() {
    fuzz("adj", &["adj"], Some(InputFormat::Adjacency));
}

#[test]
fn fuzz_ldbc() {
    // The .e file is fuzzed; its .v file is written beside it unchanged.
    let d = semigraph_testkit::data::dir().unwrap();
    let v = std::fs::read(d.join("ldbc-graphalytics/example-directed.v")).unwrap();
    let e = std::fs::read(d.join("ldbc-graphalytics/example-directed.e")).unwrap();
    let dir = std::env::temp_dir().join(format!("semigraph-fuzz-ldbc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("g.v"), &v).unwrap();
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&prop::collection::vec(mutation(), 0..8), |muts| {
        std::fs::write(dir.join("g.e"), apply(e.clone(), &muts)).unwrap();
        let opts = ReadOptions {
            ..Default::default()
        };
        if let Ok(g) = read_graph(dir.join("g.e"), &opts) {
            prop_assert!(g.validate().is_ok());
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("ldbc: {e}");
    }
}

#[test]
fn fuzz_gml() {
    fuzz("gml", &["gml"], None);
}

#[test]
fn fuzz_dimacs_sources() {
    let seed = b"c sources\np aux sp ss 3\ns 1\ns 7\ns 3\n".to_vec();
    let dir = std::env::temp_dir().join(format!("semigraph-fuzz-ss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&prop::collection::vec(mutation(), 0..8), |muts| {
        let p = dir.join("case.ss");
        std::fs::write(&p, apply(seed.clone(), &muts)).unwrap();
        if let Err(e) = read_sources(&p) {
            prop_assert!(e.to_string().len() < 2000);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("ss: {e}");
    }
}
