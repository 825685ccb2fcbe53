//! One `.npy` array of a `.npz` archive (format versions 1 to 3): its header (type, shape;
//! headers over 64 KiB refused), its elements read from a stored entry by positioned reads on
//! every core or from a deflated one, both checked against the entry's CRC-32, and converted
//! to ids, indices, weights or text whatever their width and byte order.

use std::io::{self, Read};

use rayon::prelude::*;

use crate::edgelist::Weights;

/// One `.npy` array: element type, shape, little-endian bytes (read on first use when the
/// array is stored in the file, see [`Stored`]).
pub(super) struct Array<'f> {
    pub(super) descr: String,
    pub(super) shape: Vec<usize>,
    pub(super) data: Vec<u8>,
    pub(super) stored: Option<Stored<'f>>,
}

/// Where a stored (not deflated) array's elements lie in the file, and the zip entry's
/// checksum over its `.npy` header and elements.
pub(super) struct Stored<'f> {
    /// The array's name, which its errors begin with.
    pub(super) name: String,
    pub(super) file: &'f std::fs::File,
    pub(super) offset: u64,
    pub(super) header: Vec<u8>,
    pub(super) crc: u32,
}

impl Array<'_> {
    /// The elements' bytes, read now if they are still in the file.
    pub(super) fn load(&mut self) -> Result<(), String> {
        if let Some(s) = self.stored.take() {
            let bytes = self.len() * self.width().unwrap_or(0);
            self.data = crate::memory::try_filled(bytes, 0u8)
                .map_err(|_| format!("{bytes} bytes do not fit in memory"))?;
            s.read(&mut self.data, 1, |b, out| {
                out.copy_from_slice(b);
                None
            })?;
        }
        Ok(())
    }

    /// The array itself if it is one-dimensional, as `SciPy` stores a matrix's arrays (`SciPy`
    /// refuses a 2-D `data`).
    pub(super) fn vector(self, what: &str) -> Result<Self, String> {
        match self.shape.len() {
            1 => Ok(self),
            d => Err(format!(
                "{what} has {d} dimensions (shape {:?}); a sparse matrix's arrays have one",
                self.shape
            )),
        }
    }

    /// A string array's text: bytes (`|S3`, as `SciPy` writes `format`) or `NumPy`'s UTF-32
    /// (`<U3`, as `np.array("csr")` is), trailing NULs removed.
    pub(super) fn text(&self) -> Result<String, String> {
        let d = &self.data;
        let s = match self.descr.as_bytes().get(1) {
            Some(b'U') => {
                let little = !self.descr.starts_with('>');
                d.chunks_exact(4)
                    .map(|c| {
                        let b: [u8; 4] = c.try_into().expect("4 bytes");
                        let u = if little {
                            u32::from_le_bytes(b)
                        } else {
                            u32::from_be_bytes(b)
                        };
                        char::from_u32(u).ok_or_else(|| "format is not text".to_string())
                    })
                    .collect::<Result<String, String>>()?
            }
            _ => String::from_utf8_lossy(d).into_owned(),
        };
        Ok(s.trim_end_matches('\0').to_string())
    }

    /// The elements in little-endian order, whatever the file's (`>i4` becomes `<i4`).
    fn native(&mut self) {
        if let (true, Some(w)) = (self.big_endian(), self.width()) {
            self.data.par_chunks_exact_mut(w).for_each(|c| c.reverse());
            self.descr.replace_range(..1, "<");
        }
    }

    /// The number of elements.
    pub(super) fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Bytes per element, from the type string (`<i4`, `|b1`, ...; `<U3` is three UTF-32
    /// characters).
    fn width(&self) -> Option<usize> {
        let n: usize = self.descr.get(2..)?.parse().ok()?;
        Some(if self.descr.as_bytes().get(1) == Some(&b'U') {
            n * 4
        } else {
            n
        })
    }

    /// The elements as `u32` ids below `bound` (indices of any integer width).
    pub(super) fn ids(mut self, bound: usize, what: &str) -> Result<Vec<u32>, String> {
        if self.descr != "<i4" && self.descr != "<u4" {
            return narrow(&self.indices(what)?, bound, what);
        }
        // The common case, without a wider copy: converted and checked as the pieces are
        // read, on every core (or from the bytes of a deflated entry).
        let signed = self.descr == "<i4";
        let ok = |x: u32| (x as u64) < bound as u64 && (!signed || x <= i32::MAX as u32);
        let mut ids = crate::memory::try_filled(self.len(), 0u32)
            .map_err(|(needed, _)| format!("{what}: {needed} bytes do not fit in memory"))?;
        let convert = |b: &[u8], out: &mut [u32]| {
            let mut bad = None;
            for (i, (o, b)) in out.iter_mut().zip(b.chunks_exact(4)).enumerate() {
                *o = u32::from_le_bytes(b.try_into().expect("4 bytes"));
                if !ok(*o) && bad.is_none() {
                    bad = Some(i);
                }
            }
            bad
        };
        let bad = match self.stored.take() {
            Some(s) => s.read(&mut ids, 4, convert)?,
            None => {
                const PIECE: usize = 1 << 18;
                ids.par_chunks_mut(PIECE)
                    .zip(self.data.par_chunks(4 * PIECE))
                    .enumerate()
                    .filter_map(|(p, (out, b))| convert(b, out).map(|i| p * PIECE + i))
                    .min()
            }
        };
        match bad {
            Some(i) => Err(format!(
                "{what} holds {}, out of range (0..{bound})",
                if signed {
                    i64::from(ids[i] as i32)
                } else {
                    i64::from(ids[i])
                }
            )),
            None => Ok(ids),
        }
    }

    /// The elements as `u64` (indices: non-negative integers of any width).
    pub(super) fn indices(&mut self, what: &str) -> Result<Vec<u64>, String> {
        self.load()?;
        self.native();
        let w = self.width().unwrap_or(0);
        let kind = self.descr.as_bytes().get(1).copied();
        if !matches!(kind, Some(b'i' | b'u')) || ![1, 2, 4, 8].contains(&w) {
            return Err(format!("{what} has type {:?}, not an integer", self.descr));
        }
        let signed = kind == Some(b'i');
        let mut v = crate::memory::try_with_capacity(self.len())
            .map_err(|(needed, _)| format!("{what}: {needed} bytes do not fit in memory"))?;
        self.data
            .par_chunks_exact(w)
            .map(|b| {
                let mut x = [0u8; 8];
                x[..w].copy_from_slice(b);
                u64::from_le_bytes(x)
            })
            .collect_into_vec(&mut v);
        // Converted, then checked (on every core): a negative number has its sign bit set.
        let sign = 1u64 << (8 * w - 1);
        if signed && v.par_iter().any(|&x| x & sign != 0) {
            return Err(format!("{what} holds a negative number"));
        }
        Ok(v)
    }

    fn big_endian(&self) -> bool {
        self.descr.starts_with('>') && self.width() != Some(1)
    }

    /// The elements as weights: reals, integers, or none (booleans all true).
    pub(super) fn weights(mut self) -> Result<Weights, String> {
        self.load()?;
        self.native();
        let w = self.width().unwrap_or(0);
        let kind = self.descr.as_bytes().get(1).copied();
        let d = &self.data;
        Ok(match (kind, w) {
            (Some(b'f'), 2) => Weights::Real(
                d.par_chunks_exact(2)
                    .map(|b| {
                        semigraph_semiring::f16::from_le_bytes(b.try_into().expect("2 bytes"))
                            .to_f64()
                    })
                    .collect(),
            ),
            (Some(b'f'), 8) => Weights::Real(
                d.par_chunks_exact(8)
                    .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
                    .collect(),
            ),
            (Some(b'f'), 4) => Weights::Real(
                d.par_chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64)
                    .collect(),
            ),
            (Some(b'b'), 1) if d.par_chunks(1 << 16).all(|p| p.iter().all(|&b| b == 1)) => {
                Weights::None
            }
            (Some(b'b'), 1) => Weights::Int(d.iter().map(|&b| i64::from(b != 0)).collect()),
            (Some(b'i'), 1 | 2 | 4 | 8) => Weights::Int(
                d.par_chunks_exact(w)
                    .map(|b| {
                        let mut x = [if b[w - 1] & 0x80 != 0 { 0xff } else { 0 }; 8];
                        x[..w].copy_from_slice(b);
                        i64::from_le_bytes(x)
                    })
                    .collect(),
            ),
            (Some(b'u'), 1 | 2 | 4 | 8) => {
                let u = self.indices("data")?;
                if u.iter().all(|&x| x <= i64::MAX as u64) {
                    Weights::Int(u.into_iter().map(|x| x as i64).collect())
                } else {
                    Weights::UInt(u)
                }
            }
            _ => return Err(format!("data has type {:?}, not a number", self.descr)),
        })
    }
}

/// The longest `.npy` header read (`NumPy`'s reader refuses those over 10,000 bytes unless told
/// otherwise).
const MAX_HEADER: usize = 1 << 16;

/// Reads one `.npy` array (format versions 1 to 3) of a compressed entry, checking the
/// entry's CRC-32 (`crc`) over everything read and that nothing follows the array.
pub(super) fn read_array(r: &mut dyn Read, crc: u32) -> Result<Array<'static>, String> {
    let mut r = Crc(r, crc32fast::Hasher::new());
    let (mut a, bytes, _) = read_header(&mut r)?;
    a.data
        .try_reserve_exact(bytes)
        .map_err(|_| format!("{bytes} bytes do not fit in memory"))?;
    (&mut r)
        .take(bytes as u64)
        .read_to_end(&mut a.data)
        .map_err(|e| e.to_string())?;
    if a.data.len() != bytes {
        return Err(format!(
            "{} bytes where {bytes} were expected",
            a.data.len()
        ));
    }
    let mut more = [0u8; 1];
    if r.read(&mut more).map_err(|e| e.to_string())? != 0 {
        return Err(format!("more than the array's {bytes} bytes"));
    }
    match r.1.finalize() {
        c if c == crc => Ok(a),
        c => Err(format!(
            "checksum {c:08x} where the archive says {crc:08x} (a damaged file)"
        )),
    }
}

/// A reader that hashes what it reads (CRC-32).
struct Crc<'a>(&'a mut dyn Read, crc32fast::Hasher);

impl Read for Crc<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.update(&buf[..n]);
        Ok(n)
    }
}

/// A reader that keeps a copy of what it read.
pub(super) struct Tee<'a>(pub(super) &'a mut dyn Read, pub(super) &'a mut Vec<u8>);

impl Read for Tee<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// Reads the header of a `.npy` array: the array without its elements, their bytes, and the
/// header's length.
pub(super) fn read_header(r: &mut dyn Read) -> Result<(Array<'static>, usize, usize), String> {
    let mut head = [0u8; 8];
    r.read_exact(&mut head).map_err(|e| e.to_string())?;
    if &head[..6] != b"\x93NUMPY" {
        return Err("not a .npy array".into());
    }
    let (hlen, at) = if head[6] == 1 {
        let mut b = [0u8; 2];
        r.read_exact(&mut b).map_err(|e| e.to_string())?;
        (u16::from_le_bytes(b) as usize, 10)
    } else {
        let mut b = [0u8; 4];
        r.read_exact(&mut b).map_err(|e| e.to_string())?;
        (u32::from_le_bytes(b) as usize, 12)
    };
    // NumPy's own headers are a few hundred bytes (its reader refuses those over 10,000 by
    // default); a length of gigabytes is a damaged or hostile file, not an allocation.
    if hlen > MAX_HEADER {
        return Err(format!(
            "a header of {hlen} bytes (at most {MAX_HEADER} are read; a damaged file?)"
        ));
    }
    let mut h = vec![0u8; hlen];
    r.read_exact(&mut h).map_err(|e| e.to_string())?;
    let h = String::from_utf8_lossy(&h);
    let field = |k: &str| -> Option<String> {
        let at = h.find(&format!("'{k}':"))? + k.len() + 3;
        Some(h[at..].trim_start().to_string())
    };
    let descr = field("descr")
        .and_then(|d| d.strip_prefix('\'')?.split('\'').next().map(str::to_string))
        .ok_or("no element type")?;
    if field("fortran_order").is_some_and(|f| f.starts_with("True")) {
        return Err("a Fortran-ordered array".into());
    }
    let shape = field("shape")
        .and_then(|s| Some(s.strip_prefix('(')?.split(')').next()?.to_string()))
        .ok_or("no shape")?;
    let shape: Vec<usize> = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| format!("shape ({shape})")))
        .collect::<Result<_, _>>()?;
    let a = Array {
        descr,
        shape,
        data: Vec::new(),
        stored: None,
    };
    let bytes = a
        .len()
        .checked_mul(a.width().ok_or("an element type without a width")?)
        .ok_or("an array too large")?;
    Ok((a, bytes, at + hlen))
}

impl Stored<'_> {
    /// Reads the elements into `out` (`width` bytes each) by positioned reads of pieces on
    /// every core (the page cache copied in parallel), each piece's bytes handed to `convert`
    /// (which writes the piece's elements and may name its first bad one), and checks the
    /// checksum. Returns the first bad element's place, if any.
    fn read<T: Send>(
        &self,
        out: &mut [T],
        width: usize,
        convert: impl Fn(&[u8], &mut [T]) -> Option<usize> + Sync,
    ) -> Result<Option<usize>, String> {
        // A piece's bytes pass through a buffer of the thread's that stays in its cache.
        const PIECE: usize = 1 << 20;
        thread_local! {
            static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let per = PIECE / width;
        let bytes = out.len() * width;
        let sums = out
            .par_chunks_mut(per)
            .enumerate()
            .map(|(i, piece)| {
                BUF.with_borrow_mut(|buf| {
                    buf.resize(PIECE, 0);
                    let b = &mut buf[..piece.len() * width];
                    self.read_at(b, self.offset + (i * PIECE) as u64)?;
                    let mut h = crc32fast::Hasher::new();
                    h.update(b);
                    Ok((h, convert(b, piece).map(|j| i * per + j)))
                })
            })
            .collect::<io::Result<Vec<_>>>()
            .map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => {
                    format!("{}: the file ends within its {bytes} bytes", self.name)
                }
                _ => format!("{}: {e}", self.name),
            })?;
        let mut all = crc32fast::Hasher::new();
        all.update(&self.header);
        for (h, _) in &sums {
            all.combine(h);
        }
        match all.finalize() {
            c if c == self.crc => Ok(sums.iter().find_map(|&(_, bad)| bad)),
            c => Err(format!(
                "{}: checksum {c:08x} where the archive says {:08x} (a damaged file)",
                self.name, self.crc
            )),
        }
    }

    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], at: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self.file, buf, at)
    }

    #[cfg(windows)]
    fn read_at(&self, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
        use std::os::windows::fs::FileExt;
        while !buf.is_empty() {
            match self.file.seek_read(buf, at)? {
                0 => return Err(io::ErrorKind::UnexpectedEof.into()),
                n => (buf, at) = (&mut buf[n..], at + n as u64),
            }
        }
        Ok(())
    }
}

/// Indices below `bound`, as `u32`.
fn narrow(v: &[u64], bound: usize, what: &str) -> Result<Vec<u32>, String> {
    v.par_iter()
        .map(|&x| {
            if x < bound as u64 {
                Ok(x as u32)
            } else {
                Err(format!("{what} holds {x}, out of range (0..{bound})"))
            }
        })
        .collect()
}
