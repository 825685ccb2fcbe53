//! The storage formats by name, and the limits and choices of conversions between them.

use std::fmt;
use std::str::FromStr;

/// A storage format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Coordinate triplets.
    Coo,
    /// Compressed sparse rows.
    Csr,
    /// ELLPACK, column-major.
    Ell,
    /// Diagonals.
    Dia,
    /// ELL + COO.
    Hyb,
    /// Dense row-major.
    Dense,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] = [
        Format::Coo,
        Format::Csr,
        Format::Ell,
        Format::Dia,
        Format::Hyb,
        Format::Dense,
    ];

    /// Lower-case name (`csr`), as in kernel keys and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Coo => "coo",
            Format::Csr => "csr",
            Format::Ell => "ell",
            Format::Dia => "dia",
            Format::Hyb => "hyb",
            Format::Dense => "dense",
        }
    }
}

impl crate::Named for Format {
    const VALUES: &'static [Format] = &Format::ALL;
    fn name(self) -> &'static str {
        Format::name(self)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown format {s:?} (expected one of coo, csr, ell, dia, hyb, dense)")
            })
    }
}

/// Limits and choices for conversions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvertOptions {
    /// ELL and DIA refuse to store more than `max_fill` values (padding included) per entry.
    pub max_fill: f64,
    /// Dense refuses more values than this.
    pub max_dense_entries: usize,
    /// HYB's ELL width; `None` chooses it from the row-length histogram
    /// ([`crate::hyb::hyb_width`]).
    pub hyb_width: Option<usize>,
}

impl Default for ConvertOptions {
    /// `max_fill` 8, at most 2^28 dense values (1 GiB of `f32`), automatic HYB width.
    fn default() -> Self {
        ConvertOptions {
            max_fill: 8.0,
            max_dense_entries: 1 << 28,
            hyb_width: None,
        }
    }
}

/// Panics unless a vector of `x_len` entries can multiply a matrix of `ncols` columns.
#[track_caller]
pub(crate) fn assert_x_len(x_len: usize, ncols: usize) {
    assert_eq!(
        x_len, ncols,
        "x has {x_len} entries, the matrix {ncols} columns"
    );
}
