//! How the ranks of a partitioned graph exchange vectors: the [`Communicator`] trait, and
//! [`LocalComm`], ranks simulated in one process over any backend (the reference the NCCL
//! communicator of `semigraph-gpu` is tested against).

use semigraph_semiring::Semiring;

use super::Partition;
use crate::backend::{Backend, Frontier, Objects, QueueInfo};
use crate::error::Result;

/// The backend array type of a communicator's ranks.
pub type DenseOf<C, S> = <<C as Communicator>::Backend as Objects>::Dense<S>;

/// The work-queue type of a communicator's ranks (a sparse vector: ids and values).
pub type QueueOf<C, S> = <<C as Communicator>::Backend as Frontier>::Queue<S>;

/// The reduction that a semiring's `add` is, as a collective library names it. Every
/// [`Communicator::all_reduce`] computes the semiring's own `add`; this names it for libraries
/// (NCCL) that take an operation instead of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// `add` is the arithmetic sum (plus-times).
    Sum,
    /// `add` is the minimum (min-plus, min-second, the parent semirings).
    Min,
    /// `add` is the maximum (max-plus, max-min; or-and's `or` on `bool`).
    Max,
}

/// A group of ranks for [`Communicator::broadcast_within`]: its root, and its members (the
/// root may be one of them).
pub type Group = (usize, Vec<usize>);

/// The ranks of a distributed computation, each with its backend, and the collectives between
/// them. Vectors are *replicated*: every rank holds an `n x c` array of its own (row-major),
/// the collectives make them equal.
///
/// Implemented by [`LocalComm`] (ranks simulated in one process, any backend) and by the NCCL
/// communicator of `semigraph-gpu` (one GPU a rank).
pub trait Communicator: Sync {
    /// The backend every rank computes on.
    type Backend: Backend;

    /// The ranks, `k >= 1`.
    fn ranks(&self) -> usize;

    /// Rank `r`'s backend.
    fn backend(&self, r: usize) -> &Self::Backend;

    /// All-gather in place: rank `r`'s rows `part.range(r)` of `x[r]` are copied into the same
    /// rows of every other rank's `x` (every array `n x c` with `n = part.n()`).
    fn all_gather<S: Semiring>(&self, x: &mut [DenseOf<Self, S>], part: &Partition) -> Result<()>;

    /// All-gather from local blocks: rank `r`'s `local[r]` (`part.range(r).len() x c`) becomes
    /// rows `part.range(r)` of every rank's `x` (`n x c`).
    fn all_gather_from<S: Semiring>(
        &self,
        local: &[DenseOf<Self, S>],
        x: &mut [DenseOf<Self, S>],
        part: &Partition,
    ) -> Result<()>;

    /// All-reduce in place: every rank's `x` becomes the element-wise `add` (the semiring's)
    /// of all ranks' `x`; `op` names that `add` ([`Reduce`]).
    fn all_reduce<S: Semiring>(&self, x: &mut [DenseOf<Self, S>], op: Reduce) -> Result<()>;

    /// Broadcasts within groups of ranks: for every `(root, members)` of `groups`, rank
    /// `root`'s `src[root]` is copied into `dst[r]` of every rank `r` of `members` other than
    /// `root` (each such `dst[r]` of `src[root]`'s shape). A rank receives from one group at
    /// most; `src` and the `dst` of ranks that receive nothing are left as they are. The rows
    /// and columns of a grid of ranks exchange their blocks so ([`Summa`](super::Summa)).
    ///
    /// ```
    /// use semigraph_algos::dist::{Communicator, LocalComm};
    /// use semigraph_algos::prelude::*;
    /// use semigraph_semiring::MinPlus;
    ///
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu; 3]);
    /// let src: Vec<_> = (0..3)
    ///     .map(|r| cpu.dense::<MinPlus<i32>>(1, 2, &[r, r]))
    ///     .collect::<Result<_, _>>()?;
    /// let mut dst: Vec<_> = (0..3)
    ///     .map(|_| cpu.dense::<MinPlus<i32>>(1, 2, &[9, 9]))
    ///     .collect::<Result<_, _>>()?;
    /// comm.broadcast_within::<MinPlus<i32>>(&src, &mut dst, &[(2, vec![0, 2])])?;
    /// assert_eq!(cpu.read_dense(&dst[0])?, vec![2, 2]); // from rank 2
    /// assert_eq!(cpu.read_dense(&dst[1])?, vec![9, 9]); // not a member
    /// assert_eq!(cpu.read_dense(&dst[2])?, vec![9, 9]); // the root keeps its own
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn broadcast_within<S: Semiring>(
        &self,
        src: &[DenseOf<Self, S>],
        dst: &mut [DenseOf<Self, S>],
        groups: &[Group],
    ) -> Result<()>;

    /// All-gather of sparse blocks: rank `r`'s queue `local[r]` holds entries of its own
    /// vertices numbered from 0 (ids below `part.range(r).len()`); every rank's `whole` (a
    /// queue of `part.n()` vertices) becomes the concatenation of all ranks' entries, rank by
    /// rank, each id shifted by its rank's `part.range(r).start`. The `local` queues are left
    /// empty (their entries are moved). `whole`'s step count becomes the largest of the local
    /// queues' step counts, its running total its length.
    ///
    /// Only the entries travel (with the lengths first), so a small frontier costs little
    /// whatever `n` is: the exchange of a direction-optimising traversal's push steps.
    ///
    /// Returns what every `whole` now holds: its length, total and step count.
    fn all_gather_queue<S: Semiring>(
        &self,
        local: &mut [QueueOf<Self, S>],
        whole: &mut [QueueOf<Self, S>],
        part: &Partition,
    ) -> Result<QueueInfo>
    where
        Self::Backend: Frontier;
    /// All-gather of sparse blocks' vertices without their values: as
    /// [`all_gather_queue`](Communicator::all_gather_queue), but every entry of `whole` gets
    /// the value `fill` (the local values do not travel), and a rank's entries may arrive in
    /// any order. For traversals whose values follow from the vertex alone (BFS's parents,
    /// min-second-i: a frontier is a set).
    ///
    /// `dense` says that the blocks together hold a large part of the graph's vertices (more
    /// than about one in 32: a pull step's output): a communicator may then move the set as a
    /// bitmap of `n` bits (`n / 8` bytes whatever the entries, against 4 bytes an entry) and
    /// read back one header instead of one a rank. The result is the same either way.
    ///
    /// Returns what every `whole` now holds: its length, total and step count.
    ///
    /// ```
    /// use semigraph_algos::dist::{Communicator, LocalComm, Partition};
    /// use semigraph_algos::prelude::*;
    /// use semigraph_algos::BfsSemiring;
    ///
    /// let cpu = CpuBackend::new();
    /// let comm = LocalComm::new(vec![&cpu, &cpu]);
    /// let part = Partition::even(4, 2)?; // rank 0: 0..2, rank 1: 2..4
    /// let mut local = vec![cpu.queue::<BfsSemiring>(2)?, cpu.queue::<BfsSemiring>(2)?];
    /// cpu.queue_set(&mut local[1], &[1, 0], &[7, 7], 3)?; // vertices 3 and 2
    /// let mut whole = vec![cpu.queue::<BfsSemiring>(4)?, cpu.queue::<BfsSemiring>(4)?];
    /// let info = comm.all_gather_set::<BfsSemiring>(&mut local, &mut whole, &part, 0, true)?;
    /// assert_eq!((info.len, info.steps), (2, 3));
    /// assert_eq!(cpu.queue_read(&whole[0])?, (vec![2, 3], vec![0, 0]));
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn all_gather_set<S: Semiring>(
        &self,
        local: &mut [QueueOf<Self, S>],
        whole: &mut [QueueOf<Self, S>],
        part: &Partition,
        fill: S::T,
        dense: bool,
    ) -> Result<QueueInfo>
    where
        Self::Backend: Frontier;
}

/// `k` ranks in one process over backends of one kind, exchanging vectors through host
/// memory: the reference for a real communicator, and a way to run the distributed
/// algorithms with `k` partitions on one device (every rank may be the same backend).
///
/// ```
/// use semigraph_algos::dist::{Communicator, LocalComm, Partition};
/// use semigraph_algos::prelude::*;
/// use semigraph_semiring::MinPlus;
///
/// let cpu = CpuBackend::new();
/// let comm = LocalComm::new(vec![&cpu, &cpu]);
/// let part = Partition::even(4, 2)?;
/// let mut x = vec![
///     cpu.dense::<MinPlus<i32>>(4, 1, &[1, 2, 0, 0])?,
///     cpu.dense::<MinPlus<i32>>(4, 1, &[0, 0, 3, 4])?,
/// ];
/// comm.all_gather::<MinPlus<i32>>(&mut x, &part)?;
/// assert_eq!(cpu.read_dense(&x[1])?, vec![1, 2, 3, 4]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct LocalComm<'b, B: Backend> {
    backends: Vec<&'b B>,
}

impl<'b, B: Backend> LocalComm<'b, B> {
    /// One rank per backend given (the same backend may be given several times).
    ///
    /// # Panics
    /// With no backend (a communicator has at least one rank).
    pub fn new(backends: Vec<&'b B>) -> Self {
        assert!(!backends.is_empty(), "a communicator has at least one rank");
        LocalComm { backends }
    }

    /// Every rank's queue entries read back and emptied, ids shifted by the rank's first
    /// vertex, concatenated rank by rank; and the largest step count.
    fn gather_entries<S: Semiring>(
        &self,
        local: &mut [B::Queue<S>],
        part: &Partition,
    ) -> Result<(Vec<u32>, Vec<S::T>, usize)>
    where
        B: Frontier,
    {
        let (mut idx, mut vals, mut steps) = (Vec::new(), Vec::new(), 0);
        for (r, (q, b)) in local.iter_mut().zip(&self.backends).enumerate() {
            steps = steps.max(b.queue_len(q)?.steps);
            let (i, v) = b.queue_read(q)?;
            let lo = part.range(r).start as u32;
            idx.extend(i.into_iter().map(|i| i + lo));
            vals.extend(v);
            b.queue_clear(q)?;
        }
        Ok((idx, vals, steps))
    }

    /// Every rank's whole queue set to the entries `idx`, `vals` of step count `steps`.
    fn set_whole<S: Semiring>(
        &self,
        whole: &mut [B::Queue<S>],
        idx: &[u32],
        vals: &[S::T],
        steps: usize,
    ) -> Result<QueueInfo>
    where
        B: Frontier,
    {
        for (q, b) in whole.iter_mut().zip(&self.backends) {
            b.queue_set(q, idx, vals, steps)?;
        }
        Ok(QueueInfo {
            len: idx.len(),
            total: idx.len(),
            steps,
        })
    }

    /// Every rank's array, read back.
    fn read_all<S: Semiring>(&self, x: &[B::Dense<S>]) -> Result<Vec<Vec<S::T>>> {
        x.iter()
            .zip(&self.backends)
            .map(|(x, b)| b.read_dense(x))
            .collect()
    }

    /// Every rank's array replaced by `data` (`rows x cols`).
    fn write_all<S: Semiring>(
        &self,
        x: &mut [B::Dense<S>],
        rows: usize,
        cols: usize,
        data: &[S::T],
    ) -> Result<()> {
        for (x, b) in x.iter_mut().zip(&self.backends) {
            *x = b.dense::<S>(rows, cols, data)?;
        }
        Ok(())
    }
}

impl<B: Backend> Communicator for LocalComm<'_, B> {
    type Backend = B;

    fn ranks(&self) -> usize {
        self.backends.len()
    }

    fn backend(&self, r: usize) -> &B {
        self.backends[r]
    }

    fn all_gather<S: Semiring>(&self, x: &mut [B::Dense<S>], part: &Partition) -> Result<()> {
        let (rows, cols) = self.backends[0].dense_shape(&x[0]);
        assert_eq!(rows, part.n(), "all_gather: the arrays have n rows");
        let all = self.read_all(x)?;
        let mut full = Vec::with_capacity(rows * cols);
        for (r, a) in all.iter().enumerate() {
            let seg = part.range(r);
            full.extend_from_slice(&a[seg.start * cols..seg.end * cols]);
        }
        self.write_all(x, rows, cols, &full)
    }

    fn all_gather_from<S: Semiring>(
        &self,
        local: &[B::Dense<S>],
        x: &mut [B::Dense<S>],
        part: &Partition,
    ) -> Result<()> {
        let (rows, cols) = self.backends[0].dense_shape(&x[0]);
        assert_eq!(rows, part.n(), "all_gather_from: the arrays have n rows");
        let mut full = Vec::with_capacity(rows * cols);
        for (r, a) in self.read_all(local)?.into_iter().enumerate() {
            assert_eq!(a.len(), part.range(r).len() * cols, "rank {r}'s block");
            full.extend(a);
        }
        self.write_all(x, rows, cols, &full)
    }

    fn all_reduce<S: Semiring>(&self, x: &mut [B::Dense<S>], _op: Reduce) -> Result<()> {
        let (rows, cols) = self.backends[0].dense_shape(&x[0]);
        let mut all = self.read_all(x)?.into_iter();
        let mut acc = all.next().unwrap_or_default();
        for a in all {
            for (s, v) in acc.iter_mut().zip(a) {
                *s = S::add(*s, v);
            }
        }
        self.write_all(x, rows, cols, &acc)
    }

    fn broadcast_within<S: Semiring>(
        &self,
        src: &[B::Dense<S>],
        dst: &mut [B::Dense<S>],
        groups: &[Group],
    ) -> Result<()> {
        for (root, members) in groups {
            let from = self.backends[*root];
            let (rows, cols) = from.dense_shape(&src[*root]);
            let data = from.read_dense(&src[*root])?;
            for &r in members.iter().filter(|&&r| r != *root) {
                dst[r] = self.backends[r].dense::<S>(rows, cols, &data)?;
            }
        }
        Ok(())
    }

    fn all_gather_queue<S: Semiring>(
        &self,
        local: &mut [B::Queue<S>],
        whole: &mut [B::Queue<S>],
        part: &Partition,
    ) -> Result<QueueInfo>
    where
        B: Frontier,
    {
        let (idx, vals, steps) = self.gather_entries(local, part)?;
        self.set_whole(whole, &idx, &vals, steps)
    }

    fn all_gather_set<S: Semiring>(
        &self,
        local: &mut [B::Queue<S>],
        whole: &mut [B::Queue<S>],
        part: &Partition,
        fill: S::T,
        _dense: bool,
    ) -> Result<QueueInfo>
    where
        B: Frontier,
    {
        // The gathered ids, rank by rank, with `fill` for the values that do not travel.
        let (idx, _, steps) = self.gather_entries(local, part)?;
        self.set_whole(whole, &idx, &vec![fill; idx.len()], steps)
    }
}

/// `f(r, backend, item)` for every rank at once, one task per rank on rayon's pool, with
/// `items[r]`: one rank's waits (a count read back, an allocation sized by the device)
/// overlap the other ranks' work.
pub(crate) fn par_ranks<C: Communicator, T: Send, U: Send>(
    comm: &C,
    items: Vec<T>,
    f: impl Fn(usize, &C::Backend, T) -> Result<U> + Sync,
) -> Result<Vec<U>> {
    use rayon::prelude::*;
    assert_eq!(items.len(), comm.ranks(), "one item per rank");
    items
        .into_par_iter()
        .enumerate()
        .map(|(r, item)| f(r, comm.backend(r), item))
        .collect()
}
