//! Sparse x sparse products of the CPU backend: Gustavson's row-by-row method, each row's
//! terms gathered in a dense accumulator of the output's width (one per rayon worker), the
//! mask applied before a term is formed, and the row's columns sorted at the end; and
//! `A B^T` under a kept mask by dot products (row `i` of `A` marked, rows of `B` walked).

use super::*;

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
    let row_of = |acc: &mut Accumulator<S>, i: usize| {
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
        let row = acc.take();
        if let Some(mc) = mcsr {
            for &j in mc.row(i).0 {
                acc.allow[j as usize] = 0;
            }
        }
        row
    };
    assemble(m, n, by_rows(m, || Accumulator::<S>::new(n), row_of))
}

/// Rows `0..m` computed in parallel, in chunks (a few per thread), each chunk with its own
/// scratch from `init` (an accumulator or marks of a row's width): the rows in order.
fn by_rows<T, W, F>(m: usize, init: impl Fn() -> W + Sync, row: F) -> Vec<(Vec<u32>, Vec<T>)>
where
    T: Send,
    F: Fn(&mut W, usize) -> (Vec<u32>, Vec<T>) + Sync,
{
    let chunk = m.div_ceil(rayon::current_num_threads() * 4).max(1);
    (0..m.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut scratch = init();
            (c * chunk..((c + 1) * chunk).min(m))
                .map(|i| row(&mut scratch, i))
                .collect::<Vec<_>>()
        })
        .flatten_iter()
        .collect()
}

/// The CSR matrix `m x n` of rows given as (sorted columns, values).
fn assemble<S: Semiring>(
    m: usize,
    n: usize,
    rows: Vec<(Vec<u32>, Vec<S::T>)>,
) -> Result<CpuMatrix<S>> {
    let nnz: usize = rows.iter().map(|r| r.0.len()).sum();
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
    for (i, (c, v)) in rows.into_iter().enumerate() {
        ci.extend_from_slice(&c);
        vals.extend_from_slice(&v);
        rp[i + 1] = ci.len() as u32;
    }
    let c = Csr::try_from_parts(m, n, rp, ci, vals)?;
    let nnz = c.nnz();
    Ok(CpuMatrix::new(SparseMatrix::Csr(c), nnz))
}

/// `C<mask> = A (+).(x) B^T` under a kept mask, by dot products: for each entry `(i, j)` of
/// the mask (its value not the zero), the terms `mul(A(i, k), B(j, k), k)` over the `k` in both
/// row `i` of `A` and row `j` of `B`, combined in increasing `k` (the order of Gustavson's
/// accumulator, so the result is [`spgemm`]'s of `A` and `B^T` bit for bit). Row `i` of `A` is
/// marked in a dense array of `A`'s width (one per chunk of rows), so a row `j` of `B` is walked
/// once rather than merged; a row of `B` more than 8 times longer than row `i` is searched
/// instead. `B^T` is never formed: triangle counting's `L L^T` masked by `L` reads `L` alone,
/// and a hub's long column is not walked once per neighbour.
pub(super) fn spgemm_dot<S: Semiring>(
    mask: &CpuMatrix<S>,
    a: &CpuMatrix<S>,
    b: &CpuMatrix<S>,
) -> Result<CpuMatrix<S>> {
    let (mc, a, b) = (mask.csr(), a.csr(), b.csr());
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
    // pos[k] = 1 + the place of k in row i of A; 0 where row i has no k.
    let row_of = |pos: &mut Vec<u32>, i: usize| {
        let (acols, avals) = a.row(i);
        for (p, &k) in acols.iter().enumerate() {
            pos[k as usize] = p as u32 + 1;
        }
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        let (mcols, mvals) = mc.row(i);
        for (&j, &mv) in mcols.iter().zip(mvals) {
            if S::is_zero(mv) {
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
                for (&k, &av) in acols.iter().zip(avals) {
                    from += bcols[from..].partition_point(|&x| x < k);
                    if from < bcols.len() && bcols[from] == k {
                        term(k, av, bvals[from]);
                    }
                }
            } else {
                for (&k, &bv) in bcols.iter().zip(bvals) {
                    let p = pos[k as usize];
                    if p != 0 {
                        term(k, avals[p as usize - 1], bv);
                    }
                }
            }
            if let Some(v) = acc.filter(|v| !S::is_zero(*v)) {
                cols.push(j);
                vals.push(v);
            }
        }
        for &k in acols {
            pos[k as usize] = 0;
        }
        (cols, vals)
    };
    assemble(m, n, by_rows(m, || vec![0u32; a.ncols()], row_of))
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
    fn new(n: usize) -> Self {
        Accumulator {
            vals: vec![S::zero(); n],
            seen: vec![false; n],
            touched: Vec::new(),
            allow: vec![0; n],
        }
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

    /// The row's entries sorted by column, without zeros; the accumulator is left empty.
    fn take(&mut self) -> (Vec<u32>, Vec<S::T>) {
        self.touched.sort_unstable();
        let mut cols = Vec::with_capacity(self.touched.len());
        let mut vals = Vec::with_capacity(self.touched.len());
        for &j in &self.touched {
            let ju = j as usize;
            let v = self.vals[ju];
            if !S::is_zero(v) {
                cols.push(j);
                vals.push(v);
            }
            self.seen[ju] = false;
            self.vals[ju] = S::zero();
        }
        self.touched.clear();
        (cols, vals)
    }
}
