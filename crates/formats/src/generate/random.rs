//! Random graphs with skewed or rectangular structure: Kronecker (R-MAT) with any
//! probabilities, Chung-Lu power-law graphs, rectangular (bipartite) random matrices.

use rayon::prelude::*;

use super::{Rng, checked_vertices, permutation};
use crate::edgelist::EdgeList;

/// A Kronecker (R-MAT) graph with quadrant probabilities `[a, b, c]` (`d = 1 - a - b - c`):
/// `2^scale` vertices, `edge_factor * 2^scale` arcs, labels scrambled by a seeded
/// permutation. [`kronecker`](super::kronecker) is this with Graph500's `[0.57, 0.19, 0.19]`;
/// a larger `a` skews the degrees more, `[0.25, 0.25, 0.25]` is uniform.
///
/// # Panics
/// If `scale > 31` or the probabilities are negative or sum past 1.
pub fn kronecker_with(scale: u32, edge_factor: u32, abc: [f64; 3], seed: u64) -> EdgeList {
    assert!(
        scale <= 31,
        "Kronecker scale {scale} > 31 does not fit 32-bit vertex ids"
    );
    let [a, b, c] = abc;
    assert!(
        a >= 0.0 && b >= 0.0 && c >= 0.0 && a + b + c <= 1.0 + 1e-12,
        "Kronecker probabilities {abc:?} must be non-negative with a sum of at most 1"
    );
    let n = checked_vertices(1u64 << scale, "kronecker");
    let m = (edge_factor as u64) << scale;
    let rng = Rng::new(seed);
    let arcs: Vec<(u32, u32)> = (0..m)
        .into_par_iter()
        .map(|e| {
            let (mut i, mut j) = (0u32, 0u32);
            for level in 0..scale as u64 {
                let r = rng.unit(e * scale as u64 + level);
                let (bi, bj) = if r < a {
                    (0, 0)
                } else if r < a + b {
                    (0, 1)
                } else if r < a + b + c {
                    (1, 0)
                } else {
                    (1, 1)
                };
                i = (i << 1) | bi;
                j = (j << 1) | bj;
            }
            (i, j)
        })
        .collect();
    let perm = permutation(n, Rng::new(seed ^ 0xa5a5_a5a5_a5a5_a5a5));
    let mut g = EdgeList::new(n, n);
    (g.src, g.dst) = arcs
        .into_par_iter()
        .map(|(i, j)| (perm[i as usize], perm[j as usize]))
        .unzip();
    g
}

/// A Chung-Lu graph: `n` vertices, `edge_factor * n` arcs whose ends are both drawn with
/// probability proportional to a vertex weight `(i + 1)^(-1 / (exponent - 1))`, so expected
/// degrees follow a power law with that exponent (2 < exponent; near 2 a few hubs hold most
/// arcs, from 3 on the tail is mild). Vertex ids are scrambled by a seeded permutation.
///
/// # Panics
/// If `exponent <= 1` or `n` does not fit 32-bit ids.
pub fn chung_lu(n: usize, edge_factor: u32, exponent: f64, seed: u64) -> EdgeList {
    assert!(exponent > 1.0, "Chung-Lu exponent {exponent} must exceed 1");
    let n = checked_vertices(n as u64, "chung-lu");
    let g_exp = -1.0 / (exponent - 1.0);
    // Cumulative weights, then each end by binary search on a uniform draw.
    let mut cum = Vec::with_capacity(n);
    let mut total = 0.0f64;
    for i in 0..n {
        total += ((i + 1) as f64).powf(g_exp);
        cum.push(total);
    }
    let m = edge_factor as u64 * n as u64;
    let rng = Rng::new(seed);
    let pick = |k: u64| -> u32 {
        let r = rng.unit(k) * total;
        cum.partition_point(|&c| c <= r).min(n - 1) as u32
    };
    let perm = permutation(n, Rng::new(seed ^ 0x3c3c_3c3c_3c3c_3c3c));
    let mut g = EdgeList::new(n, n);
    (g.src, g.dst) = (0..m)
        .into_par_iter()
        .map(|e| (perm[pick(2 * e) as usize], perm[pick(2 * e + 1) as usize]))
        .unzip();
    g
}

/// A rectangular `rows x cols` random matrix (a bipartite graph): `degree` entries per row,
/// columns uniform. With `degree` a large share of `cols` it is dense-ish.
///
/// # Panics
/// If `rows` or `cols` does not fit 32-bit ids.
pub fn bipartite(rows: usize, cols: usize, degree: u32, seed: u64) -> EdgeList {
    let rows = checked_vertices(rows as u64, "bipartite rows");
    let cols = checked_vertices(cols as u64, "bipartite columns");
    let rng = Rng::new(seed);
    let d = degree as u64;
    let mut g = EdgeList::new(rows, cols);
    if cols == 0 {
        return g;
    }
    (g.src, g.dst) = (0..rows as u64 * d)
        .into_par_iter()
        .map(|e| ((e / d) as u32, rng.below(e, cols as u64) as u32))
        .unzip();
    g
}
