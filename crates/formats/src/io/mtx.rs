//! Matrix Market reader.

use std::io::BufRead;
use std::path::Path;

use super::lines::{
    Lines, check_vertices, err_at, exact_in_f64, parse_f64, parse_i64, parse_int, parse_u64, room,
    show, tokens,
};
use crate::edgelist::{EdgeList, Weights};
use crate::error::{ReadError, ReadErrorKind};

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

/// Values read so far, in the kind the file declares.
enum Vals {
    None,
    Int(Vec<i64>),
    UInt(Vec<u64>),
    Real(Vec<f64>),
}

pub(crate) fn read<R: BufRead>(mut lines: Lines<R>, path: &Path) -> Result<EdgeList, ReadError> {
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
    let mut src: Vec<u32> = Vec::new();
    let mut dst: Vec<u32> = Vec::new();
    let mut vals = match kind {
        Kind::Pattern => Vals::None,
        Kind::Int { max, .. } if max > i64::MAX as i128 => Vals::UInt(Vec::new()),
        Kind::Int { .. } => Vals::Int(Vec::new()),
        Kind::Real => Vals::Real(Vec::new()),
    };
    // Entry index -> line: data lines are consecutive except where blank or comment lines
    // interrupt them; record (first entry, its line) at each interruption.
    let mut line_runs: Vec<(u64, u64)> = Vec::new();
    let mut expect_line = 0u64;
    let mut count = 0u64;
    let mut first_nonfinite = None;
    let (mut ai, mut aj) = (0usize, 0usize); // next array position (row, column)
    if !coordinate && symmetry == Symmetry::Skew {
        ai = 1;
    }
    let values_per_line = if kind == Kind::Pattern { 0 } else { 1 };
    while let Some((no, l)) = lines.next_line()? {
        let t = l.trim_ascii();
        if t.is_empty() || t.starts_with(b"%") {
            continue;
        }
        if count == declared {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::CountMismatch {
                    what: "entries",
                    declared,
                    found: count + 1,
                },
            ));
        }
        if no != expect_line {
            line_runs.push((count, no));
        }
        expect_line = no + 1;
        let toks: Vec<&[u8]> = tokens(t).collect();
        let (i, j, vtok) = if coordinate {
            let want = 2 + values_per_line;
            if toks.len() != want {
                return Err(err_at(
                    path,
                    no,
                    ReadErrorKind::BadLine(format!(
                        "{} fields, expected {want} (row column{})",
                        toks.len(),
                        if values_per_line == 1 { " value" } else { "" }
                    )),
                ));
            }
            let idx = |t: &[u8], n: usize| -> Result<usize, ReadError> {
                let v = parse_u64(t).ok_or_else(|| {
                    err_at(
                        path,
                        no,
                        ReadErrorKind::BadLine(format!(
                            "index {:?} is not a positive integer",
                            show(t)
                        )),
                    )
                })?;
                if v == 0 || v > n as u64 {
                    return Err(err_at(
                        path,
                        no,
                        ReadErrorKind::IdOutOfRange {
                            id: show(t),
                            range: format!("1..={n}"),
                        },
                    ));
                }
                Ok(v as usize - 1)
            };
            (
                idx(toks[0], nrows)?,
                idx(toks[1], ncols)?,
                toks.get(2).copied(),
            )
        } else {
            if toks.len() != 1 {
                return Err(err_at(
                    path,
                    no,
                    ReadErrorKind::BadLine(format!(
                        "{} fields, an array line holds one value",
                        toks.len()
                    )),
                ));
            }
            let pos = (ai, aj);
            ai += 1;
            if ai == nrows {
                aj += 1;
                ai = match symmetry {
                    Symmetry::General => 0,
                    Symmetry::Symmetric => aj,
                    Symmetry::Skew => aj + 1,
                };
            }
            (pos.0, pos.1, Some(toks[0]))
        };
        if symmetry == Symmetry::Skew && i == j {
            return Err(err_at(
                path,
                no,
                ReadErrorKind::BadLine(format!(
                    "skew-symmetric matrix with a diagonal entry ({}, {})",
                    i + 1,
                    j + 1
                )),
            ));
        }
        let mirror = symmetry != Symmetry::General && i != j;
        let bad_w = |t: &[u8], reason: String| {
            err_at(
                path,
                no,
                ReadErrorKind::BadWeight {
                    value: show(t),
                    reason,
                },
            )
        };
        room(&mut src, path, no)?;
        room(&mut dst, path, no)?;
        match &mut vals {
            Vals::None => {}
            Vals::Int(v) => room(v, path, no)?,
            Vals::UInt(v) => room(v, path, no)?,
            Vals::Real(v) => room(v, path, no)?,
        }
        match (&mut vals, kind) {
            (Vals::None, _) => {}
            (Vals::Real(v), _) => {
                let t = vtok.expect("value token");
                // NaN is a legitimate IEEE value of a real matrix (LAGraph's test files use
                // it); it is refused later, when a weight becomes a semiring value.
                let x = parse_f64(t).ok_or_else(|| bad_w(t, "not a number".into()))?;
                if parse_int(t).is_some_and(|i| !exact_in_f64(i)) {
                    return Err(bad_w(
                        t,
                        "an integer that a real (f64) cannot hold exactly; refused rather than \
                         rounded (declare the field integer)"
                            .into(),
                    ));
                }
                if !x.is_finite() && first_nonfinite.is_none() {
                    first_nonfinite = Some((no, x));
                }
                v.push(x);
                if mirror {
                    room(v, path, no)?;
                    v.push(if symmetry == Symmetry::Skew { -x } else { x });
                }
            }
            (Vals::Int(v), Kind::Int { min, max, name }) => {
                let t = vtok.expect("value token");
                let x = parse_i64(t)
                    .ok_or_else(|| bad_w(t, format!("not an integer of type {name}")))?;
                if (x as i128) < min || (x as i128) > max {
                    return Err(bad_w(
                        t,
                        format!("outside the range {min}..={max} of {name}"),
                    ));
                }
                v.push(x);
                if mirror {
                    room(v, path, no)?;
                    let m = if symmetry == Symmetry::Skew {
                        x.checked_neg()
                    } else {
                        Some(x)
                    };
                    let m = m
                        .filter(|m| (*m as i128) >= min && (*m as i128) <= max)
                        .ok_or_else(|| {
                            bad_w(
                                t,
                                format!("its negation (skew-symmetric) is outside {name}"),
                            )
                        })?;
                    v.push(m);
                }
            }
            (Vals::UInt(v), Kind::Int { name, .. }) => {
                let t = vtok.expect("value token");
                let x = parse_u64(t)
                    .ok_or_else(|| bad_w(t, format!("not an integer of type {name}")))?;
                v.push(x);
                if mirror {
                    room(v, path, no)?;
                    v.push(x);
                }
            }
            _ => unreachable!("value storage matches the kind"),
        }
        src.push(i as u32);
        dst.push(j as u32);
        if mirror {
            room(&mut src, path, no)?;
            room(&mut dst, path, no)?;
            src.push(j as u32);
            dst.push(i as u32);
        }
        count += 1;
    }
    if count != declared {
        return Err(err_at(
            path,
            lines.line(),
            ReadErrorKind::CountMismatch {
                what: "entries",
                declared,
                found: count,
            },
        ));
    }
    if coordinate {
        check_duplicates(path, &src, &dst, symmetry != Symmetry::General, &line_runs)?;
    }
    let weights = match vals {
        Vals::None => Weights::None,
        Vals::Int(v) => Weights::Int(v),
        Vals::UInt(v) => Weights::UInt(v),
        Vals::Real(v) => Weights::Real(v),
    };
    Ok(EdgeList {
        nrows,
        ncols,
        src,
        dst,
        weights,
        labels: None,
        base: 1,
        first_nonfinite,
    })
}

/// Rejects an entry given twice (Matrix Market files must not repeat entries; for symmetric
/// files, `(i, j)` and `(j, i)` are the same entry). Names the line of the second one.
fn check_duplicates(
    path: &Path,
    src: &[u32],
    dst: &[u32],
    sym: bool,
    runs: &[(u64, u64)],
) -> Result<(), ReadError> {
    // Stored entries only: with symmetry, every stored entry was followed by its mirror
    // unless it is on the diagonal; key each stored entry by its lower-triangle position.
    let entries = || {
        let mut k = 0usize;
        std::iter::from_fn(move || {
            let (i, j) = (*src.get(k)?, dst[k]);
            k += if sym && i != j { 2 } else { 1 };
            let (r, c) = if sym { (i.max(j), i.min(j)) } else { (i, j) };
            Some(((r as u64) << 32) | c as u64)
        })
    };
    // One 8-byte key per entry, allocated fallibly: the check never aborts a large read.
    let stored = entries().count();
    let mut keys: Vec<u64> = Vec::new();
    keys.try_reserve_exact(stored).map_err(|_| {
        ReadError::file(
            path,
            ReadErrorKind::TooLarge {
                what: format!("checking {stored} entries for repeats"),
                needed: stored as u64 * 8,
                available: crate::memory::usable().unwrap_or(0),
            },
        )
    })?;
    keys.extend(entries());
    keys.sort_unstable();
    let Some(dup) = keys.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]) else {
        return Ok(());
    };
    drop(keys);
    let line_of = |e: u64| -> u64 {
        let r = runs.partition_point(|(first, _)| *first <= e);
        let (first, line) = runs[r - 1];
        line + (e - first)
    };
    let mut at = entries()
        .enumerate()
        .filter(|&(_, key)| key == dup)
        .map(|(e, _)| e as u64);
    let (a, b) = (at.next().expect("repeated"), at.next().expect("repeated"));
    Err(err_at(
        path,
        line_of(b),
        ReadErrorKind::Duplicate {
            row: (dup >> 32) + 1,
            col: (dup & u32::MAX as u64) + 1,
            first_line: line_of(a),
        },
    ))
}
