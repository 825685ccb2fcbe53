//! Deterministic graph generators.
//!
//! Every random choice is a pure function of `(seed, counter)` ([`Rng`]), so a graph is the
//! same on every machine, in every build and with any number of threads, and arcs are
//! generated in parallel.

use rayon::prelude::*;

use crate::edgelist::{EdgeList, Weights};
pub use crate::rng::Rng;

mod random;
mod structured;

pub use random::{bipartite, chung_lu, kronecker_with};
pub use structured::{banded, block_diagonal, mesh, stencil};

pub(crate) fn checked_vertices(n: u64, what: &str) -> usize {
    assert!(
        n <= u32::MAX as u64,
        "{what}: {n} vertices do not fit 32-bit vertex ids"
    );
    n as usize
}

/// A Kronecker (R-MAT) graph with the Graph500 parameters `A = 0.57, B = 0.19, C = 0.19`:
/// `2^scale` vertices and `edge_factor * 2^scale` arcs, vertex labels scrambled by a seeded
/// permutation (as Graph500 does, so that degree does not follow the id). Self-loops and
/// repeated arcs are kept, as generated; they combine with the semiring's `add` when the
/// matrix is built. Unweighted: use [`EdgeList::assign_weights`] for SSSP.
///
/// # Panics
/// If `scale > 31`.
pub fn kronecker(scale: u32, edge_factor: u32, seed: u64) -> EdgeList {
    kronecker_with(scale, edge_factor, [0.57, 0.19, 0.19], seed)
}

/// A seeded uniform permutation of `0..n` (Fisher-Yates): the same for a seed on every
/// machine (the generators' labels, the random priorities of independent sets).
///
/// ```
/// use semigraph_formats::generate::{permutation, Rng};
///
/// let mut p = permutation(5, Rng::new(7));
/// assert_eq!(p, permutation(5, Rng::new(7)));
/// p.sort_unstable();
/// assert_eq!(p, vec![0, 1, 2, 3, 4]);
/// ```
pub fn permutation(n: usize, rng: Rng) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64, i as u64 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// A uniform random graph (GAP's "urand"): `2^scale` vertices, `degree * 2^scale` arcs with
/// both ends uniform.
///
/// # Panics
/// If `scale > 31`.
pub fn urand(scale: u32, degree: u32, seed: u64) -> EdgeList {
    assert!(
        scale <= 31,
        "urand scale {scale} > 31 does not fit 32-bit vertex ids"
    );
    let n = checked_vertices(1u64 << scale, "urand");
    let m = (degree as u64) << scale;
    let rng = Rng::new(seed);
    let mut g = EdgeList::new(n, n);
    (g.src, g.dst) = (0..m)
        .into_par_iter()
        .map(|e| {
            (
                rng.below(2 * e, n as u64) as u32,
                rng.below(2 * e + 1, n as u64) as u32,
            )
        })
        .unzip();
    g
}

/// A road-like `rows x cols` grid: vertex `r * cols + c`, an arc each way between
/// 4-neighbours, both arcs of a street with the same integer weight drawn uniformly from
/// `lo..=hi`. Its diameter is `rows + cols - 2` hops, as high as road networks'.
///
/// # Panics
/// If `rows * cols` does not fit 32-bit ids or `lo > hi`.
pub fn grid(rows: usize, cols: usize, lo: i64, hi: i64, seed: u64) -> EdgeList {
    assert!(lo <= hi, "empty weight range {lo}..={hi}");
    let n = checked_vertices(rows as u64 * cols as u64, "grid");
    let rng = Rng::new(seed);
    let span = (hi - lo) as u64 + 1;
    // Street k: the right street of vertex v is 2v, its down street 2v + 1.
    let arcs: Vec<[(u32, u32, i64); 2]> = (0..n)
        .into_par_iter()
        .flat_map_iter(|v| {
            let (r, c) = (v / cols, v % cols);
            let w = |street: usize| lo + rng.below(street as u64, span) as i64;
            let mut out = Vec::with_capacity(2);
            if c + 1 < cols {
                let (a, b, x) = (v as u32, (v + 1) as u32, w(2 * v));
                out.push([(a, b, x), (b, a, x)]);
            }
            if r + 1 < rows {
                let (a, b, x) = (v as u32, (v + cols) as u32, w(2 * v + 1));
                out.push([(a, b, x), (b, a, x)]);
            }
            out
        })
        .collect();
    let mut g = EdgeList::new(n, n);
    let mut ws = Vec::with_capacity(arcs.len() * 2);
    for pair in arcs {
        for (s, d, w) in pair {
            g.src.push(s);
            g.dst.push(d);
            ws.push(w);
        }
    }
    g.weights = Weights::Int(ws);
    g
}

/// A path `0 -> 1 -> ... -> n-1`, unit weights.
pub fn path(n: usize) -> EdgeList {
    let n = checked_vertices(n as u64, "path");
    let mut g = EdgeList::new(n, n);
    g.src = (0..n.saturating_sub(1) as u32).collect();
    g.dst = (1..n as u32).collect();
    g.weights = Weights::Int(vec![1; g.src.len()]);
    g
}

/// A star: arcs `0 -> v` for every other vertex, unit weights.
pub fn star(n: usize) -> EdgeList {
    let n = checked_vertices(n as u64, "star");
    let mut g = EdgeList::new(n, n);
    g.dst = (1..n as u32).collect();
    g.src = vec![0; g.dst.len()];
    g.weights = Weights::Int(vec![1; g.src.len()]);
    g
}

/// The complete digraph: an arc between every ordered pair of distinct vertices, unit weights.
pub fn complete(n: usize) -> EdgeList {
    let n = checked_vertices(n as u64, "complete");
    let mut g = EdgeList::new(n, n);
    for i in 0..n as u32 {
        for j in 0..n as u32 {
            if i != j {
                g.src.push(i);
                g.dst.push(j);
            }
        }
    }
    g.weights = Weights::Int(vec![1; g.src.len()]);
    g
}

/// `n` vertices and no arcs.
pub fn empty(n: usize) -> EdgeList {
    EdgeList::new(checked_vertices(n as u64, "empty"), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        let a = kronecker(10, 16, 42);
        assert_eq!(a, kronecker(10, 16, 42));
        assert_ne!(a.src, kronecker(10, 16, 43).src);
        assert_eq!((a.nrows, a.len()), (1024, 16 * 1024));
        let u = urand(10, 8, 1);
        assert_eq!((u.nrows, u.len()), (1024, 8 * 1024));
        let g = grid(3, 4, 1, 5, 9);
        assert_eq!((g.nrows, g.len()), (12, 2 * (3 * 3 + 2 * 4)));
        assert_eq!(path(5).len(), 4);
        assert_eq!(star(5).len(), 4);
        assert_eq!(complete(5).len(), 20);
        assert!(empty(3).is_empty());
    }

    #[test]
    fn structured_generators_have_their_entry_counts() {
        // 3 x 4 grid: 17 neighbour pairs; 9 points add 12 diagonal pairs.
        assert_eq!(stencil(&[3, 4], 5).len(), 12 + 2 * 17);
        assert_eq!(stencil(&[3, 4], 9).len(), 12 + 2 * (17 + 12));
        assert_eq!(stencil(&[2, 2, 2], 7).len(), 8 + 2 * 12);
        assert_eq!(stencil(&[2, 2, 2], 27).len(), 64);
        let b = banded(10, 2, 1.0, 1);
        assert_eq!(b.len(), 10 * 5 - 2 * (2 + 1));
        assert!(b.src.iter().zip(&b.dst).all(|(&i, &j)| i.abs_diff(j) <= 2));
        assert!(banded(1000, 50, 0.1, 1).len() < 1000 * 20);
        let m = mesh(3, 4, false, 1);
        assert_eq!(m.len(), 12 + 2 * (17 + 6));
        let s = mesh(3, 4, true, 1);
        let lens = |g: &EdgeList| {
            let mut d = vec![0usize; g.nrows];
            for &x in &g.src {
                d[x as usize] += 1;
            }
            d.sort();
            d
        };
        assert_eq!(lens(&m), lens(&s), "shuffling keeps the row lengths");
        assert_ne!(m.src, s.src);
        assert_eq!(block_diagonal(3, 4, 1.0, 1).len(), 3 * 16);
        let r = bipartite(5, 1000, 7, 1);
        assert_eq!((r.nrows, r.ncols, r.len()), (5, 1000, 35));
        assert!(r.dst.iter().all(|&c| c < 1000));
    }

    #[test]
    fn chung_lu_and_kronecker_probabilities_set_the_skew() {
        let deg = |g: &EdgeList| {
            let mut d = vec![0usize; g.nrows];
            for s in &g.src {
                d[*s as usize] += 1;
            }
            *d.iter().max().unwrap()
        };
        let c = chung_lu(4096, 8, 2.1, 1);
        assert_eq!(c.len(), 8 * 4096);
        assert!(deg(&c) > 400, "a hub: {}", deg(&c));
        assert!(deg(&chung_lu(4096, 8, 4.0, 1)) < deg(&c));
        assert!(deg(&kronecker_with(12, 8, [0.25, 0.25, 0.25], 1)) < 40);
        assert_eq!(
            kronecker_with(10, 16, [0.57, 0.19, 0.19], 42),
            kronecker(10, 16, 42)
        );
    }

    #[test]
    fn kronecker_is_skewed_and_urand_is_not() {
        let deg = |g: &EdgeList| {
            let mut d = vec![0usize; g.nrows];
            for s in &g.src {
                d[*s as usize] += 1;
            }
            *d.iter().max().unwrap()
        };
        assert!(deg(&kronecker(12, 16, 1)) > 500);
        assert!(deg(&urand(12, 16, 1)) < 50);
    }

    #[test]
    fn rng_draws_are_uniform_enough() {
        let r = Rng::new(7);
        let mut buckets = [0usize; 10];
        for k in 0..100_000 {
            buckets[r.below(k, 10) as usize] += 1;
        }
        assert!(
            buckets.iter().all(|&b| (9_000..11_000).contains(&b)),
            "{buckets:?}"
        );
    }
}
