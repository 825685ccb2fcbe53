//! A square grid of ranks holding a dense matrix in blocks, and the semiring GEMM over it by
//! SUMMA (van de Geijn and Watts): what lets a dense product, and APSP by squaring, hold
//! less than the whole matrix on every rank.

use std::ops::Range;

use semigraph_semiring::Semiring;

use super::{Communicator, DenseOf, Group};
use crate::backend::{Accum, Mask, Objects, Products};
use crate::error::{Error, Result};

/// `k = q x q` ranks as a square grid over an `n x n` matrix: rank `r` sits at grid row
/// `r / q` and column `r % q` and holds block `(r / q, r % q)`, a `block x block` array with
/// `block = ceil(n / q)`. The matrix is padded to `q * block` rows and columns; a block's
/// rows and columns past `n` hold padding (the caller's choice of value, the semiring's zero
/// for a product).
///
/// ```
/// use semigraph_algos::dist::Grid;
///
/// let g = Grid::square(4, 5)?; // 2 x 2 ranks over a 5 x 5 matrix
/// assert_eq!((g.q(), g.block()), (2, 3));
/// assert_eq!(g.coords(3), (1, 1));
/// assert_eq!(g.rows(1), 3..5); // the last block holds rows 3 and 4, then one of padding
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    q: usize,
    n: usize,
    block: usize,
}

impl Grid {
    /// The grid of `ranks` ranks (a square: 1, 4, 9, ...) over an `n x n` matrix.
    ///
    /// # Errors
    /// `InvalidArgument` when `ranks` is not the square of a whole number (or is 0).
    pub fn square(ranks: usize, n: usize) -> Result<Grid> {
        let q = ranks.isqrt();
        if ranks == 0 || q * q != ranks {
            return Err(Error::InvalidArgument(format!(
                "a square grid of ranks needs 1, 4, 9, ... ranks; {ranks} given"
            )));
        }
        Ok(Grid {
            q,
            n,
            block: n.div_ceil(q),
        })
    }

    /// The grid's side: `q` ranks a row and a column.
    pub fn q(&self) -> usize {
        self.q
    }

    /// The matrix's order `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Rows (and columns) of every block, `ceil(n / q)`.
    pub fn block(&self) -> usize {
        self.block
    }

    /// `(grid row, grid column)` of rank `r`.
    pub fn coords(&self, r: usize) -> (usize, usize) {
        (r / self.q, r % self.q)
    }

    /// The rank at grid row `i`, column `j`.
    pub fn rank(&self, i: usize, j: usize) -> usize {
        i * self.q + j
    }

    /// The matrix rows (or columns) that block row (or column) `i` holds, without padding.
    pub fn rows(&self, i: usize) -> Range<usize> {
        let lo = (i * self.block).min(self.n);
        lo..((i + 1) * self.block).min(self.n)
    }

    /// For step `l` of SUMMA, the broadcasts along the grid's rows (each row's rank at
    /// column `l` to the rest of its row) and along its columns (each column's rank at row
    /// `l` to the rest of its column), as [`Communicator::broadcast_within`]'s groups.
    fn step_groups(&self, l: usize) -> (Vec<Group>, Vec<Group>) {
        let q = self.q;
        let rows = (0..q)
            .map(|i| (self.rank(i, l), (0..q).map(|j| self.rank(i, j)).collect()))
            .collect();
        let cols = (0..q)
            .map(|j| (self.rank(l, j), (0..q).map(|i| self.rank(i, j)).collect()))
            .collect();
        (rows, cols)
    }
}

/// The semiring GEMM `C = A (+).(x) B` (or `C = C (+) A (+).(x) B`) over a [`Grid`] of ranks,
/// every matrix held as the grid's blocks, by SUMMA: at step `l` of `q`, the ranks of grid
/// column `l` broadcast their blocks of `A` along their grid rows and those of grid row `l`
/// their blocks of `B` along their grid columns, and every rank adds the product of the two
/// blocks it then holds to its block of `C` with its backend's [`Products::gemm`]. Each rank
/// holds four blocks (`A`, `B`, `C` and two it receives, allocated once here), `4 n^2 / k`
/// values in all; none holds a matrix whole.
///
/// ```
/// use semigraph_algos::dist::{Grid, LocalComm, Summa};
/// use semigraph_algos::prelude::*;
/// use semigraph_semiring::PlusTimes;
///
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu; 4]);
/// let grid = Grid::square(4, 2)?; // 2 x 2 ranks, blocks of 1 x 1
/// // A = [[1, 2], [3, 4]], B = [[5, 6], [7, 8]], one value a rank.
/// let block = |v: f64| cpu.dense::<PlusTimes<f64>>(1, 1, &[v]);
/// let a = [1.0, 2.0, 3.0, 4.0].map(block).into_iter().collect::<Result<Vec<_>, _>>()?;
/// let b = [5.0, 6.0, 7.0, 8.0].map(block).into_iter().collect::<Result<Vec<_>, _>>()?;
/// let mut c = [0.0; 4].map(block).into_iter().collect::<Result<Vec<_>, _>>()?;
/// let mut summa = Summa::<_, PlusTimes<f64>>::new(&comm, grid)?;
/// summa.gemm(&mut c, Accum::Replace, &a, &b)?;
/// let c: Vec<f64> = c.iter().map(|x| cpu.read_dense(x).map(|v| v[0])).collect::<Result<_, _>>()?;
/// assert_eq!(c, vec![19.0, 22.0, 43.0, 50.0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct Summa<'c, C: Communicator, S: Semiring> {
    comm: &'c C,
    grid: Grid,
    /// The blocks of `A` and `B` each rank receives at a step.
    a: Vec<DenseOf<C, S>>,
    b: Vec<DenseOf<C, S>>,
}

impl<'c, C: Communicator, S: Semiring> Summa<'c, C, S> {
    /// The product's workspace on every rank of `grid` (two blocks a rank, none on a grid
    /// of one rank).
    ///
    /// # Errors
    /// `InvalidArgument` when `grid` does not have `comm`'s ranks; the backends' (out of
    /// memory).
    pub fn new(comm: &'c C, grid: Grid) -> Result<Self> {
        let k = comm.ranks();
        if grid.q * grid.q != k {
            return Err(Error::InvalidArgument(format!(
                "a {q} x {q} grid for {k} ranks",
                q = grid.q
            )));
        }
        if k == 1 {
            let (a, b) = (Vec::new(), Vec::new());
            return Ok(Summa { comm, grid, a, b });
        }
        let (nb, zero) = (grid.block, S::zero());
        let bufs = super::comm::par_ranks(comm, vec![(); k], |_, b, ()| {
            Ok((
                b.dense_filled::<S>(nb, nb, zero)?,
                b.dense_filled::<S>(nb, nb, zero)?,
            ))
        })?;
        let (a, b) = bufs.into_iter().unzip();
        Ok(Summa { comm, grid, a, b })
    }

    /// The grid.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Step `l`'s exchange of [`gemm`](Self::gemm): the blocks of `A`'s grid column `l` broadcast
    /// along the grid's rows, and those of `B`'s grid row `l` along its columns, into the
    /// workspace (nothing on a grid of one rank). `gemm` runs it before each step's products;
    /// alone, it times what a product moves.
    ///
    /// # Errors
    /// The communicator's.
    ///
    /// # Panics
    /// When a slice does not hold one block per rank, or `l` is not below the grid's side.
    pub fn exchange(&mut self, l: usize, a: &[DenseOf<C, S>], b: &[DenseOf<C, S>]) -> Result<()> {
        assert!(
            l < self.grid.q,
            "Summa::exchange: step {l} of {}",
            self.grid.q
        );
        if self.comm.ranks() == 1 {
            return Ok(());
        }
        let (rows, cols) = self.grid.step_groups(l);
        self.comm.broadcast_within::<S>(a, &mut self.a, &rows)?;
        self.comm.broadcast_within::<S>(b, &mut self.b, &cols)
    }

    /// `C = A (+).(x) B` (`Accum::Replace`) or `C = C (+) A (+).(x) B` (`Accum::Add`), every
    /// matrix given as its blocks (`x[r]` rank `r`'s, `block x block`). `c` must be none of
    /// `a` and `b`.
    ///
    /// # Errors
    /// The backends' and the communicator's.
    ///
    /// # Panics
    /// When a slice does not hold one block per rank.
    pub fn gemm(
        &mut self,
        c: &mut [DenseOf<C, S>],
        accum: Accum,
        a: &[DenseOf<C, S>],
        b: &[DenseOf<C, S>],
    ) -> Result<()> {
        let (comm, grid) = (self.comm, self.grid);
        let k = comm.ranks();
        assert!(
            a.len() == k && b.len() == k && c.len() == k,
            "Summa::gemm: one block per rank"
        );
        for l in 0..grid.q {
            self.exchange(l, a, b)?;
            for (r, c) in c.iter_mut().enumerate() {
                let (i, j) = grid.coords(r);
                // A rank of column (row) l holds the step's block of A (B) itself.
                let lhs = if j == l { &a[r] } else { &self.a[r] };
                let rhs = if i == l { &b[r] } else { &self.b[r] };
                let acc = if l == 0 { accum } else { Accum::Add };
                comm.backend(r).gemm(c, Mask::All, acc, lhs, rhs)?;
            }
        }
        Ok(())
    }
}
