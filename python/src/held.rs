//! What a `Graph` holds: its matrices on the host and on a backend (one `self_cell` per
//! backend kind), and the patterns derived from them on first use.

use std::sync::OnceLock;

use pyo3::prelude::*;
use self_cell::self_cell;
use semigraph_algos::{BfsSemiring, CpuBackend, Frontier, Graph as AlgoGraph, GraphOptions};
use semigraph_formats::Csr;
use semigraph_gpu::GpuBackend;
use semigraph_semiring::{MaxMin, MinPlus, OrAnd};

use crate::arrays::Arrays;
use crate::backends::{Choice, cpu, gpu};
use crate::errors::{format_err, py_err};

/// Weights as distances: min-plus over f64 (SciPy's value type); parallel arcs keep the
/// smallest weight, as the CLI's shortest paths do.
pub(crate) type W = MinPlus<f64>;

/// What a graph owns on the host: its weights as distances, and where a weight is `+inf`
/// (min-plus's "no path", yet an entry of the matrix) its structure and its weights as
/// capacities apart, so that the algorithms that read the structure (BFS, PageRank, WCC,
/// CDLP, LCC, triangles, reachability) and widest paths (where `inf` is the widest arc) see
/// that entry too.
pub(crate) struct Owned {
    weights: Csr<W>,
    apart: Option<(Csr<OrAnd>, Csr<MaxMin<f64>>)>,
}

/// What a backend holds of one graph: the weighted matrices, the structure and capacities
/// where they are apart ([`Owned`]), and the pattern BFS runs on (made on the first BFS,
/// then kept).
pub(crate) struct Held<'a, B: Frontier> {
    pub(crate) weights: AlgoGraph<'a, B, W>,
    pub(crate) apart: Option<Apart<'a, B>>,
    pattern: OnceLock<AlgoGraph<'a, B, BfsSemiring>>,
    pub(crate) reach: OnceLock<AlgoGraph<'a, B, OrAnd>>,
    /// The weights as capacities (made on first use where they are not apart).
    pub(crate) capacities: OnceLock<AlgoGraph<'a, B, MaxMin<f64>>>,
}

/// The structure and the capacities a backend holds apart ([`Owned`]).
pub(crate) type Apart<'a, B> = (AlgoGraph<'a, B, OrAnd>, AlgoGraph<'a, B, MaxMin<f64>>);

/// Runs `$body` with `$g` the graph whose structure is the matrix's every entry: the
/// weights, or the structure apart where a weight is `+inf`.
macro_rules! on_structure {
    ($h:expr, $g:ident => $body:expr) => {
        match &$h.apart {
            Some((s, _)) => {
                let $g = s;
                $body
            }
            None => {
                let $g = &$h.weights;
                $body
            }
        }
    };
}
pub(crate) use on_structure;

pub(crate) type CpuHeld<'a> = Held<'a, CpuBackend>;
pub(crate) type GpuHeld<'a> = Held<'a, GpuBackend>;

self_cell!(
    pub(crate) struct CpuCell {
        owner: Owned,
        #[not_covariant]
        dependent: CpuHeld,
    }
);

self_cell!(
    pub(crate) struct GpuCell {
        owner: Owned,
        #[not_covariant]
        dependent: GpuHeld,
    }
);

pub(crate) enum Cell {
    Cpu(CpuCell),
    Gpu(GpuCell),
}

/// Runs `$body` with `$h` the [`Held`] matrices of `$g` on whichever backend holds them.
macro_rules! with_held {
    ($g:expr, $h:ident => $body:expr) => {
        match &$g.cell {
            Cell::Cpu(c) => c.with_dependent(|_, $h| $body),
            Cell::Gpu(c) => c.with_dependent(|_, $h| $body),
        }
    };
}
pub(crate) use with_held;

fn build<'a, B: Frontier>(backend: &'a B, a: &'a Owned) -> semigraph_algos::Result<Held<'a, B>> {
    let opts = GraphOptions {
        pull: true,
        ..Default::default()
    };
    let apart = match &a.apart {
        Some((s, c)) => Some((
            AlgoGraph::new(backend, s, opts)?,
            AlgoGraph::new(backend, c, GraphOptions::default())?,
        )),
        None => None,
    };
    Ok(Held {
        weights: AlgoGraph::new(backend, &a.weights, opts)?,
        apart,
        pattern: OnceLock::new(),
        reach: OnceLock::new(),
        capacities: OnceLock::new(),
    })
}

impl<'a, B: Frontier> Held<'a, B> {
    /// The arcs in semiring `P`, made on the first call into `cell` (one value array on the
    /// backend), then kept.
    pub(crate) fn kept<'s, P: semigraph_semiring::Semiring>(
        &'s self,
        cell: &'s OnceLock<AlgoGraph<'a, B, P>>,
    ) -> semigraph_algos::Result<&'s AlgoGraph<'a, B, P>> {
        if let Some(p) = cell.get() {
            return Ok(p);
        }
        let p = on_structure!(self, g => g.pattern::<P>())?;
        Ok(cell.get_or_init(|| p))
    }

    /// The pattern BFS runs on.
    pub(crate) fn pattern(&self) -> semigraph_algos::Result<&AlgoGraph<'a, B, BfsSemiring>> {
        self.kept(&self.pattern)
    }
}

impl Cell {
    /// The graph of `arcs` on the chosen backend; `apart`: some weight is `+inf`, so the
    /// structure and the capacities are held apart ([`Owned`]).
    pub(crate) fn new(arcs: Arrays, apart: bool, choice: Choice) -> PyResult<Cell> {
        let apart = match apart {
            true => Some((
                arcs.clone().pattern::<OrAnd>().map_err(format_err)?,
                arcs.clone()
                    .edge_list()
                    .to_csr::<MaxMin<f64>, u32>()
                    .map_err(format_err)?,
            )),
            false => None,
        };
        let weights = match arcs.canonical::<W>() {
            Ok(a) => a,
            Err(arcs) => arcs.edge_list().to_csr::<W, u32>().map_err(format_err)?,
        };
        let a = Owned { weights, apart };
        Ok(match choice {
            Choice::Cpu => Cell::Cpu(CpuCell::try_new(a, |a| build(cpu(), a)).map_err(py_err)?),
            Choice::Gpu => {
                let b = gpu().map_err(crate::errors::GpuUnavailable::new_err)?;
                Cell::Gpu(GpuCell::try_new(a, |a| build(b, a)).map_err(py_err)?)
            }
        })
    }
}
