//! PageRank as repeated SpMV in plus-times `f64`: the LDBC Graphalytics definition (fixed
//! iterations, dangling vertices' rank spread evenly) and a tolerance stop for library users.

use semigraph_semiring::PlusTimes;
use semigraph_semiring::ops::{Abs, Div, Minus};

use crate::backend::{Accum, Backend, Combine, Ewise, Mask, UnaryOp, cloned, copy_dense};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// The semiring PageRank runs in (its values are the ranks' `f64`).
pub type PageRankSemiring = PlusTimes<f64>;
type Pr = PageRankSemiring;

/// How [`pagerank`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageRankOptions {
    /// The damping factor `d` (the probability of following an arc), in `[0, 1]`.
    pub damping: f64,
    /// The most iterations run (LDBC Graphalytics: exactly this many, with no tolerance).
    pub iterations: usize,
    /// Stop once the L1 norm of one iteration's change is at most this (`None`: run every
    /// iteration).
    pub tolerance: Option<f64>,
}

impl Default for PageRankOptions {
    /// Damping 0.85, at most 100 iterations, stopping at an L1 change of `1e-9`.
    fn default() -> Self {
        PageRankOptions {
            damping: 0.85,
            iterations: 100,
            tolerance: Some(1e-9),
        }
    }
}

impl PageRankOptions {
    /// The options as the command line gives them: `iterations` (LDBC: exactly this many, with
    /// no tolerance unless one is given), `damping`, `tolerance`; the defaults for what is
    /// not given.
    pub fn from_args(iterations: Option<usize>, damping: f64, tolerance: Option<f64>) -> Self {
        let defaults = PageRankOptions::default();
        PageRankOptions {
            damping,
            iterations: iterations.unwrap_or(defaults.iterations),
            tolerance: match (iterations, tolerance) {
                (_, Some(t)) => Some(t),
                (Some(_), None) => None,
                (None, None) => defaults.tolerance,
            },
        }
    }

    /// The options of the registry's PageRank arguments (`iterations`, `damping`,
    /// `tolerance`), as [`PageRankOptions::from_args`] reads them: what every surface and the
    /// distributed form run.
    pub fn of(args: &crate::registry::Args) -> Self {
        PageRankOptions::from_args(
            args.count("iterations"),
            args.real("damping")
                .unwrap_or(PageRankOptions::default().damping),
            args.real("tolerance"),
        )
    }

    /// `InvalidArgument` for a damping factor outside `[0, 1]` or a tolerance that is negative
    /// or not a number.
    pub(crate) fn check(&self) -> Result<()> {
        let d = self.damping;
        if !(0.0..=1.0).contains(&d) {
            return Err(Error::InvalidArgument(format!(
                "the damping factor must lie in [0, 1], not {d}"
            )));
        }
        if let Some(t) = self.tolerance
            && (t.is_nan() || t < 0.0)
        {
            return Err(Error::InvalidArgument(format!(
                "the tolerance must be a number >= 0, not {t}"
            )));
        }
        Ok(())
    }
}

/// What [`pagerank`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRank {
    /// The rank of each vertex (summing to 1).
    pub ranks: Vec<f64>,
    /// The iterations run.
    pub iterations: usize,
    /// The L1 norm of the last iteration's change (`None` without a tolerance: not computed).
    pub delta: Option<f64>,
}

/// PageRank by the LDBC Graphalytics definition: `PR_0(v) = 1/n`, then each iteration
/// `PR(v) = (1 - d)/n + d * sum over arcs u -> v of PR(u)/outdeg(u) + (d/n) * sum over
/// dangling w (no out-arcs) of PR(w)`. The arcs' weights are ignored (parallel arcs count
/// once: the graph's stored entries).
///
/// As linear algebra in plus-times `f64`: the out-degrees are a row reduction, the scale
/// `d/outdeg` a masked element-wise division (1 where there are no out-arcs). Each
/// iteration is a fill of the teleport term, one SpMV with `A^T` accumulated into it,
/// reading the contributions
/// `w = PR * scale` (whole at dangling vertices, whose column of `A^T` is empty: the masked
/// reduction of `w` there is the dangling rank, taken only where some vertex is dangling),
/// and one element-wise product making the next contributions from the new ranks in place.
/// Uses the graph's pull matrix if it has one, else transposes `A` once.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `opts`: damping, iterations and
///   an optional tolerance.
///
/// # Returns
/// The ranks, the iterations run and the last change's L1 norm (with a tolerance).
///
/// # Errors
/// `InvalidArgument` for a damping factor outside `[0, 1]` or a tolerance that is negative or
/// not a number; backend errors.
///
/// # Complexity
/// `O(iterations * (n + m))` work; one scalar read back per iteration where some vertex has
/// no out-arcs (the dangling rank), none where every vertex has one; one more with a
/// tolerance.
///
/// # Example
/// ```
/// use semigraph_algos::{arcs_to_csr, pagerank, CpuBackend, Graph, GraphOptions, PageRankOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A cycle 0 -> 1 -> 2 -> 0: every vertex ranks 1/3.
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (1, 2, true), (2, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let pr = pagerank(&Graph::new(&cpu, &a, GraphOptions::default())?, &PageRankOptions::default())?;
/// assert!(pr.ranks.iter().all(|r| (r - 1.0 / 3.0).abs() < 1e-12));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn pagerank<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    opts: &PageRankOptions,
) -> Result<PageRank> {
    let r = pagerank_resident(g, opts)?;
    Ok(PageRank {
        ranks: g.backend().read_dense_owned(r.ranks)?,
        iterations: r.iterations,
        delta: r.delta,
    })
}

/// A [`PageRank`] whose ranks are still a backend array (device memory on a GPU): what
/// [`pagerank_resident`] returns.
pub struct ResidentPageRank<B: Backend> {
    /// The ranks, `n x 1` `f64` (as [`PageRank::ranks`]).
    pub ranks: B::Dense<PageRankSemiring>,
    /// The iterations run.
    pub iterations: usize,
    /// As [`PageRank::delta`].
    pub delta: Option<f64>,
}

/// [`pagerank`] with the ranks left on the backend (on a GPU, in device memory), for a caller
/// that goes on computing there or hands them to another library without a copy.
///
/// Arguments, errors and complexity as [`pagerank`].
///
/// # Example
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_algos::{pagerank_resident, PageRankOptions};
/// use semigraph_semiring::OrAnd;
///
/// let a = arcs_to_csr::<OrAnd>(2, &[(0, 1, true), (1, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let r = pagerank_resident(&Graph::new(&cpu, &a, GraphOptions::default())?, &PageRankOptions::default())?;
/// assert_eq!(cpu.read_dense(&r.ranks)?, vec![0.5, 0.5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn pagerank_resident<B: Backend, S: semigraph_semiring::Semiring>(
    g: &Graph<'_, B, S>,
    opts: &PageRankOptions,
) -> Result<ResidentPageRank<B>> {
    opts.check()?;
    let d = opts.damping;
    let n = g.n();
    let b = g.backend();
    if n == 0 {
        return Ok(ResidentPageRank {
            ranks: b.dense_filled::<Pr>(0, 1, 0.0)?,
            iterations: 0,
            delta: None,
        });
    }
    let p = g.pattern::<Pr>()?;
    let at = p.transposed()?;
    let nf = n as f64;
    // outdeg(v) (absent for dangling vertices) and the scale of a rank into what each of
    // its arcs carries: d / outdeg(v), and 1 at a dangling vertex (no arc carries its rank:
    // the contribution keeps it whole for the dangling sum).
    let outdeg = b.reduce_rows(p.push())?;
    let dangling = b.nvals(&outdeg)? < n;
    let mut scale = b.dense_filled::<Pr>(n, 1, d)?;
    b.ewise_op::<Pr, Div>(&mut scale, b.keep(&outdeg), Combine::Union, &outdeg)?;
    b.apply(&mut scale, b.skip(&outdeg), UnaryOp::Fill(1.0))?;
    let mut pr = b.dense_filled::<Pr>(n, 1, 1.0 / nf)?;
    let mut next = b.dense_filled::<Pr>(n, 1, 0.0)?;
    // w: the contributions of PR (PR * scale).
    let mut w = cloned(b, &pr)?;
    b.ewise(&mut w, Mask::All, Ewise::Mul, &scale)?;
    let (mut iterations, mut delta) = (0, None);
    while iterations < opts.iterations {
        crate::cancel::check()?;
        // The dangling vertices' rank, read where there are any (none: no read at all).
        let lost = match dangling {
            true => b.reduce(&w, b.skip(&outdeg))?,
            false => 0.0,
        };
        let teleport = (1.0 - d) / nf + d * lost / nf;
        // next = teleport + A^T w.
        b.apply(&mut next, Mask::All, UnaryOp::Fill(teleport))?;
        b.mxm(&mut next, Mask::All, Accum::Add, &at, &w)?;
        iterations += 1;
        let last = iterations == opts.iterations;
        if let Some(t) = opts.tolerance {
            // |next - PR|, summed (w as scratch, its contributions made again after).
            copy_dense(b, &mut w, &next)?;
            b.ewise_op::<Pr, Minus>(&mut w, Mask::All, Combine::Union, &pr)?;
            b.apply_op::<Pr, Abs>(&mut w, Mask::All)?;
            let change = b.reduce(&w, Mask::All)?;
            delta = Some(change);
            std::mem::swap(&mut pr, &mut next);
            if change <= t || last {
                break;
            }
            copy_dense(b, &mut w, &pr)?;
            b.ewise(&mut w, Mask::All, Ewise::Mul, &scale)?;
        } else if last {
            std::mem::swap(&mut pr, &mut next);
        } else {
            // The next contributions made in place of the ranks, which no later step reads.
            std::mem::swap(&mut w, &mut next);
            b.ewise(&mut w, Mask::All, Ewise::Mul, &scale)?;
        }
    }
    Ok(ResidentPageRank {
        ranks: pr,
        iterations,
        delta,
    })
}

/// PageRank in the [registry](crate::registry): `semigraph pagerank`, `semigraph.pagerank`.
pub struct PageRankAlgorithm;

impl crate::registry::Algorithm for PageRankAlgorithm {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, Kind, NetworkX, Param, Reads, Shape};
        Info {
            name: "pagerank",
            command: "pagerank",
            summary: "PageRank (LDBC Graphalytics definition: PR starts at 1/n, dangling \
                      vertices' rank spread evenly), one rank per vertex; arc weights are ignored",
            params: &[
                Param::optional(
                    "iterations",
                    Kind::Count,
                    "iterations: exactly this many unless --tolerance stops sooner (default: \
                     at most 100, stopping at an L1 change of 1e-9)",
                ),
                Param::with_default(
                    "damping",
                    Kind::Real,
                    "0.85",
                    "the damping factor, in [0, 1]",
                ),
                Param::optional(
                    "tolerance",
                    Kind::Real,
                    "stop once one iteration changes the ranks by at most this much (L1 norm)",
                ),
            ],
            returns: &["ranks"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(iterations (n + m))",
            method: "SpMV in plus-times f64 per iteration",
            steps: "iterations",
            bench: &[("iterations", "20")],
            distributed: true,
            networkx: &[NetworkX {
                function: "pagerank",
                args: &[("alpha", "damping"), ("max_iter", "iterations")],
                column: "ranks",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Fact, Output, Scalar, Values};
        let opts = PageRankOptions::of(args);
        let pr = pagerank(g.structure()?, &opts)?;
        let delta = pr.delta.map_or("-".into(), |d| format!("{d:.3e}"));
        Ok(Output {
            facts: vec![Fact {
                name: "iterations",
                text: format!(
                    "{} (damping {}, last L1 change {delta})",
                    pr.iterations, opts.damping
                ),
                scalars: vec![
                    ("iterations", Scalar::Int(pr.iterations as u64)),
                    ("damping", Scalar::Real(opts.damping)),
                    ("delta", Scalar::MaybeReal(pr.delta)),
                ],
            }],
            steps: pr.iterations,
            columns: vec![Column {
                name: "ranks",
                values: Values::Real(pr.ranks),
            }],
        })
    }

    fn host_bytes(kind: crate::backend::BackendKind, n: usize, nnz: usize, threads: usize) -> u64 {
        crate::memory::kernel_host_bytes(kind, crate::memory::Kernel::PageRank, n, nnz, threads)
    }
}
