//! Binary graph files that load at disk speed, in formats others read and write: `SciPy`'s
//! sparse matrices (`scipy.sparse.save_npz` / `load_npz`): a zip archive (stored or deflated)
//! of `.npy` arrays; CSR (`indptr`, `indices`, `data`), CSC, or COO (`row`, `col`, `data`),
//! with `shape` and `format`. Written as CSR, stored (not deflated). The GAP suite's `.sg` and
//! `.wsg` are in `sg.rs`, with the helpers here that both use; one array of an archive in
//! `npz_array.rs`.
//!
//! Vertex ids are 0-based. A matrix with repeated entries keeps them (a graph's parallel arcs).

use std::io::{self, Write};
use std::path::Path;

use rayon::prelude::*;

use super::npz_array::{Array, Stored, Tee, read_array, read_header};
use crate::edgelist::{EdgeList, Weights};
use crate::error::{ReadError, ReadErrorKind};

/// Reads a `SciPy` `.npz` sparse matrix (CSR, CSC or COO) as the arcs of a graph; with
/// `pattern`, without its values (the value array's length is still checked).
pub(crate) fn read_npz(path: &Path, pattern: bool) -> Result<EdgeList, ReadError> {
    let bad = |m: String| ReadError::file(path, ReadErrorKind::BadHeader(format!(".npz: {m}")));
    let file = std::fs::File::open(path).map_err(|e| ReadError::file(path, e.into()))?;
    let reader = file
        .try_clone()
        .map_err(|e| ReadError::file(path, e.into()))?;
    let mut z = zip::ZipArchive::new(io::BufReader::with_capacity(1 << 20, reader))
        .map_err(|e| bad(e.to_string()))?;
    let mut array = |name: &str| -> Result<Array, ReadError> {
        let mut f = z.by_name(&format!("{name}.npy")).map_err(|_| {
            bad(format!(
                "no array {name:?} (not a scipy.sparse.save_npz file?)"
            ))
        })?;
        let at = |m| bad(format!("{name}: {m}"));
        if let (zip::CompressionMethod::Stored, Some(start)) = (f.compression(), f.data_start()) {
            let mut head = Vec::new();
            let (mut a, bytes, header) = read_header(&mut Tee(&mut f, &mut head)).map_err(at)?;
            if (header + bytes) as u64 != f.size() {
                return Err(at(format!(
                    "{} bytes where {} were expected",
                    f.size(),
                    header + bytes
                )));
            }
            a.stored = Some(Stored {
                name: name.to_string(),
                file: &file,
                offset: start + header as u64,
                header: head,
                crc: f.crc32(),
            });
            return Ok(a);
        }
        let crc = f.crc32();
        read_array(&mut f, crc).map_err(at)
    };
    let mut format = array("format")?;
    format.load().map_err(bad)?;
    let format = format.text().map_err(bad)?;
    let shape = array("shape")?.indices("shape").map_err(bad)?;
    let [nrows, ncols] = shape[..] else {
        return Err(bad(format!("shape {shape:?} is not two numbers")));
    };
    for d in [nrows, ncols] {
        super::lines::check_vertices(path, 0, d).map_err(|e| bad(e.kind.to_string()))?;
    }
    let (nrows, ncols) = (nrows as usize, ncols as usize);
    let data = array("data")?.vector("data").map_err(bad)?;
    let (src, dst) = match format.as_str() {
        "csr" | "csc" => {
            let indptr = array("indptr")?
                .vector("indptr")
                .and_then(|mut a| a.indices("indptr"))
                .map_err(bad)?;
            let (major, minor) = if format == "csr" {
                (nrows, ncols)
            } else {
                (ncols, nrows)
            };
            let idx = array("indices")?
                .vector("indices")
                .and_then(|a| a.ids(minor, "indices"))
                .map_err(bad)?;
            let expand = expand_ptr(&indptr, major, idx.len()).map_err(bad)?;
            if format == "csr" {
                (expand, idx)
            } else {
                (idx, expand)
            }
        }
        "coo" => {
            let row = array("row")?
                .vector("row")
                .and_then(|a| a.ids(nrows, "row"))
                .map_err(bad)?;
            let col = array("col")?
                .vector("col")
                .and_then(|a| a.ids(ncols, "col"))
                .map_err(bad)?;
            if row.len() != col.len() {
                return Err(bad(format!("{} rows and {} columns", row.len(), col.len())));
            }
            (row, col)
        }
        f => {
            return Err(bad(format!(
                "matrix format {f:?} (csr, csc and coo are read)"
            )));
        }
    };
    if data.len() != src.len() {
        return Err(bad(format!(
            "{} values for {} entries",
            data.len(),
            src.len()
        )));
    }
    let weights = if pattern {
        Weights::None
    } else {
        data.weights().map_err(bad)?
    };
    if let Weights::Real(w) = &weights
        && let Some(k) = w.iter().position(|x| x.is_nan())
    {
        return Err(ReadError::file(
            path,
            ReadErrorKind::BadWeight {
                value: "NaN".into(),
                reason: format!("entry {k} of data: NaN is not a weight"),
            },
        ));
    }
    let mut g = EdgeList::new(nrows, ncols);
    g.first_nonfinite = match &weights {
        Weights::Real(w) => w.iter().find(|x| !x.is_finite()).map(|&x| (0, x)),
        _ => None,
    };
    (g.src, g.dst, g.weights) = (src, dst, weights);
    Ok(g)
}

/// The major index of each entry, from row (or column) pointers.
pub(super) fn expand_ptr(ptr: &[u64], major: usize, nnz: usize) -> Result<Vec<u32>, String> {
    if ptr.len() != major + 1 || ptr[0] != 0 || ptr[major] != nnz as u64 {
        return Err(format!(
            "indptr has {} entries from {:?} to {:?}, expected {} from 0 to {nnz}",
            ptr.len(),
            ptr.first(),
            ptr.last(),
            major + 1
        ));
    }
    if ptr.par_windows(2).any(|w| w[0] > w[1]) {
        return Err("indptr decreases".into());
    }
    // Pieces of the entries on every core: each finds the row of its first entry, then walks.
    const PIECE: usize = 1 << 16;
    let mut out = crate::memory::try_filled(nnz, 0u32).map_err(|(needed, _)| {
        format!("the rows of {nnz} entries: {needed} bytes do not fit in memory")
    })?;
    out.par_chunks_mut(PIECE)
        .enumerate()
        .for_each(|(c, piece)| {
            let k0 = (c * PIECE) as u64;
            let mut r = ptr.partition_point(|&p| p <= k0) - 1;
            for (k, o) in (k0..).zip(piece) {
                while ptr[r + 1] <= k {
                    r += 1;
                }
                *o = r as u32;
            }
        });
    Ok(out)
}

/// The `.npy` header of a 1-D array (`len: Some`) or a 0-d one.
fn npy_header(descr: &str, len: Option<usize>) -> Vec<u8> {
    let shape = len.map_or("()".to_string(), |n| format!("({n},)"));
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    out
}

/// Writes `g` as a `SciPy` CSR `.npz` (stored arrays; 32-bit indices where they fit, as `SciPy`
/// does; booleans for a graph without weights).
pub(crate) fn write_npz(w: &mut dyn Write, g: &EdgeList) -> io::Result<()> {
    let order = crate::build::csr_order(&g.src, &g.dst);
    let m = g.len();
    let wide = m > i32::MAX as usize || g.nrows.max(g.ncols) > i32::MAX as usize;
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .large_file(m as u64 * 8 > u32::MAX as u64 / 2);
    let mut z = zip::ZipWriter::new_stream(w);
    let zerr = |e: zip::result::ZipError| io::Error::other(e.to_string());
    let mut put = |name: &str,
                   descr: &str,
                   len: Option<usize>,
                   bytes: &mut dyn FnMut(&mut Vec<u8>, usize) -> bool|
     -> io::Result<()> {
        z.start_file(format!("{name}.npy"), opts).map_err(zerr)?;
        z.write_all(&npy_header(descr, len))?;
        let mut buf = Vec::with_capacity(1 << 20);
        let mut at = 0;
        while bytes(&mut buf, at) {
            z.write_all(&buf)?;
            buf.clear();
            at += 1;
        }
        z.write_all(&buf)
    };
    // Pieces of 64k elements at a time.
    const PIECE: usize = 1 << 16;
    let int = if wide { "<i8" } else { "<i4" };
    let push_int = |buf: &mut Vec<u8>, x: u64| {
        if wide {
            buf.extend_from_slice(&x.to_le_bytes());
        } else {
            buf.extend_from_slice(&(x as u32).to_le_bytes());
        }
    };
    let mut ptr = vec![0u64; g.nrows + 1];
    for &s in &g.src {
        ptr[s as usize + 1] += 1;
    }
    for r in 0..g.nrows {
        ptr[r + 1] += ptr[r];
    }
    put("indptr", int, Some(g.nrows + 1), &mut |buf, at| {
        for &x in ptr.iter().skip(at * PIECE).take(PIECE) {
            push_int(buf, x);
        }
        (at + 1) * PIECE < ptr.len()
    })?;
    put("indices", int, Some(m), &mut |buf, at| {
        for &k in order.iter().skip(at * PIECE).take(PIECE) {
            push_int(buf, g.dst[k] as u64);
        }
        (at + 1) * PIECE < m
    })?;
    let descr = match &g.weights {
        Weights::None => "|b1",
        Weights::Int(_) => "<i8",
        Weights::UInt(_) => "<u8",
        Weights::Real(_) => "<f8",
    };
    put("data", descr, Some(m), &mut |buf, at| {
        for &k in order.iter().skip(at * PIECE).take(PIECE) {
            match &g.weights {
                Weights::None => buf.push(1),
                Weights::Int(v) => buf.extend_from_slice(&v[k].to_le_bytes()),
                Weights::UInt(v) => buf.extend_from_slice(&v[k].to_le_bytes()),
                Weights::Real(v) => buf.extend_from_slice(&v[k].to_le_bytes()),
            }
        }
        (at + 1) * PIECE < m
    })?;
    put("shape", "<i8", Some(2), &mut |buf, _| {
        buf.extend_from_slice(&(g.nrows as u64).to_le_bytes());
        buf.extend_from_slice(&(g.ncols as u64).to_le_bytes());
        false
    })?;
    put("format", "|S3", None, &mut |buf, _| {
        buf.extend_from_slice(b"csr");
        false
    })?;
    z.finish().map_err(zerr)?;
    Ok(())
}
