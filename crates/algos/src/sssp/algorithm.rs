//! Single-source shortest paths' entry in the [registry](crate::registry).

use super::{DeltaGraph, SsspMethod, bellman_ford, delta_stepping, fixpoint_paths, sssp_choice_of};
use crate::backend::Frontier;
use crate::error::Result;

/// Shortest paths from `source` by `method` (`None`: [`sssp_choice_of`] the graph): the
/// registry's runs, of `sssp` and of `path`.
pub(crate) fn solve<B: Frontier>(
    g: &crate::graph::Graph<'_, B, semigraph_semiring::MinPlus<f64>>,
    source: usize,
    method: Option<SsspMethod>,
) -> Result<super::ShortestPaths<f64>> {
    match method.unwrap_or_else(|| sssp_choice_of(g)) {
        SsspMethod::DeltaStepping => {
            DeltaGraph::from_graph(g.view()?, None).and_then(|d| delta_stepping(&d, source))
        }
        SsspMethod::Fixpoint => fixpoint_paths(g, source, None),
        _ => bellman_ford(g, source),
    }
}

/// Shortest paths in the [registry](crate::registry): `semigraph.sssp`, `Graph.sssp`.
pub struct ShortestPathsAlgorithm;

impl crate::registry::Algorithm for ShortestPathsAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "sssp",
            command: "sssp",
            summary: "Single-source shortest paths: the distance of every vertex (inf where \
                      unreachable) and its predecessor on a shortest path",
            params: &[
                Param::required("source", Kind::Vertex, "the source vertex"),
                Param::with_default(
                    "algorithm",
                    Kind::Choice(&["auto", "bellman-ford", "delta-stepping", "fixpoint"]),
                    "auto",
                    "auto picks Bellman-Ford for a negative weight, the fixpoint for short rows \
                     of positive weights, else delta-stepping on the CPU and Bellman-Ford on a GPU",
                ),
            ],
            returns: &["distances", "predecessors"],
            reads: Reads::Distances,
            accepts: Accepts::Any,
            complexity: "O(n m) worst case (Bellman-Ford); delta-stepping's buckets otherwise",
            method: "relaxation in min-plus f64",
            steps: "runs",
            bench: &[],
            distributed: true,
            networkx: &[
                NetworkX {
                    function: "single_source_dijkstra_path_length",
                    args: &[("source", "source")],
                    column: "distances",
                    shape: Shape::Values,
                    simple: false,
                },
                NetworkX {
                    function: "single_source_bellman_ford_path_length",
                    args: &[("source", "source")],
                    column: "distances",
                    shape: Shape::Values,
                    simple: false,
                },
            ],
        }
    };

    fn run<'b, B: Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Output, Values};
        let source = args.vertex("source");
        let method = match args.word("algorithm") {
            "bellman-ford" => Some(SsspMethod::BellmanFord),
            "delta-stepping" => Some(SsspMethod::DeltaStepping),
            "fixpoint" => Some(SsspMethod::Fixpoint),
            _ => None,
        };
        let sp = solve(g.distances()?, source, method)?;
        Ok(Output {
            facts: vec![],
            steps: 1,
            columns: vec![
                Column {
                    name: "distances",
                    values: Values::Real(sp.dist),
                },
                Column {
                    name: "predecessors",
                    values: Values::Witness(sp.pred),
                },
            ],
        })
    }
}
