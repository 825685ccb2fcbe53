//! Graph files in and out: reading (with the options every subcommand shares), writing
//! safely, generated graphs, and errors that speak the file's numbering.

use std::path::Path;

use semigraph_formats::edgelist::WeightSpec;
use semigraph_formats::io::{OutputFormat, ReadOptions, read_graph, write_graph};
use semigraph_formats::{EdgeList, Weights, generate};

use crate::args::{Common, GenArgs, GenKind};
use crate::{CliError, Res, note};

/// Builds the graph `kind` with `a`'s sizes.
pub(crate) fn generated(kind: GenKind, a: &GenArgs) -> Res<EdgeList> {
    let w = parse_weights(&a.weights)?;
    if matches!(kind, GenKind::Kronecker | GenKind::Urand) && a.scale > 30 {
        return Err(CliError(format!(
            "--scale {} is too large (at most 30: 32-bit ids)",
            a.scale
        )));
    }
    let big = |v: usize| v > u32::MAX as usize;
    if (kind == GenKind::Grid && (big(a.rows.saturating_mul(a.cols))))
        || (kind == GenKind::Complete && big(a.n.saturating_mul(a.n)))
    {
        return Err(CliError("the graph does not fit 32-bit ids".into()));
    }
    let mut g = match kind {
        GenKind::Grid => {
            let (lo, hi) = w.unwrap_or((1, 1));
            generate::grid(a.rows, a.cols, lo, hi, a.seed)
        }
        GenKind::Kronecker => generate::kronecker(a.scale, a.edge_factor, a.seed),
        GenKind::Urand => generate::urand(a.scale, a.edge_factor, a.seed),
        GenKind::Path => generate::path(a.n),
        GenKind::Star => generate::star(a.n),
        GenKind::Complete => generate::complete(a.n),
    };
    if kind != GenKind::Grid {
        g.assign_weights(match w {
            None => WeightSpec::Unit,
            Some((lo, hi)) => WeightSpec::Uniform {
                lo,
                hi,
                seed: a.seed,
            },
        });
    }
    Ok(g)
}

/// Writes `g` to `path` (atomically) and says so.
pub(crate) fn save(c: &Common, path: &Path, g: &EdgeList, fmt: Option<OutputFormat>) -> Res<()> {
    write_graph(path, g, fmt).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let msg = format!(
        "wrote {} ({} vertices, {} arcs)",
        path.display(),
        g.num_vertices(),
        g.len()
    );
    note(c, &msg);
    Ok(())
}

pub(crate) fn load(file: &Path, c: &Common) -> Res<EdgeList> {
    Ok(read_graph(
        file,
        &ReadOptions {
            undirected: c.undirected,
            quiet: c.quiet,
            ..Default::default()
        },
    )?)
}

/// [`load`], with weight 1 on every arc of a file that has no weights (so distances count
/// hops; a pattern read into min-plus would otherwise weigh its semiring `one`, 0).
pub(crate) fn load_weighted(file: &Path, c: &Common) -> Res<EdgeList> {
    let mut g = load(file, c)?;
    if matches!(g.weights, Weights::None) {
        g.assign_weights(WeightSpec::Unit);
    }
    Ok(g)
}

pub(crate) fn source_of(g: &EdgeList, label: i64, file: &Path) -> Res<usize> {
    g.vertex_of_label(label).ok_or_else(|| {
        let n = g.num_vertices();
        let range = if n == 0 {
            "it has no vertices".to_string()
        } else if g.labels.is_some() {
            "see its .v file for the vertex ids".to_string()
        } else {
            format!(
                "its ids are {}..={}",
                g.vertex_label(0),
                g.vertex_label(n - 1)
            )
        };
        CliError(format!(
            "source {label} is not a vertex of {}: {range}",
            file.display()
        ))
    })
}

pub(crate) fn parse_weights(s: &str) -> Res<Option<(i64, i64)>> {
    if s == "unit" {
        return Ok(None);
    }
    let bad = || {
        CliError(format!(
            "--weights {s:?}: expected LO..HI (integers, LO <= HI) or unit"
        ))
    };
    let (lo, hi) = s.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (i64, i64) = (
        lo.trim().parse().map_err(|_| bad())?,
        hi.trim()
            .trim_start_matches('=')
            .parse()
            .map_err(|_| bad())?,
    );
    if lo > hi {
        return Err(bad());
    }
    Ok(Some((lo, hi)))
}
