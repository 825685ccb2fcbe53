//! `semigraph convert`: a graph file in another file format, repeated arcs merged on request.

use std::path::{Path, PathBuf};

use semigraph_formats::io::OutputFormat;
use semigraph_formats::{Combine, EdgeList};

use crate::args::{Common, InputOpt, WriteOpt, named};
use crate::error::{CliError, Res};
use crate::files::{load, save};
use crate::output::note;

/// Converts a graph file to another file format (by the --output name or --to).
#[derive(clap::Args, Clone, Debug)]
pub struct ConvertArgs {
    /// The graph file.
    pub file: PathBuf,
    /// Output format: mtx, gr, el, ldbc, gml (default: from the output name).
    #[arg(long)]
    pub to: Option<String>,
    /// Merge repeated arcs u -> v into one, keeping the min, max, sum or first weight
    /// (Matrix Market forbids repeated entries; other formats keep them unless asked).
    #[arg(long, value_parser = named::<Combine>())]
    pub combine: Option<Combine>,
    #[command(flatten)]
    pub input: InputOpt,
    #[command(flatten)]
    pub write: WriteOpt,
}

/// Runs `semigraph convert`.
pub(crate) fn exec(c: &Common, a: ConvertArgs) -> Res<()> {
    let mut g = load(&a.file, c)?;
    let path = c
        .output
        .as_ref()
        .ok_or_else(|| CliError("convert needs --output FILE".into()))?;
    let fmt = match a.to.as_deref() {
        None => None,
        Some(t) => Some(
            OutputFormat::from_path(Path::new(&format!("x.{t}"))).ok_or_else(|| {
                CliError(format!(
                    "unknown output format {t:?} (mtx, gr, el, ldbc (v/e), gml)"
                ))
            })?,
        ),
    };
    if let Some(how) = a.combine {
        combine_arcs(c, &mut g, how)?;
    }
    save(c, path, &g, fmt).map_err(|e| {
        if e.0.contains("appears twice") {
            CliError(format!(
                "{e} (pass --combine min|max|sum|first to merge repeated arcs)"
            ))
        } else {
            e
        }
    })
}

/// Merges repeated arcs and says how many.
pub(crate) fn combine_arcs(c: &Common, g: &mut EdgeList, how: Combine) -> Res<()> {
    let removed = g.combine_parallel(how)?;
    if removed > 0 {
        note(
            c,
            &format!(
                "merged {removed} repeated arcs (kept the {} weight)",
                format!("{how:?}").to_lowercase()
            ),
        );
    }
    Ok(())
}
