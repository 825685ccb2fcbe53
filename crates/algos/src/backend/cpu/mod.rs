//! The CPU backend: multi-threaded (rayon), every format, every semiring; the reference that
//! the GPU backend is tested against, and what runs where there is no GPU.

use rayon::prelude::*;
use semigraph_formats::{ConvertOptions, Csr, Format, SparseMatrix};
use semigraph_semiring::{Scalar, Semiring};

use crate::backend::{
    Accum, Backend, BackendKind, ElementWise, Ewise, Mask, MatrixInfo, MatrixMask, Objects,
    Parents, Products, Reductions, UnaryOp,
};
use crate::error::{Error, Result, try_copy, try_vec};

mod buckets;
mod ewise;
mod fixpoint;
mod frontier;
mod levels;
mod matrix;
mod operators;
mod products;
mod queue;
mod reductions;
mod spgemm;
mod team;
pub use matrix::CpuMatrix;
use matrix::{Rows, Vals};
pub use queue::CpuQueue;

/// The CPU backend. Work runs on rayon's global thread pool (`RAYON_NUM_THREADS` sets its
/// size).
#[derive(Clone, Copy, Debug)]
pub struct CpuBackend {
    /// Frontiers of at least this many entries relax in parallel, and scatters of at least
    /// this many values run in parallel (see [`CpuBackend::with_parallel_threshold`]).
    par_entries: usize,
    /// How the sequential steps of a traversal run (see [`CpuBackend::with_traversal_step`]).
    step_form: TraversalStep,
    /// The threads of a traversal's levels in one call (see
    /// [`CpuBackend::with_levels_threads`]); `None`: the default.
    levels_threads: Option<usize>,
}

/// How the sequential steps of a traversal (BFS levels: each vertex reached once) run on the
/// CPU backend. Both forms give the same results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraversalStep {
    /// A branch on each arc's outcome (new vertex or not): the core runs ahead of its cache
    /// misses, but mispredicts where the outcome is a coin toss (a road network's frontier).
    Branching,
    /// No branch on an arc's outcome: each arc writes its target's value and step back,
    /// changed or not, and its id past the output's end, which advances only for a new
    /// vertex. Faster on road networks, slower on grids (the benchmark log in git history).
    Branchless,
    /// Each traversal times both forms on its first steps (alternating, until each has
    /// scanned [`SAMPLE_ARCS`](TraversalStep::SAMPLE_ARCS) arcs) and runs the rest in the
    /// faster; the default (`SEMIGRAPH_CPU_STEP=auto|branching|branchless`, read once).
    Auto,
}

impl TraversalStep {
    /// Arcs each form scans before [`TraversalStep::Auto`] chooses.
    pub const SAMPLE_ARCS: u64 = 1 << 14;
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
            step_form: queue::default_step_form(),
            levels_threads: None,
        }
    }

    /// The CPU backend with another size from which a relaxation step (or a scatter) runs in
    /// parallel, its terms dealt by range of targets, each range applied by one task, rather
    /// than in place: smaller frontiers cost less alone than rayon's fork-join. Tests set 0 or
    /// `usize::MAX` to exercise each path.
    pub fn with_parallel_threshold(entries: usize) -> CpuBackend {
        CpuBackend {
            par_entries: entries,
            ..CpuBackend::new()
        }
    }

    /// This backend with `threads` threads for a traversal's levels in one call
    /// ([`Frontier::queue_levels`](crate::Frontier::queue_levels): BFS on graphs of short
    /// rows) and for a relaxation by buckets in one call
    /// ([`Frontier::queue_relax_buckets`](crate::Frontier::queue_relax_buckets): shortest
    /// paths by buckets), on graphs of any size (1: one thread's loop, or one call a bucket).
    /// By default a team of rayon's thread count up to 16 (`SEMIGRAPH_CPU_LEVELS_THREADS`,
    /// read once, sets another) from 32,768 vertices, one thread below. One team runs at a
    /// time in a process: a call that finds it busy runs on one thread.
    pub fn with_levels_threads(self, threads: usize) -> CpuBackend {
        CpuBackend {
            levels_threads: Some(threads.max(1)),
            ..self
        }
    }

    /// This backend with another form of a traversal's sequential steps ([`TraversalStep`]).
    pub fn with_traversal_step(self, form: TraversalStep) -> CpuBackend {
        CpuBackend {
            step_form: form,
            ..self
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
    /// `out[d] = self.has(from + d)` for every `d` of `out`: one call for a run of positions
    /// (a loop the compiler sees whole) instead of one a position.
    fn has_run(&self, from: usize, out: &mut [bool]) {
        for (d, o) in out.iter_mut().enumerate() {
            *o = self.has(from + d);
        }
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
    fn has_run(&self, from: usize, out: &mut [bool]) {
        let len = out.len();
        for (o, &v) in out.iter_mut().zip(&self.data[from..from + len]) {
            *o = !S::is_zero(v);
        }
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

/// Positions per run of an element-wise pass ([`runs`]): one task of the pool, its mask
/// read into this many flags at once.
const RUN: usize = 4096;

/// `f(first, run, allowed)` for each run of [`RUN`] positions of `ys`, in parallel: `first`
/// the run's first position, `allowed` `None` without a mask (every position allowed), else
/// whether the mask allows each position of the run (read a run at a time). The mask is
/// tested once a run, not once a position, so that a pass without one is a loop the
/// compiler vectorises ([`each`], [`each2`]).
fn runs<T: Send>(
    ys: &mut [T],
    mask: &Mask<'_, CpuBackend>,
    f: impl Fn(usize, &mut [T], Option<&[bool]>) + Sync,
) {
    ys.par_chunks_mut(RUN).enumerate().for_each(|(c, ys)| {
        let (m, keep) = match mask {
            Mask::All => return f(c * RUN, ys, None),
            Mask::Keep(m) => (m, true),
            Mask::Skip(m) => (m, false),
        };
        let mut has = [false; RUN];
        let has = &mut has[..ys.len()];
        m.has_run(c * RUN, has);
        if !keep {
            has.iter_mut().for_each(|h| *h = !*h);
        }
        f(c * RUN, ys, Some(has));
    });
}

/// `f(y)` at each allowed position of a run ([`runs`]).
#[inline(always)]
fn each<T>(ys: &mut [T], allowed: Option<&[bool]>, f: impl Fn(&mut T)) {
    match allowed {
        None => ys.iter_mut().for_each(f),
        Some(a) => ys.iter_mut().zip(a).for_each(|(y, &ok)| {
            if ok {
                f(y)
            }
        }),
    }
}

/// `f(y, x)` at each allowed position of a run of `ys` ([`runs`]) and the same positions of
/// `xs`.
#[inline(always)]
fn each2<T, U: Copy>(ys: &mut [T], xs: &[U], allowed: Option<&[bool]>, f: impl Fn(&mut T, U)) {
    match allowed {
        None => ys.iter_mut().zip(xs).for_each(|(y, &x)| f(y, x)),
        Some(a) => ys.iter_mut().zip(xs).zip(a).for_each(|((y, &x), &ok)| {
            if ok {
                f(y, x)
            }
        }),
    }
}

impl Objects for CpuBackend {
    fn read_matrix<S: Semiring>(&self, a: &CpuMatrix<S>) -> Result<Csr<S>> {
        // Stored zeros (padding, or values equal to the zero) are no entries.
        Ok(a.csr().clone().without_zeros()?)
    }

    fn same_pattern<S: Semiring>(&self, a: &CpuMatrix<S>, b: &CpuMatrix<S>) -> Result<bool> {
        let (a, b) = (a.rows(), b.rows());
        Ok((a.nrows(), a.ncols()) == (b.nrows(), b.ncols())
            && a.row_ptr() == b.row_ptr()
            && a.col_idx() == b.col_idx())
    }

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
        Ok(CpuMatrix::new(m, a.nnz()))
    }

    fn matrix_info<S: Semiring>(&self, a: &CpuMatrix<S>) -> MatrixInfo {
        let (nrows, ncols) = a.shape();
        MatrixInfo {
            nrows,
            ncols,
            nnz: a.nnz(),
            format: a.format(),
        }
    }

    fn view<S: Semiring, S2: Semiring<T = S::T>>(&self, a: &CpuMatrix<S>) -> Result<CpuMatrix<S2>> {
        Ok(a.view())
    }

    fn pattern<S: Semiring, P: Semiring>(&self, a: &CpuMatrix<S>) -> Result<CpuMatrix<P>> {
        Ok(a.pattern())
    }

    fn dense<S: Semiring>(&self, rows: usize, cols: usize, data: &[S::T]) -> Result<CpuDense<S>> {
        assert_eq!(
            data.len(),
            rows * cols,
            "dense data has the wrong length for {rows}x{cols}"
        );
        Ok(CpuDense {
            rows,
            cols,
            data: try_copy(data, "dense array")?,
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

    fn dense_as<S: Semiring, S2: Semiring<T = S::T>>(&self, x: CpuDense<S>) -> CpuDense<S2> {
        CpuDense {
            rows: x.rows,
            cols: x.cols,
            data: x.data,
        }
    }

    fn read_dense<S: Semiring>(&self, x: &CpuDense<S>) -> Result<Vec<S::T>> {
        Ok(x.data.clone())
    }

    fn read_dense_owned<S: Semiring>(&self, x: CpuDense<S>) -> Result<Vec<S::T>> {
        Ok(x.data)
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
        // Pieces compacted on every core, then joined in order (rayon's `unzip` of a filter
        // took 6 ms for 264 k values on 2 cores; this, well under one).
        let pieces: Vec<(Vec<u32>, Vec<S::T>)> = x
            .data
            .par_chunks(COMPACT_PIECE)
            .enumerate()
            .map(|(p, chunk)| {
                let base = (p * COMPACT_PIECE) as u32;
                let mut piece = (Vec::new(), Vec::new());
                for (i, v) in chunk.iter().enumerate() {
                    if !S::is_zero(*v) {
                        piece.0.push(base + i as u32);
                        piece.1.push(*v);
                    }
                }
                piece
            })
            .collect();
        let total = pieces.iter().map(|p| p.0.len()).sum();
        let (mut idx, mut vals) = (Vec::with_capacity(total), Vec::with_capacity(total));
        for (i, v) in pieces {
            idx.extend_from_slice(&i);
            vals.extend_from_slice(&v);
        }
        Ok(CpuSparse {
            n: x.data.len(),
            idx,
            vals,
        })
    }

    fn mask<'a, M: Semiring>(&'a self, m: &'a CpuDense<M>) -> &'a dyn MaskTest {
        m
    }
}

impl Backend for CpuBackend {}

/// Values a task of [`Objects::compact`] reads.
const COMPACT_PIECE: usize = 1 << 15;

/// Applies the pairs `pair(0..len)` (`None`: skip) to `w` with `apply(&mut w[k], v)`, each
/// target's pairs in input order: on this thread below `par_from` pairs (or on one thread),
/// else pieces of the input deal their pairs into lists by range of targets and each range
/// then applies its lists from every piece in order (no write shared between tasks, no
/// sequential pass over a long list: a frontier of a million vertices scattered on one core
/// costs more than the parallel product beside it).
fn scatter<T: Send, V: Copy + Send + Sync>(
    w: &mut [T],
    len: usize,
    par_from: usize,
    pair: impl Fn(usize) -> Option<(u32, V)> + Sync,
    apply: impl Fn(&mut T, V) + Sync,
) {
    let (n, threads) = (w.len(), rayon::current_num_threads());
    if len < par_from.max(1) || threads == 1 {
        for (k, v) in (0..len).filter_map(&pair) {
            apply(&mut w[k as usize], v);
        }
        return;
    }
    let width = n.div_ceil(threads * 8).max(1 << 12);
    let piece = len.div_ceil(threads * 4).max(1);
    let ranges = n.div_ceil(width);
    // Each list sized for its share of a piece and a quarter more: no growth where the
    // targets spread evenly.
    let room = piece / ranges + piece / (4 * ranges) + 16;
    let dealt: Vec<Vec<Vec<(u32, V)>>> = (0..len.div_ceil(piece))
        .into_par_iter()
        .map(|p| {
            let mut lists: Vec<Vec<(u32, V)>> =
                (0..ranges).map(|_| Vec::with_capacity(room)).collect();
            for (k, v) in (p * piece..((p + 1) * piece).min(len)).filter_map(&pair) {
                lists[k as usize / width].push((k, v));
            }
            lists
        })
        .collect();
    w.par_chunks_mut(width).enumerate().for_each(|(r, wr)| {
        for lists in &dealt {
            for &(k, v) in &lists[r] {
                apply(&mut wr[k as usize - r * width], v);
            }
        }
    });
}
