//! Graph file readers and writers.
//!
//! [`read_graph`] reads any supported file into an [`EdgeList`], choosing the reader from
//! the file name (or [`ReadOptions::format`]); gzip and xz files are decompressed on the
//! fly, recognised by their magic bytes. Readers stream line by line (no whole file in one
//! string), report how far they have read to a [`Progress`] callback when given one (a
//! command line draws a bar with it; the library draws nothing), and reject malformed input with a [`ReadError`] that names the file, the line and the reason.
//!
//! | format | extensions | vertex ids |
//! |---|---|---|
//! | Matrix Market (coordinate, array; real, integer, pattern; general, symmetric, skew-symmetric) | `.mtx`, `.mm` | 1-based |
//! | DIMACS 9th challenge shortest paths (`p sp`, `a u v w`) | `.gr` | 1-based |
//! | PACE 2016 (`p tw n m`, undirected) | `.gr` starting with `p tw` | 1-based |
//! | DIMACS sources (`p aux sp ss`, `s v`) ([`read_sources`]) | `.ss` | 1-based |
//! | SNAP/GAP edge lists (`u v`, `u v w`; `#`/`%` comments) | `.el`, `.wel`, `.txt`, `.edges`, `.tsv` | 0- or 1-based ([`IdBase`]) |
//! | LDBC Graphalytics (`.v` vertex labels, `.e` edges) | `.v`, `.e` | labels |
//! | adjacency lists (`v n1 n2 ...`) | `.adj`, `*-input` | labels |
//! | GML (`graph [ node [ id ] edge [ source target value ] ]`) | `.gml` | labels |
//! | `SciPy` sparse matrices (`scipy.sparse.save_npz`: CSR, CSC, COO) | `.npz` | 0-based |
//! | GAP serialized graphs (binary CSR) | `.sg`, `.wsg` (weighted) | 0-based |
//!
//! Text formats are parsed on every core for edge lists; the binary ones (`.npz`, `.sg`,
//! `.wsg`: [`write_graph`] writes them too) load at disk speed.

mod binary;
mod chunks;
mod dimacs;
mod gml;
pub mod lines;
mod mtx;
pub mod npy;
mod npz_array;
mod sg;
mod text;
mod weights;
mod write;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use dimacs::read_sources;
pub use write::{OutputFormat, ldbc_names, remove_pending_temporaries, write_atomic, write_graph};

use crate::edgelist::EdgeList;
use crate::error::{ReadError, ReadErrorKind};

/// The input file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Matrix Market.
    MatrixMarket,
    /// DIMACS `.gr` (`p sp`) or PACE (`p tw`), told apart by the `p` line.
    Dimacs,
    /// Edge list, weighted or not.
    EdgeList,
    /// Adjacency lists.
    Adjacency,
    /// LDBC Graphalytics `.v` + `.e`.
    Ldbc,
    /// GML.
    Gml,
    /// `SciPy` `.npz` sparse matrix.
    Npz,
    /// GAP serialized graph (`.sg`; weighted: `.wsg`).
    Gap {
        /// `.wsg`: each arc has a 32-bit integer weight.
        weighted: bool,
    },
}

impl std::str::FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "mtx" | "mm" | "matrix-market" => InputFormat::MatrixMarket,
            "gr" | "dimacs" | "pace" => InputFormat::Dimacs,
            "el" | "wel" | "edges" | "edge-list" | "snap" => InputFormat::EdgeList,
            "adj" | "adjacency" => InputFormat::Adjacency,
            "ldbc" | "v" | "e" => InputFormat::Ldbc,
            "gml" => InputFormat::Gml,
            "npz" => InputFormat::Npz,
            "sg" => InputFormat::Gap { weighted: false },
            "wsg" => InputFormat::Gap { weighted: true },
            _ => {
                return Err(format!(
                    "unknown input format {s:?} (mtx, gr, el, adj, ldbc, gml, npz, sg, wsg)"
                ));
            }
        })
    }
}

/// How edge lists number their vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IdBase {
    /// Ids start at 0.
    Zero,
    /// Ids start at 1.
    One,
    /// 0-based if some id is 0, else 1-based.
    #[default]
    Auto,
}

/// Options of [`read_graph`].
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The format; `None` infers it from the file name.
    pub format: Option<InputFormat>,
    /// Id base of edge lists.
    pub base: IdBase,
    /// Add the reverse of every arc (for undirected edge lists; formats that declare
    /// symmetry apply it themselves).
    pub undirected: bool,
    /// Told how far a read has come; `None` reports nothing.
    pub progress: Option<Progress>,
    /// Only the arcs are wanted (BFS, components, triangles, PageRank): the result has no
    /// weights ([`Weights::None`](crate::Weights::None)) whatever the file holds. A `.npz`
    /// file's value array is then not read at all (for Kronecker 22 with `int64` values,
    /// 537 MB); text files are still parsed whole, their weights checked, then dropped.
    pub pattern: bool,
}

/// A callback told `(path, bytes read, bytes in the file)` as a file is read (compressed
/// bytes for a compressed file), a few times per megabyte and once at the end, when
/// `bytes read == bytes in the file`. A reader of two files (LDBC's `.v` and `.e`) reports
/// each.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use semigraph_formats::io::{read_graph, Progress, ReadOptions};
///
/// let dir = std::env::temp_dir().join("semigraph-doc-progress");
/// std::fs::create_dir_all(&dir).unwrap();
/// let p = dir.join("tiny.gr");
/// std::fs::write(&p, "p sp 3 2\na 1 2 5\na 2 3 7\n").unwrap();
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = seen.clone();
/// let opts = ReadOptions {
///     progress: Some(Progress::new(move |_, done, total| log.lock().unwrap().push((done, total)))),
///     ..Default::default()
/// };
/// read_graph(&p, &opts).unwrap();
/// assert_eq!(seen.lock().unwrap().last(), Some(&(25, 25))); // the whole file, at the end
/// ```
#[derive(Clone)]
pub struct Progress(Arc<ProgressFn>);

/// The callback inside a [`Progress`].
type ProgressFn = dyn Fn(&Path, u64, u64) + Send + Sync;

impl Progress {
    /// Wraps a callback.
    pub fn new(f: impl Fn(&Path, u64, u64) + Send + Sync + 'static) -> Progress {
        Progress(Arc::new(f))
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// The file name without compression suffixes, lower-cased.
fn base_name(path: &Path) -> String {
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    for suffix in [".gz", ".xz"] {
        if let Some(s) = name.strip_suffix(suffix) {
            name = s.to_string();
        }
    }
    name
}

/// Infers the format from the file name.
pub fn detect_format(path: &Path) -> Result<InputFormat, ReadError> {
    let name = base_name(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    Ok(match ext {
        "mtx" | "mm" => InputFormat::MatrixMarket,
        "gr" => InputFormat::Dimacs,
        "el" | "wel" | "txt" | "edges" | "tsv" => InputFormat::EdgeList,
        "adj" => InputFormat::Adjacency,
        "v" | "e" => InputFormat::Ldbc,
        "gml" => InputFormat::Gml,
        "npz" => InputFormat::Npz,
        "sg" => InputFormat::Gap { weighted: false },
        "wsg" => InputFormat::Gap { weighted: true },
        _ if name.ends_with("-input") => InputFormat::Adjacency,
        _ => {
            return Err(ReadError::file(
                path,
                ReadErrorKind::UnknownFormat(format!(
                    "extension {ext:?} is not one of .mtx .gr .el .wel .txt .edges .adj .v .e .gml .npz .sg .wsg \
                     (optionally .gz/.xz); name the format explicitly (the command line's --input-format)"
                )),
            ));
        }
    })
}

/// Reads a graph file.
///
/// ```
/// use semigraph_formats::io::{read_graph, ReadOptions};
/// let dir = std::env::temp_dir().join("semigraph-doc-read");
/// std::fs::create_dir_all(&dir).unwrap();
/// let p = dir.join("tiny.gr");
/// std::fs::write(&p, "c tiny\np sp 3 2\na 1 2 5\na 2 3 7\n").unwrap();
/// let g = read_graph(&p, &ReadOptions::default()).unwrap();
/// assert_eq!((g.num_vertices(), g.len(), g.base), (3, 2, 1));
/// std::fs::write(&p, "p sp 3 2\na 1 2 5\na 2 4 7\n").unwrap();
/// let e = read_graph(&p, &ReadOptions::default()).unwrap_err();
/// assert_eq!(e.line, Some(3)); // vertex 4 is out of range
/// ```
pub fn read_graph(path: impl AsRef<Path>, opts: &ReadOptions) -> Result<EdgeList, ReadError> {
    let path = path.as_ref();
    let format = match opts.format {
        Some(f) => f,
        None => detect_format(path)?,
    };
    let mut g = match format {
        InputFormat::MatrixMarket => {
            mtx::read(lines::Lines::new(open_reader(path, opts)?, path), path)?
        }
        InputFormat::Dimacs => dimacs::read_gr(open_reader(path, opts)?, path)?,
        InputFormat::EdgeList => text::read_edge_list(open_reader(path, opts)?, path, opts.base)?,
        InputFormat::Adjacency => text::read_adjacency(open(path, opts)?, path)?,
        InputFormat::Gml => gml::read(open(path, opts)?, path)?,
        InputFormat::Npz | InputFormat::Gap { .. } if path.as_os_str() == "-" => {
            return Err(ReadError::file(
                path,
                ReadErrorKind::UnknownFormat(
                    "a binary graph (.npz, .sg, .wsg) is read from a file, not standard input"
                        .into(),
                ),
            ));
        }
        InputFormat::Npz => binary::read_npz(path, opts.pattern)?,
        InputFormat::Gap { weighted } => sg::read_sg(path, weighted)?,
        InputFormat::Ldbc if path.as_os_str() == "-" => {
            return Err(ReadError::file(
                path,
                ReadErrorKind::UnknownFormat(
                    "an LDBC graph is two files (.v and .e) and cannot come from standard input"
                        .into(),
                ),
            ));
        }
        InputFormat::Ldbc => {
            let (v, e) = ldbc_pair(path);
            text::read_ldbc(open_reader(&v, opts)?, &v, open_reader(&e, opts)?, &e)?
        }
    };
    if opts.pattern {
        g.weights = crate::Weights::None;
        g.first_nonfinite = None;
    }
    if opts.undirected {
        g.symmetrize();
    }
    Ok(g)
}

/// The `.v` and `.e` files of an LDBC graph, given either, each compressed or not: the
/// partner with the same compression if it exists, else one with another (or none).
fn ldbc_pair(path: &Path) -> (PathBuf, PathBuf) {
    let (v, e) = write::ldbc_names(path);
    let partner = |p: PathBuf| -> PathBuf {
        if p.exists() {
            return p;
        }
        let s = p.to_string_lossy().into_owned();
        let (body, _) = write::split_compression(&s);
        [String::new(), ".gz".into(), ".xz".into()]
            .iter()
            .map(|c| PathBuf::from(format!("{body}{c}")))
            .find(|q| q.exists())
            .unwrap_or(p)
    };
    (partner(v), partner(e))
}

/// Counts the bytes read from a file and reports them to a [`Progress`].
struct Counting<R> {
    inner: R,
    path: PathBuf,
    done: u64,
    len: u64,
    progress: Option<Progress>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.done += n as u64;
        if let Some(p) = &self.progress {
            // At the end, the total is what was read (a file may change while it is read).
            let total = if n == 0 {
                self.done
            } else {
                self.len.max(self.done)
            };
            (p.0)(&self.path, self.done, total);
        }
        Ok(n)
    }
}

/// Opens a file for reading, decompressing gzip and xz transparently.
pub fn open(path: &Path, opts: &ReadOptions) -> Result<lines::Lines<Box<dyn BufRead>>, ReadError> {
    let reader: Box<dyn BufRead> = open_reader(path, opts)?;
    Ok(lines::Lines::new(reader, path))
}

/// [`open`] without the line splitting: the (decompressed) bytes, for readers that split lines
/// themselves (in parallel).
/// What [`open_reader`] allocates at most: two buffers of 1 MiB and a decompressor (an xz
/// stream of the usual presets decodes with an 8 MiB dictionary).
const READ_BUFFERS: u64 = 12 << 20;

fn open_reader(path: &Path, opts: &ReadOptions) -> Result<Box<dyn BufRead + Send>, ReadError> {
    let io = |e| ReadError::file(path, ReadErrorKind::Io(e));
    // `-` is standard input (a stream: its length is unknown).
    let (inner, len): (Box<dyn Read + Send>, u64) = if path.as_os_str() == "-" {
        (Box::new(std::io::stdin()), 0)
    } else {
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        (Box::new(file), len)
    };
    let counting = Counting {
        inner,
        path: path.to_path_buf(),
        done: 0,
        len,
        progress: opts.progress.clone(),
    };
    // The buffers below (and a decompressor's state) are allocated without asking: refused
    // here, where an allocation that fails would abort.
    if let Err((needed, available)) = crate::memory::check(READ_BUFFERS) {
        return Err(ReadError::file(
            path,
            ReadErrorKind::TooLarge {
                what: "opening the file (its read and decompression buffers)".into(),
                needed,
                available,
            },
        ));
    }
    let mut raw = BufReader::with_capacity(1 << 20, counting);
    let magic = raw.fill_buf().map_err(io)?;
    let reader: Box<dyn BufRead + Send> = if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(
            1 << 20,
            flate2::bufread::MultiGzDecoder::new(raw),
        ))
    } else if magic.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Box::new(BufReader::with_capacity(
            1 << 20,
            liblzma::bufread::XzDecoder::new_multi_decoder(raw),
        ))
    } else {
        Box::new(raw)
    };
    Ok(reader)
}
