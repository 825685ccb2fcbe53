//! Combinatorial structure by rounds of masked products: maximal independent sets
//! ([`maximal_independent_set`]), colorings ([`coloring`]) and maximal matchings
//! ([`maximal_matching`]) over random priorities, minimum spanning forests
//! ([`minimum_spanning_forest`]) and maximum flows ([`maximum_flow`]), as LAGraph writes them with GraphBLAS (every vertex, or
//! every component, decides at once each round).
//!
//! They read the undirected simple graph of the arcs: an arc either way is an edge, a self
//! loop is ignored (NetworkX's `maximal_independent_set` ignores it too). The priorities are a
//! random permutation drawn from the seed on the host, so a seed gives the same answer on
//! every backend and thread count.

mod coloring;
mod flow;
mod forest;
mod matching;
mod mis;

pub use coloring::{Coloring, ColoringAlgorithm, coloring};
pub use flow::{Flow, MaximumFlow, maximum_flow};
pub use forest::{Forest, SpanningForest, minimum_spanning_forest};
pub use matching::{Matching, MatchingAlgorithm, maximal_matching};
pub use mis::{IndependentSet, IndependentSetAlgorithm, maximal_independent_set};

use semigraph_formats::generate::{Rng, permutation};
use semigraph_semiring::Semiring;
use semigraph_semiring::ops::Offdiag;

use crate::backend::Backend;
use crate::error::Result;
use crate::graph::Graph;

/// `A + A^T` without its diagonal, in `P`: each vertex's neighbours, an arc either way, no
/// self loop. `A` itself (less its loops) when the graph is known to be undirected.
fn neighbours<B: Backend, S: Semiring, P: Semiring>(g: &Graph<'_, B, S>) -> Result<B::Matrix<P>> {
    let p = g.pattern::<P>()?;
    let b = g.backend();
    match p.is_undirected() {
        true => b.select::<P, Offdiag>(p.push(), P::zero()),
        false => b.select::<P, Offdiag>(&p.symmetric()?, P::zero()),
    }
}

/// A priority per vertex: a random permutation of `1..=n` drawn from `seed` (distinct, none
/// zero, so that a zero is "no candidate").
///
/// # Errors
/// `InvalidArgument` for more than `u32::MAX - 1` vertices.
fn priorities(n: usize, seed: u64) -> Result<Vec<u32>> {
    if n >= u32::MAX as usize {
        return Err(crate::Error::InvalidArgument(format!(
            "{n} vertices: random priorities hold fewer than 2^32 - 1"
        )));
    }
    let mut p = permutation(n, Rng::new(seed));
    p.iter_mut().for_each(|x| *x += 1);
    Ok(p)
}
