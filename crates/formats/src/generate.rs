//! Deterministic graph generators.
//!
//! Every random choice is a pure function of `(seed, counter)` ([`Rng`]), so a graph is the
//! same on every machine, in every build and with any number of threads, and arcs are
//! generated in parallel.

use rayon::prelude::*;

use crate::edgelist::{EdgeList, Weights};

/// A counter-based random number generator: `at(k)` is the `SplitMix64` finaliser of
/// `seed` and `k`, so the `k`-th draw needs no state and no order.
#[derive(Clone, Copy, Debug)]
pub struct Rng {
    seed: u64,
}

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            seed: mix(seed ^ 0x5851_f42d_4c95_7f2d),
        }
    }
    /// The `k`-th 64-bit draw.
    #[inline]
    pub fn at(&self, k: u64) -> u64 {
        mix(self
            .seed
            .wrapping_add(k.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
    }
    /// A draw uniform in `0..n` (`n > 0`), by 128-bit multiply (bias below 2^-64 * n).
    #[inline]
    pub fn below(&self, k: u64, n: u64) -> u64 {
        ((self.at(k) as u128 * n as u128) >> 64) as u64
    }
    /// A draw uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&self, k: u64) -> f64 {
        (self.at(k) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn checked_vertices(n: u64, what: &str) -> usize {
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
    assert!(
        scale <= 31,
        "Kronecker scale {scale} > 31 does not fit 32-bit vertex ids"
    );
    let n = checked_vertices(1u64 << scale, "kronecker");
    let m = (edge_factor as u64) << scale;
    let rng = Rng::new(seed);
    let (a, b, c) = (0.57, 0.19, 0.19);
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

/// A seeded uniform permutation of `0..n` (Fisher-Yates).
fn permutation(n: usize, rng: Rng) -> Vec<u32> {
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
