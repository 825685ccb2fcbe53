//! BFS's entry in the [registry](crate::registry).

use super::{BfsOptions, NO_PARENT, bfs};
use crate::backend::Frontier;
use crate::error::Result;

/// BFS in the [registry](crate::registry): `semigraph.bfs`, `Graph.bfs`.
pub struct BfsAlgorithm;

impl crate::registry::Algorithm for BfsAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "bfs",
            command: "bfs",
            summary: "Breadth-first search from a source: the level of every vertex and its \
                      parent (the smallest-id vertex one level closer; none for the source)",
            params: &[Param::required("source", Kind::Vertex, "the source vertex")],
            returns: &["levels", "parents"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(n + m), push or pull per level by the frontier's size",
            method: "direction-optimising SpMSpV / masked SpMV",
            steps: "levels",
            bench: &[],
            distributed: true,
            networkx: &[NetworkX {
                function: "single_source_shortest_path_length",
                args: &[("source", "source")],
                column: "levels",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let source = args.vertex("source");
        let mut r = bfs(g.levels()?, source, &BfsOptions::default())?;
        r.parents[source] = NO_PARENT;
        Ok(Output {
            facts: vec![Fact {
                name: "reached",
                text: format!("{} of {} vertices, depth {}", r.reached, g.n(), r.depth),
                scalars: vec![
                    ("vertices", Scalar::Int(r.reached as u64)),
                    ("of", Scalar::Int(g.n() as u64)),
                    ("depth", Scalar::Int(r.depth as u64)),
                ],
            }],
            steps: r.depth as usize + 1,
            columns: vec![
                Column {
                    name: "levels",
                    values: Values::Level(r.levels),
                },
                Column {
                    name: "parents",
                    values: Values::Vertex(r.parents),
                },
            ],
        })
    }

    fn host_bytes(
        kind: crate::backend::BackendKind,
        n: usize,
        _nnz: usize,
        _threads: usize,
    ) -> u64 {
        crate::memory::traversal_host_bytes(kind, n, 4)
    }
}
