#![allow(missing_docs)]
//! Every graph of the repository's test data (`data/`) loads with the counts its README
//! gives; every malformed file is rejected with an error that names its line.

use std::path::{Path, PathBuf};

use semigraph_formats::io::{IdBase, InputFormat, ReadOptions, read_graph};
use semigraph_formats::{EdgeList, ReadErrorKind};
use semigraph_testkit::data::path;

fn data() -> PathBuf {
    semigraph_testkit::data::dir().unwrap_or_else(|e| panic!("{e}"))
}

fn load(rel: &str) -> EdgeList {
    let p = path(rel);
    read_graph(&p, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{} failed to load: {e}", p.display()))
}

fn self_loops(g: &EdgeList) -> usize {
    g.src.iter().zip(&g.dst).filter(|(s, d)| s == d).count()
}

#[test]
fn dimacs_road_graphs_pace16() {
    // (file, vertices, undirected edges) from the README; each edge is read as two arcs.
    for (f, v, e) in [
        ("NY.gr.xz", 264_346, 365_050),
        ("BAY.gr.xz", 321_270, 397_415),
    ] {
        let g = load(&format!("dimacs9-usa-road-pace16/{f}"));
        assert_eq!(g.num_vertices(), v, "{f}");
        assert_eq!(g.len(), 2 * e, "{f}");
        assert_eq!(self_loops(&g), 0, "{f}");
        assert_eq!(g.base, 1);
        let max_deg = degrees(&g).into_iter().max().unwrap();
        assert!(max_deg <= 9, "{f}: max degree {max_deg}");
    }
}

fn degrees(g: &EdgeList) -> Vec<usize> {
    let mut d = vec![0; g.num_vertices()];
    for s in &g.src {
        d[*s as usize] += 1;
    }
    d
}

#[test]
fn dimacs_rome99() {
    let g = load("dimacs9-rome99/rome99.gr");
    assert_eq!((g.num_vertices(), g.len()), (3_353, 4_444));
    let semigraph_formats::Weights::Int(w) = &g.weights else {
        panic!("integer weights expected")
    };
    assert_eq!(
        (*w.iter().min().unwrap(), *w.iter().max().unwrap()),
        (1, 12_711)
    );
}

/// The `LAGraph` table of the data README: `| file | bytes | banner | rows cols entries | what |`.
fn lagraph_table() -> Vec<(String, String, Vec<usize>)> {
    let readme = std::fs::read_to_string(path("README.md")).unwrap();
    let section = readme
        .split("## 3. `lagraph/`")
        .nth(1)
        .unwrap()
        .split("## 4.")
        .next()
        .unwrap();
    section
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && l.split('|')
                    .nth(1)
                    .is_some_and(|c| c.trim().ends_with(".mtx"))
        })
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let sizes = cells[4]
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            (cells[1].to_string(), cells[3].to_string(), sizes)
        })
        .collect()
}

#[test]
fn lagraph_matrices_load_with_readme_counts() {
    let table = lagraph_table();
    assert!(
        table.len() > 80,
        "README table parsed: {} rows",
        table.len()
    );
    let mut checked = 0;
    for (file, banner, sizes) in table {
        if file.starts_with("mangled") || banner.contains("complex") {
            continue; // rejected on purpose: see the next tests
        }
        let g = load(&format!("lagraph/{file}"));
        assert_eq!((g.nrows, g.ncols), (sizes[0], sizes[1]), "{file}");
        let stored = if banner.contains("array") || sizes.len() == 2 {
            match () {
                _ if banner.contains("skew") => sizes[0] * (sizes[0] - 1) / 2,
                _ if banner.contains("symmetric") => sizes[0] * (sizes[0] + 1) / 2,
                _ => sizes[0] * sizes[1],
            }
        } else {
            sizes[2]
        };
        if banner.contains("symmetric") {
            // Off-diagonal entries are mirrored.
            let diag = self_loops(&g);
            assert_eq!(g.len(), 2 * stored - diag, "{file}");
        } else {
            assert_eq!(g.len(), stored, "{file}");
        }
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} matrices checked");
}

#[test]
fn lagraph_values_and_types() {
    use semigraph_formats::Weights;
    let g = load("lagraph/matrix_uint64.mtx");
    let Weights::UInt(w) = &g.weights else {
        panic!("{:?}", g.weights)
    };
    assert!(w.contains(&u64::MAX));
    let g = load("lagraph/matrix_fp32.mtx"); // an "integer" file declared float, with -inf
    let Weights::Real(w) = &g.weights else {
        panic!("{:?}", g.weights)
    };
    assert!(w.contains(&f64::NEG_INFINITY) && w.contains(&f64::INFINITY));
    let g = load("lagraph/skew_fp32.mtx"); // (5,1) = inf, so (1,5) = -inf
    let k = (0..g.len())
        .find(|&k| (g.src[k], g.dst[k]) == (0, 4))
        .unwrap();
    assert_eq!(
        g.weights.get(k),
        Some(semigraph_formats::Weight::Real(f64::NEG_INFINITY))
    );
    let a = load("lagraph/west0067.mtx");
    let b = load("lagraph/west0067_noheader.mtx");
    let c = load("lagraph/west0067_jumbled.mtx");
    assert_eq!((a.len(), b.len(), c.len()), (294, 294, 294));
    let sorted = |g: &EdgeList| {
        let mut e: Vec<_> = (0..g.len())
            .map(|k| (g.src[k], g.dst[k], g.weights.get(k).unwrap().to_string()))
            .collect();
        e.sort();
        e
    };
    assert_eq!(sorted(&a), sorted(&b));
    assert_eq!(sorted(&a), sorted(&c));
}

#[test]
fn malformed_matrix_market_files_are_rejected_with_a_line() {
    let dir = data().join("lagraph");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("mangled")
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 25);
    for p in names {
        let r = std::panic::catch_unwind(|| read_graph(&p, &ReadOptions::default()));
        let e = match r {
            Err(_) => panic!("{} panicked", p.display()),
            Ok(Ok(_)) => panic!("{} was accepted", p.display()),
            Ok(Err(e)) => e,
        };
        let line = e
            .line
            .unwrap_or_else(|| panic!("{}: no line in {e}", p.display()));
        let msg = e.to_string();
        assert!(msg.contains(&format!(":{line}: ")), "{msg}");
        println!("{msg}");
    }
}

#[test]
fn specific_malformations_are_named() {
    let err =
        |f: &str| read_graph(path(&format!("lagraph/{f}")), &ReadOptions::default()).unwrap_err();
    let e = err("mangled14.mtx");
    assert!(
        matches!(
            e.kind,
            ReadErrorKind::Duplicate {
                row: 2,
                col: 2,
                first_line: 7
            }
        ),
        "{e}"
    );
    assert_eq!(e.line, Some(8));
    assert!(matches!(
        err("mangled13.mtx").kind,
        ReadErrorKind::IdOutOfRange { .. }
    ));
    assert!(matches!(
        err("mangled10.mtx").kind,
        ReadErrorKind::CountMismatch {
            declared: 3,
            found: 2,
            ..
        }
    ));
    assert!(matches!(
        err("mangled_int8.mtx").kind,
        ReadErrorKind::BadWeight { .. }
    ));
    assert!(matches!(
        err("mangled_uint32.mtx").kind,
        ReadErrorKind::BadWeight { .. }
    ));
    assert!(matches!(
        err("mangled_bool.mtx").kind,
        ReadErrorKind::BadWeight { .. }
    ));
    assert!(matches!(
        err("mangled11.mtx").kind,
        ReadErrorKind::BadLine(_)
    ));
    assert!(matches!(
        err("complex.mtx").kind,
        ReadErrorKind::Unsupported(_)
    ));
}

#[test]
fn suitesparse_edge_lists() {
    for (f, v, e, base) in [
        ("delaunay_n16.edges.txt", 65_536, 196_575, 1),
        ("luxembourg_osm.edges.txt", 114_599, 119_666, 1),
        ("3elt.edges.txt", 4_720, 13_722, 1),
        ("commanche_dual.edges.txt", 7_920, 19_800, 1),
        ("EVA.edges.txt", 8_497, 6_726, 1),
        ("1138_bus.edges0.txt", 1_138, 1_458, 0),
    ] {
        let g = load(&format!("suitesparse-derived/{f}"));
        assert_eq!((g.num_vertices(), g.len(), g.base), (v, e, base), "{f}");
    }
    assert_eq!(self_loops(&load("suitesparse-derived/EVA.edges.txt")), 2);
    assert_eq!(
        self_loops(&load("suitesparse-derived/commanche_dual.edges.txt")),
        7_920
    );
    let p = path("suitesparse-derived/3elt.edges.txt");
    let g = read_graph(
        &p,
        &ReadOptions {
            undirected: true,
            base: IdBase::One,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(g.len(), 2 * 13_722);
}

#[test]
fn network_science() {
    let g = load("network-science/netscience.gml");
    assert_eq!(g.num_vertices(), 1_589);
    assert_eq!(g.len(), 2 * 2_742 - self_loops(&g));
    assert_eq!(g.labels.as_ref().unwrap()[0], 0);
    let semigraph_formats::Weights::Real(w) = &g.weights else {
        panic!()
    };
    let (lo, hi) = w
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(*x), b.max(*x)));
    assert!(
        (lo - 0.0526).abs() < 1e-3 && (hi - 4.75).abs() < 1e-9,
        "{lo} {hi}"
    );
    let isolated = degrees(&g).iter().filter(|d| **d == 0).count();
    assert_eq!(isolated, 128);
    let g = load("network-science/USPowerGrid.txt");
    assert_eq!((g.num_vertices(), g.len(), g.base), (4_941, 6_594, 1));
    let g = load("network-science/polbook.txt");
    assert_eq!((g.num_vertices(), g.len(), g.base), (105, 441, 0));
}

#[test]
fn ldbc_graphalytics() {
    let g = load("ldbc-graphalytics/example-directed.e");
    assert_eq!((g.num_vertices(), g.len()), (10, 17));
    let g = load("ldbc-graphalytics/example-undirected.v");
    assert_eq!((g.num_vertices(), g.len()), (9, 12));
    assert_eq!(g.labels.as_ref().unwrap().iter().min(), Some(&2));
    assert_eq!(g.vertex_of_label(2), Some(0));
    let g = load("ldbc-graphalytics/test-sssp-directed.e");
    assert_eq!((g.num_vertices(), g.len()), (10, 13));
    let g = load("ldbc-graphalytics/test-bfs-directed.adj");
    assert_eq!((g.num_vertices(), g.len()), (10, 17));
    let g = load("ldbc-graphalytics/test-wcc-directed.adj");
    assert_eq!((g.num_vertices(), g.len()), (8, 10));
    for f in ["example-directed-input", "example-undirected-input"] {
        let p = path(&format!("ldbc-graphalytics/{f}"));
        let g = read_graph(
            &p,
            &ReadOptions {
                format: Some(InputFormat::Adjacency),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(g.len() >= 12, "{f}");
    }
}

#[test]
fn every_graph_file_of_the_data_set_loads() {
    // Walks the whole folder: every file that is a graph must load (answers, checksums,
    // documentation and the deliberately broken files excepted).
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out)
            } else {
                out.push(p)
            }
        }
    }
    let mut files = vec![];
    walk(&data(), &mut files);
    let mut loaded = 0;
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let name = name.strip_suffix(".xz").unwrap_or(&name).to_string();
        let not_graph = name.ends_with(".md")
            || name == "SHA256SUMS"
            || name.contains("bfs-levels")
            || name.contains(".sssp-from")
            || name.contains(".apsp.")
            || name.contains("hops-from")
            || name.ends_with("-BFS")
            || name.ends_with("-SSSP")
            || name.ends_with("-WCC")
            || name.ends_with("-PR")
            || name.ends_with("-CDLP")
            || name.ends_with("-LCC")
            || name.ends_with(".v") // read with its .e
            || name == "comments.txt"
            || name.starts_with("mangled")
            || name == "complex.mtx";
        if not_graph {
            continue;
        }
        let opts = ReadOptions {
            format: name.ends_with("-input").then_some(InputFormat::Adjacency),
            ..Default::default()
        };
        if let Err(e) = read_graph(&p, &opts) {
            panic!("{} does not load: {e}", p.display());
        }
        loaded += 1;
    }
    assert!(loaded >= 84, "only {loaded} graph files loaded");
}

/// The README's library example: one relaxation from a source is `d A` (`vxm`, along the
/// arcs), or `A^T d` in a chosen format; on rome99 both reach exactly the source's
/// out-neighbours with their arc weights, and `A d` (`mxv`) gives the distances *to* it.
#[test]
fn readme_relaxation_from_a_source_uses_the_transpose() {
    use semigraph_formats::{ConvertOptions, Csr, SparseMatrix, Stats};
    use semigraph_semiring::MinPlus;
    let g = load("dimacs9-rome99/rome99.gr");
    let a: Csr<MinPlus<f32>> = g.to_csr().unwrap();
    let at = a.transpose();
    let s = Stats::of(&at);
    let m = SparseMatrix::from_csr(&at, s.recommended, &ConvertOptions::default()).unwrap();
    let mut d = vec![f32::INFINITY; a.ncols()];
    d[0] = 0.0;
    let relaxed = m.spmv(&d);
    let mut want = vec![f32::INFINITY; a.ncols()];
    let mut into = vec![f32::INFINITY; a.ncols()];
    for (i, j, w) in a.iter() {
        if i == 0 {
            want[j] = want[j].min(w);
        }
        if j == 0 {
            into[i] = into[i].min(w);
        }
    }
    assert!(want.iter().any(|w| w.is_finite()), "vertex 1 has out-arcs");
    assert_eq!(relaxed, want);
    assert_eq!(a.vxm(&d), want);
    assert_eq!(a.mxv(&d), into);
}
