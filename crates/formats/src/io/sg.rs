//! The GAP benchmark suite's serialized graphs: `.sg` (`directed: bool`, `arcs: i64`, `n:
//! i64`, `n + 1` offsets (`i64`), `arcs` neighbours (`i32`); for a directed graph the incoming
//! ones follow) and `.wsg` (neighbours as `(i32 vertex, i32 weight)` pairs). Vertex ids are
//! 0-based.

use std::io::{self, Read, Write};
use std::path::Path;

use rayon::prelude::*;

use super::binary::expand_ptr;
use crate::build::csr_order;
use crate::edgelist::{EdgeList, Weights};
use crate::error::{ReadError, ReadErrorKind};

/// Reads a GAP serialized graph (`.sg`; `.wsg` when `weighted`): its out-arcs.
pub(crate) fn read_sg(path: &Path, weighted: bool) -> Result<EdgeList, ReadError> {
    let bad =
        |m: String| ReadError::file(path, ReadErrorKind::BadHeader(format!("GAP graph: {m}")));
    let file = std::fs::File::open(path).map_err(|e| ReadError::file(path, e.into()))?;
    let mut r = io::BufReader::with_capacity(1 << 20, file);
    let mut head = [0u8; 17];
    r.read_exact(&mut head)
        .map_err(|e| bad(format!("the header: {e}")))?;
    let arcs = i64::from_le_bytes(head[1..9].try_into().expect("8 bytes"));
    let n = i64::from_le_bytes(head[9..17].try_into().expect("8 bytes"));
    if head[0] > 1 || arcs < 0 || n < 0 {
        return Err(bad(format!(
            "the header (directed {}, {arcs} arcs, {n} vertices) is not a GAP graph's",
            head[0]
        )));
    }
    let n = super::lines::check_vertices(path, 0, n as u64).map_err(|e| bad(e.kind.to_string()))?;
    let arcs = arcs as usize;
    let width = if weighted { 8 } else { 4 };
    // Offsets and neighbours, the incoming ones again for a directed graph: a file of another
    // length is cut or not this graph.
    let half = (n as u64 + 1)
        .saturating_mul(8)
        .saturating_add((arcs as u64).saturating_mul(width as u64));
    let want = half
        .saturating_mul(1 + u64::from(head[0]))
        .saturating_add(17);
    let len = r
        .get_ref()
        .metadata()
        .map_err(|e| ReadError::file(path, e.into()))?
        .len();
    if len != want {
        return Err(bad(format!(
            "the file holds {len} bytes, a{} graph of {n} vertices and {arcs} arcs {want}{}",
            if head[0] == 1 {
                " directed"
            } else {
                "n undirected"
            },
            if len < want { " (it ends early)" } else { "" }
        )));
    }
    let mut read = |bytes: usize, what: &str| -> Result<Vec<u8>, ReadError> {
        let mut v = Vec::new();
        v.try_reserve_exact(bytes)
            .map_err(|_| bad(format!("{what}: {bytes} bytes do not fit in memory")))?;
        (&mut r)
            .take(bytes as u64)
            .read_to_end(&mut v)
            .map_err(|e| bad(format!("{what}: {e}")))?;
        if v.len() != bytes {
            return Err(bad(format!("{what}: the file ends early")));
        }
        Ok(v)
    };
    let offs = read((n + 1) * 8, "offsets")?;
    let ptr: Vec<u64> = offs
        .chunks_exact(8)
        .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")).max(-1) as u64)
        .collect();
    let src = expand_ptr(&ptr, n, arcs).map_err(bad)?;
    let neigh = read(arcs * width, "neighbours")?;
    let word = |b: &[u8]| i32::from_le_bytes(b.try_into().expect("4 bytes"));
    let dst: Vec<u32> = neigh
        .par_chunks_exact(width)
        .map(|b| {
            u32::try_from(word(&b[..4]))
                .ok()
                .filter(|&v| (v as usize) < n)
        })
        .collect::<Option<_>>()
        .ok_or_else(|| bad(format!("a neighbour out of range (0..{n})")))?;
    let weight = |b: &[u8]| if weighted { word(&b[4..]) } else { 0 };
    if head[0] == 1 {
        // A directed graph's in-arcs follow: the same arcs reversed, or the file is damaged
        // (they are not read, but a file whose halves disagree is not one graph). Compared
        // as sums of a hash of each arc (its ends and weight): independent of order.
        let offs = read((n + 1) * 8, "in-offsets")?;
        let iptr: Vec<u64> = offs
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")).max(-1) as u64)
            .collect();
        let isrc = expand_ptr(&iptr, n, arcs).map_err(bad)?;
        let ineigh = read(arcs * width, "in-neighbours")?;
        let out: u64 = (src.par_iter().zip(dst.par_iter()))
            .zip(neigh.par_chunks_exact(width))
            .map(|((&u, &v), b)| arc_hash(u, v, weight(b)))
            .reduce(|| 0, u64::wrapping_add);
        let back: u64 = isrc
            .par_iter()
            .zip(ineigh.par_chunks_exact(width))
            .map(|(&v, b)| arc_hash(word(&b[..4]) as u32, v, weight(b)))
            .reduce(|| 0, u64::wrapping_add);
        if out != back {
            return Err(bad(
                "its in-arcs (a directed graph's second half) are not its out-arcs reversed \
                 (a damaged file)"
                    .into(),
            ));
        }
    }
    let mut g = EdgeList::new(n, n);
    if weighted {
        g.weights = Weights::Int(
            neigh
                .par_chunks_exact(8)
                .map(|b| word(&b[4..]) as i64)
                .collect(),
        );
    }
    (g.src, g.dst) = (src, dst);
    Ok(g)
}

/// A hash of the arc `u -> v` of weight `w` (splitmix64's finaliser).
fn arc_hash(u: u32, v: u32, w: i32) -> u64 {
    let mut x =
        ((u as u64) << 32 | v as u64) ^ (w as u32 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Writes `g` as a directed GAP serialized graph (out-arcs, then in-arcs); `weighted`
/// (`.wsg`) needs integer weights that fit `i32` (GAP's weight type).
pub(crate) fn write_sg(w: &mut dyn Write, g: &EdgeList, weighted: bool) -> io::Result<()> {
    let invalid = |m: String| io::Error::new(io::ErrorKind::InvalidData, m);
    if g.nrows != g.ncols {
        return Err(invalid(format!(
            "a GAP graph is square; this matrix is {}x{}",
            g.nrows, g.ncols
        )));
    }
    let weight = |k: usize| -> io::Result<i32> {
        let v = match &g.weights {
            Weights::None => Some(1),
            Weights::Int(v) => i32::try_from(v[k]).ok(),
            Weights::UInt(v) => i32::try_from(v[k]).ok(),
            Weights::Real(v) => {
                (v[k].fract() == 0.0 && v[k].abs() <= i32::MAX as f64).then_some(v[k] as i32)
            }
        };
        v.ok_or_else(|| {
            invalid(format!(
                "arc {} -> {} has a weight that is not a 32-bit integer (a .wsg holds only those)",
                g.src[k], g.dst[k]
            ))
        })
    };
    let n = g.nrows;
    w.write_all(&[1u8])?;
    w.write_all(&(g.len() as i64).to_le_bytes())?;
    w.write_all(&(n as i64).to_le_bytes())?;
    for (from, to) in [(&g.src, &g.dst), (&g.dst, &g.src)] {
        let order = csr_order(from, to);
        let mut ptr = vec![0i64; n + 1];
        for &s in from.iter() {
            ptr[s as usize + 1] += 1;
        }
        for r in 0..n {
            ptr[r + 1] += ptr[r];
        }
        let mut buf = Vec::with_capacity(1 << 20);
        for x in ptr {
            buf.extend_from_slice(&x.to_le_bytes());
            if buf.len() >= 1 << 20 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        for k in order {
            buf.extend_from_slice(&(to[k] as i32).to_le_bytes());
            if weighted {
                buf.extend_from_slice(&weight(k)?.to_le_bytes());
            }
            if buf.len() >= 1 << 20 {
                w.write_all(&buf)?;
                buf.clear();
            }
        }
        w.write_all(&buf)?;
    }
    Ok(())
}
