#![allow(missing_docs)]
//! Regression tests for the defects a hostile-input campaign found in the `semigraph` command
//! (docs/RELIABILITY.md): wrong answers with exit status 0, crashes, memory exhaustion,
//! damaged files read as if they were fine, and unsafe output handling. Each test runs the
//! built binary on the input that once failed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::*;

// ---- wrong answers with exit status 0 -------------------------------------------------------

#[test]
fn integer_distances_never_overflow() {
    let g = file(
        "chain.gr",
        b"p sp 4 3\na 1 2 1073741824\na 2 3 1073741824\na 3 4 1073741824\n",
    );
    for algo in ["bellman-ford", "delta-stepping"] {
        let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu", "--algo", algo]);
        assert!(o.status.success(), "{}", err(&o));
        assert_eq!(
            values(&o)[3],
            ("4".to_string(), "3221225472".to_string()),
            "{algo}"
        );
        assert!(out(&o).contains("# distances: i64"), "{}", out(&o));
    }
    // A sum of exactly i32::MAX is a distance, not "no path".
    let g = file("max.gr", b"p sp 3 2\na 1 2 2147483640\na 2 3 7\n");
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    assert_eq!(values(&o)[2].1, "2147483647");
    // Negative chains below i32::MIN.
    let g = file(
        "neg.gr",
        b"p sp 4 3\na 1 2 -1073741824\na 2 3 -1073741824\na 3 4 -1073741824\n",
    );
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    assert_eq!(values(&o)[3].1, "-3221225472");
    // APSP keeps every pair.
    let g = file(
        "chain2.gr",
        b"p sp 4 3\na 1 2 1073741824\na 2 3 1073741824\na 3 4 1073741824\n",
    );
    let o = semigraph(&["apsp", &g, "--backend", "cpu"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("\n1 4 3221225472\n"), "{}", out(&o));
    assert!(out(&o).contains("\n4 4 10\n"), "{}", out(&o));
}

#[test]
fn weights_keep_their_precision() {
    let g = file("big.gr", b"p sp 2 1\na 1 2 3000000001\n");
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    assert_eq!(values(&o)[1].1, "3000000001");
    let o = semigraph(&[
        "sssp",
        &g,
        "-s",
        "1",
        "--backend",
        "cpu",
        "--distances",
        "f32",
    ]);
    refused(&o, "beyond what f32 distances hold exactly");
    let g = file(
        "reals.mtx",
        b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e39\n1 3 1e-50\n",
    );
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    assert!(o.status.success(), "{}", err(&o));
    let v = values(&o);
    assert_eq!(v[1].1.parse::<f64>().unwrap(), 1e39);
    assert_eq!(v[2].1.parse::<f64>().unwrap(), 1e-50);
    let g = file(
        "ninf.mtx",
        b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 -inf\n2 3 1\n",
    );
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    refused(&o, "ninf.mtx:3: weight -inf is not a finite number");
}

// ---- crashes ---------------------------------------------------------------------------------

#[test]
fn delta_stepping_refuses_a_rectangular_matrix() {
    let g = file(
        "rect.mtx",
        b"%%MatrixMarket matrix coordinate pattern general\n3 2 1\n1 2\n",
    );
    let o = semigraph(&[
        "sssp",
        &g,
        "-s",
        "1",
        "--backend",
        "cpu",
        "--algo",
        "delta-stepping",
    ]);
    refused(&o, "must be square");
}

#[test]
fn memory_bombs_are_refused_with_the_bytes() {
    let limit = 3 * 1024; // MiB
    let bombs = [
        ("bomb.gr", b"p sp 1000000000 0\n".to_vec()),
        ("bomb2.gr", b"p tw 1000000000 0\n".to_vec()),
        (
            "bomb.mtx",
            b"%%MatrixMarket matrix coordinate pattern general\n1000000000 1000000000 0\n".to_vec(),
        ),
        ("bomb.el", b"1 1000000000\n".to_vec()),
    ];
    for (name, body) in bombs {
        let g = file(name, &body);
        let o = semigraph_limited(limit, &["bfs", &g, "-s", "1", "--backend", "cpu"]);
        refused(&o, "refused before allocating");
        assert!(err(&o).contains("available"), "{name}: {}", err(&o));
    }
    // A small compressed file that expands to one enormous line.
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut enc, &vec![b'7'; 80 << 20]).unwrap();
    let g = file("line.el.gz", &enc.finish().unwrap());
    let o = semigraph_limited(limit, &["bfs", &g, "-s", "1", "--backend", "cpu"]);
    refused(&o, "the line is longer than");
}

#[test]
fn generators_check_sizes_first() {
    let o = dir().join("g.el");
    let o = o.to_str().unwrap();
    let r = semigraph(&["generate", "path", "--n", "4294967296", "-o", o]);
    refused(&r, "do not fit 32-bit vertex ids");
    for args in [
        &["generate", "kronecker", "--scale", "30", "-o", o][..],
        &[
            "generate", "grid", "--rows", "65535", "--cols", "65535", "-o", o,
        ],
        &["generate", "complete", "--n", "65535", "-o", o],
    ] {
        let r = semigraph_limited(3 * 1024, args);
        refused(&r, "refused before allocating");
    }
    // Kronecker graphs repeat arcs: Matrix Market output merges them and says so.
    let m = dir().join("k.mtx");
    let r = semigraph(&[
        "generate",
        "kronecker",
        "--scale",
        "8",
        "-o",
        m.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", err(&r));
    assert!(err(&r).contains("merged"), "{}", err(&r));
    let back = semigraph(&["stats", m.to_str().unwrap()]);
    assert!(back.status.success(), "{}", err(&back));
}

// ---- damaged files ---------------------------------------------------------------------------

#[test]
fn damaged_files_are_errors() {
    let g = file(
        "typo.mtx",
        b"%%MatrixMarkee matrix coordinate real symmetric\n3 3 2\n2 1 1\n3 2 2\n",
    );
    refused(&semigraph(&["stats", &g]), "typo.mtx:1: ");
    let g = file(
        "pad.gml",
        b"graph [ node [ id 1 ] node [ id 2 ] edge [ source 1 target 2 ] ]\n]]] junk\n",
    );
    refused(&semigraph(&["stats", &g]), "pad.gml:2: ");
    let g = file("cr.el", b"# edges\r1 2\r2 3\r");
    let o = semigraph(&["bfs", &g, "-s", "1", "--backend", "cpu"]);
    assert!(
        out(&o).contains("# reached: 3 of 3 vertices"),
        "{}",
        out(&o)
    );
    let mut long = b"1 2 ".to_vec();
    long.extend(std::iter::repeat_n(b'9', 5 << 20));
    long.extend(b"x\n");
    let g = file("token.wel", &long);
    let o = semigraph(&["stats", &g]);
    refused(&o, "bytes)");
    assert!(err(&o).len() < 1000, "{} bytes of error", err(&o).len());
}

// ---- output safety ---------------------------------------------------------------------------

#[test]
fn the_input_is_never_overwritten() {
    let g = file("in.el", b"0 1\n1 2\n");
    let before = std::fs::read(&g).unwrap();
    for args in [
        &["bfs", &g, "-s", "0", "--backend", "cpu", "-o", &g][..],
        &["convert", &g, "-o", &g],
    ] {
        refused(&semigraph(args), "over the input file");
    }
    // Through another name (a symlink) too.
    let link = dir().join("in-link.el");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&g, &link).unwrap();
    refused(
        &semigraph(&["convert", &g, "-o", link.to_str().unwrap()]),
        "over the input file",
    );
    assert_eq!(std::fs::read(&g).unwrap(), before);
}

#[test]
fn outputs_follow_symlinks_and_write_through_fifos() {
    let g = file("src.el", b"0 1\n1 2\n");
    // A symlink: the target is replaced, the link stays a link.
    let target = dir().join("target.mtx");
    std::fs::write(&target, "old").unwrap();
    let link = dir().join("link.mtx");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = semigraph(&["convert", &g, "-o", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("%%MatrixMarket")
    );
    // A FIFO stays a FIFO, and its reader gets the output.
    let fifo = dir().join("pipe.el");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let f2 = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read_to_string(&f2).unwrap());
    let o = semigraph(&["convert", &g, "-o", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(reader.join().unwrap(), "# vertices: 3, 0-based\n0 1\n1 2\n");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn an_interrupted_write_leaves_no_temporary() {
    let d = dir().join("sig");
    std::fs::create_dir_all(&d).unwrap();
    let target = d.join("big.gml");
    let mut child = Command::new(bin())
        .args(["generate", "kronecker", "--scale", "18", "-o"])
        .arg(&target)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tmp = |d: &Path| {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| e.file_name().to_string_lossy().contains(".tmp-"))
    };
    let start = Instant::now();
    while !tmp(&d) && start.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(tmp(&d), "the temporary file never appeared");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert!(!tmp(&d), "a temporary file was left behind");
    assert!(!target.exists(), "a half-written output appeared");
}

#[test]
fn convert_never_writes_what_it_cannot_read() {
    let g = file(
        "nan.mtx",
        b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n",
    );
    let el = dir().join("nan.el");
    refused(
        &semigraph(&["convert", &g, "-o", el.to_str().unwrap()]),
        "weight NaN",
    );
    assert!(!el.exists());
    // Repeated arcs and Matrix Market: the error says how to merge them.
    let g = file("rep.el", b"0 1 5\n0 1 3\n");
    let mtx = dir().join("rep.mtx");
    refused(
        &semigraph(&["convert", &g, "-o", mtx.to_str().unwrap()]),
        "--combine",
    );
    let o = semigraph(&[
        "convert",
        &g,
        "-o",
        mtx.to_str().unwrap(),
        "--combine",
        "min",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(std::fs::read_to_string(&mtx).unwrap().contains("1 2 3\n"));
}

#[test]
fn options_belong_to_their_subcommands() {
    let g = file("f.el", b"0 1 2\n");
    let o = semigraph(&["sssp", &g, "-s", "0", "--format", "bogus"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let o = semigraph(&[
        "bfs",
        &g,
        "-s",
        "0",
        "--format",
        "bogus",
        "--backend",
        "cpu",
    ]);
    // A value outside the option's list is a usage error naming the value.
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("bogus"), "{}", err(&o));
    // Options a subcommand does not use are refused, not ignored.
    let o = semigraph(&["generate", "grid", "--json", "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn conversion_errors_speak_the_files_numbering() {
    let g = file(
        "nan2.mtx",
        b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n",
    );
    let o = semigraph(&["sssp", &g, "-s", "1", "--backend", "cpu"]);
    refused(&o, "nan2.mtx:3: weight NaN");
}

#[test]
fn dimacs_source_files_run_every_source() {
    let g = file("ss.gr", b"p sp 4 4\na 1 2 5\na 2 3 7\na 3 4 1\na 4 1 2\n");
    let ss = file("ss.ss", b"c two sources\np aux sp ss 2\ns 1\ns 3\n");
    let o = semigraph(&["sssp", &g, "--sources", &ss, "--backend", "cpu"]);
    assert!(o.status.success(), "{}", err(&o));
    let rows: Vec<String> = out(&o)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    // From 1: 0, 5, 12, 13 (max 13, sum 30); from 3: 1 -> 3, 2 -> 8, 4 -> 1 (max 8, sum 12).
    assert_eq!(rows, vec!["1 4 13 30", "3 4 8 12"], "{}", out(&o));
    let o = semigraph(&["bfs", &g, "--sources", &ss, "--backend", "cpu"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("\n1 4 3 6\n"), "{}", out(&o));
    let bad = file("bad.ss", b"p aux sp ss 1\ns 9\n");
    refused(
        &semigraph(&["sssp", &g, "--sources", &bad, "--backend", "cpu"]),
        "source",
    );
}
