//! Graph files in and out: reading (with the options every subcommand shares), writing
//! safely, generated graphs, and errors that speak the file's numbering.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};

use semigraph_formats::edgelist::WeightSpec;
use semigraph_formats::io::{
    InputFormat, OutputFormat, Progress, ReadOptions, detect_format, read_graph, write_graph,
};
use semigraph_formats::{Csr, EdgeList, FormatError, WeightValue, Weights, generate};
use semigraph_semiring::Semiring;

use crate::args::{Common, GenArgs, GenKind};
use crate::error::{CliError, Res};
use crate::output::note;

/// `(vertices, arcs)` of the graph `kind` with `a`'s sizes, computed without building it.
fn generated_size(kind: GenKind, a: &GenArgs) -> (u128, u128) {
    let (r, c, n) = (a.rows as u128, a.cols as u128, a.n as u128);
    match kind {
        GenKind::Grid => (
            r * c,
            2 * (r * c.saturating_sub(1) + c * r.saturating_sub(1)),
        ),
        GenKind::Kronecker | GenKind::Urand => {
            let v = 1u128 << a.scale.min(100);
            (v, (a.edge_factor as u128) << a.scale.min(100))
        }
        GenKind::Path | GenKind::Star => (n, n.saturating_sub(1)),
        GenKind::Complete => (n, n * n.saturating_sub(1)),
        GenKind::Stencil => {
            let v = parse_dims(&a.dims).map_or(0, |d| d.iter().map(|&x| x as u128).product());
            (v, v * a.points as u128)
        }
        GenKind::Banded => (n, n * (2 * a.bandwidth as u128 + 1)),
        GenKind::Mesh => (r * c, 7 * r * c),
        GenKind::ChungLu => (n, n * a.edge_factor as u128),
        GenKind::Bipartite => (r.max(c), r * a.edge_factor as u128),
        GenKind::BlockDiagonal => {
            let v = a.blocks as u128 * a.block_size as u128;
            (v, v * a.block_size as u128)
        }
    }
}

/// `1000x1000` or `100x100x100`: two or three sizes.
fn parse_dims(s: &str) -> Res<Vec<usize>> {
    let d: Vec<usize> = s
        .split('x')
        .map(|p| p.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            CliError(format!(
                "--dims {s:?}: expected sizes like 1000x1000 or 100x100x100"
            ))
        })?;
    if !(2..=3).contains(&d.len()) || d.contains(&0) {
        return Err(CliError(format!(
            "--dims {s:?}: two or three sizes, each at least 1"
        )));
    }
    Ok(d)
}

/// `a,b,c`: Kronecker quadrant probabilities, each in 0..=1, summing to at most 1.
fn parse_abc(s: &str) -> Res<[f64; 3]> {
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            CliError(format!(
                "--abc {s:?}: expected three numbers like 0.57,0.19,0.19"
            ))
        })?;
    match v.as_slice() {
        &[a, b, c] if a >= 0.0 && b >= 0.0 && c >= 0.0 && a + b + c <= 1.0 + 1e-12 => Ok([a, b, c]),
        _ => Err(CliError(format!(
            "--abc {s:?}: three non-negative probabilities with a sum of at most 1"
        ))),
    }
}

/// Builds the graph `kind` with `a`'s sizes, after checking that its ids fit 32 bits and that
/// the machine has the memory for it (bytes needed and available otherwise).
pub(crate) fn generated(kind: GenKind, a: &GenArgs) -> Res<EdgeList> {
    let w = parse_weights(&a.weights)?;
    if matches!(kind, GenKind::Kronecker | GenKind::Urand) && a.scale > 31 {
        return Err(CliError(format!(
            "--scale {} is too large: 2^{} vertices do not fit 32-bit ids (at most 31)",
            a.scale, a.scale
        )));
    }
    match kind {
        GenKind::Stencil => {
            let d = parse_dims(&a.dims)?;
            let ok = matches!((d.len(), a.points), (2, 5 | 9) | (3, 7 | 27));
            if !ok {
                return Err(CliError(format!(
                    "--points {} on {} dimensions: 5 or 9 on two, 7 or 27 on three",
                    a.points,
                    d.len()
                )));
            }
        }
        GenKind::Banded | GenKind::BlockDiagonal if !(0.0..=1.0).contains(&a.density) => {
            return Err(CliError(format!("--density {} outside 0..=1", a.density)));
        }
        GenKind::ChungLu if a.exponent.is_nan() || a.exponent <= 1.0 => {
            return Err(CliError(format!("--exponent {} must exceed 1", a.exponent)));
        }
        _ => {}
    }
    let (n, m) = generated_size(kind, a);
    if n > u32::MAX as u128 {
        return Err(CliError(format!(
            "{n} vertices do not fit 32-bit vertex ids (at most {})",
            u32::MAX
        )));
    }
    // Arcs (source, target, 64-bit weight) plus what generation and writing add around them.
    let needed = m.saturating_mul(2 * 16).min(u64::MAX as u128) as u64;
    semigraph_formats::memory::check(needed).map_err(|(needed, available)| {
        CliError(format!(
            "the graph has {m} arcs and would need {} of memory, {} are available; \
             refused before allocating",
            semigraph_formats::error::fmt_bytes(needed),
            semigraph_formats::error::fmt_bytes(available)
        ))
    })?;
    let mut g = match kind {
        GenKind::Grid => {
            let (lo, hi) = w.unwrap_or((1, 1));
            generate::grid(a.rows, a.cols, lo, hi, a.seed)
        }
        GenKind::Kronecker => {
            generate::kronecker_with(a.scale, a.edge_factor, parse_abc(&a.abc)?, a.seed)
        }
        GenKind::Stencil => generate::stencil(&parse_dims(&a.dims)?, a.points),
        GenKind::Banded => generate::banded(a.n, a.bandwidth, a.density, a.seed),
        GenKind::Mesh => generate::mesh(a.rows, a.cols, a.shuffle, a.seed),
        GenKind::ChungLu => generate::chung_lu(a.n, a.edge_factor, a.exponent, a.seed),
        GenKind::Bipartite => generate::bipartite(a.rows, a.cols, a.edge_factor, a.seed),
        GenKind::BlockDiagonal => {
            generate::block_diagonal(a.blocks, a.block_size, a.density, a.seed)
        }
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

/// Refuses to write `out` over one of the `inputs` (the same file, by device and inode, or
/// by canonical path).
pub(crate) fn refuse_overwriting_input(out: &Path, inputs: &[&Path]) -> Res<()> {
    for input in inputs {
        if same_file(out, input) {
            return Err(CliError(format!(
                "refusing to write {} over the input file {}",
                out.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Whether two output paths name the same file, existing or not (by device and inode when
/// both exist, else by absolute path with the folder resolved).
pub(crate) fn same_target(a: &Path, b: &Path) -> bool {
    if same_file(a, b) {
        return true;
    }
    let resolve = |p: &Path| -> Option<PathBuf> {
        let dir = match p.parent().filter(|d| !d.as_os_str().is_empty()) {
            Some(d) => std::fs::canonicalize(d).ok()?,
            None => std::env::current_dir().ok()?,
        };
        Some(dir.join(p.file_name()?))
    };
    matches!((resolve(a), resolve(b)), (Some(x), Some(y)) if x == y)
}

/// The files a graph file stands for: LDBC graphs are a `.v` and an `.e` file (each may be
/// compressed).
pub(crate) fn graph_files(file: &Path) -> Vec<std::path::PathBuf> {
    match semigraph_formats::io::detect_format(file) {
        Ok(semigraph_formats::io::InputFormat::Ldbc) => {
            let (v, e) = semigraph_formats::io::ldbc_names(file);
            vec![v, e]
        }
        _ => vec![file.to_path_buf()],
    }
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
    read(file, c, false)
}

/// [`load`] for a command that needs only the arcs: the weights are not kept (a `.npz` file's
/// value array is not read).
pub(crate) fn load_pattern(file: &Path, c: &Common) -> Res<EdgeList> {
    read(file, c, true)
}

fn read(file: &Path, c: &Common, pattern: bool) -> Res<EdgeList> {
    let start = std::time::Instant::now();
    let g = read_graph(
        file,
        &ReadOptions {
            format: c.input_format,
            undirected: c.undirected,
            progress: (!c.quiet && std::io::stderr().is_terminal()).then(read_bar),
            pattern,
            ..Default::default()
        },
    )?;
    let took = start.elapsed();
    *LAST_READ.lock().unwrap_or_else(|e| e.into_inner()) = Some(took);
    let secs = took.as_secs_f64();
    let binary = matches!(
        c.input_format
            .map_or_else(|| detect_format(file).ok(), Some),
        Some(InputFormat::Npz | InputFormat::Gap { .. })
    );
    if !c.quiet && !binary && secs >= SUGGEST_BINARY_SECS && g.labels.is_none() {
        eprintln!(
            "note: reading {} took {secs:.1} s; `semigraph convert {} -o GRAPH.npz` once, then \
             GRAPH.npz loads at disk speed (SciPy's load_npz reads it too)",
            file.display(),
            file.display()
        );
    }
    Ok(g)
}

/// How long the last [`load`] took (for the output's header).
static LAST_READ: Mutex<Option<std::time::Duration>> = Mutex::new(None);

/// How long the last [`load`] took, if a file was read.
pub(crate) fn last_read() -> Option<std::time::Duration> {
    *LAST_READ.lock().unwrap_or_else(|e| e.into_inner())
}

/// A text read at least this long suggests the binary format.
const SUGGEST_BINARY_SECS: f64 = 2.0;

/// Files at least this large get a progress bar while they are read.
const PROGRESS_BYTES: u64 = 16 << 20;

/// A progress bar on standard error for each file of [`PROGRESS_BYTES`] or more that a read
/// reports on (an LDBC graph is two files).
fn read_bar() -> Progress {
    let bar: Mutex<Option<(PathBuf, ProgressBar)>> = Mutex::new(None);
    Progress::new(move |path, done, total| {
        if total < PROGRESS_BYTES {
            return;
        }
        let mut slot = bar.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_none_or(|(p, _)| p != path) {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            b.set_message(format!("reading {}", path.display()));
            if let Some((_, old)) = slot.replace((path.to_path_buf(), b)) {
                old.finish_and_clear();
            }
        }
        if let Some((_, b)) = slot.as_ref() {
            b.set_length(total);
            b.set_position(done);
            if done >= total {
                b.finish_and_clear();
            }
        }
    })
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

/// `g` as a CSR matrix of semiring `S` (its pattern, with `pattern`); errors name the file and
/// speak its vertex numbering.
pub(crate) fn csr_of<S: Semiring>(file: &Path, g: &EdgeList, pattern: bool) -> Res<Csr<S, u32>>
where
    S::T: WeightValue,
{
    let r = if pattern {
        g.to_pattern_csr::<S, u32>()
    } else {
        g.to_csr::<S, u32>()
    };
    r.map_err(|e| csr_error(file, g, e))
}

/// An error building a matrix of `g`'s arcs, naming `file` and speaking its vertex
/// numbering.
pub(crate) fn csr_error(file: &Path, g: &EdgeList, e: FormatError) -> CliError {
    match e {
        FormatError::BadValue {
            row,
            col,
            value,
            ty,
        } => CliError(format!(
            "{}: arc {} -> {} has weight {value}, which {ty} cannot represent",
            file.display(),
            g.vertex_label(row),
            g.vertex_label(col)
        )),
        e => CliError(format!("{}: {e}", file.display())),
    }
}

/// The sources of a run: `--source`, or every source of a DIMACS `.ss` file (its ids in the
/// graph file's numbering).
pub(crate) fn sources_of(
    g: &EdgeList,
    source: Option<i64>,
    sources: Option<&Path>,
    file: &Path,
) -> Res<Vec<usize>> {
    match (source, sources) {
        (Some(s), None) => Ok(vec![source_of(g, s, file)?]),
        (None, Some(ss)) => {
            let ids = semigraph_formats::io::read_sources(ss)?;
            if ids.is_empty() {
                return Err(CliError(format!("{}: no sources", ss.display())));
            }
            ids.iter()
                .map(|&v| source_of(g, v as i64 + 1, file))
                .collect()
        }
        _ => Err(CliError("give --source or --sources (not both)".into())),
    }
}
