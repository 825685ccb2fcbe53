#![allow(missing_docs)]
//! Regression tests for the third hostile-input campaign (docs/RELIABILITY.md, round 3): one
//! test per defect it found, each on the input that once failed, plus the generated cases
//! that would have found them (every command on rectangular matrices, integer limits of every
//! semiring and type, printed values read back for every value type).
//!
//! Commands run with `--backend auto`: on a machine with a GPU they run there, so the same
//! tests check that the GPU gives the same answers and refusals; the tests that compare
//! backends run each explicitly.
//!
//! This file holds the cases of shapes, memory, outputs, APSP and files; `numbers.rs` those of
//! numbers (exact integer products, integers beyond `i64`, printed values, and the generated
//! cases at the limits of every semiring and type).

#[path = "../common/mod.rs"]
mod common;
mod numbers;
use common::*;

use std::process::Command;

/// The value column of every non-header line.
fn column(o: &std::process::Output) -> Vec<String> {
    values(o).into_iter().map(|(_, v)| v).collect()
}

/// Matrix entries `(row, column, value as written)`, 1-based.
type Entries<'a> = Vec<(usize, usize, &'a str)>;

fn mtx(
    name: &str,
    nrows: usize,
    ncols: usize,
    field: &str,
    entries: &[(usize, usize, &str)],
) -> String {
    let mut s = format!(
        "%%MatrixMarket matrix coordinate {field} general\n{nrows} {ncols} {}\n",
        entries.len()
    );
    for (i, j, v) in entries {
        s.push_str(&format!("{i} {j} {v}\n"));
    }
    file(name, s.as_bytes())
}

const FORMATS: [&str; 6] = ["csr", "ell", "dia", "coo", "hyb", "dense"];

// ---- 1. spmv on matrices with more columns than rows ------------------------------------

#[test]
fn spmv_prints_one_value_per_row_of_any_shape() {
    // Row sums of a few shapes, in every format, as text and JSON.
    let shapes: [(usize, usize, Entries); 4] = [
        (1, 2, vec![(1, 2, "3")]),
        (3, 5, vec![(1, 5, "2"), (3, 1, "4"), (3, 4, "1")]),
        (5, 3, vec![(5, 3, "7"), (2, 2, "1")]),
        (2, 4, vec![]),
    ];
    for (k, (r, c, e)) in shapes.iter().enumerate() {
        let f = mtx(&format!("shape{k}.mtx"), *r, *c, "integer", e);
        let mut want = vec![0i64; *r];
        for (i, _, v) in e {
            want[i - 1] += v.parse::<i64>().unwrap();
        }
        for format in FORMATS {
            let o = semigraph(&[
                "spmv",
                &f,
                "--semiring",
                "plus-times:i32",
                "--format",
                format,
                "-q",
            ]);
            assert_eq!(o.status.code(), Some(0), "{r}x{c} {format}: {}", err(&o));
            let got: Vec<i64> = column(&o).iter().map(|v| v.parse().unwrap()).collect();
            assert_eq!(got, want, "{r}x{c} {format}");
            let o = semigraph(&[
                "spmv",
                &f,
                "--semiring",
                "plus-times:i32",
                "--format",
                format,
                "--json",
                "-q",
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", err(&o));
            let j: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
            let got: Vec<i64> = j["vertices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["value"].as_i64().unwrap())
                .collect();
            assert_eq!(got, want, "{r}x{c} {format} json");
        }
    }
    // The shipped files that once failed.
    for name in ["lp_afiro.mtx", "empty.mtx"] {
        let f = semigraph_testkit::data::path_str(&format!("lagraph/{name}"));
        let o = semigraph(&["spmv", &f, "-q"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", err(&o));
        assert!(!err(&o).contains("panicked"));
    }
}

#[test]
fn every_command_on_rectangular_matrices_answers_or_refuses() {
    // Dimension mismatches for every command: exit 0 with output, or 1 with a message naming
    // the file; never a panic.
    let f = mtx(
        "rect.mtx",
        3,
        7,
        "integer",
        &[(1, 7, "2"), (3, 2, "5"), (2, 2, "1")],
    );
    let g = mtx("tall.mtx", 6, 2, "real", &[(6, 1, "0.5"), (1, 2, "1.5")]);
    let out_mtx = dir().join("rect-out.mtx").display().to_string();
    for file in [&f, &g] {
        let runs: Vec<Vec<&str>> = vec![
            vec!["bfs", file, "-s", "1"],
            vec!["bfs", file, "-s", "1", "--direction", "pull"],
            vec!["sssp", file, "-s", "1"],
            vec!["sssp", file, "-s", "1", "--algo", "delta-stepping"],
            vec!["sssp", file, "-s", "1", "--algo", "bellman-ford"],
            vec!["apsp", file],
            vec!["apsp", file, "--method", "sources"],
            vec!["spmv", file, "--semiring", "min-plus:f64"],
            vec![
                "spmv",
                file,
                "--semiring",
                "or-and:bool",
                "--format",
                "dense",
            ],
            vec!["stats", file],
            vec!["convert", file, "-o", &out_mtx],
        ];
        for args in runs {
            let mut a = args.clone();
            a.push("-q");
            let o = semigraph(&a);
            let code = o.status.code();
            assert!(
                code == Some(0) || code == Some(1),
                "{args:?}: {code:?} {}",
                err(&o)
            );
            assert!(!err(&o).contains("panicked"), "{args:?}: {}", err(&o));
            if code == Some(1) {
                assert!(err(&o).contains(file.as_str()), "{args:?}: {}", err(&o));
            }
        }
    }
}

// ---- 2. memory: refusals, never aborts ----------------------------------------------------

#[test]
fn large_headers_and_arc_counts_are_refused_not_aborted() {
    let big = file("big.gr", b"p sp 250000000 0\n");
    for args in [
        vec!["bfs", &big, "-s", "1"],
        vec!["sssp", &big, "-s", "1"],
        vec!["spmv", &big],
        vec!["apsp", &big],
        vec!["stats", &big],
    ] {
        let mut a = args.clone();
        a.push("-q");
        let o = semigraph_limited(2000, &a);
        let code = o.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "{args:?}: {:?} {}",
            o.status,
            err(&o)
        );
        if code == Some(1) {
            assert!(
                err(&o).contains("refused before allocating") || err(&o).contains("available"),
                "{args:?}: {}",
                err(&o)
            );
        }
    }
    // Many arcs in a small compressed file: 5 M arcs under 250 MiB.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    use std::io::Write;
    enc.write_all(b"p sp 1000 5000000\n").unwrap();
    let line = b"a 1 2 1\n".repeat(100_000);
    for _ in 0..50 {
        enc.write_all(&line).unwrap();
    }
    let many = dir().join("many.gr.gz");
    std::fs::write(&many, enc.finish().unwrap()).unwrap();
    for cmd in ["bfs", "sssp", "stats"] {
        let mut a = vec![cmd, many.to_str().unwrap(), "-q"];
        if cmd != "stats" {
            a.extend(["-s", "1"]);
        }
        let o = semigraph_limited(250, &a);
        let code = o.status.code();
        assert!(
            code == Some(0) || code == Some(1),
            "{cmd}: {:?} {}",
            o.status,
            err(&o)
        );
        if code == Some(1) {
            assert!(err(&o).contains("available"), "{cmd}: {}", err(&o));
        }
    }
}

// ---- 6, 7. outputs: LDBC pairs atomic, every signal cleans up --------------------------------

#[test]
fn an_ldbc_pair_is_replaced_together_or_not_at_all() {
    let g = semigraph_testkit::data::path_str("lagraph/karate.mtx");
    let d = dir().join("ldbc-atomic");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("p.e")).unwrap(); // the .e cannot be written
    std::fs::write(d.join("p.v"), "old\n").unwrap();
    let o = semigraph(&["convert", &g, "-o", d.join("p.v").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(d.join("p.v")).unwrap(), "old\n");
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn signals_and_file_size_limits_leave_no_temporary() {
    // A file-size limit: the write fails with a message, nothing is left.
    let d = dir().join("fsize");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let out_el = d.join("k.el");
    let o = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 16 && exec \"$0\" \"$@\"")
        .arg(bin())
        .args([
            "generate",
            "kronecker",
            "--scale",
            "12",
            "-o",
            out_el.to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{:?} {}", o.status, err(&o));
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
    // SIGALRM, SIGUSR1 and SIGUSR2 end the process like SIGTERM: status 130, no temporary.
    for sig in ["ALRM", "USR1", "USR2"] {
        let d = dir().join(format!("sig-{sig}"));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let target = d.join("big.el.xz");
        let mut child = Command::new(bin())
            .args([
                "generate",
                "kronecker",
                "--scale",
                "18",
                "-o",
                target.to_str().unwrap(),
                "-q",
            ])
            .spawn()
            .unwrap();
        let t0 = std::time::Instant::now();
        while std::fs::read_dir(&d).unwrap().count() == 0 && t0.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{sig}: {status:?}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "{sig}");
    }
}

// ---- 8. APSP: negative cycles found at once, sizes refused up front ---------------------------

#[test]
fn apsp_names_a_negative_cycle_at_once_and_refuses_what_cannot_fit() {
    // A 4,000-vertex cycle with a 2-arc negative cycle: took 65-89 s by sources.
    let n = 4000;
    let mut s = format!("p sp {n} {}\n", n + 1);
    for i in 1..n {
        s.push_str(&format!("a {i} {} 1\n", i + 1));
    }
    s.push_str(&format!("a {n} 1 1\na 2 1 -5\n"));
    let g = file("neg4000.gr", s.as_bytes());
    for method in ["sources", "squaring", "auto"] {
        for backend in ["cpu", "auto"] {
            let t = std::time::Instant::now();
            let o = semigraph(&[
                "apsp",
                &g,
                "--method",
                method,
                "--backend",
                backend,
                "-o",
                "/dev/null",
            ]);
            refused(&o, "negative cycle through 2 vertices");
            assert!(
                t.elapsed().as_secs() < 60,
                "{method} {backend}: {:?}",
                t.elapsed()
            );
        }
    }
    // 100,000 vertices: 40 GB of results, refused before any work.
    let g = file("big100k.gr", b"p sp 100000 1\na 1 2 1\n");
    let o = semigraph_limited(8000, &["apsp", &g, "-o", "/dev/null"]);
    refused(&o, "refused before allocating");
}

// ---- 9 to 12 ---------------------------------------------------------------------------------

#[test]
fn gml_ldbc_and_loops_round_trip_or_refuse() {
    // 9. GML cannot hold inf: refused when written.
    let g = file("inf.gr", b"p sp 2 1\na 1 2 inf\n");
    refused(
        &semigraph(&["convert", &g, "-o", dir().join("inf.gml").to_str().unwrap()]),
        "GML",
    );
    // 10. compressed LDBC, written and read.
    let k = semigraph_testkit::data::path_str("lagraph/karate.mtx");
    let y = dir().join("y.e.gz");
    let o = semigraph(&["convert", &k, "-o", y.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(dir().join("y.v.gz").exists() && !dir().join("y.e.gz.v").exists());
    let a = semigraph(&["bfs", y.to_str().unwrap(), "-s", "1", "-q"]);
    let b = semigraph(&["bfs", &k, "-s", "1", "-q"]);
    assert_eq!(values(&a), values(&b));
    // 11. a one-vertex graph with a self-loop of 2^40.
    let g = file("loop.gr", b"p sp 1 1\na 1 1 1099511627776\n");
    let o = semigraph(&["sssp", &g, "-s", "1", "-q"]);
    assert_eq!(column(&o), vec!["0"], "{}", err(&o));
    // 12. one file for both APSP outputs.
    let f = dir().join("same.mtx");
    let t = semigraph_testkit::data::path_str("lagraph/test_BF.mtx");
    refused(
        &semigraph(&[
            "apsp",
            &t,
            "-o",
            f.to_str().unwrap(),
            "--next-hop",
            f.to_str().unwrap(),
        ]),
        "same file",
    );
}

// ---- 13. the small ones ----------------------------------------------------------------------

#[test]
fn messages_name_the_file_and_stay_short() {
    // A negative cycle of 200 vertices: named, cut.
    let mut s = String::from("p sp 200 200\n");
    for i in 1..=200 {
        s.push_str(&format!("a {i} {} -1\n", i % 200 + 1));
    }
    let g = file("ring.gr", s.as_bytes());
    let o = semigraph(&["sssp", &g, "-s", "1", "-q"]);
    refused(&o, "ring.gr: negative cycle through 200 vertices");
    assert!(
        err(&o).contains("(180 more)") && err(&o).len() < 400,
        "{}",
        err(&o)
    );
    // Not square; negative weights for delta-stepping.
    let r = mtx("nsq.mtx", 2, 3, "integer", &[(1, 3, "1")]);
    refused(&semigraph(&["apsp", &r]), "nsq.mtx");
    let n = file("negw.gr", b"p sp 2 1\na 1 2 -1\n");
    refused(
        &semigraph(&["sssp", &n, "-s", "1", "--algo", "delta-stepping"]),
        "negw.gr",
    );
}

#[test]
fn edge_lists_keep_isolated_vertices_and_their_base() {
    let g = file("iso.gr", b"p sp 5 1\na 2 3 7\n");
    let el = dir().join("iso.el");
    assert!(
        semigraph(&["convert", &g, "-o", el.to_str().unwrap(), "-q"])
            .status
            .success()
    );
    let o = semigraph(&["sssp", el.to_str().unwrap(), "-s", "1", "-q"]);
    assert!(out(&o).contains("5 vertices"), "{}", out(&o));
    assert_eq!(column(&o), vec!["inf", "0", "7", "inf", "inf"]);
}

#[test]
fn generated_weights_cover_the_whole_range() {
    let f = dir().join("w.el");
    let o = semigraph(&[
        "generate",
        "path",
        "--n",
        "200",
        "--weights=-9223372036854775808..9223372036854775807",
        "-o",
        f.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let text = std::fs::read_to_string(&f).unwrap();
    let w: std::collections::HashSet<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(' ').nth(2).unwrap())
        .collect();
    assert!(w.len() > 190, "{} distinct weights", w.len());
}

#[test]
fn gml_is_read_strictly() {
    let d2 = file("d2.gml", b"graph [ directed 2 node [ id 1 ] ]\n");
    refused(&semigraph(&["stats", &d2]), "expected 0 or 1");
    let dt = file("dt.gml", b"graph [ directed true node [ id 1 ] ]\n");
    refused(&semigraph(&["stats", &dt]), "expected 0 or 1");
    let q = file("q.gml", b"graph [ directed 1 node [ id 1 ] node [ id 2 ] edge [ source 1 target 2 value \"7\" ] ]\n");
    refused(&semigraph(&["sssp", &q, "-s", "1"]), "quoted");
}

#[test]
fn standard_input_input_formats_and_flags_before_the_subcommand() {
    let body = b"p sp 3 2\na 1 2 4\na 2 3 5\n";
    let plain = file("noext", body);
    refused(&semigraph(&["sssp", &plain, "-s", "1"]), "--input-format");
    let o = semigraph(&["sssp", &plain, "-s", "1", "--input-format", "gr", "-q"]);
    assert_eq!(column(&o), vec!["0", "4", "9"], "{}", err(&o));
    let mut child = Command::new(bin())
        .args(["sssp", "-", "--input-format", "gr", "-s", "1", "-q"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(body).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(column(&o), vec!["0", "4", "9"]);
    let o = semigraph(&[
        "-q",
        "--json",
        "sssp",
        &plain,
        "-s",
        "1",
        "--input-format",
        "gr",
    ]);
    assert!(o.status.success() && err(&o).is_empty(), "{}", err(&o));
    assert!(out(&o).starts_with('{'));
}
