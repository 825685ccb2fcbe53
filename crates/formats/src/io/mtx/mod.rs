//! Matrix Market reader: the banner, comments and size line here, the entries in
//! [`entries`] (coordinate files on every core).

mod entries;

use std::io::BufRead;
use std::path::Path;

use super::lines::{Lines, check_vertices, err_at, parse_u64, show, tokens};
use crate::edgelist::{EdgeList, Weights};
use crate::error::{ReadError, ReadErrorKind};
use entries::Vals;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Symmetry {
    General,
    Symmetric,
    Skew,
}

/// What values a file holds, from its field or its `%%GraphBLAS type` line.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Pattern,
    /// Integers in `min..=max`.
    Int {
        min: i128,
        max: i128,
        name: &'static str,
    },
    Real,
}

fn graphblas_type(name: &str) -> Option<Result<Kind, String>> {
    let int = |min: i128, max: i128, name: &'static str| Some(Ok(Kind::Int { min, max, name }));
    match name {
        "bool" => int(0, 1, "bool"),
        "int8_t" => int(i8::MIN as i128, i8::MAX as i128, "int8_t"),
        "int16_t" => int(i16::MIN as i128, i16::MAX as i128, "int16_t"),
        "int32_t" => int(i32::MIN as i128, i32::MAX as i128, "int32_t"),
        "int64_t" => int(i64::MIN as i128, i64::MAX as i128, "int64_t"),
        "uint8_t" => int(0, u8::MAX as i128, "uint8_t"),
        "uint16_t" => int(0, u16::MAX as i128, "uint16_t"),
        "uint32_t" => int(0, u32::MAX as i128, "uint32_t"),
        "uint64_t" => int(0, u64::MAX as i128, "uint64_t"),
        "float" | "double" => Some(Ok(Kind::Real)),
        "float complex" | "double complex" | "GxB_FC32_t" | "GxB_FC64_t" => {
            Some(Err(format!("complex values ({name}) are not supported")))
        }
        _ => None,
    }
}

pub(crate) fn read<R: BufRead + Send>(
    mut lines: Lines<R>,
    path: &Path,
) -> Result<EdgeList, ReadError> {
    let bad_header = |line: u64, msg: String| err_at(path, line, ReadErrorKind::BadHeader(msg));
    // Banner.
    let mut coordinate = true;
    let mut field = "real".to_string();
    let mut symmetry = Symmetry::General;
    let mut gb_type: Option<(Kind, u64)> = None;
    let mut pending: Option<Vec<u8>> = None; // a size line met where the banner should be
    let first = lines.next_line()?.map(|(_, l)| l.to_vec());
    match first {
        None => return Err(bad_header(0, "empty file".into())),
        Some(l) if l.len() >= 14 && l[..14].eq_ignore_ascii_case(b"%%MatrixMarket") => {
            let words: Vec<String> = tokens(&l[14..])
                .map(|t| show(t).to_ascii_lowercase())
                .collect();
            if words.len() != 4 {
                return Err(bad_header(
                    1,
                    format!(
                        "the banner has {} words after %%MatrixMarket, expected 4",
                        words.len()
                    ),
                ));
            }
            if words[0] != "matrix" {
                return Err(bad_header(
                    1,
                    format!("object {:?} is not \"matrix\"", words[0]),
                ));
            }
            coordinate = match words[1].as_str() {
                "coordinate" => true,
                "array" => false,
                w => {
                    return Err(bad_header(
                        1,
                        format!("format {w:?} is neither \"coordinate\" nor \"array\""),
                    ));
                }
            };
            field = words[2].clone();
            match field.as_str() {
                "real" | "double" | "integer" | "pattern" => {}
                "complex" => {
                    return Err(err_at(
                        path,
                        1,
                        ReadErrorKind::Unsupported("complex matrices".into()),
                    ));
                }
                w => {
                    return Err(bad_header(
                        1,
                        format!("field {w:?} is not real, integer, pattern or complex"),
                    ));
                }
            }
            symmetry = match words[3].as_str() {
                "general" => Symmetry::General,
                "symmetric" => Symmetry::Symmetric,
                "skew-symmetric" => Symmetry::Skew,
                "hermitian" => {
                    return Err(bad_header(
                        1,
                        "hermitian matrices are complex, and complex matrices are not supported"
                            .into(),
                    ));
                }
                w => {
                    return Err(bad_header(
                        1,
                        format!("symmetry {w:?} is not general, symmetric or skew-symmetric"),
                    ));
                }
            };
        }
        // A `%%` first line is meant as a banner: a misspelt one must not be read as a
        // comment (a symmetric file would silently lose half its entries).
        Some(l) if l.starts_with(b"%%") => {
            let word = tokens(&l).next().unwrap_or(b"%%");
            return Err(bad_header(
                1,
                format!(
                    "{:?} is not a Matrix Market banner (expected \"%%MatrixMarket matrix \
                     FORMAT FIELD SYMMETRY\")",
                    show(word)
                ),
            ));
        }
        // No banner: a general real matrix whose size line comes first.
        Some(l) => pending = Some(l),
    }
    // Comments, the GraphBLAS type line, then the size line.
    let size_line: Vec<u8>;
    let size_line_no: u64;
    loop {
        let l = match pending.take() {
            Some(l) => l,
            None => match lines.next_line()? {
                Some((_, l)) => l.to_vec(),
                None => return Err(bad_header(lines.line(), "no size line".into())),
            },
        };
        let no = lines.line();
        let t = l.trim_ascii();
        if t.is_empty() {
            continue;
        }
        if let Some(rest) = t.strip_prefix(b"%") {
            let rest = show(rest);
            if let Some(ty) = rest.strip_prefix("%GraphBLAS type") {
                let ty = ty.trim();
                match graphblas_type(ty) {
                    Some(Ok(k)) => gb_type = Some((k, no)),
                    Some(Err(msg)) => {
                        return Err(err_at(path, no, ReadErrorKind::Unsupported(msg)));
                    }
                    None => return Err(bad_header(no, format!("unknown GraphBLAS type {ty:?}"))),
                }
            }
            continue;
        }
        size_line = t.to_vec();
        size_line_no = no;
        break;
    }
    let sizes: Vec<&[u8]> = tokens(&size_line).collect();
    let no_banner = size_line_no == 1;
    if no_banner && sizes.len() == 2 {
        coordinate = false;
    }
    let want = if coordinate { 3 } else { 2 };
    if sizes.len() != want {
        return Err(bad_header(
            size_line_no,
            format!(
                "the size line has {} numbers, expected {want} ({})",
                sizes.len(),
                if coordinate {
                    "rows columns entries"
                } else {
                    "rows columns"
                }
            ),
        ));
    }
    let num = |t: &[u8]| {
        parse_u64(t).ok_or_else(|| {
            bad_header(
                size_line_no,
                format!("size {:?} is not a non-negative integer", show(t)),
            )
        })
    };
    let nrows = check_vertices(path, size_line_no, num(sizes[0])?)?;
    let ncols = check_vertices(path, size_line_no, num(sizes[1])?)?;
    // Consistency of the header.
    if symmetry != Symmetry::General && nrows != ncols {
        return Err(bad_header(
            size_line_no,
            format!(
                "a {} matrix must be square, this one is {nrows} x {ncols}",
                if symmetry == Symmetry::Skew {
                    "skew-symmetric"
                } else {
                    "symmetric"
                }
            ),
        ));
    }
    if !coordinate && field == "pattern" {
        return Err(bad_header(
            1,
            "\"array pattern\" is not a valid Matrix Market combination".into(),
        ));
    }
    if symmetry == Symmetry::Skew && field == "pattern" {
        return Err(bad_header(
            1,
            "a skew-symmetric matrix cannot be a pattern".into(),
        ));
    }
    let kind = match (field.as_str(), gb_type) {
        ("pattern", _) => Kind::Pattern,
        (_, Some((k, _))) => k,
        ("integer", None) => Kind::Int {
            min: i64::MIN as i128,
            max: i64::MAX as i128,
            name: "integer",
        },
        _ => Kind::Real,
    };
    if let (Symmetry::Skew, Kind::Int { min: 0, name, .. }) = (symmetry, kind) {
        return Err(bad_header(
            gb_type.map(|g| g.1).unwrap_or(1),
            format!("a skew-symmetric matrix cannot have the unsigned type {name}"),
        ));
    }
    let declared: u64 = if coordinate {
        num(sizes[2])?
    } else {
        let cells = nrows as u128 * ncols as u128;
        let n = nrows as u128;
        let c = match symmetry {
            Symmetry::General => cells,
            Symmetry::Symmetric => n * (n + 1) / 2,
            Symmetry::Skew => n * n.saturating_sub(1) / 2,
        };
        u64::try_from(c).map_err(|_| {
            err_at(
                path,
                size_line_no,
                ReadErrorKind::Overflow(format!("{nrows} x {ncols} array")),
            )
        })?
    };
    let shape = entries::Shape {
        path,
        nrows,
        ncols,
        kind,
        symmetry,
        declared,
    };
    let e = if coordinate {
        let header_end = lines.line();
        entries::read_coordinate(lines.into_rest()?, header_end + 1, header_end, &shape)?
    } else {
        entries::read_array(lines, &shape)?
    };
    let weights = match e.vals {
        Vals::None => Weights::None,
        Vals::Int(v) => Weights::Int(v),
        Vals::UInt(v) => Weights::UInt(v),
        Vals::Real(v) => Weights::Real(v),
    };
    Ok(EdgeList {
        nrows,
        ncols,
        src: e.src,
        dst: e.dst,
        weights,
        labels: None,
        base: 1,
        first_nonfinite: e.first_nonfinite,
    })
}
