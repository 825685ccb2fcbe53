//! [`CpuMatrix`]: how the CPU backend holds a matrix (a format, or a pattern on the structure
//! of another matrix, shared rather than copied) and reads its rows without a copy
//! ([`Rows`]).

use std::fmt;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use semigraph_formats::{Csr, Format, SparseMatrix, view_value};
use semigraph_semiring::{Scalar, Semiring};

/// The row pointers and column indices of a CSR matrix, whatever its values' type: what a
/// pattern shares with the matrix it was made of.
trait Structure: Send + Sync + fmt::Debug {
    fn row_ptr(&self) -> &[u32];
    fn col_idx(&self) -> &[u32];
    fn ncols(&self) -> usize;
}

impl<S: Semiring> Structure for Csr<S> {
    fn row_ptr(&self) -> &[u32] {
        Csr::row_ptr(self)
    }
    fn col_idx(&self) -> &[u32] {
        Csr::col_idx(self)
    }
    fn ncols(&self) -> usize {
        Csr::ncols(self)
    }
}

/// What a [`CpuMatrix`] holds.
#[derive(Debug)]
enum Stored<S: Semiring> {
    /// CSR, shareable with the patterns made of it.
    Csr(Arc<Csr<S>>),
    /// Another format.
    Other(SparseMatrix<S>),
    /// Every entry the same value (not the zero), at the places of another matrix's entries
    /// (which held no zero): a pattern, or a view of an unweighted matrix, made without
    /// copying the structure or writing a value.
    Pattern(Arc<dyn Structure>, S::T),
}

/// A matrix of the CPU backend: the chosen format (or a pattern sharing another matrix's
/// structure), plus CSR rows built on first use where the format is not CSR.
#[derive(Debug)]
pub struct CpuMatrix<S: Semiring> {
    m: Stored<S>,
    nnz: usize,
    /// CSR of another format, or a pattern's values written out, made on first use by
    /// [`CpuMatrix::csr`] (operations that need a `Csr`; the products read [`Rows`]).
    rows: OnceLock<Csr<S>>,
    /// The value of every entry when all hold the same bits (a pattern), found on first use.
    iso: OnceLock<Option<S::T>>,
    /// Whether no stored value is the semiring's zero, found on first use.
    zero_free: OnceLock<bool>,
}

impl<S: Semiring> CpuMatrix<S> {
    /// A matrix in a format, with `nnz` entries.
    pub(super) fn new(m: SparseMatrix<S>, nnz: usize) -> Self {
        let m = match m {
            SparseMatrix::Csr(c) => Stored::Csr(Arc::new(c)),
            m => Stored::Other(m),
        };
        Self::stored(m, nnz)
    }

    fn stored(m: Stored<S>, nnz: usize) -> Self {
        CpuMatrix {
            m,
            nnz,
            rows: OnceLock::new(),
            iso: OnceLock::new(),
            zero_free: OnceLock::new(),
        }
    }

    /// The pattern of this matrix in semiring `P` (every entry `P::one()`, stored zeros no
    /// entries): on a CSR without stored zeros it shares the structure (no copy, no value
    /// array), else it is written out.
    pub(super) fn pattern<P: Semiring>(&self) -> CpuMatrix<P> {
        let shared = match &self.m {
            Stored::Csr(c) if self.zero_free() => Some(c.clone() as Arc<dyn Structure>),
            Stored::Pattern(on, _) => Some(on.clone()),
            _ => None,
        };
        match shared.and_then(|on| CpuMatrix::on_structure(on, P::one(), self.nnz)) {
            Some(p) => p,
            None => CpuMatrix::new(SparseMatrix::Csr(self.csr().pattern()), self.nnz),
        }
    }

    /// Every entry `value` at the places of `on`'s entries, sharing the structure; `None`
    /// when `value` is the zero (the entries would be no entries).
    fn on_structure(on: Arc<dyn Structure>, value: S::T, nnz: usize) -> Option<CpuMatrix<S>> {
        if S::is_zero(value) {
            return None;
        }
        let p = CpuMatrix::stored(Stored::Pattern(on, value), nnz);
        p.iso.get_or_init(|| Some(value));
        p.zero_free.get_or_init(|| true);
        Some(p)
    }

    /// The same values seen through semiring `S2` (a stored zero becomes `S2`'s zero). A CSR
    /// whose entries all hold one value (an unweighted graph, a pattern) shares its structure
    /// with the view; other CSR matrices are copied.
    pub(super) fn view<S2: Semiring<T = S::T>>(&self) -> CpuMatrix<S2> {
        let shared = match &self.m {
            Stored::Other(m) => return CpuMatrix::new(m.view(), self.nnz),
            Stored::Pattern(on, v) => Some((on.clone(), *v)),
            Stored::Csr(c) => self
                .iso()
                .filter(|v| !S::is_zero(*v))
                .map(|v| (c.clone() as Arc<dyn Structure>, v)),
        };
        shared
            .and_then(|(on, v)| CpuMatrix::on_structure(on, view_value::<S, S2>(v), self.nnz))
            .unwrap_or_else(|| {
                CpuMatrix::new(
                    SparseMatrix::Csr(self.csr().map(view_value::<S, S2>)),
                    self.nnz,
                )
            })
    }

    /// The number of entries.
    pub(super) fn nnz(&self) -> usize {
        self.nnz
    }

    /// `(rows, columns)`.
    pub(super) fn shape(&self) -> (usize, usize) {
        match &self.m {
            Stored::Csr(c) => (c.nrows(), c.ncols()),
            Stored::Other(m) => m.shape(),
            Stored::Pattern(on, _) => (on.row_ptr().len() - 1, on.ncols()),
        }
    }

    /// The format the entries are stored in (a shared pattern is CSR).
    pub(super) fn format(&self) -> Format {
        match &self.m {
            Stored::Other(m) => m.format(),
            _ => Format::Csr,
        }
    }

    /// The matrix in a format other than CSR, for the operations that run on any format.
    pub(super) fn other_format(&self) -> Option<&SparseMatrix<S>> {
        match &self.m {
            Stored::Other(m) => Some(m),
            _ => None,
        }
    }

    /// The one value of every entry, when all entries hold the same bits (a pattern, an
    /// unweighted graph): the products then read no values. Found once, on first use.
    pub(super) fn iso(&self) -> Option<S::T> {
        *self.iso.get_or_init(|| {
            let v = self.csr().vals();
            let first = *v.first()?;
            v.par_iter()
                .all(|x| x.to_bits64() == first.to_bits64())
                .then_some(first)
        })
    }

    /// `true` when no stored value is the zero (then every stored entry is an entry).
    pub(super) fn zero_free(&self) -> bool {
        *self.zero_free.get_or_init(|| match self.iso() {
            Some(v) => !S::is_zero(v),
            None => !self.csr().vals().par_iter().any(|v| S::is_zero(*v)),
        })
    }

    /// The matrix as a `Csr` (converted or written out on first use).
    pub(super) fn csr(&self) -> &Csr<S> {
        match &self.m {
            Stored::Csr(c) => c,
            Stored::Other(m) => self
                .rows
                .get_or_init(|| m.to_csr().expect("a matrix built from CSR converts back")),
            Stored::Pattern(on, v) => self.rows.get_or_init(|| {
                Csr::try_from_parts(
                    on.row_ptr().len() - 1,
                    on.ncols(),
                    on.row_ptr().to_vec(),
                    on.col_idx().to_vec(),
                    vec![*v; self.nnz],
                )
                .expect("a pattern has the structure of a valid CSR")
            }),
        }
    }

    /// The rows, read without a copy; values not read when every entry holds the same.
    pub(super) fn rows(&self) -> Rows<'_, S> {
        let (row_ptr, col_idx, ncols) = match &self.m {
            Stored::Pattern(on, _) => (on.row_ptr(), on.col_idx(), on.ncols()),
            _ => {
                let c = self.csr();
                (c.row_ptr(), c.col_idx(), c.ncols())
            }
        };
        let vals = match self.iso() {
            Some(v) => Vals::All(v),
            None => Vals::Stored(self.csr().vals()),
        };
        Rows {
            row_ptr,
            col_idx,
            ncols,
            vals,
        }
    }
}

/// The values of a matrix's entries: stored, or one value for all.
#[derive(Clone, Copy, Debug)]
pub(super) enum Vals<'a, T> {
    /// One value per entry, in CSR order.
    Stored(&'a [T]),
    /// Every entry holds this value (nothing to read).
    All(T),
}

impl<T: Copy> Vals<'_, T> {
    /// The value of entry `e` (its place in CSR order, or in the row for a row's values).
    #[inline(always)]
    pub(super) fn at(&self, e: usize) -> T {
        match self {
            Vals::Stored(v) => v[e],
            Vals::All(v) => *v,
        }
    }
}

/// The CSR rows of a [`CpuMatrix`], borrowed: a stored CSR's arrays, or a shared pattern's
/// structure with one value for all entries.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rows<'a, S: Semiring> {
    row_ptr: &'a [u32],
    col_idx: &'a [u32],
    ncols: usize,
    vals: Vals<'a, S::T>,
}

impl<'a, S: Semiring> Rows<'a, S> {
    pub(super) fn nrows(&self) -> usize {
        self.row_ptr.len() - 1
    }
    pub(super) fn ncols(&self) -> usize {
        self.ncols
    }
    pub(super) fn row_ptr(&self) -> &'a [u32] {
        self.row_ptr
    }
    pub(super) fn col_idx(&self) -> &'a [u32] {
        self.col_idx
    }
    /// Row `i`: its columns and their values (indexed by place in the row).
    #[inline(always)]
    pub(super) fn row(&self, i: usize) -> (&'a [u32], Vals<'a, S::T>) {
        let (a, b) = (self.row_ptr[i] as usize, self.row_ptr[i + 1] as usize);
        let vals = match self.vals {
            Vals::Stored(v) => Vals::Stored(&v[a..b]),
            all => all,
        };
        (&self.col_idx[a..b], vals)
    }
    /// Row `i` as `(column, value)` pairs.
    #[inline(always)]
    pub(super) fn entries(&self, i: usize) -> impl Iterator<Item = (u32, S::T)> + 'a {
        let (cols, vals) = self.row(i);
        cols.iter().enumerate().map(move |(e, &j)| (j, vals.at(e)))
    }
}
