//! Communities: label propagation (CDLP, the LDBC Graphalytics definition: neighbours'
//! labels counted by a product `S L`, `L` the label-assignment matrix, the most frequent
//! picked by a row arg-max), Louvain ([`louvain`]), Leiden ([`leiden`]) and the modularity of a partition
//! ([`modularity`]).

mod leiden;
mod louvain;
mod modularity;

pub use leiden::{LeidenAlgorithm, leiden};
pub use louvain::{Communities, LouvainAlgorithm, LouvainOptions, louvain};
pub use modularity::{Modularity, modularity};

use semigraph_semiring::ops::{First, Offdiag};
use semigraph_semiring::{MaxMin, PlusTimes};

use crate::backend::{Backend, Combine, Mask, MatrixMask, Parents};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Label counts (plus-times `u32`); their arg-max is taken through the max-min view, which
/// shares the zero.
type Count = PlusTimes<u32>;

/// Community detection by label propagation, by the LDBC Graphalytics definition: every
/// vertex starts with its own label (its index); each iteration, synchronously, each vertex
/// takes the most frequent label among its in- and out-neighbours (a neighbour linked both
/// ways counts twice; self-loops and parallel arcs ignored), ties going to the smallest label;
/// a vertex without neighbours keeps its label.
///
/// As linear algebra: `S = A + A^T` (pattern, plus: a two-way neighbour is a 2), and per
/// iteration `L` the label matrix (`L(v, label(v)) = 1`, [`index_matrix`]), `C = S L` (so
/// `C(v, l)` counts `v`'s neighbours labelled `l`), the new labels the row arg-max of `C`
/// ([`reduce_rows_arg`] through max-min, ties to the smallest column), kept where a row is
/// empty (an element-wise union that prefers the new label).
///
/// [`index_matrix`]: crate::Operators::index_matrix
/// [`reduce_rows_arg`]: crate::Operators::reduce_rows_arg
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `iterations`: how many rounds.
///
/// # Returns
/// Each vertex's label: the index of the vertex whose label it carries.
///
/// # Errors
/// Backend errors (memory refused up front for a product).
///
/// # Complexity
/// `O(m log d)` per iteration (one product with as many terms as arcs of `S`, sorted per
/// row), `O(n)` more.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, cdlp, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // Two triangles 0 1 2 and 3 4 5, joined by 2 - 3.
/// let e = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3)];
/// let arcs: Vec<_> = e.iter().flat_map(|&(u, v)| [(u, v, true), (v, u, true)]).collect();
/// let a = arcs_to_csr::<OrAnd>(6, &arcs)?;
/// let cpu = CpuBackend::new();
/// let labels = cdlp(&Graph::new(&cpu, &a, GraphOptions::default())?, 5)?;
/// assert_eq!(labels[0], labels[1]);
/// assert_eq!(labels[4], labels[5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn cdlp<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    iterations: usize,
) -> Result<Vec<u32>> {
    let ids: Vec<u32> = (0..g.n() as u32).collect();
    cdlp_from(g, &ids, iterations)
}

/// [`cdlp`] from the labels `initial` (each below `n`) instead of the vertex indices. Ties go
/// to the smallest label, so labels that rank the vertices as their ids do give LDBC's
/// answer whatever the vertices' order: with vertex ids that do not follow the indices (an
/// LDBC file's), start from each vertex's rank among the ids and map the result back.
///
/// # Errors
/// `InvalidArgument` if `initial` does not hold one label below `n` per vertex; as [`cdlp`].
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, cdlp_from, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A path 0 - 1 - 2 whose ends rank first: vertex 1 sees labels 1 and 0, a tie to 0.
/// let arcs = [(0, 1, true), (1, 0, true), (1, 2, true), (2, 1, true)];
/// let a = arcs_to_csr::<OrAnd>(3, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// assert_eq!(cdlp_from(&g, &[1, 2, 0], 1)?, vec![2, 0, 2]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn cdlp_from<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    initial: &[u32],
    iterations: usize,
) -> Result<Vec<u32>> {
    let n = g.n();
    let b = g.backend();
    check_labels(initial, n, "initial labels")?;
    let mut labels = b.dense::<Parents>(n, 1, initial)?;
    if n == 0 || iterations == 0 {
        return b.read_dense_owned(labels);
    }
    let s = b.select::<Count, Offdiag>(&g.pattern::<Count>()?.symmetric()?, 0)?;
    for _ in 0..iterations {
        crate::cancel::check()?;
        let l = b.index_matrix::<Count, Parents>(&labels, n)?;
        let c = b.spgemm(MatrixMask::All, &s, &l)?;
        let mut next = b.reduce_rows_arg(&b.view::<Count, MaxMin<u32>>(&c)?)?;
        b.ewise_op::<Parents, First>(&mut next, Mask::All, Combine::Union, &labels)?;
        labels = next;
    }
    b.read_dense_owned(labels)
}

/// Label propagation in the [registry](crate::registry): `semigraph cdlp`.
pub struct LabelPropagation;

impl crate::registry::Algorithm for LabelPropagation {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, Param, Reads};
        Info {
            name: "cdlp",
            command: "cdlp",
            summary: "Community detection by label propagation (LDBC Graphalytics definition): \
                      a community label per vertex, ties to the smallest vertex id",
            params: &[Param::with_default(
                "iterations",
                Kind::Count,
                "10",
                "iterations",
            )],
            returns: &["labels"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(iterations m log d)",
            method: "label counts by sorted products",
            steps: "iterations",
            bench: &[],
            distributed: false,
            networkx: &[],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let iterations = args.count("iterations").unwrap_or(10);
        // Ties go to the smallest label: where the ids do not follow the indices (an LDBC
        // file's), labels start as the vertices' ranks among the ids, mapped back after.
        let n = g.n();
        let labels = if (1..n).all(|v| g.id(v - 1) < g.id(v)) {
            cdlp(g.structure()?, iterations)?
        } else {
            let mut by_id: Vec<u32> = (0..n as u32).collect();
            by_id.sort_by_key(|&v| g.id(v as usize));
            let mut rank = vec![0u32; n];
            for (r, &v) in by_id.iter().enumerate() {
                rank[v as usize] = r as u32;
            }
            let l = cdlp_from(g.structure()?, &rank, iterations)?;
            l.iter().map(|&l| by_id[l as usize]).collect()
        };
        Ok(Output {
            facts: vec![Fact::scalar("iterations", Scalar::Int(iterations as u64))],
            steps: iterations,
            columns: vec![Column {
                name: "labels",
                values: Values::Vertex(labels),
            }],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        crate::memory::kernel_host_bytes(kind, crate::memory::Kernel::Cdlp, n, nnz, threads)
    }
}

/// `InvalidArgument` (naming `what`) unless `labels` holds one label below `n` per vertex.
pub(crate) fn check_labels(labels: &[u32], n: usize, what: &str) -> Result<()> {
    if labels.len() != n {
        return Err(Error::InvalidArgument(format!(
            "{} {what} for {n} vertices",
            labels.len()
        )));
    }
    if let Some(l) = labels.iter().find(|&&l| l as usize >= n) {
        return Err(Error::InvalidArgument(format!(
            "{what}: {l} is not below the {n} vertices"
        )));
    }
    Ok(())
}
