//! Several ranks on one GPU: [`SharedComm`], a [`Communicator`] whose ranks share one
//! [`GpuBackend`] and exchange by copies within its memory, and [`GpuComm`], the ranks of a
//! distributed computation on GPUs whichever way they are laid out.
//!
//! A graph of more arcs than one CSR's 32-bit row offsets count (2^32 - 1) runs on one GPU as
//! the row blocks of a distributed graph, each block below that limit: the distributed
//! algorithms of `semigraph_algos::dist` run on it unchanged, their collectives become copies
//! within the device.

use cudarc::driver::CudaSlice;
use semigraph_algos::dist::{Communicator, Group, Partition, Reduce};
use semigraph_algos::{ElementWise, Ewise, Mask, QueueInfo};
use semigraph_semiring::Semiring;

use crate::backend::{GpuBackend, GpuDense, GpuQueue};
use crate::error::{GpuError, driver};
use crate::nccl::{NcclComm, byte_range, gather_queue_finish, gather_queue_lengths};

/// `ranks` ranks on one GPU, sharing its [`GpuBackend`]: every rank's arrays are buffers of
/// that GPU, and the collectives are copies between them on the backend's stream (ordered
/// with the kernels, no host wait but the queue lengths' reads, as with NCCL). The
/// all-reduce is the semiring's own `add` ([`Ewise::Add`]), so it also reduces values NCCL
/// has no operation for (packed distance-predecessor pairs).
///
/// ```no_run
/// use semigraph_algos::dist::{self, DistGraph, DistOptions};
/// use semigraph_algos::{BfsOptions, BfsSemiring};
/// use semigraph_formats::generate;
/// use semigraph_gpu::{GpuBackend, SharedComm};
///
/// let g = generate::kronecker(16, 16, 1);
/// let comm = SharedComm::new(GpuBackend::new()?, 3)?; // three blocks on GPU 0
/// let dg = DistGraph::<_, BfsSemiring>::pattern_from_edges(&comm, &g, DistOptions::default())?;
/// let r = dist::bfs(&dg, 0, &BfsOptions::default())?;
/// println!("{} vertices reached in {} levels", r.reached, r.depth);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SharedComm {
    backend: GpuBackend,
    ranks: usize,
}

impl SharedComm {
    /// `ranks` ranks on `backend`'s GPU.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for no rank.
    pub fn new(backend: GpuBackend, ranks: usize) -> Result<SharedComm, GpuError> {
        if ranks == 0 {
            return Err(GpuError::InvalidInput(
                "a communicator has at least one rank".into(),
            ));
        }
        Ok(SharedComm { backend, ranks })
    }

    /// The GPU's backend (every rank's).
    pub fn gpu(&self) -> &GpuBackend {
        &self.backend
    }

    /// Copies `src` into `dst` on the backend's stream (the same length of bytes).
    fn copy(
        &self,
        src: &CudaSlice<u8>,
        dst: &mut CudaSlice<u8>,
        range: Bytes,
    ) -> Result<(), GpuError> {
        self.copy_to(src, 0..range.len(), dst, range)
    }

    /// Copies bytes `from` of `src` into bytes `to` of `dst` (ranges of one length).
    fn copy_to<T: cudarc::driver::DeviceRepr>(
        &self,
        src: &CudaSlice<T>,
        from: std::ops::Range<usize>,
        dst: &mut CudaSlice<T>,
        to: std::ops::Range<usize>,
    ) -> Result<(), GpuError> {
        debug_assert_eq!(from.len(), to.len(), "a copy's ranges");
        if from.is_empty() {
            return Ok(());
        }
        self.backend
            .dev
            .stream
            .memcpy_dtod(&src.slice(from), &mut dst.slice_mut(to))
            .map_err(|e| driver("copy between ranks on one GPU", e))
    }
}

type Bytes = std::ops::Range<usize>;

/// `(&xs[i], &mut xs[j])` for `i != j`.
fn pair<T>(xs: &mut [T], i: usize, j: usize) -> (&T, &mut T) {
    assert_ne!(i, j, "two different ranks");
    if i < j {
        let (a, b) = xs.split_at_mut(j);
        (&a[i], &mut b[0])
    } else {
        let (a, b) = xs.split_at_mut(i);
        (&b[0], &mut a[j])
    }
}

impl Communicator for SharedComm {
    type Backend = GpuBackend;

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn backend(&self, _r: usize) -> &GpuBackend {
        &self.backend
    }

    fn all_gather<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        let cols = x[0].shape().1;
        for root in 0..part.ranks() {
            let range = byte_range::<S>(part.range(root), cols);
            for r in (0..x.len()).filter(|&r| r != root) {
                let (src, dst) = pair(x, root, r);
                self.copy_to(src.bytes(), range.clone(), dst.bytes_mut(), range.clone())?;
            }
        }
        Ok(())
    }

    fn all_gather_from<S: Semiring>(
        &self,
        local: &[GpuDense<S>],
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        let cols = x[0].shape().1;
        for (root, block) in local.iter().enumerate() {
            let range = byte_range::<S>(part.range(root), cols);
            for x in x.iter_mut() {
                self.copy(block.bytes(), x.bytes_mut(), range.clone())?;
            }
        }
        Ok(())
    }

    fn all_reduce<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        _op: Reduce,
    ) -> semigraph_algos::Result<()> {
        // Rank 0 accumulates every other rank's array, then every rank takes rank 0's.
        let Some((acc, rest)) = x.split_first_mut() else {
            return Ok(());
        };
        for y in rest.iter() {
            self.backend.ewise(acc, Mask::All, Ewise::Add, y)?;
        }
        let bytes = acc.shape().0 * acc.shape().1 * size_of::<S::T>();
        for y in rest.iter_mut() {
            self.copy(acc.bytes(), y.bytes_mut(), 0..bytes)?;
        }
        Ok(())
    }

    fn broadcast_within<S: Semiring>(
        &self,
        src: &[GpuDense<S>],
        dst: &mut [GpuDense<S>],
        groups: &[Group],
    ) -> semigraph_algos::Result<()> {
        for (root, members) in groups {
            let from = &src[*root];
            let bytes = from.shape().0 * from.shape().1 * size_of::<S::T>();
            for &r in members.iter().filter(|&&r| r != *root) {
                assert_eq!(
                    dst[r].shape(),
                    from.shape(),
                    "broadcast_within: block shapes"
                );
                self.copy(from.bytes(), dst[r].bytes_mut(), 0..bytes)?;
            }
        }
        Ok(())
    }

    fn all_gather_queue<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<QueueInfo> {
        self.gather_entries(local, whole, part, None)
    }

    /// Within one GPU the entries' copies cost about what a bitmap would: `dense` changes
    /// nothing here.
    fn all_gather_set<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: S::T,
        _dense: bool,
    ) -> semigraph_algos::Result<QueueInfo> {
        self.gather_entries(local, whole, part, Some(fill))
    }
}

impl SharedComm {
    /// The all-gather of queues by copies of their entries: the ids (and, without `fill`,
    /// the values) of every non-empty block into every whole queue.
    fn gather_entries<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: Option<S::T>,
    ) -> semigraph_algos::Result<QueueInfo> {
        let (lens, total, steps) = gather_queue_lengths(self, local, whole, part)?;
        let size = size_of::<S::T>();
        let mut at = 0;
        for (r, q) in local.iter().enumerate() {
            let len = lens[r];
            if len == 0 {
                continue;
            }
            let (ids, vals) = q.buffers();
            for w in whole.iter_mut() {
                let (wi, wv) = w.buffers_mut();
                self.copy_to(ids, 0..len, wi, at..at + len)?;
                if fill.is_none() {
                    self.copy_to(vals, 0..len * size, wv, at * size..(at + len) * size)?;
                }
            }
            at += len;
        }
        gather_queue_finish(self, local, whole, (total, steps), fill)
    }
}

/// The ranks of a distributed computation on GPUs: one GPU a rank through NCCL
/// ([`NcclComm`]), or several ranks on one GPU ([`SharedComm`], for graphs whose blocks must
/// stay below 32-bit row offsets). A [`Communicator`] either way, so that one instance of the
/// distributed algorithms serves both.
pub enum GpuComm {
    /// GPUs `0..k`, one rank each.
    Nccl(NcclComm),
    /// Ranks sharing one GPU (boxed: the backend is large beside NCCL's handles).
    Shared(Box<SharedComm>),
}

macro_rules! each_comm {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            GpuComm::Nccl($c) => $e,
            GpuComm::Shared($c) => $e,
        }
    };
}

impl From<SharedComm> for GpuComm {
    fn from(c: SharedComm) -> GpuComm {
        GpuComm::Shared(Box::new(c))
    }
}

impl From<NcclComm> for GpuComm {
    fn from(c: NcclComm) -> GpuComm {
        GpuComm::Nccl(c)
    }
}

impl GpuComm {
    /// How the ranks are laid out, in words: `2 GPUs (NCCL)`, `3 blocks on one GPU`.
    pub fn describe(&self) -> String {
        match self {
            GpuComm::Nccl(c) => format!("{} GPUs (NCCL)", c.ranks()),
            GpuComm::Shared(c) => format!("{} blocks on one GPU", c.ranks()),
        }
    }

    /// Waits for every GPU.
    ///
    /// # Errors
    /// The driver's.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        match self {
            GpuComm::Nccl(c) => c.synchronize(),
            GpuComm::Shared(c) => c.backend.dev.sync(),
        }
    }
}

impl Communicator for GpuComm {
    type Backend = GpuBackend;

    fn ranks(&self) -> usize {
        each_comm!(self, c => c.ranks())
    }

    fn backend(&self, r: usize) -> &GpuBackend {
        each_comm!(self, c => c.backend(r))
    }

    fn all_gather<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        each_comm!(self, c => c.all_gather::<S>(x, part))
    }

    fn all_gather_from<S: Semiring>(
        &self,
        local: &[GpuDense<S>],
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        each_comm!(self, c => c.all_gather_from::<S>(local, x, part))
    }

    fn all_reduce<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        op: Reduce,
    ) -> semigraph_algos::Result<()> {
        each_comm!(self, c => c.all_reduce::<S>(x, op))
    }

    fn broadcast_within<S: Semiring>(
        &self,
        src: &[GpuDense<S>],
        dst: &mut [GpuDense<S>],
        groups: &[Group],
    ) -> semigraph_algos::Result<()> {
        each_comm!(self, c => c.broadcast_within::<S>(src, dst, groups))
    }

    fn all_gather_queue<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<QueueInfo> {
        each_comm!(self, c => c.all_gather_queue::<S>(local, whole, part))
    }

    fn all_gather_set<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: S::T,
        dense: bool,
    ) -> semigraph_algos::Result<QueueInfo> {
        each_comm!(self, c => c.all_gather_set::<S>(local, whole, part, fill, dense))
    }
}
