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
    /// `SciPy` `.npz` CSR matrix, 0-based (arrays stored, not deflated).
    Npz,
    /// GAP serialized graph, directed (`.sg`; `.wsg` with 32-bit integer weights).
    Gap {
        /// `.wsg`.
        weighted: bool,
    },
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
            "npz" => OutputFormat::Npz,
            "sg" => OutputFormat::Gap { weighted: false },
            "wsg" => OutputFormat::Gap { weighted: true },
            _ => return None,
        })
    }
}

/// Temporary files being written now, so that a signal handler can remove them
/// ([`remove_pending_temporaries`]).
static PENDING: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Removes every temporary file [`write_atomic`] is writing at this moment. For a handler of
/// SIGINT/SIGTERM: an interrupted run leaves no `.NAME.tmp-PID` file behind.
pub fn remove_pending_temporaries() {
    let pending = match PENDING.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    for p in pending.iter() {
        let _ = fs::remove_file(p);
    }
}

fn set_pending(p: &Path, on: bool) {
    let mut pending = match PENDING.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    if on {
        pending.push(p.to_path_buf());
    } else {
        pending.retain(|x| x != p);
    }
}

/// The body of a file being written: called once, with the (buffered, compressing) writer.
/// Taken as a trait object so that the writing machinery below is compiled once, not once
/// per caller's closure.
type Body<'a> = &'a mut dyn FnMut(&mut dyn Write) -> io::Result<()>;

/// Makes a [`Body`] of a closure that is called once.
fn once(
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> impl FnMut(&mut dyn Write) -> io::Result<()> {
    let mut body = Some(body);
    move |w| match body.take() {
        Some(f) => f(w),
        None => Err(io::Error::other("a file's body was written twice")),
    }
}

/// Runs `body` on `w`, compressed by the name's `.gz` / `.xz` suffix, and flushes.
fn encode(name: &str, w: &mut dyn Write, body: Body<'_>) -> io::Result<()> {
    let lower = name.to_ascii_lowercase();
    // A large buffer above the encoder: the encoders are slow on many small writes.
    if lower.ends_with(".gz") {
        let mut enc = BufWriter::with_capacity(
            1 << 20,
            flate2::write::GzEncoder::new(w, flate2::Compression::fast()),
        );
        body(&mut enc)?;
        enc.into_inner().map_err(|e| e.into_error())?.finish()?;
    } else if lower.ends_with(".xz") {
        let mut enc = BufWriter::with_capacity(1 << 20, liblzma::write::XzEncoder::new(w, 6));
        body(&mut enc)?;
        enc.into_inner().map_err(|e| e.into_error())?.finish()?;
    } else {
        let mut w = BufWriter::with_capacity(1 << 20, w);
        body(&mut w)?;
        w.flush()?;
    }
    Ok(())
}

/// Writes `path` safely:
/// - a regular file (or a new one) is written atomically: into a temporary file beside it,
///   then renamed over it, so no reader ever sees a half-written file; an existing file's
///   permissions are kept;
/// - a symbolic link is followed: its target is replaced atomically and the link stays;
///   a link to nothing is refused;
/// - anything else that exists (a FIFO, a character or block device such as `/dev/null`, a
///   socket) is written through in place, never replaced by a regular file; a directory is
///   refused.
///
/// A `.gz` or `.xz` name is compressed. The temporary is removed on failure, and on SIGINT or
/// SIGTERM where the program calls [`remove_pending_temporaries`] from its handler.
pub fn write_atomic(
    path: &Path,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    stage(path, &mut once(body))?.commit()
}

/// A file written in full beside its target, not yet renamed over it ([`stage`]); dropped
/// without [`Staged::commit`], its temporary is removed.
struct Staged {
    /// `(temporary, target)` for a regular file; `None` for one written through in place.
    temp: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl Staged {
    /// Renames the temporary over the target.
    fn commit(mut self) -> io::Result<()> {
        match self.temp.take() {
            None => Ok(()),
            Some((tmp, target)) => {
                let r = fs::rename(&tmp, &target);
                if r.is_err() {
                    let _ = fs::remove_file(&tmp);
                }
                set_pending(&tmp, false);
                r
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.temp.take() {
            let _ = fs::remove_file(&tmp);
            set_pending(&tmp, false);
        }
    }
}

/// Writes `body` for `path` as [`write_atomic`] does, up to the rename: what several files
/// that belong together (LDBC's `.v` and `.e`) need, so that none replaces its old version
/// before all are written.
fn stage(path: &Path, body: Body<'_>) -> io::Result<Staged> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy()
        .into_owned();
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("{} is a symbolic link to nothing ({e})", path.display()),
            )
        })?,
        _ => path.to_path_buf(),
    };
    let existing = fs::metadata(&target).ok();
    if let Some(m) = &existing {
        if m.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a directory", target.display()),
            ));
        }
        if !m.is_file() {
            // A device, FIFO or socket: write through.
            let mut f = fs::OpenOptions::new().write(true).open(&target)?;
            encode(&name, &mut f, body)?;
            return Ok(Staged { temp: None });
        }
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(name.clone()),
        std::process::id()
    ));
    set_pending(&tmp, true);
    // From here the temporary is removed on every path that does not rename it.
    let staged = Staged {
        temp: Some((tmp.clone(), target)),
    };
    let file = File::create(&tmp)?;
    if let Some(m) = &existing {
        file.set_permissions(m.permissions())?;
    }
    let mut file_ref = &file;
    encode(&name, &mut file_ref, body)?;
    file.sync_all()?;
    Ok(staged)
}

/// The `.v` and `.e` files of the LDBC graph `path` names (either of them, compressed or
/// not): `g.e.gz` gives `g.v.gz` and `g.e.gz`.
pub fn ldbc_names(path: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let s = path.to_string_lossy();
    let (body, comp) = split_compression(&s);
    let stem = body
        .strip_suffix(".v")
        .or_else(|| body.strip_suffix(".e"))
        .unwrap_or(body);
    (
        format!("{stem}.v{comp}").into(),
        format!("{stem}.e{comp}").into(),
    )
}

/// `name` without a `.gz`/`.xz` suffix, and that suffix (or `""`).
pub(crate) fn split_compression(name: &str) -> (&str, &str) {
    for c in [".gz", ".xz"] {
        if name.len() > c.len() && name[name.len() - c.len()..].eq_ignore_ascii_case(c) {
            return name.split_at(name.len() - c.len());
        }
    }
    (name, "")
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
    // Never write what the reader of that format refuses: only Matrix Market holds NaN.
    if format != OutputFormat::MatrixMarket
        && let Weights::Real(w) = &g.weights
        && let Some(k) = w.iter().position(|x| x.is_nan())
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "arc {} -> {} has weight NaN, which this format cannot hold (Matrix Market can)",
                g.vertex_label(g.src[k] as usize),
                g.vertex_label(g.dst[k] as usize)
            ),
        ));
    }
    // GML numbers are finite: its reader (as any GML reader) refuses `inf`.
    if format == OutputFormat::Gml
        && let Weights::Real(w) = &g.weights
        && let Some(k) = w.iter().position(|x| !x.is_finite())
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "arc {} -> {} has weight {}, which GML cannot hold (its numbers are finite; \
                 Matrix Market, DIMACS, edge lists and LDBC can)",
                g.vertex_label(g.src[k] as usize),
                g.vertex_label(g.dst[k] as usize),
                w[k]
            ),
        ));
    }
    match format {
        OutputFormat::MatrixMarket => {
            if let Some((s, d)) = first_duplicate(g) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "arc ({}, {}) appears twice and Matrix Market forbids duplicate entries; \
                         merge repeated arcs first (EdgeList::combine_parallel), or write a \
                         format that keeps them (edge list, DIMACS)",
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
            // The count keeps vertices without arcs, and the base keeps ids where vertex 0
            // has none (the edge-list reader reads this line; other readers skip a comment).
            writeln!(w, "# vertices: {}, 0-based", g.num_vertices())?;
            for k in 0..g.len() {
                match weight_str(g, k) {
                    Some(wt) => writeln!(w, "{} {} {wt}", g.src[k], g.dst[k])?,
                    None => writeln!(w, "{} {}", g.src[k], g.dst[k])?,
                }
            }
            Ok(())
        }),
        OutputFormat::Ldbc => {
            // Both files written before either replaces its old version.
            let (vpath, epath) = ldbc_names(path);
            let v = stage(&vpath, &mut |w| {
                for v in 0..g.num_vertices() {
                    writeln!(w, "{}", g.vertex_label(v))?;
                }
                Ok(())
            })?;
            let e = stage(&epath, &mut |w| {
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
            })?;
            e.commit()?;
            v.commit()
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
        OutputFormat::Npz | OutputFormat::Gap { .. } if g.labels.is_some() => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "this graph's vertices have labels, which .npz and GAP graphs cannot hold (their \
                 ids are 0..n); write an edge list, LDBC or GML",
        )),
        OutputFormat::Npz => write_atomic(path, |w| super::binary::write_npz(w, g)),
        OutputFormat::Gap { weighted } => {
            write_atomic(path, |w| super::sg::write_sg(w, g, weighted))
        }
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
