#![allow(missing_docs)]
//! Writers and readers agree; malformed inputs of every text format name their line.

use std::path::PathBuf;

mod common;
use common::sorted_arcs;

use semigraph_formats::generate::{self, Rng};
use semigraph_formats::io::{IdBase, ReadOptions, read_graph, read_sources, write_graph};
use semigraph_formats::{EdgeList, ReadErrorKind, Weights};

fn tmp(name: &str) -> PathBuf {
    common::tmp("io", name)
}

fn q() -> ReadOptions {
    ReadOptions::default()
}

#[test]
fn every_writer_round_trips_plain_and_compressed() {
    let mut g = generate::grid(5, 7, 1, 99, 3);
    let mut real = g.clone();
    real.weights = Weights::Real(
        (0..g.len())
            .map(|k| Rng::new(1).unit(k as u64) * 10.0 - 3.0)
            .collect(),
    );
    let kron = generate::kronecker(6, 4, 9); // has repeated arcs
    let e = write_graph(tmp("dup.mtx"), &kron, None).unwrap_err();
    assert!(e.to_string().contains("forbids duplicate entries"), "{e}");
    let mut unweighted =
        EdgeList::from_csr(&kron.to_csr::<semigraph_semiring::OrAnd, u32>().unwrap()).unwrap();
    unweighted.weights = Weights::None;
    g.base = 0;
    for name in [
        "g.mtx", "g.gr", "g.wel", "g.e", "g.gml", "g.mtx.gz", "g.gr.xz", "g.wel.gz",
    ] {
        for (label, graph) in [("int", &g), ("real", &real), ("pattern", &unweighted)] {
            if name.contains(".gr") && label == "pattern" {
                continue; // DIMACS always has weights (written as 1)
            }
            let p = tmp(&format!("{label}-{name}"));
            write_graph(&p, graph, None).unwrap();
            let back = read_graph(&p, &q()).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(back.len(), graph.len(), "{label} {name}");
            let relabel = |x: &EdgeList| -> Vec<(i64, i64, Option<String>)> {
                // Compare by 0-based vertex number whatever the file's numbering.
                let mut v: Vec<_> = sorted_arcs(x)
                    .into_iter()
                    .map(|(a, b, w)| (a - x.vertex_label(0), b - x.vertex_label(0), w))
                    .collect();
                v.sort();
                v
            };
            if name.contains(".e") || name.contains(".gml") {
                assert_eq!(sorted_arcs(&back), sorted_arcs(graph), "{label} {name}");
            } else {
                assert_eq!(relabel(&back), relabel(graph), "{label} {name}");
            }
        }
    }
    // No temporary file is left beside the outputs.
    let dir = tmp("x").parent().unwrap().to_path_buf();
    assert!(
        std::fs::read_dir(dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".tmp-"))
    );
}

#[test]
fn dimacs_errors_name_the_line() {
    let cases = [
        ("a 1 2 3\n", 1, "before the \"p\" line"),
        ("p sp 2 1\na 1 2 x\n", 2, "not a number"),
        ("p sp 2 1\na 1 2 nan\n", 2, "NaN"),
        ("p sp 2 1\na 1 2 3\na 2 1 4\n", 3, "declares 1"),
        ("p sp 2 2\na 1 2 3\n", 2, "declares 2"),
        ("p sp 2 1\na 0 2 3\n", 2, "out of range"),
        ("p sp 99999999999 1\n", 1, "32-bit"),
        ("p xx 2 1\n", 1, "expected \"p sp"),
        ("p tw 3 1\n1 2 3\n", 2, "expected \"u v\""),
    ];
    for (text, line, needle) in cases {
        let p = tmp("bad.gr");
        std::fs::write(&p, text).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn edge_list_bases_weights_and_errors() {
    let p = tmp("a.el");
    std::fs::write(&p, "# comment\n1 2\n2 3\n").unwrap();
    let g = read_graph(&p, &q()).unwrap();
    assert_eq!((g.num_vertices(), g.base), (3, 1)); // no id 0: 1-based
    let g = read_graph(
        &p,
        &ReadOptions {
            base: IdBase::Zero,
            ..q()
        },
    )
    .unwrap();
    assert_eq!((g.num_vertices(), g.base), (4, 0));
    std::fs::write(&p, "0 1 5\n1 2 2.5\n").unwrap();
    let g = read_graph(&p, &q()).unwrap();
    assert_eq!(g.weights, Weights::Real(vec![5.0, 2.5])); // ints turned real
    for (text, line, needle) in [
        ("0 1\n1 2 3\n", 2, "some lines have a weight"),
        ("0 1 nan\n", 1, "NaN"),
        ("0 x\n", 1, "out of range"),
        ("0 1 2 3\n", 1, "4 fields"),
        ("0 1 abc\n", 1, "not a number"),
    ] {
        std::fs::write(&p, text).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert_eq!(e.line, Some(line), "{text:?}: {e}");
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
    std::fs::write(&p, "0 1\n").unwrap();
    let e = read_graph(
        &p,
        &ReadOptions {
            base: IdBase::One,
            ..q()
        },
    )
    .unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::IdOutOfRange { .. }), "{e}");
}

#[test]
fn ldbc_gml_and_sources() {
    let v = tmp("l.v");
    let e = tmp("l.e");
    std::fs::write(&v, "100\n7\n55\n").unwrap();
    std::fs::write(&e, "100 7 1.5\n7 55 2\n").unwrap();
    let g = read_graph(&e, &q()).unwrap();
    assert_eq!(g.labels, Some(vec![100, 7, 55]));
    assert_eq!((g.src.clone(), g.dst.clone()), (vec![0, 1], vec![1, 2]));
    std::fs::write(&e, "100 8 1.5\n").unwrap();
    let err = read_graph(&v, &q()).unwrap_err();
    assert_eq!(err.line, Some(1));
    assert!(err.to_string().contains("l.e:1: vertex id 8"), "{err}");
    let gml = tmp("g.gml");
    std::fs::write(&gml, "Creator \"x\"\ngraph [\n directed 0\n node [ id 4 label \"a b\" graphics [ x 1 ] ]\n node [ id 9 ]\n edge [ source 4 target 9 value 2.5 ]\n]\n").unwrap();
    let g = read_graph(&gml, &q()).unwrap();
    assert_eq!((g.len(), g.labels.clone()), (2, Some(vec![4, 9])));
    std::fs::write(
        &gml,
        "graph [\n node [ id 4 ]\n edge [ source 4 target 5 ]\n]\n",
    )
    .unwrap();
    let err = read_graph(&gml, &q()).unwrap_err();
    assert_eq!(err.line, Some(3), "{err}");
    let ss = tmp("s.ss");
    std::fs::write(&ss, "c sources\np aux sp ss 2\ns 1\ns 7\n").unwrap();
    assert_eq!(read_sources(&ss).unwrap(), vec![0, 6]);
    std::fs::write(&ss, "p aux sp ss 3\ns 1\n").unwrap();
    assert!(read_sources(&ss).is_err());
}

#[test]
fn unknown_and_missing_files() {
    let e = read_graph(tmp("x.unknown"), &q()).unwrap_err();
    assert!(matches!(e.kind, ReadErrorKind::UnknownFormat(_)), "{e}");
    let e = read_graph(tmp("missing.mtx"), &q()).unwrap_err();
    assert!(
        matches!(e.kind, ReadErrorKind::Io(_)) && e.to_string().contains("missing.mtx"),
        "{e}"
    );
}

#[test]
fn weights_become_semiring_values_or_are_refused() {
    use semigraph_formats::{Csr, FormatError};
    use semigraph_semiring::{MinPlus, OrAnd};
    let mut g = generate::path(3);
    g.weights = Weights::Real(vec![1.5, f64::NAN]);
    let e = g.to_csr::<MinPlus<f32>, u32>().unwrap_err();
    assert!(
        matches!(e, FormatError::BadValue { row: 1, col: 2, .. }),
        "{e}"
    );
    g.weights = Weights::Real(vec![1.5, 2.0]);
    assert!(g.to_csr::<MinPlus<i32>, u32>().is_err()); // 1.5 is not an integer
    let a: Csr<OrAnd> = generate::path(3).to_csr().unwrap(); // unit weights: 1 is `true`
    assert_eq!(a.nnz(), 2);
}

#[test]
fn weight_assignment_is_seeded() {
    use semigraph_formats::edgelist::WeightSpec;
    let mut a = generate::kronecker(8, 8, 1);
    let mut b = a.clone();
    a.assign_weights(WeightSpec::Uniform {
        lo: 1,
        hi: 100,
        seed: 5,
    });
    b.assign_weights(WeightSpec::Uniform {
        lo: 1,
        hi: 100,
        seed: 5,
    });
    assert_eq!(a.weights, b.weights);
    let Weights::Int(w) = &a.weights else {
        panic!()
    };
    assert!(w.iter().all(|x| (1..=100).contains(x)));
    assert!(w.contains(&1) && w.contains(&100));
    b.assign_weights(WeightSpec::Unit);
    assert_eq!(b.weights, Weights::Int(vec![1; b.len()]));
}

/// Edge lists long enough to be parsed in several pieces on several threads read exactly as
/// one pass would: weights promoted across pieces, errors at their line.
#[test]
fn long_edge_lists_read_as_one_pass() {
    let p = tmp("long.el");
    let n = 200_000u64;
    // Integer weights, then reals from line `n / 2 + 1`: every weight real, in order.
    let line = |k: u64, w: &str| format!("{} {} {w}\r\n", k % 1000, (k * 7) % 1000);
    let text: String = (0..n)
        .map(|k| {
            let w = if k < n / 2 {
                k.to_string()
            } else {
                format!("{k}.5")
            };
            line(k, &w)
        })
        .collect();
    std::fs::write(&p, &text).unwrap();
    let g = read_graph(&p, &q()).unwrap();
    assert_eq!(g.len(), n as usize);
    let want: Vec<f64> = (0..n)
        .map(|k| if k < n / 2 { k as f64 } else { k as f64 + 0.5 })
        .collect();
    assert_eq!(g.weights, Weights::Real(want));
    assert_eq!(
        (g.src[n as usize - 1], g.dst[12345]),
        (999, (12345 * 7 % 1000) as u32)
    );
    // Integers above i64::MAX from the middle on: unsigned weights.
    let big = u64::MAX - 5;
    let text: String = (0..n)
        .map(|k| line(k, &if k < n / 2 { k } else { big }.to_string()))
        .collect();
    std::fs::write(&p, &text).unwrap();
    let g = read_graph(&p, &q()).unwrap();
    match &g.weights {
        Weights::UInt(u) => assert_eq!((u[7], u[n as usize - 1]), (7, big)),
        w => panic!(
            "expected unsigned weights, got {:?}",
            std::mem::discriminant(w)
        ),
    }
    // Errors deep in the file name their line.
    let with = |bad_at: u64, bad: &str| -> String {
        (0..n)
            .map(|k| {
                if k + 1 == bad_at {
                    bad.to_string()
                } else {
                    line(k, "3")
                }
            })
            .collect()
    };
    for (text, at, needle) in [
        (with(150_001, "1 2\n"), 150_001, "some lines have a weight"),
        (with(170_000, "1 2 3 4\n"), 170_000, "4 fields"),
        (with(190_000, "1 x 3\n"), 190_000, "out of range"),
        (with(120_000, "1 2 nan\n"), 120_000, "NaN"),
    ] {
        std::fs::write(&p, text).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert_eq!(e.line, Some(at), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
    // An integer no f64 holds early, a real late: refused, naming the integer's line.
    let text: String = (0..n)
        .map(|k| match k {
            10 => line(k, "9007199254740993"),
            k if k == n - 3 => line(k, "0.25"),
            _ => line(k, "1"),
        })
        .collect();
    std::fs::write(&p, text).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert!(e.to_string().contains("9007199254740993"), "{e}");
}

/// DIMACS `.gr` (and PACE) and LDBC `.e` files of many pieces (parsed on every core) read as
/// one pass would: arcs in file order, errors deep in the file at their line.
#[test]
fn long_dimacs_and_ldbc_files_read_as_one_pass() {
    let n = 200_000u64;
    let arc = |k: u64| (k % 1000 + 1, (k * 7) % 1000 + 1);
    let gr_lines = |bad: Option<(u64, &str)>, extra: u64| -> String {
        let mut t = format!("c a road\r\np sp 1000 {}\r\n", n + extra);
        for k in 0..n + extra {
            // Line numbers: 2 header lines, then one per arc (comments replace none).
            match bad {
                Some((at, l)) if k + 3 == at => t.push_str(l),
                _ => {
                    let (u, v) = arc(k);
                    t.push_str(&format!("a {u} {v} {}\r\n", k % 97));
                }
            }
        }
        t
    };
    let p = tmp("long.gr");
    std::fs::write(&p, gr_lines(None, 0)).unwrap();
    let g = read_graph(&p, &q()).unwrap();
    assert_eq!((g.len(), g.num_vertices(), g.base), (n as usize, 1000, 1));
    for k in [0u64, 12_345, n - 1] {
        let (u, v) = arc(k);
        assert_eq!(
            (g.src[k as usize], g.dst[k as usize]),
            ((u - 1) as u32, (v - 1) as u32)
        );
    }
    match &g.weights {
        Weights::Int(w) => assert_eq!(
            (w[96], w[97], w[n as usize - 1]),
            (96, 0, ((n - 1) % 97) as i64)
        ),
        w => panic!(
            "expected integer weights, got {:?}",
            std::mem::discriminant(w)
        ),
    }
    for (text, at, needle) in [
        (
            gr_lines(Some((150_001, "p sp 3 3\n")), 0),
            150_001,
            "second \"p\"",
        ),
        (
            gr_lines(Some((170_000, "a 1 1001 5\n")), 0),
            170_000,
            "out of range",
        ),
        (
            gr_lines(Some((190_000, "e 1 2 5\n")), 0),
            190_000,
            "unknown line type",
        ),
        (gr_lines(Some((199_000, "a 1 2\n")), 0), 199_000, "2 fields"),
    ] {
        std::fs::write(&p, text).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert_eq!(e.line, Some(at), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
    // More edge lines than the `p` line declares: refused at the last line with the count.
    let mut text = gr_lines(None, 0);
    text.push_str("a 1 2 3\r\n");
    std::fs::write(&p, text).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert_eq!(e.line, Some(n + 3), "{e}");
    assert!(e.to_string().contains(&(n + 1).to_string()), "{e}");
    // PACE: each edge two arcs but loops, lone `\r` line ends.
    let mut t = format!("c pace\rp tw 1000 {n}\r");
    for k in 0..n {
        let (u, v) = arc(k);
        t.push_str(&format!("{u} {v}\r"));
    }
    std::fs::write(&p, t).unwrap();
    let g = read_graph(&p, &q()).unwrap();
    let loops = (0..n).filter(|&k| arc(k).0 == arc(k).1).count();
    assert_eq!(g.len(), 2 * n as usize - loops);
    // LDBC: labels from the `.v` file, arcs of the `.e` file by label.
    let (v, e) = (tmp("long.v"), tmp("long.e"));
    let labels: Vec<i64> = (0..1000).map(|i| 10 * i + 3).collect();
    std::fs::write(
        &v,
        labels.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let e_text = |bad_at: u64| -> String {
        (0..n)
            .map(|k| {
                let (a, b) = arc(k);
                if k + 1 == bad_at {
                    "4 13 1.5\n".to_string()
                } else {
                    format!(
                        "{} {} 1.5\n",
                        labels[a as usize - 1],
                        labels[b as usize - 1]
                    )
                }
            })
            .collect()
    };
    std::fs::write(&e, e_text(0)).unwrap();
    let g = read_graph(&v, &q()).unwrap();
    assert_eq!(g.len(), n as usize);
    let (a, b) = arc(54_321);
    assert_eq!(
        (g.src[54_321], g.dst[54_321]),
        ((a - 1) as u32, (b - 1) as u32)
    );
    std::fs::write(&e, e_text(180_000)).unwrap();
    let err = read_graph(&v, &q()).unwrap_err();
    assert_eq!(err.line, Some(180_000), "{err}");
    assert!(
        err.to_string().contains("vertex id 4 out of range"),
        "{err}"
    );
    // Labels consecutive, in no order, listed twice: ids by position all the same.
    let many: Vec<i64> = (0..300_000).collect();
    let shuffled: Vec<i64> = (0..300_000i64).map(|i| (i * 7919) % 300_000 - 5).collect();
    for vs in [&many, &shuffled] {
        let text: String = vs.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&v, format!("# labels\n{text}")).unwrap();
        let arcs: String = (0..1000)
            .map(|k| format!("{} {}\n", vs[k * 299], vs[(k * 7) % 300_000]))
            .collect();
        std::fs::write(&e, arcs).unwrap();
        let g = read_graph(&v, &q()).unwrap();
        assert_eq!((g.num_vertices(), g.len()), (300_000, 1000));
        assert_eq!((g.src[999], g.dst[999]), (999 * 299, 999 * 7));
        assert_eq!(g.labels.as_deref(), Some(&vs[..]));
        std::fs::write(&e, "1 300001\n").unwrap();
        let err = read_graph(&v, &q()).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{err}");
    }
    let mut text: String = shuffled.iter().map(|l| format!("{l}\n")).collect();
    text.push_str("\n% again\n");
    text.push_str(&format!("{}\n", shuffled[12]));
    std::fs::write(&v, text).unwrap();
    let err = read_graph(&v, &q()).unwrap_err();
    assert_eq!(err.line, Some(300_003), "{err}");
    assert!(err.to_string().contains("listed twice"), "{err}");
}

/// A line longer than the limit is refused with its number, in the middle or at the end of a
/// file (the parallel reader carries a line across its blocks).
#[test]
fn overlong_lines_are_refused_with_their_number() {
    let p = tmp("longline.el");
    let long = vec![b'7'; semigraph_formats::io::lines::MAX_LINE + 10];
    for (tail, at) in [(&b"\n1 2\n"[..], 3), (&b""[..], 3)] {
        let mut text = b"0 1\n1 2\n".to_vec();
        text.extend_from_slice(&long);
        text.extend_from_slice(tail);
        std::fs::write(&p, &text).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::LineTooLong { .. }), "{e}");
        assert_eq!(e.line, Some(at), "{e}");
    }
}

#[test]
fn long_matrix_market_files_read_as_one_pass() {
    // Symmetric integer entries in many 1 MiB pieces, comment lines between them: mirrors,
    // values and every error's line as one pass gives them.
    let p = tmp("long.mtx");
    let n = 150_000u64;
    // Distinct lower-triangle entries (row >= column), 1-based.
    let entry = |k: u64| (k / 100 + 1 + k % 100, k / 100 + 1);
    let body = |bad: Option<(u64, &str)>, extra: &str| -> String {
        let mut t = format!(
            "%%MatrixMarket matrix coordinate integer symmetric\n% made by a test\n2000 2000 {n}\n"
        );
        for k in 0..n {
            if k % 40_000 == 39_999 {
                t.push_str("% a comment between entries\n\n");
            }
            match bad {
                Some((at, line)) if at == k => t.push_str(line),
                _ => {
                    let (i, j) = entry(k);
                    t.push_str(&format!("{i} {j} {}\n", k as i64 - 70_000));
                }
            }
        }
        t.push_str(extra);
        t
    };
    std::fs::write(&p, body(None, "")).unwrap();
    let g = read_graph(&p, &q()).unwrap();
    let diagonal = (0..n).filter(|&k| entry(k).0 == entry(k).1).count();
    assert_eq!(g.len(), 2 * n as usize - diagonal);
    let Weights::Int(w) = &g.weights else {
        panic!("integer weights")
    };
    // The last entry and its mirror, in file order.
    let (i, j) = entry(n - 1);
    let (i, j) = (i as u32 - 1, j as u32 - 1);
    let last = g.len() - 1;
    assert_eq!(
        (g.src[last], g.dst[last], w[last]),
        (j, i, n as i64 - 1 - 70_000)
    );
    assert_eq!((g.src[last - 1], g.dst[last - 1]), (i, j));
    // The line of entry k: 3 header lines, then 2 more lines per comment block before it.
    let line_of = |k: u64| 4 + k + 2 * ((k + 1) / 40_000);
    for (bad, needle) in [
        ((120_000, "5 2 x\n"), "not an integer"),
        ((90_123, "5 2\n"), "2 fields"),
        ((149_999, "2001 1 3\n"), "out of range"),
        ((77_777, "3 3 1 1\n"), "4 fields"),
    ] {
        std::fs::write(&p, body(Some(bad), "")).unwrap();
        let e = read_graph(&p, &q()).unwrap_err();
        assert_eq!(e.line, Some(line_of(bad.0)), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    }
    // An entry given twice: the line of the second.
    let (i, j) = entry(5);
    let again = format!("{j} {i} 1\n"); // its mirror: the same entry
    std::fs::write(&p, body(Some((130_001, &again)), "")).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert_eq!(e.line, Some(line_of(130_001)), "{e}");
    assert!(
        e.to_string().contains(&format!("line {}", line_of(5))),
        "{e}"
    );
    // One entry too many: the line of the first one past the count; one too few: the end.
    std::fs::write(&p, body(None, "1 1 5\n% trailing\n")).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert_eq!(e.line, Some(line_of(n - 1) + 1), "{e}");
    let short = body(None, "").replacen(
        &format!("2000 2000 {n}"),
        &format!("2000 2000 {}", n + 2),
        1,
    );
    std::fs::write(&p, short).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert_eq!(e.line, Some(line_of(n - 1)), "{e}");
    assert!(
        matches!(e.kind, ReadErrorKind::CountMismatch { declared, found, .. } if declared == n + 2 && found == n),
        "{e}"
    );
}
