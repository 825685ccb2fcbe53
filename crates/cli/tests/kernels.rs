#![allow(missing_docs)]
//! The graph kernel commands (`pagerank`, `wcc`, `cdlp`, `lcc`, `tc`) end to end: their outputs
//! on LDBC's validation graphs against the official ones (LDBC's rules), on the CPU backend and
//! on `auto` (the GPU where there is one), in text and JSON.

mod common;

use std::collections::HashMap;

use common::{err as stderr, semigraph};

use semigraph_testkit::data::path_str as data;

/// `id -> value` of a command's text output (header lines skipped), or of an output file.
fn values(text: &str) -> HashMap<i64, String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut t = l.split_whitespace();
            Some((t.next()?.parse().ok()?, t.next()?.to_string()))
        })
        .collect()
}

/// Runs `args` on each backend and returns the text outputs.
fn run(args: &[&str]) -> Vec<(String, String)> {
    ["cpu", "auto"]
        .iter()
        .map(|b| {
            let mut a = args.to_vec();
            a.extend(["--backend", b, "-q"]);
            let o = semigraph(&a);
            assert!(o.status.success(), "{args:?} --backend {b}: {}", stderr(&o));
            (
                b.to_string(),
                String::from_utf8_lossy(&o.stdout).into_owned(),
            )
        })
        .collect()
}

fn official(name: &str) -> HashMap<i64, String> {
    values(&std::fs::read_to_string(data(&format!("ldbc-graphalytics/{name}"))).unwrap())
}

/// LDBC's epsilon rule for PR and LCC.
fn check_reals(args: &[&str], want: &str) {
    let w = official(want);
    for (b, out) in run(args) {
        let got = values(&out);
        assert_eq!(got.len(), w.len(), "{want} on {b}: vertices");
        for (id, x) in &w {
            let (x, y): (f64, f64) = (x.parse().unwrap(), got[id].parse().unwrap());
            assert!(
                (x - y).abs() <= 1e-4 * x.abs(),
                "{want} on {b}: {id}: {y} vs {x}"
            );
        }
    }
}

#[test]
fn pagerank_matches_ldbc() {
    let d = |f: &str| data(&format!("ldbc-graphalytics/{f}"));
    check_reals(
        &["pagerank", &d("example-directed.v"), "--iterations", "2"],
        "example-directed-PR",
    );
    check_reals(
        &[
            "pagerank",
            &d("example-undirected.v"),
            "--undirected",
            "--iterations",
            "2",
        ],
        "example-undirected-PR",
    );
    check_reals(
        &["pagerank", &d("test-pr-directed.adj"), "--iterations", "14"],
        "test-pr-directed-PR",
    );
    // The default stops at a tolerance: the converged ranks, which LDBC's file holds.
    check_reals(
        &["pagerank", &d("test-pr-directed.adj")],
        "test-pr-directed-PR",
    );
}

#[test]
fn lcc_and_cdlp_match_ldbc() {
    let d = |f: &str| data(&format!("ldbc-graphalytics/{f}"));
    check_reals(
        &["lcc", &d("test-lcc-directed.adj")],
        "test-lcc-directed-LCC",
    );
    check_reals(
        &["lcc", &d("example-undirected.v"), "--undirected"],
        "example-undirected-LCC",
    );
    for (args, want) in [
        (
            vec!["cdlp", "test-cdlp-directed.adj", "--iterations", "5"],
            "test-cdlp-directed-CDLP",
        ),
        (
            vec!["cdlp", "example-directed.v", "--iterations", "2"],
            "example-directed-CDLP",
        ),
        (
            vec![
                "cdlp",
                "example-undirected.v",
                "--undirected",
                "--iterations",
                "2",
            ],
            "example-undirected-CDLP",
        ),
    ] {
        let file = d(args[1]);
        let mut a = args.clone();
        a[1] = &file;
        for (b, out) in run(&a) {
            assert_eq!(values(&out), official(want), "{want} on {b}");
        }
    }
}

#[test]
fn wcc_labels_are_the_smallest_id_and_tc_counts() {
    let d = |f: &str| data(&format!("ldbc-graphalytics/{f}"));
    for (file, want) in [
        ("test-wcc-directed.adj", "test-wcc-directed-WCC"),
        ("example-directed.v", "example-directed-WCC"),
    ] {
        for (b, out) in run(&["wcc", &d(file)]) {
            let got = values(&out);
            // The labels are the smallest id of each component: LDBC's files use the same rule.
            assert_eq!(got, official(want), "{want} on {b}");
        }
    }
    // Karate: 45 triangles (LAGraph's known answer); vertex 1 (0 in LAGraph) is in 18.
    for (b, out) in run(&["tc", &data("lagraph/karate.mtx")]) {
        assert!(out.lines().any(|l| l == "# triangles: 45"), "{b}: {out}");
        assert_eq!(values(&out)[&1], "18", "{b}");
        let sum: u64 = values(&out)
            .values()
            .map(|v| v.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, 3 * 45, "{b}");
    }
    let o = semigraph(&[
        "tc",
        &data("lagraph/karate.mtx"),
        "--json",
        "-q",
        "--backend",
        "cpu",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["triangles"], 45);
    assert_eq!(v["vertices"].as_array().unwrap().len(), 34);
}

#[test]
fn bad_options_are_refused_with_a_message() {
    let o = semigraph(&[
        "pagerank",
        &data("ldbc-graphalytics/example-directed.v"),
        "--damping",
        "1.5",
        "--backend",
        "cpu",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("damping"), "{}", stderr(&o));
}
