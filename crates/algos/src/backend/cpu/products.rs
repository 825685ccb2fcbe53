//! The products of the CPU backend: SpMM/SpMV (`mxm`), SpMSpV (`vxm`) and dense GEMM, each
//! parallel over output rows with rayon.

use super::*;

pub(super) fn mxm<S: Semiring>(
    y: &mut CpuDense<S>,
    mask: Mask<'_, CpuBackend>,
    accum: Accum,
    a: &CpuMatrix<S>,
    x: &CpuDense<S>,
) -> Result<()> {
    let (nrows, ncols) = a.shape();
    let k = x.cols;
    assert_eq!(
        x.rows, ncols,
        "mxm: X has {} rows, A has {ncols} columns",
        x.rows
    );
    assert_eq!((y.rows, y.cols), (nrows, k), "mxm: Y has the wrong shape");
    check_mask(&mask, y.data.len());
    let other = a.other_format();
    if let (None, true) = (other, k >= 8) {
        let r = a.rows();
        // A wide block: each entry (i, j) of A combines with row j of X (contiguous) into
        // row i's accumulators, instead of one strided column at a time; the mask then
        // picks which outputs are stored (masked-out ones are computed and dropped). A row
        // whose outputs the mask all excludes is skipped, and so is an entry whose row of X
        // is all zeros (a block of frontiers: work for the rows a frontier reaches).
        let live: Vec<bool> = x
            .data
            .par_chunks(k)
            .map(|row| row.iter().any(|v| !S::is_zero(*v)))
            .collect();
        y.data
            .par_chunks_mut(k)
            .enumerate()
            .with_min_len((MIN_LEN / k).max(1))
            .for_each_init(
                || vec![S::zero(); k],
                |acc, (i, yrow)| {
                    if !matches!(mask, Mask::All) && !(0..k).any(|c| allows(&mask, i * k + c)) {
                        return;
                    }
                    acc.fill(S::zero());
                    let (cols, vals) = r.row(i);
                    for (e, &j) in cols.iter().enumerate() {
                        if !live[j as usize] {
                            continue;
                        }
                        let av = vals.at(e);
                        let xrow = &x.data[j as usize * k..(j as usize + 1) * k];
                        for (s, &xv) in acc.iter_mut().zip(xrow) {
                            if !S::is_zero(xv) {
                                *s = S::add(*s, S::mul_at(av, xv, j as u64));
                            }
                        }
                    }
                    for (col, (yv, &t)) in yrow.iter_mut().zip(acc.iter()).enumerate() {
                        if allows(&mask, i * k + col) {
                            *yv = combine::<S>(accum, *yv, t);
                        }
                    }
                },
            );
        return Ok(());
    }
    let Some(m) = other else {
        // Narrow blocks, row by row: skips masked-out outputs and stops a row at a terminal
        // value. A pattern (every entry the same value) reads no values: one array less to
        // stream, which is most of the cost of a product with one column.
        let r = a.rows();
        // A long, mostly empty vector (a traversal's frontier): its stored entries as a
        // bitmap, 1 bit a vertex, so that a row's scan tests bits that stay in cache instead
        // of reading the vector's values at random; a value is read only where a bit is set.
        if let Some(bits) = presence(x, k) {
            y.data
                .par_iter_mut()
                .enumerate()
                .with_min_len(MIN_LEN)
                .for_each(|(i, yv)| {
                    if !allows(&mask, i) {
                        return;
                    }
                    let (cols, vals) = r.row(i);
                    let acc = match vals {
                        Vals::All(av) => row_product_bits::<S>(cols, |_| av, &x.data, &bits),
                        Vals::Stored(v) => row_product_bits::<S>(cols, |e| v[e], &x.data, &bits),
                    };
                    *yv = combine::<S>(accum, *yv, acc);
                });
            return Ok(());
        }
        if k == 1 {
            // One column: blocks of rows in parallel, each row a tight loop over its terms (no
            // per-row chunk of one output to set up).
            y.data
                .par_chunks_mut(ROW_BLOCK)
                .enumerate()
                .for_each(|(blk, ys)| {
                    for (d, yv) in ys.iter_mut().enumerate() {
                        let i = blk * ROW_BLOCK + d;
                        if !allows(&mask, i) {
                            continue;
                        }
                        let (cols, vals) = r.row(i);
                        let acc = match vals {
                            Vals::All(av) => row_product::<S>(cols, |_| av, &x.data, 1, 0),
                            Vals::Stored(v) => row_product::<S>(cols, |e| v[e], &x.data, 1, 0),
                        };
                        *yv = combine::<S>(accum, *yv, acc);
                    }
                });
            return Ok(());
        }
        y.data
            .par_chunks_mut(k.max(1))
            .enumerate()
            .with_min_len(MIN_LEN / k.max(1))
            .for_each(|(i, yrow)| {
                let (cols, vals) = r.row(i);
                for (col, yv) in yrow.iter_mut().enumerate() {
                    if !allows(&mask, i * k + col) {
                        continue;
                    }
                    let acc = match vals {
                        Vals::All(av) => row_product::<S>(cols, |_| av, &x.data, k, col),
                        Vals::Stored(v) => row_product::<S>(cols, |e| v[e], &x.data, k, col),
                    };
                    *yv = combine::<S>(accum, *yv, acc);
                }
            });
        return Ok(());
    };
    // Other formats: their reference SpMV, one column at a time.
    for col in 0..k {
        let xc: Vec<S::T> = if k == 1 {
            x.data.clone()
        } else {
            (0..ncols).map(|j| x.data[j * k + col]).collect()
        };
        let t = m.spmv(&xc);
        y.data
            .par_iter_mut()
            .skip(col)
            .step_by(k)
            .zip(t)
            .enumerate()
            .for_each(|(i, (yv, tv))| {
                if allows(&mask, i * k + col) {
                    *yv = combine::<S>(accum, *yv, tv);
                }
            });
    }
    Ok(())
}

/// Column `col` of row `A[i] X`, for a row of `A` with columns `cols` and values `val(e)`
/// (`e` the entry's place in the row): skips zeros of `X`, and stops at a terminal value or,
/// for a semiring whose first term wins, at the first (columns increase along a CSR row).
#[inline(always)]
fn row_product<S: Semiring>(
    cols: &[u32],
    val: impl Fn(usize) -> S::T,
    x: &[S::T],
    k: usize,
    col: usize,
) -> S::T {
    let mut acc = S::zero();
    for (e, &j) in cols.iter().enumerate() {
        let xv = x[j as usize * k + col];
        if S::is_zero(xv) {
            continue;
        }
        acc = S::add(acc, S::mul_at(val(e), xv, j as u64));
        if (S::HAS_TERMINAL && S::is_terminal(acc)) || (S::FIRST_WINS && !S::is_zero(acc)) {
            break;
        }
    }
    acc
}

/// The stored entries of a one-column `X` as a bitmap (bit `j % 64` of word `j / 64` set
/// where `X[j]` is not zero), where that pays: `X` larger than a core's cache
/// ([`PRESENCE_BYTES`]) and at most one entry in [`PRESENCE_DENSITY`] stored (a frontier, not
/// a vector of ranks), so that the scan of a row tests bits in cache rather than values
/// spread over memory. `None` where it does not pay (the scan of `X`, `n` sequential reads,
/// is the price of asking).
fn presence<S: Semiring>(x: &CpuDense<S>, k: usize) -> Option<Vec<u64>> {
    if k != 1 || std::mem::size_of_val(x.data.as_slice()) < PRESENCE_BYTES {
        return None;
    }
    // Evenly spaced positions first: a vector stored at most of them (ranks, labels) is read
    // whole, without a pass over it to count.
    let step = x.data.len().div_ceil(PRESENCE_SAMPLES);
    let (mut sampled, mut stored) = (0, 0);
    for &v in x.data.iter().step_by(step) {
        sampled += 1;
        stored += !S::is_zero(v) as usize;
    }
    if 4 * stored > 3 * sampled {
        return None;
    }
    let bits: Vec<u64> = x
        .data
        .par_chunks(64)
        .with_min_len(64)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u64, |w, (b, &v)| w | ((!S::is_zero(v) as u64) << b))
        })
        .collect();
    let stored: usize = bits.par_iter().map(|w| w.count_ones() as usize).sum();
    (stored * PRESENCE_DENSITY <= x.data.len()).then_some(bits)
}

/// Rows per parallel task of a one-column product.
const ROW_BLOCK: usize = 2048;

/// [`presence`]'s size below which `X` stays in a core's cache anyway (bytes).
const PRESENCE_BYTES: usize = 1 << 20;

/// [`presence`]'s sample: positions tested before the whole vector is.
const PRESENCE_SAMPLES: usize = 1024;

/// [`presence`]'s density: a bitmap where at most one entry in this many is stored (a
/// denser `X` is read whole anyway).
const PRESENCE_DENSITY: usize = 2;

/// [`row_product`] for one column, with `X`'s stored entries tested in `bits` ([`presence`]).
#[inline(always)]
fn row_product_bits<S: Semiring>(
    cols: &[u32],
    val: impl Fn(usize) -> S::T,
    x: &[S::T],
    bits: &[u64],
) -> S::T {
    let mut acc = S::zero();
    for (e, &j) in cols.iter().enumerate() {
        if bits[j as usize >> 6] >> (j & 63) & 1 == 0 {
            continue;
        }
        let xv = x[j as usize];
        acc = S::add(acc, S::mul_at(val(e), xv, j as u64));
        if (S::HAS_TERMINAL && S::is_terminal(acc)) || (S::FIRST_WINS && !S::is_zero(acc)) {
            break;
        }
    }
    acc
}

pub(super) fn vxm<S: Semiring>(
    x: &CpuSparse<S>,
    a: &CpuMatrix<S>,
    mask: Mask<'_, CpuBackend>,
) -> Result<CpuSparse<S>> {
    let c = a.rows();
    assert_eq!(
        x.n,
        c.nrows(),
        "vxm: x has length {}, A has {} rows",
        x.n,
        c.nrows()
    );
    check_mask(&mask, c.ncols());
    let mut pairs: Vec<(u32, S::T)> = x
        .idx
        .par_iter()
        .zip(&x.vals)
        .flat_map_iter(|(&k, &xv)| {
            c.entries(k as usize).filter_map(move |(j, av)| {
                if !allows(&mask, j as usize) {
                    return None;
                }
                let p = S::mul_at(av, xv, k as u64);
                (!S::is_zero(p)).then_some((j, p))
            })
        })
        .collect();
    pairs.par_sort_by_key(|p| p.0);
    let mut idx: Vec<u32> = Vec::new();
    let mut vals: Vec<S::T> = Vec::new();
    for (j, v) in pairs {
        if idx.last() == Some(&j) {
            let last = vals.last_mut().expect("same length as idx");
            *last = S::add(*last, v);
        } else {
            idx.push(j);
            vals.push(v);
        }
    }
    // A sum may cancel to zero (plus-times): drop it, as no entry.
    if vals.iter().any(|v| S::is_zero(*v)) {
        let (i2, v2) = idx
            .into_iter()
            .zip(vals)
            .filter(|(_, v)| !S::is_zero(*v))
            .unzip();
        idx = i2;
        vals = v2;
    }
    Ok(CpuSparse {
        n: c.ncols(),
        idx,
        vals,
    })
}

pub(super) fn gemm<S: Semiring>(
    c: &mut CpuDense<S>,
    mask: Mask<'_, CpuBackend>,
    accum: Accum,
    a: &CpuDense<S>,
    b: &CpuDense<S>,
) -> Result<()> {
    let (m, p, n) = (a.rows, a.cols, b.cols);
    assert_eq!(
        b.rows, p,
        "gemm: inner dimensions differ ({p} and {})",
        b.rows
    );
    assert_eq!((c.rows, c.cols), (m, n), "gemm: C has the wrong shape");
    check_mask(&mask, m * n);
    if n == 0 {
        return Ok(());
    }
    c.data.par_chunks_mut(n).enumerate().for_each(|(i, crow)| {
        if !(0..n).any(|j| allows(&mask, i * n + j)) {
            return;
        }
        let mut acc = vec![S::zero(); n];
        for kk in 0..p {
            let aik = a.data[i * p + kk];
            if S::is_zero(aik) {
                continue;
            }
            let brow = &b.data[kk * n..(kk + 1) * n];
            for (acc, &bv) in acc.iter_mut().zip(brow) {
                *acc = S::add(*acc, S::mul_at(aik, bv, kk as u64));
            }
        }
        for (j, (cv, t)) in crow.iter_mut().zip(acc).enumerate() {
            if allows(&mask, i * n + j) {
                *cv = combine::<S>(accum, *cv, t);
            }
        }
    });
    Ok(())
}

/// The `cols x rows` transpose of the row-major `rows x cols` array `x`: bands of 64 output
/// rows in parallel, each filled in 64-column tiles so that reads and writes both stay within
/// a few cache lines per row.
pub(super) fn transpose<T: Copy + Send + Sync>(
    x: &[T],
    rows: usize,
    cols: usize,
) -> Result<Vec<T>> {
    const B: usize = 64;
    assert_eq!(x.len(), rows * cols, "transpose: data length");
    let Some(&first) = x.first() else {
        return Ok(Vec::new());
    };
    let mut y = try_vec(x.len(), first, "transposed array")?;
    y.par_chunks_mut(B * rows)
        .enumerate()
        .for_each(|(band, out)| {
            // Output rows j0.. (input columns), all input rows, tile by tile.
            let j0 = band * B;
            let nj = out.len() / rows;
            for i0 in (0..rows).step_by(B) {
                for j in 0..nj {
                    let dst = &mut out[j * rows + i0..j * rows + (i0 + B).min(rows)];
                    for (di, d) in dst.iter_mut().enumerate() {
                        *d = x[(i0 + di) * cols + j0 + j];
                    }
                }
            }
        });
    Ok(y)
}

impl Products for CpuBackend {
    fn dot_degree_order_pays(&self) -> bool {
        true
    }

    fn spgemm<S: Semiring>(
        &self,
        mask: MatrixMask<'_, Self, S>,
        a: &CpuMatrix<S>,
        b: &CpuMatrix<S>,
    ) -> Result<CpuMatrix<S>> {
        super::spgemm::spgemm(mask, a, b)
    }

    fn spgemm_t<S: Semiring>(
        &self,
        mask: MatrixMask<'_, Self, S>,
        a: &CpuMatrix<S>,
        b: &CpuMatrix<S>,
    ) -> Result<CpuMatrix<S>> {
        match mask {
            MatrixMask::Keep(m) => super::spgemm::spgemm_dot(m, a, b),
            _ => {
                let t = self.transpose_matrix(b)?;
                self.spgemm(mask, a, &t)
            }
        }
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

    fn sddmm<S: Semiring>(
        &self,
        mask: &CpuMatrix<S>,
        x: &CpuDense<S>,
        y: &CpuDense<S>,
    ) -> Result<CpuMatrix<S>> {
        super::operators::sddmm(mask, x, y)
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

    fn witness<S: Semiring, M: Semiring>(
        &self,
        p: &mut CpuDense<Parents>,
        x: &CpuSparse<S>,
        a: &CpuMatrix<S>,
        d: &CpuDense<S>,
        at: &CpuSparse<M>,
    ) -> Result<()> {
        let c = a.rows();
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
        // Membership of a target: a search of the sorted list, or a mark per column when the
        // targets are many (a search per arc took 9 ms of a BFS's witness pass on NY).
        let marks = (targets.len() > 64 && targets.len() * 16 > c.ncols()).then(|| {
            let mut m = vec![false; c.ncols()];
            targets.iter().for_each(|&j| m[j as usize] = true);
            m
        });
        let is_target = |j: u32| match &marks {
            Some(m) => m[j as usize],
            None => targets.binary_search(&j).is_ok(),
        };
        let dd = &d.data;
        // Pieces of x (one task each) deal the pairs (j, k) of every term that lands on a
        // target and attains d(j) into lists by range of j; then each range of `p` (one task
        // each) takes the smallest k of its lists, with no pass on one thread.
        let n = c.ncols();
        let threads = rayon::current_num_threads().max(1);
        let width = n.div_ceil(threads * 8).max(1 << 12);
        let ranges = n.div_ceil(width).max(1);
        let piece = x.idx.len().div_ceil(threads * 4).max(1 << 10);
        let dealt: Vec<Vec<Vec<(u32, u32)>>> = x
            .idx
            .par_chunks(piece)
            .zip(x.vals.par_chunks(piece))
            .map(|(ks, xs)| {
                let mut lists = vec![Vec::new(); ranges];
                for (&k, &xv) in ks.iter().zip(xs) {
                    for (j, av) in c.entries(k as usize) {
                        let t = S::mul_at(av, xv, k as u64);
                        if !S::is_zero(t)
                            && t.to_bits64() == dd[j as usize].to_bits64()
                            && is_target(j)
                        {
                            lists[j as usize / width].push((j, k));
                        }
                    }
                }
                lists
            })
            .collect();
        p.data
            .par_chunks_mut(width)
            .enumerate()
            .for_each(|(r, pr)| {
                let lo = r * width;
                let from = targets.partition_point(|&j| (j as usize) < lo);
                let to = targets.partition_point(|&j| (j as usize) < lo + pr.len());
                for &j in &targets[from..to] {
                    pr[j as usize - lo] = crate::backend::NO_PARENT;
                }
                for &(j, k) in dealt.iter().flat_map(|lists| &lists[r]) {
                    let e = &mut pr[j as usize - lo];
                    *e = (*e).min(k);
                }
            });
        Ok(())
    }
}
