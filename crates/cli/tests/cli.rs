#![allow(missing_docs)]
//! The `semigraph` binary end to end: outputs, input numbering, errors and exit statuses,
//! atomic output files, and the demo.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::{err as stderr, out as stdout, semigraph};

use semigraph_testkit::data::path_str as data;

/// A run's output lines without the `#` header.
fn body(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("semigraph-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn demo_runs_and_every_check_passes() {
    let o = semigraph(&["demo", "--size", "small", "--backend", "cpu"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("all 8 checks passed"), "{out}");
    for alg in ["bfs", "sssp bellman-ford", "sssp delta-stepping", "apsp"] {
        assert!(out.contains(alg), "{alg} missing from\n{out}");
    }
    let j = semigraph(&["demo", "--size", "small", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).expect("demo JSON");
    assert_eq!(v["failed"], 0);
    assert_eq!(v["rows"].as_array().unwrap().len(), 8);
    for row in v["rows"].as_array().unwrap() {
        assert!(row["time_ms"].as_f64().unwrap() > 0.0, "{row}");
        assert!(
            row["rate"].as_f64().unwrap() > 0.0,
            "rate is a number: {row}"
        );
        assert!(row["rate_unit"].is_string(), "{row}");
    }
}

#[test]
fn bfs_text_output_uses_the_input_numbering() {
    // LAGraph's karate levels from vertex 30 (0-based) = vertex 31 in the 1-based file.
    let o = semigraph(&[
        "bfs",
        &data("lagraph/karate.mtx"),
        "--source",
        "31",
        "--format",
        "ell",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines().peekable();
    let mut header = 0;
    while lines.peek().is_some_and(|l| l.starts_with('#')) {
        lines.next();
        header += 1;
    }
    // `auto` names whichever backend ran: the GPU where there is one.
    assert!(header >= 4 && out.contains("# backend: "), "{out}");
    let want = [
        2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4, 2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2,
        0, 2, 1, 1,
    ];
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(' ').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 34);
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (k + 1).to_string());
        assert_eq!(r[1], want[k].to_string(), "vertex {}", k + 1);
    }
    assert_eq!(rows[30][2], "31", "the source is its own parent");
}

#[test]
fn sssp_json_and_unreachable_vertices() {
    let o = semigraph(&[
        "sssp",
        &data("ldbc-graphalytics/example-directed.e"),
        "-s",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let vs = v["vertices"].as_array().unwrap();
    assert_eq!(vs.len(), 10);
    // The header carries numbers, not prose.
    assert_eq!(v["graph"]["vertices"], 10);
    assert!(v["graph"]["arcs"].as_u64().unwrap() > 0);
    assert!(
        v["time"]["sssp_ms"].as_f64().unwrap() >= 0.0,
        "{}",
        v["time"]
    );
    assert!(v["time"]["build_ms"].as_f64().is_some(), "{}", v["time"]);
    assert!(v["reached"]["vertices"].as_u64().unwrap() >= 1);
    assert!(v["backend"]["name"].is_string());
    assert!(v["distances"]["type"].is_string());
    assert_eq!(vs[0]["id"], 1);
    assert_eq!(
        vs[1]["value"],
        serde_json::Value::Null,
        "vertex 2 is unreachable"
    );
    let t = semigraph(&[
        "sssp",
        &data("ldbc-graphalytics/example-directed.e"),
        "-s",
        "1",
        "--algo",
        "delta-stepping",
    ]);
    assert!(stdout(&t).lines().any(|l| l == "2 inf -"), "{}", stdout(&t));
}

#[test]
fn errors_exit_non_zero_with_a_message() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["bfs", "/nonexistent/graph.mtx", "-s", "1"],
            "No such file",
        ),
        (
            &["bfs", &data("lagraph/karate.mtx"), "-s", "0"],
            "is not a vertex",
        ),
        (
            &["bfs", &data("lagraph/mangled3.mtx"), "-s", "1"],
            "mangled3.mtx:",
        ),
        (
            &["sssp", &data("lagraph/west0067.mtx"), "-s", "1"],
            "negative cycle",
        ),
    ];
    for (args, msg) in cases {
        let o = semigraph(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let e = stderr(&o);
        // (`--backend auto` may first say on stderr that it falls back to the CPU.)
        let err = e.find("semigraph: error:").map(|i| &e[i..]).unwrap_or("");
        assert!(err.contains(msg), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?} panicked: {e}");
    }
    // Values and options a subcommand does not know are usage errors (status 2) that list
    // what it takes.
    let o = semigraph(&[
        "bfs",
        &data("lagraph/karate.mtx"),
        "-s",
        "1",
        "--format",
        "diagonal",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'diagonal'") && stderr(&o).contains("dia"),
        "{}",
        stderr(&o)
    );
    let o = semigraph(&["generate", "grid", "--backend", "gpu", "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2), "generate takes no --backend");
    let o = semigraph(&[
        "spmv",
        &data("lagraph/karate.mtx"),
        "--semiring",
        "min-plus:i8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("min-plus:i32"),
        "the valid semirings are listed"
    );
}

#[test]
fn output_files_are_written_atomically() {
    let out = tmp("bfs.txt");
    let o = semigraph(&[
        "bfs",
        &data("lagraph/karate.mtx"),
        "-s",
        "1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .count(),
        34
    );
    // A failing run leaves no file and no temporary behind.
    let bad = tmp("cycle.txt");
    let o = semigraph(&[
        "sssp",
        &data("lagraph/west0067.mtx"),
        "-s",
        "1",
        "-o",
        bad.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(!bad.exists());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn generate_convert_stats_apsp_spmv() {
    let g = tmp("grid.gr");
    let o = semigraph(&[
        "generate",
        "grid",
        "--rows",
        "4",
        "--cols",
        "5",
        "--weights",
        "1..9",
        "-o",
        g.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = tmp("grid.mtx");
    let o = semigraph(&["convert", g.to_str().unwrap(), "-o", m.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let st = semigraph(&["stats", m.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&st.stdout).unwrap();
    assert_eq!(
        (v["rows"].as_u64(), v["nnz"].as_u64()),
        (Some(20), Some(62))
    );
    // APSP on the grid agrees with SSSP from every vertex.
    let a = semigraph(&["apsp", m.to_str().unwrap()]);
    assert!(a.status.success(), "{}", stderr(&a));
    let text = stdout(&a);
    let entries: Vec<(usize, usize, i64)> = text
        .lines()
        .filter(|l| !l.starts_with('%'))
        .skip(1)
        .map(|l| {
            let t: Vec<&str> = l.split(' ').collect();
            (
                t[0].parse().unwrap(),
                t[1].parse().unwrap(),
                t[2].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(entries.len(), 400, "a connected grid has every pair");
    for src in [1usize, 7, 20] {
        let s = semigraph(&["sssp", m.to_str().unwrap(), "-s", &src.to_string()]);
        for l in stdout(&s).lines().filter(|l| !l.starts_with('#')) {
            let t: Vec<&str> = l.split(' ').collect();
            let (v, d): (usize, i64) = (t[0].parse().unwrap(), t[1].parse().unwrap());
            assert!(
                entries.contains(&(src, v, d)),
                "apsp {src} -> {v} != sssp {d}"
            );
        }
    }
    // The same distances as a NumPy array (read back), with next hops (0-based; the grid is
    // connected, so every pair i != j has one).
    let npy = tmp("grid.npy");
    let hops = tmp("grid-next.npy");
    let a = semigraph(&[
        "apsp",
        m.to_str().unwrap(),
        "-o",
        npy.to_str().unwrap(),
        "--next-hop",
        hops.to_str().unwrap(),
    ]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stderr(&a).contains("no path ="), "{}", stderr(&a));
    use semigraph_formats::io::npy::read_npy;
    let (r, c, d) = read_npy::<i32>(&mut std::fs::File::open(&npy).unwrap()).unwrap();
    assert_eq!((r, c), (20, 20));
    for &(i, j, w) in &entries {
        assert_eq!(d[(i - 1) * 20 + (j - 1)] as i64, w, "npy ({i}, {j})");
    }
    let (_, _, next) = read_npy::<u32>(&mut std::fs::File::open(&hops).unwrap()).unwrap();
    for (k, &x) in next.iter().enumerate() {
        assert!(
            k / 20 == k % 20 || x < 20,
            "next hop ({}, {}) is {x}",
            k / 20,
            k % 20
        );
    }
    let s = semigraph(&[
        "spmv",
        m.to_str().unwrap(),
        "--semiring",
        "or-and:bool",
        "--format",
        "dia",
    ]);
    assert!(s.status.success(), "{}", stderr(&s));
    assert!(stdout(&s).contains("# format: dia"));
    assert_eq!(
        stdout(&s)
            .lines()
            .filter(|l| l.ends_with(" true -"))
            .count(),
        20
    );
}

#[test]
fn backend_gpu_runs_on_a_gpu_or_fails_with_the_reason_and_auto_falls_back() {
    let karate = data("lagraph/karate.mtx");
    let o = semigraph(&["bfs", &karate, "-s", "1", "--backend", "gpu"]);
    let gpu_here = o.status.success();
    if gpu_here {
        // A GPU machine: the run says so in its header and gives the CPU's answer.
        let cpu = semigraph(&["bfs", &karate, "-s", "1", "--backend", "cpu"]);
        assert!(cpu.status.success(), "{}", stderr(&cpu));
        assert_eq!(body(&o), body(&cpu));
        assert!(!stdout(&o).contains("# backend: cpu"), "{}", stdout(&o));
    } else {
        assert_eq!(o.status.code(), Some(1));
        let e = stderr(&o);
        assert!(e.starts_with("semigraph: error: --backend gpu: "), "{e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    let o = semigraph(&["bfs", &karate, "-s", "1", "--backend", "auto"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out.contains("(auto: no usable GPU)"),
        !gpu_here,
        "auto uses the GPU exactly when --backend gpu works: {out}"
    );
    assert_eq!(
        stderr(&o).contains("no usable GPU"),
        !gpu_here,
        "{}",
        stderr(&o)
    );
}

#[test]
fn gpus_split_the_graph_or_fail_with_the_reason() {
    let karate = data("lagraph/karate.mtx");
    let one = semigraph(&["bfs", &karate, "-s", "1", "--backend", "cpu"]);
    assert!(one.status.success(), "{}", stderr(&one));
    let two = semigraph(&["bfs", &karate, "-s", "1", "--gpus", "2"]);
    if two.status.success() {
        // Two GPUs and NCCL here: the lines of one device.
        assert_eq!(body(&two), body(&one));
        assert!(
            stdout(&two).contains("# gpus: 2 GPUs (NCCL), "),
            "{}",
            stdout(&two)
        );
    } else {
        // Fewer GPUs, no driver or no NCCL: one line saying which, exit status 1.
        assert_eq!(two.status.code(), Some(1));
        let e = stderr(&two);
        assert!(e.starts_with("semigraph: error: --gpus 2: "), "{e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    for (args, why) in [
        (
            vec!["--gpus", "2", "--backend", "cpu"],
            "drop --backend cpu",
        ),
        (vec!["--gpus", "0"], "--gpus"),
    ] {
        let mut a = vec!["bfs", &karate, "-s", "1"];
        a.extend(args);
        let o = semigraph(&a);
        assert_eq!(
            o.status.code(),
            Some(if why == "--gpus" { 2 } else { 1 }),
            "{}",
            stderr(&o)
        );
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
    let o = semigraph(&["tc", &karate, "--gpus", "2"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("bfs, sssp, pagerank, wcc and apsp"),
        "{}",
        stderr(&o)
    );
}

/// The entries of a Matrix Market file written by `spgemm` (1-based in the file, 0-based
/// here), and its shape.
/// Entries `(row, column, value)`.
type Entries = Vec<(usize, usize, i64)>;

fn read_product(text: &str) -> ((usize, usize), Entries) {
    let mut lines = text.lines().filter(|l| !l.starts_with('%'));
    let size: Vec<usize> = lines
        .next()
        .expect("size line")
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    let entries = lines
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let v = f.get(2).map_or(1, |x| x.parse().unwrap());
            (
                f[0].parse::<usize>().unwrap() - 1,
                f[1].parse::<usize>().unwrap() - 1,
                v,
            )
        })
        .collect::<Vec<_>>();
    assert_eq!(entries.len(), size[2], "the size line counts the entries");
    ((size[0], size[1]), entries)
}

/// Runs `semigraph spgemm ARGS --backend cpu -o OUT` and reads the product back.
fn spgemm(args: &[&str], out: &std::path::Path) -> ((usize, usize), Entries) {
    let mut all = vec!["spgemm"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--backend", "cpu", "-o", out.to_str().unwrap()]);
    let o = semigraph(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    read_product(&std::fs::read_to_string(out).unwrap())
}

#[test]
fn spgemm_writes_the_product_and_counts_triangles() {
    // Karate (78 edges, both directions): A*A in plus-times equals the product computed here
    // from the file, and masked by A it counts each of the 45 triangles six times.
    let karate = data("lagraph/karate.mtx");
    let text = std::fs::read_to_string(&karate).unwrap();
    let mut arcs = Vec::new();
    for l in text.lines().filter(|l| !l.starts_with('%')).skip(1) {
        let f: Vec<usize> = l
            .split_whitespace()
            .take(2)
            .map(|x| x.parse().unwrap())
            .collect();
        arcs.push((f[0] - 1, f[1] - 1));
        arcs.push((f[1] - 1, f[0] - 1));
    }
    let n = 34;
    let mut a = vec![vec![0i64; n]; n];
    for &(i, j) in &arcs {
        a[i][j] = 1;
    }
    let mut want = Vec::new();
    for (i, ai) in a.iter().enumerate() {
        #[allow(clippy::needless_range_loop)]
        for j in 0..n {
            let s: i64 = (0..n).map(|k| ai[k] * a[k][j]).sum();
            if s != 0 {
                want.push((i, j, s));
            }
        }
    }
    let out = tmp("aa.mtx");
    let k = karate.as_str();
    let i64s = ["--semiring", "plus-times:i64"];
    let (shape, got) = spgemm(&[k, k, i64s[0], i64s[1]], &out);
    assert_eq!(shape, (n, n));
    assert_eq!(got, want);
    let (_, got) = spgemm(&[k, k, "--mask", k, i64s[0], i64s[1]], &out);
    assert_eq!(got.iter().map(|e| e.2).sum::<i64>(), 6 * 45);
    // The complement keeps exactly the other entries of A*A.
    let (_, rest) = spgemm(&[k, k, "--mask", k, "--complement", i64s[0], i64s[1]], &out);
    assert_eq!(rest.len() + got.len(), want.len());
    assert!(rest.iter().all(|&(i, j, _)| a[i][j] == 0));
    // Shapes that do not agree, and JSON, are refused with a message.
    let rect = tmp("rect.mtx");
    std::fs::write(
        &rect,
        "%%MatrixMarket matrix coordinate integer general\n3 5 1\n1 2 7\n",
    )
    .unwrap();
    let o = semigraph(&[
        "spgemm",
        &karate,
        rect.to_str().unwrap(),
        "--backend",
        "cpu",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("inner sizes differ"), "{}", stderr(&o));
    let o = semigraph(&["spgemm", &karate, &karate, "--json", "--backend", "cpu"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("Matrix Market"), "{}", stderr(&o));
    // A 3x5 matrix times its transpose: a 3x3 product.
    let r = rect.to_str().unwrap();
    let (shape, got) = spgemm(&[r, r, "--transpose-b", i64s[0], i64s[1]], &out);
    assert_eq!((shape, got), ((3, 3), vec![(0, 0, 49)]));
}
