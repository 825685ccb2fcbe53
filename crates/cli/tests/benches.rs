#![allow(missing_docs)]
//! The `bench` commands end to end on the CPU backend: SpMV against sprs, the algorithm
//! benches checked (or told not to be), the format study's table, summary and plots.

mod common;

use std::path::PathBuf;

use common::{err as stderr, out as stdout, semigraph};

use semigraph_testkit::data::path_str as data;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("semigraph-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn bench_spmv_runs_on_the_cpu_backend_against_sprs() {
    let o = semigraph(&[
        "bench",
        "spmv",
        "--backend",
        "cpu",
        &data("lagraph/karate.mtx"),
        "--runs",
        "20",
        "--json",
        "-q",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["peer"]["name"], "sprs CSR (1 core)");
    assert_eq!(v["peer"]["check"], "ok");
    assert!(v["device"].as_str().unwrap().starts_with("cpu"), "{v}");
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() >= 4, "{v}");
    for r in rows {
        assert_eq!(r["check"], "ok", "{r}");
        assert!(r["median_ms"].as_f64().unwrap() > 0.0, "{r}");
    }
}

/// `bench bfs|sssp|wcc` on the CPU backend: every run checked against the CPU reference by
/// default, and `--no-check` (for graphs too large to check) says its rows are unchecked.
#[test]
fn algorithm_benches_check_their_runs_unless_told_not_to() {
    for (what, extra) in [
        ("bfs", &[][..]),
        ("sssp", &["--weights", "1..9"][..]),
        ("wcc", &[][..]),
    ] {
        for no_check in [false, true] {
            let mut args = vec![
                "bench",
                what,
                "--generate",
                "kronecker",
                "--scale",
                "8",
                "--backends",
                "cpu",
                "--json",
                "-q",
            ];
            args.extend_from_slice(extra);
            if no_check {
                args.push("--no-check");
            }
            let o = semigraph(&args);
            assert!(o.status.success(), "{what}: {}", stderr(&o));
            let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
            let rows = v["rows"].as_array().unwrap();
            assert!(!rows.is_empty(), "{v}");
            for r in rows {
                let check = r["check"].as_str().unwrap();
                let setup = r["backend"].as_str().unwrap().contains("[setup]");
                let want = if no_check && !setup {
                    "unchecked ("
                } else {
                    "ok ("
                };
                assert!(check.starts_with(want), "{what} --no-check {no_check}: {r}");
            }
        }
    }
}

/// `bench formats` on a small manifest, CPU backend: the CSV has a row per matrix x semiring x
/// format with the features, a file missing everywhere is skipped with a note, `--from`
/// summarises the same table again (and draws it), and a malformed manifest line is refused
/// with the file and line.
#[test]
fn bench_formats_measures_summarises_and_draws() {
    let manifest = tmp("corpus.txt");
    std::fs::write(
        &manifest,
        "# small corpus\n\
         st  | stencil | fit     | generate stencil --dims 30x30 --points 5\n\
         kr  | power-law | fit   | generate kronecker --scale 9 --edge-factor 8\n\
         bi  | rectangular | holdout | generate bipartite --rows 300 --cols 50 --edge-factor 30\n\
         gone | road | fit | file no/such/graph.gr\n",
    )
    .unwrap();
    let csv = tmp("formats.csv");
    let o = semigraph(&[
        "bench",
        "formats",
        manifest.to_str().unwrap(),
        "--backends",
        "cpu",
        "--cpu-semirings",
        "min-plus:f32,or-and:bool",
        "-o",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("gone: skipped"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    // 3 matrices x 2 semirings x 6 formats (refused ones have a row too).
    assert_eq!(rows.len(), 3 * 2 * 6, "{text}");
    assert!(
        rows.iter()
            .any(|r| r.starts_with("bi,rectangular,holdout,300,50,")),
        "{text}"
    );
    assert!(rows.iter().all(|r| r.split(',').count() == 24));
    assert!(
        rows.iter()
            .filter(|r| r.contains(",cpu,min_plus_f32,csr,"))
            .all(|r| r.ends_with(",ok")),
        "{text}"
    );
    let summary = stdout(&o);
    assert!(
        summary.contains("## cpu min_plus_f32, all (3 matrices)"),
        "{summary}"
    );
    assert!(summary.contains("auto (library)"), "{summary}");
    let plots = tmp("plots");
    let again = semigraph(&[
        "bench",
        "formats",
        "--from",
        csv.to_str().unwrap(),
        "--plots",
        plots.to_str().unwrap(),
        "--json",
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).expect("summary JSON");
    let group = v
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["semiring"] == "min_plus_f32" && g["set"] == "all")
        .expect("a min-plus group");
    let auto = &group["selectors"][0];
    assert_eq!(auto["matrices"], 3);
    assert!(auto["geomean"].as_f64().unwrap() > 0.0 && auto["geomean"].as_f64().unwrap() <= 1.0);
    let svg = std::fs::read_to_string(plots.join("profile-cpu-min_plus_f32.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<text"),
        "an SVG with text"
    );
    std::fs::write(&manifest, "st | stencil | fit\n").unwrap();
    let bad = semigraph(&[
        "bench",
        "formats",
        manifest.to_str().unwrap(),
        "--backends",
        "cpu",
    ]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("corpus.txt:1: expected `name | structure | set | source`"),
        "{}",
        stderr(&bad)
    );
}
