//! Centralities by power iteration on SpMV in plus-times `f64`: eigenvector centrality, Katz
//! centrality and HITS, each iteration one product with `A^T`, stopping as NetworkX does (the L1
//! change below `n * tolerance`).

use semigraph_semiring::Semiring;
use semigraph_semiring::ops::{Abs, Div, Minus};

use super::Pt;
use crate::backend::{Accum, Backend, Bound, Combine, Ewise, Mask, UnaryOp, copy_dense};
use crate::error::{Error, Result};
use crate::graph::Graph;

/// How a power iteration stops, and what it ran.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerOptions {
    /// The most iterations.
    pub iterations: usize,
    /// Stop once one iteration changes the values by less than `n * tolerance` (L1 norm:
    /// NetworkX's criterion, a tolerance per vertex).
    pub tolerance: f64,
}

/// What a power iteration returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Centrality {
    /// One value per vertex.
    pub values: Vec<f64>,
    /// The iterations run.
    pub iterations: usize,
    /// The L1 norm of the last iteration's change.
    pub delta: f64,
}

/// `sum |x - y|`, with `w` as scratch.
fn change<B: Backend>(
    b: &B,
    w: &mut B::Dense<Pt>,
    x: &B::Dense<Pt>,
    y: &B::Dense<Pt>,
) -> Result<f64> {
    copy_dense(b, w, x)?;
    b.ewise_op::<Pt, Minus>(w, Mask::All, Combine::Union, y)?;
    b.apply_op::<Pt, Abs>(w, Mask::All)?;
    b.reduce(w, Mask::All)
}

/// `x / ||x||_2` (unchanged where the norm is 0), with `w` as scratch.
fn normalize<B: Backend>(b: &B, w: &mut B::Dense<Pt>, x: &mut B::Dense<Pt>) -> Result<()> {
    copy_dense(b, w, x)?;
    b.ewise(w, Mask::All, Ewise::Mul, x)?;
    let norm = b.reduce(w, Mask::All)?.sqrt();
    if norm > 0.0 {
        b.apply_bound::<Pt, Div>(x, Mask::All, Bound::Second(norm))?;
    }
    Ok(())
}

/// Runs `step` (writing the next values from `x`, with a scratch array) from `x` until one
/// step changes the values by less than `limit` (L1 norm), at most `opts.iterations` times:
/// the values, the steps run and the last change; [`Error::NotConverged`] naming `algorithm`
/// if that never happens.
fn iterate<B: Backend>(
    b: &B,
    n: usize,
    mut x: B::Dense<Pt>,
    opts: &PowerOptions,
    limit: f64,
    algorithm: &'static str,
    mut step: impl FnMut(&mut B::Dense<Pt>, &mut B::Dense<Pt>, &B::Dense<Pt>) -> Result<()>,
) -> Result<(B::Dense<Pt>, usize, f64)> {
    let mut next = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let mut w = b.dense_filled::<Pt>(n, 1, 0.0)?;
    for i in 1..=opts.iterations {
        crate::cancel::check()?;
        step(&mut next, &mut w, &x)?;
        let delta = change(b, &mut w, &next, &x)?;
        std::mem::swap(&mut x, &mut next);
        if delta < limit {
            return Ok((x, i, delta));
        }
    }
    Err(Error::NotConverged {
        algorithm,
        iterations: opts.iterations,
    })
}

/// Checks the options; `InvalidArgument` for a tolerance that is negative or not a number.
fn check(opts: &PowerOptions) -> Result<()> {
    if opts.tolerance.is_nan() || opts.tolerance < 0.0 {
        return Err(Error::InvalidArgument(format!(
            "the tolerance must be a number >= 0, not {}",
            opts.tolerance
        )));
    }
    Ok(())
}

/// Eigenvector centrality (NetworkX's `eigenvector_centrality` with `weight=None`): the
/// principal left eigenvector of `A` by power iteration on `A + I` (the shift keeps bipartite
/// graphs from oscillating), from `x = 1/n`: each iteration `x = (x + A^T x) / ||x + A^T x||_2`.
/// Arcs are unweighted.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `opts`: iterations, tolerance.
///
/// # Returns
/// The values (Euclidean norm 1), the iterations run, the last change.
///
/// # Errors
/// [`Error::NotConverged`] when the change never falls below `n * tolerance`;
/// `InvalidArgument` for a bad tolerance or an empty graph; backend errors.
///
/// # Complexity
/// `O(iterations (n + m))` work; two scalars read back per iteration.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{eigenvector, PowerOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // A cycle 0 -> 1 -> 2 -> 0: every vertex 1/sqrt(3).
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 1, true), (1, 2, true), (2, 0, true)])?;
/// let cpu = CpuBackend::new();
/// let opts = PowerOptions { iterations: 100, tolerance: 1e-6 };
/// let c = eigenvector(&Graph::new(&cpu, &a, GraphOptions::default())?, &opts)?;
/// assert!(c.values.iter().all(|x| (x - 3f64.sqrt().recip()).abs() < 1e-12));
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn eigenvector<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    opts: &PowerOptions,
) -> Result<Centrality> {
    check(opts)?;
    let (b, n) = (g.backend(), g.n());
    if n == 0 {
        return Err(Error::InvalidArgument(
            "eigenvector centrality of a graph with no vertices".into(),
        ));
    }
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let x = b.dense_filled::<Pt>(n, 1, 1.0 / n as f64)?;
    let limit = n as f64 * opts.tolerance;
    let (x, iterations, delta) = iterate(
        b,
        n,
        x,
        opts,
        limit,
        "eigenvector centrality",
        |next, w, x| {
            // next = (x + A^T x) / ||x + A^T x||_2.
            copy_dense(b, next, x)?;
            b.mxm(next, Mask::All, Accum::Add, &at, x)?;
            normalize(b, w, next)
        },
    )?;
    Ok(Centrality {
        values: b.read_dense_owned(x)?,
        iterations,
        delta,
    })
}

/// Katz centrality (NetworkX's `katz_centrality` with `weight=None` and a scalar `beta`):
/// from `x = 0`, each iteration `x = alpha A^T x + beta`, until the change is below
/// `n * tolerance`; then, with `normalized`, `x / ||x||_2`. It converges when `alpha` is
/// below `1 / lambda_max` of `A`. Arcs are unweighted.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `alpha`, `beta`; `normalized`;
///   `opts`: iterations, tolerance.
///
/// # Returns
/// The values, the iterations run, the last change.
///
/// # Errors
/// [`Error::NotConverged`] when the change never falls below `n * tolerance`;
/// `InvalidArgument` for a bad tolerance; backend errors.
///
/// # Complexity
/// `O(iterations (n + m))` work; one scalar read back per iteration.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{katz, PowerOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 -> 1: x(0) = beta, x(1) = alpha beta + beta.
/// let a = arcs_to_csr::<OrAnd>(2, &[(0, 1, true)])?;
/// let cpu = CpuBackend::new();
/// let opts = PowerOptions { iterations: 100, tolerance: 1e-12 };
/// let c = katz(&Graph::new(&cpu, &a, GraphOptions::default())?, 0.5, 1.0, false, &opts)?;
/// assert_eq!(c.values, vec![1.0, 1.5]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn katz<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    alpha: f64,
    beta: f64,
    normalized: bool,
    opts: &PowerOptions,
) -> Result<Centrality> {
    check(opts)?;
    let (b, n) = (g.backend(), g.n());
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let x = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let limit = n as f64 * opts.tolerance;
    let (mut x, iterations, delta) =
        iterate(b, n, x, opts, limit, "Katz centrality", |next, w, x| {
            // next = beta + A^T (alpha x).
            copy_dense(b, w, x)?;
            b.apply(w, Mask::All, UnaryOp::MulBy(alpha))?;
            b.apply(next, Mask::All, UnaryOp::Fill(beta))?;
            b.mxm(next, Mask::All, Accum::Add, &at, w)
        })?;
    if normalized {
        let mut w = b.dense_filled::<Pt>(n, 1, 0.0)?;
        normalize(b, &mut w, &mut x)?;
    }
    Ok(Centrality {
        values: b.read_dense_owned(x)?,
        iterations,
        delta,
    })
}

/// `x / sum(x)` (unchanged where the sum is 0).
fn to_unit_sum<B: Backend>(b: &B, x: &mut B::Dense<Pt>) -> Result<()> {
    let sum = b.reduce(x, Mask::All)?;
    if sum != 0.0 {
        b.apply_bound::<Pt, Div>(x, Mask::All, Bound::Second(sum))?;
    }
    Ok(())
}

/// What [`hits`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Hubs {
    /// The hub value of each vertex (it points to good authorities).
    pub hubs: Vec<f64>,
    /// The authority value of each vertex (good hubs point to it).
    pub authorities: Vec<f64>,
    /// The iterations run.
    pub iterations: usize,
    /// The L1 norm of the last iteration's change of the hubs (each summing to 1).
    pub delta: f64,
}

/// HITS hubs and authorities (NetworkX's `hits` on an unweighted graph): the principal
/// singular vectors of `A`, by power iteration from `h = 1/n`: each iteration
/// `a = A^T h`, `h = A a / sum(A a)`, until the hubs change by less than `tolerance` (L1
/// norm); then `a = A^T h`. `normalized`: both sum to 1; else the authorities have Euclidean
/// norm 1 and `h = A a` (the singular vectors' scaling). Arcs are unweighted.
///
/// # Arguments
/// - `g`: the graph (any semiring: only its arcs are read); `normalized`; `opts`:
///   iterations, tolerance (absolute: the hubs sum to 1).
///
/// # Returns
/// Hubs and authorities, the iterations run, the last change.
///
/// # Errors
/// [`Error::NotConverged`] when the change never falls below the tolerance;
/// `InvalidArgument` for a bad tolerance, or a graph of fewer than two vertices or no arc
/// (no principal singular vector to speak of); backend errors.
///
/// # Complexity
/// `O(iterations (n + m))` work (two products each); two scalars read back per iteration.
///
/// # Example
/// ```
/// use semigraph_algos::centrality::{hits, PowerOptions};
/// use semigraph_algos::{arcs_to_csr, CpuBackend, Graph, GraphOptions};
/// use semigraph_semiring::OrAnd;
///
/// // 0 -> 2, 1 -> 2: 0 and 1 are the hubs, 2 the authority.
/// let a = arcs_to_csr::<OrAnd>(3, &[(0, 2, true), (1, 2, true)])?;
/// let cpu = CpuBackend::new();
/// let opts = PowerOptions { iterations: 100, tolerance: 1e-8 };
/// let h = hits(&Graph::new(&cpu, &a, GraphOptions::default())?, true, &opts)?;
/// assert_eq!(h.hubs, vec![0.5, 0.5, 0.0]);
/// assert_eq!(h.authorities, vec![0.0, 0.0, 1.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub fn hits<B: Backend, S: Semiring>(
    g: &Graph<'_, B, S>,
    normalized: bool,
    opts: &PowerOptions,
) -> Result<Hubs> {
    check(opts)?;
    let (b, n) = (g.backend(), g.n());
    if n < 2 || g.nnz() == 0 {
        return Err(Error::InvalidArgument(format!(
            "HITS needs two vertices and an arc (the graph has {n} vertices, {} arcs)",
            g.nnz()
        )));
    }
    let pt = g.pattern::<Pt>()?;
    let at = pt.transposed()?;
    let h = b.dense_filled::<Pt>(n, 1, 1.0 / n as f64)?;
    let mut a = b.dense_filled::<Pt>(n, 1, 0.0)?;
    let (mut h, iterations, delta) =
        iterate(b, n, h, opts, opts.tolerance, "HITS", |next, _, h| {
            // a = A^T h, next = A a / sum(A a).
            b.mxm(&mut a, Mask::All, Accum::Replace, &at, h)?;
            b.mxm(next, Mask::All, Accum::Replace, pt.push(), &a)?;
            to_unit_sum(b, next)
        })?;
    b.mxm(&mut a, Mask::All, Accum::Replace, &at, &h)?;
    if normalized {
        to_unit_sum(b, &mut a)?;
    } else {
        let mut w = b.dense_filled::<Pt>(n, 1, 0.0)?;
        normalize(b, &mut w, &mut a)?;
        b.mxm(&mut h, Mask::All, Accum::Replace, pt.push(), &a)?;
    }
    Ok(Hubs {
        hubs: b.read_dense_owned(h)?,
        authorities: b.read_dense_owned(a)?,
        iterations,
        delta,
    })
}

/// The registry's `iterations` and `tolerance` arguments, NetworkX's defaults for each.
const fn stop(iterations: &'static str) -> [crate::registry::Param; 2] {
    use crate::registry::{Kind, Param};
    [
        Param::with_default(
            "iterations",
            Kind::Count,
            iterations,
            "the most iterations (not converged by then: an error)",
        ),
        Param::with_default(
            "tolerance",
            Kind::Real,
            "1e-6",
            "stop once one iteration changes the values by less than n times this (L1 norm)",
        ),
    ]
}

/// The options of the registry's arguments.
fn power_options(args: &crate::registry::Args) -> PowerOptions {
    PowerOptions {
        iterations: args.count("iterations").unwrap_or(100),
        tolerance: args.real("tolerance").unwrap_or(1e-6),
    }
}

/// The iterations run and the last change, as a header fact.
fn iterations_fact(iterations: usize, delta: f64) -> crate::registry::Fact {
    use crate::registry::{Fact, Scalar};
    Fact {
        name: "iterations",
        text: format!("{iterations} (last L1 change {delta:.3e})"),
        scalars: vec![
            ("iterations", Scalar::Int(iterations as u64)),
            ("delta", Scalar::Real(delta)),
        ],
    }
}

/// One column of centralities and the iterations run.
fn output(c: Centrality) -> crate::registry::Output {
    use crate::registry::{Column, Output, Values};
    Output {
        facts: vec![iterations_fact(c.iterations, c.delta)],
        steps: c.iterations,
        columns: vec![Column {
            name: "centrality",
            values: Values::Real(c.values),
        }],
    }
}

const EIGENVECTOR_STOP: [crate::registry::Param; 2] = stop("100");
const KATZ_STOP: [crate::registry::Param; 2] = stop("1000");

/// Eigenvector centrality in the [registry](crate::registry): `semigraph eigenvector`,
/// `semigraph.eigenvector`, NetworkX's `eigenvector_centrality`.
pub struct Eigenvector;

impl crate::registry::Algorithm for Eigenvector {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "eigenvector",
            command: "eigenvector",
            summary: "Eigenvector centrality (power iteration on A + I, unweighted), one value \
                      per vertex, Euclidean norm 1",
            params: &EIGENVECTOR_STOP,
            returns: &["centrality"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(iterations (n + m))",
            method: "SpMV in plus-times f64 per iteration",
            steps: "iterations",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "eigenvector_centrality",
                args: &[("max_iter", "iterations"), ("tol", "tolerance")],
                column: "centrality",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        Ok(output(eigenvector(g.structure()?, &power_options(args))?))
    }
}

/// The arguments of Katz centrality.
const KATZ_PARAMS: [crate::registry::Param; 5] = {
    use crate::registry::{Kind, Param};
    [
        Param::with_default("alpha", Kind::Real, "0.1", "the attenuation factor"),
        Param::with_default(
            "beta",
            Kind::Real,
            "1.0",
            "the weight every vertex starts with",
        ),
        KATZ_STOP[0],
        KATZ_STOP[1],
        Param::with_default(
            "normalized",
            Kind::Flag,
            "true",
            "divide by the Euclidean norm",
        ),
    ]
};

/// Katz centrality in the [registry](crate::registry): `semigraph katz`, `semigraph.katz`,
/// NetworkX's `katz_centrality`.
pub struct Katz;

impl crate::registry::Algorithm for Katz {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "katz",
            command: "katz",
            summary: "Katz centrality (x = alpha A^T x + beta to a tolerance, unweighted), one \
                      value per vertex",
            params: &KATZ_PARAMS,
            returns: &["centrality"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(iterations (n + m))",
            method: "SpMV in plus-times f64 per iteration",
            steps: "iterations",
            bench: &[("alpha", "1e-5")],
            distributed: false,
            networkx: &[NetworkX {
                function: "katz_centrality",
                args: &[
                    ("alpha", "alpha"),
                    ("beta", "beta"),
                    ("max_iter", "iterations"),
                    ("tol", "tolerance"),
                    ("normalized", "normalized"),
                ],
                column: "centrality",
                shape: Shape::Values,
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        let mut opts = power_options(args);
        opts.iterations = args.count("iterations").unwrap_or(1000);
        let c = katz(
            g.structure()?,
            args.real("alpha").unwrap_or(0.1),
            args.real("beta").unwrap_or(1.0),
            args.flag("normalized").unwrap_or(true),
            &opts,
        )?;
        Ok(output(c))
    }
}

/// The arguments of HITS.
const HITS_PARAMS: [crate::registry::Param; 3] = {
    use crate::registry::{Kind, Param};
    [
        Param::with_default(
            "iterations",
            Kind::Count,
            "1000",
            "the most iterations (not converged by then: an error)",
        ),
        Param::with_default(
            "tolerance",
            Kind::Real,
            "1e-8",
            "stop once one iteration changes the hubs (summing to 1) by less than this (L1 norm)",
        ),
        Param::with_default(
            "normalized",
            Kind::Flag,
            "true",
            "hubs and authorities each sum to 1 (else authorities of Euclidean norm 1, hubs A a)",
        ),
    ]
};

/// HITS in the [registry](crate::registry): `semigraph hits`, `semigraph.hits`, NetworkX's
/// `hits`.
pub struct Hits;

impl crate::registry::Algorithm for Hits {
    const INFO: crate::registry::Info = {
        use crate::registry::{Accepts, Info, NetworkX, Reads, Shape};
        Info {
            name: "hits",
            command: "hits",
            summary: "HITS hubs and authorities (power iteration on A^T A, unweighted), two \
                      values per vertex",
            params: &HITS_PARAMS,
            returns: &["hubs", "authorities"],
            reads: Reads::Structure,
            accepts: Accepts::Any,
            complexity: "O(iterations (n + m))",
            method: "two SpMVs in plus-times f64 per iteration",
            steps: "iterations",
            bench: &[],
            distributed: false,
            networkx: &[NetworkX {
                function: "hits",
                args: &[
                    // NetworkX's bounds ARPACK's restarts, not power iterations.
                    ("max_iter", ""),
                    ("tol", "tolerance"),
                    ("normalized", "normalized"),
                ],
                column: "hubs",
                shape: Shape::Pair("authorities"),
                simple: false,
            }],
        }
    };

    fn run<'b, B: crate::backend::Frontier + 'b>(
        g: &impl crate::registry::Views<'b, B>,
        args: &crate::registry::Args,
    ) -> Result<crate::registry::Output> {
        use crate::registry::{Column, Output, Values};
        let opts = PowerOptions {
            iterations: args.count("iterations").unwrap_or(1000),
            tolerance: args.real("tolerance").unwrap_or(1e-8),
        };
        let h = hits(
            g.structure()?,
            args.flag("normalized").unwrap_or(true),
            &opts,
        )?;
        Ok(Output {
            facts: vec![iterations_fact(h.iterations, h.delta)],
            steps: h.iterations,
            columns: vec![
                Column {
                    name: "hubs",
                    values: Values::Real(h.hubs),
                },
                Column {
                    name: "authorities",
                    values: Values::Real(h.authorities),
                },
            ],
        })
    }
}
