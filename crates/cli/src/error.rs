//! The command line's error: a message for the user, printed as `semigraph: error: ...`
//! with exit status 1, and the algorithms' errors in the input's vertex numbering.

use semigraph_formats::EdgeList;

/// An error for the user: printed as `semigraph: error: ...`, exit status 1.
#[derive(Debug)]
pub(crate) struct CliError(pub(crate) String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! cli_error_from {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError(e.to_string())
            }
        }
    )*};
}
cli_error_from!(
    semigraph_algos::Error,
    semigraph_formats::ReadError,
    semigraph_formats::FormatError,
    semigraph_gpu::GpuError,
    std::io::Error
);

pub(crate) type Res<T> = Result<T, CliError>;

/// An algorithm error with vertex ids in the input's numbering.
pub(crate) fn labelled(g: &EdgeList, e: semigraph_algos::Error) -> CliError {
    match e {
        semigraph_algos::Error::NegativeCycle { cycle } => {
            CliError(format!("negative cycle {}", cycle_text(g, &cycle)))
        }
        semigraph_algos::Error::NoPath { from, to } => CliError(format!(
            "no path from {} to {}",
            g.vertex_label(from),
            g.vertex_label(to)
        )),
        semigraph_algos::Error::Cycle { algorithm, cycle } => CliError(format!(
            "{algorithm} needs a graph without cycles; cycle {}",
            cycle_text(g, &cycle)
        )),
        semigraph_algos::Error::NegativeWeight {
            algorithm,
            from,
            to,
            weight,
        } => CliError(format!(
            "{algorithm} needs non-negative weights; arc {} -> {} has weight {weight} (use --algo bellman-ford)",
            g.vertex_label(from),
            g.vertex_label(to)
        )),
        e => e.into(),
    }
}

/// `through N vertices: a -> b -> ... -> a` in the input's numbering (a cycle of a million
/// vertices named by its first few).
fn cycle_text(g: &EdgeList, cycle: &[u32]) -> String {
    const SHOWN: usize = 20;
    let ids: Vec<String> = cycle
        .iter()
        .chain(cycle.first())
        .take(SHOWN + 1)
        .map(|&v| g.vertex_label(v as usize).to_string())
        .collect();
    let more = if cycle.len() > SHOWN {
        format!(" -> ... ({} more)", cycle.len() - SHOWN)
    } else {
        String::new()
    };
    format!(
        "through {} vertices: {}{more}",
        cycle.len(),
        ids.join(" -> ")
    )
}
