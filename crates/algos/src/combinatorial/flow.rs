//! Maximum flow by synchronous push-relabel (Goldberg and Tarjan's preflows, every active
//! vertex at once each round, as GPU push-relabel codes and `LAGr_MaxFlow` run it): the
//! residual capacities a matrix updated by element-wise sums with the pushes and their
//! transpose, heights by row arg-mins of an SDDMM, and global relabels by a relaxation from
//! the sink.

use semigraph_semiring::ops::{First, Ge, Gt, Min, Minus, Neg, Offdiag, Plus};
use semigraph_semiring::{MaxMin, MinPlus, PlusTimes};

use crate::backend::{
    Backend, Bound, Combine, Ewise, Frontier, Mask, NO_PARENT, Parents, RelaxStep, UnaryOp, cloned,
    fixpoint_by_steps,
};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Residual capacities and excesses (plus-times `f64`: a saturated arc is no entry).
type Cap = PlusTimes<f64>;
/// Heights and distances (min-plus `f64`: 0 is a height, `+inf` none).
type Height = MinPlus<f64>;

/// Rounds between global relabels (heights set to the residual distances to the sink).
const GLOBAL: usize = 8;

/// What [`maximum_flow`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    /// The maximum flow's value: the capacity of a minimum cut between the source and sink.
    pub value: f64,
    /// The push-relabel rounds run.
    pub rounds: usize,
}

/// The value of a maximum flow from `source` to `sink` (NetworkX's
/// `maximum_flow_value`), by push-relabel: the source's arcs saturated, then rounds in which
/// every active vertex (one with excess and a height below `n`) either pushes to its lowest
/// residual neighbour, if that lies below it, as much as the arc and its excess allow, or
/// (receiving nothing that round) rises above it. Heights start, and are reset every few
/// rounds, as the residual distances to the sink (a relaxation from the sink along the
/// residual arcs reversed); a vertex that cannot reach the sink drops its excess. When no
/// vertex is active, the sink's excess is the maximum flow.
///
/// Each arc is a capacity (an undirected edge two arcs); self loops are ignored; a capacity
/// must be finite and not negative.
///
/// # Arguments
/// - `g`: the graph, its weights the capacities (max-min `f64`, as widest paths read them).
/// - `source`, `sink`: distinct vertices.
///
/// # Returns
/// The flow's value and the rounds run.
///
/// # Errors
/// `InvalidArgument` for a vertex out of range, `source == sink`, or a capacity that is
/// negative or not finite; backend errors.
///
/// # Complexity
/// `O(n^2 m)` for push-relabel in the worst case; each round `O(n)` element-wise, the active
/// vertices' rows (extracted: an SDDMM of heights, a row arg-min, the pushed arcs' room) and
/// one pass over the residual arcs to update them; a relaxation from the sink every 8
/// rounds; the active vertices' list read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::combinatorial::maximum_flow;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MaxMin;
///
/// // Two paths from 0 to 3 (capacities 3 then 2, and 4 then 5) and an arc 1 -> 2 of 1.
/// let arcs = [(0, 1, 3.0), (1, 3, 2.0), (0, 2, 4.0), (2, 3, 5.0), (1, 2, 1.0)];
/// let a = arcs_to_csr::<MaxMin<f64>>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let f = maximum_flow(&Graph::new(&cpu, &a, GraphOptions::default())?, 0, 3)?;
/// assert_eq!(f.value, 7.0);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn maximum_flow<B: Frontier>(
    g: &Graph<'_, B, MaxMin<f64>>,
    source: usize,
    sink: usize,
) -> Result<Flow> {
    let (b, n) = (g.backend(), g.n());
    crate::error::check_vertex(source, n)?;
    crate::error::check_vertex(sink, n)?;
    if source == sink {
        return Err(Error::InvalidArgument(format!(
            "the source and the sink are both {source}"
        )));
    }
    if let Some(c) = g.csr().vals().iter().find(|c| !c.is_finite() || **c < 0.0) {
        return Err(Error::InvalidArgument(format!(
            "capacity {c}: capacities are finite and not negative"
        )));
    }
    let top = n as f64;
    let mut r = b.select::<Cap, Offdiag>(&b.view::<MaxMin<f64>, Cap>(g.push())?, 0.0)?;
    // The source's arcs saturated: its excess pushed to its neighbours.
    let out = g.csr().row(source);
    let mut e0 = vec![0.0; n];
    let mut arcs = Vec::new();
    for (&v, &c) in out.0.iter().zip(out.1) {
        if v as usize != source && c > 0.0 {
            e0[v as usize] += c;
            arcs.push((source as u32, v, c));
        }
    }
    let d0 = b.matrix(
        &crate::graph::arcs_to_csr::<Cap>(n, &arcs)?,
        semigraph_formats::Format::Csr,
        &Default::default(),
    )?;
    r = push_along(b, &r, &d0)?;
    let mut e = b.dense::<Cap>(n, 1, &e0)?;
    let mut h = b.dense_filled::<Height>(n, 1, 0.0)?;
    let ones = b.dense_filled::<Cap>(n, 1, 1.0)?;
    // 1 but at the source and the sink, which are never active.
    let mut inner = b.dense_filled::<Cap>(n, 1, 1.0)?;
    b.set(&mut inner, source, 0.0)?;
    b.set(&mut inner, sink, 0.0)?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        if rounds % GLOBAL == 0 {
            relabel_globally(b, &r, &mut h, sink)?;
            b.set(&mut h, source, top)?;
            // A vertex that cannot reach the sink keeps its excess out of the flow.
            let mut dead = cloned(b, &h)?;
            b.apply_bound::<Height, Ge>(&mut dead, Mask::All, Bound::Second(top))?;
            let dead = b.dense_as::<Height, Cap>(dead);
            b.apply(&mut e, b.keep(&dead), UnaryOp::Fill(0.0))?;
        }
        // The active vertices: excess, neither the source nor the sink; their list read
        // back, so that the round reads their rows only.
        let mut active = cloned(b, &e)?;
        b.apply(&mut active, b.skip(&inner), UnaryOp::Fill(0.0))?;
        let (rows, _) = b.read_sparse(&b.compact(&active)?)?;
        if rows.is_empty() {
            break;
        }
        rounds += 1;
        let k = rows.len();
        let at = b.dense::<Parents>(k, 1, &rows)?;
        let sub = b.extract_rows(&r, &rows)?;
        // Each active vertex's lowest residual neighbour: the heights at its residual arcs
        // (an SDDMM in min-plus, 0 + h(v)), then back at the vertex's position.
        let zeros = b.dense_filled::<Height>(k, 1, 0.0)?;
        let heights = b.sddmm(&b.view::<Cap, Height>(&sub)?, &zeros, &h)?;
        let mut pick = b.dense_filled::<Parents>(n, 1, NO_PARENT)?;
        b.scatter_op::<Parents, Min, Parents>(&mut pick, &at, &b.reduce_rows_arg(&heights)?)?;
        let mut low = b.dense_filled::<Height>(n, 1, f64::INFINITY)?;
        b.scatter_op::<Height, Min, Parents>(&mut low, &at, &b.reduce_rows(&heights)?)?;
        // Those above it push: 1 where h(u) > low(u), 0 elsewhere.
        let mut above = cloned(b, &h)?;
        b.ewise_op::<Height, Gt>(&mut above, Mask::All, Combine::Intersection, &low)?;
        b.apply(&mut above, b.skip(&low), UnaryOp::Fill(0.0))?;
        let pushes = b.dense_as::<Height, Cap>(above);
        let mut to = pick;
        b.apply(&mut to, b.skip(&pushes), UnaryOp::Fill(NO_PARENT))?;
        // delta(u) = min(e(u), r(u, to(u))), the room read from the active rows.
        let chosen = b.index_matrix::<Cap, Parents>(&b.gather(&to, &at)?, n)?;
        let room_k =
            b.reduce_rows(&b.ewise_matrix::<Cap, First>(&sub, &chosen, Combine::Intersection)?)?;
        let mut delta = b.dense_filled::<Cap>(n, 1, 0.0)?;
        b.scatter_op::<Cap, Plus, Parents>(&mut delta, &at, &room_k)?;
        b.ewise_op::<Cap, Min>(&mut delta, Mask::All, Combine::Intersection, &e)?;
        let pushed = b.index_matrix::<Cap, Parents>(&to, n)?;
        r = push_along(b, &r, &b.sddmm(&pushed, &delta, &ones)?)?;
        b.ewise_op::<Cap, Minus>(&mut e, Mask::All, Combine::Union, &delta)?;
        let mut received = b.dense_filled::<Cap>(n, 1, 0.0)?;
        b.scatter_op::<Cap, Plus, Parents>(&mut received, &to, &delta)?;
        b.ewise(&mut e, Mask::All, Ewise::Add, &received)?;
        // The others rise above their lowest residual neighbour, unless pushed to.
        let mut rise = active;
        b.apply(&mut rise, b.keep(&pushes), UnaryOp::Fill(0.0))?;
        b.apply(&mut rise, b.keep(&received), UnaryOp::Fill(0.0))?;
        let mut next = cloned(b, &low)?;
        b.apply(&mut next, Mask::All, UnaryOp::MulBy(1.0))?;
        b.apply(&mut h, b.keep(&rise), UnaryOp::Fill(f64::INFINITY))?;
        b.ewise(&mut h, b.keep(&rise), Ewise::Add, &next)?;
        // Risen to n or past (or with no residual arc): out.
        let mut dead = cloned(b, &h)?;
        b.apply_bound::<Height, Ge>(&mut dead, b.keep(&rise), Bound::Second(top))?;
        b.apply(&mut dead, b.skip(&rise), UnaryOp::Fill(0.0))?;
        let dead = b.dense_as::<Height, Cap>(dead);
        b.apply(&mut e, b.keep(&dead), UnaryOp::Fill(0.0))?;
    }
    let value = b.read_dense(&e)?[sink];
    Ok(Flow { value, rounds })
}

/// The residual capacities after pushing `d` (an entry per push, `d(u, v)` sent from `u` to
/// `v`, within `r`'s entries): `r - d + d^T`, a saturated arc dropped, a reverse arc made.
fn push_along<B: Backend>(b: &B, r: &B::Matrix<Cap>, d: &B::Matrix<Cap>) -> Result<B::Matrix<Cap>> {
    // d^T - d first (as small as the pushes), then one pass over r.
    let change = b.ewise_matrix::<Cap, Plus>(
        &b.transpose_matrix(d)?,
        &b.apply_matrix::<Cap, Neg>(d)?,
        Combine::Union,
    )?;
    b.ewise_matrix::<Cap, Plus>(r, &change, Combine::Union)
}

/// Heights to the residual distances to the sink (`+inf` where it cannot be reached): a
/// relaxation from the sink along the residual arcs reversed, each of length 1.
fn relabel_globally<B: Frontier>(
    b: &B,
    r: &B::Matrix<Cap>,
    h: &mut B::Dense<Height>,
    sink: usize,
) -> Result<()> {
    let n = b.dense_shape(h).0;
    let back = b.pattern::<Cap, Height>(&b.transpose_matrix(r)?)?;
    let back = b.apply_matrix_bound::<Height, Plus>(&back, Bound::Second(1.0))?;
    b.apply(h, Mask::All, UnaryOp::Fill(f64::INFINITY))?;
    b.set(h, sink, 0.0)?;
    let mut q = b.queue::<Height>(n)?;
    let mut spare = b.queue::<Height>(n)?;
    b.queue_set(&mut q, &[sink as u32], &[0.0], 0)?;
    fixpoint_by_steps(b, RelaxStep::new(h, &back), &mut q, &mut spare, usize::MAX)?;
    Ok(())
}

/// Maximum flows in the [registry](crate::registry): `semigraph maxflow -s S -t T`.
pub struct MaximumFlow;

impl crate::registry::Algorithm for MaximumFlow {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "maxflow",
            command: "maxflow",
            summary: "Maximum flow value from a source to a sink (push-relabel), the weights \
                      as capacities",
            params: &[
                Param::required("source", Kind::Vertex, "the flow's source"),
                Param::required("target", Kind::Vertex, "the flow's sink"),
            ],
            returns: &["flow"],
            reads: Reads::Capacities,
            accepts: Accepts::Any,
            complexity: "O(n^2 m) (push-relabel), in rounds of O(n + m)",
            method: "synchronous push-relabel: SDDMM of heights, row arg-min, residual updates",
            steps: "rounds",
            bench: &[],
            distributed: false,
            // The capacity attribute is the one NetworkX converts the graph with; another
            // flow function, or its keyword arguments, decline.
            networkx: &[NetworkX {
                function: "maximum_flow_value",
                args: &[("_s", "source"), ("_t", "target"), ("capacity", "")],
                column: "flow",
                shape: Shape::Scalar,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Fact, Output, Scalar};
        let f = maximum_flow(
            g.capacities()?,
            args.vertex("source"),
            args.vertex("target"),
        )?;
        Ok(Output {
            facts: vec![
                Fact::scalar("flow", Scalar::Real(f.value)),
                Fact::scalar("rounds", Scalar::Int(f.rounds as u64)),
            ],
            steps: f.rounds,
            columns: vec![],
        })
    }
}
