//! Minimum spanning forests by Boruvka's rounds (as `LAGraph_msf`): every component picks its
//! lightest edge out at once (row reductions, scatters with a min accumulator), the
//! components hook along them and pointer jumping finds the new roots.

use semigraph_semiring::ops::{First, Max, Min, Ne, Offdiag};
use semigraph_semiring::{MinPlus, PlusTimes};

use crate::backend::{Backend, Combine, Ewise, Mask, NO_PARENT, Parents, UnaryOp, cloned};
use crate::error::Result;
use crate::graph::Graph;

/// Weights (min-plus `f64`: a row's reduction is its lightest edge; `+inf` is none).
type Weight = MinPlus<f64>;
/// Component numbers plus one, as reals, to compare the ends of each arc (plus-times `f64`:
/// 1 where they differ, no entry where they agree).
type Real = PlusTimes<f64>;
/// Flags over vertex numbers (plus-times `u32`: 0 is no entry).
type Count = PlusTimes<u32>;

/// What [`minimum_spanning_forest`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    /// The forest's edges `(u, v)`, `u < v`, in increasing `u` then `v`.
    pub edges: Vec<(u32, u32)>,
    /// Each edge's weight, in the same order.
    pub weights: Vec<f64>,
    /// The forest's weight.
    pub weight: f64,
    /// Boruvka's rounds run.
    pub rounds: usize,
}

/// A minimum spanning forest: a spanning tree of least total weight in each connected
/// component (NetworkX's `minimum_spanning_edges`, `SciPy`'s `minimum_spanning_tree`).
///
/// Boruvka's rounds on the arcs between distinct components (SDDMMs of the component
/// numbers at both ends of each arc, compared; the arcs inside a component dropped for good):
/// each vertex's lightest arc out (a row arg-min), each component's lightest of those (a
/// scatter with a min accumulator), ties broken by the edge's smaller end, then its larger
/// end, so that the edges are totally ordered and the hooks form no cycle but pairs (the
/// larger root of a pair hooks to the smaller). Each hooking root records its edge; pointer
/// jumping brings every vertex to its new root.
///
/// Edges are the arcs either way (a pair of arcs of different weights: the lighter); self
/// loops are ignored; weights may be any finite reals.
///
/// # Arguments
/// - `g`: the graph, its weights in min-plus `f64`.
///
/// # Returns
/// The forest's edges, their weights, the total and the rounds run.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// `O(log n)` rounds, each `O(n)` plus the arcs still between components; pointer jumping
/// `O(log n)` gathers a round; one count read back per round and per jump.
///
/// # Example
/// ```
/// use semigraph_algos::combinatorial::minimum_spanning_forest;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // A square 0-1-2-3 with a diagonal 0-2; the heavy side 3-0 stays out.
/// let e = [(0, 1, 1.0), (1, 2, 2.0), (2, 3, 1.0), (3, 0, 5.0), (0, 2, 2.0)];
/// let arcs: Vec<_> = e.iter().flat_map(|&(u, v, w)| [(u, v, w), (v, u, w)]).collect();
/// let a = arcs_to_csr::<MinPlus<f64>>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let f = minimum_spanning_forest(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(f.weight, 4.0);
/// assert_eq!(f.edges, vec![(0, 1), (0, 2), (2, 3)]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn minimum_spanning_forest<B: Backend>(g: &Graph<'_, B, Weight>) -> Result<Forest> {
    let (b, n) = (g.backend(), g.n());
    let ids: Vec<u32> = (0..n as u32).collect();
    let numbers: Vec<f64> = (1..=n).map(|v| v as f64).collect();
    let numbers = b.dense::<Real>(n, 1, &numbers)?;
    let ones = b.dense_filled::<Real>(n, 1, 1.0)?;
    let mut f = b.dense::<Parents>(n, 1, &ids)?;
    let ids = b.dense::<Parents>(n, 1, &ids)?;
    // The edges each root records when it hooks.
    let mut lo = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    let mut hi = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
    let mut wt = b.dense_filled::<Weight>(n, 1, f64::INFINITY)?;
    // The arcs either way (the lighter of two), without self loops.
    let mut arcs = match g.is_undirected() {
        true => b.select::<Weight, Offdiag>(g.push(), f64::INFINITY)?,
        false => b.select::<Weight, Offdiag>(&g.symmetric()?, f64::INFINITY)?,
    };
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        // The arcs between distinct components: f(u) + 1 and f(v) + 1 at each arc, compared.
        let fu = b.gather(&numbers, &f)?;
        let pattern = b.pattern::<Weight, Real>(&arcs)?;
        let across = b.ewise_matrix::<Real, Ne>(
            &b.sddmm(&pattern, &fu, &ones)?,
            &b.sddmm(&pattern, &ones, &fu)?,
            Combine::Intersection,
        )?;
        arcs = b.ewise_matrix::<Weight, First>(
            &arcs,
            &b.view::<Real, Weight>(&across)?,
            Combine::Intersection,
        )?;
        if b.matrix_info(&arcs).nnz == 0 {
            break;
        }
        rounds += 1;
        // Each vertex's lightest arc out (to its smallest neighbour among ties), each
        // component's lightest weight, and the vertices that reach it.
        let light = b.reduce_rows(&arcs)?;
        let pick = b.reduce_rows_arg(&arcs)?;
        let mut least = b.dense_filled::<Weight>(n, 1, f64::INFINITY)?;
        b.scatter_op::<Weight, Min, Parents>(&mut least, &f, &light)?;
        let mut off = b.gather(&least, &f)?;
        b.ewise_op::<Weight, Ne>(&mut off, Mask::All, Combine::Intersection, &light)?;
        b.apply(&mut off, Mask::All, UnaryOp::AddTo(1.0))?;
        let off = b.dense_as::<Weight, Real>(off); // no entry: the vertex reaches the least
        // Ties: the smallest lower end, then the smallest upper end.
        let mut low = cloned(b, &pick)?;
        b.ewise_op::<Parents, Min>(&mut low, Mask::All, Combine::Intersection, &ids)?;
        b.apply(&mut low, b.keep(&off), UnaryOp::Fill(NO_PARENT))?;
        let mut c1 = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
        b.scatter_op::<Parents, Min, Parents>(&mut c1, &f, &low)?;
        let mut high = cloned(b, &pick)?;
        b.ewise_op::<Parents, Max>(&mut high, Mask::All, Combine::Intersection, &ids)?;
        let mut other = b.gather(&c1, &f)?;
        b.ewise_op::<Parents, Ne>(&mut other, Mask::All, Combine::Intersection, &low)?;
        let other = b.dense_as::<Parents, Count>(other); // no entry: low is the least
        b.apply(&mut high, b.keep(&other), UnaryOp::Fill(NO_PARENT))?;
        let mut c2 = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
        b.scatter_op::<Parents, Min, Parents>(&mut c2, &f, &high)?;
        // Each root's edge (c1, c2) leads to the component of its end outside the root's.
        let mut to = b.gather(&f, &c1)?;
        let f2 = b.gather(&f, &c2)?;
        let mut inside = cloned(b, &to)?;
        b.ewise_op::<Parents, Ne>(&mut inside, Mask::All, Combine::Intersection, &ids)?;
        let inside = b.dense_as::<Parents, Count>(inside); // no entry: c1 is the root's
        b.apply(&mut to, b.skip(&inside), UnaryOp::Fill(NO_PARENT))?;
        b.ewise(&mut to, b.skip(&inside), Ewise::Add, &f2)?;
        // Pairs that chose each other: the larger root hooks to the smaller.
        let mut pair = b.gather(&to, &to)?;
        b.ewise_op::<Parents, Ne>(&mut pair, Mask::All, Combine::Intersection, &ids)?;
        let pair = b.dense_as::<Parents, Count>(pair); // no entry: in a pair
        b.ewise_op::<Parents, Min>(&mut to, b.skip(&pair), Combine::Intersection, &ids)?;
        // The roots that hook record their edge and follow it.
        let mut hooks = cloned(b, &to)?;
        b.ewise_op::<Parents, Ne>(&mut hooks, Mask::All, Combine::Intersection, &ids)?;
        b.apply(&mut hooks, b.skip(&to), UnaryOp::Fill(0))?;
        let hooks = b.dense_as::<Parents, Count>(hooks);
        b.ewise(&mut lo, b.keep(&hooks), Ewise::Add, &c1)?;
        b.ewise(&mut hi, b.keep(&hooks), Ewise::Add, &c2)?;
        b.ewise(&mut wt, b.keep(&hooks), Ewise::Add, &least)?;
        b.apply(&mut f, b.keep(&hooks), UnaryOp::Fill(NO_PARENT))?;
        b.ewise(&mut f, b.keep(&hooks), Ewise::Add, &to)?;
        // Pointer jumping to the new roots.
        loop {
            let next = b.gather(&f, &f)?;
            let mut moved = cloned(b, &next)?;
            b.ewise_op::<Parents, Ne>(&mut moved, Mask::All, Combine::Intersection, &f)?;
            let moved = b.dense_as::<Parents, Count>(moved);
            f = next;
            if b.nvals(&moved)? == 0 {
                break;
            }
        }
    }
    let (lo, hi, wt) = (b.read_dense(&lo)?, b.read_dense(&hi)?, b.read_dense(&wt)?);
    let mut forest: Vec<(u32, u32, f64)> = (0..n)
        .filter(|&v| lo[v] != NO_PARENT)
        .map(|v| (lo[v], hi[v], wt[v]))
        .collect();
    forest.sort_unstable_by_key(|&(u, v, _)| (u, v));
    Ok(Forest {
        weight: forest.iter().map(|e| e.2).sum(),
        edges: forest.iter().map(|e| (e.0, e.1)).collect(),
        weights: forest.iter().map(|e| e.2).collect(),
        rounds,
    })
}

/// Minimum spanning forests in the [registry](crate::registry): `semigraph msf`.
pub struct SpanningForest;

impl crate::registry::Algorithm for SpanningForest {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Reads};
        Info {
            name: "msf",
            command: "msf",
            summary: "Minimum spanning forest (Boruvka): the edges of a least-weight spanning \
                      tree of each component, with their weights",
            params: &[],
            returns: &["edges", "weights"],
            reads: Reads::Distances,
            accepts: Accepts::Undirected,
            complexity: "O((n + m) log n)",
            method: "Boruvka: row arg-min, scatter-min and SDDMM per round",
            steps: "rounds",
            bench: &[],
            distributed: false,
            networkx: &[],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        _args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let f = minimum_spanning_forest(g.distances()?)?;
        Ok(Output {
            facts: vec![
                Fact::scalar("weight", Scalar::Real(f.weight)),
                Fact::with_rounds("edges", f.edges.len() as u64, f.rounds),
            ],
            steps: f.rounds,
            columns: vec![
                Column {
                    name: "edges",
                    values: Values::Arcs(f.edges),
                },
                Column {
                    name: "weights",
                    values: Values::Real(f.weights),
                },
            ],
        })
    }
}
