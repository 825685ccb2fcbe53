//! Centralities in plus-times `f64`: from shortest paths, as batched breadth-first searches
//! (one SpMM per level on an `n x k` block of `k` sources), and by power iteration.
//!
//! - [`betweenness`]: Brandes' path counts and dependencies (LAGraph's `LAGr_Betweenness`),
//!   and [`edge_betweenness`], each arc's share of them by a sampled product per level;
//! - [`closeness`] and [`harmonic`]: the distances into each vertex, summed over the sources;
//! - [`eigenvector`], [`katz`] and [`hits`]: power iterations, one SpMV each (two for HITS).

mod betweenness;
mod closeness;
mod power;
mod scaling;
mod weighted;

pub use betweenness::{
    Betweenness, BetweennessOptions, EdgeBetweenness, EdgeBetweennessAlgorithm, betweenness,
    edge_betweenness,
};
pub use closeness::{
    Closeness, Harmonic, closeness, harmonic, weighted_closeness, weighted_harmonic,
};
pub use power::{Centrality, Eigenvector, Hits, Hubs, Katz, PowerOptions, eigenvector, hits, katz};
pub use weighted::{weighted_betweenness, weighted_edge_betweenness};

use semigraph_semiring::PlusTimes;

use crate::backend::{Accum, Backend, Ewise, Mask, UnaryOp};
use crate::error::{Error, Result, check_vertex, try_vec};

/// Arc entries of the weighted centralities' copies a batch holds unless its size is given:
/// `k` copies of `m` arcs hold at most this many (a few arrays of them on the host and the
/// backend).
const COPIED_ARCS: usize = 1 << 22;

/// Host bytes those copies take at most while made (two copies or more; one is made on the
/// backend): three arrays of them and a CSR. Betweenness and closeness plan their memory with it.
const COPIES_HOST_BYTES: u64 = 32 * COPIED_ARCS as u64;

/// The semiring of path counts, levels and sums.
type Pt = PlusTimes<f64>;

/// A batch's breadth-first sweep: `k` sources, their paths counted and levels found.
struct Sweep<B: Backend> {
    n: usize,
    k: usize,
    /// `paths(v, j)`: the shortest paths from source `j` to `v` (no entry: not reached).
    paths: B::Dense<Pt>,
    /// `level(v, j)`: `v`'s distance from source `j`, plus 1 (no entry: not reached).
    level: B::Dense<Pt>,
    /// The deepest level reached.
    depth: usize,
    /// Two `n x k` arrays for the caller.
    spare: [B::Dense<Pt>; 2],
}

/// Which paths a [`sweep_from`] counts.
#[derive(Clone, Copy, Debug)]
enum Paths {
    /// The fewest arcs: a vertex is reached once, at its first level (breadth-first).
    Fewest,
    /// Every path of an acyclic graph (the least-weight paths' DAG): a vertex is reached at
    /// each level a path arrives at it, and its level is its last (the most arcs). A level
    /// of `limit` (the vertices of one source's graph) would need a cycle: refused.
    Dag { limit: usize },
}

/// The breadth-first sweep from the sources `chunk` over `A^T` (`at`), source `j` in column
/// `j` of `n x k` blocks ([`sweep_from`], the fewest arcs).
fn sweep<B: Backend>(b: &B, at: &B::Matrix<Pt>, n: usize, chunk: &[usize]) -> Result<Sweep<B>> {
    let k = chunk.len();
    let starts: Vec<usize> = chunk.iter().enumerate().map(|(j, &s)| s * k + j).collect();
    sweep_from(b, at, (n, k), &starts, Paths::Fewest)
}

/// The forward sweep over `A^T` (`at`) on `n x k` blocks from the positions `starts`: per
/// level, `F<!paths> = A^T F` (every path: `F = A^T F`), `paths += F`, `level<F> = d + 1`;
/// one count read back per level.
///
/// # Errors
/// `InvalidArgument` where [`Paths::Dag`] finds a cycle; backend errors.
fn sweep_from<B: Backend>(
    b: &B,
    at: &B::Matrix<Pt>,
    (n, k): (usize, usize),
    starts: &[usize],
    paths_of: Paths,
) -> Result<Sweep<B>> {
    let mut start = try_vec(n * k, 0.0, "a block of sources")?;
    for &p in starts {
        start[p] = 1.0;
    }
    let mut paths = b.dense::<Pt>(n, k, &start)?;
    let mut front = b.dense::<Pt>(n, k, &start)?;
    let mut level = b.dense::<Pt>(n, k, &start)?;
    let mut next = b.dense_filled::<Pt>(n, k, 0.0)?;
    let mut depth = 0usize;
    loop {
        crate::cancel::check()?;
        let mask = match paths_of {
            Paths::Fewest => b.skip(&paths),
            Paths::Dag { .. } => Mask::All,
        };
        b.mxm(&mut next, mask, Accum::Replace, at, &front)?;
        if b.nvals(&next)? == 0 {
            break;
        }
        depth += 1;
        if let Paths::Dag { limit } = paths_of
            && depth >= limit
        {
            return Err(Error::InvalidArgument(format!(
                "a path of {depth} arcs among {limit} vertices: the least-weight paths form a \
                 cycle (weights too small against the path lengths to tell apart in f64)"
            )));
        }
        b.ewise(&mut paths, Mask::All, Ewise::Add, &next)?;
        b.apply(&mut level, b.keep(&next), UnaryOp::Fill(depth as f64 + 1.0))?;
        std::mem::swap(&mut front, &mut next);
        b.apply(&mut next, Mask::All, UnaryOp::Fill(0.0))?;
    }
    Ok(Sweep {
        n,
        k,
        paths,
        level,
        depth,
        spare: [front, next],
    })
}

/// `sums += x (+).(x) ones`: the row sums of the `n x k` array `x` added to `sums` (`n x 1`).
fn add_row_sums<B: Backend>(
    b: &B,
    sums: &mut B::Dense<Pt>,
    x: &B::Dense<Pt>,
    k: usize,
) -> Result<()> {
    let ones = b.dense_filled::<Pt>(k, 1, 1.0)?;
    b.gemm(sums, Mask::All, Accum::Add, x, &ones)
}

/// Sources per batch unless given: eight `n x k` arrays of `f64` in 512 MiB, 1 to 256.
fn default_batch(n: usize) -> usize {
    ((512 << 20) / (64 * n.max(1))).clamp(1, 256)
}

/// Runs `each` on the sources (`None`: every vertex) in batches of `batch` (`None`: by size,
/// at most 256); returns how many sources there were.
///
/// # Errors
/// `InvalidArgument` for a source out of range or a batch of 0; `each`'s.
fn batches(
    n: usize,
    sources: Option<&[usize]>,
    batch: Option<usize>,
    mut each: impl FnMut(&[usize]) -> Result<()>,
) -> Result<usize> {
    let all: Vec<usize>;
    let sources = match sources {
        Some(s) => s,
        None => {
            all = (0..n).collect();
            &all
        }
    };
    for &s in sources {
        check_vertex(s, n)?;
    }
    let batch = match batch {
        Some(0) => {
            return Err(Error::InvalidArgument(
                "a batch holds at least one source".into(),
            ));
        }
        Some(k) => k.min(256),
        None => default_batch(n),
    };
    for chunk in sources.chunks(batch) {
        crate::cancel::check()?;
        each(chunk)?;
    }
    Ok(sources.len())
}

/// The sources of the registry's `sources`, `seed` and `source` arguments: `None` without
/// `sources` (every vertex), else that many distinct vertices drawn by a seeded shuffle
/// (`source` among them if given), in increasing order.
fn sample(n: usize, args: &crate::registry::Args) -> Option<Vec<usize>> {
    let k = args.count("sources")?.min(n);
    let first =
        matches!(args.get("source"), crate::registry::Value::Int(_)).then(|| args.vertex("source"));
    let mut v: Vec<usize> = (0..n).collect();
    let mut from = 0;
    if let Some(f) = first.filter(|_| k > 0) {
        v.swap(0, f);
        from = 1;
    }
    let mut state = args.count("seed").unwrap_or(0) as u64;
    for i in from..k {
        // SplitMix64.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        let j = i + (z % (n - i) as u64) as usize;
        v.swap(i, j);
    }
    v.truncate(k);
    v.sort_unstable();
    Some(v)
}
