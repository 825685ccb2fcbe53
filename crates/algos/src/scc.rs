//! Strongly connected components by trimming and colouring (Orzan's colouring after
//! trimming, the forward-backward reachability of LAGraph's `LAGraph_scc` done for every
//! pivot at once): min-second and max-min relaxations on the frontier, and peeling in
//! plus-pair.

use semigraph_semiring::ops::{Eq, Gt, Minus, Plus};
use semigraph_semiring::{MaxMin, MinSecond, Semiring};

use crate::backend::{Accum, Backend, Bound, Combine, Ewise, Mask, UnaryOp, copy_dense};
use crate::error::Result;
use crate::graph::Graph;
use crate::peel::{Levels, PlusPair, peel};

/// Labels and colours: `add` min, `mul` the vector's value; `u32::MAX` none.
type Lab = MinSecond<u32>;
/// Colours sent back along in-arcs: `add` max, `mul` min with the pattern's `u32::MAX`; 0 none.
type Back = MaxMin<u32>;

/// What [`scc`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrongComponents {
    /// For each vertex, the smallest vertex (index) of its strongly connected component.
    pub labels: Vec<u32>,
    /// The phases run (each trims, colours and assigns at least one component).
    pub phases: usize,
    /// The frontier steps run over all phases.
    pub steps: usize,
}

impl StrongComponents {
    /// The number of components.
    pub fn count(&self) -> usize {
        self.labels
            .iter()
            .enumerate()
            .filter(|&(v, &l)| l as usize == v)
            .count()
    }
}

/// Strongly connected components (NetworkX's `strongly_connected_components`): two vertices
/// share a component when each reaches the other. Phases over the vertices not yet assigned:
///
/// 1. trim: peel the vertices with no in-arc from another remaining vertex, then those with
///    no out-arc to one (each is its own component);
/// 2. colour: `c(v) = v + 1`, then min-second relaxation along `A` to the fixpoint: `c(v)`
///    becomes one more than the smallest vertex that reaches `v`; a root is a vertex `r` with
///    `c(r) = r + 1` (the smallest of its component);
/// 3. back: max-min relaxation along `A^T` from the roots, a vertex accepting only its own
///    colour (every colour it receives is at most its own, which it receives exactly when it
///    reaches the root of its colour): the accepted vertices are the roots' components.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// The labels (the smallest vertex of each component), the phases and frontier steps run.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// Per phase, `O(n)` plus the arcs of each frontier vertex per step (a relaxation step per
/// level of the colours' spread, a peeling round per trimmed level), one count read back per
/// step. A graph whose components form long chains in the order of their smallest vertices
/// needs a phase per link; trimming removes the acyclic parts first.
///
/// # Example
/// ```
/// use semigraph_algos::scc::scc;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 <-> 1 -> 2 <-> 3, and 4 alone.
/// let arcs = [(0, 1), (1, 0), (1, 2), (2, 3), (3, 2)].map(|(u, v)| (u, v, true));
/// let a = arcs_to_csr::<OrAnd>(5, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = scc(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(c.labels, vec![0, 0, 2, 2, 4]);
/// assert_eq!(c.count(), 3);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn scc<B: Backend, S: Semiring>(g: &Graph<'_, B, S>) -> Result<StrongComponents> {
    let (b, n) = (g.backend(), g.n());
    let pair = g.pattern::<PlusPair>()?;
    let pair_t = pair.transposed()?;
    let lab = g.pattern::<Lab>()?;
    let back = g.pattern::<Back>()?;
    let back_t = back.transposed()?;
    let ids: Vec<u32> = (0..n as u32).collect();
    let ids0 = b.dense::<Lab>(n, 1, &ids)?;
    let key: Vec<u32> = (1..=n as u32).collect();
    let key_lab = b.dense::<Lab>(n, 1, &key)?;
    let key_back = b.dense::<Back>(n, 1, &key)?;
    // The labels: none (u32::MAX) until assigned.
    let mut label = b.dense_filled::<Lab>(n, 1, u32::MAX)?;
    let mut alive = b.dense_filled::<PlusPair>(n, 1, 1)?;
    let mut degree = b.dense_filled::<PlusPair>(n, 1, 0)?;
    let mut color = b.dense_filled::<Lab>(n, 1, u32::MAX)?;
    let mut seen = b.dense_filled::<Back>(n, 1, 0)?;
    let mut acc = b.dense_filled::<Back>(n, 1, 0)?;
    let mut roots = b.dense_filled::<Back>(n, 1, 0)?;
    let (mut assigned, mut phases, mut steps) = (0usize, 0usize, 0usize);
    while assigned < n {
        crate::cancel::check()?;
        phases += 1;
        // 1. Trim along in-arcs, then out-arcs, from the remaining vertices.
        for (count, along) in [(&*pair_t, pair.push()), (pair.push(), &*pair_t)] {
            b.apply(&mut alive, Mask::All, UnaryOp::Fill(1))?;
            b.apply(&mut alive, b.keep(&label), UnaryOp::Fill(0))?;
            b.mxm(&mut degree, Mask::All, Accum::Replace, count, &alive)?;
            let p = peel(
                b,
                &degree,
                &[along],
                Levels::Zero,
                Some((b.keep(&label), assigned)),
            )?;
            steps += p.rounds;
            assigned += p.removed;
            b.ewise(&mut label, b.keep(&p.round), Ewise::Add, &ids0)?;
        }
        if assigned == n {
            break;
        }
        // 2. Colour: c = key on the remaining vertices, relaxed along A (min).
        copy_dense(b, &mut color, &key_lab)?;
        b.apply(&mut color, b.keep(&label), UnaryOp::Fill(u32::MAX))?;
        let mut front = b.compact(&color)?;
        while b.sparse_nnz(&front) > 0 {
            crate::cancel::check()?;
            steps += 1;
            front = b.relax(&mut color, None, &front, lab.push(), b.skip(&label))?;
        }
        // `seen` = c and `acc` = c as max-min values, then `acc` = c + 1 at the roots.
        let mut as_lab = b.dense_as::<Back, Lab>(seen);
        copy_dense(b, &mut as_lab, &color)?;
        seen = b.dense_as(as_lab);
        let mut as_lab = b.dense_as::<Back, Lab>(acc);
        copy_dense(b, &mut as_lab, &color)?;
        acc = b.dense_as(as_lab);
        copy_dense(b, &mut roots, &seen)?;
        b.ewise_op::<Back, Eq>(&mut roots, Mask::All, Combine::Intersection, &key_back)?;
        b.apply_bound::<Back, Plus>(&mut acc, b.keep(&roots), Bound::Second(1))?;
        // 3. Back along in-arcs from the remaining vertices (all but the roots send values
        // no vertex accepts): accepted where the value rises to c + 1.
        let mut front = b.select_range(&b.compact(&acc)?, 1, u32::MAX)?;
        while b.sparse_nnz(&front) > 0 {
            crate::cancel::check()?;
            steps += 1;
            front = b.relax(&mut acc, None, &front, &back_t, b.skip(&label))?;
        }
        // label<accepted> = c - 1, the accepted where acc > c.
        b.ewise_op::<Back, Gt>(&mut acc, Mask::All, Combine::Intersection, &seen)?;
        b.apply_bound::<Lab, Minus>(&mut color, Mask::All, Bound::Second(1))?;
        b.ewise(&mut label, b.keep(&acc), Ewise::Add, &color)?;
        assigned = b.nvals(&label)?;
    }
    Ok(StrongComponents {
        labels: b.read_dense_owned(label)?,
        phases,
        steps,
    })
}

/// Strongly connected components in the [registry](crate::registry): `semigraph scc`,
/// `semigraph.scc`, NetworkX's `strongly_connected_components`.
pub struct StrongComponentsAlgorithm;

impl crate::registry::Algorithm for StrongComponentsAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "scc",
            command: "scc",
            summary: "Strongly connected components (trimming and colouring): a label per \
                      vertex, the smallest vertex of its component",
            params: &[],
            returns: &["labels"],
            reads: Reads::Structure,
            accepts: Accepts::Directed,
            complexity: "O(phases (n + m))",
            method: "trim (plus-pair peeling), colour (min-second), back (max-min) on frontiers",
            steps: "steps",
            bench: &[],
            distributed: false,
            networkx: &[
                NetworkX {
                    function: "strongly_connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Groups,
                    simple: false,
                },
                NetworkX {
                    function: "number_strongly_connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Count,
                    simple: false,
                },
            ],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        _args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let c = scc(g.structure()?)?;
        let count = c.count();
        Ok(Output {
            facts: vec![Fact {
                name: "components",
                text: format!("{count} ({} phases, {} steps)", c.phases, c.steps),
                scalars: vec![
                    ("components", Scalar::Int(count as u64)),
                    ("phases", Scalar::Int(c.phases as u64)),
                ],
            }],
            steps: c.steps,
            columns: vec![Column {
                name: "labels",
                values: Values::Class(c.labels),
            }],
        })
    }
}
