#![allow(missing_docs)]
//! Regression tests for the third hostile-input campaign (docs/RELIABILITY.md, round 3): one
//! test per defect it found, each on the input that once failed, plus the generated cases
//! that would have found them (every command on rectangular matrices, integer limits of every
//! semiring and type, printed values read back for every value type).
//!
//! Commands run with `--backend auto`: on a machine with a GPU they run there, so the same
//! tests check that the GPU gives the same answers and refusals; the tests that compare
//! backends run each explicitly.

mod common;
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

// ---- 3. integer SpMV: exact or refused ------------------------------------------------------

#[test]
fn integer_sums_are_exact_or_refused_for_every_type() {
    // (type, largest, smallest) of the integer plus-times semirings.
    let types: [(&str, i128, i128); 3] = [
        ("i32", i32::MAX as i128, i32::MIN as i128),
        ("i64", i64::MAX as i128, i64::MIN as i128),
        ("u32", u32::MAX as i128, 0),
    ];
    for (ty, max, min) in types {
        let sr = format!("plus-times:{ty}");
        // A row summing to exactly the largest value, one just past it, one to the smallest,
        // one just below it (its parts fit the type: half and half).
        let half = max / 2;
        let rows = [
            (vec![half, max - half], true),
            (vec![half + 1, max - half], false),
            (vec![min / 2, min - min / 2], true),
            (vec![min / 2 - 1, min - min / 2], min == 0),
        ];
        for (k, (parts, fits)) in rows.iter().enumerate() {
            if parts.iter().any(|p| *p < min || *p > max) {
                continue;
            }
            let v: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
            let f = mtx(
                &format!("sum-{ty}-{k}.mtx"),
                1,
                2,
                "integer",
                &[(1, 1, &v[0]), (1, 2, &v[1])],
            );
            let exact: i128 = parts.iter().sum();
            for backend in ["cpu", "auto"] {
                let o = semigraph(&["spmv", &f, "--semiring", &sr, "--backend", backend, "-q"]);
                if *fits {
                    assert_eq!(o.status.code(), Some(0), "{ty} {parts:?}: {}", err(&o));
                    assert_eq!(
                        column(&o),
                        vec![exact.to_string()],
                        "{ty} {parts:?} {backend}"
                    );
                } else {
                    refused(&o, &format!("sums to {exact}"));
                }
            }
        }
    }
    // The three reproducers.
    let f = mtx(
        "wrap32.mtx",
        1,
        2,
        "integer",
        &[(1, 1, "1073741824"), (1, 2, "1073741824")],
    );
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:i32"]),
        "plus-times:i64",
    );
    let f = mtx(
        "wrapu.mtx",
        1,
        2,
        "integer",
        &[(1, 1, "2147483648"), (1, 2, "2147483648")],
    );
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:u32"]),
        "4294967296",
    );
    let f = semigraph_testkit::data::path_str("lagraph/matrix_int64.mtx");
    refused(
        &semigraph(&["spmv", &f, "--semiring", "plus-times:i64"]),
        "9223372036854775814",
    );
    // min/max semirings at the limits: exact (no sums).
    let f = mtx(
        "limits.mtx",
        2,
        2,
        "integer",
        &[
            (1, 1, "-2147483648"),
            (1, 2, "2147483647"),
            (2, 2, "2147483647"),
        ],
    );
    for (sr, want) in [
        ("min-plus:i32", "-2147483648"),
        ("max-plus:i32", "2147483647"),
        ("min-max:i32", "-2147483648"),
        ("max-min:i32", "2147483647"),
    ] {
        let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
        assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
        assert_eq!(column(&o)[0], want, "{sr}");
    }
}

// ---- 4. integers beyond i64 -----------------------------------------------------------------

#[test]
fn integers_beyond_i64_are_kept_exact_or_refused() {
    let g = file("huge.gr", b"p sp 2 1\na 1 2 9223372036854775809\n");
    // Shortest paths: no distance type holds it: refused, not rounded.
    refused(&semigraph(&["sssp", &g, "-s", "1"]), "huge.gr");
    // convert keeps it exact, in every format that holds integers.
    for ext in ["gr", "mtx", "el", "e"] {
        let o = dir().join(format!("huge-out.{ext}"));
        let r = semigraph(&["convert", &g, "-o", o.to_str().unwrap(), "-q"]);
        assert!(r.status.success(), "{ext}: {}", err(&r));
        let back = dir().join(format!("huge-back-{ext}.mtx"));
        let r = semigraph(&[
            "convert",
            o.to_str().unwrap(),
            "-o",
            back.to_str().unwrap(),
            "-q",
        ]);
        assert!(r.status.success(), "{ext}: {}", err(&r));
        let text = std::fs::read_to_string(&back).unwrap();
        assert!(text.contains(" 9223372036854775809"), "{ext}: {text}");
    }
    // Integers no type holds, or that only u64 holds beside a negative weight: refused.
    for (name, body) in [
        ("toobig.gr", "p sp 2 1\na 1 2 18446744073709551616\n"),
        ("toosmall.gr", "p sp 2 1\na 1 2 -9223372036854775809\n"),
        (
            "mixed.gr",
            "p sp 3 2\na 1 2 -1\na 2 3 9223372036854775809\n",
        ),
        ("realmix.el", "0 1 0.5\n1 2 9007199254740993\n"),
    ] {
        let f = file(name, body.as_bytes());
        refused(
            &semigraph(&["convert", &f, "-o", dir().join("x.mtx").to_str().unwrap()]),
            "refused rather than",
        );
    }
}

// ---- 5. printed values are the values ------------------------------------------------------

#[test]
fn printed_values_read_back_as_the_values_for_every_type() {
    // Values chosen to be exact in each type; spmv's y is each row's single entry.
    let cases: [(&str, &[&str]); 7] = [
        (
            "plus-times:f32",
            &["1073741824", "0.1", "-3.5", "1e30", "16777216", "1.5e-7"],
        ),
        (
            "plus-times:f64",
            &[
                "9007199254740992",
                "0.1",
                "1e300",
                "-2.25",
                "1e-50",
                "123456789.125",
            ],
        ),
        (
            "plus-times:f16",
            &["2048", "0.5", "-65504", "0.000061035156"],
        ),
        ("plus-times:bf16", &["1073741824", "0.5", "-3"]),
        ("plus-times:i32", &["2147483647", "-2147483648", "0"]),
        (
            "plus-times:i64",
            &["9223372036854775807", "-9223372036854775808", "7"],
        ),
        ("plus-times:u32", &["4294967295", "0", "12"]),
    ];
    for (sr, vals) in cases {
        let entries: Vec<(usize, usize, &str)> = vals
            .iter()
            .enumerate()
            .map(|(k, v)| (k + 1, 1, *v))
            .collect();
        let field = if sr.ends_with("f32") || sr.ends_with("f64") || sr.contains("f16") {
            "real"
        } else {
            "integer"
        };
        let f = mtx(
            &format!("print-{}.mtx", sr.replace(':', "-")),
            vals.len(),
            1,
            field,
            &entries,
        );
        let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
        assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
        for (got, want) in column(&o).iter().zip(vals.iter()) {
            // Read back in the type, the printed text is the value the type holds for the input.
            let same = match sr.split(':').nth(1).unwrap() {
                "f32" => got.parse::<f32>().unwrap() == want.parse::<f32>().unwrap(),
                "f64" => got.parse::<f64>().unwrap() == want.parse::<f64>().unwrap(),
                "f16" | "bf16" => {
                    let (g, w) = (got.parse::<f64>().unwrap(), want.parse::<f64>().unwrap());
                    let (hg, hw) = if sr.ends_with("bf16") {
                        (
                            half::bf16::from_f64(g).to_f64(),
                            half::bf16::from_f64(w).to_f64(),
                        )
                    } else {
                        (
                            half::f16::from_f64(g).to_f64(),
                            half::f16::from_f64(w).to_f64(),
                        )
                    };
                    hg == hw
                }
                _ => got == want,
            };
            assert!(same, "{sr}: printed {got} for {want}");
            // An integral value prints all its digits: read as an integer it is the value.
            if let Ok(x) = want.parse::<f64>()
                && x.fract() == 0.0
                && x.abs() < 1e18
                && (sr.ends_with("f64") || x.abs() < 16777216.0 || x == 1073741824.0)
            {
                assert_eq!(
                    got.parse::<i128>().ok(),
                    Some(x as i128),
                    "{sr}: printed {got}"
                );
            }
        }
    }
    // The f32 reproducer, text and JSON.
    let f = mtx("pow30.mtx", 1, 1, "real", &[(1, 1, "1073741824")]);
    let o = semigraph(&["spmv", &f, "--semiring", "plus-times:f32", "-q"]);
    assert_eq!(column(&o), vec!["1073741824"]);
    let o = semigraph(&["spmv", &f, "--semiring", "plus-times:f32", "-q", "--json"]);
    assert!(out(&o).contains("\"value\":1073741824"), "{}", out(&o));
    // f32 distances: sums that cannot be exact are refused; dyadic ones are exact.
    let g = file("f32sum.gr", b"p sp 3 2\na 1 2 16777216\na 2 3 1.0\n");
    refused(
        &semigraph(&["sssp", &g, "-s", "1", "--distances", "f32"]),
        "f32",
    );
    let g = file("f32dy.gr", b"p sp 3 2\na 1 2 0.5\na 2 3 0.25\n");
    for backend in ["cpu", "auto"] {
        let o = semigraph(&[
            "sssp",
            &g,
            "-s",
            "1",
            "--distances",
            "f32",
            "--backend",
            backend,
            "-q",
        ]);
        assert_eq!(
            column(&o),
            vec!["0", "0.5", "0.75"],
            "{backend}: {}",
            err(&o)
        );
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

// ---- generated cases: integer limits of every semiring and type, printing of every type -----

/// A small deterministic generator (the tests must be reproducible).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn fuzz_cases() -> u64 {
    std::env::var("SEMIGRAPH_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
}

#[test]
fn fuzzed_products_at_the_integer_limits_are_exact_or_refused() {
    // (type, min, max) and, per semiring, what y_i is for the row's entries (x is `one`, so
    // each product is the entry itself) and for an empty row (the semiring's zero).
    let types: [(&str, i128, i128); 3] = [
        ("i32", i32::MIN as i128, i32::MAX as i128),
        ("i64", i64::MIN as i128, i64::MAX as i128),
        ("u32", 0, u32::MAX as i128),
    ];
    let mut rng = Lcg(0x5eed);
    for case in 0..fuzz_cases() {
        let (r, c) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        for (ty, min, max) in types {
            let pick = |rng: &mut Lcg| -> i128 {
                match rng.below(6) {
                    0 => max,
                    1 => min,
                    2 => max / 2 + 1,
                    3 => 0,
                    4 => min / 2 - 1,
                    _ => (rng.next() as i128 % 1000) - 500,
                }
            };
            let mut cells: Vec<(usize, usize, i128)> = Vec::new();
            for i in 1..=r {
                for j in 1..=c {
                    if rng.below(2) == 0 {
                        cells.push((i, j, pick(&mut rng).clamp(min, max)));
                    }
                }
            }
            let text: Vec<String> = cells.iter().map(|e| e.2.to_string()).collect();
            let entries: Vec<(usize, usize, &str)> = cells
                .iter()
                .zip(&text)
                .map(|(e, t)| (e.0, e.1, t.as_str()))
                .collect();
            let f = mtx(&format!("fz-{case}-{ty}.mtx"), r, c, "integer", &entries);
            for sr in ["plus-times", "min-plus", "max-plus", "max-min", "min-max"] {
                if ty == "u32" && sr == "max-plus" {
                    continue; // not a built-in
                }
                let row = |i: usize| cells.iter().filter(move |e| e.0 == i).map(|e| e.2);
                let want: Vec<Option<i128>> = (1..=r)
                    .map(|i| match sr {
                        "plus-times" => {
                            Some(row(i).sum::<i128>()).filter(|s| (min..=max).contains(s))
                        }
                        "min-plus" | "min-max" => Some(row(i).min().unwrap_or(max)),
                        _ => Some(row(i).max().unwrap_or(min)),
                    })
                    .collect();
                let name = format!("{sr}:{ty}");
                for backend in ["cpu", "auto"] {
                    let o =
                        semigraph(&["spmv", &f, "--semiring", &name, "--backend", backend, "-q"]);
                    if want.iter().all(Option::is_some) {
                        assert_eq!(o.status.code(), Some(0), "{name} {cells:?}: {}", err(&o));
                        let got: Vec<Option<i128>> =
                            column(&o).iter().map(|v| v.parse().ok()).collect();
                        assert_eq!(got, want, "{name} {backend} {cells:?}");
                    } else {
                        refused(&o, "cannot hold");
                    }
                }
            }
        }
    }
}

#[test]
fn fuzzed_values_print_as_themselves_in_every_type() {
    let mut rng = Lcg(0xf10a7);
    for case in 0..fuzz_cases() {
        // Finite values of each float type from random bits, written exactly (as f64 text),
        // one per row; y = A 1 is each value; printed, it must read back as the value.
        let f32s: Vec<f32> = (0..8)
            .map(|_| f32::from_bits(rng.next() as u32))
            .filter(|x| x.is_finite())
            .collect();
        let f64s: Vec<f64> = (0..8)
            .map(|_| f64::from_bits(rng.next() << 11 ^ rng.next()))
            .filter(|x| x.is_finite())
            .collect();
        let f16s: Vec<half::f16> = (0..8)
            .map(|_| half::f16::from_bits(rng.next() as u16))
            .filter(|x| x.is_finite())
            .collect();
        let runs: [(&str, Vec<f64>); 3] = [
            ("plus-times:f32", f32s.iter().map(|&x| x as f64).collect()),
            ("plus-times:f64", f64s.clone()),
            ("plus-times:f16", f16s.iter().map(|x| x.to_f64()).collect()),
        ];
        for (sr, vals) in runs {
            if vals.is_empty() {
                continue;
            }
            let text: Vec<String> = vals.iter().map(|v| format!("{v:e}")).collect();
            let entries: Vec<(usize, usize, &str)> = text
                .iter()
                .enumerate()
                .map(|(k, t)| (k + 1, 1, t.as_str()))
                .collect();
            let f = mtx(
                &format!("fv-{case}-{}.mtx", &sr[11..]),
                vals.len(),
                1,
                "real",
                &entries,
            );
            let o = semigraph(&["spmv", &f, "--semiring", sr, "-q"]);
            assert_eq!(o.status.code(), Some(0), "{sr}: {}", err(&o));
            for (got, want) in column(&o).iter().zip(&vals) {
                let back: f64 = got.parse().unwrap();
                let same = match sr {
                    "plus-times:f32" => back as f32 == *want as f32,
                    "plus-times:f16" => half::f16::from_f64(back).to_f64() == *want,
                    _ => back == *want,
                };
                // +0 and -0 compare equal; the sign must survive too.
                assert!(
                    same && back.is_sign_negative() == want.is_sign_negative(),
                    "{sr}: printed {got} for {want:e}"
                );
                if want.fract() == 0.0 && want.abs() < 9.2e18 {
                    assert_eq!(got.parse::<i128>().ok(), Some(*want as i128), "{sr}: {got}");
                }
            }
        }
    }
}
