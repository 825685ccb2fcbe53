//! Hybrid format: an ELL part for the common row length plus a COO tail for long rows.

use semigraph_semiring::Semiring;

use crate::coo::Coo;
use crate::csr::Csr;
use crate::ell::Ell;
use crate::error::FormatError;
use crate::format::ConvertOptions;
use crate::index::Index;

/// HYB (Bell & Garland): the first `width` entries of each row in an [`Ell`], the rest in a
/// row-major [`Coo`].
#[derive(Clone, Debug, PartialEq)]
pub struct Hyb<S: Semiring, I: Index = u32> {
    /// The regular part.
    pub ell: Ell<S, I>,
    /// The overflow of rows longer than the ELL width.
    pub coo: Coo<S, I>,
}

/// The ELL width HYB uses for a row-length histogram (`hist[len]` = rows of that length).
///
/// Column `w` of the ELL part is kept while at least a third of the rows reach it: an ELL
/// slot is about three times cheaper to process than a COO entry (Bell & Garland 2008),
/// so a column filled by a third of the rows costs no more than moving its entries to COO.
pub fn hyb_width(hist: &[usize], nrows: usize) -> usize {
    let threshold = nrows.div_ceil(3).max(1);
    let mut at_least = nrows; // rows with length >= w, for w = 0
    let mut w = 0;
    for (len, count) in hist.iter().enumerate() {
        // rows with length >= len + 1
        at_least -= count;
        if at_least >= threshold {
            w = len + 1;
        } else {
            break;
        }
    }
    w
}

impl<S: Semiring, I: Index> Hyb<S, I> {
    /// Maps every value of both parts into another semiring's value type.
    pub fn map<S2: Semiring>(&self, f: impl Fn(S::T) -> S2::T + Sync) -> Hyb<S2, I> {
        Hyb {
            ell: self.ell.map(&f),
            coo: self.coo.map(&f),
        }
    }

    /// From CSR, with `opts.hyb_width` or the [`hyb_width`] rule.
    pub fn from_csr(a: &Csr<S, I>, opts: &ConvertOptions) -> Result<Self, FormatError> {
        let width = match opts.hyb_width {
            Some(w) => w,
            None => {
                let mut hist = vec![];
                for i in 0..a.nrows() {
                    let l = a.row_len(i);
                    if hist.len() <= l {
                        hist.resize(l + 1, 0);
                    }
                    hist[l] += 1;
                }
                hyb_width(&hist, a.nrows())
            }
        };
        // The ELL part is at most `width * nrows`; by the rule it is at least a third full.
        let ell = Ell::from_csr_width(a, width, f64::INFINITY)?;
        let mut coo = Coo::new(a.nrows(), a.ncols())?;
        for i in 0..a.nrows() {
            let (c, v) = a.row(i);
            for k in width.min(c.len())..c.len() {
                coo.push(i, c[k].to_usize(), v[k]);
            }
        }
        Ok(Hyb { ell, coo })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.ell.nrows()
    }
    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.ell.ncols()
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.ell.nnz() + self.coo.nnz()
    }

    /// Back to CSR.
    pub fn to_csr(&self) -> Csr<S, I> {
        let e = self.ell.to_csr();
        let mut coo = Coo::from_csr(&e);
        for (r, c, v) in self.coo.iter() {
            coo.push(r, c, v);
        }
        coo.to_csr()
    }

    /// `y = A x` in the semiring.
    ///
    /// # Panics
    /// If `x.len() != ncols`.
    #[track_caller]
    pub fn spmv(&self, x: &[S::T]) -> Vec<S::T> {
        let mut y = self.ell.spmv(x);
        for (r, c, v) in self.coo.iter() {
            y[r] = S::add(y[r], S::mul_at(v, x[c], c as u64));
        }
        y
    }
}
