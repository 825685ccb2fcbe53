//! Checks a run passes before it starts: the memory it will hold fits the machine, and the
//! integer sums it will compute fit their type (a refusal up front, never a wrong answer or
//! an abort half-way).

use std::path::Path;

use semigraph_algos::{Backend, DistanceType, DistanceTypeError, distance_type};
use semigraph_formats::{EdgeList, WeightValue};
use semigraph_semiring::Semiring;
use serde_json::json;

use crate::args::Choice;
use crate::error::{CliError, Res};
use crate::output::Field;

/// Refuses, before anything is built, a run whose host memory (the CSR built from `g` unless
/// `built` (then it is held already), the graph on backend `b` with a pull matrix when `pull`,
/// and a traversal's state when `traversal`) exceeds what the machine has:
/// `semigraph_algos::memory`'s bounds, each checked against the peak a counting allocator
/// measures.
pub(crate) fn plan<B: Backend>(
    b: &B,
    g: &EdgeList,
    value_bytes: usize,
    (pull, traversal): (bool, bool),
    built: bool,
) -> Res<()> {
    plan_with(b, g, value_bytes, (pull, traversal), built, 0)
}

/// [`plan`] with `work` more bytes held by the run (a kernel's working memory,
/// `semigraph_algos::memory::kernel_host_bytes`).
pub(crate) fn plan_with<B: Backend>(
    b: &B,
    g: &EdgeList,
    value_bytes: usize,
    (pull, traversal): (bool, bool),
    built: bool,
    work: u64,
) -> Res<()> {
    let n = g.num_vertices();
    let csr = if built {
        0
    } else {
        semigraph_formats::csr_build_bytes::<u32>(g.nrows, g.ncols, g.len(), value_bytes)
    };
    let graph = semigraph_algos::graph_host_bytes(b.kind(), n, g.len(), value_bytes, pull);
    let state = if traversal {
        semigraph_algos::traversal_host_bytes(b.kind(), n, value_bytes)
    } else {
        0
    };
    let needed = csr
        .saturating_add(graph)
        .saturating_add(state)
        .saturating_add(work);
    semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
        CliError(format!(
            "a graph of {n} vertices and {} arcs needs {} of memory to run here, {} are \
             available; refused before allocating",
            g.len(),
            semigraph_formats::error::fmt_bytes(needed),
            semigraph_formats::error::fmt_bytes(available)
        ))
    })
}

/// The operands of `C<M> = A (+).(x) B`: `A`, `B` and the mask with whether it is
/// complemented.
pub(crate) type Operands<'a, S, M> = (
    &'a semigraph_formats::Csr<S>,
    &'a semigraph_formats::Csr<S>,
    Option<(&'a semigraph_formats::Csr<M>, bool)>,
);

/// A product's exact values, or a refusal naming the first result its semiring's type
/// cannot hold ([`semigraph_algos::exact`]): integer sums wrap around (as C, CUDA and
/// GraphBLAS integers do) and the path semirings' sums saturate at the value that stands for
/// "no entry", so each result is found in wider numbers first. `what` says where the
/// result is (`row 3 of A sums to` / `entry (1, 2) of the product is`), given its row and
/// column.
pub(crate) fn exact_product<S: Semiring, M: Semiring>(
    file: &Path,
    (a, b, mask): Operands<'_, S, M>,
    what: impl Fn(usize, usize) -> String,
) -> Res<()>
where
    S::T: WeightValue,
{
    semigraph_algos::exact::check_product(a, b, mask)
        .map_err(|e| CliError(format!("{}: {}", file.display(), e.message::<S>(what))))
}

/// The `distances` header field: the type, and how it was chosen.
pub(crate) fn distances_field(ty: DistanceType, why: &str) -> Field {
    Field::with(
        "distances",
        format!("{ty}{why}"),
        json!({"type": ty.to_string(), "chosen_by": if why.is_empty() { "asked for" } else { "auto" }}),
    )
}

/// The distance type for shortest paths over `g` (see [`distance_type`]), and a note for the
/// output header saying how it was chosen; errors name the file, and the line or arc.
pub(crate) fn pick_distances(
    g: &EdgeList,
    file: &Path,
    walk_arcs: usize,
    choice: Choice<DistanceType>,
) -> Res<(DistanceType, String)> {
    match distance_type(g, walk_arcs, choice.0) {
        Ok(ty) => {
            let why = match choice {
                Choice(None) => " (auto: the narrowest type that holds every path length)",
                Choice(Some(_)) => "",
            };
            Ok((ty, why.to_string()))
        }
        Err(DistanceTypeError::NonFinite {
            line: Some(line),
            value,
        }) => Err(CliError(format!(
            "{}:{line}: weight {value} is not a finite number; shortest paths need finite weights",
            file.display()
        ))),
        Err(DistanceTypeError::Inexact { arc, weight, ty }) => Err(CliError(format!(
            "{}: arc {} -> {} has weight {weight}, which {ty} distances cannot hold exactly \
             (use --distances auto)",
            file.display(),
            g.vertex_label(g.src[arc] as usize),
            g.vertex_label(g.dst[arc] as usize)
        ))),
        Err(e) => Err(CliError(format!("{}: {e}", file.display()))),
    }
}
