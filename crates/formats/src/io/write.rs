//! Writers, and atomic file replacement.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::edgelist::{EdgeList, Weights};

/// The output file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Matrix Market coordinate general, 1-based.
    MatrixMarket,
    /// DIMACS `.gr` (`p sp`, `a u v w`), 1-based; unweighted arcs get weight 1.
    Dimacs,
    /// Edge list, 0-based, `u v` or `u v w`.
    EdgeList,
    /// LDBC `.v` and `.e` (the path names either; both are written), vertex labels.
    Ldbc,
    /// GML, directed, vertex labels as ids.
    Gml,
}

impl OutputFormat {
    /// From a file name (`.gz`/`.xz` suffixes ignored).
    pub fn from_path(path: &Path) -> Option<OutputFormat> {
        let name = super::base_name(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e)?;
        Some(match ext {
            "mtx" | "mm" => OutputFormat::MatrixMarket,
            "gr" => OutputFormat::Dimacs,
            "el" | "wel" | "txt" | "edges" => OutputFormat::EdgeList,
            "v" | "e" => OutputFormat::Ldbc,
            "gml" => OutputFormat::Gml,
            _ => return None,
        })
    }
}

/// Writes `path` atomically: into a temporary file beside it, then renamed over it, so no
/// reader ever sees a half-written file. A `.gz` or `.xz` name is compressed.
pub fn write_atomic(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let file = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        let lower = name.to_string_lossy().to_ascii_lowercase();
        if lower.ends_with(".gz") {
            let mut w = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            body(&mut w)?;
            w.finish()?
                .into_inner()
                .map_err(|e| e.into_error())?
                .sync_all()?;
        } else if lower.ends_with(".xz") {
            let mut w = liblzma::write::XzEncoder::new(file, 6);
            body(&mut w)?;
            w.finish()?
                .into_inner()
                .map_err(|e| e.into_error())?
                .sync_all()?;
        } else {
            let mut w = file;
            body(&mut w)?;
            w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        }
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn weight_str(g: &EdgeList, k: usize) -> Option<String> {
    g.weights.get(k).map(|w| w.to_string())
}

/// Writes `g` to `path` in `format` (or the one its name implies), atomically.
pub fn write_graph(
    path: impl AsRef<Path>,
    g: &EdgeList,
    format: Option<OutputFormat>,
) -> io::Result<()> {
    let path = path.as_ref();
    let format = format
        .or_else(|| OutputFormat::from_path(path))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot tell the output format of {}", path.display()),
            )
        })?;
    match format {
        OutputFormat::MatrixMarket => {
            if let Some((s, d)) = first_duplicate(g) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "arc ({}, {}) appears twice and Matrix Market forbids duplicate entries; \
                         build a matrix first (duplicates combine with the semiring's add)",
                        s + 1,
                        d + 1
                    ),
                ));
            }
            write_atomic(path, |w| write_mtx(w, g))
        }
        OutputFormat::Dimacs => write_atomic(path, |w| {
            writeln!(w, "c written by semigraph")?;
            writeln!(w, "p sp {} {}", g.num_vertices(), g.len())?;
            for k in 0..g.len() {
                let wt = weight_str(g, k).unwrap_or_else(|| "1".into());
                writeln!(w, "a {} {} {wt}", g.src[k] + 1, g.dst[k] + 1)?;
            }
            Ok(())
        }),
        OutputFormat::EdgeList => write_atomic(path, |w| {
            for k in 0..g.len() {
                match weight_str(g, k) {
                    Some(wt) => writeln!(w, "{} {} {wt}", g.src[k], g.dst[k])?,
                    None => writeln!(w, "{} {}", g.src[k], g.dst[k])?,
                }
            }
            Ok(())
        }),
        OutputFormat::Ldbc => {
            let s = path.to_string_lossy();
            let stem = s
                .strip_suffix(".v")
                .or_else(|| s.strip_suffix(".e"))
                .unwrap_or(&s);
            write_atomic(Path::new(&format!("{stem}.v")), |w| {
                for v in 0..g.num_vertices() {
                    writeln!(w, "{}", g.vertex_label(v))?;
                }
                Ok(())
            })?;
            write_atomic(Path::new(&format!("{stem}.e")), |w| {
                for k in 0..g.len() {
                    let (a, b) = (
                        g.vertex_label(g.src[k] as usize),
                        g.vertex_label(g.dst[k] as usize),
                    );
                    match weight_str(g, k) {
                        Some(wt) => writeln!(w, "{a} {b} {wt}")?,
                        None => writeln!(w, "{a} {b}")?,
                    }
                }
                Ok(())
            })
        }
        OutputFormat::Gml => write_atomic(path, |w| {
            writeln!(w, "graph\n[\n  directed 1")?;
            for v in 0..g.num_vertices() {
                writeln!(w, "  node\n  [\n    id {}\n  ]", g.vertex_label(v))?;
            }
            for k in 0..g.len() {
                let (a, b) = (
                    g.vertex_label(g.src[k] as usize),
                    g.vertex_label(g.dst[k] as usize),
                );
                write!(w, "  edge\n  [\n    source {a}\n    target {b}\n")?;
                if let Some(wt) = weight_str(g, k) {
                    writeln!(w, "    value {wt}")?;
                }
                writeln!(w, "  ]")?;
            }
            writeln!(w, "]")
        }),
    }
}

/// An arc given twice, if any.
fn first_duplicate(g: &EdgeList) -> Option<(u32, u32)> {
    let mut arcs: Vec<(u32, u32)> = g.src.iter().copied().zip(g.dst.iter().copied()).collect();
    arcs.sort_unstable();
    arcs.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
}

/// Matrix Market coordinate general.
fn write_mtx(w: &mut dyn Write, g: &EdgeList) -> io::Result<()> {
    let field = match g.weights {
        Weights::None => "pattern",
        Weights::Int(_) => "integer",
        Weights::UInt(_) => "integer",
        Weights::Real(_) => "real",
    };
    writeln!(w, "%%MatrixMarket matrix coordinate {field} general")?;
    if matches!(g.weights, Weights::UInt(_)) {
        writeln!(w, "%%GraphBLAS type uint64_t")?;
    }
    writeln!(w, "% written by semigraph")?;
    writeln!(w, "{} {} {}", g.nrows, g.ncols, g.len())?;
    for k in 0..g.len() {
        match weight_str(g, k) {
            Some(wt) => writeln!(w, "{} {} {wt}", g.src[k] + 1, g.dst[k] + 1)?,
            None => writeln!(w, "{} {}", g.src[k] + 1, g.dst[k] + 1)?,
        }
    }
    Ok(())
}
