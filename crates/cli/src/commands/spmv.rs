//! `semigraph spmv`: `y = A x` with `x` all `one`, in any built-in semiring and type, timed.

use std::path::PathBuf;

use semigraph_formats::{Format, WeightValue};

use crate::algo_jobs::SpmvJob;
use crate::args::{Choice, Common, RunOpts, auto_or, semiring_parser};
use crate::error::{CliError, Res};
use crate::files::load;
use crate::jobs::dispatch;
use crate::output::{Header, Output, command_line, write_vertices};

/// y = A x with x all `one`, in any built-in semiring and type; reports the median time.
/// Weights become semiring values (a file without weights gives `one` on every arc);
/// or-and and the secondi semirings use the structure only.
#[derive(clap::Args, Clone, Debug)]
pub struct SpmvArgs {
    /// The graph file.
    pub file: PathBuf,
    /// The semiring and its value type, as name:type.
    #[arg(long, default_value = "plus-times:f32", value_parser = semiring_parser())]
    pub semiring: String,
    /// Timed repetitions (after one warm-up).
    #[arg(long, default_value_t = 20)]
    pub repeat: usize,
    /// Storage format.
    #[arg(long, value_parser = auto_or::<Format>(), default_value = "auto")]
    pub format: Choice<Format>,
    /// Most values (padding included) ELL or DIA may store per entry.
    #[arg(long, default_value_t = 8.0)]
    pub max_fill: f64,
    #[command(flatten)]
    pub opts: RunOpts,
}

/// Runs `semigraph spmv`.
pub(crate) fn exec(c: &Common, a: SpmvArgs) -> Res<()> {
    let g = load(&a.file, c)?;
    let mut h = Header::new(&command_line(), &a.file, &g);
    let out = Output::new(c);
    let ran = semigraph_semiring::with_builtin!(&a.semiring, S => {
        let (hh, y) = dispatch(
            c,
            SpmvJob::<S> {
                file: &a.file,
                g: &g,
                format: a.format.0,
                max_fill: a.max_fill,
                repeat: a.repeat.max(1),
                _s: Default::default(),
            },
        )?;
        h.extend(hh);
        write_vertices(&out, &h, &g, y.len(), |v| Some(y[v].text()), |_| None)?;
    });
    match ran {
        Some(()) => Ok(()),
        None => Err(CliError(format!("no built-in semiring {}", a.semiring))),
    }
}
