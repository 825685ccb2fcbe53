//! One shortest path as its vertices: the tree of a BFS (fewest arcs) or of shortest paths
//! (least weight) from the source, followed back from the target.

use super::algorithm::solve;
use crate::backend::Frontier;
use crate::bfs::{BfsOptions, BfsSemiring, bfs};
use crate::error::{Error, Result, check_vertex};
use crate::graph::Graph;

/// What [`fewest_arcs_path`] and [`shortest_path`] return.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// The vertices from the source to the target (the source alone when they are the same).
    pub vertices: Vec<u32>,
    /// Its length: arcs, or the sum of their weights.
    pub length: f64,
}

/// The path of `source` alone when it is the target (no search, as NetworkX's); the
/// vertices checked.
fn trivial(n: usize, source: usize, target: usize) -> Result<Option<Path>> {
    check_vertex(source, n)?;
    check_vertex(target, n)?;
    Ok((source == target).then(|| Path {
        vertices: vec![source as u32],
        length: 0.0,
    }))
}

/// The path to `target` along the tree `parent`, or [`Error::NoPath`].
fn along(parent: &[u32], source: usize, target: usize, length: Option<f64>) -> Result<Path> {
    let no_path = || Error::NoPath {
        from: source,
        to: target,
    };
    let length = length.ok_or_else(no_path)?;
    let vertices = crate::paths::path_back(parent, source, target).ok_or_else(no_path)?;
    Ok(Path { vertices, length })
}

/// A path of fewest arcs from `source` to `target` (NetworkX's `shortest_path` with
/// `weight=None`): the BFS tree's (each vertex's parent the smallest vertex one level
/// closer), followed back from the target.
///
/// # Arguments
/// - `g`: the graph; `source`, `target`: vertices.
///
/// # Returns
/// The path's vertices and its arcs.
///
/// # Errors
/// [`Error::NoPath`] when the target is not reached; `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// A BFS from the source: `O(n + m)`.
///
/// # Example
/// ```
/// use semigraph_algos::sssp::fewest_arcs_path;
/// use semigraph_algos::{arcs_to_csr, BfsSemiring, CpuBackend, Error, Graph, GraphOptions};
///
/// // 0 -> 1 -> 2 -> 3 and a shortcut 0 -> 2.
/// let arcs = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (0, 2, 1)];
/// let a = arcs_to_csr::<BfsSemiring>(4, &arcs)?;
/// let cpu = CpuBackend::new();
/// let g = Graph::new(&cpu, &a, GraphOptions::default())?;
/// assert_eq!(fewest_arcs_path(&g, 0, 3)?.vertices, vec![0, 2, 3]);
/// assert!(matches!(fewest_arcs_path(&g, 3, 0), Err(Error::NoPath { .. })));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn fewest_arcs_path<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    source: usize,
    target: usize,
) -> Result<Path> {
    if let Some(p) = trivial(g.n(), source, target)? {
        return Ok(p);
    }
    let r = bfs(g, source, &BfsOptions::default())?;
    let hops = r.level(target).map(f64::from);
    along(&r.parents, source, target, hops)
}

/// A path of least weight from `source` to `target` (NetworkX's `shortest_path` with a
/// weight, `bellman_ford_path`): the shortest-path tree's ([`super::sssp_choice_of`] picks
/// the method; negative weights run Bellman-Ford), followed back from the target.
///
/// # Arguments
/// - `g`: the graph, weights as distances; `source`, `target`: vertices.
///
/// # Returns
/// The path's vertices and its weight.
///
/// # Errors
/// [`Error::NoPath`] when the target is not reached; [`Error::NegativeCycle`] (one reachable
/// from the source; a source that is the target is its own path, without a search);
/// `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// Single-source shortest paths from the source ([`super::bellman_ford`],
/// [`super::delta_stepping`] or [`super::fixpoint_paths`]).
///
/// # Example
/// ```
/// use semigraph_algos::sssp::shortest_path;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // 0 -> 1 -> 2 weighs 2, the shortcut 0 -> 2 weighs 5.
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &[(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0)])?;
/// let cpu = CpuBackend::new();
/// let p = shortest_path(&Graph::new(&cpu, &a, GraphOptions::default())?, 0, 2)?;
/// assert_eq!((p.vertices, p.length), (vec![0, 1, 2], 2.0));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn shortest_path<B: Frontier>(
    g: &Graph<'_, B, semigraph_semiring::MinPlus<f64>>,
    source: usize,
    target: usize,
) -> Result<Path> {
    if let Some(p) = trivial(g.n(), source, target)? {
        return Ok(p);
    }
    let sp = solve(g, source, None)?;
    along(&sp.pred, source, target, sp.distance(target))
}

/// What [`fewest_arcs_tree`] and [`shortest_path_tree`] return: every vertex's path from
/// the source, as the tree of their last arcs.
#[derive(Clone, Debug, PartialEq)]
pub struct PathTree {
    /// The source.
    pub source: usize,
    /// Each vertex's parent on its path (the vertex before it); [`crate::NO_PARENT`] for the
    /// source and where not reached.
    pub parent: Vec<u32>,
    /// Each vertex's path length (arcs, or the sum of their weights); infinite where not
    /// reached.
    pub length: Vec<f64>,
}

impl PathTree {
    /// The vertices reached (the source included).
    pub fn reached(&self) -> usize {
        self.length.iter().filter(|l| l.is_finite()).count()
    }

    /// The path's vertices from the source to `v`; `None` where `v` is not reached.
    pub fn path_to(&self, v: usize) -> Option<Vec<u32>> {
        self.length.get(v)?.is_finite().then_some(())?;
        crate::paths::path_back(&self.parent, self.source, v)
    }
}

/// Every vertex's path of fewest arcs from `source` (NetworkX's `single_source_shortest_path`),
/// as a tree: each vertex's parent the smallest-id vertex one level closer.
///
/// # Arguments
/// - `g`: the graph; `source`: a vertex.
///
/// # Returns
/// Each vertex's parent and arcs from the source.
///
/// # Errors
/// `VertexOutOfRange`; backend errors.
///
/// # Complexity
/// A BFS from the source: `O(n + m)`.
///
/// # Example
/// ```
/// use semigraph_algos::sssp::fewest_arcs_tree;
/// use semigraph_algos::{arcs_to_csr, BfsSemiring, CpuBackend, Graph, GraphOptions};
///
/// // 0 -> 1 -> 2 -> 3 and a shortcut 0 -> 2; 4 is alone.
/// let arcs = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (0, 2, 1)];
/// let a = arcs_to_csr::<BfsSemiring>(5, &arcs)?;
/// let cpu = CpuBackend::new();
/// let t = fewest_arcs_tree(&Graph::new(&cpu, &a, GraphOptions::default())?, 0)?;
/// assert_eq!(t.path_to(3), Some(vec![0, 2, 3]));
/// assert_eq!((t.length[3], t.reached(), t.path_to(4)), (2.0, 4, None));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn fewest_arcs_tree<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    source: usize,
) -> Result<PathTree> {
    check_vertex(source, g.n())?;
    let r = bfs(g, source, &BfsOptions::default())?;
    let length = (0..g.n())
        .map(|v| r.level(v).map_or(f64::INFINITY, f64::from))
        .collect();
    let mut parent = r.parents;
    parent[source] = crate::NO_PARENT;
    Ok(PathTree {
        source,
        parent,
        length,
    })
}

/// Every vertex's path of least weight from `source` (NetworkX's
/// `single_source_dijkstra_path`, `single_source_bellman_ford_path`), as the shortest-path
/// tree ([`super::sssp_choice_of`] picks the method; negative weights run Bellman-Ford).
///
/// # Arguments
/// - `g`: the graph, weights as distances; `source`: a vertex.
///
/// # Returns
/// Each vertex's parent and distance from the source.
///
/// # Errors
/// [`Error::NegativeCycle`] (one reachable from the source); `VertexOutOfRange`; backend
/// errors.
///
/// # Complexity
/// Single-source shortest paths from the source.
///
/// # Example
/// ```
/// use semigraph_algos::sssp::shortest_path_tree;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::MinPlus;
///
/// // 0 -> 1 -> 2 weighs 2, the shortcut 0 -> 2 weighs 5.
/// let a = arcs_to_csr::<MinPlus<f64>>(3, &[(0, 1, 1.0), (1, 2, 1.0), (0, 2, 5.0)])?;
/// let cpu = CpuBackend::new();
/// let t = shortest_path_tree(&Graph::new(&cpu, &a, GraphOptions::default())?, 0)?;
/// assert_eq!((t.path_to(2), t.length[2]), (Some(vec![0, 1, 2]), 2.0));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn shortest_path_tree<B: Frontier>(
    g: &Graph<'_, B, semigraph_semiring::MinPlus<f64>>,
    source: usize,
) -> Result<PathTree> {
    check_vertex(source, g.n())?;
    let sp = solve(g, source, None)?;
    Ok(PathTree {
        source,
        parent: sp.pred,
        length: sp.dist,
    })
}

/// One shortest path in the [registry](crate::registry): `semigraph path`,
/// `semigraph.path`, NetworkX's `shortest_path` and `bellman_ford_path`.
pub struct ShortestPath;

impl crate::registry::Algorithm for ShortestPath {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "path",
            command: "path",
            summary: "One shortest path from a source to a target (least weight, or fewest \
                      arcs with unweighted): its vertices in order, one a line; with all, \
                      the tree of every vertex's path",
            params: &[
                Param::required("source", Kind::Vertex, "the first vertex"),
                Param::optional(
                    "target",
                    Kind::Vertex,
                    "the last vertex (required unless all)",
                ),
                Param::with_default(
                    "unweighted",
                    Kind::Flag,
                    "false",
                    "fewest arcs (BFS), the weights not read",
                ),
                Param::with_default(
                    "all",
                    Kind::Flag,
                    "false",
                    "the tree of every vertex's path, without a target: path is each \
                     vertex's parent, length its length (- and inf where not reached)",
                ),
            ],
            returns: &["path", "length"],
            reads: Reads::Distances,
            accepts: Accepts::Any,
            complexity: "single-source shortest paths (BFS: O(n + m))",
            method: "SSSP or BFS, then the tree followed back",
            steps: "searches",
            bench: &[("all", "true")],
            distributed: false,
            networkx: &[
                NetworkX {
                    function: "shortest_path",
                    args: &[
                        ("source", "source"),
                        ("target", "target"),
                        ("weight=None", "unweighted"),
                        // Either gives a shortest path.
                        ("method", ""),
                    ],
                    column: "path",
                    shape: Shape::Sequence,
                    simple: false,
                },
                NetworkX {
                    function: "dijkstra_path",
                    args: &[
                        ("source", "source"),
                        ("target", "target"),
                        ("weight=None", "unweighted"),
                    ],
                    column: "path",
                    shape: Shape::Sequence,
                    simple: false,
                },
                NetworkX {
                    function: "bellman_ford_path",
                    args: &[
                        ("source", "source"),
                        ("target", "target"),
                        ("weight=None", "unweighted"),
                    ],
                    column: "path",
                    shape: Shape::Sequence,
                    simple: false,
                },
            ],
        }
    };

    fn run<'b, B: Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let source = args.vertex("source");
        let unweighted = args.flag("unweighted").unwrap_or(false);
        let target = match (args.count("target"), args.flag("all").unwrap_or(false)) {
            (Some(t), false) => t,
            (None, true) => {
                let t = match unweighted {
                    true => fewest_arcs_tree(g.levels()?, source)?,
                    false => shortest_path_tree(g.distances()?, source)?,
                };
                return Ok(Output {
                    facts: vec![Fact::scalar("reached", Scalar::Int(t.reached() as u64))],
                    steps: 1,
                    columns: vec![
                        Column {
                            name: "path",
                            values: Values::Vertex(t.parent),
                        },
                        Column {
                            name: "length",
                            values: Values::Real(t.length),
                        },
                    ],
                });
            }
            (Some(_), true) => {
                return Err(Error::InvalidArgument(
                    "path: all gives the tree of every vertex's path, without a target".into(),
                ));
            }
            (None, false) => {
                return Err(Error::InvalidArgument(
                    "path needs a target (or all, for the tree of every vertex's path)".into(),
                ));
            }
        };
        let p = match unweighted {
            true => fewest_arcs_path(g.levels()?, source, target)?,
            false => shortest_path(g.distances()?, source, target)?,
        };
        Ok(Output {
            facts: vec![Fact::scalar("length", Scalar::Real(p.length))],
            steps: 1,
            columns: vec![Column {
                name: "path",
                values: Values::Sequence(p.vertices),
            }],
        })
    }
}
