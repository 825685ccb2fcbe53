//! Weakly connected components by `FastSV` (Zhang, Azad, Hu 2020; as LAGraph): min-second SpMV,
//! a scatter with a min accumulator, gathers and element-wise minima, in `O(log n)` rounds.

use semigraph_semiring::MinSecond;
use semigraph_semiring::ops::{Min, Second};

use crate::backend::{Accum, Backend, Combine, Ewise, Mask};
use crate::error::Result;
use crate::graph::Graph;

/// The semiring of the labels: `add` = min, `mul` = the second operand (the neighbour's
/// label); `u32::MAX` is no label.
pub type LabelSemiring = MinSecond<u32>;
type Label = LabelSemiring;

/// What [`wcc`] returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    /// For each vertex, the smallest vertex (index) of its component: two vertices have the
    /// same label exactly when they are connected (arcs taken in either direction).
    pub labels: Vec<u32>,
    /// The rounds of `FastSV` run (each a few element-wise passes and one SpMV).
    pub rounds: usize,
}

impl Components {
    /// The number of components (on every core: a million labels take a millisecond on
    /// one, as long as `FastSV` on a GPU).
    pub fn count(&self) -> usize {
        use rayon::prelude::*;
        self.labels
            .par_iter()
            .enumerate()
            .filter(|&(v, &l)| l as usize == v)
            .count()
    }
}

/// Weakly connected components: arcs are taken in both directions (a directed graph's
/// weakly connected components, an undirected graph's components).
///
/// `FastSV` over `A` and `A^T` (the pattern, min-second `u32`), with parents `f` (at first
/// `f(v) = v`) and grandparents `gp = f(f)`: each round
/// `mngp = A min.second gp`, then `A^T` accumulated by min (the smallest grandparent among
/// the in- and out-neighbours: two `SpMVs`, no `A + A^T` formed; one on an undirected
/// graph, [`Graph::is_undirected`]), stochastic
/// hooking `f(f(v)) min= mngp(v)` (a scatter with a min accumulator), aggressive hooking
/// `f = min(f, mngp)`, shortcutting `f = min(f, gp)`, two pointer jumps `f = f(f)` and
/// `gp = f(f)` (gathers); it stops when `gp` no longer changes, and pointer jumping `f = f(f)`
/// ends with every vertex on its root, the smallest vertex of its component.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read).
///
/// # Returns
/// The labels (the smallest vertex of each component) and the rounds run.
///
/// # Errors
/// Backend errors.
///
/// # Complexity
/// `O(m + n)` work per round over `O(log n)` rounds (`FastSV`'s bound); uses the graph's pull
/// matrix, or transposes `A` once; one count read back per round.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, wcc, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 -> 1 <- 2 and 3 -> 4: two components.
/// let a = arcs_to_csr::<OrAnd>(5, &[(0, 1, true), (2, 1, true), (3, 4, true)])?;
/// let cpu = CpuBackend::new();
/// let c = wcc(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(c.labels, vec![0, 0, 0, 3, 3]);
/// assert_eq!(c.count(), 2);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn wcc<B: Backend, S: semigraph_semiring::Semiring>(g: &Graph<'_, B, S>) -> Result<Components> {
    let r = wcc_resident(g)?;
    Ok(Components {
        labels: g.backend().read_dense_owned(r.labels)?,
        rounds: r.rounds,
    })
}

/// [`Components`] whose labels are still a backend array (device memory on a GPU): what
/// [`wcc_resident`] returns.
pub struct ResidentComponents<B: Backend> {
    /// The labels, `n x 1` `u32` (as [`Components::labels`]).
    pub labels: B::Dense<LabelSemiring>,
    /// The rounds of `FastSV` run.
    pub rounds: usize,
}

/// [`wcc`] with the labels left on the backend (on a GPU, in device memory).
///
/// Arguments, errors and complexity as [`wcc`].
///
/// # Example
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::wcc_resident;
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(3, &[(2, 1, true)])?;
/// let cpu = CpuBackend::new();
/// let r = wcc_resident(&Graph::new(&cpu, &a, GraphOptions::default())?)?;
/// assert_eq!(cpu.read_dense(&r.labels)?, vec![0, 1, 1]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn wcc_resident<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
) -> Result<ResidentComponents<B>> {
    let n = g.n();
    let b = g.backend();
    if n == 0 {
        return Ok(ResidentComponents {
            labels: b.dense_filled::<Label>(0, 1, u32::MAX)?,
            rounds: 0,
        });
    }
    // A and A^T, every entry the one (any value that is not the zero would do): the pull
    // matrix when the graph has one.
    let p = g.pattern::<Label>()?;
    let at = match p.is_undirected() {
        true => None,
        false => Some(p.transposed()?),
    };
    let (f, rounds) = fastsv(b, p.push(), at.as_deref())?;
    Ok(ResidentComponents { labels: f, rounds })
}

/// Pointer jumps `f = f(f)` in each round before the grandparents' gather: a gather costs
/// a fraction of the round's product and halves the paths, so fewer rounds are needed
/// (on road graphs 11 -> 6).
const JUMPS: usize = 2;

/// `FastSV` over the arcs of `a` and, where given, `at` (`A^T`; none for a symmetric `a`):
/// each vertex's label, the smallest vertex of its component, and the rounds run (as
/// [`wcc_resident`], on matrices of the backend).
pub(crate) fn fastsv<B: Backend>(
    b: &B,
    a: &B::Matrix<Label>,
    at: Option<&B::Matrix<Label>>,
) -> Result<(B::Dense<Label>, usize)> {
    let n = b.matrix_info(a).nrows;
    let ids: Vec<u32> = (0..n as u32).collect();
    let mut f = b.dense::<Label>(n, 1, &ids)?;
    let mut gp = b.dense::<Label>(n, 1, &ids)?;
    let mut mngp = b.dense_filled::<Label>(n, 1, u32::MAX)?;
    let mut parents = b.dense_filled::<Label>(n, 1, u32::MAX)?;
    let mut rounds = 0;
    loop {
        crate::cancel::check()?;
        rounds += 1;
        b.mxm(&mut mngp, Mask::All, Accum::Replace, a, &gp)?;
        if let Some(at) = at {
            b.mxm(&mut mngp, Mask::All, Accum::Add, at, &gp)?;
        }
        // f(f(v)) min= mngp(v): the indices are a copy of f, which the scatter changes.
        b.ewise_op::<Label, Second>(&mut parents, Mask::All, Combine::Union, &f)?;
        b.scatter_op::<Label, Min, Label>(&mut f, &parents, &mngp)?;
        b.ewise(&mut f, Mask::All, Ewise::Add, &mngp)?;
        b.ewise(&mut f, Mask::All, Ewise::Add, &gp)?;
        for _ in 0..JUMPS {
            f = b.gather(&f, &f)?;
        }
        let next = b.gather(&f, &f)?;
        if b.improve_dense(&mut gp, &next)? == 0 {
            break;
        }
    }
    // Pointer jumping to the roots.
    loop {
        crate::cancel::check()?;
        let next = b.gather(&f, &f)?;
        if b.improve_dense(&mut f, &next)? == 0 {
            break;
        }
    }
    Ok((f, rounds))
}

/// Weakly connected components in the [registry](crate::registry): `semigraph wcc`.
pub struct WeakComponents;

impl crate::registry::Algorithm for WeakComponents {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "wcc",
            command: "wcc",
            summary: "Weakly connected components (FastSV): a label per vertex, the smallest \
                      vertex of its component",
            params: &[],
            returns: &["labels"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O((n + m) log n)",
            method: "FastSV",
            steps: "rounds",
            bench: &[],
            distributed: true,
            networkx: &[
                NetworkX {
                    function: "connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Groups,
                    simple: false,
                },
                NetworkX {
                    function: "number_connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Count,
                    simple: false,
                },
                NetworkX {
                    function: "weakly_connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Groups,
                    simple: false,
                },
                NetworkX {
                    function: "number_weakly_connected_components",
                    args: &[],
                    column: "labels",
                    shape: Shape::Count,
                    simple: false,
                },
            ],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        _args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let c = wcc(g.structure()?)?;
        let count = c.count();
        Ok(Output {
            facts: vec![Fact {
                name: "components",
                text: format!("{count} ({} rounds)", c.rounds),
                scalars: vec![
                    ("components", Scalar::Int(count as u64)),
                    ("rounds", Scalar::Int(c.rounds as u64)),
                ],
            }],
            steps: c.rounds,
            columns: vec![Column {
                name: "labels",
                values: Values::Class(c.labels),
            }],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        crate::memory::kernel_host_bytes(kind, crate::memory::Kernel::Wcc, n, nnz, threads)
    }
}
