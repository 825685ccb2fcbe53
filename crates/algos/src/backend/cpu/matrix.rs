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

/// Row pointers and columns with no values: the structure of a pattern an operation made (a
/// select of positions, rows extracted from a pattern).
#[derive(Debug)]
struct OwnStructure {
    row_ptr: Vec<u32>,
    col_idx: Vec<u32>,
    ncols: usize,
}

impl Structure for OwnStructure {
    fn row_ptr(&self) -> &[u32] {
        &self.row_ptr
    }
    fn col_idx(&self) -> &[u32] {
        &self.col_idx
    }
    fn ncols(&self) -> usize {
        self.ncols
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

    /// The `nrows x ncols` matrix whose row `i` is entries `ranges[i]` (places in `a`'s CSR
    /// arrays, each within one row) of `a`: each row a slice copied in parallel into arrays
    /// sized once; a pattern (no value array) when every entry of `a` holds one value. For
    /// the operations that keep a range of each row (a select of positions) or whole rows.
    pub(super) fn from_ranges(
        a: &Rows<'_, S>,
        ranges: &[(u32, u32)],
    ) -> crate::error::Result<CpuMatrix<S>> {
        use crate::error::{Error, try_vec};
        let nrows = ranges.len();
        let block_nnz: Vec<usize> = ranges
            .par_chunks(ROWS)
            .map(|b| b.iter().map(|&(lo, hi)| (hi - lo) as usize).sum())
            .collect();
        let nnz: usize = block_nnz.iter().sum();
        if nnz > u32::MAX as usize {
            return Err(Error::InvalidArgument(format!(
                "the result has {nnz} entries; CSR with 32-bit indices holds at most {}",
                u32::MAX
            )));
        }
        let mut row_ptr = try_vec(nrows + 1, 0u32, "row pointers")?;
        let mut col_idx = try_vec(nnz, 0u32, "column indices")?;
        // Each block's rows, row pointers and columns: disjoint slices, filled in parallel.
        let starts = block_nnz.iter().scan(0u32, |s, &len| {
            let at = *s;
            *s += len as u32;
            Some(at)
        });
        let blocks = ranges.chunks(ROWS);
        let rps = split_by(&mut row_ptr[1..], blocks.clone().map(<[_]>::len));
        let cis = split_by(&mut col_idx, block_nnz.iter().copied());
        let pieces: Vec<_> = blocks.zip(rps).zip(cis).zip(starts).collect();
        let cols = a.col_idx();
        pieces
            .into_par_iter()
            .for_each(|(((rows, rp), ci), start)| {
                let mut at = 0usize;
                for (&(lo, hi), p) in rows.iter().zip(rp) {
                    let (lo, hi) = (lo as usize, hi as usize);
                    // An element loop: most rows are a few entries, too short for a memcpy call.
                    for (d, &c) in ci[at..at + hi - lo].iter_mut().zip(&cols[lo..hi]) {
                        *d = c;
                    }
                    at += hi - lo;
                    *p = start + at as u32;
                }
            });
        let ncols = a.ncols();
        if let Some(v) = a.iso().filter(|v| !S::is_zero(*v)) {
            let on = Arc::new(OwnStructure {
                row_ptr,
                col_idx,
                ncols,
            });
            return Ok(CpuMatrix::on_structure(on, v, nnz).expect("the value is not the zero"));
        }
        let Vals::Stored(src) = a.vals else {
            unreachable!("values are stored where they are not all one")
        };
        let mut vals = try_vec(nnz, S::zero(), "values")?;
        let vs = split_by(&mut vals, block_nnz.iter().copied());
        let pieces: Vec<_> = ranges.chunks(ROWS).zip(vs).collect();
        pieces.into_par_iter().for_each(|(rows, v)| {
            let mut at = 0usize;
            for &(lo, hi) in rows {
                let (lo, hi) = (lo as usize, hi as usize);
                for (d, &x) in v[at..at + hi - lo].iter_mut().zip(&src[lo..hi]) {
                    *d = x;
                }
                at += hi - lo;
            }
        });
        let csr = Csr::try_from_parts(nrows, ncols, row_ptr, col_idx, vals)?;
        Ok(CpuMatrix::new(SparseMatrix::Csr(csr), nnz))
    }

    /// The matrix on `a`'s structure whose entry `e` (its place in CSR order) holds `vals[e]`,
    /// the entries whose value is the zero dropped: the structure copied where none is, else
    /// each block of rows compacted in parallel into arrays sized once. With [`entry_values`],
    /// the element-wise operations (apply, select by value, SDDMM) without growing a row at a
    /// time.
    pub(super) fn from_entry_values<S2: Semiring>(
        a: &Rows<'_, S2>,
        vals: Vec<S::T>,
    ) -> crate::error::Result<CpuMatrix<S>> {
        let (nrows, ncols, rp, cols) = (a.nrows(), a.ncols(), a.row_ptr(), a.col_idx());
        if !vals.par_iter().any(|v| S::is_zero(*v)) {
            let nnz = vals.len();
            let csr = Csr::try_from_parts(nrows, ncols, rp.to_vec(), cols.to_vec(), vals)?;
            return Ok(CpuMatrix::new(SparseMatrix::Csr(csr), nnz));
        }
        Self::compacted(a, |_, e| (!S::is_zero(vals[e])).then_some(vals[e]))
    }

    /// The entries of `a`'s structure for which `take(i, e)` (row `i`, place `e` in CSR
    /// order) gives a value, with that value: each block of rows counts what it keeps, then
    /// writes it into arrays sized once (no row grown a push at a time). `take` runs twice
    /// per entry.
    pub(super) fn compacted<S2: Semiring>(
        a: &Rows<'_, S2>,
        take: impl Fn(usize, usize) -> Option<S::T> + Sync,
    ) -> crate::error::Result<CpuMatrix<S>> {
        use crate::error::try_vec;
        let (nrows, ncols, rp, cols) = (a.nrows(), a.ncols(), a.row_ptr(), a.col_idx());
        let blocks: Vec<(usize, usize)> = (0..nrows.div_ceil(ROWS))
            .map(|b| (b * ROWS, ((b + 1) * ROWS).min(nrows)))
            .collect();
        let kept: Vec<usize> = blocks
            .par_iter()
            .map(|&(r0, r1)| {
                (r0..r1)
                    .map(|i| {
                        (rp[i] as usize..rp[i + 1] as usize)
                            .filter(|&e| take(i, e).is_some())
                            .count()
                    })
                    .sum()
            })
            .collect();
        let nnz: usize = kept.iter().sum();
        let mut row_ptr = try_vec(nrows + 1, 0u32, "row pointers")?;
        let mut col_idx = try_vec(nnz, 0u32, "column indices")?;
        let mut out = try_vec(nnz, S::zero(), "values")?;
        let starts = kept.iter().scan(0u32, |s, &len| {
            let at = *s;
            *s += len as u32;
            Some(at)
        });
        let rps = split_by(&mut row_ptr[1..], blocks.iter().map(|&(r0, r1)| r1 - r0));
        let cis = split_by(&mut col_idx, kept.iter().copied());
        let vs = split_by(&mut out, kept.iter().copied());
        let pieces: Vec<_> = blocks
            .iter()
            .zip(rps)
            .zip(cis)
            .zip(vs)
            .zip(starts)
            .collect();
        pieces
            .into_par_iter()
            .for_each(|((((&(r0, r1), p), c), v), start)| {
                let mut at = 0;
                for (i, pi) in (r0..r1).zip(p) {
                    let (e0, e1) = (rp[i] as usize, rp[i + 1] as usize);
                    for (e, &j) in (e0..e1).zip(&cols[e0..e1]) {
                        if let Some(x) = take(i, e) {
                            (c[at], v[at]) = (j, x);
                            at += 1;
                        }
                    }
                    *pi = start + at as u32;
                }
            });
        let csr = Csr::try_from_parts(nrows, ncols, row_ptr, col_idx, out)?;
        Ok(CpuMatrix::new(SparseMatrix::Csr(csr), nnz))
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

/// `v` cut into consecutive slices of the given lengths (the parts a parallel task each fills).
fn split_by<T>(mut v: &mut [T], lens: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    lens.map(|len| {
        let (head, rest) = std::mem::take(&mut v).split_at_mut(len);
        v = rest;
        head
    })
    .collect()
}

/// Rows per parallel block of the builders above.
const ROWS: usize = 4096;

/// `f(i, j, v)` for each entry `(i, j, v)` of `a`, in CSR order (`zero` where the stored
/// value is the zero of `S`), rows in parallel blocks, each writing its slice of one array
/// sized once: the values for [`CpuMatrix::from_entry_values`].
pub(super) fn entry_values<S: Semiring, T: Copy + Send + Sync>(
    a: &Rows<'_, S>,
    zero: T,
    f: impl Fn(usize, u32, S::T) -> T + Sync,
) -> crate::error::Result<Vec<T>> {
    let (nrows, rp) = (a.nrows(), a.row_ptr());
    let mut vals = crate::error::try_vec(a.col_idx().len(), zero, "values")?;
    let blocks = (0..nrows)
        .step_by(ROWS)
        .map(|r0| (r0, (r0 + ROWS).min(nrows)));
    let vs = split_by(
        &mut vals,
        blocks.clone().map(|(r0, r1)| (rp[r1] - rp[r0]) as usize),
    );
    let pieces: Vec<_> = blocks.zip(vs).collect();
    pieces.into_par_iter().for_each(|((r0, r1), v)| {
        let base = rp[r0] as usize;
        for i in r0..r1 {
            let (cols, vs) = a.row(i);
            let out = &mut v[rp[i] as usize - base..rp[i + 1] as usize - base];
            for (e, (&j, d)) in cols.iter().zip(out).enumerate() {
                let x = vs.at(e);
                if !S::is_zero(x) {
                    *d = f(i, j, x);
                }
            }
        }
    });
    Ok(vals)
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
    /// The one value of every entry, where all hold the same (nothing to read).
    pub(super) fn iso(&self) -> Option<S::T> {
        match self.vals {
            Vals::All(v) => Some(v),
            Vals::Stored(_) => None,
        }
    }
    /// The value of entry `e` (its place in CSR order).
    #[inline(always)]
    pub(super) fn value(&self, e: usize) -> S::T {
        self.vals.at(e)
    }
    /// Row `i` as `(column, value)` pairs.
    #[inline(always)]
    pub(super) fn entries(&self, i: usize) -> impl Iterator<Item = (u32, S::T)> + 'a {
        let (cols, vals) = self.row(i);
        cols.iter().enumerate().map(move |(e, &j)| (j, vals.at(e)))
    }
}
