//! `semigraph generate`: a synthetic graph (grid, Kronecker, uniform, ...) written to a file.

use semigraph_formats::Combine;
use semigraph_formats::io::OutputFormat;

use super::convert::combine_arcs;
use crate::args::{Common, GenArgs, GenKind, WriteOpt, named};
use crate::error::{CliError, Res};
use crate::files::{generated, save};

/// Generates a graph and writes it (format from the --output name).
#[derive(clap::Args, Clone, Debug)]
pub struct GenerateArgs {
    /// What to generate.
    #[arg(value_enum)]
    pub kind: GenKind,
    #[command(flatten)]
    pub gen_args: GenArgs,
    /// Merge repeated arcs (Kronecker and uniform graphs repeat some) keeping the min,
    /// max, sum or first weight. Default: min when the output is Matrix Market, which
    /// forbids repeats; otherwise they are kept.
    #[arg(long, value_parser = named::<Combine>())]
    pub combine: Option<Combine>,
    #[command(flatten)]
    pub write: WriteOpt,
}

/// Runs `semigraph generate`.
pub(crate) fn exec(c: &Common, a: GenerateArgs) -> Res<()> {
    let path = c
        .output
        .as_ref()
        .ok_or_else(|| CliError("generate needs --output FILE".into()))?;
    let mut g = generated(a.kind, &a.gen_args)?;
    let to_mtx = OutputFormat::from_path(path) == Some(OutputFormat::MatrixMarket);
    match (a.combine, to_mtx) {
        (Some(how), _) => combine_arcs(c, &mut g, how)?,
        (None, true) => combine_arcs(c, &mut g, Combine::Min)?,
        (None, false) => {}
    }
    save(c, path, &g, None)
}
