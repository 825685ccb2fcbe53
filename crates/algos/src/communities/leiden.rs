//! Leiden's scheme (Traag, Waltman, van Eck 2019) over Louvain's moves: each level's
//! communities are refined before they are contracted, so that every community is
//! connected. The refinement here splits each community into its connected components
//! (`FastSV` on the arcs inside the communities, found by comparing the ends' communities
//! with two SDDMMs: `modularity::components`); the next level contracts the components and starts from the communities.

use super::louvain::{Communities, LouvainOptions, detect};
use super::modularity::Weight;
use crate::backend::Backend;
use crate::error::Result;
use crate::graph::Graph;

/// Communities of high modularity, each connected, by Leiden's scheme: Louvain's levels
/// ([`louvain`](super::louvain): synchronous local moves while the modularity rises), each
/// level's communities refined into their connected components before the components are
/// contracted into the next level's vertices, that level's moves starting from the
/// communities. Splitting a community into its components never lowers the modularity, and
/// the partition returned is the last level's refined one: every community is connected.
///
/// Leiden's own refinement merges vertices within each community at random from singletons
/// (well-connected subsets); this one keeps each community's components whole.
///
/// # Arguments
/// - `g`: the graph, its weights in plus-times `f64` (a structure's pattern for weights 1).
/// - `opts`: resolution, seed, levels, threshold ([`LouvainOptions`]).
///
/// # Returns
/// The communities (each labelled by its smallest vertex), their modularity, the levels and
/// iterations run.
///
/// # Errors
/// As [`louvain`](super::louvain).
///
/// # Complexity
/// As Louvain's, plus a `FastSV` (`O(m log n)`) per level.
///
/// # Example
/// ```
/// use semigraph_algos::communities::{leiden, LouvainOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::PlusTimes;
///
/// // Two triangles joined by one edge, and an edge of their own.
/// let e = [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (2, 3), (6, 7)];
/// let arcs: Vec<_> = e.iter().flat_map(|&(u, v)| [(u, v, 1.0), (v, u, 1.0)]).collect();
/// let a = arcs_to_csr::<PlusTimes<f64>>(8, &arcs)?;
/// let cpu = CpuBackend::new();
/// let c = leiden(&Graph::new(&cpu, &a, GraphOptions::default())?, &LouvainOptions::default())?;
/// assert_eq!(c.labels, vec![0, 0, 0, 3, 3, 3, 6, 6]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn leiden<B: Backend>(g: &Graph<'_, B, Weight>, opts: &LouvainOptions) -> Result<Communities> {
    detect(g, opts, true)
}

/// Leiden in the [registry](crate::registry): `semigraph leiden`.
pub struct LeidenAlgorithm;

impl crate::registry::Algorithm for LeidenAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "leiden",
            command: "leiden",
            summary: "Leiden communities (Louvain's levels, each level's communities refined \
                      into their connected components): a connected community per vertex, \
                      labelled by its smallest vertex, and the partition's modularity",
            params: super::louvain::PARAMS,
            returns: &["labels"],
            reads: Reads::StructureOrDistances("weighted"),
            accepts: Accepts::Undirected,
            complexity: "O(m log d) per iteration (a product A P), O(m log n) per level",
            method: "Louvain's moves, FastSV inside the communities per level",
            steps: "iterations",
            bench: &[],
            distributed: false,
            // NetworkX has no Leiden of its own: a backend answers it.
            networkx: &[NetworkX {
                function: "leiden_communities",
                args: &[
                    ("weight!=None", "weighted"),
                    ("resolution", "resolution"),
                    ("max_level", "max_levels"),
                    ("seed", "seed"),
                ],
                column: "labels",
                shape: Shape::Groups,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        super::louvain::run_with(g, args, leiden)
    }
}
