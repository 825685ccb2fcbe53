//! How Brandes' sums become NetworkX's values: the scalings (normalized, undirected, sampled),
//! the paths' ends (`endpoints`) and the edges of edge betweenness in NetworkX's order.

use semigraph_semiring::Semiring;

use super::{BetweennessOptions, EdgeBetweenness};

/// The paths' ends NetworkX's `endpoints` counts, summed on the host from each batch's
/// reached positions: per source `s` and vertex `v != s` it reaches, one for `v` (a target)
/// and one for `s` (a source).
pub(super) struct Ends(Option<Vec<f64>>);

impl Ends {
    /// Counting (`on`) or not, for `n` vertices.
    pub(super) fn new(on: bool, n: usize) -> Self {
        Ends(on.then(|| vec![0.0; n]))
    }

    /// Whether the ends are counted.
    pub(super) fn wanted(&self) -> bool {
        self.0.is_some()
    }

    /// One batch: `reached` holds an entry (not 0) at `v k + j` where source `chunk[j]`
    /// reaches `v`.
    pub(super) fn add(&mut self, chunk: &[usize], reached: &[f64]) {
        self.add_copies(chunk, chunk.len(), reached);
    }

    /// [`Ends::add`] where the positions hold `k >= chunk.len()` columns (copies past the
    /// batch's sources reach nothing).
    pub(super) fn add_copies(&mut self, chunk: &[usize], k: usize, reached: &[f64]) {
        let Some(by) = self.0.as_mut() else {
            return;
        };
        for (p, _) in reached.iter().enumerate().filter(|(_, x)| **x != 0.0) {
            let (v, s) = (p / k, chunk[p % k]);
            if v != s {
                by[v] += 1.0;
                by[s] += 1.0;
            }
        }
    }

    /// Adds the ends to the sums `bc`.
    pub(super) fn finish(self, bc: &mut [f64]) {
        if let Some(by) = self.0 {
            bc.iter_mut().zip(by).for_each(|(x, e)| *x += e);
        }
    }
}

/// The factor of a vertex's sum over `sources` of `n`: `1 / ((n - 1)(n - 2))` normalized
/// (`1 / (n (n - 1))` with the ends), else `1/2` for an undirected graph (each pair counted
/// once); `n / sources` for a sample.
pub(super) fn vertex_scale(
    n: usize,
    sources: usize,
    opts: &BetweennessOptions,
    directed: bool,
) -> f64 {
    let pairs = match opts.endpoints {
        false => (n > 2).then(|| (n - 1) as f64 * (n - 2) as f64),
        true => (n >= 2).then(|| n as f64 * (n - 1) as f64),
    };
    scale(pairs, opts.normalized, directed) * sampled(n, sources)
}

/// The factor of an arc's (edge's) sum over `sources` of `n`: `1 / (n (n - 1))` normalized,
/// else `1/2` for an undirected graph; `n / sources` for a sample.
pub(super) fn edge_scale(
    n: usize,
    sources: usize,
    opts: &BetweennessOptions,
    directed: bool,
) -> f64 {
    let pairs = (n >= 2).then(|| n as f64 * (n - 1) as f64);
    scale(pairs, opts.normalized, directed) * sampled(n, sources)
}

/// `1 / pairs` normalized (1 where there are none), else `1/2` for an undirected graph.
fn scale(pairs: Option<f64>, normalized: bool, directed: bool) -> f64 {
    match (normalized, pairs, directed) {
        (true, Some(p), _) => 1.0 / p,
        (true, None, _) | (false, _, true) => 1.0,
        (false, _, false) => 0.5,
    }
}

/// `n / sources` for a sample of the `n` vertices, else 1.
fn sampled(n: usize, sources: usize) -> f64 {
    if sources > 0 && sources < n {
        n as f64 / sources as f64
    } else {
        1.0
    }
}

/// Each arc's `share` (directed), or each edge's once with both its arcs' (undirected, `u <=
/// v`, in order), times `scale`.
pub(super) fn edge_values<S: Semiring>(
    arcs: &semigraph_formats::Csr<S>,
    directed: bool,
    scale: f64,
    share: impl Fn(u32, u32) -> f64,
) -> EdgeBetweenness {
    let (mut edges, mut values) = (vec![], vec![]);
    let arc = |u: usize, v: usize| arcs.get(u, v).is_some_and(|w| !S::is_zero(w));
    for (u, v, _) in arcs.iter().filter(|&(_, _, w)| !S::is_zero(w)) {
        let (u, v) = (u as u32, v as u32);
        let value = match directed {
            true => share(u, v),
            false if u < v => share(u, v) + share(v, u),
            false if u == v => share(u, u),
            // An arc u -> v with u > v: counted with v -> u, or alone if it has no reverse.
            false if arc(v as usize, u as usize) => continue,
            false => share(u, v),
        };
        edges.push(if directed {
            (u, v)
        } else {
            (u.min(v), u.max(v))
        });
        values.push(value * scale);
    }
    if !directed {
        // Each edge once, in the order of its smaller end.
        let mut order: Vec<usize> = (0..edges.len()).collect();
        order.sort_by_key(|&i| edges[i]);
        edges = order.iter().map(|&i| edges[i]).collect();
        values = order.iter().map(|&i| values[i]).collect();
    }
    EdgeBetweenness { edges, values }
}
