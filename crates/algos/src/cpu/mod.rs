//! The CPU backend: multi-threaded (rayon), every format, every semiring; the reference that
//! the GPU backend is tested against, and what runs where there is no GPU.

use std::sync::OnceLock;

use rayon::prelude::*;
use semigraph_formats::{ConvertOptions, Csr, Format, SparseMatrix};
use semigraph_semiring::{Scalar, Semiring};

use crate::backend::{Accum, Backend, BackendKind, Ewise, Mask, MatrixInfo, Parents, UnaryOp};
use crate::error::{Error, Result, try_vec};

mod products;
mod queue;
pub use queue::CpuQueue;

/// The CPU backend. Work runs on rayon's global thread pool (`RAYON_NUM_THREADS` sets its
/// size).
#[derive(Clone, Copy, Debug)]
pub struct CpuBackend {
    /// Frontiers of at least this many entries relax in parallel (see
    /// [`CpuBackend::with_parallel_threshold`]).
    par_entries: usize,
}

impl Default for CpuBackend {
    fn default() -> Self {
        CpuBackend::new()
    }
}

impl CpuBackend {
    /// The CPU backend.
    pub fn new() -> CpuBackend {
        CpuBackend {
            par_entries: queue::PAR_ENTRIES,
        }
    }

    /// The CPU backend with another frontier size from which a relaxation step runs in
    /// parallel (sorting its terms) rather than in place: smaller frontiers cost less alone
    /// than rayon's fork-join. Tests set 0 or `usize::MAX` to exercise each path.
    pub fn with_parallel_threshold(entries: usize) -> CpuBackend {
        CpuBackend {
            par_entries: entries,
        }
    }
}

/// A matrix of the CPU backend: the chosen format, plus CSR rows built on first use by
/// [`Backend::vxm`] when the format is not CSR.
#[derive(Debug)]
pub struct CpuMatrix<S: Semiring> {
    m: SparseMatrix<S>,
    nnz: usize,
    rows: OnceLock<Csr<S>>,
}

impl<S: Semiring> CpuMatrix<S> {
    /// The matrix in its format.
    pub fn inner(&self) -> &SparseMatrix<S> {
        &self.m
    }

    fn csr(&self) -> &Csr<S> {
        match &self.m {
            SparseMatrix::Csr(c) => c,
            m => self
                .rows
                .get_or_init(|| m.to_csr().expect("a matrix built from CSR converts back")),
        }
    }
}

/// A dense row-major array of the CPU backend.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuDense<S: Semiring> {
    rows: usize,
    cols: usize,
    data: Vec<S::T>,
}

impl<S: Semiring> CpuDense<S> {
    /// The values, row-major.
    pub fn data(&self) -> &[S::T] {
        &self.data
    }
}

/// A sparse vector of the CPU backend.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuSparse<S: Semiring> {
    n: usize,
    idx: Vec<u32>,
    vals: Vec<S::T>,
}

/// A dense array of any semiring seen as a mask.
pub trait MaskTest: Sync {
    /// Number of positions.
    fn len(&self) -> usize;
    /// `true` if there is an entry (a non-zero value) at `i`.
    fn has(&self, i: usize) -> bool;
    /// `true` if there are no positions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<S: Semiring> MaskTest for CpuDense<S> {
    fn len(&self) -> usize {
        self.data.len()
    }
    #[inline]
    fn has(&self, i: usize) -> bool {
        !S::is_zero(self.data[i])
    }
}

#[inline]
fn allows(mask: &Mask<'_, CpuBackend>, i: usize) -> bool {
    match mask {
        Mask::All => true,
        Mask::Keep(m) => m.has(i),
        Mask::Skip(m) => !m.has(i),
    }
}

#[track_caller]
fn check_mask(mask: &Mask<'_, CpuBackend>, len: usize) {
    if let Mask::Keep(m) | Mask::Skip(m) = mask {
        assert_eq!(
            m.len(),
            len,
            "mask has {} positions, output has {len}",
            m.len()
        );
    }
}

#[inline]
fn combine<S: Semiring>(accum: Accum, y: S::T, t: S::T) -> S::T {
    match accum {
        Accum::Replace => t,
        Accum::Add => S::add(y, t),
    }
}

const MIN_LEN: usize = 512;

impl Backend for CpuBackend {
    type Matrix<S: Semiring> = CpuMatrix<S>;
    type Dense<S: Semiring> = CpuDense<S>;
    type Sparse<S: Semiring> = CpuSparse<S>;
    type MaskRef<'a> = &'a dyn MaskTest;

    fn name(&self) -> String {
        format!("cpu (rayon, {} threads)", rayon::current_num_threads())
    }

    fn kind(&self) -> BackendKind {
        BackendKind::Cpu
    }

    fn matrix<S: Semiring>(
        &self,
        a: &Csr<S>,
        format: Format,
        opts: &ConvertOptions,
    ) -> Result<CpuMatrix<S>> {
        let m = SparseMatrix::from_csr(a, format, opts)?;
        Ok(CpuMatrix {
            m,
            nnz: a.nnz(),
            rows: OnceLock::new(),
        })
    }

    fn view<S: Semiring, S2: Semiring<T = S::T>>(&self, a: &CpuMatrix<S>) -> Result<CpuMatrix<S2>> {
        Ok(CpuMatrix {
            m: a.m.view(),
            nnz: a.nnz,
            rows: OnceLock::new(),
        })
    }

    fn pattern<S: Semiring, P: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuMatrix<P>> {
        Ok(CpuMatrix {
            m: a.m.pattern(),
            nnz: a.nnz,
            rows: OnceLock::new(),
        })
    }

    fn matrix_info<S: Semiring>(&self, a: &CpuMatrix<S>) -> MatrixInfo {
        let (nrows, ncols) = a.m.shape();
        MatrixInfo {
            nrows,
            ncols,
            nnz: a.nnz,
            format: a.m.format(),
        }
    }

    fn dense<S: Semiring>(&self, rows: usize, cols: usize, data: &[S::T]) -> Result<CpuDense<S>> {
        assert_eq!(
            data.len(),
            rows * cols,
            "dense data has the wrong length for {rows}x{cols}"
        );
        let mut v = try_vec(0, S::zero(), "dense array")?;
        v.try_reserve_exact(data.len())
            .map_err(|_| Error::OutOfMemory {
                what: "dense array".into(),
                needed: std::mem::size_of_val(data) as u64,
                available: None,
            })?;
        v.extend_from_slice(data);
        Ok(CpuDense {
            rows,
            cols,
            data: v,
        })
    }

    fn dense_filled<S: Semiring>(
        &self,
        rows: usize,
        cols: usize,
        value: S::T,
    ) -> Result<CpuDense<S>> {
        let n = rows.checked_mul(cols).ok_or_else(|| Error::OutOfMemory {
            what: format!("{rows}x{cols} dense array"),
            needed: u64::MAX,
            available: None,
        })?;
        Ok(CpuDense {
            rows,
            cols,
            data: try_vec(n, value, &format!("{rows}x{cols} dense array"))?,
        })
    }

    fn dense_shape<S: Semiring>(&self, x: &CpuDense<S>) -> (usize, usize) {
        (x.rows, x.cols)
    }

    fn read_dense<S: Semiring>(&self, x: &CpuDense<S>) -> Result<Vec<S::T>> {
        Ok(x.data.clone())
    }

    fn set<S: Semiring>(&self, x: &mut CpuDense<S>, i: usize, value: S::T) -> Result<()> {
        x.data[i] = value;
        Ok(())
    }

    fn sparse<S: Semiring>(&self, n: usize, idx: &[u32], vals: &[S::T]) -> Result<CpuSparse<S>> {
        assert_eq!(
            idx.len(),
            vals.len(),
            "sparse indices and values differ in length"
        );
        assert!(
            idx.windows(2).all(|w| w[0] < w[1]) && idx.last().is_none_or(|&i| (i as usize) < n),
            "sparse indices must be sorted, distinct and below {n}"
        );
        Ok(CpuSparse {
            n,
            idx: idx.to_vec(),
            vals: vals.to_vec(),
        })
    }

    fn sparse_nnz<S: Semiring>(&self, x: &CpuSparse<S>) -> usize {
        x.idx.len()
    }

    fn read_sparse<S: Semiring>(&self, x: &CpuSparse<S>) -> Result<(Vec<u32>, Vec<S::T>)> {
        Ok((x.idx.clone(), x.vals.clone()))
    }

    fn to_dense<S: Semiring>(&self, x: &CpuSparse<S>) -> Result<CpuDense<S>> {
        let mut d = self.dense_filled::<S>(x.n, 1, S::zero())?;
        for (&i, &v) in x.idx.iter().zip(&x.vals) {
            d.data[i as usize] = v;
        }
        Ok(d)
    }

    fn compact<S: Semiring>(&self, x: &CpuDense<S>) -> Result<CpuSparse<S>> {
        let (idx, vals) = x
            .data
            .par_iter()
            .enumerate()
            .with_min_len(4096)
            .filter(|(_, v)| !S::is_zero(**v))
            .map(|(i, v)| (i as u32, *v))
            .unzip();
        Ok(CpuSparse {
            n: x.data.len(),
            idx,
            vals,
        })
    }

    fn mask<'a, M: Semiring>(&'a self, m: &'a CpuDense<M>) -> &'a dyn MaskTest {
        m
    }

    fn mxm<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &CpuMatrix<S>,
        x: &CpuDense<S>,
    ) -> Result<()> {
        products::mxm(y, mask, accum, a, x)
    }

    fn vxm<S: Semiring>(
        &self,
        x: &CpuSparse<S>,
        a: &CpuMatrix<S>,
        mask: Mask<'_, Self>,
    ) -> Result<CpuSparse<S>> {
        products::vxm(x, a, mask)
    }

    fn transpose<S: Semiring>(&self, x: &CpuDense<S>) -> Result<CpuDense<S>> {
        Ok(CpuDense {
            rows: x.cols,
            cols: x.rows,
            data: products::transpose(&x.data, x.rows, x.cols)?,
        })
    }

    fn gemm<S: Semiring>(
        &self,
        c: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        accum: Accum,
        a: &CpuDense<S>,
        b: &CpuDense<S>,
    ) -> Result<()> {
        products::gemm(c, mask, accum, a, b)
    }

    fn ewise<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        op: Ewise,
        x: &CpuDense<S>,
    ) -> Result<()> {
        assert_eq!((y.rows, y.cols), (x.rows, x.cols), "ewise: shapes differ");
        check_mask(&mask, y.data.len());
        y.data
            .par_iter_mut()
            .zip(&x.data)
            .enumerate()
            .with_min_len(4096)
            .for_each(|(i, (yv, &xv))| {
                if allows(&mask, i) {
                    *yv = match op {
                        Ewise::Add => S::add(*yv, xv),
                        Ewise::Mul => S::mul_at(*yv, xv, 0),
                    };
                }
            });
        Ok(())
    }

    fn apply<S: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        mask: Mask<'_, Self>,
        op: UnaryOp<S::T>,
    ) -> Result<()> {
        check_mask(&mask, y.data.len());
        y.data
            .par_iter_mut()
            .enumerate()
            .with_min_len(4096)
            .for_each(|(i, yv)| {
                if allows(&mask, i) {
                    *yv = match op {
                        UnaryOp::Fill(c) => c,
                        UnaryOp::MulBy(c) => S::mul_at(*yv, c, 0),
                        UnaryOp::AddTo(c) => S::add(*yv, c),
                    };
                }
            });
        Ok(())
    }

    fn assign_at<S: Semiring, M: Semiring>(
        &self,
        y: &mut CpuDense<S>,
        at: &CpuSparse<M>,
        value: S::T,
    ) -> Result<()> {
        assert_eq!(at.n, y.data.len(), "assign_at: lengths differ");
        for &i in &at.idx {
            y.data[i as usize] = value;
        }
        Ok(())
    }

    fn reduce<S: Semiring>(&self, x: &CpuDense<S>, mask: Mask<'_, Self>) -> Result<S::T> {
        check_mask(&mask, x.data.len());
        Ok(x.data
            .par_iter()
            .enumerate()
            .with_min_len(4096)
            .filter(|(i, _)| allows(&mask, *i))
            .map(|(_, v)| *v)
            .reduce(S::zero, S::add))
    }

    fn reduce_sparse<S: Semiring>(&self, x: &CpuSparse<S>) -> Result<S::T> {
        Ok(x.vals.iter().fold(S::zero(), |a, &b| S::add(a, b)))
    }

    fn nvals<S: Semiring>(&self, x: &CpuDense<S>) -> Result<usize> {
        Ok(x.data
            .par_iter()
            .with_min_len(4096)
            .filter(|v| !S::is_zero(**v))
            .count())
    }

    fn improve<S: Semiring>(&self, d: &mut CpuDense<S>, t: &CpuSparse<S>) -> Result<CpuSparse<S>> {
        assert_eq!(t.n, d.data.len(), "improve: lengths differ");
        let dd = &d.data;
        let (idx, vals): (Vec<u32>, Vec<S::T>) = t
            .idx
            .par_iter()
            .zip(&t.vals)
            .with_min_len(1024)
            .filter_map(|(&i, &v)| {
                let old = dd[i as usize];
                S::improves(old, v).then(|| (i, S::add(old, v)))
            })
            .unzip();
        for (&i, &v) in idx.iter().zip(&vals) {
            d.data[i as usize] = v;
        }
        Ok(CpuSparse { n: t.n, idx, vals })
    }

    fn improve_dense<S: Semiring>(&self, d: &mut CpuDense<S>, t: &CpuDense<S>) -> Result<usize> {
        assert_eq!(
            (d.rows, d.cols),
            (t.rows, t.cols),
            "improve_dense: shapes differ"
        );
        Ok(d.data
            .par_iter_mut()
            .zip(&t.data)
            .with_min_len(4096)
            .map(|(dv, &tv)| {
                let better = S::improves(*dv, tv);
                if better {
                    *dv = S::add(*dv, tv);
                }
                better as usize
            })
            .sum())
    }

    fn union<S: Semiring>(&self, a: &CpuSparse<S>, b: &CpuSparse<S>) -> Result<CpuSparse<S>> {
        assert_eq!(a.n, b.n, "union: lengths differ");
        let (mut i, mut j) = (0, 0);
        let mut idx = Vec::with_capacity(a.idx.len() + b.idx.len());
        let mut vals = Vec::with_capacity(idx.capacity());
        while i < a.idx.len() || j < b.idx.len() {
            let take_a = j == b.idx.len() || (i < a.idx.len() && a.idx[i] <= b.idx[j]);
            let take_b = i == a.idx.len() || (j < b.idx.len() && b.idx[j] <= a.idx[i]);
            let (k, v) = match (take_a, take_b) {
                (true, true) => (a.idx[i], S::add(a.vals[i], b.vals[j])),
                (true, false) => (a.idx[i], a.vals[i]),
                _ => (b.idx[j], b.vals[j]),
            };
            i += take_a as usize;
            j += take_b as usize;
            idx.push(k);
            vals.push(v);
        }
        Ok(CpuSparse { n: a.n, idx, vals })
    }

    fn select_range<S: Semiring>(
        &self,
        x: &CpuSparse<S>,
        lo: S::T,
        hi: S::T,
    ) -> Result<CpuSparse<S>> {
        let (idx, vals) = x
            .idx
            .iter()
            .zip(&x.vals)
            .filter(|(_, v)| (**v).partial_cmp(&lo).is_some_and(|o| o.is_ge()) && **v < hi)
            .map(|(i, v)| (*i, *v))
            .unzip();
        Ok(CpuSparse { n: x.n, idx, vals })
    }

    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut CpuDense<Parents>,
        x: &CpuSparse<S>,
        a: &CpuMatrix<S>,
        d: &CpuDense<S>,
        at: &CpuSparse<M>,
    ) -> Result<()> {
        let c = a.csr();
        assert_eq!(
            x.n,
            c.nrows(),
            "witness: x has length {}, A has {} rows",
            x.n,
            c.nrows()
        );
        assert_eq!(d.data.len(), c.ncols(), "witness: d has the wrong length");
        assert_eq!(p.data.len(), c.ncols(), "witness: p has the wrong length");
        assert_eq!(at.n, c.ncols(), "witness: at has the wrong length");
        let targets = &at.idx;
        let dd = &d.data;
        // (j, k) for every term of x (+).(x) A that lands on a target and attains d(j).
        let found: Vec<(u32, u32)> = x
            .idx
            .par_iter()
            .zip(&x.vals)
            .flat_map_iter(|(&k, &xv)| {
                let (cols, vals) = c.row(k as usize);
                cols.iter().zip(vals).filter_map(move |(&j, &av)| {
                    let t = S::mul_at(av, xv, k as u64);
                    (!S::is_zero(t)
                        && t.to_bits64() == dd[j as usize].to_bits64()
                        && targets.binary_search(&j).is_ok())
                    .then_some((j, k))
                })
            })
            .collect();
        for &j in targets {
            p.data[j as usize] = crate::backend::NO_PARENT;
        }
        for (j, k) in found {
            let e = &mut p.data[j as usize];
            *e = (*e).min(k);
        }
        Ok(())
    }
}
