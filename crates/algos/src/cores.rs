//! Core numbers (the `k`-core decomposition) by peeling (Batagelj and Zaversnik's definition,
//! as LAGraph's `LAGraph_KCore_All` computes it with masked products): a vertex's core number
//! is the largest `k` such that it lies in a subgraph where every vertex has degree `>= k`.

use crate::backend::Backend;
use semigraph_semiring::ops::Offdiag;

use crate::error::Result;
use crate::graph::Graph;
use crate::peel::{Levels, PlusPair, peel};

/// What [`core_numbers`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cores {
    /// The core number of each vertex.
    pub cores: Vec<i64>,
    /// The largest core number (the graph's degeneracy); 0 for a graph without arcs.
    pub degeneracy: u32,
    /// The peeling rounds run.
    pub rounds: usize,
    /// The self loops ignored.
    pub self_loops: usize,
}

/// Core numbers (NetworkX's `core_number`): peel every vertex of degree `<= k`, lowering its
/// neighbours' degrees, until none is left at `k`; the vertices peeled at `k` have core number
/// `k`; then `k` rises to the smallest remaining degree. A directed graph's degree is its in-
/// plus out-degree and both neighbours lose a degree per arc (NetworkX's rule for `DiGraph`),
/// an undirected graph's (`directed = false`: each edge stored as two arcs) its number of
/// edges. A self loop makes no vertex its own neighbour: it is ignored (NetworkX refuses
/// such graphs; its dispatch declines them).
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `directed`: as above.
///
/// # Returns
/// The core numbers, the degeneracy, the rounds run and the self loops ignored.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// `O(n + m)` work for the rounds (each reads the arcs of the vertices it removes) plus `O(n)`
/// per distinct core number; one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::cores::core_numbers;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A triangle 0-1-2 with a pendant vertex 3 on 2, edges stored both ways.
/// let mut arcs = vec![];
/// for (u, v) in [(0, 1), (1, 2), (0, 2), (2, 3)] {
///     arcs.extend([(u, v, true), (v, u, true)]);
/// }
/// let a = arcs_to_csr::<OrAnd>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = core_numbers(&Graph::new(&cpu, &a, GraphOptions::default())?, false)?;
/// assert_eq!(c.cores, vec![2, 2, 2, 1]);
/// assert_eq!(c.degeneracy, 2);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn core_numbers<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    directed: bool,
) -> Result<Cores> {
    let b = g.backend();
    let p = g.pattern::<PlusPair>()?;
    // Self loops are no neighbours: A without its diagonal.
    let loops = b.nvals(&b.diagonal(p.push())?)?;
    let a = match loops {
        0 => None,
        _ => Some(b.select::<PlusPair, Offdiag>(p.push(), 0)?),
    };
    // A^T: the graph's pull matrix where no loop was dropped.
    let (pulled, made) = match (directed, &a) {
        (false, _) => (None, None),
        (true, None) => (Some(p.transposed()?), None),
        (true, Some(a)) => (None, Some(b.transpose_matrix(a)?)),
    };
    let a = a.as_ref().unwrap_or(p.push());
    let at = made.as_ref().or(pulled.as_deref());
    let mut degree = b.reduce_rows(a)?;
    let mut along = vec![a];
    if let Some(at) = at {
        b.ewise(
            &mut degree,
            crate::backend::Mask::All,
            crate::backend::Ewise::Add,
            &b.reduce_rows(at)?,
        )?;
        along.push(at);
    }
    let peeled = peel(b, &degree, &along, Levels::Rising, None)?;
    let cores = b.read_dense_owned(peeled.level)?;
    Ok(Cores {
        cores,
        degeneracy: peeled.top as u32,
        rounds: peeled.rounds,
        self_loops: loops,
    })
}

/// Core numbers in the [registry](crate::registry): `semigraph kcore`, `semigraph.kcore`,
/// NetworkX's `core_number`.
pub struct CoreNumbers;

impl crate::registry::Algorithm for CoreNumbers {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "kcore",
            command: "kcore",
            summary: "Core numbers (k-core decomposition by peeling), one per vertex: the \
                      largest k with the vertex in a subgraph of minimum degree k",
            params: &[Param::optional(
                "directed",
                Kind::Flag,
                "true: a degree is in- plus out-degree; false: each edge is stored as two arcs \
                 (default: undirected exactly when every arc has its reverse)",
            )],
            returns: &["cores"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(n (distinct cores) + m)",
            method: "peeling: SpMSpV in plus-pair i64 per round",
            steps: "rounds",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "core_number",
                args: &[("is_directed()", "directed")],
                column: "cores",
                shape: Shape::Values,
                simple: true,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let s = g.structure()?;
        let directed = s.reads_directed(args.flag("directed"))?;
        let c = core_numbers(s, directed)?;
        Ok(Output {
            facts: vec![
                Fact::with_rounds("degeneracy", c.degeneracy as u64, c.rounds),
                Fact::scalar("self loops ignored", Scalar::Int(c.self_loops as u64)),
            ],
            steps: c.rounds,
            columns: vec![Column {
                name: "cores",
                values: Values::Int(c.cores),
            }],
        })
    }
}
