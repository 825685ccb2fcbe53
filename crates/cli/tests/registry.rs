//! The registry's algorithms through the command line: the reference page is the registry's,
//! every algorithm is a command and a benchmark, and the commands the registry made answer as
//! independent oracles do.

mod common;

use common::{err, file, out, semigraph};

/// The repository's root (the tests run in the crate's folder).
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_algorithm_reference_is_the_registrys() {
    let o = semigraph(&["algorithms", "--markdown"]);
    assert!(o.status.success(), "{}", err(&o));
    let page =
        std::fs::read_to_string(root().join("docs/ALGORITHMS.md")).expect("docs/ALGORITHMS.md");
    assert!(
        page == out(&o),
        "docs/ALGORITHMS.md differs from the registry: run \
         `semigraph algorithms --markdown > docs/ALGORITHMS.md`"
    );
}

/// A small weighted graph: two paths 1 -> 2 -> 4 (capacities 5, 4) and 1 -> 3 -> 4 (9, 2),
/// 4 -> 5 (7), and 6 -> 1 reaching into it from outside.
const GRAPH: &[u8] = b"1 2 5\n2 4 4\n1 3 9\n3 4 2\n4 5 7\n6 1 3\n";

#[test]
fn every_algorithm_is_a_command_and_a_benchmark() {
    let listed = out(&semigraph(&["algorithms"]));
    let g = file("registry-every.el", GRAPH);
    let partition = file(
        "registry-every.partition",
        b"1 7\n2 7\n3 7\n4 8\n5 8\n6 7\n",
    );
    let mut seen = 0;
    for line in listed.lines() {
        let command = line.split_whitespace().next().expect("a command");
        let needs_source = matches!(
            command,
            "bfs" | "sssp" | "widest-path" | "reachability" | "path" | "maxflow"
        );
        let mut args = vec![command, g.as_str(), "--backend", "cpu", "-q", "--json"];
        if needs_source {
            args.extend(["-s", "1"]);
        }
        if command == "path" || command == "maxflow" {
            args.extend(["-t", "5"]);
        }
        if command == "modularity" {
            args.extend(["--partition", &partition]);
        }
        if command == "eigenvector" {
            // A DAG: the power iteration's change falls as 1/iterations.
            args.extend(["--tolerance", "0.01"]);
        }
        let o = semigraph(&args);
        assert!(o.status.success(), "{command}: {}", err(&o));
        let v: serde_json::Value = serde_json::from_str(&out(&o)).expect("JSON");
        // A row per vertex; the path's vertices (1 2 4 5, the lighter); the 3-truss's edges
        // (none: no triangle); the spanning tree's 5 edges; a maximal matching's 2 or 3 pairs.
        let rows = match command {
            "path" => 4..=4,
            "ktruss" => 0..=0,
            "msf" => 5..=5,
            "matching" => 2..=3,
            "modularity" | "maxflow" => 0..=0,
            _ => 6..=6,
        };
        let got = v["vertices"].as_array().map_or(0, Vec::len);
        assert!(rows.contains(&got), "{command}: {got} rows");
        let mut bench = vec!["bench", command, &g, "--backends", "cpu", "-q"];
        if command == "eigenvector" {
            bench.extend(["--tolerance", "0.01"]);
        }
        let b = semigraph(&bench);
        assert!(b.status.success(), "bench {command}: {}", err(&b));
        assert!(out(&b).contains("ok ("), "bench {command}: {}", out(&b));
        seen += 1;
    }
    assert!(seen >= 9, "{listed}");
}

#[test]
fn widest_paths_and_reachability_answer_as_their_definitions() {
    let g = file("registry-paths.el", GRAPH);
    let lines = |args: &[&str]| -> Vec<(String, String)> {
        let o = semigraph(args);
        assert!(o.status.success(), "{}", err(&o));
        common::values(&o)
    };
    // Widest: the narrowest arc of the widest path; the source unbounded, 6 unreachable.
    let w = lines(&["widest-path", &g, "-s", "1", "--backend", "cpu", "-q"]);
    let want = [
        ("1", "inf"),
        ("2", "5"),
        ("3", "9"),
        ("4", "4"),
        ("5", "4"),
        ("6", "-inf"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(w, want);
    // Reachability from 2: 4 and 5 only, itself included.
    let r = lines(&["reachability", &g, "-s", "2", "--backend", "cpu", "-q"]);
    let reached: Vec<&str> = r
        .iter()
        .filter(|(_, v)| v == "1")
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(reached, ["2", "4", "5"]);
    // A source outside the graph is refused in the file's numbering.
    let o = semigraph(&["reachability", &g, "-s", "9", "--backend", "cpu"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains('9'), "{}", err(&o));
}

#[test]
fn triangle_totals_alone_match_the_per_vertex_run() {
    let g = file("registry-tc.el", b"1 2\n2 3\n3 1\n3 4\n4 1\n");
    let total = |extra: &[&str]| {
        let mut a = vec!["tc", g.as_str(), "--backend", "cpu", "-q", "--json"];
        a.extend(extra);
        let o = semigraph(&a);
        assert!(o.status.success(), "{}", err(&o));
        let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        (
            v["triangles"].as_u64(),
            v["vertices"].as_array().map(Vec::len),
        )
    };
    assert_eq!(total(&[]), (Some(2), Some(4)));
    assert_eq!(total(&["--count", "total"]), (Some(2), Some(0)));
}

#[test]
fn similarity_reads_pairs_in_the_files_ids() {
    // Ids 10..=14: a star 10 - {11, 12, 13} and an edge 12 - 13, 14 alone.
    let g = file("registry-sim.el", b"10 11\n10 12\n10 13\n12 13\n14 14\n");
    let pairs = file("registry-sim.pairs", b"# u v\n11 12\n12 13\n14 11\n");
    let o = semigraph(&["jaccard", &g, "--pairs", &pairs, "--backend", "cpu", "-q"]);
    assert!(o.status.success(), "{}", err(&o));
    let rows: Vec<Vec<String>> = out(&o)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    // N(11) = {10}, N(12) = {10, 13}: 1 of 2; N(12), N(13) = {10, 12}: {10} of 3; 14 has
    // only itself (its loop), 11 only 10: none in common.
    let want = [
        ["11", "12", "0.5", "1"],
        ["12", "13", "0.3333333333333333", "1"],
        ["14", "11", "0", "0"],
    ];
    assert_eq!(rows, want.map(|r| r.map(str::to_string).to_vec()).to_vec());
    // A pair's id that is not the graph's, and a line that is not a pair, are refused.
    for bad in [&b"11 99\n"[..], &b"11\n"[..]] {
        let p = file("registry-sim-bad.pairs", bad);
        let o = semigraph(&["jaccard", &g, "--pairs", &p, "--backend", "cpu"]);
        assert_eq!(o.status.code(), Some(1), "{}", err(&o));
        assert!(err(&o).contains("line 1"), "{}", err(&o));
    }
}
