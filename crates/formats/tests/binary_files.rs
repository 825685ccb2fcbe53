#![allow(missing_docs)]
//! The binary formats (`SciPy`'s `.npz`, the GAP suite's `.sg`/`.wsg`): exact round trips,
//! damaged and lying files refused with the reason, large arrays read in pieces on every core,
//! and reads of the arcs alone (`ReadOptions::pattern`).

use std::io::Write;

use semigraph_formats::generate;
use semigraph_formats::io::{ReadOptions, read_graph, write_graph};
use semigraph_formats::{Combine, EdgeList, Weights};

mod common;
use common::sorted_arcs;

fn tmp(name: &str) -> std::path::PathBuf {
    common::tmp("binary", name)
}

fn q() -> ReadOptions {
    ReadOptions::default()
}

/// The binary formats (`SciPy` `.npz`, GAP `.sg`/`.wsg`) hold the arcs and weights exactly;
/// damaged or foreign files are refused with the reason.
#[test]
fn binary_formats_round_trip() {
    let mut g = generate::kronecker(10, 8, 5);
    let unweighted = g.clone();
    g.weights = Weights::Int((0..g.len()).map(|k| (k % 97) as i64 - 40).collect());
    let mut real = g.clone();
    real.weights = Weights::Real((0..g.len()).map(|k| k as f64 * 0.25 - 3.0).collect());
    for (name, g) in [("u", &unweighted), ("i", &g), ("r", &real)] {
        for ext in ["npz", "sg", "wsg"] {
            if ext == "wsg" && name == "r" {
                // Reals that are not integers: refused, not rounded.
                assert!(write_graph(tmp(&format!("{name}.{ext}")), g, None).is_err());
                continue;
            }
            let p = tmp(&format!("{name}.{ext}"));
            write_graph(&p, g, None).unwrap();
            let back = read_graph(&p, &q()).unwrap();
            assert_eq!((back.nrows, back.ncols), (g.nrows, g.ncols), "{name}.{ext}");
            let mut want = sorted_arcs(g);
            if ext == "sg" {
                // No weights in a .sg.
                want.iter_mut().for_each(|a| a.2 = None);
            }
            if ext == "wsg" && name == "u" {
                want.iter_mut().for_each(|a| a.2 = Some("1".into()));
            }
            assert_eq!(sorted_arcs(&back), want, "{name}.{ext}");
            // Written in CSR order: read back, the list is sorted and builds directly.
            assert!(
                (1..back.len())
                    .all(|k| (back.src[k - 1], back.dst[k - 1]) <= (back.src[k], back.dst[k])),
                "{name}.{ext} in CSR order"
            );
        }
    }
    let p = tmp("bad.npz");
    std::fs::write(&p, b"PK\x03\x04 not really a zip").unwrap();
    assert!(read_graph(&p, &q()).is_err());
    let p = tmp("bad.sg");
    std::fs::write(&p, [1u8, 5, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert!(e.to_string().contains("ends early"), "{e}");
}

/// Damaged binary files (every few bytes flipped, cut at many lengths) are refused with a
/// reason, never read as another graph and never a panic; a flipped element of a stored
/// `.npz` array is caught by the archive's checksum.
#[test]
fn damaged_binary_files_are_refused() {
    let mut g = generate::kronecker(7, 4, 3);
    g.weights = Weights::Int((0..g.len()).map(|k| k as i64 % 13).collect());
    for ext in ["npz", "sg", "wsg"] {
        let p = tmp(&format!("fuzz.{ext}"));
        write_graph(&p, &g, None).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        let want = sorted_arcs(&read_graph(&p, &q()).unwrap());
        let d = tmp(&format!("fuzz-damaged.{ext}"));
        let mut caught = 0;
        for at in (0..bytes.len()).step_by(5) {
            let mut b = bytes.clone();
            b[at] ^= 0x5a;
            std::fs::write(&d, &b).unwrap();
            match read_graph(&d, &q()) {
                Err(_) => caught += 1,
                // .sg has no checksum: a changed neighbour is another graph, in range.
                Ok(h) if ext != "npz" => assert!(h.src.len() == h.dst.len(), "{ext} at {at}"),
                Ok(h) => assert_eq!(sorted_arcs(&h), want, "{ext}: byte {at} flipped"),
            }
        }
        assert!(caught > 0, "{ext}: no damage caught");
        for len in (0..bytes.len()).step_by(7) {
            std::fs::write(&d, &bytes[..len]).unwrap();
            assert!(
                read_graph(&d, &q()).is_err(),
                "{ext} cut at {len} of {}",
                bytes.len()
            );
        }
    }
    // A flipped element of the indices array: the checksum names it.
    let p = tmp("fuzz.npz");
    let mut b = std::fs::read(&p).unwrap();
    let at = b.windows(11).position(|w| w == b"indices.npy").unwrap() + 200;
    b[at] ^= 1;
    std::fs::write(&p, &b).unwrap();
    let e = read_graph(&p, &q()).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
}

/// A `.npz` whose arrays span many of the reader's pieces (1 MiB each): read back exactly, on
/// 1 and 4 threads alike; its arcs alone without the values; a flipped byte deep in the
/// indices caught by the checksum, which names the array.
#[test]
fn large_npz_reads_in_pieces() {
    let mut g = generate::kronecker(16, 16, 11);
    g.weights = Weights::Int((0..g.len()).map(|k| (k % 1009) as i64 - 500).collect());
    assert!(g.len() * 4 > 3 << 20, "indices span several pieces");
    let p = tmp("large.npz");
    write_graph(&p, &g, None).unwrap();
    let want = sorted_arcs(&g);
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let back = pool.install(|| read_graph(&p, &q()).unwrap());
        assert_eq!(sorted_arcs(&back), want, "{threads} threads");
    }
    let arcs = read_graph(
        &p,
        &ReadOptions {
            pattern: true,
            ..q()
        },
    )
    .unwrap();
    assert_eq!(arcs.weights, Weights::None);
    let mut unweighted = g.clone();
    unweighted.weights = Weights::None;
    assert_eq!(sorted_arcs(&arcs), sorted_arcs(&unweighted));
    // A byte of the indices' third piece flipped.
    let mut b = std::fs::read(&p).unwrap();
    let at = b.windows(11).position(|w| w == b"indices.npy").unwrap() + (5 << 19);
    b[at] ^= 0x10;
    let d = tmp("large-damaged.npz");
    std::fs::write(&d, &b).unwrap();
    let e = read_graph(&d, &q()).unwrap_err().to_string();
    assert!(e.contains("indices: checksum"), "{e}");
}

/// The `.npy` bytes of a 1-D array (or a 0-d one, `len: None`).
fn npy(descr: &str, len: Option<usize>, body: &[u8]) -> Vec<u8> {
    let shape = len.map_or("()".to_string(), |n| format!("({n},)"));
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    out.extend_from_slice(body);
    out
}

/// A CSR `.npz` of `n` rows of `per` entries each with `indices` (`<i4` or `<u4`), as
/// `SciPy` writes it: its checksums are right whatever the indices say.
fn write_csr_npz(path: &std::path::Path, n: usize, per: usize, descr: &str, indices: &[u32]) {
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let ptr: Vec<u8> = (0..=n)
        .flat_map(|r| ((r * per) as i32).to_le_bytes())
        .collect();
    let idx: Vec<u8> = indices.iter().flat_map(|x| x.to_le_bytes()).collect();
    let shape: Vec<u8> = [n as i64, n as i64]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let arrays = [
        ("indptr", npy("<i4", Some(n + 1), &ptr)),
        ("indices", npy(descr, Some(indices.len()), &idx)),
        (
            "data",
            npy("|b1", Some(indices.len()), &vec![1u8; indices.len()]),
        ),
        ("shape", npy("<i8", Some(2), &shape)),
        ("format", npy("|S3", None, b"csr")),
    ];
    for (name, bytes) in arrays {
        z.start_file(format!("{name}.npy"), opts).unwrap();
        z.write_all(&bytes).unwrap();
    }
    z.finish().unwrap();
}

/// An index out of range (or negative) in a late piece of a well-formed archive: refused
/// with the value, whatever the thread count; the same file with the value in range reads.
#[test]
fn npz_indices_out_of_range_are_refused_in_any_piece() {
    let (n, per) = (1000, 600);
    let mut indices: Vec<u32> = (0..n * per).map(|k| (k % per) as u32).collect();
    let p = tmp("range.npz");
    write_csr_npz(&p, n, per, "<i4", &indices);
    let g = read_graph(&p, &q()).unwrap();
    assert_eq!((g.len(), g.nrows), (n * per, n));
    assert_eq!(g.src[n * per - 1] as usize, n - 1);
    for (descr, bad, says) in [
        (
            "<i4",
            n as u32,
            "indices holds 1000, out of range (0..1000)",
        ),
        ("<i4", (-5i32) as u32, "indices holds -5, out of range"),
        ("<u4", u32::MAX, "indices holds 4294967295, out of range"),
    ] {
        indices[500_000] = bad;
        indices[590_000] = bad;
        write_csr_npz(&p, n, per, descr, &indices);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let e = pool
                .install(|| read_graph(&p, &q()))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{descr} {bad}, {threads} threads: {e}");
        }
    }
}

/// `ReadOptions::pattern` drops the weights of every format (text ones after parsing them):
/// the arcs are those of a full read.
#[test]
fn pattern_reads_keep_the_arcs_only() {
    let mut g = generate::kronecker(8, 4, 2);
    g.weights = Weights::Real((0..g.len()).map(|k| k as f64 + 0.5).collect());
    g.combine_parallel(Combine::First).unwrap(); // Matrix Market holds no repeats
    for ext in ["el", "mtx", "npz", "gr"] {
        let p = tmp(&format!("pattern.{ext}"));
        write_graph(&p, &g, None).unwrap();
        let opts = ReadOptions {
            pattern: true,
            ..q()
        };
        let arcs: EdgeList = read_graph(&p, &opts).unwrap();
        let mut full = read_graph(&p, &q()).unwrap();
        assert_ne!(full.weights, Weights::None, "{ext}");
        assert_eq!(arcs.weights, Weights::None, "{ext}");
        full.weights = Weights::None;
        assert_eq!(sorted_arcs(&arcs), sorted_arcs(&full), "{ext}");
        assert_eq!(arcs.len(), g.len(), "{ext}");
    }
}
