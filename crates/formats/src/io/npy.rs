//! `NumPy` `.npy` files (format version 1.0) of 2-D row-major arrays: [`write_npy`] and
//! [`read_npy`], for results a user loads with `numpy.load`.

use std::io::{self, Read, Write};

/// An element type of `.npy` arrays: its `NumPy` `descr` and its little-endian bytes.
pub trait NpyElem: Copy {
    /// The `NumPy` type string (`<f4`, `<i8`, ...).
    const DESCR: &'static str;
    /// Appends the little-endian bytes of `self`.
    fn put(self, out: &mut Vec<u8>);
    /// The value of little-endian bytes (exactly `size_of::<Self>()` of them).
    fn get(b: &[u8]) -> Self;
}

macro_rules! npy_elem {
    ($t:ty, $d:literal) => {
        impl NpyElem for $t {
            const DESCR: &'static str = $d;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("element width"))
            }
        }
    };
}
npy_elem!(i32, "<i4");
npy_elem!(i64, "<i8");
npy_elem!(u32, "<u4");
npy_elem!(f32, "<f4");
npy_elem!(f64, "<f8");

/// The header dictionary, padded with spaces and a newline so that the data starts at a
/// multiple of 64 bytes.
fn header(descr: &str, rows: usize, cols: usize) -> Vec<u8> {
    let dict =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let unpadded = 10 + dict.len() + 1;
    let total = unpadded.div_ceil(64) * 64;
    let mut h = Vec::with_capacity(total);
    h.extend_from_slice(b"\x93NUMPY\x01\x00");
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(total - 1, b' ');
    h.push(b'\n');
    h
}

/// Writes `data`, a `rows x cols` row-major array, as a `.npy` file to `w` (in chunks of about
/// 1 MiB, so a large array is not copied whole).
///
/// # Errors
/// Write errors; `InvalidInput` if `data.len() != rows * cols` or the header would exceed
/// 64 KiB.
pub fn write_npy<T: NpyElem>(
    w: &mut dyn Write,
    rows: usize,
    cols: usize,
    data: &[T],
) -> io::Result<()> {
    if rows.checked_mul(cols) != Some(data.len()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} values for a {rows}x{cols} array", data.len()),
        ));
    }
    w.write_all(&header(T::DESCR, rows, cols))?;
    let per = (1 << 20) / size_of::<T>().max(1);
    let mut buf = Vec::with_capacity(per * size_of::<T>());
    for chunk in data.chunks(per.max(1)) {
        buf.clear();
        for &x in chunk {
            x.put(&mut buf);
        }
        w.write_all(&buf)?;
    }
    Ok(())
}

/// Reads a 2-D (or 1-D, as one row) C-order `.npy` array of element type `T`: `(rows, cols,
/// data)`.
///
/// # Errors
/// `InvalidData` for a file that is not such an array (magic, version, type, order, shape,
/// length), and read errors.
pub fn read_npy<T: NpyElem>(r: &mut dyn Read) -> io::Result<(usize, usize, Vec<T>)> {
    let bad = |why: String| io::Error::new(io::ErrorKind::InvalidData, why);
    let mut pre = [0u8; 10];
    r.read_exact(&mut pre)?;
    if &pre[..6] != b"\x93NUMPY" || pre[6] != 1 {
        return Err(bad("not a version 1 .npy file".into()));
    }
    let hlen = u16::from_le_bytes([pre[8], pre[9]]) as usize;
    let mut h = vec![0u8; hlen];
    r.read_exact(&mut h)?;
    let h = String::from_utf8(h).map_err(|_| bad("header is not text".into()))?;
    let field = |key: &str| -> Option<&str> {
        let at = h.find(&format!("'{key}':"))? + key.len() + 3;
        Some(h[at..].trim_start())
    };
    let descr = field("descr").ok_or_else(|| bad("no descr".into()))?;
    if !descr.starts_with(&format!("'{}'", T::DESCR)) {
        return Err(bad(format!(
            "element type {descr:.8}, expected {}",
            T::DESCR
        )));
    }
    if !field("fortran_order").is_some_and(|v| v.starts_with("False")) {
        return Err(bad("not C order".into()));
    }
    let shape = field("shape").ok_or_else(|| bad("no shape".into()))?;
    let inner = shape
        .strip_prefix('(')
        .and_then(|s| s.split(')').next())
        .ok_or_else(|| bad("bad shape".into()))?;
    let dims: Vec<usize> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|_| bad(format!("bad shape {inner}"))))
        .collect::<io::Result<_>>()?;
    let (rows, cols) = match dims[..] {
        [c] => (1, c),
        [r, c] => (r, c),
        _ => return Err(bad(format!("shape ({inner}) is not 1-D or 2-D"))),
    };
    let len = rows
        .checked_mul(cols)
        .ok_or_else(|| bad("shape overflows".into()))?;
    let width = size_of::<T>();
    let mut bytes = Vec::new();
    r.take((len * width) as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() != len * width {
        return Err(bad(format!(
            "{} data bytes for {len} elements of {width}",
            bytes.len()
        )));
    }
    Ok((rows, cols, bytes.chunks_exact(width).map(T::get).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_aligns() {
        for (rows, cols) in [(0, 0), (1, 1), (3, 5), (17, 4)] {
            let data: Vec<i64> = (0..rows * cols).map(|i| i as i64 * -3 + 7).collect();
            let mut buf = Vec::new();
            write_npy(&mut buf, rows, cols, &data).unwrap();
            let hlen = u16::from_le_bytes([buf[8], buf[9]]) as usize;
            assert_eq!((10 + hlen) % 64, 0, "data starts 64-byte aligned");
            assert_eq!(buf[9 + hlen], b'\n');
            assert_eq!(read_npy::<i64>(&mut &buf[..]).unwrap(), (rows, cols, data));
        }
        let f = [1.5f32, f32::INFINITY, -0.0, 3.0];
        let mut buf = Vec::new();
        write_npy(&mut buf, 2, 2, &f).unwrap();
        let (_, _, back) = read_npy::<f32>(&mut &buf[..]).unwrap();
        assert_eq!(
            back.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            f.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn refuses_wrong_lengths_types_and_truncation() {
        let mut buf = Vec::new();
        assert!(write_npy(&mut buf, 2, 2, &[1i32, 2, 3]).is_err());
        write_npy(&mut buf, 2, 2, &[1i32, 2, 3, 4]).unwrap();
        assert!(read_npy::<f32>(&mut &buf[..]).is_err(), "type checked");
        let cut = &buf[..buf.len() - 1];
        assert!(read_npy::<i32>(&mut &cut[..]).is_err(), "truncation found");
        let mut long = buf.clone();
        long.push(0);
        assert!(
            read_npy::<i32>(&mut &long[..]).is_err(),
            "trailing bytes found"
        );
        assert!(read_npy::<i32>(&mut &b"not npy at all"[..]).is_err());
    }
}
