//! `semigraph bench formats`: the format-selection study. Every matrix of a corpus (a
//! manifest of generated and real matrices) is run in every format and CSR kernel, for each
//! semiring and backend; the table (CSV, one row per matrix x backend x semiring x variant)
//! is summarised per selector (oracle time over chosen time, worst case, how often the best)
//! and drawn (performance profiles and time per matrix, SVG).
//!
//! - [`manifest`]: the corpus file and how each matrix is built;
//! - [`measure`]: timing the variants on the GPU and CPU backends;
//! - [`table`]: the CSV rows, the selectors and the summary;
//! - [`plot`]: the SVG figures.

pub(crate) mod manifest;
pub(crate) mod measure;
pub(crate) mod plot;
pub(crate) mod table;

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::args::Common;
use crate::error::{CliError, Res};
use crate::output::Output;

/// What `bench formats` was asked to do.
pub(crate) struct StudyArgs {
    /// The corpus manifest (measure it), unless `from` is given.
    pub manifest: Option<PathBuf>,
    /// A CSV of an earlier run to summarise instead of measuring.
    pub from: Option<PathBuf>,
    /// Semirings on the GPU.
    pub semirings: Vec<String>,
    /// Semirings on the CPU backend.
    pub cpu_semirings: Vec<String>,
    /// Backends to measure.
    pub gpu: bool,
    /// Whether to measure the CPU backend.
    pub cpu: bool,
    /// Timed runs per variant.
    pub runs: usize,
    /// Stop starting new matrices after this many seconds.
    pub max_seconds: f64,
    /// Only the matrices with these names (all when empty).
    pub only: Vec<String>,
    /// Folder for the SVG figures.
    pub plots: Option<PathBuf>,
    /// Matrices with more entries than this run only the first `large_semirings` semirings of
    /// each backend's list (to bound the study's time).
    pub large_nnz: usize,
    /// How many semirings a large matrix runs.
    pub large_semirings: usize,
    /// Share of `x` set for semirings with a terminal value (see `Problem::of`).
    pub terminal_x_density: f64,
}

/// Runs the study (or summarises `--from`), writes the CSV to `--output` (rewritten after each
/// matrix) and prints the summary.
pub(crate) fn run(c: &Common, a: &StudyArgs) -> Res<()> {
    let rows = match (&a.from, &a.manifest) {
        (Some(csv), _) => table::read_csv(csv)?,
        (None, Some(m)) => {
            let entries = manifest::read(m)?;
            measure_all(c, a, &entries)?
        }
        (None, None) => {
            return Err(CliError(
                "bench formats: give a corpus manifest to measure, or --from RESULTS.csv".into(),
            ));
        }
    };
    if let Some(dir) = &a.plots {
        plot::draw_all(dir, &rows)?;
        if !c.quiet {
            eprintln!(
                "semigraph bench formats: figures written to {}",
                dir.display()
            );
        }
    }
    let summary = table::summarize(&rows);
    let out = Output::new(&Common {
        output: None,
        ..c.clone()
    });
    out.write(|w| {
        if c.json {
            writeln!(w, "{:#}", table::summary_json(&summary))
        } else {
            table::write_summary(w, &summary)
        }
    })
}

/// Measures every entry, rewriting the CSV after each one.
fn measure_all(
    c: &Common,
    a: &StudyArgs,
    entries: &[manifest::Entry],
) -> Res<Vec<table::Measured>> {
    let start = Instant::now();
    let mut ctx = measure::Context::new(a)?;
    let mut rows = Vec::new();
    for e in entries {
        if !a.only.is_empty() && !a.only.contains(&e.name) {
            continue;
        }
        if start.elapsed().as_secs_f64() > a.max_seconds {
            if !c.quiet {
                eprintln!(
                    "semigraph bench formats: --max-seconds {} reached; {} and the rest not measured",
                    a.max_seconds, e.name
                );
            }
            break;
        }
        let t = Instant::now();
        let g = match e.build(c) {
            Ok(g) => g,
            Err(err) => {
                eprintln!("semigraph bench formats: {}: skipped: {}", e.name, err.0);
                continue;
            }
        };
        let got = ctx.matrix(e, &g, c.quiet)?;
        if !c.quiet {
            eprintln!(
                "semigraph bench formats: {} ({}): {} rows in {:.1} s",
                e.name,
                e.structure,
                got.len(),
                t.elapsed().as_secs_f64()
            );
        }
        rows.extend(got);
        if let Some(path) = &c.output {
            write_rows(path, &rows)?;
        }
    }
    Ok(rows)
}

/// Writes the CSV atomically (a temporary file, then a rename).
fn write_rows(path: &Path, rows: &[table::Measured]) -> Res<()> {
    let text = table::to_csv(rows);
    semigraph_formats::io::write_atomic(path, |w| w.write_all(text.as_bytes()))
        .map_err(|e| CliError(format!("{}: {e}", path.display())))
}
