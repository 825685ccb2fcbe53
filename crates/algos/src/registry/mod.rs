//! The algorithm registry: one declaration per algorithm, read by every surface.
//!
//! An algorithm is a type implementing [`Algorithm`], written in its own file beside the
//! algebra it runs: its [`Info`] (name, arguments, result, the graphs it reads, its names in
//! NetworkX) and a `run` over the graph's [`Views`]. Listing the type once in
//! [`crate::algorithms`] gives it:
//!
//! - the command line's subcommand (`semigraph NAME FILE --arg ...`, text, JSON, `-o`) and its
//!   `semigraph bench NAME` row, checked against the CPU backend;
//! - the Python function `semigraph.NAME(A, ...)` and the method `Graph.NAME(...)`;
//! - a NetworkX dispatch entry for each of its [`Info::networkx`] names;
//! - its row in the algorithm reference (`docs/ALGORITHMS.md`, checked by a test).
//!
//! Surfaces find algorithms by name with [`visit`](crate::algorithms::visit) (or list them
//! with [`infos`](crate::algorithms::infos)), and run one with a [`Visit`]or, which is handed
//! the algorithm's type.
//!
//! ```
//! use semigraph_algos::algorithms;
//! use semigraph_algos::registry::{Algorithm, Visit};
//!
//! struct Name;
//! impl Visit for Name {
//!     type Out = &'static str;
//!     fn visit<A: Algorithm>(self) -> &'static str {
//!         A::INFO.summary
//!     }
//! }
//! assert!(algorithms::visit("pagerank", Name).unwrap().starts_with("PageRank"));
//! assert!(algorithms::infos().iter().any(|i| i.name == "wcc"));
//! ```

mod values;
mod views;

pub use values::{Args, Column, Fact, Kind, NONE, Output, Param, Scalar, Value, Values};
pub use views::{Base, GraphViews};

use semigraph_semiring::{MaxMin, MinPlus, OrAnd};

use crate::backend::{BackendKind, Frontier, Parents};
use crate::error::Result;
use crate::graph::Graph;

/// Which matrix of the graph an algorithm reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// The structure: every stored entry an arc, the weights not read.
    Structure,
    /// The weights as distances (min-plus `f64`).
    Distances,
    /// The weights as capacities (max-min `f64`).
    Capacities,
    /// The structure, or the weights as distances where the flag named here is set
    /// (betweenness's `weighted`).
    StructureOrDistances(&'static str),
}

impl Reads {
    /// What a call reads, given whether a flag is set (`flag(name)`): a
    /// [`Reads::StructureOrDistances`] resolved, the others as they are.
    pub fn resolved(self, flag: impl Fn(&str) -> bool) -> Reads {
        match self {
            Reads::StructureOrDistances(f) if flag(f) => Reads::Distances,
            Reads::StructureOrDistances(_) => Reads::Structure,
            r => r,
        }
    }

    /// What a call with `args` reads ([`Reads::resolved`] by its flags).
    pub fn of(self, args: &Args) -> Reads {
        self.resolved(|f| args.flag(f) == Some(true))
    }
}

/// Which graphs an algorithm answers for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// Directed and undirected graphs (an undirected edge is two arcs).
    Any,
    /// Undirected graphs: the arcs are read in both directions.
    Undirected,
    /// Directed graphs: NetworkX refuses undirected ones (an undirected graph is read here as
    /// its two arcs per edge).
    Directed,
}

/// A name the algorithm answers to in NetworkX, and how its arguments map.
#[derive(Clone, Copy, Debug)]
pub struct NetworkX {
    /// The NetworkX function.
    pub function: &'static str,
    /// `(networkx argument, registry argument)` pairs: the NetworkX arguments passed on.
    /// `is_directed()` stands for the graph's kind (`G.is_directed()`); a registry name `""`
    /// accepts the NetworkX argument without passing it on (one that changes nothing
    /// semigraph runs). Any other NetworkX argument given a value other than its default is
    /// declined.
    pub args: &'static [(&'static str, &'static str)],
    /// The column returned, in the [`Shape`] NetworkX returns.
    pub column: &'static str,
    /// How NetworkX returns the column.
    pub shape: Shape,
    /// Whether NetworkX refuses a graph with a self loop for it (a call on one is declined,
    /// and NetworkX raises its own error).
    pub simple: bool,
}

/// How a NetworkX function returns a registry column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `{node: value}`.
    Values,
    /// The nodes of each class (a generator of sets; a [`Values::Class`] column).
    Groups,
    /// The number of classes (of a [`Values::Class`] column).
    Count,
    /// The nodes in order (a generator; a [`Values::Sequence`] column).
    Sequence,
    /// A pair `({node: value}, {node: value})`: the column and the one named here.
    Pair(&'static str),
    /// The graph of the edges of a [`Values::Arcs`] column (NetworkX's subgraph functions:
    /// a new graph of the input's kind, without isolated nodes).
    Subgraph,
    /// A generator of `(u, v, value)`: the pairs of the [`Values::Arcs`] column named here
    /// with the column's value (NetworkX's link predictions).
    Triples(&'static str),
    /// `{(u, v): value}`: the column keyed by the pairs of the [`Values::Arcs`] column named
    /// here (NetworkX's edge values).
    ByEdge(&'static str),
    /// The nodes whose value is true, in a list (a [`Values::Flag`] column: NetworkX's
    /// independent sets).
    Members,
    /// A set of `(u, v)` tuples (a [`Values::Arcs`] column: NetworkX's matchings).
    Edges,
    /// The result's scalar named as the column (NetworkX's modularity).
    Scalar,
}

/// What the registry knows of an algorithm: everything the surfaces write about it.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// Its name: the command, the Python function, the key of [`visit`](crate::algorithms::visit).
    pub name: &'static str,
    /// Its command on the command line (`semigraph COMMAND FILE ...`).
    pub command: &'static str,
    /// One line: what it computes (starting with the algorithm's name).
    pub summary: &'static str,
    /// Its arguments, in order.
    pub params: &'static [Param],
    /// The names of its result's columns and scalars, in the order Python returns them.
    pub returns: &'static [&'static str],
    /// The matrix it reads.
    pub reads: Reads,
    /// The graphs it answers for.
    pub accepts: Accepts,
    /// Its work, as the reference quotes it.
    pub complexity: &'static str,
    /// What the benchmark's row calls the method.
    pub method: &'static str,
    /// What its steps are called in the benchmark's table (`iterations`, `rounds`, ...).
    pub steps: &'static str,
    /// Arguments the benchmark row passes unless given (`("count", "total")`: the
    /// benchmark times the total alone).
    pub bench: &'static [(&'static str, &'static str)],
    /// Whether a form over several GPUs exists (`--gpus N`).
    pub distributed: bool,
    /// Its names in NetworkX.
    pub networkx: &'static [NetworkX],
}

/// The graph an algorithm runs on, in the forms it may ask for; each surface implements it
/// over what it holds, building a form on first use.
pub trait Views<'b, B: Frontier + 'b> {
    /// The number of vertices.
    fn n(&self) -> usize;
    /// The structure, `A` and `A^T` (every stored entry an arc).
    fn structure(&self) -> Result<&Graph<'b, B, OrAnd>>;
    /// The structure in BFS's semiring ([`BfsSemiring`](crate::BfsSemiring)).
    fn levels(&self) -> Result<&Graph<'b, B, Parents>>;
    /// The weights as distances.
    fn distances(&self) -> Result<&Graph<'b, B, MinPlus<f64>>>;
    /// The weights as capacities.
    fn capacities(&self) -> Result<&Graph<'b, B, MaxMin<f64>>>;
    /// Vertex `v`'s id in the input (ties that LDBC breaks by id): its index by default.
    fn id(&self, v: usize) -> i64 {
        v as i64
    }
}

/// One algorithm, declared once: its [`Info`] and its run.
pub trait Algorithm {
    /// What the surfaces write about it.
    const INFO: Info;

    /// Runs it on `g` with `args` (checked against [`Info::params`]).
    ///
    /// # Errors
    /// The algorithm's own (invalid arguments, negative cycles) and the backend's.
    fn run<'b, B: Frontier + 'b>(g: &impl Views<'b, B>, args: &Args) -> Result<Output>;

    /// Host bytes a run holds at its peak on a graph of `n` vertices and `nnz` arcs already
    /// built, on a backend of `kind` with `threads` workers: a traversal's vectors by default.
    fn host_bytes(kind: BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        let _ = (nnz, threads);
        crate::memory::traversal_host_bytes(kind, n, 8)
    }
}

/// What a surface does with an algorithm's type, once [`visit`](crate::algorithms::visit) found it by name.
pub trait Visit {
    /// What the visit gives.
    type Out;
    /// Called with the algorithm.
    fn visit<A: Algorithm>(self) -> Self::Out;
}
