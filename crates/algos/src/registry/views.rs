//! [`GraphViews`]: the [`Views`] of one graph built in one semiring, the other forms derived
//! from it on first use (what the command line and the tests hand an algorithm).

use std::sync::OnceLock;

use semigraph_semiring::{MaxMin, MinPlus, OrAnd};

use super::Views;
use crate::backend::{Frontier, Parents};

use crate::error::{Error, Result};
use crate::graph::Graph;

/// The graph a [`GraphViews`] was built from.
pub enum Base<'b, B: Frontier> {
    /// The structure.
    Structure(Graph<'b, B, OrAnd>),
    /// The weights as distances.
    Distances(Graph<'b, B, MinPlus<f64>>),
    /// The weights as capacities.
    Capacities(Graph<'b, B, MaxMin<f64>>),
}

/// One graph's [`Views`]: its [`Base`], the structure and BFS's pattern derived from it on
/// first use (one value array each, the index arrays shared), and the vertices' ids.
///
/// ```
/// use semigraph_algos::registry::{self, Args, GraphViews, Base, Algorithm};
/// use semigraph_algos::algorithms;
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (2, 1, true)])?;
/// let cpu = CpuBackend::new();
/// let g = GraphViews::new(Base::Structure(Graph::new(&cpu, &a, GraphOptions::default())?));
/// let info = algorithms::info("wcc").unwrap();
/// let args = Args::parse(info.params, 3, |_| None)?;
/// let out = semigraph_algos::components::WeakComponents::run(&g, &args)?;
/// assert_eq!(out.column("labels"), Some(&registry::Values::Class(vec![0, 0, 0])));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct GraphViews<'b, B: Frontier> {
    base: Base<'b, B>,
    structure: OnceLock<Graph<'b, B, OrAnd>>,
    levels: OnceLock<Graph<'b, B, Parents>>,
    ids: Option<Box<dyn Fn(usize) -> i64 + 'b>>,
}

impl<'b, B: Frontier + 'b> GraphViews<'b, B> {
    /// The views of `base`, vertex ids their indices.
    pub fn new(base: Base<'b, B>) -> Self {
        GraphViews {
            base,
            structure: OnceLock::new(),
            levels: OnceLock::new(),
            ids: None,
        }
    }

    /// With vertex `v`'s id `ids(v)` (an input file's numbering).
    pub fn with_ids(mut self, ids: impl Fn(usize) -> i64 + 'b) -> Self {
        self.ids = Some(Box::new(ids));
        self
    }

    /// The graph it was built from.
    pub fn base(&self) -> &Base<'b, B> {
        &self.base
    }

    /// The base graph's arcs in `P`, kept in `cell`.
    fn kept<'s, P: semigraph_semiring::Semiring>(
        &'s self,
        cell: &'s OnceLock<Graph<'b, B, P>>,
    ) -> Result<&'s Graph<'b, B, P>> {
        if let Some(g) = cell.get() {
            return Ok(g);
        }
        let g = match &self.base {
            Base::Structure(g) => g.pattern::<P>()?,
            Base::Distances(g) => g.pattern::<P>()?,
            Base::Capacities(g) => g.pattern::<P>()?,
        };
        Ok(cell.get_or_init(|| g))
    }
}

fn no_weights() -> Error {
    Error::InvalidArgument("the algorithm reads weights; this graph holds its structure".into())
}

impl<'b, B: Frontier + 'b> Views<'b, B> for GraphViews<'b, B> {
    fn n(&self) -> usize {
        match &self.base {
            Base::Structure(g) => g.n(),
            Base::Distances(g) => g.n(),
            Base::Capacities(g) => g.n(),
        }
    }

    fn structure(&self) -> Result<&Graph<'b, B, OrAnd>> {
        match &self.base {
            Base::Structure(g) => Ok(g),
            _ => self.kept(&self.structure),
        }
    }

    fn levels(&self) -> Result<&Graph<'b, B, Parents>> {
        self.kept(&self.levels)
    }

    fn distances(&self) -> Result<&Graph<'b, B, MinPlus<f64>>> {
        match &self.base {
            Base::Distances(g) => Ok(g),
            _ => Err(no_weights()),
        }
    }

    fn capacities(&self) -> Result<&Graph<'b, B, MaxMin<f64>>> {
        match &self.base {
            Base::Capacities(g) => Ok(g),
            _ => Err(no_weights()),
        }
    }

    fn id(&self, v: usize) -> i64 {
        self.ids.as_ref().map_or(v as i64, |f| f(v))
    }
}
