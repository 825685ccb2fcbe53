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

/// The `.npz` at `from` written again to `to` with its `indices.npy` entry changed by
/// `patch` (the archive's checksums made anew, as a writer that holds such values would).
fn rezip_with(from: &std::path::Path, to: &std::path::Path, patch: impl Fn(&mut Vec<u8>)) {
    let mut z = zip::ZipArchive::new(std::fs::File::open(from).unwrap()).unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..z.len() {
        let mut f = z.by_index(i).unwrap();
        let name = f.name().unwrap().to_string();
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).unwrap();
        if name == "indices.npy" {
            patch(&mut bytes);
        }
        out.start_file(name, opts).unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap();
}

/// An index out of range (or negative) in a late piece of a well-formed archive: refused
/// with the value, whatever the thread count; the same file with the values in range reads.
#[test]
fn npz_indices_out_of_range_are_refused_in_any_piece() {
    let (n, per) = (1000usize, 600usize);
    let mut g = EdgeList::new(n, n);
    g.src = (0..n * per).map(|k| (k / per) as u32).collect();
    g.dst = (0..n * per).map(|k| (k % per) as u32).collect();
    let p = tmp("range.npz");
    write_graph(&p, &g, None).unwrap();
    let back = read_graph(&p, &q()).unwrap();
    assert_eq!((back.len(), back.nrows), (n * per, n));
    assert_eq!(back.src[n * per - 1] as usize, n - 1);
    let d = tmp("range-bad.npz");
    for (descr, bad, says) in [
        (
            b"<i4",
            n as u32,
            "indices holds 1000, out of range (0..1000)",
        ),
        (b"<i4", (-5i32) as u32, "indices holds -5, out of range"),
        (b"<u4", u32::MAX, "indices holds 4294967295, out of range"),
    ] {
        rezip_with(&p, &d, |npy| {
            let data = 10 + u16::from_le_bytes([npy[8], npy[9]]) as usize;
            let at = npy.windows(3).position(|w| w == b"<i4").unwrap();
            npy[at..at + 3].copy_from_slice(descr);
            for k in [500_000, 590_000] {
                npy[data + 4 * k..data + 4 * k + 4].copy_from_slice(&bad.to_le_bytes());
            }
        });
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let e = pool
                .install(|| read_graph(&d, &q()))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{descr:?} {bad}, {threads} threads: {e}");
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
