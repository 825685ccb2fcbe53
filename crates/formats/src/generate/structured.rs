//! Regular structure: stencils on 2-D and 3-D grids, banded matrices, triangle meshes and
//! block-diagonal matrices (the shapes DIA and ELL were made for, and their limits).

use rayon::prelude::*;

use super::{Rng, checked_vertices, permutation};
use crate::edgelist::EdgeList;

/// Builds an edge list from per-row column lists made in parallel.
fn from_rows(nrows: usize, ncols: usize, row: impl Fn(usize) -> Vec<u32> + Sync) -> EdgeList {
    let rows: Vec<Vec<u32>> = (0..nrows).into_par_iter().map(&row).collect();
    let mut g = EdgeList::new(nrows, ncols);
    let m = rows.iter().map(Vec::len).sum();
    g.src.reserve(m);
    g.dst.reserve(m);
    for (i, cols) in rows.into_iter().enumerate() {
        g.src.extend(std::iter::repeat_n(i as u32, cols.len()));
        g.dst.extend(cols);
    }
    g
}

/// The matrix of a stencil on a grid of `dims` (2 or 3 sizes), vertices numbered row-major
/// (the last dimension fastest), each row holding its own vertex and its neighbours inside
/// the grid: `points` = 5 (2-D, axis neighbours), 9 (2-D, all 8), 7 (3-D, axis), 27 (3-D,
/// all 26). Its diagonals are the stencil's offsets: DIA's best case.
///
/// # Panics
/// If `dims` and `points` do not match one of those four, or the grid is too large.
pub fn stencil(dims: &[usize], points: usize) -> EdgeList {
    let (nz, ny, nx) = match (dims, points) {
        (&[ny, nx], 5 | 9) => (1, ny, nx),
        (&[nz, ny, nx], 7 | 27) => (nz, ny, nx),
        _ => panic!(
            "stencil: {points} points on {} dimensions (5 or 9 on 2, 7 or 27 on 3)",
            dims.len()
        ),
    };
    let n = checked_vertices(nz as u64 * ny as u64 * nx as u64, "stencil");
    let all = points == 9 || points == 27;
    let dz: &[i64] = if nz > 1 || dims.len() == 3 {
        &[-1, 0, 1]
    } else {
        &[0]
    };
    from_rows(n, n, |v| {
        let (z, y, x) = (v / (ny * nx), v / nx % ny, v % nx);
        let mut out = Vec::with_capacity(points);
        for &a in dz {
            for b in [-1i64, 0, 1] {
                for c in [-1i64, 0, 1] {
                    let moved = (a != 0) as u32 + (b != 0) as u32 + (c != 0) as u32;
                    if !all && moved > 1 {
                        continue;
                    }
                    let (zz, yy, xx) = (z as i64 + a, y as i64 + b, x as i64 + c);
                    if zz < 0
                        || yy < 0
                        || xx < 0
                        || zz >= nz as i64
                        || yy >= ny as i64
                        || xx >= nx as i64
                    {
                        continue;
                    }
                    out.push(((zz as usize * ny + yy as usize) * nx + xx as usize) as u32);
                }
            }
        }
        out
    })
}

/// An `n x n` banded matrix: the diagonal, and each other position within `half_width` of it
/// with probability `density`. Full bands (`density` 1) are DIA's case; sparse wide bands
/// make DIA store mostly padding.
///
/// # Panics
/// If `n` does not fit 32-bit ids or `density` is outside `0..=1`.
pub fn banded(n: usize, half_width: usize, density: f64, seed: u64) -> EdgeList {
    assert!(
        (0.0..=1.0).contains(&density),
        "band density {density} outside 0..=1"
    );
    let n = checked_vertices(n as u64, "banded");
    let rng = Rng::new(seed);
    let w = 2 * half_width as u64 + 1;
    from_rows(n, n, |i| {
        let lo = i.saturating_sub(half_width);
        let hi = (i + half_width).min(n - 1);
        (lo..=hi)
            .filter(|&j| j == i || rng.unit(i as u64 * w + (j + half_width - i) as u64) < density)
            .map(|j| j as u32)
            .collect()
    })
}

/// A triangle mesh on a `rows x cols` grid of points: each point joined to its axis
/// neighbours and to the down-right and up-left diagonal ones (6 neighbours inside, as a
/// structured finite-element mesh), plus itself. Numbered row-major it is banded (7
/// diagonals); with `shuffle` the points are numbered by a seeded permutation, as an
/// unordered mesh file gives them: the same row lengths, no band.
///
/// # Panics
/// If the mesh does not fit 32-bit ids.
pub fn mesh(rows: usize, cols: usize, shuffle: bool, seed: u64) -> EdgeList {
    let n = checked_vertices(rows as u64 * cols as u64, "mesh");
    let perm: Option<Vec<u32>> = shuffle.then(|| permutation(n, Rng::new(seed)));
    let id = |v: usize| perm.as_ref().map_or(v as u32, |p| p[v]);
    let g = from_rows(n, n, |v| {
        let (r, c) = ((v / cols) as i64, (v % cols) as i64);
        [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]
            .into_iter()
            .filter_map(|(dr, dc)| {
                let (rr, cc) = (r + dr, c + dc);
                (rr >= 0 && cc >= 0 && rr < rows as i64 && cc < cols as i64)
                    .then(|| id(rr as usize * cols + cc as usize))
            })
            .collect()
    });
    match perm {
        None => g,
        Some(p) => {
            // Rows were made in the old numbering: move each row to its new id.
            let mut out = EdgeList::new(n, n);
            out.src = g.src.iter().map(|&s| p[s as usize]).collect();
            out.dst = g.dst;
            out
        }
    }
}

/// A block-diagonal matrix: `blocks` square blocks of `size` on the diagonal, each position
/// of a block an entry with probability `density` (the diagonal always).
///
/// # Panics
/// If the matrix does not fit 32-bit ids or `density` is outside `0..=1`.
pub fn block_diagonal(blocks: usize, size: usize, density: f64, seed: u64) -> EdgeList {
    assert!(
        (0.0..=1.0).contains(&density),
        "block density {density} outside 0..=1"
    );
    let n = checked_vertices(blocks as u64 * size as u64, "block-diagonal");
    let rng = Rng::new(seed);
    from_rows(n, n, |i| {
        let b0 = i / size * size;
        (b0..b0 + size)
            .filter(|&j| j == i || rng.unit(i as u64 * size as u64 + (j - b0) as u64) < density)
            .map(|j| j as u32)
            .collect()
    })
}
