//! Sparse x sparse products of the CPU backend: Gustavson's row-by-row method, each row's
//! terms gathered in a dense accumulator of the output's width (one per rayon worker), the
//! mask applied before a term is formed, and the row's columns sorted at the end; and
//! `A B^T` under a kept mask by dot products (row `i` of `A` marked, rows of `B` walked).

use super::*;

/// A [`CpuMatrix`]'s rows, read in place (named apart from this file's [`Rows`] of results).
type MatrixRows<'a, S> = super::matrix::Rows<'a, S>;

/// `C<mask> = A (+).(x) B`.
pub(super) fn spgemm<S: Semiring>(
    mask: MatrixMask<'_, CpuBackend, S>,
    a: &CpuMatrix<S>,
    b: &CpuMatrix<S>,
) -> Result<CpuMatrix<S>> {
    let (a, b) = (a.csr(), b.csr());
    assert_eq!(
        a.ncols(),
        b.nrows(),
        "spgemm: A has {} columns, B has {} rows",
        a.ncols(),
        b.nrows()
    );
    let (m, n) = (a.nrows(), b.ncols());
    let (keep, mcsr) = match mask {
        MatrixMask::All => (false, None),
        MatrixMask::Keep(mk) => (true, Some(mk.csr())),
        MatrixMask::Skip(mk) => (false, Some(mk.csr())),
    };
    if let Some(mc) = mcsr {
        assert_eq!(
            (mc.nrows(), mc.ncols()),
            (m, n),
            "spgemm: the mask is {}x{}, C is {m}x{n}",
            mc.nrows(),
            mc.ncols()
        );
    }
    // Each row: its columns and values, sorted by column, zeros dropped. Rows go in chunks,
    // one accumulator of the output's width per chunk (a few per thread).
    let row_of = |acc: &mut Accumulator<S>, i: usize, out: &mut Rows<S::T>| {
        if let Some(mc) = mcsr {
            let (mcols, mvals) = mc.row(i);
            for (&j, &v) in mcols.iter().zip(mvals) {
                if !S::is_zero(v) {
                    acc.allow[j as usize] = if keep { 1 } else { 2 };
                }
            }
        }
        let (acols, avals) = a.row(i);
        for (&k, &av) in acols.iter().zip(avals) {
            let (bcols, bvals) = b.row(k as usize);
            for (&j, &bv) in bcols.iter().zip(bvals) {
                let allowed = match (mcsr.is_some(), keep) {
                    (false, _) => true,
                    (true, true) => acc.allow[j as usize] == 1,
                    (true, false) => acc.allow[j as usize] != 2,
                };
                if allowed {
                    acc.add(j, S::mul_at(av, bv, k as u64));
                }
            }
        }
        let row = acc.take(out);
        if let Some(mc) = mcsr {
            for &j in mc.row(i).0 {
                acc.allow[j as usize] = 0;
            }
        }
        row
    };
    assemble(m, n, by_rows(m, || Accumulator::<S>::new(n), row_of)?)
}

/// A chunk of a product's rows: each row's length, then the rows' columns and values in
/// order. Grown fallibly: a product too large for memory is an [`Error::OutOfMemory`], never
/// an abort.
struct Rows<T> {
    lens: Vec<u32>,
    cols: Vec<u32>,
    vals: Vec<T>,
}

impl<T> Rows<T> {
    /// Appends an entry of the current row.
    fn push(&mut self, j: u32, v: T) -> Result<()> {
        if self.cols.len() == self.cols.capacity() {
            let more = self.cols.len().max(64);
            let needed = ((self.cols.len() + more) * (4 + size_of::<T>())) as u64;
            let oom = |_| Error::OutOfMemory {
                what: "spgemm's rows".into(),
                needed,
                available: None,
            };
            self.cols.try_reserve(more).map_err(oom)?;
            self.vals.try_reserve(more).map_err(oom)?;
        }
        self.cols.push(j);
        self.vals.push(v);
        Ok(())
    }
}

/// Rows `0..m` computed in parallel, in chunks (a few per thread), each chunk with its own
/// scratch from `init` (an accumulator or marks of a row's width), `row` appending row `i`'s
/// entries: the chunks in order.
fn by_rows<T, W, F>(m: usize, init: impl Fn() -> Result<W> + Sync, row: F) -> Result<Vec<Rows<T>>>
where
    T: Send,
    F: Fn(&mut W, usize, &mut Rows<T>) -> Result<()> + Sync,
{
    let chunk = m.div_ceil(rayon::current_num_threads() * 4).max(1);
    (0..m.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut scratch = init()?;
            let rows = c * chunk..((c + 1) * chunk).min(m);
            let mut out = Rows {
                lens: try_vec(rows.len(), 0u32, "spgemm's row lengths")?,
                cols: Vec::new(),
                vals: Vec::new(),
            };
            for (r, i) in rows.enumerate() {
                let before = out.cols.len();
                row(&mut scratch, i, &mut out)?;
                out.lens[r] = (out.cols.len() - before) as u32;
            }
            Ok(out)
        })
        .collect()
}

/// The CSR matrix `m x n` of rows given in chunks.
fn assemble<S: Semiring>(m: usize, n: usize, chunks: Vec<Rows<S::T>>) -> Result<CpuMatrix<S>> {
    let nnz: usize = chunks.iter().map(|r| r.cols.len()).sum();
    let mut rp = try_vec(m + 1, 0u32, "spgemm row pointers")?;
    if nnz > u32::MAX as usize {
        return Err(Error::InvalidArgument(format!(
            "spgemm: the product has {nnz} entries, more than the 32-bit indices hold"
        )));
    }
    let mut ci = Vec::new();
    let mut vals = Vec::new();
    let oom = |what: &str, bytes: usize| Error::OutOfMemory {
        what: what.into(),
        needed: bytes as u64,
        available: None,
    };
    ci.try_reserve_exact(nnz)
        .map_err(|_| oom("spgemm column indices", nnz * 4))?;
    vals.try_reserve_exact(nnz)
        .map_err(|_| oom("spgemm values", nnz * size_of::<S::T>()))?;
    let mut i = 0;
    for c in chunks {
        for len in c.lens {
            rp[i + 1] = rp[i] + len;
            i += 1;
        }
        ci.extend_from_slice(&c.cols);
        vals.extend_from_slice(&c.vals);
    }
    let c = Csr::try_from_parts(m, n, rp, ci, vals)?;
    let nnz = c.nnz();
    Ok(CpuMatrix::new(SparseMatrix::Csr(c), nnz))
}

/// `C<mask> = A (+).(x) B^T` under a kept mask, by dot products: for each entry `(i, j)` of
/// the mask (its value not the zero), the terms `mul(A(i, k), B(j, k), k)` over the `k` in both
/// row `i` of `A` and row `j` of `B`, combined in increasing `k` (the order of Gustavson's
/// accumulator, so the result is [`spgemm`]'s of `A` and `B^T` bit for bit). Row `i` of `A` is
/// marked in a scratch of `A`'s width (one per chunk of rows): one bit a column where every
/// entry of `A` holds one value (a pattern: the scratch of a million columns stays in a core's
/// cache), else the entry's place; a row `j` of `B` is then walked once rather than merged, and
/// a row of `B` more than 8 times longer than row `i` is searched instead. `B^T` is never
/// formed: triangle counting's `L L^T` masked by `L` reads `L` alone, and a hub's long column is
/// not walked once per neighbour.
pub(super) fn spgemm_dot<S: Semiring>(
    mask: &CpuMatrix<S>,
    a: &CpuMatrix<S>,
    b: &CpuMatrix<S>,
) -> Result<CpuMatrix<S>> {
    let (mc, a, b) = (mask.rows(), a.rows(), b.rows());
    assert_eq!(
        a.ncols(),
        b.ncols(),
        "spgemm_t: A has {} columns, B has {}",
        a.ncols(),
        b.ncols()
    );
    let (m, n) = (a.nrows(), b.nrows());
    assert_eq!(
        (mc.nrows(), mc.ncols()),
        (m, n),
        "spgemm_t: the mask is {}x{}, C is {m}x{n}",
        mc.nrows(),
        mc.ncols()
    );
    match a.iso() {
        Some(_) => dots::<S, true>(mc, a, b),
        None => dots::<S, false>(mc, a, b),
    }
}

/// [`spgemm_dot`] with row `i` of `A` marked as bits (`BITS`: `A` holds one value) or as
/// `1 +` each entry's place in the row (`0`: no entry).
fn dots<S: Semiring, const BITS: bool>(
    mc: MatrixRows<'_, S>,
    a: MatrixRows<'_, S>,
    b: MatrixRows<'_, S>,
) -> Result<CpuMatrix<S>> {
    let (m, n) = (a.nrows(), b.nrows());
    let width = match BITS {
        true => a.ncols().div_ceil(32),
        false => a.ncols(),
    };
    let row_of = |marks: &mut Vec<u32>, i: usize, out: &mut Rows<S::T>| {
        let (acols, avals) = a.row(i);
        for (p, &k) in acols.iter().enumerate() {
            let k = k as usize;
            match BITS {
                true => marks[k >> 5] |= 1 << (k & 31),
                false => marks[k] = p as u32 + 1,
            }
        }
        let (mcols, mvals) = mc.row(i);
        for (e, &j) in mcols.iter().enumerate() {
            if S::is_zero(mvals.at(e)) {
                continue;
            }
            let (bcols, bvals) = b.row(j as usize);
            let mut acc: Option<S::T> = None;
            let mut term = |k: u32, av: S::T, bv: S::T| {
                let t = S::mul_at(av, bv, k as u64);
                acc = Some(acc.map_or(t, |x| S::add(x, t)));
            };
            if bcols.len() > 8 * acols.len() {
                let mut from = 0;
                for (p, &k) in acols.iter().enumerate() {
                    from += bcols[from..].partition_point(|&x| x < k);
                    if from < bcols.len() && bcols[from] == k {
                        term(k, avals.at(p), bvals.at(from));
                    }
                }
            } else {
                for (q, &k) in bcols.iter().enumerate() {
                    let ku = k as usize;
                    match BITS {
                        true => {
                            if marks[ku >> 5] & (1 << (ku & 31)) != 0 {
                                term(k, avals.at(0), bvals.at(q));
                            }
                        }
                        false => {
                            let p = marks[ku];
                            if p != 0 {
                                term(k, avals.at(p as usize - 1), bvals.at(q));
                            }
                        }
                    }
                }
            }
            if let Some(v) = acc.filter(|v| !S::is_zero(*v)) {
                out.push(j, v)?;
            }
        }
        for &k in acols {
            let k = k as usize;
            match BITS {
                true => marks[k >> 5] = 0,
                false => marks[k] = 0,
            }
        }
        Ok(())
    };
    let marks = || try_vec(width, 0u32, "spgemm's marks of a row");
    assemble(m, n, by_rows(m, marks, row_of)?)
}

/// A dense row accumulator: values, which columns hold one, and the mask's marks.
struct Accumulator<S: Semiring> {
    vals: Vec<S::T>,
    seen: Vec<bool>,
    touched: Vec<u32>,
    /// 0: no mark; 1: the mask allows; 2: the mask forbids.
    allow: Vec<u8>,
}

impl<S: Semiring> Accumulator<S> {
    fn new(n: usize) -> Result<Self> {
        Ok(Accumulator {
            vals: try_vec(n, S::zero(), "spgemm's accumulator")?,
            seen: try_vec(n, false, "spgemm's accumulator")?,
            touched: Vec::new(),
            allow: try_vec(n, 0, "spgemm's mask marks")?,
        })
    }

    fn add(&mut self, j: u32, t: S::T) {
        let ju = j as usize;
        if self.seen[ju] {
            self.vals[ju] = S::add(self.vals[ju], t);
        } else {
            self.seen[ju] = true;
            self.vals[ju] = t;
            self.touched.push(j);
        }
    }

    /// Appends the row's entries to `out`, sorted by column, without zeros; the accumulator
    /// is left empty.
    fn take(&mut self, out: &mut Rows<S::T>) -> Result<()> {
        self.touched.sort_unstable();
        let mut r = Ok(());
        for &j in &self.touched {
            let ju = j as usize;
            let v = self.vals[ju];
            if !S::is_zero(v) && r.is_ok() {
                r = out.push(j, v);
            }
            self.seen[ju] = false;
            self.vals[ju] = S::zero();
        }
        self.touched.clear();
        r
    }
}
