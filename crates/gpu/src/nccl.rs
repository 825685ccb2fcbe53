//! Several GPUs of one host as the ranks of a distributed computation: [`NcclComm`], a
//! [`Communicator`] whose collectives are NCCL's (one process, one context and one
//! communicator per GPU, created once).

use cudarc::driver::{CudaContext, CudaView};
use cudarc::nccl::{Comm, ReduceOp, group_end, group_start};
use semigraph_algos::dist::{Communicator, Group, Partition, Reduce};
use semigraph_algos::{Frontier, QueueInfo};
use semigraph_semiring::{Scalar, ScalarType, Semiring};

use crate::backend::{GpuBackend, GpuDense, GpuQueue};
use crate::device::driver_present;
use crate::error::{GpuError, nccl};

/// Whether the NCCL library can be loaded (cudarc looks for `libnccl.so` on the loader path).
pub fn nccl_present() -> bool {
    // SAFETY: loading a shared library runs its initialisers; NCCL's only set up its own state.
    unsafe { cudarc::nccl::sys::is_culib_present() }
}

/// The number of CUDA devices (0 without a driver).
pub fn device_count() -> usize {
    if !driver_present() {
        return 0;
    }
    CudaContext::device_count().map_or(0, |c| c.max(0) as usize)
}

/// `k` GPUs of this host, one rank each: a [`GpuBackend`] per device and an NCCL communicator
/// per device, all made once (`ncclCommInitAll`). Collectives are grouped NCCL calls on each
/// backend's stream, so they are ordered with the backends' kernels without a host wait.
///
/// The all-gather of owned rows (blocks of unequal length) is a group of broadcasts, one per
/// owning rank, in place; the all-reduce maps [`Reduce`] to NCCL's sum, minimum or maximum
/// over the semiring's value type (`bool` as bytes: `or` is the maximum).
///
/// Keep `NVLink` multicast off where the GPUs are shared (`NCCL_NVLS_ENABLE=0`): the
/// collectives here gain nothing from it.
///
/// ```no_run
/// use semigraph_algos::dist::{self, DistGraph, DistOptions};
/// use semigraph_algos::{BfsOptions, BfsSemiring};
/// use semigraph_formats::generate;
/// use semigraph_gpu::NcclComm;
///
/// let a = generate::kronecker(20, 16, 1).to_csr::<BfsSemiring, u32>()?;
/// let comm = NcclComm::new(2)?; // GPUs 0 and 1
/// let g = DistGraph::new(&comm, &a, DistOptions::default())?;
/// let r = dist::bfs(&g, 0, &BfsOptions::default())?;
/// println!("{} vertices reached in {} levels", r.reached, r.depth);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct NcclComm {
    // Dropped before the backends (their contexts outlive the communicators).
    comms: std::sync::Mutex<Comms>,
    /// Each rank's bitmap of a set's vertices ([`Communicator::all_gather_set`]), made at the
    /// first dense gather and kept.
    marks: std::sync::Mutex<Vec<Option<cudarc::driver::CudaSlice<u8>>>>,
    backends: Vec<GpuBackend>,
}

/// The communicators, one per rank, behind [`NcclComm`]'s lock.
struct Comms(Vec<Comm>);

// SAFETY: an NCCL communicator may be used from any thread as long as no two calls on it run
// at once (NCCL's thread-safety rule); `NcclComm` reaches them only through its mutex, so
// every call on them is serialised, and the rest of `Comm` (its stream) is `Send`.
unsafe impl Send for Comms {}

impl NcclComm {
    /// Opens GPUs `0..gpus` and an NCCL communicator over them.
    ///
    /// # Errors
    /// `InvalidArgument`-like [`GpuError::NoDevice`] when fewer GPUs are present than asked
    /// for (or none is asked for); [`GpuError::LibraryMissing`] without the driver or NCCL;
    /// the backends' and NCCL's own errors.
    pub fn new(gpus: usize) -> Result<NcclComm, GpuError> {
        if !driver_present() {
            return Err(GpuError::LibraryMissing {
                library: "libcuda",
                hint: "no NVIDIA driver is installed on this machine",
            });
        }
        let present = device_count();
        if gpus == 0 || gpus > present {
            return Err(GpuError::NoDevice(format!(
                "{gpus} GPUs requested, {present} present"
            )));
        }
        if !nccl_present() {
            return Err(GpuError::LibraryMissing {
                library: "libnccl",
                hint: "several GPUs need NCCL (pip's nvidia-nccl-cu13 ships lib/libnccl.so.2: \
                       link it as libnccl.so in a folder on LD_LIBRARY_PATH)",
            });
        }
        let backends = (0..gpus)
            .map(GpuBackend::on_device)
            .collect::<Result<Vec<_>, _>>()?;
        let streams = backends.iter().map(|b| b.dev.stream.clone()).collect();
        let comms = Comm::from_devices(streams).map_err(|e| nccl("ncclCommInitAll", e))?;
        Ok(NcclComm {
            comms: std::sync::Mutex::new(Comms(comms)),
            marks: std::sync::Mutex::new((0..gpus).map(|_| None).collect()),
            backends,
        })
    }

    /// The backends, rank by rank (rank `r` on GPU `r`).
    pub fn backends(&self) -> &[GpuBackend] {
        &self.backends
    }

    /// Waits for every GPU.
    ///
    /// # Errors
    /// The driver's.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        self.backends.iter().try_for_each(|b| b.dev.sync())
    }

    /// Runs `calls` (one NCCL call per rank and root, given the communicators) as one NCCL
    /// group, holding the communicators' lock.
    fn group(
        &self,
        what: &str,
        calls: impl FnOnce(&[Comm]) -> Result<(), cudarc::nccl::result::NcclError>,
    ) -> Result<(), GpuError> {
        let comms = self.comms.lock().unwrap_or_else(|p| p.into_inner());
        group_start().map_err(|e| nccl(what, e))?;
        let r = calls(&comms.0);
        let end = group_end().map(|_| ());
        r.and(end).map_err(|e| nccl(what, e))
    }
}

/// The bits of a 16-bit float as NCCL sees them: `F16` for `f16`, `BF16` for `bf16` (the
/// values are never read on the host).
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Half<const KIND: u8>(u16);

impl Half<0> {
    const F16: u8 = 0;
    const BF16: u8 = 1;
}

impl<const KIND: u8> cudarc::nccl::NcclType for Half<KIND> {
    fn as_nccl_type() -> cudarc::nccl::sys::ncclDataType_t {
        match KIND {
            Half::F16 => cudarc::nccl::sys::ncclDataType_t::ncclFloat16,
            _ => cudarc::nccl::sys::ncclDataType_t::ncclBfloat16,
        }
    }
}

/// Byte range of rows `rows` of an `n x cols` array of `S`.
pub(crate) fn byte_range<S: Semiring>(
    rows: std::ops::Range<usize>,
    cols: usize,
) -> std::ops::Range<usize> {
    let row = cols * size_of::<S::T>();
    rows.start * row..rows.end * row
}

/// The first half of an all-gather of queues, the same between GPUs or within one: each
/// rank's queue length and step count read back (one header read a rank, so that only the
/// entries travel), and each non-empty block's ids renumbered into the graph's on its rank.
/// Returns the lengths, their sum and the largest step count.
pub(crate) fn gather_queue_lengths<C: Communicator<Backend = GpuBackend>, S: Semiring>(
    comm: &C,
    local: &mut [GpuQueue<S>],
    whole: &[GpuQueue<S>],
    part: &Partition,
) -> Result<(Vec<usize>, usize, usize), GpuError> {
    let (mut lens, mut steps) = (Vec::with_capacity(local.len()), 0);
    for (r, q) in local.iter().enumerate() {
        let h = comm.backend(r).read_hdr(q)?;
        lens.push(h[0] as usize);
        steps = steps.max(h[1] as usize);
    }
    let total: usize = lens.iter().sum();
    assert!(
        whole.iter().all(|w| w.capacity() >= total),
        "all_gather_queue: the whole queues hold n entries"
    );
    for (r, q) in local.iter_mut().enumerate() {
        let lo = part.range(r).start;
        if lens[r] > 0 && lo > 0 {
            comm.backend(r).queue_shift(q, lo as u32)?;
        }
    }
    Ok((lens, total, steps))
}

/// The last half of an all-gather of queues: every whole queue told it holds `total`
/// entries of step count `steps` (with `fill`, their values set to it: the values did not
/// travel), every local queue emptied.
pub(crate) fn gather_queue_finish<C: Communicator<Backend = GpuBackend>, S: Semiring>(
    comm: &C,
    local: &mut [GpuQueue<S>],
    whole: &mut [GpuQueue<S>],
    (total, steps): (usize, usize),
    fill: Option<S::T>,
) -> semigraph_algos::Result<QueueInfo> {
    for (r, (w, q)) in whole.iter_mut().zip(local).enumerate() {
        let b = comm.backend(r);
        b.queue_filled(w, total, steps)?;
        if let Some(v) = fill {
            b.queue_fill_values(w, total, v)?;
        }
        b.queue_clear(q)?;
    }
    Ok(QueueInfo {
        len: total,
        total,
        steps,
    })
}

/// The whole buffer of a dense array, and its first `bytes` as a view.
fn bytes_of<S: Semiring>(x: &GpuDense<S>, bytes: usize) -> CudaView<'_, u8> {
    x.bytes().slice(0..bytes)
}

impl Communicator for NcclComm {
    type Backend = GpuBackend;

    fn ranks(&self) -> usize {
        self.backends.len()
    }

    fn backend(&self, r: usize) -> &GpuBackend {
        &self.backends[r]
    }

    fn all_gather<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        let cols = x[0].shape().1;
        self.group("all-gather (broadcasts)", |comms| {
            for root in 0..part.ranks() {
                let range = byte_range::<S>(part.range(root), cols);
                if range.is_empty() {
                    continue;
                }
                for (comm, x) in comms.iter().zip(x.iter_mut()) {
                    let mut view = x.bytes_mut().slice_mut(range.clone());
                    comm.broadcast_in_place(&mut view, root as i32)?;
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    fn all_gather_from<S: Semiring>(
        &self,
        local: &[GpuDense<S>],
        x: &mut [GpuDense<S>],
        part: &Partition,
    ) -> semigraph_algos::Result<()> {
        let cols = x[0].shape().1;
        self.group("all-gather (broadcasts)", |comms| {
            for (root, block) in local.iter().enumerate() {
                let range = byte_range::<S>(part.range(root), cols);
                if range.is_empty() {
                    continue;
                }
                let src = bytes_of(block, range.len());
                for (r, (comm, x)) in comms.iter().zip(x.iter_mut()).enumerate() {
                    let mut view = x.bytes_mut().slice_mut(range.clone());
                    let send = (r == root).then_some(&src);
                    comm.broadcast(send, &mut view, root as i32)?;
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    fn all_reduce<S: Semiring>(
        &self,
        x: &mut [GpuDense<S>],
        op: Reduce,
    ) -> semigraph_algos::Result<()> {
        let op = match op {
            Reduce::Sum => ReduceOp::Sum,
            Reduce::Min => ReduceOp::Min,
            Reduce::Max => ReduceOp::Max,
        };
        let t = <S::T as Scalar>::TYPE;
        macro_rules! typed {
            ($t:ty) => {
                self.reduce_as::<S, $t>(x, &op)
            };
        }
        match t {
            ScalarType::Bool => typed!(u8),
            ScalarType::I32 => typed!(i32),
            ScalarType::I64 => typed!(i64),
            ScalarType::U32 => typed!(u32),
            ScalarType::U64 => typed!(u64),
            ScalarType::F16 => typed!(Half<{ Half::F16 }>),
            ScalarType::Bf16 => typed!(Half<{ Half::BF16 }>),
            ScalarType::F32 => typed!(f32),
            ScalarType::F64 => typed!(f64),
            _ => Err(semigraph_algos::Error::InvalidArgument(format!(
                "NCCL has no reduction over packed distance-predecessor pairs ({})",
                t.name()
            ))),
        }
    }

    fn broadcast_within<S: Semiring>(
        &self,
        src: &[GpuDense<S>],
        dst: &mut [GpuDense<S>],
        groups: &[Group],
    ) -> semigraph_algos::Result<()> {
        // NCCL's broadcast spans a whole communicator, so a group's is the root's sends to
        // each member and the members' receives (point to point), all in one NCCL group.
        self.group("broadcast within groups (send, receive)", |comms| {
            for (root, members) in groups {
                let from = &src[*root];
                let bytes = from.shape().0 * from.shape().1 * size_of::<S::T>();
                let send = bytes_of(from, bytes);
                for &r in members.iter().filter(|&&r| r != *root) {
                    assert_eq!(
                        dst[r].shape(),
                        from.shape(),
                        "broadcast_within: block shapes"
                    );
                    comms[*root].send(&send, r as i32)?;
                    let mut to = dst[r].bytes_mut().slice_mut(0..bytes);
                    comms[r].recv(&mut to, *root as i32)?;
                }
            }
            Ok(())
        })?;
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

    fn all_gather_set<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: S::T,
        dense: bool,
    ) -> semigraph_algos::Result<QueueInfo> {
        match dense {
            true => self.gather_marks(local, whole, part, fill),
            false => self.gather_entries(local, whole, part, Some(fill)),
        }
    }
}

impl NcclComm {
    /// The all-gather of queues by entries: each rank's length read back, then one group of
    /// broadcasts of the ids (and, without `fill`, the values) of every non-empty block.
    fn gather_entries<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: Option<S::T>,
    ) -> semigraph_algos::Result<QueueInfo> {
        let (lens, total, steps) = gather_queue_lengths(self, local, whole, part)?;
        let size = size_of::<S::T>();
        self.group("all-gather (queues)", |comms| {
            let mut at = 0;
            for (root, q) in local.iter().enumerate() {
                let len = lens[root];
                if len == 0 {
                    continue;
                }
                let (ids, vals) = q.buffers();
                let (ids, vals) = (ids.slice(0..len), vals.slice(0..len * size));
                for (r, (comm, w)) in comms.iter().zip(whole.iter_mut()).enumerate() {
                    let (wi, wv) = w.buffers_mut();
                    let root_id = root as i32;
                    let mut to = wi.slice_mut(at..at + len);
                    comm.broadcast((r == root).then_some(&ids), &mut to, root_id)?;
                    if fill.is_none() {
                        let mut to = wv.slice_mut(at * size..(at + len) * size);
                        comm.broadcast((r == root).then_some(&vals), &mut to, root_id)?;
                    }
                }
                at += len;
            }
            Ok(())
        })?;
        gather_queue_finish(self, local, whole, (total, steps), fill)
    }

    /// The all-gather of a set as a bitmap: each rank marks its block's vertices in a bitmap
    /// of the whole graph (`n` bits, zero elsewhere) followed by one word a rank, its own
    /// holding its step count; one NCCL sum makes every rank's the union of the bitmaps (the
    /// blocks' bits are disjoint) and every step count; every rank's whole queue becomes the
    /// set bits, with the largest step count, and one header (rank 0's) is read back. `n / 8`
    /// bytes a rank whatever the set holds.
    fn gather_marks<S: Semiring>(
        &self,
        local: &mut [GpuQueue<S>],
        whole: &mut [GpuQueue<S>],
        part: &Partition,
        fill: S::T,
    ) -> semigraph_algos::Result<QueueInfo> {
        let (words, k) = (part.n().div_ceil(32), self.backends.len());
        let len = words + k;
        let mut marks = self.marks.lock().unwrap_or_else(|p| p.into_inner());
        for (r, m) in marks.iter_mut().enumerate() {
            if m.as_ref().is_none_or(|m| m.len() < len * 4) {
                *m = Some(
                    self.backends[r]
                        .dev
                        .zeros::<u8>(len * 4, "a set's bitmap")?,
                );
            }
        }
        for (r, (q, m)) in local.iter().zip(marks.iter_mut()).enumerate() {
            let (b, m) = (&self.backends[r], m.as_mut().expect("made above"));
            b.dev
                .stream
                .memset_zeros(&mut m.slice_mut(0..len * 4))
                .map_err(|e| crate::error::driver("clear a set's bitmap", e))?;
            b.queue_mark(q, part.range(r).start, m, words + r)?;
        }
        self.group("all-gather (a set's bitmaps)", |comms| {
            for (comm, m) in comms.iter().zip(marks.iter_mut()) {
                let m = m.as_mut().expect("made above");
                // SAFETY: the buffer holds at least `len` 4-byte words (made above), and `u32`
                // has no invalid bit patterns.
                let mut all = unsafe { m.transmute_mut::<u32>(len) }
                    .expect("the buffer holds the bitmap and the step words");
                comm.all_reduce_in_place(&mut all, &ReduceOp::Sum)?;
            }
            Ok(())
        })?;
        for (r, (w, m)) in whole.iter_mut().zip(marks.iter()).enumerate() {
            let b = &self.backends[r];
            b.queue_from_marks(m.as_ref().expect("made above"), (words, k), fill, w)?;
            b.queue_clear(&mut local[r])?;
        }
        let info = self.backends[0].queue_len(&whole[0])?;
        Ok(QueueInfo {
            len: info.len,
            total: info.len,
            steps: info.steps,
        })
    }

    /// [`Communicator::all_reduce`] with the values seen as `T`, NCCL's type of the same bits.
    fn reduce_as<S: Semiring, T: cudarc::nccl::NcclType>(
        &self,
        x: &mut [GpuDense<S>],
        op: &ReduceOp,
    ) -> semigraph_algos::Result<()> {
        assert_eq!(size_of::<T>(), size_of::<S::T>(), "NCCL type of the values");
        let len = x[0].shape().0 * x[0].shape().1;
        self.group("all-reduce", |comms| {
            for (comm, x) in comms.iter().zip(x.iter_mut()) {
                // SAFETY: the buffer holds `len` values of `S::T`, and `T` is the NCCL type of
                // the same size whose bits `S::T` uses (`ScalarType` says which), so the view
                // covers the buffer's values and nothing past it.
                let mut view = unsafe { x.bytes_mut().transmute_mut::<T>(len) }
                    .expect("the buffer holds len values");
                comm.all_reduce_in_place(&mut view, op)?;
            }
            Ok(())
        })?;
        Ok(())
    }
}
