//! Checks a run passes before it starts: the memory it will hold fits the machine, and the
//! integer sums it will compute fit their type (a refusal up front, never a wrong answer or
//! an abort half-way).

use std::path::Path;

use semigraph_algos::{Backend, DistanceType, DistanceTypeError, distance_type};
use semigraph_formats::{EdgeList, Weight, WeightValue};
use semigraph_semiring::Semiring;
use serde_json::json;

use crate::args::Choice;
use crate::output::Field;
use crate::{CliError, Res};

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
    let needed = csr.saturating_add(graph).saturating_add(state);
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

/// `spmv` multiplies by a vector of ones; in an integer plus-times semiring that is each row's
/// sum, which wraps around (as C, CUDA and GraphBLAS integers do) when it leaves the type.
/// Wrapping arithmetic is exact modulo `2^bits`, so the computed sums are right exactly when
/// the true sums fit: those are computed here in 128 bits, and a row whose sum does not fit
/// is refused, naming the row, its sum and a type that holds it.
pub(crate) fn exact_row_sums<S: Semiring>(
    file: &std::path::Path,
    g: &EdgeList,
    a: &semigraph_formats::Csr<S, u32>,
) -> Res<()>
where
    S::T: semigraph_formats::WeightValue,
{
    use semigraph_semiring::{Scalar, ScalarType};
    let (lo, hi) = match <S::T as Scalar>::TYPE {
        ScalarType::I32 => (i32::MIN as i128, i32::MAX as i128),
        ScalarType::I64 => (i64::MIN as i128, i64::MAX as i128),
        ScalarType::U32 => (0, u32::MAX as i128),
        ScalarType::U64 => (0, u64::MAX as i128),
        _ => return Ok(()),
    };
    if S::NAME != "plus_times" {
        return Ok(()); // min/max of the entries plus 0: no sum leaves the type
    }
    let int = |v: S::T| match v.to_weight() {
        Weight::Int(x) => x as i128,
        Weight::UInt(x) => x as i128,
        Weight::Real(x) => x as i128,
    };
    for i in 0..a.nrows() {
        let sum: i128 = a.row(i).1.iter().map(|&v| int(v)).sum();
        if sum < lo || sum > hi {
            let wider = match <S::T as Scalar>::TYPE {
                ScalarType::I32 | ScalarType::U32
                    if sum >= i64::MIN as i128 && sum <= i64::MAX as i128 =>
                {
                    "plus-times:i64"
                }
                _ => "plus-times:f64 (rounded)",
            };
            return Err(CliError(format!(
                "{}: row {} of A sums to {sum}, which {} cannot hold (its sums would wrap \
                 around); use {wider}",
                file.display(),
                g.vertex_label(i),
                <S::T as Scalar>::TYPE.name()
            )));
        }
    }
    Ok(())
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
